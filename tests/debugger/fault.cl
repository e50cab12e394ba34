__kernel void k(__global int *out, __global int *in) {
  int gid = get_global_id(0);
  int idx = gid * 1000000;
  int v = in[gid] + 1;
  out[idx] = v;
}
