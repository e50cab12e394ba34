/*
 * uninit.c - the uninitialised-value checker (LOCKSTEP_CHECK=uninit,
 * device/check.h).
 *
 * Definedness is tracked as MemorySanitizer tracks it. Every byte of local
 * memory (undefined at the start of each work-group), of each work-item's
 * private frame (undefined at its start, but for by-value arguments) and of
 * each global buffer created without host data (device/mem.h: the entry's
 * undef bytes, cleared by the commands that write it) has a shadow byte,
 * non-zero where undefined. Every register lane has a shadow of eight bits,
 * one per byte of its value, and the pc of the load its undefined bytes
 * came from (its origin). Constants are defined except the compiler's
 * undefined ones (LSI_CONST_UNDEF), arguments are defined, and every other
 * register is undefined until written.
 *
 * simt_uninit_step() runs before each instruction of a warp (the
 * interpreter calls it only when the checker is on): loads take the
 * memory's shadow, stores write it, other instructions propagate it
 * (bytewise through moves, truncations, masks and byte shifts; an undefined
 * operand makes the whole result undefined otherwise). It reports where an
 * undefined value matters: a branch condition, a memory address, a value
 * stored to global memory, an argument of printf (the padding of a vector
 * or struct is no undefined constant: the compiler makes only scalar undefs
 * LSI_CONST_UNDEF). A report names the line the undefined memory was read
 * at and, when the kernel has a symbol table (built with -g), the variable
 * the value was last loaded from. Builtins follow values per element or
 * lane (vload/vstore, async copies, sub-group collectives, shuffles) and
 * the memory they read or write (simt_uninit_access). Copies
 * (memcpy) move the shadow and report nothing. It never changes what a
 * kernel computes. The host reading undefined bytes back is not reported:
 * a kernel's undefined store was reported where it happened, and bytes
 * nothing wrote are only unspecified (README, Uninitialised values).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_debug.h"
#include "device/builtins.h"
#include "device/builtins_ext.h"
#include "device/check.h"
#include "device/simt_int.h"

/* Origins: pc + 1 of the load, the space it read in the top bits; 0 for a
 * value never initialised (an undefined constant or register). Local and
 * private memory keep the origin of an undefined value stored there, per 4
 * bytes: ORG_FRESH (never written: a load is the origin), ORG_NEVER (a
 * never-initialised value) or the value's origin. */
#define ORG_PC_MASK     0x0fffffffu
#define ORG_SPACE_SHIFT 28
#define ORG_FRESH       0u
#define ORG_NEVER       UINT32_MAX

/* A register lane's origin is 64 bits: the origin above in the low half
 * and, in the high half, the variable the value was last loaded from
 * (VIA_SHIFT: its index + 1 in the kernel's symbol table, 0 when unknown)
 * so a report can name it. Memory keeps only the low half. */
#define VIA_SHIFT 32
#define LO(o)     ((uint32_t)(o))

/* What is known of a register row of a warp. */
enum rdef {
  RDEF_MAYBE = 0, /* a lane may be undefined */
  RDEF_YES = 1,   /* no lane is undefined */
  RDEF_FRESH = 2, /* not written since the work-group began: every lane undefined, never
                     initialised (its origins are not reset: read them through OR()) */
};

struct simt_uninit_cu {
  uint8_t *lsh;   /* local memory's shadow */
  uint8_t *rsh;   /* registers: per warp nregs rows of W byte masks */
  uint64_t *org;  /* per register lane: its origin and variable */
  uint8_t *rdef;  /* per warp and register: enum rdef */
  uint8_t *psh;   /* private frames: per warp W frames */
  uint32_t *lorg; /* local memory's origins, per 4 bytes */
  uint32_t *porg; /* private frames' origins, per 4 bytes (frames of private_size rounded up) */
  unsigned cap;   /* warps the arrays hold */
  uint64_t lcap;  /* bytes lsh holds */
  /* the last variable looked up for a load (loads of undefined values only) */
  uint32_t via_pc, via_space;
  uint64_t via_off;
  uint64_t via;
  /* a builtin's accesses: which element of its call (seq_next) and the
   * element an async copy wrote last, to take the shadow of its source */
  uint32_t seq_pc, seq_warp, seq_lane, seq_k;
  uint8_t *pend;
  uint32_t *pend_org;
  uint64_t pend_n;
};

/* ---- state ---- */

/* Origin granules of one private frame. */
static inline size_t pgran(const struct simt_run *run) {
  return ((size_t)run->k->private_size + 3) / 4;
}

static bool reserve(struct simt_cu *cu, struct simt_uninit_cu *uc) {
  const struct simt_run *run = cu->run;
  size_t rows = (size_t)run->k->nregs * run->W, frames = (size_t)run->k->private_size * run->W;
  if (cu->nwarps > uc->cap) {
    unsigned n = cu->nwarps;
    uint8_t *r = realloc(uc->rsh, rows * n + 1);
    if (r) uc->rsh = r;
    uint64_t *o = realloc(uc->org, (rows * n + 1) * sizeof(*o));
    if (o) uc->org = o;
    uint8_t *rd = realloc(uc->rdef, (size_t)run->k->nregs * n + 1);
    if (rd) uc->rdef = rd;
    uint8_t *p = realloc(uc->psh, frames * n + 1);
    if (p) uc->psh = p;
    uint32_t *po = realloc(uc->porg, (pgran(run) * run->W * n + 1) * sizeof(*po));
    if (po) uc->porg = po;
    if (!r || !o || !rd || !p || !po) return false;
    uc->cap = n;
  }
  if (run->local_total > uc->lcap) {
    uint8_t *l = realloc(uc->lsh, run->local_total);
    if (!l) return false;
    uc->lsh = l;
    uint32_t *lo = realloc(uc->lorg, (run->local_total / 4 + 1) * sizeof(*lo));
    if (!lo) return false;
    uc->lorg = lo;
    uc->lcap = run->local_total;
  }
  return true;
}

