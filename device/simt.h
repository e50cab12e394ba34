/*
 * simt.h - the SIMT engine: runs one NDRange launch on the simulated compute
 * units (warps, active masks, the divergence deque, barriers, checked memory).
 */
#ifndef LOCKSTEP_DEVICE_SIMT_H
#define LOCKSTEP_DEVICE_SIMT_H

#include <stdio.h>

#include "device/dev.h"

/* Runs the launch to completion on the device's worker threads and returns
 * 0, or CL_OUT_OF_RESOURCES (-5) with *exc filled when a work-item raised a
 * device exception (out of bounds, misaligned, released buffer, store to a
 * read-only buffer, division by zero, barrier divergence, no forward
 * progress, watchdog, trap) or the launch cannot run (malformed code, too
 * much local memory). The launch stops at the first exception; other
 * work-groups are abandoned; printf output produced so far is flushed.
 * Environment: LOCKSTEP_RECONVERGENCE=stack selects the classic
 * reconvergence stack (YIELD is a no-op and a warp spinning without
 * progress faults); LOCKSTEP_STATS=1 prints the launch's counters to stderr.
 * May be called from several threads at once for different launches. */
int simt_launch(struct dev_device *d, const struct dev_launch *l, struct dev_exception *exc);

/*
 * A pass over part of a launch, for the command processor: work-groups
 * (numbered by linear group id) below first are taken as already complete
 * and skipped; groups are handed out in increasing order until every one
 * ran, limit of them were handed out (0 = no limit), the device clock
 * passed deadline_ns (0 = none; a pass hands out one group whatever its
 * deadline) or *stop became nonzero. Groups already
 * running always finish, so on return groups [first, done) have completed
 * and none at or past done has started; done == total means the launch is
 * finished. group_done (may be NULL) is called on the worker k that ran
 * group g, from t0 to t1 on the device clock. Returns as simt_launch(); after
 * an error done says nothing.
 */
struct simt_pass {
  uint64_t first, limit, deadline_ns;
  _Atomic int *stop;
  void (*group_done)(void *arg, unsigned k, uint64_t g, uint64_t t0, uint64_t t1);
  /* May be NULL: warp warp of group g ran on worker k from t0 to t1 (one
   * call per turn of the warp scheduler; nothing is timed when NULL). */
  void (*warp_span)(void *arg, unsigned k, uint64_t g, unsigned warp, uint64_t t0, uint64_t t1);
  void *arg;
  uint64_t done, total; /* out */
};
/* One pass on a launch prepared for it alone (opened and closed around it). */
int simt_launch_pass(struct dev_device *d, const struct dev_launch *l, struct dev_exception *exc,
                     struct simt_pass *pass);

/*
 * A launch prepared once for many passes: simt_open validates it and lays
 * out its local memory (NULL with *rc and *exc set when it cannot run);
 * simt_run_pass runs one pass (pass NULL: every remaining group) on compute
 * units that keep their warps and memory from one pass to the next, so a
 * pass costs no allocation; simt_close frees it and, with LOCKSTEP_STATS,
 * prints the launch's counters summed over its passes. The watchdog times
 * the launch's running time over all its passes, not time between them.
 * *l (and its argbuf) must stay alive until simt_close. One caller at a time
 * per launch.
 */
struct simt_run;
struct simt_run *simt_open(struct dev_device *d, const struct dev_launch *l,
                           struct dev_exception *exc, int *rc);
int simt_run_pass(struct simt_run *run, struct dev_exception *exc, struct simt_pass *pass);
void simt_close(struct simt_run *run);
/* Number of work-groups of a launch. */
uint64_t simt_launch_groups(const struct dev_launch *l);

/*
 * Debugger access (device/simt_debug.c): a launch held open so the debugger
 * can run its work-items one at a time. Every work-item gets its own
 * single-lane warp; a work-group's warps and local memory exist from the
 * first time one of its work-items runs ("in progress") until all of them
 * have finished ("logically complete", state freed). Items are numbered by
 * global linear id (without the offset). Not thread-safe: one caller.
 */
