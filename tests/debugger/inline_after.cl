/* inline_after.cl - a helper defined after the kernel that calls it: its
 * return line is a statement of its own, as when it is defined first */
int twice(int v);
__kernel void k(__global int *out) {
  int gid = get_global_id(0);
  int t = twice(gid + 1);
  out[gid] = t;
}

int twice(int v) {
  int r = v * 2;
  return r;
}
