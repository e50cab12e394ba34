/* printf_k.cl - printf with integer, float, string, char, pointer-free
 * vector and length-modified conversions. */
__kernel void printf_k(__global const float *in) {
  int g = get_global_id(0);
  float x = in[g];
  printf("item %d: %5.2f %e %x %u %s %c|%-4d|%04d %ld\n", g, x, x * 1000.0f, g * 255, (uint)g,
         g & 1 ? "odd" : "even", 'A' + g, g, g, (long)g << 33);
  printf("v %v4d %v2hlf %#o %%\n", (int4)(g, -g, 2 * g, 7), (float2)(x, 0.5f), g);
}