struct simt_dbg;
enum simt_dbg_state {
  SIMT_DBG_FRESH,   /* not yet launched */
  SIMT_DBG_RUN,     /* in progress, stopped at *pc */
  SIMT_DBG_BARRIER, /* in progress, waiting at a barrier; *pc is where it resumes */
  SIMT_DBG_DONE,    /* logically complete */
  SIMT_DBG_FAULT,   /* raised a device exception */
  SIMT_DBG_ASSERT,  /* simt_dbg_run only: a failed assert(); the item stays in
                       progress just after the call, *exc says which */
  SIMT_DBG_HIT,     /* simt_dbg_run only: a work-item run on the item's behalf
                       stopped (simt_dbg_set_catch); the item waits where it was */
};
/* NULL with a message in err when the launch cannot run. The launch (and its
 * argbuf) is copied. */
struct simt_dbg *simt_dbg_open(struct dev_device *d, const struct dev_launch *l, char *err,
                               size_t errlen);
void simt_dbg_close(struct simt_dbg *s);
uint64_t simt_dbg_items(const struct simt_dbg *s);
/* State of an item, its pc and ids (any pointer may be NULL). */
int simt_dbg_state(struct simt_dbg *s, uint64_t item, uint32_t *pc);
void simt_dbg_ids(const struct simt_dbg *s, uint64_t item, uint64_t gid[3], uint64_t lid[3],
                  uint64_t grp[3]);
/* A special register (enum lsi_sreg) as item reads it: ids, sizes,
 * sub-group ids at the device's sub-group width. */
uint64_t simt_dbg_sreg(struct simt_dbg *s, uint64_t item, unsigned sreg);
/* Linear index of the work-group of an item, and the items of a group. */
uint64_t simt_dbg_group_of(const struct simt_dbg *s, uint64_t item);
/* The warp a full-speed pass runs an item on (its group's warps at the
 * device's warp width, numbered over the launch): items of one warp share
 * it. */
uint64_t simt_dbg_warp_of(const struct simt_dbg *s, uint64_t item);
uint64_t simt_dbg_group_items(const struct simt_dbg *s, uint64_t group, uint64_t *items,
                              uint64_t max);
/* Runs one item until it reaches a pc flagged in stop_at (after at least one
 * instruction), waits at a barrier, finishes or faults, or has taken about
 * budget branches. Returns the new state; a fault fills *exc, and so does a
 * failed assertion (SIMT_DBG_ASSERT: the item can run on). Printf output is
 * written to out. */
int simt_dbg_run(struct simt_dbg *s, uint64_t item, const uint8_t *stop_at, uint64_t budget,
                 struct dev_exception *exc, FILE *out);
/* Work-items simt_dbg_run runs on an item's behalf (the other members of its
 * sub-group, brought to a sub-group function it reached) stop at pcs flagged
 * in stop_at when accept takes them; one that stands at a flagged pc when
 * it is to run is asked first, with asked saying whether it was already
 * asked there (or stopped there). Then the run ends with SIMT_DBG_HIT and
 * the item waits before the function. NULL stop_at: they run to it. */
void simt_dbg_set_catch(struct simt_dbg *s, const uint8_t *stop_at,
                        int (*accept)(void *arg, uint64_t item, uint32_t pc, int asked), void *arg);
/* The work-item whose stop ended the last simt_dbg_run: the item itself,
 * or for SIMT_DBG_HIT, and a fault or failed assertion on the item's
 * behalf, the one run for it. */
uint64_t simt_dbg_stop_item(const struct simt_dbg *s);
/* Whether item was already asked whether it stops at the pc it is at (it
 * ran there alone, or a pass asked it there): a pass runs it on from
 * there. simt_dbg_mark_asked notes that it has been. */
int simt_dbg_asked(const struct simt_dbg *s, uint64_t item);
void simt_dbg_mark_asked(struct simt_dbg *s, uint64_t item);
/* Forgets that item was asked where it is: the next pass asks it again. */
void simt_dbg_unmark_asked(struct simt_dbg *s, uint64_t item);
/* Releases the barrier of a group when every item waits at the same one
 * (returns 1: none has been asked where it now is), 0 while some still
 * run, -1 on barrier divergence (*exc). */
