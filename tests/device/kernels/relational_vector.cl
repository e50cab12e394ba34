/* relational_vector.cl - vector relational builtins and comparisons return
 * -1 for true; any and all test the sign bit. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void relational_vector(__global const float *in, __global int *out) {
  int g = get_global_id(0), n = get_global_size(0);
  float4 x = vload4(g, in), y = vload4((g * 5 + 3) % (n), in);
  __global int *o = out + 34 * g;
  vstore4(isnan(x), 0, o);
  vstore4(isless(x, y), 0, o + 4);
  vstore4(isgreaterequal(x, y), 0, o + 8);
  vstore4(isunordered(x, y), 0, o + 12);
  vstore4(signbit(x), 0, o + 16);
  vstore4(x < y, 0, o + 20);
  vstore4(convert_int4(convert_short4(x == y)), 0, o + 24);
  long2 c = (double2)(x.x, x.y) >= (double2)(y.x, y.y);
  o[28] = (int)c.x;
  o[29] = (int)c.y;
  o[30] = any(isless(x, y));
  o[31] = all(isless(x, y));
  o[32] = any(convert_char4(isfinite(x)));
  o[33] = all((int2)(g, -g) < 1);
}
