/* bi_div0.cl - integer division and remainder with zero and -1 divisors at
 * every integer type, scalar and int4: the values Lockstep documents. */
#define DIV(T, k)                                                                                  \
  {                                                                                                \
    T a = (T)in[g], b = (T)den[g];                                                                 \
    o[k] = (long)(a / b);                                                                          \
    o[k + 1] = (long)(a % b);                                                                      \
  }
__kernel void div0(__global const long *in, __global const long *den, __global long *out) {
  int g = get_global_id(0), n = get_global_size(0);
  __global long *o = out + 24 * g;
  DIV(char, 0)
  DIV(uchar, 2)
  DIV(short, 4)
  DIV(ushort, 6)
  DIV(int, 8)
  DIV(uint, 10)
  DIV(long, 12)
  DIV(ulong, 14)
  int4 a = (int4)((int)in[g], (int)in[(g + 1) % n], (int)in[(g + 2) % n], (int)in[(g + 3) % n]);
  int4 b = (int4)((int)den[g], (int)den[(g + 1) % n], (int)den[(g + 2) % n], (int)den[(g + 3) % n]);
  int4 q = a / b, r = a % b;
  o[16] = q.x, o[17] = q.y, o[18] = q.z, o[19] = q.w;
  o[20] = r.x, o[21] = r.y, o[22] = r.z, o[23] = r.w;
}
