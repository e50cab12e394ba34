/*
 * simt_debug.c - a launch held open for the debugger: each work-item is a
 * single-lane warp that can be run alone up to a flagged pc, a barrier, its
 * end or a fault, and whose private, local and global memory can be read and
 * written between runs.
 *
 * It reuses the interpreter (simt_warp_run) and the run/cu structures; it
 * must not change how normal launches run (simt.c) and knows nothing of
 * source lines or breakpoints (the debugger maps those to pcs).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "device/builtins.h"
#include "device/device.h"
#include "device/simt.h"
#include "device/simt_dbg_int.h"
#include "device/simt_int.h"

#define DBG_DEQUE_CAP 16

static void group_ids(const struct simt_dbg *s, uint64_t g, uint64_t gid[3]) {
  const uint64_t *n = s->run.ngroups;
  gid[0] = g % n[0];
  gid[1] = g / n[0] % n[1];
  gid[2] = g / (n[0] * n[1]);
}

struct simt_dbg *simt_dbg_open(struct dev_device *d, const struct dev_launch *l, char *err,
                               size_t errlen) {
  const struct lsi_kernel *k = l->kernel;
  struct simt_dbg *s = calloc(1, sizeof(*s));
  if (!s) return NULL;
  struct simt_run *run = &s->run;
  run->dev = d;
  run->lc = *l;
  s->argbuf = malloc(k->argbuf_size + 1);
  if (s->argbuf) memcpy(s->argbuf, l->argbuf, k->argbuf_size);
  run->lc.argbuf = s->argbuf;
  for (int j = 0; j < 3; j++) {
    if (j >= (int)l->work_dim) {
      run->lc.global[j] = run->lc.local[j] = 1;
      run->lc.offset[j] = 0;
    } else if (run->lc.local[j] == 0) {
      run->lc.local[j] = 1;
    }
  }
  run->l = &run->lc;
  run->k = k;
  run->mem = dev_device_mem(d);
  run->W = 1;
  unsigned ww = dev_device_config(d)->warp_width;
  run->sg_W = ww < 1 ? 32 : ww > SIMT_MAX_W ? SIMT_MAX_W : ww; /* as the device's warps */
  pthread_mutex_init(&run->mu, NULL);
  run->total_groups = 1;
  s->nitems = 1;
  for (int j = 0; j < 3; j++) {
    run->ngroups[j] = (run->lc.global[j] + run->lc.local[j] - 1) / run->lc.local[j];
    run->total_groups *= run->ngroups[j];
    s->nitems *= run->lc.global[j];
  }
  s->check = dev_device_config(d)->check;
  s->check_stops = true;
  run->local_arg_off = calloc(k->nargs + 1, sizeof(uint64_t));
  if (run->local_arg_off)
    run->local_total = lsi_local_layout(k, run->lc.argbuf, run->local_arg_off);
  s->groups = calloc(run->total_groups + 1, sizeof(*s->groups));
  if (!s->argbuf || !run->local_arg_off || !s->groups) {
    snprintf(err, errlen, "out of host memory");
    simt_dbg_close(s);
    return NULL;
  }
  return s;
}

void simt_dbg_group_free(struct simt_cu *cu) {
  for (unsigned i = 0; i < cu->cap_warps; i++) {
    free(cu->warps[i].reg);
    free(cu->warps[i].priv);
    simt_deque_free(&cu->warps[i].dq);
  }
  free(cu->warps);
  free(cu->local);
  free(cu->sink);
  cu->warps = NULL;
  cu->local = NULL;
  cu->sink = NULL;
  cu->sink_cap = 0;
  cu->cap_warps = cu->nwarps = 0;
}

void simt_dbg_wsave_drop(struct dbg_group *G) {
  for (unsigned i = 0; i < G->nws; i++)
    free(G->ws[i].tok);
  free(G->ws);
  G->ws = NULL;
  G->nws = 0;
}

void simt_dbg_group_drop(struct dbg_group *G) {
  simt_dbg_group_free(&G->cu);
  simt_dbg_wsave_drop(G);
  free(G->asked);
  G->asked = NULL;
  G->regrouped = false;
}

void simt_dbg_close(struct simt_dbg *s) {
  if (!s) return;
  for (uint64_t g = 0; s->groups && g < s->run.total_groups; g++)
    if (s->groups[g].state == 1) simt_dbg_group_drop(&s->groups[g]);
  free(s->groups);
  simt_check_end(&s->run, s->recs, s->nrecs);
  free(s->recs);
  free(s->seen);
  free(s->sg_at);
  free(s->sg_stop);
  free(s->run.local_arg_off);
  free(s->run.out);
  pthread_mutex_destroy(&s->run.mu);
  free(s->argbuf);
  free(s);
}

