/*
 * test_simt.c - the SIMT engine on hand-assembled LSI kernels: arithmetic,
 * checked memory and every fault kind, the seed-004 token deque (encode,
 * unwind, stale tokens, fallback, re-centring, yield), the per-lane spin
 * lock, barriers, and independence from the warp width and thread count.
 * It must not depend on the compiler or the runtime.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/builtins.h"
#include "device/device.h"
#include "device/mem.h"
#include "device/native.h"
#include "device/simt.h"
#include "device/simt_int.h"
#include "util/check_util.h"

#define CL_OUT_OF_RESOURCES_ (-5)

#include "kconfig.h"
#include "kern_asm.h"

/* A device of warp width W on `threads` host threads; a loop in the same
 * state for progress_ms (0: the default) faults. */
static struct dev_device *mkdev_progress(unsigned W, unsigned threads, unsigned watchdog_ms,
                                         unsigned progress_ms) {
  struct dev_config c;
  memset(&c, 0, sizeof(c));
  c.compute_units = 2;
  c.warp_width = W;
  c.host_threads = threads;
  c.engine = kc_engine();
  c.local_mem_size = 65536;
  c.max_wg_size = 1024;
  c.watchdog_ms = watchdog_ms;
  c.progress_ms = progress_ms;
  struct dev_device *d = dev_device_new(&c);
  ck_assert_ptr_nonnull(d);
  return d;
}

static struct dev_device *mkdev(unsigned W, unsigned threads, unsigned watchdog_ms) {
  return mkdev_progress(W, threads, watchdog_ms, 0);
}

/* The launch of kk's kernel over global items in groups of local. */
static struct dev_launch launch_of(struct kern *kk, uint64_t global, uint64_t local) {
  kk->k.ninsns = kk->n;
  for (unsigned i = 0; i < kk->n; i++)
    kk->lines[i] = (struct lsi_line){0, 100 + i};
  struct dev_launch l;
  memset(&l, 0, sizeof(l));
  l.prog = &kk->p;
  l.kernel = &kk->k;
  l.work_dim = 1;
  l.global[0] = global;
  l.local[0] = local;
  l.argbuf = kk->argbuf;
  return l;
}

static int launch(struct dev_device *d, struct kern *kk, uint64_t global, uint64_t local,
                  struct dev_exception *exc, struct simt_stats *st) {
  struct dev_launch l = launch_of(kk, global, local);
  return simt_launch_stats(d, &l, exc, st);
}

/* r20 := global id, r21 := gid * 4, r22 := out + gid * 4 */
static void emit_gid_addr(struct kern *kk) {
  emit(kk, OP(SREG, 20, 0, 0, 0, LSI_SREG_GLOBAL_ID_X));
  emit(kk, OP(MADI, 22, 0, 20, 0, 4));
}

/* ---- arithmetic and memory ---- */

static void build_arith(struct kern *kk, uint64_t out) {
  kern_init(kk, 1, &out);
  emit_gid_addr(kk);
  emit(kk, OP(MOVI, 1, 0, 0, 0, 3));
  emit(kk, OP(MUL_I32, 2, 20, 1, 0, 0));
  emit(kk, OP(ADDI, 2, 2, 0, 0, 7));
  emit(kk, OP(MOVI, 3, 0, 0, 0, 5));
  emit(kk, OP(UREM_I32, 4, 20, 3, 0, 0));
  emit(kk, OP(XOR_I32, 2, 2, 4, 0, 0));
  emit(kk, OP(ST32, 0, 22, 2, 0, 0));
  emit(kk, OP(EXIT, 0, 0, 0, 0, 0));
}

START_TEST(test_arith) {
  struct dev_device *d = mkdev(32, 2, 0);
  uint32_t buf[1000];
  memset(buf, 0xff, sizeof(buf));
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  build_arith(&kk, out);
  struct dev_exception exc;
  ck_assert_int_eq(launch(d, &kk, 1000, 64, &exc, NULL), 0);
  for (uint32_t i = 0; i < 1000; i++)
    ck_assert_uint_eq(buf[i], (i * 3 + 7) ^ (i % 5));
  dev_device_free(d);
}
END_TEST

START_TEST(test_int_float_ops) {
  struct dev_device *d = mkdev(8, 1, 0);
  uint64_t buf[8] = {0};
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  kern_init(&kk, 1, &out);
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 0x80000000u));
  emit(&kk, OP(MOVI, 2, 0, 0, 0, 0xffffffffu)); /* -1 */
  emit(&kk, OP(SDIV_I32, 3, 1, 2, 0, 0));       /* INT_MIN / -1 = INT_MIN */
  emit(&kk, OP(ST64, 0, 0, 3, 0, 0));
  emit(&kk, OP(SEXT, 4, 2, 0, 0, 32 | (64 << 8))); /* -1 as i64 */
  emit(&kk, OP(ST64, 0, 0, 4, 0, 8));
  emit(&kk, OP(MOVI, 5, 0, 0, 0, 0x40490fdb)); /* 3.14159f */
  emit(&kk, OP(FPTOSI32_F32, 6, 5, 0, 0, 0));
  emit(&kk, OP(ST64, 0, 0, 6, 0, 16));
  emit(&kk, OP(MOVI, 7, 0, 0, 0, 0x7f800000)); /* inf: saturates */
  emit(&kk, OP(FPTOSI32_F32, 8, 7, 0, 0, 0));
  emit(&kk, OP(ST64, 0, 0, 8, 0, 24));
  emit(&kk, OP(FMUL_F32, 9, 5, 5, 0, 0));
  emit(&kk, OP(FPEXT, 10, 9, 0, 0, 0));
  emit(&kk, OP(ST64, 0, 0, 10, 0, 32));
  emit(&kk, OP(ASHR_I32, 11, 1, 2, 0, 0)); /* shift by 31 */
  emit(&kk, OP(ST64, 0, 0, 11, 0, 40));
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
  struct dev_exception exc;
  ck_assert_int_eq(launch(d, &kk, 1, 1, &exc, NULL), 0);
  ck_assert_uint_eq(buf[0], 0x80000000u);
  ck_assert_uint_eq(buf[1], UINT64_MAX);
  ck_assert_uint_eq(buf[2], 3);
  ck_assert_uint_eq(buf[3], 0x7fffffffu);
  double dv;
  memcpy(&dv, &buf[4], 8);
  ck_assert_double_eq_tol(dv, 3.14159265 * 3.14159265, 1e-4);
  ck_assert_uint_eq(buf[5], 0xffffffffu);
  dev_device_free(d);
}
END_TEST

/* Integer division by zero: by default x / 0 = 0 and x % 0 = x for every
 * division op and width, lanes dividing by nonzero unaffected; with
 * check_divzero (LOCKSTEP_CHECK_DIVZERO=1) the same values, and the kernel
 * still completes (it is reported, never stopped: tests/host/divzero.c). */
static void build_divzero(struct kern *kk, uint64_t out) {
  static const unsigned ops[8] = {LSI_UDIV_I32, LSI_UREM_I32, LSI_SDIV_I32, LSI_SREM_I32,
                                  LSI_UDIV_I64, LSI_UREM_I64, LSI_SDIV_I64, LSI_SREM_I64};
  kern_init(kk, 1, &out);
  emit(kk, OP(SREG, 20, 0, 0, 0, LSI_SREG_GLOBAL_ID_X));
  emit(kk, OP(MOVI, 1, 0, 0, 0, 0xfffffff9u));    /* -7 (i32) */
  emit(kk, OP(SEXT, 2, 1, 0, 0, 32 | (64 << 8))); /* -7 (i64) */
  emit(kk, OP(MOVI, 5, 0, 0, 0, 1));
  emit(kk, OP(AND_I32, 3, 20, 5, 0, 0)); /* divisor: 0 for even lanes, 1 for odd */
  emit(kk, OP(MADI, 22, 0, 20, 0, 64));  /* out + gid * 64 */
  for (unsigned k = 0; k < 8; k++) {
    lsi_insn in = OP(UDIV_I32, 4, k < 4 ? 1 : 2, 3, 0, 0);
    in.op = (uint16_t)ops[k];
    emit(kk, in);
    emit(kk, OP(ST64, 0, 22, 4, 0, 8 * k));
  }
  emit(kk, OP(EXIT, 0, 0, 0, 0, 0));
}

