/* generic_ptr.cl - the generic address space: one function takes pointers
 * to global, local and private memory, chosen per work-item. */
static int sum3(int *p) { return p[0] + p[1] + p[2]; }
static void bump(int *p) { *p += 1; }
__kernel void generic_ptr(__global int *buf, __global int *out) {
  __local int loc[64 + 2];
  int priv[3];
  int g = get_global_id(0), l = get_local_id(0);
  loc[l] = g * 2;
  if (l < 2) loc[64 + l] = 0;
  priv[0] = g; priv[1] = 1; priv[2] = 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  int *p = (g & 1) ? (int *)&buf[g] : (int *)priv;
  int r = sum3(p) + sum3(&loc[l]) * 1000;
  barrier(CLK_LOCAL_MEM_FENCE);
  int *q = (g % 3 == 0) ? (int *)&loc[l] : (g % 3 == 1) ? (int *)&buf[g] : (int *)&priv[1];
  int kind = *q;
  out[2 * g] = r;
  out[2 * g + 1] = kind;
  bump(&out[2 * g + 1]);
}