/* A warp's registers and private frames at the start of its work-items. */
static void warp_reset(struct simt_cu *cu, struct simt_uninit_cu *uc, unsigned wi) {
  const struct simt_run *run = cu->run;
  const struct lsi_kernel *k = run->k;
  const unsigned W = run->W;
  uint8_t *rs = uc->rsh + (size_t)wi * k->nregs * W;
  memset(rs, 0xff, (size_t)k->nregs * W);
  uint8_t *rd = uc->rdef + (size_t)wi * k->nregs;
  memset(rd, RDEF_FRESH, k->nregs);
  for (uint32_t r = 0; r < k->nconst; r++) {
    rd[r] = k->consts[r].reloc != LSI_CONST_UNDEF ? RDEF_YES : RDEF_FRESH;
    memset(rs + (size_t)r * W, rd[r] == RDEF_YES ? 0 : 0xff, W);
  }
  uint8_t *ps = uc->psh + (size_t)wi * k->private_size * W;
  memset(ps, 1, (size_t)k->private_size * W);
  memset(uc->porg + (size_t)wi * pgran(run) * W, 0, pgran(run) * W * sizeof(uint32_t));
  for (uint32_t j = 0; j < k->nargs; j++) {
    const struct lsi_arg *a = &k->args[j];
    uint32_t n = a->kind == LSI_ARG_VALUE ? a->nregs : 1;
    if (a->reg < k->nregs && n <= k->nregs - a->reg) {
      memset(rs + (size_t)a->reg * W, 0, n * W);
      memset(rd + a->reg, RDEF_YES, n);
    }
    if (a->kind == LSI_ARG_BYVAL && (uint64_t)a->priv_offset + a->size <= k->private_size)
      for (unsigned i = 0; i < W; i++)
        memset(ps + (size_t)i * k->private_size + a->priv_offset, 0, a->size);
  }
}

void simt_uninit_group(struct simt_cu *cu) {
  if (!cu->uninit) cu->uninit = calloc(1, sizeof(*cu->uninit));
  struct simt_uninit_cu *uc = cu->uninit;
  if (!uc) return;
  if (!reserve(cu, uc)) { /* out of host memory: this unit checks nothing */
    simt_uninit_free_cu(cu);
    return;
  }
  uc->via_pc = 0, uc->seq_pc = 0, uc->pend = NULL; /* the kernel may be another's */
  if (cu->run->local_total) {
    memset(uc->lsh, 1, cu->run->local_total);
    memset(uc->lorg, 0, (cu->run->local_total / 4 + 1) * sizeof(uint32_t));
  }
  for (unsigned i = 0; i < cu->nwarps; i++)
    warp_reset(cu, uc, i);
}

void simt_uninit_free_cu(struct simt_cu *cu) {
  struct simt_uninit_cu *uc = cu->uninit;
  if (!uc) return;
  free(uc->lsh);
  free(uc->rsh);
  free(uc->org);
  free(uc->rdef);
  free(uc->psh);
  free(uc->lorg);
  free(uc->porg);
  free(uc);
  cu->uninit = NULL;
}

/* The shadow of size bytes at addr for that lane: NULL when they are
 * defined (constant memory, a buffer with host data) or the address is
 * invalid (the access path reports it). */
static uint8_t *shadow_at(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint64_t addr,
                          uint64_t size) {
  const struct simt_run *run = cu->run;
  struct simt_uninit_cu *uc = cu->uninit;
  uint64_t off = LSI_ADDR_OFFSET(addr);
  switch (LSI_ADDR_SPACE(addr)) {
  case LSI_SPACE_GLOBAL: {
    struct dev_mem_entry *e = dev_mem_entry(run->mem, addr);
    if (!e || atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE || !e->undef ||
        off > e->size || size > e->size - off)
      return NULL;
    return e->undef + off;
  }
  case LSI_SPACE_LOCAL:
    if (LSI_ADDR_ID(addr) || off > run->local_total || size > run->local_total - off) return NULL;
    return uc->lsh + off;
  case LSI_SPACE_PRIVATE: {
    uint64_t ps = run->k->private_size;
    if (LSI_ADDR_ID(addr) || off > ps || size > ps - off) return NULL;
    return uc->psh + ((size_t)w->index * run->W + lane) * ps + off;
  }
  default: return NULL;
  }
}

/* The origin granule of the byte at addr (local or private), or NULL. Call
 * only where shadow_at() gave a shadow. */
static uint32_t *origin_at(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint64_t addr) {
  const struct simt_run *run = cu->run;
  uint64_t off = LSI_ADDR_OFFSET(addr);
  switch (LSI_ADDR_SPACE(addr)) {
  case LSI_SPACE_LOCAL: return cu->uninit->lorg + off / 4;
  case LSI_SPACE_PRIVATE:
    return cu->uninit->porg + ((size_t)w->index * run->W + lane) * pgran(run) + off / 4;
  default: return NULL;
  }
}

/* ---- reports ---- */

enum use {
  USE_BRANCH,
  USE_ADDRESS,
  USE_STORE,
  USE_PRINTF,
};
static const char *const use_text[] = {
    "used as a branch or loop condition",
    "used as a memory address",
    "stored to global memory",
    "passed to printf",
};
static const char *const space_name[8] = {"?",       "global",  "constant", "local",
                                          "private", "generic", "?",        "?"};

static void line_text(const struct simt_run *run, uint32_t pc, char *buf, size_t n) {
  const struct lsi_kernel *k = run->k;
  if (k->lines && pc < k->ninsns) {
    uint32_t f = k->lines[pc].file;
    const char *file = run->l->prog && f < run->l->prog->nfiles ? run->l->prog->files[f] : "?";
    snprintf(buf, n, "%s:%" PRIu32, file, k->lines[pc].line);
  } else {
    snprintf(buf, n, "instruction %04" PRIu32, pc);
  }
}

/* The variable (index + 1 in the symbol table, shifted to VIA_SHIFT) whose
 * storage the load at pc read at addr, or 0. Loads of undefined values only. */
