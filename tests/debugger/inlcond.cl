int clampi(int x, int lo, int hi) {
  if (x < lo)
    return lo;
  return x > hi ? hi : x;
}

__kernel void k(__global int *out, __global const int *in) {
  int x = get_global_id(0);
  int acc = in[x];
  acc = acc * 2 + clampi(in[x] - 3, 0, 4);
  out[x] = acc;
}
