/*
 * binary.c - the program binary format: a versioned, checksummed container
 * for an executable (LSI code, kernel metadata, debug tables) or for
 * compiled/library bitcode. Used for CL_PROGRAM_BINARIES, for
 * clCreateProgramWithBinary and for the build cache.
 *
 * Loading validates everything a kernel could trip over (opcodes, register
 * numbers, branch targets, argument layout) and re-resolves builtin ids by
 * name, so a stale or corrupted binary is rejected instead of crashing the
 * device. It never trusts a length it has not checked.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/cc.h"
#include "compiler/cc_debug.h"
#include "compiler/cc_int.h"
#include "device/builtins.h"

#define MAGIC         "LSPROG\0\1"
#define BIN_VERSION_N 7
#define BIN_VERSION   ((uint32_t)BIN_VERSION_N)
#define STR_(x)       #x
#define STR(x)        STR_(x)
#define HDR_SIZE      32

struct wbuf {
  uint8_t *p;
  size_t n, cap;
};

static void w_raw(struct wbuf *w, const void *d, size_t n) {
  if (w->n + n > w->cap) {
    w->cap = (w->n + n) * 2 + 256;
    w->p = realloc(w->p, w->cap);
  }
  memcpy(w->p + w->n, d, n);
  w->n += n;
}
static void w_u32(struct wbuf *w, uint32_t v) {
  uint8_t b[4];
  for (int i = 0; i < 4; i++)
    b[i] = (uint8_t)(v >> (8 * i));
  w_raw(w, b, 4);
}
static void w_u64(struct wbuf *w, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (uint8_t)(v >> (8 * i));
  w_raw(w, b, 8);
}
static void w_str(struct wbuf *w, const char *s) {
  uint32_t n = s ? (uint32_t)strlen(s) : 0;
  w_u32(w, n);
  w_raw(w, s ? s : "", n);
}

struct rbuf {
  const uint8_t *p;
  size_t n, at;
  int bad;
};

static int r_need(struct rbuf *r, size_t n) {
  if (r->bad || r->n - r->at < n) {
    r->bad = 1;
    return 0;
  }
  return 1;
}
static uint32_t r_u32(struct rbuf *r) {
  if (!r_need(r, 4)) return 0;
  uint32_t v = 0;
  for (int i = 0; i < 4; i++)
    v |= (uint32_t)r->p[r->at + (size_t)i] << (8 * i);
  r->at += 4;
  return v;
}
static uint64_t r_u64(struct rbuf *r) {
  if (!r_need(r, 8)) return 0;
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)r->p[r->at + (size_t)i] << (8 * i);
  r->at += 8;
  return v;
}
static char *r_str(struct rbuf *r) {
  uint32_t n = r_u32(r);
  if (!r_need(r, n)) return strdup("");
  char *s = malloc((size_t)n + 1);
  memcpy(s, r->p + r->at, n);
  s[n] = 0;
  r->at += n;
  return s;
}
/* A count of items of at least min_bytes each: rejects absurd counts. */
static uint32_t r_count(struct rbuf *r, size_t min_bytes) {
  uint32_t n = r_u32(r);
  if (min_bytes && (r->n - r->at) / min_bytes < n) r->bad = 1;
  return r->bad ? 0 : n;
}

