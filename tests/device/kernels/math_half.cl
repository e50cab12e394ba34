/* math_half.cl - half_ forms on their domains (8192 ulp). */
__kernel void math_half(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float x = in[g], p = fabs(x) + 0.25f;
  __global float *o = out + 14 * g;
  o[0] = half_sin(x);
  o[1] = half_cos(x);
  o[2] = half_tan(x);
  o[3] = half_exp(x);
  o[4] = half_exp2(x);
  o[5] = half_exp10(x * 0.25f);
  o[6] = half_log(p);
  o[7] = half_log2(p);
  o[8] = half_log10(p);
  o[9] = half_sqrt(p);
  o[10] = half_rsqrt(p);
  o[11] = half_recip(p);
  o[12] = half_divide(x, p);
  o[13] = half_powr(p, x * 0.25f);
}
