/*
 * dbg_int.h - the debug engine's session, shared by the engine's own files
 * (dbg_engine.c for commands and running, dbg_mi.c for the machine-readable
 * records front ends such as the DAP adapter ask for).
 *
 * Private to the engine: front ends must use dbg.h and the line protocol,
 * never this header.
 */
#ifndef LOCKSTEP_DEBUGGER_DBG_INT_H
#define LOCKSTEP_DEBUGGER_DBG_INT_H

#include <pthread.h>

#include "compiler/cc_debug.h"
#include "debugger/dbg.h"
#include "device/lsi.h"

#define MAX_BP 64

struct bp {
  int id, enabled, temp, hits;
  char file[128]; /* empty: any */
  uint32_t line;  /* 0: a kernel-name breakpoint */
  char kernel[64];
  char cond[256];
  int ignore; /* `ignore N COUNT`: crossings still to pass without stopping */
  int bound;  /* matched the file of a launch at least once */
  /* checked against its program (dbg_bp_check): the line it binds to, and
   * why that is not the line asked for ("line 12 has no code") */
  int checked;
  uint32_t at;
  char note[96];
  int elsewhere; /* a host program's function breakpoint: said that a
                    program lacks its function (it stays pending) */
  /* a watchpoint (line 0, no kernel): an expression of one work-item */
  char watch[128];
  uint64_t witem;
  char wold[512];   /* its value when last looked at */
  unsigned wlaunch; /* the launch (number) the work-item is of */
  char cmds[1024];  /* `commands N`: lines ('\n' after each) run when it stops */
};

/* An auto-display expression (dbg_display.c). */
#define MAX_DISPLAYS 32
struct dbg_display {
  int id;
  char fmt; /* a print format letter, or 0 */
  char expr[256];
};

#define MAX_DIRS  16
#define MAX_FILES 32

/* One launch under the engine: what a stop saves and stepping needs, from
 * its open to its close (freed as one unit). Engine code reaches it as s->L,
 * the launch it works on. */
