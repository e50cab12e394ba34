/*
 * dbg_step.c - running work-items on a launch's saved state: one item
 * statement by statement (step, next, finish, until, advance, for the
 * focused item or every item of the step scope), the members of its
 * work-group and sub-group brought to a barrier or sub-group function on
 * its behalf, a launch's first stretch (kernel breakpoints, `start`) and the
 * stretch a resume asks for, at full speed through dbg_pass.c.
 *
 * It decides where work-items stop; it must not read commands or show
 * stops (dbg_launch.c does).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_debug.h"
#include "debugger/dbg.h"
#include "debugger/dbg_int.h"
#include "device/lsi.h"
#include "device/simt.h"

#define BUDGET     (1u << 14)
#define MAX_ROUNDS (1u << 12) /* BUDGET*MAX_ROUNDS branches per item without a stop: runaway */

/* A line of braces alone (and semicolons): no step is shown there. */
static int brace_only(struct dbg_session *s, uint32_t line) {
  if (!line || line > s->L->nlines) return 0;
  const char *t = s->L->lines[line - 1];
  while (isspace((unsigned char)*t))
    t++;
  if (*t != '{' && *t != '}') return 0;
  t++;
  while (isspace((unsigned char)*t) || *t == ';')
    t++;
  return *t == 0;
}

/* ---- running ---- */

/* Reports a device exception of an item. */
int dbg_exc_stop(struct dbg_session *s, uint64_t item, const struct dev_exception *e) {
  s->L->exc = *e;
  s->L->have_exc = 1;
  s->L->focus = item;
  fprintf(s->out, "Device exception: %s\n", e->message);
  return ST_EXC;
}

/* A failed assert() of an item: a stop it can run on from. */
int dbg_assert_stop(struct dbg_session *s, uint64_t item, const struct dev_exception *e) {
  s->L->exc = *e;
  s->L->asserted = 1;
  s->L->focus = item;
  return ST_ASSERT;
}

int dbg_check_stop(struct dbg_session *s, uint64_t item, const struct dev_exception *e,
                   unsigned kind) {
  s->L->exc = *e;
  s->L->checked = kind ? kind : 1;
  s->L->focus = item;
  return ST_CHECK;
}

static int run_item(struct dbg_session *s, uint64_t item, const uint8_t *stop_at,
                    int (*accept)(struct dbg_session *, uint64_t, uint32_t, void *), void *arg);

/* Whether a work-item run on a stepped one's behalf (to the barrier or
 * sub-group function it waits at) stops at pc: a change of its watched
 * value. A breakpoint it reaches (one whose condition holds, or a hit of
 * the last pass still to be reported where it was already asked) does not
 * move the focus: it is noted, and the item runs on past it, since the
 * stepped one cannot go on before it arrives. */
static int catch_accept(void *arg, uint64_t item, uint32_t pc, int asked) {
  struct dbg_session *s = arg;
  if (asked) {
    if (dbg_pass_drop(s, item)) dbg_pass_note(s, item, pc);
    return 0;
  }
  if (s->L->watchset[pc] && dbg_has_watch(s, item) && dbg_watch_changed(s, item)) return 1;
  if (s->L->bpset[pc] && dbg_bp_holds(s, item, pc)) dbg_pass_note(s, item, pc);
  return 0;
}

static int catch_run_accept(struct dbg_session *s, uint64_t item, uint32_t pc, void *arg) {
  (void)arg;
  return catch_accept(s, item, pc, 0);
}

/* Where catch_accept is asked: breakpoints, and every statement while a
 * watchpoint is set. */
static void catch_prepare(struct dbg_session *s) {
  int watch = dbg_any_watch(s);
  for (uint32_t pc = 0; pc <= s->L->k->ninsns; pc++)
    s->L->catchset[pc] = s->L->bpset[pc] | (watch ? s->L->watchset[pc] : 0);
  simt_dbg_set_catch(s->L->sd, s->L->catchset, catch_accept, s);
}

/* Runs item, a member of a stepped item's work-group, to the barrier the
 * stepped one waits at. ST_NONE when it got there (or finished); a stop on
 * the way (ST_BP, ST_WATCH, ST_ASSERT, ST_EXC, ST_PAUSE) moves the focus
 * to the item that stopped. */
