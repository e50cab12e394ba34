/* wiscale.cl - 2^20 work-items in groups of 256: the listings at scale */
int twice(int v) {
  int r = v * 2;
  return r;
}

__kernel void k(__global int *out, int n) {
  int gid = get_global_id(0);
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += twice(i);
  }
  if (gid % 64 < 32)
    acc += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = acc + gid;
}
