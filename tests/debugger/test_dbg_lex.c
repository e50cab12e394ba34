/*
 * test_dbg_lex.c - what the debugger's two expression parsers share
 * (debugger/dbg_lex.c): tokens that are not the start of longer ones,
 * names, numbers typed as C types them (and the ones that are not numbers,
 * with why), casts and what is not one, the operators' table, C's usual
 * conversions and the integer and floating-point operations at their edges.
 */
#include <stdint.h>
#include <string.h>

#include "debugger/dbg_lex.h"
#include "util/check_util.h"

START_TEST(test_eat) {
  struct dbg_lex l = {"  && x"};
  ck_assert_int_eq(dbg_lex_eat(&l, "&"), 0); /* not '&' of "&&" */
  ck_assert_int_eq(dbg_lex_eat(&l, "&&"), 1);
  ck_assert_str_eq(l.s, " x");
  l.s = "<= 1";
  ck_assert_int_eq(dbg_lex_eat(&l, "<"), 0);
  ck_assert_int_eq(dbg_lex_eat(&l, "<="), 1);
  l.s = "<< 1";
  ck_assert_int_eq(dbg_lex_eat(&l, "<"), 0);
  l.s = "!x";
  ck_assert_int_eq(dbg_lex_eat(&l, "!"), 1);
  l.s = "!= x";
  ck_assert_int_eq(dbg_lex_eat(&l, "!"), 0);
  char name[4];
  l.s = "  abc_12+";
  dbg_lex_name(&l, name, sizeof(name));
  ck_assert_str_eq(name, "abc"); /* at most cap-1 of it */
  ck_assert_str_eq(l.s, "_12+");
  l.s = "+";
  dbg_lex_name(&l, name, sizeof(name));
  ck_assert_str_eq(name, "");
}
END_TEST

/* Numbers: the text, the type it takes (or NULL: not a number, with err),
 * and where reading stops. */
static const struct {
  const char *text, *type, *err;
  int64_t i;
  double f;
} numbers[] = {
    {"7", "int", NULL, 7, 0},
    {"2147483648", "long", NULL, 2147483648, 0},
    {"0x80000000", "uint", NULL, 0x80000000, 0}, /* hex: uint before long */
    {"017", "int", NULL, 15, 0},
    {"1u", "uint", NULL, 1, 0},
    {"1ll", "long", NULL, 1, 0},
    {"1UL", "ulong", NULL, 1, 0},
    {"0xffffffffffffffff", "ulong", NULL, -1, 0},
    {"1.5f", "float", NULL, 0, 1.5},
    {"1e3", "double", NULL, 0, 1000},
    {"0.1f", "float", NULL, 0, (float)0.1},
    {"99999999999999999999", NULL, "integer constant '99999999999999999999' is too large", 0, 0},
    {"12ab", NULL, "invalid number '12ab'", 0, 0},
    {"1.2.3", NULL, "invalid number '1.2.3'", 0, 0},
    {"1uu", NULL, "invalid number '1uu'", 0, 0},
};

START_TEST(test_number) {
  const char *text = numbers[_i].text;
  struct dbg_lex l = {text};
  struct dbg_val v;
  char err[96] = "";
  int bad = dbg_lex_number(&l, &v, err, sizeof(err));
  if (!numbers[_i].type) {
    ck_assert_msg(bad, "%s", text);
    ck_assert_str_eq(err, numbers[_i].err);
    ck_assert_int_eq(dbg_lex_number(&(struct dbg_lex){text}, &v, NULL, 0), 1); /* no err */
    return;
  }
  ck_assert_msg(!bad, "%s: %s", text, err);
  ck_assert_str_eq(v.type, numbers[_i].type);
  ck_assert_str_eq(l.s, "");
  if (v.kind == DBG_FLT)
    ck_assert_msg(v.f == numbers[_i].f, "%s: %g", text, v.f);
  else
    ck_assert_int_eq(v.i, numbers[_i].i);
}
END_TEST

START_TEST(test_cast) {
  struct dbg_val t;
  struct dbg_lex l = {" ( unsigned int ) x"};
  ck_assert_int_eq(dbg_lex_cast(&l, NULL, &t), 1);
  ck_assert_int_eq(t.kind, DBG_INT);
  ck_assert_int_eq(t.is_signed, 0);
  ck_assert_str_eq(l.s, " x");
  l.s = "(float *)p";
  ck_assert_int_eq(dbg_lex_cast(&l, NULL, &t), 1);
  ck_assert_int_eq(t.kind, DBG_PTR);
  static const char *const not_casts[] = {"(x) + 1", "(int[4])a", "(1)", "(int", "x"};
  for (size_t k = 0; k < sizeof(not_casts) / sizeof(not_casts[0]); k++) {
    l.s = not_casts[k];
    ck_assert_int_eq(dbg_lex_cast(&l, NULL, &t), 0);
    ck_assert_ptr_eq(l.s, not_casts[k]); /* nothing taken */
  }
}
END_TEST

