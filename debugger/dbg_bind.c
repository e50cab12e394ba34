/*
 * dbg_bind.c - where a line breakpoint binds in a program, from its
 * kernels' debug tables alone (no launch, no session): a line whose
 * statement starts there binds to it; a line that continues a multi-line
 * statement (an operand, a call's argument list) binds to that statement;
 * a line with no code (blank, a comment, a lone brace) binds to the next
 * line that has code. The engine binds breakpoints of its launches with it
 * and the DAP adapter verifies an editor's breakpoints with it, so both
 * move a breakpoint to the same line. A breakpoint's condition is checked
 * here too, before there is anything to evaluate it on: its shape
 * (dbg_cond_parses()) and that the program has its names at the line.
 *
 * It reads tables only; it must not print or know about sessions.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "compiler/cc_debug.h"
#include "debugger/dbg.h"
#include "debugger/dbg_int.h"
#include "device/lsi.h"

#define MAX_DEPTH 64

static const struct cc_debug *dbg_of(const struct lsi_kernel *k) {
  return k ? (const struct cc_debug *)k->debug : NULL;
}

/* The file index of the kernel's own source (its first statement's). */
static uint32_t main_file(const struct lsi_kernel *k) {
  const struct cc_debug *d = dbg_of(k);
  return d && d->nmk ? d->mk[0].file : 0;
}

/* The line of the file a statement's code starts at (a statement that
 * evaluates a call's arguments and enters the inlined callee is shown at
 * the callee's line, but starts at the call's), else 0. */
static uint32_t mk_start_line(const struct lsi_kernel *k, const struct cc_microkernel *mk,
                              uint32_t file) {
  for (uint32_t pc = mk->pc_begin; pc < mk->pc_end; pc++)
    if (k->lines[pc].line) return k->lines[pc].file == file ? k->lines[pc].line : 0;
  return 0;
}

/* The first instruction of inlined call c (index + 1 into inl) and of the
 * calls it makes. */
static uint32_t call_first_pc(const struct lsi_kernel *k, uint32_t c) {
  const struct cc_debug *d = dbg_of(k);
  for (uint32_t pc = 0; pc < k->ninsns; pc++) {
    int depth = 0;
    for (uint32_t i = d->pc_inl[pc]; i && i <= d->ninl && depth < MAX_DEPTH;
         i = d->inl[i - 1].parent, depth++)
      if (i == c) return pc;
  }
  return UINT32_MAX;
}

int dbg_kmk_starts_at(const struct lsi_kernel *k, const struct cc_microkernel *mk, uint32_t line) {
  const struct cc_debug *d = dbg_of(k);
  uint32_t file = main_file(k);
  uint32_t at = mk_start_line(k, mk, file);
  if (at == line) return 1;
  if (!at || !d->pc_inl) return 0;
  uint32_t pc = mk->pc_begin;
  while (pc < mk->pc_end && !k->lines[pc].line)
    pc++;
  int depth = 0;
  for (uint32_t c = pc < mk->pc_end ? d->pc_inl[pc] : 0; c && c <= d->ninl && depth < MAX_DEPTH;
       c = d->inl[c - 1].parent, depth++)
    if (d->inl[c - 1].call_line == line) return call_first_pc(k, c) == pc; /* the call starts */
  return 0;
}

int dbg_kmk_at_line(const struct lsi_kernel *k, const struct cc_microkernel *mk, uint32_t line) {
  if (mk->line_first == line) return 1;
  const struct cc_debug *d = dbg_of(k);
  uint32_t file = main_file(k);
  if (!dbg_kmk_starts_at(k, mk, line)) return 0;
  for (uint32_t m = 0; m < d->nmk; m++)
    if (d->mk[m].line_first == line && d->mk[m].file == file) return 0;
  return 1;
}

/* Whether a statement of kernel k binds a breakpoint at line as its own. */
static int kernel_has_stmt(const struct lsi_kernel *k, uint32_t line) {
  const struct cc_debug *d = dbg_of(k);
  uint32_t file = main_file(k);
  if (!d || !k->lines) return 0;
  for (uint32_t m = 0; m < d->nmk; m++)
    if (d->mk[m].file == file && d->mk[m].line_first == line) return 1;
  /* none is shown at the line: one whose code starts there (dbg_kmk_at_line) */
  for (uint32_t m = 0; m < d->nmk; m++)
    if (d->mk[m].file == file && dbg_kmk_starts_at(k, &d->mk[m], line)) return 1;
  return 0;
}

