/* loopcall.cl - a call alone on its line, a do-while in a helper, a while
 * loop's body: breakpoints, next and finish in and out of the helper */
int sum_range(__global const int *p, int n) {
  int s = 0;
  do {
    s += *p++;
  } while (--n > 0);
  return s;
}

__kernel void k(__global const int *src, __global int *out) {
  int gid = get_global_id(0);
  int g = sum_range(src + gid, 3);
  int i = 2;
  while (i > 0) {
    g += 100;
    i--;
  }
  out[gid] = g;
}
