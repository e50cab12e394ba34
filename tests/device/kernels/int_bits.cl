/* int_bits.cl - rotate, clz, ctz and popcount on 8-, 16-, 32- and 64-bit
 * integers. */
__kernel void int_bits(__global const ulong *in, __global ulong *out) {
  int g = get_global_id(0);
  ulong x = in[g];
  int s = g % 70 - 3;
  __global ulong *o = out + 12 * g;
  o[0] = rotate((uchar)x, (uchar)s);
  o[1] = rotate((ushort)x, (ushort)s);
  o[2] = rotate((uint)x, (uint)s);
  o[3] = rotate(x, (ulong)s);
  o[4] = clz((uchar)x);
  o[5] = clz((ushort)x);
  o[6] = clz((uint)x);
  o[7] = clz(x);
  o[8] = ctz((uint)x);
  o[9] = ctz(x);
  o[10] = popcount((uint)x) + 100 * popcount((uchar)x);
  o[11] = popcount(x);
}
