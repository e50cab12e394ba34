/*
 * test_kernels_int.c - end-to-end kernels for the integer, relational,
 * select, geometric, conversion, shuffle, vload/vstore (half included) and
 * async-copy builtins, and kernels that differ only in their constants,
 * each checked against a host reference in C. It must not relax a check to
 * make a kernel pass.
 */
#include <stdint.h>

#include "kharness.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

enum { N = 256 };
static int64_t lin[N];
static int32_t iin[N];

static void inputs(void) {
  static const int64_t sp[] = {0,
                               1,
                               -1,
                               127,
                               128,
                               255,
                               256,
                               -128,
                               -129,
                               32767,
                               32768,
                               -32769,
                               65535,
                               0x7fffffff,
                               0xffffffffLL,
                               0x7ffffffffffffffLL,
                               -0x7fffffffffffffLL,
                               0x8000000000000001ULL,
                               0x00ff00ff00ff00ffLL,
                               100,
                               -100,
                               3,
                               -7,
                               0x12345678,
                               0x80000001};
  uint64_t s = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < N; i++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    int64_t v = (int64_t)(s ^ (s >> 29));
    if (i % 4 == 1) v >>= 40;
    if (i % 4 == 2) v = (int8_t)v;
    lin[i] = i < (int)(sizeof sp / sizeof *sp) ? sp[i] : v;
    /* neither INT_MIN nor LONG_MIN: their negation and division by -1 are
     * undefined in OpenCL C as in C */
    if ((int32_t)lin[i] == INT32_MIN) lin[i] += 1;
    if (lin[i] == INT64_MIN) lin[i] += 1;
    iin[i] = (int32_t)lin[i];
  }
}
static int oth(int g) {
  return (g * 37 + 11) % N;
}

static int64_t clampl(i128 v, i128 lo, i128 hi) {
  return (int64_t)(v < lo ? lo : v > hi ? hi : v);
}

START_TEST(k_int_24) {
  static int32_t in[N], out[4 * N];
  for (int i = 0; i < N; i++)
    in[i] = iin[i];
  run_io("int_24", N, 64, in, sizeof in, out, sizeof out);
  for (int g = 0; g < N; g++) {
    int32_t a = in[g] >> 8, b = in[oth(g)] >> 8, c = in[(g + 5) % N];
    uint32_t ua = (uint32_t)in[g] >> 8, ub = (uint32_t)in[oth(g)] >> 8;
    int32_t want[4] = {(int32_t)(uint32_t)((int64_t)a * b), (int32_t)(uint32_t)((int64_t)a * b + c),
                       (int32_t)(ua * ub), (int32_t)(ua * ub + (uint32_t)c)};
    for (int j = 0; j < 4; j++)
      ck_assert_msg(out[4 * g + j] == want[j], "int_24 g %d form %d: %d want %d", g, j,
                    out[4 * g + j], want[j]);
  }
}
END_TEST

/* Runs kern over lin (N longs) and checks K results per item against ref. */
static void check_l(const char *kern, int K, void (*ref)(int g, int64_t a, int64_t b, int64_t *w)) {
  static int64_t out[16 * N];
  run_io(kern, N, 64, lin, sizeof lin, out, sizeof(int64_t) * K * N);
  for (int g = 0; g < N; g++) {
    int64_t w[16];
    ref(g, lin[g], lin[oth(g)], w);
    for (int j = 0; j < K; j++)
      ck_assert_msg(out[K * g + j] == w[j], "%s g %d form %d (a=%lld b=%lld): got %lld want %lld",
                    kern, g, j, (long long)lin[g], (long long)lin[oth(g)],
                    (long long)out[K * g + j], (long long)w[j]);
  }
}

static void ref_mulhi(int g, int64_t a, int64_t b, int64_t *w) {
  int32_t ia = (int32_t)a, ib = (int32_t)b;
  w[0] = (int32_t)(((int64_t)ia * ib) >> 32);
  w[1] = (uint32_t)(((uint64_t)(uint32_t)a * (uint32_t)b) >> 32);
  w[2] = (int64_t)(((i128)a * b) >> 64);
  w[3] = (int64_t)(uint64_t)(((u128)(uint64_t)a * (uint64_t)b) >> 64);
  w[4] = (int8_t)(((int)(int8_t)a * (int8_t)b) >> 8);
  w[5] = (int32_t)((uint32_t)w[0] + (uint32_t)(int32_t)(a >> 32));
}
START_TEST(k_int_mulhi) {
  check_l("int_mulhi", 6, ref_mulhi);
}
END_TEST

static uint64_t rotl(uint64_t x, unsigned s, unsigned bits) {
  uint64_t m = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
  x &= m;
  s %= bits;
  return s ? ((x << s) | (x >> (bits - s))) & m : x;
}
static int clzb(uint64_t x, int bits) {
  int n = 0;
  for (int i = bits - 1; i >= 0 && !((x >> i) & 1); i--)
    n++;
  return n;
}
static int ctzb(uint64_t x, int bits) {
  int n = 0;
  for (int i = 0; i < bits && !((x >> i) & 1); i++)
    n++;
  return n;
}
static void ref_bits(int g, int64_t sa, int64_t b, int64_t *w) {
  uint64_t x = (uint64_t)sa;
  int s = g % 70 - 3;
  w[0] = (int64_t)rotl(x, (uint8_t)s, 8);
  w[1] = (int64_t)rotl(x, (uint16_t)s, 16);
  w[2] = (int64_t)rotl(x, (uint32_t)s, 32);
  w[3] = (int64_t)rotl(x, (unsigned)((uint64_t)(int64_t)s % 64), 64);
  w[4] = clzb(x & 0xff, 8);
  w[5] = clzb(x & 0xffff, 16);
  w[6] = clzb(x & 0xffffffff, 32);
  w[7] = clzb(x, 64);
  w[8] = ctzb(x, 32);
  w[9] = ctzb(x, 64);
  w[10] = __builtin_popcount((uint32_t)x) + 100 * __builtin_popcount((uint8_t)x);
  w[11] = __builtin_popcountll(x);
}
START_TEST(k_int_bits) {
  check_l("int_bits", 12, ref_bits);
}
END_TEST

