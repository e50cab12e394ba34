/*
 * test_kernels_builtins.c - end-to-end kernels for how builtins are found
 * and called: math builtins with a pointer argument through every address
 * space (generic included) at every vector width, lgamma_r, remquo, fract's
 * special cases, nan(), async copies of every element type, saturating
 * conversions with a rounding mode and integer division by zero. References are computed here, in
 * long double where the result is exact.
 */
#include "kharness.h"

enum { G = 64 };

/* ---- pointer builtins (kernels/bi_ptr.cl) ---- */

static const double xs[G] = {INFINITY,
                             -INFINITY,
                             0.0,
                             -0.0,
                             NAN,
                             1.5,
                             2.0,
                             -1.7000000476837158,
                             -5.960669824389697e-08,
                             1e30,
                             0x1p60,
                             -0x1p60,
                             0.3,
                             -0.3,
                             7.25,
                             -7.25,
                             100.5,
                             -33.0,
                             3.75,
                             0.1,
                             -2.5,
                             12.0,
                             1e-30,
                             -1e-30,
                             5.5,
                             -5.5,
                             0.75,
                             -0.75,
                             42.0,
                             -42.0,
                             17.125,
                             -17.125};
static const double ys[G] = {3.0, 3.0,   2.0,   2.0, 1.0,  0.5,  3.0,   0.25,   1.0,  7.0, 3.0,
                             3.0, 0.125, 0.125, 2.0, -2.0, 0.75, 4.0,   -1.5,   0.03, 1.0, 5.0,
                             1.0, 1.0,   2.0,   2.0, 0.25, 0.25, 0.375, -0.375, 1.0,  0.5};

/* The value of input i (the last 32 are moderate values of both signs). */
static double xval(int i) {
  return i < 32 ? xs[i] : (i - 48) * 1.37 + 0.11;
}
static double yval(int i) {
  return i < 32 ? ys[i] : 0.5 + (i % 7) * 0.61;
}

struct ptr_case {
  const char *kernel;
  unsigned n; /* vector width */
  int is_double;
};

/* Reads element j of item k of a buffer of (stride-padded) vectors. */
static long double elem(const void *buf, int dbl, unsigned stride, size_t k, unsigned j) {
  if (dbl) return ((const double *)buf)[k * stride + j];
  return ((const float *)buf)[k * stride + j];
}
static int same_bits(long double got, long double want) {
  if (isnan(want)) return isnan(got);
  return got == want && signbit(got) == signbit(want);
}
static int near(long double got, long double want, int dbl, double lim) {
  if (dbl) return ulps_d((double)got, want) <= lim;
  return ulps_f((float)got, (double)want) <= lim;
}
static long double round_t(long double v, int dbl) {
  return dbl ? (long double)(double)v : (long double)(float)v;
}
static long double fract_ref(long double x, int dbl, long double *fl) {
  *fl = floorl(x);
  if (isnan(x)) return x;
  if (isinf(x) || x == 0) return copysignl(0.0L, x);
  long double top = dbl ? 0x1.fffffffffffffp-1L : 0x1.fffffep-1L;
  long double r = round_t(x - *fl, dbl);
  return r < top ? r : top;
}
/* remquo's quotient: the sign of x / y and the low 7 bits of the rounded
 * quotient; 0x1p60 / 3 is checked against its known bits. */
static int quo_ref(long double x, long double y, long double r, int *known) {
  *known = 1;
  if (fabsl(x) == 0x1p60L && fabsl(y) == 3) return (signbit(x) != signbit(y)) ? -85 : 85;
  if (!isfinite(x) || !isfinite(y) || y == 0 || fabsl(x / y) > 0x1p20L) {
    *known = 0;
    return 0;
  }
  long qq = labs((long)rintl((x - r) / y)) & 127;
  return (signbit(x) != signbit(y)) ? (int)-qq : (int)qq;
}
/* Gamma's sign where the tests check it (not at the poles). */
static int gamma_sign(long double x) {
  if (x == 0) return signbit(x) ? -1 : 1;
  if (x > 0 || isnan(x)) return 1;
  return fmodl(floorl(x), 2.0L) != 0 ? -1 : 1;
}

