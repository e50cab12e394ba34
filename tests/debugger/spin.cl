/* spin.cl - work-item 0 spins until a debugger sets `stop` (the pause test) */
__kernel void k(__global int *out, __global int *in) {
  int stop = in[0];
  int n = 0;
  printf("spinning\n");
  while (stop == 0)
    n++;
  out[get_global_id(0)] = stop * 7 + (n > 0);
}