static void ref_sat(int g, int64_t a, int64_t b, int64_t *w) {
  w[0] = clampl((int8_t)a + (int8_t)b, -128, 127);
  w[1] = clampl((uint8_t)a + (uint8_t)b, 0, 255);
  w[2] = clampl((int16_t)a - (int16_t)b, -32768, 32767);
  w[3] = clampl((int)(uint16_t)a - (uint16_t)b, 0, 65535);
  w[4] = clampl((i128)(int32_t)a + (int32_t)b, INT32_MIN, INT32_MAX);
  w[5] = clampl((i128)(uint32_t)a - (uint32_t)b, 0, UINT32_MAX);
  w[6] = clampl((i128)a + b, INT64_MIN, INT64_MAX);
  w[7] = clampl((i128)a - b, INT64_MIN, INT64_MAX);
  u128 us = (u128)(uint64_t)a + (uint64_t)b;
  w[8] = (int64_t)(uint64_t)(us > UINT64_MAX ? UINT64_MAX : us);
  w[9] = clampl((i128)(int16_t)a * (int16_t)b + (int16_t)(a >> 16), -32768, 32767);
}
START_TEST(k_int_sat) {
  check_l("int_sat", 10, ref_sat);
}
END_TEST

static int64_t absd(i128 a, i128 b) {
  return (int64_t)(a > b ? a - b : b - a);
}
static void ref_avg(int g, int64_t a, int64_t b, int64_t *w) {
  w[0] = (int32_t)(((int64_t)(int32_t)a + (int32_t)b) >> 1);
  w[1] = (int32_t)(((int64_t)(int32_t)a + (int32_t)b + 1) >> 1);
  w[2] = (uint32_t)(((uint64_t)(uint32_t)a + (uint32_t)b) >> 1);
  w[3] = (uint8_t)(((int)(uint8_t)a + (uint8_t)b + 1) >> 1);
  w[4] = (int64_t)(((i128)a + b) >> 1);
  w[5] = (uint32_t)((int32_t)a < 0 ? -(int64_t)(int32_t)a : (int32_t)a);
  w[6] = (uint8_t)((int8_t)a < 0 ? -(int8_t)a : (int8_t)a);
  w[7] = (uint32_t)absd((int32_t)a, (int32_t)b);
  w[8] = (uint16_t)absd((int16_t)a, (int16_t)b);
  w[9] = absd(a, b);
}
START_TEST(k_int_avg) {
  check_l("int_avg", 10, ref_avg);
}
END_TEST

static void ref_upsample(int g, int64_t a, int64_t b, int64_t *w) {
  w[0] = (int16_t)(uint16_t)(((uint16_t)(uint8_t)(int8_t)a << 8) | (uint8_t)b);
  w[1] = (uint32_t)(((uint32_t)(uint16_t)a << 16) | (uint16_t)b);
  w[2] = (int64_t)(((uint64_t)(uint32_t)(int32_t)a << 32) | (uint32_t)b);
  w[3] = (int64_t)(((uint64_t)(uint32_t)a << 32) | (uint32_t)b);
  w[4] = (int32_t)a < (int32_t)b ? (int32_t)a : (int32_t)b;
  w[5] = (uint32_t)a > (uint32_t)b ? (uint32_t)a : (uint32_t)b;
  w[6] = clampl((int16_t)a, -100, 300);
  w[7] = clampl(a, -5000, 5000 + (b & 0xffff));
  w[8] = (int8_t)a < (int8_t)b ? (int8_t)a : (int8_t)b;
  w[9] = (uint8_t)a > (uint8_t)b ? (uint8_t)a : (uint8_t)b;
  w[10] = a < b ? a : b;
  w[11] = (int64_t)((uint64_t)a > (uint64_t)b ? (uint64_t)a : (uint64_t)b);
  w[12] = clampl((uint16_t)a, 100, 40000 + (b & 0xff));
}
START_TEST(k_int_upsample) {
  check_l("int_upsample", 13, ref_upsample);
}
END_TEST

static void ref_div(int g, int64_t a, int64_t b, int64_t *w) {
  if (b == 0) b = 7;
  int8_t cb = (int8_t)b ? (int8_t)b : 3;
  int16_t sb = (int16_t)b ? (int16_t)b : 3;
  int32_t ib = (int32_t)b ? (int32_t)b : 3;
  w[0] = (int8_t)a / cb;
  w[1] = (uint8_t)a % (uint8_t)(cb | 1);
  w[2] = (int16_t)a / sb;
  w[3] = (uint16_t)a / (uint16_t)(sb | 1);
  w[4] = (int32_t)a / ib;
  w[5] = (uint32_t)a % (uint32_t)ib;
  w[6] = a / b;
  w[7] = (int64_t)((uint64_t)a % (uint64_t)b);
  w[8] = ((int32_t)a >> (g & 31)) ^ (int64_t)((uint32_t)a >> ((g + 7) & 31));
  w[9] = (int64_t)(((uint64_t)a << (g & 63)) + ((uint64_t)a >> (g % 64)));
}
START_TEST(k_int_div) {
  check_l("int_div", 10, ref_div);
}
END_TEST

