/*
 * dbg_engine.c - the debug engine: holds one launch open on the device
 * (simt_dbg), runs its work-items microkernel by microkernel for stepping or
 * at full speed up to the next breakpoint, and answers the text commands.
 *
 * Output goes to the session's stream only; it must not read a terminal,
 * parse program options or change how undebugged launches run.
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

struct dbg_session *dbg_new(FILE *out, dbg_read_fn read, void *ctx) {
  struct dbg_session *s = calloc(1, sizeof(*s));
  if (!s) return NULL;
  pthread_mutex_init(&s->lock, NULL);
  s->out = s->user_out = out;
  s->read = read;
  s->rctx = ctx;
  s->next_id = 1;
  return s;
}

void dbg_free(struct dbg_session *s) {
  if (!s) return;
  for (int i = 0; i < s->ndirs; i++)
    free(s->dirs[i]);
  for (int i = 0; i < s->nfiles; i++)
    free(s->files[i]);
  free(s->options);
  dbg_keep_free(s);
  dbg_hist_free(s);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

void dbg_lock(struct dbg_session *s, struct dbg_launch *L) {
  pthread_mutex_lock(&s->lock);
  s->L = L;
  s->out = L && L->out ? L->out : s->user_out;
}

void dbg_unlock(struct dbg_session *s) {
  pthread_mutex_unlock(&s->lock);
}

void dbg_release(struct dbg_session *s, struct dbg_hold *h) {
  h->L = s->L;
  h->out = s->out;
  fflush(s->out);
  pthread_mutex_unlock(&s->lock);
}

void dbg_reacquire(struct dbg_session *s, const struct dbg_hold *h) {
  pthread_mutex_lock(&s->lock);
  s->L = h->L;
  s->out = h->out;
}

void dbg_set_host_mode(struct dbg_session *s, int on) {
  s->host_mode = on;
}

void dbg_add_dir(struct dbg_session *s, const char *dir) {
  for (int i = 0; i < s->ndirs; i++)
    if (!strcmp(s->dirs[i], dir)) return;
  if (s->ndirs < MAX_DIRS) s->dirs[s->ndirs++] = strdup(dir);
}

void dbg_add_source_dir(struct dbg_session *s, const char *dir) {
  dbg_lock(s, NULL);
  dbg_add_dir(s, dir);
  dbg_unlock(s);
}

int dbg_source_dirs(const struct dbg_session *s, const char *const **dirs) {
  *dirs = (const char *const *)s->dirs;
  return s->ndirs;
}

void dbg_set_interrupt(struct dbg_session *s, dbg_poll_fn poll, void *ctx) {
  s->interrupt = poll;
  s->ictx = ctx;
}

void dbg_set_temp_gone(struct dbg_session *s, dbg_gone_fn gone) {
  s->temp_gone = gone;
}

void dbg_set_build_options(struct dbg_session *s, const char *options) {
  dbg_lock(s, NULL);
  free(s->options);
  s->options = options ? strdup(options) : NULL;
  dbg_unlock(s);
}

void dbg_set_echo(struct dbg_session *s, int on) {
  s->echo = on;
}

/* ---- source and positions ---- */

const char *dbg_base(const char *p) {
  const char *b = strrchr(p, '/');
  return b ? b + 1 : p;
}

/* Whether the launch's program matched no file and is named after its
 * first kernel: any kernel of it names its lines then. */
static int named_after_kernels(const struct dbg_session *s) {
  const struct lsi_program *p = s->L && s->L->l ? s->L->l->prog : NULL;
  return p && s->L->file && p->nkernels && !strcmp(s->L->file, p->kernels[0].name);
}

const char *dbg_where_file(const struct dbg_session *s) {
  return named_after_kernels(s) ? s->L->k->name : dbg_base(s->L->file);
}

static const struct cc_microkernel *mk_at(struct dbg_session *s, uint32_t pc) {
  return s->L->dbg ? cc_debug_mk_at(s->L->dbg, pc) : NULL;
}

uint32_t dbg_item_line(struct dbg_session *s, uint64_t item) {
  uint32_t pc;
  int st = simt_dbg_state(s->L->sd, item, &pc);
  if (st == SIMT_DBG_DONE) return 0;
  const struct cc_microkernel *m = mk_at(s, pc);
  if (st == SIMT_DBG_FAULT && s->L->k->lines && pc < s->L->k->ninsns)
    return s->L->k->lines[pc].line;
  return m ? m->line_first : s->L->dbg ? s->L->dbg->line_first : 0;
}

/* The inlined call (index + 1) the line statement m is shown at belongs
 * to, 0 for the kernel's own code. */
static uint32_t mk_call(struct dbg_session *s, const struct cc_microkernel *m) {
  if (!s->L->dbg->pc_inl) return 0;
  for (uint32_t q = m->pc_begin; q < m->pc_end; q++)
    if (s->L->k->lines[q].line == m->line_first) return s->L->dbg->pc_inl[q];
  return s->L->dbg->pc_inl[m->pc_begin];
}

uint32_t dbg_item_inline(struct dbg_session *s, uint64_t item) {
  uint32_t pc;
  int st = simt_dbg_state(s->L->sd, item, &pc);
  if (st == SIMT_DBG_DONE || !s->L->dbg->pc_inl || pc >= s->L->k->ninsns) return 0;
  const struct cc_microkernel *m = st == SIMT_DBG_FAULT ? NULL : mk_at(s, pc);
  return m ? mk_call(s, m) : s->L->dbg->pc_inl[pc];
}

void dbg_backtrace_cmd(struct dbg_session *s) {
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int n = dbg_frames(s, s->L->focus, fr, DBG_MAX_FRAMES), d = n - 1;
  for (int i = 0; i < d; i++)
    fprintf(s->out, "#%d  %s (inlined) at %s:%u\n", i, s->L->dbg->inl[fr[i].inl - 1].func,
            dbg_where_file(s), fr[i].line);
  if (fr[d].line)
    fprintf(s->out, "#%d  %s at %s:%u\n", d, s->L->k->name, dbg_where_file(s), fr[d].line);
  else
    fprintf(s->out, "#%d  %s (finished)\n", d, s->L->k->name);
}

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

static void show_line(struct dbg_session *s, uint32_t line) {
  if (line && line <= s->L->nlines) fprintf(s->out, "%u\t%s\n", line, s->L->lines[line - 1]);
}

static void ids_str(struct dbg_session *s, uint64_t item, char *buf, size_t n) {
  uint64_t g[3], l[3], w[3];
  simt_dbg_ids(s->L->sd, item, g, l, w);
  snprintf(buf, n,
           "work-item (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") local (%" PRIu64 ",%" PRIu64 ",%" PRIu64
           ") group (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")",
           g[0], g[1], g[2], l[0], l[1], l[2], w[0], w[1], w[2]);
}

/* The frames the focus's stop is shown up from its statement, at the line
 * of a call that starts there (a step stopped there), else 0. */
static int call_stop_now(struct dbg_session *s) {
  uint32_t pc = 0;
  if (!s->L->call_stop || s->L->call_item != s->L->focus) return 0;
  simt_dbg_state(s->L->sd, s->L->focus, &pc);
  return pc == s->L->call_pc ? s->L->call_stop : 0;
}

