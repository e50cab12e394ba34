/*
 * native_gen.h - what the native code generator's files share
 * (native_gen.c: control flow, arithmetic, builtins; native_mem.c: memory
 * accesses): the generator's state and its small builders.
 */
#ifndef LOCKSTEP_NATIVE_GEN_H
#define LOCKSTEP_NATIVE_GEN_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "device/native.h"

#define ILV_MAX_K 16 /* a float16 or int16 per lane */
/* a block's chunks of a 512-bit register (or W elements, where fewer):
 * W * k / min(W, 64 / n), SIMT_MAX_W * k / 8 at most */
#define ILV_MAX_CHUNKS (SIMT_MAX_W * ILV_MAX_K / 8)
/* Loads, or stores, at consecutive pcs from one base row, n bytes each,
 * all within k * n bytes of the least offset imm0 (a vector's
 * components; have: bit j where one accesses element j, span: the bytes
 * from the first element accessed to the end of the last; stores access
 * every element once): one check of all of them, then, where the (in the
 * masked variant: active) lanes are k * n bytes apart (a vector per
 * lane), one block of W * k elements - loaded and split into its k
 * streams (the lanes' element j each: stream[j]), or the stores' values
 * interleaved and stored - else each member as its lanes allow (one
 * vector access, one element for all, or a gather or scatter). k 0: no
 * group. */
struct ilv {
  uint32_t first, last, have;
  unsigned n, k;
  int64_t imm0;
  uint64_t span;
  LLVMValueRef stream[ILV_MAX_K];
};

struct gen {
  LLVMContextRef c;
  LLVMModuleRef m;
  LLVMBuilderRef b;
  const struct lsi_kernel *k;
  unsigned W;
  bool permute; /* the host permutes two 512-bit registers' elements (window_load) */
  /* the host's masked vector accesses (host_masked): loads and stores of
   * 8- and 16-bit elements, of 32- and 64-bit ones, gathers and scatters */
  bool masked_narrow, masked_wide, spread;
  LLVMTypeRef i1, i8, i32, i64, ptr, f32, f64, iW, v1, v32, v64, vf, vd, vp;
  LLVMValueRef fn, x, reg, cnt, w, act_slot, limit_slot, argbuf, resbuf;
  LLVMValueRef lanes; /* a register's elements, one at a time (masked_mem) */
  /* Each instruction is generated twice: for a warp whose W lanes are all
   * active (full: no mask anywhere) and for any other mask. bb is the
   * variant being generated, bbv[full] each. */
  bool full;
  uint64_t allw;
  LLVMBasicBlockRef *bb, *bbv[2];
  uint8_t *entry;          /* ninsns + 1 flags: a pc control can come in at */
  uint64_t *live;          /* native_liveness: registers live after each pc */
  const uint64_t *live_in; /* ... and before each */
  size_t lw;
  /* The rows a loop carries (native_loop_rows) live in slots (one alloca
   * each, which LLVM keeps in registers across branches and loops; NULL:
   * the row is in memory), shared by both variants, filled from memory
   * where control comes into the function and spilled to memory where it
   * leaves it (in_slot). */
  LLVMValueRef *slot;
  /* The masked variant's one way out where there are slots: every slot to
   * memory, then a return of the code its phi takes from each caller
   * (ret); NULL: no slot. */
  LLVMBasicBlockRef masked_exit;
  LLVMValueRef masked_code;
  uint32_t pc; /* the instruction being generated */
  /* Rows along a straight run of instructions (each block's only
   * predecessor the one before): the value of each row read or written
   * (NULL: in its slot or memory), and which were written and not yet
   * stored. They are stored where the run ends - before a branch, a call
   * into the deque or a return - if live there. */
  LLVMValueRef *val;
  uint8_t *dirty;
  uint8_t *uni; /* native_uniform_rows: rows read without loading every lane */
  /* What the run knows about the addresses in each row, per access kind
   * (load, store): computed at its first access, used by the next ones
   * with the same base register (struct mfacts). */
  struct mfacts *mf[2];
  struct ilv ilv;
};

/* The active lanes' addresses in a row: the allocation of the first one
 * (key0, and base and size: base NULL when there is none), whether every
 * lane is in it, the least and greatest offset, the OR of all offsets (for
 * alignment), and whether the lanes are consecutive for accesses of n
 * bytes (contig, once asked for n). */
