/*
 * dbg_bp.c - breakpoints and watchpoints: where a breakpoint binds in a
 * launch's kernel (a line's first statement, a loop's line once, an
 * inlined function's calls), `break`/`tbreak`/`delete`/`enable`/`disable`
 * and their list, whether a breakpoint's condition holds for a work-item,
 * and the watched values of a launch's work-items.
 *
 * The breakpoints belong to the session and bind to each launch (s->L)
 * when it runs a stretch; it must not run work-items (dbg_step.c does).
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

/* ---- breakpoints ---- */

/* A statement that only branches, yields or reconverges. */
int dbg_mk_flow_only(struct dbg_session *s, const struct cc_microkernel *mk) {
  for (uint32_t pc = mk->pc_begin; pc < mk->pc_end; pc++) {
    unsigned op = s->L->k->code[pc].op;
    if (op != LSI_BRA && op != LSI_SYNC && op != LSI_SSY && op != LSI_YIELD) return 0;
  }
  return 1;
}

/* Whether a breakpoint at line binds to mk (dbg_bind.c). */
int dbg_mk_at_line(struct dbg_session *s, const struct cc_microkernel *mk, uint32_t line) {
  return dbg_kmk_at_line(s->L->k, mk, line);
}

/* Whether breakpoint b names the program of the launch: its file, or, for
 * a program no file matched (named after its first kernel), any kernel of
 * the program, so `break count:20` works whichever kernel comes first. */
int dbg_bp_file_match(struct dbg_session *s, const struct bp *b) {
  if (!b->file[0] || !strcmp(dbg_base(b->file), dbg_base(s->L->file))) return 1;
  if (!dbg_named_after_kernels(s)) return 0;
  const struct lsi_program *p = s->L->l->prog;
  for (uint32_t k = 0; k < p->nkernels; k++)
    if (!strcmp(b->file, p->kernels[k].name)) return 1;
  return 0;
}

/* The line breakpoint b binds to in the launch's program (dbg_bind.c:
 * its own, the statement it continues, the next with code), if this
 * kernel has a statement there; else 0. */
uint32_t dbg_bp_line(struct dbg_session *s, const struct bp *b) {
  if (!s->L || !s->L->k || !b->line || !dbg_bp_file_match(s, b)) return 0;
  uint32_t at;
  const struct lsi_program *p = s->L->l ? s->L->l->prog : NULL;
  int how = dbg_line_resolve(p, s->L->k, b->line, s->L->nlines, &at);
  if (how == DBG_LINE_PAST || how == DBG_LINE_NONE) return 0;
  const struct cc_debug *d = s->L->dbg;
  for (uint32_t m = 0; m < d->nmk; m++)
    if (dbg_mk_at_line(s, &d->mk[m], at)) return at;
  return 0;
}

/* Whether statement m is reached only from statements of the same line
 * that do work (`if (c) x = 0;`: the assignment after the test): a
 * breakpoint at the line stops where the line starts, once. */
static int mk_continues_line(struct dbg_session *s, uint32_t m, uint32_t line) {
  int preds = 0;
  for (uint32_t q = 0; q < s->L->dbg->nmk; q++) {
    const struct cc_microkernel *o = &s->L->dbg->mk[q];
    int to_m = 0;
    for (uint32_t j = 0; j < o->nsucc; j++)
      to_m |= o->succ[j] == m;
    /* a switch keeps only some of its successors: it may lead to m */
    if (!to_m && o->more_succ && !dbg_mk_at_line(s, o, line)) return 0;
    if (!to_m) continue;
    /* a branch or reconvergence point (a loop's exit) does not start the line */
    if (!dbg_mk_at_line(s, o, line) || dbg_mk_flow_only(s, o)) return 0;
    preds++;
  }
  return preds > 0;
}

/* Where each inlined call of the launch's kernel starts (call_entry): the
 * first statement of its own (its arguments are passed by then), else, for
 * a call that is all inside one statement of its caller, the statement its
 * first instruction is in; UINT32_MAX when it has no code. */
