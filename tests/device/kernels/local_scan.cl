/* local_scan.cl - a Hillis-Steele inclusive scan in local memory, with a
 * barrier inside a loop. */
__kernel void local_scan(__global const int *in, __global int *out, __local int *t) {
  int l = get_local_id(0), n = get_local_size(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int d = 1; d < n; d <<= 1) {
    int v = l >= d ? t[l - d] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    t[l] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = t[l];
}
