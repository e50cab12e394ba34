/*
 * dbg_complete.c - Tab completion of a command's argument (dbg_cmd.c finds
 * the command and its kind of argument): the names an expression may use
 * where the focused work-item stands (and the fields of `NAME.`), and the
 * locations a breakpoint may name (FILE:, FILE:LINE of a line with code,
 * kernel and inlined function names), from the debug symbols of the
 * launches open now and the files of those seen before.
 *
 * It only names things; it must not evaluate a value or change a launch.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "debugger/dbg_int.h"

static int name_char(char c) {
  return isalnum((unsigned char)c) || c == '_';
}

/* A word that starts with the n bytes at prefix, to add. */
static void offer(const char *word, const char *prefix, size_t n, dbg_complete_fn add, void *ctx) {
  if (word && *word && !strncmp(word, prefix, n)) add(ctx, word);
}

/* Offers word (an expression in env) when it starts with prefix; one whose
 * value takes `.` after it (a struct, union or vector) with
 * DBG_COMPLETE_GLUE after it. */
static void offer_expr(const struct dbg_env *env, const char *word, const char *prefix, size_t n,
                       dbg_complete_fn add, void *ctx) {
  if (!*word || strncmp(word, prefix, n)) return;
  char err[200], glued[320];
  struct dbg_val v;
  if (env->type && !dbg_eval_type(env, word, &v, err, sizeof(err)) &&
      (v.kind == DBG_STRUCT || v.kind == DBG_VEC)) {
    size_t len = strlen(word);
    if (len + 2 <= sizeof(glued)) {
      memcpy(glued, word, len);
      glued[len] = DBG_COMPLETE_GLUE;
      glued[len + 1] = 0;
      word = glued;
    }
  }
  add(ctx, word);
}

/* The fields of the struct base names (an expression; sep "." or "->"),
 * each as base, sep, field. */
static void fields(struct dbg_session *s, const char *base, size_t blen, const char *sep,
                   const char *word, size_t n, dbg_complete_fn add, void *ctx) {
  char expr[256], err[200];
  snprintf(expr, sizeof(expr), "%.*s", (int)blen, base);
  struct dbg_env env;
  dbg_session_env(s, &env);
  struct dbg_val v;
  if (!env.type || dbg_eval_type(&env, expr, &v, err, sizeof(err))) return;
  char tname[64];
  if (v.kind == DBG_PTR && !strcmp(sep, "->")) {
    char t[64];
    snprintf(t, sizeof(t), "%s", v.type);
    char *star = strrchr(t, '*');
    if (!star) return;
    *star = 0;
    dbg_type_strip(t, tname, sizeof(tname));
  } else if (v.kind == DBG_STRUCT && !strcmp(sep, ".")) {
    dbg_type_strip(v.type, tname, sizeof(tname));
  } else {
    return;
  }
  size_t tl = strlen(tname);
  while (tl && tname[tl - 1] == ' ')
    tname[--tl] = 0;
  const struct cc_type *t = env.type(env.ctx, tname);
  for (uint32_t i = 0; t && i < t->nfields; i++) {
    char full[320];
    snprintf(full, sizeof(full), "%s%s%s", expr, sep, t->fields[i].name);
    offer_expr(&env, full, word, n, add, ctx);
  }
}

/* An expression's last word: a name in scope, or a field after `.`/`->`. */
static size_t complete_expr(struct dbg_session *s, const char *text, dbg_complete_fn add,
                            void *ctx) {
  size_t end = strlen(text), at = end;
  while (at && name_char(text[at - 1]))
    at--;
  if (!s->L || !s->L->sd || !s->L->dbg) return at;
  const char *sep = at && text[at - 1] == '.'                              ? "."
                    : at > 1 && text[at - 1] == '>' && text[at - 2] == '-' ? "->"
                                                                           : NULL;
  if (sep) { /* NAME.FIELD: the base goes back over names, members and indices */
    size_t bend = at - strlen(sep), b = bend;
    while (b) {
      char c = text[b - 1];
      if (name_char(c) || c == '.' || c == '[' || c == ']')
        b--;
      else if (c == '>' && b > 1 && text[b - 2] == '-')
        b -= 2;
      else
        break;
    }
    if (b < bend) fields(s, text + b, bend - b, sep, text + b, end - b, add, ctx);
    return b;
  }
  const char *word = text + at;
  size_t n = end - at;
  struct dbg_env env;
  dbg_session_env(s, &env);
  for (uint32_t i = 0; i < s->L->dbg->nsyms; i++) {
    const struct cc_symbol *y = &s->L->dbg->syms[i];
    const char *why = NULL;
    if (!strncmp(y->name, word, n) && dbg_frame_symbol(s, y->name, &why))
      offer_expr(&env, y->name, word, n, add, ctx);
  }
  return at;
}

/* The functions a breakpoint may name in launch L: its program's kernels
 * and the functions inlined into the kernel it runs. */
static void functions(const struct dbg_launch *L, const char *word, size_t n, dbg_complete_fn add,
                      void *ctx) {
  const struct lsi_program *p = L->l ? L->l->prog : NULL;
  for (uint32_t i = 0; p && i < p->nkernels; i++)
    offer(p->kernels[i].name, word, n, add, ctx);
  for (uint32_t i = 0; L->dbg && i < L->dbg->ninl; i++)
    offer(L->dbg->inl[i].func, word, n, add, ctx);
}

/* A location: FILE: of a program launched, FILE:LINE of a line with code
 * (once FILE: is typed), kernel and inlined function names; after ` if `
 * the condition, an expression. */
static size_t complete_loc(struct dbg_session *s, const char *text, dbg_complete_fn add,
                           void *ctx) {
  const char *cond = strstr(text, " if ");
  if (cond) return (size_t)(cond + 4 - text) + complete_expr(s, cond + 4, add, ctx);
  size_t at = strlen(text);
  while (at && text[at - 1] != ' ' && text[at - 1] != '\t')
    at--;
  const char *word = text + at, *colon = strrchr(word, ':');
  size_t n = strlen(word);
  char full[300];
  for (const struct dbg_launch *L = s->launches; L; L = L->next) {
    if (!L->file) continue;
    const char *base = dbg_base(L->file);
    size_t bl = strlen(base);
    if (!colon) {
      snprintf(full, sizeof(full), "%s:", base);
      offer(full, word, n, add, ctx);
      functions(L, word, n, add, ctx);
      continue;
    }
    if ((size_t)(colon - word) != bl || strncmp(word, base, bl)) continue;
    for (uint32_t i = 0; L->dbg && i < L->dbg->nmk; i++) {
      if (!L->dbg->mk[i].line_first) continue;
      snprintf(full, sizeof(full), "%s:%u", base, L->dbg->mk[i].line_first);
      offer(full, word, n, add, ctx);
    }
  }
  for (int i = 0; !colon && i < s->nfiles; i++) { /* programs launched before */
    snprintf(full, sizeof(full), "%s:", dbg_base(s->files[i]));
    offer(full, word, n, add, ctx);
  }
  return at;
}

size_t dbg_complete_arg(struct dbg_session *s, const char *text, int kind, dbg_complete_fn add,
                        void *ctx) {
  return kind == DBG_ARG_LOC ? complete_loc(s, text, add, ctx) : complete_expr(s, text, add, ctx);
}
