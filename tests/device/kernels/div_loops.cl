/* div_loops.cl - while, do-while and nested loops with lane-dependent trip
 * counts, break out of nested loops through a flag, continue. */
__kernel void div_loops(__global int *out) {
  int g = get_global_id(0);
  int a = 0, n = g % 17;
  while (n > 0) {
    a += n;
    n -= 1 + (g & 3);
  }
  int b = 0, m = g;
  do {
    b++;
    m >>= 1;
  } while (m);
  int c = 0, done = 0;
  for (int i = 0; i < 8 && !done; i++) {
    for (int j = 0; j < g % 11; j++) {
      if (j == i + 3) {
        if ((g + i) % 4 == 0) {
          done = 1;
          break;
        }
        continue;
      }
      c += i * j + 1;
    }
  }
  out[g] = a + 1000 * b + 100000 * c;
}