/* int_consts.cl's two kernels, whose code differs only in the values of
 * its constants, in turn with two sets of arguments: each must compute
 * with its own constants and this launch's arguments. */
START_TEST(k_int_consts) {
  enum { NI = 256, L = 64 };
  static const struct {
    const char *name;
    uint32_t mul, add;
  } ks[] = {{"consts_a", 12345u, 777u}, {"consts_b", 54321u, 999u}};
  static const struct {
    uint32_t v[4];
    uint64_t big;
  } as[] = {{{1, 2, 3, 4}, UINT64_C(0x123456789abcdef0)}, {{9, 70000, 11, 0xdeadbeef}, 1}};
  static uint32_t in[NI], got[NI];
  for (unsigned i = 0; i < NI; i++)
    in[i] = i * 2654435761u;
  for (unsigned r = 0; r < 2 * 2; r++) {
    unsigned kk = r % 2, aa = r / 2;
    cl_kernel k = load_opts("int_consts", ks[kk].name, "-cl-std=CL3.0");
    cl_mem m = buf(sizeof in, in);
    cl_uint4 v = {{as[aa].v[0], as[aa].v[1], as[aa].v[2], as[aa].v[3]}};
    cl_ulong big = as[aa].big;
    arg(k, 0, sizeof m, &m);
    arg(k, 1, sizeof v, &v);
    arg(k, 2, L * sizeof(cl_uint), NULL);
    arg(k, 3, sizeof big, &big);
    ck_assert_int_eq(run(k, NI, L), CL_COMPLETE);
    rd(m, got, sizeof got);
    for (unsigned i = 0; i < NI; i++) {
      unsigned j = i / L * L + (L - 1 - i % L); /* the work-item whose value it takes */
      uint32_t want = (in[j] * ks[kk].mul + ks[kk].add + as[aa].v[1]) ^
                      (uint32_t)(as[aa].big >> 33) ^ as[aa].v[3];
      ck_assert_msg(got[i] == want, "%s arguments %u work-item %u: got %#x want %#x", ks[kk].name,
                    aa, i, got[i], want);
    }
    clReleaseMemObject(m);
    clReleaseKernel(k);
  }
}
END_TEST

static int32_t ref_cl_clz(int32_t x) {
  return clzb((uint32_t)x, 32);
}
START_TEST(k_int_vec) {
  enum { G = 32 };
  static int32_t in[4 * G], out[16 * G];
  for (int i = 0; i < 4 * G; i++)
    in[i] = (int32_t)(lin[i] % 30000);
  cl_kernel k = load("int_vec");
  (void)k;
  clReleaseKernel(k);
  run_io("int_vec", G, 0, in, sizeof in, out, sizeof out);
  for (int g = 0; g < G; g++) {
    const int32_t *a = in + 4 * g;
    int32_t b[4], r[4];
    for (int j = 0; j < 4; j++)
      b[j] = a[3 - j] ^ 0x5a5a;
    static const int rs[4] = {1, 5, 9, 31};
    for (int j = 0; j < 4; j++) {
      int64_t p = (int64_t)a[j] * b[j];
      uint32_t v = (uint32_t)clampl((int64_t)a[j] + b[j], INT32_MIN, INT32_MAX);
      v += (uint32_t)ref_cl_clz(a[j]) + (uint32_t)__builtin_popcount((uint32_t)b[j]);
      v += (uint32_t)rotl((uint32_t)a[j], rs[j], 32);
      v += (uint32_t)(int32_t)(p / (b[j] | 1)) + (uint32_t)(a[j] % (b[j] | 1));
      v += (uint32_t)(a[j] >> 3) + ((uint32_t)b[j] << 2) + (uint32_t)(int32_t)(p >> 32);
      r[j] = (int32_t)v;
      ck_assert_msg(out[4 * g + j] == r[j], "int_vec int4 g %d j %d: %d want %d", g, j,
                    out[4 * g + j], r[j]);
    }
    uint8_t c[16], cr[16];
    memcpy(c, in + 4 * ((g + 1) % G), 16);
    for (int j = 0; j < 16; j++)
      cr[j] = (uint8_t)((c[j] + 200 > 255 ? 255 : c[j] + 200) ^ ((c[j] + c[15 - j]) >> 1));
    ck_assert_msg(memcmp(out + 4 * G + 4 * g, cr, 16) == 0, "int_vec uchar16 g %d", g);
    int16_t s[8], sr[8];
    for (int j = 0; j < 8; j++)
      s[j] = (int16_t)in[4 * g - 4 * (g & 1) + j];
    for (int j = 0; j < 8; j++) {
      int sat = (int)clampl(s[j] - 30000, -32768, 32767);
      int ad = abs(s[j] - s[7 - j]) & 0xffff;
      sr[j] = (int16_t)(sat + (int16_t)(uint16_t)(ad / 2));
    }
    ck_assert_msg(memcmp(out + 8 * G + 4 * g, sr, 16) == 0, "int_vec short8 g %d", g);
    int64_t l[2] = {(int64_t)a[0] * a[1], (int64_t)a[2] * a[3]}, lr[2];
    for (int j = 0; j < 2; j++)
      lr[j] = l[j] / 3 + (l[j] >> 60) + __builtin_popcountll((uint64_t)l[j]);
    ck_assert_msg(memcmp(out + 12 * G + 4 * g, lr, 16) == 0, "int_vec long2 g %d", g);
  }
}
END_TEST

