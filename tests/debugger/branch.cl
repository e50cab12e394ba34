/* branch.cl - breakpoints on both sides of an if/else (full-speed passes) */
__kernel void k(__global int *out) {
  int gid = get_global_id(0);
  int v;
  if (gid % 2 == 0) {
    v = gid * 10;
  } else {
    v = gid * 100;
  }
  out[gid] = v;
}
