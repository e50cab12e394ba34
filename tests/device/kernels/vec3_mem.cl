/* vec3_mem.cl - 3-component vectors occupy 4 elements in memory as
 * arrays and struct members, but vload3/vstore3 are packed. */
typedef struct { float3 p; int id; } rec;
__kernel void vec3_mem(__global float3 *v, __global rec *r, __global float *packed) {
  int g = get_global_id(0);
  float3 a = v[g];
  v[g] = a.zxy * 2.0f;
  r[g].p = a + (float3)(r[g].id);
  r[g].id = g * 10;
  vstore3(vload3(g, packed) + a, g, packed);
}