static int catch_up(struct dbg_session *s, uint64_t it) {
  uint32_t pc;
  int st = simt_dbg_state(s->L->sd, it, &pc), rc;
  if (st != SIMT_DBG_RUN && st != SIMT_DBG_FRESH) return ST_NONE;
  if ((rc = dbg_pass_take_assert(s, it))) return rc;
  if (s->L->catchset[pc] && catch_accept(s, it, pc, simt_dbg_asked(s->L->sd, it))) {
    simt_dbg_mark_asked(s->L->sd, it);
    rc = ST_STEP;
  } else {
    rc = run_item(s, it, s->L->catchset, catch_run_accept, NULL);
  }
  if (rc == ST_STEP) {
    s->L->focus = it;
    return s->L->paused ? ST_PAUSE : s->L->whit ? ST_WATCH : ST_BP;
  }
  return rc == ST_DONE ? ST_NONE : rc;
}

/* Brings every item of the group of `item` to the barrier it waits at and
 * releases it (ST_NONE). A breakpoint another item reaches on its way there
 * is noted and passed (the focus stays); a watched change, an assertion or
 * an exception ends the step (its enum stop, the focus moves to it); item
 * keeps waiting. */
static int barrier_sync(struct dbg_session *s, uint64_t item) {
  uint64_t g = simt_dbg_group_of(s->L->sd, item);
  uint64_t n = simt_dbg_group_items(s->L->sd, g, NULL, 0);
  uint64_t *its = malloc(n * sizeof(uint64_t));
  simt_dbg_group_items(s->L->sd, g, its, n);
  struct dev_exception e;
  int rc = ST_NONE;
  for (uint64_t i = 0; i < n && rc == ST_NONE; i++)
    rc = catch_up(s, its[i]);
  if (rc == ST_NONE && simt_dbg_release(s->L->sd, g, &e) < 0) rc = dbg_exc_stop(s, item, &e);
  free(its);
  return rc;
}

/* Runs one item until stop_at (filtered by accept), a barrier, its end or a
 * fault. Returns an enum stop; ST_NONE means it waits at a barrier. */
static int run_item(struct dbg_session *s, uint64_t item, const uint8_t *stop_at,
                    int (*accept)(struct dbg_session *, uint64_t, uint32_t, void *), void *arg) {
  struct dev_exception e;
  for (unsigned r = 0;; r++) {
    if (!s->L->paused && s->interrupt && s->interrupt(s->ictx, s->L)) s->L->paused = 1;
    if (s->L->paused) {
      /* a pause: this item stops at its next statement */
      stop_at = s->L->stepset;
      accept = NULL;
    }
    int st = simt_dbg_run(s->L->sd, item, stop_at, BUDGET, &e, s->out);
    /* a work-item run on its behalf (its sub-group, to a sub-group
     * function) stopped: the focus moves there, the item waits */
    uint64_t who = simt_dbg_stop_item(s->L->sd);
    if (st == SIMT_DBG_HIT) {
      s->L->focus = who;
      return s->L->whit ? ST_WATCH : ST_BP;
    }
    if (st == SIMT_DBG_ASSERT) return dbg_assert_stop(s, who, &e);
    if (st == SIMT_DBG_FAULT && who != item) return dbg_exc_stop(s, who, &e);
    uint32_t pc;
    st = simt_dbg_state(s->L->sd, item, &pc);
    if (st == SIMT_DBG_FAULT) return dbg_exc_stop(s, item, &e);
    if (st == SIMT_DBG_DONE) return ST_DONE;
    if (st == SIMT_DBG_BARRIER) return ST_NONE;
    if (stop_at && stop_at[pc] && (!accept || accept(s, item, pc, arg))) return ST_STEP;
    if (r > MAX_ROUNDS) {
      memset(&e, 0, sizeof(e));
      snprintf(e.message, sizeof(e.message), "work-item ran too long without reaching a stop");
      return dbg_exc_stop(s, item, &e);
    }
  }
}

/* run / continue: a full-speed pass on the device's warps. */
static int run_full(struct dbg_session *s) {
  return dbg_pass_run(s);
}

struct step_arg {
  int mode; /* 0 step, 1 next, 2 finish, 3 until (a later line of the kernel) */
  uint32_t from_line;
  int depth;        /* the selected frame's inlined calls: finish stops at a statement of fewer (0:
                       the work-item's end), next at none of more */
  int calls;        /* stop where a call made from the frame starts (call_start) */
  uint32_t in_call; /* a call whose start the step began at: not a stop until it is left */
  uint32_t from;    /* the inlined call (index + 1) of the frame the step runs in */
};

