/* common.cl - common builtins on float and float4. */
__kernel void common(__global const float *in, __global float *out) {
  int g = get_global_id(0), n = get_global_size(0);
  float x = in[g], y = in[(g * 37 + 11) % n];
  __global float *o = out + 13 * g;
  o[0] = clamp(x, -2.0f, 3.0f);
  o[1] = degrees(x);
  o[2] = radians(x);
  o[3] = max(x, y);
  o[4] = min(x, y);
  o[5] = mix(x, y, 0.25f);
  o[6] = step(y, x);
  o[7] = smoothstep(-3.0f, 4.0f, x);
  o[8] = sign(x);
  float4 v = (float4)(x, y, -x, 0.5f);
  float4 r = clamp(v, (float4)(-1.0f), (float4)(1.0f)) + step((float4)(0.0f), v) + sign(v) +
             max(v, 0.25f);
  vstore4(r, 0, o + 9);
}