void simt_dbg_set_check(struct simt_dbg *s, unsigned mask, int stops) {
  s->check = mask & DEV_CHECK_AVAILABLE;
  s->check_stops = stops != 0;
}

unsigned simt_dbg_check(const struct simt_dbg *s) {
  return s->check;
}

const struct simt_check_rec *simt_dbg_reports(struct simt_dbg *s, unsigned *n) {
  simt_check_sort(s->recs, s->nrecs);
  *n = s->nrecs;
  return s->recs;
}

uint64_t simt_dbg_items(const struct simt_dbg *s) {
  return s->nitems;
}

/* The group and local linear index of an item. */
uint64_t simt_dbg_locate(const struct simt_dbg *s, uint64_t item, uint64_t *local_index) {
  const struct dev_launch *l = &s->run.lc;
  uint64_t gid[3] = {item % l->global[0], item / l->global[0] % l->global[1],
                     item / (l->global[0] * l->global[1])};
  uint64_t g = 0, j = 0, mul = 1, lmul = 1;
  for (int k = 0; k < 3; k++) {
    uint64_t grp = gid[k] / l->local[k], lid = gid[k] % l->local[k];
    uint64_t rest = l->global[k] - grp * l->local[k];
    uint64_t gs = rest < l->local[k] ? rest : l->local[k];
    g += grp * mul;
    mul *= s->run.ngroups[k];
    j += lid * lmul;
    lmul *= gs;
  }
  if (local_index) *local_index = j;
  return g;
}

uint64_t simt_dbg_group_of(const struct simt_dbg *s, uint64_t item) {
  return simt_dbg_locate(s, item, NULL);
}

uint64_t simt_dbg_warp_of(const struct simt_dbg *s, uint64_t item) {
  const struct dev_launch *l = &s->run.lc;
  uint64_t j, g = simt_dbg_locate(s, item, &j), W = s->run.sg_W;
  uint64_t per = (l->local[0] * l->local[1] * l->local[2] + W - 1) / W;
  return g * per + j / W;
}

void simt_dbg_ids(const struct simt_dbg *s, uint64_t item, uint64_t gid[3], uint64_t lid[3],
                  uint64_t grp[3]) {
  const struct dev_launch *l = &s->run.lc;
  uint64_t g[3] = {item % l->global[0], item / l->global[0] % l->global[1],
                   item / (l->global[0] * l->global[1])};
  for (int k = 0; k < 3; k++) {
    if (gid) gid[k] = g[k] + l->offset[k];
    if (lid) lid[k] = g[k] % l->local[k];
    if (grp) grp[k] = g[k] / l->local[k];
  }
}

uint64_t simt_dbg_sreg(struct simt_dbg *s, uint64_t item, unsigned sreg) {
  struct simt_cu cu;
  struct simt_warp w;
  memset(&cu, 0, sizeof(cu));
  memset(&w, 0, sizeof(w));
  const struct dev_launch *l = &s->run.lc;
  uint64_t j, g = simt_dbg_locate(s, item, &j);
  cu.run = &s->run;
  group_ids(s, g, cu.group_id);
  cu.nitems = 1;
  for (int k = 0; k < 3; k++) {
    uint64_t rest = l->global[k] - cu.group_id[k] * l->local[k];
    cu.group_size[k] = rest < l->local[k] ? rest : l->local[k];
    cu.nitems *= cu.group_size[k];
  }
  w.index = (unsigned)j;
  w.lid[0][0] = (uint32_t)(j % cu.group_size[0]);
  w.lid[1][0] = (uint32_t)(j / cu.group_size[0] % cu.group_size[1]);
  w.lid[2][0] = (uint32_t)(j / (cu.group_size[0] * cu.group_size[1]));
  return simt_sreg(&cu, &w, 0, sreg);
}

uint64_t simt_dbg_group_items(const struct simt_dbg *s, uint64_t group, uint64_t *items,
                              uint64_t max) {
  const struct dev_launch *l = &s->run.lc;
  uint64_t gid[3], n = 0;
  group_ids(s, group, gid);
  for (uint64_t z = gid[2] * l->local[2]; z < l->global[2] && z < (gid[2] + 1) * l->local[2]; z++)
    for (uint64_t y = gid[1] * l->local[1]; y < l->global[1] && y < (gid[1] + 1) * l->local[1]; y++)
      for (uint64_t x = gid[0] * l->local[0]; x < l->global[0] && x < (gid[0] + 1) * l->local[0];
           x++) {
        if (n < max) items[n] = x + y * l->global[0] + z * l->global[0] * l->global[1];
        n++;
      }
  return n;
}

