/* math_misc.cl - roots, error and gamma functions, fused multiply-add. */
__kernel void math_misc(__global const float *in, __global float *out) {
  int g = get_global_id(0), n = get_global_size(0);
  float x = in[g], y = in[(g * 37 + 11) % n], p = fabs(x) + 0.25f;
  __global float *o = out + 7 * g;
  o[0] = sqrt(p);
  o[1] = rsqrt(p);
  o[2] = cbrt(x);
  o[3] = erf(x);
  o[4] = erfc(x);
  o[5] = tgamma(x * 0.5f);
  o[6] = fma(x, y, 0.75f);
}
