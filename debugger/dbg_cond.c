/*
 * dbg_cond.c - breakpoint conditions compiled once per statement into a
 * small stack code whose names are addresses and whose types are fixed, so
 * a pass evaluates them per work-item on the device's workers without the
 * session's lock or parsing (the interpreter costs microseconds a lane).
 *
 * It shares with the interpreter (dbg_expr.c) all that can be shared
 * (dbg_lex.h): the reading of the text, the operators, C's conversions and
 * arithmetic, and the typing of elements (dbg_type_elem()). What else it
 * does mirrors the interpreter's rules (rv(), field_of(), load()): the
 * compiled form must never call a condition false that the interpreter
 * calls true or fails on. What it does not handle it refuses to compile;
 * what it cannot finish it calls unknown. It must not know about sessions,
 * breakpoints or the device: names, layouts and memory come through
 * struct dbg_env at compile time and struct dbg_cond_io per evaluation.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_debug.h"
#include "debugger/dbg_cond.h"
#include "debugger/dbg_image.h"
#include "debugger/dbg_lex.h"
#include "device/lsi.h"

#define COND_STACK 32

enum {
  OP_CONST, /* push k */
  OP_LOAD,  /* addr -> the scalar there (kind, sign, size) */
  OP_SREG,  /* push special register k */
  OP_ADDK,  /* addr -> addr + k */
  OP_INDEX, /* addr ix -> addr + ix * size, ix in [0, count) */
  OP_PTRIX, /* ptr ix -> ptr + ix * size, not 0 */
  OP_NZ,    /* addr -> addr, not 0 */
  OP_NEG,   /* x -> -x */
  OP_NOT,   /* x -> !x */
  OP_BNOT,  /* x -> ~x */
  OP_CAST,  /* x -> (type) x */
  OP_BIN,   /* x y -> x op y */
};

/* OP_BIN's operators: dbg_lex.h's, and a pointer plus or minus an integer. */
enum { B_PADD = DBG_NOPS, B_PSUB };

union cv {
  int64_t i;
  double f;
};

/* How an operand becomes a double (as_f): 0 signed int, 1 unsigned, 2 float. */
enum { CV_S, CV_U, CV_F };

struct insn {
  uint8_t op, sub;      /* OP_*, and DBG_OP_* or B_* for OP_BIN */
  uint8_t kind, sign;   /* a load's or a cast's type; OP_BIN: float (1 float, 2 double) */
  uint8_t a_cv, b_cv;   /* OP_BIN, OP_NEG, OP_NOT: the operands' CV_* */
  uint32_t size, count; /* a load's size; OP_BIN's integer size and sign in sign */
  union cv k;
};

struct dbg_cond {
  unsigned n;
  struct insn code[];
};

/* ---- compiling ---- */

struct C {
  const struct dbg_env *env;
  struct dbg_lex lx; /* the text */
  int failed;
  struct insn *code;
  unsigned n, cap;
  int depth;
};

/* A value being compiled: its type, and whether the stack holds its
 * address (an lvalue) or the value itself. */
struct cval {
  struct dbg_val t;
  int lv;
};

static void emit(struct C *c, struct insn in, int push) {
  if (c->failed) return;
  c->depth += push;
  if (c->depth > COND_STACK) c->failed = 1;
  if (c->n == c->cap) {
    unsigned cap = c->cap ? 2 * c->cap : 16;
    struct insn *m = realloc(c->code, cap * sizeof(*m));
    if (!m) {
      c->failed = 1;
      return;
    }
    c->code = m;
    c->cap = cap;
  }
  c->code[c->n++] = in;
}

static void ws(struct C *c) {
  dbg_lex_ws(&c->lx);
}
static int eat(struct C *c, const char *t) {
  return dbg_lex_eat(&c->lx, t);
}

static int cv_of(const struct dbg_val *t) {
  return t->kind == DBG_FLT ? CV_F : t->is_signed ? CV_S : CV_U;
}

/* The value of v on the stack (rv()): a scalar lvalue is loaded; arrays,
 * vectors, structs, images and texels are not compiled. */
