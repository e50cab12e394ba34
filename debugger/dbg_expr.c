/*
 * dbg_expr.c - the debugger's expression language: a subset of OpenCL C
 * (variables, a[i], every vector selection, s.f, p->f, *p, &x, arithmetic,
 * comparisons, logic, casts, assignment) and gdb's artificial arrays (a@n),
 * evaluated over one work-item's memory; printing values as gdb does. Types
 * as C spells them (whatis, ptype) are dbg_type.c's; images, samplers and
 * texels (img(x, y), img.width) dbg_image.c's, through small hooks here.
 *
 * It reaches memory and names only through struct dbg_env; it must not know
 * about sessions, breakpoints or the device.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_debug.h"
#include "debugger/dbg.h"
#include "debugger/dbg_image.h"
#include "debugger/dbg_lex.h"

struct P {
  const struct dbg_env *env;
  struct dbg_lex lx; /* the text */
  char *err;
  size_t errlen;
  int failed;
  int dry;      /* the branch of a conditional not taken: parsed, stores nothing */
  int typeonly; /* whatis/ptype: the value itself is not read */
};

static void fail(struct P *p, const char *fmt, const char *arg) {
  if (!p->failed) snprintf(p->err, p->errlen, fmt, arg);
  p->failed = 1;
}

static void ws(struct P *p) {
  dbg_lex_ws(&p->lx);
}
static int eat(struct P *p, const char *t) {
  return dbg_lex_eat(&p->lx, t);
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
    {"signed char", DBG_INT, 1, 1},   {"float", DBG_FLT, 1, 4},  {"double", DBG_FLT, 1, 8},
};

/* Strips qualifiers into buf; all 0 keeps const and volatile. */
static void strip_quals(const char *t, char *buf, size_t len, int all) {
  static const char *const quals[] = {"__global ",   "global ",   "__local ",   "local ",
                                      "__constant ", "constant ", "__private ", "private ",
                                      "const ",      "volatile ", "restrict ",  "__restrict "};
  char tmp[128];
  snprintf(tmp, sizeof(tmp), "%s", t);
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++) {
      if (!all && (!strcmp(quals[q], "const ") || !strcmp(quals[q], "volatile "))) continue;
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

static void strip(const char *t, char *buf, size_t len) {
  strip_quals(t, buf, len, 1);
}

/* The address-space qualifier a type spells, as "__global " (with the
 * space), or "". */
static const char *space_qual(const char *t) {
  static const char *const sp[][2] = {
      {"global", "__global "}, {"local", "__local "}, {"constant", "__constant "}};
  for (const char *w = t; *w; w++) {
    if (w > t && (isalnum((unsigned char)w[-1]) || w[-1] == '_')) continue;
    const char *b = w;
    while (*b == '_')
      b++;
    for (size_t i = 0; i < sizeof(sp) / sizeof(sp[0]); i++) {
      size_t n = strlen(sp[i][0]);
      if (!strncmp(b, sp[i][0], n) && !isalnum((unsigned char)b[n]) && b[n] != '_') return sp[i][1];
    }
  }
  return "";
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
  if (dbg_image_resolve(t, v)) return 1; /* image and sampler types */
  memset(v, 0, sizeof(*v));
  /* a pointer (or an array of them) keeps the address space and the const
   * of what it points to */
  if (strchr(t, '*')) {
    char cv[128];
    strip_quals(type, cv, sizeof(cv), 0);
    snprintf(v->type, sizeof(v->type), "%s%.50s", space_qual(type), cv);
  } else {
    snprintf(v->type, sizeof(v->type), "%.63s", t);
  }
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
      v->kind = DBG_ARR;
      v->ekind = DBG_ARR;
      v->size = e.size * e.count;
      v->count = (unsigned)strtoul(br + 1, NULL, 10);
      return 1;
    }
    size_t el_n = strlen(el);
    while (el_n && el[el_n - 1] == ' ')
      el[--el_n] = 0;
    if (el_n && el[el_n - 1] == '*') { /* an array of pointers */
      v->kind = DBG_ARR;
      v->ekind = DBG_PTR;
      v->size = 8;
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
    out->lim = v->lim;
    memcpy(out->obj, v->obj, sizeof(out->obj));
    return 1;
  }
  char m[160];
  snprintf(m, sizeof(m), "there is no field '%s' in %.100s", f, v->type);
  fail(p, "%s", m);
  return 0;
}

/* What a null pointer points to: address 0 is no memory (and an lvalue of
 * address 0 is a value that is not in memory). */
static void null_access(struct P *p) {
  if (!p->typeonly && !p->dry) fail(p, "%s", "Cannot access memory at address 0x0");
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
  dbg_scalar_decode(v->kind, v->is_signed, v->size, raw, &v->i, &v->f);
}