/* ---- relational, select ---- */

static float fin[N];
static void finputs(void) {
  static const float sp[] = {0.0f,       -0.0f,     INFINITY, -INFINITY, NAN,  0x1p-130f,
                             -0x1p-149f, 0x1p-126f, 1.0f,     -1.0f,     3.5f, 3.5f};
  for (int i = 0; i < N; i++)
    fin[i] = i < 12 ? sp[i] : (float)((i * 7919) % 41 - 20) / 4.0f;
}
START_TEST(k_relational_scalar) {
  static int32_t out[14 * N];
  run_io("relational_scalar", N, 64, fin, sizeof fin, out, sizeof out);
  for (int g = 0; g < N; g++) {
    float x = fin[g], y = fin[(g * 5 + 3) % N];
    int want[14] = {!!isnan(x),
                    !!isinf(x),
                    !!isfinite(x),
                    !!isnormal(x),
                    !!signbit(x),
                    x == y,
                    x != y,
                    x > y,
                    x >= y,
                    x < y,
                    x <= y,
                    x < y || x > y,
                    !isnan(x) && !isnan(y),
                    isnan(x) || isnan(y)};
    for (int j = 0; j < 14; j++)
      ck_assert_msg(out[14 * g + j] == want[j], "relational_scalar fn %d x=%a y=%a: %d want %d", j,
                    x, y, out[14 * g + j], want[j]);
  }
}
END_TEST

START_TEST(k_relational_vector) {
  enum { G = N / 4 };
  static int32_t out[34 * G];
  run_io("relational_vector", G, 0, fin, sizeof fin, out, sizeof out);
  for (int g = 0; g < G; g++) {
    const float *x = fin + 4 * g, *y = fin + 4 * ((g * 5 + 3) % G);
    const int32_t *o = out + 34 * g;
    int anyl = 0, alll = 1, anyf = 0;
    for (int j = 0; j < 4; j++) {
      int want[7] = {
          -!!isnan(x[j]),   -(x[j] < y[j]), -(x[j] >= y[j]), -(isnan(x[j]) || isnan(y[j])),
          -!!signbit(x[j]), -(x[j] < y[j]), -(x[j] == y[j])};
      for (int f = 0; f < 7; f++)
        ck_assert_msg(o[4 * f + j] == want[f], "relational_vector g %d form %d lane %d: %d want %d",
                      g, f, j, o[4 * f + j], want[f]);
      anyl |= x[j] < y[j];
      alll &= x[j] < y[j];
      anyf |= !!isfinite(x[j]);
    }
    ck_assert_int_eq(o[28], -((double)x[0] >= (double)y[0]));
    ck_assert_int_eq(o[29], -((double)x[1] >= (double)y[1]));
    ck_assert_int_eq(o[30], anyl);
    ck_assert_int_eq(o[31], alll);
    ck_assert_int_eq(o[32], anyf);
    ck_assert_int_eq(o[33], g == 0);
  }
}
END_TEST

START_TEST(k_select_bitselect) {
  static int32_t out[12 * N];
  run_io("select_bitselect", N, 64, iin, sizeof iin, out, sizeof out);
  for (int g = 0; g < N; g++) {
    int32_t a = iin[g], b = iin[oth(g)], c = iin[(g + 3) % N];
    const int32_t *o = out + 12 * g;
    int32_t bs = (a & ~c) | (b & c);
    int32_t va[4] = {a, b, c, a ^ b}, vb[4] = {b, c, a ^ b, a},
            vc[4] = {c, (int32_t)(0u - (uint32_t)c), (int32_t)((uint32_t)c << 1), c >> 1};
    ck_assert_int_eq(o[0], c ? b : a);
    ck_assert_int_eq(o[1], (c & 0x7fffffff) ? b : a);
    ck_assert_int_eq(o[2], bs);
    ck_assert_int_eq(o[3], bs);
    ck_assert_int_eq(o[4], c ? b : a);
    for (int j = 0; j < 4; j++)
      ck_assert_msg(o[5 + j] == (vc[j] < 0 ? vb[j] : va[j]), "vector select g %d lane %d", g, j);
    uint8_t u0 = (int8_t)c < 0 ? 1 : (uint8_t)a, u1 = (int8_t)(c >> 8) < 0 ? 2 : (uint8_t)b;
    ck_assert_int_eq(o[9], u0 | (u1 << 8));
    uint64_t m = (uint64_t)(int64_t)c * 0x100000001ULL;
    uint64_t r = ((uint64_t)(int64_t)a & ~m) | (((uint64_t)(int64_t)b << 32) & m);
    ck_assert_int_eq(o[10], (int32_t)r);
    ck_assert_int_eq(o[11], (int32_t)((c ? (int64_t)b : (int64_t)a) >> 1));
  }
}
END_TEST

