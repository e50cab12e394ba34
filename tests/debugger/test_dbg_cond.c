/*
 * test_dbg_cond.c - breakpoint conditions compiled for the device's workers
 * (debugger/dbg_cond.c) against the interpreter (dbg_eval) on the same
 * made-up work-item: ints of every width and sign, floats and doubles,
 * vector components, array elements, struct fields, pointers followed,
 * comparisons, && || !, casts and the work-item functions. Every compiled
 * answer must be the interpreter's: false only where it is false, unknown
 * wherever the interpreter fails; texts the compiled form does not handle
 * are refused, not guessed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_debug.h"
#include "debugger/dbg.h"
#include "debugger/dbg_cond.h"
#include "device/lsi.h"
#include "util/check_util.h"

/* The made-up private frame: BASE.. BASE + sizeof(mem). */
#define BASE 0x4000000000000000ull /* private memory, offset 0 */
static uint8_t mem[0x200];

static void *mem_at(void *ctx, uint64_t addr, uint64_t size) {
  (void)ctx;
  if (addr < BASE || addr - BASE > sizeof(mem) || size > sizeof(mem) - (addr - BASE)) return NULL;
  return mem + (addr - BASE);
}

static const struct {
  const char *name, *type;
  unsigned off;
} vars[] = {
    {"i", "int", 0x00},
    {"u", "uint", 0x04},
    {"c", "char", 0x08},
    {"uc", "uchar", 0x09},
    {"sh", "short", 0x0a},
    {"b", "bool", 0x0c},
    {"l", "long", 0x10},
    {"ul", "ulong", 0x18},
    {"f", "float", 0x20},
    {"d", "double", 0x28},
    {"v", "float4", 0x30},
    {"iv", "int3", 0x40},
    {"arr", "int[4]", 0x50},
    {"s", "struct pair", 0x60},
    {"p", "__global int *", 0x70},
    {"ps", "struct pair *", 0x78},
    {"np", "int *", 0x80},
    {"bp", "int *", 0x88},
    {"pv", "float4 *", 0x90},
    {"zero", "int", 0x98},
    {"nf", "float", 0x9c},
};

static struct cc_field pair_fields[] = {{"a", "int", 0, 4}, {"b", "float", 4, 4}};
static struct cc_type pair = {"struct pair", 8, 2, pair_fields};

static const struct cc_type *type_hook(void *ctx, const char *name) {
  (void)ctx;
  return !strcmp(name, "struct pair") || !strcmp(name, "pair") ? &pair : NULL;
}

static const struct dbg_env env;

static const char *lookup(void *ctx, const char *name, struct dbg_val *v) {
  (void)ctx;
  for (size_t k = 0; k < sizeof(vars) / sizeof(vars[0]); k++)
    if (!strcmp(vars[k].name, name)) {
      if (!dbg_type_resolve(&env, vars[k].type, v)) return "cannot resolve";
      v->addr = BASE + vars[k].off;
      return NULL;
    }
  return "No symbol in current context.";
}

/* The special registers of the made-up work-item. */
static uint64_t sreg_value(unsigned r) {
  return r == LSI_SREG_GLOBAL_ID_X ? 1000000 : r == LSI_SREG_LOCAL_ID_X ? 64 : 3 + r;
}

static int sreg(void *ctx, const char *fn, unsigned dim, uint64_t *out) {
  (void)ctx;
  unsigned r;
  if (!dbg_item_fn(fn, dim, &r, out)) return 0;
  if (r != UINT32_MAX) *out = sreg_value(r);
  return 1;
}

static const struct dbg_env env = {NULL, lookup, mem_at, sreg, type_hook, NULL, NULL, NULL, NULL};

static uint64_t io_sreg(void *ctx, unsigned lane, unsigned r) {
  (void)ctx, (void)lane;
  return sreg_value(r);
}

static void *io_mem(void *ctx, unsigned lane, uint64_t addr, uint64_t size) {
  (void)lane;
  return mem_at(ctx, addr, size);
}

static const struct dbg_cond_io io = {NULL, io_mem, io_sreg, NULL, 0, 0};

static void put(unsigned off, const void *x, size_t n) {
  memcpy(mem + off, x, n);
}

