/*
 * test_kernels_math.c - end-to-end kernels for the float, double and common
 * math builtins (kernels/math_*.cl, fp64_*.cl, common.cl): each result is
 * compared with a double (or long double) host reference within the OpenCL
 * ULP limit of its function. It must not relax a limit to make a kernel pass.
 */
#include "kharness.h"

enum { N = 256 };
static float xin[N];

/* Inputs spread over [-10.4, 10.3], never an integer or half-integer but 0. */
static void inputs(void) {
  for (int i = 0; i < N; i++)
    xin[i] = (float)(i - 128) / 12.37f;
}
static float yof(int g) {
  return xin[(g * 37 + 11) % N];
}

typedef double (*fn1)(double);
struct f1 {
  const char *name;
  fn1 f;
  double ulp;
};

static double exp10_r(double x) {
  return pow(10.0, x);
}
static double pif(double x, double (*f)(double)) {
  /* f(pi x) with the argument reduced exactly first */
  double r = fmod(x, 2.0);
  return f(M_PI * r);
}
static double sinpi_r(double x) {
  return x == 0 ? x : pif(x, sin);
}
static double cospi_r(double x) {
  return pif(x, cos);
}
static double tanpi_r(double x) {
  return x == 0 ? x : pif(x, tan);
}
static double asinpi_r(double x) {
  return asin(x) / M_PI;
}
static double acospi_r(double x) {
  return acos(x) / M_PI;
}
static double atanpi_r(double x) {
  return atan(x) / M_PI;
}
static double rsqrt_r(double x) {
  return 1.0 / sqrt(x);
}

/* Checks out[K*g + j] = f_j(arg_j(x)) for the K functions of one kernel. */
static void check_f1(const char *kern, const struct f1 *fs, int K, float (*argof)(int j, float x)) {
  static float out[N * 16];
  run_io(kern, N, 64, xin, sizeof xin, out, sizeof(float) * N * K);
  for (int g = 0; g < N; g++)
    for (int j = 0; j < K; j++) {
      float a = argof(j, xin[g]);
      CK_ULP(fs[j].name, a, out[K * g + j], fs[j].f((double)a), fs[j].ulp);
    }
}

static float arg_exp_log(int j, float x) {
  return j < 2 || j == 3 ? x : j == 2 ? x * 0.25f : fabsf(x) + 0.25f;
}
START_TEST(k_math_exp_log) {
  static const struct f1 fs[] = {{"exp", exp, 3},     {"exp2", exp2, 3},  {"exp10", exp10_r, 3},
                                 {"expm1", expm1, 3}, {"log", log, 3},    {"log2", log2, 3},
                                 {"log10", log10, 3}, {"log1p", log1p, 2}};
  check_f1("math_exp_log", fs, 8, arg_exp_log);
}
END_TEST

static float arg_trig(int j, float x) {
  return (j >= 3 && j <= 4) || (j >= 9 && j <= 10) ? x * 0.0961f : x;
}
START_TEST(k_math_trig) {
  static const struct f1 fs[] = {
      {"sin", sin, 4},         {"cos", cos, 4},         {"tan", tan, 5},
      {"asin", asin, 4},       {"acos", acos, 4},       {"atan", atan, 5},
      {"sinpi", sinpi_r, 4},   {"cospi", cospi_r, 4},   {"tanpi", tanpi_r, 6},
      {"asinpi", asinpi_r, 5}, {"acospi", acospi_r, 5}, {"atanpi", atanpi_r, 5}};
  check_f1("math_trig", fs, 12, arg_trig);
}
END_TEST

static float arg_hyp(int j, float x) {
  return j == 4 ? fabsf(x) + 1.0f : j == 5 ? x * 0.0961f : x;
}
START_TEST(k_math_hyp) {
  static const struct f1 fs[] = {{"sinh", sinh, 4},   {"cosh", cosh, 4},   {"tanh", tanh, 5},
                                 {"asinh", asinh, 4}, {"acosh", acosh, 4}, {"atanh", atanh, 5}};
  check_f1("math_hyp", fs, 6, arg_hyp);
}
END_TEST

