/*
 * test_dbg_pass.c - the debugger's full-speed passes (seed 000) on
 * hand-assembled LSI kernels: a device exception raised beside an assertion
 * ends the launch instead of letting a later pass run its lanes' effects
 * again, and work-items at a flagged pc are reported once each, a
 * work-group's at a time, in the order work-groups are handed out (the
 * first group given, then by id), on one worker or several. It must not
 * depend on the compiler or the debugger.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "device/mem.h"
#include "device/simt.h"
#include "device/simt_int.h"
#include "util/check_util.h"

#include "kconfig.h"
#include "kern_asm.h"

static const struct dev_launch *kern_launch(struct kern *kk, uint64_t global, uint64_t local) {
  kk->k.ninsns = kk->n;
  for (unsigned i = 0; i < kk->n; i++)
    kk->lines[i] = (struct lsi_line){0, 100 + i};
  kk->l.prog = &kk->p;
  kk->l.kernel = &kk->k;
  kk->l.work_dim = 1;
  kk->l.global[0] = global;
  kk->l.local[0] = local;
  kk->l.argbuf = kk->argbuf;
  return &kk->l;
}

static struct dev_device *mkdev(unsigned W, unsigned threads) {
  struct dev_config c;
  memset(&c, 0, sizeof(c));
  c.compute_units = 2;
  c.warp_width = W;
  c.host_threads = threads;
  c.engine = kc_engine();
  c.local_mem_size = 65536;
  c.max_wg_size = 1024;
  struct dev_device *d = dev_device_new(&c);
  ck_assert_ptr_nonnull(d);
  return d;
}

struct asks {
  unsigned n[256];
  int hit; /* accept says yes */
};

static int accept_count(void *arg, uint64_t item, uint32_t pc) {
  struct asks *a = arg;
  (void)pc;
  if (item < 256) a->n[item]++;
  return a->hit;
}

/* Group 0 spins, then fails an assertion; group 1 meanwhile shifts a big
 * buffer by one byte with memmove (lane 0) and faults (lane 1, a NULL
 * destination) in the same instruction. When the assertion stops the pass
 * while lane 0 moves the bytes, the fault that follows must end the
 * launch: a later pass would shift the buffer a second time. Whatever the
 * timing, the buffer ends shifted exactly once. */
START_TEST(test_fault_beside_assert) {
  const uint64_t size = 64u << 20;
  for (int round = 0; round < 3; round++) {
    struct dev_device *d = mkdev(2, 2);
    uint8_t *buf = malloc(size + 16);
    ck_assert_ptr_nonnull(buf);
    for (uint64_t i = 0; i < size + 16; i++)
      buf[i] = (uint8_t)i;
    uint64_t out = dev_mem_map(dev_device_mem(d), buf, size + 16, false);
    struct kern kk;
    kern_init(&kk, 1, &out);
    emit(&kk, OP(SREG, 20, 0, 0, 0, LSI_SREG_GROUP_ID_X));
    unsigned br = emit(&kk, OP(BRA_P, 0, 20, 0, 0, 0));
    emit(&kk, OP(MOVI, 1, 0, 0, 0, 0));
    emit(&kk, OP(MOVI, 3, 0, 0, 0, 20000));
    unsigned loop = emit(&kk, OP(ADDI, 1, 1, 0, 0, 1));
    emit(&kk, OP(ULT_I32, 2, 1, 3, 0, 0));
    emit(&kk, OP(BRA_P, 0, 2, 0, 0, loop));
    emit(&kk, OP(TRAP, 0, 0, 0, 0, LSI_TRAP_ASSERT));
    emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
    kk.code[br].imm = emit(&kk, OP(SREG, 21, 0, 0, 0, LSI_SREG_LOCAL_ID_X));
    emit(&kk, OP(ADDI, 5, 0, 0, 0, 1));    /* out + 1 */
    emit(&kk, OP(MOVI, 6, 0, 0, 0, 0));    /* NULL */
    emit(&kk, OP(SELECT, 7, 21, 6, 5, 0)); /* lane 1: NULL */
    emit(&kk, OP(MOVI, 8, 0, 0, 0, (int64_t)size));
    emit(&kk, OP(MEMCPY, 7, 0, 8, 0, 0));
    emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
    char err[128];
    struct simt_dbg *s = simt_dbg_open(d, kern_launch(&kk, 4, 2), err, sizeof(err));
    ck_assert_ptr_nonnull(s);
    uint8_t stop[64] = {0};
    struct asks a;
    memset(&a, 0, sizeof(a));
    struct simt_dbg_pass p;
    int why = -1;
    for (int pass = 0; pass < 8; pass++) {
      memset(&p, 0, sizeof(p));
      p.stop_at = stop;
      p.accept = accept_count;
      p.arg = &a;
      simt_dbg_pass(s, &p);
      free(p.hits);
      why = p.why;
      if (why != SIMT_DBG_PASS_ASSERT) break;
    }
    ck_assert_int_eq(why, SIMT_DBG_PASS_FAULT);
    ck_assert_int_eq(p.exc.trap, LSI_TRAP_OUT_OF_BOUNDS);
    ck_assert_uint_eq(buf[0], 0);
    ck_assert_uint_eq(buf[1], 0); /* shifted once: byte i holds i - 1 */
    ck_assert_uint_eq(buf[2], 1);
    ck_assert_uint_eq(buf[1000], (uint8_t)999);
    simt_dbg_close(s);
    dev_device_free(d);
    free(buf);
  }
}
END_TEST

