/*
 * test_translate.c - the compiler through its own API: option parsing, the
 * LSI listing of kernels exercising IR features at -O0 and O2, the control
 * flow of seed 004 (SSY/SYNC/YIELD), the debug tables of seed 003, build
 * failures with their messages, the binary format and the build cache.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/cc.h"
#include "compiler/cc_debug.h"
#include "util/check_util.h"

static struct lsi_program *build_ok(const char *src, const char *opts) {
  struct lsi_program *p = NULL;
  char *log = NULL;
  int rc = cc_build(src, "t.cl", opts, &p, &log);
  ck_assert_msg(rc == CC_OK, "build failed (%d): %s", rc, log ? log : "");
  free(log);
  return p;
}

__attribute__((noinline)) static char *listing(const struct lsi_program *p, const char *src) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cc_dump(f, p, src);
  fclose(f);
  return buf;
}

__attribute__((noinline)) static int count(const char *hay, const char *needle) {
  int n = 0;
  for (const char *s = strstr(hay, needle); s; s = strstr(s + 1, needle))
    n++;
  return n;
}

static const char *if_for_src = "__kernel void k(__global int *out, int n) {\n"
                                "  int i = get_global_id(0);\n"
                                "  int acc = 0;\n"
                                "  if (i < n)\n"
                                "    acc = 1;\n"
                                "  for (int j = 0; j < n; j++) {\n"
                                "    acc += j;\n"
                                "  }\n"
                                "  out[i] = acc;\n"
                                "}\n";

START_TEST(test_options) {
  struct cc_options o;
  char err[128];
  ck_assert_int_eq(
      cc_options_parse("-D A=1 -DB -I /tmp -cl-std=CL3.0 -g -w", 0, &o, err, sizeof err), CC_OK);
  ck_assert_int_eq(o.cl_std, 300);
  ck_assert_int_eq(o.debug, 1);
  cc_options_free(&o);
  ck_assert_int_eq(cc_options_parse("-cl-opt-disable \"-DX=a b\"", 0, &o, err, sizeof err), CC_OK);
  ck_assert_int_eq(o.opt_disable, 1);
  ck_assert_str_eq(o.args[1], "X=a b");
  cc_options_free(&o);
  ck_assert_int_eq(cc_options_parse("-foo", 0, &o, err, sizeof err), CC_INVALID_OPTIONS);
  ck_assert_ptr_nonnull(strstr(err, "-foo"));
  ck_assert_int_eq(cc_options_parse("-D", 0, &o, err, sizeof err), CC_INVALID_OPTIONS);
  ck_assert_int_eq(cc_options_parse("-create-library", 1, &o, err, sizeof err), CC_OK);
  ck_assert_int_eq(o.create_library, 1);
  cc_options_free(&o);
  ck_assert_int_eq(cc_options_parse("-DX", 1, &o, err, sizeof err), CC_INVALID_OPTIONS);
}
END_TEST

START_TEST(test_if_and_for_control_flow_o0) {
  struct lsi_program *p = build_ok(if_for_src, "-cl-opt-disable");
  char *l = listing(p, if_for_src);
  /* the if and the loop each push a sync token and pop it */
  ck_assert_int_ge(count(l, "SSY"), 2);
  ck_assert_int_ge(count(l, "SYNC"), 2);
  ck_assert_int_eq(count(l, "YIELD"), 1);
  ck_assert_int_ge(count(l, "BRA_P"), 2);
  ck_assert_int_eq(count(l, "EXIT"), 1);
  ck_assert_ptr_nonnull(strstr(l, "SREG           r"));
  ck_assert_ptr_nonnull(strstr(l, "global_id.x"));
  /* source lines are interleaved */
  ck_assert_ptr_nonnull(strstr(l, "    4 |   if (i < n)"));
  ck_assert_ptr_nonnull(strstr(l, "    6 |   for (int j = 0; j < n; j++) {"));
  free(l);
  cc_program_free(p);
}
END_TEST

