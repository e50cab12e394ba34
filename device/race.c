/*
 * race.c - the data-race checker (LOCKSTEP_CHECK=races, device/check.h).
 *
 * Every byte of local memory (per compute unit) and of each global buffer
 * a launch touches (per launch, allocated on first touch) has a shadow cell
 * (a word's stands for its bytes until a smaller access comes; a block's
 * for a warp's words until another pattern comes, see race_buf)
 * naming its last writer and its readers since they were last ordered: the
 * work-item, the barrier interval it was in (work-group barriers passed with
 * the space's fence flag, and in the low 8 bits the sub-group barriers its
 * warp passed since, saturating) and the instruction. Two accesses by different
 * work-items conflict when one writes and not both are atomic; they are
 * ordered only when both are in the same work-group and a barrier with the
 * space's fence lies between them, or both are in the same warp (sub-group)
 * and a sub-group barrier lies between them (global accesses of different
 * work-groups are never ordered). Lanes of one warp are different
 * work-items like any others: lockstep execution orders nothing.
 *
 * A slot that saw several unordered work-items keeps the first and a flag
 * (RACE_MANY; RACE_MG when they span work-groups), so any later unordered
 * conflicting access is a race; a slot whose record is ordered before the
 * new access is simply replaced. It must not change what a kernel computes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "compiler/cc_debug.h"
#include "device/check.h"
#include "device/simt_int.h"

#define RACE_ID     0x1fffffffu /* work-item + 1 (0: none) */
#define RACE_ATOM   0x20000000u /* every access of the slot was atomic */
#define RACE_MANY   0x40000000u /* several unordered work-items */
#define RACE_MG     0x80000000u /* ... of several work-groups */
#define RACE_NLOCKS 4096        /* stripes of global shadow, 64 bytes of memory each */

/* One byte's shadow: writer and readers (RACE_* flags and item + 1), their
 * barrier intervals and instructions. stamp says whose the cell is (local:
 * the compute unit's work-group; global: the launch); any other is empty. */
struct race_cell {
  uint32_t stamp, w, r, wbar, rbar, wpc, rpc, wn, rn; /* wn, rn: the item's atomics so far */
};

/* Synchronisation through atomics (a lock, a flag, a last-work-group
 * count): each work-item's atomic operations, counted, with the launch's
 * atomic clock just before the last RACE_RING of them (its releases) and
 * just after its latest (its acquire). An access followed by an atomic of
 * its work-item is ordered before another work-item's access that follows
 * a later atomic of that one. Whether the two atomics touch the same
 * object is not checked. */
#define RACE_RING 4
struct race_sync {
  uint32_t n, acq;
  uint32_t rel[RACE_RING];
};
#define RACE_SYNC_MAX (UINT64_C(1) << 24) /* work-items with sync state */

struct race_buf {
  struct race_cell *blk;            /* per block of the launch's W aligned words */
  _Atomic(struct race_cell *) word; /* per aligned 4 bytes, NULL until a block splits */
  _Atomic(struct race_cell *) byte; /* per byte, NULL until needed */
  uint64_t esize;                   /* the allocation's bytes */
  uint64_t nblk;                    /* blocks */
};
static void race_buf_free(struct race_buf *b);

/* Zeroed shadow of n cells of size bytes. A large one is mapped; with
 * commit, its pages are committed at once: left to fault in, each page of a
 * shadow that is read before it is written faulted twice (the zero page,
 * then a copy on write, with a TLB shootdown across the launch's threads),
 * which cost more than the checking itself. Past RACE_POPULATE, and without
 * commit (a shadow whose pages are written before they are read, or only
 * where a block splits), they fault in as touched: a huge buffer touched at
 * a few places must not commit gigabytes. */
