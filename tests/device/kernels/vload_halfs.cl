/* vload_halfs.cl - vload_half, vload_halfN and vloada_halfN. */
__kernel void vload_halfs(__global const ushort *in, __global float *out) {
  int g = get_global_id(0);
  __global const half *h = (__global const half *)in;
  __global float *o = out + 12 * g;
  o[0] = vload_half(g, h);
  float2 a = vload_half2(g, h);
  float4 b = vload_half4(g, h);
  float4 c = vloada_half4(g, h);
  float3 d = vload_half3(g, h);
  o[1] = a.x;
  o[2] = a.y;
  vstore4(b, 0, o + 3);
  o[7] = c.x + c.y + c.z + c.w;
  vstore3(d, 0, o + 8);
  o[11] = vload_half8(0, h).s7 + vload_half16(0, h).sf;
}
