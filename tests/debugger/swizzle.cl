/* swizzle.cl - vector component selections: reordered, repeated, numeric
 * and rgba names, .lo/.hi/.even/.odd on every size (a 3-component vector
 * as a 4-component one with w undefined), assignment through selections */
__kernel void k(__global float *out) {
  int gid = get_global_id(0);
  float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  int3 c = (int3)(10, 20, 30);
  float2 t = (float2)(5.0f, 6.0f);
  float8 e = (float8)(10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f);
  int16 h = (int16)(100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115);
  out[gid] = v.x + c.y + t.x + e.s7 + h.sf;
}