static void warp_init1(struct simt_cu *cu, struct simt_warp *w, unsigned index) {
  struct simt_run *run = cu->run;
  const struct lsi_kernel *k = run->k;
  const struct dev_launch *l = run->l;
  w->index = index;
  w->pc = 0;
  w->exist = w->live = w->active = 1;
  memset(w->dis, 0, sizeof(w->dis));
  simt_deque_clear(&w->dq);
  w->state = SIMT_WARP_RUN;
  w->epoch = w->spins = 0;
  w->yields = w->hang_own = w->hang_round = 0;
  uint64_t x = index % cu->group_size[0], yz = index / cu->group_size[0];
  w->lid[0][0] = (uint32_t)x;
  w->lid[1][0] = (uint32_t)(yz % cu->group_size[1]);
  w->lid[2][0] = (uint32_t)(yz / cu->group_size[1]);
  memset(w->lid_shape, 0, sizeof w->lid_shape); /* not warp_init's */
  for (uint32_t r = 0; r < k->nconst; r++)
    w->reg[r] = k->consts[r].value + (k->consts[r].reloc == LSI_CONST_DATA ? l->data_base : 0);
  for (uint32_t j = 0; j < k->nargs; j++) {
    const struct lsi_arg *a = &k->args[j];
    const uint8_t *src = l->argbuf + a->buf_offset;
    uint64_t v = 0;
    switch (a->kind) {
    case LSI_ARG_LOCAL: v = LSI_ADDR(LSI_SPACE_LOCAL, 0, run->local_arg_off[j]); break;
    case LSI_ARG_BYVAL:
      memcpy(w->priv + a->priv_offset, src, a->size);
      v = LSI_ADDR(LSI_SPACE_PRIVATE, 0, a->priv_offset);
      break;
    case LSI_ARG_VALUE:
      for (uint32_t e = 0; e < a->nregs; e++) {
        uint64_t xv = 0;
        memcpy(&xv, src + (size_t)e * a->elem_size, a->elem_size);
        w->reg[a->reg + e] = xv;
      }
      continue;
    default: memcpy(&v, src, 8); break;
    }
    w->reg[a->reg] = v;
  }
}

/* Launches a group: its warps and local memory. */
struct simt_cu *simt_dbg_group_get(struct simt_dbg *s, uint64_t g) {
  struct dbg_group *G = &s->groups[g];
  struct simt_cu *cu = &G->cu;
  if (G->state == 1) return cu;
  if (G->state == 2) return NULL;
  struct simt_run *run = &s->run;
  const struct lsi_kernel *k = run->k;
  memset(cu, 0, sizeof(*cu));
  cu->run = run;
  group_ids(s, g, cu->group_id);
  cu->nitems = 1;
  for (int j = 0; j < 3; j++) {
    uint64_t rest = run->lc.global[j] - cu->group_id[j] * run->lc.local[j];
    cu->group_size[j] = rest < run->lc.local[j] ? rest : run->lc.local[j];
    cu->nitems *= cu->group_size[j];
  }
  cu->local = calloc(run->local_total + 1, 1);
  cu->warps = calloc(cu->nitems, sizeof(*cu->warps));
  /* what was asked where: an item stepped onto a breakpoint before the
   * group's first pass must not be asked there again by that pass */
  if (!G->asked) G->asked = calloc(cu->nitems, 1);
  if (!cu->local || !cu->warps || !G->asked) {
    simt_dbg_group_free(cu);
    free(G->asked);
    G->asked = NULL;
    return NULL;
  }
  for (unsigned i = 0; i < cu->nitems; i++) {
    struct simt_warp *w = &cu->warps[i];
    w->reg = calloc((size_t)k->nregs + 1, 8);
    w->priv = calloc((size_t)k->private_size + 1, 1);
    if (!w->reg || !w->priv || !simt_deque_init(&w->dq, DBG_DEQUE_CAP)) {
      free(w->reg);
      free(w->priv);
      cu->cap_warps = i;
      simt_dbg_group_free(cu);
      return NULL;
    }
    cu->cap_warps = i + 1;
    warp_init1(cu, w, i);
  }
  cu->nwarps = (unsigned)cu->nitems;
  G->state = 1;
  return cu;
}

static struct simt_warp *warp_of(struct simt_dbg *s, uint64_t item, struct simt_cu **cup) {
  uint64_t j, g = simt_dbg_locate(s, item, &j);
  if (item >= s->nitems || s->groups[g].state != 1) return NULL;
  *cup = &s->groups[g].cu;
  return &s->groups[g].cu.warps[j];
}