/* The line of the statement that line continues in kernel k (the first
 * line of the statement's code in the same frame as line's code), else 0. */
static uint32_t kernel_stmt_of(const struct lsi_kernel *k, uint32_t line) {
  const struct cc_debug *d = dbg_of(k);
  uint32_t file = main_file(k);
  for (uint32_t pc = 0; d && k->lines && pc < k->ninsns; pc++) {
    if (k->lines[pc].line != line || k->lines[pc].file != file) continue;
    const struct cc_microkernel *mk = cc_debug_mk_at(d, pc);
    if (!mk) continue;
    uint32_t frame = d->pc_inl ? d->pc_inl[pc] : 0;
    for (uint32_t q = mk->pc_begin; q < pc; q++)
      if (k->lines[q].line && k->lines[q].file == file && (!d->pc_inl || d->pc_inl[q] == frame))
        return k->lines[q].line != line && kernel_has_stmt(k, k->lines[q].line) ? k->lines[q].line
                                                                                : 0;
  }
  return 0;
}

/* The kernels a resolution looks at: the program's, or the one kernel. */
static uint32_t nkernels(const struct lsi_program *p, const struct lsi_kernel *k) {
  return p ? p->nkernels : k ? 1 : 0;
}
static const struct lsi_kernel *kernel_i(const struct lsi_program *p, const struct lsi_kernel *k,
                                         uint32_t i) {
  return p ? &p->kernels[i] : k;
}

int dbg_line_resolve(const struct lsi_program *p, const struct lsi_kernel *k, uint32_t line,
                     uint32_t nlines, uint32_t *at) {
  *at = 0;
  if (nlines && line > nlines) return DBG_LINE_PAST;
  uint32_t last = 0, n = nkernels(p, k);
  for (uint32_t i = 0; i < n; i++) {
    const struct cc_debug *d = dbg_of(kernel_i(p, k, i));
    if (d && d->line_last > last) last = d->line_last;
    for (uint32_t m = 0; d && m < d->nmk; m++)
      if (d->mk[m].line_last > last) last = d->mk[m].line_last;
  }
  for (uint32_t l = line; l && l <= last; l++) {
    for (uint32_t i = 0; i < n; i++)
      if (kernel_has_stmt(kernel_i(p, k, i), l)) {
        *at = l;
        return l == line ? DBG_LINE_EXACT : DBG_LINE_NOCODE;
      }
    /* a line that continues a statement (code no statement starts with
     * that is not the start of its own: the next line on is tried) */
    for (uint32_t i = 0; i < n && !*at; i++)
      *at = kernel_stmt_of(kernel_i(p, k, i), l);
    if (*at) return l == line ? DBG_LINE_STMT : DBG_LINE_NOCODE;
  }
  return DBG_LINE_NONE;
}

void dbg_line_note(int how, uint32_t line, uint32_t at, const char *file, char *msg, size_t n) {
  switch (how) {
  case DBG_LINE_STMT:
    snprintf(msg, n, "line %u is part of the statement at line %u", line, at);
    break;
  case DBG_LINE_NOCODE: snprintf(msg, n, "line %u has no code", line); break;
  case DBG_LINE_PAST: snprintf(msg, n, "No line %u in file \"%s\".", line, file); break;
  case DBG_LINE_NONE:
    snprintf(msg, n, "Line %u of \"%s\" has no code at or after it.", line, file);
    break;
  default: msg[0] = 0;
  }
}

/* ---- what a breakpoint names, checked against a program ---- */

static int function_known(const struct lsi_program *p, const char *func) {
  for (uint32_t k = 0; p && k < p->nkernels; k++) {
    if (!strcmp(p->kernels[k].name, func)) return 1;
    const struct cc_debug *d = dbg_of(&p->kernels[k]);
    for (uint32_t i = 0; d && i < d->ninl; i++)
      if (!strcmp(d->inl[i].func, func)) return 1;
  }
  return 0;
}

/* Whether line's code is code of an inlined function (its callers'
 * variables are seen there too). */
