/* pass_sgbar.cl - passes over rebuilt warps (a work-item moved alone):
 * a lane that waited at a sub-group barrier when a pass stopped is not
 * asked at the barrier's line again, and lanes asked at a breakpoint that
 * was then deleted are asked at the next one they reach */
__kernel void k(__global int *out) {
  int gid = get_global_id(0);
  int x = gid * 2;
  x += 1;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = x;
}