/* How many inlined calls the statement at pc is in, as its frames show. */
static int depth_at(struct dbg_session *s, const struct cc_microkernel *m) {
  uint32_t c = dbg_mk_call(s, m);
  int n = 0;
  for (; c && c <= s->L->dbg->ninl && n < DBG_MAX_FRAMES; n++)
    c = s->L->dbg->inl[c - 1].parent;
  return n;
}

/* The inlined call (index + 1) statement m belongs to at depth inlined
 * calls (m's own call or one of its callers); 0 for the kernel's frame. */
static uint32_t call_at_depth(struct dbg_session *s, const struct cc_microkernel *m, int depth) {
  int n = depth_at(s, m);
  if (depth <= 0 || n < depth) return 0;
  uint32_t c = dbg_mk_call(s, m);
  for (int i = n; i > depth && c && c <= s->L->dbg->ninl; i--)
    c = s->L->dbg->inl[c - 1].parent;
  return c <= s->L->dbg->ninl ? c : 0;
}

/* Whether statement m is where an inlined call made from a frame of depth
 * inlined calls starts: a statement of the call (at depth + 1) that passes
 * its arguments or is its first own statement (call_entry). Returns how
 * many frames m is below that frame (0: it is not), *call the call's index
 * + 1. */
static int call_start(struct dbg_session *s, const struct cc_microkernel *m, int depth,
                      uint32_t *call) {
  int n = depth_at(s, m);
  if (n <= depth) return 0;
  uint32_t c = call_at_depth(s, m, depth + 1);
  if (!c) return 0;
  uint32_t entry = dbg_call_entry(s, c - 1);
  if (entry == UINT32_MAX || m->pc_begin > entry) return 0;
  if (call) *call = c;
  return n - depth;
}

/* finish leaves the selected frame: the inlined calls a work-item is in,
 * less the frames above the selected one (0 in the kernel's own frame). */
static int finish_depth(struct dbg_session *s, uint64_t it) {
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int n = dbg_frames(s, it, fr, DBG_MAX_FRAMES) - 1;
  if (it == s->L->focus) n -= dbg_frame_selected(s);
  return n > 0 ? n : 0;
}

static int in_kernel(struct dbg_session *s, const struct cc_microkernel *m) {
  return m->line_first >= s->L->dbg->line_first && m->line_first <= s->L->dbg->line_last &&
         m->file == s->L->dbg->mk[0].file;
}

/* A loop's yield point or branch back shown at the line of a statement
 * that follows it (its first statement, its condition): the statement is
 * the stop (one per iteration). */
static int flow_before_work(struct dbg_session *s, const struct cc_microkernel *m) {
  if (!dbg_mk_flow_only(s, m)) return 0;
  for (uint32_t q = 0; q < s->L->dbg->nmk; q++) {
    const struct cc_microkernel *o = &s->L->dbg->mk[q];
    if (o->line_first == m->line_first && o->file == m->file && !dbg_mk_flow_only(s, o)) return 1;
  }
  return 0;
}

static int step_accept(struct dbg_session *s, uint64_t item, uint32_t pc, void *arg) {
  struct step_arg *a = arg;
  const struct cc_microkernel *m = dbg_mk_at(s, pc);
  if (s->L->watchset[pc] && dbg_watch_changed(s, item)) return 1;
  if (s->L->bpset[pc] && dbg_bp_accept(s, item, pc)) return 1;
  if (!m) return 0;
  if (m->role == CC_MK_EXIT) return a->mode != 2;
  /* finish, next and until stop where a call made from the frame they run
   * in starts (until: on a later line), shown at the call's line (as gdb
   * stops at the line of a call before `step` enters it) */
  if (a->calls && (a->mode == 1 || a->mode == 2 || (a->mode == 3 && !s->L->until_line))) {
    uint32_t c = 0;
    int target = a->mode == 2 ? a->depth - 1 : a->depth;
    int k = target >= 0 ? call_start(s, m, target, &c) : 0;
    if (!k || c != a->in_call) a->in_call = 0;
    if (k && !a->in_call && c != a->from &&
        (a->mode != 3 || s->L->dbg->inl[c - 1].call_line > a->from_line))
      return 1;
  }
  if (a->mode == 2 && item == s->L->focus && depth_at(s, m) == a->depth)
    dbg_finish_capture(s, m->line_first); /* the value a `return EXPR;` gives */
  if (a->mode == 2) return a->depth > 0 && depth_at(s, m) < a->depth;
  if (!s->L->watchset[m->pc_begin]) return 0;
  if (a->mode == 3 && s->L->until_line) /* until LINE: there, or out of the selected frame */
    return dbg_mk_at_line(s, m, s->L->until_line) || depth_at(s, m) < a->depth;
  if (a->mode == 3) return in_kernel(s, m) && m->line_first > a->from_line;
  /* next stays in the selected frame: it runs over calls, not out of the function */
  if (a->mode == 1 && depth_at(s, m) > a->depth) return 0;
  if ((m->role == CC_MK_STMT || m->role == CC_MK_LOOP_BODY) && m->line_first == a->from_line)
    return 0;
  return 1;
}

