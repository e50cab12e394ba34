/* warp_uniform.cl - values each lane computes alike from values every lane
 * holds alike, but written by only some lanes (in an if's arm; in a loop
 * each lane leaves after its own count of turns), then read where the
 * lanes run together again; and one written by every lane in a loop round
 * a barrier, which every lane runs as often. */
__kernel void warp_uniform(__global uint *out, __global uint *mark, uint n) {
  uint lid = get_local_id(0), gid = get_global_id(0);
  uint j = n;
  if (lid & 1) {
    j = n * 3 + 1;
    mark[gid] = j;
  }
  out[3 * gid] = j;
  uint s = n;
  for (uint i = 0; i < lid % 5; i++)
    s = s * 2 + 1;
  out[3 * gid + 1] = s;
  uint u = get_group_id(0) * n;
  for (uint k = 1; k <= n; k <<= 1) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    u = u * 3 + k;
  }
  out[3 * gid + 2] = u;
}

/* Lanes that leave an inner loop early run on past it (its yield lets the
 * others wait), round the outer loop, and meet the others again where
 * they wait at a yield of another turn of the outer loop: every lane then
 * runs, each with its own turn's values. */
__kernel void yield_turns(__global uint *out, uint n, uint m) {
  uint lid = get_local_id(0), gid = get_global_id(0);
  for (uint i = 0; i < n; i++) {
    uint x = i * 64 + n;
    if (n > 1) out[gid * n + i] += x + lid;
    out[gid * n + i] += x;
    uint turns = (lid & 16) ? m : 0;
    for (uint t = 0; t < turns; t++)
      out[gid * n + i] += t + 1;
  }
}
