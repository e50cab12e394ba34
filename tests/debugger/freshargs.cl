__kernel void k(__global int *out, __global const float *in, int n, float scale) {
  int gid = get_global_id(0);
  out[gid] = (int)(in[gid] * scale) + n;
}
