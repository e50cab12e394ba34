/*
 * dbg_launch.c - the launches under the engine (seed 000 on seed 001): each
 * one is a struct dbg_launch, opened when it reaches the device and closed
 * when it ends, and any number may be open at once. dbg_launch_run runs a
 * launch's next stretch on the thread that runs the launch and returns at a
 * stop without waiting for the user; dbg_stopped, on the one thread that
 * talks to the user, shows the stop and reads commands until one resumes a
 * launch. What a stretch prints waits in the launch's buffer until its stop
 * is shown (a pass's printf output goes out at once, after it).
 *
 * It decides when a launch is shown, resumed and ended; it must not run
 * work-items itself (dbg_engine.c does) nor read a terminal.
 */
#define _GNU_SOURCE /* fopencookie */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dbg_int.h"
#include "device/check.h"
#include "device/lsi.h"
#include "device/simt.h"

/* ---- a stop as the user sees it ---- */

/* The global ids of a warp's stop: "work-items (0..31,0,0)" when they fill
 * a box, "work-items (0,0,0), (2,0,0)" for a few, else "16 work-items in
 * (0..31,0,0)" (the box around them). */
static void stop_ids(struct dbg_session *s, char *buf, size_t n) {
  const struct dbg_launch *L = s->L;
  uint64_t lo[3] = {UINT64_MAX, UINT64_MAX, UINT64_MAX}, hi[3] = {0, 0, 0}, g[3];
  for (unsigned i = 0; i < L->nstop; i++) {
    simt_dbg_ids(L->sd, L->stop_items[i], g, NULL, NULL);
    for (int k = 0; k < 3; k++) {
      lo[k] = g[k] < lo[k] ? g[k] : lo[k];
      hi[k] = g[k] > hi[k] ? g[k] : hi[k];
    }
  }
  uint64_t box = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
  size_t o = 0;
  if (box != L->nstop && L->nstop <= 4) {
    o = (size_t)snprintf(buf, n, "work-items ");
    for (unsigned i = 0; i < L->nstop && o < n; i++) {
      simt_dbg_ids(L->sd, L->stop_items[i], g, NULL, NULL);
      o += (size_t)snprintf(buf + o, n - o, "%s(%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")",
                            i ? ", " : "", g[0], g[1], g[2]);
    }
    return;
  }
  o = box == L->nstop ? (size_t)snprintf(buf, n, "work-items (")
                      : (size_t)snprintf(buf, n, "%u work-items in (", L->nstop);
  for (int k = 0; k < 3 && o < n; k++) {
    const char *sep = k < 2 ? "," : ")";
    if (lo[k] == hi[k])
      o += (size_t)snprintf(buf + o, n - o, "%" PRIu64 "%s", lo[k], sep);
    else
      o += (size_t)snprintf(buf + o, n - o, "%" PRIu64 "..%" PRIu64 "%s", lo[k], hi[k], sep);
  }
}

/* A breakpoint stop of several lanes of a warp: "Breakpoint 1, k
 * work-items (0..31,0,0) of group (0,0,0) at f.cl:8", naming the focus when
 * it is not the first of them. */
static void warp_where(struct dbg_session *s, const char *why) {
  char ids[200], focus[96] = "";
  uint64_t g[3], w[3];
  stop_ids(s, ids, sizeof(ids));
  simt_dbg_ids(s->L->sd, s->L->focus, g, NULL, w);
  if (s->L->focus != s->L->stop_items[0])
    snprintf(focus, sizeof(focus), ", focus (%" PRIu64 ",%" PRIu64 ",%" PRIu64 "),", g[0], g[1],
             g[2]);
  uint32_t line = dbg_item_line(s, s->L->focus);
  if (line && dbg_call_stop_now(s)) line = dbg_frame_current(s).line;
  fprintf(s->out, "%s, %s %s of group (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")%s at %s:%u\n", why,
          s->L->k->name, ids, w[0], w[1], w[2], focus, dbg_where_file(s), line);
  dbg_show_line(s, line);
}