struct kept_build;
struct dbg_cond;
struct dbg_launch {
  struct dbg_session *s;
  /* the launch API (dbg_launch.c) */
  struct dbg_launch *next; /* the session's open launches, by number */
  unsigned num, queue;     /* `info kernels`: its number (from 1), the stream it came from */
  void *user;              /* the front end's pointer */
  int state;               /* LS_* */
  int prompted;            /* a command resumed it */
  int started;             /* its first stretch ran (kernel breakpoints, the launch record) */
  int entry, conds; /* the first stretch stops at entry / asks kernel breakpoints' conditions */
  int act;          /* what its next stretch does: a resume kind, 'g' start, 'x' end */
  int rc;           /* the enum stop its last stretch ended with, to report */
  char why[48];     /* that stop as `info kernels` names it */
  int bp_gen;       /* the session's breakpoints it was bound to */
  FILE *out;        /* what its stretches print, until its stop is shown */
  char *obuf;
  size_t olen;
  FILE *pout; /* a pass's printf output: to the front end at once */
  /* what dbg_launch_open was given, kept for the launch's life */
  struct dev_launch given, kept;
  uint8_t *argbuf;
  char *source, *fname, *options;
  /* dbg_keep.c: the program the host gave it, the text that built it, the
   * edited build it runs */
  const struct lsi_program *korig;
  const char *ksource;
  struct kept_build *kcur;
  struct simt_dbg *sd;
  const struct lsi_kernel *k;
  const struct cc_debug *dbg;
  const struct dev_launch *l;
  const char *file;
  char **lines;
  uint32_t nlines;
  uint8_t *stepset, *bpset;
  int *bpid;           /* the breakpoint (id) of each statement start, 0: none */
  uint32_t *bpline;    /* the line that breakpoint binds to (its condition's frame) */
  uint32_t *inl_entry; /* where each inlined call starts (dbg->ninl entries) */
  uint8_t *watchset;   /* the statements a step or a watched change is shown at */
  uint8_t *catchset;   /* where work-items run on a stepped one's behalf stop */
  /* during a pass: each statement's breakpoint condition compiled for the
   * pass's filter (dbg_bpcond.c), NULL until a lane reaches it */
  _Atomic(struct dbg_cond *) *ccond;
  uint64_t focus;
  int finished, passes;
  struct dev_exception exc;
  int have_exc;
  int asserted; /* the last stop was a failed assert(): exc says which */
  /* the last stop was a checker's report (check: its enum dev_check bit);
   * exc holds the report as its message */
  unsigned checked;
  int paused;  /* a pause: the item running stops at its next statement */
  int stopped; /* this launch has prompted */
  /* `until LINE` / `advance LINE`: the line the step goes to (0: the next
   * later line); `step N` / `next N`: how many more steps after this one */
  uint32_t until_line;
  int repeat;
  int no_move;              /* the last step ran nothing (and said why): no stop to show */
  int entry_bp, entry_temp; /* the kernel breakpoint the launch stops at entry for */
  /* a step stopped where an inlined call starts, shown call_stop frames up
   * at the call's line (while call_item stays at call_pc) */
  int call_stop;
  uint64_t call_item;
  uint32_t call_pc, call_idx; /* call_idx: the call's index + 1 */
  /* the watchpoint that stopped the launch, with its old and new value */
  int whit;
  char wold[512], wnew[512];
  /* edit and continue: the launch the last edit made (the launch runs it),
   * the program of that edit when it could not be kept for later launches */
  struct lsi_program *eprog;
  struct dev_launch elaunch;
  int edits;
  /* full-speed passes (dbg_pass.c): items a pass stopped at a breakpoint
   * that are still to be reported (ascending: warp by warp; at most one
   * work-group's), the last pass's entry routine counts */
  uint64_t *pending;
  unsigned npending;
  /* a breakpoint stop of a whole warp: the items that stopped with the
   * focus (nstop <= 1: the focus alone) */
  uint64_t stop_items[64];
  unsigned nstop;
  /* what a step noted: other work-items that reached a breakpoint while
   * they ran on the focus's behalf (they ran on), by breakpoint */
  struct dbg_note {
    int bp;
    unsigned items, warps;
    uint64_t last_item, last_warp;
  } notes[8];
  int nnotes;
  /* a failed assertion of the last pass still to be reported (a watched
   * change in the same pass was reported first): its item and message */
  int pend_assert; /* or a checker's report (pend_check: its bit) */
  unsigned pend_check;
  uint64_t pend_item;
  struct dev_exception pend_exc;
  int watching;        /* the pass stops at statements for a watchpoint */
  int rebinding;       /* the pass stopped for breakpoints that changed: it runs again */
  int in_pass;         /* a pass runs (without the session's lock) */
  int taking;          /* a warp's stop is being taken (dbg_pass.c), */
  unsigned cond_errs;  /* and this many of its lanes' conditions failed */
  unsigned ignored;    /* warps' stops `ignore` passed (dbg_pass.c) */
  uint64_t watch_item; /* the item whose watched value changed */
  unsigned last_run, last_skipped;
  /* the frame `frame`/`up`/`down` selected (dbg_frame.c), 0 the innermost;
   * it holds only while that item stays at that pc */
  int frame;
  uint64_t frame_item;
  uint32_t frame_pc;
  /* `kill` ended it; `finish` (dbg_gdb.c): the frame left is an inlined
   * call (fin_on), whose returned value was seen (fin_have) */
  int killed, fin_on, fin_have;
  struct dbg_val fin_v;
  char fin_text[512];
};
/* A launch's states: its stretch runs (or is about to), it stopped and the
 * stop is not shown yet, it is stopped and shown (commands work on it), it
 * ended (dbg_launch_close gives its result). */
enum { LS_RUNNING, LS_PENDING, LS_STOPPED, LS_ENDED };

/* What lasts across launches: breakpoints, displays, the value history,
 * source folders, settings. Its lock serialises the engine's work: every
 * engine function runs holding it, with L the launch it works on and out
 * where its text goes; it is let go around a device pass and while a
 * command line is awaited, never held across either. */
