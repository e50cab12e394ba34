/* shuffle.cl - shuffle and shuffle2 on int4, uchar8, float4 and long2. */
__kernel void shuffles(__global const int *in, __global int *out) {
  int g = get_global_id(0);
  int4 a = vload4(g, in), b = a * 10 + 1;
  uint4 m = (uint4)(g, g >> 2, g >> 4, g >> 6) & 3;
  uint4 m2 = (uint4)(g, g >> 3, g >> 6, g + 5) & 7;
  __global int *o = out + 16 * g;
  vstore4(shuffle(a, m), 0, o);
  vstore4(shuffle2(a, b, m2), 0, o + 4);
  uchar8 c = as_uchar8((int2)(a.x, a.y));
  uchar8 cs = shuffle(c, (uchar8)(7, 6, 5, 4, 3, 2, 1, 0) ^ (uchar)(g & 7));
  vstore2(as_int2(cs), 0, o + 8);
  float4 f = convert_float4(a);
  vstore4(convert_int4(shuffle2(f, -f, m2 + 1)), 0, o + 10);
  long2 l = (long2)(a.z, a.w);
  long4 ls = shuffle(l, (ulong4)(1, 0, (ulong)g & 1, 1));
  o[14] = (int)(ls.x + ls.y * 3 + ls.z * 5 + ls.w * 7);
  o[15] = shuffle2((int2)(a.x, a.y), (int2)(b.x, b.y), (uint2)(3, 1)).x;
}
