/* int_div.cl - integer division, remainder and shifts at every width,
 * signed and unsigned. */
__kernel void int_div(__global const long *in, __global long *out) {
  int g = get_global_id(0), n = get_global_size(0);
  long a = in[g], b = in[(g * 37 + 11) % n];
  if (b == 0) b = 7;
  __global long *o = out + 10 * g;
  char cb = (char)b ? (char)b : 3;
  short sb = (short)b ? (short)b : 3;
  int ib = (int)b ? (int)b : 3;
  o[0] = (char)a / cb;
  o[1] = (uchar)a % (uchar)(cb | 1);
  o[2] = (short)a / sb;
  o[3] = (ushort)a / (ushort)(sb | 1);
  o[4] = (int)a / ib;
  o[5] = (uint)a % (uint)ib;
  o[6] = a / b;
  o[7] = (long)((ulong)a % (ulong)b);
  o[8] = ((int)a >> (g & 31)) ^ (long)((uint)a >> ((g + 7) & 31));
  o[9] = (long)((ulong)a << (g & 63)) + (long)((ulong)a >> (g % 64));
}
