/* atomics.cl - global and local atomics under contention. */
__kernel void atomics(__global int *out) {
  __local int l;
  if (get_local_id(0) == 0) l = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int g = get_global_id(0);
  atomic_add(&out[0], 1);
  atomic_max(&out[1], g);
  atomic_min(&out[2], -g);
  atomic_inc(&l);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) atomic_add(&out[3], l);
}