void dbg_call_entries(struct dbg_session *s) {
  uint32_t n = s->L->dbg->ninl;
  const uint32_t *inl = s->L->dbg->pc_inl;
  free(s->L->inl_entry);
  s->L->inl_entry = malloc((n ? n : 1) * sizeof(uint32_t));
  uint8_t *seen = calloc(n ? n : 1, 1);
  for (uint32_t i = 0; s->L->inl_entry && i < n; i++)
    s->L->inl_entry[i] = UINT32_MAX;
  for (uint32_t m = 0; s->L->inl_entry && inl && m < s->L->dbg->nmk; m++) {
    uint32_t pc = s->L->dbg->mk[m].pc_begin;
    if (pc < s->L->k->ninsns && inl[pc] && inl[pc] <= n && pc < s->L->inl_entry[inl[pc] - 1])
      s->L->inl_entry[inl[pc] - 1] = pc;
  }
  for (uint32_t pc = 0; s->L->inl_entry && seen && inl && pc < s->L->k->ninsns; pc++) {
    uint32_t c = inl[pc];
    if (!c || c > n || seen[c - 1]) continue;
    seen[c - 1] = 1;
    if (s->L->inl_entry[c - 1] == UINT32_MAX) {
      const struct cc_microkernel *m = dbg_mk_at(s, pc);
      s->L->inl_entry[c - 1] = m ? m->pc_begin : UINT32_MAX;
    }
  }
  free(seen);
}

/* Where inlined call idx starts (dbg_call_entries). */
uint32_t dbg_call_entry(struct dbg_session *s, uint32_t idx) {
  return s->L->inl_entry && idx < s->L->dbg->ninl ? s->L->inl_entry[idx] : UINT32_MAX;
}

/* The program breakpoint b names, if one is known now: the stopped
 * launch's when b names its file, else the session's (dbg_set_program). */
static const struct lsi_program *bp_program(struct dbg_session *s, const struct bp *b,
                                            const char **file, uint32_t *nlines) {
  if (s->L && s->L->k && s->L->l && s->L->l->prog && (!b->line || dbg_bp_file_match(s, b))) {
    *file = dbg_base(s->L->file);
    *nlines = s->L->nlines;
    return s->L->l->prog;
  }
  if (!s->kprog || s->host_mode) return NULL;
  *file = dbg_base(s->kfile);
  *nlines = s->knlines;
  return s->kprog;
}

/* Checks b against the program p (dbg_bp_check): negative when p refuses
 * it (-2: p lacks its function), msg saying why; else notes where it
 * binds. */
static int bp_check(struct bp *b, const struct lsi_program *p, const char *file, uint32_t nlines,
                    char *msg, size_t n) {
  uint32_t at;
  int how = dbg_bp_check(p, file, nlines, b->line, b->kernel, b->cond, &at, msg, n);
  if (how < 0) return how;
  b->checked = 1;
  b->at = b->line ? at : 0;
  snprintf(b->note, sizeof(b->note), "%.*s", (int)sizeof(b->note) - 1,
           how == DBG_LINE_EXACT ? "" : msg);
  return how;
}

/* Removes breakpoint i (no rebinding: the caller binds). */
static void bp_remove(struct dbg_session *s, int i) {
  memmove(&s->bps[i], &s->bps[i + 1], (size_t)(s->nbp - i - 1) * sizeof(struct bp));
  s->nbp--;
}

/* The launch's program is known now: breakpoints set before it (host
 * mode) are checked against it once, and said so of when it refuses them
 * or moves them to another line, not at their first hit. */
