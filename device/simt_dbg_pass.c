/*
 * simt_dbg_pass.c - full-speed passes of a debugged launch (seed 000): the
 * launch held by simt_debug.c is issued again on real warps, each work-group
 * through an entry routine (skip complete, restore in progress, start the
 * rest fresh); the first stop event stops every warp at its next
 * instruction boundary, every in-progress work-item is saved back into the
 * held state, and the launch is killed so the device's warps and workers
 * serve other queues while the user inspects.
 *
 * It must not know about source lines, breakpoints or expressions (the
 * caller's accept decides for a lane), and must not change how undebugged
 * launches run (simt.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/builtins.h"
#include "device/device.h"
#include "device/simt.h"
#include "device/simt_dbg_int.h"
#include "device/simt_int.h"

#define PASS_SLICE 256 /* branch points a warp runs before the next warp's turn */
/* After a work-group's lanes stopped the pass, each work-group that comes
 * before it runs on for this many more warp instructions at most (one that
 * waits for a stopped group would otherwise never end the pass). Counted in
 * the group's own work, not in time, so where the pass stops does not
 * depend on how the host's threads were scheduled. */
#define RUN_ON_INSNS (UINT64_C(1) << 27)

/* What a worker's current work-group took at the breakpoints (its rank: its
 * place in the order groups are handed out). */
struct pass_hits {
  uint64_t rank;
  uint64_t *items; /* up to a whole work-group's items (cap) */
  unsigned n, cap;
  unsigned warp; /* the warp the worker runs (a checker's report is its) */
};

struct pass_ctx {
  struct simt_dbg *s;
  struct simt_dbg_pass *p;
  struct simt_run *run;
  const uint8_t *sg_at;  /* pcs of whole-warp (sub-group) builtins */
  pthread_mutex_t mu;    /* accept, poll, hits, why */
  _Atomic uint64_t next; /* the next rank to hand out */
  uint64_t first;        /* the work-group handed out first (rank 0) */
  /* the lowest rank whose lanes a hit stopped (UINT64_MAX: none yet): later
   * ranks stop, earlier ones run on until they hit, end or wait; when */
  _Atomic uint64_t stop_rank;
  struct pass_hits *wk; /* by worker */
  uint64_t deadline;
  _Atomic uint64_t next_tick; /* when a worker next flushes output and polls */
  int why;                    /* a stop other than a hit or an exception (pause, timeout) */
  _Atomic unsigned groups_run, groups_skipped;
  /* a checker's report the pass stopped for: its compute unit, warp and
   * record there (under mu) */
  struct simt_check_stop cstop;
  bool chk;
  unsigned chk_cu, chk_warp, chk_rec;
};

/* The work-item a lane runs: its global linear id, as the kernel sees it. */
static uint64_t lane_item(struct simt_cu *cu, struct simt_warp *w, unsigned lane) {
  return simt_sreg(cu, w, lane, LSI_SREG_GLOBAL_LINEAR_ID);
}

/* A warp's lanes as a pass's filter reads them. */
struct simt_lanes {
  struct simt_dbg *s;
  struct simt_cu *cu;
  struct simt_warp *w;
};

void *simt_lanes_mem(const struct simt_lanes *v, unsigned lane, uint64_t addr, uint64_t size) {
  const struct simt_run *r = v->cu->run;
  uint64_t off = LSI_ADDR_OFFSET(addr);
  if (off + size < off) return NULL;
  switch (LSI_ADDR_SPACE(addr)) {
  case LSI_SPACE_LOCAL:
  case LSI_SPACE_PRIVATE:
    if (LSI_ADDR_ID(addr) != 0) return NULL;
    if (LSI_ADDR_SPACE(addr) == LSI_SPACE_LOCAL)
      return off + size <= r->local_total ? v->cu->local + off : NULL;
    return off + size <= r->k->private_size ? v->w->priv + (uint64_t)lane * r->k->private_size + off
                                            : NULL;
  default: return simt_dbg_mem(v->s, UINT64_MAX, addr, size); /* the launch's buffers */
  }
}

uint64_t simt_lanes_sreg(const struct simt_lanes *v, unsigned lane, unsigned sreg) {
  return simt_sreg(v->cu, v->w, lane, sreg);
}

const uint8_t *simt_lanes_private(const struct simt_lanes *v, uint64_t *stride, uint64_t *size) {
  *stride = *size = v->cu->run->k->private_size;
  return *size ? v->w->priv : NULL;
}