START_TEST(test_divzero) {
  for (int check = 0; check < 2; check++) {
    struct dev_config c;
    memset(&c, 0, sizeof(c));
    c.compute_units = 2, c.warp_width = 8, c.host_threads = 1, c.max_wg_size = 64;
    c.engine = kc_engine();
    c.check_divzero = (unsigned)check;
    struct dev_device *d = dev_device_new(&c);
    ck_assert_ptr_nonnull(d);
    uint64_t buf[16 * 8];
    memset(buf, 0xaa, sizeof(buf));
    uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
    struct kern kk;
    build_divzero(&kk, out);
    struct dev_exception exc;
    int rc = launch(d, &kk, 16, 8, &exc, NULL);
    {
      ck_assert_int_eq(rc, 0);
      const uint64_t m7 = 0xfffffff9u, m7l = (uint64_t)-7;
      for (unsigned g = 0; g < 16; g++) {
        const uint64_t *r = buf + 8 * g;
        /* even lanes: x / 0 = 0, x % 0 = x; odd lanes: x / 1 = x, x % 1 = 0 */
        uint64_t want[8] = {0, m7, 0, m7, 0, m7l, 0, m7l};
        if (g & 1) {
          uint64_t w1[8] = {m7, 0, m7, 0, m7l, 0, m7l, 0};
          memcpy(want, w1, sizeof want);
        }
        for (unsigned k = 0; k < 8; k++)
          ck_assert_msg(r[k] == want[k], "lane %u op %u: 0x%llx, want 0x%llx", g, k,
                        (unsigned long long)r[k], (unsigned long long)want[k]);
      }
    }
    dev_device_free(d);
  }
}
END_TEST

/* out[gid] = gid, with a launch one item too big: the last item misses. */
START_TEST(test_fault_oob) {
  struct dev_device *d = mkdev(32, 2, 0);
  uint32_t buf[16], other[4] = {1, 2, 3, 4};
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  uint64_t aux = dev_mem_map(dev_device_mem(d), other, sizeof(other), false);
  uint64_t argv[2] = {out, aux};
  struct kern kk;
  kern_init(&kk, 2, argv);
  emit_gid_addr(&kk);
  emit(&kk, OP(ST32, 0, 22, 20, 0, 0));
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
  struct dev_exception exc;
  ck_assert_int_eq(launch(d, &kk, 17, 17, &exc, NULL), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_OUT_OF_BOUNDS);
  ck_assert_str_eq(exc.kernel, "test_kernel");
  ck_assert_str_eq(exc.file, "test.cl");
  ck_assert_uint_eq(exc.line, 102);
  ck_assert_uint_eq(exc.global_id[0], 16);
  ck_assert_uint_eq(exc.local_id[0], 16);
  ck_assert_uint_eq(exc.address, out + 64);
  ck_assert_ptr_nonnull(strstr(exc.message, "'out'"));
  ck_assert_ptr_nonnull(strstr(exc.message, "4 bytes past the end"));
  ck_assert_int_eq(other[0] + other[1] + other[2] + other[3], 10);
  dev_device_free(d);
}
END_TEST

static int one_access(struct dev_device *d, uint64_t addr, int store, unsigned size,
                      struct dev_exception *exc) {
  struct kern kk;
  kern_init(&kk, 1, &addr);
  lsi_insn i = store ? OP(ST32, 0, 0, 1, 0, 0) : OP(LD32, 1, 0, 0, 0, 0);
  if (size == 8) i.op = store ? LSI_ST64 : LSI_LD64;
  emit(&kk, i);
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
  return launch(d, &kk, 1, 1, exc, NULL);
}

START_TEST(test_fault_kinds) {
  struct dev_device *d = mkdev(32, 1, 0);
  struct dev_mem *m = dev_device_mem(d);
  uint64_t buf[4] = {0};
  uint64_t a = dev_mem_map(m, buf, sizeof(buf), false);
  uint64_t ro = dev_mem_map(m, buf, sizeof(buf), true);
  uint64_t gone = dev_mem_map(m, buf, sizeof(buf), false);
  dev_mem_unmap(m, gone);
  struct dev_exception exc;
  ck_assert_int_eq(one_access(d, a + 2, 0, 4, &exc), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_MISALIGNED);
  ck_assert_int_eq(one_access(d, a + 4, 0, 8, &exc), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_MISALIGNED);
  ck_assert_int_eq(one_access(d, ro, 1, 4, &exc), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_WRITE_READ_ONLY);
  ck_assert_int_eq(one_access(d, ro, 0, 4, &exc), 0);
  ck_assert_int_eq(one_access(d, gone, 0, 4, &exc), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_RELEASED_BUFFER);
  ck_assert_int_eq(one_access(d, 0, 0, 4, &exc), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_OUT_OF_BOUNDS);
  ck_assert_ptr_nonnull(strstr(exc.message, "NULL"));
  ck_assert_int_eq(one_access(d, a + 40, 0, 4, &exc), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_OUT_OF_BOUNDS);
  ck_assert_ptr_nonnull(strstr(exc.message, "12 bytes past the end"));
  ck_assert_int_eq(one_access(d, LSI_ADDR(LSI_SPACE_PRIVATE, 0, 0), 0, 4, &exc),
                   CL_OUT_OF_RESOURCES_); /* no private frame */
  ck_assert_int_eq(one_access(d, LSI_ADDR(LSI_SPACE_LOCAL, 0, 0), 1, 4, &exc),
                   CL_OUT_OF_RESOURCES_); /* no local memory */
  /* malformed code is refused, not run */
  struct kern kk;
  kern_init(&kk, 1, &a);
  emit(&kk, OP(BRA, 0, 0, 0, 0, 99));
  ck_assert_int_eq(launch(d, &kk, 1, 1, &exc, NULL), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_UNSUPPORTED);
  dev_device_free(d);
}
END_TEST

/* ---- the token deque ---- */

START_TEST(test_token_encode) {
  simt_token t = simt_token_make(SIMT_TOK_YIELD, 0xdeadbeefu, 0x2abcde);
  ck_assert_uint_eq(simt_token_type(t), SIMT_TOK_YIELD);
  ck_assert_uint_eq(simt_token_pc(t), 0x2abcde);
  uint64_t v = simt_token_pack(t);
  ck_assert_uint_eq(v & 15, SIMT_TOK_YIELD);
  ck_assert_uint_eq((v >> 4) & 0xffffffffu, 0xdeadbeefu);
  simt_token u = simt_token_unpack(v);
  ck_assert_uint_eq(u.mask, t.mask);
  ck_assert_uint_eq(simt_token_type(u), SIMT_TOK_YIELD);
  ck_assert_uint_eq(simt_token_pc(u), 0x2abcde);
  simt_token w = simt_token_make(SIMT_TOK_BRK, UINT64_MAX, 7);
  ck_assert_uint_eq(w.mask, UINT64_MAX);
  /* summary bits: a token pushed on a sync token knows a sync lies below */
  struct simt_deque q;
  ck_assert(simt_deque_init(&q, 8));
  ck_assert(simt_deque_push_front(&q, simt_token_make(SIMT_TOK_SYNC, 1, 1)));
  ck_assert(simt_deque_push_front(&q, simt_token_make(SIMT_TOK_DIV, 1, 2)));
  ck_assert_uint_eq(simt_token_below(q.buf[q.head]), 1u << SIMT_TOK_SYNC);
  simt_deque_free(&q);
}
END_TEST

START_TEST(test_deque_recentre) {
  struct simt_deque q;
  ck_assert(simt_deque_init(&q, 4));
  for (uint32_t i = 0; i < 10; i++)
    ck_assert(simt_deque_push_front(&q, simt_token_make(SIMT_TOK_SYNC, 1, i)));
  for (uint32_t i = 0; i < 10; i++)
    ck_assert(simt_deque_push_back(&q, simt_token_make(SIMT_TOK_YIELD, 1, 100 + i)));
  ck_assert_uint_gt(q.recentres, 0);
  ck_assert_uint_eq(simt_deque_size(&q), 20);
  for (uint32_t i = 0; i < 10; i++)
    ck_assert_uint_eq(simt_token_pc(simt_deque_pop_front(&q)), 9 - i);
  for (uint32_t i = 0; i < 10; i++)
    ck_assert_uint_eq(simt_token_pc(simt_deque_pop_front(&q)), 100 + i);
  simt_deque_free(&q);
}
END_TEST

static void warp_setup(struct simt_warp *w) {
  memset(w, 0, sizeof(*w));
  ck_assert(simt_deque_init(&w->dq, 8));
  w->exist = w->live = 0xff;
}

