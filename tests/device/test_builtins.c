/*
 * test_builtins.c - the builtins of device/builtins_ext.c: sub-group
 * collectives run on real warps (W = 8 and 32, divergent masks), integer
 * select/bitselect, shuffle/shuffle2, convert_* with rounding and
 * saturation, and the double forms, called through the table by mangled
 * name. It must not depend on the compiler or the runtime.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "device/builtins.h"
#include "device/device.h"
#include "device/mem.h"
#include "device/simt_int.h"
#include "util/check_util.h"

#include "kconfig.h"

static uint64_t call(const char *name, const uint64_t *args, uint64_t *res) {
  int id = lsi_builtin_lookup(name);
  ck_assert_msg(id >= 0, "missing %s", name);
  ck_assert_msg(lsi_builtins[id].fn != NULL, "%s has no lane function", name);
  uint64_t r[16] = {0};
  lsi_builtins[id].fn(NULL, res ? res : r, args, lsi_builtin_nargs(id), lsi_builtins[id].data);
  return res ? res[0] : r[0];
}
static uint64_t c1(const char *name, uint64_t a) {
  uint64_t args[1] = {a};
  return call(name, args, NULL);
}
static uint64_t uf(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static uint64_t ud(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static float fu(uint64_t v) {
  uint32_t u = (uint32_t)v;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static double du(uint64_t v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}

START_TEST(test_convert) {
  ck_assert_uint_eq(c1("_Z12convert_charf", uf(-3.7f)), (uint8_t)-3);
  ck_assert_uint_eq(c1("_Z16convert_char_rtef", uf(-3.5f)), (uint8_t)-4);
  ck_assert_uint_eq(c1("_Z16convert_char_rtpf", uf(-3.5f)), (uint8_t)-3);
  ck_assert_uint_eq(c1("_Z16convert_char_rtnf", uf(3.5f)), 3);
  ck_assert_uint_eq(c1("_Z16convert_char_satf", uf(300.0f)), 127);
  ck_assert_uint_eq(c1("_Z16convert_char_satf", uf(-300.0f)), 0x80);
  ck_assert_uint_eq(c1("_Z17convert_uchar_sati", (uint32_t)-5), 0);
  ck_assert_uint_eq(c1("_Z17convert_uchar_sati", 1000), 255);
  ck_assert_uint_eq(c1("_Z13convert_uchari", 0x1ff), 0xff);
  ck_assert_uint_eq(c1("_Z15convert_int_satf", uf(NAN)), 0);
  ck_assert_uint_eq(c1("_Z15convert_int_satd", ud(1e20)), 0x7fffffff);
  ck_assert_uint_eq(c1("_Z16convert_uint_satl", (uint64_t)-1), 0);
  ck_assert_uint_eq(c1("_Z16convert_long_satm", UINT64_MAX), (uint64_t)INT64_MAX);
  ck_assert_uint_eq(c1("_Z13convert_shortc", 0x80), 0xff80);
  /* int to float with rounding: 2^24 + 1 is not representable */
  ck_assert(fu(c1("_Z13convert_floati", 16777217)) == 16777216.0f);
  ck_assert(fu(c1("_Z17convert_float_rtpi", 16777217)) == 16777218.0f);
  ck_assert(fu(c1("_Z17convert_float_rtzi", (uint32_t)-16777217)) == -16777216.0f);
  ck_assert(fu(c1("_Z17convert_float_rtni", (uint32_t)-16777217)) == -16777218.0f);
  ck_assert(fu(c1("_Z17convert_float_rtzd", ud(1.0 + 1e-12))) == 1.0f);
  ck_assert(fu(c1("_Z17convert_float_rtpd", ud(1.0 + 1e-12))) == nextafterf(1.0f, 2.0f));
  ck_assert(du(c1("_Z18convert_double_rtnm", UINT64_MAX)) == 18446744073709549568.0);
  ck_assert(du(c1("_Z14convert_doublem", UINT64_MAX)) == 18446744073709551616.0);
}
END_TEST