/* The work-item an exception names. */
static uint64_t exc_item(const struct simt_run *run, const struct dev_exception *e) {
  const struct dev_launch *l = run->l;
  return (e->global_id[0] - l->offset[0]) + (e->global_id[1] - l->offset[1]) * l->global[0] +
         (e->global_id[2] - l->offset[2]) * l->global[0] * l->global[1];
}

/* Stops the pass (first reason wins) and every warp of the launch. */
static void stop_pass(struct pass_ctx *c, int why) {
  if (!c->why) c->why = why;
  atomic_store(&c->run->stop, 1);
}

/* The work-group handed out at rank r: the first one, then the others in
 * increasing order. */
static uint64_t group_at(const struct pass_ctx *c, uint64_t r) {
  if (r == 0) return c->first;
  return r - 1 < c->first ? r - 1 : r;
}

/* Whether a work-group of rank r stops now: the pass stops everything (a
 * pause, the watchdog, an exception), or lanes of an earlier rank hit. */
static bool halted(struct pass_ctx *c, uint64_t r) {
  return atomic_load(&c->run->stop) || r > atomic_load(&c->stop_rank);
}

/* The active lanes of w (of the group of rank r) are at a flagged pc: ask
 * for each not asked yet (*asked: lanes already asked at the pc they are
 * at, this pass or before the last one stopped) whether it stops. Returns
 * how many stop. A group that comes after one whose lanes stopped asks
 * nothing (its lanes are asked in a later pass). */
static unsigned arrival(struct pass_ctx *c, struct simt_cu *cu, struct simt_warp *w, uint64_t r,
                        uint64_t *asked) {
  const struct simt_dbg_pass *p = c->p;
  uint64_t ask = w->active & ~*asked;
  if (ask && p->filter) { /* lanes the caller's filter refuses need no lock */
    struct simt_lanes v = {c->s, cu, w};
    uint64_t keep = p->filter(p->arg, &v, w->pc, ask) & ask;
    *asked |= ask & ~keep;
    ask = keep;
  }
  if (!ask) return 0;
  pthread_mutex_lock(&c->mu);
  struct simt_dbg *s = c->s;
  struct pass_hits *h = &c->wk[cu - c->run->cus];
  unsigned nhit = 0;
  if (r > atomic_load(&c->stop_rank)) ask = 0;
  if (ask && !h->items) {
    /* a whole work-group (the focused one, handed out first, may be a
     * smaller last one) */
    const struct dev_launch *l = c->run->l;
    h->cap = (unsigned)(l->local[0] * l->local[1] * l->local[2]);
    h->items = malloc(h->cap * sizeof(*h->items));
    if (!h->items) {
      simt_fault(cu, NULL, 0, 0, LSI_TRAP_UNSUPPORTED, 0, "out of host memory for breakpoint hits");
      ask = 0;
    }
  }
  if (h->n && h->rank != r) h->n = 0; /* an earlier group of the worker had none that count */
  for (uint64_t m = ask; m; m &= m - 1) {
    unsigned lane = (unsigned)__builtin_ctzll(m);
    s->litem = lane_item(cu, w, lane);
    s->lcu = cu;
    s->lw = w;
    s->llane = lane;
    s->live = true;
    int hit = c->p->accept(c->p->arg, s->litem, w->pc);
    s->live = false;
    *asked |= UINT64_C(1) << lane;
    if (!hit || h->n == h->cap) continue; /* each item of the group hits once a pass */
    h->rank = r;
    h->items[h->n++] = s->litem;
    nhit++;
  }
  if (nhit && r < atomic_load(&c->stop_rank)) atomic_store(&c->stop_rank, r);
  pthread_mutex_unlock(&c->mu);
  return nhit;
}

/* Between scheduling rounds, at most every TICK_NS over all workers: the
 * kernel's printf output so far goes out (a user watching a long pass sees
 * it), the caller is asked whether to pause, and the pass watchdog runs. */
#define TICK_NS 5000000u
static void tick(struct pass_ctx *c) {
  struct simt_run *run = c->run;
  struct simt_dbg_pass *p = c->p;
  uint64_t now = dev_device_now_ns(run->dev), due = atomic_load(&c->next_tick);
  if (now < due || !atomic_compare_exchange_strong(&c->next_tick, &due, now + TICK_NS)) return;
  pthread_mutex_lock(&c->mu);
  pthread_mutex_lock(&run->mu);
  if (run->out_len && p->out) {
    fwrite(run->out, 1, run->out_len, p->out);
    fflush(p->out);
  }
  run->out_len = 0;
  pthread_mutex_unlock(&run->mu);
  if (p->poll && p->poll(p->arg)) stop_pass(c, SIMT_DBG_PASS_PAUSE);
  if (c->deadline && now > c->deadline) stop_pass(c, SIMT_DBG_PASS_TIMEOUT);
  pthread_mutex_unlock(&c->mu);
}