START_TEST(test_unwind_rules) {
  struct simt_warp w;
  /* stale token: nobody waits for the break token, so it is discarded and
   * the divergence token below runs */
  warp_setup(&w);
  simt_deque_push_front(&w.dq, simt_token_make(SIMT_TOK_DIV, 0xf0, 40));
  simt_deque_push_front(&w.dq, simt_token_make(SIMT_TOK_BRK, 0xff, 30));
  w.dis[SIMT_TOK_DIV] = 0xf0;
  for (int i = 4; i < 8; i++)
    w.lane_pc[i] = 40;
  w.live = 0xf0; /* lanes 0-3 exited */
  simt_unwind(NULL, &w);
  ck_assert_uint_eq(w.state, SIMT_WARP_RUN);
  ck_assert_uint_eq(w.active, 0xf0);
  ck_assert_uint_eq(w.pc, 40);
  ck_assert_uint_eq(simt_deque_size(&w.dq), 0);
  simt_deque_free(&w.dq);
  /* a sync token re-activates only lanes waiting at its own target */
  warp_setup(&w);
  simt_deque_push_front(&w.dq, simt_token_make(SIMT_TOK_SYNC, 0xff, 50));
  w.dis[SIMT_TOK_SYNC] = 0xff;
  for (int i = 0; i < 8; i++)
    w.lane_pc[i] = i < 4 ? 50 : 60; /* lanes 4-7 wait at another SYNC */
  simt_unwind(NULL, &w);
  ck_assert_uint_eq(w.active, 0x0f);
  ck_assert_uint_eq(w.pc, 50);
  /* queue empty: the others resume at their own pc (the fallback) */
  simt_unwind(NULL, &w);
  ck_assert_uint_eq(w.active, 0xf0);
  ck_assert_uint_eq(w.pc, 60);
  /* nothing left: done */
  w.live = 0;
  simt_unwind(NULL, &w);
  ck_assert_uint_eq(w.state, SIMT_WARP_DONE);
  simt_deque_free(&w.dq);
}
END_TEST

/* if (gid odd) out = 1 else out = 2; then a sub-group barrier that faults
 * unless the warp reconverged with its full mask. */
static void build_ifelse(struct kern *kk, uint64_t out, bool ssy) {
  kern_init(kk, 1, &out);
  emit_gid_addr(kk);                                                /* 0, 1 */
  emit(kk, OP(MOVI, 1, 0, 0, 0, 1));                                /* 2 */
  emit(kk, OP(AND_I32, 2, 20, 1, 0, 0));                            /* 3: odd? */
  emit(kk, ssy ? OP(SSY, 0, 0, 0, 0, 10) : OP(NOP, 0, 0, 0, 0, 0)); /* 4 */
  emit(kk, OP(BRA_P, 0, 2, 0, 0, 8));                               /* 5: odd lanes to 8 */
  emit(kk, OP(MOVI, 3, 0, 0, 0, 2));                                /* 6: even */
  emit(kk, OP(BRA, 0, 0, 0, 0, 9));                                 /* 7 */
  emit(kk, OP(MOVI, 3, 0, 0, 0, 1));                                /* 8: odd */
  emit(kk, OP(SYNC, 0, 0, 0, 0, 10));                               /* 9 */
  emit(kk, OP(SGBAR, 0, 0, 0, 0, 0));                               /* 10 */
  emit(kk, OP(ST32, 0, 22, 3, 0, 0));                               /* 11 */
  emit(kk, OP(EXIT, 0, 0, 0, 0, 0));                                /* 12 */
}

START_TEST(test_ifelse_reconverges) {
  struct dev_device *d = mkdev(32, 1, 0);
  uint32_t buf[64];
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  build_ifelse(&kk, out, true);
  struct dev_exception exc;
  struct simt_stats st;
  ck_assert_int_eq(launch(d, &kk, 64, 64, &exc, &st), 0);
  for (int i = 0; i < 64; i++)
    ck_assert_uint_eq(buf[i], (i & 1) ? 1 : 2);
  ck_assert_uint_eq(st.div_branches, 2); /* one per warp */
  /* without the SSY the SYNC falls back to a plain branch: no reconvergence,
   * so each half of the warp reaches the sub-group barrier alone; the first
   * half waits there for the second, and both go on */
  memset(buf, 0, sizeof(buf));
  build_ifelse(&kk, out, false);
  ck_assert_int_eq(launch(d, &kk, 64, 64, &exc, &st), 0);
  for (int i = 0; i < 64; i++)
    ck_assert_uint_eq(buf[i], (i & 1) ? 1 : 2);
  dev_device_free(d);
}
END_TEST

/* Odd lanes exit; even lanes wait at a sub-group barrier: the exited lanes
 * no longer count, so the barrier releases. Odd lanes that instead wait at a
 * work-group barrier can never reach it: a device exception. */
START_TEST(test_subgroup_barrier_partial) {
  struct dev_device *d = mkdev(32, 1, 0);
  uint32_t buf[32];
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  for (int variant = 0; variant < 2; variant++) {
    struct kern kk;
    kern_init(&kk, 1, &out);
    emit_gid_addr(&kk);                                                   /* 0, 1 */
    emit(&kk, OP(MOVI, 1, 0, 0, 0, 1));                                   /* 2 */
    emit(&kk, OP(AND_I32, 2, 20, 1, 0, 0));                               /* 3: odd? */
    emit(&kk, OP(BRA_P, 0, 2, 0, 0, 8));                                  /* 4: odd lanes to 8 */
    emit(&kk, OP(SGBAR, 0, 0, 0, 0, 0));                                  /* 5: even lanes */
    emit(&kk, OP(ST32, 0, 22, 20, 0, 0));                                 /* 6 */
    emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));                                   /* 7 */
    emit(&kk, variant ? OP(BAR, 0, 0, 0, 0, 0) : OP(NOP, 0, 0, 0, 0, 0)); /* 8 */
    emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));                                   /* 9 */
    memset(buf, 0xff, sizeof(buf));
    struct dev_exception exc;
    int rc = launch(d, &kk, 32, 32, &exc, NULL);
    if (variant == 0) {
      ck_assert_int_eq(rc, 0);
      for (int i = 0; i < 32; i += 2)
        ck_assert_uint_eq(buf[i], (uint32_t)i);
    } else {
      ck_assert_int_eq(rc, CL_OUT_OF_RESOURCES_);
      ck_assert_int_eq(exc.trap, LSI_TRAP_BARRIER_DIVERGENCE);
    }
  }
  dev_device_free(d);
}
END_TEST

START_TEST(test_uniform_branch) {
  struct dev_device *d = mkdev(32, 1, 0);
  uint32_t buf[64];
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  kern_init(&kk, 1, &out);
  emit_gid_addr(&kk);                                    /* 0, 1 */
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 1));                    /* 2 */
  emit(&kk, OP(BRA_P, 0, 1, 0, 0, 5));                   /* 3: all taken */
  emit(&kk, OP(TRAP, 0, 0, 0, 0, LSI_TRAP_UNREACHABLE)); /* 4 */
  emit(&kk, OP(BRA_Z, 0, 1, 0, 0, 4));                   /* 5: none taken */
  emit(&kk, OP(SGBAR, 0, 0, 0, 0, 0));                   /* 6: still a full warp */
  emit(&kk, OP(ST32, 0, 22, 1, 0, 0));                   /* 7 */
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));                    /* 8 */
  struct dev_exception exc;
  struct simt_stats st;
  ck_assert_int_eq(launch(d, &kk, 64, 32, &exc, &st), 0);
  ck_assert_uint_eq(st.div_branches, 0);
  ck_assert_uint_eq(st.lane_insns, st.warp_insns * 32);
  dev_device_free(d);
}
END_TEST

START_TEST(test_missing_token_fallback) {
  struct dev_device *d = mkdev(32, 1, 0);
  uint32_t buf[32] = {0};
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  kern_init(&kk, 1, &out);
  emit_gid_addr(&kk);                  /* 0, 1 */
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 9));  /* 2 */
  emit(&kk, OP(BRK, 0, 0, 0, 0, 5));   /* 3: no break token: plain branch to 5 */
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 1));  /* 4: skipped */
  emit(&kk, OP(SYNC, 0, 0, 0, 0, 6));  /* 5: no sync token either */
  emit(&kk, OP(ST32, 0, 22, 1, 0, 0)); /* 6 */
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));  /* 7 */
  struct dev_exception exc;
  ck_assert_int_eq(launch(d, &kk, 32, 32, &exc, NULL), 0);
  for (int i = 0; i < 32; i++)
    ck_assert_uint_eq(buf[i], 9);
  dev_device_free(d);
}
END_TEST

/* A store whose offset no allocation can have: a device exception on
 * either engine at that instruction, the buffer untouched (the native
 * engine's bounds sums must not wrap into a host address). */