static uint64_t via_of(struct simt_cu *cu, uint32_t pc, uint64_t addr) {
  const struct lsi_kernel *k = cu->run->k;
  const struct cc_debug *d = k->debug;
  unsigned sp = LSI_ADDR_SPACE(addr);
  if (!d || !d->nsyms || (sp != LSI_SPACE_PRIVATE && sp != LSI_SPACE_LOCAL)) return 0;
  struct simt_uninit_cu *uc = cu->uninit;
  uint64_t off = LSI_ADDR_OFFSET(addr);
  if (uc->via_pc == pc + 1 && uc->via_space == sp && uc->via_off == off) return uc->via;
  uint32_t line = k->lines && pc < k->ninsns ? k->lines[pc].line : 0;
  const struct cc_symbol *s =
      cc_debug_symbol_at(d, pc, line, sp == LSI_SPACE_PRIVATE ? CC_SYM_PRIVATE : CC_SYM_LOCAL, off);
  uc->via_pc = pc + 1, uc->via_space = sp, uc->via_off = off;
  uc->via = s ? (uint64_t)(s - d->syms + 1) << VIA_SHIFT : 0;
  return uc->via;
}

static void report(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                   enum use use, uint64_t org64) {
  struct simt_run *run = cu->run;
  uint32_t org = LO(org64), via = (uint32_t)(org64 >> VIA_SHIFT);
  const struct cc_debug *dbg = run->k->debug;
  const char *name = dbg && via && via <= dbg->nsyms ? dbg->syms[via - 1].name : NULL;
  uint32_t opc = org ? (org & ORG_PC_MASK) - 1 : pc;
  uint64_t order = simt_sreg(cu, w, lane, LSI_SREG_GLOBAL_LINEAR_ID);
  struct simt_check_rec *r = simt_check_count(cu, DEV_CHECK_UNINIT, pc, opc, order);
  if (!r) return;
  uint64_t g[3], grp[3];
  for (unsigned d = 0; d < 3; d++) {
    g[d] = simt_sreg(cu, w, lane, LSI_SREG_GLOBAL_ID_X + d);
    grp[d] = cu->group_id[d];
  }
  char at[300], from[400];
  line_text(run, pc, at, sizeof at);
  if (org) {
    char ol[300];
    line_text(run, opc, ol, sizeof ol);
    snprintf(from, sizeof from, "read from uninitialised %s memory at %s",
             space_name[(org >> ORG_SPACE_SHIFT) & 7], ol);
  } else {
    snprintf(from, sizeof from, "never initialised");
  }
  char of[140] = "";
  if (name) snprintf(of, sizeof of, "of '%.120s' ", name);
  int n =
      snprintf(r->text, sizeof r->text,
               "uninitialised value %s%s in kernel '%.100s' at %.200s by work-item (%" PRIu64
               ",%" PRIu64 ",%" PRIu64 ") of work-group (%" PRIu64 ",%" PRIu64 ",%" PRIu64 "): ",
               of, use_text[use], run->k->name ? run->k->name : "?", at, g[0], g[1], g[2], grp[0],
               grp[1], grp[2]);
  if (n > 0 && (size_t)n < sizeof r->text)
    snprintf(r->text + n, sizeof r->text - (size_t)n, "%.300s", from);
}

/* ---- propagation ---- */

/* Byte mask (of 8) covering the low bits bits of a value. */
static inline uint8_t bytes_of(int64_t bits) {
  if (bits <= 0 || bits >= 64) return 0xff;
  unsigned n = (unsigned)(bits + 7) / 8;
  return (uint8_t)((1u << n) - 1);
}

/* Bytes of v equal to x (0 or 0xff) as a mask. */
static inline uint8_t bytes_eq(uint64_t v, uint8_t x) {
  uint8_t m = 0;
  for (unsigned j = 0; j < 8; j++)
    if ((uint8_t)(v >> (8 * j)) == x) m |= (uint8_t)(1u << j);
  return m;
}

struct ctx {
  struct simt_cu *cu;
  struct simt_warp *w;
  const lsi_insn *ip;
  uint32_t pc;
  uint64_t act;
  unsigned W;
  uint8_t *rs;   /* the warp's register shadow */
  uint64_t *og;  /* its origins */
  uint64_t *reg; /* its registers */
  uint8_t *rdef; /* its rows known defined */
  bool full;     /* act is every lane of the warp */
};
#define S(x, r) ((x)->rs + (size_t)(r) * (x)->W)
#define O(x, r) ((x)->og + (size_t)(r) * (x)->W)
/* Lane i's origin of a source register (RDEF_FRESH rows: never written, 0). */
#define OR(x, r, i) ((x)->rdef[r] == RDEF_FRESH ? UINT64_C(0) : O(x, r)[i])
#define V(x, r)     ((x)->reg + (size_t)(r) * (x)->W)
#define EACH(x, i)                                                                                 \
  for (uint64_t m_ = (x)->act, i; m_ && ((i = __builtin_ctzll(m_)), 1); m_ &= m_ - 1)

/* Register d of the active lanes defined. */
static void define_dst(struct ctx *x, uint32_t d) {
  if (x->rdef[d] == RDEF_YES) return;
  uint8_t *s = S(x, d);
  if (x->full) {
    memset(s, 0, x->W);
    x->rdef[d] = RDEF_YES;
    return;
  }
  EACH(x, i) {
    s[i] = 0;
  }
}

/* d := f(sources): undefined wholly when any source has an undefined byte. */
static void union_of(struct ctx *x, const uint32_t *src, unsigned n) {
  uint8_t *d = S(x, x->ip->d);
  uint64_t *od = O(x, x->ip->d);
  if (x->full) { /* the whole warp: rows at once, origins only where undefined */
    const uint8_t *a = S(x, src[0]), *b = S(x, src[n > 1 ? 1 : 0]), *c = S(x, src[n > 2 ? 2 : 0]);
    uint8_t any = 0;
    for (unsigned i = 0; i < x->W; i++) {
      uint8_t u = a[i] | b[i] | c[i];
      any |= u;
      d[i] = u ? 0xff : 0;
    }
    if (!any) return;
  }
  EACH(x, i) {
    uint8_t u = 0;
    uint64_t o = 0;
    for (unsigned j = 0; j < n; j++)
      if (S(x, src[j])[i]) {
        u = 0xff;
        if (!o) o = OR(x, src[j], i);
      }
    d[i] = u;
    od[i] = o;
  }
}