int simt_dbg_state(struct simt_dbg *s, uint64_t item, uint32_t *pc) {
  uint64_t g = simt_dbg_locate(s, item, NULL);
  if (s->live && item == s->litem) {
    if (pc) *pc = s->lw->pc;
    return SIMT_DBG_RUN;
  }
  if (pc) *pc = 0;
  if (item >= s->nitems) return SIMT_DBG_FRESH;
  if (s->groups[g].state == 0) return SIMT_DBG_FRESH;
  if (s->groups[g].state == 2) return SIMT_DBG_DONE;
  struct simt_cu *cu;
  struct simt_warp *w = warp_of(s, item, &cu);
  switch (w->state) {
  case SIMT_WARP_RUN:
    if (pc) *pc = w->pc;
    return w->pc == 0 && w->epoch == 0 ? SIMT_DBG_FRESH : SIMT_DBG_RUN;
  case SIMT_WARP_BARRIER:
    if (pc) *pc = w->lane_pc[0];
    return SIMT_DBG_BARRIER;
  case SIMT_WARP_DONE: return SIMT_DBG_DONE;
  default:
    if (pc) *pc = w->pc;
    return SIMT_DBG_FAULT;
  }
}

/* Frees a group whose items have all finished. */
static void maybe_complete(struct simt_dbg *s, uint64_t g) {
  struct simt_cu *cu = &s->groups[g].cu;
  for (unsigned i = 0; i < cu->nwarps; i++)
    if (cu->warps[i].state != SIMT_WARP_DONE) return;
  simt_dbg_group_drop(&s->groups[g]);
  s->groups[g].state = 2;
}

static void flush_out(struct simt_run *run, FILE *out) {
  if (run->out_len && out) {
    fwrite(run->out, 1, run->out_len, out);
    fflush(out);
  }
  run->out_len = 0;
}

/* Runs item (local index j of group g, whose state cu holds) once. */
static int run_once(struct simt_dbg *s, uint64_t item, uint64_t g, uint64_t j, struct simt_cu *cu,
                    const uint8_t *stop_at, uint64_t budget, struct dev_exception *exc, FILE *out) {
  struct simt_warp *w = &cu->warps[j];
  struct simt_run *run = &s->run;
  if (w->state == SIMT_WARP_RUN) {
    run->dbg_stop_at = stop_at;
    w->epoch = 1; /* marks the item as launched */
    simt_warp_run(cu, w, budget ? budget : 1);
    run->dbg_stop_at = NULL;
    flush_out(run, out);
    if (run->have_exc) {
      if (exc) *exc = run->exc;
      run->have_exc = false;
      atomic_store(&run->stop, 0);
      cu->faulted = false;
      if (run->exc.trap == LSI_TRAP_ASSERT && w->state == SIMT_WARP_FAULT) {
        /* a stop, not an end: the item resumes after the call */
        w->state = SIMT_WARP_RUN;
        w->pc++;
        return SIMT_DBG_ASSERT;
      }
      w->state = SIMT_WARP_FAULT;
      return SIMT_DBG_FAULT;
    }
  }
  if (w->state == SIMT_WARP_BARRIER && !(w->live & 1)) w->state = SIMT_WARP_DONE;
  if (w->state == SIMT_WARP_RUN && w->live == 0) w->state = SIMT_WARP_DONE;
  if (w->state == SIMT_WARP_DONE) {
    maybe_complete(s, g);
    return SIMT_DBG_DONE;
  }
  return simt_dbg_state(s, item, NULL);
}

/* ---- sub-group functions ----
 *
 * Here every work-item is a warp of its own, but sub-groups keep the
 * device's width: a work-item that reaches a sub-group function (a
 * whole-warp builtin, or a sub-group barrier) waits there while the other
 * members of its sub-group run to it; then the function runs once for all
 * of them, as on the device's warps. */

/* The item of local linear index m in the group cu holds. */
static uint64_t item_at(const struct simt_dbg *s, const struct simt_cu *cu, uint64_t m) {
  const struct dev_launch *l = &s->run.lc;
  uint64_t x = m % cu->group_size[0], y = m / cu->group_size[0] % cu->group_size[1],
           z = m / (cu->group_size[0] * cu->group_size[1]);
  x += cu->group_id[0] * l->local[0];
  y += cu->group_id[1] * l->local[1];
  z += cu->group_id[2] * l->local[2];
  return x + y * l->global[0] + z * l->global[0] * l->global[1];
}