void dbg_where(struct dbg_session *s, const char *why) {
  char ids[160];
  /* "Breakpoint 1, k work-item ..." but "Switching to k work-item ..." */
  const char *sep = why && !strcmp(why, "Switching to") ? " " : ", ";
  ids_str(s, s->L->focus, ids, sizeof(ids));
  uint32_t line = dbg_item_line(s, s->L->focus);
  if (line && call_stop_now(s) && dbg_frame_selected(s)) line = dbg_frame_current(s).line;
  if (!line && why && *sep == ' ') {
    fprintf(s->out, "%s %s %s, which has finished\n", why, s->L->k->name, ids);
    return;
  }
  if (!line) {
    fprintf(s->out, "%s%s%s has finished\n", why ? why : "", why ? sep : "", ids);
    return;
  }
  fprintf(s->out, "%s%s%s %s at %s:%u\n", why ? why : "", why ? sep : "", s->L->k->name, ids,
          dbg_where_file(s), line);
  show_line(s, line);
}

/* ---- variables ---- */

static const struct cc_type *type_hook(void *ctx, const char *name) {
  struct dbg_session *s = ctx;
  return cc_debug_find_type(s->L->dbg, name);
}

static void *mem(void *ctx, uint64_t addr, uint64_t size);
static int sreg(void *ctx, const char *fn, unsigned dim, uint64_t *out);

static const struct cc_type *type_at(void *ctx, unsigned i) {
  struct dbg_session *s = ctx;
  return s->L->dbg && i < s->L->dbg->ntypes ? &s->L->dbg->types[i] : NULL;
}

static const char *space_of(void *ctx, uint64_t addr) {
  (void)ctx;
  switch (LSI_ADDR_SPACE(addr)) {
  case LSI_SPACE_GLOBAL: return "__global ";
  case LSI_SPACE_CONSTANT: return "__constant ";
  case LSI_SPACE_LOCAL: return "__local ";
  default: return "";
  }
}

/* Names the memory addr is in: the buffer of a kernel argument, the
 * program's data, __local or private memory. */
static void region_of(void *ctx, uint64_t addr, char *buf, size_t n) {
  struct dbg_session *s = ctx;
  unsigned sp = LSI_ADDR_SPACE(addr);
  if (sp == LSI_SPACE_LOCAL) {
    snprintf(buf, n, "the work-group's __local memory");
    return;
  }
  if (sp != LSI_SPACE_GLOBAL && sp != LSI_SPACE_CONSTANT) {
    snprintf(buf, n, "the work-item's private memory");
    return;
  }
  for (uint32_t j = 0; s->L->k && s->L->l && j < s->L->k->nargs; j++) {
    const struct lsi_arg *a = &s->L->k->args[j];
    if (a->kind != LSI_ARG_GLOBAL && a->kind != LSI_ARG_CONSTANT) continue;
    uint64_t v;
    memcpy(&v, s->L->l->argbuf + a->buf_offset, 8);
    if (v && LSI_ADDR_SPACE(v) == sp && LSI_ADDR_ID(v) == LSI_ADDR_ID(addr)) {
      snprintf(buf, n, "buffer '%s' (argument %u)", a->name && *a->name ? a->name : "?", j);
      return;
    }
  }
  if (s->L->l && s->L->l->data_base && LSI_ADDR_ID(s->L->l->data_base) == LSI_ADDR_ID(addr))
    snprintf(buf, n, "the program's global data");
  else
    snprintf(buf, n, "buffer #%u", LSI_ADDR_ID(addr));
}

static const char *lookup(void *ctx, const char *name, struct dbg_val *v) {
  struct dbg_session *s = ctx;
  static char msg[160];
  const char *why = NULL;
  const struct cc_symbol *sym = dbg_frame_symbol(s, name, &why);
  if (!sym) return why;
  struct dbg_env env;
  dbg_session_env(s, &env);
  if (!dbg_type_resolve(&env, sym->type_name, v)) {
    snprintf(msg, sizeof(msg), "variable '%s' has type '%s' the debugger cannot show", name,
             sym->type_name);
    return msg;
  }
  if ((sym->space == CC_SYM_PRIVATE || sym->space == CC_SYM_LOCAL) && s->L->sd &&
      simt_dbg_state(s->L->sd, s->L->focus, NULL) == SIMT_DBG_DONE) {
    uint64_t g[3], l[3], w[3];
    simt_dbg_ids(s->L->sd, s->L->focus, g, l, w);
    snprintf(msg, sizeof(msg),
             "work-item (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") has finished: its %s variable '%s' "
             "no longer exists",
             g[0], g[1], g[2], sym->space == CC_SYM_LOCAL ? "__local" : "private", name);
    return msg;
  }
  switch (sym->space) {
  case CC_SYM_PRIVATE: v->addr = LSI_ADDR(LSI_SPACE_PRIVATE, 0, sym->offset); break;
  case CC_SYM_LOCAL: v->addr = LSI_ADDR(LSI_SPACE_LOCAL, 0, sym->offset); break;
  case CC_SYM_GLOBAL:
  case CC_SYM_CONSTANT: v->addr = s->L->l->data_base + sym->offset; break;
  default:
    snprintf(msg, sizeof(msg), "variable '%s' lives in a register (build with -g)", name);
    return msg;
  }
  return NULL;
}

static void *mem(void *ctx, uint64_t addr, uint64_t size) {
  struct dbg_session *s = ctx;
  return simt_dbg_mem(s->L->sd, s->L->focus, addr, size);
}

/* The work-item functions an expression may call, as the focused item
 * would get them: name, special register, whether it takes a dimension,
 * and what it gives for a dimension past 2 (as OpenCL C: 1 for a size or a
 * count, 0 for an id or an offset). */
static const struct {
  const char *name;
  unsigned sreg, dims, out_of_range;
} item_fns[] = {
    {"get_global_id", LSI_SREG_GLOBAL_ID_X, 1, 0},
    {"get_local_id", LSI_SREG_LOCAL_ID_X, 1, 0},
    {"get_group_id", LSI_SREG_GROUP_ID_X, 1, 0},
    {"get_global_size", LSI_SREG_GLOBAL_SIZE_X, 1, 1},
    {"get_local_size", LSI_SREG_LOCAL_SIZE_X, 1, 1},
    {"get_enqueued_local_size", LSI_SREG_ENQ_LOCAL_SIZE_X, 1, 1},
    {"get_num_groups", LSI_SREG_NUM_GROUPS_X, 1, 1},
    {"get_global_offset", LSI_SREG_GLOBAL_OFFSET_X, 1, 0},
    {"get_work_dim", LSI_SREG_WORK_DIM, 0, 0},
    {"get_local_linear_id", LSI_SREG_LOCAL_LINEAR_ID, 0, 0},
    {"get_global_linear_id", LSI_SREG_GLOBAL_LINEAR_ID, 0, 0},
    {"get_sub_group_id", LSI_SREG_SUB_GROUP_ID, 0, 0},
    {"get_sub_group_local_id", LSI_SREG_SUB_GROUP_LOCAL_ID, 0, 0},
    {"get_sub_group_size", LSI_SREG_SUB_GROUP_SIZE, 0, 0},
    {"get_max_sub_group_size", LSI_SREG_MAX_SUB_GROUP_SIZE, 0, 0},
    {"get_num_sub_groups", LSI_SREG_NUM_SUB_GROUPS, 0, 0},
};

