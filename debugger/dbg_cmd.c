/*
 * dbg_cmd.c - the command language: one table gives every command its
 * spellings, what it needs (a stopped kernel), whether it resumes a launch,
 * whether it waits for the next run when no program runs, the function
 * that runs it, its line in `help`, and the Debug Adapter Protocol
 * capabilities it provides; `mi` rows name the record function of their
 * subcommand. The dispatcher, `help`, Tab completion's names
 * (dbg_command_name), the DAP adapter's initialize response
 * (dbg_dap_capability) and `mi`'s list of subcommands all read it.
 *
 * It parses command lines and reads them (dbg_prompt, and for dbg_stopped);
 * it must not run work-items or look inside a launch itself: each command's
 * work is done by the file that owns it.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dbg_int.h"

/* A command being run: the row it matched, what was typed after the
 * command word (rest; arg without leading blanks, subarg after a
 * subcommand word), and the resume it asks for (kind). */
struct call {
  const struct cmd *row;
  const char *rest, *arg, *subarg;
  int kind;
};

enum {
  CMD_STOPPED = 1, /* needs a stopped kernel (the focused launch) */
  CMD_RESUMES = 2, /* resumes the focused launch (or more) */
  CMD_NOPROG = 4,  /* with no program running, waits for the next run (a front end replays it) */
  CMD_EXPR = 8,    /* its argument is an expression (Tab completes names in scope) */
  CMD_LOC = 16,    /* its argument is a location (Tab completes FILE:LINE, functions) */
};

/* One row. spell: the full name, then other spellings, blank-separated; a
 * '*' ends the shortest abbreviation of each ("ba*cktrace whe*re bt": ba,
 * bac, ..., whe, wher, where, bt). sub: '|'-separated subcommand words
 * (same notation) the argument must start with for this row, NULL for any.
 * none: what a CMD_STOPPED command says when no kernel is stopped (NULL:
 * "No kernel is stopped."). help: "SYNOPSIS\tWHAT" lines, '\n' between;
 * NULL when another row's line covers it. dap: initialize-response keys.
 * mi: for an `mi` subcommand row, the function answering with records
 * (dbg_mi.c), given the subcommand word and what follows it. */
struct cmd {
  const char *spell, *sub;
  unsigned flags;
  int (*fn)(struct dbg_session *s, struct call *c);
  const char *none;
  const char *help;
  const char *dap[4];
  void (*mi)(struct dbg_session *s, const char *sub, const char *rest);
};

/* Does cmd spell full, with at least minlen letters? */
static int is(const char *cmd, const char *full, size_t minlen) {
  size_t n = strlen(cmd);
  return n >= minlen && n <= strlen(full) && !strncmp(cmd, full, n);
}

/* Is word one of the spellings in list (blank- or '|'-separated, with '*'
 * marks)? */
static int spelled(const char *list, const char *word, size_t wlen) {
  while (*list) {
    size_t n = strcspn(list, " |");
    const char *star = memchr(list, '*', n);
    size_t full = star ? n - 1 : n, min = star ? (size_t)(star - list) : n;
    char f[32];
    if (full < sizeof(f) && wlen >= min && wlen <= full) {
      memcpy(f, list, min);
      memcpy(f + min, star ? star + 1 : list + min, full - min);
      if (!strncmp(word, f, wlen)) return 1;
    }
    list += n;
    list += strspn(list, " |");
  }
  return 0;
}

/* ---- the commands ---- */

static const char *const not_run = "The kernel is not being run; use 'run' or 'start'.";

static int c_break(struct dbg_session *s, struct call *c) {
  dbg_bp_add(s, c->arg, 0);
  return 0;
}

static int c_tbreak(struct dbg_session *s, struct call *c) {
  dbg_bp_add(s, c->arg, 1);
  return 0;
}

static int c_delete(struct dbg_session *s, struct call *c) {
  dbg_bp_each(s, c->arg, 0);
  return 0;
}

static int c_enable(struct dbg_session *s, struct call *c) {
  dbg_bp_each(s, c->arg, 1);
  return 0;
}

static int c_disable(struct dbg_session *s, struct call *c) {
  dbg_bp_each(s, c->arg, 2);
  return 0;
}

static int c_condition(struct dbg_session *s, struct call *c) {
  dbg_bp_condition(s, c->arg);
  return 0;
}

static int c_ignore(struct dbg_session *s, struct call *c) {
  dbg_bp_ignore(s, c->arg);
  return 0;
}

static int c_watch(struct dbg_session *s, struct call *c) {
  dbg_watch_add(s, c->arg);
  return 0;
}

static int c_run(struct dbg_session *s, struct call *c) {
  if (s->L && s->L->sd) {
    fprintf(s->out, "The kernel is already running; use 'continue'.\n");
    return 0;
  }
  c->kind = c->row->spell[0] == 's' ? 'e' : 'r';
  return 1;
}

/* The argument of a command that resumes: a count for step and next, a
 * line for until and advance, -a or none for continue, none for finish.
 * Returns 1 when the launch should resume. */
