/* int_consts.cl - two kernels whose code is the same but for the values
 * of their constants, reading arguments of each kind (a pointer, a vector
 * by value, a local pointer, a 64-bit scalar) in every work-item. */
__kernel void consts_a(__global uint *a, uint4 v, __local uint *t, ulong big) {
  size_t lid = get_local_id(0);
  t[lid] = a[get_global_id(0)] * 12345u + 777u + v.y;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = t[get_local_size(0) - 1 - lid] ^ (uint)(big >> 33) ^ v.w;
}

__kernel void consts_b(__global uint *a, uint4 v, __local uint *t, ulong big) {
  size_t lid = get_local_id(0);
  t[lid] = a[get_global_id(0)] * 54321u + 999u + v.y;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = t[get_local_size(0) - 1 - lid] ^ (uint)(big >> 33) ^ v.w;
}
