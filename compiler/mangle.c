/*
 * mangle.c - the Itanium name mangling of OpenCL C builtins as clang emits
 * it for spir64: reads a mangled name into its function name and parameter
 * types (with substitutions S_, S0_, S1_ ... expanded), and writes a name
 * back with substitutions (the scalar form of a vectorised call).
 *
 * Substitution candidates follow clang: every type that is not a builtin
 * type, in the order its mangling finishes: a pointer after its pointee, a
 * qualified type (address space, restrict, volatile, const: one candidate
 * for all of them) after its unqualified type, _Atomic(T) after T. It knows
 * only the types builtins take (builtin types, vectors, pointers,
 * qualifiers, _Atomic and named types such as memory_order or ocl_event):
 * anything else fails the parse; it never guesses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_int.h"

#define MAX_SUBS 64

struct mstate {
  const char *s;
  int flat; /* drop address-space qualifiers from the types read */
  unsigned nsubs;
  struct cc_mparam subs[MAX_SUBS];
};

/* Bytes of a builtin type code; 0 for void and the types builtins never use. */
unsigned cc_builtin_size(char c) {
  switch (c) {
  case 'c':
  case 'a':
  case 'h':
  case 'b': return 1;
  case 's':
  case 't': return 2;
  case 'i':
  case 'j':
  case 'f': return 4;
  case 'l':
  case 'm':
  case 'd':
  case 'x':
  case 'y': return 8;
  default: return 0;
  }
}

static int is_builtin(const char *s) {
  return cc_builtin_size(*s) || *s == 'v' || (s[0] == 'D' && s[1] == 'h');
}

static int add_sub(struct mstate *m, const struct cc_mparam *p) {
  if (m->nsubs == MAX_SUBS) return 0;
  m->subs[m->nsubs++] = *p;
  return 1;
}

/* "U7_Atomic" starts an _Atomic type, not a qualifier. */
static int is_atomic(const char *s) {
  return !strncmp(s, "U7_Atomic", 9);
}

/* Length of a vendor qualifier "U<len><name>" at s, or 0. */
static size_t vendor_len(const char *s) {
  if (*s != 'U') return 0;
  char *e;
  unsigned long len = strtoul(s + 1, &e, 10);
  if (e == s + 1 || !len || strnlen(e, len) < len) return 0;
  return (size_t)(e - s) + len;
}

/* Length of the qualifiers of a qualified type at s (vendor qualifiers
 * other than _Atomic, then r, V, K). */
static size_t quals_len(const char *s) {
  const char *t = s;
  for (size_t n; !is_atomic(t) && (n = vendor_len(t)) > 0;)
    t += n;
  if (*t == 'r') t++;
  if (*t == 'V') t++;
  if (*t == 'K') t++;
  return (size_t)(t - s);
}

/* Copies the qualifiers s[0, q) to dst without address spaces ("U3AS1"):
 * returns the length left. q < CC_MTYPE_LEN (quals_len of a bounded name). */
static size_t drop_as(char *dst, const char *s, size_t q) {
  size_t o = 0;
  for (size_t i = 0; i < q;) {
    size_t n = vendor_len(s + i);
    int as = n == 4 + 1 && !strncmp(s + i, "U3AS", 4) && s[i + 4] >= '0' && s[i + 4] <= '9';
    if (!n) n = 1;
    if (!as) memcpy(dst + o, s + i, n), o += n;
    i += n;
  }
  return o;
}

static int cat(char *dst, const char *a, size_t alen, const char *b) {
  int n = snprintf(dst, CC_MTYPE_LEN, "%.*s%s", (int)alen, a, b);
  return n >= 0 && n < CC_MTYPE_LEN;
}

