/* pass_pending.cl - resuming a work-item whose breakpoint hit a pass
 * recorded but did not report yet reports that hit first */
__kernel void k(__global int *out, __global int *cnt) {
  int gid = get_global_id(0);
  int v = gid * 10;
  atomic_inc(cnt);
  v += 1;
  out[gid] = v;
}
