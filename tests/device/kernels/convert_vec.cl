/* convert_vec.cl - convert_* on vectors with saturation and rounding. */
__kernel void convert_vec(__global const float *in, __global int *out) {
  int g = get_global_id(0);
  float4 x = vload4(g, in);
  __global int *o = out + 28 * g;
  vstore4(convert_int4_sat_rte(x), 0, o);
  vstore4(convert_int4(convert_uchar4_sat(x)), 0, o + 4);
  vstore4(convert_int4(convert_char4_sat_rtn(x)), 0, o + 8);
  vstore4(convert_int4_rtp(x), 0, o + 12);
  vstore4(convert_int4(convert_ushort4_sat_rtz(x)), 0, o + 16);
  int8 i8 = (int8)(convert_int4_rtz(x), convert_int4_sat(x * 1e8f));
  vstore8(convert_int8(convert_short8_sat(i8)), 0, o + 20);
}
