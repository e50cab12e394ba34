/* private_barrier.cl - each work-item's private array, indexed at run
 * time (so kept in its private frame), read after barriers that every
 * warp of the work-group waits at in turn, and after the work-item exits
 * in the group's other warps. */
__kernel void private_barrier(__global int *out, __local int *t, int n) {
  int p[16];
  int lid = get_local_id(0);
  for (int i = 0; i < 16; i++)
    p[(i + n) & 15] = lid * 100 + i;
  t[lid] = p[(lid + n) & 15];
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = t[get_local_size(0) - 1 - lid];
  p[(lid * 3) & 15] += s;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = p[(lid * 7 + n) & 15] * 2 + p[(lid * 3) & 15];
}
