#include <assert.h>
/* pass_watch_assert.cl - one pass on two workers: work-item 0 changes a
 * watched value in a statement that ends with a long copy (one
 * instruction); work-item 1 waits until that statement has begun, then
 * fails an assertion: the pass sees both */
typedef struct { int a[1 << 24]; } big;
__kernel void k(__global int *out, __global big *dst, __global const big *src,
                __global int *flag) {
  int gid = get_global_id(0);
  int x = 1;
  out[gid] = x;
  if (gid == 0) {
    x = 2, atomic_xchg(flag, 1), *dst = *src;
    out[gid] = x + 10;
  } else {
    while (atomic_add(flag, 0) == 0)
      ;
  }
  assert(gid != 1);
  out[gid] += x;
}