START_TEST(test_huge_offset_faults) {
  struct dev_device *d = mkdev(32, 1, 0);
  uint32_t buf[32] = {0};
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  kern_init(&kk, 1, &out);
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 7));
  emit(&kk, OP(ST32, 0, 0, 1, 0, INT64_MAX - 3));
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
  struct dev_exception exc;
  ck_assert_int_ne(launch(d, &kk, 32, 32, &exc, NULL), 0);
  ck_assert_msg(strstr(exc.message, "not a device address") != NULL, "%s", exc.message);
  ck_assert_uint_eq(exc.pc, 1);
  for (int i = 0; i < 32; i++)
    ck_assert_uint_eq(buf[i], 0);
  dev_device_free(d);
}
END_TEST

/* A kernel longer than the native engine compiles is left to the
 * interpreter, even where every launch is to be compiled (min 0), and
 * the launch says why. */
START_TEST(test_native_size_limit) {
  if (!native_available()) return;
  uint32_t n = NATIVE_MAX_INSNS + 1;
  lsi_insn *code = calloc(n, sizeof *code);
  ck_assert_ptr_nonnull(code);
  for (uint32_t i = 0; i + 1 < n; i++)
    code[i] = OP(MOVI, 1, 0, 0, 0, i);
  code[n - 1] = OP(EXIT, 0, 0, 0, 0, 0);
  struct lsi_kernel k = {.name = "long", .code = code, .ninsns = n, .nregs = 2};
  void *acct = NULL;
  char why[256] = "";
  ck_assert_ptr_null(native_code(&k, 32, UINT64_MAX, 0, &acct, why, sizeof why));
  ck_assert_str_eq(why, "8193 instructions: the native engine compiles at most 8192");
  free(code);
}
END_TEST

/* Loads and stores of 8- and 16-bit elements compile to code that
 * verifies: in the masked variant, where the host has no masked vector
 * access of them, the access is a loop over the active lanes, and the
 * loaded value comes from the loop's last block. */
START_TEST(test_native_narrow_access) {
  if (!native_available()) return;
  setenv("LOCKSTEP_CACHE", "0", 1); /* compiled here, not loaded */
  lsi_insn code[] = {OP(SREG, 20, 0, 0, 0, LSI_SREG_GLOBAL_ID_X),
                     OP(MADI, 22, 0, 20, 0, 2),
                     OP(LD8, 4, 22, 0, 0, 0),
                     OP(LD16, 5, 22, 0, 0, 64),
                     OP(ST8, 0, 22, 5, 0, 128),
                     OP(ST16, 0, 22, 4, 0, 192),
                     OP(EXIT, 0, 0, 0, 0, 0)};
  struct lsi_kernel k = {.name = "narrow", .code = code, .ninsns = 7, .nregs = 23};
  for (unsigned W = 8; W <= 32; W *= 4) {
    void *acct = NULL;
    char why[256] = "";
    ck_assert_msg(native_code(&k, W, UINT64_MAX, 0, &acct, why, sizeof why) != NULL, "W=%u: %s", W,
                  why);
  }
}
END_TEST

/* The first compile of a process comes before its launch runs; a later
 * one runs in the background while the interpreter runs the launches,
 * and its code is used once it is made. In a process of its own: the
 * first compile is the process's. */
static int background_child(void) {
  setenv("LOCKSTEP_CACHE", "0", 1); /* compiled here, not loaded */
  lsi_insn a[2] = {OP(MOVI, 1, 0, 0, 0, 11), OP(EXIT, 0, 0, 0, 0, 0)};
  lsi_insn b[2] = {OP(MOVI, 1, 0, 0, 0, 12), OP(EXIT, 0, 0, 0, 0, 0)};
  struct lsi_kernel ka = {.name = "a", .code = a, .ninsns = 2, .nregs = 2};
  struct lsi_kernel kb = {.name = "b", .code = b, .ninsns = 2, .nregs = 2};
  void *acct = NULL;
  char why[256] = "";
  uint64_t work = UINT64_C(1) << 30; /* worth compiling at the first launch */
  if (!native_code(&ka, 32, work, 1, &acct, why, sizeof why) || strncmp(why, "compiled in ", 12))
    return fprintf(stderr, "first: %s\n", why), 1;
  if (native_code(&kb, 32, work, 1, &acct, why, sizeof why) ||
      strcmp(why, "being compiled in the background"))
    return fprintf(stderr, "second: %s\n", why), 2;
  native_fn fb = NULL;
  for (int i = 0; i < 12000 && !fb; i++)
    if ((fb = native_code(&kb, 32, 0, 1, &acct, why, sizeof why)) == NULL) usleep(10000);
  if (!fb || strncmp(why, "compiled in the background in ", 30))
    return fprintf(stderr, "made: %s\n", why), 3;
  return 0;
}
START_TEST(test_native_background) {
  if (!native_available()) return;
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) exit(background_child());
  int status = 0;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
}
END_TEST

/* A kernel that stores 7 at each work-item's element of its argument's
 * buffer: every work-item must find the argument, also where the kernel
 * writes the argument's register (write: a warp's rows are kept from one
 * work-group to the next only where no instruction writes them) and
 * where that register is also constant row 0 (on_const: the binary format
 * allows it, and the argument is written over the constant, here the
 * address of another buffer that must stay untouched). */
static void argument_row(bool on_const, bool write) {
  struct dev_device *d = mkdev(32, 1, 0);
  uint32_t buf[128] = {0}, other[128] = {0};
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct lsi_const c0 = {dev_mem_map(dev_device_mem(d), other, sizeof(other), false),
                         LSI_CONST_PLAIN};
  struct kern kk;
  kern_init(&kk, 1, &out);
  if (on_const) kk.k.nconst = 1, kk.k.consts = &c0;
  emit_gid_addr(&kk);
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 7));
  emit(&kk, OP(ST32, 0, 22, 1, 0, 0));
  if (write) {
    emit(&kk, OP(ADDI, 0, 0, 0, 0, 4096)); /* the argument's register */
    emit(&kk, OP(BRA, 0, 0, 0, 0, 6));     /* r0 is live across the branch */
    emit(&kk, OP(ADD_I64, 3, 0, 0, 0, 0)); /* 6 */
  }
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
  struct dev_exception exc;
  ck_assert_int_eq(launch(d, &kk, 128, 32, &exc, NULL), 0);
  for (int i = 0; i < 128; i++) {
    ck_assert_uint_eq(buf[i], 7);
    ck_assert_uint_eq(other[i], 0);
  }
  dev_device_free(d);
}

START_TEST(test_written_argument) {
  argument_row(false, true);
}
END_TEST

START_TEST(test_argument_on_constant) {
  argument_row(true, false);
}
END_TEST

/* The native code files in dir. */
static unsigned native_files(const char *dir) {
  unsigned n = 0;
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d)) != NULL;)
    n += strncmp(e->d_name, "native-", 7) == 0 && strlen(e->d_name) > 9 &&
         strcmp(e->d_name + strlen(e->d_name) - 2, ".o") == 0;
  if (d) closedir(d);
  return n;
}

/* A process that exits while a compile runs in the background waits for
 * it (exits normally, and the compile's object file is in the cache),
 * but not for a compile that has not begun: of two kernels sent to the
 * background (one compile at a time), one is compiled. */
START_TEST(test_native_exit_waits) {
  if (!native_available()) return;
  char dir[] = "/tmp/lockstep-native-XXXXXX", sub[64];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(sub, sizeof sub, "%s/lockstep", dir);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    setenv("XDG_CACHE_HOME", dir, 1);
    setenv("LOCKSTEP_CACHE", "1", 1);
    uint32_t n = 1500; /* long enough that exit comes first */
    lsi_insn first[2] = {OP(MOVI, 1, 0, 0, 0, 21), OP(EXIT, 0, 0, 0, 0, 0)};
    lsi_insn *code = calloc(2 * n, sizeof *code);
    for (uint32_t i = 0; code && i + 1 < 2 * n; i++)
      code[i] = OP(MOVI, 1 + i % 7, 0, 0, 0, i);
    if (code) code[n - 1] = code[2 * n - 1] = OP(EXIT, 0, 0, 0, 0, 0);
    struct lsi_kernel ka = {.name = "a", .code = first, .ninsns = 2, .nregs = 2};
    struct lsi_kernel kb = {.name = "b", .code = code, .ninsns = n, .nregs = 8};
    struct lsi_kernel kc = {.name = "c", .code = code ? code + n : NULL, .ninsns = n, .nregs = 8};
    void *acct;
    char why[256];
    bool ok = code && native_code(&ka, 32, UINT64_MAX, 1, &acct, why, sizeof why);
    for (int j = 0; ok && j < 2; j++)
      ok = !native_code(j ? &kc : &kb, 32, UINT64_MAX, 1, &acct, why, sizeof why) &&
           !strcmp(why, "being compiled in the background");
    usleep(300000); /* one of them has begun (each takes seconds) */
    exit(ok ? 0 : 3);
  }
  int status = 0;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
  /* the first kernel's, and the one compile that had begun (if it had:
   * 300 ms is long for a thread to start, but not for a loaded host) */
  unsigned files = native_files(sub);
  ck_assert_msg(files == 1 || files == 2, "%u object files", files);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* 40 nested sync tokens overflow the initial deque; 39 of them go stale. */
