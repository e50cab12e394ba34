/* div_early_return.cl - early returns from inside loops and nested ifs. */
__kernel void div_early_return(__global int *out) {
  int g = get_global_id(0);
  out[g] = -1;
  if (g % 6 == 0) return;
  int acc = 0;
  for (int i = 0; i < 20; i++) {
    acc += i ^ g;
    if (acc > 40 + g) {
      out[g] = acc;
      return;
    }
    if (i == g % 13) {
      if (g & 1) {
        out[g] = -acc;
        return;
      }
    }
  }
  out[g] = acc * 2;
}
