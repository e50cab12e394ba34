/* Kernels for the uninitialised-value checker (uninit.sh): each takes a
 * global int buffer out (defined), a __local int buffer tile of one int per
 * work-item and a global int buffer in whose first half only is defined. */

/* Half of a local tile written, the other half read and stored. */
__kernel void tile_half(__global int *out, __local int *tile, __global int *in) {
  int l = get_local_id(0), n = get_local_size(0);
  if (l < n / 2) tile[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = tile[n - 1 - l];
  out[get_global_id(0)] = v * 2;
}

/* A private accumulator initialised on one path only. */
__kernel void acc_path(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0);
  int acc;
  if (g % 4 != 0) acc = in[g % 8];
  for (int i = 0; i < in[g % 8] + 1; i++)
    acc += in[i % 8];
  out[g] = acc;
}

/* An undefined value (the second half of in) used as an address. */
__kernel void undef_addr(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0);
  int idx = in[g];
  out[idx & 63] = g;
}

/* An undefined value used as a loop bound. */
__kernel void undef_bound(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0);
  int n = in[g];
  int s = 0;
  for (int i = 0; i < n; i++)
    s += out[i];
  out[g] = s;
}

/* A struct with padding copied whole into global memory: not reported. */
typedef struct {
  char c;
  int i;
  short s;
} padded;
__kernel void padding(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0), l = get_local_id(0);
  __global padded *o = (__global padded *)out;
  __local padded *t = (__local padded *)tile;
  padded p;
  p.c = (char)g;
  p.i = g;
  p.s = (short)g;
  if (l < get_local_size(0) / 4) t[l] = p;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (g < get_global_size(0) / 4) o[g] = t[l / 2];
  __global float3 *o3 = (__global float3 *)out;
  if (g >= get_global_size(0) / 2) o3[g / 4] = (float3)((float)g, 1.0f, 2.0f);
}

/* Correct: the tile written whole, in read only in its defined half. */
__kernel void clean(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  tile[l] = out[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (int i = 0; i < n; i++)
    s += tile[i];
  out[g] = in[g % (get_global_size(0) / 2)] + s;
}
