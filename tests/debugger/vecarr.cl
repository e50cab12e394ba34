/* vecarr.cl - private arrays of vectors (float4, int2, float3 of 16 bytes) */
__kernel void k(__global float4 *out) {
  int gid = get_global_id(0);
  float4 pts[3];
  int2 idx[2] = {(int2)(1, 2), (int2)(3, 4)};
  float3 n3[2] = {(float3)(1.0f, 2.0f, 3.0f), (float3)(4.0f, 5.0f, 6.0f)};
  for (int i = 0; i < 3; i++)
    pts[i] = (float4)(gid, i, 0.5f * i, 1.0f);
  out[gid] = pts[2] + (float4)(idx[1].x, idx[1].y, n3[1].z, 0);
}