static void bp_check_launch(struct dbg_session *s) {
  const struct lsi_program *p = s->L->l ? s->L->l->prog : NULL;
  for (int i = 0; p && i < s->nbp; i++) {
    struct bp *b = &s->bps[i];
    if (b->checked || b->watch[0] || (b->line && !dbg_bp_file_match(s, b))) continue;
    char msg[200];
    const char *file = dbg_base(s->L->file);
    int how = bp_check(b, p, file, s->L->nlines, msg, sizeof(msg));
    if (how == -2) { /* a later program of the host may have the function */
      if (!b->elsewhere)
        fprintf(s->out,
                "Breakpoint %d: function \"%s\" is not in this program; it stays pending for "
                "the next.\n",
                b->id, b->kernel);
      b->elsewhere = 1;
      continue;
    }
    if (how < 0) {
      fprintf(s->out, "Breakpoint %d deleted: %s\n", b->id, msg);
      bp_remove(s, i--);
      continue;
    }
    if (b->note[0]) fprintf(s->out, "Breakpoint %d at %s:%u (%s)\n", b->id, file, b->at, b->note);
  }
}

/* Where a breakpoint is, as `break` and `info breakpoints` say it: the
 * line it binds to when its program is known. */
static void bp_where(struct dbg_session *s, const struct bp *b) {
  if (b->line)
    fprintf(s->out, "%s%s%u", b->file[0] ? b->file : "line ", b->file[0] ? ":" : "",
            b->checked && b->at ? b->at : b->line);
  else
    fprintf(s->out, "kernel %s", b->kernel);
  if (b->cond[0]) fprintf(s->out, " if %s", b->cond);
  if (b->note[0]) fprintf(s->out, " (%s)", b->note);
}

/* Notes b as the breakpoint of the statement starting at pc, unless an
 * earlier one is. */
static void bp_note(struct dbg_session *s, uint32_t pc, const struct bp *b, uint32_t line) {
  if (s->L->bpid[pc]) return;
  s->L->bpid[pc] = b->id;
  s->L->bpline[pc] = line;
}

/* Where the breakpoints stop (bpset), and which breakpoint each statement
 * start belongs to (bpid: the first enabled one, in order, at its function
 * call's start or its line), so a hit looks it up instead of binding again. */
void dbg_bp_bind(struct dbg_session *s) {
  if (!s->L || !s->L->k) return;
  bp_check_launch(s);
  s->L->bp_gen = s->bp_gen;
  memset(s->L->bpset, 0, s->L->k->ninsns + 1);
  memset(s->L->bpid, 0, (s->L->k->ninsns + 1) * sizeof(s->L->bpid[0]));
  memset(s->L->bpline, 0, (s->L->k->ninsns + 1) * sizeof(s->L->bpline[0]));
  for (int i = 0; i < s->nbp; i++) {
    struct bp *b = &s->bps[i];
    /* a function inlined into the kernel: where each of its calls starts */
    for (uint32_t idx = 0; b->enabled && !b->line && idx < s->L->dbg->ninl; idx++) {
      if (strcmp(s->L->dbg->inl[idx].func, b->kernel)) continue;
      uint32_t pc = dbg_call_entry(s, idx);
      if (pc == UINT32_MAX) continue;
      s->L->bpset[pc] = 1;
      b->bound = 1;
      const struct cc_microkernel *m = dbg_mk_at(s, pc);
      if (m && m->pc_begin == pc) bp_note(s, pc, b, 0);
    }
    if (!b->enabled || !b->line || !dbg_bp_file_match(s, b)) continue;
    b->bound = 1;
    uint32_t best = dbg_bp_line(s, b);
    if (!best) continue;
    for (uint32_t pc = 0; pc <= s->L->k->ninsns; pc++) {
      const struct cc_microkernel *m = dbg_mk_at(s, pc);
      if (m && m->pc_begin == pc && dbg_mk_at_line(s, m, best)) bp_note(s, pc, b, best);
    }
    /* a loop's own line (for/while) stops once, as the loop starts; a while
     * loop's body ends with the branch back (a latch) and still stops */
    int has_init = 0, has_cond = 0, has_work = 0;
    for (uint32_t q = 0; q < s->L->dbg->nmk; q++) {
      const struct cc_microkernel *mk = &s->L->dbg->mk[q];
      if (!dbg_mk_at_line(s, mk, best)) continue;
      has_init |= mk->role == CC_MK_LOOP_INIT;
      has_cond |= mk->role == CC_MK_LOOP_COND;
      has_work |= mk->role != CC_MK_LOOP_COND && !dbg_mk_flow_only(s, mk);
    }
    for (uint32_t m = 0; m < s->L->dbg->nmk; m++) {
      const struct cc_microkernel *mk = &s->L->dbg->mk[m];
      if (!dbg_mk_at_line(s, mk, best)) continue;
      if (mk->role == CC_MK_LOOP_COND) continue;
      if (mk->role == CC_MK_LOOP_INC && (has_cond || has_init)) continue;
      if (mk->role == CC_MK_LOOP_BODY && has_init) continue;
      /* a loop's yield point on the line of its first statement: the
       * statement stops, once per iteration */
      if (has_work && dbg_mk_flow_only(s, mk)) continue;
      if (mk_continues_line(s, m, best)) continue;
      s->L->bpset[mk->pc_begin] = 1;
    }
  }
}