static struct cval rv(struct C *c, struct cval v) {
  if (v.t.kind != DBG_INT && v.t.kind != DBG_FLT && v.t.kind != DBG_PTR) c->failed = 1;
  if (v.t.names || v.t.texel_order || dbg_image_is(&v.t)) c->failed = 1;
  if (c->failed || !v.lv) return v;
  struct insn in = {
      .op = OP_LOAD, .kind = (uint8_t)v.t.kind, .sign = (uint8_t)v.t.is_signed, .size = v.t.size};
  if (v.t.size < 1 || v.t.size > 8 || (v.t.kind == DBG_FLT && v.t.size != 4 && v.t.size != 8))
    c->failed = 1;
  emit(c, in, 0);
  v.lv = 0;
  return v;
}

/* Field f of struct lvalue v (field_of()). */
static struct cval field(struct C *c, struct cval v, const char *f) {
  const struct cc_type *t = c->env->type ? c->env->type(c->env->ctx, v.t.type) : NULL;
  for (uint32_t i = 0; t && i < t->nfields; i++) {
    if (strcmp(t->fields[i].name, f)) continue;
    struct cval e = {.lv = 1};
    if (!dbg_type_resolve(c->env, t->fields[i].type_name, &e.t)) break;
    emit(c, (struct insn){.op = OP_ADDK, .k.i = (int64_t)t->fields[i].offset}, 0);
    return e;
  }
  c->failed = 1;
  return v;
}

/* The component a one-component selector names (swizzle(), which has
 * already accepted it), else -1. */
static int component(const char *f, unsigned count) {
  int k = -1;
  if ((f[0] == 's' || f[0] == 'S') && f[1] && !f[2] && isxdigit((unsigned char)f[1])) {
    char d[2] = {f[1], 0};
    k = (int)strtol(d, NULL, 16);
  } else if (f[0] && !f[1]) {
    const char *x = strchr("xyzw", f[0]), *r = strchr("rgba", f[0]);
    k = x ? (int)(x - "xyzw") : r ? (int)(r - "rgba") : -1;
  }
  return k >= 0 && (unsigned)k < count ? k : -1;
}

static struct cval expr(struct C *c);
static struct cval unary(struct C *c);

static struct cval postfix(struct C *c, struct cval v) {
  while (!c->failed) {
    if (eat(c, "[")) {
      if (v.t.kind == DBG_PTR) v = rv(c, v); /* the pointer's value, under the index */
      struct cval ix = rv(c, expr(c));
      if (!eat(c, "]") || ix.t.kind != DBG_INT) c->failed = 1;
      if (c->failed) return v;
      struct cval e = {.lv = 1};
      if ((v.t.kind == DBG_ARR || v.t.kind == DBG_VEC) && v.lv && !v.t.swz) {
        dbg_type_elem(c->env, &v.t, &e.t, 0);
        emit(c, (struct insn){.op = OP_INDEX, .size = v.t.size, .count = v.t.count}, -1);
      } else if (v.t.kind == DBG_PTR && v.t.ekind >= 0) {
        dbg_type_elem(c->env, &v.t, &e.t, 0);
        emit(c, (struct insn){.op = OP_PTRIX, .size = v.t.count}, -1);
      } else {
        c->failed = 1;
      }
      v = e;
    } else if (eat(c, "->")) {
      char f[64];
      dbg_lex_name(&c->lx, f, sizeof(f));
      struct cval pv = rv(c, v);
      if (c->failed || pv.t.kind != DBG_PTR || pv.t.ekind != DBG_STRUCT) {
        c->failed = 1;
        return v;
      }
      struct cval sv = {.lv = 1};
      dbg_type_elem(c->env, &pv.t, &sv.t, 0);
      emit(c, (struct insn){.op = OP_NZ}, 0);
      v = field(c, sv, f);
    } else if (eat(c, ".")) {
      char f[64];
      dbg_lex_name(&c->lx, f, sizeof(f));
      if (!v.lv || v.t.names || v.t.texel_order || dbg_image_is(&v.t)) {
        c->failed = 1;
      } else if (v.t.kind == DBG_STRUCT) {
        v = field(c, v, f);
      } else if (v.t.kind == DBG_VEC && !v.t.swz) {
        int k = component(f, v.t.count);
        if (k < 0) {
          c->failed = 1;
          return v;
        }
        struct cval e = {.lv = 1};
        dbg_type_elem(c->env, &v.t, &e.t, 0);
        emit(c, (struct insn){.op = OP_ADDK, .k.i = (int64_t)k * v.t.size}, 0);
        v = e;
      } else {
        c->failed = 1;
      }
    } else {
      return v;
    }
  }
  return v;
}

