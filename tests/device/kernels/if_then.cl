/* if_then.cl - an if without an else in a long loop: its body stores and
 * reads a value the loop carries, which is written again after the if;
 * the branch goes the whole warp's way in some iterations and splits in
 * others. */
__kernel void if_then_loop(__global const int *in, __global int *out, int n) {
  int g = get_global_id(0), prev = g;
  out[g] = 0;
  for (int i = 0; i < 600; i++) {
    int v = in[(g + i) % n];
    if (v > 0) out[g] += prev + i;
    prev = v;
  }
}
