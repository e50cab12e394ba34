/* rows_2d.cl - loads of 2-D work-groups whose rows are narrower than a
 * warp: per row one element for every work-item, consecutive elements,
 * neither, and consecutive but for some work-items. */
__kernel void rows_2d(__global const int *a, __global const long *b, __global const short *c,
                      __global int *out, int n) {
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  int s = a[y * n];                          /* one element per row */
  long t = b[x + 3];                         /* the same consecutive elements in every row */
  short u = c[y * n + x];                    /* consecutive, rows n apart */
  int v = a[(x * 7) % n + y];                /* neither */
  int z = a[(x & 7) == 5 ? y : x + y * n];   /* consecutive but for one work-item in 8 */
  int r = a[(y & 1) ? y * n + x : x + 1];     /* every other row starts elsewhere */
  out[y * w + x] = s + (int)t * 3 + u * 5 + v * 7 + z * 11 + r * 13;
}