struct dbg_session {
  pthread_mutex_t lock;
  pthread_cond_t passed; /* a launch's pass came back (dbg_bp_sync waits for it) */
  struct dbg_launch *L;
  /* the open launches (dbg_launch.c), the focused one (`kernel N`), the
   * last number given */
  struct dbg_launch *launches, *current;
  unsigned nlaunches;
  int bp_gen; /* counts changes of the breakpoints: a launch binds them again */
  FILE *out;
  FILE *user_out; /* the front end's stream (out points elsewhere while a launch runs) */
  dbg_read_fn read;
  void *rctx;
  /* the launch commands work on while a command line is awaited (NULL:
   * none, or no prompt): what Tab completion looks at */
  struct dbg_launch *prompt_L;
  int echo, quit;
  int machine; /* `mi on`: stops and launches also print records for programs */
  struct bp bps[MAX_BP];
  int nbp, next_id;
  struct dbg_display disp[MAX_DISPLAYS];
  int ndisp, last_disp;
  struct dbg_hist *hist; /* the value history: $1 is hist[0] */
  int nhist, hcap;
  struct dbg_conv *conv; /* convenience variables ($name) */
  int nconv, ccap;
  dbg_poll_fn interrupt; /* a front end asks to pause a running launch */
  void *ictx;
  dbg_gone_fn temp_gone;
  int stop_entry;
  int host_mode;
  char *dirs[MAX_DIRS];
  int ndirs;
  char *files[MAX_FILES]; /* files of the launches seen (host mode) */
  /* the program `break` checks against before any launch (dbg_set_program) */
  const struct lsi_program *kprog;
  char *kfile;
  uint32_t knlines;
  int nfiles;
  /* step scope: what step/next/finish/until advance together */
  int scope;                 /* SCOPE_* */
  uint64_t scope_a, scope_b; /* SCOPE_ITEMS: linear indices a..b */
  /* edit and continue: the options programs are rebuilt with, and the
   * edited builds that stay in force for the rest of the session
   * (dbg_keep.c) */
  char *options;
  struct dbg_keep *keep;
  /* how passes run (dbg_pass.c); `set scheduler-locking on`: `continue`
   * stops only for the focused work-item */
  int inprog_only;
  int sched_lock;
  /* `set check` (dbg_pass.c): the checkers passes run (enum dev_check;
   * -1: the device's, LOCKSTEP_CHECK), and whether a report stops */
  int check, check_stops;
  uint64_t pass_timeout_ns; /* 0: the device's watchdog */
  /* dbg_gdb.c: the breakpoint whose commands run at the next prompt (0:
   * none); the file `source` reads (NULL: the front end's lines) */
  int bp_cmds;
  FILE *sourcing;
};

/* The session's lock (dbg_engine.c). dbg_lock takes it for work on launch
 * L (NULL: none; s->L and s->out are set), dbg_unlock lets it go.
 * dbg_release lets it go in the middle of engine work (a device pass, the
 * wait for a command line), dbg_reacquire takes it back with s->L and
 * s->out as they were. */
struct dbg_hold {
  struct dbg_launch *L;
  FILE *out;
};
void dbg_lock(struct dbg_session *s, struct dbg_launch *L);
void dbg_unlock(struct dbg_session *s);
/* dbg_lock for what a front end asks while the session prompts (Tab
 * completion, the value history it keeps): 0 with the lock, -1 when it was
 * not free within a second (a command holding it while it reads lines),
 * so the question goes unanswered rather than waiting forever. */
int dbg_lock_briefly(struct dbg_session *s, struct dbg_launch *L);
void dbg_release(struct dbg_session *s, struct dbg_hold *h);
void dbg_reacquire(struct dbg_session *s, const struct dbg_hold *h);
/* Under the lock: waits for c, letting the lock go meanwhile, and goes on
 * with s->L and s->out as they were. */
void dbg_wait(struct dbg_session *s, pthread_cond_t *c);

/* Why running stopped. */
enum stop {
  ST_NONE,
  ST_STEP,
  ST_BP,
  ST_DONE,
  ST_EXC,
  ST_ENTRY,
  ST_WATCH,
  ST_ASSERT,
  ST_PAUSE,
  ST_TIMEOUT,
  ST_IDLE,  /* passes run in-progress work-items only, and none is left */
  ST_CHECK, /* a checker reported (LOCKSTEP_CHECK): a stop it runs on from */
  ST_LAUNCH /* `mi on`: a launch starts, its records are out */
};

enum { SCOPE_ITEM, SCOPE_GROUP, SCOPE_ALL, SCOPE_ITEMS };

/* dbg_hist.c: the value history. dbg_hist_get is dbg_env.history;
 * dbg_hist_kept gives the index of the aggregate (kept as text) expr names
 * alone, else -1; dbg_hist_push returns the new number, 0 when out of
 * memory. */