/* What a checker's report is called: "data race", "uninitialised value". */
const char *dbg_check_what(unsigned kind) {
  return kind == DEV_CHECK_RACES    ? "data race"
         : kind == DEV_CHECK_UNINIT ? "uninitialised value"
                                    : "checker";
}

/* A checker's report that stopped the launch, and the place. */
static void check_where(struct dbg_session *s) {
  char ids[160];
  dbg_ids_str(s, s->L->focus, ids, sizeof(ids));
  uint32_t line = dbg_item_line(s, s->L->focus);
  fprintf(s->out, "Checker report: %s\n", s->L->exc.message);
  fprintf(s->out, "Stopped by the %s report in kernel %s, %s at %s:%u\n",
          dbg_check_what(s->L->checked), s->L->k->name, ids, dbg_where_file(s), line);
  dbg_show_line(s, line);
}

/* The reports of the launch's checkers, when it finished. */
static void check_summary(struct dbg_session *s) {
  unsigned n = 0;
  const struct simt_check_rec *r = simt_dbg_reports(s->L->sd, &n);
  if (!n) return;
  fprintf(s->out, "Checker reports of kernel %s: %u\n", s->L->k->name, n);
  for (unsigned i = 0; i < n; i++)
    fprintf(s->out, "  %s (%" PRIu64 " time%s)\n", r[i].text, r[i].count,
            r[i].count == 1 ? "" : "s");
}

void dbg_report(struct dbg_session *s, int rc) {
  if (s->machine && rc != ST_NONE && !(rc == ST_DONE && s->L->finished)) {
    uint32_t pc = 0;
    simt_dbg_state(s->L->sd, s->L->focus, &pc);
    struct bp *b = rc == ST_BP ? dbg_bp_at(s, pc) : NULL;
    dbg_mi_stop(s,
                rc == ST_BP || (rc == ST_ENTRY && s->L->entry_bp)     ? "breakpoint"
                : rc == ST_EXC || rc == ST_ASSERT || rc == ST_CHECK   ? "exception"
                : rc == ST_ENTRY                                      ? "entry"
                : rc == ST_PAUSE || rc == ST_TIMEOUT || rc == ST_IDLE ? "pause"
                : rc == ST_WATCH                                      ? "watch"
                                                                      : "step",
                rc == ST_WATCH   ? s->L->whit
                : b              ? b->id
                : rc == ST_ENTRY ? s->L->entry_bp
                                 : 0);
  }
  if (rc == ST_BP) {
    uint32_t pc;
    simt_dbg_state(s->L->sd, s->L->focus, &pc);
    struct bp *b = dbg_bp_at(s, pc);
    if (b && b->cmds[0]) s->bp_cmds = b->id; /* run at the prompt (dbg_cmd.c) */
    if (b && dbg_bp_silent(b)) {
      b->hits++;
      if (b->temp) dbg_bp_delete(s, b->id);
      s->L->fin_on = s->L->fin_have = 0;
      return;
    }
    char why[64];
    snprintf(why, sizeof(why), "%s %d", b && b->temp ? "Temporary breakpoint" : "Breakpoint",
             b                       ? b->id
             : pc <= s->L->k->ninsns ? s->L->bpid[pc]
                                     : 0);
    if (b) b->hits++;
    dbg_bp_call_stop(s);
    if (s->L->nstop > 1)
      warp_where(s, why);
    else
      dbg_where(s, why);
    if (b && b->temp) dbg_bp_delete(s, b->id);
  } else if (rc == ST_WATCH) {
    struct bp *b = NULL;
    for (int i = 0; i < s->nbp; i++)
      if (s->bps[i].id == s->L->whit) b = &s->bps[i];
    fprintf(s->out, "Watchpoint %d: %s\nOld value = %s\nNew value = %s\n", s->L->whit,
            b ? b->watch : "?", s->L->wold, s->L->wnew);
    if (b) b->hits++;
    dbg_where(s, NULL);
  } else if (rc == ST_ASSERT) {
    dbg_where(s, s->L->exc.message);
  } else if (rc == ST_CHECK) {
    check_where(s);
  } else if (rc == ST_PAUSE) {
    dbg_where(s, "Interrupted");
    dbg_items_summary(s); /* one line, however many work-items there are */
  } else if (rc == ST_TIMEOUT) {
    dbg_where(s, "Stopped by the watchdog");
    dbg_items_summary(s);
  } else if (rc == ST_ENTRY && s->L->entry_bp) { /* break KERNEL */
    char why[64];
    snprintf(why, sizeof(why), "%s %d", s->L->entry_temp ? "Temporary breakpoint" : "Breakpoint",
             s->L->entry_bp);
    s->L->entry_bp = 0;
    dbg_where(s, why);
  } else if (rc == ST_STEP || rc == ST_ENTRY) {
    dbg_where(s, rc == ST_ENTRY ? "Kernel entry" : NULL);
    if (rc == ST_STEP) dbg_finish_report(s);
  } else if (rc == ST_EXC) {
    char ids[160];
    dbg_ids_str(s, s->L->focus, ids, sizeof(ids));
    uint32_t line = dbg_item_line(s, s->L->focus);
    fprintf(s->out, "Stopped by the exception in %s at %s:%u\n", ids, dbg_where_file(s), line);
    dbg_show_line(s, line);
  } else if (rc == ST_DONE) {
    if (simt_dbg_state(s->L->sd, s->L->focus, NULL) == SIMT_DBG_DONE && s->L->finished) {
      fprintf(s->out, "Kernel %s finished.\n", s->L->k->name);
      check_summary(s);
    } else {
      dbg_where(s, NULL);
    }
  }
  if (rc != ST_NONE && rc != ST_IDLE && !(rc == ST_DONE && s->L->finished)) dbg_display_show(s);
  s->L->fin_on = s->L->fin_have = 0; /* a finish's value is its own stop's */
}

