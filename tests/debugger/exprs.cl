/* exprs.cl - conditional expressions, character constants and sizeof in print,
 * set var and breakpoint conditions */
__kernel void k(__global char *out, __global const int *in) {
  int gid = get_global_id(0);
  char c = (char)('a' + gid);
  int v = in[gid];
  out[gid] = c;
}