struct mfacts {
  LLVMValueRef key0, samekey, minoff, maxoff, orbits, base, limit, off, space, lane_off, contig;
  unsigned n; /* contig's access size, 0: not asked yet */
  /* in the variant where the whole warp runs: whether lane i's address
   * is lane 0's plus i * step (the facts then follow from lane 0's) */
  LLVMValueRef lin;
  unsigned step;
  /* else whether the lanes run in segments of W / 2 lanes, each at
   * consecutive step-byte elements from its first lane or (seg_one) all
   * at that lane's address: the facts then follow from the first lanes.
   * NULL: not asked. */
  LLVMValueRef seg, seg_one;
};

/* ---- small builders ---- */

static inline LLVMValueRef c64(struct gen *g, uint64_t v) {
  return LLVMConstInt(g->i64, v, 0);
}
static inline LLVMValueRef c32(struct gen *g, uint32_t v) {
  return LLVMConstInt(g->i32, v, 0);
}
static inline LLVMValueRef splat(struct gen *g, LLVMValueRef v) {
  LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), g->W);
  LLVMValueRef one = LLVMBuildInsertElement(g->b, LLVMGetPoison(vt), v, c32(g, 0), "");
  LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(g->i32, g->W));
  return LLVMBuildShuffleVector(g->b, one, LLVMGetPoison(vt), zeros, "");
}
static inline LLVMValueRef vc64(struct gen *g, uint64_t v) {
  LLVMValueRef e[SIMT_MAX_W];
  for (unsigned i = 0; i < g->W; i++)
    e[i] = c64(g, v);
  return LLVMConstVector(e, g->W);
}
/* <0, 1, ..., W-1> * step */
static inline LLVMValueRef iota(struct gen *g, uint64_t step) {
  LLVMValueRef e[SIMT_MAX_W];
  for (unsigned i = 0; i < g->W; i++)
    e[i] = c64(g, i * step);
  return LLVMConstVector(e, g->W);
}
/* A field of a struct the code is given, by byte offset. */
static inline LLVMValueRef field(struct gen *g, LLVMValueRef base, size_t off) {
  LLVMValueRef idx = c64(g, off);
  return LLVMBuildGEP2(g->b, g->i8, base, &idx, 1, "");
}
static inline LLVMValueRef load(struct gen *g, LLVMTypeRef t, LLVMValueRef p, unsigned align) {
  LLVMValueRef v = LLVMBuildLoad2(g->b, t, p, "");
  LLVMSetAlignment(v, align);
  return v;
}
static inline void store(struct gen *g, LLVMValueRef v, LLVMValueRef p, unsigned align) {
  LLVMSetAlignment(LLVMBuildStore(g->b, v, p), align);
}
static inline LLVMValueRef intrinsic(struct gen *g, const char *name, LLVMTypeRef *tys,
                                     unsigned nty, LLVMValueRef *args, unsigned nargs) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->m, id, tys, nty);
  LLVMTypeRef ft = LLVMIntrinsicGetType(g->c, id, tys, nty);
  return LLVMBuildCall2(g->b, ft, f, args, nargs, "");
}
/* A call to a runtime function of native_rt.c: ret (args...). */
static inline LLVMValueRef rt_call(struct gen *g, const char *name, LLVMTypeRef ret,
                                   LLVMValueRef *args, unsigned n) {
  LLVMTypeRef tys[8];
  for (unsigned i = 0; i < n; i++)
    tys[i] = LLVMTypeOf(args[i]);
  LLVMTypeRef ft = LLVMFunctionType(ret, tys, n, 0);
  LLVMValueRef f = LLVMGetNamedFunction(g->m, name);
  if (!f) f = LLVMAddFunction(g->m, name, ft);
  return LLVMBuildCall2(g->b, ft, f, args, n, "");
}
static inline LLVMBasicBlockRef block(struct gen *g) {
  return LLVMAppendBasicBlockInContext(g->c, g->fn, "");
}

/* ---- registers, mask, counters ---- */

static inline LLVMValueRef mem_row(struct gen *g, uint32_t r) {
  return field(g, g->reg, (size_t)r * g->W * 8);
}
/* Where the run keeps row r: its slot, else memory. */
static inline LLVMValueRef row_ptr(struct gen *g, uint32_t r) {
  return g->slot[r] ? g->slot[r] : mem_row(g, r);
}
/* Row r as the run first reads it: a constant's value, lane 0's value in
 * every lane where all lanes hold the same (where the whole warp runs, for
 * a row written the same in every lane), else every lane's. */
