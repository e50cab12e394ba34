struct xy { int x, y; };
struct pair {
  int first, second;
  struct xy off; int2 vec;
};
int twice(int v) {
  return v * 2;
}

__kernel void k(__global int *out, __global int *in) {
  int gid = get_global_id(0);
  struct pair pr;
  pr.first = in[gid * 8];
  pr.second = twice(pr.first);
  int total = 0;
  for (int i = 0; i < 4; i++) {
    total += pr.second + i;
  }
  out[gid] = total;
}