struct dbg_hist {
  struct dbg_val v;
  char *text;
};
const char *dbg_hist_get(void *ctx, const char *ref, struct dbg_val *v);
/* Convenience variables, gdb's `$name`: dbg_env.conv. */
struct dbg_conv {
  char name[32];
  struct dbg_val v;
};
const char *dbg_conv_var(void *ctx, const char *name, struct dbg_val *v, int set);
int dbg_hist_kept(struct dbg_session *s, const char *expr);
int dbg_hist_push(struct dbg_session *s, const struct dbg_val *v, const char *text);
void dbg_hist_free(struct dbg_session *s);

/* dbg_display.c: `display[/F] [EXPR]` (live: a kernel is stopped, so
 * show it now; returns -1 on a bad command), `undisplay [N...]`, `info
 * display`, and what every stop shows. */
int dbg_display_cmd(struct dbg_session *s, const char *arg, int live);
void dbg_undisplay_cmd(struct dbg_session *s, const char *arg);
void dbg_display_info(struct dbg_session *s);
void dbg_display_show(struct dbg_session *s);

/* ---- dbg_engine.c: the session, positions, what a stop shows ---- */
/* A path's last part. Whether the launch's program matched no file and is
 * named after its first kernel (any kernel of it names its lines then). */
const char *dbg_base(const char *p);
int dbg_named_after_kernels(const struct dbg_session *s);
/* The name the launch's lines are shown under: its file's, or, for a
 * program no file matched (named after its first kernel), the kernel that
 * runs, so a stop in kernel k of it shows `k:LINE`. */
const char *dbg_where_file(const struct dbg_session *s);
/* The statement (microkernel) pc is in, or NULL. */
const struct cc_microkernel *dbg_mk_at(struct dbg_session *s, uint32_t pc);
/* The source line an item is at (0 when it has finished). */
uint32_t dbg_item_line(struct dbg_session *s, uint64_t item);
/* The inlined call (index + 1 into dbg->inl) the line statement m is shown
 * at belongs to, and the one an item is in; 0 in the kernel body (or when
 * the item has finished). */
uint32_t dbg_mk_call(struct dbg_session *s, const struct cc_microkernel *m);
uint32_t dbg_item_inline(struct dbg_session *s, uint64_t item);
/* An item's ids as a stop shows them; a source line as a stop shows it. */
void dbg_ids_str(struct dbg_session *s, uint64_t item, char *buf, size_t n);
void dbg_show_line(struct dbg_session *s, uint32_t line);
/* The frames the focus's stop is shown up from its statement, at the line
 * of a call that starts there (a step stopped there), else 0. */
int dbg_call_stop_now(struct dbg_session *s);
/* The focused item's position (after why: "Breakpoint 2", ...; NULL for
 * none), with its line. */
void dbg_where(struct dbg_session *s, const char *why);
/* A print format letter, `/F` at the start of *arg (cmd's: `print`,
 * `display`): the letter (*arg moves past it), 0 when there is none, -1
 * when it is not one (said so). */
int dbg_format_letter(struct dbg_session *s, const char **arg, const char *cmd);
/* The environment the evaluator sees for the focused item, and evaluating
 * text there (0 ok, else an error message in err). */
void dbg_session_env(struct dbg_session *s, struct dbg_env *env);
int dbg_eval_focus(struct dbg_session *s, const char *text, struct dbg_val *v, char *err, size_t n);
/* `directory DIR` (the list searched), print (text after the command word,
 * /F included), x, whatis/ptype, info locals/args, list,
 * workitem/workgroup, backtrace, info workitems. */
void dbg_add_dir(struct dbg_session *s, const char *dir);
void dbg_print_cmd(struct dbg_session *s, const char *text);
void dbg_examine(struct dbg_session *s, const char *arg);
void dbg_whatis_cmd(struct dbg_session *s, const char *arg, int expand);
void dbg_info_vars(struct dbg_session *s, int args);
void dbg_list_cmd(struct dbg_session *s, const char *arg);
void dbg_focus_cmd(struct dbg_session *s, const char *arg, int group);
void dbg_backtrace_cmd(struct dbg_session *s);

