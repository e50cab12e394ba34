/* local_static.cl - a static __local 2-D tile: transpose through local
 * memory with a barrier. */
__kernel void local_static(__global const int *in, __global int *out, int n) {
  __local int tile[8][9];
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx = get_group_id(0) * 8, gy = get_group_id(1) * 8;
  tile[ly][lx] = in[(gy + ly) * n + gx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(gx + ly) * n + gy + lx] = tile[lx][ly];
}
