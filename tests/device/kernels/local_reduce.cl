/* local_reduce.cl - a local-memory tree reduction with barriers. */
__kernel void local_reduce(__global const int *in, __global int *out, __local int *tmp) {
  size_t lid = get_local_id(0), lsz = get_local_size(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = lsz / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}
