/*
 * dbg_gdb.c - gdb's habits around breakpoints and frames: the commands a
 * breakpoint runs when it stops (`commands N ... end`, `silent`), `save
 * breakpoints FILE` (a file `source` reads back), `kill`, `info frame`,
 * `info line`, `info source`, and what `finish` says ("Run till exit from
 * ...", "Value returned is $N = ...").
 *
 * It reads positions and tables and formats them; it must not run
 * work-items (dbg_step.c does) nor read command lines (dbg_cmd.c does).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debugger/dbg_int.h"
#include "device/simt.h"

/* ---- breakpoint commands ---- */

struct bp *dbg_bp_for_commands(struct dbg_session *s, const char *arg) {
  char *end;
  long id = *arg ? strtol(arg, &end, 10) : s->next_id - 1;
  if (*arg && (end == arg || *end)) {
    fprintf(s->out, "usage: commands [N], N a breakpoint's number (the last one set: none)\n");
    return NULL;
  }
  for (int i = 0; i < s->nbp; i++)
    if (s->bps[i].id == id) return &s->bps[i];
  if (*arg)
    fprintf(s->out, "No breakpoint number %ld.\n", id);
  else
    fprintf(s->out, "No breakpoints specified.\n");
  return NULL;
}

int dbg_bp_silent(const struct bp *b) {
  return !strncmp(b->cmds, "silent\n", 7);
}

/* ---- save breakpoints ---- */

static void save_one(FILE *f, const struct bp *b) {
  if (b->watch[0]) {
    fprintf(f,
            "# watchpoint %d (%s of work-item %" PRIu64 ") is not saved: it watches one "
            "launch's work-item\n",
            b->id, b->watch, b->witem);
    return;
  }
  fprintf(f, "%s ", b->temp ? "tbreak" : "break");
  if (!b->line)
    fprintf(f, "%s", b->kernel);
  else if (b->file[0])
    fprintf(f, "%s:%u", b->file, b->line);
  else
    fprintf(f, "%u", b->line);
  fprintf(f, "\n");
  if (b->cond[0]) fprintf(f, "  condition $bpnum %s\n", b->cond);
  if (b->ignore) fprintf(f, "  ignore $bpnum %d\n", b->ignore);
  if (!b->enabled) fprintf(f, "  disable $bpnum\n");
  if (b->cmds[0]) {
    fprintf(f, "  commands $bpnum\n");
    for (const char *p = b->cmds; *p;) {
      size_t n = strcspn(p, "\n");
      fprintf(f, "    %.*s\n", (int)n, p);
      p += n + (p[n] == '\n');
    }
    fprintf(f, "  end\n");
  }
}

void dbg_save_breakpoints(struct dbg_session *s, const char *file) {
  if (!*file) {
    fprintf(s->out, "usage: save breakpoints FILE\n");
    return;
  }
  if (!s->nbp) {
    fprintf(s->out, "Nothing to save.\n");
    return;
  }
  FILE *f = fopen(file, "w");
  if (!f) {
    fprintf(s->out, "Unable to open file '%s' for saving (%s)\n", file, strerror(errno));
    return;
  }
  for (int i = 0; i < s->nbp; i++)
    save_one(f, &s->bps[i]);
  if (fclose(f)) {
    fprintf(s->out, "Error writing '%s' (%s)\n", file, strerror(errno));
    return;
  }
  fprintf(s->out, "Saved to file '%s'.\n", file);
}

/* ---- kill ---- */

int dbg_kill(struct dbg_session *s) {
  if (s->host_mode) {
    /* the engine runs inside the host program: ending it is ending this
     * process, as gdb's kill ends the inferior */
    fprintf(s->out, "[Killing the program]\n");
    fflush(s->out);
    if (s->user_out) fflush(s->user_out);
    kill(getpid(), SIGKILL);
    return 0;
  }
  s->L->killed = 1;
  fprintf(s->out, "[Kernel %s killed]\n", s->L->k->name);
  return 1;
}

/* ---- info frame, info line, info source ---- */

