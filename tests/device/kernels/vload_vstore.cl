/* vload_vstore.cl - vloadN and vstoreN for N = 2, 3, 4, 8, 16 from global,
 * local and private memory. */
__kernel void vload_vstore(__global const int *in, __global int *out) {
  __local int l[64 * 4];
  int g = get_global_id(0), lid = get_local_id(0);
  int16 v = vload16(g, in);
  int8 v8 = vload8(2 * g + 1, in);
  int4 v4 = vload4(0, in + 16 * g + 3);
  int3 v3 = vload3(g, in + 5);
  int2 v2 = vload2(8 * g + 7, in);
  vstore4(v4 + v3.xyzx, lid, l);
  int p[6] = {v2.x, v2.y, v8.s7, v8.s0, 1, 2};
  int3 pv = vload3(1, p);
  barrier(CLK_LOCAL_MEM_FENCE);
  int4 lv = vload4(lid, l);
  __global int *o = out + 40 * g;
  vstore16(v * 2, 0, o);
  vstore8(v8 + 1, 0, o + 16);
  vstore4(lv, 0, o + 24);
  vstore3(pv, 0, o + 28);
  vstore3(v3, 0, o + 31);
  vstore2(v2 ^ 3, 0, o + 34);
  vstore2(convert_int2(vload2(0, (__global const uchar *)(in + g))), 0, o + 36);
  vstore2(convert_int2(vload2(g, (__global const short *)in)), 0, o + 38);
}