START_TEST(test_ops) {
  /* every operator has a spelling and a level, none that of gdb's '@' */
  for (int k = 0; k < DBG_NOPS; k++) {
    ck_assert_ptr_nonnull(dbg_ops[k].s);
    ck_assert(dbg_ops[k].level >= 0 && dbg_ops[k].level < DBG_NLEVELS);
    ck_assert_int_ne(dbg_ops[k].level, DBG_LEVEL_AT);
  }
  struct dbg_val c = dbg_val_int(0, 1, 1), u = dbg_val_int(0, 0, 4), l = dbg_val_int(0, 1, 8);
  struct dbg_val f = dbg_val_fp(0, 4), d = dbg_val_fp(0, 8);
  struct dbg_conv k = dbg_conv_of(DBG_OP_ADD, &c, &u); /* char + uint: uint */
  ck_assert(k.flt == 0 && k.size == 4 && k.sign == 0);
  k = dbg_conv_of(DBG_OP_ADD, &u, &l); /* uint + long: long */
  ck_assert(k.flt == 0 && k.size == 8 && k.sign == 1);
  k = dbg_conv_of(DBG_OP_SHL, &c, &l); /* a shift: its promoted left operand */
  ck_assert(k.flt == 0 && k.size == 4 && k.sign == 1);
  ck_assert_uint_eq(dbg_conv_of(DBG_OP_MUL, &f, &u).flt, 4);
  ck_assert_uint_eq(dbg_conv_of(DBG_OP_MUL, &f, &d).flt, 8);
}
END_TEST

START_TEST(test_int_op) {
  int64_t r = 42;
  ck_assert_int_eq(dbg_int_op(DBG_OP_DIV, 1, 0, 4, 1, &r), 0);
  ck_assert_int_eq(r, 42); /* untouched */
  ck_assert_int_eq(dbg_int_op(DBG_OP_DIV, INT64_MIN, -1, 8, 1, &r), 1);
  ck_assert_int_eq(r, INT64_MIN);
  ck_assert_int_eq(dbg_int_op(DBG_OP_MOD, INT64_MIN, -1, 8, 1, &r), 1);
  ck_assert_int_eq(r, 0);
  dbg_int_op(DBG_OP_SHL, 1, 32, 4, 1, &r); /* the count masked by the width */
  ck_assert_int_eq(r, 1);
  dbg_int_op(DBG_OP_ADD, INT32_MAX, 1, 4, 1, &r); /* wraps in its size */
  ck_assert_int_eq(r, INT32_MIN);
  dbg_int_op(DBG_OP_SUB, 0, 1, 4, 0, &r);
  ck_assert_int_eq(r, UINT32_MAX);
  dbg_int_op(DBG_OP_LT, -1, 1, 4, 0, &r); /* unsigned: 0xffffffff < 1 is false */
  ck_assert_int_eq(r, 0);
  dbg_int_op(DBG_OP_LT, -1, 1, 4, 1, &r);
  ck_assert_int_eq(r, 1);
  dbg_int_op(DBG_OP_SHR, -8, 1, 4, 1, &r);
  ck_assert_int_eq(r, -4);
  ck_assert_int_eq(dbg_int_op(DBG_OP_LOR, 1, 1, 4, 1, &r), 0); /* not computed here */
  ck_assert_int_eq(dbg_int_wrap(0x1ff, 1, 1), -1);
  ck_assert_int_eq(dbg_int_wrap(-1, 0, 2), 0xffff);
}
END_TEST

START_TEST(test_flt_op) {
  double r = 0;
  ck_assert_int_eq(dbg_flt_op(DBG_OP_ADD, 0.1, 0.2, 1, &r), DBG_FLT);
  ck_assert(r == 0.1 + 0.2);
  ck_assert_int_eq(dbg_flt_op(DBG_OP_ADD, 0.1, 0.2, 0, &r), DBG_FLT);
  ck_assert(r == (float)((double)(float)0.1 + (double)(float)0.2)); /* rounded to float */
  ck_assert_int_eq(dbg_flt_op(DBG_OP_GE, 1, 1, 1, &r), DBG_INT);
  ck_assert(r == 1);
  ck_assert_int_eq(dbg_flt_op(DBG_OP_MOD, 1, 1, 1, &r), -1);
  ck_assert_int_eq(dbg_flt_op(DBG_OP_SHL, 1, 1, 1, &r), -1);
  int64_t i = 0;
  double f = 0;
  dbg_scalar_decode(DBG_INT, 1, 2, 0x8000, &i, &f);
  ck_assert_int_eq(i, -32768);
  float h = 2.5f;
  uint64_t raw = 0;
  memcpy(&raw, &h, 4);
  dbg_scalar_decode(DBG_FLT, 1, 4, raw, &i, &f);
  ck_assert(f == 2.5);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dbg_lex");
  CU_ADD(s, test_eat);
  TCase *tc = tcase_create("number");
  tcase_add_loop_test(tc, test_number, 0, (int)(sizeof(numbers) / sizeof(numbers[0])));
  suite_add_tcase(s, tc);
  CU_ADD(s, test_cast);
  CU_ADD(s, test_ops);
  CU_ADD(s, test_int_op);
  CU_ADD(s, test_flt_op);
  return cu_run(s);
}