/* The breakpoint a statement starting at pc belongs to (bp_bind noted it). */
struct bp *dbg_bp_at(struct dbg_session *s, uint32_t pc) {
  int id = s->L->bpid && s->L->k && pc <= s->L->k->ninsns ? s->L->bpid[pc] : 0;
  /* a pass that ran while they changed binds them at its next poll
   * (dbg_pass.c): a breakpoint deleted or disabled since stops nothing */
  for (int i = 0; id && i < s->nbp; i++)
    if (s->bps[i].id == id) return s->bps[i].enabled ? &s->bps[i] : NULL;
  return NULL;
}

/* A breakpoint at a call's line stops where the call starts, inside it
 * (its arguments pass there): the stop is shown at the call's line, in the
 * frame that makes the call, as a step that stops at a call (`step` then
 * enters it, `next` runs over it), never at the callee's signature. */
void dbg_bp_call_stop(struct dbg_session *s) {
  uint32_t pc = 0;
  if (simt_dbg_state(s->L->sd, s->L->focus, &pc) == SIMT_DBG_DONE || pc > s->L->k->ninsns) return;
  uint32_t line = s->L->bpline[pc];
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int n = line ? dbg_frames(s, s->L->focus, fr, DBG_MAX_FRAMES) : 0;
  for (int i = 1; i < n && fr[0].line != line; i++)
    if (fr[i].line == line) {
      s->L->call_stop = i;
      s->L->call_idx = fr[i - 1].inl;
      s->L->call_item = s->L->focus;
      s->L->call_pc = pc;
      dbg_frame_select(s, 0); /* the caller's frame: the callee's are hidden */
      return;
    }
}

void dbg_set_program(struct dbg_session *s, const struct lsi_program *p, const char *file,
                     const char *source) {
  s->kprog = p;
  free(s->kfile);
  s->kfile = strdup(file ? file : "");
  s->knlines = 0;
  for (const char *c = source; c && *c; c++)
    s->knlines += *c == '\n' || !c[1];
}

/* A file breakpoint no program seen so far matches. */
static int bp_pending(struct dbg_session *s, const struct bp *b) {
  if (!b->line || !b->file[0] || b->bound) return 0;
  if (s->L && s->L->file && dbg_bp_file_match(s, b)) return 0;
  for (int i = 0; i < s->nfiles; i++)
    if (!strcmp(dbg_base(b->file), dbg_base(s->files[i]))) return 0;
  return s->host_mode || (s->L && s->L->file);
}

