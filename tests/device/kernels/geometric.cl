/* geometric.cl - dot, cross, length, distance, normalize and the fast_
 * forms on float, float2, float3 and float4. */
__kernel void geometric(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float4 a = vload4(g, in), b = a.zwxy * 0.75f + 0.5f;
  __global float *o = out + 24 * g;
  o[0] = dot(a, b);
  o[1] = dot(a.xyz, b.xyz);
  o[2] = dot(a.xy, b.xy);
  o[3] = dot(a.x, b.x);
  vstore3(cross(a.xyz, b.xyz), 0, o + 4);
  o[7] = length(a);
  o[8] = length(a.xyz);
  o[9] = distance(a, b);
  o[10] = distance(a.xy, b.xy);
  vstore4(normalize(a), 0, o + 11);
  vstore2(normalize(a.xy), 0, o + 15);
  o[17] = fast_length(a);
  o[18] = fast_distance(a.xyz, b.xyz);
  vstore4(fast_normalize(a), 0, o + 19);
  o[23] = cross(a, b).w;
}
