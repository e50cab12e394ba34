/* artarr.cl - gdb's artificial arrays (a[i]@n, *p@n) bounded by their
 * variable or buffer, and chars printed as characters and strings */
__kernel void k(__global int *in, __global char *text, __global float4 *pts) {
  int gid = get_global_id(0);
  int a[6] = {10, 11, 12, 13, 14, 15};
  char name[8] = "lock";
  char msg[20] = "hi";
  char ten[12] = "a";
  char mid[15] = "xyyyyyyyyyyyyz";
  uchar u = 200;
  char nl = '\n';
  __global int *p = in + 2;
  in[gid] = a[gid] + name[0] + u + nl + msg[0] + ten[0] + mid[0] + p[0];
}
