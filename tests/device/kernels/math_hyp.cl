/* math_hyp.cl - hyperbolic functions and their inverses. */
__kernel void math_hyp(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float x = in[g];
  __global float *o = out + 6 * g;
  o[0] = sinh(x);
  o[1] = cosh(x);
  o[2] = tanh(x);
  o[3] = asinh(x);
  o[4] = acosh(fabs(x) + 1.0f);
  o[5] = atanh(x * 0.0961f);
}