/* A numeric constant (dbg_lex_number()). */
static struct cval number(struct C *c) {
  struct cval v = {.lv = 0};
  c->failed |= dbg_lex_number(&c->lx, &v.t, NULL, 0);
  union cv k;
  if (v.t.kind == DBG_FLT)
    k.f = v.t.f;
  else
    k.i = v.t.i;
  emit(c, (struct insn){.op = OP_CONST, .k = k}, 1);
  return v;
}

/* get_global_id(0) and the other work-item functions, with a constant
 * dimension (or none). */
static struct cval item_call(struct C *c, const char *name) {
  struct cval v = {.t = dbg_val_int(0, 0, 8)};
  unsigned dim = 0, sreg;
  uint64_t value;
  ws(c);
  if (isdigit((unsigned char)*c->lx.s)) {
    char *end;
    unsigned long d = strtoul(c->lx.s, &end, 10);
    if (isalnum((unsigned char)*end) || *end == '_' || *end == '.' || d > 1000) c->failed = 1;
    dim = (unsigned)d;
    c->lx.s = end;
  }
  /* the sub-group functions depend on how the warps are formed: not compiled */
  if (!eat(c, ")") || strstr(name, "sub_group") || !dbg_item_fn(name, dim, &sreg, &value)) {
    c->failed = 1;
    return v;
  }
  if (sreg == UINT32_MAX)
    emit(c, (struct insn){.op = OP_CONST, .k.i = (int64_t)value}, 1);
  else
    emit(c, (struct insn){.op = OP_SREG, .k.i = sreg}, 1);
  return v;
}

static struct cval primary(struct C *c) {
  ws(c);
  struct cval v = {.t = dbg_val_int(0, 1, 4)};
  if (eat(c, "(")) {
    v = expr(c);
    if (!eat(c, ")")) c->failed = 1;
    return postfix(c, v);
  }
  if (isdigit((unsigned char)*c->lx.s) || *c->lx.s == '.') return number(c);
  if (isalpha((unsigned char)*c->lx.s) || *c->lx.s == '_') {
    char name[64];
    dbg_lex_name(&c->lx, name, sizeof(name));
    if (!strcmp(name, "sizeof")) {
      c->failed = 1;
      return v;
    }
    if (eat(c, "(")) return item_call(c, name);
    if (c->env->lookup(c->env->ctx, name, &v.t) || !v.t.addr) {
      c->failed = 1;
      return v;
    }
    v.lv = 1;
    emit(c, (struct insn){.op = OP_CONST, .k.i = (int64_t)v.t.addr}, 1);
    return postfix(c, v);
  }
  c->failed = 1; /* characters, the value history, syntax errors */
  return v;
}

