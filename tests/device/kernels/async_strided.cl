/* async_strided.cl - async_work_group_strided_copy gather and scatter, and
 * prefetch. */
__kernel void async_strided(__global const uint *in, __global uint *out) {
  __local uint tmp[64];
  int lid = get_local_id(0), grp = get_group_id(0);
  prefetch(in + grp * 64 * 3, 64 * 3);
  event_t e = async_work_group_strided_copy(tmp, in + grp * 64 * 3 + 1, 64, 3, 0);
  wait_group_events(1, &e);
  tmp[lid] += (uint)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + grp * 128, tmp, 64, 2, 0);
  wait_group_events(1, &e);
}
