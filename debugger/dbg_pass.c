/*
 * dbg_pass.c - `run` and `continue` at full speed (seed 000): each one is a
 * pass of the launch on the device's real warps (simt_dbg_pass) that stops
 * at the first breakpoint whose condition holds for a lane, a failed
 * assertion, a device exception, a pause or the per-pass watchdog; the
 * device then saves every in-progress work-item and kills the launch, and
 * inspection and stepping use the saved state. Breakpoint hits of other
 * lanes in the same pass are reported one by one before the next pass.
 *
 * It decides only what a pass stops for and what the stop means to the
 * user; it must not run work-items itself (dbg_engine.c steps them) nor
 * know how the device saves them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dbg_int.h"
#include "device/simt.h"

/* accept hook: called for each lane at a flagged pc, one at a time; the
 * lane's state is readable through the held launch while this runs. A
 * watched item is flagged at every statement: its first watched change
 * stops the pass (the pass flags it in s->L->whit and s->L->watch_item). */
static int accept_locked(struct dbg_session *s, uint64_t item, uint32_t pc) {
  if (s->L->watching && !s->L->whit && s->L->watchset[pc] && dbg_has_watch(s, item) &&
      dbg_watch_changed(s, item)) {
    s->L->watch_item = item;
    return 1;
  }
  return s->L->bpset[pc] && dbg_bp_accept(s, item, pc);
}

/* The pass's hooks run on device worker threads while the launch's own
 * thread waits for the pass without the session's lock: each takes it for
 * its launch. */
static int pass_accept(void *arg, uint64_t item, uint32_t pc) {
  struct dbg_launch *L = arg;
  struct dbg_session *s = L->s;
  dbg_lock(s, L);
  int hit = accept_locked(s, item, pc);
  dbg_unlock(s);
  return hit;
}

/* poll hook: a pause the front end asks for; or the breakpoints changed
 * while the pass ran (a command at another launch's prompt), so the pass
 * stops and runs again with them bound, as breakpoints apply to every
 * launch at once. */
static int pass_poll(void *arg) {
  struct dbg_launch *L = arg;
  struct dbg_session *s = L->s;
  dbg_lock(s, L);
  int hit = s->interrupt && s->interrupt(s->ictx, L);
  if (!hit && L->bp_gen != s->bp_gen) L->rebinding = hit = 1;
  dbg_unlock(s);
  return hit;
}

/* The in-progress item to show after a stop no item caused: the focus if it
 * is one, else the lowest running one, else the lowest at a barrier. */
static uint64_t first_in_progress(struct dbg_session *s) {
  int st = simt_dbg_state(s->L->sd, s->L->focus, NULL);
  if (st == SIMT_DBG_RUN) return s->L->focus;
  uint64_t n = simt_dbg_items(s->L->sd), bar = UINT64_MAX;
  for (uint64_t i = 0; i < n; i++) {
    st = simt_dbg_state(s->L->sd, i, NULL);
    if (st == SIMT_DBG_RUN) return i;
    if (st == SIMT_DBG_BARRIER && bar == UINT64_MAX) bar = i;
  }
  return bar != UINT64_MAX ? bar : s->L->focus;
}

/* Takes item's hit off the list of those still to be reported; whether it
 * still stands (the item is at an enabled breakpoint whose condition holds). */
int dbg_pass_take(struct dbg_session *s, uint64_t item) {
  unsigned i = 0;
  while (i < s->L->npending && s->L->pending[i] != item)
    i++;
  if (i == s->L->npending) return 0;
  memmove(s->L->pending + i, s->L->pending + i + 1,
          (--s->L->npending - i) * sizeof(s->L->pending[0]));
  uint32_t pc;
  return simt_dbg_state(s->L->sd, item, &pc) == SIMT_DBG_RUN && s->L->bpset[pc] &&
         dbg_bp_accept(s, item, pc);
}

/* The failed assertion of the last pass still to be reported, if item is
 * the one that failed it (UINT64_MAX: whichever): reported now. */
int dbg_pass_take_assert(struct dbg_session *s, uint64_t item) {
  if (!s->L->pend_assert || (item != UINT64_MAX && item != s->L->pend_item)) return 0;
  s->L->pend_assert = 0;
  return dbg_assert_stop(s, s->L->pend_item, &s->L->pend_exc);
}

/* One pass with the breakpoints (and watchpoints) bound now; p->why says
 * how it ended. -1 when out of memory (said so). */
