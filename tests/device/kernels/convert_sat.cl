/* convert_sat.cl - convert_* with saturation and rounding modes. */
__kernel void convert_sat(__global const float *in, __global int *out) {
  int g = get_global_id(0);
  float x = in[g];
  out[4 * g] = convert_char_sat(x);
  out[4 * g + 1] = convert_uchar_sat_rte(x);
  out[4 * g + 2] = convert_int_rtn(x);
  out[4 * g + 3] = convert_short_sat_rtp(x);
}
