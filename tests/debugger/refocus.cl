/* refocus.cl - the focus moved to another work-group while stops of the
 * first one wait: the focused group's warps come first, then the rest */
kernel void refocus(global int *out) {
  int gid = get_global_id(0);
  int v = gid * 3;
  out[gid] = v + 1;
}