static int sreg(void *ctx, const char *fn, unsigned dim, uint64_t *out) {
  struct dbg_session *s = ctx;
  for (size_t i = 0; i < sizeof(item_fns) / sizeof(item_fns[0]); i++) {
    if (strcmp(fn, item_fns[i].name)) continue;
    if (item_fns[i].dims && dim > 2)
      *out = item_fns[i].out_of_range;
    else
      *out = simt_dbg_sreg(s->L->sd, s->L->focus, item_fns[i].sreg + (item_fns[i].dims ? dim : 0));
    return 1;
  }
  return 0;
}

void dbg_session_env(struct dbg_session *s, struct dbg_env *env) {
  env->ctx = s;
  env->lookup = lookup;
  env->mem = mem;
  env->sreg = sreg;
  env->type = type_hook;
  env->type_at = type_at;
  env->space = space_of;
  env->region = region_of;
  env->history = dbg_hist_get;
}

static int eval(struct dbg_session *s, const char *text, struct dbg_val *v, char *err, size_t n) {
  struct dbg_env env;
  dbg_session_env(s, &env);
  return dbg_eval(&env, text, v, err, n);
}

/* `whatis EXPR|TYPE` (expand 0), `ptype EXPR|TYPE` (expand 1). */
void dbg_whatis_cmd(struct dbg_session *s, const char *arg, int expand) {
  if (!*arg) {
    fprintf(s->out, "%s needs an expression or a type name\n", expand ? "ptype" : "whatis");
    return;
  }
  struct dbg_env env;
  dbg_session_env(s, &env);
  char buf[4096];
  dbg_whatis(&env, arg, expand, buf, sizeof(buf));
  fprintf(s->out, "%s\n", buf);
}

int dbg_format_letter(struct dbg_session *s, const char **arg, const char *cmd) {
  const char *a = *arg;
  if (a[0] != '/') return 0;
  int fmt = a[1];
  if (!fmt || !strchr("xduotc", fmt) || (a[2] && !isspace((unsigned char)a[2]))) {
    fprintf(s->out, "invalid %s format '/%.*s' (one of x d u o t c)\n", cmd,
            (int)strcspn(a + 1, " \t"), a + 1);
    return -1;
  }
  *arg = a + 2;
  return fmt;
}

void dbg_print_cmd(struct dbg_session *s, const char *arg) {
  int fmt = dbg_format_letter(s, &arg, "print");
  if (fmt < 0) return;
  while (isspace((unsigned char)*arg))
    arg++;
  if (!*arg && !s->nhist) {
    fprintf(s->out, "print needs an expression\n");
    return;
  }
  if (!*arg) arg = "$"; /* the last value again, as gdb does */
  struct dbg_val v;
  char err[200], buf[4096];
  char ref[64];
  snprintf(ref, sizeof(ref), "%.*s", (int)strcspn(arg, " \t"), arg);
  int kept = arg[strlen(ref) + strspn(arg + strlen(ref), " \t")] ? -1 : dbg_hist_kept(s, ref);
  if (kept >= 0) { /* an aggregate from the history: its text, as a new value */
    v = s->hist[kept].v;
    snprintf(buf, sizeof(buf), "%s", s->hist[kept].text);
  } else {
    if (eval(s, arg, &v, err, sizeof(err))) {
      fprintf(s->out, "%s\n", err);
      return;
    }
    struct dbg_env env;
    dbg_session_env(s, &env);
    dbg_format(&env, &v, fmt, buf, sizeof(buf));
  }
  int n = dbg_hist_push(s, &v, buf);
  if (n)
    fprintf(s->out, "$%d = %s\n", n, buf);
  else
    fprintf(s->out, "$ = %s\n", buf);
}

/* x/NFU EXPR: N units of U bytes (b h w g) from the address EXPR gives, in
 * format F (x d u o f c). */
void dbg_examine(struct dbg_session *s, const char *arg) {
  unsigned long count = 1;
  unsigned size = 4;
  char fmt = 'x';
  if (*arg == '/') {
    arg++;
    if (isdigit((unsigned char)*arg)) count = strtoul(arg, (char **)&arg, 10);
    for (; isalpha((unsigned char)*arg); arg++) {
      const char *sz = strchr("bhwg", *arg);
      if (sz)
        size = 1u << (sz - "bhwg");
      else if (strchr("xduofc", *arg))
        fmt = *arg;
      else {
        fprintf(s->out, "invalid format letter '%c' (sizes b h w g, formats x d u o f c)\n", *arg);
        return;
      }
    }
  }
  while (isspace((unsigned char)*arg))
    arg++;
  if (!*arg) {
    fprintf(s->out, "usage: x/NFU ADDRESS-EXPRESSION, e.g. x/4wx &buf[2]\n");
    return;
  }
  if (count == 0 || count > 4096) {
    fprintf(s->out, "count must be 1 to 4096\n");
    return;
  }
  if (fmt == 'f' && size < 4) size = 4;
  if (fmt == 'c') size = 1;
  struct dbg_val v;
  char err[200];
  if (eval(s, arg, &v, err, sizeof(err))) {
    fprintf(s->out, "%s\n", err);
    return;
  }
  uint64_t addr;
  if (v.kind == DBG_PTR || v.kind == DBG_INT)
    addr = (uint64_t)v.i;
  else if (v.addr)
    addr = v.addr;
  else {
    fprintf(s->out, "'%s' is not an address\n", arg);
    return;
  }
  unsigned per = size == 8 ? 2 : size == 4 ? 4 : 8;
  for (unsigned long i = 0; i < count; i++) {
    uint64_t a = addr + i * size;
    const uint8_t *p = mem(s, a, size);
    if (i % per == 0) fprintf(s->out, "%s0x%" PRIx64 ":", i ? "\n" : "", a);
    if (!p) {
      fprintf(s->out, "\tCannot access memory at address 0x%" PRIx64, a);
      break;
    }
    uint64_t u = 0;
    memcpy(&u, p, size);
    int64_t sv = size == 8 ? (int64_t)u : (int64_t)(u << (64 - 8 * size)) >> (64 - 8 * size);
    if (fmt == 'x')
      fprintf(s->out, "\t0x%0*" PRIx64, (int)size * 2, u);
    else if (fmt == 'd')
      fprintf(s->out, "\t%" PRId64, sv);
    else if (fmt == 'u')
      fprintf(s->out, "\t%" PRIu64, u);
    else if (fmt == 'o')
      fprintf(s->out, "\t0%" PRIo64, u);
    else if (fmt == 'c')
      fprintf(s->out, "\t%d '%c'", (int)sv, isprint((int)u) ? (int)u : '.');
    else if (size == 4) {
      float f;
      memcpy(&f, p, 4);
      fprintf(s->out, "\t%g", f);
    } else {
      double f;
      memcpy(&f, p, 8);
      fprintf(s->out, "\t%g", f);
    }
  }
  fprintf(s->out, "\n");
}

