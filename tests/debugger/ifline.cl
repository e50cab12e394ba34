/* ifline.cl - a test and its statement on one line: a breakpoint there
 * stops once per work-item, where the line starts */
__kernel void k(__global int *out) {
  int gid = get_global_id(0);
  int v = gid * 3;
  if (gid % 2) v = -v;
  out[gid] = v;
}
