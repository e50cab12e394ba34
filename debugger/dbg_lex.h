/*
 * dbg_lex.h - the lexical pieces of the debugger's expression language that
 * both of its parsers share: the interpreter (dbg_expr.c) and the compiler
 * of breakpoint conditions (dbg_cond.c) read their text with this one code,
 * so the two cannot take the same characters differently.
 */
#ifndef LOCKSTEP_DBG_LEX_H
#define LOCKSTEP_DBG_LEX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "debugger/dbg.h"

/* The text being read: s is where reading goes on. */
struct dbg_lex {
  const char *s;
};

/* Skips white space. */
void dbg_lex_ws(struct dbg_lex *l);
/* Takes the token t after white space: 1 when it is there, else 0 (nothing
 * taken). A one-character operator is not the start of a longer one: '&'
 * is not taken from "&&", '<' not from "<=" or "<<". */
int dbg_lex_eat(struct dbg_lex *l, const char *t);
/* A name (letters, digits, '_') after white space, at most cap-1 of it,
 * into buf (empty when there is none). */
void dbg_lex_name(struct dbg_lex *l, char *buf, size_t cap);
/* A numeric constant at l->s, typed as C types it: a floating constant is
 * a double unless suffixed f; an integer constant (decimal, 0x hex or 0
 * octal) takes the first of int, uint (hex and octal only), long, ulong
 * that holds it, narrowed by its u and l suffixes. 0 with the value in *v;
 * else 1 with why not in err (may be NULL) and *v a placeholder. */
int dbg_lex_number(struct dbg_lex *l, struct dbg_val *v, char *err, size_t errlen);
/* A cast to a scalar, pointer or vector type, "(TYPE)", resolved through
 * env: 1 with the type in *t, else 0 with nothing taken. */
int dbg_lex_cast(struct dbg_lex *l, const struct dbg_env *env, struct dbg_val *t);

/* An integer value of size bytes (4 or 8), typed int, uint, long or ulong. */
struct dbg_val dbg_val_int(int64_t i, int sign, unsigned size);
/* A floating-point value of size bytes (4: float, 8: double). */
struct dbg_val dbg_val_fp(double f, unsigned size);

/* ---- scalars, as both evaluators convert them (inline: the compiled
 * conditions run them per lane) ---- */

/* x converted to an integer of size bytes (1 to 8) and sign, as C converts
 * (the low bytes, sign- or zero-extended). */
static inline int64_t dbg_int_wrap(int64_t x, int sign, unsigned size) {
  if (size >= 8) return x;
  int sh = 64 - 8 * (int)size;
  return sign ? (int64_t)((uint64_t)x << sh) >> sh : (int64_t)(((uint64_t)x << sh) >> sh);
}

/* The scalar that raw (size bytes, zero-extended) holds, of kind DBG_FLT
 * (into *f, a float widened) or an integer kind (into *i). */
static inline void dbg_scalar_decode(int kind, int sign, unsigned size, uint64_t raw, int64_t *i,
                                     double *f) {
  if (kind != DBG_FLT) {
    *i = dbg_int_wrap((int64_t)raw, sign, size);
  } else if (size == 4) {
    float x;
    memcpy(&x, &raw, 4);
    *f = x;
  } else {
    memcpy(f, &raw, 8);
  }
}

#endif