START_TEST(test_microkernels_and_symbols) {
  struct lsi_program *p = build_ok(if_for_src, "-cl-opt-disable");
  const struct lsi_kernel *k = &p->kernels[0];
  const struct cc_debug *d = k->debug;
  ck_assert_ptr_nonnull(d);
  int roles[8] = {0};
  for (uint32_t i = 0; i < d->nmk; i++) {
    ck_assert_uint_lt(d->mk[i].role, 8);
    roles[d->mk[i].role]++;
    if (i) ck_assert_uint_eq(d->mk[i].pc_begin, d->mk[i - 1].pc_end);
    if (d->mk[i].role == CC_MK_COND || d->mk[i].role == CC_MK_LOOP_COND)
      ck_assert_uint_eq(d->mk[i].nsucc, 2);
  }
  ck_assert_uint_eq(d->mk[d->nmk - 1].pc_end, k->ninsns);
  ck_assert_int_ge(roles[CC_MK_COND], 1);
  ck_assert_int_ge(roles[CC_MK_LOOP_INIT], 1);
  ck_assert_int_ge(roles[CC_MK_LOOP_COND], 1);
  ck_assert_int_ge(roles[CC_MK_LOOP_BODY], 1);
  ck_assert_int_ge(roles[CC_MK_LOOP_INC], 1);
  /* a statement is its own microkernel: line 7 (acc += j) */
  int found = 0;
  for (uint32_t i = 0; i < d->nmk; i++)
    if (d->mk[i].line_first == 7 && d->mk[i].line_last == 7 && d->mk[i].role == CC_MK_LOOP_BODY)
      found = 1;
  ck_assert(found);
  const struct cc_symbol *j = cc_debug_find_symbol(d, "j", 7);
  ck_assert_ptr_nonnull(j);
  ck_assert_str_eq(j->type_name, "int");
  ck_assert_uint_eq(j->space, CC_SYM_PRIVATE);
  ck_assert_uint_eq(j->scope_first, 6);
  ck_assert_uint_eq(j->scope_last, 8);
  ck_assert_ptr_null(cc_debug_find_symbol(d, "j", 9));
  const struct cc_symbol *out = cc_debug_find_symbol(d, "out", 3);
  ck_assert_ptr_nonnull(out);
  ck_assert_uint_eq(out->arg_index, 1);
  ck_assert_uint_eq(out->elem_kind, 2);
  ck_assert_ptr_nonnull(cc_debug_find_symbol(d, "acc", 9));
  /* every pc has a line after the prologue */
  for (uint32_t pc = 1; pc < k->ninsns; pc++)
    ck_assert_uint_gt(k->lines[pc].line, 0);
  cc_program_free(p);
}
END_TEST

static const char *features_src =
    "typedef struct { int a; char b; float c[3]; } S;\n"
    "__constant float coef[4] = {0.5f, 1.5f, 2.5f, 3.5f};\n"
    "int helper(int x) { return x * x + 1; }\n"
    "__kernel void f(__global int *o, __global float4 *v, __local int *tmp, S s,\n"
    "                __global long *w, __global uchar *c) {\n"
    "  __local float shared[16];\n"
    "  int i = get_global_id(0), l = get_local_id(0);\n"
    "  shared[l % 16] = coef[i % 4];\n"
    "  tmp[l] = helper(i) + s.a + s.b;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  float4 x = v[i] * 2.0f + (float4)(shared[(l + 1) % 16]);\n"
    "  v[i] = x.wzyx;\n"
    "  atomic_add(&o[0], tmp[(l + 1) % get_local_size(0)]);\n"
    "  atom_max(&w[0], (long)i);\n"
    "  w[i + 1] = (long)i * w[2] >> 3;\n"
    "  c[i] = add_sat(c[i], (uchar)200) + rotate(c[i], (uchar)3);\n"
    "  switch (i & 3) { case 0: o[i] = 1; break; case 1: o[i] = s.c[1]; break; default: o[i] = 7; "
    "}\n"
    "  o[i] += max(i, 5) + clamp(i, 2, 9) + abs(l - 8) + select(1, 2, i > 3);\n"
    "}\n";

