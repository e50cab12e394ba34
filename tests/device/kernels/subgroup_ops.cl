/* subgroup_ops.cl - sub-group queries, any/all, min/max reductions,
 * exclusive scans and sub_group_barrier (sub-group = warp). */
__kernel void subgroup_ops(__global int *out) {
  __local int l[128];
  int g = get_global_id(0), lid = get_local_id(0);
  int x = (g * 37) % 101 - 50;
  __global int *o = out + 10 * g;
  o[0] = get_sub_group_size() | get_max_sub_group_size() << 8 | get_num_sub_groups() << 16;
  o[1] = get_sub_group_id() | get_sub_group_local_id() << 8 | get_enqueued_num_sub_groups() << 16;
  o[2] = sub_group_any(x > 45);
  o[3] = sub_group_all(x > -51);
  o[4] = sub_group_reduce_min(x);
  o[5] = sub_group_reduce_max(x);
  o[6] = sub_group_scan_exclusive_add(x);
  o[7] = sub_group_scan_inclusive_max(x);
  l[lid] = x;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  int first = lid - get_sub_group_local_id();
  o[8] = l[first + (get_sub_group_local_id() + 1) % get_sub_group_size()];
  o[9] = sub_group_broadcast(x, 3);
}