static struct dbg_val rv(struct P *p, struct dbg_val v) {
  load(p, &v);
  struct dbg_val r = v;
  r.addr = 0;
  if (v.kind == DBG_ARR || v.kind == DBG_VEC) {
    fail(p, "%s", "an array or vector cannot be used as a number here");
  }
  if (v.texel_order)
    fail(p, "%s", "a texel cannot be used as a number here: select a channel (.r)");
  else if (v.kind == DBG_STRUCT)
    fail(p, "%s", "a struct cannot be used as a number here");
  return r;
}

static double as_f(const struct dbg_val *v) {
  return v->kind == DBG_FLT ? v->f : v->is_signed ? (double)v->i : (double)(uint64_t)v->i;
}

static struct dbg_val expr(struct P *p);
static struct dbg_val unary(struct P *p);

/* Component i of vector v: its index in the vector at v->addr, or -1
 * for the undefined w of a 3-component vector (.hi, .odd). */
static int vec_lane(const struct dbg_val *v, unsigned i) {
  if (!v->swz) return (int)i;
  return v->sel[i] == DBG_UNDEF ? -1 : v->sel[i];
}

/* Component i of vector v (an lvalue), into *e; 0 (failed) when it is undefined. */
static int vec_elem(struct P *p, const struct dbg_val *v, unsigned i, struct dbg_val *e) {
  int lane = vec_lane(v, i);
  if (lane < 0) {
    fail(p, "%s",
         "that component is undefined: .hi and .odd of a 3-component vector end in its w, "
         "which it does not have");
    return 0;
  }
  dbg_type_elem(p->env, v, e, v->addr + (uint64_t)lane * v->size);
  e->lim = v->lim;
  memcpy(e->obj, v->obj, sizeof(e->obj));
  return 1;
}

/* The components selector f names in a vector of count components (OpenCL
 * C 3.0 6.3.c): x y z w or r g b a (not mixed), s0-sF (S too, A-F or a-f),
 * lo hi even odd (a 3-component vector counts as 4 with w undefined: -1).
 * Returns how many (1, 2, 3, 4, 8 or 16) into idx, or 0 having failed. */
static int swizzle(struct P *p, const char *f, unsigned count, const char *type, int *idx) {
  unsigned n = (unsigned)strlen(f), half = (count == 3 ? 4 : count) / 2;
  int k = 0;
  char m[200];
  if (!strcmp(f, "lo") || !strcmp(f, "hi") || !strcmp(f, "even") || !strcmp(f, "odd")) {
    for (unsigned i = 0; i < half; i++) {
      unsigned c = f[0] == 'l' ? i : f[0] == 'h' ? half + i : f[0] == 'e' ? 2 * i : 2 * i + 1;
      idx[k++] = c < count ? (int)c : -1;
    }
    return k;
  }
  if (!n) {
    fail(p, "%s", "expected a component or field name after '.'");
    return 0;
  }
  static const char *const sets[] = {"xyzw", "rgba"};
  int set = -1, numeric = f[0] == 's' || f[0] == 'S';
  for (unsigned i = numeric; i < n; i++) {
    int here = -1;
    for (int q = 0; q < 2; q++)
      if (strchr(sets[q], f[i])) here = q;
    int mixed = numeric ? here >= 0 && !isxdigit((unsigned char)f[i])
                        : (here >= 0 && set >= 0 && here != set) || f[i] == 's' || f[i] == 'S';
    if (mixed) {
      snprintf(m, sizeof(m), "'.%.20s' mixes the %s component names", f,
               numeric || f[i] == 's' || f[i] == 'S' ? "xyzw (or rgba) and s0-sF"
                                                     : "xyzw and rgba");
      fail(p, "%s", m);
      return 0;
    }
    if (numeric ? !isxdigit((unsigned char)f[i]) : here < 0) {
      fail(p, "no component '%s' in this vector", f);
      return 0;
    }
    set = here;
    char c[2] = {f[i], 0};
    if (k < 16)
      idx[k] = numeric ? (int)strtol(c, NULL, 16) : (int)(strchr(sets[here], f[i]) - sets[here]);
    k++;
  }
  if (numeric && n == 1) {
    fail(p, "%s", "'.s' needs component numbers: .s0 to .sF");
    return 0;
  }
  if (k != 1 && k != 2 && k != 3 && k != 4 && k != 8 && k != 16) {
    snprintf(m, sizeof(m), "'.%.20s' selects %d components; a selection has 1, 2, 3, 4, 8 or 16", f,
             k);
    fail(p, "%s", m);
    return 0;
  }
  for (int i = 0; i < k; i++)
    if ((unsigned)idx[i] >= count) {
      char name[4];
      if (numeric)
        snprintf(name, sizeof(name), "s%c", f[1 + i]);
      else
        snprintf(name, sizeof(name), "%c", f[i]);
      snprintf(m, sizeof(m), "no component '%s' in %.40s: it has %u components", name, type, count);
      fail(p, "%s", m);
      return 0;
    }
  return k;
}