START_TEST(test_select_shuffle) {
  uint64_t a3[3] = {5, 9, 0};
  ck_assert_uint_eq(call("_Z6selectiij", a3, NULL), 5);
  a3[2] = 0x80000000u;
  ck_assert_uint_eq(call("_Z6selectiii", a3, NULL), 9);
  uint64_t b3[3] = {0xf0, 0x0f, 0x3c};
  ck_assert_uint_eq(call("_Z9bitselecthhh", b3, NULL), 0xcc);
  uint64_t sh[8] = {10, 11, 12, 13, 3, 0, 6, 1}; /* x = float4 bits, mask uint4 */
  uint64_t r[16];
  call("_Z7shuffleDv4_fDv4_j", sh, r);
  ck_assert_uint_eq(r[0], 13);
  ck_assert_uint_eq(r[1], 10);
  ck_assert_uint_eq(r[2], 12); /* 6 % 4 */
  ck_assert_uint_eq(r[3], 11);
  uint64_t sh2[6] = {1, 2, 3, 4, 3, 1}; /* x uint2, y uint2, mask uint2 */
  call("_Z8shuffle2Dv2_jS_S_", sh2, r);
  ck_assert_uint_eq(r[0], 4);
  ck_assert_uint_eq(r[1], 2);
  ck_assert_int_ge(lsi_builtin_lookup("_Z7shuffleDv16_cDv2_h"), 0);
  ck_assert_int_ge(lsi_builtin_lookup("_Z8shuffle2Dv8_hS_Dv16_h"), 0);
  ck_assert_int_ge(lsi_builtin_lookup("_Z8prefetchPU3AS1KDv4_fm"), 0);
}
END_TEST

START_TEST(test_double_forms) {
  uint64_t v[6] = {ud(1), ud(2), ud(2), ud(3), ud(4), ud(5)};
  uint64_t r[4];
  call("_Z3dotDv3_dS_", v, r);
  ck_assert(du(r[0]) == 3 + 8 + 10);
  call("_Z6lengthDv3_d", v, r);
  ck_assert(du(r[0]) == 3);
  call("_Z9normalizeDv3_d", v, r);
  ck_assert(fabs(du(r[1]) - 2.0 / 3) < 1e-15);
  call("_Z5crossDv3_dS_", v, r);
  ck_assert(du(r[0]) == 2 * 5 - 2 * 4 && du(r[1]) == 2 * 3 - 1 * 5 && du(r[2]) == 1 * 4 - 2 * 3);
  ck_assert_int_ge(lsi_builtin_lookup("_Z5fractdPd"), 0);
  ck_assert_int_ge(lsi_builtin_lookup("_Z5frexpdPi"), 0);
  ck_assert_int_ge(lsi_builtin_lookup("_Z4modfdPd"), 0);
  ck_assert_int_ge(lsi_builtin_lookup("_Z6sincosdPd"), 0);
}
END_TEST

/* 64-bit mad_sat whose product fits the 128-bit intermediate but whose
 * sum with c does not: saturated, like every other overflow. */
START_TEST(test_mad_sat_wide) {
  const uint64_t top = UINT64_C(1) << 63;
  uint64_t a[][3] = {{UINT64_MAX, top, top}, {UINT64_MAX, top, UINT64_MAX}, {3, 5, 7}};
  ck_assert_uint_eq(call("_Z7mad_satmmm", a[0], NULL), UINT64_MAX);
  ck_assert_uint_eq(call("_Z7mad_satmmm", a[1], NULL), UINT64_MAX);
  ck_assert_uint_eq(call("_Z7mad_satmmm", a[2], NULL), 22);
  uint64_t l[][3] = {{(uint64_t)INT64_MIN, (uint64_t)INT64_MIN, (uint64_t)INT64_MAX},
                     {(uint64_t)INT64_MIN, 1, (uint64_t)-1},
                     {(uint64_t)-3, 5, 7}};
  ck_assert_uint_eq(call("_Z7mad_satlll", l[0], NULL), (uint64_t)INT64_MAX);
  ck_assert_uint_eq(call("_Z7mad_satlll", l[1], NULL), (uint64_t)INT64_MIN);
  ck_assert_uint_eq(call("_Z7mad_satlll", l[2], NULL), (uint64_t)-8);
}
END_TEST

/* The device-side enqueue builtins under the names clang 19 gives them for
 * spir64 (read from its -emit-llvm output; the table had retain_event as
 * _Z13...). */
