/*
 * builtins.c - the OpenCL C builtins in C (see the calling convention in
 * device/builtins.h), generated from device/builtins.def, and the lookup the
 * translator uses. Each function computes one lane's call; memory goes
 * through the SIMT engine's checks. No name is looked up while kernels run.
 */
#include "device/builtins.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/builtins_ext.h"
#include "device/builtins_image.h"
#include "device/builtins_math.h"
#include "device/builtins_pipe.h"
#include "device/simt_int.h"

#define BI_ARGS                                                                                    \
  struct simt_lane *ln, uint64_t *res, const uint64_t *arg, unsigned nargs, uint32_t data
#define BI_UNUSED (void)ln, (void)res, (void)arg, (void)nargs, (void)data

/* ---- float helpers: f32 forms evaluate in double and round once ---- */
#define VIA_D1(name, expr)                                                                         \
  static inline float name##_f(float xf) {                                                         \
    double x = xf;                                                                                 \
    return (float)(expr);                                                                          \
  }
#define VIA_D2(name, expr)                                                                         \
  static inline float name##_f(float xf, float yf) {                                               \
    double x = xf, y = yf;                                                                         \
    return (float)(expr);                                                                          \
  }
static const double PI = 3.14159265358979323846;
VIA_D1(acos, acos(x))
VIA_D1(acosh, acosh(x))
VIA_D1(asin, asin(x))
VIA_D1(asinh, asinh(x))
VIA_D1(atan, atan(x))
VIA_D1(atanh, atanh(x))
VIA_D1(cbrt, cbrt(x))
VIA_D1(cos, cos(x))
VIA_D1(cosh, cosh(x))
VIA_D1(erfc, erfc(x))
VIA_D1(erf, erf(x))
VIA_D1(exp, exp(x))
VIA_D1(exp2, exp2(x))
VIA_D1(expm1, expm1(x))
VIA_D1(log, log(x))
VIA_D1(log2, log2(x))
VIA_D1(log10, log10(x))
VIA_D1(log1p, log1p(x))
VIA_D1(sin, sin(x))
VIA_D1(sinh, sinh(x))
VIA_D1(tan, tan(x))
VIA_D1(tanh, tanh(x))
VIA_D1(tgamma, tgamma(x))
VIA_D2(atan2, atan2(x, y))
VIA_D2(hypot, hypot(x, y))
VIA_D2(pow, pow(x, y))
static inline double acospi_d(double x) {
  return acos(x) / PI;
}
static inline double asinpi_d(double x) {
  return asin(x) / PI;
}
static inline double atanpi_d(double x) {
  return atan(x) / PI;
}
static inline double atan2pi_d(double x, double y) {
  return atan2(x, y) / PI;
}
static inline double exp10_d(double x) {
  return pow(10.0, x);
}
static inline double rsqrt_d(double x) {
  return 1.0 / sqrt(x);
}
static inline double recip_d(double x) {
  return 1.0 / x;
}
static inline double degrees_d(double x) {
  return x * (180.0 / PI);
}
static inline double radians_d(double x) {
  return x * (PI / 180.0);
}
static inline double sign_d(double x) {
  return x != x ? 0.0 : x > 0 ? 1.0 : x < 0 ? -1.0 : x;
}
static inline double step_d(double e, double x) {
  return x < e ? 0.0 : 1.0;
}
static inline double divide_d(double x, double y) {
  return x / y;
}
static inline double mad_d(double a, double b, double c) {
  return a * b + c;
}
static inline double clamp_d(double x, double lo, double hi) {
  return fmin(fmax(x, lo), hi);
}
static inline double mix_d(double x, double y, double a) {
  return x + (y - x) * a;
}
static inline double smoothstep_d(double e0, double e1, double x) {
  double t = clamp_d((x - e0) / (e1 - e0), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}
static inline double pown_d(double x, int n) {
  return pow(x, (double)n);
}
VIA_D1(acospi, acospi_d(x))
VIA_D1(asinpi, asinpi_d(x))
VIA_D1(atanpi, atanpi_d(x))
VIA_D1(exp10, exp10_d(x))
VIA_D1(rsqrt, rsqrt_d(x))
VIA_D1(recip, recip_d(x))
VIA_D1(degrees, degrees_d(x))
VIA_D1(radians, radians_d(x))
VIA_D1(sign, sign_d(x))
VIA_D2(atan2pi, atan2pi_d(x, y))
VIA_D2(step, step_d(x, y))
static inline float divide_f(float x, float y) {
  return x / y;
}
static inline float mad_f(float a, float b, float c) {
  return a * b + c;
}
static inline float clamp_f(float x, float lo, float hi) {
  return fminf(fmaxf(x, lo), hi);
}
static inline float mix_f(float x, float y, float a) {
  return x + (y - x) * a;
}
static inline float smoothstep_f(float e0, float e1, float x) {
  return (float)smoothstep_d(e0, e1, x);
}
static inline float pown_f(float x, int n) {
  return (float)pown_d(x, n);
}

static inline int isnan_d(double x) {
  return x != x;
}
static inline int isinf_d(double x) {
  return isinf(x) != 0;
}
static inline int isfinite_d(double x) {
  return isfinite(x) != 0;
}
static inline int isnormal_d(double x) {
  return isnormal(x) != 0;
}
static inline int signbit_d(double x) {
  return signbit(x) != 0;
}
static inline int isnan_f(float x) {
  return x != x;
}
static inline int isinf_f(float x) {
  return isinf(x) != 0;
}
static inline int isfinite_f(float x) {
  return isfinite(x) != 0;
}
static inline int isnormal_f(float x) {
  return isnormal(x) != 0;
}
static inline int signbit_f(float x) {
  return signbit(x) != 0;
}
#define REL2_OPS(T, s)                                                                             \
  static inline int iseq_##s(T a, T b) {                                                           \
    return a == b;                                                                                 \
  }                                                                                                \
  static inline int isne_##s(T a, T b) {                                                           \
    return !(a == b);                                                                              \
  }                                                                                                \
  static inline int isgt_##s(T a, T b) {                                                           \
    return a > b;                                                                                  \
  }                                                                                                \
  static inline int isge_##s(T a, T b) {                                                           \
    return a >= b;                                                                                 \
  }                                                                                                \
  static inline int islt_##s(T a, T b) {                                                           \
    return a < b;                                                                                  \
  }                                                                                                \
  static inline int isle_##s(T a, T b) {                                                           \
    return a <= b;                                                                                 \
  }                                                                                                \
  static inline int islg_##s(T a, T b) {                                                           \
    return a < b || a > b;                                                                         \
  }                                                                                                \
  static inline int isord_##s(T a, T b) {                                                          \
    return a == a && b == b;                                                                       \
  }                                                                                                \
  static inline int isuno_##s(T a, T b) {                                                          \
    return a != a || b != b;                                                                       \
  }
