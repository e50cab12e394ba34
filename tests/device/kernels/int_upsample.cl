/* int_upsample.cl - upsample and integer min, max and clamp. */
__kernel void int_upsample(__global const long *in, __global long *out) {
  int g = get_global_id(0), n = get_global_size(0);
  long a = in[g], b = in[(g * 37 + 11) % n];
  __global long *o = out + 8 * g;
  o[0] = upsample((char)a, (uchar)b);
  o[1] = upsample((ushort)a, (ushort)b);
  o[2] = upsample((int)a, (uint)b);
  o[3] = (long)upsample((uint)a, (uint)b);
  o[4] = min((int)a, (int)b);
  o[5] = max((uint)a, (uint)b);
  o[6] = clamp((short)a, (short)-100, (short)300);
  o[7] = clamp(a, -5000L, 5000L + (b & 0xffff));
}
