/*
 * kgen.c - the random kernel generator of kgen.h. Expressions are built
 * bottom-up as malloc'd strings; statements are written straight into the
 * source with their indentation. Everything it writes stays defined:
 * signed arithmetic goes through the unsigned type, divisors are forced
 * non-zero (and positive when signed), float-to-integer conversions
 * saturate, shift counts are reduced by the language, loops are bounded by a
 * small constant, array indices are masked into range, barriers sit only in
 * uniform control flow before any return, and atomics only combine values
 * in ways whose final result does not depend on their order. No result
 * depends on a NaN's sign or payload (which IEEE 754 leaves open): there is
 * no copysign, signbit or as_type of a float. At most one random choice is
 * made among the operands or arguments of one expression: C leaves their
 * order unspecified, and the text must not depend on the compiler that
 * built the generator.
 */
#include "kgen.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t kgen_rand(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* ---- types ---- */

enum { TI, TU, TL, TUL, TF, TD, NT };

static const struct tinfo {
  const char *name, *uname; /* the type and its unsigned counterpart */
  const char *one;          /* the literal 1 of the type */
  unsigned bits;
  bool fl, sig;
  int sel; /* the signed integer type of its size (select's third operand) */
} ti[NT] = {
    [TI] = {"int", "uint", "1", 32, false, true, TI},
    [TU] = {"uint", "uint", "1u", 32, false, false, TI},
    [TL] = {"long", "ulong", "1L", 64, false, true, TL},
    [TUL] = {"ulong", "ulong", "1uL", 64, false, false, TL},
    [TF] = {"float", NULL, "1.0f", 32, true, true, TI},
    [TD] = {"double", NULL, "1.0", 64, true, true, TL},
};

/* ---- the generator's state ---- */

struct var {
  char name[12];
  int type;
  bool out; /* a result: written to oi/of at the end */
};

struct gen {
  uint64_t rng;
  char *src;
  size_t len, cap;
  int indent;
  struct var vars[96];
  int nvars;
  int nnames;      /* names handed out (v0, v1, ... ; i0, t0 ...) */
  int loops;       /* enclosing loops */
  bool in_switch;  /* directly in a switch: no break for the loop */
  bool may_return; /* early returns allowed (no fault kernel) */
  bool returned;   /* a return may have run: no barrier any more */
  bool lm;         /* __local reads allowed (after the barrier) */
  bool lm_round;   /* in the barrier loop: the round counter r exists */
  bool branchy;
  struct kgen_stats *st;
};

static unsigned rn(struct gen *g, unsigned n) {
  return (unsigned)(kgen_rand(&g->rng) % n);
}
static bool chance(struct gen *g, unsigned pct) {
  return rn(g, 100) < pct;
}

static char *vxs(const char *f, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, f, aq);
  va_end(aq);
  char *s = malloc((size_t)n + 1);
  if (!s) abort(); /* out of host memory in the test itself: fail loudly */
  vsnprintf(s, (size_t)n + 1, f, ap);
  return s;
}

/* A malloc'd printf. */
static char *xs(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  char *s = vxs(f, ap);
  va_end(ap);
  return s;
}

/* Appends one line at the current indentation. */
static void emit(struct gen *g, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  char *line = vxs(f, ap);
  va_end(ap);
  size_t need = g->len + (size_t)g->indent * 2 + strlen(line) + 2;
  if (need > g->cap) {
    g->cap = need * 2;
    g->src = realloc(g->src, g->cap);
    if (!g->src) abort();
  }
  for (int i = 0; i < g->indent; i++)
    g->len += (size_t)sprintf(g->src + g->len, "  ");
  g->len += (size_t)sprintf(g->src + g->len, "%s\n", line);
  free(line);
  g->st->lines++;
}

static struct var *add_var(struct gen *g, const char *prefix, int type, bool out) {
  if (g->nvars >= (int)(sizeof g->vars / sizeof g->vars[0])) abort();
  struct var *v = &g->vars[g->nvars++];
  snprintf(v->name, sizeof v->name, "%s%d", prefix, g->nnames++);
  v->type = type;
  v->out = out;
  return v;
}