REL2_OPS(float, f)
REL2_OPS(double, d)

/* ---- integer helpers: values arrive zero-extended; bits and sign from data ---- */
static inline uint64_t imask(unsigned bits) {
  return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}
static inline int64_t isx(uint64_t v, unsigned bits) {
  return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}
/* Wide signed/unsigned view of a value as a 128-bit integer. */
static inline __int128 iw(uint64_t v, unsigned bits, int sg) {
  return sg ? (__int128)isx(v, bits) : (__int128)(v & imask(bits));
}
static inline uint64_t isat(__int128 r, unsigned bits, int sg) {
  __int128 lo = sg ? -((__int128)1 << (bits - 1)) : 0;
  __int128 hi = sg ? ((__int128)1 << (bits - 1)) - 1 : (__int128)imask(bits);
  if (bits == 64 && !sg) hi = (__int128)UINT64_MAX;
  if (r < lo) r = lo;
  if (r > hi) r = hi;
  return (uint64_t)r & imask(bits);
}
static inline uint64_t int_abs(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  __int128 x = iw(a, n, sg);
  return (uint64_t)(x < 0 ? -x : x) & imask(n);
}
static inline uint64_t int_clz(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  a &= imask(n);
  return a ? (uint64_t)(__builtin_clzll(a) - (64 - (int)n)) : n;
}
static inline uint64_t int_ctz(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  a &= imask(n);
  return a ? (uint64_t)__builtin_ctzll(a) : n;
}
static inline uint64_t int_popcount(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  return (uint64_t)__builtin_popcountll(a & imask(n));
}
static inline uint64_t int_max(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  return (uint64_t)(iw(a, n, sg) > iw(b, n, sg) ? a : b) & imask(n);
}
static inline uint64_t int_min(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  return (uint64_t)(iw(a, n, sg) < iw(b, n, sg) ? a : b) & imask(n);
}
static inline uint64_t int_abs_diff(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  __int128 d = iw(a, n, sg) - iw(b, n, sg);
  return (uint64_t)(d < 0 ? -d : d) & imask(n);
}
static inline uint64_t int_add_sat(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  return isat(iw(a, n, sg) + iw(b, n, sg), n, sg);
}
static inline uint64_t int_sub_sat(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  return isat(iw(a, n, sg) - iw(b, n, sg), n, sg);
}
static inline uint64_t int_hadd(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  return (uint64_t)((iw(a, n, sg) + iw(b, n, sg)) >> 1) & imask(n);
}
static inline uint64_t int_rhadd(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  return (uint64_t)((iw(a, n, sg) + iw(b, n, sg) + 1) >> 1) & imask(n);
}
static inline uint64_t int_mul_hi(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  /* Unsigned 64-bit products do not fit a signed __int128: do them apart. */
  if (n == 64 && !sg) return (uint64_t)(((unsigned __int128)(a) * (unsigned __int128)b) >> 64);
  __int128 p = iw(a, n, sg) * iw(b, n, sg);
  return (uint64_t)(p >> n) & imask(n);
}
static inline uint64_t int_rotate(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  a &= imask(n);
  unsigned s = (unsigned)(b % n);
  return s ? ((a << s) | (a >> (n - s))) & imask(n) : a;
}
static inline uint64_t int_clamp(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  return int_min(int_max(a, b, 0, n, sg), c, 0, n, sg);
}
static inline uint64_t int_mad_hi(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  return (int_mul_hi(a, b, 0, n, sg) + c) & imask(n);
}
static inline uint64_t int_mad_sat(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  if (n == 64) { /* the product, or its sum with c, may not fit 128 bits: clamp in steps */
    __int128 x = iw(a, n, sg), y = iw(b, n, sg);
    __int128 p, sum;
    if (__builtin_mul_overflow(x, y, &p))
      return (x < 0) != (y < 0) && sg ? (uint64_t)INT64_MIN
                                      : (sg ? (uint64_t)INT64_MAX : UINT64_MAX);
    if (__builtin_add_overflow(p, iw(c, n, sg), &sum)) /* both far past the range */
      return p < 0 ? (uint64_t)INT64_MIN : (sg ? (uint64_t)INT64_MAX : UINT64_MAX);
    return isat(sum, n, sg);
  }
  return isat(iw(a, n, sg) * iw(b, n, sg) + iw(c, n, sg), n, sg);
}
static inline uint64_t int_bitselect(uint64_t a, uint64_t b, uint64_t c, unsigned n, int sg) {
  return ((a & ~c) | (b & c)) & imask(n);
}

/* ---- pass 1: the functions ---- */
#define BI(name, nres, nargs, flags, data, fn)
#define WI(stem, sreg)
#define WI0(name, sreg)
#define F1(stem, ff, fd)                                                                           \
  static void bi_##stem##_f(BI_ARGS) {                                                             \
    res[0] = uf32(ff(f32(arg[0])));                                                                \
  }                                                                                                \
  static void bi_##stem##_d(BI_ARGS) {                                                             \
    res[0] = uf64(fd(f64(arg[0])));                                                                \
  }
#define F2(stem, ff, fd)                                                                           \
  static void bi_##stem##_f(BI_ARGS) {                                                             \
    res[0] = uf32(ff(f32(arg[0]), f32(arg[1])));                                                   \
  }                                                                                                \
  static void bi_##stem##_d(BI_ARGS) {                                                             \
    res[0] = uf64(fd(f64(arg[0]), f64(arg[1])));                                                   \
  }
#define F3(stem, ff, fd)                                                                           \
  static void bi_##stem##_f(BI_ARGS) {                                                             \
    res[0] = uf32(ff(f32(arg[0]), f32(arg[1]), f32(arg[2])));                                      \
  }                                                                                                \
  static void bi_##stem##_d(BI_ARGS) {                                                             \
    res[0] = uf64(fd(f64(arg[0]), f64(arg[1]), f64(arg[2])));                                      \
  }
#define FI(stem, ff, fd)                                                                           \
  static void bi_##stem##_f(BI_ARGS) {                                                             \
    res[0] = uf32(ff(f32(arg[0]), (int)(int32_t)arg[1]));                                          \
  }                                                                                                \
  static void bi_##stem##_d(BI_ARGS) {                                                             \
    res[0] = uf64(fd(f64(arg[0]), (int)(int32_t)arg[1]));                                          \
  }
#define FTOI(stem, ff, fd)                                                                         \
  static void bi_##stem##_f(BI_ARGS) {                                                             \
    res[0] = (uint32_t)ff(f32(arg[0]));                                                            \
  }                                                                                                \
  static void bi_##stem##_d(BI_ARGS) {                                                             \
    res[0] = (uint32_t)fd(f64(arg[0]));                                                            \
  }
