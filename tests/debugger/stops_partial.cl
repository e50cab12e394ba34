/* stops_partial.cl - a launch whose last work-group is smaller: focused on
 * it, a pass hands it out first, then the full-sized ones */
__kernel void k(__global int *out) {
  int gid = get_global_id(0);
  int v = gid * 10;
  v += 1;
  out[gid] = v;
}
