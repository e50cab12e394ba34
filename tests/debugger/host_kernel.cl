__kernel void scale(__global float *data, float factor, int n) {
  int gid = get_global_id(0);
  float acc = 0.0f;
  for (int i = 0; i < n; i++) {
    acc += data[gid] * factor;
  }
  if (gid % 2 == 1) {
    acc = -acc;
  }
  data[gid] = acc;
}

__kernel void count(__global int *counter, __global int *seen) {
  int gid = get_global_id(0);
  int old = atomic_inc(counter);
  seen[gid] = old + 1;
}
