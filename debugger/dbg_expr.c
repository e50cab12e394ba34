/*
 * dbg_expr.c - the debugger's expression language: a subset of OpenCL C
 * (variables, a[i], v.x/v.s3, s.f, p->f, *p, &x, arithmetic, comparisons,
 * logic, casts, assignment) evaluated over one work-item's memory.
 *
 * It reaches memory and names only through struct dbg_env; it must not know
 * about sessions, breakpoints or the device.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_debug.h"
#include "debugger/dbg.h"

struct P {
  const struct dbg_env *env;
  const char *s;
  char *err;
  size_t errlen;
  int failed;
  int dry; /* the branch of a conditional not taken: parsed, stores nothing */
};

static void fail(struct P *p, const char *fmt, const char *arg) {
  if (!p->failed) snprintf(p->err, p->errlen, fmt, arg);
  p->failed = 1;
}

static void ws(struct P *p) {
  while (isspace((unsigned char)*p->s))
    p->s++;
}
static int eat(struct P *p, const char *t) {
  ws(p);
  size_t n = strlen(t);
  if (strncmp(p->s, t, n)) return 0;
  /* don't take '&' of '&&', '=' of '==', '<' of '<<' ... */
  if (n == 1 && strchr("&|=<>", t[0]) && p->s[1] == t[0]) return 0;
  if (n == 1 && strchr("<>!=", t[0]) && p->s[1] == '=') return 0;
  p->s += n;
  return 1;
}

static const struct {
  const char *name;
  int kind, sign;
  unsigned size;
} base_types[] = {
    {"char", DBG_INT, 1, 1},          {"uchar", DBG_INT, 0, 1},  {"unsigned char", DBG_INT, 0, 1},
    {"short", DBG_INT, 1, 2},         {"ushort", DBG_INT, 0, 2}, {"unsigned short", DBG_INT, 0, 2},
    {"int", DBG_INT, 1, 4},           {"uint", DBG_INT, 0, 4},   {"unsigned int", DBG_INT, 0, 4},
    {"unsigned", DBG_INT, 0, 4},      {"long", DBG_INT, 1, 8},   {"ulong", DBG_INT, 0, 8},
    {"unsigned long", DBG_INT, 0, 8}, {"size_t", DBG_INT, 0, 8}, {"bool", DBG_INT, 0, 1},
    {"float", DBG_FLT, 1, 4},         {"double", DBG_FLT, 1, 8},
};

/* Strips qualifiers into buf. */
static void strip(const char *t, char *buf, size_t len) {
  static const char *const quals[] = {"__global ",   "global ",   "__local ",   "local ",
                                      "__constant ", "constant ", "__private ", "private ",
                                      "const ",      "volatile ", "restrict ",  "__restrict "};
  char tmp[128];
  snprintf(tmp, sizeof(tmp), "%s", t);
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++) {
      char *at = strstr(tmp, quals[q]);
      if (at) {
        memmove(at, at + strlen(quals[q]), strlen(at + strlen(quals[q])) + 1);
        changed = 1;
      }
    }
  }
  char *e = tmp + strlen(tmp);
  while (e > tmp && isspace((unsigned char)e[-1]))
    *--e = 0;
  snprintf(buf, len, "%s", tmp);
}

static int scalar_type(const char *t, int *kind, int *sign, unsigned *size, unsigned *vec) {
  *vec = 0;
  for (size_t i = 0; i < sizeof(base_types) / sizeof(base_types[0]); i++) {
    size_t n = strlen(base_types[i].name);
    if (!strncmp(t, base_types[i].name, n)) {
      const char *r = t + n;
      unsigned v = 0;
      if (*r && isdigit((unsigned char)*r)) v = (unsigned)strtoul(r, (char **)&r, 10);
      if (*r) continue;
      *kind = base_types[i].kind;
      *sign = base_types[i].sign;
      *size = base_types[i].size;
      *vec = v;
      return 1;
    }
  }
  return 0;
}

static const struct cc_type *struct_type(const struct dbg_env *env, const char *t) {
  return env && env->type ? env->type(env->ctx, t) : NULL;
}