void dbg_bp_add(struct dbg_session *s, const char *arg, int temp) {
  while (isspace((unsigned char)*arg))
    arg++;
  if (!*arg) {
    fprintf(s->out, "%s needs a location: FILE:LINE, LINE or KERNEL\n", temp ? "tbreak" : "break");
    return;
  }
  if (s->nbp == MAX_BP) {
    fprintf(s->out, "too many breakpoints\n");
    return;
  }
  struct bp b;
  memset(&b, 0, sizeof(b));
  char loc[200];
  const char *c = strstr(arg, " if");
  while (c && c[3] && !isspace((unsigned char)c[3]))
    c = strstr(c + 3, " if");
  snprintf(loc, sizeof(loc), "%.*s", c ? (int)(c - arg) : (int)strlen(arg), arg);
  if (c) {
    const char *cond = c + 3;
    while (isspace((unsigned char)*cond))
      cond++;
    char err[200];
    if (!*cond) {
      fprintf(s->out, "usage: %s LOCATION if CONDITION\n", temp ? "tbreak" : "break");
      return;
    }
    if (!dbg_cond_parses(cond, err, sizeof(err))) {
      fprintf(s->out, "Bad breakpoint condition '%s': %s\n", cond, err);
      return;
    }
    snprintf(b.cond, sizeof(b.cond), "%s", cond);
  }
  char *e = loc + strlen(loc);
  while (e > loc && isspace((unsigned char)e[-1]))
    *--e = 0;
  char *colon = strrchr(loc, ':');
  char *num = colon ? colon + 1 : loc;
  if (*num && strspn(num, "0123456789") == strlen(num)) {
    b.line = (uint32_t)strtoul(num, NULL, 10);
    if (colon) snprintf(b.file, sizeof(b.file), "%.*s", (int)(colon - loc), loc);
    if (!b.line) {
      fprintf(s->out, "invalid line number 0\n");
      return;
    }
  } else if (!colon && (isalpha((unsigned char)loc[0]) || loc[0] == '_')) {
    snprintf(b.kernel, sizeof(b.kernel), "%.*s", (int)sizeof(b.kernel) - 1, loc);
  } else {
    fprintf(s->out, "invalid location '%s'\n", loc);
    return;
  }
  /* a program known now refuses what it does not have, here and now */
  const char *pfile;
  uint32_t nlines;
  const struct lsi_program *p = bp_program(s, &b, &pfile, &nlines);
  if (p && b.line && b.file[0] &&
      !(s->L ? dbg_bp_file_match(s, &b) : !strcmp(dbg_base(b.file), pfile))) {
    fprintf(s->out, "No source file named %s.\n", b.file);
    return;
  }
  char msg[200];
  if (p && bp_check(&b, p, pfile, nlines, msg, sizeof(msg)) < 0) {
    fprintf(s->out, "%s\n", msg);
    return;
  }
  b.id = s->next_id++;
  b.enabled = 1;
  b.temp = temp;
  s->bps[s->nbp++] = b;
  fprintf(s->out, "%s %d at ", temp ? "Temporary breakpoint" : "Breakpoint", b.id);
  bp_where(s, &b);
  if (bp_pending(s, &b)) fprintf(s->out, " (pending)");
  fprintf(s->out, "\n");
  s->bp_gen++;
  dbg_bp_bind(s);
  dbg_bp_sync(s);
}

void dbg_bp_each(struct dbg_session *s, const char *arg, int what) {
  while (isspace((unsigned char)*arg))
    arg++;
  if (!*arg) {
    if (what == 0) s->nbp = 0;
    for (int i = 0; i < s->nbp; i++)
      s->bps[i].enabled = what == 1;
    s->bp_gen++;
    dbg_bp_bind(s);
    dbg_bp_sync(s);
    return;
  }
  while (*arg) {
    char *end;
    long id = strtol(arg, &end, 10);
    if (end == arg) {
      fprintf(s->out, "invalid breakpoint number '%s'\n", arg);
      return;
    }
    int found = 0;
    for (int i = 0; i < s->nbp; i++)
      if (s->bps[i].id == id) {
        found = 1;
        if (what == 0) {
          memmove(&s->bps[i], &s->bps[i + 1], (size_t)(s->nbp - i - 1) * sizeof(struct bp));
          s->nbp--;
        } else {
          s->bps[i].enabled = what == 1;
        }
        break;
      }
    if (!found) fprintf(s->out, "No breakpoint number %ld.\n", id);
    arg = end;
    while (isspace((unsigned char)*arg))
      arg++;
  }
  s->bp_gen++;
  dbg_bp_bind(s);
  dbg_bp_sync(s);
}