START_TEST(test_features_o0_and_o2) {
  const char *opts[] = {"-cl-opt-disable", "", "-cl-std=CL3.0", "-cl-fast-relaxed-math"};
  for (int o = 0; o < 4; o++) {
    struct lsi_program *p = build_ok(features_src, opts[o]);
    ck_assert_uint_eq(p->nkernels, 1);
    const struct lsi_kernel *k = &p->kernels[0];
    ck_assert_uint_eq(k->nargs, 6);
    ck_assert_uint_eq(k->args[2].kind, LSI_ARG_LOCAL);
    ck_assert_uint_eq(k->args[3].kind, LSI_ARG_BYVAL);
    ck_assert_uint_ge(k->args[3].size, 20);
    ck_assert_uint_eq(k->local_size, 64);
    ck_assert_uint_ge(p->data_size, 16);
    char *l = listing(p, features_src);
    ck_assert_msg(strstr(l, "ATOM_ADD_I32"), "[%s] no ATOM_ADD_I32", opts[o]);
    ck_assert_msg(strstr(l, "ATOM_SMAX_I64"), "[%s] no ATOM_SMAX_I64", opts[o]);
    ck_assert_msg(strstr(l, "BAR "), "[%s] no BAR", opts[o]);
    ck_assert_msg(strstr(l, "local["), "[%s] no local access", opts[o]);
    ck_assert_msg(strstr(l, "data+"), "[%s] no data segment constant", opts[o]);
    ck_assert_msg(strstr(l, "local_size.x") || strstr(l, "local_size."), "[%s] no local size",
                  opts[o]);
    free(l);
    cc_program_free(p);
  }
}
END_TEST

/* A struct by value is declared at its byval pointer: its symbol is the
 * copy in the private frame. Parameters on the signature's second line are
 * in scope from the kernel's first line. */
START_TEST(test_argument_symbols) {
  struct lsi_program *p = build_ok(features_src, "-cl-opt-disable");
  const struct lsi_kernel *k = &p->kernels[0];
  const struct cc_debug *d = k->debug;
  const struct cc_symbol *s = cc_debug_find_symbol(d, "s", 9);
  ck_assert_ptr_nonnull(s);
  ck_assert_str_eq(s->type_name, "S");
  ck_assert_uint_eq(s->space, CC_SYM_PRIVATE);
  ck_assert_uint_eq(s->offset, k->args[3].priv_offset);
  ck_assert_uint_eq(s->size, k->args[3].size);
  ck_assert_uint_eq(s->arg_index, 4);
  ck_assert_uint_eq(s->elem_kind, 3);
  ck_assert_ptr_nonnull(cc_debug_find_type(d, "S"));
  for (uint32_t a = 0; a < k->nargs; a++) {
    const struct cc_symbol *y = cc_debug_find_symbol(d, k->args[a].name, 4);
    ck_assert_msg(y != NULL, "argument %s not in scope at line 4", k->args[a].name);
    ck_assert_uint_eq(y->arg_index, a + 1);
    ck_assert_uint_eq(y->scope_first, 4);
  }
  cc_program_free(p);
}
END_TEST

START_TEST(test_build_failures_name_the_line) {
  struct lsi_program *p = NULL;
  char *log = NULL;
  int rc = cc_build("__kernel void k(__global int *o) {\n  o[0] = undeclared;\n}\n", "bad.cl", "",
                    &p, &log);
  ck_assert_int_eq(rc, CC_BUILD_FAILURE);
  ck_assert_ptr_null(p);
  ck_assert_msg(strstr(log, "bad.cl:2:10: error:"), "log: %s", log);
  free(log);
  log = NULL;
  /* recursion cannot be inlined: the translator names the call and line */
  rc = cc_build("int f(int x) { return x < 2 ? x : f(x - 1) + f(x - 2); }\n"
                "__kernel void k(__global int *o) {\n"
                "  o[0] = f(o[1]);\n"
                "}\n",
                "rec.cl", "-cl-opt-disable", &p, &log);
  ck_assert_int_eq(rc, CC_BUILD_FAILURE);
  ck_assert_msg(strstr(log, "rec.cl:") && strstr(log, "recursion"), "log: %s", log);
  free(log);
  log = NULL;
  rc = cc_build("__kernel void k(__global int *o) { o[0] = 1; }", "x.cl", "-nope", &p, &log);
  ck_assert_int_eq(rc, CC_INVALID_OPTIONS);
  free(log);
}
END_TEST