/* ---- dbg_gdb.c: gdb's habits ---- */
/* `commands [N]`'s breakpoint (none: the last one set), NULL when there is
 * none (said so); whether its commands start with `silent`. */
struct bp *dbg_bp_for_commands(struct dbg_session *s, const char *arg);
int dbg_bp_silent(const struct bp *b);
/* `save breakpoints FILE`; `kill` (1: the launch ends, 0: it did not or
 * the program ended); `info frame`, `info line [LINE]`, `info source`. */
void dbg_save_breakpoints(struct dbg_session *s, const char *file);
int dbg_kill(struct dbg_session *s);
void dbg_info_frame(struct dbg_session *s);
void dbg_info_line(struct dbg_session *s, const char *arg);
void dbg_info_source(struct dbg_session *s);
/* finish: "Run till exit" as it starts; the value a `return EXPR;` line of
 * the frame left gives (the focus at that line, before it runs); after the
 * stop, "Value returned is $N = ...". */
void dbg_finish_begin(struct dbg_session *s);
void dbg_finish_capture(struct dbg_session *s, uint32_t line);
void dbg_finish_report(struct dbg_session *s);

/* ---- dbg_items.c: listings of work-items at any scale ---- */
/* `info workitems [FILTER]` (cmd: the name it was typed as, for its usage
 * line), `thread [N]` (N a linear id), and the one-line summary of every
 * work-item's state a pause shows. */
void dbg_info_workitems(struct dbg_session *s, const char *arg, const char *cmd);
void dbg_thread_cmd(struct dbg_session *s, const char *arg);
void dbg_items_summary(struct dbg_session *s);

/* ---- dbg_bp.c: breakpoints and watchpoints ---- */
/* A statement that only branches, yields or reconverges; whether a
 * breakpoint at line binds to statement mk. */
int dbg_mk_flow_only(struct dbg_session *s, const struct cc_microkernel *mk);
int dbg_mk_at_line(struct dbg_session *s, const struct cc_microkernel *mk, uint32_t line);
/* dbg_bind.c: the same for statement mk of kernel k (whose debug tables
 * it has), and whether mk's code starts at line (or at a call made there). */
int dbg_kmk_at_line(const struct lsi_kernel *k, const struct cc_microkernel *mk, uint32_t line);
int dbg_kmk_starts_at(const struct lsi_kernel *k, const struct cc_microkernel *mk, uint32_t line);
/* Where each inlined call of s->L's kernel starts (dbg_call_entries fills
 * it), and where call idx (its index) starts: UINT32_MAX when it has no
 * code. */
void dbg_call_entries(struct dbg_session *s);
uint32_t dbg_call_entry(struct dbg_session *s, uint32_t idx);
/* Whether breakpoint b names s->L's program; the line it binds to in s->L's
 * kernel, or 0. */
int dbg_bp_file_match(struct dbg_session *s, const struct bp *b);
uint32_t dbg_bp_line(struct dbg_session *s, const struct bp *b);
/* Binds the breakpoints to s->L (bpset, bpid, bpline); again only when they
 * changed since it last did (dbg_rebind). */
void dbg_bp_bind(struct dbg_session *s);
void dbg_rebind(struct dbg_session *s);
/* After a command changed the breakpoints: waits until no launch runs a
 * pass with the old ones (each such pass stops at its next poll and runs
 * on with them, dbg_pass.c), so they apply to every launch once the
 * command is done. */
void dbg_bp_sync(struct dbg_session *s);
/* The enabled breakpoint a statement starting at pc belongs to, or NULL;
 * deleting temporary breakpoint id, which was hit. */
struct bp *dbg_bp_at(struct dbg_session *s, uint32_t pc);
/* The focus stopped at a breakpoint: at a call's line, show it there. */
void dbg_bp_call_stop(struct dbg_session *s);
void dbg_bp_delete(struct dbg_session *s, int id);
/* Whether a breakpoint at pc stops item: dbg_bp_holds asks its condition
 * (1 it holds, 0 not, 2 it failed to evaluate, said: a stop, as gdb
 * stops), dbg_bp_ignored counts one crossing `ignore N COUNT` passes
 * (whether it passed it), and dbg_bp_accept asks both, for one work-item
 * run alone, whose stop is one crossing. A pass's stop is a warp's, one
 * crossing for all its lanes (dbg_pass.c). */
