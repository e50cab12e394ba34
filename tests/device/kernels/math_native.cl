/* math_native.cl - native_ forms on their domains. */
__kernel void math_native(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float x = in[g], p = fabs(x) + 0.25f;
  __global float *o = out + 12 * g;
  o[0] = native_sin(x);
  o[1] = native_cos(x);
  o[2] = native_tan(x);
  o[3] = native_exp(x);
  o[4] = native_exp2(x);
  o[5] = native_exp10(x * 0.25f);
  o[6] = native_log(p);
  o[7] = native_log2(p);
  o[8] = native_log10(p);
  o[9] = native_sqrt(p);
  o[10] = native_rsqrt(p);
  o[11] = native_recip(p) + native_divide(x, p) + native_powr(p, 0.5f);
}
