/*
 * simt_dbg_int.h - the held state of a debugged launch, shared by the two
 * files that work on it: simt_debug.c (one work-item at a time) and
 * simt_dbg_pass.c (full-speed passes on real warps that save into it).
 *
 * Private to device/: the debugger sees only simt.h.
 */
#ifndef LOCKSTEP_DEVICE_SIMT_DBG_INT_H
#define LOCKSTEP_DEVICE_SIMT_DBG_INT_H

#include "device/simt.h"
#include "device/simt_int.h"

/* A work-group: not launched, in progress (cu holds one single-lane warp
 * per work-item and the group's local memory: what resuming needs), or
 * logically complete (state freed). */
/* A warp's control state as a full-speed pass left it: restoring it as it
 * was keeps the lanes' reconvergence tokens, so a later pass runs them
 * exactly as an undebugged launch would (sub-group functions see the whole
 * sub-group). */
struct dbg_wsave {
  uint32_t pc, state;
  uint64_t active, live, dis[SIMT_NREASONS];
  uint32_t lane_pc[SIMT_MAX_W];
  simt_token *tok; /* the deque, front to back */
  unsigned ntok;
};

struct dbg_group {
  int state; /* 0 not launched, 1 in progress, 2 complete (freed) */
  struct simt_cu cu;
  /* per item: it was already asked whether it stops at its pc, so the next
   * pass runs it on from there instead of asking again */
  uint8_t *asked;
  /* the group's warps as the last pass left them (warp size ws_W); NULL
   * once a work-item ran on its own, or the group never ran in a pass */
  struct dbg_wsave *ws;
  unsigned nws, ws_W;
  /* a pass rebuilt its warps from the items: the lanes of a sub-group may
   * reach a sub-group function apart, and wait there for each other */
  bool regrouped;
};

struct simt_dbg {
  struct simt_run run;
  uint8_t *argbuf;
  uint64_t nitems;
  struct dbg_group *groups;
  /* sub-group functions of kernel sg_k (sg_at: by pc), the stop table that
   * adds them to the caller's, and whether a sub-group is being gathered */
  const struct lsi_kernel *sg_k;
  uint8_t *sg_at, *sg_stop;
  bool sg_any, in_sync;
  /* where the members sg_sync runs on an item's behalf are asked whether
   * they stop (simt_dbg_set_catch), and the item whose stop ended the
   * last simt_dbg_run */
  const uint8_t *catch_at;
  int (*catch_accept)(void *arg, uint64_t item, uint32_t pc, int asked);
  void *catch_arg;
  uint64_t stop_item;
  /* While a full-speed pass asks whether a lane stops, that lane seen live
   * on its warp: the item's state, memory and registers read from there. */
  bool live;
  uint64_t litem;
  struct simt_cu *lcu;
  struct simt_warp *lw;
  unsigned llane;
  /* LOCKSTEP_CHECK under the debugger: the checkers passes run (the
   * device's setting until simt_dbg_set_check), whether a report stops
   * the pass, the reports passes found (merged), and those a pass stopped
   * for (each stops once a launch) */
  unsigned check;
  bool check_stops;
  struct simt_check_rec *recs, *seen;
  unsigned nrecs, cap_recs, nseen, cap_seen;
};

/* The group of an item and its linear index in the group. */
uint64_t simt_dbg_locate(const struct simt_dbg *s, uint64_t item, uint64_t *local_index);
/* The held state of group g, set up as at launch the first time (NULL when
 * the group is complete or memory runs out). */
struct simt_cu *simt_dbg_group_get(struct simt_dbg *s, uint64_t g);
/* Frees a group's held state. */
void simt_dbg_group_free(struct simt_cu *cu);
/* Forgets the warps a pass saved for group G (a work-item moved alone);
 * frees everything G holds. */
void simt_dbg_wsave_drop(struct dbg_group *G);
void simt_dbg_group_drop(struct dbg_group *G);

#endif
