/*
 * test_builtins_math.c - the math builtins against the OpenCL C
 * specification, float and double: the special cases of its edge-case
 * tables (NaN, signalling NaN, +-inf, +-0, exact results), then accuracy
 * sweeps within the specification's ULP limits against references computed
 * in quadruple precision (__float128), never against the host's libm of the
 * same precision. One table of statements makes the kernel (built once per
 * type) and names the functions the cases use; nothing else lists them.
 */
#include <float.h>
#include <limits.h>
#include <quadmath.h>

#include "kharness.h"

/* The statements one work-item can run: a and b are the inputs of type T,
 * k an int input; each sets r (a T result) and/or ir (an int result). */
enum { R = 1, IR = 2 };
static const struct fn {
  const char *name, *stmt;
  unsigned out;
} fns[] = {
    {"fmax", "r = fmax(a, b)", R},
    {"fmin", "r = fmin(a, b)", R},
    {"maxmag", "r = maxmag(a, b)", R},
    {"minmag", "r = minmag(a, b)", R},
    {"pow", "r = pow(a, b)", R},
    {"powr", "r = powr(a, b)", R},
    {"pown", "r = pown(a, k)", R},
    {"rootn", "r = rootn(a, k)", R},
    {"ilogb", "ir = ilogb(a)", IR},
    {"logb", "r = logb(a)", R},
    {"sinpi", "r = sinpi(a)", R},
    {"cospi", "r = cospi(a)", R},
    {"tanpi", "r = tanpi(a)", R},
    {"cbrt", "r = cbrt(a)", R},
    {"atan2pi", "r = atan2pi(a, b)", R},
    {"atan2", "r = atan2(a, b)", R},
    {"acospi", "r = acospi(a)", R},
    {"asinpi", "r = asinpi(a)", R},
    {"atanpi", "r = atanpi(a)", R},
    {"exp10", "r = exp10(a)", R},
    {"fdim", "r = fdim(a, b)", R},
    {"fmod", "r = fmod(a, b)", R},
    {"remainder", "r = remainder(a, b)", R},
    {"nextafter", "r = nextafter(a, b)", R},
    {"hypot", "r = hypot(a, b)", R},
    {"copysign", "r = copysign(a, b)", R},
    {"ldexp", "r = ldexp(a, k)", R},
    {"frexp", "r = frexp(a, &ir)", R | IR},
    {"ceil", "r = ceil(a)", R},
    {"trunc", "r = trunc(a)", R},
    {"round", "r = round(a)", R},
    {"rint", "r = rint(a)", R},
    {"sqrt", "r = sqrt(a)", R},
    {"rsqrt", "r = rsqrt(a)", R},
    {"length2", "r = length((V2)(a, b))", R},
    {"length4", "r = length((V4)(a, b, b, a))", R},
    {"distance2", "r = distance((V2)(a, b), (V2)(0))", R},
    {"normalize2.x", "r = normalize((V2)(a, b)).x", R},
    {"normalize2.y", "r = normalize((V2)(a, b)).y", R},
    {"normalize4.w", "r = normalize((V4)(b, b, b, a)).w", R},
    {"half_powr", "r = half_powr(a, b)", R},
    {"fmax.v4", "r = fmax((V4)(1, 2, a, 4), (V4)(b)).z", R},
    {"fmin.v4s", "r = fmin((V4)(a), b).w", R},
    {"rootn.v2", "r = rootn((V2)(a), (int2)(k)).y", R},
    {"ilogb.v2", "ir = ilogb((V2)(1, a)).y", IR},
    {"sinpi.v3", "r = sinpi((V4)(a).xyz).z", R},
    {"powr.v4", "r = powr((V4)(a), (V4)(b)).x", R},
    {"lgamma", "r = lgamma(a)", R},
    {"fabs", "r = fabs(a)", R},
    {"floor", "r = floor(a)", R},
    {"sign", "r = sign(a)", R},
    {"modf", "{ T ip; r = modf(a, &ip); }", R},
    {"modf.ip", "modf(a, &r)", R},
    {"sincos.cos", "sincos(a, &r)", R},
    {"exp", "r = exp(a)", R},
    {"exp2", "r = exp2(a)", R},
    {"expm1", "r = expm1(a)", R},
    {"log", "r = log(a)", R},
    {"log2", "r = log2(a)", R},
    {"log10", "r = log10(a)", R},
    {"log1p", "r = log1p(a)", R},
    {"sin", "r = sin(a)", R},
    {"cos", "r = cos(a)", R},
    {"tan", "r = tan(a)", R},
    {"asin", "r = asin(a)", R},
    {"acos", "r = acos(a)", R},
    {"atan", "r = atan(a)", R},
    {"sinh", "r = sinh(a)", R},
    {"cosh", "r = cosh(a)", R},
    {"tanh", "r = tanh(a)", R},
    {"asinh", "r = asinh(a)", R},
    {"acosh", "r = acosh(a)", R},
    {"atanh", "r = atanh(a)", R},
    {"erf", "r = erf(a)", R},
    {"erfc", "r = erfc(a)", R},
    {"tgamma", "r = tgamma(a)", R},
};
enum { NFN = sizeof fns / sizeof fns[0] };

static int fn_index(const char *name) {
  for (int i = 0; i < NFN; i++)
    if (!strcmp(fns[i].name, name)) return i;
  ck_abort_msg("no function %s in the table", name);
  return -1;
}