static uint64_t fnv(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

static void save_kernel(struct wbuf *w, const struct lsi_kernel *k) {
  w_str(w, k->name);
  w_str(w, k->attributes);
  w_u32(w, k->nregs);
  w_u32(w, k->nconst);
  for (uint32_t i = 0; i < k->nconst; i++) {
    w_u64(w, k->consts[i].value);
    w_u32(w, k->consts[i].reloc);
  }
  w_u32(w, k->nargs);
  for (uint32_t i = 0; i < k->nargs; i++) {
    const struct lsi_arg *a = &k->args[i];
    w_str(w, a->name);
    w_str(w, a->type_name);
    uint32_t f[] = {a->kind,
                    a->size,
                    a->align,
                    a->reg,
                    a->nregs,
                    a->elem_size,
                    a->priv_offset,
                    a->buf_offset,
                    a->address_qualifier,
                    a->access_qualifier,
                    a->local_align};
    for (unsigned j = 0; j < sizeof(f) / sizeof(f[0]); j++)
      w_u32(w, f[j]);
    w_u64(w, a->type_qualifier);
  }
  w_u32(w, k->argbuf_size);
  w_u32(w, k->ninsns);
  for (uint32_t i = 0; i < k->ninsns; i++) {
    const lsi_insn *in = &k->code[i];
    w_u32(w, in->op | ((uint32_t)in->aux << 16));
    w_u32(w, in->d);
    w_u32(w, in->a);
    w_u32(w, in->b);
    w_u32(w, in->c);
    w_u64(w, (uint64_t)in->imm);
    w_u32(w, k->lines ? k->lines[i].file : 0);
    w_u32(w, k->lines ? k->lines[i].line : 0);
  }
  w_u32(w, k->narglist);
  for (uint32_t i = 0; i < k->narglist; i++)
    w_u32(w, k->arglist[i]);
  w_u32(w, k->private_size);
  w_u32(w, k->local_size);
  for (int i = 0; i < 3; i++)
    w_u64(w, k->reqd_wg_size[i]);
  for (int i = 0; i < 3; i++)
    w_u64(w, k->wg_size_hint[i]);
  const struct cc_debug *d = k->debug;
  w_u32(w, d ? 1 : 0);
  if (!d) return;
  w_u32(w, d->line_first);
  w_u32(w, d->line_last);
  w_u32(w, d->nmk);
  for (uint32_t i = 0; i < d->nmk; i++) {
    const struct cc_microkernel *m = &d->mk[i];
    uint32_t f[] = {m->file,    m->line_first, m->line_last, m->pc_begin, m->pc_end,
                    m->role,    m->loop,       m->nsucc,     m->succ[0],  m->succ[1],
                    m->succ[2], m->succ[3],    m->more_succ};
    for (unsigned j = 0; j < sizeof(f) / sizeof(f[0]); j++)
      w_u32(w, f[j]);
  }
  w_u32(w, d->nsyms);
  for (uint32_t i = 0; i < d->nsyms; i++) {
    const struct cc_symbol *s = &d->syms[i];
    w_str(w, s->name);
    w_str(w, s->type_name);
    uint32_t f[] = {s->space,     s->offset,    s->size,        s->elem_kind,
                    s->is_signed, s->line_decl, s->scope_first, s->scope_last,
                    s->arg_index, s->inl,       s->pass_pc};
    for (unsigned j = 0; j < sizeof(f) / sizeof(f[0]); j++)
      w_u32(w, f[j]);
  }
  w_u32(w, d->ncalls);
  for (uint32_t i = 0; i < d->ncalls; i++) {
    w_u32(w, d->call_pc[i]);
    w_str(w, d->call_name[i]);
  }
  w_u32(w, d->ntypes);
  for (uint32_t i = 0; i < d->ntypes; i++) {
    const struct cc_type *t = &d->types[i];
    w_str(w, t->name);
    w_u32(w, t->size);
    w_u32(w, t->nfields);
    for (uint32_t f = 0; f < t->nfields; f++) {
      w_str(w, t->fields[f].name);
      w_str(w, t->fields[f].type_name);
      w_u32(w, t->fields[f].offset);
      w_u32(w, t->fields[f].size);
    }
  }
  w_u32(w, d->ninl);
  for (uint32_t i = 0; i < d->ninl; i++) {
    w_str(w, d->inl[i].func);
    w_u32(w, d->inl[i].call_file);
    w_u32(w, d->inl[i].call_line);
    w_u32(w, d->inl[i].parent);
  }
  for (uint32_t pc = 0; pc < k->ninsns; pc++)
    w_u32(w, d->pc_inl ? d->pc_inl[pc] : 0);
}

const char *cc_driver_version(void) {
  return LOCKSTEP_VERSION " (binary " STR(BIN_VERSION_N) ", " CC_VERSION ")";
}

int cc_binary_save(const struct lsi_program *p, const struct cc_bitcode *bc, int kind,
                   const char *log, uint8_t **out, size_t *outlen) {
  struct wbuf w = {0};
  w_raw(&w, MAGIC, 8);
  w_u32(&w, BIN_VERSION);
  w_u32(&w, (uint32_t)kind);
  w_u64(&w, 0); /* payload size */
  w_u64(&w, 0); /* checksum */
  w_str(&w, log);
  w_str(&w, cc_version());
  if (kind == CC_BIN_EXECUTABLE) {
    w_u32(&w, p->nfiles);
    for (uint32_t i = 0; i < p->nfiles; i++)
      w_str(&w, p->files[i]);
    w_str(&w, p->source); /* empty: none */
    w_str(&w, p->options);
    w_u32(&w, p->data_size);
    w_raw(&w, p->data_init ? p->data_init : (const uint8_t *)"", p->data_init ? p->data_size : 0);
    if (!p->data_init && p->data_size)
      for (uint32_t i = 0; i < p->data_size; i++)
        w_raw(&w, "", 1);
    w_u32(&w, p->ndata_relocs);
    for (uint32_t i = 0; i < p->ndata_relocs; i++)
      w_u32(&w, p->data_relocs[i]);
    w_u32(&w, p->nkernels);
    for (uint32_t i = 0; i < p->nkernels; i++)
      save_kernel(&w, &p->kernels[i]);
  } else {
    w_u64(&w, bc->size);
    w_raw(&w, bc->data, bc->size);
  }
  uint64_t psize = w.n - HDR_SIZE, sum = fnv(w.p + HDR_SIZE, psize);
  for (int i = 0; i < 8; i++) {
    w.p[16 + i] = (uint8_t)(psize >> (8 * i));
    w.p[24 + i] = (uint8_t)(sum >> (8 * i));
  }
  *out = w.p;
  *outlen = w.n;
  return CC_OK;
}

static int check_reg(const struct lsi_kernel *k, uint32_t r) {
  return r < k->nregs;
}

static int validate_kernel(struct lsi_kernel *k, const struct lsi_program *p) {
  if (k->nconst > k->nregs || !k->nregs) return 0;
  for (uint32_t i = 0; i < k->nargs; i++) {
    const struct lsi_arg *a = &k->args[i];
    if (a->kind > LSI_ARG_PIPE || (uint64_t)a->buf_offset + a->size > k->argbuf_size) return 0;
    if (a->kind == LSI_ARG_VALUE && (uint64_t)a->reg + a->nregs > k->nregs) return 0;
    if (a->kind != LSI_ARG_VALUE && !check_reg(k, a->reg)) return 0;
    if (a->kind == LSI_ARG_BYVAL && (uint64_t)a->priv_offset + a->size > k->private_size) return 0;
    if (a->kind == LSI_ARG_VALUE && (uint64_t)a->nregs * a->elem_size > a->size) return 0;
    if (a->local_align & (a->local_align - 1)) return 0;
  }
  for (uint32_t i = 0; i < k->narglist; i++)
    if (!check_reg(k, k->arglist[i])) return 0;
  for (uint32_t i = 0; i < k->nconst; i++)
    if (k->consts[i].reloc > LSI_CONST_UNDEF ||
        (k->consts[i].reloc == LSI_CONST_DATA && k->consts[i].value > p->data_size))
      return 0;
  for (uint32_t pc = 0; pc < k->ninsns; pc++) {
    lsi_insn *in = &k->code[pc];
    if (in->op >= LSI_NUM_OPS) return 0;
    if (k->lines[pc].file >= (p->nfiles ? p->nfiles : 1)) return 0;
    int ok = 1;
    switch (lsi_op_format[in->op]) {
    case FMT_RR:
    case FMT_RRI:
    case FMT_LD: ok = check_reg(k, in->d) && check_reg(k, in->a); break;
    case FMT_RRR:
    case FMT_RRRI: ok = check_reg(k, in->d) && check_reg(k, in->a) && check_reg(k, in->b); break;
    case FMT_RRRR:
    case FMT_ATOM:
      ok = check_reg(k, in->d) && check_reg(k, in->a) && check_reg(k, in->b) && check_reg(k, in->c);
      break;
    case FMT_RI: ok = check_reg(k, in->d); break;
    case FMT_ST: ok = check_reg(k, in->a) && check_reg(k, in->b); break;
    case FMT_BRP: ok = check_reg(k, in->a) && (uint64_t)in->imm < k->ninsns; break;
    case FMT_BR: ok = (uint64_t)in->imm < k->ninsns; break;
    case FMT_CALL: ok = check_reg(k, in->d) && (uint64_t)in->a + in->b <= k->narglist; break;
    default: break;
    }
    if (!ok) return 0;
    if (in->op == LSI_SREG && (uint64_t)in->imm >= LSI_NUM_SREGS) return 0;
  }
  /* builtin ids are re-resolved by name */
  struct cc_debug *d = k->debug;
  uint32_t ncalls = 0;
  for (uint32_t pc = 0; pc < k->ninsns; pc++)
    ncalls += k->code[pc].op == LSI_CALLB;
  if (ncalls && (!d || d->ncalls != ncalls)) return 0;
  for (uint32_t i = 0; d && i < d->ncalls; i++) {
    if (d->call_pc[i] >= k->ninsns || k->code[d->call_pc[i]].op != LSI_CALLB) return 0;
    int id = cc_builtin_id(d->call_name[i]); /* older binaries name the space */
    if (id < 0) return 0;
    k->code[d->call_pc[i]].imm = id;
  }
  if (d) {
    for (uint32_t i = 0; i < d->nmk; i++) {
      struct cc_microkernel *m = &d->mk[i];
      if (m->pc_begin > m->pc_end || m->pc_end > k->ninsns || m->nsucc > 4) return 0;
      m->id = i;
      for (uint32_t s = 0; s < m->nsucc; s++)
        if (m->succ[s] >= d->nmk) return 0;
      for (uint32_t pc = m->pc_begin; pc < m->pc_end; pc++)
        d->pc_to_mk[pc] = i;
    }
  }
  return 1;
}

static int load_kernel(struct rbuf *r, struct lsi_kernel *k, const struct lsi_program *p) {
  k->name = r_str(r);
  k->attributes = r_str(r);
  k->nregs = r_u32(r);
  k->nconst = r_count(r, 12);
  k->consts = calloc(k->nconst + 1, sizeof(struct lsi_const));
  for (uint32_t i = 0; i < k->nconst; i++) {
    k->consts[i].value = r_u64(r);
    k->consts[i].reloc = r_u32(r);
  }
  k->nargs = r_count(r, 60);
  k->args = calloc(k->nargs + 1, sizeof(struct lsi_arg));
  for (uint32_t i = 0; i < k->nargs; i++) {
    struct lsi_arg *a = &k->args[i];
    a->name = r_str(r);
    a->type_name = r_str(r);
    uint32_t *f[] = {&a->kind,
                     &a->size,
                     &a->align,
                     &a->reg,
                     &a->nregs,
                     &a->elem_size,
                     &a->priv_offset,
                     &a->buf_offset,
                     &a->address_qualifier,
                     &a->access_qualifier,
                     &a->local_align};
    for (unsigned j = 0; j < sizeof(f) / sizeof(f[0]); j++)
      *f[j] = r_u32(r);
    a->type_qualifier = r_u64(r);
  }
  k->argbuf_size = r_u32(r);
  k->ninsns = r_count(r, 36);
  k->code = calloc(k->ninsns + 1, sizeof(lsi_insn));
  k->lines = calloc(k->ninsns + 1, sizeof(struct lsi_line));
  for (uint32_t i = 0; i < k->ninsns; i++) {
    lsi_insn *in = &k->code[i];
    uint32_t oa = r_u32(r);
    in->op = (uint16_t)(oa & 0xffff);
    in->aux = (uint8_t)(oa >> 16);
    in->d = r_u32(r);
    in->a = r_u32(r);
    in->b = r_u32(r);
    in->c = r_u32(r);
    in->imm = (int64_t)r_u64(r);
    k->lines[i].file = r_u32(r);
    k->lines[i].line = r_u32(r);
  }
  k->narglist = r_count(r, 4);
  k->arglist = calloc(k->narglist + 1, sizeof(uint32_t));
  for (uint32_t i = 0; i < k->narglist; i++)
    k->arglist[i] = r_u32(r);
  k->private_size = r_u32(r);
  k->local_size = r_u32(r);
  for (int i = 0; i < 3; i++)
    k->reqd_wg_size[i] = r_u64(r);
  for (int i = 0; i < 3; i++)
    k->wg_size_hint[i] = r_u64(r);
  if (r_u32(r)) {
    struct cc_debug *d = calloc(1, sizeof(*d));
    k->debug = d;
    d->line_first = r_u32(r);
    d->line_last = r_u32(r);
    d->nmk = r_count(r, 52);
    d->mk = calloc(d->nmk + 1, sizeof(struct cc_microkernel));
    d->pc_to_mk = calloc(k->ninsns + 1, sizeof(uint32_t));
    d->npc = d->pc_to_mk ? k->ninsns : 0;
    for (uint32_t i = 0; i < d->nmk; i++) {
      struct cc_microkernel *m = &d->mk[i];
      uint32_t *f[] = {&m->file,    &m->line_first, &m->line_last, &m->pc_begin, &m->pc_end,
                       &m->role,    &m->loop,       &m->nsucc,     &m->succ[0],  &m->succ[1],
                       &m->succ[2], &m->succ[3],    &m->more_succ};
      for (unsigned j = 0; j < sizeof(f) / sizeof(f[0]); j++)
        *f[j] = r_u32(r);
    }
    d->nsyms = r_count(r, 52);
    d->syms = calloc(d->nsyms + 1, sizeof(struct cc_symbol));
    for (uint32_t i = 0; i < d->nsyms; i++) {
      struct cc_symbol *s = &d->syms[i];
      s->name = r_str(r);
      s->type_name = r_str(r);
      uint32_t *f[] = {&s->space,     &s->offset,    &s->size,        &s->elem_kind,
                       &s->is_signed, &s->line_decl, &s->scope_first, &s->scope_last,
                       &s->arg_index, &s->inl,       &s->pass_pc};
      for (unsigned j = 0; j < sizeof(f) / sizeof(f[0]); j++)
        *f[j] = r_u32(r);
    }
    d->ncalls = r_count(r, 8);
    d->call_pc = calloc(d->ncalls + 1, sizeof(uint32_t));
    d->call_name = calloc(d->ncalls + 1, sizeof(char *));
    for (uint32_t i = 0; i < d->ncalls; i++) {
      d->call_pc[i] = r_u32(r);
      d->call_name[i] = r_str(r);
    }
    d->ntypes = r_count(r, 12);
    d->types = calloc(d->ntypes + 1, sizeof(struct cc_type));
    for (uint32_t i = 0; i < d->ntypes && !r->bad; i++) {
      struct cc_type *t = &d->types[i];
      t->name = r_str(r);
      t->size = r_u32(r);
      t->nfields = r_count(r, 16);
      t->fields = calloc(t->nfields + 1, sizeof(struct cc_field));
      for (uint32_t f = 0; f < t->nfields; f++) {
        t->fields[f].name = r_str(r);
        t->fields[f].type_name = r_str(r);
        t->fields[f].offset = r_u32(r);
        t->fields[f].size = r_u32(r);
      }
    }
    d->ninl = r_count(r, 16);
    d->inl = calloc(d->ninl + 1, sizeof(struct cc_inline));
    for (uint32_t i = 0; i < d->ninl; i++) {
      d->inl[i].func = r_str(r);
      d->inl[i].call_file = r_u32(r);
      d->inl[i].call_line = r_u32(r);
      d->inl[i].parent = r_u32(r);
      if (d->inl[i].parent > i) r->bad = 1; /* a caller comes before its callees */
    }
    for (uint32_t i = 0; i < d->nsyms; i++)
      if (d->syms[i].inl > d->ninl || d->syms[i].pass_pc > k->ninsns) r->bad = 1;
    d->pc_inl = calloc(k->ninsns + 1, sizeof(uint32_t));
    for (uint32_t pc = 0; pc < k->ninsns; pc++) {
      d->pc_inl[pc] = r_u32(r);
      if (d->pc_inl[pc] > d->ninl) r->bad = 1;
    }
  }
  return !r->bad && validate_kernel(k, p);
}

int cc_binary_load(const uint8_t *buf, size_t len, int *kind, struct lsi_program **pp,
                   struct cc_bitcode *bc, char **log) {
  *pp = NULL;
  memset(bc, 0, sizeof(*bc));
  if (log) *log = NULL;
  if (!buf || len < HDR_SIZE || memcmp(buf, MAGIC, 8)) return CC_INVALID_BINARY;
  struct rbuf r = {buf, len, 8, 0};
  uint32_t ver = r_u32(&r);
  *kind = (int)r_u32(&r);
  uint64_t psize = r_u64(&r), sum = r_u64(&r);
  if (ver != BIN_VERSION || psize != len - HDR_SIZE || fnv(buf + HDR_SIZE, psize) != sum)
    return CC_INVALID_BINARY;
  if (*kind < CC_BIN_EXECUTABLE || *kind > CC_BIN_LIBRARY) return CC_INVALID_BINARY;
  char *l = r_str(&r);
  char *ver_s = r_str(&r);
  int same_compiler = !strcmp(ver_s, cc_version());
  free(ver_s);
  if (!same_compiler) {
    free(l);
    return CC_INVALID_BINARY;
  }
  if (*kind != CC_BIN_EXECUTABLE) {
    uint64_t n = r_u64(&r);
    if (r.bad || n != len - r.at) {
      free(l);
      return CC_INVALID_BINARY;
    }
    bc->data = malloc(n ? n : 1);
    bc->size = n;
    memcpy(bc->data, buf + r.at, n);
    if (log)
      *log = l;
    else
      free(l);
    return CC_OK;
  }
  struct lsi_program *p = calloc(1, sizeof(*p));
  p->nfiles = r_count(&r, 4);
  p->files = calloc(p->nfiles + 1, sizeof(char *));
  for (uint32_t i = 0; i < p->nfiles; i++)
    p->files[i] = r_str(&r);
  p->source = r_str(&r);
  p->options = r_str(&r);
  if (p->source && !p->source[0]) {
    free(p->source);
    free(p->options);
    p->source = p->options = NULL;
  }
  p->data_size = r_count(&r, 1);
  if (p->data_size && r_need(&r, p->data_size)) {
    p->data_init = malloc(p->data_size);
    memcpy(p->data_init, buf + r.at, p->data_size);
    r.at += p->data_size;
  }
  p->ndata_relocs = r_count(&r, 4);
  p->data_relocs = calloc(p->ndata_relocs + 1, sizeof(uint32_t));
  for (uint32_t i = 0; i < p->ndata_relocs; i++) {
    p->data_relocs[i] = r_u32(&r);
    if ((uint64_t)p->data_relocs[i] + 8 > p->data_size) r.bad = 1;
  }
  p->nkernels = r_count(&r, 40);
  p->kernels = calloc(p->nkernels + 1, sizeof(struct lsi_kernel));
  int ok = !r.bad;
  for (uint32_t i = 0; i < p->nkernels && ok; i++)
    ok = load_kernel(&r, &p->kernels[i], p);
  if (!ok || r.bad || r.at != len) {
    cc_program_free(p);
    free(l);
    return CC_INVALID_BINARY;
  }
  *pp = p;
  if (log)
    *log = l;
  else
    free(l);
  return CC_OK;
}