/* Stops at the first statement of the kernel, as `start` does, asking no
 * breakpoint or watchpoint on the way. */
static int enter_accept(struct dbg_session *s, uint64_t item, uint32_t pc, void *arg) {
  (void)item;
  (void)arg;
  const struct cc_microkernel *m = dbg_mk_at(s, pc);
  if (!m) return 0;
  if (m->role == CC_MK_EXIT) return 1;
  if (!s->L->watchset[m->pc_begin]) return 0;
  return !((m->role == CC_MK_STMT || m->role == CC_MK_LOOP_BODY) &&
           m->line_first == s->L->dbg->line_first);
}

void dbg_item_enter(struct dbg_session *s, uint64_t item) {
  if (!s->L->sd || simt_dbg_state(s->L->sd, item, NULL) != SIMT_DBG_FRESH) return;
  /* its whole work-group starts, as work-groups do: they stay in step */
  uint64_t g = simt_dbg_group_of(s->L->sd, item);
  uint64_t n = simt_dbg_group_items(s->L->sd, g, NULL, 0);
  uint64_t *items = malloc((n ? n : 1) * sizeof(uint64_t));
  if (!items) return;
  simt_dbg_group_items(s->L->sd, g, items, n);
  int paused = s->L->paused;
  s->L->paused = 0;
  dbg_poll_fn poll = s->interrupt;
  s->interrupt = NULL; /* nothing runs at full speed here: no pause to take */
  for (uint64_t i = 0; i < n; i++)
    if (simt_dbg_state(s->L->sd, items[i], NULL) == SIMT_DBG_FRESH)
      run_item(s, items[i], s->L->stepset, enter_accept, NULL);
  s->interrupt = poll;
  s->L->paused = paused;
  free(items);
}

void dbg_item_fresh_args(struct dbg_session *s, uint64_t item, int to_regs) {
  if (!s->L->sd || !s->L->dbg || !s->L->k || simt_dbg_state(s->L->sd, item, NULL) != SIMT_DBG_FRESH)
    return;
  for (uint32_t i = 0; i < s->L->dbg->nsyms; i++) {
    const struct cc_symbol *y = &s->L->dbg->syms[i];
    if (!y->arg_index || y->inl || y->space != CC_SYM_PRIVATE || y->arg_index > s->L->k->nargs)
      continue;
    const struct lsi_arg *a = &s->L->k->args[y->arg_index - 1];
    uint32_t n = 1, esz = 8;
    if (a->kind == LSI_ARG_VALUE) {
      n = a->nregs;
      esz = a->elem_size;
    } else if (a->kind != LSI_ARG_GLOBAL && a->kind != LSI_ARG_CONSTANT &&
               a->kind != LSI_ARG_LOCAL) {
      continue; /* a struct by value lives in the private frame already */
    }
    if (!esz || esz > 8) continue;
    uint8_t *slot =
        simt_dbg_mem(s->L->sd, item, LSI_ADDR(LSI_SPACE_PRIVATE, 0, y->offset), y->size);
    for (uint32_t e = 0; slot && e < n && (uint64_t)(e + 1) * esz <= y->size; e++) {
      uint64_t *r = simt_dbg_reg(s->L->sd, item, a->reg + e);
      if (!r) break;
      if (to_regs) {
        uint64_t v = 0; /* as the launch loads it: zero-extended */
        memcpy(&v, slot + (size_t)e * esz, esz);
        *r = v;
      } else {
        memcpy(slot + (size_t)e * esz, r, esz);
      }
    }
  }
}