int dbg_type_resolve(const struct dbg_env *env, const char *type, struct dbg_val *v) {
  char t[128];
  const struct cc_type *st;
  strip(type, t, sizeof(t));
  memset(v, 0, sizeof(*v));
  snprintf(v->type, sizeof(v->type), "%.63s", t);
  size_t n = strlen(t);
  int kind, sign;
  unsigned size, vec;
  if (n && t[n - 1] == '*') {
    char el[128];
    snprintf(el, sizeof(el), "%.*s", (int)(n - 1), t);
    char *e = el + strlen(el);
    while (e > el && isspace((unsigned char)e[-1]))
      *--e = 0;
    v->kind = DBG_PTR;
    v->size = 8;
    struct dbg_val arr;
    if (scalar_type(el, &kind, &sign, &size, &vec) && !vec) {
      v->ekind = kind;
      v->esigned = sign;
      v->count = size;
    } else if (scalar_type(el, &kind, &sign, &size, &vec)) {
      v->ekind = DBG_VEC; /* a vector of 3 has the storage of 4 */
      v->esigned = sign;
      v->count = size * (vec == 3 ? 4 : vec);
    } else if (strchr(el, '[') && dbg_type_resolve(env, el, &arr) && arr.kind == DBG_ARR) {
      v->ekind = DBG_ARR;
      v->count = arr.size * arr.count;
    } else if ((st = struct_type(env, el))) {
      v->ekind = DBG_STRUCT;
      v->count = st->size;
    } else {
      v->ekind = -1;
    }
    return 1;
  }
  char *br = strchr(t, '[');
  if (br) {
    char el[128];
    snprintf(el, sizeof(el), "%.*s", (int)(br - t), t);
    const char *rest = strchr(br, ']');
    rest = rest ? rest + 1 : "";
    if (*rest == '[') { /* an array of arrays: its elements are el[rest] */
      char sub[128];
      struct dbg_val e;
      snprintf(sub, sizeof(sub), "%s%s", el, rest);
      if (!dbg_type_resolve(env, sub, &e) || e.kind != DBG_ARR) return 0;
      snprintf(v->type, sizeof(v->type), "%.63s", t);
      v->kind = DBG_ARR;
      v->ekind = DBG_ARR;
      v->size = e.size * e.count;
      v->count = (unsigned)strtoul(br + 1, NULL, 10);
      return 1;
    }
    if ((st = struct_type(env, el))) {
      v->kind = DBG_ARR;
      v->ekind = DBG_STRUCT;
      v->size = st->size;
      v->count = (unsigned)strtoul(br + 1, NULL, 10);
      return 1;
    }
    if (!scalar_type(el, &kind, &sign, &size, &vec)) return 0;
    if (vec) { /* an array of vectors: a vector of 3 has the storage of 4 */
      v->kind = DBG_ARR;
      v->ekind = DBG_VEC;
      v->esigned = sign;
      v->size = size * (vec == 3 ? 4 : vec);
      v->count = (unsigned)strtoul(br + 1, NULL, 10);
      return 1;
    }
    v->kind = DBG_ARR;
    v->ekind = kind;
    v->esigned = sign;
    v->size = size;
    v->count = (unsigned)strtoul(br + 1, NULL, 10);
    return 1;
  }
  if ((st = struct_type(env, t))) {
    v->kind = DBG_STRUCT;
    v->size = st->size;
    return 1;
  }
  if (!scalar_type(t, &kind, &sign, &size, &vec)) return 0;
  if (vec) {
    v->kind = DBG_VEC;
    v->ekind = kind;
    v->esigned = sign;
    v->size = size;
    v->count = vec;
    return 1;
  }
  v->kind = kind;
  v->is_signed = sign;
  v->size = size;
  return 1;
}

static void elem_of(const struct dbg_env *env, const struct dbg_val *c, struct dbg_val *e,
                    uint64_t addr) {
  char sub[128] = "";
  if (c->kind == DBG_ARR && c->ekind == DBG_VEC) {
    /* an element of an array of vectors: the type without its dimension */
    snprintf(sub, sizeof(sub), "%s", c->type);
    char *br = strchr(sub, '[');
    if (br) *br = 0;
  } else if (c->kind == DBG_PTR && (c->ekind == DBG_VEC || c->ekind == DBG_ARR)) {
    /* what a pointer to a vector or an array points to: its type without the '*' */
    snprintf(sub, sizeof(sub), "%s", c->type);
    char *star = strrchr(sub, '*');
    if (star) *star = 0;
  } else if (c->kind == DBG_ARR && c->ekind == DBG_ARR) {
    /* a row of an array of arrays: T[a][b]... drops its first dimension */
    const char *br = strchr(c->type, '['), *end = br ? strchr(br, ']') : NULL;
    snprintf(sub, sizeof(sub), "%.*s%s", br ? (int)(br - c->type) : 0, c->type, end ? end + 1 : "");
  }
  if (sub[0]) {
    if (!dbg_type_resolve(env, sub, e)) memset(e, 0, sizeof(*e));
    e->addr = addr;
    return;
  }
  memset(e, 0, sizeof(*e));
  e->kind = c->ekind;
  e->is_signed = c->esigned;
  e->size = c->kind == DBG_PTR ? c->count : c->size;
  e->addr = addr;
  snprintf(e->type, sizeof(e->type), "%s", c->type);
  char *cut = strpbrk(e->type, "[*");
  if (cut) *cut = 0;
  for (char *x = e->type + strlen(e->type);
       x > e->type && (x[-1] == ' ' || isdigit((unsigned char)x[-1])) && c->kind == DBG_VEC; x--)
    x[-1] = 0;
  for (char *x = e->type + strlen(e->type); x > e->type && x[-1] == ' '; x--)
    x[-1] = 0;
}

/* The field f of struct value v (an lvalue), into *out; 0 when there is none. */
static int field_of(struct P *p, const struct dbg_val *v, const char *f, struct dbg_val *out) {
  const struct cc_type *t = struct_type(p->env, v->type);
  if (!t) {
    fail(p, "the layout of '%s' is not known", v->type);
    return 0;
  }
  for (uint32_t i = 0; i < t->nfields; i++) {
    if (strcmp(t->fields[i].name, f)) continue;
    if (!dbg_type_resolve(p->env, t->fields[i].type_name, out)) {
      char m[160];
      snprintf(m, sizeof(m), "field '%s' has type '%.100s' the debugger cannot show", f,
               t->fields[i].type_name);
      fail(p, "%s", m);
      return 0;
    }
    out->addr = v->addr + t->fields[i].offset;
    return 1;
  }
  char m[160];
  snprintf(m, sizeof(m), "there is no field '%s' in %.100s", f, v->type);
  fail(p, "%s", m);
  return 0;
}

