/* pass_rehit.cl - a work-item stepped onto a breakpoint before its
 * work-group's first pass: that pass runs it on from there */
__kernel void k(__global int *out, int n) {
  int gid = get_global_id(0);
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += i * gid;
  }
  out[gid] = acc;
}