#define R1(stem, ff, fd)                                                                           \
  static void bi_##stem##_f(BI_ARGS) {                                                             \
    res[0] = (uint64_t)ff(f32(arg[0]));                                                            \
  }                                                                                                \
  static void bi_##stem##_d(BI_ARGS) {                                                             \
    res[0] = (uint64_t)fd(f64(arg[0]));                                                            \
  }
#define R2(stem, ff, fd)                                                                           \
  static void bi_##stem##_f(BI_ARGS) {                                                             \
    res[0] = (uint64_t)ff(f32(arg[0]), f32(arg[1]));                                               \
  }                                                                                                \
  static void bi_##stem##_d(BI_ARGS) {                                                             \
    res[0] = (uint64_t)fd(f64(arg[0]), f64(arg[1]));                                               \
  }
#define I1(stem, fn)                                                                               \
  static void bi_##stem##_i(BI_ARGS) {                                                             \
    res[0] = fn(arg[0], 0, 0, data & 0xff, (int)(data >> 8));                                      \
  }
#define I2(stem, fn)                                                                               \
  static void bi_##stem##_i(BI_ARGS) {                                                             \
    res[0] = fn(arg[0], arg[1], 0, data & 0xff, (int)(data >> 8));                                 \
  }
#define I3(stem, fn)                                                                               \
  static void bi_##stem##_i(BI_ARGS) {                                                             \
    res[0] = fn(arg[0], arg[1], arg[2], data & 0xff, (int)(data >> 8));                            \
  }
#define GEO1(N)
#define GEO(vec, N)
#define VLOAD(stem, N)
#define VSTORE(stem, vec, N)
#define VLOAD_HALF(stem, N, aligned)
#define VSTORE_HALF(stem, vec, N, mode, aligned)
#define ASYNC_T(t, size)
#define BW(name, nres, nargs, flags, data, fn)
#define SGOP(stem, fn, op)
#define SGB(stem)
#define BG(name, nres, nargs, data, fn)
#define WGOP(stem, fn, op)
#define WGB(stem)
#define ISEL(t, ct, bits)
#define SHUF_DIFF(t, mt)
#define SHUF_SAME(t)
#define PREF(t)
#define CVTI(d, l0, l1, l2, di)
#define CVTF(d, l0, l1, di)
#define GEOD(vec, N)
#define DPTR(stem, fn, ptr)
#define IMG_R(T, ty, nc, ic)
#define IMG_S(T, ty, nc, ic, fc)
#define IMG_W(T, ty, nc, ic, vi)
#define IMG_D(T, ty, nc, ic, fc)
#define IMG_Q(T, ty)
#define IMG_Q1(fn, T, ty, nres, q)

static void bi_frexp_f(BI_ARGS);
static void bi_fract_f(BI_ARGS);
static void bi_modf_f(BI_ARGS);
static void bi_sincos_f(BI_ARGS);
static void bi_bitselect(BI_ARGS);
static void bi_select(BI_ARGS);
static void bi_any(BI_ARGS);
static void bi_mad24(BI_ARGS);
static void bi_mul24(BI_ARGS);
static void bi_upsample(BI_ARGS);
static void bi_cross(BI_ARGS);
static void bi_nop(BI_ARGS);
static void bi_printf(BI_ARGS);
static void bi_assert_fail(BI_ARGS);
#include "device/builtins.def"
#undef BI
#undef WI
#undef WI0
#undef F1
#undef F2
#undef F3
#undef FI
#undef FTOI
#undef R1
#undef R2
#undef I1
#undef I2
#undef I3
#undef GEO1
#undef GEO
#undef VLOAD
#undef VSTORE
#undef VLOAD_HALF
#undef VSTORE_HALF
#undef ASYNC_T
#undef BW
#undef SGOP
#undef SGB
#undef BG
#undef WGOP
#undef WGB
#undef ISEL
#undef SHUF_DIFF
#undef SHUF_SAME
#undef PREF
#undef CVTI
#undef CVTF
#undef GEOD
#undef DPTR

/* ---- hand-written builtins ---- */

static void bi_nop(BI_ARGS) {
  BI_UNUSED;
}

static void bi_wi_dim(BI_ARGS) {
  uint64_t dim = arg[0] & 0xffffffffu;
  unsigned s = data;
  if (dim > 2) { /* out of range: ids 0, sizes 1 */
    res[0] = (s == LSI_SREG_GLOBAL_ID_X || s == LSI_SREG_LOCAL_ID_X || s == LSI_SREG_GROUP_ID_X ||
              s == LSI_SREG_GLOBAL_OFFSET_X)
                 ? 0
                 : 1;
    return;
  }
  res[0] = simt_sreg(ln->cu, ln->w, ln->lane, s + (unsigned)dim);
}

static void bi_wi0(BI_ARGS) {
  res[0] = simt_sreg(ln->cu, ln->w, ln->lane, data);
}

static void *lane_mem(struct simt_lane *ln, uint64_t addr, uint64_t size, int kind) {
  void *p = simt_mem(ln->cu, ln->w, ln->lane, ln->pc, addr, size, kind);
  if (ln->cu->run->check && p && p != ln->cu->sink)
    simt_check_access(ln->cu, ln->w, ln->lane, ln->pc, addr, size, kind);
  return p;
}

static void bi_frexp_f(BI_ARGS) {
  int e = 0;
  float m = frexpf(f32(arg[0]), &e);
  int32_t *p = lane_mem(ln, arg[1], 4, 1);
  if (!p) return;
  memcpy(p, &e, 4);
  res[0] = uf32(m);
}
/* fract: fmin(x - floor(x), 0x1.fffffep-1f), and for the cases that
 * formula gets wrong the specification's table: fract(±inf) = ±0 (floor
 * ±inf), fract(±0) = ±0, fract(NaN) = NaN (floor NaN). */