/* Parses one type at m->s into p, recording substitution candidates. */
static int parse_type(struct mstate *m, struct cc_mparam *p) {
  const char *s = m->s;
  struct cc_mparam in;
  memset(p, 0, sizeof(*p));
  if (is_builtin(s)) {
    size_t n = *s == 'D' ? 2 : 1;
    memcpy(p->full, s, n);
    memcpy(p->scalar, s, n);
    p->elem_size = *s == 'D' ? 2 : cc_builtin_size(*s);
    m->s += n;
    return 1;
  }
  if (*s == 'S') { /* S_ is candidate 0, S<base 36>_ is that number + 1 */
    const char *t = s + 1;
    unsigned idx = 0;
    if (*t != '_') {
      while ((*t >= '0' && *t <= '9') || (*t >= 'A' && *t <= 'Z')) {
        idx = idx * 36 + (unsigned)(*t <= '9' ? *t - '0' : *t - 'A' + 10);
        if (idx > MAX_SUBS) return 0;
        t++;
      }
      idx++;
    }
    if (*t != '_' || idx >= m->nsubs) return 0;
    *p = m->subs[idx];
    m->s = t + 1;
    return 1;
  }
  if (*s == 'P') {
    m->s++;
    if (!parse_type(m, &in) || !cat(p->full, "P", 1, in.full) || !cat(p->scalar, "P", 1, in.scalar))
      return 0;
    p->is_ptr = 1;
    p->vec = in.vec;
    p->elem_size = in.elem_size;
    return add_sub(m, p);
  }
  if (s[0] == 'D' && s[1] == 'v') {
    char *t;
    unsigned long n = strtoul(s + 2, &t, 10);
    if (t == s + 2 || *t != '_' || !n || n > 16) return 0;
    m->s = t + 1;
    if (!parse_type(m, &in) || in.vec || in.is_ptr || !in.elem_size) return 0;
    if (!cat(p->full, s, (size_t)(t + 1 - s), in.full)) return 0;
    memcpy(p->scalar, in.full, sizeof(in.full));
    p->vec = (unsigned)n;
    p->elem_size = in.elem_size;
    return add_sub(m, p);
  }
  if (*s >= '1' && *s <= '9') { /* a named type: enums and opaque types */
    char *t;
    unsigned long len = strtoul(s, &t, 10);
    if (strnlen(t, len) < len || (size_t)(t - s) + len >= CC_MTYPE_LEN) return 0;
    size_t n = (size_t)(t - s) + len;
    memcpy(p->full, s, n);
    memcpy(p->scalar, s, n);
    p->elem_size = 4;
    m->s += n;
    if (*m->s == 'I') return 0; /* template arguments: not an OpenCL type */
    return add_sub(m, p);
  }
  if (is_atomic(s)) {
    m->s += 9;
    if (!parse_type(m, &in) || !cat(p->full, s, 9, in.full) || !cat(p->scalar, s, 9, in.scalar))
      return 0;
    p->vec = in.vec;
    p->is_ptr = in.is_ptr;
    p->elem_size = in.elem_size;
    return add_sub(m, p);
  }
  size_t q = quals_len(s);
  if (!q) return 0;
  m->s += q;
  char quals[CC_MTYPE_LEN];
  size_t ql = m->flat ? drop_as(quals, s, q) : q;
  const char *qs = m->flat ? quals : s;
  if (!parse_type(m, &in) || !cat(p->full, qs, ql, in.full) || !cat(p->scalar, qs, ql, in.scalar))
    return 0;
  p->vec = in.vec;
  p->is_ptr = in.is_ptr;
  p->elem_size = in.elem_size;
  return add_sub(m, p);
}

static int demangle(const char *mangled, char *name, size_t namelen, struct cc_mparam *ps,
                    unsigned max, int flat) {
  if (strncmp(mangled, "_Z", 2)) return -1;
  char *t;
  unsigned long len = strtoul(mangled + 2, &t, 10);
  if (!len || strnlen(t, len) < len || len >= namelen) return -1;
  memcpy(name, t, len);
  name[len] = 0;
  struct mstate *m = malloc(sizeof(*m));
  if (!m) return -1;
  m->s = t + len;
  m->flat = flat;
  m->nsubs = 0;
  int n = 0;
  struct cc_mparam p;
  while (*m->s) {
    if (!parse_type(m, &p) || (unsigned)n == max) {
      n = -1;
      break;
    }
    if (!strcmp(p.full, "v") && n == 0 && !*m->s) break; /* f(void) */
    ps[n++] = p;
  }
  free(m);
  return n;
}

