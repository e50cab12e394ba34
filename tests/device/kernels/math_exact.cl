/* math_exact.cl - math functions that must be exact (0 ulp). */
__kernel void math_exact(__global const float *in, __global float *out) {
  int g = get_global_id(0), n = get_global_size(0);
  float x = in[g], y = in[(g * 37 + 11) % n];
  __global float *o = out + 16 * g;
  o[0] = ceil(x);
  o[1] = floor(x);
  o[2] = rint(x);
  o[3] = round(x);
  o[4] = trunc(x);
  o[5] = fabs(x);
  o[6] = fmod(x, y);
  o[7] = remainder(x, y);
  o[8] = copysign(x, y);
  o[9] = fdim(x, y);
  o[10] = fmax(x, y);
  o[11] = fmin(x, y);
  o[12] = nextafter(x, y);
  o[13] = ldexp(x, g % 11 - 5);
  o[14] = (float)ilogb(x);
  o[15] = logb(x);
}