/* ---- checker reports (device/check.h) ---- */

static bool seen_is(const struct simt_check_rec *a, const struct simt_check_rec *b) {
  return a->kind == b->kind && a->file[0] == b->file[0] && a->line[0] == b->line[0] &&
         a->file[1] == b->file[1] && a->line[1] == b->line[1];
}

/* run->check_stop: the pass stops for a report the launch has not stopped
 * for yet, the first one only. */
static bool check_take(void *arg, struct simt_cu *cu, const struct simt_check_rec *r) {
  struct pass_ctx *c = arg;
  struct simt_dbg *s = c->s;
  bool take = false;
  pthread_mutex_lock(&c->mu);
  if (!c->chk) {
    take = true;
    for (unsigned i = 0; i < s->nseen && take; i++)
      take = !seen_is(&s->seen[i], r);
  }
  if (take) {
    c->chk = true;
    c->chk_cu = (unsigned)(cu - c->run->cus);
    c->chk_warp = c->wk[c->chk_cu].warp;
    c->chk_rec = (unsigned)(r - cu->recs);
  }
  pthread_mutex_unlock(&c->mu);
  return take;
}

/* The lane of the warp a report stopped to show it at: the first
 * work-item its text names that is one of lanes, else the lowest. */
static unsigned report_lane(struct simt_cu *cu, struct simt_warp *w, uint64_t lanes,
                            const char *text) {
  for (const char *t = strstr(text, "work-item ("); t; t = strstr(t + 1, "work-item (")) {
    uint64_t g[3];
    if (sscanf(t, "work-item (%" SCNu64 ",%" SCNu64 ",%" SCNu64 ")", &g[0], &g[1], &g[2]) != 3)
      continue;
    for (uint64_t m = lanes; m; m &= m - 1) {
      unsigned lane = (unsigned)__builtin_ctzll(m);
      if (simt_sreg(cu, w, lane, LSI_SREG_GLOBAL_ID_X) == g[0] &&
          simt_sreg(cu, w, lane, LSI_SREG_GLOBAL_ID_Y) == g[1] &&
          simt_sreg(cu, w, lane, LSI_SREG_GLOBAL_ID_Z) == g[2])
        return lane;
    }
  }
  return lanes ? (unsigned)__builtin_ctzll(lanes) : 0;
}

/* The report the pass stopped for, as p's result: the item, where its
 * warp stands and the report's text; the launch does not stop for it
 * again. */
static void check_result(struct pass_ctx *c) {
  struct simt_run *run = c->run;
  struct simt_dbg *s = c->s;
  struct simt_dbg_pass *p = c->p;
  struct simt_cu *cu = &run->cus[c->chk_cu];
  const struct simt_check_rec *r = &cu->recs[c->chk_rec];
  struct simt_warp *w = &cu->warps[c->chk_warp < cu->nwarps ? c->chk_warp : 0];
  uint64_t lanes = w->state == SIMT_WARP_RUN && w->active ? w->active : w->live;
  unsigned lane = report_lane(cu, w, lanes, r->text);
  const struct lsi_kernel *k = run->k;
  struct dev_exception *e = &p->exc;
  memset(e, 0, sizeof(*e));
  e->trap = LSI_TRAP_NONE;
  e->kernel = k->name;
  e->pc = w->pc;
  e->have_pc = w->pc < k->ninsns;
  if (k->lines && w->pc < k->ninsns) {
    e->line = k->lines[w->pc].line;
    if (run->l->prog && k->lines[w->pc].file < run->l->prog->nfiles)
      e->file = run->l->prog->files[k->lines[w->pc].file];
  }
  for (int d = 0; d < 3; d++) {
    e->global_id[d] = simt_sreg(cu, w, lane, LSI_SREG_GLOBAL_ID_X + (unsigned)d);
    e->local_id[d] = w->lid[d][lane];
    e->group_id[d] = cu->group_id[d];
  }
  snprintf(e->message, sizeof(e->message), "%.*s", (int)sizeof(e->message) - 1, r->text);
  p->check = r->kind;
  p->item = lane_item(cu, w, lane);
  p->why = SIMT_DBG_PASS_CHECK;
  if (s->nseen == s->cap_seen) {
    unsigned cap = s->cap_seen ? 2 * s->cap_seen : 8;
    struct simt_check_rec *n = realloc(s->seen, cap * sizeof(*n));
    if (!n) return; /* it may stop again */
    s->seen = n;
    s->cap_seen = cap;
  }
  s->seen[s->nseen++] = *r;
}