START_TEST(test_overflow_recentre) {
  struct dev_device *d = mkdev(32, 1, 0);
  uint32_t buf[32] = {0};
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  kern_init(&kk, 1, &out);
  emit_gid_addr(&kk);
  for (int i = 0; i < 40; i++)
    emit(&kk, OP(SSY, 0, 0, 0, 0, 47));
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 1));     /* 42 */
  emit(&kk, OP(AND_I32, 2, 20, 1, 0, 0)); /* 43 */
  emit(&kk, OP(BRA_P, 0, 2, 0, 0, 46));   /* 44 */
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 2));     /* 45 */
  emit(&kk, OP(SYNC, 0, 0, 0, 0, 47));    /* 46 */
  emit(&kk, OP(SGBAR, 0, 0, 0, 0, 0));    /* 47 */
  emit(&kk, OP(ST32, 0, 22, 1, 0, 0));    /* 48 */
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));     /* 49 */
  struct dev_exception exc;
  struct simt_stats st;
  ck_assert_int_eq(launch(d, &kk, 32, 32, &exc, &st), 0);
  ck_assert_uint_gt(st.recentres, 0);
  for (int i = 0; i < 32; i++)
    ck_assert_uint_eq(buf[i], (i & 1) ? 1 : 2);
  dev_device_free(d);
}
END_TEST

/* Odd and even lanes diverge, both yield at the same pc: the yield tokens
 * merge, so the warp continues with its full mask. */
START_TEST(test_yield_merge) {
  struct dev_device *d = mkdev(32, 1, 0);
  uint32_t buf[32] = {0};
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  kern_init(&kk, 1, &out);
  emit_gid_addr(&kk);                     /* 0, 1 */
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 1));     /* 2 */
  emit(&kk, OP(AND_I32, 2, 20, 1, 0, 0)); /* 3 */
  emit(&kk, OP(BRA_P, 0, 2, 0, 0, 6));    /* 4 */
  emit(&kk, OP(BRA, 0, 0, 0, 0, 7));      /* 5: even */
  emit(&kk, OP(NOP, 0, 0, 0, 0, 0));      /* 6: odd */
  emit(&kk, OP(YIELD, 0, 0, 0, 0, 0));    /* 7 */
  emit(&kk, OP(SGBAR, 0, 0, 0, 0, 0));    /* 8 */
  emit(&kk, OP(ST32, 0, 22, 1, 0, 0));    /* 9 */
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));     /* 10 */
  struct dev_exception exc;
  struct simt_stats st;
  ck_assert_int_eq(launch(d, &kk, 32, 32, &exc, &st), 0);
  ck_assert_uint_eq(st.yields, 2);
  for (int i = 0; i < 32; i++)
    ck_assert_uint_eq(buf[i], 1);
  dev_device_free(d);
}
END_TEST

/* while (atomic_cmpxchg(lock, 0, 1) != 0) ; counter++; atomic_xchg(lock, 0);
 * lock = aux[0], counter = aux[1]. */
static void build_spinlock(struct kern *kk, uint64_t *argv) {
  kern_init(kk, 2, argv);
  emit(kk, OP(MOVI, 5, 0, 0, 0, 1));             /* 0 */
  emit(kk, OP(MOVI, 6, 0, 0, 0, 0));             /* 1 */
  emit(kk, OP(ADDI, 7, 1, 0, 0, 4));             /* 2: &counter */
  emit(kk, OP(SSY, 0, 0, 0, 0, 9));              /* 3 */
  emit(kk, OP(ATOM_CMPXCHG_I32, 4, 1, 5, 6, 0)); /* 4: loop */
  emit(kk, OP(BRA_Z, 0, 4, 0, 0, 8));            /* 5: got it -> 8 */
  emit(kk, OP(YIELD, 0, 0, 0, 0, 0));            /* 6: back edge */
  emit(kk, OP(BRA, 0, 0, 0, 0, 4));              /* 7 */
  emit(kk, OP(SYNC, 0, 0, 0, 0, 9));             /* 8 */
  emit(kk, OP(LD32, 8, 7, 0, 0, 0));             /* 9 */
  emit(kk, OP(ADDI, 8, 8, 0, 0, 1));             /* 10 */
  emit(kk, OP(ST32, 0, 7, 8, 0, 0));             /* 11 */
  emit(kk, OP(ATOM_XCHG_I32, 9, 1, 6, 0, 0));    /* 12 */
  emit(kk, OP(EXIT, 0, 0, 0, 0, 0));             /* 13 */
}

START_TEST(test_spinlock_yield) {
  for (unsigned W = 8; W <= 64; W *= 2) {
    struct dev_device *d = mkdev(W, 1, 0);
    uint32_t aux[2] = {0, 0}, dummy[1];
    uint64_t argv[2] = {dev_mem_map(dev_device_mem(d), dummy, 4, false),
                        dev_mem_map(dev_device_mem(d), aux, sizeof(aux), false)};
    struct kern kk;
    build_spinlock(&kk, argv);
    struct dev_exception exc;
    ck_assert_int_eq(launch(d, &kk, W, W, &exc, NULL), 0);
    ck_assert_uint_eq(aux[1], W);
    ck_assert_uint_eq(aux[0], 0);
    dev_device_free(d);
  }
}
END_TEST

START_TEST(test_spinlock_stack_mode) {
  setenv("LOCKSTEP_RECONVERGENCE", "stack", 1);
  struct dev_device *d = mkdev(32, 1, 60000);
  uint32_t aux[2] = {0, 0}, dummy[1];
  uint64_t argv[2] = {dev_mem_map(dev_device_mem(d), dummy, 4, false),
                      dev_mem_map(dev_device_mem(d), aux, sizeof(aux), false)};
  struct kern kk;
  build_spinlock(&kk, argv);
  struct dev_exception exc;
  time_t t0 = time(NULL);
  ck_assert_int_eq(launch(d, &kk, 32, 32, &exc, NULL), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_NO_FORWARD_PROGRESS);
  ck_assert_ptr_nonnull(strstr(exc.message, "no forward progress"));
  ck_assert_int_lt(time(NULL) - t0, 10);
  unsetenv("LOCKSTEP_RECONVERGENCE");
  dev_device_free(d);
}
END_TEST

/* One launch's loop waits for a flag that another launch, open on the
 * same device but not yet run (its code compiling, say), sets much later
 * than the time a loop may keep its state: the loop is not stopped for
 * making no forward progress, since the other launch may still move. */
struct waiter {
  struct dev_device *d;
  struct kern kk;
  struct dev_exception exc;
  int rc;
  _Atomic bool done;
};

static void *wait_for_flag(void *arg) {
  struct waiter *w = arg;
  w->rc = launch(w->d, &w->kk, 32, 32, &w->exc, NULL);
  atomic_store(&w->done, true);
  return NULL;
}

/* Whether a launch open on d other than `not` has a compute unit that
 * found its loops in an unchanged state. */
static bool other_spins(struct dev_device *d, const struct simt_run * not ) {
  bool spins = false;
  for (struct simt_run *r = *dev_device_open_runs(d); r; r = r->next_open)
    spins |= r != not &&atomic_load(&r->cus[0].motion) == SIMT_MOTION_SPIN;
  dev_device_open_done(d);
  return spins;
}

