/* partial_warps.cl - loads and stores of consecutive elements by some of
 * a warp's work-items, at addresses every work-item computed (used before
 * the barrier, so they are not computed again in the branch): the others'
 * elements must stay untouched. */
__kernel void partial_warps(__global const int *in, __global int *out) {
  int i = get_global_id(0);
  __global int *p = out + i;
  __global const int *q = in + i;
  int old = *p + *q;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (i % 3 != 0)
    *p = old + *q * 2;
}