/* ---- a launch's life ---- */

/* The program's text, line by line (s->L->lines). */
static void split_lines(struct dbg_session *s, const char *src) {
  s->L->nlines = 0;
  s->L->lines = NULL;
  if (!src) return;
  uint32_t cap = 0;
  for (const char *p = src; *p;) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (s->L->nlines == cap)
      s->L->lines = realloc(s->L->lines, (cap = cap * 2 + 64) * sizeof(char *));
    s->L->lines[s->L->nlines] = malloc(n + 1);
    memcpy(s->L->lines[s->L->nlines], p, n);
    s->L->lines[s->L->nlines][n] = 0;
    s->L->nlines++;
    p = e ? e + 1 : p + n;
  }
}

/* Remembers the name of a program's file (or kernel) a launch came from. */
static void note_file(struct dbg_session *s, const char *name) {
  for (int i = 0; i < s->nfiles; i++)
    if (!strcmp(s->files[i], name)) return;
  if (s->nfiles < MAX_FILES) s->files[s->nfiles++] = strdup(name);
}

void dbg_note_file(struct dbg_session *s, const char *file) {
  dbg_lock(s, NULL);
  note_file(s, file);
  dbg_unlock(s);
}

int dbg_setup(struct dbg_session *s, struct dev_device *d, const char *source, char *why,
              size_t whylen) {
  struct dbg_launch *L = s->L;
  char err[160];
  /* an earlier edit of the program stays in force */
  const struct dev_launch *l = dbg_keep_begin(s, &L->given, &source, &L->kept);
  if (!l->kernel->debug) {
    snprintf(why, whylen, "kernel %s has no debug tables; build the program with -g",
             l->kernel->name);
    dbg_keep_end(s);
    return -1;
  }
  L->sd = simt_dbg_open(d, l, err, sizeof(err));
  if (!L->sd) {
    snprintf(why, whylen, "cannot debug the launch: %s", err);
    dbg_keep_end(s);
    return -1;
  }
  /* `set check`: the session's checkers, else the device's */
  simt_dbg_set_check(L->sd, s->check >= 0 ? (unsigned)s->check : simt_dbg_check(L->sd),
                     s->check_stops);
  L->k = l->kernel;
  L->dbg = l->kernel->debug;
  L->l = l;
  L->file = L->fname ? L->fname : L->k->name;
  split_lines(s, source);
  dbg_stop_sets(s);
  note_file(s, L->file);
  /* a program named after its first kernel: breakpoints may name any of them */
  const struct lsi_program *lp = l->prog;
  if (dbg_named_after_kernels(s))
    for (uint32_t k = 1; k < lp->nkernels; k++)
      note_file(s, lp->kernels[k].name);
  return 0;
}

