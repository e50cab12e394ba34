/* atomic_local.cl - atomics on __local int and long under contention within
 * each work-group, then written out by one work-item. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atomic_local(__global long *out) {
  __local int a[6];
  __local long b[2];
  int l = get_local_id(0), g = get_global_id(0);
  if (l < 6) a[l] = l == 3 ? 0x7fffffff : 0;
  if (l < 2) b[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&a[0], l);
  atomic_inc(&a[1]);
  atomic_max(&a[2], g);
  atomic_min(&a[3], g);
  atomic_or(&a[4], 1 << (l % 31));
  while (atomic_cmpxchg(&a[5], l, l + 1) != l) ;
  atom_add(&b[0], (long)g << 32);
  atom_max(&b[1], (long)l << 40);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    __global long *o = out + 8 * get_group_id(0);
    for (int i = 0; i < 6; i++) o[i] = a[i];
    o[6] = b[0];
    o[7] = b[1];
  }
}