static int c_resume(struct dbg_session *s, struct call *c) {
  const char *cmd = c->row->spell, *arg = c->arg;
  s->L->until_line = 0;
  s->L->repeat = 0;
  c->kind = cmd[0] == 'a' ? 'u' : cmd[0];
  if (!*arg && cmd[0] == 'f') dbg_finish_begin(s); /* "Run till exit from #0 ..." */
  if (!*arg && cmd[0] != 'a') return 1;
  if (cmd[0] == 'c' && !strcmp(arg, "-a")) { /* every stopped launch */
    c->kind = 'C';
    return 1;
  }
  if (cmd[0] == 'c' || cmd[0] == 'f') {
    fprintf(s->out, "The \"%s\" command does not take any arguments.\n",
            cmd[0] == 'c' ? "continue" : "finish");
    return 0;
  }
  if (cmd[0] == 's' || cmd[0] == 'n') {
    char *end;
    long n = strtol(arg, &end, 10);
    if (end == arg || *end || n < 1 || n > 1000000) {
      fprintf(s->out, "usage: %s [N], N a number of steps from 1 on\n",
              cmd[0] == 's' ? "step" : "next");
      return 0;
    }
    s->L->repeat = (int)n - 1;
    return 1;
  }
  /* until LINE, advance LINE: LINE or FILE:LINE of the launch's program */
  struct bp b;
  memset(&b, 0, sizeof(b));
  const char *colon = strrchr(arg, ':');
  const char *num = colon ? colon + 1 : arg;
  if (!*num || strspn(num, "0123456789") != strlen(num) || !(b.line = (uint32_t)atol(num))) {
    fprintf(s->out, "usage: %s LINE or FILE:LINE\n", cmd[0] == 'a' ? "advance" : "until");
    return 0;
  }
  if (colon) snprintf(b.file, sizeof(b.file), "%.*s", (int)(colon - arg), arg);
  if (!dbg_bp_file_match(s, &b)) {
    fprintf(s->out, "No source file named %s in this launch (it runs %s).\n", b.file,
            dbg_base(s->L->file));
    return 0;
  }
  uint32_t line = dbg_bp_line(s, &b);
  if (!line) {
    fprintf(s->out, "Line %u of %s has no code of kernel %s at or after it.\n", b.line,
            dbg_base(s->L->file), s->L->k->name);
    return 0;
  }
  s->L->until_line = line;
  return 1;
}

static int c_scope(struct dbg_session *s, struct call *c) {
  const char *arg = c->arg;
  if (is(arg, "workitem", 4) || is(arg, "item", 4)) {
    s->scope = SCOPE_ITEM;
  } else if (is(arg, "workgroup", 5) || is(arg, "group", 5)) {
    s->scope = SCOPE_GROUP;
  } else if (!strcmp(arg, "all")) {
    s->scope = SCOPE_ALL;
  } else if (!strncmp(arg, "items ", 6)) {
    uint64_t a, b;
    if (sscanf(arg + 6, "%" SCNu64 "-%" SCNu64, &a, &b) != 2 || a > b) {
      fprintf(s->out, "usage: scope items A-B (linear work-item indices, A <= B)\n");
      return 0;
    }
    s->scope = SCOPE_ITEMS;
    s->scope_a = a;
    s->scope_b = b;
  } else if (*arg) {
    fprintf(s->out, "usage: scope [workitem | workgroup | all | items A-B]\n");
    return 0;
  }
  if (s->scope == SCOPE_ITEMS)
    fprintf(s->out, "Stepping scope: work-items %" PRIu64 "-%" PRIu64 ".\n", s->scope_a,
            s->scope_b);
  else
    fprintf(s->out, "Stepping scope: %s.\n",
            s->scope == SCOPE_GROUP ? "the focused work-item's work-group"
            : s->scope == SCOPE_ALL ? "all work-items"
                                    : "the focused work-item");
  return 0;
}

static int c_workitem(struct dbg_session *s, struct call *c) {
  dbg_focus_cmd(s, c->arg, 0);
  return 0;
}

static int c_workgroup(struct dbg_session *s, struct call *c) {
  dbg_focus_cmd(s, c->arg, 1);
  return 0;
}

static int c_kernel(struct dbg_session *s, struct call *c) {
  dbg_kernel_cmd(s, c->arg);
  return 0;
}

static int c_backtrace(struct dbg_session *s, struct call *c) {
  (void)c;
  dbg_backtrace_cmd(s);
  return 0;
}

static int c_frame(struct dbg_session *s, struct call *c) {
  char name[16];
  snprintf(name, sizeof(name), "%.*s", (int)strcspn(c->row->spell, "* "), c->row->spell);
  dbg_frame_command(s, name, c->arg);
  return 0;
}

static int c_list(struct dbg_session *s, struct call *c) {
  dbg_list_cmd(s, c->arg);
  return 0;
}

