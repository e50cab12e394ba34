/* barrier_global.cl - global-memory communication inside a work-group with
 * barrier(CLK_GLOBAL_MEM_FENCE) and work_group_barrier. */
__kernel void barrier_global(__global int *buf, __global int *out) {
  int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  int base = g - l;
  buf[g] = g * 3;
  barrier(CLK_GLOBAL_MEM_FENCE);
  int v = buf[base + (l + 1) % n];
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  buf[g] = v + 1;
  work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
  out[g] = buf[base + (l + n - 1) % n] + v;
}