/* v.f of an image, a sampler or a texel (dbg_image.c): 1 when v is one
 * (v becomes the member, or p failed), else 0. */
static int image_member(struct P *p, struct dbg_val *v, const char *f) {
  struct dbg_val m = *v, out;
  char err[200];
  const char *const *names;
  if (!dbg_image_members(v, &names)) return 0; /* none of them: nothing read */
  load(p, &m);                                 /* an image's or a sampler's value */
  if (p->failed) return 1;
  int r = dbg_image_member(p->env, &m, f, &out, err, sizeof(err));
  if (r < 0) fail(p, "%s", err);
  if (r > 0) *v = out;
  return r != 0;
}

/* NAME(c, ...) after the '(' where NAME is an image: its texel (1), else 0
 * with nothing read. */
static int texel_call(struct P *p, const char *name, struct dbg_val *out) {
  struct dbg_val img;
  const char *e = p->env->lookup(p->env->ctx, name, &img);
  uint64_t known;
  if (e && strncmp(e, "No symbol", 9) && !p->env->sreg(p->env->ctx, name, 0, &known)) {
    fail(p, "%s", e); /* a variable that has no value here (not passed yet) */
    return 1;
  }
  if (e || !dbg_image_is(&img)) return 0;
  load(p, &img);
  int64_t c[3] = {0, 0, 0};
  unsigned n = 0;
  if (!eat(p, ")")) {
    do {
      struct dbg_val a = rv(p, expr(p));
      if (!p->failed && a.kind != DBG_INT) fail(p, "%s", "texel coordinates must be integers");
      if (n < 3) c[n] = a.i;
      n++;
    } while (!p->failed && eat(p, ","));
    if (!eat(p, ")")) fail(p, "%s", "expected ')'");
  }
  char err[300];
  if (!p->failed && !p->dry &&
      dbg_image_texel(p->env, name, &img, c, n, p->typeonly, out, err, sizeof(err)))
    fail(p, "%s", err);
  return 1;
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
        if (v.kind == DBG_VEC) {
          if (!vec_elem(p, &v, (unsigned)ix.i, &e)) return v;
        } else {
          dbg_type_elem(p->env, &v, &e, v.addr + (uint64_t)ix.i * v.size);
          e.lim = v.lim;
          memcpy(e.obj, v.obj, sizeof(e.obj));
        }
        v = e;
      } else if (v.kind == DBG_PTR) {
        struct dbg_val pv = rv(p, v);
        if (pv.ekind < 0) fail(p, "%s", "cannot index a pointer to this type");
        struct dbg_val e;
        dbg_type_elem(p->env, &pv, &e, (uint64_t)pv.i + (uint64_t)ix.i * pv.count);
        if (!e.addr) null_access(p);
        v = e;
      } else {
        fail(p, "%s", "cannot subscript something that is not an array or pointer");
      }
    } else if (eat(p, "->")) {
      char f[64];
      dbg_lex_name(&p->lx, f, sizeof(f));
      struct dbg_val pv = rv(p, v);
      if (p->failed) return v;
      if (pv.kind != DBG_PTR || pv.ekind != DBG_STRUCT) {
        fail(p, "'->%s' needs a pointer to a struct", f);
        return v;
      }
      struct dbg_val sv, e;
      dbg_type_elem(p->env, &pv, &sv, (uint64_t)pv.i);
      if (!sv.addr) null_access(p);
      if (p->failed || !field_of(p, &sv, f, &e)) return v;
      v = e;
    } else if (eat(p, ".")) {
      char f[64];
      dbg_lex_name(&p->lx, f, sizeof(f));
      if (image_member(p, &v, f)) continue;
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
      int idx[16], ni = swizzle(p, f, v.count, v.type, idx);
      if (ni <= 0) return v;
      if (ni == 1) {
        struct dbg_val e;
        if (!vec_elem(p, &v, (unsigned)idx[0], &e)) return v;
        v = e;
        continue;
      }
      /* a vector of ni components of the same memory: adjacent ones are a
       * shorter vector at their address, others keep the map */
      struct dbg_val e;
      dbg_type_elem(p->env, &v, &e, 0);
      size_t tl = strlen(e.type);
      snprintf(e.type + tl, sizeof(e.type) - tl, "%d", ni);
      e.kind = DBG_VEC;
      e.ekind = v.ekind;
      e.esigned = v.esigned;
      e.size = v.size;
      e.count = (unsigned)ni;
      e.lim = v.lim;
      memcpy(e.obj, v.obj, sizeof(e.obj));
      int lanes[16], adjacent = 1;
      for (int i = 0; i < ni; i++) {
        lanes[i] = idx[i] < 0 ? -1 : vec_lane(&v, (unsigned)idx[i]);
        if (lanes[i] < 0 || lanes[i] != lanes[0] + i) adjacent = 0;
      }
      e.addr = v.addr + (adjacent ? (uint64_t)lanes[0] * v.size : 0);
      e.swz = !adjacent;
      for (int i = 0; i < ni && !adjacent; i++)
        e.sel[i] = lanes[i] < 0 ? DBG_UNDEF : (unsigned char)lanes[i];
      v = e;
    } else {
      return v;
    }
  }
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
  const char *save = p->lx.s;
  struct dbg_val t;
  ws(p);
  if (!*p->lx.s || *p->lx.s == ')') {
    fail(p, "%s", "sizeof needs a type or an expression");
    return dbg_val_int(0, 0, 8);
  }
  if (eat(p, "(")) {
    ws(p);
    char name[64];
    int n = 0;
    while (n < 63 && *p->lx.s && *p->lx.s != ')')
      name[n++] = *p->lx.s++;
    name[n] = 0;
    if (eat(p, ")") && n && dbg_type_resolve(p->env, name, &t))
      return dbg_val_int((int64_t)size_of(&t), 0, 8);
    p->lx.s = save;
  }
  int typeonly = p->typeonly;
  p->typeonly = 1; /* sizeof *p reads nothing through p */
  struct dbg_val v = unary(p);
  p->typeonly = typeonly;
  return dbg_val_int((int64_t)size_of(&v), 0, 8);
}