#define RACE_BIG      (UINT64_C(1) << 20)
#define RACE_POPULATE (UINT64_C(1) << 30)
static void *shadow_alloc(uint64_t n, size_t size, bool commit) {
  if (n > SIZE_MAX / size) return NULL;
  if (n * size < RACE_BIG) return calloc(n ? n : 1, size);
  int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
#ifdef MAP_POPULATE
  if (commit && n * size <= RACE_POPULATE) flags = (flags & ~MAP_NORESERVE) | MAP_POPULATE;
#endif
  void *p = mmap(NULL, n * size, PROT_READ | PROT_WRITE, flags, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static void shadow_free(void *p, uint64_t n, size_t size) {
  if (!p) return;
  if (n * size < RACE_BIG)
    free(p);
  else
    munmap(p, n * size);
}

struct simt_race_run {
  _Atomic(struct race_buf *) *gsh; /* per allocation id, DEV_MEM_CAPACITY */
  uint64_t lsz;                    /* item numbers of a work-group: g * lsz + local linear id */
  bool global_on;                  /* false: too many work-items to number in RACE_ID */
  struct race_sync *sync;          /* per work-item, from the launch's first atomic */
  uint64_t nsync;                  /* its work-items, 0: none (past RACE_SYNC_MAX) */
  _Atomic uint32_t clock;          /* atomic operations of the launch */
  uint64_t bw;                     /* bytes of a block of global shadow: 4 W */
  atomic_flag locks[RACE_NLOCKS];
};

struct simt_race_cu {
  struct race_cell *lsh;  /* local memory's shadow, per aligned 4 bytes */
  struct race_cell *lshb; /* ... per byte, once a smaller access came */
  uint32_t stamp;         /* this unit's work-groups, counted */
  uint32_t lbar, gbar;    /* barriers passed with the local / global fence, << 8 */
  uint8_t *lsg, *gsg;     /* per warp: sub-group barriers since (saturating) */
  unsigned nsg;
  uint64_t glin; /* the work-group's linear id */
};

/* One access, as the cells see it. */
struct race_ctx {
  uint32_t t, bar, stamp, pc;
  int kind;
  bool global;
  uint64_t lsz, group;
  unsigned W;
  uint32_t n;                   /* the work-item's atomics so far */
  uint64_t gt;                  /* its number in the launch */
  const struct race_sync *sync; /* the launch's, or NULL */
  bool whole;                   /* made for the whole work-group (SIMT_ACC_GROUP) */
  bool after;                   /* an atomic's write checked after it was made (SIMT_ACC_AFTER) */
};

/* The conflict an access found: the other work-item (+ 1), its access. */
struct race_hit {
  bool found;
  uint32_t other, opc;
  int okind;
  uint64_t byte; /* offset of the first conflicting byte */
};

bool simt_race_open(struct simt_run *run) {
  struct simt_race_run *r = calloc(1, sizeof(*r));
  if (!r) return false;
  r->gsh = calloc(DEV_MEM_CAPACITY, sizeof(*r->gsh));
  if (!r->gsh) {
    free(r);
    return false;
  }
  for (unsigned i = 0; i < RACE_NLOCKS; i++)
    atomic_flag_clear(&r->locks[i]);
  const struct dev_launch *l = run->l;
  r->lsz = l->local[0] * l->local[1] * l->local[2];
  r->bw = 4 * (uint64_t)run->W;
  r->global_on = run->total_groups <= (RACE_ID - 1) / r->lsz;
  if (!r->global_on)
    fprintf(stderr,
            "lockstep: LOCKSTEP_CHECK=races: kernel '%s' has too many work-items to "
            "check global memory; checking local memory only\n",
            run->k->name ? run->k->name : "?");
  uint64_t items = run->total_groups * r->lsz;
  if (r->global_on && items <= RACE_SYNC_MAX) r->nsync = items;
  run->race = r;
  return true;
}

void simt_race_group(struct simt_cu *cu) {
  struct simt_run *run = cu->run;
  if (!cu->race) {
    struct simt_race_cu *rc = calloc(1, sizeof(*rc));
    if (!rc) return;
    if (run->local_total && !(rc->lsh = calloc(run->local_total / 4 + 1, sizeof(*rc->lsh)))) {
      free(rc);
      return;
    }
    cu->race = rc;
  }
  struct simt_race_cu *rc = cu->race;
  if (rc->nsg < cu->nwarps) {
    uint8_t *l = realloc(rc->lsg, cu->nwarps), *g = l ? realloc(rc->gsg, cu->nwarps) : NULL;
    if (l) rc->lsg = l;
    if (g) rc->gsg = g;
    if (l && g) rc->nsg = cu->nwarps;
  }
  rc->stamp++;
  rc->lbar = rc->gbar = 0;
  if (rc->nsg) memset(rc->lsg, 0, rc->nsg), memset(rc->gsg, 0, rc->nsg);
  rc->glin =
      cu->group_id[0] + run->ngroups[0] * (cu->group_id[1] + run->ngroups[1] * cu->group_id[2]);
}

void simt_race_barrier(struct simt_cu *cu, unsigned flags) {
  struct simt_race_cu *rc = cu->race;
  if (!rc) return;
  if (flags & SIMT_FENCE_LOCAL) rc->lbar += 256, memset(rc->lsg, 0, rc->nsg);
  if (flags & SIMT_FENCE_GLOBAL) rc->gbar += 256, memset(rc->gsg, 0, rc->nsg);
}

void simt_race_sgbarrier(struct simt_cu *cu, struct simt_warp *w, unsigned flags) {
  struct simt_race_cu *rc = cu->race;
  if (!rc || w->index >= rc->nsg) return;
  if ((flags & SIMT_FENCE_LOCAL) && rc->lsg[w->index] < 255) rc->lsg[w->index]++;
  if ((flags & SIMT_FENCE_GLOBAL) && rc->gsg[w->index] < 255) rc->gsg[w->index]++;
}

void simt_race_free_cu(struct simt_cu *cu) {
  if (!cu->race) return;
  free(cu->race->lsh);
  free(cu->race->lshb);
  free(cu->race->lsg);
  free(cu->race->gsg);
  free(cu->race);
  cu->race = NULL;
}

void simt_race_close(struct simt_run *run) {
  struct simt_race_run *r = run->race;
  if (!r) return;
  for (unsigned i = 0; i < DEV_MEM_CAPACITY; i++)
    race_buf_free(atomic_load_explicit(&r->gsh[i], memory_order_relaxed));
  free(r->gsh);
  free(r->sync);
  free(r);
  run->race = NULL;
}

/* The launch's sync state, NULL until its first atomic: an access seeing
 * NULL was made by a work-item that made no atomic yet, as was every access
 * it reads back from the cells with n 0. */
static inline struct race_sync *sync_get(const struct simt_race_run *r) {
  return __atomic_load_n(&r->sync, __ATOMIC_ACQUIRE);
}

/* ... made on an atomic (per work-item, a cell per item of a launch that
 * may have millions: allocating it per launch for kernels without atomics
 * touched a page of it per 170 work-items). Out of memory: none, ever. */
static struct race_sync *sync_make(struct simt_race_run *r) {
  struct race_sync *s = sync_get(r);
  if (s || !__atomic_load_n(&r->nsync, __ATOMIC_RELAXED)) return s;
  struct race_sync *n = calloc(r->nsync, sizeof(*n));
  if (!n) {
    __atomic_store_n(&r->nsync, 0, __ATOMIC_RELAXED);
    return NULL;
  }
  if (__atomic_compare_exchange_n(&r->sync, &s, n, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return n;
  free(n); /* another unit was first */
  return s;
}

/* ---- the cells ---- */

/* Whether work-item u's access made after n of its atomics is ordered
 * before this one through atomics: u made an atomic since, and this
 * work-item made one after it (struct race_sync). */
static inline bool synced(const struct race_ctx *x, uint64_t u, uint32_t n) {
  if (!x->sync) return false;
  const struct race_sync *s = &x->sync[u];
  uint32_t nu = __atomic_load_n(&s->n, __ATOMIC_ACQUIRE);
  if (nu <= n || nu - n > RACE_RING) return false;
  uint32_t rel = __atomic_load_n(&s->rel[(n + 1) % RACE_RING], __ATOMIC_RELAXED);
  return __atomic_load_n(&x->sync[x->gt].acq, __ATOMIC_RELAXED) > rel;
}

/* Whether a record of item u (+1) at barrier interval bar, after n of its
 * atomics, is ordered before the access: the same work-group and a
 * work-group barrier between, the same warp and a sub-group barrier
 * between, or atomics between (synced). */
static inline bool ordered(const struct race_ctx *x, uint32_t f, uint32_t bar, uint32_t n) {
  if (f & RACE_MG) return false;
  uint64_t u = (f & RACE_ID) - 1, t = x->t - 1;
  bool same = true;
  if (x->global) {
    same = u / x->lsz == x->group;
    if (!(f & RACE_MANY) && synced(x, u, n)) return true;
    u %= x->lsz, t %= x->lsz;
  } else if (!(f & RACE_MANY) && synced(x, x->group * x->lsz + u, n)) {
    return true;
  }
  if (!same || bar >= x->bar) return false;
  return (bar >> 8) < (x->bar >> 8) || u / x->W == t / x->W;
}

/* Checks the access against one slot: a conflict when the slot holds an
 * unordered access of another work-item, unless both are atomic. */
static inline void slot_check(const struct race_ctx *x, uint32_t f, uint32_t bar, uint32_t n,
                              uint32_t pc, int okind, struct race_hit *h, uint64_t byte) {
  bool others = x->whole || (f & RACE_MANY) || (f & RACE_ID) != x->t;
  bool atomic = x->kind >= SIMT_ACC_ATOMIC;
  if (!others || ((f & RACE_ATOM) && atomic) || ordered(x, f, bar, n)) return;
  /* The slot names its first work-item; when that is this one, the others
   * it stands for are the ones this access races with. */
  uint32_t other = f & RACE_ID;
  if (other == x->t && !x->whole) other = 0;
  *h = (struct race_hit){true, other, pc, okind, byte};
}

/* Whether an atomic access must leave the slot's non-atomic record f (at
 * barrier interval bar) in place rather than take its place: the atomics of
 * other work-items still race with it (the same work-item's earlier store,
 * or one a sub-group barrier or atomics order only before this access),
 * unless a work-group barrier orders it before all the group does next - on
 * global memory never, as other work-groups are never ordered. */
static inline bool keeps_plain(const struct race_ctx *x, uint32_t f, uint32_t bar) {
  return f && !(f & RACE_ATOM) && x->kind >= SIMT_ACC_ATOMIC &&
         (x->global || (bar >> 8) >= (x->bar >> 8));
}

/* Records the access in a slot. */
static inline void slot_put(const struct race_ctx *x, uint32_t *slot, uint32_t *bar, uint32_t *pc,
                            uint32_t *n) {
  uint32_t f = *slot, a = x->kind >= SIMT_ACC_ATOMIC ? RACE_ATOM : 0;
  if (f & RACE_MG) { /* never ordered again: only the atomic flag can change */
    *slot = f & (a | ~RACE_ATOM);
    return;
  }
  if (!f || ((f & RACE_ID) == x->t && !(f & RACE_MANY)) || ordered(x, f, *bar, *n)) {
    if (keeps_plain(x, f, *bar)) return;
    *slot = x->t | a | (x->whole ? RACE_MANY : 0); /* a group's access: any work-item's */
    *bar = x->bar;
    *pc = x->pc;
    *n = x->n;
    return;
  }
  uint32_t nf = (f & (RACE_ID | RACE_MG | a)) | RACE_MANY; /* keeps the first work-item */
  if (x->global && ((f & RACE_ID) - 1) / x->lsz != x->group) nf |= RACE_MG;
  *slot = nf;
}

/* Checks the access against a cell without recording it. */
static inline void cell_check(const struct race_ctx *x, const struct race_cell *c,
                              struct race_hit *h, uint64_t byte) {
  if (c->stamp != x->stamp || h->found) return;
  bool write = x->kind == SIMT_ACC_WRITE || x->kind == SIMT_ACC_ATOMIC;
  if (c->w)
    slot_check(x, c->w, c->wbar, c->wn, c->wpc, c->w & RACE_ATOM ? SIMT_ACC_ATOMIC : SIMT_ACC_WRITE,
               h, byte);
  if (!h->found && write && c->r)
    slot_check(x, c->r, c->rbar, c->rn, c->rpc,
               c->r & RACE_ATOM ? SIMT_ACC_ATOMIC_READ : SIMT_ACC_READ, h, byte);
}

static inline void cell_access(const struct race_ctx *x, struct race_cell *c, struct race_hit *h,
                               uint64_t byte) {
  if (c->stamp != x->stamp) *c = (struct race_cell){.stamp = x->stamp};
  bool write = x->kind == SIMT_ACC_WRITE || x->kind == SIMT_ACC_ATOMIC;
  if (!h->found && c->w)
    slot_check(x, c->w, c->wbar, c->wn, c->wpc, c->w & RACE_ATOM ? SIMT_ACC_ATOMIC : SIMT_ACC_WRITE,
               h, byte);
  if (!h->found && write && c->r)
    slot_check(x, c->r, c->rbar, c->rn, c->rpc,
               c->r & RACE_ATOM ? SIMT_ACC_ATOMIC_READ : SIMT_ACC_READ, h, byte);
  if (write)
    slot_put(x, &c->w, &c->wbar, &c->wpc, &c->wn);
  else
    slot_put(x, &c->r, &c->rbar, &c->rpc, &c->rn);
}

/* ---- reports ---- */

static const char *const acc_name[4] = {"read", "write", "atomic", "atomic load"};

/* Work-item item (0-based) as text: global id, work-group, local id. */
static void item_text(struct simt_cu *cu, bool global, uint64_t item, char *buf, size_t n) {
  const struct simt_run *run = cu->run;
  const struct dev_launch *l = run->l;
  uint64_t g = global ? item / run->race->lsz : cu->race->glin;
  uint64_t llid = global ? item % run->race->lsz : item;
  uint64_t gid[3], gs[3], lid[3], glob[3];
  simt_group_coords(run, g, gid);
  for (int k = 0; k < 3; k++) {
    uint64_t rest = l->global[k] - gid[k] * l->local[k];
    gs[k] = rest < l->local[k] ? rest : l->local[k];
  }
  lid[0] = llid % gs[0];
  lid[1] = llid / gs[0] % gs[1];
  lid[2] = llid / (gs[0] * gs[1]);
  for (int k = 0; k < 3; k++)
    glob[k] = l->offset[k] + gid[k] * l->local[k] + lid[k];
  snprintf(buf, n,
           "work-item (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") of work-group (%" PRIu64 ",%" PRIu64
           ",%" PRIu64 ")",
           glob[0], glob[1], glob[2], gid[0], gid[1], gid[2]);
}

/* One access of a report: "write at f.cl:12 by work-item (...)" (kind may
 * carry SIMT_ACC_GROUP: an async copy's). */
static void access_text(struct simt_cu *cu, bool global, int kind, uint32_t pc, uint32_t item,
                        char *buf, size_t n) {
  const struct simt_run *run = cu->run;
  const struct lsi_kernel *k = run->k;
  char at[300] = "", who[200];
  if (k->lines && pc < k->ninsns) {
    uint32_t f = k->lines[pc].file;
    const char *file = run->l->prog && f < run->l->prog->nfiles ? run->l->prog->files[f] : "?";
    snprintf(at, sizeof at, "%s:%" PRIu32, file, k->lines[pc].line);
  } else {
    snprintf(at, sizeof at, "instruction %04" PRIu32, pc);
  }
  if (item)
    item_text(cu, global, item - 1, who, sizeof who);
  else
    snprintf(who, sizeof who, "other work-items");
  snprintf(buf, n, "%s at %s by %s%s", acc_name[kind & 3], at, who,
           kind & SIMT_ACC_GROUP ? " (an async copy, the work-group's)" : "");
}

/* Where the racing byte is: "local memory (argument 'tmp', offset 4)". */
static void place_text(struct simt_run *run, bool global, uint64_t addr, char *buf, size_t n) {
  uint64_t off = LSI_ADDR_OFFSET(addr);
  if (global) {
    char name[160];
    simt_buffer_name(run, addr, name, sizeof name);
    snprintf(buf, n, "global memory, %s offset %" PRIu64, name, off);
    return;
  }
  const struct lsi_kernel *k = run->k;
  int best = -1;
  for (uint32_t j = 0; j < k->nargs; j++)
    if (k->args[j].kind == LSI_ARG_LOCAL && run->local_arg_off[j] <= off &&
        (best < 0 || run->local_arg_off[j] > run->local_arg_off[best]))
      best = (int)j;
  /* A __local variable of the kernel's scope (the static block, before
   * the arguments) is named from the symbol table when it knows it. */
  const struct cc_symbol *s =
      best < 0 ? cc_debug_symbol_at(k->debug, 0, 0, CC_SYM_LOCAL, off) : NULL;
  if (best >= 0)
    snprintf(buf, n, "local memory, argument '%s' offset %" PRIu64,
             k->args[best].name ? k->args[best].name : "?", off - run->local_arg_off[best]);
  else if (s && s->name)
    snprintf(buf, n, "local memory, variable '%s' offset %" PRIu64, s->name, off - s->offset);
  else
    snprintf(buf, n, "local memory, offset %" PRIu64, off);
}

static void report(struct simt_cu *cu, const struct race_ctx *x, const struct race_hit *h,
                   uint64_t addr) {
  uint32_t a = h->other, b = x->t;
  /* The order key: the work-items' numbers in the launch (a local race's
   * are its work-group's, the same in every work-group: which work-group's
   * instance was kept depended on the compute units' timing). */
  uint64_t base = x->global ? 0 : x->group * x->lsz, lo = (a < b ? a : b) + base,
           hi = (a < b ? b : a) + base;
  lo = lo > UINT32_MAX ? UINT32_MAX : lo;
  hi = hi > UINT32_MAX ? UINT32_MAX : hi;
  struct simt_check_rec *r =
      simt_check_count(cu, DEV_CHECK_RACES, h->opc, x->pc, (lo << 32 | hi) + (addr & 0xff));
  if (!r) return;
  char one[400], two[400], where[300];
  bool first_other = a && a < b; /* the lower work-item first */
  int xk = x->kind | (x->whole ? SIMT_ACC_GROUP : 0);
  access_text(cu, x->global, first_other ? h->okind : xk, first_other ? h->opc : x->pc,
              first_other ? a : b, one, sizeof one);
  access_text(cu, x->global, first_other ? xk : h->okind, first_other ? x->pc : h->opc,
              first_other ? b : a, two, sizeof two);
  place_text(cu->run, x->global, addr, where, sizeof where);
  int n = snprintf(r->text, sizeof r->text, "data race in kernel '%.100s' on %.200s: ",
                   cu->run->k->name ? cu->run->k->name : "?", where);
  if (n > 0 && (size_t)n < sizeof r->text)
    snprintf(r->text + n, sizeof r->text - (size_t)n, "%.300s and %.300s", one, two);
}

/* ---- the accesses ---- */

/* The access's work-item gt and its atomics before it (an atomic's write
 * checked after it was made: before the one it already counted). */
static inline void sync_ctx(const struct simt_race_run *r, struct race_ctx *x, uint64_t gt,
                            int kind) {
  x->gt = gt;
  x->sync = sync_get(r);
  x->n = x->sync ? x->sync[gt].n : 0;
  if ((kind & SIMT_ACC_AFTER) && x->n) x->n--;
}

/* What the local accesses of warp w's instruction at pc share (the lane's
 * work-item and atomics so far are local_lane's). */
static void local_ctx(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, int kind,
                      struct race_ctx *x) {
  struct simt_race_cu *rc = cu->race;
  uint32_t sg = w->index < rc->nsg ? rc->lsg[w->index] : 0;
  *x = (struct race_ctx){0, rc->lbar | sg, rc->stamp, pc, kind & SIMT_ACC_KIND, false,
                         1, rc->glin,      cu->run->W};
  x->lsz = cu->run->race->lsz;
  x->whole = kind & SIMT_ACC_GROUP;
  x->after = kind & SIMT_ACC_AFTER;
  x->sync = sync_get(cu->run->race);
}

/* One lane's local access, in the context x made for its warp. */
static void local_lane(struct simt_cu *cu, struct simt_warp *w, struct race_ctx x, unsigned lane,
                       uint64_t addr, uint64_t size) {
  struct simt_race_cu *rc = cu->race;
  uint64_t off = LSI_ADDR_OFFSET(addr);
  if (LSI_ADDR_ID(addr) != 0 || off > cu->run->local_total || size > cu->run->local_total - off)
    return;
  x.t = (uint32_t)(w->index * cu->run->W + lane + 1);
  /* a work-item that made an atomic saw the sync state */
  sync_ctx(cu->run->race, &x, rc->glin * x.lsz + x.t - 1, x.after ? SIMT_ACC_AFTER : 0);
  struct race_hit h = {0};
  if (!(off & 3) && !(size & 3)) { /* whole words, as global_cells */
    for (uint64_t o = off; o < off + size; o += 4) {
      cell_access(&x, &rc->lsh[o / 4], &h, o);
      for (unsigned k = 0; rc->lshb && k < 4; k++)
        cell_check(&x, &rc->lshb[o + k], &h, o + k);
    }
  } else {
    if (!rc->lshb && !(rc->lshb = calloc(cu->run->local_total, sizeof(*rc->lshb)))) return;
    for (uint64_t o = off; o < off + size; o++) {
      cell_access(&x, &rc->lshb[o], &h, o);
      cell_check(&x, &rc->lsh[o / 4], &h, o);
    }
  }
  if (h.found) report(cu, &x, &h, addr - off + h.byte);
}

static void local_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                         uint64_t addr, uint64_t size, int kind) {
  struct race_ctx x;
  local_ctx(cu, w, pc, kind, &x);
  local_lane(cu, w, x, lane, addr, size);
}

/* The shadow of allocation e (id), allocated on first touch, in blocks of
 * W aligned words (one warp's contiguous whole-word access). A block's
 * cell (blk) stands for each of its words while every access to it was one
 * such warp access (stamp 0): its slots are word 0's, and word j's are the
 * same with the work-item + j (a slot's work-items are then a warp's lanes
 * in order). Any other access splits the block first (stamp RACE_SPLIT):
 * its words get a cell each (word), and (only once a smaller access comes)
 * its bytes too (byte). Each kind of access is recorded in its own cells
 * and checked against both. Memory: 36 bytes per block committed, the
 * word and byte cells reserved and committed only where blocks split. */
#define RACE_SPLIT 2u
static struct race_buf *global_shadow(struct simt_race_run *r, unsigned id,
                                      const struct dev_mem_entry *e) {
  struct race_buf *s = atomic_load_explicit(&r->gsh[id], memory_order_acquire);
  if (s) return s;
  struct race_buf *n = calloc(1, sizeof(*n));
  if (n) {
    n->esize = e->size;
    n->nblk = e->size / r->bw + 1;
    n->blk = shadow_alloc(n->nblk, sizeof(*n->blk), true);
  }
  if (!n || !n->blk) {
    free(n);
    return NULL;
  }
  if (atomic_compare_exchange_strong(&r->gsh[id], &s, n)) return n;
  race_buf_free(n); /* another unit was first */
  return s;
}

/* The word or byte cells of b (*p), n of them, made on first need
 * (commit: see shadow_alloc; word cells are written by blk_split before
 * they are read). */
static struct race_cell *lazy_shadow(_Atomic(struct race_cell *) *p, uint64_t n, bool commit) {
  struct race_cell *s = atomic_load_explicit(p, memory_order_acquire);
  if (s) return s;
  struct race_cell *c = shadow_alloc(n, sizeof(*c), commit);
  if (!c) return NULL;
  if (atomic_compare_exchange_strong(p, &s, c)) return c;
  shadow_free(c, n, sizeof(*c));
  return s;
}

static void race_buf_free(struct race_buf *b) {
  if (!b) return;
  shadow_free(b->blk, b->nblk, sizeof(*b->blk));
  shadow_free(atomic_load_explicit(&b->word, memory_order_relaxed), b->esize / 4 + 1,
              sizeof(*b->blk));
  shadow_free(atomic_load_explicit(&b->byte, memory_order_relaxed), b->esize, sizeof(*b->blk));
  free(b);
}

/* Holds the lock of block k of buffer id (every cell of the block is
 * under it). */
static inline void stripe_lock(struct simt_race_run *r, unsigned id, uint64_t k, unsigned *held) {
  unsigned s = (unsigned)((id * 2654435761u + k) % RACE_NLOCKS);
  if (s == *held) return;
  if (*held < RACE_NLOCKS) atomic_flag_clear_explicit(&r->locks[*held], memory_order_release);
  while (atomic_flag_test_and_set_explicit(&r->locks[s], memory_order_acquire)) {
  }
  *held = s;
}

/* Word j of a block's slot f: the work-item + j. */
static inline uint32_t slot_shift(uint32_t f, uint32_t j) {
  return f ? f + j : 0;
}

/* Splits block k of b into its words' cells (under its lock); false when
 * out of memory. */
static bool blk_split(const struct simt_race_run *r, struct race_buf *b, uint64_t k) {
  struct race_cell *c = &b->blk[k];
  if (c->stamp == RACE_SPLIT) return true;
  struct race_cell *word = lazy_shadow(&b->word, b->esize / 4 + 1, false);
  if (!word) return false;
  uint64_t n = r->bw / 4, first = k * n, nw = b->esize / 4 + 1;
  for (uint64_t j = 0; j < n && first + j < nw; j++) {
    struct race_cell *d = &word[first + j];
    *d = *c;
    d->stamp = 1;
    d->w = slot_shift(c->w, (uint32_t)j);
    d->r = slot_shift(c->r, (uint32_t)j);
  }
  __atomic_store_n(&c->stamp, RACE_SPLIT, __ATOMIC_RELEASE); /* the words first */
  return true;
}

/* The access's bytes [off, off + size) against both shadows, recorded in
 * one, each block split first. */
static void global_cells(struct simt_race_run *r, unsigned id, struct race_buf *b, uint64_t esize,
                         const struct race_ctx *x, uint64_t off, uint64_t size, struct race_hit *h,
                         unsigned *held_) {
  unsigned held = *held_;
  if (!(off & 3) && !(size & 3)) { /* whole words */
    struct race_cell *bytes = atomic_load_explicit(&b->byte, memory_order_acquire);
    for (uint64_t o = off; o < off + size; o += 4) {
      stripe_lock(r, id, o / r->bw, &held);
      if (!blk_split(r, b, o / r->bw)) break;
      struct race_cell *word = atomic_load_explicit(&b->word, memory_order_relaxed);
      cell_access(x, &word[o / 4], h, o);
      for (unsigned k = 0; bytes && k < 4; k++)
        cell_check(x, &bytes[o + k], h, o + k);
    }
  } else {
    struct race_cell *bytes = lazy_shadow(&b->byte, esize, true);
    for (uint64_t o = off; bytes && o < off + size; o++) {
      stripe_lock(r, id, o / r->bw, &held);
      if (!blk_split(r, b, o / r->bw)) break;
      struct race_cell *word = atomic_load_explicit(&b->word, memory_order_relaxed);
      cell_access(x, &bytes[o], h, o);
      cell_check(x, &word[o / 4], h, o);
    }
  }
  *held_ = held;
}

/* Whether a read of the word at off can neither race nor change its cells:
 * no writer, and readers of several work-groups already (RACE_MG, not
 * atomic), as a read of a table every work-group reads settles. Looked at
 * without the lock: a writer's store racing with this look is one the
 * read may be taken to precede (the readers' slot, which it would not have
 * changed, is what that writer finds either way). */
static bool read_settled(const struct simt_race_run *r, struct race_buf *b, uint64_t off) {
  if (atomic_load_explicit(&b->byte, memory_order_relaxed)) return false;
  const struct race_cell *c = &b->blk[off / r->bw];
  if (__atomic_load_n(&c->stamp, __ATOMIC_ACQUIRE) == RACE_SPLIT) /* see blk_split */
    c = &atomic_load_explicit(&b->word, memory_order_acquire)[off / 4];
  uint32_t wf = __atomic_load_n(&c->w, __ATOMIC_RELAXED);
  uint32_t rf = __atomic_load_n(&c->r, __ATOMIC_RELAXED);
  return !wf && (rf & (RACE_MG | RACE_ATOM)) == RACE_MG;
}

/* What the lanes of one warp instruction share: the buffer they hit last
 * and the lock stripe held. */
struct race_warp {
  uint64_t key; /* address >> LSI_ADDR_ID_SHIFT, ~0: none */
  struct race_buf *b;
  uint64_t esize;
  unsigned held;
};

static void warp_release(struct simt_race_run *r, struct race_warp *rw) {
  if (rw->held < RACE_NLOCKS) atomic_flag_clear_explicit(&r->locks[rw->held], memory_order_release);
  rw->held = RACE_NLOCKS;
}

/* One lane's access of global memory; true when it was a settled read
 * (read_settled). */
static bool global_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                          uint64_t addr, uint64_t size, int kind, struct race_warp *rw) {
  struct simt_run *run = cu->run;
  struct simt_race_run *r = run->race;
  uint64_t off = LSI_ADDR_OFFSET(addr);
  if (!r->global_on) return false;
  if ((addr >> LSI_ADDR_ID_SHIFT) != rw->key) {
    struct dev_mem_entry *e = dev_mem_entry(run->mem, addr);
    if (!e || atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE || e->read_only)
      return false;
    struct race_buf *b = global_shadow(r, LSI_ADDR_ID(addr), e);
    if (!b) return false;
    rw->key = addr >> LSI_ADDR_ID_SHIFT;
    rw->b = b;
    rw->esize = e->size;
  }
  if (off > rw->esize || size > rw->esize - off) return false;
  if (kind == SIMT_ACC_READ && size == 4 && !(off & 3) && read_settled(r, rw->b, off)) return true;
  struct simt_race_cu *rc = cu->race;
  uint64_t llid = (uint64_t)w->index * run->W + lane;
  uint32_t sg = w->index < rc->nsg ? rc->gsg[w->index] : 0;
  struct race_ctx x = {(uint32_t)(rc->glin * r->lsz + llid + 1),
                       rc->gbar | sg,
                       1,
                       pc,
                       kind & SIMT_ACC_KIND,
                       true,
                       r->lsz,
                       rc->glin,
                       run->W};
  x.whole = kind & SIMT_ACC_GROUP;
  sync_ctx(r, &x, x.t - 1, kind);
  struct race_hit h = {0};
  global_cells(r, LSI_ADDR_ID(addr), rw->b, rw->esize, &x, off, size, &h, &rw->held);
  if (h.found) {
    warp_release(r, rw); /* reporting takes no stripe */
    report(cu, &x, &h, addr - off + h.byte);
  }
  return false;
}

/* Work-item gt's atomic, just before it is made: a release (race_sync). */
static void sync_release(struct simt_race_run *r, uint64_t gt) {
  struct race_sync *all = sync_make(r);
  if (!all) return;
  struct race_sync *s = &all[gt];
  uint32_t k = s->n + 1;
  __atomic_store_n(&s->rel[k % RACE_RING], atomic_fetch_add(&r->clock, 1) + 1, __ATOMIC_RELAXED);
  __atomic_store_n(&s->n, k, __ATOMIC_RELEASE);
}

static uint64_t item_number(struct simt_cu *cu, struct simt_warp *w, unsigned lane) {
  return cu->race->glin * cu->run->race->lsz + (uint64_t)w->index * cu->run->W + lane;
}

/* One lane's access; rw carries what the warp's lanes share. True when it
 * was a settled read of global memory (read_settled). */
static bool lane_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                        uint64_t addr, uint64_t size, int kind, struct race_warp *rw) {
  bool settled = false;
  switch (LSI_ADDR_SPACE(addr)) {
  case LSI_SPACE_LOCAL: local_access(cu, w, lane, pc, addr, size, kind); break;
  case LSI_SPACE_GLOBAL: settled = global_access(cu, w, lane, pc, addr, size, kind, rw); break;
  case LSI_SPACE_NONE: /* SVM: checked as the global allocation it is */
    addr = dev_mem_canon(cu->run->mem, addr);
    if (LSI_ADDR_SPACE(addr) != LSI_SPACE_GLOBAL) return false;
    settled = global_access(cu, w, lane, pc, addr, size, kind, rw);
    break;
  default: return false; /* private memory is the work-item's own; constant memory is read-only */
  }
  if ((kind & SIMT_ACC_KIND) >= SIMT_ACC_ATOMIC && !(kind & SIMT_ACC_AFTER))
    sync_release(cu->run->race, item_number(cu, w, lane));
  return settled;
}

void simt_race_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                      uint64_t addr, uint64_t size, int kind) {
  if (!cu->race || !w || size == 0) return;
  struct race_warp rw = {~UINT64_C(0), NULL, 0, RACE_NLOCKS};
  lane_access(cu, w, lane, pc, addr, size, kind, &rw);
  warp_release(cu->run->race, &rw);
}

