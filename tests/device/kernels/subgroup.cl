/* subgroup.cl - sub-group reduce, scan and broadcast (sub-group = warp). */
__kernel void subgroup(__global uint *out) {
  uint g = get_global_id(0);
  uint x = g * 3 + 1;
  uint r = sub_group_reduce_add(x);
  uint s = sub_group_scan_inclusive_add(x);
  uint b = sub_group_broadcast(x, 0);
  out[3 * g] = r;
  out[3 * g + 1] = s;
  out[3 * g + 2] = b + get_sub_group_size() * 0;
}