/* Flags the kernel's sub-group functions (once per kernel). */
static void sg_prepare(struct simt_dbg *s) {
  const struct lsi_kernel *k = s->run.k;
  if (s->sg_k == k) return;
  free(s->sg_at);
  free(s->sg_stop);
  s->sg_at = calloc(k->ninsns + 1, 1);
  s->sg_stop = malloc(k->ninsns + 1);
  s->sg_any = false;
  s->sg_k = s->sg_at && s->sg_stop ? k : NULL;
  for (uint32_t pc = 0; s->sg_k && pc < k->ninsns; pc++) {
    const lsi_insn *ip = &k->code[pc];
    bool sg =
        ip->op == LSI_SGBAR || (ip->op == LSI_CALLB && (lsi_builtins[ip->imm].flags & LSI_BI_WARP));
    s->sg_at[pc] = sg;
    s->sg_any |= sg;
  }
}

/* A fault of the sub-group function at item's pc, reported like the
 * device's own. */
static int sg_fault(struct simt_dbg *s, struct simt_cu *cu, struct simt_warp *w, unsigned arrived,
                    unsigned n, struct dev_exception *exc) {
  simt_fault(cu, w, 0, w->pc, LSI_TRAP_BARRIER_DIVERGENCE, 0,
             "sub-group function reached by %u of %u live work-items of the sub-group", arrived, n);
  if (exc) *exc = s->run.exc;
  s->run.have_exc = false;
  atomic_store(&s->run.stop, 0);
  cu->faulted = false;
  w->state = SIMT_WARP_FAULT;
  return SIMT_DBG_FAULT;
}

/* Item j of group g waits at a sub-group function: the other members run
 * to it, then it runs for all of them and each goes on after it. */
static int sg_sync(struct simt_dbg *s, uint64_t g, uint64_t j, struct dev_exception *exc,
                   FILE *out) {
  struct simt_cu *cu = &s->groups[g].cu;
  const struct lsi_kernel *k = s->run.k;
  unsigned sw = s->run.sg_W;
  uint64_t first = j / sw * sw, n = cu->nitems - first < sw ? cu->nitems - first : sw;
  uint32_t pc = cu->warps[j].pc;
  const uint8_t *asked = s->groups[g].asked;
  const uint8_t *at = s->catch_at;
  s->in_sync = true;
  for (uint64_t m = first; m < first + n; m++) {
    struct simt_warp *mw = &cu->warps[m];
    uint64_t mi = item_at(s, cu, m);
    if (m == j) continue;
    /* one that stands at a flagged pc is asked first (again only when it
     * still has a stop to report there) */
    if (at && mw->state == SIMT_WARP_RUN && at[mw->pc] &&
        s->catch_accept(s->catch_arg, mi, mw->pc, asked && asked[m]))
      goto hit;
    for (unsigned r = 0; r < (1u << 12); r++) {
      if (mw->state != SIMT_WARP_RUN || (mw->epoch && s->sg_at[mw->pc])) break;
      int st = simt_dbg_run(s, mi, at, 1u << 14, exc, out);
      if (st == SIMT_DBG_FAULT || st == SIMT_DBG_ASSERT) {
        s->in_sync = false;
        s->stop_item = mi;
        return st;
      }
      if (at && mw->state == SIMT_WARP_RUN && at[mw->pc] &&
          s->catch_accept(s->catch_arg, mi, mw->pc, 0))
        goto hit;
    }
    continue;
  hit:
    s->in_sync = false;
    s->stop_item = mi;
    return SIMT_DBG_HIT;
  }
  s->in_sync = false;
  uint64_t act = 0, livem = 0;
  unsigned live = 0;
  for (uint64_t m = first; m < first + n; m++) {
    struct simt_warp *mw = &cu->warps[m];
    if (mw->state == SIMT_WARP_DONE || mw->live == 0) continue;
    live++;
    livem |= UINT64_C(1) << (m - first);
    if (mw->state == SIMT_WARP_RUN && mw->pc == pc) act |= UINT64_C(1) << (m - first);
  }
  unsigned arrived = (unsigned)__builtin_popcountll(act);
  if (arrived != live) return sg_fault(s, cu, &cu->warps[j], arrived, live, exc);
  const lsi_insn *ip = &k->code[pc];
  if (ip->op == LSI_CALLB) {
    const struct lsi_builtin *bi = &lsi_builtins[ip->imm];
    const uint32_t *al = k->arglist + ip->a;
    unsigned na = ip->b < 64 ? ip->b : 64, nr = bi->nres < 16 ? bi->nres : 16;
    uint64_t *rows = calloc((size_t)(na + nr) * sw + 1, sizeof(uint64_t));
    if (!rows) return sg_fault(s, cu, &cu->warps[j], 0, live, exc);
    const uint64_t *argr[64];
    uint64_t *resr[16];
    for (unsigned a = 0; a < na; a++) {
      uint64_t *row = rows + (size_t)a * sw;
      for (uint64_t m = act; m; m &= m - 1)
        row[__builtin_ctzll(m)] = cu->warps[first + __builtin_ctzll(m)].reg[al[a]];
      argr[a] = row;
    }
    for (unsigned r = 0; r < nr; r++)
      resr[r] = rows + (size_t)(na + r) * sw;
    struct simt_lane ln = {cu, &cu->warps[j], 0, pc, livem};
    bi->wfn(&ln, act, sw, resr, argr, bi->data);
    for (unsigned r = 0; r < nr; r++)
      for (uint64_t m = act; m; m &= m - 1)
        cu->warps[first + __builtin_ctzll(m)].reg[ip->d + r] = resr[r][__builtin_ctzll(m)];
    free(rows);
  }
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  for (uint64_t m = act; m; m &= m - 1)
    cu->warps[first + __builtin_ctzll(m)].pc = pc + 1;
  return SIMT_DBG_RUN;
}

