/*
 * deque.c - the per-warp double-sided token queue of seed 004 and the rule
 * that unwinds it when a warp's active lanes are disabled.
 *
 * Tokens re-activate only lanes disabled for the token's own reason and whose
 * remembered resume pc is the token's target, so a stale or foreign token can
 * never start a lane at the wrong place; when the queue runs dry, lanes still
 * waiting resume at their remembered pc (the SYNC/BRK/CONT fallback). This
 * file must not execute instructions.
 */
#include <stdlib.h>
#include <string.h>

#include "device/simt_int.h"

uint64_t simt_token_pack(simt_token t) {
  return (uint64_t)simt_token_type(t) | ((t.mask & 0xffffffffu) << 4) |
         ((uint64_t)(simt_token_pc(t) & 0x3fffffu) << 36) |
         ((uint64_t)(simt_token_below(t) & 15u) << 58);
}

simt_token simt_token_unpack(uint64_t v) {
  simt_token t = simt_token_make((unsigned)(v & 15u), (v >> 4) & 0xffffffffu,
                                 (uint32_t)((v >> 36) & 0x3fffffu));
  t.info |= ((v >> 58) & 15u) << 4;
  return t;
}

bool simt_deque_init(struct simt_deque *q, unsigned cap) {
  if (cap < 4) cap = 4;
  q->buf = calloc(cap, sizeof(*q->buf));
  q->cap = q->buf ? cap : 0;
  q->head = q->tail = q->cap / 2;
  q->recentres = 0;
  return q->buf != NULL;
}

void simt_deque_free(struct simt_deque *q) {
  free(q->buf);
  q->buf = NULL;
  q->cap = q->head = q->tail = 0;
}

/* An end overflowed: move the tokens to the middle, growing when full. */
static bool recentre(struct simt_deque *q) {
  unsigned n = simt_deque_size(q);
  q->recentres++;
  if (n + 2 > q->cap) {
    unsigned ncap = q->cap * 2;
    simt_token *nb = calloc(ncap, sizeof(*nb));
    if (!nb) return false;
    unsigned h = (ncap - n) / 2;
    memcpy(nb + h, q->buf + q->head, n * sizeof(*nb));
    free(q->buf);
    q->buf = nb;
    q->cap = ncap;
    q->head = h;
    q->tail = h + n;
    return true;
  }
  unsigned h = (q->cap - n) / 2;
  memmove(q->buf + h, q->buf + q->head, n * sizeof(*q->buf));
  q->head = h;
  q->tail = h + n;
  return true;
}

bool simt_deque_push_front(struct simt_deque *q, simt_token t) {
  if (q->head == 0 && !recentre(q)) return false;
  if (q->head < q->tail) {
    simt_token f = q->buf[q->head];
    unsigned below = simt_token_below(f) | (1u << simt_token_type(f));
    t.info = (t.info & ~((uint64_t)0xff << 4)) | ((uint64_t)(below & 0xff) << 4);
  }
  q->buf[--q->head] = t;
  return true;
}

bool simt_deque_push_back(struct simt_deque *q, simt_token t) {
  if (q->tail == q->cap && !recentre(q)) return false;
  q->buf[q->tail++] = t;
  return true;
}

/* The lanes of m whose remembered resume pc is pc. */

static void activate(struct simt_warp *w, unsigned reason, uint64_t m, uint32_t pc) {
  w->dis[reason] &= ~m;
  w->active = m;
  w->pc = pc;
  w->state = SIMT_WARP_RUN;
}

void simt_unwind(struct simt_cu *cu, struct simt_warp *w) {
  struct simt_deque *q = &w->dq;
  w->active = 0;
  while (simt_deque_size(q)) {
    simt_token t = simt_deque_pop_front(q);
    unsigned ty = simt_token_type(t);
    uint32_t pc = simt_token_pc(t);
    if (ty >= SIMT_REASON_BAR) continue;
    uint64_t m = simt_lanes_at(w, t.mask & w->dis[ty], pc);
    if (!m) continue; /* stale: none of its lanes waits for it */
    if (ty == SIMT_TOK_SYNC || ty == SIMT_TOK_BRK || ty == SIMT_TOK_CONT)
      m |= simt_lanes_at(w, w->dis[ty] & ~m, pc); /* same place, same reason: join */
    activate(w, ty, m, pc);
    return;
  }
  /* Queue empty: lanes still waiting for any reason but a barrier resume at
   * their own pc (lowest waiting lane first, with every lane waiting there). */
  uint64_t waiting = simt_waiting(w, SIMT_REASON_BAR);
  if (waiting) {
    uint32_t pc = w->lane_pc[__builtin_ctzll(waiting)];
    uint64_t all = 0;
    for (unsigned r = 0; r < SIMT_REASON_BAR; r++) {
      uint64_t m = simt_lanes_at(w, w->dis[r], pc);
      w->dis[r] &= ~m;
      all |= m;
    }
    w->active = all;
    w->pc = pc;
    w->state = SIMT_WARP_RUN;
    return;
  }
  /* Nothing else can run: lanes at a sub-group barrier go on when every live
   * lane of the warp waits at that same barrier; otherwise the rest can never
   * reach it. */
  uint64_t sg = w->dis[SIMT_REASON_SGBAR];
  if (sg) {
    unsigned lane = (unsigned)__builtin_ctzll(sg);
    uint32_t pc = w->lane_pc[lane];
    if (sg == w->live && simt_lanes_at(w, sg, pc) == sg) {
      __atomic_thread_fence(__ATOMIC_SEQ_CST);
      if (cu->run->check) simt_check_sgbarrier(cu, w, pc);
      activate(w, SIMT_REASON_SGBAR, sg, pc);
      return;
    }
    simt_fault(cu, w, lane, pc - 1, LSI_TRAP_BARRIER_DIVERGENCE, 0,
               "sub-group barrier reached by %u of %u live work-items of the sub-group",
               (unsigned)__builtin_popcountll(simt_lanes_at(w, sg, pc)),
               (unsigned)__builtin_popcountll(w->live));
    w->state = SIMT_WARP_FAULT;
    return;
  }
  w->bar_lanes = 0; /* not all at once */
  w->state = w->dis[SIMT_REASON_BAR] ? SIMT_WARP_BARRIER : SIMT_WARP_DONE;
}
