/* wgcollect.cl - work-group functions stepped one work-item at a time */
__kernel void k(__global int *out, __global int *in) {
  int gid = get_global_id(0);
  int x = in[gid * 8] + 1;
  int s = work_group_reduce_add(x);
  int p = work_group_scan_exclusive_add(x);
  int b = work_group_broadcast(x, 2);
  out[gid] = s * 10000 + p * 100 + b;
}
