/* display.cl - a loop whose variables the display transcript shows at each stop */
__kernel void k(__global int *out, __global int *in) {
  int gid = get_global_id(0);
  int spare = 1; /* unused: the refused-edit transcript removes it */
  int acc = 0;
  for (int i = 0; i < 4; i++) {
    acc += in[gid * 8 + i];
  }
  out[gid] = acc;
}
