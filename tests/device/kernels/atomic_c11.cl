/* atomic_c11.cl - the OpenCL 2.0 atomic_*_explicit family with memory
 * orders and scopes on global atomic_int and atomic_long, and local
 * atomic_uint. */
__kernel void atomic_c11(__global atomic_int *a, __global atomic_long *b, __global int *out) {
  __local atomic_uint lc;
  int g = get_global_id(0), l = get_local_id(0);
  if (l == 0) atomic_init(&lc, 0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit(&a[0], g, memory_order_relaxed, memory_scope_device);
  atomic_fetch_sub_explicit(&a[1], 1, memory_order_relaxed);
  atomic_fetch_max_explicit(&a[2], g, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_or(&a[3], 1 << (g % 31));
  atomic_fetch_add_explicit(&b[0], (long)g << 32, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit(&lc, 1u, memory_order_relaxed, memory_scope_work_group);
  atomic_store_explicit(&a[5 + g], g * 2, memory_order_relaxed);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = atomic_load_explicit(&a[5 + g], memory_order_relaxed) + 10000 * (int)atomic_load(&lc) +
           atomic_exchange(&a[5 + g], 0) * 0;
}