/* A plain `inline` helper (C99: an inline definition, no external one)
 * builds with and without optimisation; an `extern inline` one (a C99
 * external definition) still does too. */
START_TEST(test_plain_inline_helpers) {
  static const char *plain = "inline int twice(int x) { return 2 * x; }\n"
                             "__kernel void k(__global int *o) { o[0] = twice(o[1]); }\n";
  static const char *ext = "extern inline int dec(int x) { return x - 1; }\n"
                           "__kernel void k(__global int *o) { o[0] = dec(o[1]); }\n";
  const char *opts[] = {"", "-cl-opt-disable", "-g"};
  for (unsigned i = 0; i < 3; i++) {
    cc_program_free(build_ok(plain, opts[i]));
    cc_program_free(build_ok(ext, opts[i]));
  }
}
END_TEST

START_TEST(test_binary_format) {
  struct lsi_program *p = build_ok(if_for_src, "-cl-opt-disable");
  uint8_t *bin;
  size_t len;
  ck_assert_int_eq(cc_binary_save(p, NULL, CC_BIN_EXECUTABLE, "log text", &bin, &len), CC_OK);
  int kind;
  struct lsi_program *q = NULL;
  struct cc_bitcode bc;
  char *log = NULL;
  ck_assert_int_eq(cc_binary_load(bin, len, &kind, &q, &bc, &log), CC_OK);
  ck_assert_int_eq(kind, CC_BIN_EXECUTABLE);
  ck_assert_str_eq(log, "log text");
  char *a = listing(p, if_for_src), *b = listing(q, if_for_src);
  ck_assert_str_eq(a, b);
  free(a);
  free(b);
  free(log);
  cc_program_free(q);
  /* every truncation and a flipped byte are rejected */
  for (size_t cut = 0; cut < len; cut += len / 37 + 1)
    ck_assert_int_eq(cc_binary_load(bin, cut, &kind, &q, &bc, NULL), CC_INVALID_BINARY);
  bin[len / 2] ^= 1;
  ck_assert_int_eq(cc_binary_load(bin, len, &kind, &q, &bc, NULL), CC_INVALID_BINARY);
  free(bin);
  cc_program_free(p);
}
END_TEST

/* A binary whose builtin calls name an address space (as binaries made
 * before the table listed such builtins once) still loads, each call
 * resolved to the same builtin. */
START_TEST(test_binary_spaced_names) {
  struct lsi_program *p =
      build_ok("__kernel void k(__global float *o) { o[0] = fract(o[1], o + 2); }\n", "");
  struct cc_debug *d = p->kernels[0].debug;
  int found = 0;
  for (uint32_t i = 0; d && i < d->ncalls; i++)
    if (!strcmp(d->call_name[i], "_Z5fractfPf")) {
      free(d->call_name[i]);
      d->call_name[i] = strdup("_Z5fractfPU3AS1f");
      found = 1;
    }
  ck_assert_msg(found, "the kernel calls no _Z5fractfPf");
  uint8_t *bin;
  size_t len;
  ck_assert_int_eq(cc_binary_save(p, NULL, CC_BIN_EXECUTABLE, "", &bin, &len), CC_OK);
  int kind;
  struct lsi_program *q = NULL;
  struct cc_bitcode bc;
  ck_assert_int_eq(cc_binary_load(bin, len, &kind, &q, &bc, NULL), CC_OK);
  for (uint32_t pc = 0; pc < p->kernels[0].ninsns; pc++)
    ck_assert_int_eq(q->kernels[0].code[pc].imm, p->kernels[0].code[pc].imm);
  free(bin);
  cc_program_free(q);
  cc_program_free(p);
}
END_TEST