/* A work-group pipe function's arrivals (builtins_pipe.c) as they stand in
 * from, for the same group in to: a group stopped between the first and
 * the last of its work-items' calls finishes the one call, with the one
 * reservation, when it resumes (never a second one). */
static void carry_pipe_wg(struct simt_cu *to, const struct simt_cu *from) {
  const struct simt_pipe_wg *f = &from->pipe_wg;
  bool mine = f->run == from->run && !memcmp(f->group, from->group_id, sizeof f->group);
  to->pipe_wg = mine ? *f : (struct simt_pipe_wg){0};
  to->pipe_wg.run = mine ? to->run : NULL;
}

/* Entry routine of an in-progress group: each lane takes its work-item's
 * saved registers and private frame, the group its local memory. The
 * warps' control state comes back as the last pass left it when no
 * work-item has moved alone since; otherwise lanes at the same pc run
 * together and the others wait for their turn in divergence tokens (their
 * reconvergence points are lost: they rejoin where they meet a barrier or
 * exit). A complete item's lane has exited. */
static void restore(struct pass_ctx *c, struct simt_cu *cu, uint64_t g, uint64_t *asked) {
  struct simt_run *run = c->run;
  const struct simt_dbg_pass *p = c->p;
  const struct lsi_kernel *k = run->k;
  const unsigned W = run->W;
  struct dbg_group *G = &c->s->groups[g];
  struct simt_cu *hc = &G->cu;
  bool exact = G->ws && G->nws == cu->nwarps && G->ws_W == W;
  if (run->local_total) memcpy(cu->local, hc->local, run->local_total);
  carry_pipe_wg(cu, hc);
  for (unsigned wi = 0; wi < cu->nwarps; wi++) {
    struct simt_warp *w = &cu->warps[wi];
    w->active = 0;
    memset(w->dis, 0, sizeof(w->dis));
    simt_deque_clear(&w->dq);
    for (uint64_t m = w->exist; m; m &= m - 1) {
      unsigned lane = (unsigned)__builtin_ctzll(m);
      uint64_t bit = UINT64_C(1) << lane;
      uint64_t j = (uint64_t)wi * W + lane;
      struct simt_warp *hw = &hc->warps[j];
      for (uint32_t r = 0; r < k->nregs; r++)
        w->reg[(size_t)r * W + lane] = hw->reg[r];
      if (k->private_size)
        memcpy(w->priv + (size_t)lane * k->private_size, hw->priv, k->private_size);
      /* asked only when it resumes at that pc and this pass stops there
       * (so it cannot run past the pc unseen): an asked item whose pc is
       * no longer flagged, or that waits past it (a sub-group barrier),
       * is asked at the next flagged pc it reaches */
      uint32_t at = !exact                     ? hw->pc
                    : (G->ws[wi].active & bit) ? G->ws[wi].pc
                                               : G->ws[wi].lane_pc[lane];
      if (G->asked && G->asked[j] && hw->state == SIMT_WARP_RUN && at == hw->pc &&
          p->stop_at[hw->pc])
        asked[wi] |= bit;
      if (exact) continue;
      if (hw->state == SIMT_WARP_DONE) {
        w->live &= ~bit;
      } else if (hw->state == SIMT_WARP_BARRIER) {
        w->dis[SIMT_REASON_BAR] |= bit;
        w->lane_pc[lane] = hw->lane_pc[0];
      } else {
        w->dis[SIMT_TOK_DIV] |= bit;
        w->lane_pc[lane] = hw->pc;
      }
    }
    w->epoch = 1;
    if (!exact) G->regrouped = true;
    if (exact) {
      const struct dbg_wsave *ws = &G->ws[wi];
      w->pc = ws->pc;
      w->state = ws->state;
      w->active = ws->active;
      w->live = ws->live;
      memcpy(w->dis, ws->dis, sizeof(w->dis));
      memcpy(w->lane_pc, ws->lane_pc, sizeof(w->lane_pc));
      for (unsigned t = 0; t < ws->ntok; t++)
        if (!simt_deque_push_back(&w->dq, ws->tok[t])) break;
      continue;
    }
    /* one token per resume pc, lowest lane first */
    for (uint64_t left = w->dis[SIMT_TOK_DIV]; left;) {
      uint32_t pc = w->lane_pc[__builtin_ctzll(left)];
      uint64_t at = 0;
      for (uint64_t m = left; m; m &= m - 1)
        if (w->lane_pc[__builtin_ctzll(m)] == pc) at |= m & -m;
      left &= ~at;
      if (!simt_deque_push_back(&w->dq, simt_token_make(SIMT_TOK_DIV, at, pc))) break;
    }
    simt_unwind(cu, w);
  }
}