int simt_dbg_release(struct simt_dbg *s, uint64_t group, struct dev_exception *exc);
/* Host pointer for size bytes at a device address as item sees it (its
 * private frame, its group's local memory, global memory), or NULL. */
void *simt_dbg_mem(struct simt_dbg *s, uint64_t item, uint64_t addr, uint64_t size);
/* A register of the item (kernel arguments held in registers). */
uint64_t *simt_dbg_reg(struct simt_dbg *s, uint64_t item, uint32_t reg);

/*
 * A full-speed pass of the held launch (device/simt_dbg_pass.c, seed 000):
 * the launch is issued on the real warps (W lanes, the divergence deque,
 * barriers) on the device's workers. Each work-group runs an entry routine:
 * a logically complete group is skipped, an in-progress one is restored
 * from the held state (each work-item at its pc with its registers, private
 * frame, barrier arrival, and the group's local memory; complete items exit
 * at once; ids are the item's own on whichever worker runs it), a group not
 * yet launched starts fresh. Work-groups are handed out in rank order:
 * first_group first, then the others by increasing linear id.
 *
 * When a lane reaches a pc flagged in stop_at, accept decides for that lane
 * (lanes it refuses run on). A group whose lanes it takes finishes its
 * scheduling round (every warp has its turn in it, so the warps that reach
 * a breakpoint together stop together) and stops; groups of later rank stop
 * at their next warp turn and are not handed out; groups of earlier rank run
 * on until they hit, end or wait at a barrier no one releases (at most
 * 2^27 more warp instructions each after the first hit: counted in work,
 * not time, so the host's load changes nothing). hits are then the lanes the earliest-rank
 * group that hit took in its last round, whichever worker got where first;
 * lanes a later group had taken meanwhile are given back (asked again at
 * the next pass). So on any number of workers a pass stops at the lowest
 * rank, and within it at the same warps, as it would on one. A failed
 * assertion, a device exception, poll asking for a pause or the per-pass
 * watchdog (the device's watchdog_ms, timing this pass only) stops every
 * warp at its next instruction boundary. Every in-progress work-item is
 * then saved to the held state and the launch is killed: its warps and
 * workers are free for other queues until the next pass. accept and poll
 * are called one at a time, from worker threads; during accept the item's
 * state, memory and registers (simt_dbg_state/mem/reg) are read live from
 * its lane. Completed work-items never run again, so side effects are
 * never repeated. With in_progress_only, groups not yet launched are not
 * started either (a barrier that waits for them ends by the watchdog).
 */
enum simt_dbg_why {
  SIMT_DBG_PASS_DONE,    /* every work-item is logically complete */
  SIMT_DBG_PASS_HIT,     /* accept took item (more in hits) */
  SIMT_DBG_PASS_ASSERT,  /* item failed an assertion; it resumes after it */
  SIMT_DBG_PASS_FAULT,   /* item raised the device exception exc */
  SIMT_DBG_PASS_PAUSE,   /* poll asked for a pause */
  SIMT_DBG_PASS_TIMEOUT, /* the pass ran longer than the watchdog allows */
  SIMT_DBG_PASS_IDLE,    /* in_progress_only and no group could run */
  SIMT_DBG_PASS_CHECK,   /* a checker reported (check): item's warp stopped at the
                            reporting instruction; exc's message is the report */
};
struct simt_lanes;
struct simt_dbg_pass {
  const uint8_t *stop_at; /* per-pc flags (never NULL) */
  int (*accept)(void *arg, uint64_t item, uint32_t pc);
  /* May be NULL: before accept is asked about the lanes (a mask) of a warp
   * at a flagged pc, filter returns those it must still be asked about;
   * the others are taken as refused (they run on). Called on the worker
   * with no lock held, from several workers at once; it reads the lanes
   * only through simt_lanes_mem and simt_lanes_sreg. */
  uint64_t (*filter)(void *arg, const struct simt_lanes *v, uint32_t pc, uint64_t lanes);
  int (*poll)(void *arg); /* may be NULL */
  void *arg;
  FILE *out; /* printf output of the pass */
  int in_progress_only;
  uint64_t timeout_ns;  /* 0: the device's watchdog */
  uint64_t first_group; /* handed out first (the focused item's group) */
  /* out */
  int why;
  uint64_t item; /* UINT64_MAX when no item caused the stop */
  struct dev_exception exc;
  /* items accept took, ascending (so warp by warp), all of one work-group:
   * at most its items, as a group's round asks each lane once. hits[0] ==
   * item on a hit. Allocated by the pass (NULL when none); the caller
   * frees it. */
  uint64_t *hits;
  unsigned nhits;
  unsigned groups_run, groups_skipped; /* how the entry routine went */
  unsigned check;                      /* SIMT_DBG_PASS_CHECK: the checker (enum dev_check) */
};
void simt_dbg_pass(struct simt_dbg *s, struct simt_dbg_pass *p);

