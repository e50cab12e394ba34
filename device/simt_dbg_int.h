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
struct dbg_group {
  int state; /* 0 not launched, 1 in progress, 2 complete (freed) */
  struct simt_cu cu;
};

struct simt_dbg {
  struct simt_run run;
  uint8_t *argbuf;
  uint64_t nitems;
  struct dbg_group *groups;
  unsigned passes; /* full-speed passes issued */
  /* While a full-speed pass asks whether a lane stops, that lane seen live
   * on its warp: the item's state, memory and registers read from there. */
  bool live;
  uint64_t litem;
  struct simt_cu *lcu;
  struct simt_warp *lw;
  unsigned llane;
};

/* The group of an item and its linear index in the group. */
uint64_t simt_dbg_locate(const struct simt_dbg *s, uint64_t item, uint64_t *local_index);
/* The held state of group g, set up as at launch the first time (NULL when
 * the group is complete or memory runs out). */
struct simt_cu *simt_dbg_group_get(struct simt_dbg *s, uint64_t g);
/* Frees a group's held state. */
void simt_dbg_group_free(struct simt_cu *cu);

#endif
