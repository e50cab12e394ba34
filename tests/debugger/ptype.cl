/* ptype.cl - whatis and ptype of variables, expressions and type names */
typedef struct {
  int x, y;
} point;
struct particle {
  float4 pos;
  float mass;
  point cell;
  int tags[3];
};
typedef struct particle particle_t;
struct view {
  __global const int *data;
  int n;
};
__constant float scale[2] = {1.5f, 2.5f};
__kernel void k(__global struct particle *ps, __global const int *in, __local float *tmp,
                __constant float *coef) {
  int gid = get_global_id(0);
  particle_t q = ps[gid];
  int arr[16];
  for (int i = 0; i < 16; i++)
    arr[i] = i;
  struct view v = {in, 4};
  tmp[gid] = coef[0];
  ps[gid].mass = q.mass + arr[3] + v.data[1] + tmp[gid] + scale[1];
}
