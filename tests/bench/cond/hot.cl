/* The condition benchmark's kernel: line 8 runs n times per work-item (the
 * hot line a conditional breakpoint is set on), line 10 never runs (never
 * is 0: the unconditional breakpoint that never hits). */
__kernel void hot(__global int *out, __global const float *in, int n, int never) {
  int gid = get_global_id(0);
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += i * gid + (int)in[gid];
    if (never) {
      acc = 0;
    }
  }
  out[gid] = acc;
}