static void bi_fract_f(BI_ARGS) {
  float x = f32(arg[0]), fl = floorf(x);
  float fr = fminf(x - fl, 0x1.fffffep-1f);
  if (x != x)
    fr = x;
  else if (isinf(x) || x == 0)
    fr = copysignf(0.0f, x);
  float *p = lane_mem(ln, arg[1], 4, 1);
  if (!p) return;
  memcpy(p, &fl, 4);
  res[0] = uf32(fr);
}
static void bi_modf_f(BI_ARGS) {
  float ip;
  float fr = modff(f32(arg[0]), &ip);
  float *p = lane_mem(ln, arg[1], 4, 1);
  if (!p) return;
  memcpy(p, &ip, 4);
  res[0] = uf32(fr);
}
static void bi_sincos_f(BI_ARGS) {
  double x = f32(arg[0]);
  float s = (float)sin(x), c = (float)cos(x);
  float *p = lane_mem(ln, arg[1], 4, 1);
  if (!p) return;
  memcpy(p, &c, 4);
  res[0] = uf32(s);
}
static void bi_bitselect(BI_ARGS) {
  res[0] = ((arg[0] & ~arg[2]) | (arg[1] & arg[2])) & imask(data);
}
static void bi_select(BI_ARGS) {
  res[0] = arg[2] ? arg[1] : arg[0];
}
static void bi_any(BI_ARGS) {
  res[0] = (arg[0] >> (data - 1)) & 1;
}
static void bi_mad24(BI_ARGS) {
  uint64_t p = data >> 8 ? (uint64_t)(isx(arg[0], 24) * isx(arg[1], 24))
                         : (arg[0] & 0xffffff) * (arg[1] & 0xffffff);
  res[0] = (p + arg[2]) & 0xffffffffu;
}
static void bi_mul24(BI_ARGS) {
  uint64_t p = data >> 8 ? (uint64_t)(isx(arg[0], 24) * isx(arg[1], 24))
                         : (arg[0] & 0xffffff) * (arg[1] & 0xffffff);
  res[0] = p & 0xffffffffu;
}
static void bi_upsample(BI_ARGS) {
  res[0] = (((arg[0] & imask(data)) << data) | (arg[1] & imask(data))) & imask(2 * data);
}

/* geometric, f32 (data = N) */
static double gdot(const uint64_t *a, const uint64_t *b, unsigned n) {
  double s = 0;
  for (unsigned i = 0; i < n; i++)
    s += (double)f32(a[i]) * (double)f32(b[i]);
  return s;
}
static void bi_dot(BI_ARGS) {
  res[0] = uf32((float)gdot(arg, arg + data, data));
}
static void bi_length(BI_ARGS) {
  res[0] = uf32(bm_length_f(arg, data));
}
static void bi_distance(BI_ARGS) {
  double s = 0;
  for (unsigned i = 0; i < data; i++) {
    double d = (double)f32(arg[i]) - (double)f32(arg[data + i]);
    s += d * d;
  }
  res[0] = uf32((float)sqrt(s));
}
static void bi_normalize(BI_ARGS) {
  bm_normalize_f(res, arg, data);
}
static void bi_cross(BI_ARGS) {
  unsigned n = data;
  double a0 = f32(arg[0]), a1 = f32(arg[1]), a2 = f32(arg[2]);
  double b0 = f32(arg[n]), b1 = f32(arg[n + 1]), b2 = f32(arg[n + 2]);
  res[0] = uf32((float)(a1 * b2 - a2 * b1));
  res[1] = uf32((float)(a2 * b0 - a0 * b2));
  res[2] = uf32((float)(a0 * b1 - a1 * b0));
  if (n == 4) res[3] = 0;
}

/* vloadN / vstoreN: data = N | element bytes << 8 */
static void bi_vload(BI_ARGS) {
  unsigned n = data & 0xff, sz = data >> 8;
  uint64_t addr = arg[1] + arg[0] * n * sz;
  for (unsigned i = 0; i < n; i++) {
    uint8_t *p = simt_mem_range(ln->cu, ln->w, ln->lane, ln->pc, addr + (uint64_t)i * sz, sz, 0);
    if (!p) return;
    uint64_t v = 0;
    memcpy(&v, p, sz);
    res[i] = v;
  }
}
static void bi_vstore(BI_ARGS) {
  unsigned n = data & 0xff, sz = data >> 8;
  uint64_t addr = arg[n + 1] + arg[n] * n * sz;
  for (unsigned i = 0; i < n; i++) {
    uint8_t *p = simt_mem_range(ln->cu, ln->w, ln->lane, ln->pc, addr + (uint64_t)i * sz, sz, 1);
    if (!p) return;
    memcpy(p, &arg[i], sz);
  }
}

/* half <-> float */
static float half_to_float(uint16_t h) {
  uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023;
  float f;
  if (e == 31) {
    uint32_t u = s | 0x7f800000u | (m << 13);
    memcpy(&f, &u, 4);
    return f;
  }
  f = e ? ldexpf((float)(m | 1024), (int)e - 25) : ldexpf((float)m, -24);
  return s ? -f : f;
}
/* mode: 0 rte, 1 rtz, 2 rtp, 3 rtn */
static uint16_t float_to_half(double x, int mode) {
  uint16_t s = signbit(x) ? 0x8000 : 0;
  if (x != x) return 0x7e00;
  double a = fabs(x);
  if (isinf(a)) return s | 0x7c00;
  int e;
  frexp(a, &e);                 /* a = m * 2^e, m in [0.5, 1) */
  int ex = e - 1;               /* a = 1.x * 2^ex */
  if (ex < -14) ex = -14;       /* subnormal range */
  double q = ldexp(a, 10 - ex); /* mantissa units */
  double fl = floor(q), r;
  switch (mode) {
  case 1: r = fl; break;
  case 2: r = (s ? fl : ceil(q)); break;
  case 3: r = (s ? ceil(q) : fl); break;
  default: r = nearbyint(q); break;
  }
  double v = ldexp(r, ex - 10);
  if (v >= 65520.0 || (v > 65504.0))
    return (mode == 1 || (mode == 2 && s) || (mode == 3 && !s)) ? (s | 0x7bff) : (s | 0x7c00);
  if (v == 0) return s;
  int e2;
  frexp(v, &e2);
  int hx = e2 - 1;
  if (hx < -14) return s | (uint16_t)ldexp(v, 24); /* subnormal */
  uint16_t mant = (uint16_t)((uint32_t)ldexp(v, 10 - hx) & 1023);
  return s | (uint16_t)((hx + 15) << 10) | mant;
}
static void bi_vload_half(BI_ARGS) {
  unsigned n = data & 0xff;
  unsigned step = (data >> 8) ? (n == 3 ? 4 : n) : n; /* vloada: 3-vectors step as 4 */
  uint64_t addr = arg[1] + arg[0] * step * 2;
  for (unsigned i = 0; i < n; i++) {
    uint16_t *p = lane_mem(ln, addr + 2u * i, 2, 0);
    if (!p) return;
    uint16_t h;
    memcpy(&h, p, 2);
    res[i] = uf32(half_to_float(h));
  }
}
static void bi_vstore_half(BI_ARGS) {
  unsigned n = data & 0xff, mode = (data >> 8) & 3, dbl = (data >> 10) & 1;
  unsigned step = (data >> 11) & 1 && n == 3 ? 4 : n; /* vstorea: 3-vectors step as 4 */
  uint64_t addr = arg[n + 1] + arg[n] * step * 2;
  for (unsigned i = 0; i < n; i++) {
    uint16_t *p = lane_mem(ln, addr + 2u * i, 2, 1);
    if (!p) return;
    uint16_t h = float_to_half(dbl ? f64(arg[i]) : (double)f32(arg[i]), (int)mode);
    memcpy(p, &h, 2);
  }
}

