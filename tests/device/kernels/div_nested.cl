/* div_nested.cl - deeply nested if/else with lane-dependent conditions. */
__kernel void div_nested(__global int *out) {
  int g = get_global_id(0), r = 0;
  if (g & 1) {
    if (g & 2) {
      if (g & 4) r = 1; else r = 2;
    } else {
      r = 3;
      if (g % 3 == 0) {
        r += 10;
        if (g % 9 == 0) r += 100; else r -= 1;
      }
    }
  } else if (g & 8) {
    r = g % 5 ? 4 : 5;
  } else {
    if (g % 7 == 0) r = 6;
    else if (g % 7 == 1) r = 7;
    else r = 8 + (g & 16 ? 1 : 0);
  }
  out[g] = r;
}