/* Deletes temporary breakpoint id, which was hit. */
void dbg_bp_delete(struct dbg_session *s, int id) {
  char t[16];
  snprintf(t, sizeof(t), "%d", id);
  dbg_bp_each(s, t, 0);
  if (s->temp_gone) s->temp_gone(id);
}

void dbg_bp_info(struct dbg_session *s) {
  if (!s->nbp) {
    fprintf(s->out, "No breakpoints.\n");
    return;
  }
  fprintf(s->out, "Num  Type        Enb  Where\n");
  for (int i = 0; i < s->nbp; i++) {
    struct bp *b = &s->bps[i];
    fprintf(s->out, "%-4d %-11s %-4s ", b->id,
            b->watch[0] ? "watchpoint"
            : b->temp   ? "tbreakpoint"
                        : "breakpoint",
            b->enabled ? "y" : "n");
    if (b->watch[0])
      fprintf(s->out, "%s (work-item %" PRIu64 ")", b->watch, b->witem);
    else
      bp_where(s, b);
    if (bp_pending(s, b)) fprintf(s->out, " (pending)");
    if (b->hits) fprintf(s->out, " (hit %d time%s)", b->hits, b->hits == 1 ? "" : "s");
    if (b->ignore) fprintf(s->out, " (ignore next %d)", b->ignore);
    fprintf(s->out, "\n");
  }
}

void dbg_info_to(struct dbg_session *s, int what, FILE *f) {
  dbg_lock(s, NULL);
  s->out = f;
  if (what)
    dbg_bp_info(s);
  else
    dbg_display_info(s);
  dbg_unlock(s);
}

int dbg_bp_holds(struct dbg_session *s, uint64_t item, uint32_t pc) {
  struct bp *b = dbg_bp_at(s, pc);
  if (!b) return 0;
  if (b->cond[0]) {
    uint64_t save = s->L->focus, save_item = s->L->frame_item;
    uint32_t save_pc = s->L->frame_pc;
    int save_frame = s->L->frame;
    s->L->focus = item;
    /* a statement that calls an inlined function stops where the call
     * starts, inside it: the condition speaks of the breakpoint's line, so
     * it sees the frame of that line (the caller's), not the callee's */
    uint32_t line = s->L->bpline[pc];
    struct dbg_frame fr[DBG_MAX_FRAMES];
    int n = line ? dbg_frames(s, item, fr, DBG_MAX_FRAMES) : 0;
    for (int i = 1; i < n && fr[0].line != line; i++)
      if (fr[i].line == line) {
        dbg_frame_select(s, i);
        break;
      }
    struct dbg_val v;
    char err[200];
    int bad = dbg_eval_focus(s, b->cond, &v, err, sizeof(err));
    if (s->L->ccond) /* in a pass: the filter's compiled form, as this frame sees the names */
      dbg_bpcond_learn(s, b, item, pc, bad, !bad && (v.kind == DBG_FLT ? v.f != 0 : v.i != 0));
    s->L->focus = save;
    s->L->frame = save_frame;
    s->L->frame_item = save_item;
    s->L->frame_pc = save_pc;
    if (bad) {
      /* a pass only collects hits: the error is said when its stop is
       * taken (dbg_pass.c asks again then), once, with that stop */
      if (s->L->taking) s->L->cond_errs++; /* a warp's lanes: the first error is said */
      if (!s->L->in_pass && s->L->cond_errs <= 1)
        fprintf(s->out, "Error in breakpoint %d condition: %s\n", b->id, err);
      return 2;
    }
    if (v.kind == DBG_FLT ? v.f == 0 : v.i == 0) return 0;
  }
  return 1;
}