/* A numeric constant (dbg_lex_number()). */
static struct dbg_val number(struct P *p) {
  struct dbg_val v;
  char e[96];
  if (dbg_lex_number(&p->lx, &v, e, sizeof(e))) fail(p, "%s", e);
  return v;
}

static struct dbg_val primary(struct P *p) {
  ws(p);
  struct dbg_val v = dbg_val_int(0, 1, 4);
  if (eat(p, "(")) {
    v = expr(p);
    if (!eat(p, ")")) fail(p, "%s", "expected ')'");
    return postfix(p, v);
  }
  if (*p->lx.s == '\'') { /* a character constant: 'c', '\n', '\0', '\\', '\'' */
    const char *c = p->lx.s + 1;
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
        p->lx.s = c + 2;
        return dbg_val_int(ch, 1, 4);
      }
    }
    if (!ch || c[1] != '\'') {
      fail(p, "%s", "bad character constant");
      return v;
    }
    p->lx.s = c + 2;
    return dbg_val_int(ch, 1, 4);
  }
  if (isdigit((unsigned char)*p->lx.s) || *p->lx.s == '.') return number(p);
  if (*p->lx.s == '$' && (isalpha((unsigned char)p->lx.s[1]) || p->lx.s[1] == '_')) {
    p->lx.s++; /* a convenience variable: $name, set by $name = EXPR */
    char name[32];
    dbg_lex_name(&p->lx, name, sizeof(name));
    ws(p);
    int set = p->lx.s[0] == '=' && p->lx.s[1] != '=';
    if (set) {
      p->lx.s++;
      v = rv(p, expr(p));
      if (p->failed || p->dry || p->typeonly) return v;
    }
    const char *e = p->env->conv ? p->env->conv(p->env->ctx, name, &v, set)
                                 : "convenience variables cannot be used here";
    if (e) fail(p, "%s", e);
    return set ? v : postfix(p, v);
  }
  if (*p->lx.s == '$') { /* the value history: $, $N, $$, $$N */
    char ref[24];
    size_t n = 0;
    const char *c = p->lx.s + 1;
    if (*c == '$') ref[n++] = *c++;
    while (isdigit((unsigned char)*c) && n < sizeof(ref) - 1)
      ref[n++] = *c++;
    ref[n] = 0;
    p->lx.s = c;
    const char *e = p->env->history ? p->env->history(p->env->ctx, ref, &v)
                                    : "the value history cannot be used here";
    if (e) fail(p, "%s", e);
    return postfix(p, v);
  }
  if (isalpha((unsigned char)*p->lx.s) || *p->lx.s == '_') {
    char name[64];
    dbg_lex_name(&p->lx, name, sizeof(name));
    if (!strcmp(name, "sizeof")) return sizeof_of(p);
    if (eat(p, "(")) {
      if (texel_call(p, name, &v)) return postfix(p, v);
      struct dbg_val a = dbg_val_int(0, 1, 4);
      uint64_t known = 0;
      /* the name first: the arguments of an unknown function are not read */
      if (!p->failed && !p->env->sreg(p->env->ctx, name, 0, &known))
        fail(p, "unknown function '%s'", name);
      if (!eat(p, ")")) {
        a = rv(p, expr(p));
        int more = 0; /* the call's shape first: a missing ')' is the error */
        for (; !p->failed && eat(p, ","); more++)
          expr(p);
        if (!eat(p, ")")) fail(p, "%s", "expected ')'");
        if (more) fail(p, "function '%s' takes one argument", name);
      }
      uint64_t out = 0;
      if (!p->failed && !p->env->sreg(p->env->ctx, name, (unsigned)a.i, &out)) {
        fail(p, "unknown function '%s'", name);
      }
      return dbg_val_int((int64_t)out, 0, 8);
    }
    const char *e = p->env->lookup(p->env->ctx, name, &v);
    if (e) fail(p, "%s", e);
    if (!e && v.addr) { /* what an artificial array from it may reach */
      v.lim = v.addr + size_of(&v);
      snprintf(v.obj, sizeof(v.obj), "%.31s", name);
    }
    return postfix(p, v);
  }
  fail(p, "syntax error at '%s'", *p->lx.s ? p->lx.s : "end of expression");
  return v;
}