static int c_print(struct dbg_session *s, struct call *c) {
  dbg_print_cmd(s, c->rest);
  return 0;
}

static int c_whatis(struct dbg_session *s, struct call *c) {
  dbg_whatis_cmd(s, c->arg, c->row->spell[0] == 'p');
  return 0;
}

static int c_display(struct dbg_session *s, struct call *c) {
  dbg_display_cmd(s, c->rest, s->L && s->L->sd);
  return 0;
}

static int c_undisplay(struct dbg_session *s, struct call *c) {
  dbg_undisplay_cmd(s, c->subarg ? c->subarg : c->arg);
  return 0;
}

static int c_examine(struct dbg_session *s, struct call *c) {
  dbg_examine(s, c->arg);
  return 0;
}

static int c_set_var(struct dbg_session *s, struct call *c) {
  const char *arg = c->arg;
  if (!strncmp(arg, "var ", 4)) arg += 4;
  if (!strchr(arg, '=')) {
    fprintf(s->out, "usage: set var NAME = EXPR\n");
    return 0;
  }
  struct dbg_env env;
  dbg_session_env(s, &env);
  struct dbg_val v;
  char err[200];
  if (dbg_eval(&env, arg, &v, err, sizeof(err))) fprintf(s->out, "%s\n", err);
  return 0;
}

static int c_set_pass(struct dbg_session *s, struct call *c) {
  dbg_pass_set(s, c->arg);
  return 0;
}

static int c_set_check(struct dbg_session *s, struct call *c) {
  dbg_check_set(s, c->subarg ? c->subarg : "");
  return 0;
}

static int c_show_check(struct dbg_session *s, struct call *c) {
  (void)c;
  dbg_check_show(s);
  return 0;
}

static int c_info_breakpoints(struct dbg_session *s, struct call *c) {
  (void)c;
  dbg_bp_info(s);
  return 0;
}

static int c_info_kernels(struct dbg_session *s, struct call *c) {
  (void)c;
  dbg_kernels_info(s);
  return 0;
}

static int c_info_display(struct dbg_session *s, struct call *c) {
  (void)c;
  dbg_display_info(s);
  return 0;
}

static int c_info_locals(struct dbg_session *s, struct call *c) {
  dbg_info_vars(s, c->row->sub[0] == 'a');
  return 0;
}

static int c_info_workitems(struct dbg_session *s, struct call *c) {
  dbg_info_workitems(s, c->subarg, c->row->sub[0] == 't' ? "info threads" : "info workitems");
  return 0;
}

static int c_thread(struct dbg_session *s, struct call *c) {
  dbg_thread_cmd(s, c->arg);
  return 0;
}

static int c_info(struct dbg_session *s, struct call *c) {
  fprintf(
      s->out,
      "unknown info command '%s' (breakpoints, display, kernels, locals, args, workitems, threads, "
      "frame, line, source)\n",
      c->arg);
  return 0;
}

static int c_edit(struct dbg_session *s, struct call *c) {
  if (dbg_edit(s, c->arg) == 0) dbg_edit_rebind(s);
  return 0;
}

static int c_directory(struct dbg_session *s, struct call *c) {
  if (*c->arg) dbg_add_dir(s, c->arg);
  fprintf(s->out, "Source directories searched: .");
  for (int i = 0; i < s->ndirs; i++)
    fprintf(s->out, ":%s", s->dirs[i]);
  fprintf(s->out, "\n");
  return 0;
}

static int command(struct dbg_session *s, char *line, int *kind);

/* A line of a `commands` block: from the file `source` reads, else from
 * the front end (prompt ">"). NULL at its end. */
static char *block_line(struct dbg_session *s) {
  if (s->sourcing) {
    char *l = NULL;
    size_t cap = 0;
    ssize_t n = getline(&l, &cap, s->sourcing);
    if (n < 0) {
      free(l);
      return NULL;
    }
    l[strcspn(l, "\r\n")] = 0;
    return l;
  }
  struct dbg_hold h;
  dbg_release(s, &h);
  char *l = s->read(s->rctx, ">");
  dbg_reacquire(s, &h);
  if (l && s->echo) fprintf(s->out, ">%s\n", l);
  return l;
}

/* commands [N] ... end: the lines breakpoint N runs when it stops. */
static int c_commands(struct dbg_session *s, struct call *c) {
  struct bp *b = dbg_bp_for_commands(s, c->arg);
  int id = b ? b->id : 0, over = 0;
  char text[sizeof(b->cmds)] = "";
  size_t n = 0;
  for (char *l; (l = block_line(s));) {
    char *t = l + strspn(l, " \t");
    size_t e = strlen(t);
    while (e && isspace((unsigned char)t[e - 1]))
      t[--e] = 0;
    int end = !strcmp(t, "end");
    if (!end && *t && n + e + 2 <= sizeof(text)) {
      memcpy(text + n, t, e);
      text[n += e] = '\n';
      text[++n] = 0;
    } else if (!end && *t) {
      over = 1;
    }
    free(l);
    if (end) break;
  }
  /* the breakpoint may have gone while the block was read (another launch) */
  b = NULL;
  for (int i = 0; id && i < s->nbp; i++)
    if (s->bps[i].id == id) b = &s->bps[i];
  if (!b) return 0;
  if (over)
    fprintf(s->out, "The commands of breakpoint %d are longer than %zu characters; not set.\n", id,
            sizeof(b->cmds) - 1);
  else
    memcpy(b->cmds, text, sizeof(b->cmds));
  return 0;
}

