/* stopscatter.cl - every other work-item reaches the breakpoint: the warps
 * still to be reported are listed in one short line */
kernel void stopscatter(global int *out) {
  int gid = get_global_id(0);
  if (gid % 2 == 0)
    out[gid] = gid;
  else
    out[gid] = -gid;
}
