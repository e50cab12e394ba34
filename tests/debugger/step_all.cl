__kernel void k(__global int *out, __global int *in) {
  __local int tmp[4];
  int gid = get_global_id(0);
  int lid = get_local_id(0);
  int acc = 0;
  for (int i = 0; i < 3; i++) {
    acc += in[gid * 8 + i] * (i + 1);
  }
  if (gid % 2) {
    acc = -acc;
  }
  tmp[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = acc + tmp[(lid + 1) % 4];
}
