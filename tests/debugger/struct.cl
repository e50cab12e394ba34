typedef struct {
  int x, y;
} point;
struct box {
  point lo, hi;
  float w[3];
};
__kernel void k(__global int *out, __global struct box *boxes) {
  int gid = get_global_id(0);
  struct box b = boxes[gid];
  point p = b.lo;
  __global struct box *bp = &boxes[gid];
  p.x += b.hi.y;
  out[gid] = p.x + bp->hi.x + (int)b.w[1];
}
