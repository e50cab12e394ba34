/* convert_int.cl - integer to integer and integer to float conversions,
 * saturating and not, and integer to float and double. */
__kernel void convert_int(__global const long *in, __global long *out) {
  int g = get_global_id(0);
  long x = in[g];
  __global long *o = out + 12 * g;
  o[0] = convert_char_sat(x);
  o[1] = convert_uchar_sat(x);
  o[2] = convert_short_sat((int)x);
  o[3] = convert_ushort_sat((int)x);
  o[4] = convert_int_sat(x);
  o[5] = convert_uint_sat(x);
  o[6] = (long)convert_ulong_sat((int)x);
  o[7] = convert_long_sat((ulong)x);
  o[8] = convert_char(x);
  o[9] = as_int(convert_float(x));
  o[10] = as_int(convert_float((int)x));
  o[11] = as_long(convert_double(x));
}