/* A warp of a regrouped work-group is at a sub-group function with only
 * some of its live lanes (the others come from another divergence token):
 * they wait there (as at a sub-group barrier, resuming after it; saved at
 * the function, which they reach again) until the last ones arrive, and
 * then it runs once for all of them, as it does in an undebugged launch.
 * True when the lanes wait (the warp moved on to others, or ended). */
static bool sg_gather(struct simt_cu *cu, struct simt_warp *w) {
  uint32_t pc = w->pc;
  if (w->state != SIMT_WARP_RUN || w->active == w->live) return false;
  uint64_t waiting = 0;
  for (uint64_t m = w->dis[SIMT_REASON_SGBAR]; m; m &= m - 1)
    if (w->lane_pc[__builtin_ctzll(m)] == pc + 1) waiting |= m & -m;
  if ((w->active | waiting) == w->live) {
    w->dis[SIMT_REASON_SGBAR] &= ~waiting;
    w->active |= waiting;
    return false;
  }
  for (uint64_t m = w->active; m; m &= m - 1)
    w->lane_pc[__builtin_ctzll(m)] = pc + 1;
  w->dis[SIMT_REASON_SGBAR] |= w->active;
  simt_unwind(cu, w);
  return true;
}

/* The control state of group g's warps, for the next pass (false when out
 * of memory: that pass rebuilds it from the items). */
static bool save_warps(struct dbg_group *G, const struct simt_cu *cu, unsigned W) {
  simt_dbg_wsave_drop(G);
  G->ws = calloc(cu->nwarps, sizeof(*G->ws));
  if (!G->ws) return false;
  G->nws = cu->nwarps;
  G->ws_W = W;
  for (unsigned wi = 0; wi < cu->nwarps; wi++) {
    const struct simt_warp *w = &cu->warps[wi];
    struct dbg_wsave *ws = &G->ws[wi];
    ws->pc = w->pc;
    ws->state = w->state;
    ws->active = w->active;
    ws->live = w->live;
    memcpy(ws->dis, w->dis, sizeof(ws->dis));
    memcpy(ws->lane_pc, w->lane_pc, sizeof(ws->lane_pc));
    ws->ntok = simt_deque_size(&w->dq);
    if (!ws->ntok) continue;
    ws->tok = malloc(ws->ntok * sizeof(*ws->tok));
    if (!ws->tok) {
      simt_dbg_wsave_drop(G);
      return false;
    }
    memcpy(ws->tok, w->dq.buf + w->dq.head, ws->ntok * sizeof(*ws->tok));
  }
  return true;
}

/* After the pass: a complete group is freed; otherwise every work-item's
 * state goes back to the held group (its pc, registers, private frame,
 * barrier arrival; the group's local memory). */
