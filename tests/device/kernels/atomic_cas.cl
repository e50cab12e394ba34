/* atomic_cas.cl - atomic_compare_exchange_{strong,weak}[_explicit] with
 * memory orders and scopes (clang mangles the repeated memory_order with a
 * substitution) on global atomic_int and atomic_long and local atomic_int:
 * CAS-loop max and sums, and a race that exactly one work-item wins. */
__kernel void atomic_cas(__global atomic_int *a, __global atomic_long *b, __global int *out) {
  __local atomic_int lsum;
  int g = get_global_id(0), l = get_local_id(0);
  if (l == 0) atomic_init(&lsum, 0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  int v = g * 7 % 101;
  int cur = atomic_load_explicit(&a[0], memory_order_relaxed);
  while (cur < v &&
         !atomic_compare_exchange_strong_explicit(&a[0], &cur, v, memory_order_acq_rel,
                                                  memory_order_acquire, memory_scope_device))
    ;
  int s = atomic_load(&a[1]);
  while (!atomic_compare_exchange_weak_explicit(&a[1], &s, s + g, memory_order_seq_cst,
                                                memory_order_relaxed))
    ;
  long t = atomic_load(&b[0]);
  while (!atomic_compare_exchange_strong_explicit(&b[0], &t, t + ((long)g << 33),
                                                  memory_order_relaxed, memory_order_relaxed,
                                                  memory_scope_device))
    ;
  int ls = atomic_load_explicit(&lsum, memory_order_relaxed, memory_scope_work_group);
  while (!atomic_compare_exchange_weak_explicit(&lsum, &ls, ls + 1, memory_order_relaxed,
                                                memory_order_relaxed, memory_scope_work_group))
    ;
  int e = -1;
  bool won = atomic_compare_exchange_strong(&a[2], &e, g);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[2 * g] = atomic_load(&lsum);
  out[2 * g + 1] = won ? -2 : e;
}