void dbg_teardown(struct dbg_session *s) {
  struct dbg_launch *L = s->L;
  if (L->sd) {
    dbg_watch_gc(s, 1);
    simt_dbg_close(L->sd);
    L->sd = NULL;
    dbg_edit_end(s);
  }
  for (uint32_t i = 0; i < L->nlines; i++)
    free(L->lines[i]);
  free(L->lines);
  L->lines = NULL;
  L->nlines = 0;
  free(L->stepset);
  free(L->watchset);
  free(L->bpset);
  free(L->bpid);
  free(L->bpline);
  free(L->catchset);
  free(L->inl_entry);
  free(L->pending);
  L->pending = NULL;
  L->npending = 0;
  L->stepset = L->watchset = L->bpset = L->catchset = NULL;
  L->bpid = NULL;
  L->bpline = NULL;
  L->inl_entry = NULL;
}

/* Shows what L's stretches printed so far on the front end's stream and
 * empties L's buffer. Under the lock. */
static void drain(struct dbg_session *s, struct dbg_launch *L) {
  if (!L->out) return;
  fflush(L->out);
  if (L->olen) {
    fwrite(L->obuf, 1, L->olen, s->user_out);
    fflush(s->user_out);
  }
  fseeko(L->out, 0, SEEK_SET); /* the next flush sets olen to what follows */
}

/* A pass's printf output (written from the device's workers, or by the
 * launch's thread after the pass, neither holding the lock): out at once,
 * after what the launch printed before. */
static ssize_t pass_text(void *cookie, const char *buf, size_t n) {
  struct dbg_launch *L = cookie;
  struct dbg_session *s = L->s;
  dbg_lock(s, L);
  drain(s, L);
  fwrite(buf, 1, n, s->user_out);
  fflush(s->user_out);
  dbg_unlock(s);
  return (ssize_t)n;
}

static void free_launch(struct dbg_launch *L) {
  if (L->out) fclose(L->out);
  free(L->obuf);
  if (L->pout) fclose(L->pout);
  free(L->argbuf);
  free(L->source);
  free(L->fname);
  free(L->options);
  free(L);
}

/* A launch with copies of what it was given, and its buffers. */
static struct dbg_launch *new_launch(struct dbg_session *s, const struct dev_launch *l,
                                     const char *source, const char *file, const char *options,
                                     unsigned queue) {
  struct dbg_launch *L = calloc(1, sizeof(*L));
  if (!L) return NULL;
  L->s = s;
  L->queue = queue;
  L->given = *l;
  size_t an = l->kernel->argbuf_size;
  L->argbuf = malloc(an ? an : 1);
  if (L->argbuf && an && l->argbuf) memcpy(L->argbuf, l->argbuf, an);
  L->given.argbuf = L->argbuf;
  L->source = source ? strdup(source) : NULL;
  L->fname = file ? strdup(file) : NULL;
  L->options = options ? strdup(options) : NULL;
  L->out = open_memstream(&L->obuf, &L->olen);
  cookie_io_functions_t io = {.write = pass_text};
  L->pout = fopencookie(L, "w", io);
  if (L->pout) setvbuf(L->pout, NULL, _IONBF, 0);
  if (!L->argbuf || (source && !L->source) || (file && !L->fname) || (options && !L->options) ||
      !L->out || !L->pout) {
    free_launch(L);
    return NULL;
  }
  return L;
}