static void check_ptr_case(const struct ptr_case *c) {
  int dbl = c->is_double;
  unsigned n = c->n, stride = n == 3 ? 4 : n, esz = dbl ? 8 : 4;
  size_t nin = (size_t)G * stride;
  void *in = calloc(nin, esz), *in2 = calloc(nin, esz);
  void *of = calloc(nin * 16, esz);
  int32_t *oi = calloc(nin * 8, 4);
  for (int g = 0; g < G; g++)
    for (unsigned j = 0; j < n; j++) {
      int i = (g + 7 * (int)j) % G; /* every element sees a different input */
      if (dbl) {
        ((double *)in)[g * stride + j] = xval(i);
        ((double *)in2)[g * stride + j] = yval(i);
      } else {
        ((float *)in)[g * stride + j] = (float)xval(i);
        ((float *)in2)[g * stride + j] = (float)yval(i);
      }
    }
  cl_kernel k = load_opts("bi_ptr", c->kernel, "-cl-std=CL3.0");
  cl_mem a = buf(nin * esz, in), b = buf(nin * esz, in2), o = buf(nin * 16 * esz, NULL),
         oq = buf(nin * 8 * 4, NULL);
  ARGS(k, KA(a), KA(b), KA(o), KA(oq));
  ck_assert_int_eq(run(k, G, G), CL_COMPLETE);
  rd(o, of, nin * 16 * esz);
  rd(oq, oi, nin * 8 * 4);
  for (int g = 0; g < G; g++)
    for (unsigned j = 0; j < n; j++) {
      long double x = elem(in, dbl, stride, (size_t)g, j), y = elem(in2, dbl, stride, (size_t)g, j);
#define F(kk)  elem(of, dbl, stride, (size_t)g * 16 + (kk), j)
#define I(kk)  oi[((size_t)g * 8 + (kk)) * stride + j]
#define CK(ok) ck_assert_msg((ok), "%s lane %d elem %u x=%La y=%La: " #ok, c->kernel, g, j, x, y)
      long double fl, fr = fract_ref(x, dbl, &fl);
      for (int s = 0; s < 3; s++) /* private, generic, local */
        CK(same_bits(F(2 * s), fr) && same_bits(F(2 * s + 1), fl));
      long double ip, mf = modfl(x, &ip);
      CK(same_bits(F(6), round_t(mf, dbl)) && same_bits(F(7), ip));
      if (isfinite(x) && fabsl(x) < 1e6L) {
        CK(near(F(8), sinl(x), dbl, 4) && near(F(9), cosl(x), dbl, 4));
      }
      int e;
      long double m = frexpl(x, &e);
      CK(same_bits(F(10), m) && same_bits(F(15), m));
      if (isfinite(x)) CK(I(0) == e && I(5) == e);
      int poles = x <= 0 && floorl(x) == x && x != 0;
      if (!poles && !isnan(x)) {
        long double lg = isinf(x) || x == 0 ? INFINITY : lgammal(x);
        CK(near(F(11), lg, dbl, 16) && near(F(14), lg, dbl, 16));
        CK(I(1) == gamma_sign(x) && I(4) == gamma_sign(x));
      }
      long double r = remainderl(x, y);
      int known, qr = quo_ref(x, y, r, &known);
      CK(same_bits(F(12), r) && same_bits(F(13), r));
      if (known) CK(I(2) == qr && I(3) == qr);
#undef F
#undef I
#undef CK
    }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(o);
  clReleaseMemObject(oq);
  clReleaseKernel(k);
  free(in), free(in2), free(of), free(oi);
}

static const struct ptr_case ptr_cases[] = {{"ptr_f1", 1, 0}, {"ptr_f2", 2, 0}, {"ptr_f3", 3, 0},
                                            {"ptr_f4", 4, 0}, {"ptr_f8", 8, 0}, {"ptr_f16", 16, 0},
                                            {"ptr_d1", 1, 1}, {"ptr_d2", 2, 1}, {"ptr_d3", 3, 1},
                                            {"ptr_d4", 4, 1}, {"ptr_d8", 8, 1}, {"ptr_d16", 16, 1}};

START_TEST(k_ptr_builtins) {
  check_ptr_case(&ptr_cases[_i]);
}
END_TEST