void simt_race_acquire(struct simt_cu *cu, struct simt_warp *w, uint64_t act) {
  struct simt_race_run *r = cu->run->race;
  struct race_sync *all = cu->race ? sync_get(r) : NULL;
  if (!all) return;
  for (uint64_t m = act; m; m &= m - 1) {
    struct race_sync *s = &all[item_number(cu, w, (unsigned)__builtin_ctzll(m))];
    __atomic_store_n(&s->acq, atomic_fetch_add(&r->clock, 1) + 1, __ATOMIC_RELAXED);
  }
}

/* A whole warp's access of W contiguous words that fill one block of
 * global shadow, lane i at word i: one operation on the block's cell while
 * it stands for its words (struct race_buf). Whether the access races, and
 * what each slot becomes, is the same for every word of the block (the
 * slot's work-items and the warp's are both a warp's lanes in order, one
 * work-group's and one warp's each, so their work-group, warp and barrier
 * intervals compare alike), so word 0 decides for all; synchronisation
 * through atomics is per work-item, so not once the launch made one. True
 * when done; false for the lane by lane path (a race to report, another
 * pattern, a split block). */
static bool warp_block(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act,
                       const uint64_t *base, int64_t imm, unsigned size, int kind) {
  struct simt_run *run = cu->run;
  struct simt_race_run *r = run->race;
  unsigned W = run->W;
  uint64_t a0 = base[0] + (uint64_t)imm, off = LSI_ADDR_OFFSET(a0);
  if (size != 4 || kind > SIMT_ACC_WRITE || !r->global_on || off % r->bw ||
      act != simt_lanes_mask(W) || sync_get(r))
    return false;
  for (unsigned i = 1; i < W; i++)
    if (base[i] + (uint64_t)imm != a0 + 4 * (uint64_t)i) return false;
  struct dev_mem_entry *e = dev_mem_entry(run->mem, a0);
  if (!e || atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE || e->read_only)
    return true; /* as global_access: not checked */
  struct race_buf *b = global_shadow(r, LSI_ADDR_ID(a0), e);
  if (!b) return true;
  if (off > b->esize || r->bw > b->esize - off) return false;
  struct simt_race_cu *rc = cu->race;
  uint32_t sg = w->index < rc->nsg ? rc->gsg[w->index] : 0;
  struct race_ctx x = {(uint32_t)(rc->glin * r->lsz + (uint64_t)w->index * W + 1),
                       rc->gbar | sg,
                       1,
                       pc,
                       kind,
                       true,
                       r->lsz,
                       rc->glin,
                       W};
  x.gt = x.t - 1;
  uint64_t k = off / r->bw;
  unsigned held = RACE_NLOCKS;
  stripe_lock(r, LSI_ADDR_ID(a0), k, &held);
  struct race_cell *c = &b->blk[k], t = *c;
  struct race_hit h = {0};
  bool done = false;
  if (t.stamp != RACE_SPLIT) {
    t.stamp = 1;
    cell_access(&x, &t, &h, off);
    if (!h.found) {
      t.stamp = 0;
      *c = t;
      done = true;
    }
  }
  atomic_flag_clear_explicit(&r->locks[held], memory_order_release);
  return done;
}