/* ---- geometric ---- */

START_TEST(k_geometric) {
  enum { G = 64 };
  static float in[4 * G], out[24 * G];
  for (int i = 0; i < 4 * G; i++)
    in[i] = (float)(i - 100.5) / 9.0f;
  run_io("geometric", G, 0, in, sizeof in, out, sizeof out);
  for (int g = 0; g < G; g++) {
    const float *a = in + 4 * g, *o = out + 24 * g;
    double b[4] = {a[2] * 0.75f + 0.5f, a[3] * 0.75f + 0.5f, a[0] * 0.75f + 0.5f,
                   a[1] * 0.75f + 0.5f};
    double d4 = 0, d3 = 0, d2 = 0, l4 = 0, l3 = 0, di4 = 0, di2 = 0, di3 = 0, mag = 0;
    for (int j = 0; j < 4; j++) {
      d4 += a[j] * b[j];
      l4 += (double)a[j] * a[j];
      di4 += (a[j] - b[j]) * (a[j] - b[j]);
      mag += fabs(a[j] * b[j]);
      if (j < 3) d3 += a[j] * b[j], l3 += (double)a[j] * a[j], di3 += (a[j] - b[j]) * (a[j] - b[j]);
      if (j < 2) d2 += a[j] * b[j], di2 += (a[j] - b[j]) * (a[j] - b[j]);
    }
    double tol = 1e-5 * (mag + 1);
#define NEAR(got, want, rel, what)                                                                 \
  ck_assert_msg(fabs((got) - (want)) <= (rel), "geometric %s g %d: got %a want %a", what, g,       \
                (double)(got), (double)(want))
    NEAR(o[0], d4, tol, "dot4");
    NEAR(o[1], d3, tol, "dot3");
    NEAR(o[2], d2, tol, "dot2");
    NEAR(o[3], a[0] * b[0], tol, "dot1");
    double cr[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                    a[0] * b[1] - a[1] * b[0]};
    for (int j = 0; j < 3; j++)
      NEAR(o[4 + j], cr[j], tol, "cross3");
    NEAR(o[7], sqrt(l4), 1e-5 * sqrt(l4), "length4");
    NEAR(o[8], sqrt(l3), 1e-5 * sqrt(l3), "length3");
    NEAR(o[9], sqrt(di4), 1e-5 * (sqrt(di4) + 1e-3), "distance4");
    NEAR(o[10], sqrt(di2), 1e-5 * (sqrt(di2) + 1e-3), "distance2");
    for (int j = 0; j < 4; j++)
      NEAR(o[11 + j], a[j] / sqrt(l4), 1e-5, "normalize4");
    double l2 = sqrt((double)a[0] * a[0] + (double)a[1] * a[1]);
    NEAR(o[15], a[0] / l2, 1e-5, "normalize2");
    NEAR(o[16], a[1] / l2, 1e-5, "normalize2");
    NEAR(o[17], sqrt(l4), 1e-3 * sqrt(l4), "fast_length");
    NEAR(o[18], sqrt(di3), 1e-3 * (sqrt(di3) + 1e-3), "fast_distance");
    for (int j = 0; j < 4; j++)
      NEAR(o[19 + j], a[j] / sqrt(l4), 1e-3, "fast_normalize");
    ck_assert(o[23] == 0.0f);
#undef NEAR
  }
}
END_TEST

/* ---- vload/vstore ---- */

START_TEST(k_vload_vstore) {
  enum { G = 128 };
  static int32_t in[16 * G], out[40 * G];
  for (int i = 0; i < 16 * G; i++)
    in[i] = iin[i % N] ^ i;
  cl_kernel k = load("vload_vstore");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof out, NULL);
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof o, &o);
  ck_assert_int_eq(run(k, G, 64), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int g = 0; g < G; g++) {
    const int32_t *v = in + 16 * g, *v8 = in + 8 * (2 * g + 1), *v4 = in + 16 * g + 3,
                  *v3 = in + 5 + 3 * g, *v2 = in + 2 * (8 * g + 7);
    int32_t w[40];
    for (int j = 0; j < 16; j++)
      w[j] = (int32_t)((uint32_t)v[j] * 2);
    for (int j = 0; j < 8; j++)
      w[16 + j] = (int32_t)((uint32_t)v8[j] + 1);
    for (int j = 0; j < 4; j++)
      w[24 + j] = (int32_t)((uint32_t)v4[j] + (uint32_t)v3[j == 3 ? 0 : j]);
    w[28] = v8[0];
    w[29] = 1;
    w[30] = 2;
    for (int j = 0; j < 3; j++)
      w[31 + j] = v3[j];
    w[34] = v2[0] ^ 3;
    w[35] = v2[1] ^ 3;
    uint8_t by[4];
    memcpy(by, &in[g], 4);
    w[36] = by[0];
    w[37] = by[1];
    int16_t sh[2];
    memcpy(sh, &in[g], 4);
    w[38] = sh[0];
    w[39] = sh[1];
    for (int j = 0; j < 40; j++)
      ck_assert_msg(out[40 * g + j] == w[j], "vload_vstore g %d word %d: %d want %d", g, j,
                    out[40 * g + j], w[j]);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

static float h2f(uint16_t h) {
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0    ? ldexpf((float)m, -24)
            : e == 31 ? (m ? NAN : INFINITY)
                      : ldexpf((float)(m + 1024), e - 25);
  return s ? -v : v;
}
/* float -> half bits with rounding 0 rte, 1 rtz, 2 rtp, 3 rtn. */
static uint16_t f2h(float f, int mode) {
  uint16_t sign = signbit(f) ? 0x8000 : 0;
  if (isnan(f)) return sign | 0x7e00;
  double a = fabs((double)f);
  if (isinf(f)) return sign | 0x7c00;
  int e;
  frexp(a, &e);
  int E = e - 1 < -14 ? -14 : e - 1;
  double ulp = ldexp(1.0, E - 10), qq = a / ulp, r;
  int up = mode == 2 ? !sign : mode == 3 ? !!sign : 0;
  if (mode == 0)
    r = nearbyint(qq);
  else
    r = up ? ceil(qq) : floor(qq);
  if (r * ulp >= 65536.0) return sign | ((mode == 0 || up) ? 0x7c00 : 0x7bff);
  if (a < 0x1p-14) return sign | (uint16_t)r;
  return sign | (uint16_t)(((E + 15) << 10) + (int)r - 1024);
}
static int same_f(float a, float b) {
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, 4) == 0;
}