/*
 * The checkers of LOCKSTEP_CHECK (device/check.h) in a debugged launch.
 * Passes run the checkers of mask (enum dev_check; the device's setting
 * until set) and, with stops, the first report of each kind and pair of
 * source lines in the launch ends its pass (SIMT_DBG_PASS_CHECK), which
 * resumes from there. A work-group a pass restores is not checked for
 * uninitialised values (its definedness was not kept across the stop),
 * and races between accesses on either side of a stop are not seen.
 * Work-items run one at a time (simt_dbg_run) are not checked.
 * simt_dbg_reports gives the reports of the launch's passes so far, sorted,
 * with their counts; simt_dbg_close appends them to LOCKSTEP_CHECK_LOG.
 */
void simt_dbg_set_check(struct simt_dbg *s, unsigned mask, int stops);
unsigned simt_dbg_check(const struct simt_dbg *s);
struct simt_check_rec;
const struct simt_check_rec *simt_dbg_reports(struct simt_dbg *s, unsigned *n);
/* What a pass's filter reads of the lanes it is given, live from their
 * warp: size bytes at a device address as lane's work-item sees it (its
 * private frame, its group's local memory, global and constant memory;
 * NULL when they are not all there, as simt_dbg_mem), and a special
 * register (enum lsi_sreg) as it reads it. */
void *simt_lanes_mem(const struct simt_lanes *v, unsigned lane, uint64_t addr, uint64_t size);
uint64_t simt_lanes_sreg(const struct simt_lanes *v, unsigned lane, unsigned sreg);
/* The lanes' private frames, to read directly: lane's *size bytes start
 * *stride * lane bytes past the pointer returned (NULL: none). */
const uint8_t *simt_lanes_private(const struct simt_lanes *v, uint64_t *stride, uint64_t *size);

/* Edit and continue: how the caller moves work-items to rebuilt code. */
struct simt_dbg_remap {
  void *ctx;
  /* Where the new kernel's prologue (frame addresses, arguments to their
   * homes) ends: each moved item runs it before taking its new pc. */
  uint32_t prologue_end;
  /* The new pc for an item's old pc (token 0) or for the target of one of its
   * control-flow tokens (token 1); UINT32_MAX when it has none. */
  uint32_t (*pc)(void *ctx, uint64_t item, uint32_t old_pc, int token);
  /* Moves an item's state: its private frame, and its group's local memory
   * (the same buffers for every item of a group). 0 ok, else refused. */
  int (*mem)(void *ctx, uint64_t item, const uint8_t *old_priv, uint8_t *new_priv,
             const uint8_t *old_local, uint8_t *new_local);
};
/* Moves the held launch to l->kernel, a rebuild of its kernel taking the
 * same arguments: launched groups and their in-progress items get state set
 * up as at launch, then map moves each in-progress item across (which must
 * be running, at a pc map knows); finished items stay finished, unlaunched
 * ones start fresh in the new code. 0, or -1 with nothing changed. The
 * caller keeps l->kernel alive until the launch is closed. */
int simt_dbg_rekernel(struct simt_dbg *s, const struct dev_launch *l,
                      const struct simt_dbg_remap *map);

#endif
