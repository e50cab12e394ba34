/* int_vec.cl - integer builtins and operators on int4, uchar16, short8 and
 * long2 vectors. */
__kernel void int_vec(__global const int *in, __global int *out) {
  int g = get_global_id(0);
  int4 a = vload4(g, in), b = a.wzyx ^ 0x5a5a;
  uchar16 c = as_uchar16(vload4((g + 1) % get_global_size(0), in));
  short8 s = convert_short8(vload8(0, in + 4 * g - 4 * (g & 1)));
  long2 l = (long2)((long)a.x * a.y, (long)a.z * a.w);
  int4 r = add_sat(a, b) + (int4)clz(a) + popcount(b) + rotate(a, (int4)(1, 5, 9, 31)) +
           (a * b) / (b | 1) + (a % (b | 1)) + (a >> 3) + (b << 2) + mul_hi(a, b);
  vstore4(r, g, out);
  uchar16 cr = add_sat(c, (uchar16)200) ^ hadd(c, c.sfedcba9876543210);
  vstore4(as_int4(cr), g, out + 4 * get_global_size(0));
  short8 sr = sub_sat(s, (short8)30000) + convert_short8(abs_diff(s, s.s76543210) / (ushort8)2);
  vstore4(as_int4(sr), g, out + 8 * get_global_size(0));
  long2 lr = l / 3 + (l >> 60) + popcount(l);
  vstore4(as_int4(lr), g, out + 12 * get_global_size(0));
}
