/* program_global.cl - program-scope __global variables with initialisers
 * keep their values across launches of the same program. */
__global int counter = 5;
__global float scale[3] = {1.0f, 2.0f, 4.0f};
__kernel void program_global(__global int *out) {
  int g = get_global_id(0);
  atomic_add(&counter, 1);
  out[g] = (int)(scale[g % 3] * 10.0f);
  scale[g % 3] = scale[g % 3];
}
__kernel void program_global_read(__global int *out) {
  out[0] = counter;
  scale[1] += 1.0f;
  out[1] = (int)scale[1];
}