/* What breakpoint s->bp_cmds runs at the stop just shown: 1 when one of its
 * commands resumes (*kind). */
static int run_bp_commands(struct dbg_session *s, int *kind) {
  char text[sizeof(s->bps[0].cmds)] = "";
  for (int i = 0; i < s->nbp; i++)
    if (s->bps[i].id == s->bp_cmds) memcpy(text, s->bps[i].cmds, sizeof(text));
  s->bp_cmds = 0;
  for (char *p = text, *nl; *p; p = nl + 1) {
    nl = strchr(p, '\n');
    if (!nl) break;
    *nl = 0;
    if (!strcmp(p, "silent")) continue;
    int r = command(s, p, kind);
    fflush(s->out);
    if (r) return 1;
  }
  return 0;
}

/* source FILE: its lines as commands. One that resumes ends it. */
static int c_source(struct dbg_session *s, struct call *c) {
  if (!*c->arg) {
    fprintf(s->out, "source command requires file name of file to source.\n");
    return 0;
  }
  FILE *f = fopen(c->arg, "r");
  if (!f) {
    fprintf(s->out, "%s: %s.\n", c->arg, strerror(errno));
    return 0;
  }
  FILE *outer = s->sourcing;
  s->sourcing = f;
  int r = 0;
  char *l = NULL;
  size_t cap = 0;
  while (!r && getline(&l, &cap, f) >= 0) {
    l[strcspn(l, "\r\n")] = 0;
    r = command(s, l, &c->kind);
  }
  free(l);
  s->sourcing = outer;
  fclose(f);
  return r;
}

static int c_save(struct dbg_session *s, struct call *c) {
  dbg_save_breakpoints(s, c->subarg);
  return 0;
}

static int c_kill(struct dbg_session *s, struct call *c) {
  if (!dbg_kill(s)) return 0;
  c->kind = 'k';
  return 1;
}

static int c_info_frame(struct dbg_session *s, struct call *c) {
  (void)c;
  dbg_info_frame(s);
  return 0;
}

static int c_info_line(struct dbg_session *s, struct call *c) {
  dbg_info_line(s, c->subarg);
  return 0;
}

static int c_info_source(struct dbg_session *s, struct call *c) {
  (void)c;
  dbg_info_source(s);
  return 0;
}

static int c_quit(struct dbg_session *s, struct call *c) {
  (void)c;
  s->quit = 1;
  return 1;
}

/* `mi SUB ...`: the row's record function. */
static int c_mi(struct dbg_session *s, struct call *c) {
  char word[16];
  snprintf(word, sizeof(word), "%.*s", (int)strcspn(c->arg, " \t"), c->arg);
  c->row->mi(s, word, c->subarg);
  return 0;
}

static int c_mi_unknown(struct dbg_session *s, struct call *c);

static int c_help(struct dbg_session *s, struct call *c);

