/* inline_bp.cl - breakpoints on lines that call an inlined helper */
int seven(void) {
  int s = 7;
  return s;
}
int fetch(__global const int *in, int i) {
  int v = in[i];
  return v * 2;
}
__kernel void k(__global const int *in, __global int *out, int n) {
  int gid = get_global_id(0);
  int sum = gid;
  sum += seven();
  for (int i = 0; i < n; i++) {
    sum += fetch(in, i);
  }
  out[gid] = sum;
}