static struct cval unary(struct C *c) {
  struct dbg_val t;
  if (eat(c, "-")) {
    struct cval v = rv(c, unary(c));
    emit(c, (struct insn){.op = OP_NEG, .a_cv = (uint8_t)cv_of(&v.t)}, 0);
    return v;
  }
  if (eat(c, "+")) return rv(c, unary(c));
  if (eat(c, "!")) {
    struct cval v = rv(c, unary(c));
    emit(c, (struct insn){.op = OP_NOT, .a_cv = (uint8_t)cv_of(&v.t)}, 0);
    return (struct cval){.t = dbg_val_int(0, 1, 4)};
  }
  if (eat(c, "~")) {
    struct cval v = rv(c, unary(c));
    c->failed |= v.t.kind == DBG_FLT; /* the interpreter's ~ of a float keeps its value */
    emit(c, (struct insn){.op = OP_BNOT}, 0);
    return v;
  }
  if (eat(c, "*")) {
    struct cval v = rv(c, unary(c));
    if (c->failed || v.t.kind != DBG_PTR || v.t.ekind < 0) {
      c->failed = 1;
      return v;
    }
    struct cval e = {.lv = 1};
    dbg_type_elem(c->env, &v.t, &e.t, 0);
    emit(c, (struct insn){.op = OP_NZ}, 0);
    return e;
  }
  if (eat(c, "&")) {
    c->failed = 1;
    return (struct cval){.t = dbg_val_int(0, 1, 4)};
  }
  if (dbg_lex_cast(&c->lx, c->env, &t)) {
    struct cval v = rv(c, unary(c));
    if (t.names || dbg_image_is(&t) || t.kind == DBG_VEC) c->failed = 1;
    emit(c,
         (struct insn){.op = OP_CAST,
                       .kind = (uint8_t)t.kind,
                       .sign = (uint8_t)t.is_signed,
                       .size = t.size,
                       .a_cv = (uint8_t)cv_of(&v.t)},
         0);
    return (struct cval){.t = t};
  }
  return primary(c);
}

/* The type of a op b and the instruction that computes it (apply()). */
static struct dbg_val bin_type(int op, const struct dbg_val *a, const struct dbg_val *b,
                               struct insn *in) {
  in->op = OP_BIN;
  in->sub = (uint8_t)op;
  in->a_cv = (uint8_t)cv_of(a);
  in->b_cv = (uint8_t)cv_of(b);
  if (op == DBG_OP_LOR || op == DBG_OP_LAND) return dbg_val_int(0, 1, 4);
  if (a->kind == DBG_PTR && (op == DBG_OP_ADD || op == DBG_OP_SUB) && b->kind == DBG_INT) {
    in->sub = op == DBG_OP_ADD ? B_PADD : B_PSUB;
    in->size = a->count ? a->count : 1;
    return *a;
  }
  int cmp = op >= DBG_OP_EQ && op <= DBG_OP_GT;
  struct dbg_conv cv = dbg_conv_of(op, a, b);
  if (cv.flt) {
    in->kind = cv.flt == 8 ? 2 : 1;
    return cmp ? dbg_val_int(0, 1, 4) : dbg_val_fp(0, cv.flt);
  }
  in->size = cv.size;
  in->sign = (uint8_t)cv.sign;
  return cmp ? dbg_val_int(0, 1, 4) : dbg_val_int(0, cv.sign, cv.size);
}

static struct cval binary(struct C *c, int level) {
  if (level == DBG_NLEVELS) return unary(c);
  struct cval a = binary(c, level + 1);
  while (!c->failed) {
    int op = -1;
    for (int k = 0; k < DBG_NOPS && op < 0; k++)
      if (dbg_ops[k].level == level && eat(c, dbg_ops[k].s)) op = k;
    if (level == DBG_LEVEL_AT && eat(c, "@")) c->failed = 1;
    if (op < 0 || c->failed) return a;
    struct cval x = rv(c, a);
    struct cval y = rv(c, binary(c, level + 1));
    if (c->failed) return a;
    int ptr = x.t.kind == DBG_PTR && (op == DBG_OP_ADD || op == DBG_OP_SUB) && y.t.kind == DBG_INT;
    int fl = !ptr && (x.t.kind == DBG_FLT || y.t.kind == DBG_FLT);
    /* operators C has no floating-point form of fail in the interpreter */
    double r = 0;
    if (fl && op > DBG_OP_LAND && dbg_flt_op(op, 0, 0, 1, &r) < 0) c->failed = 1;
    struct insn in;
    memset(&in, 0, sizeof(in));
    a.t = bin_type(op, &x.t, &y.t, &in);
    a.lv = 0;
    emit(c, in, -1);
  }
  return a;
}

static struct cval expr(struct C *c) {
  struct cval a = binary(c, 0);
  ws(c);
  /* ?: and assignment are left to the interpreter */
  if (*c->lx.s == '?' || (c->lx.s[0] == '=' && c->lx.s[1] != '=')) c->failed = 1;
  return a;
}

