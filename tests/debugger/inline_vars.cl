float sq(float v) {
  float r = v * v;
  return r;
}
int bump(int x, int k) {
  int y = x * k;
  y += (int)sq(x);
  return y;
}
__kernel void k(__global int *out) {
  int gid = get_global_id(0);
  int y = gid + 3;
  int t = bump(y, 10);
  out[gid] = t + (int)sq(2.5f);
}