/* async copies: every work-item copies elements lid, lid + S, ... (for the
 * checkers, on behalf of the whole work-group: which work-item copies which
 * element is the implementation's choice) */
static void async_copy(struct simt_lane *ln, uint64_t dst, uint64_t src, uint64_t n, uint64_t sz,
                       uint64_t dstride, uint64_t sstride) {
  struct simt_cu *cu = ln->cu;
  uint64_t lid = (uint64_t)ln->w->index * cu->run->W + ln->lane;
  for (uint64_t e = lid; e < n; e += cu->nitems) {
    uint8_t *d = simt_mem_range(cu, ln->w, ln->lane, ln->pc, dst + e * dstride * sz, sz,
                                SIMT_ACC_WRITE | SIMT_ACC_GROUP);
    if (!d) return;
    uint8_t *s = simt_mem_range(cu, ln->w, ln->lane, ln->pc, src + e * sstride * sz, sz,
                                SIMT_ACC_READ | SIMT_ACC_GROUP);
    if (!s) return;
    memmove(d, s, sz);
  }
}
static void bi_async_copy(BI_ARGS) {
  async_copy(ln, arg[0], arg[1], arg[2], data, 1, 1);
  res[0] = 1;
}
/* data: element bytes; bit 31 set when the destination is global (strided
 * side is the destination then). */
static void bi_async_strided(BI_ARGS) {
  uint64_t sz = data & 0xffff;
  if (data >> 31)
    async_copy(ln, arg[0], arg[1], arg[2], sz, arg[3], 1);
  else
    async_copy(ln, arg[0], arg[1], arg[2], sz, 1, arg[3]);
  res[0] = 1;
}

/* ---- printf ---- */

/* Reads the NUL-terminated string at addr (at most max bytes) into buf. */
static bool read_str(struct simt_lane *ln, uint64_t addr, char *buf, size_t max) {
  size_t n = 0;
  for (; n + 1 < max; n++) {
    char *p = simt_mem_range(ln->cu, ln->w, ln->lane, ln->pc, addr + n, 1, 0);
    if (!p) return false;
    buf[n] = *p;
    if (!*p) return true;
  }
  buf[n] = 0;
  return true;
}

struct out {
  char *s;
  size_t n, cap;
};
static void put(struct out *o, const char *s, size_t n) {
  if (o->n + n + 1 > o->cap) {
    size_t cap = (o->n + n + 1) * 2;
    char *ns = realloc(o->s, cap);
    if (!ns) return;
    o->s = ns;
    o->cap = cap;
  }
  memcpy(o->s + o->n, s, n);
  o->n += n;
  o->s[o->n] = 0;
}

static void put_one(struct simt_lane *ln, struct out *o, const char *spec, char conv, int len,
                    uint64_t v, bool is_vec) {
  char buf[512];
  int k = 0;
  /* spec holds flags/width/precision, without length modifier or conversion */
  char f[64];
  switch (conv) {
  case 'd':
  case 'i': {
    int64_t x = len == 1 ? (int8_t)v : len == 2 ? (int16_t)v : len == 8 ? (int64_t)v : (int32_t)v;
    snprintf(f, sizeof(f), "%%%slld", spec);
    k = snprintf(buf, sizeof(buf), f, (long long)x);
    break;
  }
  case 'u':
  case 'o':
  case 'x':
  case 'X': {
    uint64_t x = len == 1 ? (uint8_t)v : len == 2 ? (uint16_t)v : len == 8 ? v : (uint32_t)v;
    snprintf(f, sizeof(f), "%%%sll%c", spec, conv);
    k = snprintf(buf, sizeof(buf), f, (unsigned long long)x);
    break;
  }
  case 'c':
    snprintf(f, sizeof(f), "%%%sc", spec);
    k = snprintf(buf, sizeof(buf), f, (int)(unsigned char)v);
    break;
  case 'p': k = snprintf(buf, sizeof(buf), "0x%" PRIx64, v); break;
  case 's': {
    char str[400];
    if (!read_str(ln, v, str, sizeof(str))) return;
    snprintf(f, sizeof(f), "%%%ss", spec);
    k = snprintf(buf, sizeof(buf), f, str);
    break;
  }
  default: { /* floating */
    double x = is_vec ? (len == 2   ? half_to_float((uint16_t)v)
                         : len == 8 ? f64(v)
                                    : f32(v))
                      : f64(v);
    snprintf(f, sizeof(f), "%%%s%c", spec, conv);
    k = snprintf(buf, sizeof(buf), f, x);
    break;
  }
  }
  if (k > 0) put(o, buf, (size_t)k < sizeof(buf) ? (size_t)k : sizeof(buf) - 1);
}

/* assert(cond) failed (compiler/include/assert.h): a device exception with
 * the condition's text; file and line come from the call's line table. The
 * debugger (simt_debug.c) turns it into a stop the work-item resumes from. */
static void bi_assert_fail(BI_ARGS) {
  BI_UNUSED;
  char cond[256];
  if (!read_str(ln, arg[0], cond, sizeof(cond))) return;
  simt_fault(ln->cu, ln->w, ln->lane, ln->pc, LSI_TRAP_ASSERT, 0, "Assertion `%s' failed", cond);
}

static void bi_printf(BI_ARGS) {
  char fmt[1024];
  res[0] = (uint64_t)(uint32_t)-1;
  if (!read_str(ln, arg[0], fmt, sizeof(fmt))) return;
  struct out o = {0};
  unsigned ai = 1;
  for (const char *p = fmt; *p;) {
    if (*p != '%') {
      const char *q = strchr(p, '%');
      size_t n = q ? (size_t)(q - p) : strlen(p);
      put(&o, p, n);
      p += n;
      continue;
    }
    if (p[1] == '%') {
      put(&o, "%", 1);
      p += 2;
      continue;
    }
    const char *q = p + 1;
    char spec[32];
    size_t sn = 0;
    while (*q && strchr("-+ #0", *q) && sn < 8)
      spec[sn++] = *q++;
    while (*q && (*q == '.' || (*q >= '0' && *q <= '9')) && sn < 24)
      spec[sn++] = *q++;
    spec[sn] = 0;
    unsigned vn = 0;
    if (*q == 'v') {
      q++;
      while (*q >= '0' && *q <= '9')
        vn = vn * 10 + (unsigned)(*q++ - '0');
    }
    int len = 4;
    if (q[0] == 'h' && q[1] == 'h') {
      len = 1;
      q += 2;
    } else if (q[0] == 'h' && q[1] == 'l') {
      len = 4;
      q += 2;
    } else if (q[0] == 'h') {
      len = 2;
      q++;
    } else if (q[0] == 'l') {
      len = 8;
      q++;
    }
    char conv = *q ? *q++ : 0;
    if (!conv) break;
    unsigned count = vn ? vn : 1;
    for (unsigned e = 0; e < count; e++) {
      if (ai >= nargs) break;
      if (e) put(&o, ",", 1);
      put_one(ln, &o, spec, conv, len, arg[ai++], vn != 0);
      if (ln->cu->faulted) {
        free(o.s);
        return;
      }
    }
    p = q;
  }
  if (o.n) simt_output(ln->cu->run, o.s, o.n);
  free(o.s);
  res[0] = 0;
}

