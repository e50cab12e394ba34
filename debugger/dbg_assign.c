/*
 * dbg_assign.c - assigning a whole struct (`set var p = q.in`), as C does:
 * from a struct of the same type, every byte of it. A struct argument
 * passed by value is the work-item's own copy, so this changes it for that
 * work-item alone.
 *
 * It reaches memory only through struct dbg_env; scalars and vectors are
 * dbg_expr.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_debug.h"
#include "debugger/dbg.h"

/* Whether a and b name one layout: the same name, or two names (a typedef
 * and its struct tag) of the same layout. */
static int same_type(const struct dbg_env *env, const struct dbg_val *a, const struct dbg_val *b) {
  char x[64], y[64];
  dbg_type_strip(a->type, x, sizeof(x));
  dbg_type_strip(b->type, y, sizeof(y));
  if (!strcmp(x, y)) return 1;
  if (!env->type) return 0;
  const struct cc_type *tx = env->type(env->ctx, x), *ty = env->type(env->ctx, y);
  if (!tx || !ty) return 0;
  if (tx == ty) return 1;
  /* a typedef has an entry of its own, with the same fields */
  if (tx->size != ty->size || tx->nfields != ty->nfields) return 0;
  for (uint32_t i = 0; i < tx->nfields; i++)
    if (strcmp(tx->fields[i].name, ty->fields[i].name) ||
        tx->fields[i].offset != ty->fields[i].offset ||
        strcmp(tx->fields[i].type_name, ty->fields[i].type_name))
      return 0;
  return 1;
}

const char *dbg_store_struct(const struct dbg_env *env, const struct dbg_val *dst,
                             const struct dbg_val *src) {
  static char msg[200];
  if (!dst->addr) return "left operand of assignment is not in memory";
  if (src->kind != DBG_STRUCT || src->size != dst->size || !same_type(env, dst, src)) {
    char a[64], b[64];
    dbg_type_name(src, a, sizeof(a));
    dbg_type_name(dst, b, sizeof(b));
    snprintf(msg, sizeof(msg), "cannot assign %s to %s", a, b);
    return msg;
  }
  if (!src->addr) return "a struct kept in the value history cannot be assigned";
  const void *from = env->mem(env->ctx, src->addr, src->size);
  void *copy = from ? malloc(src->size) : NULL;
  if (!copy) return "cannot read the struct to assign";
  memcpy(copy, from, src->size); /* before any byte is written: they may overlap */
  void *to = env->mem(env->ctx, dst->addr, dst->size);
  if (to) memcpy(to, copy, dst->size);
  free(copy);
  return to ? NULL : "cannot write that memory";
}
