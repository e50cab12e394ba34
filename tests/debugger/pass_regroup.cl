/* pass_regroup.cl - a sub-group reduction in a pass after one work-item
 * moved alone: the rebuilt warp's lanes reach it apart, and it still runs
 * once for the whole sub-group */
__kernel void k(__global int *out) {
  int gid = get_global_id(0);
  int x = gid + 1;
  if (gid % 2) x *= 10;
  int s = sub_group_reduce_add(x);
  int n = get_sub_group_size();
  out[gid] = s * 100 + n;
}