/* Reports each active lane whose register r has an undefined byte in mask. */
static void check_use(struct ctx *x, uint32_t r, uint8_t mask, enum use use) {
  if (x->rdef[r] == RDEF_YES) return;
  const uint8_t *s = S(x, r);
  if (x->full) {
    uint8_t any = 0;
    for (unsigned i = 0; i < x->W; i++)
      any |= s[i];
    if (!(any & mask)) return;
  }
  EACH(x, i) {
    if (s[i] & mask) report(x->cu, x->w, (unsigned)i, x->pc, use, OR(x, r, i));
  }
}

static void op_load(struct ctx *x, unsigned n, int64_t imm) {
  const lsi_insn *ip = x->ip;
  uint8_t *d = S(x, ip->d);
  uint64_t *od = O(x, ip->d);
  const uint64_t *a = V(x, ip->a);
  uint64_t clean = ~UINT64_C(0); /* a global allocation with no undefined byte */
  uint8_t any = 0;
  check_use(x, ip->a, 0xff, USE_ADDRESS);
  EACH(x, i) {
    uint64_t ad = a[i] + (uint64_t)imm;
    const uint8_t *s =
        (ad >> LSI_ADDR_ID_SHIFT) == clean ? NULL : shadow_at(x->cu, x->w, (unsigned)i, ad, n);
    if (!s && LSI_ADDR_SPACE(ad) == LSI_SPACE_GLOBAL) {
      struct dev_mem_entry *e = dev_mem_entry(x->cu->run->mem, ad);
      if (e && !e->undef) clean = ad >> LSI_ADDR_ID_SHIFT;
    }
    uint8_t u = 0;
    if (s)
      for (unsigned j = 0; j < n; j++)
        if (s[j]) u |= (uint8_t)(1u << j);
    any |= u;
    d[i] = u;
    od[i] = 0;
    if (!u) continue;
    const uint32_t *mo = origin_at(x->cu, x->w, (unsigned)i, ad);
    uint32_t o = mo ? *mo : ORG_FRESH;
    od[i] = (o == ORG_FRESH
                 ? ((x->pc + 1) & ORG_PC_MASK) | (uint32_t)LSI_ADDR_SPACE(ad) << ORG_SPACE_SHIFT
             : o == ORG_NEVER ? 0
                              : o) |
            via_of(x->cu, x->pc, ad);
  }
  if (any)
    x->rdef[ip->d] = RDEF_MAYBE;
  else if (x->full)
    x->rdef[ip->d] = RDEF_YES;
}

static void op_store(struct ctx *x, unsigned n) {
  const lsi_insn *ip = x->ip;
  const uint64_t *a = V(x, ip->a);
  const uint8_t *v = S(x, ip->b);
  check_use(x, ip->a, 0xff, USE_ADDRESS);
  EACH(x, i) {
    uint64_t ad = a[i] + (uint64_t)ip->imm;
    uint8_t u = (uint8_t)(v[i] & bytes_of(8 * n));
    if (u && LSI_ADDR_SPACE(ad) == LSI_SPACE_GLOBAL)
      report(x->cu, x->w, (unsigned)i, x->pc, USE_STORE, OR(x, ip->b, i));
    uint8_t *s = shadow_at(x->cu, x->w, (unsigned)i, ad, n);
    if (!s) continue;
    for (unsigned j = 0; j < n; j++)
      s[j] = (uint8_t)((u >> j) & 1);
    uint32_t *mo = u ? origin_at(x->cu, x->w, (unsigned)i, ad) : NULL;
    if (mo) *mo = LO(OR(x, ip->b, i)) ? LO(OR(x, ip->b, i)) : ORG_NEVER;
  }
}

/* Atomics: the old value takes the memory's shadow; the memory takes the
 * operand's (an exchange or store) or keeps its undefined bytes. */
static void op_atomic(struct ctx *x, unsigned n) {
  const lsi_insn *ip = x->ip;
  const uint64_t *a = V(x, ip->a);
  bool repl = ip->op == LSI_ATOM_XCHG_I32 || ip->op == LSI_ATOM_XCHG_I64 ||
              ip->op == LSI_ATOM_ST_I32 || ip->op == LSI_ATOM_ST_I64;
  bool ld = ip->op == LSI_ATOM_LD_I32 || ip->op == LSI_ATOM_LD_I64;
  bool wd = lsi_op_flags[ip->op] & F_WRITES_D;
  check_use(x, ip->a, 0xff, USE_ADDRESS);
  if (wd) x->rdef[ip->d] = RDEF_MAYBE;
  EACH(x, i) {
    uint8_t *s = shadow_at(x->cu, x->w, (unsigned)i, a[i], n);
    uint8_t old = 0, ub = ld ? 0 : S(x, ip->b)[i] | S(x, ip->c)[i];
    if (s)
      for (unsigned j = 0; j < n; j++)
        if (s[j]) old |= (uint8_t)(1u << j);
    if (wd) {
      S(x, ip->d)[i] = old ? 0xff : 0;
      O(x, ip->d)
      [i] =
          old ? ((x->pc + 1) & ORG_PC_MASK) | (uint32_t)LSI_ADDR_SPACE(a[i]) << ORG_SPACE_SHIFT : 0;
    }
    if (s && !ld)
      for (unsigned j = 0; j < n; j++)
        s[j] = (uint8_t)(((repl ? ub : (uint8_t)(old | ub)) >> j) & 1);
  }
}

