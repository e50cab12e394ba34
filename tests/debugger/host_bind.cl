/* host_bind.cl - where breakpoints bind when they are set before the
 * program is built (host_bind.hinp and dap/bind.test.mjs, run by host_run) */
int twice(int v, int w) {
  return v * w;
}

__kernel void k(__global int *out, __global int *in) {
  int gid = get_global_id(0);

  int s = in[gid * 8] +
          in[gid * 8 + 1];
  int t = twice(s, 2);
  out[gid] = t;
}