void dbg_info_vars(struct dbg_session *s, int args) {
  struct dbg_frame f = dbg_frame_current(s);
  int any = 0;
  for (uint32_t i = 0; s->L->dbg && i < s->L->dbg->nsyms; i++) {
    const struct cc_symbol *y = &s->L->dbg->syms[i];
    if (!dbg_frame_lists(y, &f, args)) continue;
    char ex[80];
    snprintf(ex, sizeof(ex), "%s", y->name);
    struct dbg_val v;
    char err[200], buf[2048];
    if (eval(s, ex, &v, err, sizeof(err))) {
      fprintf(s->out, "%s = <%s>\n", y->name, err);
    } else {
      struct dbg_env env;
      dbg_session_env(s, &env);
      dbg_format(&env, &v, 0, buf, sizeof(buf));
      fprintf(s->out, "%s = %s\n", y->name, buf);
    }
    any = 1;
  }
  if (!any) fprintf(s->out, args ? "No arguments.\n" : "No locals.\n");
}

/* ---- breakpoints ---- */

/* A statement that only branches, yields or reconverges. */
static int mk_flow_only(struct dbg_session *s, const struct cc_microkernel *mk) {
  for (uint32_t pc = mk->pc_begin; pc < mk->pc_end; pc++) {
    unsigned op = s->L->k->code[pc].op;
    if (op != LSI_BRA && op != LSI_SYNC && op != LSI_SSY && op != LSI_YIELD) return 0;
  }
  return 1;
}

/* The line of the program's file a statement's code starts at (a statement
 * that evaluates a call's arguments and enters the inlined callee is shown
 * at the callee's line, but starts at the call's), else 0. */
static uint32_t mk_start_line(struct dbg_session *s, const struct cc_microkernel *mk,
                              uint32_t file) {
  for (uint32_t pc = mk->pc_begin; pc < mk->pc_end; pc++)
    if (s->L->k->lines[pc].line)
      return s->L->k->lines[pc].file == file ? s->L->k->lines[pc].line : 0;
  return 0;
}

/* The first instruction of inlined call c (index + 1 into dbg->inl) and of
 * the calls it makes. */
static uint32_t call_first_pc(struct dbg_session *s, uint32_t c) {
  for (uint32_t pc = 0; pc < s->L->k->ninsns; pc++) {
    int depth = 0;
    for (uint32_t d = s->L->dbg->pc_inl[pc]; d && d <= s->L->dbg->ninl && depth < DBG_MAX_FRAMES;
         d = s->L->dbg->inl[d - 1].parent, depth++)
      if (d == c) return pc;
  }
  return UINT32_MAX;
}

/* Whether a statement's first instruction belongs to line of the program's
 * file: it is at the line, or in an inlined call made at the line (a call
 * whose arguments need no code there, `x += seven();`, starts with the
 * callee's first instruction; the statements after the call's start do
 * not belong to the line). */
static int mk_starts_at(struct dbg_session *s, const struct cc_microkernel *mk, uint32_t file,
                        uint32_t line) {
  uint32_t at = mk_start_line(s, mk, file);
  if (at == line) return 1;
  if (!at || !s->L->dbg->pc_inl) return 0;
  uint32_t pc = mk->pc_begin;
  while (pc < mk->pc_end && !s->L->k->lines[pc].line)
    pc++;
  int depth = 0;
  for (uint32_t c = pc < mk->pc_end ? s->L->dbg->pc_inl[pc] : 0;
       c && c <= s->L->dbg->ninl && depth < DBG_MAX_FRAMES;
       c = s->L->dbg->inl[c - 1].parent, depth++)
    if (s->L->dbg->inl[c - 1].call_line == line)
      return call_first_pc(s, c) == pc; /* the call starts */
  return 0;
}

/* Whether a breakpoint at line binds to mk: a statement shown at the line,
 * or, when none is, one whose first instruction belongs to it (a call with
 * nothing after it on its line stops as the call starts, not after it at
 * the next line). */
static int mk_at_line(struct dbg_session *s, const struct cc_microkernel *mk, uint32_t line) {
  if (mk->line_first == line) return 1;
  uint32_t file = s->L->dbg->nmk ? s->L->dbg->mk[0].file : 0;
  if (!mk_starts_at(s, mk, file, line)) return 0;
  for (uint32_t m = 0; m < s->L->dbg->nmk; m++)
    if (s->L->dbg->mk[m].line_first == line && s->L->dbg->mk[m].file == file) return 0;
  return 1;
}

/* Whether breakpoint b names the program of the launch: its file, or, for
 * a program no file matched (named after its first kernel), any kernel of
 * the program, so `break count:20` works whichever kernel comes first. */
int dbg_bp_file_match(struct dbg_session *s, const struct bp *b) {
  if (!b->file[0] || !strcmp(dbg_base(b->file), dbg_base(s->L->file))) return 1;
  if (!named_after_kernels(s)) return 0;
  const struct lsi_program *p = s->L->l->prog;
  for (uint32_t k = 0; k < p->nkernels; k++)
    if (!strcmp(b->file, p->kernels[k].name)) return 1;
  return 0;
}

/* The first line at or after b->line where a statement of the program's
 * file starts, over every kernel of the program (so a line in one kernel
 * never binds to a later line of another), if this kernel has it; else 0. */
uint32_t dbg_bp_line(struct dbg_session *s, const struct bp *b) {
  if (!s->L || !s->L->k || !b->line || !dbg_bp_file_match(s, b)) return 0;
  uint32_t file = s->L->dbg->nmk ? s->L->dbg->mk[0].file : 0;
  for (uint32_t m = 0; m < s->L->dbg->nmk; m++)
    if (mk_starts_at(s, &s->L->dbg->mk[m], file, b->line) &&
        mk_at_line(s, &s->L->dbg->mk[m], b->line))
      return b->line;
  uint32_t best = UINT32_MAX;
  const struct lsi_program *p = s->L->l->prog;
  uint32_t nk = p ? p->nkernels : 1;
  for (uint32_t k = 0; k < nk; k++) {
    const struct cc_debug *d = p ? p->kernels[k].debug : s->L->dbg;
    for (uint32_t m = 0; d && m < d->nmk; m++)
      if (d->mk[m].file == file && d->mk[m].line_first >= b->line && d->mk[m].line_first < best)
        best = d->mk[m].line_first;
  }
  for (uint32_t m = 0; m < s->L->dbg->nmk; m++)
    if (s->L->dbg->mk[m].line_first == best && s->L->dbg->mk[m].file == file) return best;
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
    if (!to_m && o->more_succ && !mk_at_line(s, o, line)) return 0;
    if (!to_m) continue;
    /* a branch or reconvergence point (a loop's exit) does not start the line */
    if (!mk_at_line(s, o, line) || mk_flow_only(s, o)) return 0;
    preds++;
  }
  return preds > 0;
}

/* Where each inlined call of the launch's kernel starts (call_entry): the
 * first statement of its own (its arguments are passed by then), else, for
 * a call that is all inside one statement of its caller, the statement its
 * first instruction is in; UINT32_MAX when it has no code. */
