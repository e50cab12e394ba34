/* int_upsample.cl - upsample and integer min, max and clamp of every width. */
__kernel void int_upsample(__global const long *in, __global long *out) {
  int g = get_global_id(0), n = get_global_size(0);
  long a = in[g], b = in[(g * 37 + 11) % n];
  __global long *o = out + 13 * g;
  o[0] = upsample((char)a, (uchar)b);
  o[1] = upsample((ushort)a, (ushort)b);
  o[2] = upsample((int)a, (uint)b);
  o[3] = (long)upsample((uint)a, (uint)b);
  o[4] = min((int)a, (int)b);
  o[5] = max((uint)a, (uint)b);
  o[6] = clamp((short)a, (short)-100, (short)300);
  o[7] = clamp(a, -5000L, 5000L + (b & 0xffff));
  o[8] = min((char)a, (char)b);
  o[9] = max((uchar)a, (uchar)b);
  o[10] = min(a, b);
  o[11] = max((ulong)a, (ulong)b);
  o[12] = clamp((ushort)a, (ushort)100, (ushort)(40000 + (b & 0xff)));
}