static int line_in_callee(const struct lsi_program *p, uint32_t line) {
  for (uint32_t k = 0; p && k < p->nkernels; k++) {
    const struct lsi_kernel *kk = &p->kernels[k];
    const struct cc_debug *d = dbg_of(kk);
    for (uint32_t pc = 0; d && d->pc_inl && kk->lines && pc < kk->ninsns; pc++)
      if (kk->lines[pc].line == line && d->pc_inl[pc]) return 1;
  }
  return 0;
}

/* ---- checking a condition before there is anything to evaluate it on ---- */

/* dbg_env.lookup for a condition's shape: every name reads as an int. */
static const char *check_lookup(void *ctx, const char *name, struct dbg_val *v) {
  (void)ctx, (void)name;
  memset(v, 0, sizeof(*v));
  v->kind = DBG_INT;
  v->is_signed = 1;
  v->size = 4;
  v->i = 1; /* not 0: a division by the name is no error here */
  snprintf(v->type, sizeof(v->type), "int");
  return NULL;
}

static void *check_mem(void *ctx, uint64_t addr, uint64_t size) {
  (void)ctx, (void)addr, (void)size;
  return NULL;
}

static int check_sreg(void *ctx, const char *fn, unsigned dim, uint64_t *out) {
  (void)ctx, (void)fn, (void)dim;
  *out = 1;
  return 1;
}

int dbg_cond_parses(const char *text, char *err, size_t errlen) {
  struct dbg_env env = {NULL, check_lookup, check_mem, check_sreg, NULL, NULL, NULL, NULL};
  struct dbg_val v;
  if (!dbg_eval(&env, text, &v, err, errlen)) return 1;
  /* only the shape of the text counts: names, types and memory are known
   * when a work-item reaches the breakpoint */
  return strncmp(err, "syntax error", 12) && strncmp(err, "expected", 8);
}

struct names {
  const struct lsi_program *p;
  uint32_t line; /* 0: any line (a function breakpoint, a callee's line) */
  const char *text;
  char why[160]; /* the first name the program does not have there */
};

/* Whether name stands in text only as a function called (`get_group_id(0)`:
 * the evaluator knows the work-item functions, and may look the name up
 * when it skips the right side of && or ||). */
static int only_called(const char *text, const char *name) {
  size_t n = strlen(name);
  int called = 0;
  for (const char *t = strstr(text, name); t; t = strstr(t + 1, name)) {
    int start = t == text || !(isalnum((unsigned char)t[-1]) || t[-1] == '_');
    if (!start || isalnum((unsigned char)t[n]) || t[n] == '_') continue;
    const char *q = t + n;
    while (isspace((unsigned char)*q))
      q++;
    if (*q != '(') return 0;
    called = 1;
  }
  return called;
}

/* dbg_env.lookup for a condition's names: a name the program has (at the
 * line) reads as an int, so the rest of the condition is checked too. */
static const char *names_lookup(void *ctx, const char *name, struct dbg_val *v) {
  struct names *c = ctx;
  check_lookup(ctx, name, v);
  int found = 0;
  uint32_t lo = 0, hi = 0;
  if (only_called(c->text, name)) return NULL;
  for (uint32_t k = 0; c->p && k < c->p->nkernels; k++) {
    const struct cc_debug *d = dbg_of(&c->p->kernels[k]);
    for (uint32_t i = 0; d && i < d->nsyms; i++) {
      const struct cc_symbol *y = &d->syms[i];
      if (strcmp(y->name, name)) continue;
      if (y->space != CC_SYM_PRIVATE || !c->line ||
          (c->line >= y->scope_first && c->line <= y->scope_last))
        return NULL;
      if (!found) lo = y->scope_first, hi = y->scope_last;
      found = 1;
    }
  }
  if (c->why[0]) return NULL;
  if (found)
    snprintf(c->why, sizeof(c->why), "No symbol \"%s\" in scope at line %u (lines %u-%u).", name,
             c->line, lo, hi);
  else
    snprintf(c->why, sizeof(c->why), "No symbol \"%s\" in current context.", name);
  return NULL;
}

