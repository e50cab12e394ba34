/* A tile written and read with no barrier between (a local race), then
 * every work-item writing the same element (a global race). */
kernel void k(global int *out, local int *tile) {
  int l = get_local_id(0);
  tile[l] = l * 2;
  int v = tile[(l + 1) % 8];
  out[get_global_id(0)] = v;
  out[0] = l;
}
