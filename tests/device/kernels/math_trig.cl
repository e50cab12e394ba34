/* math_trig.cl - trigonometric functions and their pi forms. */
__kernel void math_trig(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float x = in[g], u = x * 0.0961f;
  __global float *o = out + 12 * g;
  o[0] = sin(x);
  o[1] = cos(x);
  o[2] = tan(x);
  o[3] = asin(u);
  o[4] = acos(u);
  o[5] = atan(x);
  o[6] = sinpi(x);
  o[7] = cospi(x);
  o[8] = tanpi(x);
  o[9] = asinpi(u);
  o[10] = acospi(u);
  o[11] = atanpi(x);
}