struct dbg_cond *dbg_cond_compile(const struct dbg_env *env, const char *text) {
  struct C c = {env, {text}, 0, NULL, 0, 0, 0};
  struct cval v = rv(&c, expr(&c));
  ws(&c);
  if (*c.lx.s || c.depth != 1) c.failed = 1;
  struct dbg_cond *out = NULL;
  if (!c.failed) {
    /* the truth of the result: compare with zero of its kind */
    emit(&c, (struct insn){.op = OP_NOT, .a_cv = (uint8_t)cv_of(&v.t)}, 0);
    out = c.failed ? NULL : malloc(sizeof(*out) + c.n * sizeof(struct insn));
  }
  if (out) {
    out->n = c.n;
    memcpy(out->code, c.code, c.n * sizeof(struct insn));
  }
  free(c.code);
  return out;
}

void dbg_cond_free(struct dbg_cond *c) {
  free(c);
}

/* ---- evaluating ---- */

static double as_f(union cv v, int cv) {
  return cv == CV_F ? v.f : cv == CV_S ? (double)v.i : (double)(uint64_t)v.i;
}

/* x op y in floating point (dbg_flt_op()). */
static union cv bin_flt(const struct insn *in, union cv a, union cv b) {
  double x = 0;
  union cv r;
  if (dbg_flt_op(in->sub, as_f(a, in->a_cv), as_f(b, in->b_cv), in->kind == 2, &x) == DBG_FLT)
    r.f = x;
  else
    r.i = (int64_t)x;
  return r;
}

/* x op y: 0 when it cannot be computed. */
static int bin(const struct insn *in, union cv *a, union cv b) {
  switch (in->sub) {
  case DBG_OP_LOR:
  case DBG_OP_LAND: {
    int x = as_f(*a, in->a_cv) != 0, y = as_f(b, in->b_cv) != 0;
    a->i = in->sub == DBG_OP_LOR ? x || y : x && y;
    return 1;
  }
  case B_PADD: a->i = (int64_t)((uint64_t)a->i + (uint64_t)b.i * in->size); return 1;
  case B_PSUB: a->i = (int64_t)((uint64_t)a->i - (uint64_t)b.i * in->size); return 1;
  default: break;
  }
  if (in->kind) {
    *a = bin_flt(in, *a, b);
    return 1;
  }
  return dbg_int_op(in->sub, a->i, b.i, in->size, in->sign, &a->i);
}

/* size bytes at m, zero-extended (fixed-size copies: no call, no stall). */
static uint64_t read_raw(const uint8_t *m, unsigned size) {
  uint8_t b;
  uint16_t h;
  uint32_t w;
  uint64_t d = 0;
  switch (size) {
  case 1: memcpy(&b, m, 1); return b;
  case 2: memcpy(&h, m, 2); return h;
  case 4: memcpy(&w, m, 4); return w;
  case 8: memcpy(&d, m, 8); return d;
  default: memcpy(&d, m, size); return d;
  }
}

/* The scalar of in's type at addr as lane reads it (load()); 0 when it
 * cannot be read. A private frame io gives is read directly. */
static int load(const struct insn *in, const struct dbg_cond_io *io, unsigned lane, union cv *v) {
  uint64_t addr = (uint64_t)v->i, off = LSI_ADDR_OFFSET(addr);
  const uint8_t *m;
  if (io->priv && LSI_ADDR_SPACE(addr) == LSI_SPACE_PRIVATE && LSI_ADDR_ID(addr) == 0 &&
      off + in->size <= io->priv_size)
    m = io->priv + lane * io->priv_stride + off;
  else
    m = io->mem(io->ctx, lane, addr, in->size);
  if (!m) return 0;
  dbg_scalar_decode(in->kind, in->sign, in->size, read_raw(m, in->size), &v->i, &v->f);
  return 1;
}

static union cv cast(const struct insn *in, union cv v) {
  if (in->kind == DBG_FLT) {
    v.f = as_f(v, in->a_cv);
    if (in->size == 4) v.f = (float)v.f;
    return v;
  }
  v.i = dbg_int_wrap(in->a_cv == CV_F ? (int64_t)v.f : v.i, in->sign, in->size);
  return v;
}