/* Loads a scalar lvalue. */
static void load(struct P *p, struct dbg_val *v) {
  if (!v->addr || (v->kind != DBG_INT && v->kind != DBG_FLT && v->kind != DBG_PTR)) return;
  const uint8_t *m = p->env->mem(p->env->ctx, v->addr, v->size);
  if (!m) {
    char a[32];
    snprintf(a, sizeof(a), "0x%" PRIx64, v->addr);
    fail(p, "Cannot access memory at address %s", a);
    return;
  }
  uint64_t raw = 0;
  memcpy(&raw, m, v->size);
  if (v->kind == DBG_FLT) {
    if (v->size == 4) {
      float f;
      memcpy(&f, &raw, 4);
      v->f = f;
    } else {
      memcpy(&v->f, &raw, 8);
    }
  } else if (v->is_signed && v->size < 8) {
    int sh = 64 - 8 * (int)v->size;
    v->i = (int64_t)(raw << sh) >> sh;
  } else {
    v->i = (int64_t)raw;
  }
}

static struct dbg_val rv(struct P *p, struct dbg_val v) {
  load(p, &v);
  struct dbg_val r = v;
  r.addr = 0;
  if (v.kind == DBG_ARR || v.kind == DBG_VEC) {
    fail(p, "%s", "an array or vector cannot be used as a number here");
  }
  if (v.kind == DBG_STRUCT) fail(p, "%s", "a struct cannot be used as a number here");
  return r;
}

static struct dbg_val mk_int(int64_t i, int sign, unsigned size) {
  struct dbg_val v;
  memset(&v, 0, sizeof(v));
  v.kind = DBG_INT;
  v.i = i;
  v.is_signed = sign;
  v.size = size;
  snprintf(v.type, sizeof(v.type), "%s",
           size == 8 ? (sign ? "long" : "ulong")
           : sign    ? "int"
                     : "uint");
  return v;
}
/* A floating-point value of size bytes (4: float, 8: double). */
static struct dbg_val mk_fp(double f, unsigned size) {
  struct dbg_val v;
  memset(&v, 0, sizeof(v));
  v.kind = DBG_FLT;
  v.f = f;
  v.size = size;
  snprintf(v.type, sizeof(v.type), "%s", size == 4 ? "float" : "double");
  return v;
}

static double as_f(const struct dbg_val *v) {
  return v->kind == DBG_FLT ? v->f : v->is_signed ? (double)v->i : (double)(uint64_t)v->i;
}

static struct dbg_val expr(struct P *p);
static struct dbg_val unary(struct P *p);

/* The components a selector names in a vector of count (3 has the storage
 * of 4): x y z w, s0-sF, lo hi even odd; how many (0: none, -1: bad). */
static int swizzle(const char *f, unsigned count, int *idx) {
  unsigned n = (unsigned)strlen(f), store = count == 3 ? 4 : count, half = store / 2;
  int k = 0;
  if (!strcmp(f, "lo") || !strcmp(f, "hi") || !strcmp(f, "even") || !strcmp(f, "odd")) {
    if (count < 2) return -1;
    for (unsigned i = 0; i < half; i++)
      idx[k++] = (int)(f[0] == 'l' ? i : f[0] == 'h' ? half + i : f[0] == 'e' ? 2 * i : 2 * i + 1);
  } else if (f[0] == 's' || f[0] == 'S') {
    if (n < 2 || n > 17) return -1;
    for (unsigned i = 1; i < n; i++) {
      if (!isxdigit((unsigned char)f[i])) return -1;
      char c[2] = {f[i], 0};
      idx[k++] = (int)strtol(c, NULL, 16);
    }
  } else {
    if (n < 1 || n > 4) return -1;
    for (unsigned i = 0; i < n; i++) {
      const char *c = strchr("xyzw", f[i]);
      if (!c || !*c) return -1;
      idx[k++] = (int)(c - "xyzw");
    }
  }
  if (k != 1 && k != 2 && k != 3 && k != 4 && k != 8 && k != 16) return -1;
  for (int i = 0; i < k; i++)
    if ((unsigned)idx[i] >= count) return -1;
  return k;
}

/* A name (letters, digits, '_') after white space, at most cap-1 of it. */
static void read_name(struct P *p, char *buf, size_t cap) {
  size_t n = 0;
  ws(p);
  while (n + 1 < cap && (isalnum((unsigned char)*p->s) || *p->s == '_'))
    buf[n++] = *p->s++;
  buf[n] = 0;
}

