/* divergence.cl - nested if/else, a loop with a lane-dependent trip count,
 * break/continue, switch and early return. */
__kernel void divergence(__global int *out) {
  int g = get_global_id(0);
  int acc = 0;
  if (g % 5 == 0) {
    out[g] = -1;
    return;
  }
  for (int i = 0; i < g % 13; i++) {
    if (i == 9) break;
    if (i % 3 == 1) continue;
    if (g & 1) {
      if (i & 2) acc += i * 3;
      else acc -= 1;
    } else {
      acc += 7;
    }
  }
  switch (g % 4) {
  case 0: acc *= 2; break;
  case 1: acc += 100; break;
  case 2: acc ^= 0x55; break;
  default: break;
  }
  out[g] = acc;
}
