#include <assert.h>
/* step_sgcatch.cl - the members of a sub-group run to a sub-group function
 * a stepped work-item waits at pass breakpoints (noted) and stop at assertions */
__kernel void k(__global int *out, __global int *bad) {
  int gid = get_global_id(0);
  int x = gid + 1;
  x *= 2;
  assert(gid != bad[0]);
  int s = sub_group_reduce_add(x);
  out[gid] = s;
}
