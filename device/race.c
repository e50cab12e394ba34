/*
 * race.c - the data-race checker (LOCKSTEP_CHECK=races, device/check.h).
 *
 * Every byte of local memory (per compute unit) and of each global buffer
 * a launch touches (per launch, allocated on first touch) has a shadow cell
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
  struct race_cell *word;           /* per aligned 4 bytes */
  _Atomic(struct race_cell *) byte; /* per byte, NULL until needed */
  uint64_t esize;                   /* the allocation's bytes */
};
static void race_buf_free(struct race_buf *b);

/* Zeroed shadow of n cells of size bytes. A large one is mapped with its
 * pages committed at once: left to fault in, each page of a shadow that is
 * read before it is written faulted twice (the zero page, then a copy on
 * write, with a TLB shootdown across the launch's threads), which cost more
 * than the checking itself. Past RACE_POPULATE the pages fault in as
 * before: a huge buffer touched at a few places must not commit gigabytes. */
#define RACE_BIG      (UINT64_C(1) << 20)
#define RACE_POPULATE (UINT64_C(1) << 30)
static void *shadow_alloc(uint64_t n, size_t size) {
  if (n > SIZE_MAX / size) return NULL;
  if (n * size < RACE_BIG) return calloc(n ? n : 1, size);
  int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_POPULATE
  if (n * size <= RACE_POPULATE) flags |= MAP_POPULATE;
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
  *h = (struct race_hit){true, f & RACE_ID, pc, okind, byte};
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
  uint64_t gid[3] = {g % run->ngroups[0], g / run->ngroups[0] % run->ngroups[1],
                     g / (run->ngroups[0] * run->ngroups[1])};
  uint64_t gs[3], lid[3], glob[3];
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
  if (best >= 0)
    snprintf(buf, n, "local memory, argument '%s' offset %" PRIu64,
             k->args[best].name ? k->args[best].name : "?", off - run->local_arg_off[best]);
  else
    snprintf(buf, n, "local memory, offset %" PRIu64, off);
}