static struct dbg_val unary(struct P *p) {
  struct dbg_val t;
  if (eat(p, "-")) {
    struct dbg_val v = rv(p, unary(p));
    if (v.kind == DBG_FLT)
      v.f = -v.f;
    else
      v.i = (int64_t)(0 - (uint64_t)v.i);
    return v;
  }
  if (eat(p, "+")) return rv(p, unary(p));
  if (eat(p, "!")) {
    struct dbg_val v = rv(p, unary(p));
    return dbg_val_int(v.kind == DBG_FLT ? v.f == 0 : v.i == 0, 1, 4);
  }
  if (eat(p, "~")) {
    struct dbg_val v = rv(p, unary(p));
    v.i = ~v.i;
    return v;
  }
  if (eat(p, "*")) {
    struct dbg_val v = rv(p, unary(p));
    if (p->failed) return v;
    if (dbg_image_is(&v)) {
      fail(p, "%s", "an image cannot be dereferenced: IMG(x, y) is a texel, IMG.width a size");
      return v;
    }
    if (v.kind != DBG_PTR || v.ekind < 0) {
      fail(p, "%s", "cannot dereference something that is not a pointer to a known type");
      return v;
    }
    struct dbg_val e;
    dbg_type_elem(p->env, &v, &e, (uint64_t)v.i);
    if (!e.addr) null_access(p);
    return e;
  }
  if (eat(p, "&")) {
    struct dbg_val v = unary(p);
    if (p->failed) return v;
    if (!v.addr) {
      fail(p, "%s", "cannot take the address of a value that is not in memory");
      return v;
    }
    if (v.swz) {
      fail(p, "%s", "cannot take the address of vector components that are not adjacent");
      return v;
    }
    struct dbg_val r = dbg_val_int((int64_t)v.addr, 0, 8);
    r.kind = DBG_PTR;
    /* a pointer to the whole vector or array, as in C */
    r.ekind = v.kind;
    r.esigned = v.kind == DBG_ARR || v.kind == DBG_VEC ? v.esigned : v.is_signed;
    r.count = v.kind == DBG_VEC   ? v.size * (v.count == 3 ? 4 : v.count)
              : v.kind == DBG_ARR ? v.size * v.count
                                  : v.size;
    /* a pointer to memory of an address space says so, as C spells it */
    const char *sp = v.kind != DBG_PTR && p->env->space ? p->env->space(p->env->ctx, v.addr) : "";
    snprintf(r.type, sizeof(r.type), "%s%.50s *", sp ? sp : "", v.type);
    return r;
  }
  if (dbg_lex_cast(&p->lx, p->env, &t)) {
    struct dbg_val v = rv(p, unary(p));
    if (t.kind == DBG_FLT) {
      t.f = as_f(&v);
      if (t.size == 4) t.f = (float)t.f;
    } else {
      t.i = dbg_int_wrap(v.kind == DBG_FLT ? (int64_t)v.f : v.i, t.is_signed, t.size);
    }
    return t;
  }
  return primary(p);
}