struct dbg_launch *dbg_launch_open(struct dbg_session *s, struct dev_device *d,
                                   const struct dev_launch *l, const char *source, const char *file,
                                   const char *options, unsigned queue, char *why, size_t whylen) {
  char spare[8];
  if (!why || !whylen) why = spare, whylen = sizeof(spare);
  why[0] = 0;
  struct dbg_launch *L = new_launch(s, l, source, file, options, queue);
  if (!L) {
    snprintf(why, whylen, "out of memory for the debugger's launch");
    return NULL;
  }
  dbg_lock(s, L);
  if (dbg_setup(s, d, L->source, why, whylen)) {
    drain(s, L); /* notes made on the way */
    dbg_teardown(s);
    dbg_unlock(s);
    free_launch(L);
    return NULL;
  }
  L->num = ++s->nlaunches;
  struct dbg_launch **p = &s->launches;
  while (*p)
    p = &(*p)->next;
  *p = L;
  dbg_unlock(s);
  return L;
}

void dbg_launch_set_user(struct dbg_launch *L, void *user) {
  L->user = user;
}

void *dbg_launch_user(const struct dbg_launch *L) {
  return L->user;
}

static int any_stopped(struct dbg_session *s) {
  for (struct dbg_launch *L = s->launches; L; L = L->next)
    if (L->state == LS_STOPPED) return 1;
  return 0;
}

/* Names L's stop for `info kernels` (s->L is L, just stopped). */
static void note_reason(struct dbg_session *s, struct dbg_launch *L, int rc) {
  uint32_t pc = 0;
  simt_dbg_state(L->sd, L->focus, &pc);
  int id = rc == ST_BP && pc <= L->k->ninsns ? L->bpid[pc]
           : rc == ST_WATCH                  ? L->whit
           : rc == ST_ENTRY                  ? L->entry_bp
                                             : 0;
  const char *what = rc == ST_BP || (rc == ST_ENTRY && id) ? "breakpoint"
                     : rc == ST_WATCH                      ? "watchpoint"
                     : rc == ST_ENTRY                      ? "kernel entry"
                     : rc == ST_EXC                        ? "device exception"
                     : rc == ST_ASSERT                     ? "failed assertion"
                     : rc == ST_CHECK                      ? dbg_check_what(L->checked)
                     : rc == ST_PAUSE                      ? "interrupted"
                     : rc == ST_TIMEOUT                    ? "watchdog"
                     : rc == ST_IDLE                       ? "nothing left to run"
                     : rc == ST_LAUNCH                     ? "launch"
                                                           : "step";
  if (id)
    snprintf(L->why, sizeof(L->why), "%s %d", what, id);
  else
    snprintf(L->why, sizeof(L->why), "%s", what);
}

/* dbg_launch_run under the lock. */
static int run_locked(struct dbg_session *s, struct dbg_launch *L) {
  if (L->state == LS_ENDED || L->act == 'x') return DBG_RUN_ENDED;
  int rc = ST_NONE;
  if (!s->quit) {
    dbg_rebind(s); /* breakpoints changed while it ran or waited */
    if (!L->started)
      rc = dbg_first_stretch(s);
    else if (L->act == 'g')
      rc = dbg_start_stretch(s);
    else
      rc = dbg_stretch(s, L->act);
    L->act = 0;
  }
  if (s->quit) { /* the user quit (maybe while it ran): host mode finishes it undebugged */
    if (s->host_mode) dbg_finish_undebugged(s);
    return DBG_RUN_ENDED;
  }
  L->rc = rc;
  note_reason(s, L, rc);
  if (rc == ST_DONE && dbg_all_done(s)) {
    L->finished = 1;
    L->act = 'x'; /* its end is shown, then it ends */
    snprintf(L->why, sizeof(L->why), "finished");
    /* host mode: a launch that never stopped ends without a word; but one
     * a command resumed (from its launch record) hands the prompt back to
     * the launches still stopped */
    if (s->host_mode && !L->stopped) {
      if (!L->prompted || !any_stopped(s)) {
        check_summary(s); /* its checkers' reports still show */
        return DBG_RUN_ENDED;
      }
      L->rc = ST_NONE;
    }
  }
  return DBG_RUN_STOPPED;
}

int dbg_launch_run(struct dbg_launch *L) {
  struct dbg_session *s = L->s;
  dbg_lock(s, L);
  int r = DBG_RUN_STOPPED;
  if (L->state != LS_PENDING && L->state != LS_STOPPED) { /* else not resumed yet */
    r = run_locked(s, L);
    L->state = r == DBG_RUN_ENDED ? LS_ENDED : LS_PENDING;
    if (r == DBG_RUN_ENDED) drain(s, L);
  }
  dbg_unlock(s);
  return r;
}

