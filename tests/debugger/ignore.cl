typedef struct { int a; float b; } pair;
__kernel void k(__global int *out, __global const float *in, int n) {
  int gid = get_global_id(0);
  int acc = 0;
  int arr[4];
  for (int i = 0; i < n; i++) {
    acc += i * gid;
  }
  if (gid % 2 == 0) {
    acc = acc + 100;
  }
  arr[gid % 4] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = acc + arr[gid % 4] + (int)in[gid];
}
