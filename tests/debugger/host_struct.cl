typedef struct {
  int x, y;
} point;
int twice(int v) {
  int r = v * 2;
  return r;
}
__kernel void k(__global int *out, __global point *in) {
  int gid = get_global_id(0);
  point p = in[gid];
  p.x = twice(p.y);
  out[gid] = p.x + p.y;
}
