/* relational_scalar.cl - scalar relational builtins return 0 or 1. */
__kernel void relational_scalar(__global const float *in, __global int *out) {
  int g = get_global_id(0), n = get_global_size(0);
  float x = in[g], y = in[(g * 5 + 3) % n];
  __global int *o = out + 14 * g;
  o[0] = isnan(x);
  o[1] = isinf(x);
  o[2] = isfinite(x);
  o[3] = isnormal(x);
  o[4] = signbit(x);
  o[5] = isequal(x, y);
  o[6] = isnotequal(x, y);
  o[7] = isgreater(x, y);
  o[8] = isgreaterequal(x, y);
  o[9] = isless(x, y);
  o[10] = islessequal(x, y);
  o[11] = islessgreater(x, y);
  o[12] = isordered(x, y);
  o[13] = isunordered(x, y);
}
