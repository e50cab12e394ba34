int square(int v) {
  int r = v * v;
  return r;
}
int sum_sq(int a, int b) {
  int s = square(a);
  s += square(b);
  return s;
}
__kernel void k(__global int *out) {
  int gid = get_global_id(0);
  int t = sum_sq(gid, 2);
  out[gid] = t;
}