uint32_t dbg_fn_bp_line(struct dbg_session *s, const struct bp *b) {
  if (!s->L || !s->L->k || !s->L->dbg || b->line || !b->kernel[0]) return 0;
  if (!strcmp(b->kernel, s->L->k->name)) {
    /* the kernel's first statement, where its entry stops */
    for (uint32_t pc = 0; pc < s->L->k->ninsns; pc++) {
      const struct cc_microkernel *m = dbg_mk_at(s, pc);
      if (!m || m->pc_begin != pc || !enter_accept(s, 0, pc, NULL)) continue;
      return m->role == CC_MK_EXIT ? 0 : m->line_first;
    }
    return 0;
  }
  for (uint32_t idx = 0; idx < s->L->dbg->ninl; idx++) {
    if (strcmp(s->L->dbg->inl[idx].func, b->kernel)) continue;
    uint32_t pc = dbg_call_entry(s, idx);
    const struct cc_microkernel *m = pc != UINT32_MAX ? dbg_mk_at(s, pc) : NULL;
    if (m) return m->line_first;
  }
  return 0;
}

/* Stops at the pc arg points to (or the work-item's end), asking nothing. */
static int at_pc_accept(struct dbg_session *s, uint64_t item, uint32_t pc, void *arg) {
  (void)item;
  const struct cc_microkernel *m = dbg_mk_at(s, pc);
  return pc == *(const uint32_t *)arg || (m && m->role == CC_MK_EXIT);
}

/* A step that stopped where a call made from a frame of depth inlined
 * calls starts shows the stop in that frame, at the call's line. */
static void call_stop_at(struct dbg_session *s, uint64_t it, uint32_t pc, int depth,
                         uint32_t from) {
  const struct cc_microkernel *m = dbg_mk_at(s, pc);
  int k = 0;
  uint32_t c = 0;
  /* the frame the step ran in, or a caller it returned to (when it left
   * the call of that frame) */
  for (int d = depth; m && m->pc_begin == pc && !k && d >= 0; d--)
    if (d == depth || !from || call_at_depth(s, m, depth) != from) k = call_start(s, m, d, &c);
  if (!k) return;
  s->L->call_stop = k;
  s->L->call_idx = c;
  s->L->call_item = it;
  s->L->call_pc = pc;
  dbg_frame_select(s, 0); /* the caller's frame: the callee's are hidden */
}

/* What a step of the focus that stopped at pc (after a barrier too) shows:
 * a watchpoint, a breakpoint there, else the step; next, finish, until and
 * advance show a call they stop at the start of at its line (step goes on
 * showing it in the callee, where the arguments pass). */
static int step_landed(struct dbg_session *s, uint64_t it, uint32_t pc, const struct step_arg *a) {
  if (s->L->whit) return ST_WATCH;
  if (s->L->bpset[pc] && dbg_bp_accept(s, it, pc)) return ST_BP;
  if (a->mode == 1 || a->mode == 2 || a->mode == 3)
    call_stop_at(s, it, pc, a->mode == 2 ? a->depth - 1 : a->depth, a->from);
  return ST_STEP;
}

static int step_item(struct dbg_session *s, int mode) {
  uint64_t it = s->L->focus;
  int st = simt_dbg_state(s->L->sd, it, NULL);
  if (st == SIMT_DBG_DONE) {
    fprintf(s->out, "The work-item has finished; choose another with 'workitem' or 'continue'.\n");
    s->L->no_move = 1;
    return ST_NONE;
  }
  if (st == SIMT_DBG_FAULT) {
    fprintf(s->out, "The work-item raised a device exception and cannot run on.\n");
    s->L->no_move = 1;
    return ST_NONE;
  }
  /* a breakpoint hit of the last pass not reported yet: resuming the item
   * reports it first, without moving it */
  if (dbg_pass_take(s, it)) return ST_BP;
  int pa = dbg_pass_take_assert(s, it);
  if (pa) return pa;
  /* at a call's line (a call stop): step enters the call without running */
  int k = dbg_call_stop_now(s);
  if (k && mode == 0) {
    /* step enters the call: to its first own statement, past the passing
     * of its arguments */
    uint32_t entry = dbg_call_entry(s, s->L->call_idx - 1), pc;
    simt_dbg_state(s->L->sd, it, &pc);
    s->L->call_stop = 0;
    if (pc != entry) {
      int rc = run_item(s, it, s->L->stepset, at_pc_accept, &entry);
      simt_dbg_state(s->L->sd, it, &pc);
      if (rc != ST_STEP || pc != entry) return rc;
      if (s->L->bpset[pc] && dbg_bp_accept(s, it, pc)) return ST_BP;
    }
    /* a call whose first statement starts another: at that call's line */
    if (k > 1) {
      struct dbg_frame fr[DBG_MAX_FRAMES];
      call_stop_at(s, it, pc, dbg_frames(s, it, fr, DBG_MAX_FRAMES) - k, 0);
    }
    return ST_STEP;
  }
  struct step_arg a = {mode,
                       k ? dbg_frame_current(s).line : dbg_item_line(s, it),
                       finish_depth(s, it),
                       1,
                       k ? s->L->call_idx : 0,
                       dbg_frame_current(s).inl};
  s->L->call_stop = 0;
  s->L->whit = 0;
  catch_prepare(s);
  for (;;) {
    st = simt_dbg_state(s->L->sd, it, NULL);
    if (st == SIMT_DBG_BARRIER) {
      int rc = barrier_sync(s, it);
      if (rc != ST_NONE) return rc;
      uint32_t pc;
      simt_dbg_state(s->L->sd, it, &pc);
      if (s->L->stepset[pc]) simt_dbg_mark_asked(s->L->sd, it); /* step_accept asks it there */
      if (s->L->stepset[pc] && step_accept(s, it, pc, &a)) return step_landed(s, it, pc, &a);
    }
    int rc = run_item(s, it, s->L->stepset, step_accept, &a);
    if (rc == ST_STEP) {
      uint32_t pc;
      simt_dbg_state(s->L->sd, it, &pc);
      return step_landed(s, it, pc, &a);
    }
    if (rc != ST_NONE) return rc;
  }
}

