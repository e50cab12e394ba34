/* int_sat.cl - add_sat, sub_sat and mad_sat on signed and unsigned types. */
__kernel void int_sat(__global const long *in, __global long *out) {
  int g = get_global_id(0), n = get_global_size(0);
  long a = in[g], b = in[(g * 37 + 11) % n];
  __global long *o = out + 10 * g;
  o[0] = add_sat((char)a, (char)b);
  o[1] = add_sat((uchar)a, (uchar)b);
  o[2] = sub_sat((short)a, (short)b);
  o[3] = sub_sat((ushort)a, (ushort)b);
  o[4] = add_sat((int)a, (int)b);
  o[5] = sub_sat((uint)a, (uint)b);
  o[6] = add_sat(a, b);
  o[7] = sub_sat(a, b);
  o[8] = (long)add_sat((ulong)a, (ulong)b);
  o[9] = mad_sat((short)a, (short)b, (short)(a >> 16));
}
