/* local_args.cl - two __local arguments of different element types and
 * sizes used together with a static __local variable. */
__kernel void local_args(__global const int *in, __global long *out, __local int *a,
                         __local long *b) {
  __local int cnt;
  int l = get_local_id(0), n = get_local_size(0);
  if (l == 0) cnt = 0;
  a[l] = in[get_global_id(0)];
  b[l] = (long)a[l] * a[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&cnt);
  long s = b[(l + 1) % n] - a[n - 1 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s + cnt;
}