/* Each live lane (a mask) runs in; lanes that fail leave live. */
#define EACH_LANE(body)                                                                            \
  for (uint64_t m_ = *live; m_; m_ &= m_ - 1) {                                                    \
    unsigned l = (unsigned)__builtin_ctzll(m_);                                                    \
    body;                                                                                          \
  }

/* One instruction for the live lanes; sp is the stack depth before it. */
static void step(const struct insn *in, const struct dbg_cond_io *io, union cv (*st)[64], int sp,
                 uint64_t *live) {
  union cv *t = sp ? st[sp - 1] : NULL, *u = st[sp], *d = sp > 1 ? st[sp - 2] : NULL;
  switch (in->op) {
  case OP_CONST: EACH_LANE(u[l] = in->k); break;
  case OP_SREG: EACH_LANE(u[l].i = (int64_t)io->sreg(io->ctx, l, (unsigned)in->k.i)); break;
  case OP_LOAD: EACH_LANE(if (!load(in, io, l, &t[l])) *live &= ~(UINT64_C(1) << l)); break;
  case OP_ADDK: EACH_LANE(t[l].i = (int64_t)((uint64_t)t[l].i + (uint64_t)in->k.i)); break;
  case OP_INDEX:
    EACH_LANE(if (t[l].i < 0 || (uint64_t)t[l].i >= in->count) *live &= ~(UINT64_C(1) << l);
              d[l].i = (int64_t)((uint64_t)d[l].i + (uint64_t)t[l].i * in->size));
    break;
  case OP_PTRIX:
    EACH_LANE(d[l].i = (int64_t)((uint64_t)d[l].i + (uint64_t)t[l].i * in->size);
              if (!d[l].i) *live &= ~(UINT64_C(1) << l));
    break;
  case OP_NZ: EACH_LANE(if (!t[l].i) *live &= ~(UINT64_C(1) << l)); break;
  case OP_NEG:
    if (in->a_cv == CV_F) {
      EACH_LANE(t[l].f = -t[l].f);
    } else {
      EACH_LANE(t[l].i = (int64_t)(0 - (uint64_t)t[l].i));
    }
    break;
  case OP_NOT:
    if (in->a_cv == CV_F) {
      EACH_LANE(t[l].i = t[l].f == 0);
    } else {
      EACH_LANE(t[l].i = t[l].i == 0);
    }
    break;
  case OP_BNOT: EACH_LANE(t[l].i = ~t[l].i); break;
  case OP_CAST: EACH_LANE(t[l] = cast(in, t[l])); break;
  default: EACH_LANE(if (!bin(in, &d[l], t[l])) *live &= ~(UINT64_C(1) << l)); break;
  }
}

/* The stack depth an instruction leaves, from the one before it. */
static int depth_after(const struct insn *in, int sp) {
  switch (in->op) {
  case OP_CONST:
  case OP_SREG: return sp + 1;
  case OP_INDEX:
  case OP_PTRIX:
  case OP_BIN: return sp - 1;
  default: return sp;
  }
}

uint64_t dbg_cond_eval_lanes(const struct dbg_cond *c, const struct dbg_cond_io *io, uint64_t lanes,
                             uint64_t *unknown) {
  union cv st[COND_STACK][64];
  uint64_t live = lanes;
  int sp = 0;
  for (unsigned pc = 0; pc < c->n && live; pc++) {
    step(&c->code[pc], io, st, sp, &live);
    sp = depth_after(&c->code[pc], sp);
  }
  *unknown = lanes & ~live;
  uint64_t yes = 0;
  /* the final OP_NOT left 1 where the condition is false */
  for (uint64_t m = live; m; m &= m - 1)
    if (!st[0][__builtin_ctzll(m)].i) yes |= m & -m;
  return yes;
}

int dbg_cond_eval(const struct dbg_cond *c, const struct dbg_cond_io *io) {
  uint64_t unknown, yes = dbg_cond_eval_lanes(c, io, 1, &unknown);
  return unknown ? -1 : (int)yes;
}
