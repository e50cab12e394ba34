/* math_exp_log.cl - exponentials and logarithms against a double reference. */
__kernel void math_exp_log(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float x = in[g], p = fabs(x) + 0.25f;
  __global float *o = out + 8 * g;
  o[0] = exp(x);
  o[1] = exp2(x);
  o[2] = exp10(x * 0.25f);
  o[3] = expm1(x);
  o[4] = log(p);
  o[5] = log2(p);
  o[6] = log10(p);
  o[7] = log1p(p);
}