static void save(struct pass_ctx *c, struct simt_cu *cu, uint64_t g, const uint64_t *asked) {
  struct simt_dbg *s = c->s;
  struct simt_run *run = c->run;
  const struct lsi_kernel *k = run->k;
  const unsigned W = run->W;
  bool done = true;
  for (unsigned wi = 0; wi < cu->nwarps; wi++)
    done &= cu->warps[wi].state == SIMT_WARP_DONE || cu->warps[wi].live == 0;
  struct dbg_group *G = &s->groups[g];
  if (done) {
    if (G->state == 1) simt_dbg_group_drop(G);
    G->state = 2;
    return;
  }
  struct simt_cu *hc = simt_dbg_group_get(s, g);
  if (hc && !G->asked) G->asked = calloc(cu->nitems, 1);
  if (!hc || !G->asked) {
    simt_fault(cu, NULL, 0, 0, LSI_TRAP_UNSUPPORTED, 0, "out of host memory saving a work-group");
    return;
  }
  if (run->local_total) memcpy(hc->local, cu->local, run->local_total);
  carry_pipe_wg(hc, cu);
  /* the item whose exception or assertion stopped the pass */
  uint64_t fault_item = cu->faulted && run->have_exc ? exc_item(run, &run->exc) : UINT64_MAX;
  for (unsigned wi = 0; wi < cu->nwarps; wi++) {
    struct simt_warp *w = &cu->warps[wi];
    for (uint64_t m = w->exist; m; m &= m - 1) {
      unsigned lane = (unsigned)__builtin_ctzll(m);
      uint64_t bit = UINT64_C(1) << lane;
      struct simt_warp *hw = &hc->warps[(size_t)wi * W + lane];
      for (uint32_t r = 0; r < k->nregs; r++)
        hw->reg[r] = w->reg[(size_t)r * W + lane];
      if (k->private_size)
        memcpy(hw->priv, w->priv + (size_t)lane * k->private_size, k->private_size);
      memset(hw->dis, 0, sizeof(hw->dis));
      simt_deque_clear(&hw->dq);
      hw->exist = hw->live = hw->active = 1;
      hw->epoch = 1;
      if (!(w->live & bit)) {
        hw->state = SIMT_WARP_DONE;
        hw->live = hw->active = 0;
        continue;
      }
      if (w->dis[SIMT_REASON_BAR] & bit) {
        hw->state = SIMT_WARP_BARRIER;
        hw->dis[SIMT_REASON_BAR] = 1;
        hw->active = 0;
        hw->lane_pc[0] = hw->pc = w->lane_pc[lane];
        continue;
      }
      uint32_t pc;
      bool past = false; /* it already went past the stop check at pc */
      if ((w->state == SIMT_WARP_RUN || w->state == SIMT_WARP_FAULT) && (w->active & bit)) {
        pc = w->pc;
      } else if (w->dis[SIMT_REASON_SGBAR] & bit) {
        pc = w->lane_pc[lane] - 1; /* arrives at the sub-group barrier again */
        past = true;
      } else {
        pc = w->lane_pc[lane];
      }
      hw->state = SIMT_WARP_RUN;
      hw->pc = pc;
      if (lane_item(cu, w, lane) == fault_item) {
        if (run->exc.trap == LSI_TRAP_ASSERT)
          hw->pc = pc + 1; /* a stop, not an end: the item resumes after the call */
        else
          hw->state = SIMT_WARP_FAULT;
      }
      hw->epoch = hw->pc != 0 || hw->state != SIMT_WARP_RUN; /* pc 0: not launched */
      G->asked[(size_t)wi * W + lane] = hw->state == SIMT_WARP_RUN && ((asked[wi] & bit) || past);
    }
  }
  /* a faulted group is not run again; the rest keep their warps' shape */
  if (cu->faulted || !save_warps(G, cu, W)) simt_dbg_wsave_drop(G);
  G->state = 1;
}

/* Whether group r, which comes before the group whose lanes stopped the
 * pass, has run on as far as it may (*from: the compute unit's count when
 * it saw the stop, 0 before): then a hit ends the pass. */
static bool ran_on(struct pass_ctx *c, const struct simt_cu *cu, uint64_t r, uint64_t *from) {
  if (atomic_load(&c->stop_rank) == UINT64_MAX) return false;
  if (!*from) {
    *from = cu->st.warp_insns + 1;
    return false;
  }
  if (cu->st.warp_insns + 1 - *from <= RUN_ON_INSNS) return false;
  atomic_store(&c->run->stop, 1);
  return true;
}

/* One group of the pass on compute unit cu (handed out at rank r): entry
 * routine, then the warp scheduler until the group ends or the pass stops
 * it. A round in which its lanes hit is its last: every warp has its turn
 * in it (so the warps that reach a breakpoint together stop together). */
static void pass_group(struct pass_ctx *c, struct simt_cu *cu, uint64_t g, uint64_t r) {
  struct simt_dbg_pass *p = c->p;
  if (!simt_group_begin(cu, g)) return;
  uint64_t *asked = calloc(cu->nwarps, sizeof(uint64_t));
  if (!asked) {
    simt_fault(cu, NULL, 0, 0, LSI_TRAP_UNSUPPORTED, 0, "out of host memory for warps");
    return;
  }
  if (c->s->groups[g].state == 1) {
    restore(c, cu, g, asked);
    /* its definedness was not kept across the stop: unchecked from here */
    simt_uninit_free_cu(cu);
  }
  const uint8_t *sg = c->s->groups[g].regrouped ? c->sg_at : NULL;
  atomic_fetch_add(&c->groups_run, 1);
  uint64_t run_on = 0; /* ran_on()'s count */
  for (;;) {
    unsigned nrun = 0, nbar = 0;
    for (unsigned i = 0; i < cu->nwarps; i++) {
      struct simt_warp *w = &cu->warps[i];
      if (w->state == SIMT_WARP_RUN) {
        /* lanes that start here at a flagged pc (restored, or scheduled
         * by another warp's barrier) are asked first; lanes that stop
         * there keep the warp there */
        unsigned hit = p->stop_at[w->pc] ? arrival(c, cu, w, r, &asked[i]) : 0;
        if (halted(c, r)) goto out;
        if (hit) goto next;
        /* lanes that wait at a sub-group function: the warp's turn ends
         * (others it now runs start at the top of the next round, where
         * they are asked) */
        if (sg && sg[w->pc] && sg_gather(cu, w)) goto next;
        uint64_t n0 = cu->st.warp_insns, a0 = asked[i];
        asked[i] &= ~w->active; /* these run on from where they are */
        c->wk[cu - c->run->cus].warp = i;
        simt_warp_run(cu, w, PASS_SLICE);
        /* another worker stopped the pass before the warp's first
         * instruction: its lanes are still where they were asked */
        if (cu->st.warp_insns == n0) asked[i] = a0;
        if (w->state == SIMT_WARP_RUN && cu->st.warp_insns != n0 && p->stop_at[w->pc])
          arrival(c, cu, w, r, &asked[i]);
      }
    next:
      if (cu->faulted) goto out;
      nrun += w->state == SIMT_WARP_RUN;
      nbar += w->state == SIMT_WARP_BARRIER;
    }
    if (halted(c, r) || r == atomic_load(&c->stop_rank)) goto out;
    if (ran_on(c, cu, r, &run_on)) goto out;
    tick(c);
    if (halted(c, r)) goto out;
    if (nrun) continue;
    if (nbar == 0) break; /* every warp done */
    if (!simt_barrier_release(cu)) goto out;
  }
out:
  save(c, cu, g, asked);
  free(asked);
}

