/*
 * dbg_pass.c - `run` and `continue` at full speed (seed 000): each one is a
 * pass of the launch on the device's real warps (simt_dbg_pass) that stops
 * at the first breakpoint whose condition holds for a lane, a failed
 * assertion, a device exception, a pause or the per-pass watchdog; the
 * device then saves every in-progress work-item and kills the launch, and
 * inspection and stepping use the saved state. A stop is a warp's: the
 * lanes of one warp a pass stopped at a breakpoint together are one stop,
 * shown at the focused item if it is one of them, else at the lowest; the
 * pass's other warps that stopped are reported one per `continue`, in
 * order, before the next pass. With `set scheduler-locking on`, `continue`
 * stops only for the focused work-item (others run past breakpoints).
 *
 * It decides only what a pass stops for and what the stop means to the
 * user; it must not run work-items itself (dbg_engine.c steps them) nor
 * know how the device saves them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dbg_int.h"
#include "device/check.h"
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
  return s->L->bpset[pc] && (!s->sched_lock || item == s->L->focus) && dbg_bp_holds(s, item, pc);
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

/* Whether item's pending hit (at index i) still stands, taking it off. */
static int take_at(struct dbg_session *s, unsigned i) {
  uint64_t item = s->L->pending[i];
  memmove(s->L->pending + i, s->L->pending + i + 1,
          (--s->L->npending - i) * sizeof(s->L->pending[0]));
  uint32_t pc = 0;
  int st = simt_dbg_state(s->L->sd, item, &pc);
  /* a pass that stops at the kernel's first pc leaves items there as not
   * launched yet */
  return (st == SIMT_DBG_RUN || st == SIMT_DBG_FRESH) && s->L->bpset[pc] &&
         dbg_bp_holds(s, item, pc);
}

static unsigned pending_index(struct dbg_session *s, uint64_t item) {
  unsigned i = 0;
  while (i < s->L->npending && s->L->pending[i] != item)
    i++;
  return i;
}

/* The lanes of a warp whose stop is taken say a failed condition once
 * (dbg_bp_accept counts them), with how many more it failed for. */
static int warp_errs_begin(struct dbg_launch *L) {
  if (L->taking) return 0;
  L->taking = 1;
  L->cond_errs = 0;
  return 1;
}

/* The warp's stop being taken (L->nstop items) is one crossing of its
 * breakpoint, as gdb counts a stop: `ignore` may pass it, and then none
 * stop (their lanes run on), unless a condition failed. How many stop. */
static unsigned crossing(struct dbg_session *s) {
  struct dbg_launch *L = s->L;
  uint32_t pc = 0;
  if (!L->nstop || L->cond_errs) return L->nstop;
  simt_dbg_state(L->sd, L->stop_items[0], &pc);
  if (dbg_bp_ignored(s, pc)) {
    L->nstop = 0;
    L->ignored++;
  }
  return L->nstop;
}

static void warp_errs_end(struct dbg_session *s) {
  if (s->L->cond_errs > 1)
    fprintf(s->out, "(the condition failed for %u more work-item%s of the warp)\n",
            s->L->cond_errs - 1, s->L->cond_errs == 2 ? "" : "s");
  s->L->taking = 0;
  s->L->cond_errs = 0;
}

/* Takes the pending hits of the warp of pending[i] off: those that stand
 * join the stop's items (L->stop_items, ascending); the focus is the one to
 * show them at when it is one of them, else the lowest. How many there are
 * then. */