static struct dbg_val postfix(struct P *p, struct dbg_val v) {
  for (;;) {
    if (p->failed) return v;
    if (eat(p, "[")) {
      struct dbg_val ix = rv(p, expr(p));
      if (!eat(p, "]")) fail(p, "%s", "expected ']'");
      if (p->failed) return v;
      if (v.kind == DBG_ARR || v.kind == DBG_VEC) {
        if (ix.i < 0 || (uint64_t)ix.i >= v.count) {
          char b[64];
          snprintf(b, sizeof(b), "%" PRId64 " (size %u)", ix.i, v.count);
          fail(p, "index out of range: %s", b);
          return v;
        }
        struct dbg_val e;
        elem_of(p->env, &v, &e, v.addr + (uint64_t)ix.i * v.size);
        v = e;
      } else if (v.kind == DBG_PTR || (v.addr && v.kind == DBG_PTR)) {
        struct dbg_val pv = rv(p, v);
        if (pv.ekind < 0) fail(p, "%s", "cannot index a pointer to this type");
        struct dbg_val e;
        elem_of(p->env, &pv, &e, (uint64_t)pv.i + (uint64_t)ix.i * pv.count);
        v = e;
      } else {
        fail(p, "%s", "cannot subscript something that is not an array or pointer");
      }
    } else if (eat(p, "->")) {
      char f[64];
      read_name(p, f, sizeof(f));
      struct dbg_val pv = rv(p, v);
      if (p->failed) return v;
      if (pv.kind != DBG_PTR || pv.ekind != DBG_STRUCT) {
        fail(p, "'->%s' needs a pointer to a struct", f);
        return v;
      }
      struct dbg_val sv, e;
      elem_of(p->env, &pv, &sv, (uint64_t)pv.i);
      if (!field_of(p, &sv, f, &e)) return v;
      v = e;
    } else if (eat(p, ".")) {
      char f[64];
      read_name(p, f, sizeof(f));
      if (v.kind == DBG_STRUCT) {
        struct dbg_val e;
        if (!field_of(p, &v, f, &e)) return v;
        v = e;
        continue;
      }
      if (v.kind != DBG_VEC) {
        fail(p, "'.%s' needs a struct or a vector", f);
        return v;
      }
      int idx[16], ni = swizzle(f, v.count, idx);
      if (ni <= 0) {
        fail(p, "no component '%s' in this vector", f);
        return v;
      }
      if (ni == 1) {
        struct dbg_val e;
        elem_of(p->env, &v, &e, v.addr + (uint64_t)idx[0] * v.size);
        v = e;
        continue;
      }
      for (int i = 1; i < ni; i++)
        if (idx[i] != idx[0] + i) {
          fail(p, "'.%s' selects components that are not adjacent; print them one at a time", f);
          return v;
        }
      /* adjacent components: a shorter vector over the same memory */
      struct dbg_val e;
      elem_of(p->env, &v, &e, 0);
      size_t tl = strlen(e.type);
      snprintf(e.type + tl, sizeof(e.type) - tl, "%d", ni);
      e.kind = DBG_VEC;
      e.ekind = v.ekind;
      e.esigned = v.esigned;
      e.size = v.size;
      e.count = (unsigned)ni;
      e.addr = v.addr + (uint64_t)idx[0] * v.size;
      v = e;
    } else {
      return v;
    }
  }
}

static int try_cast(struct P *p, struct dbg_val *t) {
  const char *save = p->s;
  if (!eat(p, "(")) return 0;
  ws(p);
  char name[64];
  int n = 0;
  while (n < 63 && (isalnum((unsigned char)*p->s) || *p->s == '_' || *p->s == ' ' || *p->s == '*'))
    name[n++] = *p->s++;
  name[n] = 0;
  if (eat(p, ")") && n && dbg_type_resolve(p->env, name, t) && t->kind != DBG_ARR &&
      t->kind != DBG_STRUCT)
    return 1;
  p->s = save;
  return 0;
}

/* The bytes a value or type takes (a vector of 3 those of 4). */
static uint64_t size_of(const struct dbg_val *v) {
  switch (v->kind) {
  case DBG_ARR: return (uint64_t)v->size * v->count;
  case DBG_VEC: return (uint64_t)v->size * (v->count == 3 ? 4 : v->count);
  case DBG_PTR: return 8;
  default: return v->size;
  }
}

/* sizeof(TYPE), sizeof(EXPR) or sizeof EXPR, after the word sizeof. */
static struct dbg_val sizeof_of(struct P *p) {
  const char *save = p->s;
  struct dbg_val t;
  ws(p);
  if (!*p->s || *p->s == ')') {
    fail(p, "%s", "sizeof needs a type or an expression");
    return mk_int(0, 0, 8);
  }
  if (eat(p, "(")) {
    ws(p);
    char name[64];
    int n = 0;
    while (n < 63 && *p->s && *p->s != ')')
      name[n++] = *p->s++;
    name[n] = 0;
    if (eat(p, ")") && n && dbg_type_resolve(p->env, name, &t))
      return mk_int((int64_t)size_of(&t), 0, 8);
    p->s = save;
  }
  struct dbg_val v = unary(p);
  return mk_int((int64_t)size_of(&v), 0, 8);
}

static void bad_number(struct P *p, const char *st, int range) {
  char num[48];
  size_t n = 0;
  while (n < sizeof(num) - 1 && (isalnum((unsigned char)st[n]) || st[n] == '_' || st[n] == '.'))
    n++;
  snprintf(num, sizeof(num), "%.*s", (int)n, st);
  fail(p, range ? "integer constant '%s' is too large" : "invalid number '%s'", num);
}

/* A numeric constant, typed as C types it: a floating constant is a double
 * unless suffixed f; an integer constant (decimal, 0x hex or 0 octal) takes
 * the first of int, uint (hex and octal only), long, ulong that holds it,
 * narrowed by its u and l suffixes. */