static void pass_worker(void *arg, unsigned k) {
  struct pass_ctx *c = arg;
  struct simt_run *run = c->run;
  struct simt_cu *cu = &run->cus[k];
  if (run->local_total && !cu->local && !(cu->local = calloc(1, run->local_total))) {
    simt_fault(cu, NULL, 0, 0, LSI_TRAP_UNSUPPORTED, 0, "out of host memory for local memory");
    return;
  }
  for (;;) {
    /* groups by rank, up to the one whose lanes stopped the pass; whole
     * finished groups are skipped */
    uint64_t r = atomic_fetch_add(&c->next, 1);
    if (r >= run->total_groups || halted(c, r)) break;
    uint64_t g = group_at(c, r);
    int st = c->s->groups[g].state;
    if (st == 2 || (st == 0 && c->p->in_progress_only)) {
      if (st == 2) atomic_fetch_add(&c->groups_skipped, 1); /* complete: skipped */
      continue;
    }
    pass_group(c, cu, g, r);
  }
}

/* The hits the pass reports: those of the lowest rank that hit (every
 * worker's list holds one group's). A later group's hits, taken before an
 * earlier group hit, are given back: their items are asked again at the
 * next pass, as they would be had the earlier group run first alone. */
static void collect_hits(struct pass_ctx *c) {
  struct simt_dbg_pass *p = c->p;
  struct simt_dbg *s = c->s;
  uint64_t r = atomic_load(&c->stop_rank);
  for (unsigned k = 0; k < c->run->ncus; k++) {
    struct pass_hits *h = &c->wk[k];
    if (h->n && h->rank == r && !p->hits) {
      p->hits = h->items;
      p->nhits = h->n;
      h->items = NULL;
      continue;
    }
    for (unsigned i = 0; i < h->n; i++) {
      uint64_t j, g = simt_dbg_locate(s, h->items[i], &j);
      if (s->groups[g].asked) s->groups[g].asked[j] = 0;
    }
    free(h->items);
  }
  free(c->wk);
}

/* The held launch's checkers on the pass's run (which opened with the
 * device's), and its stops on reports. */