static float arg_misc(int j, float x) {
  return j <= 1 ? fabsf(x) + 0.25f : j == 5 ? x * 0.5f : x;
}
static double fma_dummy(double x) {
  return x;
}
START_TEST(k_math_misc) {
  static const struct f1 fs[] = {
      {"sqrt", sqrt, 3},  {"rsqrt", rsqrt_r, 2},  {"cbrt", cbrt, 2},    {"erf", erf, 16},
      {"erfc", erfc, 16}, {"tgamma", tgamma, 16}, {"fma", fma_dummy, 0}};
  static float out[N * 7];
  run_io("math_misc", N, 64, xin, sizeof xin, out, sizeof out);
  for (int g = 0; g < N; g++) {
    for (int j = 0; j < 6; j++) {
      float a = arg_misc(j, xin[g]);
      CK_ULP(fs[j].name, a, out[7 * g + j], fs[j].f((double)a), fs[j].ulp);
    }
    CK_ULP("fma", xin[g], out[7 * g + 6], (double)fmaf(xin[g], yof(g), 0.75f), 0);
  }
}
END_TEST

static double rootn_r(double x, int n) {
  if (n == 0) return NAN;
  if (x < 0 && n % 2 == 0) return NAN;
  double r = pow(fabs(x), 1.0 / n);
  return x < 0 ? -r : r;
}
START_TEST(k_math_pow) {
  static float out[N * 8];
  run_io("math_pow", N, 64, xin, sizeof xin, out, sizeof out);
  for (int g = 0; g < N; g++) {
    float x = xin[g], y = yof(g) * 0.5f;
    const float *o = out + 8 * g;
    CK_ULP("pow", x, o[0], pow(x, y), 16);
    CK_ULP("powr", x, o[1], pow(fabsf(x), y), 16);
    CK_ULP("pown", x, o[2], pow(x, g % 9 - 4), 16);
    CK_ULP("rootn", x, o[3], rootn_r(x, g % 7 - 3), 16);
    CK_ULP("hypot", x, o[4], hypot(x, y), 4);
    CK_ULP("atan2", x, o[5], atan2(y, x), 6);
    CK_ULP("atan2pi", x, o[6], atan2(y, x) / M_PI, 6);
    CK_ULP("divide", x, o[7], (double)x / (double)(y + 0.125f), 2.5);
  }
}
END_TEST

START_TEST(k_math_exact) {
  static float out[N * 16];
  run_io("math_exact", N, 64, xin, sizeof xin, out, sizeof out);
  for (int g = 0; g < N; g++) {
    float x = xin[g], y = yof(g);
    float want[16] = {ceilf(x),         floorf(x),
                      rintf(x),         roundf(x),
                      truncf(x),        fabsf(x),
                      fmodf(x, y),      remainderf(x, y),
                      copysignf(x, y),  fdimf(x, y),
                      fmaxf(x, y),      fminf(x, y),
                      nextafterf(x, y), ldexpf(x, g % 11 - 5),
                      (float)ilogbf(x), logbf(x)};
    for (int j = 0; j < 16; j++)
      ck_assert_msg(memcmp(&out[16 * g + j], &want[j], 4) == 0,
                    "math_exact fn %d x=%a y=%a: got %a want %a", j, x, y, out[16 * g + j],
                    want[j]);
  }
}
END_TEST

START_TEST(k_math_ptr) {
  static float out[N * 8];
  run_io("math_ptr", N, 64, xin, sizeof xin, out, sizeof out);
  for (int g = 0; g < N; g++) {
    float x = xin[g], ip, fl = floorf(x);
    int e;
    float fr = frexpf(x, &e), m = modff(x, &ip);
    float fract = fminf(x - fl, 0x1.fffffep-1f);
    ck_assert_msg(out[8 * g] == fr && out[8 * g + 1] == (float)e, "frexp(%a)", x);
    ck_assert_msg(out[8 * g + 2] == m && out[8 * g + 3] == ip, "modf(%a)", x);
    ck_assert_msg(out[8 * g + 4] == fract && out[8 * g + 5] == fl, "fract(%a): %a %a", x,
                  out[8 * g + 4], out[8 * g + 5]);
    CK_ULP("sincos.sin", x, out[8 * g + 6], sin(x), 4);
    CK_ULP("sincos.cos", x, out[8 * g + 7], cos(x), 4);
  }
}
END_TEST

/* native_ accuracy is implementation-defined; Lockstep keeps it within the
 * half_ limit, which is what this checks. */