static void report(struct simt_cu *cu, const struct race_ctx *x, const struct race_hit *h,
                   uint64_t addr) {
  uint32_t a = h->other, b = x->t;
  uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
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

static void local_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                         uint64_t addr, uint64_t size, int kind) {
  struct simt_race_cu *rc = cu->race;
  uint64_t off = LSI_ADDR_OFFSET(addr);
  if (LSI_ADDR_ID(addr) != 0 || off > cu->run->local_total || size > cu->run->local_total - off)
    return;
  uint32_t sg = w->index < rc->nsg ? rc->lsg[w->index] : 0;
  struct race_ctx x = {(uint32_t)(w->index * cu->run->W + lane + 1),
                       rc->lbar | sg,
                       rc->stamp,
                       pc,
                       kind & SIMT_ACC_KIND,
                       false,
                       1,
                       rc->glin,
                       cu->run->W};
  x.lsz = cu->run->race->lsz;
  x.whole = kind & SIMT_ACC_GROUP;
  sync_ctx(cu->run->race, &x, rc->glin * x.lsz + x.t - 1, kind);
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

/* The shadow of allocation e (id), allocated on first touch: a cell per
 * aligned 4 bytes for accesses of whole words, and (only once a smaller
 * access comes) a cell per byte for the others. Each kind of access is
 * recorded in its own and checked against both. */
static struct race_buf *global_shadow(struct simt_race_run *r, unsigned id,
                                      const struct dev_mem_entry *e) {
  struct race_buf *s = atomic_load_explicit(&r->gsh[id], memory_order_acquire);
  if (s) return s;
  struct race_buf *n = calloc(1, sizeof(*n));
  if (n) n->esize = e->size, n->word = shadow_alloc(e->size / 4 + 1, sizeof(*n->word));
  if (!n || !n->word) {
    free(n);
    return NULL;
  }
  if (atomic_compare_exchange_strong(&r->gsh[id], &s, n)) return n;
  race_buf_free(n); /* another unit was first */
  return s;
}

static struct race_cell *byte_shadow(struct race_buf *b, uint64_t size) {
  struct race_cell *s = atomic_load_explicit(&b->byte, memory_order_acquire);
  if (s) return s;
  struct race_cell *n = shadow_alloc(size, sizeof(*n));
  if (!n) return NULL;
  if (atomic_compare_exchange_strong(&b->byte, &s, n)) return n;
  shadow_free(n, size, sizeof(*n));
  return s;
}

static void race_buf_free(struct race_buf *b) {
  if (!b) return;
  shadow_free(b->word, b->esize / 4 + 1, sizeof(*b->word));
  shadow_free(atomic_load_explicit(&b->byte, memory_order_relaxed), b->esize, sizeof(*b->word));
  free(b);
}

/* Holds the lock of the 64 bytes around offset off of buffer id. */
static inline void stripe_lock(struct simt_race_run *r, unsigned id, uint64_t off, unsigned *held) {
  unsigned s = (unsigned)((id * 2654435761u + (off >> 6)) % RACE_NLOCKS);
  if (s == *held) return;
  if (*held < RACE_NLOCKS) atomic_flag_clear_explicit(&r->locks[*held], memory_order_release);
  while (atomic_flag_test_and_set_explicit(&r->locks[s], memory_order_acquire)) {
  }
  *held = s;
}

/* The access's bytes [off, off + size) against both shadows, recorded in
 * one. */
static void global_cells(struct simt_race_run *r, unsigned id, struct race_buf *b, uint64_t esize,
                         const struct race_ctx *x, uint64_t off, uint64_t size, struct race_hit *h,
                         unsigned *held_) {
  unsigned held = *held_;
  if (!(off & 3) && !(size & 3)) { /* whole words */
    struct race_cell *bytes = atomic_load_explicit(&b->byte, memory_order_acquire);
    for (uint64_t o = off; o < off + size; o += 4) {
      stripe_lock(r, id, o, &held);
      cell_access(x, &b->word[o / 4], h, o);
      for (unsigned k = 0; bytes && k < 4; k++)
        cell_check(x, &bytes[o + k], h, o + k);
    }
  } else {
    struct race_cell *bytes = byte_shadow(b, esize);
    for (uint64_t o = off; bytes && o < off + size; o++) {
      stripe_lock(r, id, o, &held);
      cell_access(x, &bytes[o], h, o);
      cell_check(x, &b->word[o / 4], h, o);
    }
  }
  *held_ = held;
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

static void global_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                          uint64_t addr, uint64_t size, int kind, struct race_warp *rw) {
  struct simt_run *run = cu->run;
  struct simt_race_run *r = run->race;
  uint64_t off = LSI_ADDR_OFFSET(addr);
  if (!r->global_on) return;
  if ((addr >> LSI_ADDR_ID_SHIFT) != rw->key) {
    struct dev_mem_entry *e = dev_mem_entry(run->mem, addr);
    if (!e || atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE || e->read_only)
      return;
    struct race_buf *b = global_shadow(r, LSI_ADDR_ID(addr), e);
    if (!b) return;
    rw->key = addr >> LSI_ADDR_ID_SHIFT;
    rw->b = b;
    rw->esize = e->size;
  }
  if (off > rw->esize || size > rw->esize - off) return;
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

/* One lane's access; rw carries what the warp's lanes share. */
static void lane_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                        uint64_t addr, uint64_t size, int kind, struct race_warp *rw) {
  switch (LSI_ADDR_SPACE(addr)) {
  case LSI_SPACE_LOCAL: local_access(cu, w, lane, pc, addr, size, kind); break;
  case LSI_SPACE_GLOBAL: global_access(cu, w, lane, pc, addr, size, kind, rw); break;
  default: return; /* private memory is the work-item's own; constant memory is read-only */
  }
  if ((kind & SIMT_ACC_KIND) >= SIMT_ACC_ATOMIC && !(kind & SIMT_ACC_AFTER))
    sync_release(cu->run->race, item_number(cu, w, lane));
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

void simt_race_warp(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act,
                    const uint64_t *base, int64_t imm, unsigned size, int kind) {
  if (!cu->race || size == 0) return;
  struct race_warp rw = {~UINT64_C(0), NULL, 0, RACE_NLOCKS};
  for (uint64_t m = act; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    uint64_t ad = base[i] + (uint64_t)imm;
    if (!(ad & (size - 1))) /* a misaligned access faults instead */
      lane_access(cu, w, i, pc, ad, size, kind, &rw);
  }
  warp_release(cu->run->race, &rw);
}
