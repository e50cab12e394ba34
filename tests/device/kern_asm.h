/*
 * kern_asm.h - a tiny assembler for the device tests: hand-written LSI
 * kernels with global pointer arguments, no compiler involved. Included by
 * the test files that need it (static functions: each gets its own copy).
 */
#ifndef LOCKSTEP_TESTS_DEVICE_KERN_ASM_H
#define LOCKSTEP_TESTS_DEVICE_KERN_ASM_H

#include <stdint.h>
#include <string.h>

#include "device/device.h"
#include "device/lsi.h"

#define OP(o, D, A, B, C, IMM)                                                                     \
  ((lsi_insn){.op = LSI_##o, .d = (D), .a = (A), .b = (B), .c = (C), .imm = (IMM)})

struct kern {
  struct dev_launch l; /* for tests that keep their launch here */
  lsi_insn code[128];
  unsigned n;
  struct lsi_arg args[4];
  uint8_t argbuf[64];
  struct lsi_kernel k;
  struct lsi_program p;
  struct lsi_line lines[128];
  char *files[1];
};

static unsigned emit(struct kern *kk, lsi_insn i) {
  kk->code[kk->n] = i;
  return kk->n++;
}

/* nargs global pointer arguments in registers 0 .. nargs-1. */
static void kern_init(struct kern *kk, unsigned nargs, const uint64_t *argv) {
  memset(kk, 0, sizeof(*kk));
  for (unsigned j = 0; j < nargs; j++) {
    kk->args[j].name = j == 0 ? "out" : j == 1 ? "aux" : "arg";
    kk->args[j].kind = LSI_ARG_GLOBAL;
    kk->args[j].reg = j;
    kk->args[j].buf_offset = 8 * j;
    memcpy(kk->argbuf + 8 * j, &argv[j], 8);
  }
  kk->k.name = "test_kernel";
  kk->k.nargs = nargs;
  kk->k.args = kk->args;
  kk->k.argbuf_size = sizeof(kk->argbuf);
  kk->k.nregs = 32;
  kk->k.code = kk->code;
  kk->k.lines = kk->lines;
  kk->files[0] = "test.cl";
  kk->p.nkernels = 1;
  kk->p.kernels = &kk->k;
  kk->p.nfiles = 1;
  kk->p.files = kk->files;
}

#endif