START_TEST(k_math_native) {
  static float out[N * 12];
  static const struct f1 fs[] = {
      {"native_sin", sin, 8192},   {"native_cos", cos, 8192},      {"native_tan", tan, 8192},
      {"native_exp", exp, 8192},   {"native_exp2", exp2, 8192},    {"native_exp10", exp10_r, 8192},
      {"native_log", log, 8192},   {"native_log2", log2, 8192},    {"native_log10", log10, 8192},
      {"native_sqrt", sqrt, 8192}, {"native_rsqrt", rsqrt_r, 8192}};
  run_io("math_native", N, 64, xin, sizeof xin, out, sizeof out);
  for (int g = 0; g < N; g++) {
    for (int j = 0; j < 11; j++) {
      float a = j < 5 ? xin[g] : j == 5 ? xin[g] * 0.25f : fabsf(xin[g]) + 0.25f;
      CK_ULP(fs[j].name, a, out[12 * g + j], fs[j].f((double)a), fs[j].ulp);
    }
    double p = fabsf(xin[g]) + 0.25f;
    CK_ULP("native_recip+divide+powr", xin[g], out[12 * g + 11], 1.0 / p + xin[g] / p + sqrt(p),
           8192 * 3);
  }
}
END_TEST

START_TEST(k_math_half) {
  static float out[N * 14];
  run_io("math_half", N, 64, xin, sizeof xin, out, sizeof out);
  for (int g = 0; g < N; g++) {
    float x = xin[g], p = fabsf(x) + 0.25f;
    const float *o = out + 14 * g;
    double want[14] = {
        sin(x),  cos(x),   tan(x),  exp(x),      exp2(x), exp10_r(x * 0.25f), log(p),
        log2(p), log10(p), sqrt(p), 1 / sqrt(p), 1.0 / p, (double)x / p,      pow(p, x * 0.25f)};
    for (int j = 0; j < 14; j++) {
      char what[32];
      snprintf(what, sizeof what, "half fn %d", j);
      CK_ULP(what, x, o[j], want[j], 8192);
    }
  }
}
END_TEST

START_TEST(k_math_vec) {
  enum { G = N / 16 };
  static float out[16 * G + 25 * G];
  run_io("math_vec", G, 0, xin, sizeof xin, out, sizeof out);
  for (int g = 0; g < G; g++) {
    const float *v = xin + 16 * g, *o = out + 16 * G + 25 * g;
    for (int j = 0; j < 16; j++)
      CK_ULP("sin16", v[j], out[16 * g + j], sin(v[j]), 4);
    static const float e[4] = {0.5f, 1.5f, -2.0f, 3.0f}, d[3] = {1.0f, -1.0f, 2.0f};
    for (int j = 0; j < 4; j++)
      CK_ULP("pow4", v[j], o[j], pow(fabsf(v[j]) + 0.5f, e[j]), 16);
    for (int j = 0; j < 3; j++)
      CK_ULP("atan2_3", v[3 + j], o[4 + j], atan2(v[3 + j], d[j]), 6);
    CK_ULP("hypot2", v[6], o[7], hypot(v[6], v[7]), 4);
    CK_ULP("hypot2", v[7], o[8], hypot(v[7], v[6]), 4);
    for (int j = 0; j < 8; j++)
      CK_ULP("fma8", v[8 + j], o[9 + j], (double)fmaf(v[8 + j], v[8 + j], 1.0f), 0);
    for (int j = 0; j < 8; j++)
      CK_ULP("exp8", v[8 + j], o[17 + j], exp(v[8 + j] * 0.125f), 3);
  }
}
END_TEST

START_TEST(k_math_fp64) {
  static double in[N], out[12 * N];
  for (int i = 0; i < N; i++)
    in[i] = (double)(i - 128) / 12.37;
  run_io("math_fp64", N, 64, in, sizeof in, out, sizeof out);
  for (int g = 0; g < N; g++) {
    double x = in[g], y = in[(g * 37 + 11) % N];
    long double p = fabs(x) + 0.25;
    long double want[12] = {expl(x),          logl(p),
                            sinl(x),          cosl(x),
                            tanl(x),          sqrtl(p),
                            powl(p, y),       atan2l(y, x),
                            fmal(x, y, 0.5L), x / (long double)(y + 0.125),
                            cbrtl(x),         floor(x) + fmod(x, y + 0.125)};
    static const double lim[12] = {3, 3, 4, 4, 5, 0, 16, 6, 0, 0, 2, 0};
    for (int j = 0; j < 12; j++)
      ck_assert_msg(ulps_d(out[12 * g + j], want[j]) <= lim[j] + 0.5,
                    "math_fp64 fn %d x=%a: got %a want %La (%g ulp)", j, x, out[12 * g + j],
                    want[j], ulps_d(out[12 * g + j], want[j]));
  }
}
END_TEST