enum lsi_builtin_role lsi_builtin_role(const struct lsi_builtin *bi) {
  if (bi->fn == bi_vload) return LSI_ROLE_VLOAD;
  if (bi->fn == bi_vload_half) return LSI_ROLE_VLOAD_HALF;
  if (bi->fn == bi_vstore) return LSI_ROLE_VSTORE;
  if (bi->fn == bi_vstore_half) return LSI_ROLE_VSTORE_HALF;
  if (bi->fn == bi_async_copy || bi->fn == bi_async_strided) return LSI_ROLE_ASYNC;
  if (bi->fn == bx_shuffle || bi->fn == bx_shuffle2) return LSI_ROLE_SHUFFLE;
  if (bi->wfn == bw_broadcast) return LSI_ROLE_BCAST;
  if (bi->wfn == bw_reduce || bi->wfn == bw_any || bi->wfn == bw_all) return LSI_ROLE_SG_ALL;
  if (bi->wfn == bw_scan_incl || bi->wfn == bw_scan_excl) return LSI_ROLE_SG_SCAN;
  if ((bi->flags & LSI_BI_ENQUEUE) || bi->fn == bq_subgroup_query || bi->fn == bq_ndrange ||
      bi->fn == bq_capture_profiling || bi->fn == bq_retain_event || bi->fn == bq_release_event ||
      bi->fn == bq_create_user_event || bi->fn == bq_set_user_event_status ||
      bi->fn == bq_is_valid_event)
    return LSI_ROLE_QUEUE;
  return LSI_ROLE_OTHER;
}

/* ---- pass 2: the table ---- */
#define BI(name, nres, nargs, flags, data, fn) {name, nres, nargs, flags, data, fn, NULL},
#define BW(name, nres, nargs, flags, data, fn)                                                     \
  {name, nres, nargs, (flags) | LSI_BI_WARP, data, NULL, fn},
#define SG_T(stem, fn, op, t, ty) BW(#stem #t, 1, 1, 0, (ty) | ((op) << 4), fn)
#define SGOP(stem, fn, op)                                                                         \
  SG_T(stem, fn, op, i, BX_I32)                                                                    \
  SG_T(stem, fn, op, j, BX_U32)                                                                    \
  SG_T(stem, fn, op, l, BX_I64)                                                                    \
  SG_T(stem, fn, op, m, BX_U64) SG_T(stem, fn, op, f, BX_F32) SG_T(stem, fn, op, d, BX_F64)
