/* spinbig.cl - every work-item of a large launch spins until a debugger
 * sets `stop` (the pause summary test); only work-item 0 says so */
__kernel void k(__global int *out, __global int *in) {
  int stop = in[0];
  int n = 0;
  if (get_global_id(0) == 0)
    printf("spinning\n");
  while (stop == 0)
    n++;
  out[get_global_id(0)] = stop * 7 + (n > 0);
}
