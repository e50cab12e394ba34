/*
 * dbg_engine.c - the debug engine's session and what it shows of a stopped
 * launch: the session's life, settings and lock; positions (file, line,
 * inlined calls); the environment the evaluator sees for the focused
 * work-item (variables, memory, work-item functions); print, x, whatis,
 * info locals/args/workitems, list, backtrace and the work-item focus.
 *
 * Output goes to the session's stream only; it must not read a terminal,
 * parse program options or change how undebugged launches run. Running
 * work-items is dbg_step.c's, breakpoints dbg_bp.c's.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/cc_debug.h"
#include "debugger/dbg.h"
#include "debugger/dbg_cond.h"
#include "debugger/dbg_int.h"
#include "device/lsi.h"
#include "device/simt.h"

struct dbg_session *dbg_new(FILE *out, dbg_read_fn read, void *ctx) {
  struct dbg_session *s = calloc(1, sizeof(*s));
  if (!s) return NULL;
  pthread_mutex_init(&s->lock, NULL);
  pthread_cond_init(&s->passed, NULL);
  s->out = s->user_out = out;
  s->read = read;
  s->rctx = ctx;
  s->next_id = 1;
  s->check = -1;
  s->check_stops = 1;
  return s;
}

void dbg_free(struct dbg_session *s) {
  if (!s) return;
  for (int i = 0; i < s->ndirs; i++)
    free(s->dirs[i]);
  for (int i = 0; i < s->nfiles; i++)
    free(s->files[i]);
  free(s->options);
  free(s->kfile);
  dbg_keep_free(s);
  dbg_hist_free(s);
  pthread_cond_destroy(&s->passed);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

void dbg_lock(struct dbg_session *s, struct dbg_launch *L) {
  pthread_mutex_lock(&s->lock);
  s->L = L;
  s->out = L && L->out ? L->out : s->user_out;
}

int dbg_lock_briefly(struct dbg_session *s, struct dbg_launch *L) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  t.tv_sec += 1;
  if (pthread_mutex_timedlock(&s->lock, &t)) return -1;
  s->L = L;
  s->out = L && L->out ? L->out : s->user_out;
  return 0;
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

void dbg_wait(struct dbg_session *s, pthread_cond_t *c) {
  struct dbg_hold h = {s->L, s->out};
  fflush(s->out);
  pthread_cond_wait(c, &s->lock);
  s->L = h.L;
  s->out = h.out;
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

int dbg_source_dir(struct dbg_session *s, int i, char *buf, size_t len) {
  dbg_lock(s, NULL);
  int ok = i >= 0 && i < s->ndirs;
  if (ok) snprintf(buf, len, "%s", s->dirs[i]);
  dbg_unlock(s);
  return ok;
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
int dbg_named_after_kernels(const struct dbg_session *s) {
  const struct lsi_program *p = s->L && s->L->l ? s->L->l->prog : NULL;
  return p && s->L->file && p->nkernels && !strcmp(s->L->file, p->kernels[0].name);
}

const char *dbg_where_file(const struct dbg_session *s) {
  return dbg_named_after_kernels(s) ? s->L->k->name : dbg_base(s->L->file);
}

const struct cc_microkernel *dbg_mk_at(struct dbg_session *s, uint32_t pc) {
  return s->L->dbg ? cc_debug_mk_at(s->L->dbg, pc) : NULL;
}

uint32_t dbg_item_line(struct dbg_session *s, uint64_t item) {
  uint32_t pc;
  int st = simt_dbg_state(s->L->sd, item, &pc);
  if (st == SIMT_DBG_DONE) return 0;
  const struct cc_microkernel *m = dbg_mk_at(s, pc);
  if (st == SIMT_DBG_FAULT && s->L->k->lines && pc < s->L->k->ninsns)
    return s->L->k->lines[pc].line;
  return m ? m->line_first : s->L->dbg ? s->L->dbg->line_first : 0;
}

/* The inlined call (index + 1) the line statement m is shown at belongs
 * to, 0 for the kernel's own code. */
uint32_t dbg_mk_call(struct dbg_session *s, const struct cc_microkernel *m) {
  if (!s->L->dbg->pc_inl) return 0;
  for (uint32_t q = m->pc_begin; q < m->pc_end; q++)
    if (s->L->k->lines[q].line == m->line_first) return s->L->dbg->pc_inl[q];
  return s->L->dbg->pc_inl[m->pc_begin];
}

