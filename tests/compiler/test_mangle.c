/*
 * test_mangle.c - the compiler's Itanium name reader and writer
 * (compiler/mangle.c) on names clang 19 emits for spir64: substitutions
 * S_, S0_ ... S<base 36>_ for pointers, qualified types, _Atomic, vectors
 * and named types, and the round trip back to clang's spelling. It must not
 * test the translator through these names (test_translate.c does).
 */
#include <string.h>

#include "compiler/cc_int.h"
#include "util/check_util.h"

/* Demangles m, checks its name and expanded parameters, and writes it back. */
static void roundtrip(const char *m, const char *name, const char *const *want, int n) {
  char got_name[128];
  struct cc_mparam ps[32];
  int np = cc_demangle(m, got_name, sizeof got_name, ps, 32);
  ck_assert_msg(np == n, "%s: %d parameters, want %d", m, np, n);
  ck_assert_str_eq(got_name, name);
  const char *types[32];
  for (int k = 0; k < n; k++) {
    ck_assert_msg(!strcmp(ps[k].full, want[k]), "%s: parameter %d is %s, want %s", m, k, ps[k].full,
                  want[k]);
    types[k] = ps[k].full;
  }
  char back[512];
  ck_assert_int_eq(cc_mangle(name, types, (unsigned)n, back, sizeof back), 0);
  ck_assert_str_eq(back, m);
}

START_TEST(test_atomic_cmpxchg) {
  static const char *const want[] = {"PU3AS4VU7_Atomici", "PU3AS4i",        "i",
                                     "12memory_order",    "12memory_order", "12memory_scope"};
  roundtrip("_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_"
            "orderS4_12memory_scope",
            "atomic_compare_exchange_strong_explicit", want, 6);
  struct cc_mparam ps[8];
  char name[64];
  cc_demangle("_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_"
              "orderS4_12memory_scope",
              name, sizeof name, ps, 8);
  ck_assert_int_eq(ps[0].is_ptr, 1);
  ck_assert_int_eq(ps[0].elem_size, 4);
  ck_assert_int_eq(ps[2].is_ptr, 0);
}
END_TEST

/* _Atomic(T) is a candidate of its own under an address-space qualifier. */
START_TEST(test_atomic_under_qualifier) {
  static const char *const want[] = {"PU3AS4U7_Atomici", "PU3AS4U7_Atomici", "PU3AS4i",
                                     "12memory_order", "12memory_order"};
  roundtrip("_Z1gPU3AS4U7_AtomiciS1_PU3AS4i12memory_orderS4_", "g", want, 5);
}
END_TEST

START_TEST(test_vectors) {
  static const char *const dot[] = {"Dv4_f", "Dv4_f"};
  roundtrip("_Z3dotDv4_fS_", "dot", dot, 2);
  static const char *const fract[] = {"Dv4_f", "PU3AS1Dv4_f"};
  roundtrip("_Z5fractDv4_fPU3AS1S_", "fract", fract, 2);
  struct cc_mparam ps[4];
  char name[32];
  ck_assert_int_eq(cc_demangle("_Z5fractDv4_fPU3AS1S_", name, sizeof name, ps, 4), 2);
  ck_assert_str_eq(ps[1].scalar, "PU3AS1f");
  ck_assert_int_eq(ps[1].vec, 4);
  ck_assert_int_eq(ps[1].is_ptr, 1);
  ck_assert_str_eq(ps[0].scalar, "f");
  /* the scalar form is written back without substitutions it does not need */
  const char *st[] = {ps[0].scalar, ps[1].scalar};
  char back[64];
  ck_assert_int_eq(cc_mangle("fract", st, 2, back, sizeof back), 0);
  ck_assert_str_eq(back, "_Z5fractfPU3AS1f");
}
END_TEST

/* More than eleven candidates: S9_, SA_ ... and references to qualified
 * types, pointers, vectors and named types (clang 19's own spelling). */
START_TEST(test_base36) {
  static const char *const want[] = {"PU3AS1c",
                                     "PU3AS1s",
                                     "PU3AS1i",
                                     "PU3AS1l",
                                     "PU3AS1f",
                                     "PU3AS1d",
                                     "PU3AS3c",
                                     "PU3AS3i",
                                     "PU3AS1VU7_Atomici",
                                     "PU3AS1KDv4_f",
                                     "PU3AS1h",
                                     "PU3AS1t",
                                     "PU3AS1l",
                                     "PU3AS3i",
                                     "PU3AS1KDv4_f",
                                     "PU3AS1VU7_Atomici",
                                     "PU3AS1Dv4_f",
                                     "12memory_order",
                                     "12memory_scope",
                                     "12memory_order",
                                     "Dv4_f",
                                     "Dv4_f",
                                     "PDv2_i",
                                     "Dv2_i"};
  roundtrip("_Z1fPU3AS1cPU3AS1sPU3AS1iPU3AS1lPU3AS1fPU3AS1dPU3AS3cPU3AS3iPU3AS1VU7_"
            "AtomiciPU3AS1KDv4_fPU3AS1hPU3AS1tS6_SE_SK_SH_PU3AS1SI_12memory_order12memory_"
            "scopeSR_SI_SI_PDv2_iST_",
            "f", want, 24);
}
END_TEST