int dbg_bp_ignored(struct dbg_session *s, uint32_t pc) {
  struct bp *b = dbg_bp_at(s, pc);
  if (!b || b->ignore <= 0) return 0;
  b->ignore--; /* a crossing `ignore` passes: it counts as a hit */
  b->hits++;
  return 1;
}

int dbg_bp_accept(struct dbg_session *s, uint64_t item, uint32_t pc) {
  int h = dbg_bp_holds(s, item, pc);
  return h == 2 || (h == 1 && !dbg_bp_ignored(s, pc));
}

/* The breakpoint (not a watchpoint) numbered at the start of *arg, which
 * moves past the number; NULL with a message when there is none. */
static struct bp *bp_numbered(struct dbg_session *s, const char **arg, const char *usage) {
  char *end;
  long id = strtol(*arg, &end, 10);
  if (end == *arg || (*end && !isspace((unsigned char)*end))) {
    fprintf(s->out, "usage: %s\n", usage);
    return NULL;
  }
  *arg = end + strspn(end, " \t");
  for (int i = 0; i < s->nbp; i++)
    if (s->bps[i].id == id && !s->bps[i].watch[0]) return &s->bps[i];
  fprintf(s->out, "No breakpoint number %ld.\n", id);
  return NULL;
}

void dbg_bp_condition(struct dbg_session *s, const char *arg) {
  struct bp *b = bp_numbered(s, &arg, "condition N [EXPR]");
  if (!b) return;
  char err[200];
  if (!*arg) {
    b->cond[0] = 0;
    fprintf(s->out, "Breakpoint %d now unconditional.\n", b->id);
  } else if (strlen(arg) >= sizeof(b->cond)) {
    fprintf(s->out, "The condition is longer than %zu characters.\n", sizeof(b->cond) - 1);
    return;
  } else if (!dbg_cond_parses(arg, err, sizeof(err))) {
    fprintf(s->out, "Bad breakpoint condition '%s': %s\n", arg, err);
    return;
  } else {
    /* its names are checked against the program, when one is known */
    struct bp t = *b;
    snprintf(t.cond, sizeof(t.cond), "%s", arg);
    const char *pfile;
    uint32_t nlines;
    const struct lsi_program *p = bp_program(s, &t, &pfile, &nlines);
    if (p && bp_check(&t, p, pfile, nlines, err, sizeof(err)) < 0) {
      fprintf(s->out, "%s\n", err);
      return;
    }
    if (!p) t.checked = 0; /* the next launch of its program checks it */
    *b = t;
  }
  s->bp_gen++;
  dbg_bp_bind(s);
  dbg_bp_sync(s);
}

void dbg_bp_ignore(struct dbg_session *s, const char *arg) {
  struct bp *b = bp_numbered(s, &arg, "ignore N COUNT");
  if (!b) return;
  char *end;
  long n = strtol(arg, &end, 10);
  if (end == arg || *end || n < 0 || n > 1000000000) {
    fprintf(s->out, "usage: ignore N COUNT, COUNT a number from 0 on\n");
    return;
  }
  b->ignore = (int)n;
  if (n == 0)
    fprintf(s->out, "Will stop next time breakpoint %d is reached.\n", b->id);
  else
    fprintf(s->out, "Will ignore next %ld crossing%s of breakpoint %d.\n", n, n == 1 ? "" : "s",
            b->id);
}

/* ---- watchpoints ---- */

/* A watchpoint of the launch worked on (a work-item is of one launch). */
static int watch_of(struct dbg_session *s, const struct bp *b) {
  return b->watch[0] && b->wlaunch == s->L->num;
}

int dbg_has_watch(struct dbg_session *s, uint64_t item) {
  for (int i = 0; i < s->nbp; i++)
    if (watch_of(s, &s->bps[i]) && s->bps[i].enabled && s->bps[i].witem == item) return 1;
  return 0;
}

int dbg_any_watch(struct dbg_session *s) {
  for (int i = 0; i < s->nbp; i++)
    if (watch_of(s, &s->bps[i]) && s->bps[i].enabled) return 1;
  return 0;
}