/* memcpy moves the shadow (padding included) and reports nothing. */
static void op_memcpy(struct ctx *x) {
  const lsi_insn *ip = x->ip;
  const uint64_t *d = V(x, ip->d), *a = V(x, ip->a), *b = V(x, ip->b);
  check_use(x, ip->d, 0xff, USE_ADDRESS);
  check_use(x, ip->a, 0xff, USE_ADDRESS);
  check_use(x, ip->b, 0xff, USE_ADDRESS);
  EACH(x, i) {
    if (!b[i]) continue;
    uint8_t *ds = shadow_at(x->cu, x->w, (unsigned)i, d[i], b[i]);
    if (!ds) continue;
    const uint8_t *ss = shadow_at(x->cu, x->w, (unsigned)i, a[i], b[i]);
    if (ss)
      memmove(ds, ss, b[i]);
    else
      memset(ds, 0, b[i]);
  }
}

static void op_memset(struct ctx *x) {
  const lsi_insn *ip = x->ip;
  const uint64_t *d = V(x, ip->d), *b = V(x, ip->b);
  check_use(x, ip->d, 0xff, USE_ADDRESS);
  check_use(x, ip->b, 0xff, USE_ADDRESS);
  EACH(x, i) {
    uint8_t *ds = b[i] ? shadow_at(x->cu, x->w, (unsigned)i, d[i], b[i]) : NULL;
    if (ds) memset(ds, S(x, ip->a)[i] & 1, b[i]);
  }
}

/* Lanes across the warp (sub-group collectives): lane i's result takes the
 * argument's shadow of lane src[i] (broadcast), of every active lane
 * (reduce, any, all) or of the lanes up to it (scans). */
static void call_lanes(struct ctx *x, const struct lsi_builtin *bi, enum lsi_builtin_role role,
                       const uint32_t *al) {
  uint8_t u[SIMT_MAX_W] = {0};
  uint64_t o[SIMT_MAX_W] = {0};
  const uint8_t *sa = S(x, al[0]);
  uint8_t acc = 0;
  uint64_t oacc = 0;
  bool excl = bi->wfn == bw_scan_excl;
  unsigned src = (unsigned)__builtin_ctzll(x->act);
  if (role == LSI_ROLE_BCAST) {
    if (S(x, al[1])[src]) acc = 0xff, oacc = OR(x, al[1], src);
    src = (unsigned)(V(x, al[1])[src] % x->W);
  }
  EACH(x, i) {
    if (role == LSI_ROLE_BCAST) {
      u[i] = acc | (sa[src] ? 0xff : 0);
      o[i] = acc ? oacc : OR(x, al[0], src);
      continue;
    }
    if (excl) u[i] = acc, o[i] = oacc;
    if (sa[i] && !acc) acc = 0xff, oacc = OR(x, al[0], i);
    if (!excl) u[i] = acc, o[i] = oacc;
  }
  uint8_t *d = S(x, x->ip->d);
  uint64_t *od = O(x, x->ip->d);
  EACH(x, i) {
    d[i] = role == LSI_ROLE_SG_ALL ? acc : u[i];
    od[i] = role == LSI_ROLE_SG_ALL ? oacc : o[i];
  }
}

/* shuffle / shuffle2: result j takes the shadow of the element its mask
 * selects (the whole of it when the mask element is undefined). */
static void call_shuffle(struct ctx *x, const struct lsi_builtin *bi, const uint32_t *al) {
  unsigned m = (bi->data >> 8) & 0xff, nsrc = x->ip->b - m;
  for (unsigned j = 0; j < m; j++) {
    uint8_t *d = S(x, x->ip->d + j);
    uint64_t *od = O(x, x->ip->d + j);
    const uint32_t mr = al[nsrc + j];
    EACH(x, i) {
      uint32_t from = al[V(x, mr)[i] % nsrc];
      bool um = S(x, mr)[i] != 0;
      d[i] = um ? 0xff : S(x, from)[i];
      od[i] = um ? OR(x, mr, i) : OR(x, from, i);
    }
  }
}

/* The registers of a memory builtin that form its addresses: they must be
 * defined. */
static void check_addresses(struct ctx *x, enum lsi_builtin_role role, const uint32_t *al) {
  unsigned nb = x->ip->b;
  if (role == LSI_ROLE_VLOAD || role == LSI_ROLE_VLOAD_HALF) {
    check_use(x, al[0], 0xff, USE_ADDRESS);
    check_use(x, al[1], 0xff, USE_ADDRESS);
  } else if ((role == LSI_ROLE_VSTORE || role == LSI_ROLE_VSTORE_HALF) && nb >= 2) {
    check_use(x, al[nb - 2], 0xff, USE_ADDRESS);
    check_use(x, al[nb - 1], 0xff, USE_ADDRESS);
  } else if (role == LSI_ROLE_ASYNC) {
    for (unsigned j = 0; j + 1 < nb; j++) /* not the event */
      check_use(x, al[j], 0xff, USE_ADDRESS);
  }
}

/* A builtin: printf's arguments must be defined; results are undefined
 * when an argument is, but for the builtins that pick lanes or elements
 * (above); memory it reads or writes is followed by simt_uninit_access. */
static void op_call(struct ctx *x) {
  const lsi_insn *ip = x->ip;
  const struct lsi_builtin *bi = &lsi_builtins[ip->imm];
  const uint32_t *al = x->cu->run->k->arglist + ip->a;
  if ((bi->flags & LSI_BI_VARIADIC) && !strcmp(bi->name, "printf"))
    for (unsigned j = 1; j < ip->b; j++)
      check_use(x, al[j], 0xff, USE_PRINTF);
  bool def = true;
  for (unsigned j = 0; j < ip->b && def; j++)
    def = x->rdef[al[j]] == RDEF_YES;
  enum lsi_builtin_role role = def ? LSI_ROLE_OTHER : lsi_builtin_role(bi);
  if (bi->flags & LSI_BI_MEM) {
    if (!def) check_addresses(x, role, al);
    if (role == LSI_ROLE_ASYNC || role == LSI_ROLE_VSTORE || role == LSI_ROLE_VSTORE_HALF)
      def = true; /* the event, or no result */
  }
  if (!def && bi->nres &&
      (role == LSI_ROLE_BCAST || role == LSI_ROLE_SG_ALL || role == LSI_ROLE_SG_SCAN)) {
    call_lanes(x, bi, role, al);
    return;
  }
  if (!def && role == LSI_ROLE_SHUFFLE) {
    call_shuffle(x, bi, al);
    return;
  }
  for (unsigned r = 0; r < bi->nres; r++) {
    if (def) {
      define_dst(x, ip->d + r);
      continue;
    }
    x->rdef[ip->d + r] = RDEF_MAYBE;
    uint8_t *d = S(x, ip->d + r);
    uint64_t *od = O(x, ip->d + r);
    EACH(x, i) {
      uint8_t u = 0;
      uint64_t o = 0;
      for (unsigned j = 0; j < ip->b; j++)
        if (S(x, al[j])[i]) {
          u = 0xff;
          if (!o) o = OR(x, al[j], i);
        }
      d[i] = u;
      od[i] = o;
    }
  }
}

