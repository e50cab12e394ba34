/* host_bind.cl - where breakpoints bind when they are set before the
 * program is built (host_bind.hinp, run by host_run) */
int twice(int v) {
  return v * 2;
}

__kernel void k(__global int *out, __global int *in) {
  int gid = get_global_id(0);

  int s = in[gid * 8] +
          in[gid * 8 + 1];
  int t = twice(s);
  out[gid] = t;
}