int dbg_launch_close(struct dbg_launch *L, struct dev_exception *exc) {
  if (!L) return 0;
  struct dbg_session *s = L->s;
  dbg_lock(s, L);
  dbg_teardown(s);
  drain(s, L);
  int ret = 0;
  if (L->have_exc) {
    if (exc) *exc = L->exc;
    ret = -5;
  }
  for (struct dbg_launch **p = &s->launches; *p; p = &(*p)->next)
    if (*p == L) {
      *p = L->next;
      break;
    }
  if (s->current == L) s->current = NULL;
  s->L = NULL;
  dbg_unlock(s);
  free_launch(L);
  return ret;
}

/* Calls resume for the n launches of T (already marked running), without
 * the lock: a launch may run, and end, at once. */
static void call_resume(struct dbg_session *s, dbg_resume_fn resume, void *ctx,
                        struct dbg_launch **T, unsigned n) {
  struct dbg_hold h;
  dbg_release(s, &h);
  for (unsigned i = 0; i < n; i++)
    if (resume) resume(ctx, T[i]);
  dbg_reacquire(s, &h);
}

/* Shows L's stop (what its stretch printed first) and makes it the focus;
 * a launch whose end this shows is resumed at once, to end. */
static void show_stop(struct dbg_session *s, struct dbg_launch *L, dbg_resume_fn resume,
                      void *ctx) {
  s->L = s->current = L;
  drain(s, L);
  if (L->rc != ST_LAUNCH && !L->no_move)
    dbg_report(s, L->rc); /* a step that ran nothing said why */
  L->no_move = 0;
  dbg_rebind(s);
  if (L->act == 'x') {
    L->state = LS_RUNNING;
    call_resume(s, resume, ctx, &L, 1);
    return;
  }
  if (L->rc != ST_LAUNCH) L->stopped = 1;
  L->state = LS_STOPPED;
}

/* The stopped launches: each one whose state is `state` into *T (malloc'd),
 * marked running. */
static unsigned take_stopped(struct dbg_session *s, int both, struct dbg_launch ***T) {
  unsigned n = 0;
  for (struct dbg_launch *L = s->launches; L; L = L->next)
    n += L->state == LS_STOPPED || (both && L->state == LS_PENDING);
  *T = malloc((n ? n : 1) * sizeof(**T));
  if (!*T) return 0;
  n = 0;
  for (struct dbg_launch *L = s->launches; L; L = L->next)
    if (L->state == LS_STOPPED || (both && L->state == LS_PENDING)) {
      L->state = LS_RUNNING;
      (*T)[n++] = L;
    }
  return n;
}

/* What the next stretch of T does for a resume of kind: 1 when it runs on,
 * 0 when it ends at once. */
static int set_action(struct dbg_session *s, struct dbg_launch *T, int kind) {
  T->prompted = 1;
  T->state = LS_RUNNING;
  if (T->rc == ST_LAUNCH) { /* its launch record: `step` stops at entry */
    T->act = 'g';
    if (kind == 's') T->entry = 1;
  } else if (T->have_exc) {
    fprintf(s->out, "The launch stopped on a device exception and cannot continue.\n");
    T->act = 'x';
    return 0;
  } else if (kind == 'k') { /* `kill`: it ends without running on */
    T->act = 'x';
    return 0;
  } else {
    T->act = kind == 'C' ? 'c' : kind;
  }
  return 1;
}

/* A command resumed: the focused launch, or every stopped one. Returns how
 * many run on (each one shows a stop or its end later, which brings the
 * prompt back). */
static unsigned resume_cmd(struct dbg_session *s, int kind, dbg_resume_fn resume, void *ctx) {
  struct dbg_launch **T = NULL, *one = s->current;
  unsigned n = 1;
  if (kind == 'C') {
    n = take_stopped(s, 0, &T);
  } else {
    T = &one;
  }
  unsigned on = 0;
  for (unsigned i = 0; i < n; i++)
    on += (unsigned)set_action(s, T[i], kind);
  call_resume(s, resume, ctx, T, n);
  if (T != &one) free(T);
  return on;
}

