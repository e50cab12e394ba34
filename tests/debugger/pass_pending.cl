/* pass_pending.cl - resuming a work-item whose warp's breakpoint stop a
 * pass recorded but did not report yet reports that stop first */
__kernel void k(__global int *out, __global int *cnt) {
  int gid = get_global_id(0);
  int v = gid * 10;
  atomic_inc(cnt);
  v += 1;
  out[gid] = v;
}
