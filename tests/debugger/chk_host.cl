/* Every work-item of both work-groups writes out[0]: a global race. */
kernel void k(global int *out, global int *in) {
  int gid = get_global_id(0);
  int v = in[gid * 8] + 1;
  out[gid] = v;
  out[0] = gid;
}