static void setup_memory(void) {
  memset(mem, 0, sizeof(mem));
  int32_t i = -3, iv[4] = {7, -8, 9, 0}, arr[4] = {10, 20, -30, 40}, a = 5;
  uint32_t u = 4000000000u;
  int8_t c = -5;
  uint8_t uc = 250, b = 1;
  int16_t sh = -300;
  int64_t l = -5000000000ll;
  uint64_t ul = 18000000000000000000ull;
  float f = 2.5f, v[4] = {1.0f, -2.0f, 3.5f, 4.0f}, pb = 0.25f, nf = -0.0f;
  double d = 1e300;
  uint64_t p = BASE + 0x50, ps = BASE + 0x60, np = 0, bp = BASE + 0x10000, pv = BASE + 0x30;
  put(0x00, &i, 4), put(0x04, &u, 4), put(0x08, &c, 1), put(0x09, &uc, 1), put(0x0a, &sh, 2);
  put(0x0c, &b, 1), put(0x10, &l, 8), put(0x18, &ul, 8), put(0x20, &f, 4), put(0x28, &d, 8);
  put(0x30, v, 16), put(0x40, iv, 16), put(0x50, arr, 16), put(0x60, &a, 4), put(0x64, &pb, 4);
  put(0x70, &p, 8), put(0x78, &ps, 8), put(0x80, &np, 8), put(0x88, &bp, 8), put(0x90, &pv, 8);
  put(0x9c, &nf, 4);
}

/* The interpreter's answer: 1 true, 0 false, -1 an error. */
static int interpreted(const char *text) {
  struct dbg_val v;
  char err[200];
  if (dbg_eval(&env, text, &v, err, sizeof(err))) return -1;
  return v.kind == DBG_FLT ? v.f != 0 : v.i != 0;
}

/* The compiled form's answer, -2 when it refuses the text. */
static int compiled(const char *text) {
  struct dbg_cond *c = dbg_cond_compile(&env, text);
  if (!c) return -2;
  int r = dbg_cond_eval(c, &io);
  dbg_cond_free(c);
  return r;
}

/* Texts the compiled form handles, with the interpreter's answers. */
static const struct {
  const char *text;
  int want;
} cases[] = {
    /* ints of each width and sign, and C's conversions between them */
    {"i == -3", 1},
    {"i < 0", 1},
    {"u > 3000000000", 1},
    {"u > i", 0}, /* -3 becomes a large unsigned int */
    {"l < i", 1},
    {"ul > l", 0}, /* l becomes a huge unsigned long */
    {"c == -5 && uc == 250", 1},
    {"sh * 2 == -600", 1},
    {"b", 1},
    {"!b", 0},
    {"uc + 10 == 260", 1},           /* promoted to int: no wrap */
    {"u + 300000000 == 5032704", 1}, /* uint arithmetic wraps at 32 bits */
    {"-u == 294967296", 1},
    {"~i == 2", 1},
    {"i % 2 == -1 && i / 2 == -1", 1},
    {"u >> 31 == 1 && 1 << 33 == 2", 1}, /* a shift's count masked to int's width */
    {"(i & 0xff) == 253 && (i | 1) == -3 && (i ^ -1) == 2", 1},
    {"0x80000000 > 0 && 2147483648 > 0 && 7u - 8 > 0", 1},
    /* floats and doubles */
    {"f == 2.5f", 1},
    {"f > 2.4 && f < 2.6", 1},
    {"f * 2 == 5", 1},
    {"d > 1e299", 1},
    {"f / zero > 1e38", 1}, /* inf, no error in floating point */
    {"nf", 0},
    {"-nf == 0", 1},
    {"!nf", 1},
    {"f && 0.0", 0},
    {"(int)f == 2 && (float)i == -3.0f && (uchar)i == 253 && (long)u == 4000000000", 1},
    {"(int)(f * 3) == 7", 1},
    /* vector components, array elements, struct fields */
    {"v.x == 1 && v.y < 0 && v.s2 == 3.5f && v.w == 4 && v.a == 4", 1},
    {"v[1] == -2", 1},
    {"iv.z == 9 && iv[1] == -8 && iv.s0 == 7", 1},
    {"arr[2] == -30 && arr[i + 4] == 20", 1},
    {"s.a == 5 && s.b == 0.25f", 1},
    {"s.a > 5", 0},
    /* pointers followed */
    {"p[3] == 40 && *p == 10 && p[i + 3] == 10", 1},
    {"*(p + 2) == -30", 1},
    {"ps->a == 5 && ps->b < 1", 1},
    {"ps[0].a == 5", 1},
    {"pv[0].y == -2", 1},
    {"p != 0 && np == 0", 1},
    /* the work-item functions */
    {"get_global_id(0) == 1000000", 1},
    {"get_global_id(0) == 999999", 0},
    {"get_local_id(0) == 64 && get_global_id(5) == 0 && get_global_size(7) == 1", 1},
    {"get_global_id(0) == 1000000 && i == -3", 1},
    /* failures: the compiled form leaves them to the interpreter */
    {"i / zero == 1", -1},
    {"i % zero", -1},
    {"arr[4] == 0", -1},
    {"arr[i] == 0", -1},
    {"np[0] == 0", -1},
    {"*np == 0", -1},
    {"bp[0] == 1", -1},
    {"zero == 1 && bp[0] == 1", -1}, /* && evaluates both sides */
};