/* A variable of type t (any variable when t < 0), NULL if there is none. */
static struct var *pick_var(struct gen *g, int t, bool results_only) {
  int idx[96], n = 0;
  for (int i = 0; i < g->nvars; i++)
    if ((t < 0 || g->vars[i].type == t) && (!results_only || g->vars[i].out)) idx[n++] = i;
  return n ? &g->vars[idx[rn(g, (unsigned)n)]] : NULL;
}

/* ---- constants and conversions ---- */

static char *int_const(struct gen *g, int t) {
  static const uint64_t edge[] = {
      0,    1,          2,          3,          7,          0x7f,       0x80,
      0xff, 0x7fffffff, 0x80000000, 0xffffffff, 0x55555555, 0xdeadbeef, 0x7fffffffffffffff};
  uint64_t v;
  switch (rn(g, 4)) {
  case 0: v = rn(g, 17); break;
  case 1: v = edge[rn(g, sizeof edge / sizeof edge[0])]; break;
  case 2: v = (uint64_t)0 - (1 + rn(g, 9)); break;
  default: v = kgen_rand(&g->rng); break;
  }
  if (ti[t].bits == 32) return xs("((%s)0x%08xu)", ti[t].name, (unsigned)v);
  return xs("((%s)0x%016llxuL)", ti[t].name, (unsigned long long)v);
}

static char *float_const(struct gen *g, int t) {
  static const double edge[] = {0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 1e30, -1e-30, 0x1p-140, 65536.0};
  double v = edge[rn(g, sizeof edge / sizeof edge[0])];
  if (!chance(g, 40)) {
    v = (double)rn(g, 20001) - 10000.0;
    v /= (double)(1u << rn(g, 12));
  }
  if (t == TF) v = (double)(float)v;
  /* a hexadecimal literal spelt here, not by printf's %a (whose spelling
   * varies between C libraries): the same text on every machine */
  uint64_t u;
  memcpy(&u, &v, 8);
  const char *sign = u >> 63 ? "-" : "", *suffix = t == TF ? "f" : "";
  int e = (int)(u >> 52 & 0x7ff);
  uint64_t frac = u & ((UINT64_C(1) << 52) - 1);
  if (e == 0 && frac == 0) return xs("(%s0x0p+0%s)", sign, suffix);
  /* no constant is subnormal as a double */
  return xs("(%s0x1.%013llxp%+d%s)", sign, (unsigned long long)frac, e - 1023, suffix);
}

static char *constant(struct gen *g, int t) {
  return ti[t].fl ? float_const(g, t) : int_const(g, t);
}