#define SGB(stem)                                                                                  \
  BW(#stem "ij", 1, 2, 0, 0, bw_broadcast)                                                         \
  BW(#stem "jj", 1, 2, 0, 0, bw_broadcast)                                                         \
  BW(#stem "lj", 1, 2, 0, 0, bw_broadcast)                                                         \
  BW(#stem "mj", 1, 2, 0, 0, bw_broadcast)                                                         \
  BW(#stem "fj", 1, 2, 0, 0, bw_broadcast) BW(#stem "dj", 1, 2, 0, 0, bw_broadcast)
#define BG(name, nres, nargs, data, fn)                                                            \
  {name, nres, nargs, LSI_BI_BARRIER | LSI_BI_GROUP, data, NULL, NULL, fn},
#define WG_T(stem, fn, op, t, ty) BG(#stem #t, 1, 1, (ty) | ((op) << 4), fn)
#define WGOP(stem, fn, op)                                                                         \
  WG_T(stem, fn, op, i, BX_I32)                                                                    \
  WG_T(stem, fn, op, j, BX_U32)                                                                    \
  WG_T(stem, fn, op, l, BX_I64)                                                                    \
  WG_T(stem, fn, op, m, BX_U64) WG_T(stem, fn, op, f, BX_F32) WG_T(stem, fn, op, d, BX_F64)
#define WGB_T(stem, t)                                                                             \
  BG(#stem #t "m", 1, 2, 1, bg_broadcast)                                                          \
  BG(#stem #t "mm", 1, 3, 2, bg_broadcast) BG(#stem #t "mmm", 1, 4, 3, bg_broadcast)
#define WGB(stem)                                                                                  \
  WGB_T(stem, i) WGB_T(stem, j) WGB_T(stem, l) WGB_T(stem, m) WGB_T(stem, f) WGB_T(stem, d)
#define ISEL(t, ct, bits) BI("_Z6select" #t #t #ct, 1, 3, 0, bits, bx_select_i)
#define SH1(x, n, mv, m, nm)                                                                       \
  BI("_Z7shuffle" x mv, m, n + m, 0, n | (m << 8), bx_shuffle)                                     \
  BI("_Z8shuffle2" x "S_" mv, m, 2 * n + m, 0, n | (m << 8), bx_shuffle2)
#define SH_ROW(t, mt, n)                                                                           \
  SH1("Dv" #n "_" #t, n, "Dv2_" #mt, 2, 0)                                                         \
  SH1("Dv" #n "_" #t, n, "Dv4_" #mt, 4, 0)                                                         \
  SH1("Dv" #n "_" #t, n, "Dv8_" #mt, 8, 0) SH1("Dv" #n "_" #t, n, "Dv16_" #mt, 16, 0)
#define SHUF_DIFF(t, mt)  SH_ROW(t, mt, 2) SH_ROW(t, mt, 4) SH_ROW(t, mt, 8) SH_ROW(t, mt, 16)
#define SHS(t, n, m, sub) SH1("Dv" #n "_" #t, n, sub, m, 0)
#define SHUF_SAME(t)                                                                               \
  SHS(t, 2, 2, "S_")                                                                               \
  SHS(t, 2, 4, "Dv4_" #t)                                                                          \
  SHS(t, 2, 8, "Dv8_" #t)                                                                          \
  SHS(t, 2, 16, "Dv16_" #t)                                                                        \
  SHS(t, 4, 2, "Dv2_" #t)                                                                          \
  SHS(t, 4, 4, "S_")                                                                               \
  SHS(t, 4, 8, "Dv8_" #t)                                                                          \
  SHS(t, 4, 16, "Dv16_" #t)                                                                        \
  SHS(t, 8, 2, "Dv2_" #t)                                                                          \
  SHS(t, 8, 4, "Dv4_" #t)                                                                          \
  SHS(t, 8, 8, "S_")                                                                               \
  SHS(t, 8, 16, "Dv16_" #t)                                                                        \
  SHS(t, 16, 2, "Dv2_" #t) SHS(t, 16, 4, "Dv4_" #t) SHS(t, 16, 8, "Dv8_" #t) SHS(t, 16, 16, "S_")
#define PREF(t)                                                                                    \
  BI("_Z8prefetchPU3AS1K" #t "m", 0, 2, 0, 0, bx_prefetch)                                         \
  BI("_Z8prefetchPU3AS1KDv2_" #t "m", 0, 2, 0, 0, bx_prefetch)                                     \
  BI("_Z8prefetchPU3AS1KDv3_" #t "m", 0, 2, 0, 0, bx_prefetch)                                     \
  BI("_Z8prefetchPU3AS1KDv4_" #t "m", 0, 2, 0, 0, bx_prefetch)                                     \
  BI("_Z8prefetchPU3AS1KDv8_" #t "m", 0, 2, 0, 0, bx_prefetch)                                     \
  BI("_Z8prefetchPU3AS1KDv16_" #t "m", 0, 2, 0, 0, bx_prefetch)
#define CV1(name, src, si, di, mode, sat)                                                          \
  BI(name #src, 1, 1, 0, (si) | ((di) << 4) | ((mode) << 8) | ((sat) << 12), bx_convert)
#define CVS(name, di, mode, sat)                                                                   \
  CV1(name, c, 0, di, mode, sat)                                                                   \
  CV1(name, h, 1, di, mode, sat)                                                                   \
  CV1(name, s, 2, di, mode, sat)                                                                   \
  CV1(name, t, 3, di, mode, sat)                                                                   \
  CV1(name, i, 4, di, mode, sat)                                                                   \
  CV1(name, j, 5, di, mode, sat)                                                                   \
  CV1(name, l, 6, di, mode, sat)                                                                   \
  CV1(name, m, 7, di, mode, sat) CV1(name, f, 8, di, mode, sat) CV1(name, d, 9, di, mode, sat)
#define CVM(l1, d, sfx, di, sat)                                                                   \
  CVS("_Z" l1 "convert_" #d sfx "_rte", di, 1, sat)                                                \
  CVS("_Z" l1 "convert_" #d sfx "_rtz", di, 2, sat)                                                \
  CVS("_Z" l1 "convert_" #d sfx "_rtp", di, 3, sat)                                                \
  CVS("_Z" l1 "convert_" #d sfx "_rtn", di, 4, sat)
#define CVTF(d, l0, l1, di) CVS("_Z" l0 "convert_" #d, di, 0, 0) CVM(l1, d, "", di, 0)
#define CVTI(d, l0, l1, l2, di)                                                                    \
  CVTF(d, l0, l1, di) CVS("_Z" l1 "convert_" #d "_sat", di, 0, 1) CVM(l2, d, "_sat", di, 1)
#define GEOD(vec, N)                                                                               \
  BI("_Z3dot" #vec "S_", 1, 2 * N, 0, N, bx_dot_d)                                                 \
  BI("_Z6length" #vec, 1, N, 0, N, bx_length_d)                                                    \
  BI("_Z8distance" #vec "S_", 1, 2 * N, 0, N, bx_distance_d)                                       \
  BI("_Z9normalize" #vec, N, N, 0, N, bx_normalize_d)
#define DPTR(stem, fn, ptr) BI(#stem "dP" #ptr, 1, 2, LSI_BI_MEM, 0, fn)
#define WI(stem, sreg)      BI(#stem "j", 1, 1, 0, sreg, bi_wi_dim)
#define WI0(name, sreg)     BI(name, 1, 0, 0, sreg, bi_wi0)
#define FPAIR(stem, sf, sd, nres, nargs)                                                           \
  BI(#stem sf, nres, nargs, 0, 0, bi_##stem##_f) BI(#stem sd, nres, nargs, 0, 0, bi_##stem##_d)
#define F1(stem, ff, fd)   FPAIR(stem, "f", "d", 1, 1)
#define F2(stem, ff, fd)   FPAIR(stem, "ff", "dd", 1, 2)
#define F3(stem, ff, fd)   FPAIR(stem, "fff", "ddd", 1, 3)
#define FI(stem, ff, fd)   FPAIR(stem, "fi", "di", 1, 2)
#define FTOI(stem, ff, fd) FPAIR(stem, "f", "d", 1, 1)
#define R1(stem, ff, fd)   FPAIR(stem, "f", "d", 1, 1)
#define R2(stem, ff, fd)   FPAIR(stem, "ff", "dd", 1, 2)
#define ITYPES(stem, k, n, rep)                                                                    \
  BI(#stem rep(c), 1, n, 0, 8 | 256, bi_##stem##_i)                                                \
  BI(#stem rep(h), 1, n, 0, 8, bi_##stem##_i)                                                      \
  BI(#stem rep(s), 1, n, 0, 16 | 256, bi_##stem##_i)                                               \
  BI(#stem rep(t), 1, n, 0, 16, bi_##stem##_i)                                                     \
  BI(#stem rep(i), 1, n, 0, 32 | 256, bi_##stem##_i)                                               \
  BI(#stem rep(j), 1, n, 0, 32, bi_##stem##_i)                                                     \
  BI(#stem rep(l), 1, n, 0, 64 | 256, bi_##stem##_i)                                               \
  BI(#stem rep(m), 1, n, 0, 64, bi_##stem##_i)
#define REP1(t)      #t
#define REP2(t)      #t #t
#define REP3(t)      #t #t #t
#define I1(stem, fn) ITYPES(stem, 1, 1, REP1)
#define I2(stem, fn) ITYPES(stem, 2, 2, REP2)
#define I3(stem, fn) ITYPES(stem, 3, 3, REP3)
#define GEO1(N)                                                                                    \
  BI("_Z3dotff", 1, 2, 0, 1, bi_dot)                                                               \
  BI("_Z6lengthf", 1, 1, 0, 1, bi_length)                                                          \
  BI("_Z8distanceff", 1, 2, 0, 1, bi_distance)                                                     \
  BI("_Z9normalizef", 1, 1, 0, 1, bi_normalize)                                                    \
  BI("_Z11fast_lengthf", 1, 1, 0, 1, bi_length)                                                    \
  BI("_Z13fast_distanceff", 1, 2, 0, 1, bi_distance)                                               \
  BI("_Z14fast_normalizef", 1, 1, 0, 1, bi_normalize)
#define GEO(vec, N)                                                                                \
  BI("_Z3dot" #vec "S_", 1, 2 * N, 0, N, bi_dot)                                                   \
  BI("_Z6length" #vec, 1, N, 0, N, bi_length)                                                      \
  BI("_Z8distance" #vec "S_", 1, 2 * N, 0, N, bi_distance)                                         \
  BI("_Z9normalize" #vec, N, N, 0, N, bi_normalize)                                                \
  BI("_Z11fast_length" #vec, 1, N, 0, N, bi_length)                                                \
  BI("_Z13fast_distance" #vec "S_", 1, 2 * N, 0, N, bi_distance)                                   \
  BI("_Z14fast_normalize" #vec, N, N, 0, N, bi_normalize)
#define VLOAD(stem, N)                                                                             \
  VL_GO(stem, N, c, 1)                                                                             \
  VL_GO(stem, N, h, 1)                                                                             \
  VL_GO(stem, N, s, 2)                                                                             \
  VL_GO(stem, N, t, 2)                                                                             \
  VL_GO(stem, N, i, 4)                                                                             \
  VL_GO(stem, N, j, 4)                                                                             \
  VL_GO(stem, N, l, 8) VL_GO(stem, N, m, 8) VL_GO(stem, N, f, 4) VL_GO(stem, N, d, 8)
#define VL_GO(stem, N, t, sz) BI(#stem "mPK" #t, N, 2, LSI_BI_MEM, N | (sz << 8), bi_vload)
#define VSTORE(stem, vec, N)                                                                       \
  VS_GO(stem, vec, N, c, 1)                                                                        \
  VS_GO(stem, vec, N, h, 1)                                                                        \
  VS_GO(stem, vec, N, s, 2)                                                                        \
  VS_GO(stem, vec, N, t, 2)                                                                        \
  VS_GO(stem, vec, N, i, 4)                                                                        \
  VS_GO(stem, vec, N, j, 4)                                                                        \
  VS_GO(stem, vec, N, l, 8)                                                                        \
  VS_GO(stem, vec, N, m, 8) VS_GO(stem, vec, N, f, 4) VS_GO(stem, vec, N, d, 8)
#define VS_GO(stem, vec, N, t, sz)                                                                 \
  BI(#stem #vec #t "mP" #t, 0, N + 2, LSI_BI_MEM, N | (sz << 8), bi_vstore)
#define VLOAD_HALF(stem, N, aligned)                                                               \
  BI(#stem "mPKDh", N, 2, LSI_BI_MEM, N | (aligned << 8), bi_vload_half)
#define VSTORE_HALF(stem, vec, N, mode, aligned)                                                   \
  VSH_AS(stem, vec, N, mode, aligned, f, 0) VSH_AS(stem, vec, N, mode, aligned, d, 1)
#define VSH_AS(stem, vec, N, mode, al, t, dbl)                                                     \
  BI(#stem #vec #t "mPDh", 0, N + 2, LSI_BI_MEM, VSH_D(N, mode, al, dbl), bi_vstore_half)
#define VSH_D(N, mode, al, dbl) (N | (mode << 8) | (dbl << 10) | (al << 11))
#define ASYNC(t1, t2, size)                                                                        \
  BI("_Z21async_work_group_copyPU3AS3" #t1 "PU3AS1K" #t2 "m9ocl_event", 1, 4, LSI_BI_MEM, size,    \
     bi_async_copy)                                                                                \
  BI("_Z21async_work_group_copyPU3AS1" #t1 "PU3AS3K" #t2 "m9ocl_event", 1, 4, LSI_BI_MEM, size,    \
     bi_async_copy)                                                                                \
  BI("_Z29async_work_group_strided_copyPU3AS3" #t1 "PU3AS1K" #t2 "mm9ocl_event", 1, 5, LSI_BI_MEM, \
     size, bi_async_strided)                                                                       \
  BI("_Z29async_work_group_strided_copyPU3AS1" #t1 "PU3AS3K" #t2 "mm9ocl_event", 1, 5, LSI_BI_MEM, \
     size | 0x80000000u, bi_async_strided)
#define ASYNC_T(t, size)                                                                           \
  ASYNC(t, t, size)                                                                                \
  ASYNC(Dv2_##t, S_, 2 * size)                                                                     \
  ASYNC(Dv3_##t, S_, 4 * size)                                                                     \
  ASYNC(Dv4_##t, S_, 4 * size) ASYNC(Dv8_##t, S_, 8 * size) ASYNC(Dv16_##t, S_, 16 * size)

#undef IMG_R
#undef IMG_S
#undef IMG_W
#undef IMG_D
#undef IMG_Q
#undef IMG_Q1
#define IMG_R(T, ty, nc, ic)       BIM_READS(T, ty, nc, ic)
#define IMG_S(T, ty, nc, ic, fc)   BIM_SAMPLED(T, ty, nc, ic, fc)
#define IMG_W(T, ty, nc, ic, vi)   BIM_WRITES(T, ty, nc, ic, vi)
#define IMG_D(T, ty, nc, ic, fc)   BIM_DEPTH(T, ty, nc, ic, fc)
#define IMG_Q(T, ty)               BIM_QUERIES(T, ty)
#define IMG_Q1(fn, T, ty, nres, q) BIM_Q3(fn, T, ty, nres, q)

const struct lsi_builtin lsi_builtins[] = {
#include "device/builtins.def"
};

#define NBUILTINS ((int)(sizeof(lsi_builtins) / sizeof(lsi_builtins[0])))

/* ---- lookup: a sorted index built once ---- */
static int *sorted;
static pthread_once_t sorted_once = PTHREAD_ONCE_INIT;

static int by_name(const void *a, const void *b) {
  return strcmp(lsi_builtins[*(const int *)a].name, lsi_builtins[*(const int *)b].name);
}
static void build_index(void) {
  sorted = malloc(sizeof(int) * NBUILTINS);
  if (!sorted) return;
  for (int i = 0; i < NBUILTINS; i++)
    sorted[i] = i;
  qsort(sorted, NBUILTINS, sizeof(int), by_name);
}

int lsi_builtin_lookup(const char *name) {
  pthread_once(&sorted_once, build_index);
  if (!name) return -1;
  if (!sorted) {
    for (int i = 0; i < NBUILTINS; i++)
      if (strcmp(lsi_builtins[i].name, name) == 0) return i;
    return -1;
  }
  int lo = 0, hi = NBUILTINS - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2, c = strcmp(lsi_builtins[sorted[mid]].name, name);
    if (c == 0) return sorted[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

int lsi_builtin_count(void) {
  return NBUILTINS;
}
const char *lsi_builtin_name(int id) {
  return id >= 0 && id < NBUILTINS ? lsi_builtins[id].name : NULL;
}
unsigned lsi_builtin_nres(int id) {
  return id >= 0 && id < NBUILTINS ? lsi_builtins[id].nres : 0;
}
unsigned lsi_builtin_nargs(int id) {
  return id >= 0 && id < NBUILTINS ? lsi_builtins[id].nargs : 0;
}
unsigned lsi_builtin_flags(int id) {
  return id >= 0 && id < NBUILTINS ? lsi_builtins[id].flags : 0;
}
