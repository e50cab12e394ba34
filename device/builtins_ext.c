/*
 * builtins_ext.c - more OpenCL C builtins in C (see device/builtins_ext.h and
 * the calling convention in device/builtins.h): sub-group collectives that
 * see the whole warp at once, integer select/bitselect, shuffle/shuffle2,
 * prefetch, convert_* with every rounding mode and saturation, and the
 * double forms of the geometric and fract/frexp/modf/sincos functions.
 * Memory goes through the SIMT engine's checks; nothing here keeps state.
 */
#include "device/builtins_ext.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "device/builtins_math.h"
#include "device/simt_int.h"

static inline uint64_t mask_bits(unsigned bits) {
  return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

/* ---- sub-group collectives: the sub-group is the warp, its members the
 * active lanes, in lane order ---- */

uint64_t bx_combine(unsigned ty, unsigned op, uint64_t a, uint64_t b) {
  switch (ty) {
  case BX_I32: {
    int32_t x = (int32_t)a, y = (int32_t)b;
    int32_t r = op == 0   ? (int32_t)((uint32_t)x + (uint32_t)y)
                : op == 1 ? (x < y ? x : y)
                          : (x > y ? x : y);
    return (uint32_t)r;
  }
  case BX_U32: {
    uint32_t x = (uint32_t)a, y = (uint32_t)b;
    return op == 0 ? (uint32_t)(x + y) : op == 1 ? (x < y ? x : y) : (x > y ? x : y);
  }
  case BX_I64: {
    int64_t x = (int64_t)a, y = (int64_t)b;
    return op == 0 ? a + b : (uint64_t)(op == 1 ? (x < y ? x : y) : (x > y ? x : y));
  }
  case BX_U64: return op == 0 ? a + b : op == 1 ? (a < b ? a : b) : (a > b ? a : b);
  case BX_F32: {
    float x = f32(a), y = f32(b);
    return uf32(op == 0 ? x + y : op == 1 ? fminf(x, y) : fmaxf(x, y));
  }
  default: {
    double x = f64(a), y = f64(b);
    return uf64(op == 0 ? x + y : op == 1 ? fmin(x, y) : fmax(x, y));
  }
  }
}

/* The identity of op for ty (the first value of an exclusive scan). */
uint64_t bx_identity(unsigned ty, unsigned op) {
  static const uint64_t id[6][3] = {
      {0, 0x7fffffffu, 0x80000000u},
      {0, 0xffffffffu, 0},
      {0, (uint64_t)INT64_MAX, (uint64_t)INT64_MIN},
      {0, UINT64_MAX, 0},
      {0, 0x7f800000u, 0xff800000u},
      {0, UINT64_C(0x7ff0000000000000), UINT64_C(0xfff0000000000000)},
  };
  return id[ty % 6][op % 3];
}

void bw_broadcast(BW_ARGS) {
  (void)ln;
  unsigned first = (unsigned)__builtin_ctzll(act);
  unsigned src = (unsigned)(arg[1][first] % W);
  uint64_t v = arg[0][src];
  (void)data;
  for (uint64_t m = act; m; m &= m - 1)
    res[0][__builtin_ctzll(m)] = v;
}

void bw_reduce(BW_ARGS) {
  (void)ln, (void)W;
  unsigned ty = data & 15, op = (data >> 4) & 15;
  uint64_t acc = 0;
  int have = 0;
  for (uint64_t m = act; m; m &= m - 1) {
    uint64_t v = arg[0][__builtin_ctzll(m)];
    acc = have ? bx_combine(ty, op, acc, v) : v;
    have = 1;
  }
  for (uint64_t m = act; m; m &= m - 1)
    res[0][__builtin_ctzll(m)] = acc;
}

static void scan(uint64_t act, unsigned W, uint64_t *const *res, const uint64_t *const *arg,
                 uint32_t data, int inclusive) {
  unsigned ty = data & 15, op = (data >> 4) & 15;
  uint64_t out[SIMT_MAX_W], acc = bx_identity(ty, op);
  for (uint64_t m = act; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    uint64_t next = bx_combine(ty, op, acc, arg[0][i]);
    out[i] = inclusive ? next : acc;
    acc = next;
  }
  (void)W;
  for (uint64_t m = act; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    res[0][i] = out[i];
  }
}
void bw_scan_incl(BW_ARGS) {
  (void)ln;
  scan(act, W, res, arg, data, 1);
}
void bw_scan_excl(BW_ARGS) {
  (void)ln;
  scan(act, W, res, arg, data, 0);
}

void bw_any(BW_ARGS) {
  (void)ln, (void)W, (void)data;
  uint64_t r = 0;
  for (uint64_t m = act; m; m &= m - 1)
    r |= (uint32_t)arg[0][__builtin_ctzll(m)] != 0;
  for (uint64_t m = act; m; m &= m - 1)
    res[0][__builtin_ctzll(m)] = r;
}
void bw_all(BW_ARGS) {
  (void)ln, (void)W, (void)data;
  uint64_t r = 1;
  for (uint64_t m = act; m; m &= m - 1)
    r &= (uint32_t)arg[0][__builtin_ctzll(m)] != 0;
  for (uint64_t m = act; m; m &= m - 1)
    res[0][__builtin_ctzll(m)] = r;
}

/* ---- select, bitselect, shuffle, prefetch ---- */

void bx_select_i(BX_ARGS) {
  (void)ln, (void)nargs;
  res[0] = (arg[2] & mask_bits(data)) ? arg[1] : arg[0];
}
void bx_bitselect_i(BX_ARGS) {
  (void)ln, (void)nargs;
  res[0] = ((arg[0] & ~arg[2]) | (arg[1] & arg[2])) & mask_bits(data);
}
void bx_shuffle(BX_ARGS) {
  (void)ln, (void)nargs;
  unsigned n = data & 0xff, m = (data >> 8) & 0xff;
  for (unsigned i = 0; i < m; i++)
    res[i] = arg[arg[n + i] % n];
}
void bx_shuffle2(BX_ARGS) {
  (void)ln, (void)nargs;
  unsigned n = data & 0xff, m = (data >> 8) & 0xff;
  for (unsigned i = 0; i < m; i++)
    res[i] = arg[arg[2 * n + i] % (2 * n)];
}
void bx_prefetch(BX_ARGS) {
  (void)ln, (void)res, (void)arg, (void)nargs, (void)data; /* a hint: nothing to do */
}

/* ---- conversions ---- */

static const struct {
  unsigned bits;
  int sgn, fp;
} cvt_types[10] = {{8, 1, 0},  {8, 0, 0},  {16, 1, 0}, {16, 0, 0}, {32, 1, 0},
                   {32, 0, 0}, {64, 1, 0}, {64, 0, 0}, {32, 1, 1}, {64, 1, 1}};

/* Rounds x (exact in long double) to float or double in mode (0/1 rte, 2
 * rtz, 3 rtp, 4 rtn). */
static double round_to(long double x, int to_float, unsigned mode) {
  double r = to_float ? (double)(float)x : (double)x;
  if (mode <= 1 || x != x || (long double)r == x) return r;
  int up = mode == 3 || (mode == 2 && x < 0);
  if (up && (long double)r < x)
    r = to_float ? (double)nextafterf((float)r, INFINITY) : nextafter(r, INFINITY);
  else if (!up && (long double)r > x)
    r = to_float ? (double)nextafterf((float)r, -INFINITY) : nextafter(r, -INFINITY);
  return r;
}

void bx_convert(BX_ARGS) {
  (void)ln, (void)nargs;
  unsigned s = data & 15, d = (data >> 4) & 15, mode = (data >> 8) & 15, sat = (data >> 12) & 1;
  uint64_t v = arg[0];
  long double x;
  if (cvt_types[s].fp) {
    x = cvt_types[s].bits == 32 ? (long double)f32(v) : (long double)f64(v);
  } else if (cvt_types[s].sgn) {
    unsigned b = cvt_types[s].bits;
    int64_t iv = b == 64 ? (int64_t)v : (int64_t)(v << (64 - b)) >> (64 - b);
    x = (long double)iv;
  } else {
    x = (long double)(v & mask_bits(cvt_types[s].bits));
  }
  if (cvt_types[d].fp) {
    res[0] =
        cvt_types[d].bits == 32 ? uf32((float)round_to(x, 1, mode)) : uf64(round_to(x, 0, mode));
    return;
  }
  unsigned b = cvt_types[d].bits;
  if (!cvt_types[s].fp && !sat) { /* integer to integer: modulo 2^bits */
    uint64_t iv = cvt_types[s].sgn ? (uint64_t)(int64_t)x : v;
    res[0] = iv & mask_bits(b);
    return;
  }
  if (cvt_types[s].fp) { /* to integer: the default is round toward zero */
    switch (mode) {
    case 1: x = rintl(x); break;
    case 3: x = ceill(x); break;
    case 4: x = floorl(x); break;
    default: x = truncl(x); break;
    }
  }
  long double lo = cvt_types[d].sgn ? -ldexpl(1.0L, (int)b - 1) : 0.0L;
  long double hi = cvt_types[d].sgn ? ldexpl(1.0L, (int)b - 1) - 1 : ldexpl(1.0L, (int)b) - 1;
  if (x != x)
    x = 0;
  else if (x < lo)
    x = lo;
  else if (x > hi)
    x = hi;
  uint64_t r = cvt_types[d].sgn ? (uint64_t)(int64_t)x : (uint64_t)x;
  res[0] = r & mask_bits(b);
}

/* ---- doubles: geometric, fract, frexp, modf, sincos ---- */

static double ddot(const uint64_t *a, const uint64_t *b, unsigned n) {
  double s = 0;
  for (unsigned i = 0; i < n; i++)
    s = fma(f64(a[i]), f64(b[i]), s);
  return s;
}
void bx_dot_d(BX_ARGS) {
  (void)ln, (void)nargs;
  res[0] = uf64(ddot(arg, arg + data, data));
}
void bx_length_d(BX_ARGS) {
  (void)ln, (void)nargs;
  res[0] = uf64(bm_length_d(arg, data));
}
void bx_distance_d(BX_ARGS) {
  uint64_t d[4];
  for (unsigned i = 0; i < data && i < 4; i++)
    d[i] = uf64(f64(arg[i]) - f64(arg[data + i]));
  bx_length_d(ln, res, d, nargs, data);
}
void bx_normalize_d(BX_ARGS) {
  (void)ln, (void)nargs;
  bm_normalize_d(res, arg, data);
}
void bx_cross_d(BX_ARGS) {
  (void)ln, (void)nargs;
  const uint64_t *a = arg, *b = arg + data;
  double x = f64(a[1]) * f64(b[2]) - f64(a[2]) * f64(b[1]);
  double y = f64(a[2]) * f64(b[0]) - f64(a[0]) * f64(b[2]);
  double z = f64(a[0]) * f64(b[1]) - f64(a[1]) * f64(b[0]);
  res[0] = uf64(x), res[1] = uf64(y), res[2] = uf64(z);
  if (data == 4) res[3] = 0;
}
static void *lane_mem(struct simt_lane *ln, uint64_t addr, uint64_t size) {
  void *p = simt_mem(ln->cu, ln->w, ln->lane, ln->pc, addr, size, 1);
  if (ln->cu->run->check && p && p != ln->cu->sink)
    simt_check_access(ln->cu, ln->w, ln->lane, ln->pc, addr, size, SIMT_ACC_WRITE);
  return p;
}
void bx_fract_d(BX_ARGS) {
  (void)nargs, (void)data;
  double x = f64(arg[0]), fl = floor(x);
  double fr = fmin(x - fl, 0x1.fffffffffffffp-1);
  if (x != x)
    fr = x;
  else if (isinf(x) || x == 0) /* as bi_fract_f: fract(±inf) = fract(±0) = ±0 */
    fr = copysign(0.0, x);
  double *p = lane_mem(ln, arg[1], 8);
  if (!p) return;
  memcpy(p, &fl, 8);
  res[0] = uf64(fr);
}
void bx_frexp_d(BX_ARGS) {
  (void)nargs, (void)data;
  int e = 0;
  double m = frexp(f64(arg[0]), &e);
  int32_t *p = lane_mem(ln, arg[1], 4);
  if (!p) return;
  int32_t e32 = e;
  memcpy(p, &e32, 4);
  res[0] = uf64(m);
}
void bx_modf_d(BX_ARGS) {
  (void)nargs, (void)data;
  double ip;
  double fr = modf(f64(arg[0]), &ip);
  double *p = lane_mem(ln, arg[1], 8);
  if (!p) return;
  memcpy(p, &ip, 8);
  res[0] = uf64(fr);
}
void bx_sincos_d(BX_ARGS) {
  (void)nargs, (void)data;
  double x = f64(arg[0]), s = sin(x), c = cos(x);
  double *p = lane_mem(ln, arg[1], 8);
  if (!p) return;
  memcpy(p, &c, 8);
  res[0] = uf64(s);
}

/* ---- lgamma_r, remquo, nan ---- */

/* lgamma(x) and the sign of gamma(x): gamma(±0) = ±inf gives ±1; +1 at
 * the other poles (negative integers) and for NaN, as C's signgam. */
static double lgamma_sign(double x, int *sign) {
  *sign = 1;
  if (x != x || isinf(x)) return x != x ? x : INFINITY;
  if (x == 0) *sign = signbit(x) ? -1 : 1;
  if (x <= 0 && floor(x) == x) return INFINITY;
  if (x < 0 && fmod(floor(x), 2.0) != 0) *sign = -1; /* gamma < 0 on (-2k-1, -2k) */
  return bm_lgamma_d(x); /* no libm signgam: lanes run on several threads */
}
static int store_i32(struct simt_lane *ln, uint64_t addr, int32_t v) {
  int32_t *p = lane_mem(ln, addr, 4);
  if (!p) return 0;
  memcpy(p, &v, 4);
  return 1;
}
void bx_lgamma_r_f(BX_ARGS) {
  (void)nargs, (void)data;
  int sign;
  float r = (float)lgamma_sign(f32(arg[0]), &sign);
  if (store_i32(ln, arg[1], sign)) res[0] = uf32(r);
}
void bx_lgamma_r_d(BX_ARGS) {
  (void)nargs, (void)data;
  int sign;
  double r = lgamma_sign(f64(arg[0]), &sign);
  if (store_i32(ln, arg[1], sign)) res[0] = uf64(r);
}

/*
 * remquo: the remainder of remainder(x, y) and the low 7 bits of the
 * quotient rounded to nearest (the specification asks for at least 7), with
 * the sign of x / y. Exact: |x| is reduced modulo 128|y| (fmodl is exact),
 * then the quotient's bits are taken one by one (each subtraction is exact
 * by Sterbenz's lemma). long double holds 128|y| and |y| / 2 of every double
 * exactly.
 */
static long double remquo_ld(long double x, long double y, int32_t *quo) {
  *quo = 0;
  if (x != x || y != y || isinf(x) || y == 0) return NAN;
  long double a = fabsl(x), b = fabsl(y);
  if (isinf(b)) return x;
  a = fmodl(a, 128 * b);
  int32_t q = 0;
  for (int bit = 6; bit >= 0; bit--) {
    long double s = ldexpl(b, bit);
    if (a >= s) a -= s, q |= 1 << bit;
  }
  if (a > b / 2 || (a == b / 2 && (q & 1))) a -= b, q++;
  q &= 127;
  *quo = (signbit(x) != signbit(y)) ? -q : q;
  return signbit(x) ? -a : a;
}
void bx_remquo_f(BX_ARGS) {
  (void)nargs, (void)data;
  int32_t q;
  float r = (float)remquo_ld(f32(arg[0]), f32(arg[1]), &q);
  if (store_i32(ln, arg[2], q)) res[0] = uf32(r);
}
void bx_remquo_d(BX_ARGS) {
  (void)nargs, (void)data;
  int32_t q;
  double r = (double)remquo_ld(f64(arg[0]), f64(arg[1]), &q);
  if (store_i32(ln, arg[2], q)) res[0] = uf64(r);
}

/* nan(nancode): a quiet NaN carrying nancode in its payload bits. */
void bx_nan_f(BX_ARGS) {
  (void)ln, (void)nargs, (void)data;
  res[0] = UINT64_C(0x7fc00000) | (arg[0] & 0x3fffff);
}
void bx_nan_d(BX_ARGS) {
  (void)ln, (void)nargs, (void)data;
  res[0] = UINT64_C(0x7ff8000000000000) | (arg[0] & UINT64_C(0x7ffffffffffff));
}