static const char *const rounding[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

/* e (of type from) as type to; takes e. */
static char *conv(struct gen *g, int to, char *e, int from) {
  char *r;
  if (to == from) return e;
  if (ti[from].fl && !ti[to].fl) /* out of range or NaN: saturate, never undefined */
    r = xs("convert_%s_sat%s(%s)", ti[to].name, rounding[rn(g, 5)], e);
  else if (chance(g, 70) || (!ti[from].fl && !ti[to].fl))
    r = xs("((%s)%s)", ti[to].name, e);
  else
    r = xs("convert_%s%s(%s)", ti[to].name, rounding[rn(g, 5)], e);
  free(e);
  return r;
}

/* ---- expressions ---- */

static char *expr(struct gen *g, int t, int depth);
static char *cond(struct gen *g, int depth);

/* A uint read from one of the arrays the kernel may use here. */
static char *array_leaf(struct gen *g) {
  unsigned k = rn(g, 5);
  if (g->lm && k == 0 && g->lm_round) return xs("lmu[(lid + r + 1u) %% lsz]");
  if (g->lm && k == 0) return xs("lmu[(lid + %uu) %% lsz]", 1 + rn(g, 70));
  if (g->lm && k == 1) return xs("convert_uint_sat(lmf[(lid + %uu) %% lsz])", rn(g, 70));
  if (g->lm && k == 2) return xs("lcnt");
  if (g->branchy && k == 3) {
    char *i = expr(g, TU, 0), *r = xs("pa[%s & 7u]", i);
    free(i);
    return r;
  }
  char *i = expr(g, k == 4 ? TUL : TU, 0), *r;
  if (k == 4 || !g->branchy)
    r = xs("(uint)in[%s %% nin]", i);
  else
    r = xs("scr[sb + (%s & 7u)]", i);
  free(i);
  return r;
}

static char *leaf(struct gen *g, int t) {
  unsigned k = rn(g, 100);
  struct var *v;
  if (k < 55 && (v = pick_var(g, t, false))) return xs("%s", v->name);
  if (k < 80 && (v = pick_var(g, -1, false))) return conv(g, t, xs("%s", v->name), v->type);
  if (k < 90) return conv(g, t, array_leaf(g), TU);
  return constant(g, t);
}

/* Signed arithmetic that may wrap goes through the unsigned type. */
static char *wrap(int t, const char *op, const char *a, const char *b) {
  if (!ti[t].sig) return xs("(%s %s %s)", a, op, b);
  return xs("((%s)((%s)%s %s (%s)%s))", ti[t].name, ti[t].uname, a, op, ti[t].uname, b);
}

/* An expression of another type, converted to t. */
static char *retyped(struct gen *g, int t, int d) {
  int s = rn(g, NT);
  return conv(g, t, expr(g, s, d), s);
}

static char *int_expr(struct gen *g, int t, int d) {
  const char *T = ti[t].name, *U = ti[t].uname;
  static const char *const ar[] = {"+", "-", "*", "&", "|", "^"};
  static const char *const cmp[] = {"<", "<=", ">", ">=", "==", "!="};
  static const char *const bi2[] = {"min",  "max",   "add_sat", "sub_sat",
                                    "hadd", "rhadd", "mul_hi",  "rotate"};
  unsigned op = rn(g, 15);
  char *a = expr(g, t, d), *b = NULL, *c = NULL, *r;
  switch (op) {
  case 0:
  case 1: b = expr(g, t, d), r = wrap(t, ar[rn(g, 6)], a, b); break;
  case 2: /* shifts: the language reduces the count modulo the width */
    b = expr(g, rn(g, NT - 2), d);
    if (chance(g, 50))
      r = xs("((%s)((%s)%s << %s))", T, U, a, b);
    else
      r = xs("(%s >> %s)", a, b);
    break;
  case 3: /* divisors: non-zero, and positive when signed (no INT_MIN / -1) */
    b = expr(g, t, d);
    if (ti[t].sig)
      r = xs("(%s %s ((%s & %s) | %s))", a, chance(g, 50) ? "/" : "%", b,
             ti[t].bits == 32 ? "0x7f" : "0x7fffL", ti[t].one);
    else
      r = xs("(%s %s (%s | %s))", a, chance(g, 50) ? "/" : "%", b, ti[t].one);
    break;
  case 4: {
    int s = rn(g, NT);
    b = expr(g, s, d), c = expr(g, s, d);
    r = xs("((%s)(%s %s %s))", T, b, cmp[rn(g, 6)], c);
    g->st->branches++;
    break;
  }
  case 5:
    b = expr(g, t, d), c = cond(g, d);
    r = xs("(%s ? %s : %s)", c, a, b);
    g->st->branches++;
    break;
  case 6: {
    int s = chance(g, 50) ? ti[t].sel : ti[t].sel + 1; /* the signed or unsigned form */
    b = expr(g, t, d), c = expr(g, s, d);
    r = xs("select(%s, %s, %s)", a, b, c);
    g->st->calls++;
    break;
  }
  case 7:
  case 8:
    b = expr(g, t, d), r = xs("%s(%s, %s)", bi2[rn(g, 8)], a, b);
    g->st->calls++;
    break;
  case 9: {
    char *lo = int_const(g, t);
    r = xs("clamp(%s, %s, max(%s, %s))", a, lo, lo, (b = int_const(g, t)));
    free(lo);
    g->st->calls++;
    break;
  }
  case 10:
    switch (rn(g, 4)) {
    case 0: r = xs("((%s)abs(%s))", T, a); break;
    case 1: b = expr(g, t, d), r = xs("((%s)abs_diff(%s, %s))", T, a, b); break;
    case 2: r = xs("clz(%s)", a); break;
    default: r = xs("popcount(%s)", a); break;
    }
    g->st->calls++;
    break;
  case 11:
    b = expr(g, t, d), c = expr(g, t, d);
    /* mad_hi only unsigned: its sum may overflow */
    r = xs("%s(%s, %s, %s)", ti[t].sig || chance(g, 50) ? "mad_sat" : "mad_hi", a, b, c);
    g->st->calls++;
    break;
  case 12: r = xs("((%s)(-(%s)%s))", T, U, a); break;
  case 13: r = xs("(~%s)", a); break;
  default: free(a); return retyped(g, t, d);
  }
  free(a), free(b), free(c);
  return r;
}

static char *float_expr(struct gen *g, int t, int d) {
  static const char *const ar[] = {"+", "-", "*", "/"};
  static const char *const un[] = {"fabs", "floor", "ceil", "trunc", "rint", "round",
                                   "sqrt", "exp",   "log",  "sin",   "cos"};
  static const char *const bi2[] = {"fmin", "fmax", "nextafter", "fmod", "fdim", "hypot"};
  char *a = expr(g, t, d), *b = NULL, *c = NULL, *r;
  switch (rn(g, 10)) {
  case 0:
  case 1:
  case 2: b = expr(g, t, d), r = xs("(%s %s %s)", a, ar[rn(g, 4)], b); break;
  case 3: r = xs("(-%s)", a); break;
  case 4:
    b = expr(g, t, d), c = expr(g, t, d);
    r = xs("%s(%s, %s, %s)", chance(g, 50) ? "mad" : "fma", a, b, c);
    g->st->calls++;
    break;
  case 5:
    r = xs("%s(%s)", un[rn(g, sizeof un / sizeof un[0])], a);
    g->st->calls++;
    break;
  case 6:
    b = expr(g, t, d), r = xs("%s(%s, %s)", bi2[rn(g, 6)], a, b);
    g->st->calls++;
    break;
  case 7:
    b = expr(g, t, d), c = cond(g, d);
    r = xs("(%s ? %s : %s)", c, a, b);
    g->st->branches++;
    break;
  case 8: {
    int s = chance(g, 50) ? ti[t].sel : ti[t].sel + 1;
    b = expr(g, t, d), c = expr(g, s, d);
    r = xs("select(%s, %s, %s)", a, b, c);
    g->st->calls++;
    break;
  }
  default: free(a); return retyped(g, t, d);
  }
  free(a), free(b), free(c);
  return r;
}

static char *expr(struct gen *g, int t, int depth) {
  if (depth <= 0 || chance(g, 20)) return leaf(g, t);
  return ti[t].fl ? float_expr(g, t, depth - 1) : int_expr(g, t, depth - 1);
}

/* A condition that holds for a fair share of the work-items. */
static char *cond(struct gen *g, int depth) {
  static const char *const cmp[] = {"<", "<=", ">", ">=", "==", "!="};
  int s = rn(g, NT);
  char *a = expr(g, s, depth), *b, *r;
  switch (rn(g, 6)) {
  case 0:
  case 1: b = expr(g, s, depth), r = xs("(%s %s %s)", a, cmp[rn(g, 6)], b); break;
  case 2:
  case 3:
    b = conv(g, TU, a, s), a = NULL;
    unsigned bit = 1u << rn(g, 3);
    r = xs("((%s & %uu) %s 0u)", b, bit, chance(g, 50) ? "==" : "!=");
    break;
  case 4:
    b = cond(g, depth - 1);
    a = conv(g, TU, a, s);
    r = xs("(%s %s (%s & 3u) != 0u)", b, chance(g, 50) ? "&&" : "||", a);
    g->st->branches++;
    break;
  default:
    b = NULL;
    if (ti[s].fl)
      r = xs("%s(%s)", chance(g, 50) ? "isnan" : "isfinite", a);
    else
      r = xs("(!(%s & 2))", a);
    break;
  }
  free(a), free(b);
  return r;
}

/* ---- statements ---- */

static void block(struct gen *g, int depth, unsigned n);

static void assign(struct gen *g) {
  struct var *v = pick_var(g, -1, true);
  char *e = expr(g, v->type, 3);
  while (!strcmp(e, v->name)) /* no x = x */
    free(e), e = expr(g, v->type, 3);
  emit(g, "%s = %s;", v->name, e);
  free(e);
}

static void stmt_if(struct gen *g, int depth) {
  char *c = cond(g, 2);
  emit(g, "if (%s) {", c);
  free(c);
  g->st->branches++;
  g->indent++;
  block(g, depth - 1, 1 + rn(g, 3));
  g->indent--;
  while (chance(g, 35)) {
    c = cond(g, 2);
    emit(g, "} else if (%s) {", c);
    free(c);
    g->st->branches++;
    g->indent++;
    block(g, depth - 1, 1 + rn(g, 2));
    g->indent--;
  }
  if (chance(g, 60)) {
    emit(g, "} else {");
    g->indent++;
    block(g, depth - 1, 1 + rn(g, 3));
    g->indent--;
  }
  emit(g, "}");
}

/* for, while or do-while with a data-dependent trip count of at most 7. */
static void stmt_loop(struct gen *g, int depth) {
  char *n = expr(g, TU, 2);
  int saved = g->nvars;
  struct var *i = add_var(g, chance(g, 50) ? "i" : "t", TU, false);
  unsigned kind = rn(g, 3);
  if (kind == 0) {
    emit(g, "for (uint %s = 0u; %s < (%s & 7u); %s++) {", i->name, i->name, n, i->name);
  } else if (kind == 1) {
    emit(g, "for (uint %s = %s & 7u; %s > 0u;) {", i->name, n, i->name);
    emit(g, "  %s--;", i->name);
  } else {
    emit(g, "uint %s = %s & 3u;", i->name, n);
    emit(g, "do {");
  }
  free(n);
  g->st->loops++;
  g->st->branches++;
  g->indent++;
  g->loops++;
  bool sw = g->in_switch;
  g->in_switch = false;
  block(g, depth - 1, 1 + rn(g, 4));
  g->in_switch = sw;
  g->loops--;
  g->indent--;
  if (kind == 2)
    emit(g, "} while (%s-- > 0u);", i->name);
  else
    emit(g, "}");
  g->nvars = saved;
}

static void stmt_switch(struct gen *g, int depth) {
  char *e = expr(g, TU, 2);
  emit(g, "switch (%s & 3u) {", e);
  free(e);
  bool sw = g->in_switch;
  g->in_switch = true;
  unsigned ncase = 2 + rn(g, 3);
  for (unsigned k = 0; k < ncase; k++) {
    if (k == 3)
      emit(g, "default: {");
    else
      emit(g, "case %uu: {", k);
    g->st->branches++;
    g->indent++;
    block(g, depth - 1, 1 + rn(g, 2));
    g->indent--;
    emit(g, chance(g, 25) && k + 1 < ncase ? "} /* falls through */" : "} break;");
  }
  emit(g, "}");
  g->in_switch = sw;
}

static void stmt_store(struct gen *g) {
  char *i = expr(g, TU, 1), *v = expr(g, TU, 2);
  if (chance(g, 50))
    emit(g, "pa[%s & 7u] = %s;", i, v);
  else
    emit(g, "scr[sb + (%s & 7u)] = %s;", i, v);
  free(i), free(v);
}

static void stmt_atomic(struct gen *g) {
  static const char *const fn[] = {"atomic_add", "atomic_sub", "atomic_or", "atomic_and",
                                   "atomic_xor", "atomic_min", "atomic_max"};
  unsigned k = rn(g, 8);
  g->st->atomics++;
  if (k == 7) {
    emit(g, "atomic_inc(&cnt[7]);");
    return;
  }
  char *v = expr(g, TU, 2);
  /* and/or/min/max on the low bits keep the counters interesting */
  emit(g, "%s(&cnt[%u], %s%s);", fn[k], k, v, k == 3 ? " | 0xffff0000u" : " & 0xffffu");
  free(v);
}

static void stmt_return(struct gen *g) {
  char *c = cond(g, 2), *v = expr(g, TU, 2);
  /* for a quarter of the work-items at most, so that most reach the end */
  emit(g, "if ((gid & 3u) == %uu && %s) {", rn(g, 4), c);
  emit(g, "  scr[sb] = (uint)%s;", v);
  emit(g, "  return;");
  emit(g, "}");
  free(c), free(v);
  g->st->branches++;
  g->returned = true;
}

static void stmt(struct gen *g, int depth) {
  unsigned k = rn(g, 100);
  if (depth > 0 && k < 16)
    stmt_if(g, depth);
  else if (depth > 0 && k < 26 && g->loops < 2)
    stmt_loop(g, depth);
  else if (depth > 0 && k < 32)
    stmt_switch(g, depth);
  else if (k < 40)
    stmt_store(g);
  else if (k < 46)
    stmt_atomic(g);
  else if (k < 52 && g->loops && !g->in_switch) {
    char *c = cond(g, 1);
    emit(g, "if (%s) %s;", c, chance(g, 50) ? "break" : "continue");
    free(c);
    g->st->branches++;
  } else if (k < 55 && g->may_return)
    stmt_return(g);
  else
    assign(g);
}

static void block(struct gen *g, int depth, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    stmt(g, depth);
}

/* Local memory in uniform control flow: every work-item writes its own
 * element, a barrier, then reads of others' elements and of a counter the
 * group added to atomically, once or `rounds` times in a loop. */
static void local_phase(struct gen *g) {
  bool loop = chance(g, 40);
  if (loop) {
    emit(g, "for (uint r = 0u; r < rounds; r++) {");
    g->indent++;
    g->lm_round = true;
    g->st->loops++;
  }
  char *u = expr(g, TU, 2), *f = expr(g, TF, 2), *a = expr(g, TU, 1), *c = cond(g, 1);
  emit(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  emit(g, "lmu[lid] = %s;", u);
  emit(g, "lmf[lid] = %s;", f);
  emit(g, "if (lid == 0u) lcnt = 0u;");
  emit(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  emit(g, "if (%s) atomic_add(&lcnt, %s & 0xffu);", c, a);
  emit(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  free(u), free(f), free(a), free(c);
  g->st->barriers += 3;
  g->st->atomics++;
  g->st->branches += 2;
  g->lm = true;
  /* one read of each kind, then statements that may read more */
  struct var *x = pick_var(g, -1, true);
  char *e = conv(g, x->type,
                 xs("((lmu[(lid + %s) %% lsz] ^ lcnt) + convert_uint_sat(lmf[(lid + %uu) %% lsz]))",
                    g->lm_round ? "r + 1u" : "1u", rn(g, 70)),
                 TU);
  emit(g, "%s = %s;", x->name, e);
  free(e);
  bool ret = g->may_return;
  g->may_return = false;
  unsigned n = rn(g, 3);
  for (unsigned i = 0; i < n; i++)
    if (chance(g, 25))
      stmt_if(g, 1);
    else
      assign(g);
  g->may_return = ret;
  g->lm = false;
  if (loop) {
    g->lm_round = false;
    g->indent--;
    emit(g, "}");
  }
}

/* The one deliberate fault, in work-item fg only (KGEN_WARP_OOB: in
 * every work-item of the first group from fg on). A faulting load feeds
 * an atomic, so the optimiser cannot drop it as dead. */
static void fault_stmt(struct gen *g, enum kgen_fault f, unsigned fg) {
  char *i = expr(g, TU, 1), *v = expr(g, TU, 1);
  bool load = chance(g, 50);
  if (f == KGEN_WARP_OOB) { /* work-items fg and after of the first group (every one runs it) */
    emit(g, "if (get_group_id(0) == 0u) {");
    g->indent++;
    if (load)
      emit(g, "atomic_xor(&cnt[4], scr[get_global_size(0) * %uu - %uu + gid]);", KGEN_SCR, fg);
    else
      emit(g, "scr[get_global_size(0) * %uu - %uu + gid] = %s;", KGEN_SCR, fg, v);
    g->indent--;
    emit(g, "}");
    free(i), free(v);
    return;
  }
  emit(g, "if (gid == (size_t)%uu) {", fg);
  g->indent++;
  switch (f) {
  case KGEN_GLOBAL_OOB:
    if (load)
      emit(g, "atomic_xor(&cnt[4], (uint)in[nin + (%s & 15u)]);", i);
    else
      emit(g, "scr[get_global_size(0) * %uu + (%s & 15u)] = %s;", KGEN_SCR, i, v);
    break;
  case KGEN_MISALIGNED:
    emit(g,
         "__global uint *mp = (__global uint *)((__global uchar *)(scr + sb) + ((%s & 2u) | 1u));",
         i);
    if (load)
      emit(g, "atomic_xor(&cnt[4], *mp);");
    else
      emit(g, "*mp = %s;", v);
    break;
  case KGEN_DIVERGENT_BARRIER: emit(g, "barrier(CLK_LOCAL_MEM_FENCE);"); break;
  case KGEN_PRIVATE_OOB:
    /* a load (a store to a private array nothing reads afterwards is dead),
     * at an index the optimiser cannot bound */
    emit(g, "atomic_xor(&cnt[4], pa[4096u + ((uint)in[ib + 7] ^ (%s & 7u))]);", i);
    break;
  default: break;
  }
  g->indent--;
  emit(g, "}");
  free(i), free(v);
}

/* ---- the kernel ---- */

static void prologue(struct gen *g) {
  emit(g, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable");
  emit(g, "__kernel void gen(__global const ulong *in, __global ulong *oi, __global double *of,");
  emit(g, "                  __global uint *scr, __global uint *cnt, int ka, float kf,");
  emit(g, "                  uint rounds) {");
  g->indent = 1;
  emit(g, "size_t gid = get_global_id(0), ib = gid * %uu, sb = gid * %uu;", KGEN_IN, KGEN_SCR);
  emit(g, "ulong nin = get_global_size(0) * %uu;", KGEN_IN);
  /* the input slots' types: see kgen_input */
  static const char *const init[KGEN_IN] = {"(int)in[ib + 0]",
                                            "(uint)in[ib + 1]",
                                            "(long)in[ib + 2]",
                                            "in[ib + 3]",
                                            "as_float((uint)in[ib + 4])",
                                            "as_double(in[ib + 5])",
                                            "as_float((uint)in[ib + 6])",
                                            "(uint)in[ib + 7]"};
  static const int types[KGEN_IN] = {TI, TU, TL, TUL, TF, TD, TF, TU};
  for (unsigned j = 0; j < KGEN_IN; j++)
    emit(g, "%s %s = %s;", ti[types[j]].name, add_var(g, "v", types[j], true)->name, init[j]);
  emit(g, "%s %s = ka;", ti[TI].name, add_var(g, "v", TI, true)->name);
  emit(g, "%s %s = kf;", ti[TF].name, add_var(g, "v", TF, true)->name);
  emit(g, "%s %s = (uint)gid;", ti[TU].name, add_var(g, "v", TU, true)->name);
  /* vector loads: whole-warp blocks of 16 bytes per lane (also with a
   * padding element), and components 48 bytes apart (used as vectors, so
   * that they stay one load of consecutive components) */
  static const char *const vecs[][2] = {
      {"uint4 q = ((__global const uint4 *)in)[gid] * (uint4)(1u, 3u, 5u, 7u)",
       "q.s0 ^ q.s1 ^ q.s2 ^ q.s3"},
      {"uint3 q = ((__global const uint3 *)in)[gid + 1u] * (uint3)(1u, 3u, 5u)",
       "q.s0 ^ q.s1 ^ q.s2"},
      {"uint4 q = ((__global const uint4 *)in)[gid * 3u + 1u] * (uint4)(1u, 3u, 5u, 7u)",
       "q.s0 ^ q.s1 ^ q.s2 ^ q.s3"},
      {"ulong2 q = ((__global const ulong2 *)in)[gid + 2u] * (ulong2)(1u, 3u)",
       "(uint)(q.s0 ^ q.s1 >> 7)"},
  };
  for (unsigned j = 0; j < sizeof vecs / sizeof vecs[0]; j++) {
    emit(g, "%s %s;", ti[TU].name, add_var(g, "v", TU, true)->name);
    emit(g, "{ %s; %s = %s; }", vecs[j][0], g->vars[g->nvars - 1].name, vecs[j][1]);
  }
  if (!g->branchy) return;
  emit(g, "__local uint lmu[%u], lcnt;", KGEN_LMAX);
  emit(g, "__local float lmf[%u];", KGEN_LMAX);
  emit(g, "uint lid = (uint)get_local_id(0), lsz = (uint)get_local_size(0);");
  emit(g, "uint pa[8];");
  emit(g, "for (uint i = 0u; i < 8u; i++) pa[i] = v1 ^ (i * 0x9e3779b9u);");
}

/* Every result variable into oi / of; sets the slot counts. */
static void epilogue(struct gen *g, struct kgen_kernel *k) {
  unsigned ni = 0, nf = 0;
  for (int i = 0; i < g->nvars; i++)
    if (g->vars[i].out) *(ti[g->vars[i].type].fl ? &nf : &ni) += 1;
  k->ni = ni, k->nf = nf;
  emit(g, "size_t ob = gid * %uu, fb = gid * %uu;", ni, nf);
  ni = nf = 0;
  for (int i = 0; i < g->nvars; i++) {
    const struct var *v = &g->vars[i];
    if (!v->out) continue;
    if (ti[v->type].fl)
      emit(g, "of[fb + %u] = (double)%s;", nf++, v->name);
    else
      emit(g, "oi[ob + %u] = (ulong)%s;", ni++, v->name);
  }
  g->indent = 0;
  emit(g, "}");
}

static void straight_body(struct gen *g) {
  unsigned n = 12 + rn(g, 20);
  for (unsigned i = 0; i < n; i++) {
    if (i > 0 && chance(g, 20)) {
      assign(g);
      continue;
    }
    int t = rn(g, NT);
    char *e = expr(g, t, 3);
    emit(g, "%s %s = %s;", ti[t].name, add_var(g, "v", t, true)->name, e);
    free(e);
  }
}

static void branchy_body(struct gen *g, enum kgen_fault fault, unsigned fg) {
  unsigned n = 5 + rn(g, 6), at = rn(g, n);
  for (unsigned i = 0; i < n; i++) {
    if (fault != KGEN_NO_FAULT && i == at) fault_stmt(g, fault, fg);
    if (!g->returned && chance(g, 30))
      local_phase(g);
    else if (chance(g, 20)) {
      int t = rn(g, NT);
      char *e = expr(g, t, 2);
      emit(g, "%s %s = %s;", ti[t].name, add_var(g, "v", t, true)->name, e);
      free(e);
    } else
      stmt(g, 3);
  }
}

void kgen_make(struct kgen_kernel *k, uint64_t seed, enum kgen_kind kind, enum kgen_fault fault,
               unsigned fault_gid) {
  memset(k, 0, sizeof *k);
  struct gen g;
  memset(&g, 0, sizeof g);
  g.rng = seed * 0x2545f4914f6cdd1dULL + (uint64_t)kind;
  g.st = &k->st;
  g.branchy = kind == KGEN_BRANCHY || fault != KGEN_NO_FAULT;
  g.may_return = fault == KGEN_NO_FAULT;
  emit(&g, "/* kgen seed %llu, %s%s */", (unsigned long long)seed,
       g.branchy ? "branchy" : "straight-line", fault != KGEN_NO_FAULT ? ", with a fault" : "");
  prologue(&g);
  if (g.branchy)
    branchy_body(&g, fault, fault_gid);
  else
    straight_body(&g);
  epilogue(&g, k);
  k->src = g.src;
}

void kgen_free(struct kgen_kernel *k) {
  free(k->src);
  k->src = NULL;
}

/* ---- inputs ---- */

static uint64_t int_input(uint64_t *s, unsigned bits) {
  static const int64_t edge[] = {0,  1,  -1,        2,         31,        32,
                                 63, 64, INT32_MIN, INT32_MAX, INT64_MIN, INT64_MAX};
  uint64_t r = kgen_rand(s);
  switch (r % 5) {
  case 0: return (uint64_t)edge[(r >> 8) % (sizeof edge / sizeof edge[0])];
  case 1:
  case 2: return (uint64_t)((int64_t)((r >> 8) % 201) - 100);
  default: return bits == 32 ? (r >> 16) & 0xffffffffu : kgen_rand(s);
  }
}

static double float_input(uint64_t *s) {
  static const double edge[] = {0.0,   -0.0,     1.0,      -1.0,      0.5,   1e38, -3e38,
                                1e-40, 0x1p-149, INFINITY, -INFINITY, 100.0, 1e300};
  uint64_t r = kgen_rand(s);
  switch (r % 6) {
  case 0: return edge[(r >> 8) % (sizeof edge / sizeof edge[0])];
  case 1: return (r >> 8) & 1 ? NAN : -NAN;
  default: return ((double)((r >> 8) % 200001) - 100000.0) / (double)(1u << ((r >> 40) % 16));
  }
}

uint64_t kgen_input(uint64_t *state, unsigned j) {
  switch (j) {
  case 0:
  case 1: return int_input(state, 32);
  case 2:
  case 3: return int_input(state, 64);
  case 4:
  case 6: {
    float f = (kgen_rand(state) % 8) ? (float)float_input(state) : 0x1p-130f;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  }
  case 5: {
    double d = float_input(state);
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
  }
  default: return kgen_rand(state) % 24;
  }
}