int dbg_bp_holds(struct dbg_session *s, uint64_t item, uint32_t pc);
int dbg_bp_ignored(struct dbg_session *s, uint32_t pc);
int dbg_bp_accept(struct dbg_session *s, uint64_t item, uint32_t pc);
/* break/tbreak, delete (what 0), enable (1), disable (2), info
 * breakpoints, watch. */
void dbg_bp_add(struct dbg_session *s, const char *arg, int temp);
void dbg_bp_each(struct dbg_session *s, const char *arg, int what);
void dbg_bp_info(struct dbg_session *s);
/* `condition N [EXPR]` and `ignore N COUNT`. */
void dbg_bp_condition(struct dbg_session *s, const char *arg);
void dbg_bp_ignore(struct dbg_session *s, const char *arg);
void dbg_watch_add(struct dbg_session *s, const char *arg);
/* Whether item has an enabled watchpoint, whether any work-item of s->L
 * has one; whether one of item's watched values changed (noted in
 * L->whit, L->wold, L->wnew). dbg_watch_gc drops the watchpoints of
 * finished work-items (all of s->L's: quiet). */
int dbg_has_watch(struct dbg_session *s, uint64_t item);
int dbg_any_watch(struct dbg_session *s);
int dbg_watch_changed(struct dbg_session *s, uint64_t item);
void dbg_watch_gc(struct dbg_session *s, int all);

/* ---- dbg_step.c: running work-items ---- */
/* Stops: a device exception or a failed assertion of an item (the focus
 * moves there). */
int dbg_exc_stop(struct dbg_session *s, uint64_t item, const struct dev_exception *e);
int dbg_assert_stop(struct dbg_session *s, uint64_t item, const struct dev_exception *e);
/* A checker's report (kind: its enum dev_check bit) that stopped a pass at
 * item: a stop it runs on from. */
int dbg_check_stop(struct dbg_session *s, uint64_t item, const struct dev_exception *e,
                   unsigned kind);
/* dbg_launch.c: what a checker's report (its enum dev_check bit) is called. */
const char *dbg_check_what(unsigned kind);
/* dbg_pass.c: `set check ...` (arg after "check"), `show check`. */
void dbg_check_set(struct dbg_session *s, const char *arg);
void dbg_check_show(struct dbg_session *s);
/* Runs an item that has not started, and the other items of its work-group
 * that have not, to the kernel's first statement (the prologue gives the
 * arguments their values), as `start` does; else nothing. Focus changes use
 * it, so a focused item always has its arguments. */
void dbg_item_enter(struct dbg_session *s, uint64_t item);
/* A work-item that has not started holds its kernel arguments in the
 * registers the launch gave them, and the prologue stores each into its
 * variable in the private frame. to_regs 0 copies them there ahead of time,
 * so they read with their values; 1 copies the variables back after a write,
 * so the prologue stores what was written. Nothing for a started item. */
void dbg_item_fresh_args(struct dbg_session *s, uint64_t item, int to_regs);
/* The line a function breakpoint (`break NAME`) stops at in the current
 * launch: the kernel's entry, or where the first call of an inlined
 * function of that name starts; 0 when the launch has neither. */
uint32_t dbg_fn_bp_line(struct dbg_session *s, const struct bp *b);
/* The stops of s->L's kernel (statement starts, where steps are shown,
 * the breakpoints); again after an edit. */
void dbg_stop_sets(struct dbg_session *s);
void dbg_edit_rebind(struct dbg_session *s);
/* A launch's stretches (dbg_launch.c runs them): dbg_first_stretch starts
 * it (kernel breakpoints; ST_LAUNCH after the `mi on` launch record, then
 * dbg_start_stretch goes on); dbg_stretch runs what a resume of kind asked
 * ('c', 's', 'n', 'f', 'u'); each returns an enum stop. After a quit
 * dbg_finish_undebugged runs the rest at full speed. Whether every item of
 * s->L has finished. */
int dbg_first_stretch(struct dbg_session *s);
int dbg_start_stretch(struct dbg_session *s);
int dbg_stretch(struct dbg_session *s, int kind);
void dbg_finish_undebugged(struct dbg_session *s);
int dbg_all_done(struct dbg_session *s);

