/* math_vec.cl - math builtins on float2/3/4/8/16 vectors. */
__kernel void math_vec(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float16 v = vload16(g, in);
  float4 a = v.lo.lo;
  float3 b = v.s345;
  float2 c = v.s67;
  float8 d = v.hi;
  vstore16(sin(v), g, out);
  __global float *o = out + 16 * get_global_size(0) + 25 * g;
  vstore4(pow(fabs(a) + 0.5f, (float4)(0.5f, 1.5f, -2.0f, 3.0f)), 0, o);
  vstore3(atan2(b, (float3)(1.0f, -1.0f, 2.0f)), 0, o + 4);
  vstore2(hypot(c, c.yx), 0, o + 7);
  vstore8(fma(d, d, (float8)(1.0f)), 0, o + 9);
  vstore8(exp(d * 0.125f), 0, o + 17);
}