START_TEST(k_vload_half) {
  enum { G = 64 };
  static uint16_t in[4 * G];
  static float out[12 * G];
  static const uint16_t sp[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00,
                                0x0001, 0x03ff, 0x0400, 0x7bff, 0x3555, 0xc000, 0x5640};
  for (int i = 0; i < 4 * G; i++)
    in[i] = i < 14 ? sp[i] : (uint16_t)(i * 2654435761u >> 16);
  run_io("vload_halfs", G, 0, in, sizeof in, out, sizeof out);
  for (int g = 0; g < G; g++) {
    const float *o = out + 12 * g;
    float w[12] = {h2f(in[g]), h2f(in[2 * g]), h2f(in[2 * g + 1])};
    for (int j = 0; j < 4; j++)
      w[3 + j] = h2f(in[4 * g + j]);
    w[7] = ((h2f(in[4 * g]) + h2f(in[4 * g + 1])) + h2f(in[4 * g + 2])) + h2f(in[4 * g + 3]);
    for (int j = 0; j < 3; j++)
      w[8 + j] = h2f(in[3 * g + j]);
    w[11] = h2f(in[7]) + h2f(in[15]);
    for (int j = 0; j < 12; j++)
      ck_assert_msg(same_f(o[j], w[j]), "vload_half g %d form %d: %a want %a", g, j, o[j], w[j]);
  }
}
END_TEST

START_TEST(k_vstore_half) {
  enum { G = 128 };
  static float in[G];
  static uint16_t out[16 * G];
  static const float sp[] = {0.0f,       -0.0f,          1.0f,       65504.0f, 65519.0f,   65520.0f,
                             -65520.0f,  1e-8f,          -3e-8f,     0x1p-24f, 0x1.8p-25f, 0x1p-25f,
                             1.0009766f, 1.00048828125f, 1.0014648f, INFINITY, NAN,        6.1e-5f};
  for (int i = 0; i < G; i++)
    in[i] = i < 18 ? sp[i] : (float)((i * 7919) % 2001 - 1000) / 7.77f * (i % 3 ? 1 : 113.3f);
  run_io("vstore_halfs", G, 0, in, sizeof in, out, sizeof out);
  for (int g = 0; g < G; g++) {
    float x = in[g];
    const uint16_t *o = out + 16 * g;
    uint16_t w[16] = {f2h(x, 0),
                      f2h(x, 0),
                      f2h(x, 1),
                      f2h(x, 2),
                      f2h(x, 3),
                      f2h(x, 0),
                      f2h(-x, 0),
                      0x1234,
                      f2h(x * 3.0f, 0),
                      f2h(x * 0.001f, 0),
                      0,
                      0,
                      f2h(x, 1),
                      f2h(x * 65536.0f, 1),
                      f2h(-x * 1e-6f, 1),
                      f2h(70000.0f, 1)};
    for (int j = 0; j < 16; j++) {
      int nan = (w[j] & 0x7c00) == 0x7c00 && (w[j] & 0x3ff);
      ck_assert_msg(nan ? ((o[j] & 0x7c00) == 0x7c00 && (o[j] & 0x3ff)) : o[j] == w[j],
                    "vstore_half x=%a slot %d: 0x%04x want 0x%04x", x, j, o[j], w[j]);
    }
  }
}
END_TEST

/* ---- conversions ---- */

static int64_t satd(double x, double lo, double hi) {
  return x != x ? 0 : x < lo ? (int64_t)lo : x > hi ? (int64_t)hi : (int64_t)x;
}
START_TEST(k_convert_vec) {
  enum { G = 64 };
  static float in[4 * G];
  static int32_t out[28 * G];
  static const float sp[] = {0.5f,    1.5f,    2.5f,     -0.5f,    -1.5f, -2.5f, 255.5f, 256.0f,
                             -128.5f, -129.0f, 65535.5f, 70000.0f, -0.0f, 1e6f,  -1e6f,  127.49f};
  for (int i = 0; i < 4 * G; i++)
    in[i] = i < 16 ? sp[i] : (float)((i * 7919) % 4001 - 2000) / 3.3f;
  run_io("convert_vec", G, 0, in, sizeof in, out, sizeof out);
  for (int g = 0; g < G; g++) {
    const int32_t *o = out + 28 * g;
    for (int j = 0; j < 4; j++) {
      double x = in[4 * g + j];
      int64_t w[6] = {satd(nearbyint(x), INT32_MIN, INT32_MAX),
                      satd(trunc(x), 0, 255),
                      satd(floor(x), -128, 127),
                      (int64_t)ceil(x),
                      satd(trunc(x), 0, 65535),
                      (int64_t)trunc(x)};
      for (int f = 0; f < 5; f++)
        ck_assert_msg(o[4 * f + j] == w[f], "convert_vec x=%a form %d: %d want %lld", x, f,
                      o[4 * f + j], (long long)w[f]);
      ck_assert_int_eq(o[20 + j], satd((double)w[5], -32768, 32767));
      float big = (float)x * 1e8f;
      ck_assert_int_eq(o[24 + j], satd(satd(trunc(big), INT32_MIN, INT32_MAX), -32768, 32767));
    }
  }
}
END_TEST

