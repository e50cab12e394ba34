/* Half a tile written, all of it read and stored; an accumulator one
 * work-item never initialises, used as a branch condition. */
kernel void k(global int *out, local int *tile) {
  int l = get_local_id(0);
  int acc;
  if (l < 2) tile[l] = l + 10;
  if (l != 3) acc = 1;
  int x = tile[l];
  out[get_global_id(0)] = x;
  if (acc > 0) out[get_global_id(0)] += 100;
}
