/* math_fp64.cl - double-precision math against a long double reference. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void math_fp64(__global const double *in, __global double *out) {
  int g = get_global_id(0), n = get_global_size(0);
  double x = in[g], y = in[(g * 37 + 11) % n], p = fabs(x) + 0.25;
  __global double *o = out + 12 * g;
  o[0] = exp(x);
  o[1] = log(p);
  o[2] = sin(x);
  o[3] = cos(x);
  o[4] = tan(x);
  o[5] = sqrt(p);
  o[6] = pow(p, y);
  o[7] = atan2(y, x);
  o[8] = fma(x, y, 0.5);
  o[9] = x / (y + 0.125);
  o[10] = cbrt(x);
  o[11] = floor(x) + fmod(x, y + 0.125);
}