/* The value of a watched expression for its item; 0 ok. */
static int watch_value(struct dbg_session *s, const struct bp *b, char *buf, size_t n) {
  uint64_t save = s->L->focus;
  s->L->focus = b->witem;
  struct dbg_val v;
  char err[200];
  int bad = dbg_eval_focus(s, b->watch, &v, err, sizeof(err));
  if (!bad) {
    struct dbg_env env;
    dbg_session_env(s, &env);
    dbg_format(&env, &v, 0, buf, n);
  }
  s->L->focus = save;
  return bad;
}

/* Has a watched value of item changed? Notes the first change in s->L->whit. */
int dbg_watch_changed(struct dbg_session *s, uint64_t item) {
  for (int i = 0; i < s->nbp; i++) {
    struct bp *b = &s->bps[i];
    if (!watch_of(s, b) || !b->enabled || b->witem != item) continue;
    char cur[sizeof(b->wold)];
    if (watch_value(s, b, cur, sizeof(cur)) || !strcmp(cur, b->wold)) continue;
    s->L->whit = b->id;
    snprintf(s->L->wold, sizeof(s->L->wold), "%s", b->wold);
    snprintf(s->L->wnew, sizeof(s->L->wnew), "%s", cur);
    snprintf(b->wold, sizeof(b->wold), "%s", cur);
    return 1;
  }
  return 0;
}

void dbg_watch_add(struct dbg_session *s, const char *arg) {
  if (!*arg) {
    fprintf(s->out, "usage: watch EXPRESSION (a variable of the focused work-item)\n");
    return;
  }
  if (s->nbp == MAX_BP) {
    fprintf(s->out, "too many breakpoints\n");
    return;
  }
  if (simt_dbg_state(s->L->sd, s->L->focus, NULL) == SIMT_DBG_DONE) {
    fprintf(s->out, "The work-item has finished; choose another with 'workitem'.\n");
    return;
  }
  struct bp b;
  memset(&b, 0, sizeof(b));
  snprintf(b.watch, sizeof(b.watch), "%s", arg);
  b.witem = s->L->focus;
  b.wlaunch = s->L->num;
  struct dbg_val v;
  char err[200];
  if (dbg_eval_focus(s, arg, &v, err, sizeof(err))) {
    fprintf(s->out, "%s\n", err);
    return;
  }
  watch_value(s, &b, b.wold, sizeof(b.wold));
  b.id = s->next_id++;
  b.enabled = 1;
  s->bps[s->nbp++] = b;
  fprintf(s->out, "Watchpoint %d: %s (work-item %" PRIu64 ")\n", b.id, b.watch, b.witem);
}

/* Drops watchpoints whose work-item has finished (all of them when the
 * launch ends: quiet). */
void dbg_watch_gc(struct dbg_session *s, int all) {
  for (int i = 0; i < s->nbp; i++) {
    struct bp *b = &s->bps[i];
    if (!watch_of(s, b)) continue;
    if (!all && simt_dbg_state(s->L->sd, b->witem, NULL) != SIMT_DBG_DONE) continue;
    if (!all)
      fprintf(s->out, "Watchpoint %d deleted: work-item %" PRIu64 " has finished.\n", b->id,
              b->witem);
    memmove(b, b + 1, (size_t)(s->nbp - i - 1) * sizeof(struct bp));
    s->nbp--;
    i--;
  }
}

void dbg_rebind(struct dbg_session *s) {
  if (s->L && s->L->sd && s->L->bp_gen != s->bp_gen) dbg_bp_bind(s);
}

void dbg_bp_sync(struct dbg_session *s) {
  for (;;) {
    int stale = 0;
    for (struct dbg_launch *L = s->launches; L; L = L->next)
      stale |= L->in_pass && L->bp_gen != s->bp_gen;
    if (!stale) return;
    dbg_wait(s, &s->passed);
  }
}