static struct dbg_val apply(struct P *p, int op, struct dbg_val a, struct dbg_val b) {
  if (op == DBG_OP_LAND) return dbg_val_int(as_f(&a) != 0 && as_f(&b) != 0, 1, 4);
  if (op == DBG_OP_LOR) return dbg_val_int(as_f(&a) != 0 || as_f(&b) != 0, 1, 4);
  if (a.kind == DBG_PTR && (op == DBG_OP_ADD || op == DBG_OP_SUB) && b.kind == DBG_INT) {
    uint64_t d = (uint64_t)b.i * (a.count ? a.count : 1);
    a.i = (int64_t)(op == DBG_OP_ADD ? (uint64_t)a.i + d : (uint64_t)a.i - d);
    return a;
  }
  struct dbg_conv c = dbg_conv_of(op, &a, &b);
  if (c.flt) {
    double r = 0;
    int k = dbg_flt_op(op, as_f(&a), as_f(&b), c.flt == 8, &r);
    if (k < 0) fail(p, "invalid operands to '%s' (floating point)", dbg_ops[op].s);
    return k < 0 ? a : k == DBG_FLT ? dbg_val_fp(r, c.flt) : dbg_val_int((int64_t)r, 1, 4);
  }
  int64_t r;
  if (!dbg_int_op(op, a.i, b.i, c.size, c.sign, &r)) {
    fail(p, "%s", "division by zero");
    return a;
  }
  int cmp = op >= DBG_OP_EQ && op <= DBG_OP_GT;
  return dbg_val_int(r, cmp || c.sign, cmp ? 4 : c.size);
}

/* How many elements of esize bytes from addr the memory there holds, at
 * most want. */
