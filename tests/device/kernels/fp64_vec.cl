/* fp64_vec.cl - double vectors, conversions to and from double, and the
 * double forms of common and geometric builtins. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void fp64_vec(__global const double *in, __global double *out) {
  int g = get_global_id(0);
  double4 a = vload4(g, in);
  double4 b = a.wzyx * 0.5 + 1.0;
  __global double *o = out + 12 * g;
  vstore4(a * b - a / b, 0, o);
  o[4] = dot(a, b);
  o[5] = length(a);
  o[6] = distance(a, b);
  o[7] = clamp(a.x, -1.0, 1.0);
  o[8] = (double)(float)a.y;
  o[9] = (double)convert_int_rtz(a.z * 100.0);
  o[10] = mix(a.x, a.w, 0.25);
  o[11] = (double)convert_long(a.x * 1e12);
}
