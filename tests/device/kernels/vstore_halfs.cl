/* vstore_halfs.cl - vstore_half with each rounding mode, vstore_halfN and
 * vstorea_halfN. */
__kernel void vstore_halfs(__global const float *in, __global ushort *out) {
  int g = get_global_id(0);
  float x = in[g];
  __global ushort *u = out + 16 * g;
  __global half *h = (__global half *)u;
  vstore_half(x, 0, h);
  vstore_half_rte(x, 1, h);
  vstore_half_rtz(x, 2, h);
  vstore_half_rtp(x, 3, h);
  vstore_half_rtn(x, 4, h);
  vstore_half2((float2)(x, -x), 0, h + 5);
  u[7] = 0x1234;
  vstorea_half2((float2)(x * 3.0f, x * 0.001f), 4, h);
  u[10] = 0;
  u[11] = 0;
  vstore_half4_rtz((float4)(x, x * 65536.0f, -x * 1e-6f, 70000.0f), 3, h);
}
