/* vecptr.cl - component selections of vectors, pointers to vectors and to arrays */
__kernel void k(__global float *in, __global float4 *out) {
  int gid = get_global_id(0);
  __global float4 *v4 = (__global float4 *)in;
  float4 d = v4[gid] * 2.0f;
  int3 c = (int3)(gid, gid + 1, gid + 2);
  float w[3] = {1.5f, 2.5f, 3.5f};
  out[gid] = d + (float4)(c.x, c.y, c.z, w[2]);
}