static uint64_t mem_fits(struct P *p, uint64_t addr, uint64_t esize, uint64_t want) {
  if (p->env->mem(p->env->ctx, addr, esize * want)) return want;
  uint64_t lo = 0, hi = want - 1; /* the answer is in [lo, hi] */
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    if (p->env->mem(p->env->ctx, addr, esize * mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* gdb's artificial array l@n: n objects like l from l's address on. */
static struct dbg_val artificial(struct P *p, struct dbg_val l, struct dbg_val n) {
  char m[300];
  if (n.kind != DBG_INT) {
    fail(p, "%s", "the count after '@' must be an integer");
    return l;
  }
  if (n.i <= 0 || n.i > (1 << 20)) {
    snprintf(m, sizeof(m), "the count after '@' must be 1 to %d, not %" PRId64, 1 << 20, n.i);
    fail(p, "%s", m);
    return l;
  }
  if (!l.addr) {
    fail(p, "%s", "only values in memory can be extended with '@'");
    return l;
  }
  if (l.swz) {
    fail(p, "%s", "vector components that are not adjacent cannot be extended with '@'");
    return l;
  }
  uint64_t esize = size_of(&l), want = (uint64_t)n.i, fits;
  if (!esize) {
    fail(p, "%s", "only objects of a known size can be extended with '@'");
    return l;
  }
  if (l.lim) {
    fits = l.lim > l.addr ? (l.lim - l.addr) / esize : 0;
    if (fits > want) fits = want;
  } else {
    fits = p->dry ? want : mem_fits(p, l.addr, esize, want);
  }
  if (!fits && !l.lim && !p->dry) {
    snprintf(m, sizeof(m), "Cannot access memory at address 0x%" PRIx64, l.addr);
    fail(p, "%s", m);
    return l;
  }
  if (fits < want && !p->dry) {
    char where[160] = "";
    if (l.lim)
      snprintf(where, sizeof(where), "variable '%s'", l.obj);
    else if (p->env->region)
      p->env->region(p->env->ctx, l.addr, where, sizeof(where));
    if (!where[0]) snprintf(where, sizeof(where), "its memory");
    snprintf(m, sizeof(m),
             "only %" PRIu64 " element%s from there to the end of %s (asked for %" PRIu64 ")", fits,
             fits == 1 ? "" : "s", where, want);
    fail(p, "%s", m);
    return l;
  }
  struct dbg_val a = l;
  a.kind = DBG_ARR;
  a.ekind = l.kind;
  a.esigned = l.kind == DBG_ARR || l.kind == DBG_VEC ? l.esigned : l.is_signed;
  a.is_signed = 0;
  a.size = (unsigned)esize;
  a.count = (unsigned)want;
  a.i = 0;
  a.f = 0;
  if (!a.lim) a.lim = l.addr + esize * want;
  /* T[n], or T[n][k] when the objects are arrays T[k] themselves */
  char *br = strchr(l.type, '[');
  size_t at = br ? (size_t)(br - l.type) : strlen(l.type);
  snprintf(a.type, sizeof(a.type), "%.*s[%" PRIu64 "]%s", (int)at, l.type, want, l.type + at);
  return a;
}

static struct dbg_val binary(struct P *p, int level) {
  if (level == DBG_NLEVELS) return unary(p);
  struct dbg_val a = binary(p, level + 1);
  for (;;) {
    if (p->failed) return a;
    int op = -1;
    for (int k = 0; k < DBG_NOPS && op < 0; k++)
      if (dbg_ops[k].level == level && eat(p, dbg_ops[k].s)) op = k;
    if (op < 0 && level == DBG_LEVEL_AT && eat(p, "@")) {
      struct dbg_val n = rv(p, binary(p, level + 1));
      if (p->failed) return a;
      a = artificial(p, a, n);
      continue;
    }
    if (op < 0) return a;
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

/* Assigns to the components of vector dst: a vector of as many components
 * (each converted) or a scalar (to every one), as OpenCL C does. The
 * undefined w of a 3-component vector's .hi or .odd is not written. */
static void store_vec(struct P *p, const struct dbg_val *dst, struct dbg_val src) {
  if (!dst->addr) {
    fail(p, "%s", "left operand of assignment is not in memory");
    return;
  }
  for (unsigned i = 0; i < dst->count; i++)
    for (unsigned j = i + 1; j < dst->count; j++)
      if (vec_lane(dst, i) >= 0 && vec_lane(dst, i) == vec_lane(dst, j)) {
        fail(p, "%s", "cannot assign to a vector selection that names a component twice");
        return;
      }
  struct dbg_val vals[16], e;
  if (src.kind == DBG_VEC) {
    if (src.count != dst->count) {
      char m[120];
      snprintf(m, sizeof(m), "cannot assign %u components to %u", src.count, dst->count);
      fail(p, "%s", m);
      return;
    }
    for (unsigned i = 0; i < src.count && !p->failed; i++)
      if (vec_elem(p, &src, i, &e)) vals[i] = rv(p, e);
  } else {
    struct dbg_val x = rv(p, src);
    for (unsigned i = 0; i < dst->count; i++)
      vals[i] = x;
  }
  /* every value is read before any is written: v.xy = v.yx swaps */
  for (unsigned i = 0; i < dst->count && !p->failed; i++) {
    int lane = vec_lane(dst, i);
    if (lane < 0) continue;
    dbg_type_elem(p->env, dst, &e, dst->addr + (uint64_t)lane * dst->size);
    store(p, &e, vals[i]);
  }
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
  p->lx.s = q.lx.s;
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
  if (p->lx.s[0] == '=' && p->lx.s[1] != '=') {
    p->lx.s++;
    if (a.kind == DBG_VEC && !p->failed) {
      struct dbg_val b = expr(p);
      if (!p->failed) store_vec(p, &a, b);
      return a;
    }
    if (a.kind == DBG_STRUCT && a.addr && !a.texel_order && !p->failed) {
      struct dbg_val b = expr(p);
      const char *why =
          p->failed || p->dry || p->typeonly ? NULL : dbg_store_struct(p->env, &a, &b);
      if (why) fail(p, "%s", why);
      return a;
    }
    struct dbg_val b = rv(p, expr(p));
    if (p->failed) return a;
    store(p, &a, b);
  }
  return a;
}

static int eval_text(const struct dbg_env *env, const char *text, struct dbg_val *out, char *err,
                     size_t errlen, int typeonly) {
  struct P p = {env, {text}, err, errlen, 0, 0, typeonly};
  struct dbg_val v = expr(&p);
  ws(&p);
  if (!p.failed && *p.lx.s) fail(&p, "syntax error at '%s'", p.lx.s);
  if (!p.failed && !typeonly) load(&p, &v);
  /* a struct, array or vector none of whose memory can be read (past a
   * buffer's end, through a bad pointer) is an error, as a scalar is */
  if (!p.failed && !typeonly && v.addr &&
      (v.kind == DBG_STRUCT || v.kind == DBG_ARR || v.kind == DBG_VEC) &&
      !env->mem(env->ctx, v.addr, 1)) {
    char a[32];
    snprintf(a, sizeof(a), "0x%" PRIx64, v.addr);
    fail(&p, "Cannot access memory at address %s", a);
  }
  *out = v;
  return p.failed;
}

int dbg_eval(const struct dbg_env *env, const char *text, struct dbg_val *out, char *err,
             size_t errlen) {
  return eval_text(env, text, out, err, errlen, 0);
}

int dbg_eval_type(const struct dbg_env *env, const char *text, struct dbg_val *out, char *err,
                  size_t errlen) {
  return eval_text(env, text, out, err, errlen, 1);
}

void dbg_type_strip(const char *t, char *buf, size_t len) {
  strip(t, buf, len);
}

/* ---- printing values ---- */

/* A char type (char, uchar, signed or unsigned char): printed with its
 * character, as gdb does. */
static int is_char(const struct dbg_val *v) {
  return v->kind == DBG_INT && v->size == 1 &&
         (!strcmp(v->type, "char") || !strcmp(v->type, "uchar") ||
          !strcmp(v->type, "unsigned char") || !strcmp(v->type, "signed char"));
}

/* Byte c as C writes it between quote characters: 'a', '\n', '\\', '\000'. */
static int char_esc(unsigned c, int quote, char *out) {
  switch (c) {
  case '\a': return sprintf(out, "\\a");
  case '\b': return sprintf(out, "\\b");
  case '\f': return sprintf(out, "\\f");
  case '\n': return sprintf(out, "\\n");
  case '\r': return sprintf(out, "\\r");
  case '\t': return sprintf(out, "\\t");
  case '\v': return sprintf(out, "\\v");
  default: break;
  }
  if (c == (unsigned)quote || c == '\\') return sprintf(out, "\\%c", c);
  if (c >= 0x20 && c < 0x7f) return sprintf(out, "%c", c);
  return sprintf(out, "\\%03o", c & 0xff);
}

/* A char array as gdb prints it: a string without its last NUL, runs of
 * more than 10 equal bytes as 'c' <repeats N times>, 200 bytes at most. */
static void fmt_string(const uint8_t *m, size_t count, char *buf, size_t len) {
  enum { REPEATS = 10, MAX = 200 };
  size_t n = count, i = 0, k = 0, things = 0;
  int state = 0; /* 0 nothing yet, 1 inside a "string", 2 after a repeat block */
  if (n && !m[n - 1]) n--;
  buf[0] = 0;
  if (!n) {
    snprintf(buf, len, "\"\"");
    return;
  }
  while (i < n && things < MAX && k + 48 < len) {
    size_t run = 1;
    while (i + run < n && m[i + run] == m[i])
      run++;
    char c[8];
    if (run > REPEATS) {
      char_esc(m[i], '\'', c);
      k += (size_t)snprintf(buf + k, len - k, "%s%s'%s' <repeats %zu times>",
                            state == 1 ? "\"" : "", state ? ", " : "", c, run);
      state = 2;
      things += REPEATS;
      i += run;
      continue;
    }
    if (state != 1) k += (size_t)snprintf(buf + k, len - k, "%s\"", state == 2 ? ", " : "");
    state = 1;
    for (size_t j = 0; j < run && things < MAX && k + 16 < len; j++, i++, things++) {
      char_esc(m[i], '"', c);
      k += (size_t)snprintf(buf + k, len - k, "%s", c);
    }
  }
  if (state == 1) k += (size_t)snprintf(buf + k, len - k, "\"");
  if (i < n) snprintf(buf + k, len - k, "...");
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
    char t[96];
    dbg_type_name(v, t, sizeof(t));
    snprintf(buf, len, "(%s) 0x%" PRIx64, t, (uint64_t)v->i);
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
  } else if (fmt == 'c' || (!fmt && is_char(v))) {
    /* the number (a char's own signedness; /c of a wider one is a char's),
     * then the character */
    int64_t x = is_char(v) && !v->is_signed ? (int64_t)(uint8_t)v->i : (int64_t)(int8_t)v->i;
    char c[8];
    char_esc((unsigned)(uint8_t)v->i, '\'', c);
    snprintf(buf, len, "%" PRId64 " '%s'", x, c);
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
  struct P p = {env, {""}, NULL, 0, 0};
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
  if (dbg_image_format(env, v, fmt, buf, len)) return strlen(buf);
  if (v->kind != DBG_ARR && v->kind != DBG_VEC && v->kind != DBG_STRUCT) {
    fmt_scalar(v, fmt, buf, len);
    return strlen(buf);
  }
  if (depth > 8) return (size_t)snprintf(buf, len, "{...}");
  if (!fmt && v->kind == DBG_ARR && v->ekind == DBG_INT && v->size == 1 && v->addr) {
    struct dbg_val e;
    dbg_type_elem(env, v, &e, v->addr);
    const uint8_t *m = is_char(&e) ? env->mem(env->ctx, v->addr, v->count) : NULL;
    if (m) {
      fmt_string(m, v->count, buf, len);
      return strlen(buf);
    }
  }
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
    unsigned i = 0;
    for (; i < v->count && n < len - 32; i++) {
      struct dbg_val e;
      int lane = v->kind == DBG_VEC ? vec_lane(v, i) : (int)i;
      if (i) n += (size_t)snprintf(buf + n, len - n, ", ");
      if (lane < 0) { /* the w of a 3-component vector's .hi or .odd */
        n += (size_t)snprintf(buf + n, len - n, "<undefined>");
        continue;
      }
      dbg_type_elem(env, v, &e, v->addr + (uint64_t)lane * v->size);
      n = format_member(env, &e, fmt, buf, len, n, depth);
    }
    if (i < v->count && n < len - 5) n += (size_t)snprintf(buf + n, len - n, "...");
  }
  if (n < len - 2) n += (size_t)snprintf(buf + n, len - n, "}");
  return n;
}

void dbg_format(const struct dbg_env *env, const struct dbg_val *v, int fmt, char *buf,
                size_t len) {
  format_at(env, v, fmt, buf, len, 0);
}