static void ref_conv(int g, int64_t x, int64_t b, int64_t *w) {
  w[0] = clampl(x, -128, 127);
  w[1] = clampl(x, 0, 255);
  w[2] = clampl((int32_t)x, -32768, 32767);
  w[3] = clampl((int32_t)x, 0, 65535);
  w[4] = clampl(x, INT32_MIN, INT32_MAX);
  w[5] = clampl(x, 0, UINT32_MAX);
  w[6] = (int32_t)x < 0 ? 0 : (int32_t)x;
  w[7] = (uint64_t)x > INT64_MAX ? INT64_MAX : x;
  w[8] = (int8_t)x;
  float f = (float)x, fz = (float)(int32_t)x;
  int32_t fb, fzb;
  memcpy(&fb, &f, 4);
  memcpy(&fzb, &fz, 4);
  w[9] = fb;
  w[10] = fzb;
  double d = (double)x;
  memcpy(&w[11], &d, 8);
}
START_TEST(k_convert_int) {
  check_l("convert_int", 12, ref_conv);
}
END_TEST

/* An integer -mag or mag rounded to p significant bits in mode (0 rte,
 * 1 rtz, 2 rtp, 3 rtn), exactly: the result has at most p significant bits,
 * so converting it to float or double is exact. */
static long double round_int(int neg, uint64_t mag, int p, int mode) {
  int len = mag ? 64 - __builtin_clzll(mag) : 0;
  long double r = (long double)mag;
  if (len > p) {
    int sh = len - p;
    uint64_t lo = mag & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
    uint64_t t = mag - lo;
    int away = mode == 0   ? lo > half || (lo == half && ((t >> sh) & 1))
               : mode == 2 ? !neg && lo
               : mode == 3 ? neg && lo
                           : 0;
    r = (long double)t + (away ? ldexpl(1.0L, sh) : 0.0L);
  }
  return neg ? -r : r;
}
static int64_t rf_int(int neg, uint64_t mag, int mode) {
  float f = (float)round_int(neg, mag, 24, mode);
  int32_t b;
  memcpy(&b, &f, 4);
  return b;
}
static int64_t rd_int(int neg, uint64_t mag, int mode) {
  double d = (double)round_int(neg, mag, 53, mode);
  int64_t b;
  memcpy(&b, &d, 8);
  return b;
}
static int64_t rf_s(int64_t v, int mode) {
  return rf_int(v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, mode);
}
/* A double narrowed to float in mode: the neighbour the mode picks. */
static int64_t rf_dbl(double d, int mode) {
  float f = (float)d; /* round to nearest even */
  if ((double)f != d && mode) {
    float lo = (double)f > d ? nextafterf(f, -INFINITY) : f;
    float hi = (double)f > d ? f : nextafterf(f, INFINITY);
    f = mode == 2 ? hi : mode == 3 ? lo : d < 0 ? hi : lo;
  }
  int32_t b;
  memcpy(&b, &f, 4);
  return b;
}
START_TEST(k_convert_round) {
  enum { K = 46 };
  static int64_t out[K * N];
  run_io("convert_round", N, 64, lin, sizeof lin, out, sizeof out);
  for (int g = 0; g < N; g++) {
    int64_t x = lin[g], w[K];
    double da = (double)x / 3.0, db = da * 1e-310, dc = da * 1e25;
    for (int m = 0; m < 4; m++) {
      w[m] = rf_s((int32_t)x, m);
      w[4 + m] = rf_s(x, m);
      w[8 + m] = rf_int(0, (uint32_t)x, m);
      w[12 + m] = rf_int(0, (uint64_t)x, m);
      w[16 + m] = rd_int(x < 0, x < 0 ? 0 - (uint64_t)x : (uint64_t)x, m);
      w[20 + m] = rd_int(0, (uint64_t)x, m);
      w[24 + m] = rf_dbl(da, m);
      w[28 + m] = rf_dbl(db, m);
      w[32 + m] = rf_dbl(dc, m);
    }
    w[36] = rf_s(x, 3);
    w[37] = rf_s(-x, 3);
    w[38] = rd_int(0, (uint64_t)x, 1);
    w[39] = rd_int(0, ~(uint64_t)x, 1);
    w[40] = rf_s((int32_t)x, 2);
    w[41] = rf_s((int32_t)(x >> 32), 2);
    w[42] = rf_s(-(int32_t)x, 2);
    w[43] = rf_s((int32_t)(x >> 7), 2);
    w[44] = rf_dbl(da, 1);
    w[45] = rf_dbl(dc, 1);
    for (int j = 0; j < K; j++)
      ck_assert_msg(out[K * g + j] == w[j], "convert_round x=%lld slot %d: got 0x%llx want 0x%llx",
                    (long long)x, j, (unsigned long long)out[K * g + j], (unsigned long long)w[j]);
  }
}
END_TEST