START_TEST(test_progress_waits_for_open_launch) {
  struct dev_device *d = mkdev_progress(32, 1, 60000, 20);
  uint32_t flag[1] = {0};
  uint64_t at = dev_mem_map(dev_device_mem(d), flag, sizeof flag, false);
  struct kern set;
  kern_init(&set, 1, &at);
  emit(&set, OP(MOVI, 5, 0, 0, 0, 1));
  emit(&set, OP(ST32, 0, 0, 5, 0, 0));
  emit(&set, OP(EXIT, 0, 0, 0, 0, 0));
  struct dev_launch l = launch_of(&set, 1, 1);
  struct dev_exception exc;
  int rc;
  struct simt_run *setter = simt_open(d, &l, &exc, &rc);
  ck_assert_ptr_nonnull(setter);
  static struct waiter w;
  w.d = d;
  kern_init(&w.kk, 1, &at);
  emit(&w.kk, OP(SSY, 0, 0, 0, 0, 6));   /* 0 */
  emit(&w.kk, OP(LD32, 4, 0, 0, 0, 0));  /* 1: the flag */
  emit(&w.kk, OP(BRA_P, 0, 4, 0, 0, 5)); /* 2 */
  emit(&w.kk, OP(YIELD, 0, 0, 0, 0, 0)); /* 3 */
  emit(&w.kk, OP(BRA, 0, 0, 0, 0, 1));   /* 4 */
  emit(&w.kk, OP(SYNC, 0, 0, 0, 0, 6));  /* 5 */
  emit(&w.kk, OP(EXIT, 0, 0, 0, 0, 0));  /* 6 */
  pthread_t t;
  ck_assert_int_eq(pthread_create(&t, NULL, wait_for_flag, &w), 0);
  /* the waiter spins in an unchanged state, then for 10 times the 20 ms */
  for (int i = 0; i < 60000 && !atomic_load(&w.done) && !other_spins(d, setter); i++)
    nanosleep(&(struct timespec){0, 1000000}, NULL);
  nanosleep(&(struct timespec){0, 200 * 1000000}, NULL);
  ck_assert_int_eq(simt_run_pass(setter, &exc, NULL), 0);
  simt_close(setter);
  pthread_join(t, NULL);
  ck_assert_msg(w.rc == 0, "the waiting launch ended with %d: %s", w.rc, w.exc.message);
  ck_assert_uint_eq(flag[0], 1);
  dev_device_free(d);
}
END_TEST

/* ---- barriers ---- */

/* local[lid] = gid; barrier; out[gid] = local[(lid + 1) % n] */
static void build_barrier(struct kern *kk, uint64_t out, bool early_exit) {
  kern_init(kk, 1, &out);
  kk->k.local_size = 64 * 4;
  emit_gid_addr(kk);                                                         /* 0, 1 */
  emit(kk, OP(SREG, 10, 0, 0, 0, LSI_SREG_LOCAL_ID_X));                      /* 2 */
  emit(kk, OP(SREG, 11, 0, 0, 0, LSI_SREG_LOCAL_SIZE_X));                    /* 3 */
  emit(kk, OP(MOVI, 12, 0, 0, 0, (int64_t)LSI_ADDR(LSI_SPACE_LOCAL, 0, 0))); /* 4 */
  emit(kk, OP(MADI, 13, 12, 10, 0, 4));                                      /* 5 */
  emit(kk, OP(ST32, 0, 13, 20, 0, 0));                                       /* 6 */
  if (early_exit) {
    emit(kk, OP(MOVI, 1, 0, 0, 0, 1));
    emit(kk, OP(AND_I32, 2, 10, 1, 0, 0));
    emit(kk, OP(BRA_P, 0, 2, 0, 0, kk->n + 2)); /* odd lanes skip the barrier */
  } else {
    emit(kk, OP(NOP, 0, 0, 0, 0, 0));
    emit(kk, OP(NOP, 0, 0, 0, 0, 0));
    emit(kk, OP(NOP, 0, 0, 0, 0, 0));
  }
  emit(kk, OP(BAR, 0, 0, 0, 0, 0));         /* 10 */
  emit(kk, OP(ADDI, 14, 10, 0, 0, 1));      /* 11 */
  emit(kk, OP(UREM_I32, 14, 14, 11, 0, 0)); /* 12 */
  emit(kk, OP(MADI, 15, 12, 14, 0, 4));     /* 13 */
  emit(kk, OP(LD32, 16, 15, 0, 0, 0));      /* 14 */
  emit(kk, OP(ST32, 0, 22, 16, 0, 0));      /* 15 */
  emit(kk, OP(EXIT, 0, 0, 0, 0, 0));        /* 16 */
}

START_TEST(test_barrier_warps) {
  struct dev_device *d = mkdev(8, 2, 0);
  uint32_t buf[200];
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  build_barrier(&kk, out, false);
  struct dev_exception exc;
  struct simt_stats st;
  ck_assert_int_eq(launch(d, &kk, 200, 64, &exc, &st), 0); /* 3 full groups + 8 */
  for (uint32_t i = 0; i < 200; i++) {
    uint32_t g = i / 64 * 64, n = i >= 192 ? 8 : 64;
    ck_assert_uint_eq(buf[i], g + (i - g + 1) % n);
  }
  ck_assert_uint_eq(st.barrier_waits, 3 * 8 + 1);
  dev_device_free(d);
}
END_TEST

/* Two warps of one group, the second running 600 turns of a loop (more
 * than a slice's budget) before the barrier both reach, then both exit:
 * the barrier is released once the second arrives, whichever warp the
 * engine runs the next round from, and no warp is left behind. */
START_TEST(test_barrier_late_warp) {
  for (unsigned W = 8; W <= 32; W *= 4) {
    struct dev_device *d = mkdev(W, 1, 0);
    uint32_t buf[64] = {0};
    uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
    struct kern kk;
    kern_init(&kk, 1, &out);
    emit(&kk, OP(SREG, 5, 0, 0, 0, LSI_SREG_SUB_GROUP_ID)); /* 0: the warp */
    emit(&kk, OP(MOVI, 6, 0, 0, 0, 0));                     /* 1 */
    emit(&kk, OP(MADI, 7, 6, 5, 0, 600));                   /* 2: its turns */
    emit(&kk, OP(ULT_I64, 8, 6, 7, 0, 0));                  /* 3: loop */
    emit(&kk, OP(BRA_Z, 0, 8, 0, 0, 7));                    /* 4 */
    emit(&kk, OP(ADDI, 6, 6, 0, 0, 1));                     /* 5 */
    emit(&kk, OP(BRA, 0, 0, 0, 0, 3));                      /* 6 */
    emit(&kk, OP(BAR, 0, 0, 0, 0, 1));                      /* 7 */
    emit_gid_addr(&kk);                                     /* 8, 9 */
    emit(&kk, OP(ADDI, 9, 6, 0, 0, 1));                     /* 10 */
    emit(&kk, OP(ST32, 0, 22, 9, 0, 0));                    /* 11 */
    emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));                     /* 12 */
    struct dev_exception exc;
    struct simt_stats st;
    ck_assert_msg(launch(d, &kk, 2 * W, 2 * W, &exc, &st) == 0, "W=%u: %s", W, exc.message);
    for (unsigned i = 0; i < 2 * W; i++)
      ck_assert_uint_eq(buf[i], i < W ? 1 : 601);
    ck_assert_uint_eq(st.barrier_waits, 2);
    dev_device_free(d);
  }
}
END_TEST

/* Each warp comes to a barrier with all its lanes at once, but the two
 * warps to different barriers: still a device exception, though neither
 * warp's lanes differ. */
START_TEST(test_barrier_warps_differ) {
  struct dev_device *d = mkdev(8, 1, 0);
  uint32_t buf[16];
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  kern_init(&kk, 1, &out);
  emit(&kk, OP(SREG, 10, 0, 0, 0, LSI_SREG_LOCAL_ID_X)); /* 0 */
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 8));                    /* 1 */
  emit(&kk, OP(ULT_I32, 2, 10, 1, 0, 0));                /* 2: warp 0 */
  emit(&kk, OP(BRA_P, 0, 2, 0, 0, 6));                   /* 3 */
  emit(&kk, OP(BAR, 0, 0, 0, 0, 0));                     /* 4: warp 1 */
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));                    /* 5 */
  emit(&kk, OP(BAR, 0, 0, 0, 0, 0));                     /* 6: warp 0 */
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));                    /* 7 */
  struct dev_exception exc;
  ck_assert_int_eq(launch(d, &kk, 16, 16, &exc, NULL), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_BARRIER_DIVERGENCE);
  ck_assert_msg(strstr(exc.message, "barrier reached by 16 of 16 work-items of the work-group; "
                                    "others wait at a different barrier") != NULL,
                "%s", exc.message);
  dev_device_free(d);
}
END_TEST

/* Stores whose addresses run past 2^40 bytes from the buffer's (where the
 * allocation's id begins) in the middle of a warp, each brought back into
 * the buffer by a negative immediate: they land where they point. The 8
 * lanes run in two segments of four consecutive words, 32 bytes apart. */
