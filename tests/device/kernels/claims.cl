/* claims.cl - one kernel per optional OpenCL C 3.0 feature the device
 * claims: it fails to build when the feature macro is missing, and uses the
 * feature so that a wrong claim fails at run time. BIG (the device's largest
 * program-scope variable) comes from the build options. */
#if !defined(__opencl_c_generic_address_space) ||                               \
    !defined(__opencl_c_program_scope_global_variables) ||                      \
    !defined(__opencl_c_subgroups) || !defined(__opencl_c_atomic_order_acq_rel) || \
    !defined(__opencl_c_atomic_order_seq_cst) || !defined(__opencl_c_atomic_scope_device)
#error "a claimed OpenCL C feature macro is missing"
#endif

/* __opencl_c_generic_address_space: one function for every space. */
static int twice(int *p) { return 2 * *p + (to_global(p) ? 1 : to_local(p) ? 2 : 3); }
__kernel void generic_space(__global int *out) {
  __local int l[64];
  int p = get_global_id(0);
  l[get_local_id(0)] = p;
  out[3 * p] = p;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  int a = twice(&out[3 * p]), b = twice(&l[get_local_id(0)]), c = twice(&p);
  out[3 * p] = a, out[3 * p + 1] = b, out[3 * p + 2] = c;
}

/* __opencl_c_program_scope_global_variables: the largest variable the
 * device promises, initialised, kept between launches. */
global uchar big[BIG] = {1, 2, 3};
global int launches;
__kernel void global_vars(__global uint *out) {
  size_t g = get_global_id(0), n = get_global_size(0);
  uint sum = 0;
  for (size_t i = g; i < BIG; i += n) {
    sum += big[i];
    big[i] = (uchar)(big[i] + i);
  }
  out[g] = sum;
  if (g == 0) out[n] = atomic_inc(&launches);
}

/* __opencl_c_subgroups: what a work-item sees of its sub-group. */
__kernel void subgroup_shape(__global uint *out) {
  size_t g = get_global_linear_id();
  out[3 * g] = get_sub_group_size();
  out[3 * g + 1] = get_num_sub_groups();
  out[3 * g + 2] = get_max_sub_group_size();
}

/* Independent forward progress of sub-groups: each waits for the next one
 * (a chain against the order the warps start in). */
__kernel void subgroup_progress(__global int *out) {
  __local atomic_int turn;
  int n = get_num_sub_groups(), sg = get_sub_group_id();
  if (get_local_linear_id() == 0) atomic_init(&turn, n - 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_sub_group_local_id() == 0) {
    while (atomic_load_explicit(&turn, memory_order_acquire, memory_scope_work_group) != sg)
      ;
    out[get_group_id(0) * n + sg] = n - 1 - sg;
    atomic_store_explicit(&turn, sg - 1, memory_order_release, memory_scope_work_group);
  }
}

/* Atomic orders and device scope: tickets from a seq_cst counter, and the
 * last work-group to finish (acq_rel, device scope) adds every group's
 * partial sum. */
__kernel void atomic_device(__global atomic_int *ctr, __global int *tickets,
                            __global int *partial, __global int *total) {
  __local atomic_int lsum;
  int g = get_global_id(0), grp = get_group_id(0), ng = get_num_groups(0);
  if (get_local_id(0) == 0) atomic_init(&lsum, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  tickets[g] = atomic_fetch_add_explicit(&ctr[0], 1, memory_order_seq_cst, memory_scope_device);
  atomic_fetch_add_explicit(&lsum, g, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    partial[grp] = atomic_load_explicit(&lsum, memory_order_relaxed, memory_scope_work_group);
    int done = atomic_fetch_add_explicit(&ctr[1], 1, memory_order_acq_rel, memory_scope_device);
    if (done == ng - 1) {
      int s = 0;
      for (int k = 0; k < ng; k++) s += partial[k];
      *total = s;
    }
  }
}

/* Work-group collective functions: each group keeps its odd values in
 * order (the exclusive scan gives each its slot, the reduction their
 * count), and every work-item learns its group's first value and whether
 * any or all of the group's values are odd. out holds 4 rows of n. */
__kernel void wg_compact(__global const int *in, __global int *out) {
  int n = get_global_size(0), g = get_global_id(0), keep = in[g] & 1;
  int slot = work_group_scan_exclusive_add(keep);
  int base = get_group_id(0) * get_enqueued_local_size(0);
  if (keep) out[base + slot] = in[g];
  out[n + g] = work_group_reduce_add(keep);
  out[2 * n + g] = work_group_broadcast(in[g], 0);
  out[3 * n + g] = work_group_any(keep) * 2 + work_group_all(keep);
}

/* The all-devices atomic scope (either spelling): unique tickets, and the
 * feature macro that makes the names exist. */
__kernel void atomic_all_devices(__global atomic_int *ctr, __global int *tickets,
                                 __global int *macro) {
#ifdef __opencl_c_atomic_scope_all_devices
  int g = get_global_id(0);
  memory_scope s = g & 1 ? memory_scope_all_devices : memory_scope_all_svm_devices;
  tickets[g] = atomic_fetch_add_explicit(ctr, 1, memory_order_seq_cst, s);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_all_devices);
  if (g == 0) *macro = 1;
#endif
}