static struct dbg_val number(struct P *p) {
  const char *st = p->s;
  char *end;
  int hex = st[0] == '0' && (st[1] == 'x' || st[1] == 'X');
  const char *d = st;
  while (!hex && isdigit((unsigned char)*d))
    d++;
  if (!hex && (*d == '.' || *d == 'e' || *d == 'E')) {
    struct dbg_val v = mk_fp(strtod(st, &end), 8); /* a double, as in C, unless suffixed f */
    if (*end == 'f' || *end == 'F') {
      v = mk_fp((float)v.f, 4);
      end++;
    }
    p->s = end;
    if (isalnum((unsigned char)*end) || *end == '_' || *end == '.') bad_number(p, st, 0);
    return v;
  }
  errno = 0;
  uint64_t u = strtoull(st, &end, hex ? 16 : st[0] == '0' ? 8 : 10);
  int range = errno == ERANGE, uns = 0, lng = 0;
  for (;;) {
    if ((*end == 'u' || *end == 'U') && !uns) {
      uns = 1;
      end++;
    } else if ((*end == 'l' || *end == 'L') && !lng) {
      lng = 1;
      end += end[1] == end[0] ? 2 : 1; /* l or ll: both 64 bits */
    } else {
      break;
    }
  }
  p->s = end;
  if (range || isalnum((unsigned char)*end) || *end == '_' || *end == '.') {
    bad_number(p, st, range);
    return mk_int(0, 1, 4);
  }
  int octhex = hex || st[0] == '0';
  if (!uns && !lng && u <= INT32_MAX) return mk_int((int64_t)u, 1, 4);
  if (!lng && (uns || octhex) && u <= UINT32_MAX) return mk_int((int64_t)u, 0, 4);
  if (!uns && u <= INT64_MAX) return mk_int((int64_t)u, 1, 8);
  return mk_int((int64_t)u, 0, 8);
}

static struct dbg_val primary(struct P *p) {
  ws(p);
  struct dbg_val v = mk_int(0, 1, 4);
  if (eat(p, "(")) {
    v = expr(p);
    if (!eat(p, ")")) fail(p, "%s", "expected ')'");
    return postfix(p, v);
  }
  if (*p->s == '\'') { /* a character constant: 'c', '\n', '\0', '\\', '\'' */
    const char *c = p->s + 1;
    int ch = (unsigned char)*c;
    if (ch == '\\' && c[1]) {
      c++;
      switch (*c) {
      case 'n': ch = '\n'; break;
      case 't': ch = '\t'; break;
      case 'r': ch = '\r'; break;
      case '0': ch = 0; break;
      case 'a': ch = '\a'; break;
      case 'b': ch = '\b'; break;
      case 'f': ch = '\f'; break;
      case 'v': ch = '\v'; break;
      default: ch = (unsigned char)*c; break;
      }
      if (c[1] == '\'') {
        p->s = c + 2;
        return mk_int(ch, 1, 4);
      }
    }
    if (!ch || c[1] != '\'') {
      fail(p, "%s", "bad character constant");
      return v;
    }
    p->s = c + 2;
    return mk_int(ch, 1, 4);
  }
  if (isdigit((unsigned char)*p->s) || *p->s == '.') return number(p);
  if (isalpha((unsigned char)*p->s) || *p->s == '_') {
    char name[64];
    read_name(p, name, sizeof(name));
    if (!strcmp(name, "sizeof")) return sizeof_of(p);
    if (eat(p, "(")) {
      struct dbg_val a = mk_int(0, 1, 4);
      if (!eat(p, ")")) {
        a = rv(p, expr(p));
        if (!eat(p, ")")) fail(p, "%s", "expected ')'");
      }
      uint64_t out = 0;
      if (!p->failed && !p->env->sreg(p->env->ctx, name, (unsigned)a.i, &out)) {
        fail(p, "unknown function '%s'", name);
      }
      return mk_int((int64_t)out, 0, 8);
    }
    const char *e = p->env->lookup(p->env->ctx, name, &v);
    if (e) fail(p, "%s", e);
    return postfix(p, v);
  }
  fail(p, "syntax error at '%s'", *p->s ? p->s : "end of expression");
  return v;
}

