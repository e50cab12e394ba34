/* pass_join.cl - a breakpoint on the line after an if/else: the line
 * starts with the branches' join, and each work-item stops there once */
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
