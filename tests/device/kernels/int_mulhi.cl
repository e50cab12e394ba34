/* int_mulhi.cl - mul_hi and mad_hi on char, int, uint, long and ulong. */
__kernel void int_mulhi(__global const long *in, __global long *out) {
  int g = get_global_id(0), n = get_global_size(0);
  long a = in[g], b = in[(g * 37 + 11) % n];
  __global long *o = out + 6 * g;
  o[0] = mul_hi((int)a, (int)b);
  o[1] = mul_hi((uint)a, (uint)b);
  o[2] = mul_hi(a, b);
  o[3] = (long)mul_hi((ulong)a, (ulong)b);
  o[4] = mul_hi((char)a, (char)b);
  o[5] = mad_hi((int)a, (int)b, (int)(a >> 32));
}
