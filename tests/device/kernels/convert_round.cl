/* convert_round.cl - conversions to float and double with each rounding
 * mode: from integers of every width, from double (narrowing, including
 * denormal and overflowing results), scalar and vector. Floats come back as
 * their bits. */
#define F4(v)                                                                  \
  as_int(convert_float_rte(v)), as_int(convert_float_rtz(v)),                  \
      as_int(convert_float_rtp(v)), as_int(convert_float_rtn(v))
#define D4(v)                                                                  \
  as_long(convert_double_rte(v)), as_long(convert_double_rtz(v)),              \
      as_long(convert_double_rtp(v)), as_long(convert_double_rtn(v))
__kernel void convert_round(__global const long *in, __global long *out) {
  int g = get_global_id(0);
  long x = in[g];
  double da = (double)x / 3.0, db = da * 1e-310, dc = da * 1e25;
  long r[46] = {F4((int)x),  F4(x),  F4((uint)x), F4((ulong)x), D4(x),
                D4((ulong)x), F4(da), F4(db),     F4(dc)};
  float2 f2 = convert_float2_rtn((long2)(x, -x));
  double2 d2 = convert_double2_rtz((ulong2)(x, ~x));
  float4 f4 = convert_float4_rtp((int4)((int)x, (int)(x >> 32), -(int)x, (int)(x >> 7)));
  float2 n2 = convert_float2_rtz((double2)(da, dc));
  r[36] = as_int(f2.x), r[37] = as_int(f2.y);
  r[38] = as_long(d2.x), r[39] = as_long(d2.y);
  r[40] = as_int(f4.x), r[41] = as_int(f4.y), r[42] = as_int(f4.z), r[43] = as_int(f4.w);
  r[44] = as_int(n2.x), r[45] = as_int(n2.y);
  for (int k = 0; k < 46; k++)
    out[46 * g + k] = r[k];
}
