/* argspan.cl - a kernel whose parameters span two lines: info args lists them all */
__kernel void scan_block(__global const int *in, __global int *out,
                         __global int *sums, __local int *tmp) {
  int lid = get_local_id(0);
  int gid = get_global_id(0);
  int n = get_local_size(0);
  tmp[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < n; off <<= 1) {
    int v = 0;
    if (lid >= off)
      v = tmp[lid - off];
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[lid] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[gid] = tmp[lid];
  if (lid == n - 1)
    sums[get_group_id(0)] = tmp[lid];
}