static int one_pass(struct dbg_session *s, struct simt_dbg_pass *p) {
  /* with a watchpoint, lanes stop at every statement to compare values */
  uint8_t *flags = s->L->bpset;
  s->L->watching = dbg_any_watch(s);
  if (s->L->watching) {
    uint32_t n = s->L->k->ninsns + 1;
    flags = malloc(n);
    if (!flags) {
      fprintf(s->out, "out of memory for the watchpoint's stops\n");
      return -1;
    }
    for (uint32_t i = 0; i < n; i++)
      flags[i] = s->L->bpset[i] | s->L->watchset[i];
  }
  memset(p, 0, sizeof(*p));
  p->stop_at = flags;
  p->accept = pass_accept;
  p->poll = pass_poll;
  p->filter = dbg_bpcond_open(s) ? NULL : dbg_bpcond_filter;
  p->arg = s->L;
  p->out = s->L->pout ? s->L->pout : s->out;
  p->in_progress_only = s->inprog_only;
  p->timeout_ns = s->pass_timeout_ns;
  s->L->rebinding = 0;
  s->L->in_pass = 1;
  struct dbg_hold h;
  dbg_release(s, &h); /* the pass's hooks take it on the device's workers */
  simt_dbg_pass(h.L->sd, p);
  dbg_reacquire(s, &h);
  s->L->in_pass = 0;
  dbg_bpcond_close(s);
  if (flags != s->L->bpset) free(flags);
  if (p->why != SIMT_DBG_PASS_IDLE || p->groups_run) { /* else nothing was issued */
    s->L->passes++;
    s->L->last_run = p->groups_run;
    s->L->last_skipped = p->groups_skipped;
  }
  return 0;
}

int dbg_pass_run(struct dbg_session *s) {
  s->L->whit = 0;
  /* an assertion that stopped the last pass, after its watched change */
  int a = dbg_pass_take_assert(s, UINT64_MAX);
  if (a) return a;
  /* hits of the last pass not reported yet, while their breakpoint stands */
  while (s->L->npending) {
    uint64_t it = s->L->pending[0];
    if (dbg_pass_take(s, it)) {
      s->L->focus = it;
      return ST_BP;
    }
  }
  struct simt_dbg_pass p;
  for (;;) {
    if (one_pass(s, &p)) return ST_PAUSE;
    int again = p.why == SIMT_DBG_PASS_PAUSE && s->L->rebinding;
    if (again) dbg_rebind(s); /* the breakpoints changed while it ran: it runs on with them */
    pthread_cond_broadcast(&s->passed);
    if (!again) break;
  }
  switch (p.why) {
  case SIMT_DBG_PASS_DONE: return ST_DONE;
  case SIMT_DBG_PASS_HIT: {
    /* the watched item's change first, then breakpoint hits by item */
    uint64_t first = s->L->whit ? s->L->watch_item : p.item;
    s->L->focus = first;
    s->L->npending = 0;
    for (unsigned i = 0; i < p.nhits; i++)
      if (p.hits[i] != first) s->L->pending[s->L->npending++] = p.hits[i];
    return s->L->whit ? ST_WATCH : ST_BP;
  }
  case SIMT_DBG_PASS_ASSERT:
    /* lanes other workers stopped at a breakpoint while the assertion
     * stopped the pass: each was asked, so report it on a later continue */
    s->L->npending = 0;
    for (unsigned i = 0; i < p.nhits; i++)
      if (p.hits[i] != p.item && (!s->L->whit || p.hits[i] != s->L->watch_item))
        s->L->pending[s->L->npending++] = p.hits[i];
    if (s->L->whit) {
      /* another worker saw a watched value change (it had changed before
       * its item's next statement; the assertion came meanwhile): the
       * change first, as gdb reports a watchpoint before a signal that
       * comes with it, the assertion on the next continue */
      s->L->pend_assert = 1;
      s->L->pend_item = p.item;
      s->L->pend_exc = p.exc;
      s->L->focus = s->L->watch_item;
      return ST_WATCH;
    }
    return dbg_assert_stop(s, p.item, &p.exc);
  case SIMT_DBG_PASS_FAULT:
    return dbg_exc_stop(s, p.item < simt_dbg_items(s->L->sd) ? p.item : s->L->focus, &p.exc);
  case SIMT_DBG_PASS_PAUSE:
    s->L->paused = 1;
    s->L->focus = first_in_progress(s);
    return ST_PAUSE;
  case SIMT_DBG_PASS_TIMEOUT:
    fprintf(s->out, "Pass %d ran longer than the watchdog allows; every work-item stopped.\n",
            s->L->passes);
    s->L->focus = first_in_progress(s);
    return ST_TIMEOUT;
  default:
    fprintf(s->out, "No work-item in progress is left to run; 'set pass all' launches the "
                    "rest.\n");
    s->L->focus = first_in_progress(s);
    return ST_IDLE;
  }
}

void dbg_pass_set(struct dbg_session *s, const char *arg) {
  if (!strncmp(arg, "pass", 4) && (arg[4] == ' ' || !arg[4])) {
    arg += arg[4] ? 5 : 4;
    if (!strcmp(arg, "all"))
      s->inprog_only = 0;
    else if (!strcmp(arg, "in-progress"))
      s->inprog_only = 1;
    else {
      fprintf(s->out, "usage: set pass all | in-progress\n");
      return;
    }
    fprintf(s->out, "Passes run %s.\n",
            s->inprog_only ? "in-progress work-items only" : "every work-item not yet complete");
    return;
  }
  char *end;
  arg += arg[8] ? 9 : 8; /* "watchdog" */
  unsigned long ms = strtoul(arg, &end, 10);
  if (end == arg || *end || *arg == '-') {
    fprintf(s->out, "usage: set watchdog MS (0: the device's watchdog)\n");
    return;
  }
  s->pass_timeout_ns = (uint64_t)ms * 1000000u;
  if (ms)
    fprintf(s->out, "A pass stops after %lu ms.\n", ms);
  else
    fprintf(s->out, "A pass stops after the device's watchdog time.\n");
}
