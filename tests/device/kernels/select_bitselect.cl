/* select_bitselect.cl - select (scalar: c != 0, vector: sign bit of c) and
 * bitselect on integers and floats. */
__kernel void select_bitselect(__global const int *in, __global int *out) {
  int g = get_global_id(0), n = get_global_size(0);
  int a = in[g], b = in[(g * 37 + 11) % n], c = in[(g + 3) % n];
  __global int *o = out + 12 * g;
  o[0] = select(a, b, c);
  o[1] = select(a, b, c & 0x7fffffff);
  o[2] = bitselect(a, b, c);
  o[3] = as_int(bitselect(as_float(a), as_float(b), as_float(c)));
  o[4] = as_int(select(as_float(a), as_float(b), c));
  int4 va = (int4)(a, b, c, a ^ b), vb = va.yzwx, vc = (int4)(c, -c, (int)((uint)c << 1), c >> 1);
  int4 r = select(va, vb, vc);
  o[5] = r.x;
  o[6] = r.y;
  o[7] = r.z;
  o[8] = r.w;
  uchar2 u = select((uchar2)((uchar)a, (uchar)b), (uchar2)(1, 2), (char2)((char)c, (char)(c >> 8)));
  o[9] = u.x | (u.y << 8);
  o[10] = (int)bitselect((ulong)a, (ulong)b << 32, (ulong)c * 0x100000001UL);
  o[11] = (int)(select((long)a, (long)b, (ulong)c) >> 1);
}