static inline LLVMValueRef row(struct gen *g, uint32_t r) {
  if (g->val[r]) return g->val[r];
  if (g->uni[r] == NATIVE_ROW_CONST)
    g->val[r] = vc64(g, g->k->consts[r].value);
  else if (g->uni[r] == NATIVE_ROW_SPLAT ||
           (g->uni[r] == NATIVE_ROW_WARP && g->full && !g->slot[r]))
    g->val[r] = splat(g, load(g, g->i64, mem_row(g, r), 8));
  else
    g->val[r] = load(g, g->v64, row_ptr(g, r), 8);
  return g->val[r];
}
static inline bool is_live(const struct gen *g, uint32_t pc, uint32_t r) {
  return (g->live[(size_t)pc * g->lw + r / 64] >> (r % 64)) & 1;
}
static inline bool is_live_in(const struct gen *g, uint32_t pc, uint32_t r) {
  return (g->live_in[(size_t)pc * g->lw + r / 64] >> (r % 64)) & 1;
}
/* The slots, in both variants: where the whole warp runs, a slot holds
 * its row's value wherever the row is live (every lane is at the same pc,
 * so what any of them reads later is live there); in the masked variant,
 * always, for every lane, since the lanes that wait read their rows at
 * other pcs. */
static inline bool in_slot(const struct gen *g, uint32_t r, uint32_t pc) {
  return g->slot[r] && (!g->full || is_live_in(g, pc, r));
}
/* Leaving the function before the instruction being generated: the slots
 * to memory, which is the truth at every return. */
static inline void spill(struct gen *g) {
  for (uint32_t r = 0; r < g->k->nregs; r++)
    if (in_slot(g, r, g->pc)) store(g, load(g, g->v64, g->slot[r], 8), mem_row(g, r), 8);
}
/* Coming into the function at pc: the slots from memory. */
static inline void fill(struct gen *g, uint32_t pc) {
  for (uint32_t r = 0; r < g->k->nregs; r++)
    if (in_slot(g, r, pc)) store(g, load(g, g->v64, mem_row(g, r), 8), g->slot[r], 8);
}
/* From the variant where the whole warp runs to the masked one, at pc: the
 * slots of the rows dead there (for every lane) from memory, so that every
 * slot holds a value. */
static inline void to_masked(struct gen *g, uint32_t pc) {
  if (!g->full) return;
  for (uint32_t r = 0; r < g->k->nregs; r++)
    if (g->slot[r] && !is_live_in(g, pc, r))
      store(g, load(g, g->v64, mem_row(g, r), 8), g->slot[r], 8);
}
/* Stores the rows written in this run that are live after pc (UINT32_MAX:
 * before the run's first instruction, when nothing is written yet). */
static inline void flush(struct gen *g, uint32_t pc) {
  for (uint32_t r = 0; r < g->k->nregs && pc != UINT32_MAX; r++)
    if (g->dirty[r] && is_live(g, pc, r)) store(g, g->val[r], row_ptr(g, r), 8);
}
/* Where an if's arm begins, in line after its branch (which stored every
 * row live after it): the rows' values stay, all stored, and what the run
 * knew of their addresses goes (it may hold only where the whole warp
 * runs). */
static inline void keep_values(struct gen *g) {
  memset(g->dirty, 0, g->k->nregs);
  for (int kind = 0; kind < 2; kind++)
    memset(g->mf[kind], 0, g->k->nregs * sizeof *g->mf[kind]);
  memset(&g->ilv, 0, sizeof g->ilv);
}
/* Where the instruction at pc begins a run: every row is in its slot or
 * memory. */
