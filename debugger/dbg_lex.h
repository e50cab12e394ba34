/*
 * dbg_lex.h - what the debugger's two expression parsers share: the
 * interpreter (dbg_expr.c) and the compiler of breakpoint conditions
 * (dbg_cond.c) read their text (tokens, names, numbers, casts), know the
 * binary operators and convert and compute scalars with this one code, so
 * the two cannot take the same condition differently.
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
/* A cast "(TYPE)" to a type that is neither an array nor a struct,
 * resolved through env (may be NULL: no structs): 1 with the type in *t,
 * else 0 with nothing taken. */
int dbg_lex_cast(struct dbg_lex *l, const struct dbg_env *env, struct dbg_val *t);

/* An integer value of size bytes (4 or 8), typed int, uint, long or ulong. */
struct dbg_val dbg_val_int(int64_t i, int sign, unsigned size);
/* A floating-point value of size bytes (4: float, 8: double). */
struct dbg_val dbg_val_fp(double f, unsigned size);

/* ---- binary operators ---- */

enum {
  DBG_OP_LOR,
  DBG_OP_LAND,
  DBG_OP_OR,
  DBG_OP_XOR,
  DBG_OP_AND,
  DBG_OP_EQ,
  DBG_OP_NE,
  DBG_OP_LE,
  DBG_OP_GE,
  DBG_OP_LT,
  DBG_OP_GT,
  DBG_OP_SHL,
  DBG_OP_SHR,
  DBG_OP_ADD,
  DBG_OP_SUB,
  DBG_OP_MUL,
  DBG_OP_DIV,
  DBG_OP_MOD,
  DBG_NOPS
};
/* Their spellings and precedence levels, 0 (||) binding loosest;
 * DBG_LEVEL_AT is gdb's artificial arrays (a[i]@n), looser than + and
 * tighter than shifts, as in gdb. */
extern const struct dbg_op {
  const char *s;
  int level;
} dbg_ops[DBG_NOPS];
#define DBG_LEVEL_AT 8
#define DBG_NLEVELS  11

/* The type both operands of a op b (scalars, not a pointer's arithmetic)
 * take: C's usual conversions, or for a shift its promoted left operand.
 * flt 8 (double) or 4 (float) when either is a float, else 0 with integers
 * of size bytes and sign. */
struct dbg_conv {
  unsigned flt, size;
  int sign;
};
struct dbg_conv dbg_conv_of(int op, const struct dbg_val *a, const struct dbg_val *b);

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

/* x op y in floating point: in double (dbl) or float (computed in double,
 * rounded once: exact for + - * /). DBG_FLT with the value in *r, DBG_INT
 * with a comparison's 0 or 1 in *r, or -1 for an operator C has no
 * floating-point form of. */
static inline int dbg_flt_op(int op, double x, double y, int dbl, double *r) {
  if (!dbl) x = (float)x, y = (float)y;
  switch (op) {
  case DBG_OP_ADD: *r = dbl ? x + y : (float)(x + y); return DBG_FLT;
  case DBG_OP_SUB: *r = dbl ? x - y : (float)(x - y); return DBG_FLT;
  case DBG_OP_MUL: *r = dbl ? x * y : (float)(x * y); return DBG_FLT;
  case DBG_OP_DIV: *r = dbl ? x / y : (float)(x / y); return DBG_FLT;
  case DBG_OP_EQ: *r = x == y; return DBG_INT;
  case DBG_OP_NE: *r = x != y; return DBG_INT;
  case DBG_OP_LT: *r = x < y; return DBG_INT;
  case DBG_OP_GT: *r = x > y; return DBG_INT;
  case DBG_OP_LE: *r = x <= y; return DBG_INT;
  case DBG_OP_GE: *r = x >= y; return DBG_INT;
  default: return -1;
  }
}

/* x op y on integers of size bytes (4 or 8) and sign, as the device's
 * integers compute it: + - * wrap around (in uint64_t: no signed overflow
 * here) and are cut to size; a shift count is masked by the width (OpenCL
 * C 6.3.j: 1 << 32 is 1); INT64_MIN / -1 wraps, its remainder is 0; a
 * comparison gives 0 or 1. 1 with the result in *r, 0 on a division by
 * zero (or an operator it does not compute: || &&). */
static inline int dbg_int_op(int op, int64_t x, int64_t y, unsigned size, int sign, int64_t *r) {
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  unsigned mask = 8 * size - 1;
  if (size == 4 && !sign) ux &= 0xffffffffu, uy &= 0xffffffffu;
  switch (op) {
  case DBG_OP_ADD: *r = (int64_t)((uint64_t)x + (uint64_t)y); break;
  case DBG_OP_SUB: *r = (int64_t)((uint64_t)x - (uint64_t)y); break;
  case DBG_OP_MUL: *r = (int64_t)((uint64_t)x * (uint64_t)y); break;
  case DBG_OP_DIV:
  case DBG_OP_MOD:
    if (y == 0) return 0;
    if (sign && y == -1)
      *r = op == DBG_OP_DIV ? (int64_t)(0 - (uint64_t)x) : 0;
    else if (op == DBG_OP_DIV)
      *r = sign ? x / y : (int64_t)(ux / uy);
    else
      *r = sign ? x % y : (int64_t)(ux % uy);
    break;
  case DBG_OP_AND: *r = x & y; break;
  case DBG_OP_OR: *r = x | y; break;
  case DBG_OP_XOR: *r = x ^ y; break;
  case DBG_OP_SHL: *r = (int64_t)(ux << (y & mask)); break;
  case DBG_OP_SHR: *r = sign ? x >> (y & mask) : (int64_t)(ux >> (y & mask)); break;
  case DBG_OP_EQ: *r = sign ? x == y : ux == uy; return 1;
  case DBG_OP_NE: *r = sign ? x != y : ux != uy; return 1;
  case DBG_OP_LT: *r = sign ? x < y : ux < uy; return 1;
  case DBG_OP_GT: *r = sign ? x > y : ux > uy; return 1;
  case DBG_OP_LE: *r = sign ? x <= y : ux <= uy; return 1;
  case DBG_OP_GE: *r = sign ? x >= y : ux >= uy; return 1;
  default: return 0;
  }
  if (size == 4) *r = sign ? (int32_t)*r : (int64_t)(uint32_t)*r;
  return 1;
}

#endif