static int in_scope(struct dbg_session *s, uint64_t it, uint64_t fg) {
  switch (s->scope) {
  case SCOPE_GROUP: return simt_dbg_group_of(s->L->sd, it) == fg;
  case SCOPE_ITEMS: return it >= s->scope_a && it <= s->scope_b;
  case SCOPE_ALL: return 1;
  default: return it == s->L->focus;
  }
}

/* Steps every work-item of the scope once, each from its own line; one that
 * reaches a barrier waits there until every member of its group in the scope
 * has arrived, then the whole group (members outside the scope run to the
 * barrier first) goes on to its next statement. Reports for the focus. */
static int step_set(struct dbg_session *s, int mode) {
  uint64_t n = simt_dbg_items(s->L->sd), fg = simt_dbg_group_of(s->L->sd, s->L->focus);
  uint32_t *from = calloc(n, sizeof(uint32_t));
  int *depth = calloc(n, sizeof(int));
  uint8_t *phase = calloc(n, 1); /* 0 out, 1 to step, 2 stepped, 3 waits at a barrier */
  int any = 0, rc = ST_NONE;
  for (uint64_t it = 0; it < n; it++) {
    int st = simt_dbg_state(s->L->sd, it, NULL);
    if (!in_scope(s, it, fg) || st == SIMT_DBG_DONE || st == SIMT_DBG_FAULT) continue;
    phase[it] = 1;
    from[it] = dbg_item_line(s, it);
    depth[it] = finish_depth(s, it);
    any = 1;
  }
  if (!any) {
    fprintf(s->out, "Every work-item of the stepping scope has finished.\n");
    s->L->no_move = 1;
    goto out;
  }
  /* the items step from where they are: a hit of the last pass still to
   * be reported for one of them is passed (a failed assertion is
   * reported first) */
  for (uint64_t it = 0; it < n; it++) {
    if (!phase[it]) continue;
    dbg_pass_drop(s, it);
    if ((rc = dbg_pass_take_assert(s, it))) goto out;
  }
  s->L->whit = 0;
  catch_prepare(s);
  for (int progress = 1; progress;) {
    progress = 0;
    for (uint64_t k = 0; k < n; k++) {
      uint64_t it = k == 0 ? s->L->focus : k <= s->L->focus ? k - 1 : k; /* the focus first */
      if (phase[it] != 1) continue;
      if (simt_dbg_state(s->L->sd, it, NULL) == SIMT_DBG_BARRIER) {
        phase[it] = 3;
        continue;
      }
      struct step_arg a = {mode, from[it], depth[it]};
      int r = run_item(s, it, s->L->stepset, step_accept, &a);
      if (r == ST_EXC || r == ST_ASSERT || r == ST_BP || r == ST_WATCH) {
        rc = r;
        goto out;
      }
      if (s->L->whit) {
        s->L->focus = it;
        rc = ST_WATCH;
        goto out;
      }
      phase[it] = r == ST_NONE ? 3 : 2;
    }
    /* release the groups whose members in the scope all wait */
    for (uint64_t it = 0; it < n; it++) {
      if (phase[it] != 3) continue;
      uint64_t g = simt_dbg_group_of(s->L->sd, it);
      int all = 1;
      for (uint64_t j = 0; j < n && all; j++)
        if (phase[j] && phase[j] != 3 && simt_dbg_group_of(s->L->sd, j) == g) all = 0;
      if (!all) continue;
      int br = barrier_sync(s, it);
      if (br != ST_NONE) {
        rc = br;
        goto out;
      }
      for (uint64_t j = 0; j < n; j++) {
        if (phase[j] != 3 || simt_dbg_group_of(s->L->sd, j) != g) continue;
        uint32_t pc;
        simt_dbg_state(s->L->sd, j, &pc);
        struct step_arg a = {mode, from[j], depth[j]};
        if (s->L->stepset[pc]) simt_dbg_mark_asked(s->L->sd, j); /* step_accept asks it there */
        phase[j] = s->L->stepset[pc] && step_accept(s, j, pc, &a) ? 2 : 1;
      }
      progress = 1;
    }
  }
  {
    uint32_t pc;
    int st = simt_dbg_state(s->L->sd, s->L->focus, &pc);
    if (st == SIMT_DBG_DONE)
      rc = ST_DONE;
    else if (st == SIMT_DBG_BARRIER)
      fprintf(s->out, "Work-item %" PRIu64 " waits at a barrier until its work-group arrives.\n",
              s->L->focus);
    if (st != SIMT_DBG_DONE)
      rc = st != SIMT_DBG_BARRIER && s->L->bpset[pc] && dbg_bp_accept(s, s->L->focus, pc) ? ST_BP
                                                                                          : ST_STEP;
  }
out:
  free(from);
  free(depth);
  free(phase);
  return rc;
}

