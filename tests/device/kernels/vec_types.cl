/* vec_types.cl - vector types of every width: arithmetic, swizzles,
 * .lo/.hi/.even/.odd, literals, mixed scalar-vector ops, as_type. */
__kernel void vec_types(__global const int *in, __global int *out) {
  int g = get_global_id(0);
  int16 v = vload16(g, in);
  char2 c2 = convert_char2(v.s01);
  short3 s3 = convert_short3(v.s234) * (short)3;
  int4 i4 = v.lo.lo + v.hi.hi.wzyx;
  long8 l8 = convert_long8(v.even) * convert_long8(v.odd);
  float16 f = convert_float16(v) * 0.5f;
  uint2 u2 = as_uint2((float2)(f.s3, f.sc));
  int8 e = (int8)(i4, (int4)(1, 2, 3, 4)) + v.s13579bdf;
  __global int *o = out + 24 * g;
  o[0] = c2.x + c2.y * 256;
  o[1] = s3.x + s3.y + s3.z;
  vstore4(i4.xxyz + i4.wzyx, 0, o + 2);
  o[6] = (int)(l8.s0 + l8.s7 - l8.s3);
  o[7] = (int)(f.s0 + f.sf + dot(f.lo.lo, f.hi.hi));
  o[8] = (int)u2.x;
  o[9] = (int)u2.y;
  vstore8(e.s76543210, 0, o + 10);
  int3 t = v.s123 > v.s456;
  o[18] = t.x + t.y * 2 + t.z * 4;
  ushort4 us = as_ushort4((int2)(v.s0, v.s1));
  o[19] = us.x + us.w;
  long2 m = (long2)(v.s0, v.s1) << (long2)(3, 40);
  o[20] = (int)(m.x ^ (m.y >> 32));
  o[21] = (int)(v.sa ? v.sb : v.sc);
  double2 d = convert_double2(v.s89) / 3.0;
  o[22] = (int)(d.x * 1000.0);
  o[23] = (int)(d.y * 1000.0);
}