/* dbg_env.type for a condition's types: the program's struct layouts. */
static const struct cc_type *typed_type(void *ctx, const char *name) {
  const struct names *c = ctx;
  for (uint32_t k = 0; c->p && k < c->p->nkernels; k++) {
    const struct cc_debug *d = dbg_of(&c->p->kernels[k]);
    for (uint32_t i = 0; d && i < d->ntypes; i++)
      if (!strcmp(d->types[i].name, name)) return &d->types[i];
  }
  return NULL;
}

/* dbg_env.lookup for a condition's types (nothing is read): a name the
 * program has at the line has the type it declares, so a field its struct
 * lacks is found before a work-item evaluates it. */
static const char *typed_lookup(void *ctx, const char *name, struct dbg_val *v) {
  const struct names *c = ctx;
  memset(v, 0, sizeof(*v));
  struct dbg_env env = {0};
  env.ctx = ctx;
  env.type = typed_type;
  for (uint32_t k = 0; c->p && k < c->p->nkernels; k++) {
    const struct cc_debug *d = dbg_of(&c->p->kernels[k]);
    for (uint32_t i = 0; d && i < d->nsyms; i++) {
      const struct cc_symbol *y = &d->syms[i];
      if (strcmp(y->name, name)) continue;
      if (y->space == CC_SYM_PRIVATE && c->line &&
          (c->line < y->scope_first || c->line > y->scope_last))
        continue;
      if (!dbg_type_resolve(&env, y->type_name, v)) return "a type not known here";
      v->addr = 1; /* an lvalue, never read */
      return NULL;
    }
  }
  return "not a variable here"; /* a work-item function (names_lookup let it pass) */
}

/* What an operator reads of a typed name: zeros (its value does not
 * matter, && and || evaluate both sides). */
static void *typed_mem(void *ctx, uint64_t addr, uint64_t size) {
  static const uint8_t zeros[256];
  (void)ctx, (void)addr;
  return size <= sizeof(zeros) ? (void *)zeros : NULL;
}

/* Whether cond, typed as the program declares its names at the line, uses
 * a member its type does not have (a missing field, `.x` of a scalar,
 * `->x` of a non-pointer); the interpreter's message in msg. */
static int field_missing(struct names *c, const char *cond, char *msg, size_t n) {
  /* no line (a function's breakpoint): a name may be another kernel's */
  if (!c->line) return 0;
  struct dbg_env env = {0};
  env.ctx = c;
  env.lookup = typed_lookup;
  env.mem = typed_mem;
  env.sreg = check_sreg;
  env.type = typed_type;
  struct dbg_val v;
  char err[200];
  if (!dbg_eval_type(&env, cond, &v, err, sizeof(err))) return 0;
  /* the interpreter's messages for a member the type has not */
  static const char *const member_errs[] = {"there is no field", "' needs a struct or a vector",
                                            "' needs a pointer to a struct"};
  size_t k = 0;
  while (k < sizeof(member_errs) / sizeof(*member_errs) && !strstr(err, member_errs[k]))
    k++;
  if (k == sizeof(member_errs) / sizeof(*member_errs)) return 0;
  snprintf(msg, n, "%s", err);
  return 1;
}

int dbg_bp_check(const struct lsi_program *p, const char *file, uint32_t nlines, uint32_t line,
                 const char *func, const char *cond, uint32_t *at, char *msg, size_t n) {
  int how = DBG_LINE_EXACT;
  *at = 0;
  msg[0] = 0;
  if (line) {
    how = dbg_line_resolve(p, NULL, line, nlines, at);
    dbg_line_note(how, line, *at, file, msg, n);
    if (how == DBG_LINE_PAST || how == DBG_LINE_NONE) return -1;
  } else if (func && func[0] && !function_known(p, func)) {
    snprintf(msg, n, "Function \"%s\" not defined.", func);
    return -2;
  }
  if (cond && cond[0]) {
    struct names c = {p, line && !line_in_callee(p, *at) ? *at : 0, cond, ""};
    struct dbg_env env = {0};
    env.ctx = &c;
    env.lookup = names_lookup;
    env.mem = check_mem;
    env.sreg = check_sreg;
    struct dbg_val v;
    char err[200];
    dbg_eval(&env, cond, &v, err, sizeof(err));
    if (c.why[0]) {
      snprintf(msg, n, "%s", c.why);
      return -1;
    }
    if (field_missing(&c, cond, msg, n)) return -1;
  }
  return how;
}
