/* div_switch.cl - a switch with fall-through, default and many cases. */
__kernel void div_switch(__global int *out) {
  int g = get_global_id(0), r = g;
  switch (g % 11) {
  case 0: r += 1;
  case 1: r *= 2; break;
  case 2:
  case 3: r -= 7; break;
  case 5: r = -r;
  case 6: r ^= 0xff;
  case 7: r += 3; break;
  case 9: return;
  default: r = 42;
  }
  switch (r & 3) {
  case 0: out[g] = r; break;
  default: out[g] = r * 10;
  }
}