/* Variables of inlined functions: one copy per call, tagged with the call,
 * and the kernel's own names stay the kernel's. */
START_TEST(test_inlined_symbols) {
  const char *src = "float sq(float v) {\n"
                    "  float r = v * v;\n"
                    "  return r;\n"
                    "}\n"
                    "__kernel void k(__global float *out) {\n"
                    "  int r = get_global_id(0);\n"
                    "  out[r] = sq(r) + sq(2.0f);\n"
                    "}\n";
  struct lsi_program *p = build_ok(src, "-cl-opt-disable");
  const struct lsi_kernel *k = &p->kernels[0];
  const struct cc_debug *d = k->debug;
  ck_assert_uint_eq(d->ninl, 2);
  const struct cc_symbol *kr = cc_debug_find_symbol(d, "r", 7);
  ck_assert_ptr_nonnull(kr);
  ck_assert_str_eq(kr->type_name, "int");
  ck_assert_uint_eq(kr->inl, 0);
  ck_assert_ptr_null(cc_debug_find_symbol(d, "v", 2));
  uint32_t voff[2];
  for (uint32_t c = 1; c <= 2; c++) {
    ck_assert_str_eq(d->inl[c - 1].func, "sq");
    ck_assert_uint_eq(d->inl[c - 1].call_line, 7);
    ck_assert_uint_eq(d->inl[c - 1].parent, 0);
    const struct cc_symbol *v = cc_debug_find_symbol_in(d, "v", c, 2);
    ck_assert_ptr_nonnull(v);
    ck_assert_str_eq(v->type_name, "float");
    ck_assert_uint_eq(v->space, CC_SYM_PRIVATE);
    ck_assert_uint_eq(v->arg_index, 1);
    ck_assert_uint_eq(v->inl, c);
    /* the store that passes the argument */
    ck_assert_uint_gt(v->pass_pc, 0);
    ck_assert_uint_le(v->pass_pc, k->ninsns);
    ck_assert_uint_eq(k->code[v->pass_pc - 1].op, LSI_ST32);
    voff[c - 1] = v->offset;
    const struct cc_symbol *r = cc_debug_find_symbol_in(d, "r", c, 3);
    ck_assert_ptr_nonnull(r);
    ck_assert_str_eq(r->type_name, "float");
    ck_assert_uint_eq(r->arg_index, 0);
    ck_assert_uint_eq(r->pass_pc, 0);
    ck_assert_uint_eq(r->scope_first, 2);
    ck_assert_uint_eq(r->scope_last, 3);
    ck_assert_uint_ne(r->offset, kr->offset);
  }
  ck_assert_uint_ne(voff[0], voff[1]);
  /* the binary keeps which call a symbol belongs to */
  uint8_t *bin;
  size_t len;
  ck_assert_int_eq(cc_binary_save(p, NULL, CC_BIN_EXECUTABLE, "", &bin, &len), CC_OK);
  int kind;
  struct lsi_program *q = NULL;
  struct cc_bitcode bc;
  ck_assert_int_eq(cc_binary_load(bin, len, &kind, &q, &bc, NULL), CC_OK);
  const struct cc_debug *e = q->kernels[0].debug;
  ck_assert_uint_eq(e->nsyms, d->nsyms);
  for (uint32_t i = 0; i < d->nsyms; i++) {
    ck_assert_str_eq(e->syms[i].name, d->syms[i].name);
    ck_assert_uint_eq(e->syms[i].inl, d->syms[i].inl);
    ck_assert_uint_eq(e->syms[i].pass_pc, d->syms[i].pass_pc);
  }
  free(bin);
  cc_program_free(q);
  cc_program_free(p);
}
END_TEST