uint32_t dbg_item_inline(struct dbg_session *s, uint64_t item) {
  uint32_t pc;
  int st = simt_dbg_state(s->L->sd, item, &pc);
  if (st == SIMT_DBG_DONE || !s->L->dbg->pc_inl || pc >= s->L->k->ninsns) return 0;
  const struct cc_microkernel *m = st == SIMT_DBG_FAULT ? NULL : dbg_mk_at(s, pc);
  return m ? dbg_mk_call(s, m) : s->L->dbg->pc_inl[pc];
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

void dbg_show_line(struct dbg_session *s, uint32_t line) {
  if (line && line <= s->L->nlines) fprintf(s->out, "%u\t%s\n", line, s->L->lines[line - 1]);
}

void dbg_ids_str(struct dbg_session *s, uint64_t item, char *buf, size_t n) {
  uint64_t g[3], l[3], w[3];
  simt_dbg_ids(s->L->sd, item, g, l, w);
  snprintf(buf, n,
           "work-item (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") local (%" PRIu64 ",%" PRIu64 ",%" PRIu64
           ") group (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")",
           g[0], g[1], g[2], l[0], l[1], l[2], w[0], w[1], w[2]);
}

/* The frames the focus's stop is shown up from its statement, at the line
 * of a call that starts there (a step stopped there), else 0. */
int dbg_call_stop_now(struct dbg_session *s) {
  uint32_t pc = 0;
  if (!s->L->call_stop || s->L->call_item != s->L->focus) return 0;
  simt_dbg_state(s->L->sd, s->L->focus, &pc);
  return pc == s->L->call_pc ? s->L->call_stop : 0;
}

void dbg_where(struct dbg_session *s, const char *why) {
  char ids[160];
  /* "Breakpoint 1, k work-item ..." but "Switching to k work-item ..." */
  const char *sep = why && !strcmp(why, "Switching to") ? " " : ", ";
  dbg_ids_str(s, s->L->focus, ids, sizeof(ids));
  uint32_t line = dbg_item_line(s, s->L->focus);
  if (line && dbg_call_stop_now(s)) line = dbg_frame_current(s).line;
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
  dbg_show_line(s, line);
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
  case LSI_SPACE_NONE: return addr ? "__global " : ""; /* SVM */
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
  if (sp == LSI_SPACE_NONE) {
    snprintf(buf, n, "its SVM allocation");
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

int dbg_item_fn(const char *name, unsigned dim, unsigned *sreg, uint64_t *value) {
  for (size_t i = 0; i < sizeof(item_fns) / sizeof(item_fns[0]); i++) {
    if (strcmp(name, item_fns[i].name)) continue;
    *sreg =
        item_fns[i].dims && dim > 2 ? UINT32_MAX : item_fns[i].sreg + (item_fns[i].dims ? dim : 0);
    *value = item_fns[i].out_of_range;
    return 1;
  }
  return 0;
}

static int sreg(void *ctx, const char *fn, unsigned dim, uint64_t *out) {
  struct dbg_session *s = ctx;
  unsigned r;
  if (!dbg_item_fn(fn, dim, &r, out)) return 0;
  if (r != UINT32_MAX) *out = simt_dbg_sreg(s->L->sd, s->L->focus, r);
  return 1;
}

/* With no kernel stopped (before `run`, after the program exited): an
 * expression has literals, arithmetic and the value history, no names, no
 * memory and no work-item. */
static const char *lookup_none(void *ctx, const char *name, struct dbg_val *v) {
  (void)ctx;
  (void)v;
  static char msg[160];
  snprintf(msg, sizeof(msg), "No symbol \"%s\" in current context.", name);
  return msg;
}

static void *mem_none(void *ctx, uint64_t addr, uint64_t size) {
  (void)ctx;
  (void)addr;
  (void)size;
  return NULL;
}

static int sreg_none(void *ctx, const char *fn, unsigned dim, uint64_t *out) {
  (void)ctx;
  (void)fn;
  (void)dim;
  (void)out;
  return 0;
}

void dbg_session_env(struct dbg_session *s, struct dbg_env *env) {
  int live = s->L && s->L->sd; /* else no program: no names, memory or layouts */
  memset(env, 0, sizeof(*env));
  env->ctx = s;
  env->lookup = live ? lookup : lookup_none;
  env->mem = live ? mem : mem_none;
  env->sreg = live ? sreg : sreg_none;
  env->type = live ? type_hook : NULL;
  env->type_at = live ? type_at : NULL;
  env->space = space_of;
  env->region = live ? region_of : NULL;
  env->history = dbg_hist_get;
  env->conv = dbg_conv_var;
}

int dbg_eval_focus(struct dbg_session *s, const char *text, struct dbg_val *v, char *err,
                   size_t n) {
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
    if (dbg_eval_focus(s, arg, &v, err, sizeof(err))) {
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
  if (dbg_eval_focus(s, arg, &v, err, sizeof(err))) {
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
    if (!dbg_frame_lists(s->L->dbg, y, &f, args)) continue;
    char ex[80];
    snprintf(ex, sizeof(ex), "%s", y->name);
    struct dbg_val v;
    char err[200], buf[2048];
    if (dbg_eval_focus(s, ex, &v, err, sizeof(err))) {
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
  if (!args && f.inl && dbg_frame_outer_names(s))
    fprintf(s->out, "(print also finds the names of the frames that call %s: `up` lists them)\n",
            s->L->dbg->inl[f.inl - 1].func);
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
