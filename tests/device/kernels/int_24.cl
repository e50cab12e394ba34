/* int_24.cl - mad24 and mul24 on int and uint (24-bit operands). */
__kernel void int_24(__global const int *in, __global int *out) {
  int g = get_global_id(0), n = get_global_size(0);
  int a = in[g] >> 8, b = in[(g * 37 + 11) % n] >> 8, c = in[(g + 5) % n];
  uint ua = (uint)in[g] >> 8, ub = (uint)in[(g * 37 + 11) % n] >> 8;
  out[4 * g] = mul24(a, b);
  out[4 * g + 1] = mad24(a, b, c);
  out[4 * g + 2] = (int)mul24(ua, ub);
  out[4 * g + 3] = (int)mad24(ua, ub, (uint)c);
}
