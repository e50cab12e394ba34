/* workitem_3d.cl - a 3-D NDRange with an offset: ids, sizes and linear ids
 * in every dimension. */
__kernel void workitem_3d(__global uint *out) {
  size_t lin = get_global_linear_id();
  __global uint *o = out + 8 * lin;
  o[0] = get_global_id(0) | get_global_id(1) << 8 | get_global_id(2) << 16;
  o[1] = get_local_id(0) | get_local_id(1) << 8 | get_local_id(2) << 16;
  o[2] = get_group_id(0) | get_group_id(1) << 8 | get_group_id(2) << 16;
  o[3] = get_num_groups(0) | get_num_groups(1) << 8 | get_num_groups(2) << 16;
  o[4] = get_local_size(0) | get_local_size(1) << 8 | get_local_size(2) << 16;
  o[5] = get_local_linear_id();
  o[6] = get_work_dim();
  o[7] = get_global_offset(0) | get_global_offset(1) << 8 | get_global_offset(2) << 16;
}
