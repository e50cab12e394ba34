/*
 * dbg_lex.c - the lexical pieces both expression parsers share (dbg_lex.h).
 */
#include "debugger/dbg_lex.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dbg_lex_ws(struct dbg_lex *l) {
  while (isspace((unsigned char)*l->s))
    l->s++;
}

int dbg_lex_eat(struct dbg_lex *l, const char *t) {
  dbg_lex_ws(l);
  size_t n = strlen(t);
  if (strncmp(l->s, t, n)) return 0;
  /* don't take '&' of '&&', '=' of '==', '<' of '<<' ... */
  if (n == 1 && strchr("&|=<>", t[0]) && l->s[1] == t[0]) return 0;
  if (n == 1 && strchr("<>!=", t[0]) && l->s[1] == '=') return 0;
  l->s += n;
  return 1;
}

void dbg_lex_name(struct dbg_lex *l, char *buf, size_t cap) {
  size_t n = 0;
  dbg_lex_ws(l);
  while (n + 1 < cap && (isalnum((unsigned char)*l->s) || *l->s == '_'))
    buf[n++] = *l->s++;
  buf[n] = 0;
}

struct dbg_val dbg_val_int(int64_t i, int sign, unsigned size) {
  struct dbg_val v;
  memset(&v, 0, sizeof(v));
  v.kind = DBG_INT;
  v.i = i;
  v.is_signed = sign;
  v.size = size;
  snprintf(v.type, sizeof(v.type), "%s",
           size == 8 ? (sign ? "long" : "ulong")
           : sign    ? "int"
                     : "uint");
  return v;
}

struct dbg_val dbg_val_fp(double f, unsigned size) {
  struct dbg_val v;
  memset(&v, 0, sizeof(v));
  v.kind = DBG_FLT;
  v.f = f;
  v.size = size;
  snprintf(v.type, sizeof(v.type), "%s", size == 4 ? "float" : "double");
  return v;
}

/* Whether a number's text goes on at c (it is then no number). */
static int runs_on(const char *c) {
  return isalnum((unsigned char)*c) || *c == '_' || *c == '.';
}

/* Why the number at st is not one, into err. */
static int bad_number(const char *st, int range, char *err, size_t errlen) {
  size_t n = 0;
  while (n < 47 && runs_on(st + n))
    n++;
  if (err)
    snprintf(err, errlen, range ? "integer constant '%.*s' is too large" : "invalid number '%.*s'",
             (int)n, st);
  return 1;
}

int dbg_lex_number(struct dbg_lex *l, struct dbg_val *v, char *err, size_t errlen) {
  const char *st = l->s;
  char *end;
  int hex = st[0] == '0' && (st[1] == 'x' || st[1] == 'X');
  const char *d = st;
  while (!hex && isdigit((unsigned char)*d))
    d++;
  if (!hex && (*d == '.' || *d == 'e' || *d == 'E')) {
    *v = dbg_val_fp(strtod(st, &end), 8); /* a double, as in C, unless suffixed f */
    if (*end == 'f' || *end == 'F') {
      *v = dbg_val_fp((float)v->f, 4);
      end++;
    }
    l->s = end;
    return runs_on(end) ? bad_number(st, 0, err, errlen) : 0;
  }
  errno = 0;
  uint64_t u = strtoull(st, &end, hex ? 16 : st[0] == '0' ? 8 : 10);
  int range = errno == ERANGE, uns = 0, lng = 0;
  for (;;) {
    if ((*end == 'u' || *end == 'U') && !uns) {
      uns = 1;
      end++;
    } else if ((*end == 'l' || *end == 'L') && !lng) {
      lng = 1;
      end += end[1] == end[0] ? 2 : 1; /* l or ll: both 64 bits */
    } else {
      break;
    }
  }
  l->s = end;
  if (range || runs_on(end)) {
    *v = dbg_val_int(0, 1, 4);
    return bad_number(st, range, err, errlen);
  }
  int octhex = hex || st[0] == '0';
  if (!uns && !lng && u <= INT32_MAX)
    *v = dbg_val_int((int64_t)u, 1, 4);
  else if (!lng && (uns || octhex) && u <= UINT32_MAX)
    *v = dbg_val_int((int64_t)u, 0, 4);
  else if (!uns && u <= INT64_MAX)
    *v = dbg_val_int((int64_t)u, 1, 8);
  else
    *v = dbg_val_int((int64_t)u, 0, 8);
  return 0;
}

int dbg_lex_cast(struct dbg_lex *l, const struct dbg_env *env, struct dbg_val *t) {
  const char *save = l->s;
  if (!dbg_lex_eat(l, "(")) return 0;
  dbg_lex_ws(l);
  char name[64];
  int n = 0;
  while (n < 63 && (isalnum((unsigned char)*l->s) || *l->s == '_' || *l->s == ' ' || *l->s == '*'))
    name[n++] = *l->s++;
  name[n] = 0;
  if (dbg_lex_eat(l, ")") && n && dbg_type_resolve(env, name, t) && t->kind != DBG_ARR &&
      t->kind != DBG_STRUCT)
    return 1;
  l->s = save;
  return 0;
}

const struct dbg_op dbg_ops[DBG_NOPS] = {
    [DBG_OP_LOR] = {"||", 0}, [DBG_OP_LAND] = {"&&", 1}, [DBG_OP_OR] = {"|", 2},
    [DBG_OP_XOR] = {"^", 3},  [DBG_OP_AND] = {"&", 4},   [DBG_OP_EQ] = {"==", 5},
    [DBG_OP_NE] = {"!=", 5},  [DBG_OP_LE] = {"<=", 6},   [DBG_OP_GE] = {">=", 6},
    [DBG_OP_LT] = {"<", 6},   [DBG_OP_GT] = {">", 6},    [DBG_OP_SHL] = {"<<", 7},
    [DBG_OP_SHR] = {">>", 7}, [DBG_OP_ADD] = {"+", 9},   [DBG_OP_SUB] = {"-", 9},
    [DBG_OP_MUL] = {"*", 10}, [DBG_OP_DIV] = {"/", 10},  [DBG_OP_MOD] = {"%", 10},
};

struct dbg_conv dbg_conv_of(int op, const struct dbg_val *a, const struct dbg_val *b) {
  struct dbg_conv c = {0, 0, 0};
  if (a->kind == DBG_FLT || b->kind == DBG_FLT) {
    c.flt = (a->kind == DBG_FLT && a->size == 8) || (b->kind == DBG_FLT && b->size == 8) ? 8 : 4;
    return c;
  }
  int shift = op == DBG_OP_SHL || op == DBG_OP_SHR;
  c.size = shift || a->size > b->size ? a->size : b->size;
  if (c.size < 4) c.size = 4;
  c.sign = shift ? a->is_signed || a->size < 4
                 : (a->is_signed || a->size < c.size) && (b->is_signed || b->size < c.size);
  return c;
}