START_TEST(test_offset_carry) {
  struct dev_device *d = mkdev(8, 1, 0);
  uint32_t buf[32] = {0};
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  kern_init(&kk, 1, &out);
  int64_t far = (INT64_C(1) << 40) - 40;
  emit(&kk, OP(SREG, 10, 0, 0, 0, LSI_SREG_LOCAL_ID_X));
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 3));
  emit(&kk, OP(AND_I64, 2, 10, 1, 0, 0)); /* lid & 3 */
  emit(&kk, OP(MOVI, 3, 0, 0, 0, 2));
  emit(&kk, OP(LSHR_I64, 4, 10, 3, 0, 0)); /* lid >> 2 */
  emit(&kk, OP(MADI, 5, 0, 2, 0, 4));
  emit(&kk, OP(MADI, 5, 5, 4, 0, 32));
  emit(&kk, OP(ADDI, 5, 5, 0, 0, far)); /* lanes 6 and 7 past 2^40 */
  emit(&kk, OP(ADDI, 6, 10, 0, 0, 1));
  emit(&kk, OP(ST32, 0, 5, 6, 0, 64 - (INT64_C(1) << 40)));
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
  struct dev_exception exc;
  ck_assert_int_eq(launch(d, &kk, 8, 8, &exc, NULL), 0);
  for (unsigned i = 0; i < 32; i++) {
    uint32_t want = i >= 6 && i < 10 ? i - 5 : i >= 14 && i < 18 ? i - 9 : 0;
    ck_assert_msg(buf[i] == want, "word %u: got %u want %u", i, buf[i], want);
  }
  dev_device_free(d);
}
END_TEST

START_TEST(test_barrier_divergence) {
  struct dev_device *d = mkdev(8, 1, 0);
  uint32_t buf[64];
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  build_barrier(&kk, out, true);
  struct dev_exception exc;
  ck_assert_int_eq(launch(d, &kk, 64, 64, &exc, NULL), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_BARRIER_DIVERGENCE);
  ck_assert_msg(strstr(exc.message, "barrier reached by 32 of 64") != NULL, "%s", exc.message);
  dev_device_free(d);
}
END_TEST

/* A kernel (n instructions) that never ends, on one work-group of items:
 * the watchdog stops it. Its statistics go to st. */
static void watchdog_stops(const lsi_insn *code, unsigned n, uint64_t items,
                           struct simt_stats *st) {
  struct dev_device *d = mkdev(32, 1, 200);
  uint32_t buf[1];
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  kern_init(&kk, 1, &out);
  for (unsigned i = 0; i < n; i++)
    emit(&kk, code[i]);
  struct dev_exception exc;
  ck_assert_int_eq(launch(d, &kk, items, items, &exc, st), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_WATCHDOG);
  dev_device_free(d);
}

START_TEST(test_watchdog) {
  const lsi_insn spin[] = {OP(BRA, 0, 0, 0, 0, 0)};
  watchdog_stops(spin, 1, 4, NULL);
}
END_TEST

/* A loop round a barrier with no way out, in a group of two whole warps
 * (which the native engine runs on from one round to the next without
 * going back to the group's loop): the watchdog still stops it. */
START_TEST(test_watchdog_barrier_loop) {
  const lsi_insn loop[] = {OP(BAR, 0, 0, 0, 0, 1), OP(BRA, 0, 0, 0, 0, 0)};
  struct simt_stats st;
  watchdog_stops(loop, 2, 64, &st);
  ck_assert_uint_gt(st.barrier_waits, 2);
}
END_TEST

/* Same results whatever the warp width and the number of host threads. */
START_TEST(test_width_and_threads) {
  static uint32_t ref[2][500], got[2][500];
  for (int cfg = 0; cfg < 4; cfg++) {
    unsigned W = cfg & 1 ? 8 : 32, T = cfg & 2 ? 2 : 1;
    struct dev_device *d = mkdev(W, T, 0);
    uint32_t *b0 = cfg ? got[0] : ref[0], *b1 = cfg ? got[1] : ref[1];
    struct kern kk;
    uint64_t o0 = dev_mem_map(dev_device_mem(d), b0, sizeof(ref[0]), false);
    uint64_t o1 = dev_mem_map(dev_device_mem(d), b1, sizeof(ref[1]), false);
    build_arith(&kk, o0);
    struct dev_exception exc;
    ck_assert_int_eq(launch(d, &kk, 500, 50, &exc, NULL), 0);
    build_barrier(&kk, o1, false);
    ck_assert_int_eq(launch(d, &kk, 500, 50, &exc, NULL), 0);
    if (cfg) ck_assert_mem_eq(ref, got, sizeof(ref));
    dev_device_free(d);
  }
}
END_TEST

/* ---- builtins ---- */

START_TEST(test_builtin_lookup) {
  const char *names[] = {"_Z3sinf",
                         "_Z3maxii",
                         "_Z13get_global_idj",
                         "_Z6vload4mPKf",
                         "_Z7vstore4Dv4_fmPf",
                         "printf",
                         "_Z3dotDv4_fS_",
                         "_Z21async_work_group_copyPU3AS3Dv4_fPU3AS1KS_m9ocl_event",
                         "_Z15vstore_half_rtefmPDh",
                         "_Z5crossDv3_fS_",
                         "_Z8upsamplest"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    ck_assert_msg(lsi_builtin_lookup(names[i]) >= 0, "missing %s", names[i]);
  ck_assert_int_eq(lsi_builtin_lookup("_Z7nothingf"), -1);
  int id = lsi_builtin_lookup("_Z6vload4mPKf");
  ck_assert_uint_eq(lsi_builtin_nres(id), 4);
  ck_assert_uint_eq(lsi_builtin_nargs(id), 2);
  id = lsi_builtin_lookup("_Z7vstore4Dv4_fmPf");
  ck_assert_uint_eq(lsi_builtin_nres(id), 0);
  ck_assert_uint_eq(lsi_builtin_nargs(id), 6);
  ck_assert_str_eq(lsi_builtin_name(id), "_Z7vstore4Dv4_fmPf");
  /* no duplicate names */
  for (int i = 0; i < lsi_builtin_count(); i++)
    ck_assert_int_eq(lsi_builtin_lookup(lsi_builtin_name(i)) >= 0, 1);
}
END_TEST

START_TEST(test_builtin_calls) {
  struct dev_device *d = mkdev(8, 1, 0);
  float in[64];
  for (int i = 0; i < 64; i++)
    in[i] = (float)i;
  float res[16] = {0};
  uint64_t argv[2] = {dev_mem_map(dev_device_mem(d), res, sizeof(res), false),
                      dev_mem_map(dev_device_mem(d), in, sizeof(in), true)};
  struct kern kk;
  kern_init(&kk, 2, argv);
  static uint32_t arglist[16];
  kk.k.arglist = arglist;
  kk.k.narglist = 16;
  arglist[0] = 2;  /* dim */
  arglist[1] = 20; /* offset = gid */
  arglist[2] = 1;  /* pointer */
  arglist[3] = 5;  /* x for sqrt */
  emit(&kk, OP(MOVI, 2, 0, 0, 0, 0));
  emit(&kk, OP(CALLB, 20, 0, 1, 0, lsi_builtin_lookup("_Z13get_global_idj")));
  emit(&kk, OP(CALLB, 4, 1, 2, 0, lsi_builtin_lookup("_Z6vload4mPKf"))); /* r4..r7 */
  emit(&kk, OP(CALLB, 8, 3, 1, 0, lsi_builtin_lookup("_Z4sqrtf")));      /* sqrt(r5) */
  emit(&kk, OP(MADI, 22, 0, 20, 0, 8));
  emit(&kk, OP(ST32, 0, 22, 8, 0, 0));
  emit(&kk, OP(ST32, 0, 22, 7, 0, 4));
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
  struct dev_exception exc;
  ck_assert_int_eq(launch(d, &kk, 8, 8, &exc, NULL), 0);
  for (int i = 0; i < 8; i++) {
    ck_assert_float_eq_tol(res[2 * i], sqrtf((float)(4 * i + 1)), 1e-6);
    ck_assert_float_eq(res[2 * i + 1], (float)(4 * i + 3));
  }
  /* a vload past the end faults like a load */
  ck_assert_int_eq(launch(d, &kk, 17, 17, &exc, NULL), CL_OUT_OF_RESOURCES_);
  ck_assert_int_eq(exc.trap, LSI_TRAP_OUT_OF_BOUNDS);
  dev_device_free(d);
}
END_TEST

/* printf: the format lives in constant memory; output reaches stdout when
 * the launch completes, in order per work-item. */
START_TEST(test_printf) {
  struct dev_device *d = mkdev(8, 2, 0);
  static const char fmt[] = "wi %d: %5.2f %s %v2hlf|%%\n";
  static const char str[] = "ok";
  uint64_t argv[3] = {dev_mem_map(dev_device_mem(d), (void *)fmt, sizeof(fmt), true),
                      dev_mem_map(dev_device_mem(d), (void *)str, sizeof(str), true), 0};
  struct kern kk;
  kern_init(&kk, 2, argv);
  static uint32_t arglist[8] = {0, 20, 3, 1, 4, 5};
  kk.k.arglist = arglist;
  kk.k.narglist = 8;
  double half = 0.5;
  uint64_t hbits;
  memcpy(&hbits, &half, 8);
  emit(&kk, OP(SREG, 20, 0, 0, 0, LSI_SREG_GLOBAL_ID_X));
  emit(&kk, OP(MOVI, 3, 0, 0, 0, (int64_t)hbits));
  emit(&kk, OP(MOVI, 4, 0, 0, 0, 0x3f800000)); /* 1.0f */
  emit(&kk, OP(MOVI, 5, 0, 0, 0, 0x40000000)); /* 2.0f */
  emit(&kk, OP(CALLB, 6, 0, 6, 0, lsi_builtin_lookup("printf")));
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
  char path[] = "/tmp/lockstep_printf_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  struct dev_exception exc;
  int rc = launch(d, &kk, 3, 3, &exc, NULL);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  ck_assert_int_eq(rc, 0);
  char buf[512] = {0};
  ck_assert_int_gt(pread(fd, buf, sizeof(buf) - 1, 0), 0);
  close(fd);
  unlink(path);
  ck_assert_str_eq(buf, "wi 0:  0.50 ok 1.000000,2.000000|%\n"
                        "wi 1:  0.50 ok 1.000000,2.000000|%\n"
                        "wi 2:  0.50 ok 1.000000,2.000000|%\n");
  dev_device_free(d);
}
END_TEST

/* if (a && b) x = 7: two SSYs share one reconvergence point; the warp
 * still reconverges there with its full mask. */
START_TEST(test_shared_reconvergence) {
  struct dev_device *d = mkdev(32, 1, 0);
  uint32_t buf[32] = {0};
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  kern_init(&kk, 1, &out);
  emit_gid_addr(&kk);                     /* 0, 1 */
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 1));     /* 2 */
  emit(&kk, OP(AND_I32, 2, 20, 1, 0, 0)); /* 3: a */
  emit(&kk, OP(MOVI, 5, 0, 0, 0, 2));     /* 4 */
  emit(&kk, OP(AND_I32, 6, 20, 5, 0, 0)); /* 5: b */
  emit(&kk, OP(SSY, 0, 0, 0, 0, 13));     /* 6 */
  emit(&kk, OP(BRA_Z, 0, 2, 0, 0, 12));   /* 7: !a -> P */
  emit(&kk, OP(SSY, 0, 0, 0, 0, 13));     /* 8 */
  emit(&kk, OP(BRA_Z, 0, 6, 0, 0, 12));   /* 9: !b -> P */
  emit(&kk, OP(MOVI, 1, 0, 0, 0, 7));     /* 10 */
  emit(&kk, OP(NOP, 0, 0, 0, 0, 0));      /* 11 */
  emit(&kk, OP(SYNC, 0, 0, 0, 0, 13));    /* 12: P */
  emit(&kk, OP(SGBAR, 0, 0, 0, 0, 0));    /* 13 */
  emit(&kk, OP(ST32, 0, 22, 1, 0, 0));    /* 14 */
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));     /* 15 */
  struct dev_exception exc;
  ck_assert_msg(launch(d, &kk, 32, 32, &exc, NULL) == 0, "%s", exc.message);
  for (int i = 0; i < 32; i++)
    ck_assert_uint_eq(buf[i], (i & 3) == 3 ? 7 : 1);
  dev_device_free(d);
}
END_TEST