/* Address spaces dropped: the form the device's table lists pointer builtins
 * in; substitutions that referred to qualified types are renumbered. */
START_TEST(test_flat) {
  static const char *const cases[][2] = {
      {"_Z8lgamma_rfPU3AS4i", "_Z8lgamma_rfPi"},
      {"_Z5fractDv4_fPU3AS1S_", "_Z5fractDv4_fPS_"},
      {"_Z6vload4mPU3AS2Kf", "_Z6vload4mPKf"},
      {"_Z6remquoDv2_dS_PU3AS3Dv2_i", "_Z6remquoDv2_dS_PDv2_i"},
      {"_Z7vstore4Dv4_fmPU3AS1f", "_Z7vstore4Dv4_fmPf"},
      /* S0_ named PU3AS1f, after the candidate U3AS1f; Pf is the first */
      {"_Z1gPU3AS1fS0_PU3AS3i", "_Z1gPfS_Pi"},
      {"_Z1gPU3AS1KfS0_PU3AS3i", "_Z1gPKfS0_Pi"},
      {"_Z3maxii", "_Z3maxii"},
      {"_Z14enqueue_marker9ocl_queuejPU3AS4K12ocl_clkeventPU3AS4S0_",
       "_Z14enqueue_marker9ocl_queuejPK12ocl_clkeventPS0_"}};
  char out[128];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ck_assert_int_eq(cc_mangle_flat(cases[i][0], out, sizeof out), 0);
    ck_assert_str_eq(out, cases[i][1]);
  }
  ck_assert_int_eq(cc_mangle_flat("printf", out, sizeof out), -1);
  ck_assert_int_eq(cc_mangle_flat("_Z3dotS_", out, sizeof out), -1);
  ck_assert_int_eq(cc_mangle_flat("_Z8lgamma_rfPU3AS4i", out, 8), -1); /* no room */
}
END_TEST

START_TEST(test_plain_and_errors) {
  char name[64];
  struct cc_mparam ps[4];
  ck_assert_int_eq(cc_demangle("_Z13get_global_idj", name, sizeof name, ps, 4), 1);
  ck_assert_str_eq(name, "get_global_id");
  ck_assert_int_eq(cc_demangle("_Z12get_work_dimv", name, sizeof name, ps, 4), 0);
  ck_assert_int_eq(cc_demangle("_Z3maxii", name, sizeof name, ps, 4), 2);
  ck_assert_int_eq(cc_demangle("_Z3maxii", name, sizeof name, ps, 1), -1); /* too many */
  ck_assert_int_eq(cc_demangle("_Z3dotS_", name, sizeof name, ps, 4), -1); /* nothing to refer to */
  ck_assert_int_eq(cc_demangle("_Z3dotDv4_fS0_", name, sizeof name, ps, 4), -1);
  ck_assert_int_eq(cc_demangle("printf", name, sizeof name, ps, 4), -1);
  ck_assert_int_eq(cc_demangle("_Z9some_nameP", name, sizeof name, ps, 4), -1);
  char out[16];
  const char *t[] = {"Dv4_f", "Dv4_f"};
  ck_assert_int_eq(cc_mangle("dot", t, 2, out, sizeof out), 0);
  ck_assert_str_eq(out, "_Z3dotDv4_fS_");
  ck_assert_int_eq(cc_mangle("dot", t, 2, out, 8), -1); /* no room */
  ck_assert_int_eq(cc_mangle("get_work_dim", NULL, 0, name, sizeof name), 0);
  ck_assert_str_eq(name, "_Z12get_work_dimv");
}
END_TEST

int main(void) {
  Suite *s = suite_create("mangle");
  TCase *tc = tcase_create("mangle");
  tcase_add_test(tc, test_atomic_cmpxchg);
  tcase_add_test(tc, test_atomic_under_qualifier);
  tcase_add_test(tc, test_vectors);
  tcase_add_test(tc, test_base36);
  tcase_add_test(tc, test_plain_and_errors);
  tcase_add_test(tc, test_flat);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