static void call_entries(struct dbg_session *s) {
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
      const struct cc_microkernel *m = mk_at(s, pc);
      s->L->inl_entry[c - 1] = m ? m->pc_begin : UINT32_MAX;
    }
  }
  free(seen);
}

/* Where inlined call idx starts (call_entries). */
static uint32_t call_entry(struct dbg_session *s, uint32_t idx) {
  return s->L->inl_entry && idx < s->L->dbg->ninl ? s->L->inl_entry[idx] : UINT32_MAX;
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
static void bp_bind(struct dbg_session *s) {
  if (!s->L || !s->L->k) return;
  s->L->bp_gen = s->bp_gen;
  memset(s->L->bpset, 0, s->L->k->ninsns + 1);
  memset(s->L->bpid, 0, (s->L->k->ninsns + 1) * sizeof(s->L->bpid[0]));
  memset(s->L->bpline, 0, (s->L->k->ninsns + 1) * sizeof(s->L->bpline[0]));
  for (int i = 0; i < s->nbp; i++) {
    struct bp *b = &s->bps[i];
    /* a function inlined into the kernel: where each of its calls starts */
    for (uint32_t idx = 0; b->enabled && !b->line && idx < s->L->dbg->ninl; idx++) {
      if (strcmp(s->L->dbg->inl[idx].func, b->kernel)) continue;
      uint32_t pc = call_entry(s, idx);
      if (pc == UINT32_MAX) continue;
      s->L->bpset[pc] = 1;
      b->bound = 1;
      const struct cc_microkernel *m = mk_at(s, pc);
      if (m && m->pc_begin == pc) bp_note(s, pc, b, 0);
    }
    if (!b->enabled || !b->line || !dbg_bp_file_match(s, b)) continue;
    b->bound = 1;
    if (s->L->nlines && b->line > s->L->nlines && !b->warned) {
      fprintf(s->out, "Breakpoint %d: line %u is past the end of %s (%u lines).\n", b->id, b->line,
              dbg_base(s->L->file), s->L->nlines);
      b->warned = 1;
    }
    uint32_t best = dbg_bp_line(s, b);
    if (!best) continue;
    for (uint32_t pc = 0; pc <= s->L->k->ninsns; pc++) {
      const struct cc_microkernel *m = mk_at(s, pc);
      if (m && m->pc_begin == pc && mk_at_line(s, m, best)) bp_note(s, pc, b, best);
    }
    /* a loop's own line (for/while) stops once, as the loop starts; a while
     * loop's body ends with the branch back (a latch) and still stops */
    int has_init = 0, has_cond = 0, has_work = 0;
    for (uint32_t q = 0; q < s->L->dbg->nmk; q++) {
      const struct cc_microkernel *mk = &s->L->dbg->mk[q];
      if (!mk_at_line(s, mk, best)) continue;
      has_init |= mk->role == CC_MK_LOOP_INIT;
      has_cond |= mk->role == CC_MK_LOOP_COND;
      has_work |= mk->role != CC_MK_LOOP_COND && !mk_flow_only(s, mk);
    }
    for (uint32_t m = 0; m < s->L->dbg->nmk; m++) {
      const struct cc_microkernel *mk = &s->L->dbg->mk[m];
      if (!mk_at_line(s, mk, best)) continue;
      if (mk->role == CC_MK_LOOP_COND) continue;
      if (mk->role == CC_MK_LOOP_INC && (has_cond || has_init)) continue;
      if (mk->role == CC_MK_LOOP_BODY && has_init) continue;
      /* a loop's yield point on the line of its first statement: the
       * statement stops, once per iteration */
      if (has_work && mk_flow_only(s, mk)) continue;
      if (mk_continues_line(s, m, best)) continue;
      s->L->bpset[mk->pc_begin] = 1;
    }
  }
}

/* The breakpoint a statement starting at pc belongs to (bp_bind noted it). */
static struct bp *bp_at(struct dbg_session *s, uint32_t pc) {
  int id = s->L->bpid && s->L->k && pc <= s->L->k->ninsns ? s->L->bpid[pc] : 0;
  /* a launch that ran while they changed binds them at its next stretch:
   * a breakpoint deleted or disabled since stops nothing */
  for (int i = 0; id && i < s->nbp; i++)
    if (s->bps[i].id == id) return s->bps[i].enabled ? &s->bps[i] : NULL;
  return NULL;
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
  b.id = s->next_id++;
  b.enabled = 1;
  b.temp = temp;
  s->bps[s->nbp++] = b;
  fprintf(s->out, "%s %d at ", temp ? "Temporary breakpoint" : "Breakpoint", b.id);
  if (b.line)
    fprintf(s->out, "%s%s%u", b.file, b.file[0] ? ":" : "line ", b.line);
  else
    fprintf(s->out, "kernel %s", b.kernel);
  if (b.cond[0]) fprintf(s->out, " if %s", b.cond);
  if (bp_pending(s, &b)) fprintf(s->out, " (pending)");
  fprintf(s->out, "\n");
  s->bp_gen++;
  bp_bind(s);
}

void dbg_bp_each(struct dbg_session *s, const char *arg, int what) {
  while (isspace((unsigned char)*arg))
    arg++;
  if (!*arg) {
    if (what == 0) s->nbp = 0;
    for (int i = 0; i < s->nbp; i++)
      s->bps[i].enabled = what == 1;
    s->bp_gen++;
    bp_bind(s);
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
  bp_bind(s);
}

/* Deletes temporary breakpoint id, which was hit. */
static void bp_delete(struct dbg_session *s, int id) {
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
    else if (b->line)
      fprintf(s->out, "%s%s%u", b->file[0] ? b->file : "line ", b->file[0] ? ":" : "", b->line);
    else
      fprintf(s->out, "kernel %s", b->kernel);
    if (b->cond[0]) fprintf(s->out, " if %s", b->cond);
    if (bp_pending(s, b)) fprintf(s->out, " (pending)");
    if (b->hits) fprintf(s->out, " (hit %d time%s)", b->hits, b->hits == 1 ? "" : "s");
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

static int run_item(struct dbg_session *s, uint64_t item, const uint8_t *stop_at,
                    int (*accept)(struct dbg_session *, uint64_t, uint32_t, void *), void *arg);
static int bp_accept(struct dbg_session *s, uint64_t item, uint32_t pc, void *arg);

/* Whether a work-item run on a stepped one's behalf (to the barrier or
 * sub-group function it waits at) stops at pc, as a pass would stop it: a
 * breakpoint whose condition holds, a change of its watched value. One
 * already asked there stops only for a hit of the last pass still to be
 * reported. */
static int catch_accept(void *arg, uint64_t item, uint32_t pc, int asked) {
  struct dbg_session *s = arg;
  if (asked) return dbg_pass_take(s, item);
  if (s->L->watchset[pc] && dbg_has_watch(s, item) && dbg_watch_changed(s, item)) return 1;
  return s->L->bpset[pc] && bp_accept(s, item, pc, NULL);
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
 * releases it (ST_NONE). Another item that stops on its way there (a
 * breakpoint, a watched change, an assertion, an exception) ends the step
 * (its enum stop, the focus moves to it), as a thread that hits a
 * breakpoint while another one steps does in gdb; item keeps waiting. */
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
    if (!s->L->paused && s->interrupt && s->interrupt(s->ictx)) s->L->paused = 1;
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

static int bp_accept(struct dbg_session *s, uint64_t item, uint32_t pc, void *arg) {
  (void)arg;
  struct bp *b = bp_at(s, pc);
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
    int bad = eval(s, b->cond, &v, err, sizeof(err));
    s->L->focus = save;
    s->L->frame = save_frame;
    s->L->frame_item = save_item;
    s->L->frame_pc = save_pc;
    if (bad) {
      fprintf(s->out, "Error in breakpoint %d condition: %s\n", b->id, err);
      return 1;
    }
    if (v.kind == DBG_FLT ? v.f == 0 : v.i == 0) return 0;
  }
  return 1;
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
  int bad = eval(s, b->watch, &v, err, sizeof(err));
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

int dbg_bp_accept(struct dbg_session *s, uint64_t item, uint32_t pc) {
  return bp_accept(s, item, pc, NULL);
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
  if (eval(s, arg, &v, err, sizeof(err))) {
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
static void watch_gc(struct dbg_session *s, int all) {
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
  uint32_t c = mk_call(s, m);
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
  uint32_t c = mk_call(s, m);
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
  uint32_t entry = call_entry(s, c - 1);
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
  if (!mk_flow_only(s, m)) return 0;
  for (uint32_t q = 0; q < s->L->dbg->nmk; q++) {
    const struct cc_microkernel *o = &s->L->dbg->mk[q];
    if (o->line_first == m->line_first && o->file == m->file && !mk_flow_only(s, o)) return 1;
  }
  return 0;
}

static int step_accept(struct dbg_session *s, uint64_t item, uint32_t pc, void *arg) {
  struct step_arg *a = arg;
  const struct cc_microkernel *m = mk_at(s, pc);
  if (s->L->watchset[pc] && dbg_watch_changed(s, item)) return 1;
  if (s->L->bpset[pc] && bp_accept(s, item, pc, NULL)) return 1;
  if (!m) return 0;
  if (m->role == CC_MK_EXIT) return a->mode != 2;
  /* finish and next stop where a call made from the frame they run in
   * starts, shown at the call's line (as gdb stops at the line of a call
   * before `step` enters it) */
  if (a->calls && (a->mode == 1 || a->mode == 2)) {
    uint32_t c = 0;
    int target = a->mode == 1 ? a->depth : a->depth - 1;
    int k = target >= 0 ? call_start(s, m, target, &c) : 0;
    if (!k || c != a->in_call) a->in_call = 0;
    if (k && !a->in_call && c != a->from) return 1;
  }
  if (a->mode == 2) return a->depth > 0 && depth_at(s, m) < a->depth;
  if (!s->L->watchset[m->pc_begin]) return 0;
  if (a->mode == 3 && s->L->until_line) /* until LINE: there, or out of the selected frame */
    return mk_at_line(s, m, s->L->until_line) || depth_at(s, m) < a->depth;
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
  const struct cc_microkernel *m = mk_at(s, pc);
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
      const struct cc_microkernel *m = mk_at(s, pc);
      if (!m || m->pc_begin != pc || !enter_accept(s, 0, pc, NULL)) continue;
      return m->role == CC_MK_EXIT ? 0 : m->line_first;
    }
    return 0;
  }
  for (uint32_t idx = 0; idx < s->L->dbg->ninl; idx++) {
    if (strcmp(s->L->dbg->inl[idx].func, b->kernel)) continue;
    uint32_t pc = call_entry(s, idx);
    const struct cc_microkernel *m = pc != UINT32_MAX ? mk_at(s, pc) : NULL;
    if (m) return m->line_first;
  }
  return 0;
}

/* Stops at the pc arg points to (or the work-item's end), asking nothing. */
static int at_pc_accept(struct dbg_session *s, uint64_t item, uint32_t pc, void *arg) {
  (void)item;
  const struct cc_microkernel *m = mk_at(s, pc);
  return pc == *(const uint32_t *)arg || (m && m->role == CC_MK_EXIT);
}

/* A step that stopped where a call made from a frame of depth inlined
 * calls starts shows the stop in that frame, at the call's line. */
static void call_stop_at(struct dbg_session *s, uint64_t it, uint32_t pc, int depth,
                         uint32_t from) {
  const struct cc_microkernel *m = mk_at(s, pc);
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
  dbg_frame_select(s, k);
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
  int k = call_stop_now(s);
  if (k && mode == 0) {
    /* step enters the call: to its first own statement, past the passing
     * of its arguments */
    uint32_t entry = call_entry(s, s->L->call_idx - 1), pc;
    simt_dbg_state(s->L->sd, it, &pc);
    s->L->call_stop = 0;
    if (pc != entry) {
      int rc = run_item(s, it, s->L->stepset, at_pc_accept, &entry);
      simt_dbg_state(s->L->sd, it, &pc);
      if (rc != ST_STEP || pc != entry) return rc;
      if (s->L->bpset[pc] && bp_accept(s, it, pc, NULL)) return ST_BP;
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
      if (s->L->stepset[pc] && step_accept(s, it, pc, &a)) {
        if (s->L->whit) return ST_WATCH;
        return s->L->bpset[pc] && bp_accept(s, it, pc, NULL) ? ST_BP : ST_STEP;
      }
    }
    int rc = run_item(s, it, s->L->stepset, step_accept, &a);
    if (rc == ST_STEP) {
      uint32_t pc;
      simt_dbg_state(s->L->sd, it, &pc);
      if (s->L->whit) return ST_WATCH;
      if (s->L->bpset[pc] && bp_accept(s, it, pc, NULL)) return ST_BP;
      /* next and finish show a call they stop at the start of at its line
       * (step goes on showing it in the callee, where the arguments pass) */
      if (a.mode == 1 || a.mode == 2)
        call_stop_at(s, it, pc, a.mode == 2 ? a.depth - 1 : a.depth, a.from);
      return ST_STEP;
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
  /* breakpoint hits of the last pass not reported yet, the focus's first:
   * the first one that stands is reported, and nothing moves */
  for (uint64_t k = 0; k < n; k++) {
    uint64_t it = k == 0 ? s->L->focus : k <= s->L->focus ? k - 1 : k;
    if (phase[it] && dbg_pass_take(s, it)) {
      s->L->focus = it;
      rc = ST_BP;
      goto out;
    }
    if (phase[it] && (rc = dbg_pass_take_assert(s, it))) goto out;
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
      rc = st != SIMT_DBG_BARRIER && s->L->bpset[pc] && bp_accept(s, s->L->focus, pc, NULL)
               ? ST_BP
               : ST_STEP;
  }
out:
  free(from);
  free(depth);
  free(phase);
  return rc;
}

void dbg_report(struct dbg_session *s, int rc) {
  if (s->machine && rc != ST_NONE && !(rc == ST_DONE && s->L->finished)) {
    uint32_t pc = 0;
    simt_dbg_state(s->L->sd, s->L->focus, &pc);
    struct bp *b = rc == ST_BP ? bp_at(s, pc) : NULL;
    dbg_mi_stop(s,
                rc == ST_BP || (rc == ST_ENTRY && s->L->entry_bp)     ? "breakpoint"
                : rc == ST_EXC || rc == ST_ASSERT                     ? "exception"
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
    struct bp *b = bp_at(s, pc);
    char why[64];
    snprintf(why, sizeof(why), "%s %d", b && b->temp ? "Temporary breakpoint" : "Breakpoint",
             b                       ? b->id
             : pc <= s->L->k->ninsns ? s->L->bpid[pc]
                                     : 0);
    if (b) b->hits++;
    dbg_where(s, why);
    if (b && b->temp) bp_delete(s, b->id);
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
  } else if (rc == ST_PAUSE) {
    dbg_where(s, "Interrupted");
  } else if (rc == ST_TIMEOUT) {
    dbg_where(s, "Stopped by the watchdog");
  } else if (rc == ST_ENTRY && s->L->entry_bp) { /* break KERNEL */
    char why[64];
    snprintf(why, sizeof(why), "%s %d", s->L->entry_temp ? "Temporary breakpoint" : "Breakpoint",
             s->L->entry_bp);
    s->L->entry_bp = 0;
    dbg_where(s, why);
  } else if (rc == ST_STEP || rc == ST_ENTRY) {
    dbg_where(s, rc == ST_ENTRY ? "Kernel entry" : NULL);
  } else if (rc == ST_EXC) {
    char ids[160];
    ids_str(s, s->L->focus, ids, sizeof(ids));
    uint32_t line = dbg_item_line(s, s->L->focus);
    fprintf(s->out, "Stopped by the exception in %s at %s:%u\n", ids, dbg_where_file(s), line);
    show_line(s, line);
  } else if (rc == ST_DONE) {
    if (simt_dbg_state(s->L->sd, s->L->focus, NULL) == SIMT_DBG_DONE && s->L->finished) {
      fprintf(s->out, "Kernel %s finished.\n", s->L->k->name);
    } else {
      dbg_where(s, NULL);
    }
  }
  if (rc != ST_NONE && rc != ST_IDLE && !(rc == ST_DONE && s->L->finished)) dbg_display_show(s);
}

static int all_done(struct dbg_session *s) {
  uint64_t n = simt_dbg_items(s->L->sd);
  for (uint64_t i = 0; i < n; i++)
    if (simt_dbg_state(s->L->sd, i, NULL) != SIMT_DBG_DONE) return 0;
  return 1;
}

static void list_ranges(struct dbg_session *s, const char *title, int want) {
  uint64_t n = simt_dbg_items(s->L->sd), count = 0;
  fprintf(s->out, "%s:", title);
  for (uint64_t i = 0; i < n;) {
    int st = simt_dbg_state(s->L->sd, i, NULL);
    int cls = st == SIMT_DBG_FRESH ? 0 : st == SIMT_DBG_DONE ? 2 : 1;
    if (cls != want) {
      i++;
      continue;
    }
    uint64_t j = i;
    while (j + 1 < n) {
      int st2 = simt_dbg_state(s->L->sd, j + 1, NULL);
      int c2 = st2 == SIMT_DBG_FRESH ? 0 : st2 == SIMT_DBG_DONE ? 2 : 1;
      if (c2 != want || want == 1) break;
      j++;
    }
    if (want == 1) {
      uint32_t pc;
      int st1 = simt_dbg_state(s->L->sd, i, &pc);
      const struct cc_microkernel *m = mk_at(s, pc);
      fprintf(s->out, " %" PRIu64 "%s(line %u%s)", i, i == s->L->focus ? "*" : "",
              m ? m->line_first : 0, st1 == SIMT_DBG_BARRIER ? ", barrier" : "");
    } else if (j == i) {
      fprintf(s->out, " %" PRIu64, i);
    } else {
      fprintf(s->out, " %" PRIu64 "-%" PRIu64, i, j);
    }
    count += j - i + 1;
    i = j + 1;
  }
  fprintf(s->out, "%s (%" PRIu64 ")\n", count ? "" : " none", count);
}

void dbg_focus_cmd(struct dbg_session *s, const char *arg, int group) {
  uint64_t v[3] = {0, 0, 0};
  /* one to three ids: decimal numbers, nothing else */
  int n = 0;
  const char *p = arg;
  for (;;) {
    while (isspace((unsigned char)*p))
      p++;
    if (!*p) break;
    char *end;
    if (n == 3 || !isdigit((unsigned char)*p)) {
      n = 0;
      break;
    }
    v[n++] = strtoull(p, &end, 10);
    p = end;
    if (*p && !isspace((unsigned char)*p)) {
      n = 0;
      break;
    }
  }
  if (n < 1) {
    fprintf(s->out, "usage: %s X [Y Z]\n", group ? "workgroup" : "workitem");
    return;
  }
  const struct dev_launch *l = s->L->l;
  uint64_t lid[3], glob[3], loc[3], off[3], g[3];
  simt_dbg_ids(s->L->sd, s->L->focus, NULL, lid, NULL);
  int bad = 0, offset = 0;
  for (int k = 0; k < 3; k++) {
    glob[k] = k < (int)l->work_dim ? l->global[k] : 1;
    loc[k] = k < (int)l->work_dim && l->local[k] ? l->local[k] : 1;
    off[k] = k < (int)l->work_dim ? l->offset[k] : 0;
    offset |= off[k] != 0;
  }
  for (int k = 0; k < 3 && !bad; k++) {
    if (group && v[k] * loc[k] >= glob[k]) {
      uint64_t ng = (glob[k] + loc[k] - 1) / loc[k];
      fprintf(s->out,
              "invalid work-group (%" PRIu64 ",%" PRIu64 ",%" PRIu64 "): the launch has %" PRIu64
              " group%s in dimension %d\n",
              v[0], v[1], v[2], ng, ng == 1 ? "" : "s", k);
      bad = 1;
    } else if (!group && (v[k] < off[k] || v[k] - off[k] >= glob[k])) {
      if (offset)
        fprintf(s->out,
                "invalid work-item (%" PRIu64 ",%" PRIu64 ",%" PRIu64
                "): global ids run from (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") to (%" PRIu64
                ",%" PRIu64 ",%" PRIu64 ")\n",
                v[0], v[1], v[2], off[0], off[1], off[2], off[0] + glob[0] - 1,
                off[1] + glob[1] - 1, off[2] + glob[2] - 1);
      else
        fprintf(s->out,
                "invalid work-item (%" PRIu64 ",%" PRIu64 ",%" PRIu64 "): global size is (%" PRIu64
                ",%" PRIu64 ",%" PRIu64 ")\n",
                v[0], v[1], v[2], glob[0], glob[1], glob[2]);
      bad = 1;
    }
    g[k] = group ? v[k] * loc[k] + lid[k] : v[k] - off[k];
  }
  if (bad) return;
  for (int k = 0; k < 3; k++) {
    if (g[k] < glob[k]) continue;
    /* the last work-group of a non-uniform range is smaller */
    uint64_t sz[3];
    for (int j = 0; j < 3; j++)
      sz[j] = glob[j] - v[j] * loc[j] < loc[j] ? glob[j] - v[j] * loc[j] : loc[j];
    fprintf(s->out,
            "work-group (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") has no local id (%" PRIu64 ",%" PRIu64
            ",%" PRIu64 "): its size is (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")\n",
            v[0], v[1], v[2], lid[0], lid[1], lid[2], sz[0], sz[1], sz[2]);
    return;
  }
  uint64_t gx = glob[0], gy = glob[1];
  s->L->focus = g[0] + g[1] * gx + g[2] * gx * gy;
  /* a work-item not started yet starts: its arguments get their values */
  dbg_item_enter(s, s->L->focus);
  dbg_where(s, "Switching to");
}

/* `info workitems`: the pass count, the last pass's entry routine, the
 * three lists and the breakpoint hits still to be reported. */
void dbg_info_workitems(struct dbg_session *s) {
  struct dbg_launch *L = s->L;
  fprintf(s->out, "pass %d, focus %" PRIu64 "\n", L->passes, L->focus);
  if (L->last_run || L->last_skipped)
    fprintf(s->out, "last pass: %u work-group%s issued, %u complete one%s skipped\n", L->last_run,
            L->last_run == 1 ? "" : "s", L->last_skipped, L->last_skipped == 1 ? "" : "s");
  list_ranges(s, "not yet launched", 0);
  list_ranges(s, "in progress", 1);
  list_ranges(s, "logically complete", 2);
  /* the last pass's breakpoint hits still to be reported (of items still
   * at a breakpoint) */
  unsigned np = 0;
  for (unsigned i = 0; i < L->npending; i++) {
    uint32_t pc;
    if (simt_dbg_state(L->sd, L->pending[i], &pc) != SIMT_DBG_RUN || !L->bpset[pc]) continue;
    fprintf(s->out, "%s %" PRIu64, np++ ? "" : "breakpoint hits to report:", L->pending[i]);
  }
  if (np) fprintf(s->out, " (%u)\n", np);
}

/* list [LINE | FIRST,LAST | FIRST,]: ten lines around LINE (the focus's),
 * or from FIRST to LAST (ten from FIRST). */
void dbg_list_cmd(struct dbg_session *s, const char *arg) {
  uint32_t c = dbg_item_line(s, s->L->focus), last = 0;
  if (*arg) {
    char *end;
    unsigned long v = strtoul(arg, &end, 10);
    while (isspace((unsigned char)*end))
      end++;
    int range = *end == ',';
    unsigned long w = 0;
    if (range) {
      const char *b = end + 1;
      while (isspace((unsigned char)*b))
        b++;
      w = *b ? strtoul(b, &end, 10) : 0;
      if (!*b) end = (char *)b;
    }
    if (end == arg || *end || !v || v > UINT32_MAX || (range && w && w < v) || w > UINT32_MAX) {
      fprintf(s->out, "usage: list [LINE | FIRST,LAST]\n");
      return;
    }
    c = (uint32_t)v;
    if (range) last = w ? (uint32_t)w : c + 9;
  }
  if (!c) c = s->L->dbg ? s->L->dbg->line_first : 1;
  uint32_t a = last ? c : c > 5 ? c - 5 : 1;
  if (!last) last = a + 9;
  if (!s->L->nlines) {
    fprintf(s->out, "No source for %s: its program was linked from compiled objects.\n",
            dbg_base(s->L->file));
    return;
  }
  if (a > s->L->nlines) {
    fprintf(s->out, "Line number %u out of range; %s has %u lines.\n", c, dbg_base(s->L->file),
            s->L->nlines);
    return;
  }
  for (uint32_t i = a; i <= last && i <= s->L->nlines; i++)
    fprintf(s->out, "%u\t%s\n", i, s->L->lines[i - 1]);
}

/* The stops of the launch's kernel: statement starts, the ones a step or a
 * watched change is shown at (not a line of braces alone, not a loop's
 * branch back before its statement: the statement after it shows the
 * stop), the breakpoints. */
static void stop_sets(struct dbg_session *s) {
  size_t n = s->L->k->ninsns + 1;
  free(s->L->stepset);
  free(s->L->watchset);
  free(s->L->bpset);
  free(s->L->bpid);
  free(s->L->bpline);
  free(s->L->catchset);
  call_entries(s);
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
  bp_bind(s);
  catch_prepare(s);
}

/* After an edit: the stops of the new code, and the innermost frame. */
void dbg_edit_rebind(struct dbg_session *s) {
  s->L->frame = 0;
  stop_sets(s);
}

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
      int bad = eval(s, b->cond, &v, err, sizeof(err));
      if (bad) fprintf(s->out, "Error in breakpoint %d condition: %s\n", b->id, err);
      if (bad || (v.kind == DBG_FLT ? v.f != 0 : v.i != 0)) {
        b->hits++;
        s->L->entry_bp = b->id;
        s->L->entry_temp = b->temp;
        if (b->temp) bp_delete(s, b->id);
        return ST_ENTRY;
      }
      s->L->focus = save;
    }
  }
  s->L->focus = 0;
  return run_full(s);
}

/* Remembers the name of a program's file (or kernel) a launch came from. */
static void note_file(struct dbg_session *s, const char *name) {
  for (int i = 0; i < s->nfiles; i++)
    if (!strcmp(s->files[i], name)) return;
  if (s->nfiles < MAX_FILES) s->files[s->nfiles++] = strdup(name);
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
  L->k = l->kernel;
  L->dbg = l->kernel->debug;
  L->l = l;
  L->file = L->fname ? L->fname : L->k->name;
  split_lines(s, source);
  stop_sets(s);
  note_file(s, L->file);
  /* a program named after its first kernel: breakpoints may name any of them */
  const struct lsi_program *lp = l->prog;
  if (named_after_kernels(s))
    for (uint32_t k = 1; k < lp->nkernels; k++)
      note_file(s, lp->kernels[k].name);
  return 0;
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
      bp_delete(s, s->bps[i].id);
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
    L->paused = 0;
    if (kind == 'c')
      rc = run_full(s);
    else if (s->scope != SCOPE_ITEM)
      rc = step_set(s, mode);
    else
      rc = step_item(s, mode);
    int moved = rc != ST_NONE;
    if (rc == ST_NONE) rc = ST_STEP;
    watch_gc(s, 0);
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
  if (L->have_exc || all_done(s)) return;
  memset(L->bpset, 0, L->k->ninsns + 1);
  s->nbp = 0;
  L->npending = 0;
  L->pend_assert = 0;
  s->inprog_only = 0;
  while (!L->have_exc && !all_done(s)) {
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

void dbg_teardown(struct dbg_session *s) {
  struct dbg_launch *L = s->L;
  if (L->sd) {
    watch_gc(s, 1);
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
  L->stepset = L->watchset = L->bpset = L->catchset = NULL;
  L->bpid = NULL;
  L->bpline = NULL;
  L->inl_entry = NULL;
}

int dbg_all_done(struct dbg_session *s) {
  return all_done(s);
}

void dbg_rebind(struct dbg_session *s) {
  if (s->L && s->L->sd && s->L->bp_gen != s->bp_gen) bp_bind(s);
}
