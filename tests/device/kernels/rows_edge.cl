/* rows_edge.cl - 2-D work-groups whose rows are narrower than a warp.
 * rows_edge: with past = 1 the launch's last work-item reads one element
 * past the end of a. rows_two: odd rows read through a pointer to another
 * buffer than even rows. */
__kernel void rows_edge(__global const int *a, __global int *out, int past) {
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  out[y * w + x] = a[y * w + x + past];
}

__kernel void rows_two(__global const int *a, __global const int *b, __global int *out) {
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  __global const int *p = (y & 1) ? b : a;
  out[y * w + x] = p[y * w + x];
}