/* ---- dbg_launch.c: the launch API, stops, several launches ---- */
/* dbg_setup holds s->L's given launch open on d (0, or -1 with why);
 * dbg_teardown lets go of everything it made. */
int dbg_setup(struct dbg_session *s, struct dev_device *d, const char *source, char *why,
              size_t whylen);
void dbg_teardown(struct dbg_session *s);
/* Shows a stop of s->L (its enum stop). */
void dbg_report(struct dbg_session *s, int rc);
/* `info kernels`, `kernel [N]`; for `mi kernels`, a launch by number, its
 * state ("stopped", "running", "finished") and the line its focused item
 * is at (0: none), and selecting a stopped launch whose stop was shown
 * (NULL, else why not). */
void dbg_kernels_info(struct dbg_session *s);
void dbg_kernel_cmd(struct dbg_session *s, const char *arg);
struct dbg_launch *dbg_launch_find(struct dbg_session *s, unsigned long num);
const char *dbg_launch_state(const struct dbg_launch *L);
uint32_t dbg_launch_line(struct dbg_session *s, struct dbg_launch *L);
const char *dbg_launch_select(struct dbg_session *s, struct dbg_launch *L);

/* ---- dbg_cmd.c: the command table ---- */
/* Reads and runs commands until one resumes (1; *kind says which: 'c',
 * 's', 'n', 'f', 'u', 'r', 'e', 'C' for continue -a) or quits (1 with
 * s->quit set). */
int dbg_read_cmd(struct dbg_session *s, int *kind);

/* dbg_complete.c: Tab completion of a command's argument (text, up to the
 * cursor) by kind: the names of an expression (DBG_ARG_EXPR) or a location
 * (DBG_ARG_LOC; `if` starts an expression) that start with the word being
 * completed, each given to add; returns where in text that word starts. */
enum { DBG_ARG_EXPR = 1, DBG_ARG_LOC = 2 };
size_t dbg_complete_arg(struct dbg_session *s, const char *text, int kind, dbg_complete_fn add,
                        void *ctx);
/* dbg_frame.c: a work-item's frames are its inlined calls, innermost
 * first, then the kernel. */
#define DBG_MAX_FRAMES 64
struct dbg_frame {
  uint32_t inl;  /* the inlined call (index + 1 into dbg->inl), 0 for the kernel */
  uint32_t line; /* the item's line in frame 0, the call site in the frames above */
};
/* The frames of an item (at least one: the kernel); returns how many. */
int dbg_frames(struct dbg_session *s, uint64_t item, struct dbg_frame *fr, int max);
/* The focused item's selected frame (0 unless `frame`, `up` or `down` chose
 * another since it last moved), and selecting one. */
int dbg_frame_selected(struct dbg_session *s);
void dbg_frame_select(struct dbg_session *s, int frame);
struct dbg_frame dbg_frame_current(struct dbg_session *s);
/* A parameter of an inlined call whose value the focused item has not
 * passed yet: it stands in the statement that evaluates the call's
 * arguments, before the store of this one. */
int dbg_frame_unpassed(struct dbg_session *s, const struct cc_symbol *y);
/* Whether `info locals` (args 0) or `info args` (1) in frame f lists y:
 * the frame's own names that print finds at its line. */
int dbg_frame_lists(const struct cc_debug *d, const struct cc_symbol *y, const struct dbg_frame *f,
                    int args);
/* Whether a frame that calls the selected one has names of its own, which
 * print finds from the selected frame too (inlined code runs inside its
 * callers) but `info locals` and `info args` there do not list. */
int dbg_frame_outer_names(struct dbg_session *s);
/* A variable as the focused item's selected frame sees it: that frame's own
 * names first, then its callers'. NULL with *why saying why not. */
const struct cc_symbol *dbg_frame_symbol(struct dbg_session *s, const char *name, const char **why);
/* `frame [N]`, `up [N]`, `down [N]` (cmd is the command's full name). */
void dbg_frame_command(struct dbg_session *s, const char *cmd, const char *arg);

/* dbg_pass.c: `run`/`continue` at full speed on the device's warps: reports
 * a pending breakpoint hit, else runs a pass (seed 000). Returns an enum
 * stop, or -1 when the pass cannot be used (a watchpoint needs stepping). */