/* 256 work-items in work-groups (and warps) of 64 reach a flagged pc
 * together and every one is a hit: each pass reports one work-group's 64,
 * the first group given first, then by id, whichever worker gets there
 * first; each item is reported once and its atomics run once. On one
 * worker each item is asked once; on several, a group that hit while an
 * earlier one was still running is asked again at a later pass. */
START_TEST(test_many_hits) {
  unsigned threads[] = {1, 3};
  for (int t = 0; t < 2; t++) {
    for (uint64_t first = 0; first < 4; first += 2) {
      struct dev_device *d = mkdev(64, threads[t]);
      uint32_t buf[256] = {0};
      uint64_t out = dev_mem_map(dev_device_mem(d), buf, sizeof(buf), false);
      struct kern kk;
      kern_init(&kk, 1, &out);
      emit(&kk, OP(SREG, 20, 0, 0, 0, LSI_SREG_GLOBAL_ID_X));
      emit(&kk, OP(MADI, 22, 0, 20, 0, 4));
      unsigned flagged = emit(&kk, OP(ATOM_ADD_I32, 2, 22, 20, 0, 0));
      emit(&kk, OP(ATOM_ADD_I32, 2, 22, 20, 0, 0));
      emit(&kk, OP(EXIT, 0, 0, 0, 0, 0));
      char err[128];
      struct simt_dbg *s = simt_dbg_open(d, kern_launch(&kk, 256, 64), err, sizeof(err));
      ck_assert_ptr_nonnull(s);
      uint8_t stop[64] = {0};
      stop[flagged] = 1;
      struct asks a;
      memset(&a, 0, sizeof(a));
      a.hit = 1;
      unsigned reported[256] = {0}, passes = 0;
      /* the groups in the order their hits come */
      const uint64_t order[2][4] = {{0, 1, 2, 3}, {2, 0, 1, 3}};
      struct simt_dbg_pass p;
      for (;; passes++) {
        ck_assert_uint_lt(passes, 20);
        memset(&p, 0, sizeof(p));
        p.stop_at = stop;
        p.accept = accept_count;
        p.arg = &a;
        p.first_group = first; /* the focus stays in that group */
        simt_dbg_pass(s, &p);
        if (p.why == SIMT_DBG_PASS_DONE) break;
        ck_assert_int_eq(p.why, SIMT_DBG_PASS_HIT);
        ck_assert_uint_lt(passes, 4);
        ck_assert_uint_eq(p.nhits, 64);
        for (unsigned i = 0; i < p.nhits; i++) {
          ck_assert_uint_eq(p.hits[i], order[first != 0][passes] * 64 + i);
          reported[p.hits[i]]++;
        }
        ck_assert_uint_eq(p.item, p.hits[0]);
        free(p.hits);
      }
      ck_assert_uint_eq(passes, 4);
      for (unsigned i = 0; i < 256; i++) {
        if (threads[t] == 1) ck_assert_uint_eq(a.n[i], 1);
        ck_assert_uint_ge(a.n[i], 1);
        ck_assert_uint_eq(reported[i], 1);
        ck_assert_uint_eq(buf[i], 2 * i); /* each atomic once */
      }
      simt_dbg_close(s);
      dev_device_free(d);
    }
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("dbg_pass");
  CU_ADD(s, test_fault_beside_assert);
  CU_ADD(s, test_many_hits);
  return cu_run(s);
}