int dbg_all_done(struct dbg_session *s) {
  uint64_t n = simt_dbg_items(s->L->sd);
  for (uint64_t i = 0; i < n; i++)
    if (simt_dbg_state(s->L->sd, i, NULL) != SIMT_DBG_DONE) return 0;
  return 1;
}

/* The stops of the launch's kernel: statement starts, the ones a step or a
 * watched change is shown at (not a line of braces alone, not a loop's
 * branch back before its statement: the statement after it shows the
 * stop), the breakpoints. */
void dbg_stop_sets(struct dbg_session *s) {
  size_t n = s->L->k->ninsns + 1;
  free(s->L->stepset);
  free(s->L->watchset);
  free(s->L->bpset);
  free(s->L->bpid);
  free(s->L->bpline);
  free(s->L->catchset);
  dbg_call_entries(s);
  s->L->stepset = calloc(n, 1);
  s->L->watchset = calloc(n, 1);
  s->L->bpset = calloc(n, 1);
  s->L->bpid = calloc(n, sizeof(s->L->bpid[0]));
  s->L->bpline = calloc(n, sizeof(s->L->bpline[0]));
  s->L->catchset = calloc(n, 1);
  for (uint32_t q = 0; q < s->L->dbg->nmk; q++) {
    const struct cc_microkernel *m = &s->L->dbg->mk[q];
    s->L->stepset[m->pc_begin] = 1;
    s->L->watchset[m->pc_begin] =
        m->role == CC_MK_EXIT || !(brace_only(s, m->line_first) || flow_before_work(s, m));
  }
  dbg_bp_bind(s);
  catch_prepare(s);
}

/* After an edit: the stops of the new code, and the innermost frame. */
void dbg_edit_rebind(struct dbg_session *s) {
  s->L->frame = 0;
  dbg_stop_sets(s);
}

/* The first work-item (in order) a condition of a kernel breakpoint of
 * this kernel holds for at its first statement, stopped there (ST_ENTRY);
 * the work-items before it wait there too. None: the launch runs on. */
static int entry_if(struct dbg_session *s) {
  uint64_t n = simt_dbg_items(s->L->sd);
  for (uint64_t it = 0; it < n; it++) {
    struct step_arg a = {0, s->L->dbg->line_first, 0};
    int rc = run_item(s, it, s->L->stepset, step_accept, &a);
    if (rc != ST_STEP) {
      if (rc == ST_DONE || rc == ST_NONE) s->L->focus = it;
      return rc;
    }
    for (int i = 0; i < s->nbp; i++) {
      struct bp *b = &s->bps[i];
      if (!b->enabled || b->line || !b->cond[0] || strcmp(b->kernel, s->L->k->name)) continue;
      uint64_t save = s->L->focus;
      s->L->focus = it;
      struct dbg_val v;
      char err[200];
      int bad = dbg_eval_focus(s, b->cond, &v, err, sizeof(err));
      if (bad) fprintf(s->out, "Error in breakpoint %d condition: %s\n", b->id, err);
      if (bad || (v.kind == DBG_FLT ? v.f != 0 : v.i != 0)) {
        b->hits++;
        s->L->entry_bp = b->id;
        s->L->entry_temp = b->temp;
        if (b->temp) dbg_bp_delete(s, b->id);
        return ST_ENTRY;
      }
      s->L->focus = save;
    }
  }
  s->L->focus = 0;
  return run_full(s);
}