START_TEST(k_fp64_vec) {
  enum { G = 32 };
  static double in[4 * G], out[12 * G];
  for (int i = 0; i < 4 * G; i++)
    in[i] = (double)(i - 64) / 7.3;
  run_io("fp64_vec", G, 0, in, sizeof in, out, sizeof out);
  for (int g = 0; g < G; g++) {
    const double *a = in + 4 * g, *o = out + 12 * g;
    double b[4], dot = 0, len = 0, dist = 0;
    for (int j = 0; j < 4; j++)
      b[j] = a[3 - j] * 0.5 + 1.0;
    for (int j = 0; j < 4; j++) {
      /* a * b - a / b in double, contracted to an fma or not */
      double plain = a[j] * b[j] - a[j] / b[j], fused = fma(a[j], b[j], -(a[j] / b[j]));
      ck_assert_msg(o[j] == plain || o[j] == fused, "fp64_vec arith %d %d: %a want %a or %a", g, j,
                    o[j], plain, fused);
      dot += a[j] * b[j];
      len += a[j] * a[j];
      dist += (a[j] - b[j]) * (a[j] - b[j]);
    }
    ck_assert_msg(fabs(o[4] - dot) <= 1e-12 * (fabs(dot) + 1), "dot %d: %a %a", g, o[4], dot);
    ck_assert_msg(fabs(o[5] - sqrt(len)) <= 1e-12 * sqrt(len), "length %d", g);
    ck_assert_msg(fabs(o[6] - sqrt(dist)) <= 1e-12 * sqrt(dist), "distance %d", g);
    ck_assert(o[7] == fmin(fmax(a[0], -1.0), 1.0));
    ck_assert(o[8] == (double)(float)a[1]);
    ck_assert(o[9] == (double)(int)(a[2] * 100.0));
    ck_assert_msg(fabs(o[10] - (a[0] + (a[3] - a[0]) * 0.25)) <= 1e-13, "mix %d", g);
    ck_assert(o[11] == (double)(long)(a[0] * 1e12));
  }
}
END_TEST

START_TEST(k_common) {
  static float out[13 * N];
  run_io("common", N, 64, xin, sizeof xin, out, sizeof out);
  for (int g = 0; g < N; g++) {
    float x = xin[g], y = yof(g);
    const float *o = out + 13 * g;
    float t = fminf(fmaxf((x + 3.0f) / 7.0f, 0.0f), 1.0f);
    float sg = x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f;
    ck_assert(o[0] == fminf(fmaxf(x, -2.0f), 3.0f));
    CK_ULP("degrees", x, o[1], x * (180.0 / M_PI), 2);
    CK_ULP("radians", x, o[2], x * (M_PI / 180.0), 2);
    ck_assert(o[3] == fmaxf(x, y) && o[4] == fminf(x, y));
    ck_assert_msg(fabsf(o[5] - (x + (y - x) * 0.25f)) <= 1e-5f * (fabsf(x) + fabsf(y)), "mix");
    ck_assert(o[6] == (x < y ? 0.0f : 1.0f));
    ck_assert_msg(fabsf(o[7] - t * t * (3 - 2 * t)) <= 1e-5f, "smoothstep %a: %a", x, o[7]);
    ck_assert(o[8] == sg);
    float v[4] = {x, y, -x, 0.5f};
    for (int j = 0; j < 4; j++) {
      float s = v[j] > 0 ? 1.0f : v[j] < 0 ? -1.0f : 0.0f;
      float want =
          fminf(fmaxf(v[j], -1.0f), 1.0f) + (v[j] < 0 ? 0.0f : 1.0f) + s + fmaxf(v[j], 0.25f);
      ck_assert_msg(fabsf(o[9 + j] - want) <= 1e-5f * fabsf(want), "common vec %d %d", g, j);
    }
  }
}
END_TEST

static Suite *make(void) {
  inputs();
  Suite *s = suite_create("device_kernels_math");
  TCase *tc = tcase_create("math");
  tcase_add_checked_fixture(tc, kh_setup, kh_teardown);
  tcase_set_timeout(tc, 120);
  KH_ADD(tc, k_math_exp_log);
  KH_ADD(tc, k_math_trig);
  KH_ADD(tc, k_math_hyp);
  KH_ADD(tc, k_math_misc);
  KH_ADD(tc, k_math_pow);
  KH_ADD(tc, k_math_exact);
  KH_ADD(tc, k_math_ptr);
  KH_ADD(tc, k_math_native);
  KH_ADD(tc, k_math_half);
  KH_ADD(tc, k_math_vec);
  KH_ADD(tc, k_math_fp64);
  KH_ADD(tc, k_fp64_vec);
  KH_ADD(tc, k_common);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return kh_main(make);
}