/* AND, OR: a byte is defined where either operand's is defined and decides
 * it (0 for AND, 0xff for OR). */
static void op_mask(struct ctx *x, uint8_t decides) {
  const lsi_insn *ip = x->ip;
  const uint64_t *va = V(x, ip->a), *vb = V(x, ip->b);
  const uint8_t *sa = S(x, ip->a), *sb = S(x, ip->b);
  uint8_t *d = S(x, ip->d);
  uint64_t *od = O(x, ip->d);
  EACH(x, i) {
    uint8_t ka = (uint8_t)(~sa[i] & bytes_eq(va[i], decides));
    uint8_t kb = (uint8_t)(~sb[i] & bytes_eq(vb[i], decides));
    uint8_t u = (uint8_t)((sa[i] | sb[i]) & ~ka & ~kb);
    d[i] = u;
    od[i] = !u ? 0 : sa[i] ? OR(x, ip->a, i) : OR(x, ip->b, i);
  }
}

/* Shifts by a defined whole number of bytes move the shadow. */
static void op_shift(struct ctx *x, bool left, unsigned width) {
  const lsi_insn *ip = x->ip;
  const uint64_t *vb = V(x, ip->b);
  const uint8_t *sa = S(x, ip->a), *sb = S(x, ip->b);
  uint8_t *d = S(x, ip->d);
  uint64_t *od = O(x, ip->d);
  uint8_t wm = bytes_of(width);
  EACH(x, i) {
    unsigned sh = (unsigned)(vb[i] % width);
    uint8_t u;
    if (sb[i])
      u = wm;
    else if (sh % 8 == 0)
      u = (uint8_t)((left ? (unsigned)sa[i] << (sh / 8) : (unsigned)(sa[i] & wm) >> (sh / 8)) & wm);
    else
      u = sa[i] & wm ? wm : 0;
    d[i] = u;
    od[i] = !u ? 0 : sb[i] ? OR(x, ip->b, i) : OR(x, ip->a, i);
  }
}

static void op_select(struct ctx *x) {
  const lsi_insn *ip = x->ip;
  const uint64_t *c = V(x, ip->a);
  uint8_t *d = S(x, ip->d);
  uint64_t *od = O(x, ip->d);
  EACH(x, i) {
    uint32_t from = c[i] ? ip->b : ip->c;
    uint8_t u = S(x, ip->a)[i] ? 0xff : S(x, from)[i];
    uint64_t o = S(x, ip->a)[i] ? OR(x, ip->a, i) : OR(x, from, i);
    d[i] = u;
    od[i] = o;
  }
}

static void op_move(struct ctx *x, uint8_t keep, bool widen) {
  const lsi_insn *ip = x->ip;
  uint8_t *d = S(x, ip->d);
  uint64_t *od = O(x, ip->d);
  if (x->full) {
    const uint8_t *a = S(x, ip->a);
    uint8_t any = 0;
    for (unsigned i = 0; i < x->W; i++) {
      uint8_t u = a[i] & keep;
      any |= u;
      d[i] = widen && u ? 0xff : u;
    }
    if (!any) return;
  }
  EACH(x, i) {
    uint8_t u = S(x, ip->a)[i] & keep;
    uint64_t o = OR(x, ip->a, i);
    d[i] = widen && u ? 0xff : u;
    od[i] = u ? o : 0;
  }
}

static void op_defined(struct ctx *x) {
  uint8_t *d = S(x, x->ip->d);
  uint64_t *od = O(x, x->ip->d);
  if (x->full) {
    memset(d, 0, x->W);
    return;
  }
  EACH(x, i) {
    d[i] = 0;
    od[i] = 0;
  }
}

/* The generic rule by operand format. */
static void op_generic(struct ctx *x) {
  const lsi_insn *ip = x->ip;
  uint32_t src[3] = {ip->a, ip->b, ip->c};
  switch (lsi_op_format[ip->op]) {
  case FMT_RR:
  case FMT_RRI: union_of(x, src, 1); break;
  case FMT_RRR:
  case FMT_RRRI: union_of(x, src, 2); break;
  case FMT_RRRR: union_of(x, src, 3); break;
  case FMT_RI: op_defined(x); break;
  default: break;
  }
}