START_TEST(test_build_cache) {
  char dir[] = "/tmp/lockstep-cache-test-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  setenv("XDG_CACHE_HOME", dir, 1);
  setenv("LOCKSTEP_CACHE", "1", 1);
  struct lsi_program *p1 = build_ok(if_for_src, "-cl-opt-disable");
  char path[512];
  snprintf(path, sizeof path, "%s/lockstep", dir);
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  struct lsi_program *p2 = build_ok(if_for_src, "-cl-opt-disable");
  char *a = listing(p1, if_for_src), *b = listing(p2, if_for_src);
  ck_assert_str_eq(a, b);
  free(a);
  free(b);
  cc_program_free(p1);
  cc_program_free(p2);
  setenv("LOCKSTEP_CACHE", "0", 1);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A YIELD only on back edges of loops whose trip count is not known at
 * compile time. */
START_TEST(test_yield_only_on_uncounted_loops) {
  const char *counted = "__kernel void k(__global int *out, int n) {\n"
                        "  int acc = 0;\n"
                        "  #pragma nounroll\n"
                        "  for (int j = 0; j < 100; j++)\n"
                        "    acc += out[j] * j;\n"
                        "  #pragma nounroll\n"
                        "  for (uint j = 37; j != 1; j -= 4)\n"
                        "    acc ^= out[j];\n"
                        "  out[get_global_id(0)] = acc;\n"
                        "}\n";
  const char *data = "__kernel void k(__global int *out, int n) {\n"
                     "  int acc = 0;\n"
                     "  for (int j = 0; j < n; j++)\n"
                     "    acc += out[j] * j;\n"
                     "  out[get_global_id(0)] = acc;\n"
                     "}\n";
  const char *nested = "__kernel void k(__global int *out, int n) {\n"
                       "  int acc = 0;\n"
                       "  #pragma nounroll\n"
                       "  for (int j = 0; j < 50; j++) {\n"
                       "    int v = out[j];\n"
                       "    while (v > 1)\n"
                       "      v = (v & 1) ? 3 * v + 1 : v / 2;\n"
                       "    acc += v + j;\n"
                       "  }\n"
                       "  out[get_global_id(0)] = acc;\n"
                       "}\n";
  struct lsi_program *p = build_ok(counted, "");
  char *l = listing(p, counted);
  ck_assert_msg(count(l, "BRA_P") + count(l, "BRA_Z") >= 2, "no loops left:\n%s", l);
  ck_assert_msg(count(l, "YIELD") == 0, "counted loops yield:\n%s", l);
  free(l);
  cc_program_free(p);
  /* -O0 keeps the counter in memory: not provably counted, so it yields */
  p = build_ok(counted, "-cl-opt-disable");
  l = listing(p, counted);
  ck_assert_int_eq(count(l, "YIELD"), 2);
  free(l);
  cc_program_free(p);
  p = build_ok(data, "");
  l = listing(p, data);
  ck_assert_msg(count(l, "YIELD") == 1, "data-dependent loop:\n%s", l);
  free(l);
  cc_program_free(p);
  p = build_ok(nested, "");
  l = listing(p, nested);
  ck_assert_msg(count(l, "YIELD") == 1, "nested loops:\n%s", l);
  free(l);
  cc_program_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("translate");
  CU_ADD(s, test_options);
  CU_ADD(s, test_if_and_for_control_flow_o0);
  CU_ADD(s, test_microkernels_and_symbols);
  CU_ADD(s, test_features_o0_and_o2);
  CU_ADD(s, test_argument_symbols);
  CU_ADD(s, test_build_failures_name_the_line);
  CU_ADD(s, test_plain_inline_helpers);
  CU_ADD(s, test_binary_format);
  CU_ADD(s, test_binary_spaced_names);
  CU_ADD(s, test_inlined_symbols);
  CU_ADD(s, test_build_cache);
  CU_ADD(s, test_yield_only_on_uncounted_loops);
  return cu_run(s);
}