/* The user quit: every launch still stopped runs to its end (undebugged in
 * host mode). */
static int quit_all(struct dbg_session *s, dbg_resume_fn resume, void *ctx) {
  struct dbg_launch **T;
  unsigned n = take_stopped(s, 1, &T);
  call_resume(s, resume, ctx, T, n);
  free(T);
  return 1;
}

/* Reads commands for the focused launch (or, when it runs or ended,
 * another stopped one) until one resumes; 0 at once when none is stopped. */
static int prompt(struct dbg_session *s, dbg_resume_fn resume, void *ctx) {
  for (;;) {
    if (s->quit) return quit_all(s, resume, ctx);
    struct dbg_launch *P = s->current && s->current->state == LS_STOPPED ? s->current : NULL;
    for (struct dbg_launch *L = s->launches; L && !P; L = L->next)
      if (L->state == LS_STOPPED) P = L;
    if (!P) return 0;
    s->L = P;
    if (P != s->current) {
      s->current = P;
      fprintf(s->out, "[Switching to kernel %u (%s, queue %u)]\n", P->num, P->k->name, P->queue);
      dbg_rebind(s);
      dbg_where(s, NULL);
    }
    int kind = 0;
    dbg_read_cmd(s, &kind);
    if (s->quit) continue;
    if (resume_cmd(s, kind, resume, ctx)) return 0;
    /* what it resumed ends at once: the prompt goes on for the others */
  }
}

/* Whether L is one of the session's open launches (compared, never read:
 * a stop handed over late may name a launch closed since). */
static int is_open(struct dbg_session *s, const struct dbg_launch *L) {
  for (struct dbg_launch *o = s->launches; o; o = o->next)
    if (o == L) return 1;
  return 0;
}

int dbg_stopped(struct dbg_session *s, struct dbg_launch *L, dbg_resume_fn resume, void *ctx) {
  dbg_lock(s, NULL);
  int quit = 0;
  if (s->quit) {
    quit = quit_all(s, resume, ctx);
  } else if (is_open(s, L) && L->state == LS_PENDING) {
    show_stop(s, L, resume, ctx);
    quit = prompt(s, resume, ctx);
  }
  /* else its stop was shown already (`kernel N`), and a launch resumed
   * since brings the prompt back when it stops or ends; or it was resumed
   * and closed before its stop was handed over */
  dbg_unlock(s);
  return quit;
}

/* ---- several launches: `info kernels`, `kernel N` ---- */

struct dbg_launch *dbg_launch_find(struct dbg_session *s, unsigned long num) {
  for (struct dbg_launch *L = s->launches; L; L = L->next)
    if (L->num == num) return L;
  return NULL;
}

const char *dbg_launch_state(const struct dbg_launch *L) {
  if (L->state == LS_ENDED || L->act == 'x') return "finished";
  return L->state == LS_RUNNING ? "running" : "stopped";
}

uint32_t dbg_launch_line(struct dbg_session *s, struct dbg_launch *L) {
  if (L->state != LS_PENDING && L->state != LS_STOPPED) return 0;
  struct dbg_launch *save = s->L;
  s->L = L;
  uint32_t line = dbg_item_line(s, L->focus);
  s->L = save;
  return line;
}

/* Where a stopped launch is, as `info kernels` shows it. */
static void state_text(struct dbg_session *s, struct dbg_launch *L, char *buf, size_t n) {
  const char *st = dbg_launch_state(L);
  if (strcmp(st, "stopped")) {
    snprintf(buf, n, "%s%s", st, L->have_exc ? " (device exception)" : "");
    return;
  }
  uint32_t line = L->rc == ST_LAUNCH ? 0 : dbg_launch_line(s, L);
  struct dbg_launch *save = s->L;
  s->L = L;
  if (line)
    snprintf(buf, n, "stopped at %s:%u (%s)", dbg_where_file(s), line, L->why);
  else if (L->rc == ST_LAUNCH)
    snprintf(buf, n, "stopped at its start (%s)", L->why);
  else
    snprintf(buf, n, "stopped (%s), work-item %" PRIu64 " finished", L->why, L->focus);
  s->L = save;
}