/* ---- shuffles ---- */

START_TEST(k_shuffles) {
  enum { G = 64 };
  static int32_t in[4 * G], out[16 * G];
  for (int i = 0; i < 4 * G; i++)
    in[i] = (int32_t)(lin[i % N] % 100000);
  run_io("shuffles", G, 0, in, sizeof in, out, sizeof out);
  for (int g = 0; g < G; g++) {
    const int32_t *a = in + 4 * g, *o = out + 16 * g;
    int32_t b[4], ab[8];
    for (int j = 0; j < 4; j++)
      b[j] = a[j] * 10 + 1, ab[j] = a[j], ab[4 + j] = b[j];
    unsigned m[4] = {g & 3, (g >> 2) & 3, (g >> 4) & 3, (g >> 6) & 3},
             m2[4] = {g & 7, (g >> 3) & 7, (g >> 6) & 7, (g + 5) & 7};
    for (int j = 0; j < 4; j++) {
      ck_assert_int_eq(o[j], a[m[j]]);
      ck_assert_int_eq(o[4 + j], ab[m2[j]]);
      unsigned k2 = (m2[j] + 1) & 7;
      ck_assert_int_eq(o[10 + j], k2 < 4 ? a[k2] : -a[k2 - 4]);
    }
    uint8_t c[8], cs[8];
    memcpy(c, a, 8);
    for (int j = 0; j < 8; j++)
      cs[j] = c[((7 - j) ^ (g & 7)) & 7];
    ck_assert_msg(memcmp(o + 8, cs, 8) == 0, "shuffle uchar8 g %d", g);
    int64_t l[2] = {a[2], a[3]};
    int64_t ls[4] = {l[1], l[0], l[g & 1], l[1]};
    ck_assert_int_eq(o[14], (int32_t)(ls[0] + ls[1] * 3 + ls[2] * 5 + ls[3] * 7));
    ck_assert_int_eq(o[15], b[1]);
  }
}
END_TEST

/* ---- async copies ---- */

START_TEST(k_async_copy) {
  enum { L = 64, G = 8 * L };
  static int32_t in[G], out[G];
  for (int i = 0; i < G; i++)
    in[i] = (i * 7919) % 100003;
  cl_kernel k = load("async_copy");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof out, NULL);
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof o, &o);
  arg(k, 2, L * 4, NULL);
  arg(k, 3, L * 4, NULL);
  ck_assert_int_eq(run(k, G, L), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int i = 0; i < G; i++) {
    int gr = i / L, lid = i % L;
    float f;
    memcpy(&f, &in[i], 4);
    int32_t w = in[i] * 2 + in[gr * L + L - 1 - lid] + (int32_t)(f * 1e6f);
    ck_assert_msg(out[i] == w, "async_copy %d: %d want %d", i, out[i], w);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_async_strided) {
  enum { GR = 6 };
  static uint32_t in[GR * 192], out[GR * 128], init[GR * 128];
  for (int i = 0; i < GR * 192; i++)
    in[i] = (uint32_t)i * 2654435761u;
  for (int i = 0; i < GR * 128; i++)
    init[i] = 0xdead0000u + (uint32_t)i;
  cl_kernel k = load("async_strided");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof init, init);
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof o, &o);
  ck_assert_int_eq(run(k, GR * 64, 64), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int i = 0; i < GR * 128; i++) {
    int gr = i / 128, j = i % 128;
    uint32_t w = j & 1 ? init[i] : in[gr * 192 + 1 + 3 * (j / 2)] + (uint32_t)(j / 2);
    ck_assert_msg(out[i] == w, "async_strided %d: %08x want %08x", i, out[i], w);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

static Suite *make(void) {
  inputs();
  finputs();
  Suite *s = suite_create("device_kernels_int");
  TCase *tc = tcase_create("builtins");
  tcase_add_checked_fixture(tc, kh_setup, kh_teardown);
  tcase_set_timeout(tc, 120);
  KH_ADD(tc, k_int_24);
  KH_ADD(tc, k_int_mulhi);
  KH_ADD(tc, k_int_bits);
  KH_ADD(tc, k_int_sat);
  KH_ADD(tc, k_int_avg);
  KH_ADD(tc, k_int_upsample);
  KH_ADD(tc, k_int_div);
  KH_ADD(tc, k_int_consts);
  KH_ADD(tc, k_int_vec);
  KH_ADD(tc, k_relational_scalar);
  KH_ADD(tc, k_relational_vector);
  KH_ADD(tc, k_select_bitselect);
  KH_ADD(tc, k_geometric);
  KH_ADD(tc, k_vload_vstore);
  KH_ADD(tc, k_vload_half);
  KH_ADD(tc, k_vstore_half);
  KH_ADD(tc, k_convert_vec);
  KH_ADD(tc, k_convert_int);
  KH_ADD(tc, k_convert_round);
  KH_ADD(tc, k_shuffles);
  KH_ADD(tc, k_async_copy);
  KH_ADD(tc, k_async_strided);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return kh_main(make);
}
