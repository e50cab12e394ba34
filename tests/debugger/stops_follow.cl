/* stops_warp.cl - a breakpoint in a 4-iteration loop on 2^20 work-items in
 * work-groups of 256 (8 warps of 32): one stop per warp, the focused
 * work-group first, then by warp; and a barrier every work-item reaches
 * after the loop */
__kernel void big(__global int *out, __local int *tmp) {
  size_t gid = get_global_id(0);
  size_t lid = get_local_id(0);
  int acc = 0;
  for (int i = 0; i < 4; i++) {
    acc += (int)gid + i;
  }
  tmp[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = tmp[(lid + 1) % get_local_size(0)];
}