/* A warp's plain access of local memory (a lane elsewhere goes its own
 * way). */
static void local_warp(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act,
                       const uint64_t *base, int64_t imm, unsigned size, int kind) {
  struct race_ctx x;
  local_ctx(cu, w, pc, kind, &x);
  for (uint64_t m = act; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    uint64_t ad = base[i] + (uint64_t)imm;
    if (ad & (size - 1)) continue; /* a misaligned access faults instead */
    if (LSI_ADDR_SPACE(ad) == LSI_SPACE_LOCAL) {
      local_lane(cu, w, x, i, ad, size);
    } else {
      struct race_warp rw = {~UINT64_C(0), NULL, 0, RACE_NLOCKS};
      lane_access(cu, w, i, pc, ad, size, kind, &rw);
      warp_release(cu->run->race, &rw);
    }
  }
}

void simt_race_warp(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act,
                    const uint64_t *base, int64_t imm, unsigned size, int kind) {
  if (!cu->race || size == 0) return;
  if ((act & 1) && LSI_ADDR_SPACE(base[0] + (uint64_t)imm) == LSI_SPACE_GLOBAL &&
      warp_block(cu, w, pc, act, base, imm, size, kind))
    return;
  if (LSI_ADDR_SPACE(base[__builtin_ctzll(act)] + (uint64_t)imm) == LSI_SPACE_LOCAL &&
      kind <= SIMT_ACC_WRITE) {
    local_warp(cu, w, pc, act, base, imm, size, kind);
    return;
  }
  struct race_warp rw = {~UINT64_C(0), NULL, 0, RACE_NLOCKS};
  /* Words this instruction read settled (a lane reading one another lane
   * read, as a row of a matrix every lane reads, is settled too), by word
   * modulo 64: the addresses, and which are there. */
  uint64_t settled[64], have = 0;
  for (uint64_t m = act; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    uint64_t ad = base[i] + (uint64_t)imm;
    unsigned s = (unsigned)(ad >> 2) & 63;
    if (ad & (size - 1)) continue; /* a misaligned access faults instead */
    if ((have >> s & 1) && settled[s] == ad) continue;
    if (lane_access(cu, w, i, pc, ad, size, kind, &rw)) settled[s] = ad, have |= UINT64_C(1) << s;
  }
  warp_release(cu->run->race, &rw);
}