int simt_dbg_run(struct simt_dbg *s, uint64_t item, const uint8_t *stop_at, uint64_t budget,
                 struct dev_exception *exc, FILE *out) {
  if (item >= s->nitems) return SIMT_DBG_FAULT;
  if (!s->in_sync) s->stop_item = item;
  uint64_t j, g = simt_dbg_locate(s, item, &j);
  struct simt_cu *cu = simt_dbg_group_get(s, g);
  if (!cu) return simt_dbg_state(s, item, NULL);
  struct simt_warp *w = &cu->warps[j];
  struct dbg_group *G = &s->groups[g];
  /* it moves alone: its warp's saved shape no longer holds, and where it
   * stops it has been seen (a pass runs it on from there) */
  simt_dbg_wsave_drop(G);
  if (G->asked) G->asked[j] = 1;
  sg_prepare(s);
  if (!s->sg_any || !s->sg_k || s->run.sg_W < 2)
    return run_once(s, item, g, j, cu, stop_at, budget, exc, out);
  /* stop at sub-group functions too: each waits for its sub-group */
  const uint32_t n = s->run.k->ninsns;
  for (unsigned rounds = 0;; rounds++) {
    if (w->state == SIMT_WARP_RUN && w->epoch && s->sg_at[w->pc]) {
      if (s->in_sync || rounds == 64) return simt_dbg_state(s, item, NULL);
      int st = sg_sync(s, g, j, exc, out);
      if (st != SIMT_DBG_RUN) return st;
      if (stop_at && stop_at[w->pc]) return simt_dbg_state(s, item, NULL);
    }
    for (uint32_t pc = 0; pc <= n; pc++)
      s->sg_stop[pc] = s->sg_at[pc] | (stop_at ? stop_at[pc] : 0);
    int st = run_once(s, item, g, j, cu, s->sg_stop, budget, exc, out);
    if (st != SIMT_DBG_RUN || !s->sg_at[w->pc] || (stop_at && stop_at[w->pc])) return st;
  }
}

void simt_dbg_set_catch(struct simt_dbg *s, const uint8_t *stop_at,
                        int (*accept)(void *arg, uint64_t item, uint32_t pc, int asked),
                        void *arg) {
  s->catch_at = accept ? stop_at : NULL;
  s->catch_accept = accept;
  s->catch_arg = arg;
}

uint64_t simt_dbg_stop_item(const struct simt_dbg *s) {
  return s->stop_item;
}

int simt_dbg_asked(const struct simt_dbg *s, uint64_t item) {
  uint64_t j, g = simt_dbg_locate(s, item, &j);
  if (item >= s->nitems || s->groups[g].state != 1 || !s->groups[g].asked) return 0;
  return s->groups[g].asked[j];
}

static void set_asked(struct simt_dbg *s, uint64_t item, uint8_t v) {
  uint64_t j, g = simt_dbg_locate(s, item, &j);
  if (item < s->nitems && s->groups[g].state == 1 && s->groups[g].asked) s->groups[g].asked[j] = v;
}

void simt_dbg_mark_asked(struct simt_dbg *s, uint64_t item) {
  set_asked(s, item, 1);
}

void simt_dbg_unmark_asked(struct simt_dbg *s, uint64_t item) {
  set_asked(s, item, 0);
}