static unsigned take_warp(struct dbg_session *s, unsigned i) {
  struct dbg_launch *L = s->L;
  uint64_t warp = simt_dbg_warp_of(L->sd, L->pending[i]);
  const unsigned cap = sizeof(L->stop_items) / sizeof(L->stop_items[0]);
  int own = warp_errs_begin(L);
  for (unsigned j = 0; j < L->npending;) {
    uint64_t it = L->pending[j];
    if (simt_dbg_warp_of(L->sd, it) != warp) {
      j++;
      continue;
    }
    if (!take_at(s, j) || L->nstop == cap) continue;
    unsigned k = L->nstop++;
    for (; k > 0 && L->stop_items[k - 1] > it; k--)
      L->stop_items[k] = L->stop_items[k - 1];
    L->stop_items[k] = it;
  }
  if (own) {
    crossing(s);
    warp_errs_end(s);
  }
  int focus_in = 0;
  for (unsigned j = 0; j < L->nstop; j++)
    focus_in |= L->stop_items[j] == L->focus;
  if (L->nstop && !focus_in) L->focus = L->stop_items[0];
  return L->nstop;
}

int dbg_pass_take(struct dbg_session *s, uint64_t item) {
  unsigned i = pending_index(s, item);
  /* only when item's own hit stands: the rest of its warp's stay pending
   * otherwise */
  if (i == s->L->npending) return 0;
  warp_errs_begin(s->L);
  if (!take_at(s, i)) {
    warp_errs_end(s);
    return 0;
  }
  s->L->stop_items[0] = s->L->focus = item;
  s->L->nstop = 1;
  for (unsigned j = 0; j < s->L->npending; j++)
    if (simt_dbg_warp_of(s->L->sd, s->L->pending[j]) == simt_dbg_warp_of(s->L->sd, item)) {
      take_warp(s, j);
      break;
    }
  int stops = crossing(s) != 0;
  warp_errs_end(s);
  return stops;
}

int dbg_pass_drop(struct dbg_session *s, uint64_t item) {
  unsigned i = pending_index(s, item);
  return i < s->L->npending && take_at(s, i);
}

void dbg_pass_note(struct dbg_session *s, uint64_t item, uint32_t pc) {
  struct dbg_launch *L = s->L;
  struct bp *b = dbg_bp_at(s, pc);
  int id = b ? b->id : L->bpid[pc];
  struct dbg_note *n = NULL;
  for (int i = 0; i < L->nnotes && !n; i++)
    if (L->notes[i].bp == id) n = &L->notes[i];
  if (!n && L->nnotes == (int)(sizeof(L->notes) / sizeof(L->notes[0]))) return;
  if (!n) {
    n = &L->notes[L->nnotes++];
    memset(n, 0, sizeof(*n));
    n->bp = id;
    n->last_item = n->last_warp = UINT64_MAX;
  }
  /* items run one after another: one that reaches it again in a loop
   * counts once */
  uint64_t w = simt_dbg_warp_of(L->sd, item);
  n->items += item != n->last_item;
  n->warps += w != n->last_warp;
  n->last_item = item;
  n->last_warp = w;
}

void dbg_pass_notes_show(struct dbg_session *s) {
  struct dbg_launch *L = s->L;
  for (int i = 0; i < L->nnotes; i++) {
    const struct dbg_note *n = &L->notes[i];
    fprintf(s->out, "%u other work-item%s (%u warp%s) reached breakpoint %d and ran on.\n",
            n->items, n->items == 1 ? "" : "s", n->warps, n->warps == 1 ? "" : "s", n->bp);
  }
  L->nnotes = 0;
}

/* The failed assertion of the last pass still to be reported, if item is
 * the one that failed it (UINT64_MAX: whichever): reported now. */
int dbg_pass_take_assert(struct dbg_session *s, uint64_t item) {
  if (!s->L->pend_assert || (item != UINT64_MAX && item != s->L->pend_item)) return 0;
  s->L->pend_assert = 0;
  if (s->L->pend_check)
    return dbg_check_stop(s, s->L->pend_item, &s->L->pend_exc, s->L->pend_check);
  return dbg_assert_stop(s, s->L->pend_item, &s->L->pend_exc);
}

