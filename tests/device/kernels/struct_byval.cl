/* struct_byval.cl - structs of floats (4-byte aligned, with 8-byte members
 * at offsets 4 and 12) passed to and returned from functions by value, and
 * copied whole or member by member in private, local and global memory. */
typedef struct { float x, y; } f2;
typedef struct { float a; f2 p; f2 q; float c; } body;
static f2 rot(f2 v, float s) {
  f2 r = {v.y * s, v.x + s};
  return r;
}
static body step(body b, float dt) {
  b.p = rot(b.q, dt);
  b.q = rot(b.p, b.a);
  b.c += b.p.x;
  return b;
}
__kernel void struct_byval(__global const body *in, __global body *out) {
  __local body loc[64];
  int g = get_global_id(0), l = get_local_id(0), n = get_global_size(0);
  body b = in[g];
  body arr[4];
  for (int k = 0; k < 4; k++) {
    arr[k] = b;
    b = step(b, (float)k);
  }
  int j = g % 4;
  arr[j].p = rot(arr[(j + 1) & 3].q, 0.5f);
  arr[(j + 2) & 3].q = arr[j].p;
  loc[l] = arr[j];
  barrier(CLK_LOCAL_MEM_FENCE);
  body nb = loc[(l + 1) % get_local_size(0)];
  out[3 * g] = b;
  out[3 * g + 1] = arr[j];
  out[3 * g + 1].q = in[(g + 1) % n].p;
  out[3 * g + 2] = step(nb, arr[(j + 2) & 3].q.x);
}
