/* constant_struct.cl - program-scope __constant data, structs by value and
 * through pointers, vector types. */
__constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
typedef struct { int a; float b; int4 v; } item;
__kernel void constant_struct(__global const item *items, item k, __global int *out) {
  int g = get_global_id(0);
  item it = items[g];
  int4 s = it.v + k.v;
  out[g] = table[g % 8] + it.a * k.a + (int)(it.b * k.b) + s.x + s.y * 2 + s.z * 3 + s.w * 4;
}
