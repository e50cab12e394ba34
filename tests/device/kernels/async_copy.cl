/* async_copy.cl - async_work_group_copy global to local and back, with
 * wait_group_events, over int and float4 elements. */
__kernel void async_copy(__global const int *in, __global int *out, __local int *tmp,
                         __local float4 *t4) {
  int lid = get_local_id(0), lsz = get_local_size(0), grp = get_group_id(0);
  event_t e = async_work_group_copy(tmp, in + grp * lsz, lsz, 0);
  event_t e2 = async_work_group_copy(t4, (__global const float4 *)(in + grp * lsz), lsz / 4, 0);
  wait_group_events(1, &e);
  wait_group_events(1, &e2);
  int v = tmp[lid] * 2 + tmp[lsz - 1 - lid] + (int)(((__local float *)t4)[lid] * 1e6f);
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e3 = async_work_group_copy(out + grp * lsz, tmp, lsz, 0);
  wait_group_events(1, &e3);
}