static struct dbg_val unary(struct P *p) {
  struct dbg_val t;
  if (eat(p, "-")) {
    struct dbg_val v = rv(p, unary(p));
    if (v.kind == DBG_FLT)
      v.f = -v.f;
    else
      v.i = -v.i;
    return v;
  }
  if (eat(p, "+")) return rv(p, unary(p));
  if (eat(p, "!")) {
    struct dbg_val v = rv(p, unary(p));
    return mk_int(v.kind == DBG_FLT ? v.f == 0 : v.i == 0, 1, 4);
  }
  if (eat(p, "~")) {
    struct dbg_val v = rv(p, unary(p));
    v.i = ~v.i;
    return v;
  }
  if (eat(p, "*")) {
    struct dbg_val v = rv(p, unary(p));
    if (p->failed) return v;
    if (v.kind != DBG_PTR || v.ekind < 0) {
      fail(p, "%s", "cannot dereference something that is not a pointer to a known type");
      return v;
    }
    struct dbg_val e;
    elem_of(p->env, &v, &e, (uint64_t)v.i);
    return e;
  }
  if (eat(p, "&")) {
    struct dbg_val v = unary(p);
    if (p->failed) return v;
    if (!v.addr) {
      fail(p, "%s", "cannot take the address of a value that is not in memory");
      return v;
    }
    struct dbg_val r = mk_int((int64_t)v.addr, 0, 8);
    r.kind = DBG_PTR;
    /* a pointer to the whole vector or array, as in C */
    r.ekind = v.kind;
    r.esigned = v.kind == DBG_ARR || v.kind == DBG_VEC ? v.esigned : v.is_signed;
    r.count = v.kind == DBG_VEC   ? v.size * (v.count == 3 ? 4 : v.count)
              : v.kind == DBG_ARR ? v.size * v.count
                                  : v.size;
    snprintf(r.type, sizeof(r.type), "%.60s *", v.type);
    return r;
  }
  if (try_cast(p, &t)) {
    struct dbg_val v = rv(p, unary(p));
    if (t.kind == DBG_FLT) {
      t.f = as_f(&v);
      if (t.size == 4) t.f = (float)t.f;
    } else {
      int64_t x = v.kind == DBG_FLT ? (int64_t)v.f : v.i;
      if (t.size < 8) {
        int sh = 64 - 8 * (int)t.size;
        x = t.is_signed ? (int64_t)((uint64_t)x << sh) >> sh : (int64_t)(((uint64_t)x << sh) >> sh);
      }
      t.i = x;
    }
    return t;
  }
  return primary(p);
}

