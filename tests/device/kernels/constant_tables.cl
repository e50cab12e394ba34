/* constant_tables.cl - program-scope __constant arrays of several types, a
 * __constant struct, and a __constant kernel argument. */
typedef struct { int k; float w[2]; } coef;
__constant short sq[10] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81};
__constant float wt[4] = {0.5f, 0.25f, 0.125f, 2.0f};
__constant coef cf = {7, {1.5f, -2.0f}};
__constant char msg[] = "lockstep";
__kernel void constant_tables(__constant int *arg, __global float *out) {
  int g = get_global_id(0);
  out[g] = sq[g % 10] * wt[g % 4] + cf.k * cf.w[g & 1] + msg[g % 8] + arg[g % 3];
}