/* The focus moved (workitem, thread, workgroup) to a work-group in
 * progress other than the one whose stops wait to be reported: the next
 * pass runs the focused group first, as every pass does, and the waiting
 * lanes, which have not moved, are asked again at their breakpoint. */
static void hand_back_for_focus(struct dbg_session *s) {
  struct dbg_launch *L = s->L;
  if (!L->npending) return;
  int st = simt_dbg_state(L->sd, L->focus, NULL);
  if ((st != SIMT_DBG_RUN && st != SIMT_DBG_BARRIER) ||
      simt_dbg_group_of(L->sd, L->focus) == simt_dbg_group_of(L->sd, L->pending[0]))
    return;
  for (unsigned i = 0; i < L->npending; i++)
    simt_dbg_unmark_asked(L->sd, L->pending[i]);
  L->npending = 0;
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
  p->first_group = simt_dbg_group_of(s->L->sd, s->L->focus);
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
  /* warps of the last pass not reported yet, in order, while their
   * breakpoint stands; following the focus, only its own */
  if (s->sched_lock) {
    unsigned i = pending_index(s, s->L->focus);
    warp_errs_begin(s->L);
    s->L->nstop = i < s->L->npending && take_at(s, i);
    s->L->stop_items[0] = s->L->focus;
    unsigned n = crossing(s);
    warp_errs_end(s);
    s->L->npending = 0;
    if (n) return ST_BP;
  }
  hand_back_for_focus(s);
  while (s->L->npending) {
    s->L->nstop = 0;
    if (take_warp(s, 0)) return ST_BP;
  }
  struct simt_dbg_pass p;
pass:
  for (;;) {
    if (one_pass(s, &p)) return ST_PAUSE;
    int again = p.why == SIMT_DBG_PASS_PAUSE && s->L->rebinding;
    if (again) { /* the breakpoints changed while it ran: it runs on with them */
      dbg_rebind(s);
      free(p.hits);
    }
    pthread_cond_broadcast(&s->passed);
    if (!again) break;
  }
  /* the hits to report later: the watched item's change first, an
   * assertion first */
  free(s->L->pending);
  s->L->pending = p.hits;
  s->L->npending = p.nhits;
  if (s->L->whit) {
    unsigned i = pending_index(s, s->L->watch_item);
    if (i < s->L->npending) take_at(s, i);
  }
  switch (p.why) {
  case SIMT_DBG_PASS_DONE: return ST_DONE;
  case SIMT_DBG_PASS_HIT:
    if (s->L->whit) {
      s->L->focus = s->L->watch_item;
      return ST_WATCH;
    }
    /* the first warp; its lanes stand (the pass just asked them) */
    for (unsigned ignored = s->L->ignored; s->L->npending;) {
      s->L->nstop = 0;
      if (take_warp(s, 0)) return ST_BP;
      if (!s->L->npending && s->L->ignored != ignored) goto pass; /* `ignore` passed them all */
    }
    s->L->focus = first_in_progress(s);
    return ST_PAUSE;
  case SIMT_DBG_PASS_ASSERT:
  case SIMT_DBG_PASS_CHECK: {
    /* lanes other workers stopped at a breakpoint while the assertion (or
     * the checker's report) stopped the pass: each was asked, so report it
     * on a later continue */
    unsigned i = pending_index(s, p.item);
    if (i < s->L->npending) take_at(s, i);
    unsigned check = p.why == SIMT_DBG_PASS_CHECK ? (p.check ? p.check : 1) : 0;
    if (s->L->whit) {
      /* another worker saw a watched value change (it had changed before
       * its item's next statement; the assertion came meanwhile): the
       * change first, as gdb reports a watchpoint before a signal that
       * comes with it, the assertion on the next continue */
      s->L->pend_assert = 1;
      s->L->pend_check = check;
      s->L->pend_item = p.item;
      s->L->pend_exc = p.exc;
      s->L->focus = s->L->watch_item;
      return ST_WATCH;
    }
    if (check) return dbg_check_stop(s, p.item, &p.exc, check);
    return dbg_assert_stop(s, p.item, &p.exc);
  }
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

/* `set scheduler-locking on|off|step` (arg after the two words). */
static void sched_set(struct dbg_session *s, const char *arg) {
  if (!strcmp(arg, "on"))
    s->sched_lock = 1;
  else if (!strcmp(arg, "off") || !strcmp(arg, "step"))
    s->sched_lock = 0;
  else if (*arg) {
    fprintf(s->out, "usage: set scheduler-locking on | off | step\n");
    return;
  }
  fprintf(s->out, "%s\n",
          s->sched_lock ? "Scheduler locking is on: continue stops only for the focused work-item."
                        : "Scheduler locking is off: continue stops for every warp that reaches a "
                          "breakpoint.");
}

void dbg_pass_set(struct dbg_session *s, const char *arg) {
  if (!strncmp(arg, "scheduler-locking", 17) && (arg[17] == ' ' || !arg[17])) {
    sched_set(s, arg + (arg[17] ? 18 : 17));
    return;
  }
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

/* ---- `set check`: the checkers of LOCKSTEP_CHECK under the debugger ---- */

/* The checkers passes run now: the setting, else LOCKSTEP_CHECK's. */
static unsigned check_mask(struct dbg_session *s) {
  if (s->check >= 0) return (unsigned)s->check;
  const char *env = getenv("LOCKSTEP_CHECK");
  unsigned m = 0;
  char why[160], note[64];
  if (env && dev_check_parse(env, &m, why, sizeof why, note, sizeof note)) m = 0;
  return m;
}

void dbg_check_show(struct dbg_session *s) {
  unsigned m = check_mask(s);
  if (!m) {
    fprintf(s->out, "No checker runs ('set check races on', 'set check uninit on').\n");
    return;
  }
  fprintf(s->out, "Checkers: %s%s%s; a report %s.\n", m & DEV_CHECK_RACES ? "races" : "",
          m == (DEV_CHECK_RACES | DEV_CHECK_UNINIT) ? ", " : "",
          m & DEV_CHECK_UNINIT ? "uninit" : "",
          s->check_stops ? "stops the kernel at its line" : "is only counted");
}

/* "on" 1, "off" 0, else -1. */
static int on_off(const char *v) {
  return !strcmp(v, "on") ? 1 : !strcmp(v, "off") ? 0 : -1;
}

void dbg_check_set(struct dbg_session *s, const char *arg) {
  char word[32] = "", val[32] = "", why[160], note[64];
  int n = sscanf(arg, "%31s %31s", word, val);
  unsigned m = check_mask(s), bit = 0;
  int all = !strcmp(word, "all"), v = on_off(n == 2 ? val : word);
  if (n <= 0) {
    dbg_check_show(s);
    return;
  }
  if (n == 2 && !strcmp(word, "stop") && v >= 0) {
    s->check_stops = v;
  } else if ((n == 1 && (v >= 0 || all)) || (n == 2 && all && v >= 0)) {
    m = v != 0 ? DEV_CHECK_AVAILABLE : 0; /* on, all, all on */
  } else if (n == 2 && v >= 0 && !dev_check_parse(word, &bit, why, sizeof why, note, sizeof note) &&
             bit) {
    m = v ? m | bit : m & ~bit;
  } else if (n == 1) {
    if (dev_check_parse(word, &m, why, sizeof why, note, sizeof note)) {
      fprintf(s->out, "%s\n", why);
      return;
    }
  } else {
    fprintf(s->out, "usage: set check races|uninit|all on|off, set check LIST (races,uninit), "
                    "set check stop on|off\n");
    return;
  }
  s->check = (int)m;
  for (struct dbg_launch *L = s->launches; L; L = L->next)
    if (L->sd) simt_dbg_set_check(L->sd, m, s->check_stops);
  dbg_check_show(s);
}
