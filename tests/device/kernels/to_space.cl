/* to_space.cl - to_global, to_local and to_private on generic pointers
 * into a global buffer, a program-scope global, local and private memory:
 * the pointer when it is in that space, else NULL; the results are used. */
global int counter = 100;
static int kind(int *p) {
  global int *g = to_global(p);
  local int *l = to_local(p);
  private int *q = to_private(p);
  if (g) *g += 1;
  if (l) *l += 10;
  if (q) *q += 100;
  return (g ? 1 : 0) | (l ? 2 : 0) | (q ? 4 : 0);
}
__kernel void to_space(__global int *buf, __global int *out) {
  __local int loc[64];
  int priv[2] = {7, 8};
  int g = get_global_id(0), l = get_local_id(0);
  loc[l] = g;
  barrier(CLK_LOCAL_MEM_FENCE);
  int *p = g % 4 == 0   ? (int *)&buf[g]
           : g % 4 == 1 ? (int *)&loc[l]
           : g % 4 == 2 ? (int *)&priv[g & 1]
                        : (int *)&counter;
  int k = g % 4 == 3 ? 0 : kind(p);
  if (g == 3) k = kind(p);
  out[3 * g] = k;
  out[3 * g + 1] = g % 4 == 3 && g != 3 ? 0 : *p;
  out[3 * g + 2] = (to_global((int *)0) == 0) + 2 * (to_local((int *)&counter) == 0) +
                   4 * (to_private((int *)&loc[l]) == 0) + 8 * (to_global((int *)priv) == 0);
}
