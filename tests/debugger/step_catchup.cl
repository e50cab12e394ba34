/* step_catchup.cl - the work-items a stepped one waits for at a barrier
 * pass the breakpoints on their way to it (noted), and stop at watched changes */
__kernel void k(__global int *out, __global int *cnt) {
  int gid = get_global_id(0);
  int v = gid * 10;
  atomic_inc(cnt);
  v += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = v;
}