int simt_dbg_release(struct simt_dbg *s, uint64_t g, struct dev_exception *exc) {
  if (g >= s->run.total_groups || s->groups[g].state != 1) return 0;
  struct simt_cu *cu = &s->groups[g].cu;
  uint32_t bar_pc = UINT32_MAX;
  uint64_t at = 0, done = 0;
  bool differ = false;
  for (unsigned i = 0; i < cu->nwarps; i++) {
    struct simt_warp *w = &cu->warps[i];
    if (w->state == SIMT_WARP_RUN || w->state == SIMT_WARP_FAULT) return 0;
    if (w->state == SIMT_WARP_DONE) {
      done++;
      continue;
    }
    at++;
    if (bar_pc == UINT32_MAX)
      bar_pc = w->lane_pc[0];
    else if (w->lane_pc[0] != bar_pc)
      differ = true;
  }
  if (!at) return 0;
  if (done || differ) {
    if (exc) {
      memset(exc, 0, sizeof(*exc));
      exc->trap = LSI_TRAP_BARRIER_DIVERGENCE;
      snprintf(exc->message, sizeof(exc->message),
               "barrier reached by %" PRIu64 " of %" PRIu64 " work-items of the work-group; %s", at,
               cu->nitems,
               differ ? "others wait at a different barrier"
                      : "others finished the kernel without reaching it");
    }
    return -1;
  }
  if (!simt_group_call(cu, bar_pc)) { /* a work-group function's arguments are wrong */
    if (exc) *exc = s->run.exc;
    s->run.have_exc = false;
    atomic_store(&s->run.stop, 0);
    cu->faulted = false;
    return -1;
  }
  for (unsigned i = 0; i < cu->nwarps; i++) {
    struct simt_warp *w = &cu->warps[i];
    w->active = w->dis[SIMT_REASON_BAR];
    w->dis[SIMT_REASON_BAR] = 0;
    w->pc = bar_pc;
    w->state = SIMT_WARP_RUN;
    /* it arrives at the pc after the barrier: nobody asked it there yet */
    if (s->groups[g].asked) s->groups[g].asked[i] = 0;
  }
  return 1;
}

void *simt_dbg_mem(struct simt_dbg *s, uint64_t item, uint64_t addr, uint64_t size) {
  uint64_t off = LSI_ADDR_OFFSET(addr);
  if (off + size < off) return NULL;
  switch (LSI_ADDR_SPACE(addr)) {
  case LSI_SPACE_GLOBAL:
  case LSI_SPACE_CONSTANT: {
    struct dev_mem_entry *e = dev_mem_entry(s->run.mem, addr);
    if (e && atomic_load(&e->state) == DEV_MEM_LIVE && off + size <= e->size) return e->host + off;
    return NULL;
  }
  case LSI_SPACE_LOCAL:
  case LSI_SPACE_PRIVATE: {
    if (LSI_ADDR_ID(addr) != 0) return NULL;
    uint64_t j, g = simt_dbg_locate(s, item, &j);
    if (item >= s->nitems) return NULL;
    if (s->live && item == s->litem) {
      const struct simt_run *r = s->lcu->run;
      if (LSI_ADDR_SPACE(addr) == LSI_SPACE_LOCAL)
        return off + size <= r->local_total ? s->lcu->local + off : NULL;
      return off + size <= r->k->private_size
                 ? s->lw->priv + (uint64_t)s->llane * r->k->private_size + off
                 : NULL;
    }
    struct simt_cu *cu = simt_dbg_group_get(s, g);
    if (!cu) return NULL;
    if (LSI_ADDR_SPACE(addr) == LSI_SPACE_LOCAL)
      return off + size <= s->run.local_total ? cu->local + off : NULL;
    return off + size <= s->run.k->private_size ? cu->warps[j].priv + off : NULL;
  }
  case LSI_SPACE_NONE: /* an SVM address is its host address */
    return addr && dev_mem_svm_live(s->run.mem, addr, size ? size : 1) ? (void *)(uintptr_t)addr
                                                                       : NULL;
  default: return NULL;
  }
}

uint64_t *simt_dbg_reg(struct simt_dbg *s, uint64_t item, uint32_t reg) {
  uint64_t j, g = simt_dbg_locate(s, item, &j);
  if (item >= s->nitems || reg >= s->run.k->nregs) return NULL;
  if (s->live && item == s->litem) return &s->lw->reg[(size_t)reg * s->lcu->run->W + s->llane];
  struct simt_cu *cu = simt_dbg_group_get(s, g);
  return cu ? &cu->warps[j].reg[reg] : NULL;
}

