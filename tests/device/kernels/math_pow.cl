/* math_pow.cl - two-argument math: pow, powr, pown, rootn, hypot, atan2. */
__kernel void math_pow(__global const float *in, __global float *out) {
  int g = get_global_id(0), n = get_global_size(0);
  float x = in[g], y = in[(g * 37 + 11) % n] * 0.5f;
  __global float *o = out + 8 * g;
  o[0] = pow(x, y);
  o[1] = powr(fabs(x), y);
  o[2] = pown(x, g % 9 - 4);
  o[3] = rootn(x, g % 7 - 3);
  o[4] = hypot(x, y);
  o[5] = atan2(y, x);
  o[6] = atan2pi(y, x);
  o[7] = x / (y + 0.125f);
}
