/* math_ptr.cl - math builtins returning a second result through a pointer
 * to private, local and global memory: frexp, modf, fract, sincos. */
__kernel void math_ptr(__global const float *in, __global float *out) {
  __local float lf[64];
  int g = get_global_id(0), l = get_local_id(0);
  float x = in[g];
  __global float *o = out + 8 * g;
  int e;
  o[0] = frexp(x, &e);
  o[1] = (float)e;
  o[2] = modf(x, &lf[l]);
  o[3] = lf[l];
  float fl;
  o[4] = fract(x, &fl);
  o[5] = fl;
  o[6] = sincos(x, o + 7);
}