void dbg_info_frame(struct dbg_session *s) {
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int n = dbg_frames(s, s->L->focus, fr, DBG_MAX_FRAMES);
  int sel = dbg_frame_selected(s);
  uint32_t pc = 0;
  simt_dbg_state(s->L->sd, s->L->focus, &pc);
  const char *file = dbg_where_file(s);
  const struct dbg_frame *f = &fr[sel];
  fprintf(s->out, "Stack level %d, ", sel);
  if (!f->line)
    fprintf(s->out, "kernel %s (finished)\n", s->L->k->name);
  else if (f->inl)
    fprintf(s->out, "pc %u in %s (inlined into %s) at %s:%u\n", pc, s->L->dbg->inl[f->inl - 1].func,
            s->L->k->name, file, f->line);
  else
    fprintf(s->out, "pc %u in kernel %s at %s:%u\n", pc, s->L->k->name, file, f->line);
  if (sel + 1 < n)
    fprintf(s->out, " called by frame at level %d (%s, %s:%u)\n", sel + 1,
            fr[sel + 1].inl ? s->L->dbg->inl[fr[sel + 1].inl - 1].func : s->L->k->name, file,
            fr[sel + 1].line);
  if (sel > 0)
    fprintf(s->out, " caller of frame at level %d (%s)\n", sel - 1,
            fr[sel - 1].inl ? s->L->dbg->inl[fr[sel - 1].inl - 1].func : s->L->k->name);
  char ids[160];
  dbg_ids_str(s, s->L->focus, ids, sizeof(ids));
  fprintf(s->out, " %s, linear id %" PRIu64 "\n source language OpenCL C\n", ids, s->L->focus);
}

/* The pcs of the kernel at line (of its own file): the first and one past
 * the last; 0 when it has none. */
static int line_pcs(struct dbg_session *s, uint32_t line, uint32_t *a, uint32_t *b) {
  const struct lsi_kernel *k = s->L->k;
  uint32_t file = s->L->dbg->nmk ? s->L->dbg->mk[0].file : 0;
  *a = UINT32_MAX;
  *b = 0;
  for (uint32_t pc = 0; k->lines && pc < k->ninsns; pc++)
    if (k->lines[pc].line == line && k->lines[pc].file == file) {
      if (pc < *a) *a = pc;
      if (pc + 1 > *b) *b = pc + 1;
    }
  return *a != UINT32_MAX;
}

void dbg_info_line(struct dbg_session *s, const char *arg) {
  const char *file = dbg_where_file(s);
  const char *num = strrchr(arg, ':') ? strrchr(arg, ':') + 1 : arg;
  uint32_t line = dbg_item_line(s, s->L->focus);
  if (*arg) {
    char *end;
    unsigned long v = strtoul(num, &end, 10);
    if (end == num || *end || !isdigit((unsigned char)*num)) {
      fprintf(s->out, "usage: info line [LINE | FILE:LINE]\n");
      return;
    }
    if (num != arg && strncmp(arg, file, strlen(file))) {
      fprintf(s->out, "No source file named %.*s in this launch (it runs %s).\n",
              (int)(num - 1 - arg), arg, file);
      return;
    }
    if (!v || v > s->L->nlines) {
      fprintf(s->out, "Line number %lu is out of range for \"%s\" (%u lines).\n", v, file,
              s->L->nlines);
      return;
    }
    line = (uint32_t)v;
  }
  if (!line) {
    fprintf(s->out, "The focused work-item has finished; give a LINE.\n");
    return;
  }
  uint32_t a, b;
  if (line_pcs(s, line, &a, &b)) {
    fprintf(s->out, "Line %u of \"%s\" starts at pc %u and ends at pc %u.\n", line, file, a, b);
    return;
  }
  for (uint32_t l = line + 1; l <= s->L->nlines; l++)
    if (line_pcs(s, l, &a, &b)) {
      fprintf(s->out, "Line %u of \"%s\" is at pc %u but contains no code (line %u has it).\n",
              line, file, a, l);
      return;
    }
  fprintf(s->out, "Line %u of \"%s\" contains no code of kernel %s.\n", line, file, s->L->k->name);
}

