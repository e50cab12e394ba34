/* spinwd.cl - a loop that ends only when the debugger changes `stop` */
__kernel void k(__global int *out, __global int *in) {
  int stop = in[0];
  int n = 0;
  while (stop == 0) n++;
  out[get_global_id(0)] = stop * 7 + (n > 0);
}