int simt_dbg_rekernel(struct simt_dbg *s, const struct dev_launch *l,
                      const struct simt_dbg_remap *map) {
  char err[64];
  const struct lsi_kernel *ok = s->run.k, *nk = l->kernel;
  if (nk->nargs != ok->nargs || nk->argbuf_size != ok->argbuf_size) return -1;
  struct simt_dbg *n = simt_dbg_open(s->run.dev, l, err, sizeof(err));
  if (!n) return -1;
  int good = n->nitems == s->nitems && map->prologue_end < nk->ninsns;
  uint8_t *stop = calloc(nk->ninsns + 1, 1);
  if (!stop) good = 0;
  if (good) stop[map->prologue_end] = 1;
  /* groups: finished ones stay finished, launched ones get fresh state and
   * their __local argument buffers */
  for (uint64_t g = 0; good && g < s->run.total_groups; g++) {
    struct dbg_group *G = &s->groups[g];
    if (G->state == 2) n->groups[g].state = 2;
    if (G->state != 1) continue;
    struct simt_cu *cu = simt_dbg_group_get(n, g);
    if (!cu) {
      good = 0;
      break;
    }
    for (uint32_t j = 0; j < ok->nargs; j++) {
      if (ok->args[j].kind != LSI_ARG_LOCAL) continue;
      uint64_t sz;
      memcpy(&sz, s->argbuf + ok->args[j].buf_offset, 8);
      memcpy(cu->local + n->run.local_arg_off[j], G->cu.local + s->run.local_arg_off[j], sz);
    }
  }
  for (uint64_t item = 0; good && item < s->nitems; item++) {
    uint64_t j, g = simt_dbg_locate(s, item, &j);
    if (s->groups[g].state != 1) continue;
    struct simt_cu *ocu = &s->groups[g].cu, *ncu = &n->groups[g].cu;
    struct simt_warp *ow = &ocu->warps[j], *nw = &ncu->warps[j];
    if (ow->state == SIMT_WARP_DONE) {
      nw->state = SIMT_WARP_DONE;
      nw->live = nw->active = 0;
      continue;
    }
    if (ow->state == SIMT_WARP_RUN && ow->pc == 0 && ow->epoch == 0) continue; /* not started */
    if (ow->state != SIMT_WARP_RUN || ow->active != 1) {
      good = 0;
      break;
    }
    if (map->prologue_end) {
      struct dev_exception e;
      uint32_t at;
      simt_dbg_run(n, item, stop, 1u << 20, &e, NULL);
      if (simt_dbg_state(n, item, &at) != SIMT_DBG_RUN || at != map->prologue_end) {
        good = 0;
        break;
      }
    }
    uint32_t pc = map->pc(map->ctx, item, ow->pc, 0);
    good = pc < nk->ninsns;
    /* the control-flow tokens, front to back */
    for (unsigned t = ow->dq.head; good && t < ow->dq.tail; t++) {
      simt_token tok = ow->dq.buf[t];
      uint32_t tpc = map->pc(map->ctx, item, simt_token_pc(tok), 1);
      good = tpc < nk->ninsns &&
             simt_deque_push_back(
                 &nw->dq, (simt_token){tok.mask, (tok.info & 0xffffffffu) | ((uint64_t)tpc << 32)});
    }
    if (good) good = !map->mem(map->ctx, item, ow->priv, nw->priv, ocu->local, ncu->local);
    nw->pc = pc;
    nw->epoch = 1;
  }
  free(stop);
  if (!good) {
    simt_dbg_close(n);
    return -1;
  }
  /* take the new groups and kernel (with what was asked where; the items
   * stay at the same statements); n takes the old ones away */
  for (uint64_t g = 0; g < s->run.total_groups; g++) {
    uint8_t *a = s->groups[g].asked;
    s->groups[g].asked = n->groups[g].asked;
    n->groups[g].asked = a;
  }
  struct dbg_group *tg = s->groups;
  s->groups = n->groups;
  n->groups = tg;
  uint64_t *to = s->run.local_arg_off;
  s->run.local_arg_off = n->run.local_arg_off;
  n->run.local_arg_off = to;
  s->run.local_total = n->run.local_total;
  s->run.k = nk;
  uint8_t *argbuf = s->argbuf;
  s->run.lc = n->run.lc;
  s->run.lc.argbuf = argbuf;
  for (uint64_t g = 0; g < s->run.total_groups; g++)
    if (s->groups[g].state == 1) s->groups[g].cu.run = &s->run;
  simt_dbg_close(n);
  return 0;
}