void simt_uninit_step(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act) {
  struct simt_uninit_cu *uc = cu->uninit;
  if (!uc || w->index >= uc->cap || !act) return;
  const struct simt_run *run = cu->run;
  size_t rows = (size_t)run->k->nregs * run->W;
  uint64_t allw = simt_lanes_mask(run->W);
  struct ctx x;
  x.cu = cu, x.w = w, x.ip = &run->k->code[pc], x.pc = pc, x.act = act, x.W = run->W;
  x.rs = uc->rsh + w->index * rows, x.og = uc->org + w->index * rows, x.reg = w->reg;
  x.rdef = uc->rdef + (size_t)w->index * run->k->nregs, x.full = act == allw;
  const lsi_insn *ip = x.ip;
  unsigned fl = lsi_op_flags[ip->op];
  if ((fl & (F_WRITES_D | F_MEM)) == F_WRITES_D && ip->op != LSI_CALLB) {
    /* the common case: every source row known defined, so is the result */
    unsigned fmt = lsi_op_format[ip->op];
    bool def = fmt == FMT_RI || ((fmt == FMT_RR || fmt == FMT_RRI || fmt == FMT_RRR ||
                                  fmt == FMT_RRRI || fmt == FMT_RRRR) &&
                                 x.rdef[ip->a] == RDEF_YES);
    if (def && (fmt == FMT_RRR || fmt == FMT_RRRI || fmt == FMT_RRRR))
      def = x.rdef[ip->b] == RDEF_YES;
    if (def && fmt == FMT_RRRR) def = x.rdef[ip->c] == RDEF_YES;
    if (def) {
      define_dst(&x, ip->d);
      return;
    }
  }
  if (fl & F_WRITES_D) { /* the handler below may leave undefined lanes: origins made real */
    unsigned nd = ip->op == LSI_CALLB ? lsi_builtins[ip->imm].nres : 1;
    for (unsigned r = 0; r < nd; r++) {
      if (x.rdef[ip->d + r] == RDEF_FRESH) memset(O(&x, ip->d + r), 0, x.W * sizeof(uint64_t));
      x.rdef[ip->d + r] = RDEF_MAYBE;
    }
  }
  switch (ip->op) {
  case LSI_MOV: op_move(&x, 0xff, false); break;
  case LSI_TRUNC: op_move(&x, bytes_of(ip->imm), false); break;
  case LSI_SEXT: op_move(&x, bytes_of(ip->imm & 0xff), true); break;
  case LSI_SELECT: op_select(&x); break;
  case LSI_AND_I32:
  case LSI_AND_I64: op_mask(&x, 0); break;
  case LSI_OR_I32:
  case LSI_OR_I64: op_mask(&x, 0xff); break;
  case LSI_SHL_I32: op_shift(&x, true, 32); break;
  case LSI_SHL_I64: op_shift(&x, true, 64); break;
  case LSI_LSHR_I32: op_shift(&x, false, 32); break;
  case LSI_LSHR_I64: op_shift(&x, false, 64); break;
  case LSI_LD8:
  case LSI_LD16:
  case LSI_LD32:
  case LSI_LD64: op_load(&x, lsi_mem_size(ip->op), ip->imm); break;
  case LSI_ST8:
  case LSI_ST16:
  case LSI_ST32:
  case LSI_ST64: op_store(&x, lsi_mem_size(ip->op)); break;
  case LSI_MEMCPY: op_memcpy(&x); break;
  case LSI_MEMSET: op_memset(&x); break;
  case LSI_BRA_P:
  case LSI_BRA_Z: check_use(&x, ip->a, 0xff, USE_BRANCH); break;
  case LSI_CALLB: op_call(&x); break;
  default:
    if (lsi_op_flags[ip->op] & F_ATOMIC)
      op_atomic(&x, ip->op >= LSI_ATOM_ADD_I64 && ip->op <= LSI_ATOM_ST_I64 ? 8
                    : ip->op == LSI_ATOM_FADD_F64                           ? 8
                                                                            : 4);
    else if (lsi_op_flags[ip->op] & F_WRITES_D)
      op_generic(&x);
    break;
  }
}

/* The element of its call a builtin's access is (vloads read, vstores
 * write, async copies write then read them in order): k counts lane's
 * accesses at pc, modulo n. */
static unsigned seq_next(struct simt_uninit_cu *uc, struct simt_warp *w, unsigned lane, uint32_t pc,
                         unsigned n) {
  if (uc->seq_pc != pc + 1 || uc->seq_warp != w->index || uc->seq_lane != lane)
    uc->seq_pc = pc + 1, uc->seq_warp = w->index, uc->seq_lane = lane, uc->seq_k = 0;
  unsigned k = n ? uc->seq_k % n : 0;
  uc->seq_k = k + 1;
  return k;
}

/* vloads: the k-th element read gives result k its shadow. */
static void access_vload(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                         uint64_t addr, uint64_t size, enum lsi_builtin_role role) {
  struct simt_uninit_cu *uc = cu->uninit;
  const struct lsi_kernel *k = cu->run->k;
  const lsi_insn *ip = &k->code[pc];
  unsigned nres = lsi_builtins[ip->imm].nres, j = seq_next(uc, w, lane, pc, nres);
  const uint8_t *s = shadow_at(cu, w, lane, addr, size);
  uint8_t u = 0;
  for (unsigned b = 0; s && b < size && b < 8; b++)
    if (s[b]) u |= (uint8_t)(1u << b);
  if (!u) return;
  if (role == LSI_ROLE_VLOAD_HALF) u = 0xff; /* converted to a float */
  size_t row = ((size_t)w->index * k->nregs + ip->d + j) * cu->run->W + lane;
  uc->rsh[row] = u;
  uc->rdef[(size_t)w->index * k->nregs + ip->d + j] = RDEF_MAYBE;
  const uint32_t *mo = origin_at(cu, w, lane, addr);
  uint32_t o = mo ? *mo : ORG_FRESH;
  uc->org[row] =
      (o == ORG_FRESH ? ((pc + 1) & ORG_PC_MASK) | (uint32_t)LSI_ADDR_SPACE(addr) << ORG_SPACE_SHIFT
       : o == ORG_NEVER ? 0
                        : o) |
      via_of(cu, pc, addr);
}

/* Any other builtin that reads memory (image reads, atomics...): its
 * results are undefined where a byte it read is. */
static void access_read(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                        uint64_t addr, uint64_t size) {
  struct simt_uninit_cu *uc = cu->uninit;
  const struct lsi_kernel *k = cu->run->k;
  const lsi_insn *ip = &k->code[pc];
  const uint8_t *s = shadow_at(cu, w, lane, addr, size);
  bool u = false;
  for (uint64_t b = 0; s && b < size && !u; b++)
    u = s[b] != 0;
  if (!u) return;
  const uint32_t *mo = origin_at(cu, w, lane, addr);
  uint32_t o = mo ? *mo : ORG_FRESH;
  uint64_t org = o == ORG_FRESH
                     ? ((pc + 1) & ORG_PC_MASK) | (uint32_t)LSI_ADDR_SPACE(addr) << ORG_SPACE_SHIFT
                 : o == ORG_NEVER ? 0
                                  : o;
  for (unsigned r = 0; r < lsi_builtins[ip->imm].nres; r++) {
    size_t row = ((size_t)w->index * k->nregs + ip->d + r) * cu->run->W + lane;
    uc->rsh[row] = 0xff;
    uc->org[row] = org;
    uc->rdef[(size_t)w->index * k->nregs + ip->d + r] = RDEF_MAYBE;
  }
}

