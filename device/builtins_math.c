/*
 * builtins_math.c - math builtins that must not be left to the host's libm
 * of the same precision: the special cases of the OpenCL C specification
 * ("Edge Case Behavior" and C99 annex F: fmax/fmin/maxmag/minmag with a
 * NaN, pow/pown/hypot with a signalling NaN, powr, rootn, ilogb's
 * FP_ILOGBNAN, sinpi/cospi/tanpi at integers and half-integers, normalize of
 * infinite components) and the ULP limits that a double computation of the
 * same precision misses (fp64 sinpi/cospi/tanpi near their zeros, cbrt,
 * rootn, length and normalize of large or tiny components). Double forms
 * evaluate in long double where libm's double falls short and round once;
 * float forms use the double ones. Pure functions: no lane state, no
 * memory, no global libm state (lgamma's signgam).
 */
#include "device/builtins_math.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* Squares of doubles neither overflow nor underflow in long double. */
_Static_assert(LDBL_MAX_EXP >= 2 * DBL_MAX_EXP + 8,
               "long double must have the range of a double squared");

static const long double PI_L = 3.14159265358979323846264338327950288L;

static double f64v(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
static float f32v(uint64_t u) {
  float f;
  uint32_t w = (uint32_t)u;
  memcpy(&f, &w, 4);
  return f;
}
static uint64_t u64v(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static uint64_t u32v(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* ---- fmax, fmin, maxmag, minmag ---- */

double bm_fmax_d(double x, double y) {
  if (isnan(x)) return isnan(y) ? x + y : y;
  if (isnan(y)) return x;
  if (x == y) return signbit(x) ? y : x;
  return x > y ? x : y;
}
double bm_fmin_d(double x, double y) {
  if (isnan(x)) return isnan(y) ? x + y : y;
  if (isnan(y)) return x;
  if (x == y) return signbit(x) ? x : y;
  return x < y ? x : y;
}
double bm_maxmag_d(double x, double y) {
  double ax = fabs(x), ay = fabs(y);
  return ax > ay ? x : ay > ax ? y : bm_fmax_d(x, y);
}
double bm_minmag_d(double x, double y) {
  double ax = fabs(x), ay = fabs(y);
  return ax < ay ? x : ay < ax ? y : bm_fmin_d(x, y);
}
/* The float forms are exact through double (a NaN stays a NaN). */
float bm_fmax_f(float x, float y) {
  return (float)bm_fmax_d(x, y);
}
float bm_fmin_f(float x, float y) {
  return (float)bm_fmin_d(x, y);
}
float bm_maxmag_f(float x, float y) {
  return (float)bm_maxmag_d(x, y);
}
float bm_minmag_f(float x, float y) {
  return (float)bm_minmag_d(x, y);
}

/* ---- pow, pown, hypot: C99's "even a NaN" cases hold for a signalling
 * NaN too (libm's double forms return NaN for one) ---- */

double bm_pow_d(double x, double y) {
  return y == 0 || x == 1 ? 1.0 : pow(x, y);
}
double bm_pown_d(double x, int n) {
  return n == 0 ? 1.0 : pow(x, (double)n);
}
double bm_hypot_d(double x, double y) {
  return isinf(x) || isinf(y) ? INFINITY : hypot(x, y);
}

/* ---- powr, rootn, ilogb ---- */

double bm_powr_d(double x, double y) {
  if (isnan(x) || isnan(y)) return x + y;
  if (x < 0) return NAN; /* -0 is not below 0: it takes the zero cases */
  if (x == 0) return y == 0 ? NAN : y < 0 ? INFINITY : 0.0;
  if (isinf(x)) return y == 0 ? NAN : y < 0 ? 0.0 : INFINITY;
  if (x == 1) return isinf(y) ? NAN : 1.0;
  return pow(x, y);
}
float bm_powr_f(float x, float y) {
  return (float)bm_powr_d(x, y);
}

double bm_rootn_d(double x, int n) {
  if (isnan(x)) return x + x;
  if (n == 0) return NAN;
  int odd = n & 1;
  if (x < 0 && !odd) return NAN;
  if (x == 0) {
    if (n > 0) return odd ? x : 0.0;
    return odd ? copysign(INFINITY, x) : INFINITY;
  }
  if (isinf(x)) return n > 0 ? x : copysign(0.0, x);
  /* 1/n in long double: its error times log|x| stays well under an ULP */
  long double r = powl(fabsl((long double)x), 1.0L / n);
  return copysign((double)r, x);
}
float bm_rootn_f(float x, int n) {
  return (float)bm_rootn_d(x, n);
}

int bm_ilogb_d(double x) {
  if (isnan(x) || isinf(x)) return INT_MAX; /* FP_ILOGBNAN; ilogb(+-inf) is INT_MAX */
  if (x == 0) return INT_MIN;               /* FP_ILOGB0 */
  return ilogb(x);
}
int bm_ilogb_f(float x) {
  return bm_ilogb_d(x);
}

/* ---- sinpi, cospi, tanpi: reduce exactly, then scale by pi in long
 * double on an argument in [0, 1/4] ---- */

/* sin(pi r) for r in [0, 1/2]. */
static long double sinpi_red(double r) {
  return r <= 0.25 ? sinl(PI_L * r) : cosl(PI_L * (0.5L - r));
}
/* Whether the integer t is odd. */
static int odd_int(double t) {
  return fmod(t, 2.0) != 0;
}

double bm_sinpi_d(double x) {
  if (!isfinite(x)) return x - x;
  double t = trunc(x);
  if (x == t) return copysign(0.0, x);
  double r = x - t, s = odd_int(t) ? -1 : 1; /* sinpi(t + r) = (-1)^t sinpi(r) */
  if (r < 0) r = -r, s = -s;
  if (r > 0.5) r = 1 - r;
  return s * (double)sinpi_red(r);
}
double bm_cospi_d(double x) {
  if (!isfinite(x)) return x - x;
  double ax = fabs(x), t = trunc(ax), r = ax - t, s = odd_int(t) ? -1 : 1;
  if (r == 0.5) return 0.0; /* +0 at every n + 1/2 */
  if (r > 0.5) r = 1 - r, s = -s;
  return s * (double)sinpi_red(0.5 - r);
}
double bm_tanpi_d(double x) {
  if (!isfinite(x)) return x - x;
  double t = trunc(x);
  if (x == t) return copysign(0.0, odd_int(t) ? -x : x);
  double r = x - t, s = 1; /* period 1 */
  if (r < 0) r = -r, s = -1;
  if (r == 0.5) return odd_int(floor(x)) ? -INFINITY : INFINITY;
  if (r > 0.5) r = 1 - r, s = -s;
  long double v = r <= 0.25 ? tanl(PI_L * r) : 1.0L / tanl(PI_L * (0.5L - r));
  return s * (double)v;
}
float bm_sinpi_f(float x) {
  return (float)bm_sinpi_d(x);
}
float bm_cospi_f(float x) {
  return (float)bm_cospi_d(x);
}
float bm_tanpi_f(float x) {
  return (float)bm_tanpi_d(x);
}

double bm_cbrt_d(double x) {
  return (double)cbrtl(x);
}

/* lgamma without libm's signgam: lanes run on several host threads. */
double bm_lgamma_d(double x) {
  int sign;
  return lgamma_r(x, &sign);
}
float bm_lgamma_f(float x) {
  return (float)bm_lgamma_d(x);
}

/* ---- length and normalize ---- */

/* The components of v (float bits when !dbl) in long double; returns 1 if
 * one is a NaN, 2 if none is but one is infinite, else 0. */
static int components(long double *w, const uint64_t *v, unsigned n, int dbl) {
  int nan = 0, inf = 0;
  for (unsigned i = 0; i < n; i++) {
    w[i] = dbl ? (long double)f64v(v[i]) : (long double)f32v(v[i]);
    nan |= isnan(w[i]);
    inf |= isinf(w[i]);
  }
  return nan ? 1 : inf ? 2 : 0;
}
static long double norm(const long double *w, unsigned n) {
  long double s = 0;
  for (unsigned i = 0; i < n; i++)
    s += w[i] * w[i];
  return sqrtl(s);
}
double bm_length_d(const uint64_t *v, unsigned n) {
  long double w[16];
  int k = components(w, v, n > 16 ? 16 : n, 1);
  return k == 1 ? NAN : k == 2 ? INFINITY : (double)norm(w, n > 16 ? 16 : n);
}
float bm_length_f(const uint64_t *v, unsigned n) {
  long double w[16];
  int k = components(w, v, n > 16 ? 16 : n, 0);
  return k == 1 ? NAN : k == 2 ? INFINITY : (float)norm(w, n > 16 ? 16 : n);
}
/* normalize: all zero gives v; a NaN gives all NaN; infinite components
 * become +-1 and the finite ones +-0 first. */
static void normalize(uint64_t *res, const uint64_t *v, unsigned n, int dbl) {
  long double w[16];
  n = n > 16 ? 16 : n;
  int k = components(w, v, n, dbl);
  for (unsigned i = 0; k == 2 && i < n; i++)
    w[i] = isinf(w[i]) ? copysignl(1.0L, w[i]) : 0.0L * w[i];
  long double l = norm(w, n);
  for (unsigned i = 0; i < n; i++) {
    long double r = k == 1 ? (long double)NAN : l == 0 ? w[i] : w[i] / l;
    res[i] = dbl ? u64v((double)r) : u32v((float)r);
  }
}
void bm_normalize_d(uint64_t *res, const uint64_t *v, unsigned n) {
  normalize(res, v, n, 1);
}
void bm_normalize_f(uint64_t *res, const uint64_t *v, unsigned n) {
  normalize(res, v, n, 0);
}
