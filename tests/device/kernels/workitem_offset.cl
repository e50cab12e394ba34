/* workitem_offset.cl - every 1-D work-item query under a global offset. */
__kernel void workitem_offset(__global uint *out) {
  size_t g = get_global_id(0) - get_global_offset(0);
  __global uint *o = out + 10 * g;
  o[0] = get_global_id(0);
  o[1] = get_local_id(0);
  o[2] = get_group_id(0);
  o[3] = get_global_size(0);
  o[4] = get_local_size(0);
  o[5] = get_num_groups(0);
  o[6] = get_global_offset(0);
  o[7] = get_work_dim();
  o[8] = get_global_linear_id();
  o[9] = get_local_linear_id() + 1000 * get_global_id(1) + 100000 * get_local_size(2);
}