int dbg_first_stretch(struct dbg_session *s) {
  struct dbg_launch *L = s->L;
  int entry = s->stop_entry;
  s->stop_entry = 0;
  L->started = 1;
  L->entry_bp = 0;
  /* kernel breakpoints: one without a condition stops work-item 0 at entry,
   * else the first work-item one's condition holds for there */
  int conds = 0;
  for (int i = 0; i < s->nbp; i++)
    if (s->bps[i].enabled && !s->bps[i].line && !strcmp(s->bps[i].kernel, L->k->name)) {
      if (s->bps[i].cond[0]) {
        conds = 1;
        continue;
      }
      if (!entry || L->entry_bp) { /* the stop names the first one (not `start`) */
        if (!L->entry_bp) L->entry_bp = s->bps[i].id, L->entry_temp = s->bps[i].temp;
      }
      entry = 1;
      s->bps[i].hits++;
    }
  if (entry) conds = 0;
  for (int i = s->nbp - 1; i >= 0; i--) /* temporary ones that stop here are done */
    if (s->bps[i].temp && s->bps[i].enabled && !s->bps[i].line && !s->bps[i].cond[0] &&
        !strcmp(s->bps[i].kernel, L->k->name))
      dbg_bp_delete(s, s->bps[i].id);
  L->entry = entry;
  L->conds = conds;
  if (s->machine) {
    /* a front end that asked for records may change breakpoints first and
     * choose: `continue` runs, `step` stops at kernel entry */
    dbg_mi_launch(s);
    return ST_LAUNCH;
  }
  return dbg_start_stretch(s);
}

int dbg_start_stretch(struct dbg_session *s) {
  struct dbg_launch *L = s->L;
  L->nstop = 0;
  if (L->entry) {
    struct step_arg a = {0, L->dbg->line_first, 0};
    int rc = run_item(s, 0, L->stepset, step_accept, &a);
    return rc == ST_STEP ? ST_ENTRY : rc;
  }
  if (L->conds) return entry_if(s);
  return run_full(s);
}

int dbg_stretch(struct dbg_session *s, int kind) {
  struct dbg_launch *L = s->L;
  int mode = kind == 's' ? 0 : kind == 'n' ? 1 : kind == 'u' ? 3 : 2, rc;
  /* step N, next N: the steps between are not shown */
  for (int left = kind == 's' || kind == 'n' ? L->repeat : 0;; left--) {
    L->asserted = 0;
    L->checked = 0;
    L->paused = 0;
    L->nstop = 0;
    L->nnotes = 0;
    if (kind == 'c')
      rc = run_full(s);
    else if (s->scope != SCOPE_ITEM)
      rc = step_set(s, mode);
    else
      rc = step_item(s, mode);
    int moved = rc != ST_NONE;
    if (rc == ST_NONE) rc = ST_STEP;
    dbg_pass_notes_show(s);
    dbg_watch_gc(s, 0);
    if (left <= 0 || !moved || rc != ST_STEP ||
        simt_dbg_state(L->sd, L->focus, NULL) == SIMT_DBG_DONE)
      break;
  }
  L->until_line = 0;
  L->repeat = 0;
  return rc;
}

void dbg_finish_undebugged(struct dbg_session *s) {
  struct dbg_launch *L = s->L;
  if (L->have_exc || dbg_all_done(s)) return;
  memset(L->bpset, 0, L->k->ninsns + 1);
  s->nbp = 0;
  L->npending = 0;
  L->pend_assert = 0;
  s->inprog_only = 0;
  while (!L->have_exc && !dbg_all_done(s)) {
    int r = run_full(s);
    if (r == ST_EXC || r == ST_IDLE) break;
    if (r == ST_TIMEOUT) { /* nobody is left to decide: the watchdog ends the launch */
      struct dev_exception e;
      memset(&e, 0, sizeof(e));
      e.trap = LSI_TRAP_WATCHDOG;
      e.kernel = L->k->name;
      snprintf(e.message, sizeof(e.message), "watchdog: a pass of the kernel ran too long");
      dbg_exc_stop(s, L->focus, &e);
      break;
    }
  }
  L->finished = !L->have_exc;
}