/* Half bits of v in [1, 2) rounded by mode (0 rte, 1 rtz/rtn, 2 rtp). */
static uint16_t half12(double v, int mode) {
  double m = (v - 1) * 1024;
  double r = mode == 0 ? nearbyint(m) : mode == 1 ? floor(m) : ceil(m);
  return (uint16_t)(0x3c00 + (int)r); /* 1024 carries into the exponent */
}
static float half_val(uint16_t h) {
  return ldexpf((float)(1024 + (h & 1023)), ((h >> 10) & 31) - 25);
}

START_TEST(k_vec_spaces) {
  float in[G * 16], out[G * 16];
  uint16_t hout[G * 16];
  for (int i = 0; i < G * 16; i++)
    in[i] = 1.0f + (float)((i * 37) % 1000) / 1000.0f + 1e-4f;
  cl_kernel k = load_opts("bi_ptr", "vec_spaces", "-cl-std=CL3.0");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof out, NULL), h = buf(sizeof hout, NULL);
  ARGS(k, KA(a), KA(o), KA(h));
  ck_assert_int_eq(run(k, G, G), CL_COMPLETE);
  rd(o, out, sizeof out);
  rd(h, hout, sizeof hout);
  for (int g = 0; g < G; g++) {
    const float *v = in + 16 * g, *r = out + 16 * g;
    const uint16_t *ph = hout + 16 * g;
    for (int i = 0; i < 11; i++)
      ck_assert_msg(r[i] == v[i < 8 ? i : i + 1], "vload/vstore %d of %d", i, g);
    ck_assert(r[11] == v[12] + v[15]);
    ck_assert(r[12] == v[0] && r[13] == v[15]);
    for (int i = 0; i < 4; i++) {
      ck_assert_uint_eq(ph[i], half12(v[i], 1));
      ck_assert_uint_eq(ph[4 + i], half12(v[i], 2));
    }
    ck_assert_uint_eq(ph[8], half12(v[8], 1));
    ck_assert_uint_eq(ph[9], half12(v[9], 1));
    for (int i = 10; i < 16; i++)
      ck_assert_uint_eq(ph[i], half12(v[i], 0));
    float s4[4];
    for (int i = 0; i < 4; i++)
      s4[i] = half_val(ph[8 + i]) + half_val(ph[12 + i]);
    ck_assert(r[14] == s4[0] + s4[1] + s4[2] + s4[3]);
    ck_assert(r[15] == half_val(ph[9]));
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseMemObject(h);
  clReleaseKernel(k);
}
END_TEST