/* ---- passes over part of a launch (the command processor's hook) ---- */

struct pass_obs {
  _Atomic int stop;
  _Atomic unsigned ran, stop_after;
};

static void pass_group_done(void *arg, unsigned k, uint64_t g, uint64_t t0, uint64_t t1) {
  struct pass_obs *o = arg;
  ck_assert_uint_le(t0, t1);
  if (atomic_fetch_add(&o->ran, 1) + 1 == o->stop_after) atomic_store(&o->stop, 1);
}

/* out[gid] += 1 in passes of at most 3 groups, then in passes stopped
 * from the outside: every item runs exactly once and the reported
 * completed prefix is exact. */
START_TEST(test_launch_passes) {
  struct dev_device *d = mkdev(8, 3, 0);
  uint32_t buf[40 * 16];
  memset(buf, 0, sizeof(buf));
  uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
  struct kern kk;
  kern_init(&kk, 1, &out);
  emit_gid_addr(&kk);
  emit(&kk, OP(LD32, 2, 22, 0, 0, 0));
  emit(&kk, OP(ADDI, 2, 2, 0, 0, 1));
  emit(&kk, OP(ST32, 0, 22, 2, 0, 0));
  emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
  kk.k.ninsns = kk.n;
  struct dev_launch l;
  memset(&l, 0, sizeof(l));
  l.prog = &kk.p;
  l.kernel = &kk.k;
  l.work_dim = 1;
  l.global[0] = 40 * 16;
  l.local[0] = 16;
  l.argbuf = kk.argbuf;
  ck_assert_uint_eq(simt_launch_groups(&l), 40);
  struct dev_exception exc;
  struct simt_pass p;
  memset(&p, 0, sizeof(p));
  unsigned passes = 0;
  for (p.limit = 3; p.done < 40 || passes == 0; passes++) {
    uint64_t before = p.first = p.done;
    ck_assert_int_eq(simt_launch_pass(d, &l, &exc, &p), 0);
    ck_assert_uint_eq(p.total, 40);
    ck_assert_uint_eq(p.done, before + 3 < 40 ? before + 3 : 40);
    for (unsigned i = 0; i < 40 * 16; i++)
      ck_assert_uint_eq(buf[i], i < p.done * 16 ? 1 : 0);
  }
  ck_assert_uint_eq(passes, 14);
  /* Stopped by a flag the observer raises after 5 groups ran. */
  struct pass_obs o;
  atomic_init(&o.stop, 0);
  atomic_init(&o.ran, 0);
  atomic_init(&o.stop_after, 5);
  memset(&p, 0, sizeof(p));
  p.stop = &o.stop;
  p.group_done = pass_group_done;
  p.arg = &o;
  for (passes = 0; p.done < 40; passes++) {
    p.first = p.done;
    atomic_store(&o.stop, 0);
    atomic_store(&o.ran, 0);
    ck_assert_int_eq(simt_launch_pass(d, &l, &exc, &p), 0);
    ck_assert_uint_eq(p.done - p.first, atomic_load(&o.ran));
    ck_assert_uint_ge(p.done - p.first, p.done < 40 ? 5 : 1);
  }
  ck_assert_uint_gt(passes, 1);
  for (unsigned i = 0; i < 40 * 16; i++)
    ck_assert_uint_eq(buf[i], 2);
  /* A pass that starts past the end runs nothing and is finished. */
  p.first = 40;
  p.stop = NULL;
  ck_assert_int_eq(simt_launch_pass(d, &l, &exc, &p), 0);
  ck_assert_uint_eq(p.done, 40);
  dev_device_free(d);
}
END_TEST

int main(void) {
  Suite *s = suite_create("device_simt");
  CU_ADD(s, test_arith);
  CU_ADD(s, test_int_float_ops);
  CU_ADD(s, test_fault_oob);
  CU_ADD(s, test_fault_kinds);
  CU_ADD(s, test_divzero);
  CU_ADD(s, test_token_encode);
  CU_ADD(s, test_deque_recentre);
  CU_ADD(s, test_unwind_rules);
  CU_ADD(s, test_ifelse_reconverges);
  CU_ADD(s, test_subgroup_barrier_partial);
  CU_ADD(s, test_uniform_branch);
  CU_ADD(s, test_missing_token_fallback);
  CU_ADD(s, test_overflow_recentre);
  CU_ADD(s, test_huge_offset_faults);
  CU_ADD(s, test_native_size_limit);
  CU_ADD(s, test_native_narrow_access);
  CU_ADD(s, test_native_background);
  CU_ADD(s, test_argument_on_constant);
  CU_ADD(s, test_native_exit_waits);
  CU_ADD(s, test_written_argument);
  CU_ADD(s, test_yield_merge);
  CU_ADD(s, test_spinlock_yield);
  CU_ADD(s, test_spinlock_stack_mode);
  CU_ADD(s, test_progress_waits_for_open_launch);
  CU_ADD(s, test_barrier_warps);
  CU_ADD(s, test_barrier_divergence);
  CU_ADD(s, test_barrier_warps_differ);
  CU_ADD(s, test_offset_carry);
  CU_ADD(s, test_watchdog);
  CU_ADD(s, test_barrier_late_warp);
  CU_ADD(s, test_watchdog_barrier_loop);
  CU_ADD(s, test_width_and_threads);
  CU_ADD(s, test_builtin_lookup);
  CU_ADD(s, test_builtin_calls);
  CU_ADD(s, test_printf);
  CU_ADD(s, test_shared_reconvergence);
  CU_ADD(s, test_launch_passes);
  return cu_run(s);
}
