/*
 * dbg_bpcond.c - breakpoint conditions at device speed in a pass. The
 * first lane to reach a conditional breakpoint's statement is asked as
 * always (dbg_bp_accept evaluates the condition with the interpreter under
 * the session's lock); meanwhile the condition is compiled for that
 * statement (dbg_cond.c), its names resolved in the frame the interpreter
 * used, and checked against the interpreter's answer for that lane. From
 * then on the pass's filter evaluates it on the device's workers, lane by
 * lane, without the lock: lanes for which it is false run on; lanes for
 * which it holds or that it cannot decide (a fault, a division by zero) are
 * asked through accept, which evaluates them again exactly as before, so
 * values, errors, ignore counts and hit counts stay the interpreter's.
 *
 * It must not decide a stop itself, and reads the lanes only through the
 * device's simt_lanes_* view.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "debugger/dbg_cond.h"
#include "debugger/dbg_int.h"
#include "device/simt.h"

/* A statement whose condition is not compiled: every lane is asked. */
#define COND_NONE ((struct dbg_cond *)(uintptr_t)1)

int dbg_bpcond_open(struct dbg_session *s) {
  dbg_bpcond_close(s);
  if (!s->L || !s->L->k) return -1;
  s->L->ccond = calloc(s->L->k->ninsns + 1, sizeof(*s->L->ccond));
  return s->L->ccond ? 0 : -1;
}

void dbg_bpcond_close(struct dbg_session *s) {
  if (!s->L || !s->L->ccond) return;
  for (uint32_t pc = 0; pc <= s->L->k->ninsns; pc++) {
    struct dbg_cond *c = atomic_load(&s->L->ccond[pc]);
    if (c != COND_NONE) dbg_cond_free(c);
  }
  free(s->L->ccond);
  s->L->ccond = NULL;
}

/* The filter's warp, read through the device. */
static void *lane_mem(void *ctx, unsigned lane, uint64_t addr, uint64_t size) {
  return simt_lanes_mem(ctx, lane, addr, size);
}

static uint64_t lane_sreg(void *ctx, unsigned lane, unsigned sreg) {
  return simt_lanes_sreg(ctx, lane, sreg);
}

uint64_t dbg_bpcond_filter(void *arg, const struct simt_lanes *v, uint32_t pc, uint64_t lanes) {
  struct dbg_launch *L = arg;
  struct dbg_cond *c =
      L->ccond ? atomic_load_explicit(&L->ccond[pc], memory_order_acquire) : COND_NONE;
  if (!c || c == COND_NONE) return lanes;
  struct dbg_cond_io io = {(void *)v, lane_mem, lane_sreg, NULL, 0, 0};
  io.priv = simt_lanes_private(v, &io.priv_stride, &io.priv_size);
  uint64_t unknown, yes = dbg_cond_eval_lanes(c, &io, lanes, &unknown);
  return yes | unknown;
}

/* The item dbg_bp_accept evaluates, read through the held launch (live
 * from its lane while the pass asks). */
struct item_io {
  struct simt_dbg *sd;
  uint64_t item;
};

static void *item_mem(void *ctx, unsigned lane, uint64_t addr, uint64_t size) {
  const struct item_io *x = ctx;
  (void)lane;
  return simt_dbg_mem(x->sd, x->item, addr, size);
}

static uint64_t item_sreg(void *ctx, unsigned lane, unsigned sreg) {
  const struct item_io *x = ctx;
  (void)lane;
  return simt_dbg_sreg(x->sd, x->item, sreg);
}

void dbg_bpcond_learn(struct dbg_session *s, const struct bp *b, uint64_t item, uint32_t pc,
                      int bad, int truth) {
  if (!s->L->ccond || pc > s->L->k->ninsns || atomic_load(&s->L->ccond[pc])) return;
  struct dbg_cond *c = NULL;
  /* a watched item is asked at every statement for its watched change */
  if (!(s->L->watching && s->L->watchset[pc])) {
    struct dbg_env env;
    dbg_session_env(s, &env);
    c = dbg_cond_compile(&env, b->cond);
  }
  if (c) {
    /* the compiled form must agree with the interpreter on this lane */
    struct item_io x = {s->L->sd, item};
    struct dbg_cond_io io = {&x, item_mem, item_sreg, NULL, 0, 0};
    int r = dbg_cond_eval(c, &io);
    if (r >= 0 && (bad || r != truth)) {
      dbg_cond_free(c);
      c = NULL;
    }
  }
  atomic_store_explicit(&s->L->ccond[pc], c ? c : COND_NONE, memory_order_release);
}
