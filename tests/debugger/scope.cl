__kernel void k(__global int *out, __global const float *in, int n) {
  __local int tmp[4];
  int gid = get_global_id(0);
  int lid = get_local_id(0);
  tmp[lid] = gid * 10 + (int)in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = tmp[(lid + 1) % 4];
  out[gid] = v + n;
}
