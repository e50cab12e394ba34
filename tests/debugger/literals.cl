__kernel void k(__global int *out) {
  int i = get_global_id(0);
  uint u = 7u;
  ulong big = ~0UL;
  out[i] = i;
}
