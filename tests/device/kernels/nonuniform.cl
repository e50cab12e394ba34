/* nonuniform.cl - a non-uniform NDRange: the last work-group is smaller,
 * get_enqueued_local_size is not, and a local reduction still works. */
__kernel void nonuniform(__global uint *out, __global uint *sums) {
  __local uint acc;
  size_t g = get_global_id(0);
  if (get_local_id(0) == 0) acc = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&acc, (uint)g);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[3 * g] = get_local_size(0);
  out[3 * g + 1] = get_enqueued_local_size(0);
  out[3 * g + 2] = get_num_groups(0);
  if (get_local_id(0) == 0) sums[get_group_id(0)] = acc;
}