/* Binary operators by precedence level. */
static const char *const levels[][6] = {
    {"||"},       {"&&"},     {"|"},           {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"},
    {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
};
#define NLEVELS (int)(sizeof(levels) / sizeof(levels[0]))

static struct dbg_val apply(struct P *p, const char *op, struct dbg_val a, struct dbg_val b) {
  if (!strcmp(op, "&&")) return mk_int(as_f(&a) != 0 && as_f(&b) != 0, 1, 4);
  if (!strcmp(op, "||")) return mk_int(as_f(&a) != 0 || as_f(&b) != 0, 1, 4);
  int flt = a.kind == DBG_FLT || b.kind == DBG_FLT;
  if (a.kind == DBG_PTR && (!strcmp(op, "+") || !strcmp(op, "-")) && b.kind == DBG_INT) {
    a.i += (op[0] == '+' ? 1 : -1) * b.i * (int64_t)(a.count ? a.count : 1);
    return a;
  }
  if (flt) {
    /* C's conversions: double when either operand is a double, else float
     * (computed in double, rounded once: exact for + - * /) */
    int dbl = (a.kind == DBG_FLT && a.size == 8) || (b.kind == DBG_FLT && b.size == 8);
    unsigned fs = dbl ? 8 : 4;
    double x = as_f(&a), y = as_f(&b);
    if (!dbl) x = (float)x, y = (float)y;
    if (!strcmp(op, "+")) return mk_fp(dbl ? x + y : (float)(x + y), fs);
    if (!strcmp(op, "-")) return mk_fp(dbl ? x - y : (float)(x - y), fs);
    if (!strcmp(op, "*")) return mk_fp(dbl ? x * y : (float)(x * y), fs);
    if (!strcmp(op, "/")) return mk_fp(dbl ? x / y : (float)(x / y), fs);
    if (!strcmp(op, "==")) return mk_int(x == y, 1, 4);
    if (!strcmp(op, "!=")) return mk_int(x != y, 1, 4);
    if (!strcmp(op, "<")) return mk_int(x < y, 1, 4);
    if (!strcmp(op, ">")) return mk_int(x > y, 1, 4);
    if (!strcmp(op, "<=")) return mk_int(x <= y, 1, 4);
    if (!strcmp(op, ">=")) return mk_int(x >= y, 1, 4);
    fail(p, "invalid operands to '%s' (floating point)", op);
    return a;
  }
  unsigned size = a.size > b.size ? a.size : b.size;
  if (size < 4) size = 4;
  int sign = (a.is_signed || a.size < size) && (b.is_signed || b.size < size);
  int64_t x = a.i, y = b.i;
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  if (size == 4 && !sign) ux &= 0xffffffffu, uy &= 0xffffffffu;
  int64_t r = 0;
  if (!strcmp(op, "+"))
    r = x + y;
  else if (!strcmp(op, "-"))
    r = x - y;
  else if (!strcmp(op, "*"))
    r = x * y;
  else if (!strcmp(op, "/") || !strcmp(op, "%")) {
    if (y == 0) {
      fail(p, "%s", "division by zero");
      return a;
    }
    r = op[0] == '/' ? (sign ? x / y : (int64_t)(ux / uy)) : (sign ? x % y : (int64_t)(ux % uy));
  } else if (!strcmp(op, "&"))
    r = x & y;
  else if (!strcmp(op, "|"))
    r = x | y;
  else if (!strcmp(op, "^"))
    r = x ^ y;
  else if (!strcmp(op, "<<"))
    r = (int64_t)(ux << (y & 63));
  else if (!strcmp(op, ">>"))
    r = sign ? x >> (y & 63) : (int64_t)(ux >> (y & 63));
  else if (!strcmp(op, "=="))
    return mk_int(sign ? x == y : ux == uy, 1, 4);
  else if (!strcmp(op, "!="))
    return mk_int(sign ? x != y : ux != uy, 1, 4);
  else if (!strcmp(op, "<"))
    return mk_int(sign ? x < y : ux < uy, 1, 4);
  else if (!strcmp(op, ">"))
    return mk_int(sign ? x > y : ux > uy, 1, 4);
  else if (!strcmp(op, "<="))
    return mk_int(sign ? x <= y : ux <= uy, 1, 4);
  else if (!strcmp(op, ">="))
    return mk_int(sign ? x >= y : ux >= uy, 1, 4);
  if (size == 4) r = sign ? (int32_t)r : (int64_t)(uint32_t)r;
  return mk_int(r, sign, size);
}

static struct dbg_val binary(struct P *p, int level) {
  if (level == NLEVELS) return unary(p);
  struct dbg_val a = binary(p, level + 1);
  for (;;) {
    if (p->failed) return a;
    const char *op = NULL;
    for (int k = 0; k < 6 && levels[level][k]; k++)
      if (eat(p, levels[level][k])) {
        op = levels[level][k];
        break;
      }
    if (!op) return a;
    struct dbg_val x = rv(p, a);
    struct dbg_val y = rv(p, binary(p, level + 1));
    if (p->failed) return a;
    a = apply(p, op, x, y);
  }
}

static void store(struct P *p, struct dbg_val *dst, struct dbg_val v) {
  if (p->dry) return;
  if (!dst->addr || (dst->kind != DBG_INT && dst->kind != DBG_FLT && dst->kind != DBG_PTR)) {
    fail(p, "%s", "left operand of assignment is not a scalar variable");
    return;
  }
  uint8_t *m = p->env->mem(p->env->ctx, dst->addr, dst->size);
  if (!m) {
    fail(p, "%s", "cannot write that memory");
    return;
  }
  uint64_t raw;
  if (dst->kind == DBG_FLT) {
    double f = as_f(&v);
    if (dst->size == 4) {
      float x = (float)f;
      memcpy(&raw, &x, 4);
    } else {
      memcpy(&raw, &f, 8);
    }
  } else {
    raw = (uint64_t)(v.kind == DBG_FLT ? (int64_t)v.f : v.i);
  }
  memcpy(m, &raw, dst->size);
}

/* One branch of c ? a : b: the one not taken is only parsed (what it
 * would read or fail on does not count). */
static struct dbg_val branch(struct P *p, int taken, struct dbg_val (*parse)(struct P *)) {
  if (taken) return rv(p, parse(p));
  char err[200];
  struct P q = *p;
  q.err = err;
  q.errlen = sizeof(err);
  q.dry = 1;
  struct dbg_val v = parse(&q);
  p->s = q.s;
  return v;
}

static struct dbg_val cond_expr(struct P *p) {
  struct dbg_val c = binary(p, 0);
  if (p->failed || !eat(p, "?")) return c;
  c = rv(p, c);
  if (p->failed) return c;
  int yes = c.kind == DBG_FLT ? c.f != 0 : c.i != 0;
  struct dbg_val a = branch(p, yes, expr);
  if (p->failed) return a;
  if (!eat(p, ":")) {
    fail(p, "%s", "expected ':' in a conditional expression");
    return a;
  }
  struct dbg_val b = branch(p, !yes, cond_expr);
  return yes ? a : b;
}

static struct dbg_val expr(struct P *p) {
  struct dbg_val a = cond_expr(p);
  ws(p);
  if (p->s[0] == '=' && p->s[1] != '=') {
    p->s++;
    struct dbg_val b = rv(p, expr(p));
    if (p->failed) return a;
    store(p, &a, b);
  }
  return a;
}

int dbg_eval(const struct dbg_env *env, const char *text, struct dbg_val *out, char *err,
             size_t errlen) {
  struct P p = {env, text, err, errlen, 0};
  struct dbg_val v = expr(&p);
  ws(&p);
  if (!p.failed && *p.s) fail(&p, "syntax error at '%s'", p.s);
  if (!p.failed) load(&p, &v);
  *out = v;
  return p.failed;
}

static void fmt_scalar(const struct dbg_val *v, int fmt, char *buf, size_t len) {
  if (v->kind == DBG_FLT) {
    if (fmt == 'x') {
      uint64_t raw = 0;
      if (v->size == 4) {
        float f = (float)v->f;
        memcpy(&raw, &f, 4);
      } else {
        memcpy(&raw, &v->f, 8);
      }
      snprintf(buf, len, "0x%" PRIx64, raw);
    } else {
      /* the digits that tell every float, or every double, apart */
      snprintf(buf, len, v->size == 8 ? "%.17g" : "%.9g", v->f);
    }
  } else if (v->kind == DBG_PTR) {
    snprintf(buf, len, "(%s) 0x%" PRIx64, v->type, (uint64_t)v->i);
  } else if (fmt == 'x' || fmt == 'o' || fmt == 't' || fmt == 'u') {
    uint64_t u = (uint64_t)v->i;
    if (v->size < 8) u &= (UINT64_C(1) << (8 * v->size)) - 1;
    if (fmt == 'x') {
      snprintf(buf, len, "0x%" PRIx64, u);
    } else if (fmt == 'o') {
      snprintf(buf, len, "0%" PRIo64, u);
    } else if (fmt == 'u') {
      snprintf(buf, len, "%" PRIu64, u);
    } else {
      char bits[65];
      int n = 0;
      for (int b = 63; b >= 0; b--)
        if (n || (u >> b) & 1 || b == 0) bits[n++] = (char)('0' + ((u >> b) & 1));
      bits[n] = 0;
      snprintf(buf, len, "%s", bits);
    }
  } else if (fmt == 'd') {
    int sh = 64 - 8 * (int)(v->size ? v->size : 8);
    snprintf(buf, len, "%" PRId64, sh > 0 ? (int64_t)((uint64_t)v->i << sh) >> sh : v->i);
  } else if (fmt == 'c') {
    int c = (int)(int8_t)v->i;
    if (isprint(c & 0xff) && c >= 0)
      snprintf(buf, len, "%d '%c'", c, c);
    else
      snprintf(buf, len, "%d '\\%03o'", c, c & 0xff);
  } else if (v->is_signed) {
    snprintf(buf, len, "%" PRId64, v->i);
  } else {
    uint64_t u = (uint64_t)v->i;
    if (v->size < 8) u &= (UINT64_C(1) << (8 * v->size)) - 1;
    snprintf(buf, len, "%" PRIu64, u);
  }
}

static size_t format_at(const struct dbg_env *env, const struct dbg_val *v, int fmt, char *buf,
                        size_t len, int depth);

/* Formats one element or field (an lvalue) into buf + n; returns the new n. */
static size_t format_member(const struct dbg_env *env, struct dbg_val *e, int fmt, char *buf,
                            size_t len, size_t n, int depth) {
  if (e->kind == DBG_STRUCT || e->kind == DBG_ARR || e->kind == DBG_VEC)
    return n + format_at(env, e, fmt, buf + n, len - n, depth + 1);
  struct P p = {env, "", NULL, 0, 0};
  char tmp[96]; /* the message is not shown; big enough not to truncate */
  p.err = tmp;
  p.errlen = sizeof(tmp);
  load(&p, e);
  char one[96];
  if (p.failed)
    snprintf(one, sizeof(one), "<unreadable>");
  else
    fmt_scalar(e, fmt, one, sizeof(one));
  int w = snprintf(buf + n, len - n, "%s", one);
  return n + (w > 0 && (size_t)w < len - n ? (size_t)w : len - n - 1);
}

static size_t format_at(const struct dbg_env *env, const struct dbg_val *v, int fmt, char *buf,
                        size_t len, int depth) {
  if (len < 8) return 0;
  buf[0] = 0;
  if (v->kind != DBG_ARR && v->kind != DBG_VEC && v->kind != DBG_STRUCT) {
    fmt_scalar(v, fmt, buf, len);
    return strlen(buf);
  }
  if (depth > 8) return (size_t)snprintf(buf, len, "{...}");
  size_t n = 0;
  n += (size_t)snprintf(buf + n, len - n, "{");
  if (v->kind == DBG_STRUCT) {
    const struct cc_type *t = struct_type(env, v->type);
    for (uint32_t i = 0; t && i < t->nfields && n < len - 32; i++) {
      n += (size_t)snprintf(buf + n, len - n, "%s%.40s = ", i ? ", " : "", t->fields[i].name);
      struct dbg_val e;
      if (!dbg_type_resolve(env, t->fields[i].type_name, &e)) {
        n += (size_t)snprintf(buf + n, len - n, "<%.40s>", t->fields[i].type_name);
        continue;
      }
      e.addr = v->addr + t->fields[i].offset;
      n = format_member(env, &e, fmt, buf, len, n, depth);
    }
  } else {
    for (unsigned i = 0; i < v->count && n < len - 32; i++) {
      struct dbg_val e;
      elem_of(env, v, &e, v->addr + (uint64_t)i * v->size);
      if (i) n += (size_t)snprintf(buf + n, len - n, ", ");
      n = format_member(env, &e, fmt, buf, len, n, depth);
    }
  }
  if (n < len - 2) n += (size_t)snprintf(buf + n, len - n, "}");
  return n;
}

void dbg_format(const struct dbg_env *env, const struct dbg_val *v, int fmt, char *buf,
                size_t len) {
  format_at(env, v, fmt, buf, len, 0);
}

/* ---- checking a condition before there is anything to evaluate it on ---- */

static const char *check_lookup(void *ctx, const char *name, struct dbg_val *v) {
  (void)ctx, (void)name;
  memset(v, 0, sizeof(*v));
  v->kind = DBG_INT;
  v->is_signed = 1;
  v->size = 4;
  v->i = 1; /* not 0: a division by the name is no error here */
  snprintf(v->type, sizeof(v->type), "int");
  return NULL;
}

static void *check_mem(void *ctx, uint64_t addr, uint64_t size) {
  (void)ctx, (void)addr, (void)size;
  return NULL;
}

static int check_sreg(void *ctx, const char *fn, unsigned dim, uint64_t *out) {
  (void)ctx, (void)fn, (void)dim;
  *out = 1;
  return 1;
}

int dbg_cond_parses(const char *text, char *err, size_t errlen) {
  struct dbg_env env = {NULL, check_lookup, check_mem, check_sreg, NULL};
  struct dbg_val v;
  if (!dbg_eval(&env, text, &v, err, errlen)) return 1;
  /* only the shape of the text counts: names, types and memory are known
   * when a work-item reaches the breakpoint */
  return strncmp(err, "syntax error", 12) && strncmp(err, "expected", 8);
}