/* The kernel: out[g] = fns[fn[g]](x[g], y[g], k[g]), built for T. */
static cl_kernel build(int dbl) {
  static char src[16384];
  size_t n = (size_t)snprintf(src, sizeof src,
                              "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                              "__kernel void sp(__global const T *x, __global const T *y,\n"
                              "  __global const int *kk, __global const int *fn,\n"
                              "  __global T *out, __global int *iout) {\n"
                              "  size_t g = get_global_id(0);\n"
                              "  T a = x[g], b = y[g], r = 0;\n"
                              "  int k = kk[g], ir = 0;\n"
                              "  switch (fn[g]) {\n");
  for (int i = 0; i < NFN; i++)
    n += (size_t)snprintf(src + n, sizeof src - n, "  case %d: %s; break;\n", i, fns[i].stmt);
  snprintf(src + n, sizeof src - n, "  }\n  out[g] = r;\n  iout[g] = ir;\n}\n");
  const char *s = src;
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  const char *opts = dbl ? "-cl-std=CL3.0 -DT=double -DV2=double2 -DV4=double4"
                         : "-cl-std=CL3.0 -DT=float -DV2=float2 -DV4=float4";
  err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
  if (err != CL_SUCCESS) {
    static char log[16384];
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    ck_abort_msg("build failed (%d):\n%s", err, log);
  }
  cl_kernel k = clCreateKernel(p, "sp", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  clReleaseProgram(p);
  return k;
}

/* Runs n work-items; x, y, out are arrays of float (dbl 0) or double. */
static void run_sp(int dbl, size_t n, const void *x, const void *y, const int *k, const int *fn,
                   void *out, int *iout) {
  size_t sz = dbl ? 8 : 4;
  cl_kernel kern = build(dbl);
  cl_mem bx = buf(n * sz, x), by = buf(n * sz, y), bk = buf(n * 4, k), bf = buf(n * 4, fn);
  cl_mem bo = buf(n * sz, NULL), bi = buf(n * 4, NULL);
  ARGS(kern, KA(bx), KA(by), KA(bk), KA(bf), KA(bo), KA(bi));
  ck_assert_int_eq(run(kern, n, 0), CL_COMPLETE);
  rd(bo, out, n * sz);
  rd(bi, iout, n * 4);
  cl_mem all[] = {bx, by, bk, bf, bo, bi};
  for (unsigned i = 0; i < 6; i++)
    clReleaseMemObject(all[i]);
  clReleaseKernel(kern);
}

/* ---- the special cases ---- */

enum { FL = 1, DB = 2, BOTH = 3 }; /* which types a case is for */
enum { SNX = 1, SNY = 2 };         /* x or y replaced by a signalling NaN */
struct sc {
  const char *fn;
  double x, y;
  int k;
  double want; /* NaN: any NaN; else bit-exact unless ulp > 0 */
  int iwant;
  double ulp;
  unsigned types, snan;
};
#define INF INFINITY
#define QN  NAN
#define C(fn, x, y, k, want)                                                                       \
  { fn, x, y, k, want, 0, 0, BOTH, 0 }
#define CI(fn, x, iwant)                                                                           \
  { fn, x, 0, 0, 0, iwant, 0, BOTH, 0 }
#define CU(fn, x, y, k, want, ulp)                                                                 \
  { fn, x, y, k, want, 0, ulp, BOTH, 0 }
#define CT(fn, x, y, k, want, ulp, type)                                                           \
  { fn, x, y, k, want, 0, ulp, type, 0 }
#define CS(fn, x, y, want, sn)                                                                     \
  { fn, x, y, 0, want, 0, 0, BOTH, sn }

static const struct sc cases[] = {
    /* fmax/fmin/maxmag/minmag: a NaN operand gives the other one */
    C("fmax", QN, 1, 0, 1),
    C("fmax", 1, QN, 0, 1),
    CS("fmax", 0, -2, -2, SNX),
    CS("fmax", -2, 0, -2, SNY),
    C("fmax", QN, QN, 0, QN),
    C("fmax", -INF, QN, 0, -INF),
    C("fmax", -0.0, 0.0, 0, 0.0),
    C("fmax", 2, 3, 0, 3),
    C("fmin", QN, 1, 0, 1),
    C("fmin", 1, QN, 0, 1),
    CS("fmin", 0, 5, 5, SNX),
    CS("fmin", 5, 0, 5, SNY),
    C("fmin", QN, QN, 0, QN),
    C("fmin", INF, QN, 0, INF),
    C("fmin", 0.0, -0.0, 0, -0.0),
    C("maxmag", QN, -2, 0, -2),
    C("maxmag", -2, QN, 0, -2),
    CS("maxmag", 0, -2, -2, SNX),
    CS("maxmag", -2, 0, -2, SNY),
    C("maxmag", 3, -4, 0, -4),
    C("maxmag", -3, 3, 0, 3),
    C("maxmag", QN, QN, 0, QN),
    C("minmag", QN, -2, 0, -2),
    C("minmag", -2, QN, 0, -2),
    CS("minmag", 0, -2, -2, SNX),
    CS("minmag", -2, 0, -2, SNY),
    C("minmag", 3, -4, 0, 3),
    C("minmag", -3, 3, 0, -3),
    /* powr: pow's cases differ */
    C("powr", 2, 0.0, 0, 1),
    C("powr", 2, -0.0, 0, 1),
    C("powr", 0.0, -2, 0, INF),
    C("powr", -0.0, -3, 0, INF),
    C("powr", 0.0, -INF, 0, INF),
    C("powr", -0.0, -INF, 0, INF),
    C("powr", 0.0, 2, 0, 0.0),
    C("powr", -0.0, 3, 0, 0.0),
    C("powr", 0.0, INF, 0, 0.0),
    C("powr", 1, 5.5, 0, 1),
    C("powr", 1, -7, 0, 1),
    C("powr", -2, 2, 0, QN),
    C("powr", -INF, 2, 0, QN),
    C("powr", -0x1p-20, 0.5, 0, QN),
    C("powr", 0.0, 0.0, 0, QN),
    C("powr", -0.0, -0.0, 0, QN),
    C("powr", 0.0, -0.0, 0, QN),
    C("powr", INF, 0.0, 0, QN),
    C("powr", INF, -0.0, 0, QN),
    C("powr", 1, INF, 0, QN),
    C("powr", 1, -INF, 0, QN),
    C("powr", 2, QN, 0, QN),
    C("powr", QN, 1, 0, QN),
    C("powr", QN, 0.0, 0, QN),
    C("powr", 1, QN, 0, QN),
    C("powr", 4, 0.5, 0, 2),
    C("powr", INF, 2, 0, INF),
    C("powr", INF, -2, 0, 0.0),
    C("powr", 0.5, INF, 0, 0.0),
    C("powr", 2, INF, 0, INF),
    C("powr", 2, -INF, 0, 0.0),
    CU("powr", 2, 10, 0, 1024, 16),
    C("half_powr", -2, 2, 0, QN),
    C("half_powr", 1, INF, 0, QN),
    /* pow (C99 annex F and the OpenCL addition pow(+-0, -inf) = +inf) */
    C("pow", -0.0, -INF, 0, INF),
    C("pow", 0.0, -INF, 0, INF),
    C("pow", 0.0, -3, 0, INF),
    C("pow", -0.0, -3, 0, -INF),
    C("pow", -0.0, 3, 0, -0.0),
    C("pow", -0.0, 2, 0, 0.0),
    C("pow", QN, 0.0, 0, 1),
    C("pow", 1, QN, 0, 1),
    C("pow", -1, INF, 0, 1),
    C("pow", -2, 0.5, 0, QN),
    C("pow", -INF, -3, 0, -0.0),
    C("pow", -INF, 3, 0, -INF),
    /* "even a NaN": a signalling one too */
    CS("pow", 0, 0.0, 1, SNX),
    CS("pow", 1, 0, 1, SNY),
    CS("pown", 0, 0, 1, SNX),
    CS("hypot", INF, 0, INF, SNY),
    CS("hypot", 0, -INF, INF, SNX),
    /* pown */
    C("pown", QN, 0, 0, 1),
    C("pown", INF, 0, 0, 1),
    C("pown", 0.0, 0, 0, 1),
    C("pown", -0.0, 0, -3, -INF),
    C("pown", 0.0, 0, -3, INF),
    C("pown", -0.0, 0, -2, INF),
    C("pown", -0.0, 0, 2, 0.0),
    C("pown", -0.0, 0, 3, -0.0),
    C("pown", 2, 0, 10, 1024),
    C("pown", -2, 0, 3, -8),
    C("pown", 2, 0, -2, 0.25),
    C("pown", QN, 0, 2, QN),
    /* rootn */
    C("rootn", 8, 0, 0, QN),
    C("rootn", 0.0, 0, 0, QN),
    C("rootn", INF, 0, 0, QN),
    C("rootn", -8, 0, 2, QN),
    C("rootn", -INF, 0, 2, QN),
    C("rootn", -0x1p-30, 0, -4, QN),
    C("rootn", -0.0, 0, -3, -INF),
    C("rootn", 0.0, 0, -3, INF),
    C("rootn", -0.0, 0, -2, INF),
    C("rootn", 0.0, 0, -2, INF),
    C("rootn", -0.0, 0, 2, 0.0),
    C("rootn", 0.0, 0, 2, 0.0),
    C("rootn", -0.0, 0, 3, -0.0),
    C("rootn", 0.0, 0, 3, 0.0),
    C("rootn", INF, 0, 3, INF),
    C("rootn", -INF, 0, 3, -INF),
    C("rootn", INF, 0, -2, 0.0),
    C("rootn", -INF, 0, -3, -0.0),
    C("rootn", QN, 0, 3, QN),
    C("rootn", 1, 0, 7, 1),
    C("rootn", -1, 0, 5, -1),
    CU("rootn", -8, 0, 3, -2, 16),
    CU("rootn", 8, 0, 3, 2, 16),
    CU("rootn", -8, 0, -3, -0.5, 16),
    CU("rootn", 16, 0, 4, 2, 16),
    CU("rootn", 0x1p-600, 0, 3, 0x1p-200, 16),
    /* ilogb (FP_ILOGB0 = INT_MIN, FP_ILOGBNAN = INT_MAX) and logb */
    CI("ilogb", QN, INT_MAX),
    CI("ilogb", -QN, INT_MAX),
    CI("ilogb", 0.0, INT_MIN),
    CI("ilogb", -0.0, INT_MIN),
    CI("ilogb", INF, INT_MAX),
    CI("ilogb", -INF, INT_MAX),
    CI("ilogb", 1, 0),
    CI("ilogb", -3, 1),
    CI("ilogb", 0x1p-140, -140),
    {"ilogb", 0, 0, 0, 0, INT_MAX, 0, BOTH, SNX},
    C("logb", 0.0, 0, 0, -INF),
    C("logb", -0.0, 0, 0, -INF),
    C("logb", INF, 0, 0, INF),
    C("logb", -INF, 0, 0, INF),
    C("logb", QN, 0, 0, QN),
    C("logb", 8, 0, 0, 3),
    /* sinpi, cospi, tanpi */
    C("sinpi", 0.0, 0, 0, 0.0),
    C("sinpi", -0.0, 0, 0, -0.0),
    C("sinpi", 1, 0, 0, 0.0),
    C("sinpi", 2, 0, 0, 0.0),
    C("sinpi", 7, 0, 0, 0.0),
    C("sinpi", -1, 0, 0, -0.0),
    C("sinpi", -4, 0, 0, -0.0),
    C("sinpi", INF, 0, 0, QN),
    C("sinpi", -INF, 0, 0, QN),
    C("sinpi", QN, 0, 0, QN),
    C("sinpi", 0.5, 0, 0, 1),
    C("sinpi", -0.5, 0, 0, -1),
    C("sinpi", 1.5, 0, 0, -1),
    C("sinpi", 0x1p60, 0, 0, 0.0),
    C("sinpi", -0x1p60, 0, 0, -0.0),
    CT("sinpi", 0x1p52 + 1, 0, 0, 0.0, 0, DB),
    CT("sinpi", 1 - 0x1p-24, 0, 0, 0x1.921fb54442d18p-23, 4, FL),
    C("cospi", 0.0, 0, 0, 1),
    C("cospi", -0.0, 0, 0, 1),
    C("cospi", 0.5, 0, 0, 0.0),
    C("cospi", -0.5, 0, 0, 0.0),
    C("cospi", 1.5, 0, 0, 0.0),
    C("cospi", -2.5, 0, 0, 0.0),
    C("cospi", 0x1p20 + 0.5, 0, 0, 0.0),
    C("cospi", 1, 0, 0, -1),
    C("cospi", 2, 0, 0, 1),
    C("cospi", -1, 0, 0, -1),
    C("cospi", INF, 0, 0, QN),
    C("cospi", QN, 0, 0, QN),
    C("cospi", 0x1p60, 0, 0, 1),
    CT("cospi", 0x1p52 + 1, 0, 0, -1, 0, DB),
    C("tanpi", 0.0, 0, 0, 0.0),
    C("tanpi", -0.0, 0, 0, -0.0),
    C("tanpi", INF, 0, 0, QN),
    C("tanpi", -INF, 0, 0, QN),
    C("tanpi", QN, 0, 0, QN),
    C("tanpi", 2, 0, 0, 0.0),
    C("tanpi", -2, 0, 0, -0.0),
    C("tanpi", 1, 0, 0, -0.0),
    C("tanpi", -1, 0, 0, 0.0),
    C("tanpi", 3, 0, 0, -0.0),
    C("tanpi", -3, 0, 0, 0.0),
    C("tanpi", 0.5, 0, 0, INF),
    C("tanpi", 2.5, 0, 0, INF),
    C("tanpi", -1.5, 0, 0, INF),
    C("tanpi", 1.5, 0, 0, -INF),
    C("tanpi", -0.5, 0, 0, -INF),
    C("tanpi", 0x1p60, 0, 0, 0.0),
    C("tanpi", -0x1p60, 0, 0, -0.0),
    CT("tanpi", 0x1p52 + 1, 0, 0, -0.0, 0, DB),
    CU("tanpi", 0.25, 0, 0, 1, 6),
    CU("tanpi", -0.75, 0, 0, 1, 6),
    /* cbrt */
    C("cbrt", -0.0, 0, 0, -0.0),
    C("cbrt", 0.0, 0, 0, 0.0),
    C("cbrt", INF, 0, 0, INF),
    C("cbrt", -INF, 0, 0, -INF),
    C("cbrt", QN, 0, 0, QN),
    CU("cbrt", 27, 0, 0, 3, 2),
    CU("cbrt", -0.125, 0, 0, -0.5, 2),
    /* atan2pi and the other pi functions */
    C("atan2pi", 0.0, -0.0, 0, 1),
    C("atan2pi", -0.0, -0.0, 0, -1),
    C("atan2pi", 0.0, 0.0, 0, 0.0),
    C("atan2pi", -0.0, 0.0, 0, -0.0),
    C("atan2pi", 0.0, -2, 0, 1),
    C("atan2pi", -0.0, -2, 0, -1),
    C("atan2pi", 0.0, 2, 0, 0.0),
    C("atan2pi", -0.0, 2, 0, -0.0),
    C("atan2pi", -2, 0.0, 0, -0.5),
    C("atan2pi", -2, -0.0, 0, -0.5),
    C("atan2pi", 2, -0.0, 0, 0.5),
    C("atan2pi", 2, 0.0, 0, 0.5),
    C("atan2pi", 3, -INF, 0, 1),
    C("atan2pi", -3, -INF, 0, -1),
    C("atan2pi", 3, INF, 0, 0.0),
    C("atan2pi", -3, INF, 0, -0.0),
    C("atan2pi", INF, 5, 0, 0.5),
    C("atan2pi", -INF, -5, 0, -0.5),
    C("atan2pi", INF, -INF, 0, 0.75),
    C("atan2pi", -INF, -INF, 0, -0.75),
    C("atan2pi", INF, INF, 0, 0.25),
    C("atan2pi", -INF, INF, 0, -0.25),
    C("atan2pi", QN, 1, 0, QN),
    C("atan2pi", 1, QN, 0, QN),
    C("atan2", -0.0, -0.0, 0, -M_PI),
    C("acospi", 1, 0, 0, 0.0),
    C("acospi", 2, 0, 0, QN),
    C("acospi", -1.5, 0, 0, QN),
    CU("acospi", -1, 0, 0, 1, 5),
    C("asinpi", 0.0, 0, 0, 0.0),
    C("asinpi", -0.0, 0, 0, -0.0),
    C("asinpi", 2, 0, 0, QN),
    CU("asinpi", 1, 0, 0, 0.5, 5),
    C("atanpi", 0.0, 0, 0, 0.0),
    C("atanpi", -0.0, 0, 0, -0.0),
    C("atanpi", INF, 0, 0, 0.5),
    C("atanpi", -INF, 0, 0, -0.5),
    /* exp10, fdim, fmod, remainder, nextafter, hypot, copysign, ldexp, frexp */
    C("exp10", 0.0, 0, 0, 1),
    C("exp10", -0.0, 0, 0, 1),
    C("exp10", -INF, 0, 0, 0.0),
    C("exp10", INF, 0, 0, INF),
    CU("exp10", 2, 0, 0, 100, 3),
    C("fdim", 1, QN, 0, QN),
    C("fdim", QN, 1, 0, QN),
    C("fdim", 3, 1, 0, 2),
    C("fdim", 1, 3, 0, 0.0),
    C("fdim", INF, INF, 0, 0.0),
    C("fmod", 0.0, QN, 0, QN),
    C("fmod", -0.0, 1, 0, -0.0),
    C("fmod", INF, 1, 0, QN),
    C("fmod", 1, 0.0, 0, QN),
    C("fmod", 5.5, INF, 0, 5.5),
    C("fmod", -5.5, 2, 0, -1.5),
    C("remainder", 5, 2, 0, 1),
    C("remainder", 7, 2, 0, -1),
    C("remainder", 1, 0.0, 0, QN),
    C("remainder", INF, 1, 0, QN),
    C("remainder", -0.0, 1, 0, -0.0),
    CT("nextafter", -0.0, 1, 0, 0x1p-149, 0, FL),
    CT("nextafter", 0.0, -1, 0, -0x1p-149, 0, FL),
    CT("nextafter", -0.0, 1, 0, 0x1p-1074, 0, DB),
    CT("nextafter", 0.0, -1, 0, -0x1p-1074, 0, DB),
    C("nextafter", QN, 1, 0, QN),
    C("nextafter", 1, 1, 0, 1),
    C("hypot", INF, QN, 0, INF),
    C("hypot", QN, -INF, 0, INF),
    CU("hypot", 3, 4, 0, 5, 4),
    C("hypot", 0.0, -0.0, 0, 0.0),
    C("copysign", 2, -0.0, 0, -2),
    C("copysign", -INF, 1, 0, INF),
    C("ldexp", 1, 0, 3, 8),
    C("ldexp", -0.0, 0, 5, -0.0),
    C("ldexp", INF, 0, -5, INF),
    C("ldexp", QN, 0, 1, QN),
    CT("ldexp", 1, 0, -149, 0x1p-149, 0, FL),
    CT("ldexp", 1, 0, -1074, 0x1p-1074, 0, DB),
    {"frexp", INF, 0, 0, INF, 0, 0, BOTH, 0},
    {"frexp", -INF, 0, 0, -INF, 0, 0, BOTH, 0},
    {"frexp", QN, 0, 0, QN, 0, 0, BOTH, 0},
    {"frexp", 0.0, 0, 0, 0.0, 0, 0, BOTH, 0},
    {"frexp", -0.0, 0, 0, -0.0, 0, 0, BOTH, 0},
    {"frexp", 12, 0, 0, 0.75, 4, 0, BOTH, 0},
    /* rounding functions: the -0 cases */
    C("ceil", -0.5, 0, 0, -0.0),
    C("trunc", -0.7, 0, 0, -0.0),
    C("round", -0.4, 0, 0, -0.0),
    C("rint", -0.5, 0, 0, -0.0),
    C("rint", 2.5, 0, 0, 2),
    C("rint", -3.5, 0, 0, -4),
    /* sqrt, rsqrt */
    C("sqrt", -0.0, 0, 0, -0.0),
    C("sqrt", -1, 0, 0, QN),
    C("sqrt", INF, 0, 0, INF),
    C("rsqrt", 0.0, 0, 0, INF),
    C("rsqrt", INF, 0, 0, 0.0),
    C("rsqrt", -1, 0, 0, QN),
    C("rsqrt", QN, 0, 0, QN),
    /* vector forms, scalarised: the same cases per element */
    C("fmax.v4", QN, 1, 0, 1),
    CS("fmax.v4", 0, 7, 7, SNX),
    C("fmin.v4s", 3, QN, 0, 3),
    CS("fmin.v4s", -3, 0, -3, SNY),
    C("rootn.v2", -0.0, 0, 3, -0.0),
    C("rootn.v2", -4, 0, 2, QN),
    {"ilogb.v2", QN, 0, 0, 0, INT_MAX, 0, BOTH, 0},
    C("sinpi.v3", -1, 0, 0, -0.0),
    C("powr.v4", -2, 2, 0, QN),
    C("powr.v4", 1, INF, 0, QN),
    /* C99 annex F cases of the rest of the family */
    C("acosh", 1, 0, 0, 0.0),
    C("acosh", 0.5, 0, 0, QN),
    C("acosh", INF, 0, 0, INF),
    C("asinh", -0.0, 0, 0, -0.0),
    C("asinh", -INF, 0, 0, -INF),
    C("atanh", 1, 0, 0, INF),
    C("atanh", -1, 0, 0, -INF),
    C("atanh", 2, 0, 0, QN),
    C("atanh", -0.0, 0, 0, -0.0),
    C("cosh", -0.0, 0, 0, 1),
    C("cosh", -INF, 0, 0, INF),
    C("sinh", -0.0, 0, 0, -0.0),
    C("sinh", -INF, 0, 0, -INF),
    C("tanh", -INF, 0, 0, -1),
    C("tanh", -0.0, 0, 0, -0.0),
    C("exp", -INF, 0, 0, 0.0),
    C("exp", -0.0, 0, 0, 1),
    C("exp2", -INF, 0, 0, 0.0),
    C("exp2", 10, 0, 0, 1024),
    C("expm1", -INF, 0, 0, -1),
    C("expm1", -0.0, 0, 0, -0.0),
    C("log", 0.0, 0, 0, -INF),
    C("log", -0.0, 0, 0, -INF),
    C("log", -1, 0, 0, QN),
    C("log", 1, 0, 0, 0.0),
    C("log", INF, 0, 0, INF),
    C("log2", 1, 0, 0, 0.0),
    C("log2", 0x1p-100, 0, 0, -100),
    C("log10", 1, 0, 0, 0.0),
    C("log10", -0.0, 0, 0, -INF),
    C("log1p", -1, 0, 0, -INF),
    C("log1p", -0.0, 0, 0, -0.0),
    C("log1p", -2, 0, 0, QN),
    C("sin", -0.0, 0, 0, -0.0),
    C("sin", INF, 0, 0, QN),
    C("cos", -INF, 0, 0, QN),
    C("cos", -0.0, 0, 0, 1),
    C("tan", -0.0, 0, 0, -0.0),
    C("tan", INF, 0, 0, QN),
    C("asin", -0.0, 0, 0, -0.0),
    C("asin", 2, 0, 0, QN),
    C("acos", 1, 0, 0, 0.0),
    C("acos", -2, 0, 0, QN),
    C("atan", -0.0, 0, 0, -0.0),
    CU("atan", -INF, 0, 0, -M_PI_2, 5),
    C("erf", -INF, 0, 0, -1),
    C("erf", -0.0, 0, 0, -0.0),
    C("erfc", -INF, 0, 0, 2),
    C("erfc", INF, 0, 0, 0.0),
    C("tgamma", 0.0, 0, 0, INF),
    C("tgamma", -0.0, 0, 0, -INF),
    C("tgamma", -1, 0, 0, QN),
    C("tgamma", -INF, 0, 0, QN),
    C("tgamma", INF, 0, 0, INF),
    C("tgamma", 5, 0, 0, 24),
    C("lgamma", 1, 0, 0, 0.0),
    C("lgamma", 2, 0, 0, 0.0),
    C("lgamma", 0.0, 0, 0, INF),
    C("lgamma", -3, 0, 0, INF),
    C("lgamma", -INF, 0, 0, INF),
    C("fabs", -0.0, 0, 0, 0.0),
    C("fabs", -INF, 0, 0, INF),
    C("floor", -0.0, 0, 0, -0.0),
    C("floor", -0.5, 0, 0, -1),
    C("sign", QN, 0, 0, 0.0),
    C("sign", -0.0, 0, 0, -0.0),
    C("sign", 0.0, 0, 0, 0.0),
    C("sign", -INF, 0, 0, -1),
    C("sign", 0x1p-140, 0, 0, 1),
    /* modf: *iptr = trunc(x), the result copysign(isinf(x) ? 0 : x - *iptr, x) */
    C("modf", INF, 0, 0, 0.0),
    C("modf", -INF, 0, 0, -0.0),
    C("modf.ip", -INF, 0, 0, -INF),
    C("modf", QN, 0, 0, QN),
    C("modf.ip", QN, 0, 0, QN),
    C("modf", -3.5, 0, 0, -0.5),
    C("modf.ip", -3.5, 0, 0, -3),
    C("modf", -0.0, 0, 0, -0.0),
    C("modf.ip", -0.0, 0, 0, -0.0),
    C("modf", -4, 0, 0, -0.0),
    C("sincos.cos", -0.0, 0, 0, 1),
    C("sincos.cos", INF, 0, 0, QN),
    /* geometric: NaN in, NaN out; no overflow or underflow in the middle */
    C("length2", QN, 1, 0, QN),
    C("length2", 1, QN, 0, QN),
    C("length4", 2, QN, 0, QN),
    C("length4", QN, 0.0, 0, QN),
    C("length2", INF, 1, 0, INF),
    C("length2", -0.0, 0.0, 0, 0.0),
    CU("length2", 3, 4, 0, 5, 3),
    CU("length4", 1, -1, 0, 2, 3),
    CT("length2", 0x1p1000, 0x1p1000, 0, 0x1.6a09e667f3bcdp+1000, 3, DB),
    CT("length2", 0x1p120, 0x1p120, 0, 0x1.6a09e667f3bcdp+120, 3, FL),
    CT("length4", 0x1p1020, 0x1p1020, 0, 0x1p1021, 3, DB),
    CT("length2", 3e-320, 4e-320, 0, 5e-320, 3, DB),
    CT("length2", 0x1p-140, 0x1p-140, 0, 0x1.6a09e667f3bcdp-140, 3, FL),
    CT("length2", DBL_MAX, DBL_MAX, 0, INF, 0, DB),
    C("distance2", QN, 1, 0, QN),
    CU("distance2", 3, 4, 0, 5, 3),
    CT("distance2", 0x1p1000, 0x1p1000, 0, 0x1.6a09e667f3bcdp+1000, 3, DB),
    C("normalize2.x", QN, 1, 0, QN),
    C("normalize2.y", QN, 1, 0, QN),
    C("normalize2.x", 1, QN, 0, QN),
    C("normalize4.w", QN, 1, 0, QN),
    C("normalize4.w", 1, QN, 0, QN),
    C("normalize2.x", 0.0, 0.0, 0, 0.0),
    C("normalize2.x", -0.0, 0.0, 0, -0.0),
    C("normalize2.y", -0.0, -0.0, 0, -0.0),
    C("normalize2.x", INF, 1, 0, 1),
    C("normalize2.y", INF, 1, 0, 0.0),
    C("normalize2.y", INF, -1, 0, -0.0),
    CU("normalize2.x", -INF, INF, 0, -M_SQRT1_2, 3),
    CU("normalize2.y", -INF, INF, 0, M_SQRT1_2, 3),
    CU("normalize4.w", INF, -INF, 0, 0.5, 3),
    CU("normalize2.x", 3, 4, 0, 0.6, 3),
    CU("normalize2.y", 3, 4, 0, 0.8, 3),
    CT("normalize2.x", DBL_MAX, DBL_MAX, 0, M_SQRT1_2, 3, DB),
    CT("normalize2.y", DBL_MAX / 2, DBL_MAX, 0, 0x1.c9f25c5bfedd9p-1, 3, DB),
    CT("normalize4.w", DBL_MAX, DBL_MAX, 0, 0.5, 3, DB),
    CT("normalize2.x", FLT_MAX, FLT_MAX, 0, M_SQRT1_2, 3, FL),
    CT("normalize2.y", 3e-320, 4e-320, 0, 0.8, 3, DB),
    CT("normalize2.y", 0x3p-149, 0x4p-149, 0, 0.8, 3, FL),
};
enum { NCASE = sizeof cases / sizeof cases[0] };

static float snan_f(void) {
  uint32_t b = 0x7fa00000u;
  float f;
  memcpy(&f, &b, 4);
  return f;
}
static double snan_d(void) {
  uint64_t b = UINT64_C(0x7ff4000000000000);
  double d;
  memcpy(&d, &b, 8);
  return d;
}

/* Whether got matches want: any NaN for NaN, the same bits (so the sign of
 * a zero or an infinity counts), or within ulp of want. */
static int match(double got, double want, double ulp, int dbl) {
  if (isnan(want)) return isnan(got);
  if (ulp > 0 && !isinf(want) && want != 0)
    return (dbl ? ulps_d(got, want) : ulps_f((float)got, want)) <= ulp;
  return !memcmp(&got, &want, 8);
}

static void special(int dbl) {
  static double x[NCASE], y[NCASE], out[NCASE];
  static float xf[NCASE], yf[NCASE], outf[NCASE];
  static int k[NCASE], fn[NCASE], iout[NCASE];
  for (int i = 0; i < NCASE; i++) {
    const struct sc *c = &cases[i];
    x[i] = c->snan & SNX ? snan_d() : c->x;
    y[i] = c->snan & SNY ? snan_d() : c->y;
    xf[i] = c->snan & SNX ? snan_f() : (float)c->x;
    yf[i] = c->snan & SNY ? snan_f() : (float)c->y;
    k[i] = c->k;
    fn[i] = fn_index(c->fn);
  }
  run_sp(dbl, NCASE, dbl ? (void *)x : (void *)xf, dbl ? (void *)y : (void *)yf, k, fn,
         dbl ? (void *)out : (void *)outf, iout);
  int bad = 0;
  for (int i = 0; i < NCASE; i++) {
    const struct sc *c = &cases[i];
    if (!(c->types & (dbl ? DB : FL))) continue;
    unsigned o = fns[fn[i]].out;
    double got = dbl ? out[i] : (double)outf[i];
    double want = dbl ? c->want : (double)(float)c->want;
    int ok = (!(o & R) || match(got, want, c->ulp, dbl)) && (!(o & IR) || iout[i] == c->iwant);
    if (!ok) {
      fprintf(stderr, "%s %s(%a%s, %a%s, %d): got %a (%d) want %a (%d)\n", dbl ? "double" : "float",
              c->fn, c->x, c->snan & SNX ? " sNaN" : "", c->y, c->snan & SNY ? " sNaN" : "", c->k,
              got, iout[i], want, c->iwant);
      bad++;
    }
  }
  ck_assert_msg(bad == 0, "%d of the special cases are wrong (listed above)", bad);
}

START_TEST(special_float) {
  special(0);
}
END_TEST
START_TEST(special_double) {
  special(1);
}
END_TEST

/* ---- accuracy sweeps against __float128 references ---- */

static const __float128 PIQ = M_PIq;

/* sinpi of r in [0, 0.5], and the reductions shared by the three. */
static __float128 sinpi_q(__float128 x) {
  __float128 s = x < 0 ? -1 : 1, r = fmodq(fabsq(x), 2); /* exact */
  if (r >= 1) r -= 1, s = -s;
  if (r > 0.5Q) r = 1 - r;
  return s * sinq(PIQ * r);
}
static __float128 cospi_q(__float128 x) {
  __float128 r = fmodq(fabsq(x), 2), s = 1;
  if (r >= 1) r -= 1, s = -1;
  if (r > 0.5Q) r = 1 - r, s = -s;
  return r == 0.5Q ? 0 : s * cosq(PIQ * r);
}
static __float128 tanpi_q(__float128 x) {
  return sinpi_q(x) / cospi_q(x);
}

static __float128 exp10_q(__float128 x) {
  return expq(x * M_LN10q);
}
static __float128 rsqrt_q(__float128 x) {
  return 1 / sqrtq(x);
}
static __float128 asinpi_q(__float128 x) {
  return asinq(x) / PIQ;
}
static __float128 acospi_q(__float128 x) {
  return acosq(x) / PIQ;
}
static __float128 atanpi_q(__float128 x) {
  return atanq(x) / PIQ;
}

/* The domain a function's inputs are mapped into. */
enum { ALL, ABS, UNIT, ABS1P, GTM1 };
static double in_domain(double x, int dom) {
  switch (dom) {
  case ABS: return fabs(x);
  case UNIT: return fmod(x, 1.0);
  case ABS1P: return 1 + fabs(x);
  case GTM1: return x < 0 ? fmod(x, 1.0) : x;
  default: return x;
  }
}

/* One-argument functions, their quadruple-precision reference, the domain
 * and the specification's ULP limits for float and double (sqrt: correctly
 * rounded in double). */
static const struct sweep {
  const char *fn;
  __float128 (*ref)(__float128);
  int dom;
  double ulp_f, ulp_d;
} sweeps[] = {
    {"sinpi", sinpi_q, ALL, 4, 4},    {"cospi", cospi_q, ALL, 4, 4},
    {"tanpi", tanpi_q, ALL, 6, 6},    {"cbrt", cbrtq, ALL, 2, 2},
    {"exp", expq, ALL, 3, 3},         {"exp2", exp2q, ALL, 3, 3},
    {"exp10", exp10_q, ALL, 3, 3},    {"expm1", expm1q, ALL, 3, 3},
    {"log", logq, ABS, 3, 3},         {"log2", log2q, ABS, 3, 3},
    {"log10", log10q, ABS, 3, 3},     {"log1p", log1pq, GTM1, 2, 2},
    {"sqrt", sqrtq, ABS, 3, 0.5},     {"rsqrt", rsqrt_q, ABS, 2, 2},
    {"sin", sinq, ALL, 4, 4},         {"cos", cosq, ALL, 4, 4},
    {"tan", tanq, ALL, 5, 5},         {"asin", asinq, UNIT, 4, 4},
    {"acos", acosq, UNIT, 4, 4},      {"atan", atanq, ALL, 5, 5},
    {"asinpi", asinpi_q, UNIT, 5, 5}, {"acospi", acospi_q, UNIT, 5, 5},
    {"atanpi", atanpi_q, ALL, 5, 5},  {"sinh", sinhq, ALL, 4, 4},
    {"cosh", coshq, ALL, 4, 4},       {"tanh", tanhq, ALL, 5, 5},
    {"asinh", asinhq, ALL, 4, 4},     {"acosh", acoshq, ABS1P, 4, 4},
    {"atanh", atanhq, UNIT, 5, 5},    {"erf", erfq, ALL, 16, 16},
    {"erfc", erfcq, ALL, 16, 16},     {"tgamma", tgammaq, ALL, 16, 16},
};
enum { NSWEEP = sizeof sweeps / sizeof sweeps[0] };

/* Inputs near the zeros and poles of the pi functions and across the
 * range: n/4 +- small offsets, and a spread over +-2^60. */
enum { PER = 432 };
static size_t sweep_inputs(double *x) {
  static const double off[] = {0x1p-50, 0x1p-40, 0x1p-30, 0x1p-22, 0x1p-12, 0x1p-5, 0.1};
  size_t n = 0;
  for (int h = -12; h <= 12; h++)
    for (size_t j = 0; j < sizeof off / sizeof off[0]; j++) {
      x[n++] = h / 4.0 + off[j];
      x[n++] = h / 4.0 - off[j];
    }
  for (int e = -60; e <= 60; e += 3) {
    x[n++] = ldexp(1.0 + 0.37 * (e & 7), e) + 0.3;
    x[n++] = -ldexp(1.0 + 0.61 * (e & 5), e) / 3.0;
  }
  ck_assert_uint_eq(n, PER);
  return n;
}

/* The reference rounded to the result type first, so that an overflow
 * there is an infinity to match. */
static long double want_in(__float128 want, int dbl) {
  if (!dbl) {
    float f = (float)want;
    return isinf(f) ? (long double)f : (long double)want;
  }
  double d = (double)want;
  return isinf(d) ? (long double)d : (long double)want;
}

/* Every function of sweeps[] on its inputs in one launch. */
static void sweep(int dbl) {
  enum { M = NSWEEP * PER };
  static double x[M], y[M], out[M], base[PER];
  static float xf[M], yf[M], outf[M];
  static int k[M], fn[M], iout[M];
  sweep_inputs(base);
  for (int s = 0; s < NSWEEP; s++)
    for (int i = 0; i < PER; i++) {
      int j = s * PER + i;
      x[j] = in_domain(base[i], sweeps[s].dom);
      xf[j] = (float)x[j], yf[j] = 0, y[j] = 0, k[j] = 0, fn[j] = fn_index(sweeps[s].fn);
      if (!dbl) x[j] = xf[j];
    }
  run_sp(dbl, M, dbl ? (void *)x : (void *)xf, dbl ? (void *)y : (void *)yf, k, fn,
         dbl ? (void *)out : (void *)outf, iout);
  int bad = 0;
  for (int j = 0; j < M; j++) {
    const struct sweep *s = &sweeps[j / PER];
    long double w = want_in(s->ref(x[j]), dbl);
    double got = dbl ? out[j] : outf[j], lim = dbl ? s->ulp_d : s->ulp_f;
    double u = dbl ? ulps_d(got, w) : ulps_f((float)got, (double)w);
    if (u > lim && bad++ < 40)
      fprintf(stderr, "%s %s(%a): got %a want %La (%g ulp > %g)\n", dbl ? "double" : "float", s->fn,
              x[j], got, w, u, lim);
  }
  ck_assert_msg(bad == 0, "%d results beyond their ULP limit (listed above)", bad);
}

START_TEST(sweep_float) {
  sweep(0);
}
END_TEST
START_TEST(sweep_double) {
  sweep(1);
}
END_TEST

/* Two-argument functions (a, b or a, k), their quadruple-precision
 * reference and ULP limits for float and double (fdim correctly rounded,
 * fmod and remainder exact). */
static __float128 pow_q(__float128 x, __float128 y, int k) {
  return powq(x, y);
}
static __float128 pown_q(__float128 x, __float128 y, int k) {
  return powq(x, k);
}
static __float128 rootn_q(__float128 x, __float128 y, int k) {
  __float128 r = powq(fabsq(x), 1 / (__float128)k);
  return x < 0 ? -r : r;
}
static __float128 atan2_q(__float128 x, __float128 y, int k) {
  return atan2q(x, y);
}
static __float128 atan2pi_q(__float128 x, __float128 y, int k) {
  return atan2q(x, y) / PIQ;
}
static __float128 hypot_q(__float128 x, __float128 y, int k) {
  return hypotq(x, y);
}
static __float128 fmod_q(__float128 x, __float128 y, int k) {
  return fmodq(x, y);
}
static __float128 remainder_q(__float128 x, __float128 y, int k) {
  return remainderq(x, y);
}
static __float128 fdim_q(__float128 x, __float128 y, int k) {
  return x > y ? x - y : 0;
}
enum { YPOW, YPOS, YANY, KINT }; /* what b or k is */
static const struct sweep2 {
  const char *fn;
  __float128 (*ref)(__float128, __float128, int);
  int second, abs_x;
  double ulp_f, ulp_d;
} sweeps2[] = {
    {"pow", pow_q, YPOW, 0, 16, 16},           {"powr", pow_q, YPOW, 1, 16, 16},
    {"pown", pown_q, KINT, 0, 16, 16},         {"rootn", rootn_q, KINT, 0, 16, 16},
    {"atan2", atan2_q, YANY, 0, 6, 6},         {"atan2pi", atan2pi_q, YANY, 0, 6, 6},
    {"hypot", hypot_q, YANY, 0, 4, 4},         {"fmod", fmod_q, YPOS, 0, 0, 0},
    {"remainder", remainder_q, YANY, 0, 0, 0}, {"fdim", fdim_q, YANY, 0, 0.5, 0.5},
};
enum { NSWEEP2 = sizeof sweeps2 / sizeof sweeps2[0], PER2 = 240 };

/* Inputs of sweeps2[s] number i: x over the whole exponent range of the
 * type, b small (with integers) for the powers, else over the range too. */
static void sweep2_input(int dbl, const struct sweep2 *s, int i, double *x, double *y, int *k) {
  int span = dbl ? 2000 : 240;
  *x = ldexp(1.0 + (i % 13) / 13.0, (i * 37) % span - span / 2) * (i % 4 == 1 ? -1 : 1);
  if (s->abs_x) *x = fabs(*x);
  *k = i % 9 - 4;
  if (*k == 0 || (*x < 0 && *k % 2 == 0)) *k = 3;
  if (s->second == YPOW)
    *y = i % 3 ? (i % 11 - 5) / 7.0 : i % 7 - 3;
  else
    *y = ldexp(1.0 + (i % 7) / 7.0, (i * 53) % span - span / 2) * (i % 3 == 2 ? -1 : 1);
  if (s->second == YPOS) *y = fabs(*y);
}

static void sweep2(int dbl) {
  enum { M = NSWEEP2 * PER2 };
  static double x[M], y[M], out[M];
  static float xf[M], yf[M], outf[M];
  static int k[M], fn[M], iout[M];
  for (int j = 0; j < M; j++) {
    const struct sweep2 *s = &sweeps2[j / PER2];
    sweep2_input(dbl, s, j % PER2, &x[j], &y[j], &k[j]);
    xf[j] = (float)x[j], yf[j] = (float)y[j], fn[j] = fn_index(s->fn);
    if (!dbl) x[j] = xf[j], y[j] = yf[j];
  }
  run_sp(dbl, M, dbl ? (void *)x : (void *)xf, dbl ? (void *)y : (void *)yf, k, fn,
         dbl ? (void *)out : (void *)outf, iout);
  int bad = 0;
  for (int j = 0; j < M; j++) {
    const struct sweep2 *s = &sweeps2[j / PER2];
    long double w = want_in(s->ref(x[j], y[j], k[j]), dbl);
    double got = dbl ? out[j] : outf[j], lim = dbl ? s->ulp_d : s->ulp_f;
    double u = dbl ? ulps_d(got, w) : ulps_f((float)got, (double)w);
    if (u > lim && bad++ < 40)
      fprintf(stderr, "%s %s(%a, %a, %d): got %a want %La (%g ulp > %g)\n",
              dbl ? "double" : "float", s->fn, x[j], y[j], k[j], got, w, u, lim);
  }
  ck_assert_msg(bad == 0, "%d results beyond their ULP limit (listed above)", bad);
}

START_TEST(sweep2_float) {
  sweep2(0);
}
END_TEST
START_TEST(sweep2_double) {
  sweep2(1);
}
END_TEST

/* lgamma runs on the host threads that execute lanes: it must not write
 * libm's global signgam (lgamma(-0.5) would set it to -1). */
START_TEST(lgamma_keeps_signgam) {
  double x[2] = {-0.5, -2.5}, y[2] = {0, 0}, out[2];
  int k[2] = {0, 0}, fn[2], iout[2];
  fn[0] = fn[1] = fn_index("lgamma");
  signgam = 7;
  run_sp(1, 2, x, y, k, fn, out, iout);
  ck_assert_int_eq(signgam, 7);
  ck_assert_msg(ulps_d(out[0], logl(2 * sqrtl(3.14159265358979323846264338327950288L))) <= 16,
                "lgamma(-0.5) = %a", out[0]);
}
END_TEST

static Suite *make(void) {
  Suite *s = suite_create("device_builtins_math");
  TCase *tc = tcase_create("math");
  tcase_add_checked_fixture(tc, kh_setup, kh_teardown);
  tcase_set_timeout(tc, 120);
  KH_ADD(tc, special_float);
  KH_ADD(tc, special_double);
  KH_ADD(tc, sweep_float);
  KH_ADD(tc, sweep_double);
  KH_ADD(tc, sweep2_float);
  KH_ADD(tc, sweep2_double);
  KH_ADD(tc, lgamma_keeps_signgam);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return kh_main(make);
}
