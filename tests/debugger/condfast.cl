typedef struct { int a; float b; } pair;
__kernel void k(__global int *out, __global const float *in, int n) {
  int gid = get_global_id(0);
  float4 v = (float4)(gid, 2.0f * gid, 0.5f, -1.0f);
  pair pr = {gid % 7, in[gid]};
  int arr[3] = {gid, gid + 1, gid + 2};
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += i * arr[i % 3] + pr.a;
  }
  out[gid] = acc;
}