static void check_setup(struct pass_ctx *c) {
  struct simt_run *run = c->run;
  if (run->check != c->s->check) {
    char why[160];
    simt_check_close(run); /* nothing ran: it reports nothing */
    run->check = c->s->check;
    if (run->check && !simt_check_open(run, why, sizeof why)) {
      simt_check_close(run);
      run->check = 0;
    }
  }
  c->cstop.take = check_take;
  c->cstop.arg = c;
  if (run->check && c->s->check_stops) run->check_stop = &c->cstop;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

void simt_dbg_pass(struct simt_dbg *s, struct simt_dbg_pass *p) {
  p->why = SIMT_DBG_PASS_DONE;
  p->item = UINT64_MAX;
  p->hits = NULL;
  p->nhits = 0;
  p->groups_run = p->groups_skipped = 0;
  memset(&p->exc, 0, sizeof(p->exc));
  int rc = 0;
  struct pass_ctx c;
  memset(&c, 0, sizeof(c));
  c.s = s;
  c.p = p;
  c.first = p->first_group < s->run.total_groups ? p->first_group : 0;
  c.stop_rank = UINT64_MAX;
  c.run = simt_open(s->run.dev, &s->run.lc, &p->exc, &rc);
  if (c.run) c.wk = calloc(c.run->ncus, sizeof(*c.wk));
  if (c.run && !c.wk) {
    simt_close(c.run);
    c.run = NULL;
    snprintf(p->exc.message, sizeof(p->exc.message), "out of host memory for a pass");
    p->exc.trap = LSI_TRAP_UNSUPPORTED;
  }
  if (!c.run) {
    p->why = SIMT_DBG_PASS_FAULT;
    return;
  }
  struct simt_run *run = c.run;
  run->report_faults = false; /* under the debugger a fault stops, as stepping does */
  pthread_mutex_init(&c.mu, NULL);
  check_setup(&c);
  /* warps also return to the scheduler at sub-group functions (a
   * regrouped work-group's lanes gather there) */
  const struct lsi_kernel *k = run->k;
  uint8_t *flags = malloc(k->ninsns + 1), *sg_at = calloc(k->ninsns + 1, 1);
  if (!flags || !sg_at) {
    free(flags);
    free(sg_at);
    free(c.wk);
    pthread_mutex_destroy(&c.mu);
    simt_close(run);
    snprintf(p->exc.message, sizeof(p->exc.message), "out of host memory for a pass");
    p->exc.trap = LSI_TRAP_UNSUPPORTED;
    p->why = SIMT_DBG_PASS_FAULT;
    return;
  }
  for (uint32_t pc = 0; pc <= k->ninsns; pc++) {
    const lsi_insn *ip = &k->code[pc < k->ninsns ? pc : 0];
    sg_at[pc] =
        pc < k->ninsns && ip->op == LSI_CALLB && (lsi_builtins[ip->imm].flags & LSI_BI_WARP);
    flags[pc] = p->stop_at[pc] | sg_at[pc];
  }
  c.sg_at = sg_at;
  run->dbg_stop_at = flags;
  uint64_t budget = p->timeout_ns ? p->timeout_ns : run->watchdog_ns;
  uint64_t t0 = dev_device_now_ns(run->dev);
  c.deadline = budget ? t0 + budget : 0;
  uint64_t left = 0;
  for (uint64_t g = 0; g < run->total_groups; g++)
    left += s->groups[g].state == 1 || (s->groups[g].state == 0 && !p->in_progress_only);
  if (left)
    dev_device_run(run->dev, pass_worker, &c, (unsigned)(run->ncus < left ? run->ncus : left));
  if (run->out_len && p->out) {
    fwrite(run->out, 1, run->out_len, p->out);
    fflush(p->out);
  }
  run->out_len = 0;
  p->groups_run = c.groups_run;
  p->groups_skipped = c.groups_skipped;
  if (c.chk && !run->have_exc) check_result(&c);
  simt_check_take(run, &s->recs, &s->nrecs, &s->cap_recs);
  collect_hits(&c);
  if (p->nhits) qsort(p->hits, p->nhits, sizeof(p->hits[0]), cmp_u64);
  if (run->have_exc) {
    const struct dev_exception *e = &run->exc;
    /* a device exception another worker raised while an assertion stopped
     * the pass ends the launch: resuming would run the lanes that had
     * already executed the faulting instruction again */
    for (unsigned u = 0; e->trap == LSI_TRAP_ASSERT && u < run->ncus; u++)
      if (run->cus[u].faulted && run->cus[u].exc.trap != LSI_TRAP_ASSERT) e = &run->cus[u].exc;
    p->exc = *e;
    p->item = exc_item(run, e);
    p->why = e->trap == LSI_TRAP_ASSERT ? SIMT_DBG_PASS_ASSERT : SIMT_DBG_PASS_FAULT;
  } else if (p->why == SIMT_DBG_PASS_CHECK) {
    /* the hits other warps took stay to be reported */
  } else if (p->nhits) {
    p->why = SIMT_DBG_PASS_HIT;
    p->item = p->hits[0];
  } else if (c.why) {
    p->why = c.why;
  } else if (!left) {
    p->why = SIMT_DBG_PASS_IDLE;
  } else {
    /* with in_progress_only, groups never started are left: not done */
    p->why = SIMT_DBG_PASS_DONE;
    for (uint64_t g = 0; p->in_progress_only && g < run->total_groups; g++)
      if (s->groups[g].state != 2) {
        p->why = SIMT_DBG_PASS_IDLE;
        break;
      }
  }
  pthread_mutex_destroy(&c.mu);
  simt_close(run);
  free(flags);
  free(sg_at);
}
