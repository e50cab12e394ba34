#include <assert.h>
/* assert.cl - work-item 2 fails its assertion (x is 0 there) */
__kernel void k(__global int *out, __global int *in) {
  int gid = get_global_id(0);
  int x = in[gid * 8] - 16;
  assert(x != 0);
  out[gid] = x * 2;
}