START_TEST(compiled_matches_interpreter) {
  setup_memory();
  for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    const char *t = cases[k].text;
    int want = interpreted(t);
    ck_assert_msg(want == cases[k].want, "interpreter: %s is %d, not %d", t, want, cases[k].want);
    ck_assert_msg(compiled(t) == want, "%s: compiled %d, interpreted %d", t, compiled(t), want);
  }
}
END_TEST

START_TEST(compiled_sees_new_values) {
  /* one compiled form, the values read at each evaluation */
  setup_memory();
  struct dbg_cond *c = dbg_cond_compile(&env, "arr[1] + s.a > 100 && v.z > 3");
  ck_assert_ptr_nonnull(c);
  ck_assert_int_eq(dbg_cond_eval(c, &io), 0);
  int32_t x = 96;
  put(0x54, &x, 4);
  ck_assert_int_eq(dbg_cond_eval(c, &io), 1);
  float z = 2.0f;
  put(0x38, &z, 4);
  ck_assert_int_eq(dbg_cond_eval(c, &io), 0);
  dbg_cond_free(c);
}
END_TEST

START_TEST(refused_texts) {
  /* what the interpreter alone does: it evaluates them and reports */
  setup_memory();
  static const char *const texts[] = {
      "nosuch == 1",    /* unknown symbol: the interpreter says so */
      "i = 3",          /* assignment */
      "i == 1 ? 1 : 0", /* ?: */
      "$1 == 2",        /* the value history */
      "sizeof(int) == 4",
      "&i != 0",
      "arr[0]@2",
      "v.xy",     /* several components */
      "v.q == 1", /* no such component: the interpreter says so */
      "s.nosuch == 1",
      "frob(1) == 2", /* not a work-item function */
      "get_sub_group_id() == 0",
      "'a' == 97",
      "s",          /* a struct is not a condition's value */
      "i ==",       /* a syntax error */
      "f % 2 == 1", /* no % of a float: an error */
      "~f == 1",
      "pv->x == 1", /* -> of a pointer to a vector: an error */
  };
  for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++)
    ck_assert_msg(compiled(texts[k]) == -2, "%s was compiled", texts[k]);
}
END_TEST

