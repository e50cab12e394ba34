/* int_avg.cl - hadd, rhadd, abs and abs_diff. */
__kernel void int_avg(__global const long *in, __global long *out) {
  int g = get_global_id(0), n = get_global_size(0);
  long a = in[g], b = in[(g * 37 + 11) % n];
  __global long *o = out + 10 * g;
  o[0] = hadd((int)a, (int)b);
  o[1] = rhadd((int)a, (int)b);
  o[2] = hadd((uint)a, (uint)b);
  o[3] = rhadd((uchar)a, (uchar)b);
  o[4] = hadd(a, b);
  o[5] = abs((int)a);
  o[6] = abs((char)a);
  o[7] = abs_diff((int)a, (int)b);
  o[8] = abs_diff((short)a, (short)b);
  o[9] = (long)abs_diff(a, b);
}