static inline void forget(struct gen *g) {
  memset(g->val, 0, g->k->nregs * sizeof *g->val);
  keep_values(g);
}
/* The live-out set that holds before the instruction being generated. */
static inline uint32_t before(const struct gen *g) {
  return g->pc == 0 ? UINT32_MAX : g->pc - 1;
}
static inline LLVMValueRef act(struct gen *g) {
  return g->full ? c64(g, g->allw) : load(g, g->i64, g->act_slot, 8);
}
static inline LLVMValueRef act_vec(struct gen *g) {
  if (g->full) return LLVMConstAllOnes(g->v1);
  LLVMValueRef a = act(g);
  if (g->W < 64) a = LLVMBuildTrunc(g->b, a, g->iW, "");
  return LLVMBuildBitCast(g->b, a, g->v1, "");
}
/* Writes v to row r in the active lanes - unless no path reads it. */
static inline void set_row(struct gen *g, uint32_t r, LLVMValueRef v) {
  if (!is_live(g, g->pc, r)) return;
  if (!g->full) v = LLVMBuildSelect(g->b, act_vec(g), v, row(g, r), "");
  g->val[r] = v;
  g->dirty[r] = 1;
  g->mf[0][r].key0 = g->mf[1][r].key0 = NULL; /* its addresses changed */
}
/* Goes on at pc with lanes a (a value: the variant is chosen by it). */
static inline void jump_with(struct gen *g, LLVMValueRef a, uint32_t pc) {
  store(g, a, g->act_slot, 8);
  LLVMValueRef all = LLVMBuildICmp(g->b, LLVMIntEQ, a, c64(g, g->allw), "");
  LLVMBasicBlockRef cross = g->full ? block(g) : g->bbv[0][pc];
  LLVMBuildCondBr(g->b, all, g->bbv[1][pc], cross);
  if (!g->full) return;
  LLVMPositionBuilderAtEnd(g->b, cross);
  to_masked(g, pc);
  LLVMBuildBr(g->b, g->bbv[0][pc]);
}
/* The lanes of a <W x i1> as a mask of bits. */
static inline LLVMValueRef bits(struct gen *g, LLVMValueRef v1) {
  LLVMValueRef m = LLVMBuildBitCast(g->b, v1, g->iW, "");
  return g->W < 64 ? LLVMBuildZExt(g->b, m, g->i64, "") : m;
}
static inline LLVMValueRef popcount(struct gen *g, LLVMValueRef v) {
  return intrinsic(g, "llvm.ctpop", &g->i64, 1, &v, 1);
}
static inline void add_to(struct gen *g, size_t off, LLVMValueRef n) {
  LLVMValueRef p = field(g, g->cnt, off);
  store(g, LLVMBuildAdd(g->b, load(g, g->i64, p, 8), n, ""), p, 8);
}
/* One more instruction ran (the interpreter's counts). */
static inline void count(struct gen *g) {
  add_to(g, offsetof(struct native_count, warp_insns), c64(g, 1));
  add_to(g, offsetof(struct native_count, lane_insns), popcount(g, act(g)));
}

/* ---- leaving, and the interpreter's step ---- */

static inline void save_pc(struct gen *g, LLVMValueRef pc) {
  store(g, pc, field(g, g->w, offsetof(struct simt_warp, pc)), 4);
  store(g, act(g), field(g, g->w, offsetof(struct simt_warp, active)), 8);
}
static inline void ret(struct gen *g, int code) {
  LLVMValueRef c = c32(g, (uint32_t)code);
  if (!g->full && g->masked_exit) {
    LLVMBasicBlockRef from = LLVMGetInsertBlock(g->b);
    LLVMAddIncoming(g->masked_code, &c, &from, 1);
    LLVMBuildBr(g->b, g->masked_exit);
    return;
  }
  spill(g);
  LLVMBuildRet(g->b, c);
}
/* Leaves for the interpreter, which runs the instruction at pc. */
static inline void leave(struct gen *g, uint32_t pc) {
  flush(g, before(g));
  save_pc(g, c32(g, pc));
  ret(g, NATIVE_RET_INTERP);
}

/* n branch points less in the slice's budget (0: none): what is left. */
static inline LLVMValueRef take(struct gen *g, uint64_t n) {
  LLVMValueRef p = field(g, g->cnt, offsetof(struct native_count, budget));
  LLVMValueRef left = load(g, g->i64, p, 8);
  if (!n) return left;
  left = LLVMBuildSub(g->b, left, c64(g, n), "");
  store(g, left, p, 8);
  return left;
}
/* A branch point: one less in the slice's budget; true when it is spent. */
static inline LLVMValueRef spend(struct gen *g) {
  return LLVMBuildICmp(g->b, LLVMIntSLE, take(g, 1), c64(g, 0), "");
}

/* A branch point to pc: the slice ends when the budget does. */
static inline void go(struct gen *g, uint32_t pc) {
  LLVMBasicBlockRef out = block(g);
  LLVMBuildCondBr(g->b, spend(g), out, g->bb[pc]);
  LLVMPositionBuilderAtEnd(g->b, out);
  save_pc(g, c32(g, pc));
  ret(g, NATIVE_RET_BUDGET);
}

/* native_gen.c: whether the instruction at pc continues the run of the one
 * before (control comes to it only from there). */
bool native_continues(const struct gen *g, uint32_t pc);
/* native_mem.c: a load or store (false: not one). */
bool native_gen_mem(struct gen *g, const lsi_insn *ip, uint32_t pc);

#endif