START_TEST(test_enqueue_names) {
  static const char *const names[] = {"_Z10ndrange_1Dm",
                                      "_Z10ndrange_1Dmm",
                                      "_Z10ndrange_1Dmmm",
                                      "_Z10ndrange_2DPKm",
                                      "_Z10ndrange_2DPKmS0_",
                                      "_Z10ndrange_2DPKmS0_S0_",
                                      "_Z10ndrange_3DPKm",
                                      "_Z10ndrange_3DPKmS0_",
                                      "_Z10ndrange_3DPKmS0_S0_",
                                      "_Z12retain_event12ocl_clkevent",
                                      "_Z13release_event12ocl_clkevent",
                                      "_Z14enqueue_marker9ocl_queuejPU3AS4K12ocl_clkeventPU3AS4S0_",
                                      "_Z14is_valid_event12ocl_clkevent",
                                      "_Z17create_user_eventv",
                                      "_Z17get_default_queuev",
                                      "_Z21set_user_event_status12ocl_clkeventi",
                                      "_Z28capture_event_profiling_info12ocl_clkeventiPU3AS1v"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    ck_assert_msg(lsi_builtin_lookup(names[i]) >= 0, "missing %s", names[i]);
  ck_assert_int_eq(lsi_builtin_lookup("_Z13retain_event12ocl_clkevent"), -1);
}
END_TEST

/* A kernel: x = lane-dependent value; out[gid] = collective(x), only lanes
 * with gid % 3 != 0 taking part (a divergent mask). */
#define OP(o, D, A, B, C, IMM)                                                                     \
  ((lsi_insn){.op = LSI_##o, .d = (D), .a = (A), .b = (B), .c = (C), .imm = (IMM)})
static int run_collective(unsigned W, const char *name, uint32_t *out, unsigned n) {
  struct dev_config c;
  memset(&c, 0, sizeof(c));
  c.compute_units = 1;
  c.warp_width = W;
  c.host_threads = 1;
  c.engine = kc_engine();
  c.local_mem_size = 65536;
  c.max_wg_size = 1024;
  struct dev_device *d = dev_device_new(&c);
  ck_assert_ptr_nonnull(d);
  uint64_t o = dev_mem_map(dev_device_mem(d), out, n * 4, false);
  static lsi_insn code[32];
  static uint32_t arglist[2] = {5, 6};
  static struct lsi_line lines[32];
  unsigned k = 0;
  code[k++] = OP(SREG, 20, 0, 0, 0, LSI_SREG_GLOBAL_ID_X);
  code[k++] = OP(MADI, 22, 0, 20, 0, 4);
  code[k++] = OP(MOVI, 1, 0, 0, 0, 3);
  code[k++] = OP(UREM_I32, 2, 20, 1, 0, 0);
  code[k++] = OP(SSY, 0, 0, 0, 0, 11);
  code[k++] = OP(BRA_Z, 0, 2, 0, 0, 10); /* gid % 3 == 0: skip */
  code[k++] = OP(MOVI, 3, 0, 0, 0, 7);
  code[k++] = OP(MUL_I32, 5, 20, 3, 0, 0);
  code[k++] = OP(UREM_I32, 5, 5, 1, 0, 0); /* x = gid * 7 % 3 (1 or 2) + ... */
  code[k++] = OP(ADD_I32, 5, 5, 20, 0, 0); /* x += gid */
  code[k++] = OP(SYNC, 0, 0, 0, 0, 11);    /* 10 */
  code[k++] = OP(MOVI, 6, 0, 0, 0, 1);     /* 11: broadcast source lane 1 */
  code[k++] = OP(SSY, 0, 0, 0, 0, 16);
  code[k++] = OP(BRA_Z, 0, 2, 0, 0, 15);
  code[k++] = OP(CALLB, 7, 0, 0, 0, lsi_builtin_lookup(name));
  code[k++] = OP(SYNC, 0, 0, 0, 0, 16); /* 15 */
  code[k++] = OP(ST32, 0, 22, 7, 0, 0); /* 16 */
  code[k++] = OP(EXIT, 0, 0, 0, 0, 0);
  code[14].b = lsi_builtin_nargs((int)code[14].imm);
  /* the lanes that skip store r7 = 0 */
  struct lsi_arg arg = {.name = "out", .kind = LSI_ARG_GLOBAL, .reg = 0};
  static struct lsi_kernel kern;
  static struct lsi_program prog;
  static char *files[1] = {"t.cl"};
  memset(&kern, 0, sizeof(kern));
  kern.name = "collective";
  kern.nargs = 1;
  kern.args = &arg;
  kern.argbuf_size = 8;
  kern.nregs = 32;
  kern.code = code;
  kern.ninsns = k;
  kern.lines = lines;
  kern.arglist = arglist;
  kern.narglist = 2;
  prog.nkernels = 1;
  prog.kernels = &kern;
  prog.nfiles = 1;
  prog.files = files;
  struct dev_launch l;
  memset(&l, 0, sizeof(l));
  l.prog = &prog;
  l.kernel = &kern;
  l.work_dim = 1;
  l.global[0] = n;
  l.local[0] = 64;
  l.argbuf = (const uint8_t *)&o;
  struct dev_exception exc;
  int rc = simt_launch_stats(d, &l, &exc, NULL);
  dev_device_free(d);
  return rc;
}

/* Host reference: the same collective over the participating lanes of each
 * warp of W lanes. */
static void ref_collective(unsigned W, int kind, uint32_t *ref, unsigned n) {
  for (unsigned w0 = 0; w0 < n; w0 += W) {
    uint32_t acc = 0, mn = UINT32_MAX, mx = 0, scan = 0;
    int first = -1;
    for (unsigned g = w0; g < w0 + W && g < n; g++) {
      if (g % 3 == 0) continue;
      uint32_t x = (g * 7) % 3 + g;
      if (first < 0) first = (int)g;
      acc += x;
      mn = x < mn ? x : mn;
      mx = x > mx ? x : mx;
    }
    for (unsigned g = w0; g < w0 + W && g < n; g++) {
      uint32_t x = (g * 7) % 3 + g;
      if (g % 3 == 0) {
        ref[g] = 0;
        continue;
      }
      switch (kind) {
      case 0: ref[g] = acc; break;
      case 1: ref[g] = mn; break;
      case 2: ref[g] = mx; break;
      case 3: scan += x, ref[g] = scan; break;
      case 4: ref[g] = scan, scan += x; break;
      case 5: ref[g] = (w0 + 1) % 3 ? (((w0 + 1) * 7) % 3 + w0 + 1) : 0; break;
      }
    }
  }
}

START_TEST(test_subgroup_collectives) {
  static const char *names[] = {
      "_Z20sub_group_reduce_addj",         "_Z20sub_group_reduce_minj",
      "_Z20sub_group_reduce_maxj",         "_Z28sub_group_scan_inclusive_addj",
      "_Z28sub_group_scan_exclusive_addj", "_Z19sub_group_broadcastjj"};
  enum { N = 200 };
  static uint32_t out[N], ref[N];
  for (unsigned W = 8; W <= 32; W *= 4)
    for (int kind = 0; kind < 6; kind++) {
      memset(out, 0xee, sizeof(out));
      ck_assert_int_eq(run_collective(W, names[kind], out, N), 0);
      ref_collective(W, kind, ref, N);
      for (unsigned g = 0; g < N; g++) {
        if (g % 3 == 0) continue; /* r7 of skipping lanes is unspecified */
        if (kind == 5 && (g / W * W + 1) % 3 == 0) continue; /* source lane idle */
        ck_assert_msg(out[g] == ref[g], "%s W=%u gid %u: got %u want %u", names[kind], W, g, out[g],
                      ref[g]);
      }
    }
}
END_TEST

START_TEST(test_subgroup_any_all) {
  uint64_t r0[4] = {0}, a0[4] = {0, 3, 0, 0};
  uint64_t *res[1] = {r0};
  const uint64_t *arg[1] = {a0};
  int any = lsi_builtin_lookup("_Z13sub_group_anyi"),
      all = lsi_builtin_lookup("_Z13sub_group_alli");
  ck_assert(lsi_builtin_flags(any) & LSI_BI_WARP);
  lsi_builtins[any].wfn(NULL, 0xf, 4, res, arg, 0);
  ck_assert_uint_eq(r0[0], 1);
  lsi_builtins[any].wfn(NULL, 0x5, 4, res, arg, 0);
  ck_assert_uint_eq(r0[0], 0);
  lsi_builtins[all].wfn(NULL, 0x2, 4, res, arg, 0);
  ck_assert_uint_eq(r0[1], 1);
  lsi_builtins[all].wfn(NULL, 0x3, 4, res, arg, 0);
  ck_assert_uint_eq(r0[1], 0);
  /* float reduce and min scan identity */
  uint64_t f[4] = {uf(1.5f), uf(-2.0f), uf(4.0f), uf(0.25f)}, fr[4];
  uint64_t *fres[1] = {fr};
  const uint64_t *farg[1] = {f};
  int radd = lsi_builtin_lookup("_Z20sub_group_reduce_addf");
  lsi_builtins[radd].wfn(NULL, 0xf, 4, fres, farg, lsi_builtins[radd].data);
  ck_assert(fu(fr[3]) == 3.75f);
  int smin = lsi_builtin_lookup("_Z28sub_group_scan_exclusive_minf");
  lsi_builtins[smin].wfn(NULL, 0xf, 4, fres, farg, lsi_builtins[smin].data);
  ck_assert(isinf(fu(fr[0])) && fu(fr[0]) > 0);
  ck_assert(fu(fr[2]) == -2.0f);
}
END_TEST

int main(void) {
  Suite *s = suite_create("device_builtins");
  CU_ADD(s, test_convert);
  CU_ADD(s, test_select_shuffle);
  CU_ADD(s, test_double_forms);
  CU_ADD(s, test_mad_sat_wide);
  CU_ADD(s, test_enqueue_names);
  CU_ADD(s, test_subgroup_collectives);
  CU_ADD(s, test_subgroup_any_all);
  return cu_run(s);
}
