/*
 * native.h - the native engine: each kernel's LSI compiled by LLVM's JIT
 * into one function per warp width that runs a warp's instructions as
 * vector operations over its W lanes under the active mask.
 *
 * The generated function keeps the interpreter's semantics exactly: its
 * register file is the warp's (rows of W 64-bit lanes, written under the
 * active mask), every memory access is checked against the same bounds,
 * and control flow goes through the same token deque functions
 * (simt_diverge, simt_join, simt_yield... in interp.c). What it does not
 * compile - and every access whose fast check fails - it hands to the
 * interpreter for one instruction (simt_warp_step), so faults, their
 * reports and LOCKSTEP_FAULTS=report are the interpreter's own.
 */
#ifndef LOCKSTEP_DEVICE_NATIVE_H
#define LOCKSTEP_DEVICE_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#include "device/simt_int.h"

/* What a warp function returns, of the warp x->w (the last it ran). */
enum native_ret {
  NATIVE_RET_BUDGET, /* the slice is over: w->pc/active saved, state RUN */
  NATIVE_RET_STATE,  /* the deque moved the warp: w->state, pc and active say where it is */
  NATIVE_RET_INTERP, /* the interpreter runs the instruction at w->pc (w->active saved) */
  NATIVE_RET_NEXT,   /* x->w is the group's next warp to run, its slice begun */
};

/* The warp a slice runs, as the generated code and the functions it calls
 * see it. Where a warp whose W lanes all run waits at a barrier or is
 * done, the code moves on to the work-group's next warp still to run in
 * this round (lsn_next: w and priv change, the budget starts again), where
 * chain allows, and native_warp_run runs that one next. */
struct native_ctx {
  struct simt_cu *cu;
  struct simt_warp *w;
  uint8_t *priv;              /* the warp's private frames */
  struct simt_ncache *ncache; /* cu->ncache */
  const uint64_t *sregs;      /* cu->nsreg (native_group_sregs) */
  int64_t budget;             /* each warp's slice, in branch points */
  bool chain;
};

typedef int (*native_fn)(struct native_ctx *x, uint64_t *reg, struct native_count *n);

/* What a compile of one instruction costs, in the lane instructions the
 * interpreter runs in that time: a compile takes 1-6 ms per instruction,
 * the interpreter 0.3-0.6 ns per lane instruction on each host thread. */
#define NATIVE_INSN_WORK (UINT64_C(4) << 20)
/* The longest kernel compiled: a compile's time and memory grow faster
 * than the kernel (one of 33,714 instructions took minutes and 0.5 GiB). */
#define NATIVE_MAX_INSNS 8192

/* The kernel's warp function for warp width W, or NULL: the interpreter
 * runs this launch. A kernel is compiled (once per content and warp
 * width: identical kernels share the code, kept for the process and in
 * the build cache) once the lane instructions its launches ran
 * (native_account) plus work, this launch's estimate, reach both min and
 * what its compile costs (NATIVE_INSN_WORK per instruction; min 0 skips
 * both): a kernel that runs for less time than its compile takes is
 * never compiled, but code already made is always used. A kernel longer
 * than NATIVE_MAX_INSNS is never compiled. *acct is what native_account
 * takes; why says which engine runs the launch and why. Thread-safe. */
native_fn native_code(const struct lsi_kernel *k, unsigned W, uint64_t work, uint64_t min,
                      void **acct, char *why, size_t n);
/* A launch the interpreter ran (acct from native_code) made lane_insns. */
void native_account(void *acct, uint64_t lane_insns);
/* Whether the launch's code (acct from native_code) lets warps keep their
 * constant and argument rows from one work-group to the next
 * (native_rows_fixed). */
bool native_keeps_rows(const void *acct);

/* Fills cu->nsreg for its new work-group: each special register the same
 * for the whole group, and for the per-lane ids what is added to a lane's
 * local id. */
void native_group_sregs(struct simt_cu *cu);

/* Whether LLVM's JIT works on this host (else the interpreter runs every
 * kernel). */
bool native_available(void);

/* Runs w like simt_warp_run with the kernel's native code fn, and where
 * chain, the group's next warps that are to run (each for a budget) while
 * each before waits at a barrier or is done: returns the last warp it
 * ran. Its counts go to cu->nc, added to cu->st by simt_native_fold
 * (simt_int.h). */
struct simt_warp *native_warp_run(struct simt_cu *cu, struct simt_warp *w, native_fn fn,
                                  uint64_t budget, bool chain);

/* ---- native_gen.c (and native_mem.c): LSI to LLVM IR ---- */
struct LLVMOpaqueModule;
struct LLVMOpaqueContext;
/* Generates function `name` for k at width W into module m, for a host
 * with the LLVM target features `features`; false (with why) for a
 * kernel it does not handle. */
bool native_gen(struct LLVMOpaqueContext *c, struct LLVMOpaqueModule *m, const char *name,
                const struct lsi_kernel *k, unsigned W, const char *features, char *why, size_t n);

/* native_live.c: the registers live after each instruction, a bitset of
 * *words 64-bit words per pc (ninsns + 1 of them), followed by the
 * registers live before each (as many); NULL when out of memory. The
 * caller frees it. */
uint64_t *native_liveness(const struct lsi_kernel *k, size_t *words);
/* native_live.c: the registers a loop carries - live where a branch back
 * goes, over instructions none of which ends the slice (a barrier: the
 * rows would go to memory and back every time round), and written by
 * some instruction - as a bitset of nw words, from
 * native_liveness's registers live before each pc; NULL when out of
 * memory. The caller frees it. */
uint64_t *native_loop_rows(const struct lsi_kernel *k, const uint64_t *live_in, size_t nw);
/* Whether no instruction of k writes a constant or argument register (uni:
 * native_uniform_rows): a warp's rows of them then keep their values from
 * one work-group of a launch to the next. */
bool native_rows_fixed(const struct lsi_kernel *k, const uint8_t *uni);
/* What the code may know of each register's row before it runs. */
enum native_row {
  NATIVE_ROW_LANES, /* nothing: a value per lane, read from memory */
  NATIVE_ROW_CONST, /* a constant not relocated: its value, known when compiled */
  NATIVE_ROW_SPLAT, /* the same value in every lane (an argument, a relocated constant) */
  NATIVE_ROW_WARP,  /* written, but always the same value in every lane of a warp that runs
                       whole (native_warp_uniform) */
};
/* native_live.c: an enum native_row per register of k (nregs of them),
 * for rows no instruction writes; NULL when out of memory. The caller
 * frees it. */
uint8_t *native_uniform_rows(const struct lsi_kernel *k);
/* native_live.c: marks NATIVE_ROW_WARP in uni (from native_uniform_rows)
 * the rows it marks NATIVE_ROW_LANES that hold the same value in every
 * lane wherever the lanes run together: every instruction that writes one
 * computes it from such rows alone (an operation whose result is a
 * function of its operands: arithmetic, a special register of the warp or
 * its group, a call of a builtin pure says is one), and runs where either
 * all of a warp's lanes run or none (no branch whose lanes may split
 * decides whether it runs); and no path reads one before it is written.
 * live_in is native_liveness's registers live before each pc (nw words
 * each). Where some instruction has no way to the kernel's end, where a
 * yield or a sub-group barrier runs where lanes may have split (the
 * lanes it lets run ahead may meet the others again at any pc), or out
 * of memory, it marks none. */
void native_warp_uniform(const struct lsi_kernel *k, const uint64_t *live_in, size_t nw,
                         bool (*pure)(const lsi_insn *), uint8_t *uni);

#endif