int dbg_pass_run(struct dbg_session *s);
/* Breakpoint conditions at device speed in a pass (dbg_bpcond.c): the
 * table of compiled conditions for s->L's next pass (-1 out of memory),
 * and its end; the pass's filter; and, from dbg_bp_accept while it
 * evaluates b's condition for item at pc (bad: it failed; truth: it
 * held), the compiled form for pc, checked against that result. */
int dbg_bpcond_open(struct dbg_session *s);
void dbg_bpcond_close(struct dbg_session *s);
struct simt_lanes;
uint64_t dbg_bpcond_filter(void *arg, const struct simt_lanes *v, uint32_t pc, uint64_t lanes);
void dbg_bpcond_learn(struct dbg_session *s, const struct bp *b, uint64_t item, uint32_t pc,
                      int bad, int truth);
/* Takes the breakpoint hits of item's warp off the pass's hits still to be
 * reported when item has one: whether item's still stands (it is at an
 * enabled breakpoint whose condition holds), so resuming the item reports
 * it first, with the warp's other hits that stand (L->stop_items).
 * dbg_pass_drop takes item's hit alone off: whether it stood (the item
 * runs on past it). */
int dbg_pass_take(struct dbg_session *s, uint64_t item);
int dbg_pass_drop(struct dbg_session *s, uint64_t item);
/* A step's notes: another item reached a breakpoint at pc and runs on
 * (dbg_pass_note), and the one line per breakpoint that says so at the
 * end of the step (dbg_pass_notes_show). */
void dbg_pass_note(struct dbg_session *s, uint64_t item, uint32_t pc);
void dbg_pass_notes_show(struct dbg_session *s);
/* Reports the failed assertion of the last pass still to be reported when
 * item failed it (UINT64_MAX: any item): ST_ASSERT, else 0. */
int dbg_pass_take_assert(struct dbg_session *s, uint64_t item);
/* `set pass all|in-progress`, `set watchdog MS`, `set scheduler-locking
 * on|off|step`. */
void dbg_pass_set(struct dbg_session *s, const char *arg);

/* dbg_edit.c: `edit LINE TEXT` (0 when the launch now runs the edited
 * program), and letting go of what edits built when the launch ends. Why
 * kernel nk of program np cannot run launch l in place of its kernel (the
 * arguments or program-scope data differ), or NULL when it can. */
int dbg_edit(struct dbg_session *s, const char *arg);
void dbg_edit_end(struct dbg_session *s);
const char *dbg_edit_compatible(const struct dev_launch *l, const struct lsi_program *np,
                                const struct lsi_kernel *nk);

/* dbg_keep.c: edits that outlast their launch. At a launch's start: the
 * launch to run in place of l (*kl, from the edited build) and the text to
 * show (*source) when an earlier edit of l's program is in force, else l.
 * After an edit: the launch runs np, built from source (both taken over),
 * and so do later launches of the program (-1: not taken, the caller keeps
 * them). When the launch ends: it lets go of the build it ran. */
const struct dev_launch *dbg_keep_begin(struct dbg_session *s, const struct dev_launch *l,
                                        const char **source, struct dev_launch *kl);
int dbg_keep_edit(struct dbg_session *s, struct lsi_program *np, char *source);
void dbg_keep_end(struct dbg_session *s);
void dbg_keep_free(struct dbg_session *s);

/* dbg_mi.c: `mi ...` commands and the records of stops and launches. */
/* The `mi` subcommands (rows of the command table): sub is the
 * subcommand word, rest what follows it. dbg_mi_unknown answers a
 * subcommand no row has, naming the ones there are. */
void dbg_mi_switch(struct dbg_session *s, const char *sub, const char *rest);
void dbg_mi_breakpoints(struct dbg_session *s, const char *sub, const char *rest);
void dbg_mi_kernels(struct dbg_session *s, const char *sub, const char *rest);
void dbg_mi_kernel(struct dbg_session *s, const char *sub, const char *rest);
void dbg_mi_threads(struct dbg_session *s, const char *sub, const char *rest);
void dbg_mi_item(struct dbg_session *s, const char *sub, const char *rest);
void dbg_mi_unknown(struct dbg_session *s, const char *names);
void dbg_mi_stop(struct dbg_session *s, const char *reason, int bp_id);
void dbg_mi_launch(struct dbg_session *s);

#endif