/* In the order `help` lists them. */
static const struct cmd cmds[] = {
    {"b*reak",
     NULL,
     CMD_NOPROG | CMD_LOC,
     c_break,
     NULL,
     "break LOC [if EXPR], tbreak LOC\tbreakpoints at FILE:LINE, LINE, KERNEL, FUNCTION",
     {"supportsConditionalBreakpoints", "supportsHitConditionalBreakpoints",
      "supportsFunctionBreakpoints"}},
    {"tb*reak", NULL, CMD_NOPROG | CMD_LOC, c_tbreak, NULL, NULL, {NULL}},
    {"d*elete",
     NULL,
     CMD_NOPROG,
     c_delete,
     NULL,
     "delete|enable|disable [N...]\tbreakpoints by number",
     {NULL}},
    {"en*able", NULL, CMD_NOPROG, c_enable, NULL, NULL, {NULL}},
    {"dis*able", NULL, CMD_NOPROG, c_disable, NULL, NULL, {NULL}},
    {"cond*ition",
     NULL,
     CMD_NOPROG | CMD_EXPR,
     c_condition,
     NULL,
     "condition N [EXPR], ignore N COUNT\tbreakpoint N's condition; pass its next COUNT crossings",
     {NULL}},
    {"ig*nore", NULL, CMD_NOPROG, c_ignore, NULL, NULL, {NULL}},
    {"comm*ands",
     NULL,
     CMD_NOPROG,
     c_commands,
     NULL,
     "commands [N] ... end\tlines breakpoint N runs when it stops (silent first: no stop "
     "message)",
     {NULL}},
    {"save",
     "b*reakpoints",
     CMD_NOPROG,
     c_save,
     NULL,
     "save breakpoints FILE, source FILE\twrite the breakpoints as commands; run a command file",
     {NULL}},
    {"so*urce", NULL, CMD_NOPROG, c_source, NULL, NULL, {NULL}},
    {"wa*tch",
     NULL,
     CMD_STOPPED | CMD_EXPR,
     c_watch,
     NULL,
     "watch EXPR\tstop when the focused work-item's EXPR changes",
     {"supportsDataBreakpoints"}},
    {"r*un",
     NULL,
     0,
     c_run,
     NULL,
     "run, start, continue\trun the launch (start: stop at entry)",
     {"supportsConfigurationDoneRequest", "supportsExceptionInfoRequest"}},
    {"start", NULL, 0, c_run, NULL, NULL, {NULL}},
    {"c*ontinue", NULL, CMD_STOPPED | CMD_RESUMES, c_resume, not_run, NULL, {NULL}},
    {"s*tep",
     NULL,
     CMD_STOPPED | CMD_RESUMES,
     c_resume,
     not_run,
     "step [N], next [N], finish, until [LINE]\tstep the work-items of the scope",
     {NULL}},
    {"n*ext", NULL, CMD_STOPPED | CMD_RESUMES, c_resume, not_run, NULL, {NULL}},
    {"fin*ish", NULL, CMD_STOPPED | CMD_RESUMES, c_resume, not_run, NULL, {NULL}},
    {"u*ntil", NULL, CMD_STOPPED | CMD_RESUMES | CMD_LOC, c_resume, not_run, NULL, {NULL}},
    {"adv*ance", NULL, CMD_STOPPED | CMD_RESUMES | CMD_LOC, c_resume, not_run, NULL, {NULL}},
    {"sc*ope",
     NULL,
     0,
     c_scope,
     NULL,
     "scope workitem|workgroup|all|items A-B\twhat steps advance",
     {NULL}},
    {"wo*rkitem",
     NULL,
     CMD_STOPPED,
     c_workitem,
     NULL,
     "workitem GX [GY GZ], workgroup WX [WY WZ]\tthe focus",
     {NULL}},
    {"workg*roup", NULL, CMD_STOPPED, c_workgroup, NULL, NULL, {NULL}},
    {"ker*nel",
     NULL,
     0,
     c_kernel,
     NULL,
     "kernel [N], info kernels, continue -a\tlaunches stopped at once: the focus, the list, "
     "resume all",
     {NULL}},
    {"ba*cktrace whe*re bt",
     NULL,
     CMD_STOPPED,
     c_backtrace,
     "No stack.",
     "backtrace, frame|up|down [N]\tinlined calls",
     {NULL}},
    {"f*rame", NULL, CMD_STOPPED, c_frame, "No stack.", NULL, {NULL}},
    {"up", NULL, CMD_STOPPED, c_frame, "No stack.", NULL, {NULL}},
    {"do*wn", NULL, CMD_STOPPED, c_frame, "No stack.", NULL, {NULL}},
    {"l*ist",
     NULL,
     CMD_STOPPED | CMD_LOC,
     c_list,
     NULL,
     "list [LINE | FIRST,LAST]\tsource lines",
     {NULL}},
    {"p*rint",
     NULL,
     CMD_EXPR,
     c_print,
     NULL,
     "print[/F] EXPR\tF = x d u o t c; A@N is gdb's artificial array, IMG(x, y) a texel\n"
     "$N, $, $$, $$N\tvalues printed before (the value history)",
     {"supportsEvaluateForHovers"}},
    {"whatis",
     NULL,
     CMD_EXPR,
     c_whatis,
     NULL,
     "whatis EXPR|TYPE, ptype EXPR|TYPE\ttypes (ptype shows a struct's fields)",
     {NULL}},
    {"ptype", NULL, CMD_EXPR, c_whatis, NULL, NULL, {NULL}},
    {"disp*lay",
     NULL,
     CMD_NOPROG | CMD_EXPR,
     c_display,
     NULL,
     "display[/F] [EXPR], undisplay [N...]\texpressions shown at every stop",
     {NULL}},
    {"und*isplay", NULL, CMD_NOPROG, c_undisplay, NULL, NULL, {NULL}},
    {"d*elete", "display", CMD_NOPROG, c_undisplay, NULL, NULL, {NULL}},
    {"x",
     NULL,
     CMD_STOPPED | CMD_EXPR,
     c_examine,
     NULL,
     "x/NFU EXPR\tN units of U = b h w g bytes, F = x d u o f c",
     {"supportsReadMemoryRequest"}},
    {"set",
     NULL,
     CMD_EXPR,
     c_set_var,
     NULL,
     "set var X = EXPR\tassign (a vector selection too: v.zx = w)",
     {"supportsSetVariable", "supportsWriteMemoryRequest"}},
    {"i*nfo",
     "b*reakpoints",
     0,
     c_info_breakpoints,
     NULL,
     "info breakpoints|display|kernels|locals|args|workitems\t",
     {NULL}},
    {"i*nfo", "k*ernels", 0, c_info_kernels, NULL, NULL, {NULL}},
    {"i*nfo", "d*isplay", 0, c_info_display, NULL, NULL, {NULL}},
    {"i*nfo", "lo*cals", CMD_STOPPED, c_info_locals, NULL, NULL, {NULL}},
    {"i*nfo", "a*rgs", CMD_STOPPED, c_info_locals, NULL, NULL, {NULL}},
    {"i*nfo",
     "w*orkitems",
     CMD_STOPPED,
     c_info_workitems,
     NULL,
     "info workitems|threads [group X [Y Z]] [line N] [STATE]\twork-items by state and line;\n"
     "\tSTATE: running barrier fault complete not-launched",
     {NULL}},
    {"i*nfo", "th*reads", CMD_STOPPED, c_info_workitems, NULL, NULL, {NULL}},
    {"t*hread",
     NULL,
     CMD_STOPPED,
     c_thread,
     NULL,
     "thread [N]\tfocus the work-item of linear id N (gx + gy*GX + gz*GX*GY)",
     {NULL}},
    {"i*nfo",
     "f*rame",
     CMD_STOPPED,
     c_info_frame,
     "No stack.",
     "info frame|line [LINE]|source\tthe focused frame; a line's code; the source file",
     {NULL}},
    {"i*nfo", "li*ne", CMD_STOPPED, c_info_line, NULL, NULL, {NULL}},
    {"i*nfo", "so*urce", CMD_STOPPED, c_info_source, "No current source file.", NULL, {NULL}},
    {"i*nfo", NULL, CMD_STOPPED, c_info, NULL, NULL, {NULL}},
    {"ed*it",
     NULL,
     CMD_STOPPED,
     c_edit,
     NULL,
     "edit LINE TEXT\treplace a source line and go on",
     {NULL}},
    {"set",
     "pass|watchdog",
     CMD_NOPROG,
     c_set_pass,
     NULL,
     "set watchdog MS, set pass all|in-progress\thow passes run",
     {NULL}},
    {"k*ill",
     NULL,
     CMD_STOPPED,
     c_kill,
     "The program is not being run.",
     "kill\tend the launch (with a host program: the program)",
     {NULL}},
    {"set",
     "scheduler-locking",
     CMD_NOPROG,
     c_set_pass,
     NULL,
     "set scheduler-locking on|off\ton: continue stops only for the focused work-item",
     {NULL}},
    {"set",
     "check",
     CMD_NOPROG,
     c_set_check,
     NULL,
     "set check races|uninit|all on|off\tcheckers (LOCKSTEP_CHECK): a report stops at its line",
     {NULL}},
    {"show",
     "check",
     CMD_NOPROG,
     c_show_check,
     NULL,
     "show check, set check stop on|off\tthe checkers that run; off: reports only counted",
     {NULL}},
    {"dir*ectory", NULL, CMD_NOPROG, c_directory, NULL, "directory [DIR], quit\t", {NULL}},
    {"q*uit",
     NULL,
     0,
     c_quit,
     NULL,
     NULL,
     {"supportsTerminateRequest", "supportTerminateDebuggee"}},
    {"mi", "on|off", 0, c_mi, NULL, NULL, {NULL}, dbg_mi_switch},
    {"mi", "breakpoints", 0, c_mi, NULL, NULL, {NULL}, dbg_mi_breakpoints},
    {"mi", "kernels", 0, c_mi, NULL, NULL, {NULL}, dbg_mi_kernels},
    {"mi", "kernel", 0, c_mi, NULL, NULL, {NULL}, dbg_mi_kernel},
    {"mi", "threads", 0, c_mi, NULL, NULL, {NULL}, dbg_mi_threads},
    {"mi", "focus|frame|vars|eval|read|write", 0, c_mi, NULL, NULL, {NULL}, dbg_mi_item},
    {"mi", NULL, 0, c_mi_unknown, NULL, NULL, {NULL}, NULL},
    {"help h", NULL, 0, c_help, NULL, NULL, {NULL}},
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

/* `mi` with a subcommand no row has: the error names those there are. */
static int c_mi_unknown(struct dbg_session *s, struct call *c) {
  (void)c;
  char names[200] = "";
  size_t n = 0;
  for (size_t i = 0; i < NCMDS; i++)
    for (const char *w = cmds[i].mi ? cmds[i].sub : ""; *w && n < sizeof(names);) {
      size_t k = strcspn(w, "|");
      n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%.*s", n ? ", " : "", (int)k, w);
      w += k + (w[k] == '|');
    }
  dbg_mi_unknown(s, names);
  return 0;
}

/* `help`: the commands, one line each (debugger/README.md has the rest). */
static int c_help(struct dbg_session *s, struct call *c) {
  (void)c;
  for (size_t i = 0; i < NCMDS; i++)
    for (const char *h = cmds[i].help; h && *h;) {
      size_t n = strcspn(h, "\n"), t = strcspn(h, "\t");
      if (t > n) t = n;
      const char *what = h + t + (t < n); /* after the tab */
      int wn = (int)(h + n - what);
      if (wn > 0)
        fprintf(s->out, "%-42.*s %.*s\n", (int)t, h, wn, what);
      else
        fprintf(s->out, "%.*s\n", (int)t, h);
      h += n + (h[n] == '\n');
    }
  fprintf(s->out, "Vector components: v.x v.s3 v.sA v.zyx v.xxyy v.lo v.hi v.even v.odd; .hi and\n"
                  ".odd of a 3-component vector end in its undefined w, shown <undefined>.\n");
  return 0;
}

/* The row for command word w and its argument: one whose subcommand the
 * argument starts with (*subarg: what follows that word), else one for
 * any argument. */
static const struct cmd *find(const char *w, const char *arg, const char **subarg) {
  const struct cmd *any = NULL;
  size_t an = strcspn(arg, " \t");
  for (size_t i = 0; i < NCMDS; i++) {
    if (!spelled(cmds[i].spell, w, strlen(w))) continue;
    if (!cmds[i].sub) {
      if (!any) any = &cmds[i];
    } else if (an && spelled(cmds[i].sub, arg, an)) {
      *subarg = arg + an + strspn(arg + an, " \t");
      return &cmds[i];
    }
  }
  return any;
}

/* The command word at the start of line into w (at most 31 characters:
 * up to a blank or a '/'), and where its argument starts. */
static const char *command_word(const char *line, char w[32]) {
  int n = 0;
  while (n < 31 && line[n] && !isspace((unsigned char)line[n]) && line[n] != '/')
    w[n] = line[n], n++;
  w[n] = 0;
  return line + n;
}

int dbg_command_known(const char *line) {
  line += strspn(line, " \t");
  char w[32];
  const char *arg = command_word(line, w), *subarg = NULL;
  arg += strspn(arg, " \t");
  return w[0] && find(w, arg, &subarg) != NULL;
}

/* Runs one command line. Returns 1 when a launch should resume (*kind says
 * how) or the user quit. */
static int command(struct dbg_session *s, char *line, int *kind) {
  while (isspace((unsigned char)*line))
    line++;
  char *e = line + strlen(line);
  while (e > line && isspace((unsigned char)e[-1]))
    *--e = 0;
  if (!*line || line[0] == '#') return 0;
  /* $bpnum: the number of the last breakpoint set (saved breakpoint files
   * use it) */
  char sub[1024];
  if (strstr(line, "$bpnum")) {
    size_t o = 0;
    for (const char *p = line; *p && o + 16 < sizeof(sub);)
      if (!strncmp(p, "$bpnum", 6)) {
        o += (size_t)snprintf(sub + o, sizeof(sub) - o, "%d", s->next_id - 1);
        p += 6;
      } else {
        sub[o++] = *p++;
      }
    sub[o] = 0;
    line = sub;
  }
  char w[32];
  const char *rest = command_word(line, w);
  size_t n = strlen(w);
  struct call c = {NULL, rest, rest, NULL, 0};
  while (isspace((unsigned char)*c.arg))
    c.arg++;
  c.row = n ? find(w, c.arg, &c.subarg) : NULL;
  if (!c.row) {
    fprintf(s->out, "Undefined command: \"%s\".\n", w);
    return 0;
  }
  if ((c.row->flags & CMD_STOPPED) && !(s->L && s->L->sd)) {
    fprintf(s->out, "%s\n", c.row->none ? c.row->none : "No kernel is stopped.");
    return 0;
  }
  int r = c.row->fn(s, &c);
  *kind = c.kind;
  return r;
}

int dbg_read_cmd(struct dbg_session *s, int *kind) {
  for (;;) {
    if (s->bp_cmds && s->L && s->L->sd && run_bp_commands(s, kind)) return 1;
    struct dbg_hold h;
    s->prompt_L = s->L && s->L->sd ? s->L : NULL; /* for Tab completion */
    dbg_release(s, &h);                           /* nothing waits for the user holding the lock */
    char *line = s->read(s->rctx, "(lockstep) ");
    dbg_reacquire(s, &h);
    s->prompt_L = NULL;
    if (!line) {
      s->quit = 1;
      return 1;
    }
    if (s->echo) fprintf(s->out, "(lockstep) %s\n", line);
    int r = command(s, line, kind);
    free(line);
    fflush(s->out);
    if (r) return 1; /* a frame selection lasts until its item moves (dbg_frame_selected) */
  }
}

void dbg_command_run(struct dbg_session *s, const char *line) {
  char *copy = strdup(line);
  if (!copy) return;
  int kind = 0;
  dbg_lock(s, NULL);
  command(s, copy, &kind);
  s->quit = 0; /* nothing to quit: the front end reads the next line */
  fflush(s->out);
  dbg_unlock(s);
  free(copy);
}

int dbg_prompt(struct dbg_session *s) {
  int kind = 0;
  dbg_lock(s, NULL);
  dbg_read_cmd(s, &kind);
  int quit = s->quit;
  if (!quit) s->stop_entry = kind == 'e';
  dbg_unlock(s);
  return quit;
}

/* The commands' full names, each once, in the table's order. */
static char names[NCMDS][24];
static unsigned nnames;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void name_list(void) {
  for (size_t r = 0; r < NCMDS; r++) {
    const char *sp = cmds[r].spell;
    size_t len = strcspn(sp, " "), star = strcspn(sp, "*");
    char f[sizeof(names[0])];
    if (star < len)
      snprintf(f, sizeof(f), "%.*s%.*s", (int)star, sp, (int)(len - star - 1), sp + star + 1);
    else
      snprintf(f, sizeof(f), "%.*s", (int)len, sp);
    unsigned q = 0;
    while (q < nnames && strcmp(names[q], f))
      q++;
    if (q == nnames) memcpy(names[nnames++], f, sizeof(f));
  }
}

const char *dbg_command_name(unsigned i) {
  pthread_once(&names_once, name_list);
  return i < nnames ? names[i] : NULL;
}

const char *dbg_dap_capability(unsigned i) {
  for (size_t r = 0; r < NCMDS; r++)
    for (size_t k = 0; k < sizeof(cmds[r].dap) / sizeof(cmds[r].dap[0]) && cmds[r].dap[k]; k++)
      if (i-- == 0) return cmds[r].dap[k];
  return NULL;
}

/* Each full spelling in list (blank- or '|'-separated, '*' marks dropped)
 * that starts with the n bytes at word, to add. */
static void add_spellings(const char *list, const char *word, size_t n, dbg_complete_fn add,
                          void *ctx) {
  while (*list) {
    size_t len = strcspn(list, " |"), star = strcspn(list, "*");
    char f[32];
    if (star < len)
      snprintf(f, sizeof(f), "%.*s%.*s", (int)star, list, (int)(len - star - 1), list + star + 1);
    else
      snprintf(f, sizeof(f), "%.*s", (int)len, list);
    if (!strncmp(f, word, n)) add(ctx, f);
    list += len;
    list += strspn(list, " |");
  }
}

size_t dbg_complete(struct dbg_session *s, const char *line, dbg_complete_fn add, void *ctx) {
  size_t lead = strspn(line, " \t");
  const char *cmd = line + lead;
  char w[32];
  const char *arg = command_word(cmd, w);
  if (!*arg) { /* the command word itself */
    const char *name;
    for (unsigned i = 0; (name = dbg_command_name(i)); i++)
      if (!strncmp(name, cmd, strlen(cmd))) add(ctx, name);
    return lead;
  }
  if (*arg == '/') arg += strcspn(arg, " \t"); /* print/x, display/x, x/4dw */
  const char *a = arg + strspn(arg, " \t");
  size_t an = strcspn(a, " \t");
  unsigned kinds = 0;
  int subbed = 0; /* a whole subcommand word: the row without one is not it */
  for (size_t i = 0; i < NCMDS; i++)
    subbed |= cmds[i].sub && a[an] && an && spelled(cmds[i].spell, w, strlen(w)) &&
              spelled(cmds[i].sub, a, an);
  for (size_t i = 0; i < NCMDS; i++) {
    if (!spelled(cmds[i].spell, w, strlen(w))) continue;
    if (cmds[i].sub && !a[an]) /* the subcommand word */
      add_spellings(cmds[i].sub, a, an, add, ctx);
    else if (cmds[i].sub ? an && spelled(cmds[i].sub, a, an) : !subbed)
      kinds |= cmds[i].flags;
  }
  if (subbed) { /* a setting's values: set scheduler-locking on|off, set pass ... */
    static const struct {
      const char *sub, *values;
    } V[] = {{"scheduler-locking", "on|off|step"},
             {"pass", "all|in-progress"},
             {"check", "races|uninit|all|on|off|stop"}};
    const char *v = a + an + strspn(a + an, " \t");
    for (size_t i = 0; i < sizeof(V) / sizeof(V[0]); i++)
      if (!strcmp(w, "set") && !strncmp(a, V[i].sub, an) && an == strlen(V[i].sub) &&
          !v[strcspn(v, " \t")])
        add_spellings(V[i].values, v, strlen(v), add, ctx);
    if (!(kinds & (CMD_LOC | CMD_EXPR))) return (size_t)(v - line);
  }
  int kind = kinds & CMD_LOC ? DBG_ARG_LOC : kinds & CMD_EXPR ? DBG_ARG_EXPR : 0;
  if (!kind || !s) return (size_t)(a - line);
  if (dbg_lock_briefly(s, NULL)) return (size_t)(a - line);
  s->L = s->prompt_L;
  size_t at = dbg_complete_arg(s, a, kind, add, ctx);
  dbg_unlock(s);
  return (size_t)(a - line) + at;
}