/* get_fence: CLK_GLOBAL_MEM_FENCE (2) but for local memory (1). */
START_TEST(k_get_fence) {
  int out[3 * 8];
  cl_kernel k = load_opts("bi_ptr", "fences", "-cl-std=CL3.0");
  cl_mem o = buf(sizeof out, NULL);
  ARGS(k, KA(o));
  ck_assert_int_eq(run(k, 8, 0), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int g = 0; g < 8; g++) {
    ck_assert_int_eq(out[3 * g], 0x22);
    ck_assert_int_eq(out[3 * g + 1], 0x11);
    ck_assert_int_eq(out[3 * g + 2], 0x22);
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_nan_codes) {
  uint32_t code[G], of[G + 4 * G];
  uint64_t od[G + 2 * G];
  for (int g = 0; g < G; g++)
    code[g] = (uint32_t)g * 0x9e3779b1u;
  cl_kernel k = load_opts("bi_ptr", "nan_codes", "-cl-std=CL3.0");
  cl_mem c = buf(sizeof code, code), a = buf(sizeof of, NULL), b = buf(sizeof od, NULL);
  ARGS(k, KA(c), KA(a), KA(b));
  ck_assert_int_eq(run(k, G, 0), CL_COMPLETE);
  rd(a, of, sizeof of);
  rd(b, od, sizeof od);
  for (int g = 0; g < G; g++) {
    /* a quiet NaN; the low bits of the code in the payload */
    ck_assert_uint_eq(of[g], 0x7fc00000u | (code[g] & 0x3fffffu));
    ck_assert_uint_eq(od[g], UINT64_C(0x7ff8000000000000) |
                                 (((uint64_t)code[g] << 20) & UINT64_C(0x7ffffffffffff)));
    for (unsigned j = 0; j < 4; j++)
      ck_assert_uint_eq(of[G + 4 * g + j], 0x7fc00000u | ((code[g] + j) & 0x3fffffu));
    ck_assert_uint_eq(od[G + 2 * g],
                      UINT64_C(0x7ff8000000000000) | (code[g] & UINT64_C(0x7ffffffffffff)));
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(c);
  clReleaseKernel(k);
}
END_TEST

/* ---- saturating conversions with a rounding mode (kernels/bi_convert.cl) ---- */

enum { NCV = 256 };
static const struct {
  unsigned bits;
  int sgn;
} cv_types[8] = {{8, 1}, {8, 0}, {16, 1}, {16, 0}, {32, 1}, {32, 0}, {64, 1}, {64, 0}};

/* Inputs: ±inf, NaN, ±0, and around each type's limits: ±2^k with 0.5 and
 * 1 either side, and the neighbours of 2^k in the source precision. */
static unsigned cv_inputs(double *v, int dbl) {
  unsigned n = 0;
  v[n++] = INFINITY, v[n++] = -INFINITY, v[n++] = NAN, v[n++] = 0.0, v[n++] = -0.0;
  v[n++] = 0.5, v[n++] = -0.5, v[n++] = 1.5, v[n++] = -2.5, v[n++] = 1e10, v[n++] = -1e10;
  v[n++] = 1e30, v[n++] = -1e30;
  static const int ks[] = {7, 8, 15, 16, 31, 32, 63, 64};
  for (unsigned i = 0; i < 8; i++) {
    double p = ldexp(1.0, ks[i]);
    double near[] = {p,
                     p - 0.5,
                     p + 0.5,
                     p - 1,
                     p + 1,
                     p - 1.5,
                     dbl ? nextafter(p, 0) : nextafterf((float)p, 0),
                     dbl ? nextafter(p, INFINITY) : nextafterf((float)p, INFINITY)};
    for (unsigned j = 0; j < sizeof near / sizeof near[0]; j++) {
      double a = dbl ? near[j] : (float)near[j];
      v[n++] = a, v[n++] = -a;
    }
  }
  while (n < NCV) /* the rest: values of every size */
    v[n] = ldexp((double)(n * 2654435761u % 1000) - 500.25, (int)(n % 70)), n++;
  for (unsigned i = 0; !dbl && i < n; i++)
    v[i] = (float)v[i];
  return n;
}
/* mode 0 (none: toward zero) 1 rte 2 rtz 3 rtp 4 rtn */
static int64_t sat_ref(long double x, unsigned t, unsigned mode) {
  if (x != x) return 0;
  x = mode == 1 ? rintl(x) : mode == 3 ? ceill(x) : mode == 4 ? floorl(x) : truncl(x);
  unsigned b = cv_types[t].bits;
  long double lo = cv_types[t].sgn ? -ldexpl(1, (int)b - 1) : 0;
  long double hi = cv_types[t].sgn ? ldexpl(1, (int)b - 1) - 1 : ldexpl(1, (int)b) - 1;
  if (x < lo) x = lo;
  if (x > hi) x = hi;
  if (!cv_types[t].sgn) return (int64_t)(uint64_t)x;
  return (int64_t)x;
}

static void check_sat(int dbl, int vec) {
  double v[NCV];
  float vf[NCV];
  unsigned n = cv_inputs(v, dbl), per = vec ? 160 : 40;
  for (unsigned i = 0; i < n; i++)
    vf[i] = (float)v[i];
  int64_t *out = calloc((size_t)n * per, 8);
  char name[16];
  snprintf(name, sizeof name, "%s_%s", vec ? "sat4" : "sat", dbl ? "double" : "float");
  cl_kernel k = load_opts("bi_convert", name, "-cl-std=CL3.0");
  cl_mem a = buf(n * (dbl ? 8 : 4), dbl ? (void *)v : (void *)vf),
         o = buf((size_t)n * per * 8, NULL);
  ARGS(k, KA(a), KA(o));
  ck_assert_int_eq(run(k, n, 0), CL_COMPLETE);
  rd(o, out, (size_t)n * per * 8);
  for (unsigned g = 0; g < n; g++)
    for (unsigned c = 0; c < 40; c++)
      for (unsigned l = 0; l < (vec ? 4u : 1u); l++) {
        long double x = v[(g + 17 * l) % n];
        int64_t got = out[(size_t)g * per + (vec ? 4 * c + l : c)], want = sat_ref(x, c / 5, c % 5);
        ck_assert_msg(got == want, "%s: convert to type %u mode %u of %La: got %lld want %lld",
                      name, c / 5, c % 5, x, (long long)got, (long long)want);
      }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
  free(out);
}
START_TEST(k_convert_sat_modes) {
  check_sat(_i & 1, _i >> 1);
}
END_TEST

/* ---- async copies of every type (kernels/bi_async.cl) ---- */

static const struct {
  const char *name;
  unsigned size;
} ac_types[] = {{"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},
                {"uint", 4}, {"long", 8},  {"ulong", 8}, {"float", 4},  {"double", 8}};

static void check_async(cl_program p, unsigned t, unsigned width) {
  char name[32];
  if (width == 1)
    snprintf(name, sizeof name, "ac_%s", ac_types[t].name);
  else
    snprintf(name, sizeof name, "ac_%s%u", ac_types[t].name, width);
  size_t sz = ac_types[t].size * (width == 3 ? 4 : width), groups = 2;
  size_t nin = 64 * groups * sz, nout = 64 * groups * sz, nout2 = 32 * groups * sz;
  uint8_t *in = malloc(nin), *out = malloc(nout), *out2 = malloc(nout2);
  for (size_t i = 0; i < nin; i++)
    in[i] = (uint8_t)(i * 131 + t * 7 + width);
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  ck_assert_msg(err == CL_SUCCESS, "no kernel %s", name);
  cl_mem a = buf(nin, in), o = buf(nout, NULL), o2 = buf(nout2, NULL);
  cl_uchar zero = 0;
  ck_assert_int_eq(clEnqueueFillBuffer(q, o, &zero, 1, 0, nout, 0, NULL, NULL), CL_SUCCESS);
  ARGS(k, KA(a), KA(o), KA(o2));
  ck_assert_int_eq(run(k, 16 * groups, 16), CL_COMPLETE);
  rd(o, out, nout);
  rd(o2, out2, nout2);
  for (size_t g = 0; g < groups; g++)
    for (size_t i = 0; i < 32; i++) {
      const uint8_t *src = in + (64 * g + i) * sz, *gat = in + (64 * g + 2 * i) * sz;
      const uint8_t *sc = out + (64 * g + 2 * i) * sz, *gap = sc + sz;
      ck_assert_msg(!memcmp(sc, src, sz), "%s: scatter of element %zu", name, i);
      for (size_t b = 0; b < sz; b++)
        ck_assert_msg(gap[b] == 0, "%s: the scatter wrote between its elements", name);
      ck_assert_msg(!memcmp(out2 + (32 * g + i) * sz, gat, sz), "%s: gather of element %zu", name,
                    i);
    }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseMemObject(o2);
  clReleaseKernel(k);
  free(in), free(out), free(out2);
}

START_TEST(k_async_all_types) {
  size_t len;
  char *src = cu_read_file("kernels/bi_async.cl", &len);
  ck_assert_ptr_nonnull(src);
  const char *s = src;
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  free(src);
  err = clBuildProgram(p, 1, &dev, "-cl-std=CL3.0", NULL, NULL);
  if (err != CL_SUCCESS) {
    static char log[16384];
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    ck_abort_msg("bi_async: build failed (%d):\n%.2000s", err, log);
  }
  static const unsigned widths[] = {1, 2, 3, 4, 8, 16};
  for (unsigned t = 0; t < sizeof ac_types / sizeof ac_types[0]; t++)
    for (unsigned w = 0; w < 6; w++)
      check_async(p, t, widths[w]);
  clReleaseProgram(p);
}
END_TEST

/* ---- integer division by zero (kernels/bi_div0.cl) ---- */

/* a / b and a % b at bits/sgn as Lockstep defines them: x / 0 = 0,
 * x % 0 = x, MIN / -1 = MIN, MIN % -1 = 0; results widened like the kernel.
 * char and short operands are promoted to int first, as in C. */
static void div_ref(int64_t a, int64_t b, unsigned bits, int sgn, int64_t *qo, int64_t *r) {
  uint64_t m = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
  uint64_t ua = (uint64_t)a & m, ub = (uint64_t)b & m;
  int64_t sa = bits == 64 ? a : (int64_t)(ua << (64 - bits)) >> (64 - bits);
  int64_t sb = bits == 64 ? b : (int64_t)(ub << (64 - bits)) >> (64 - bits);
  if (bits < 32) { /* promoted to int: the int rules on the extended values */
    div_ref(sgn ? sa : (int64_t)ua, sgn ? sb : (int64_t)ub, 32, 1, qo, r);
    return;
  }
  if (!sgn) {
    *qo = ub ? (int64_t)(ua / ub) : 0;
    *r = ub ? (int64_t)(ua % ub) : (int64_t)ua;
    return;
  }
  if (sb == 0) {
    *qo = 0, *r = sa;
  } else if (sb == -1) {
    *qo = bits == 64 ? (int64_t)(0 - (uint64_t)sa) : -sa, *r = 0;
    if (bits < 64) *qo = (int64_t)((uint64_t)*qo << (64 - bits)) >> (64 - bits); /* MIN stays */
  } else {
    *qo = sa / sb, *r = sa % sb;
  }
}

START_TEST(k_div_by_zero) {
  enum { NG = 32 };
  int64_t in[NG], den[NG], out[NG * 24];
  static const int64_t ds[] = {0, -1, 3, 0, 1, -7, 0, 256, 65536, INT64_C(1) << 32};
  static const int64_t xs0[] = {-7, 100, INT32_MIN, INT64_MIN, -128, 32767, -32768, 0, 255, -1};
  for (int g = 0; g < NG; g++) {
    in[g] = xs0[g % 10] + (g >= 10 ? g * 1000003 : 0);
    den[g] = ds[(g * 3) % 10];
  }
  in[20] = INT32_MIN, den[20] = -1;
  in[21] = INT64_MIN, den[21] = -1;
  in[22] = -128, den[22] = -1;
  cl_kernel k = load_opts("bi_div0", "div0", "-cl-std=CL3.0");
  cl_mem a = buf(sizeof in, in), b = buf(sizeof den, den), o = buf(sizeof out, NULL);
  ARGS(k, KA(a), KA(b), KA(o));
  ck_assert_int_eq(run(k, NG, 0), CL_COMPLETE); /* no device exception */
  rd(o, out, sizeof out);
  static const unsigned bits[8] = {8, 8, 16, 16, 32, 32, 64, 64};
  for (int g = 0; g < NG; g++) {
    for (unsigned t = 0; t < 8; t++) {
      int64_t qo, r;
      div_ref(in[g], den[g], bits[t], !(t & 1), &qo, &r);
      ck_assert_msg(out[24 * g + 2 * t] == qo && out[24 * g + 2 * t + 1] == r,
                    "type %u: %lld / %lld gave %lld, %lld; want %lld, %lld", t, (long long)in[g],
                    (long long)den[g], (long long)out[24 * g + 2 * t],
                    (long long)out[24 * g + 2 * t + 1], (long long)qo, (long long)r);
    }
    for (int l = 0; l < 4; l++) {
      int64_t qo, r;
      div_ref(in[(g + l) % NG], den[(g + l) % NG], 32, 1, &qo, &r);
      ck_assert_msg(out[24 * g + 16 + l] == qo && out[24 * g + 20 + l] == r, "int4 lane %d of %d",
                    l, g);
    }
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

static Suite *make(void) {
  Suite *s = suite_create("device_kernels_builtins");
  TCase *tc = tcase_create("kernels");
  tcase_add_checked_fixture(tc, kh_setup, kh_teardown);
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, k_ptr_builtins, 0, (int)(sizeof ptr_cases / sizeof ptr_cases[0]));
  KH_ADD(tc, k_nan_codes);
  KH_ADD(tc, k_get_fence);
  KH_ADD(tc, k_vec_spaces);
  KH_ADD(tc, k_async_all_types);
  KH_ADD(tc, k_div_by_zero);
  tcase_add_loop_test(tc, k_convert_sat_modes, 0, 4);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return kh_main(make);
}
