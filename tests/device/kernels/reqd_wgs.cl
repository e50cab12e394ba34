/* reqd_wgs.cl - reqd_work_group_size fixes the local size. */
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void reqd_wgs(__global uint *out) {
  __local uint l[16];
  l[get_local_id(0)] = get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = l[15 - get_local_id(0)] + 1000 * get_local_size(0);
}