void dbg_kernels_info(struct dbg_session *s) {
  if (!s->launches) {
    fprintf(s->out, "No kernels.\n");
    return;
  }
  int w = 6;
  for (struct dbg_launch *L = s->launches; L; L = L->next)
    if ((int)strlen(L->k->name) > w) w = (int)strlen(L->k->name);
  fprintf(s->out, "  %-4s %-*s %-5s %s\n", "Num", w, "Kernel", "Queue", "State");
  for (struct dbg_launch *L = s->launches; L; L = L->next) {
    char st[256];
    state_text(s, L, st, sizeof(st));
    fprintf(s->out, "%c %-4u %-*s %-5u %s\n", L == s->current ? '*' : ' ', L->num, w, L->k->name,
            L->queue, st);
  }
}

const char *dbg_launch_select(struct dbg_session *s, struct dbg_launch *L) {
  const char *st = dbg_launch_state(L);
  if (!strcmp(st, "finished")) return "has finished";
  if (!strcmp(st, "running")) return "is running; only a stopped one can be selected";
  if (L->state == LS_PENDING) return "stopped; its stop is shown next";
  s->L = s->current = L;
  dbg_rebind(s);
  return NULL;
}

void dbg_kernel_cmd(struct dbg_session *s, const char *arg) {
  struct dbg_launch *C = s->current;
  if (!*arg) {
    if (C && C->state == LS_STOPPED)
      fprintf(s->out, "[Current kernel is %u (%s, queue %u)]\n", C->num, C->k->name, C->queue);
    else
      fprintf(s->out, "No kernel is stopped.\n");
    return;
  }
  char *end;
  unsigned long n = strtoul(arg, &end, 10);
  if (end == arg || *end || *arg == '-') {
    fprintf(s->out, "usage: kernel N (a launch's number, as 'info kernels' shows it)\n");
    return;
  }
  struct dbg_launch *L = dbg_launch_find(s, n);
  if (!L) {
    fprintf(s->out, "No kernel %lu; 'info kernels' lists the launches.\n", n);
    return;
  }
  if (strcmp(dbg_launch_state(L), "stopped")) {
    fprintf(s->out, "Kernel %lu (%s) %s.\n", n, L->k->name, dbg_launch_select(s, L));
    return;
  }
  fprintf(s->out, "[Switching to kernel %u (%s, queue %u)]\n", L->num, L->k->name, L->queue);
  if (L->state == LS_PENDING) { /* its stop was not shown yet: it is now */
    show_stop(s, L, NULL, NULL);
    return;
  }
  dbg_launch_select(s, L);
  dbg_where(s, NULL);
}

/* dbg_launch runs its launch again itself after each resume. */
static void resume_here(void *ctx, struct dbg_launch *L) {
  (void)ctx;
  (void)L;
}

int dbg_launch(struct dbg_session *s, struct dev_device *d, const struct dev_launch *l,
               const char *source, const char *file, struct dev_exception *exc, int *quit) {
  char why[256];
  *quit = 0;
  dbg_lock(s, NULL);
  char *options = s->options ? strdup(s->options) : NULL;
  dbg_unlock(s);
  struct dbg_launch *L = dbg_launch_open(s, d, l, source, file, options, 0, why, sizeof(why));
  free(options);
  if (!L) {
    dbg_lock(s, NULL);
    fprintf(s->out, "%s\n", why);
    dbg_unlock(s);
    return 1;
  }
  while (dbg_launch_run(L) == DBG_RUN_STOPPED)
    dbg_stopped(s, L, resume_here, NULL);
  dbg_lock(s, NULL);
  int killed = L->killed;
  dbg_unlock(s);
  int rc = dbg_launch_close(L, exc);
  if (killed && !rc) rc = 1; /* no result to show */
  dbg_lock(s, NULL);
  *quit = s->quit;
  dbg_unlock(s);
  return rc;
}
