/* byval.cl - every kind of kernel argument is visible: structs by value
 * (a vector, a nested struct and arrays inside), pointers to global,
 * constant and local memory, scalars and vectors */
typedef struct {
  int n;
  float scale;
  float4 off;
} params_t;
typedef struct {
  short id;
  params_t in;
  int taps[3];
  char tag[4];
} nest_t;
kernel void k(global float *a, params_t p, constant int *tab, local float *tmp, int4 iv,
              float s, nest_t q, uchar u, long big) {
  int i = get_global_id(0);
  int l = get_local_id(0);
  float v = a[i] * p.scale + p.off.y + tab[i % 4];
  for (int j = 0; j < p.n; j++)
    v += q.taps[j % 3];
  tmp[l] = v + s + iv.z + q.in.off.w;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[i] = tmp[(l + 1) % get_local_size(0)] + p.n + u + big;
}