void dbg_info_source(struct dbg_session *s) {
  fprintf(s->out, "Current source file is %s\n", dbg_where_file(s));
  if (s->L->file && strcmp(s->L->file, dbg_where_file(s)))
    fprintf(s->out, "Located in %s\n", s->L->file);
  if (s->L->nlines)
    fprintf(s->out, "Contains %u lines.\n", s->L->nlines);
  else
    fprintf(s->out, "Its text is not known (the program was linked from compiled objects).\n");
  fprintf(s->out, "Kernel %s spans lines %u-%u.\n", s->L->k->name, s->L->dbg->line_first,
          s->L->dbg->line_last);
  fprintf(s->out, "Source language is OpenCL C.\n");
  fprintf(s->out,
          "Producer is the Lockstep OpenCL C compiler (clang 19 front end), options \"%s\".\n",
          s->L->options && *s->L->options ? s->L->options : "-g");
  fprintf(s->out, "Compiled with the microkernel line tables of a debug build.\n");
}

/* ---- finish ---- */

void dbg_finish_begin(struct dbg_session *s) {
  struct dbg_frame fr[DBG_MAX_FRAMES];
  dbg_frames(s, s->L->focus, fr, DBG_MAX_FRAMES);
  const struct dbg_frame *f = &fr[dbg_frame_selected(s)];
  s->L->fin_have = 0;
  /* a front end speaking records (`mi on`, the DAP adapter) shows the
   * step its own way: no text for it */
  s->L->fin_on = f->inl != 0 && !s->machine;
  if (!f->line || s->machine) return;
  /* the work-item at a `return EXPR;` of the frame it leaves: the steps
   * look at the statements after it, so its value is taken now */
  if (!dbg_frame_selected(s)) dbg_finish_capture(s, f->line);
  if (f->inl)
    fprintf(s->out, "Run till exit from #%d  %s (inlined) at %s:%u\n", dbg_frame_selected(s),
            s->L->dbg->inl[f->inl - 1].func, dbg_where_file(s), f->line);
  else
    fprintf(s->out, "Run till exit from #%d  %s at %s:%u\n", dbg_frame_selected(s), s->L->k->name,
            dbg_where_file(s), f->line);
}

/* The expression of a `return EXPR;` statement on line (NULL: none). */
static const char *return_expr(struct dbg_session *s, uint32_t line, char *buf, size_t n) {
  if (!line || line > s->L->nlines) return NULL;
  const char *t = s->L->lines[line - 1];
  t += strspn(t, " \t");
  if (strncmp(t, "return", 6) || !(isspace((unsigned char)t[6]) || t[6] == '(')) return NULL;
  t += 6;
  const char *e = strrchr(t, ';');
  if (!e) return NULL;
  snprintf(buf, n, "%.*s", (int)(e - t), t);
  return buf[strspn(buf, " \t")] ? buf : NULL;
}

void dbg_finish_capture(struct dbg_session *s, uint32_t line) {
  char expr[256], err[200];
  struct dbg_val v;
  if (!s->L->fin_on || !return_expr(s, line, expr, sizeof(expr))) return;
  if (dbg_eval_focus(s, expr, &v, err, sizeof(err))) return;
  struct dbg_env env;
  dbg_session_env(s, &env);
  dbg_format(&env, &v, 0, s->L->fin_text, sizeof(s->L->fin_text));
  v.addr = 0; /* the callee's frame is gone: a value, not a place */
  v.lim = 0;
  s->L->fin_v = v;
  s->L->fin_have = 1;
}

void dbg_finish_report(struct dbg_session *s) {
  if (!s->L->fin_have) return;
  s->L->fin_have = 0;
  int n = dbg_hist_push(s, &s->L->fin_v, s->L->fin_text);
  if (n)
    fprintf(s->out, "Value returned is $%d = %s\n", n, s->L->fin_text);
  else
    fprintf(s->out, "Value returned is %s\n", s->L->fin_text);
}
