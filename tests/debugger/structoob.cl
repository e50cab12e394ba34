/* structoob.cl - a struct copied from past the end of its buffer: the
 * exception names the range's size and overrun */
typedef struct { int a; float4 v; short s[3]; } S;
__kernel void k(__global float *out, __global S *ss) {
  int gid = get_global_id(0);
  S loc = ss[gid];
  out[gid] = loc.a + loc.v.w;
}
