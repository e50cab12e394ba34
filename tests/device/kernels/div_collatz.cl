/* div_collatz.cl - an unbounded loop whose trip count differs per lane. */
__kernel void div_collatz(__global uint *out) {
  ulong n = get_global_id(0) + 1;
  uint steps = 0;
  while (n != 1) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    steps++;
  }
  out[get_global_id(0)] = steps;
}