int cc_demangle(const char *mangled, char *name, size_t namelen, struct cc_mparam *ps,
                unsigned max) {
  return demangle(mangled, name, namelen, ps, max, 0);
}

/* Writes the type at *s (expanded) to out, using and recording substitutions. */
static int emit_type(struct mstate *m, const char **s, char *out, size_t *ol, size_t cap) {
  const char *start = *s;
#define PUT(str, n)                                                                                \
  do {                                                                                             \
    size_t n_ = (n);                                                                               \
    if (*ol + n_ >= cap) return 0;                                                                 \
    memcpy(out + *ol, (str), n_);                                                                  \
    *ol += n_;                                                                                     \
    out[*ol] = 0;                                                                                  \
  } while (0)
  if (is_builtin(start)) {
    size_t n = *start == 'D' ? 2 : 1;
    PUT(start, n);
    *s += n;
    return 1;
  }
  /* the type's extent and expansion, from a parse without candidates */
  struct mstate *probe = malloc(sizeof(*probe));
  if (!probe) return 0;
  probe->s = start;
  probe->flat = 0;
  probe->nsubs = 0;
  struct cc_mparam p;
  int ok = parse_type(probe, &p);
  const char *end = probe->s;
  free(probe);
  if (!ok) return 0; /* not a type, or not expanded (S refers to nothing) */
  for (unsigned i = 0; i < m->nsubs; i++)
    if (!strcmp(m->subs[i].full, p.full)) {
      char ref[16];
      if (i == 0)
        snprintf(ref, sizeof(ref), "S_");
      else {
        char digits[8];
        int nd = 0;
        for (unsigned v = i - 1; nd == 0 || v; v /= 36)
          digits[nd++] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 36];
        int o = snprintf(ref, sizeof(ref), "S");
        while (nd)
          ref[o++] = digits[--nd];
        ref[o++] = '_';
        ref[o] = 0;
      }
      PUT(ref, strlen(ref));
      *s = end;
      return 1;
    }
  size_t head; /* the part before the inner type, or the whole named type */
  if (*start == 'P')
    head = 1;
  else if (start[0] == 'D' && start[1] == 'v')
    head = (size_t)(strchr(start, '_') - start) + 1;
  else if (*start >= '1' && *start <= '9')
    head = (size_t)(end - start);
  else if (is_atomic(start))
    head = 9;
  else
    head = quals_len(start);
  PUT(start, head);
  *s = start + head;
  if (*s < end && !emit_type(m, s, out, ol, cap)) return 0;
  if (*s != end) return 0;
  return add_sub(m, &p);
#undef PUT
}

int cc_mangle(const char *name, const char *const *types, unsigned n, char *out, size_t outlen) {
  int o = snprintf(out, outlen, "_Z%zu%s", strlen(name), name);
  if (o < 0 || (size_t)o >= outlen) return -1;
  size_t ol = (size_t)o;
  if (!n) {
    if (ol + 1 >= outlen) return -1;
    out[ol++] = 'v';
    out[ol] = 0;
    return 0;
  }
  struct mstate *m = malloc(sizeof(*m));
  if (!m) return -1;
  m->flat = 0;
  m->nsubs = 0;
  int rc = 0;
  for (unsigned k = 0; k < n && !rc; k++) {
    const char *s = types[k];
    if (!emit_type(m, &s, out, &ol, outlen) || *s) rc = -1;
  }
  free(m);
  return rc;
}

int cc_mangle_flat(const char *mangled, char *out, size_t outlen) {
  char name[128];
  struct cc_mparam ps[16];
  int n = demangle(mangled, name, sizeof(name), ps, 16, 1);
  if (n < 0) return -1;
  const char *types[16];
  for (int k = 0; k < n; k++)
    types[k] = ps[k].full;
  return cc_mangle(name, types, (unsigned)n, out, outlen);
}