/* Lane's first undefined argument of the call at pc (its origin in *o), or
 * false. */
static bool arg_undefined(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                          uint64_t *o) {
  const struct simt_uninit_cu *uc = cu->uninit;
  const struct lsi_kernel *k = cu->run->k;
  const lsi_insn *ip = &k->code[pc];
  for (unsigned j = 0; j < ip->b; j++) {
    uint32_t r = k->arglist[ip->a + j];
    size_t row = ((size_t)w->index * k->nregs + r) * cu->run->W + lane;
    if (!uc->rsh[row]) continue;
    *o = uc->rdef[(size_t)w->index * k->nregs + r] == RDEF_FRESH ? 0 : uc->org[row];
    return true;
  }
  return false;
}

/* Memory a builtin writes takes a shadow: the value's (vstores), the
 * source's (async copies: the element read next), else undefined where an
 * argument of the call is (an image write of an undefined colour) and
 * defined otherwise. An undefined value written to global memory is
 * reported, as a store. */
static void access_write(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                         uint64_t addr, uint64_t size, enum lsi_builtin_role role) {
  struct simt_uninit_cu *uc = cu->uninit;
  const struct lsi_kernel *k = cu->run->k;
  const lsi_insn *ip = &k->code[pc];
  uint8_t *s = shadow_at(cu, w, lane, addr, size);
  if (role == LSI_ROLE_ASYNC) {
    seq_next(uc, w, lane, pc, 2);
    uc->pend = s, uc->pend_org = s ? origin_at(cu, w, lane, addr) : NULL, uc->pend_n = size;
    return;
  }
  uint8_t u = 0;
  uint64_t o = 0;
  if ((role == LSI_ROLE_VSTORE || role == LSI_ROLE_VSTORE_HALF) && ip->b >= 2) {
    unsigned j = seq_next(uc, w, lane, pc, ip->b - 2u);
    uint32_t r = k->arglist[ip->a + j];
    size_t row = ((size_t)w->index * k->nregs + r) * cu->run->W + lane;
    bool fresh = uc->rdef[(size_t)w->index * k->nregs + r] == RDEF_FRESH;
    u = (uint8_t)(uc->rsh[row] & bytes_of(8 * (int64_t)size));
    if (role == LSI_ROLE_VSTORE_HALF) u = uc->rsh[row] ? 0x3 : 0; /* converted from it */
    o = fresh ? 0 : uc->org[row];
  } else if (role != LSI_ROLE_QUEUE && arg_undefined(cu, w, lane, pc, &o)) {
    u = 0xff;
  }
  if (u && LSI_ADDR_SPACE(addr) == LSI_SPACE_GLOBAL) report(cu, w, lane, pc, USE_STORE, o);
  if (!s) return;
  for (unsigned b = 0; b < size; b++)
    s[b] = b < 8 ? (uint8_t)((u >> b) & 1) : u == 0xff;
  uint32_t *mo = u ? origin_at(cu, w, lane, addr) : NULL;
  if (mo) *mo = LO(o) ? LO(o) : ORG_NEVER;
}

/* async copies: the element just read gives the one written before it
 * its shadow (a copy reports nothing, as memcpy). */
static void access_copy(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                        uint64_t addr, uint64_t size) {
  struct simt_uninit_cu *uc = cu->uninit;
  seq_next(uc, w, lane, pc, 2);
  uint8_t *d = uc->pend;
  uint32_t *dorg = uc->pend_org;
  uint64_t n = uc->pend_n < size ? uc->pend_n : size;
  uc->pend = NULL, uc->pend_org = NULL;
  if (!d) return;
  const uint8_t *s = shadow_at(cu, w, lane, addr, size);
  bool any = false;
  for (uint64_t b = 0; b < n; b++) {
    d[b] = s ? s[b] : 0;
    any |= d[b] != 0;
  }
  if (!any || !dorg) return;
  const uint32_t *so = origin_at(cu, w, lane, addr);
  uint32_t o = so ? *so : ORG_FRESH;
  *dorg = o != ORG_FRESH
              ? o
              : ((pc + 1) & ORG_PC_MASK) | (uint32_t)LSI_ADDR_SPACE(addr) << ORG_SPACE_SHIFT;
}

/* A builtin's access to memory (vloads, vstores, async copies, frexp's
 * pointer...); memcpy and memset moved their shadow in the step. */
void simt_uninit_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                        uint64_t addr, uint64_t size, int kind) {
  if (!cu->uninit || !w || w->index >= cu->uninit->cap || pc >= cu->run->k->ninsns || !size) return;
  const lsi_insn *ip = &cu->run->k->code[pc];
  if (ip->op != LSI_CALLB) {
    if (ip->op == LSI_MEMCPY || ip->op == LSI_MEMSET || kind == SIMT_ACC_READ ||
        kind == SIMT_ACC_ATOMIC_READ)
      return;
    uint8_t *s = shadow_at(cu, w, lane, addr, size);
    if (s) memset(s, 0, size);
    return;
  }
  enum lsi_builtin_role role = lsi_builtin_role(&lsi_builtins[ip->imm]);
  bool rd = kind == SIMT_ACC_READ || kind == SIMT_ACC_ATOMIC_READ;
  if (rd && (role == LSI_ROLE_VLOAD || role == LSI_ROLE_VLOAD_HALF))
    access_vload(cu, w, lane, pc, addr, size, role);
  else if (rd && role == LSI_ROLE_ASYNC)
    access_copy(cu, w, lane, pc, addr, size);
  else if (rd && role != LSI_ROLE_QUEUE)
    access_read(cu, w, lane, pc, addr, size);
  else if (rd)
    return;
  else
    access_write(cu, w, lane, pc, addr, size, role);
}