START_TEST(lanes_at_once) {
  /* a warp's lanes, each with its own private frame (read directly, as a
   * pass gives them), against the interpreter on each lane's frame */
  enum { LANES = 40, STRIDE = sizeof(mem) };
  static uint8_t frames[LANES][STRIDE];
  static const char *const texts[] = {"i == 7 || arr[i & 3] == 20", "arr[i] > 0 && f < 3",
                                      "i / (i - 5) == 0", "p[i - 20] == 10 && v.y < 0",
                                      "get_global_id(0) == 1000000 && (float)i > 30.5f"};
  setup_memory();
  for (int l = 0; l < LANES; l++) {
    int32_t i = l - 2; /* out of arr's range for most lanes */
    memcpy(frames[l], mem, sizeof(mem));
    memcpy(frames[l], &i, 4);
  }
  struct dbg_cond_io lio = io;
  lio.priv = &frames[0][0];
  lio.priv_stride = lio.priv_size = STRIDE;
  for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
    struct dbg_cond *c = dbg_cond_compile(&env, texts[k]);
    ck_assert_msg(c != NULL, "%s was not compiled", texts[k]);
    uint64_t lanes = (UINT64_C(1) << LANES) - 1 - 2, unknown; /* lane 1 not asked */
    uint64_t yes = dbg_cond_eval_lanes(c, &lio, lanes, &unknown);
    ck_assert(!((yes | unknown) & ~lanes) && !(yes & unknown));
    for (int l = 0; l < LANES; l++) {
      if (!(lanes >> l & 1)) continue;
      memcpy(mem, frames[l], sizeof(mem));
      int want = interpreted(texts[k]);
      int got = unknown >> l & 1 ? -1 : (int)(yes >> l & 1);
      ck_assert_msg(got == want, "%s, lane %d: compiled %d, interpreted %d", texts[k], l, got,
                    want);
    }
    dbg_cond_free(c);
  }
}
END_TEST

/* A random condition over the made-up variables, depth levels deep. */
static void random_expr(unsigned *seed, int depth, char *buf, size_t n) {
  static const char *const atoms[] = {"i",
                                      "u",
                                      "c",
                                      "uc",
                                      "sh",
                                      "b",
                                      "l",
                                      "ul",
                                      "f",
                                      "d",
                                      "v.x",
                                      "v.s2",
                                      "iv[1]",
                                      "arr[2]",
                                      "s.a",
                                      "s.b",
                                      "ps->a",
                                      "p[1]",
                                      "*p",
                                      "zero",
                                      "nf",
                                      "0",
                                      "1",
                                      "-7",
                                      "3000000000",
                                      "2.5f",
                                      "0.5",
                                      "0x80000000",
                                      "7u",
                                      "5L",
                                      "31",
                                      "get_global_id(0)",
                                      "get_local_id(0)"};
  static const char *const ops[] = {"+", "-",  "*",  "/", "%", "<<", ">>", "&",  "|",
                                    "^", "==", "!=", "<", ">", "<=", ">=", "&&", "||"};
  static const char *const pre[] = {"-",      "!",       "~",       "(int)",
                                    "(uint)", "(float)", "(uchar)", "(long)"};
  int r = (int)(rand_r(seed) % 8);
  if (depth == 0 || r == 0) {
    snprintf(buf, n, "%s", atoms[rand_r(seed) % (sizeof(atoms) / sizeof(atoms[0]))]);
    return;
  }
  char a[512], b[512];
  random_expr(seed, depth - 1, a, sizeof(a));
  if (r == 1) {
    snprintf(buf, n, "%s(%.400s)", pre[rand_r(seed) % (sizeof(pre) / sizeof(pre[0]))], a);
    return;
  }
  random_expr(seed, depth - 1, b, sizeof(b));
  snprintf(buf, n, "(%.250s %s %.250s)", a, ops[rand_r(seed) % (sizeof(ops) / sizeof(ops[0]))], b);
}

START_TEST(random_conditions_agree) {
  setup_memory();
  unsigned seed = 16;
  int done = 0, refused = 0;
  for (int k = 0; k < 20000; k++) {
    char t[2048];
    random_expr(&seed, 3, t, sizeof(t));
    int want = interpreted(t), got = compiled(t);
    /* refused: it must be what the interpreter fails on, or rare (~ of a float) */
    refused += got == -2 && want != -1;
    if (got == -2) continue;
    done++;
    ck_assert_msg(got == want, "%s: compiled %d, interpreted %d", t, got, want);
  }
  ck_assert_msg(done > 10000 && refused < 400, "%d of 20000 conditions compiled, %d refused", done,
                refused);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dbg_cond");
  CU_ADD(s, compiled_matches_interpreter);
  CU_ADD(s, compiled_sees_new_values);
  CU_ADD(s, refused_texts);
  CU_ADD(s, lanes_at_once);
  CU_ADD(s, random_conditions_agree);
  return cu_run(s);
}
