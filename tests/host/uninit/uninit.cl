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

#pragma OPENCL EXTENSION cl_khr_subgroups : enable
/* Builtins that read or write memory, or pick lanes or elements, carry the
 * shadow of what they move: vload of the undefined half of in. */
__kernel void vload_in(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0);
  int4 v = vload4(g / 4, in);
  out[g] = v.y;
}

/* vstore of values read from the undefined half of in into global memory. */
__kernel void vstore_in(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0);
  if (g % 4 == 0) vstore4((int4)(in[g], in[g + 1], g, g), g / 4, out);
}

/* An async copy of each group's part of in into the tile: group 1's part
 * stays undefined, group 0's is defined. */
__kernel void async_in(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * n, n, 0);
  wait_group_events(1, &e);
  out[g] = tile[l];
}

/* Every lane gets lane 0's value, from the undefined half of in. */
__kernel void bcast_in(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0);
  int x = in[g % 64 + (get_sub_group_local_id() == 0 ? 64 : 0)];
  out[g] = sub_group_broadcast(x, 0);
}

/* A sub-group sum with one undefined lane is undefined in every lane. */
__kernel void reduce_in(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0);
  int x = in[g % 64 + (get_sub_group_local_id() == 1 ? 64 : 0)];
  out[g] = sub_group_reduce_add(x);
}

/* The old value of an atomic on a tile element nobody initialised. */
__kernel void atomic_undef(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0);
  out[g] = atomic_inc(&tile[0]);
}

/* A padding byte of a struct used. */
__kernel void padding_used(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0);
  padded p;
  p.c = (char)g;
  p.i = g;
  p.s = (short)g;
  __private char *b = (__private char *)&p;
  out[g] = b[1 + g % 3];
}

/* Correct: lane 0's value broadcast where only lane 0 has one, a vector
 * shuffle picking the defined elements, vload/vstore and an atomic on
 * defined data. */
__kernel void lanes_clean(__global int *out, __local int *tile, __global int *in) {
  int g = get_global_id(0), l = get_local_id(0);
  int x;
  if (get_sub_group_local_id() == 0) x = in[g % 64];
  int b = sub_group_broadcast(x, 0);
  int4 v;
  v.x = g;
  v.y = b;
  int2 s = shuffle(v, (uint2)(1, 0));
  int a[4];
  vstore4(vload4(g % 16, in), 0, a);
  if (l == 0) tile[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int o = atomic_add(&tile[0], s.x + s.y + a[g % 4]);
  out[g] = o >= 0 ? 1 : 0;
}
