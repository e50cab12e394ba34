/*
 * native_gen.c - LSI to LLVM IR for the native engine (native.h).
 *
 * One function per kernel and warp width:
 *
 *   int f(struct native_ctx *x, uint64_t *noalias reg, struct native_count *noalias n)
 *
 * Every LSI register is a row of W i64 lanes in reg; an instruction works
 * on its operand rows as <W x i64> vectors and writes its result row with
 * the inactive lanes' old values kept (a select under the active mask;
 * none in the variant for a warp whose lanes are all active). Along a
 * straight run of instructions rows stay in LLVM values; where the run
 * ends, the rows it wrote that are live (native_live.c) are stored: the
 * rows a loop carries to their slots (allocas, which LLVM keeps in
 * registers across branches and loops, in both variants), the others to
 * memory. The slots go to memory wherever the function returns and come
 * in from memory where control enters it (native_gen.h: which rows in
 * which variant), so the memory rows are the truth at every return - the
 * interpreter, the forward-progress sample and the next slice read them
 * there. No call the code makes is given reg or n.
 *
 * Each pc has a basic block. The entry block reads w->pc and w->active and
 * switches to the pcs a warp can resume at (the entry set: 0, branch and
 * token targets, the pc after a branch or call). The deque operations'
 * commonest cases are made in line, exactly as interp.c's shared
 * functions make them, and the rest are calls into those; when the warp
 * goes on where the instruction leads, control stays in the function,
 * else it returns and its caller (native_rt.c) calls it again where the
 * warp now is. What is not compiled here returns to the interpreter for
 * one instruction. Loads and stores are made in native_mem.c, with the
 * state and builders of native_gen.h.
 */
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/builtins.h"
#include "device/native_gen.h"

/* ---- arithmetic ---- */

static LLVMValueRef as32(struct gen *g, LLVMValueRef v) {
  return LLVMBuildTrunc(g->b, v, g->v32, "");
}
static LLVMValueRef from32(struct gen *g, LLVMValueRef v) {
  return LLVMBuildZExt(g->b, v, g->v64, "");
}
static LLVMValueRef asf(struct gen *g, LLVMValueRef v, unsigned bitsz) {
  return bitsz == 32 ? LLVMBuildBitCast(g->b, as32(g, v), g->vf, "")
                     : LLVMBuildBitCast(g->b, v, g->vd, "");
}
static LLVMValueRef fromf(struct gen *g, LLVMValueRef v, unsigned bitsz) {
  return bitsz == 32 ? from32(g, LLVMBuildBitCast(g->b, v, g->v32, ""))
                     : LLVMBuildBitCast(g->b, v, g->v64, "");
}
static LLVMValueRef bool64(struct gen *g, LLVMValueRef v1) {
  return LLVMBuildZExt(g->b, v1, g->v64, "");
}

/* Integer binary ops, in one table: op at 32 bits, its 64-bit twin is
 * op + (LSI_ADD_I64 - LSI_ADD_I32). */
enum ikind { I_BIN, I_CMP, I_MIN };
static const struct iop {
  uint16_t op;
  uint8_t kind;
  int code; /* LLVMOpcode, LLVMIntPredicate */
} iops[] = {
    {LSI_ADD_I32, I_BIN, LLVMAdd},     {LSI_SUB_I32, I_BIN, LLVMSub},
    {LSI_MUL_I32, I_BIN, LLVMMul},     {LSI_AND_I32, I_BIN, LLVMAnd},
    {LSI_OR_I32, I_BIN, LLVMOr},       {LSI_XOR_I32, I_BIN, LLVMXor},
    {LSI_SHL_I32, I_BIN, LLVMShl},     {LSI_LSHR_I32, I_BIN, LLVMLShr},
    {LSI_ASHR_I32, I_BIN, LLVMAShr},   {LSI_SMIN_I32, I_MIN, LLVMIntSLT},
    {LSI_SMAX_I32, I_MIN, LLVMIntSGT}, {LSI_UMIN_I32, I_MIN, LLVMIntULT},
    {LSI_UMAX_I32, I_MIN, LLVMIntUGT}, {LSI_EQ_I32, I_CMP, LLVMIntEQ},
    {LSI_NE_I32, I_CMP, LLVMIntNE},    {LSI_ULT_I32, I_CMP, LLVMIntULT},
    {LSI_ULE_I32, I_CMP, LLVMIntULE},  {LSI_UGT_I32, I_CMP, LLVMIntUGT},
    {LSI_UGE_I32, I_CMP, LLVMIntUGE},  {LSI_SLT_I32, I_CMP, LLVMIntSLT},
    {LSI_SLE_I32, I_CMP, LLVMIntSLE},  {LSI_SGT_I32, I_CMP, LLVMIntSGT},
    {LSI_SGE_I32, I_CMP, LLVMIntSGE},
};
#define I64_DELTA (LSI_ADD_I64 - LSI_ADD_I32)

static bool gen_int(struct gen *g, const lsi_insn *ip) {
  for (size_t j = 0; j < sizeof iops / sizeof iops[0]; j++) {
    bool wide = ip->op == iops[j].op + I64_DELTA;
    if (ip->op != iops[j].op && !wide) continue;
    LLVMValueRef a = row(g, ip->a), b = row(g, ip->b), r;
    if (!wide) a = as32(g, a), b = as32(g, b);
    if (iops[j].code == LLVMShl || iops[j].code == LLVMLShr || iops[j].code == LLVMAShr) {
      LLVMValueRef m = wide ? vc64(g, 63) : as32(g, vc64(g, 31));
      b = LLVMBuildAnd(g->b, b, m, "");
    }
    if (iops[j].kind == I_BIN) {
      r = LLVMBuildBinOp(g->b, (LLVMOpcode)iops[j].code, a, b, "");
    } else {
      LLVMValueRef c = LLVMBuildICmp(g->b, (LLVMIntPredicate)iops[j].code, a, b, "");
      r = iops[j].kind == I_CMP ? c : LLVMBuildSelect(g->b, c, a, b, "");
    }
    if (iops[j].kind == I_CMP)
      r = bool64(g, r);
    else if (!wide)
      r = from32(g, r);
    set_row(g, ip->d, r);
    return true;
  }
  return false;
}

/* Division: a zero divisor in an active lane goes to the interpreter (its
 * value and its LOCKSTEP_CHECK_DIVZERO note); MIN / -1 gives MIN, MIN % -1
 * gives 0, as there. */
static bool gen_div(struct gen *g, const lsi_insn *ip, uint32_t pc) {
  static const uint16_t ops[4] = {LSI_UDIV_I32, LSI_SDIV_I32, LSI_UREM_I32, LSI_SREM_I32};
  int j = 0;
  bool wide = false;
  for (; j < 4; j++)
    if (ip->op == ops[j] || ip->op == ops[j] + I64_DELTA) break;
  if (j == 4) return false;
  wide = ip->op != ops[j];
  LLVMValueRef a = row(g, ip->a), b = row(g, ip->b);
  if (!wide) a = as32(g, a), b = as32(g, b);
  LLVMTypeRef vt = wide ? g->v64 : g->v32;
  LLVMValueRef zero = LLVMConstNull(vt), ones = LLVMConstAllOnes(vt);
  LLVMValueRef z = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, b, zero, ""), act_vec(g), "");
  LLVMValueRef anyz = intrinsic(g, "llvm.vector.reduce.or", &g->v1, 1, &z, 1);
  LLVMBasicBlockRef slow = block(g), fast = block(g);
  LLVMBuildCondBr(g->b, anyz, slow, fast);
  LLVMPositionBuilderAtEnd(g->b, slow);
  leave(g, pc);
  LLVMPositionBuilderAtEnd(g->b, fast);
  /* inactive lanes divide by 1; signed MIN / -1 by 1 too (then fixed) */
  LLVMValueRef safe = LLVMBuildSelect(g->b, act_vec(g), b, LLVMConstNull(vt), "");
  LLVMValueRef one = wide ? vc64(g, 1) : as32(g, vc64(g, 1));
  safe = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, safe, zero, ""), one, safe, "");
  LLVMValueRef r;
  if (j == 1 || j == 3) {
    LLVMValueRef minv = wide ? vc64(g, UINT64_C(1) << 63) : as32(g, vc64(g, UINT64_C(1) << 31));
    LLVMValueRef ovf = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, a, minv, ""),
                                    LLVMBuildICmp(g->b, LLVMIntEQ, safe, ones, ""), "");
    safe = LLVMBuildSelect(g->b, ovf, one, safe, "");
    r = j == 1 ? LLVMBuildSDiv(g->b, a, safe, "") : LLVMBuildSRem(g->b, a, safe, "");
    if (j == 1) r = LLVMBuildSelect(g->b, ovf, a, r, ""); /* MIN / -1 = MIN; MIN % -1 = 0 */
  } else {
    r = j == 0 ? LLVMBuildUDiv(g->b, a, safe, "") : LLVMBuildURem(g->b, a, safe, "");
  }
  set_row(g, ip->d, wide ? r : from32(g, r));
  return true;
}

/* Floating point, one table for f32 (op) and f64 (op + F64_DELTA). */
enum fkind { F_BIN, F_CMP, F_TOI, F_FROMI };
static const struct fop {
  uint16_t op;
  uint8_t kind;
  int code;       /* LLVMOpcode, LLVMRealPredicate; for conversions the integer bits */
  bool is_signed; /* conversions */
} fops[] = {
    {LSI_FADD_F32, F_BIN, LLVMFAdd, 0},    {LSI_FSUB_F32, F_BIN, LLVMFSub, 0},
    {LSI_FMUL_F32, F_BIN, LLVMFMul, 0},    {LSI_FDIV_F32, F_BIN, LLVMFDiv, 0},
    {LSI_FREM_F32, F_BIN, LLVMFRem, 0},    {LSI_FOEQ_F32, F_CMP, LLVMRealOEQ, 0},
    {LSI_FONE_F32, F_CMP, LLVMRealONE, 0}, {LSI_FOLT_F32, F_CMP, LLVMRealOLT, 0},
    {LSI_FOLE_F32, F_CMP, LLVMRealOLE, 0}, {LSI_FOGT_F32, F_CMP, LLVMRealOGT, 0},
    {LSI_FOGE_F32, F_CMP, LLVMRealOGE, 0}, {LSI_FORD_F32, F_CMP, LLVMRealORD, 0},
    {LSI_FUEQ_F32, F_CMP, LLVMRealUEQ, 0}, {LSI_FUNE_F32, F_CMP, LLVMRealUNE, 0},
    {LSI_FULT_F32, F_CMP, LLVMRealULT, 0}, {LSI_FULE_F32, F_CMP, LLVMRealULE, 0},
    {LSI_FUGT_F32, F_CMP, LLVMRealUGT, 0}, {LSI_FUGE_F32, F_CMP, LLVMRealUGE, 0},
    {LSI_FUNO_F32, F_CMP, LLVMRealUNO, 0}, {LSI_FPTOSI32_F32, F_TOI, 32, 1},
    {LSI_FPTOSI64_F32, F_TOI, 64, 1},      {LSI_FPTOUI32_F32, F_TOI, 32, 0},
    {LSI_FPTOUI64_F32, F_TOI, 64, 0},      {LSI_SI32TOFP_F32, F_FROMI, 32, 1},
    {LSI_SI64TOFP_F32, F_FROMI, 64, 1},    {LSI_UI32TOFP_F32, F_FROMI, 32, 0},
    {LSI_UI64TOFP_F32, F_FROMI, 64, 0},
};
#define F64_DELTA (LSI_FADD_F64 - LSI_FADD_F32)

static bool gen_fp(struct gen *g, const lsi_insn *ip) {
  for (size_t j = 0; j < sizeof fops / sizeof fops[0]; j++) {
    const struct fop *f = &fops[j];
    bool wide = ip->op == f->op + F64_DELTA;
    if (ip->op != f->op && !wide) continue;
    unsigned fb = wide ? 64 : 32;
    LLVMTypeRef vt = wide ? g->vd : g->vf;
    LLVMValueRef a = row(g, ip->a), r;
    switch (f->kind) {
    case F_BIN:
      r = fromf(
          g,
          LLVMBuildBinOp(g->b, (LLVMOpcode)f->code, asf(g, a, fb), asf(g, row(g, ip->b), fb), ""),
          fb);
      break;
    case F_CMP:
      r = bool64(g, LLVMBuildFCmp(g->b, (LLVMRealPredicate)f->code, asf(g, a, fb),
                                  asf(g, row(g, ip->b), fb), ""));
      break;
    case F_TOI: { /* saturating, NaN gives 0: the interpreter's d2i/d2u */
      LLVMTypeRef it[2] = {f->code == 32 ? g->v32 : g->v64, vt};
      LLVMValueRef src = asf(g, a, fb);
      r = intrinsic(g, f->is_signed ? "llvm.fptosi.sat" : "llvm.fptoui.sat", it, 2, &src, 1);
      if (f->code == 32) r = from32(g, r);
      break;
    }
    default: { /* F_FROMI */
      LLVMValueRef src = f->code == 32 ? as32(g, a) : a;
      r = fromf(
          g, f->is_signed ? LLVMBuildSIToFP(g->b, src, vt, "") : LLVMBuildUIToFP(g->b, src, vt, ""),
          fb);
    }
    }
    set_row(g, ip->d, r);
    return true;
  }
  return false;
}

static bool gen_misc(struct gen *g, const lsi_insn *ip) {
  LLVMValueRef r;
  switch (ip->op) {
  case LSI_NOP: return true;
  case LSI_MOV: r = row(g, ip->a); break;
  case LSI_MOVI: r = vc64(g, (uint64_t)ip->imm); break;
  case LSI_SELECT:
    r = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntNE, row(g, ip->a), vc64(g, 0), ""),
                        row(g, ip->b), row(g, ip->c), "");
    break;
  case LSI_TRUNC: {
    uint64_t m = ip->imm >= 64 || ip->imm <= 0 ? ~UINT64_C(0) : (UINT64_C(1) << ip->imm) - 1;
    r = LLVMBuildAnd(g->b, row(g, ip->a), vc64(g, m), "");
    break;
  }
  case LSI_SEXT: { /* the interpreter's sext(): from, to of 0 or > 64 mean 64 */
    unsigned from = (unsigned)(ip->imm & 0xff), to = (unsigned)((ip->imm >> 8) & 0xff);
    if (from == 0 || from > 64) from = 64;
    if (to == 0 || to > 64) to = 64;
    r = row(g, ip->a);
    if (from < 64)
      r = LLVMBuildAShr(g->b, LLVMBuildShl(g->b, r, vc64(g, 64 - from), ""), vc64(g, 64 - from),
                        "");
    if (to < 64) r = LLVMBuildAnd(g->b, r, vc64(g, (UINT64_C(1) << to) - 1), "");
    break;
  }
  case LSI_ADDI: r = LLVMBuildAdd(g->b, row(g, ip->a), vc64(g, (uint64_t)ip->imm), ""); break;
  case LSI_MADI:
    r = LLVMBuildAdd(g->b, row(g, ip->a),
                     LLVMBuildMul(g->b, row(g, ip->b), vc64(g, (uint64_t)ip->imm), ""), "");
    break;
  case LSI_FMA_F32:
  case LSI_FMA_F64: {
    unsigned fb = ip->op == LSI_FMA_F32 ? 32 : 64;
    LLVMTypeRef vt = fb == 32 ? g->vf : g->vd;
    LLVMValueRef a[3] = {asf(g, row(g, ip->a), fb), asf(g, row(g, ip->b), fb),
                         asf(g, row(g, ip->c), fb)};
    r = fromf(g, intrinsic(g, "llvm.fma", &vt, 1, a, 3), fb);
    break;
  }
  case LSI_FNEG_F32: r = fromf(g, LLVMBuildFNeg(g->b, asf(g, row(g, ip->a), 32), ""), 32); break;
  case LSI_FNEG_F64: r = fromf(g, LLVMBuildFNeg(g->b, asf(g, row(g, ip->a), 64), ""), 64); break;
  case LSI_FPEXT:
    r = fromf(g, LLVMBuildFPExt(g->b, asf(g, row(g, ip->a), 32), g->vd, ""), 64);
    break;
  case LSI_FPTRUNC:
    r = fromf(g, LLVMBuildFPTrunc(g->b, asf(g, row(g, ip->a), 64), g->vf, ""), 32);
    break;
  case LSI_FTZ_F32: { /* (a & 0x7f800000) ? a : a & 0x80000000 */
    LLVMValueRef a = row(g, ip->a);
    LLVMValueRef e = LLVMBuildAnd(g->b, a, vc64(g, 0x7f800000u), "");
    r = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntNE, e, vc64(g, 0), ""), a,
                        LLVMBuildAnd(g->b, a, vc64(g, 0x80000000u), ""), "");
    break;
  }
  case LSI_FENCE:
    LLVMBuildFence(g->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
    return true;
  default: return false;
  }
  set_row(g, ip->d, r);
  return true;
}

/* SREG: the per-lane ids are a uniform base plus the warp's lid row; other
 * registers but the linear ids are uniform. */
static bool gen_sreg(struct gen *g, const lsi_insn *ip) {
  unsigned s = (unsigned)ip->imm;
  if (s == LSI_SREG_LOCAL_LINEAR_ID || s == LSI_SREG_GLOBAL_LINEAR_ID ||
      s == LSI_SREG_SUB_GROUP_LOCAL_ID || s >= LSI_NUM_SREGS)
    return false;
  LLVMValueRef u;
  if (s >= LSI_SREG_SUB_GROUP_ID && s <= LSI_SREG_NUM_SUB_GROUPS) { /* the warp's */
    LLVMValueRef a[2] = {g->x, c32(g, s)};
    u = rt_call(g, "lsn_sreg", g->i64, a, 2);
  } else { /* the work-group's (native_group_sregs) */
    LLVMValueRef sr = load(g, g->ptr, field(g, g->x, offsetof(struct native_ctx, sregs)), 8);
    u = load(g, g->i64, field(g, sr, (size_t)s * 8), 8);
  }
  LLVMValueRef v = splat(g, u);
  if (s <= LSI_SREG_LOCAL_ID_Z) {
    size_t off = offsetof(struct simt_warp, lid) + (size_t)(s % 3) * SIMT_MAX_W * 4;
    v = LLVMBuildAdd(g->b, v, from32(g, load(g, g->v32, field(g, g->w, off), 4)), "");
  }
  set_row(g, ip->d, v);
  return true;
}

/* ---- control flow ---- */

/* After a deque call that returns 1 when the warp goes on at pc with its
 * (reloaded) active lanes, and 0 when it is anywhere else (or stopped):
 * then the slice ends and its caller looks where the warp is. */
static void after_unwind(struct gen *g, LLVMValueRef on, uint32_t pc) {
  LLVMBasicBlockRef here = block(g), out = block(g);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, on, c32(g, 0), ""), here, out);
  LLVMPositionBuilderAtEnd(g->b, out);
  ret(g, NATIVE_RET_STATE);
  LLVMPositionBuilderAtEnd(g->b, here);
  LLVMBasicBlockRef stay = block(g), slice = block(g);
  LLVMBuildCondBr(g->b, spend(g), slice, stay);
  LLVMPositionBuilderAtEnd(g->b, slice); /* w->pc and w->active are where the warp is */
  ret(g, NATIVE_RET_BUDGET);
  LLVMPositionBuilderAtEnd(g->b, stay);
  jump_with(g, load(g, g->i64, field(g, g->w, offsetof(struct simt_warp, active)), 8), pc);
}

/* ---- the deque's commonest cases in line: each does exactly what its
 * shared function in interp.c does first, and calls it otherwise ---- */

static LLVMValueRef wfield(struct gen *g, size_t off) {
  return field(g, g->w, off);
}
/* The mask and info words of the token at index idx of the deque
 * (garbage when valid is false: then buf[0], which every deque has, is
 * read). */
static void token_at(struct gen *g, LLVMValueRef idx, LLVMValueRef valid, LLVMValueRef *mask,
                     LLVMValueRef *info) {
  LLVMValueRef i =
      LLVMBuildZExt(g->b, LLVMBuildSelect(g->b, valid, idx, c32(g, 0), ""), g->i64, "");
  LLVMValueRef off = LLVMBuildMul(g->b, i, c64(g, sizeof(simt_token)), "");
  LLVMValueRef buf = load(g, g->ptr, wfield(g, offsetof(struct simt_warp, dq.buf)), 8);
  LLVMValueRef tok = LLVMBuildGEP2(g->b, g->i8, buf, &off, 1, "");
  *mask = load(g, g->i64, field(g, tok, offsetof(simt_token, mask)), 8);
  *info = load(g, g->i64, field(g, tok, offsetof(simt_token, info)), 8);
}

/* The lanes that wait for any reason but skip (SIMT_NREASONS: skip none).
 * Each word is loaded on its own (volatile: never merged into a wider
 * load, which would wait for the 8-byte stores that wrote them). */
static LLVMValueRef waiting(struct gen *g, unsigned skip) {
  LLVMValueRef m = c64(g, 0);
  for (unsigned r = 0; r < SIMT_NREASONS; r++) {
    if (r == skip) continue;
    LLVMValueRef d = load(g, g->i64, wfield(g, offsetof(struct simt_warp, dis) + r * 8), 8);
    LLVMSetVolatile(d, 1);
    m = LLVMBuildOr(g->b, m, d, "");
  }
  return m;
}

/* The lanes of m whose resume pc is pc (simt_lanes_at). */
static LLVMValueRef lanes_at(struct gen *g, LLVMValueRef m, LLVMValueRef pc) {
  LLVMValueRef lpc = load(g, g->v32, wfield(g, offsetof(struct simt_warp, lane_pc)), 4);
  return LLVMBuildAnd(g->b, bits(g, LLVMBuildICmp(g->b, LLVMIntEQ, lpc, splat(g, pc), "")), m, "");
}

/* Lanes m wait from pc for reason ty (simt's disable): their resume pc
 * and the reason's mask. */
static void disable(struct gen *g, unsigned ty, LLVMValueRef m, uint32_t pc) {
  LLVMValueRef lanes =
      LLVMBuildBitCast(g->b, g->W < 64 ? LLVMBuildTrunc(g->b, m, g->iW, "") : m, g->v1, "");
  LLVMTypeRef tys[2] = {g->v32, g->ptr};
  LLVMValueRef ms[4] = {splat(g, c32(g, pc)), wfield(g, offsetof(struct simt_warp, lane_pc)),
                        c32(g, 4), lanes};
  intrinsic(g, "llvm.masked.store", tys, 2, ms, 4);
  LLVMValueRef dp = wfield(g, offsetof(struct simt_warp, dis) + ty * 8);
  store(g, LLVMBuildOr(g->b, load(g, g->i64, dp, 8), m, ""), dp, 8);
}

/* Pushes the token (type, mask, pc) in front of a deque whose head is
 * not 0 (simt_deque_push_front): it records the front token's type and
 * what is below that. */
static void push_front(struct gen *g, LLVMValueRef head, unsigned type, LLVMValueRef mask,
                       uint32_t pc) {
  LLVMValueRef tail = load(g, g->i32, wfield(g, offsetof(struct simt_warp, dq.tail)), 4);
  LLVMValueRef some = LLVMBuildICmp(g->b, LLVMIntULT, head, tail, ""), fmask, finfo;
  token_at(g, head, some, &fmask, &finfo);
  LLVMValueRef below = LLVMBuildOr(
      g->b, LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, finfo, c64(g, 4), ""), c64(g, 0xff), ""),
      LLVMBuildShl(g->b, c64(g, 1), LLVMBuildAnd(g->b, finfo, c64(g, 15), ""), ""), "");
  below = LLVMBuildSelect(g->b, some, LLVMBuildAnd(g->b, below, c64(g, 0xff), ""), c64(g, 0), "");
  uint64_t info0 = (uint64_t)type | ((uint64_t)pc << 32);
  LLVMValueRef info =
      LLVMBuildOr(g->b, c64(g, info0), LLVMBuildShl(g->b, below, c64(g, 4), ""), "");
  LLVMValueRef nh = LLVMBuildSub(g->b, head, c32(g, 1), "");
  LLVMValueRef off =
      LLVMBuildMul(g->b, LLVMBuildZExt(g->b, nh, g->i64, ""), c64(g, sizeof(simt_token)), "");
  LLVMValueRef buf = load(g, g->ptr, wfield(g, offsetof(struct simt_warp, dq.buf)), 8);
  LLVMValueRef tok = LLVMBuildGEP2(g->b, g->i8, buf, &off, 1, "");
  store(g, mask, field(g, tok, offsetof(simt_token, mask)), 8);
  store(g, info, field(g, tok, offsetof(simt_token, info)), 8);
  store(g, nh, wfield(g, offsetof(struct simt_warp, dq.head)), 4);
}

/* SSY, PBRK, PCONT: pushes the token in front while there is room there,
 * else lsn_push. */
static void gen_push(struct gen *g, const lsi_insn *ip, uint32_t pc) {
  LLVMValueRef head = load(g, g->i32, wfield(g, offsetof(struct simt_warp, dq.head)), 4);
  LLVMBasicBlockRef fast = block(g), slow = block(g), fault = block(g);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, head, c32(g, 0), ""), slow, fast);
  LLVMPositionBuilderAtEnd(g->b, fast);
  push_front(g, head, simt_token_of(ip->op), act(g), (uint32_t)ip->imm);
  LLVMBuildBr(g->b, g->bb[pc + 1]);
  LLVMPositionBuilderAtEnd(g->b, slow);
  LLVMValueRef args[5] = {g->x, c32(g, pc), c32(g, ip->op), act(g), c32(g, (uint32_t)ip->imm)};
  LLVMValueRef ok = rt_call(g, "lsn_push", g->i32, args, 5);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, ok, c32(g, 0), ""), g->bb[pc + 1], fault);
  LLVMPositionBuilderAtEnd(g->b, fault);
  flush(g, before(g)); /* the run goes on past a push */
  ret(g, NATIVE_RET_STATE);
}

/* A branch point to pc with lanes a: the slice ends when the budget
 * does (with the warp's pc and lanes saved). */
static void go_with(struct gen *g, LLVMValueRef a, uint32_t pc) {
  LLVMBasicBlockRef out = block(g), stay = block(g);
  LLVMBuildCondBr(g->b, spend(g), out, stay);
  LLVMPositionBuilderAtEnd(g->b, out);
  store(g, c32(g, pc), wfield(g, offsetof(struct simt_warp, pc)), 4);
  store(g, a, wfield(g, offsetof(struct simt_warp, active)), 8);
  ret(g, NATIVE_RET_BUDGET);
  LLVMPositionBuilderAtEnd(g->b, stay);
  jump_with(g, a, pc);
}

/* SYNC, BRK, CONT that find the lanes of a divergent branch still to run
 * (a DIV token in front with lanes waiting for it, this instruction's own
 * token next, covering some of the lanes): these lanes wait at the
 * target and the DIV token's lanes run from its pc (what simt_join's
 * disable and unwind then do), in the code of that pc; else to slow. */
static void join_div(struct gen *g, unsigned ty, uint32_t target, LLVMValueRef head,
                     LLVMValueRef tail, LLVMValueRef fmask, LLVMValueRef finfo,
                     LLVMBasicBlockRef slow) {
  LLVMValueRef a = act(g), m2, i2;
  LLVMValueRef h1 = LLVMBuildAdd(g->b, head, c32(g, 1), "");
  LLVMValueRef two = LLVMBuildICmp(g->b, LLVMIntULT, h1, tail, "");
  token_at(g, h1, two, &m2, &i2);
  LLVMValueRef div = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, finfo, c64(g, 15), ""),
                                   c64(g, SIMT_TOK_DIV), "");
  LLVMValueRef ours =
      LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, i2, c64(g, ~UINT64_C(0xff0)), ""),
                    c64(g, ty | ((uint64_t)target << 32)), "");
  LLVMValueRef covers =
      LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildAnd(g->b, m2, a, ""), c64(g, 0), "");
  LLVMValueRef fpc = LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, finfo, c64(g, 32), ""), g->i32, "");
  LLVMValueRef ddp = wfield(g, offsetof(struct simt_warp, dis) + SIMT_TOK_DIV * 8);
  LLVMValueRef ddis = load(g, g->i64, ddp, 8);
  LLVMValueRef m = lanes_at(g, LLVMBuildAnd(g->b, fmask, ddis, ""), fpc);
  LLVMValueRef ok = LLVMBuildAnd(g->b, LLVMBuildAnd(g->b, two, div, ""),
                                 LLVMBuildAnd(g->b, ours, covers, ""), "");
  ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntNE, m, c64(g, 0), ""), "");
  LLVMBasicBlockRef run = block(g), out = block(g), on = block(g), other = block(g);
  LLVMBuildCondBr(g->b, ok, run, slow);
  LLVMPositionBuilderAtEnd(g->b, run);
  disable(g, ty, a, target);
  store(g, h1, wfield(g, offsetof(struct simt_warp, dq.head)), 4);
  store(g, LLVMBuildAnd(g->b, ddis, LLVMBuildNot(g->b, m, ""), ""), ddp, 8);
  store(g, fpc, wfield(g, offsetof(struct simt_warp, pc)), 4);
  store(g, m, wfield(g, offsetof(struct simt_warp, active)), 8);
  LLVMBuildCondBr(g->b, spend(g), out, on);
  LLVMPositionBuilderAtEnd(g->b, out);
  ret(g, NATIVE_RET_BUDGET);
  LLVMPositionBuilderAtEnd(g->b, on); /* fewer lanes than the warp's: the masked variant */
  to_masked(g, g->pc);
  store(g, m, g->act_slot, 8);
  unsigned ncase = 0;
  for (uint32_t pc = 0; pc < g->k->ninsns; pc++)
    ncase += g->k->code[pc].op == LSI_BRA_P || g->k->code[pc].op == LSI_BRA_Z;
  LLVMValueRef sw = LLVMBuildSwitch(g->b, fpc, other, ncase);
  for (uint32_t pc = 0; pc < g->k->ninsns; pc++)
    if (g->k->code[pc].op == LSI_BRA_P || g->k->code[pc].op == LSI_BRA_Z)
      LLVMAddCase(sw, c32(g, pc + 1), g->bbv[0][pc + 1]);
  LLVMPositionBuilderAtEnd(g->b, other); /* w->pc and w->active say where */
  ret(g, NATIVE_RET_STATE);
}

/* SYNC, BRK, CONT whose token is in front and covers some of the lanes:
 * pops it, and the lanes go on at the target together with every lane
 * that waits there for the same reason (what simt_join's disable and
 * unwind then do); else lsn_join. */
static void gen_join(struct gen *g, const lsi_insn *ip) {
  unsigned ty = simt_token_of(ip->op);
  uint32_t target = (uint32_t)ip->imm;
  LLVMValueRef a = act(g);
  LLVMValueRef hp = wfield(g, offsetof(struct simt_warp, dq.head));
  LLVMValueRef head = load(g, g->i32, hp, 4);
  LLVMValueRef tail = load(g, g->i32, wfield(g, offsetof(struct simt_warp, dq.tail)), 4);
  LLVMValueRef some = LLVMBuildICmp(g->b, LLVMIntULT, head, tail, ""), fmask, finfo;
  token_at(g, head, some, &fmask, &finfo);
  LLVMValueRef ours =
      LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, finfo, c64(g, ~UINT64_C(0xff0)), ""),
                    c64(g, ty | ((uint64_t)target << 32)), "");
  LLVMValueRef ok = LLVMBuildAnd(g->b, some, ours, "");
  ok = LLVMBuildAnd(g->b, ok,
                    LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildAnd(g->b, fmask, a, ""), c64(g, 0), ""),
                    "");
  LLVMBasicBlockRef fast = block(g), slow = block(g);
  LLVMBuildCondBr(g->b, ok, fast, slow);
  LLVMPositionBuilderAtEnd(g->b, fast);
  LLVMValueRef dp = wfield(g, offsetof(struct simt_warp, dis) + ty * 8);
  LLVMValueRef dis = load(g, g->i64, dp, 8);
  LLVMValueRef there = lanes_at(g, dis, c32(g, target));
  store(g, LLVMBuildAnd(g->b, dis, LLVMBuildNot(g->b, there, ""), ""), dp, 8);
  store(g, LLVMBuildAdd(g->b, head, c32(g, 1), ""), hp, 4);
  go_with(g, LLVMBuildOr(g->b, a, there, ""), target);
  LLVMPositionBuilderAtEnd(g->b, slow);
  if (!g->full) { /* where the whole warp runs, no lane waits for a DIV token */
    slow = block(g);
    join_div(g, ty, target, head, tail, fmask, finfo, slow);
    LLVMPositionBuilderAtEnd(g->b, slow);
  }
  LLVMValueRef args[4] = {g->x, c32(g, ip->op), a, c32(g, target)};
  after_unwind(g, rt_call(g, "lsn_join", g->i32, args, 4), target);
}

/* YIELD: the interpreter takes every SIMT_HANG_SAMPLE-th one, whose
 * forward-progress sample hashes the registers (so they must be in
 * memory). Where no lane of the warp waits, the yield empties the deque
 * and the lanes go on (simt_yield's first case); else lsn_yield. */
static void gen_yield(struct gen *g, uint32_t pc) {
  LLVMValueRef yp = wfield(g, offsetof(struct simt_warp, yields));
  LLVMValueRef y = LLVMBuildAdd(g->b, load(g, g->i64, yp, 8), c64(g, 1), "");
  LLVMValueRef due = LLVMBuildICmp(
      g->b, LLVMIntEQ, LLVMBuildURem(g->b, y, c64(g, SIMT_HANG_SAMPLE), ""), c64(g, 0), "");
  LLVMBasicBlockRef sample = block(g), plain = block(g), alone = block(g), others = block(g);
  LLVMBuildCondBr(g->b, due, sample, plain);
  LLVMPositionBuilderAtEnd(g->b, sample);
  leave(g, pc);
  LLVMPositionBuilderAtEnd(g->b, plain);
  count(g);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, waiting(g, SIMT_NREASONS), c64(g, 0), ""),
                  alone, others);
  LLVMPositionBuilderAtEnd(g->b, alone);
  store(g, y, yp, 8);
  add_to(g, offsetof(struct native_count, yields), c64(g, 1));
  store(g, load(g, g->i32, wfield(g, offsetof(struct simt_warp, dq.tail)), 4),
        wfield(g, offsetof(struct simt_warp, dq.head)), 4);
  go(g, pc + 1);
  LLVMPositionBuilderAtEnd(g->b, others);
  LLVMValueRef args[3] = {g->x, c32(g, pc), act(g)};
  after_unwind(g, rt_call(g, "lsn_yield", g->i32, args, 3), pc + 1);
}

static bool is_control(const lsi_insn *ip);
/* An instruction the interpreter always makes (atomics, block copies). */
static bool interp_only(const lsi_insn *ip) {
  return (lsi_op_flags[ip->op] & F_ATOMIC) || ip->op == LSI_MEMCPY || ip->op == LSI_MEMSET;
}
static bool gen_plain(struct gen *g, const lsi_insn *ip, uint32_t pc);

#define IF_THEN_MAX 24 /* instructions of an arm of an if that run in line */

/* The BRA that ends a straight arm from q: at most IF_THEN_MAX
 * instructions that are no branch point, control coming into none but q,
 * and none the interpreter always makes (atomics, block copies); 0 where
 * there is none. */
static uint32_t arm_end(const struct gen *g, uint32_t q) {
  const lsi_insn *c = g->k->code;
  for (uint32_t q0 = q; q < g->k->ninsns; q++) {
    unsigned op = c[q].op;
    if (q > q0 && g->entry[q]) return 0;
    if (op == LSI_BRA) return q;
    if (q - q0 >= IF_THEN_MAX || is_control(&c[q]) || interp_only(&c[q])) return 0;
  }
  return 0;
}

/* The SYNC an if at pc joins at, or 0 where pc begins none that runs in
 * line: BRA_P (or BRA_Z) over a straight else arm (from pc + 1 to the
 * BRA at *els, maybe empty) to a straight then arm right after it, whose
 * BRA goes to the SYNC right after that, as the else arm's does. */
static uint32_t if_arms(const struct gen *g, uint32_t pc, uint32_t *els) {
  const lsi_insn *c = g->k->code;
  uint32_t b = arm_end(g, pc + 1), e = b ? arm_end(g, b + 1) : 0;
  if (!e || (uint64_t)c[pc].imm != b + 1 || c[b].imm != c[e].imm || (uint64_t)c[e].imm != e + 1 ||
      e + 1 >= g->k->ninsns || c[e + 1].op != LSI_SYNC)
    return 0;
  *els = b;
  return e + 1;
}

/* The instructions [from, to) of an arm, in line on the lanes in
 * g->act_slot; false where one went to the interpreter (the block then
 * ends). */
static bool gen_arm(struct gen *g, uint32_t from, uint32_t to) {
  keep_values(g);
  for (uint32_t q = from; q < to; q++) {
    g->pc = q;
    if (!gen_plain(g, &g->k->code[q], q)) {
      leave(g, q); /* the deque and the budget are as the deque's way leaves them */
      return false;
    }
  }
  g->pc = to;
  flush(g, before(g));
  return true;
}

/* Adds to the slice's counts n warp instructions on lanes m, and takes n
 * branch points from its budget. */
static void passed(struct gen *g, unsigned n, LLVMValueRef m) {
  add_to(g, offsetof(struct native_count, warp_insns), c64(g, n));
  add_to(g, offsetof(struct native_count, lane_insns),
         LLVMBuildMul(g->b, popcount(g, m), c64(g, n), ""));
  take(g, n);
}

/* An if's lanes t split from a (the others, nt, wait for their DIV token
 * at pc + 1, in front): where the slice has room for the branch points
 * the lanes pass and the SYNC's token is next and covers lanes of both,
 * the arms run in line (masked) as the deque would run them - the then
 * arm on t, which then waits at the SYNC's target while the DIV token
 * goes, the else arm on nt - and nt reach the SYNC; else the lanes go on
 * at the then arm as the deque has it. Leaves g->pc at pc. */
static void gen_if(struct gen *g, uint32_t pc, uint32_t els, uint32_t join, LLVMValueRef t,
                   LLVMValueRef nt) {
  const lsi_insn *sync = &g->k->code[join];
  LLVMValueRef hp = wfield(g, offsetof(struct simt_warp, dq.head));
  LLVMValueRef h1 = LLVMBuildAdd(g->b, load(g, g->i32, hp, 4), c32(g, 1), "");
  LLVMValueRef tail = load(g, g->i32, wfield(g, offsetof(struct simt_warp, dq.tail)), 4);
  LLVMValueRef two = LLVMBuildICmp(g->b, LLVMIntULT, h1, tail, ""), m2, i2;
  token_at(g, h1, two, &m2, &i2);
  unsigned ty = simt_token_of(sync->op);
  uint64_t ours = ty | ((uint64_t)(uint32_t)sync->imm << 32);
  LLVMValueRef ok = LLVMBuildICmp(
      g->b, LLVMIntEQ, LLVMBuildAnd(g->b, i2, c64(g, ~UINT64_C(0xff0)), ""), c64(g, ours), "");
  ok = LLVMBuildAnd(g->b, two, ok, "");
  for (int i = 0; i < 2; i++) /* else the deque joins differently */
    ok = LLVMBuildAnd(
        g->b, ok,
        LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildAnd(g->b, m2, i ? nt : t, ""), c64(g, 0), ""), "");
  /* the deque's way passes 4 branch points before the SYNC's own */
  LLVMValueRef room = LLVMBuildICmp(g->b, LLVMIntSGT, take(g, 0), c64(g, 4), "");
  LLVMBasicBlockRef now = block(g), deque = block(g);
  LLVMBuildCondBr(g->b, LLVMBuildAnd(g->b, ok, room, ""), now, deque);
  LLVMPositionBuilderAtEnd(g->b, deque);
  go(g, els + 1);
  LLVMPositionBuilderAtEnd(g->b, now);
  take(g, 1); /* the branch to the then arm */
  if (gen_arm(g, els + 1, join - 1)) {
    passed(g, 2, t); /* the then arm's BRA and the SYNC, then the DIV token's turn */
    disable(g, ty, t, (uint32_t)sync->imm);
    store(g, h1, hp, 4);
    LLVMValueRef ddp = wfield(g, offsetof(struct simt_warp, dis) + SIMT_TOK_DIV * 8);
    store(g, LLVMBuildAnd(g->b, load(g, g->i64, ddp, 8), LLVMBuildNot(g->b, nt, ""), ""), ddp, 8);
    store(g, nt, g->act_slot, 8);
    if (gen_arm(g, pc + 1, els)) {
      passed(g, 1, nt); /* the else arm's BRA */
      jump_with(g, nt, join);
    }
  }
  g->pc = pc;
}

/* BRA_P, BRA_Z: where the active lanes split, the lanes that do not
 * branch wait for a DIV token at pc + 1 (simt_diverge, in line while the
 * deque has room in front), and the others go on at the target. */
static void gen_branch(struct gen *g, const lsi_insn *ip, uint32_t pc) {
  uint32_t target = (uint32_t)ip->imm;
  LLVMValueRef nz = bits(g, LLVMBuildICmp(g->b, LLVMIntNE, row(g, ip->a), vc64(g, 0), ""));
  LLVMValueRef a = act(g);
  LLVMValueRef t = LLVMBuildAnd(g->b, nz, a, "");
  if (ip->op == LSI_BRA_Z) t = LLVMBuildAnd(g->b, a, LLVMBuildNot(g->b, nz, ""), "");
  LLVMBasicBlockRef taken = block(g), notall = block(g), fall = block(g), div = block(g),
                    fast = block(g), slow = block(g), fault = block(g), split = block(g);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, t, a, ""), taken, notall);
  LLVMPositionBuilderAtEnd(g->b, notall);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, t, c64(g, 0), ""), fall, div);
  LLVMPositionBuilderAtEnd(g->b, div);
  LLVMValueRef nt = LLVMBuildAnd(g->b, a, LLVMBuildNot(g->b, t, ""), "");
  LLVMValueRef head = load(g, g->i32, wfield(g, offsetof(struct simt_warp, dq.head)), 4);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, head, c32(g, 0), ""), slow, fast);
  LLVMPositionBuilderAtEnd(g->b, fast);
  disable(g, SIMT_TOK_DIV, nt, pc + 1);
  push_front(g, head, SIMT_TOK_DIV, nt, pc + 1);
  add_to(g, offsetof(struct native_count, div_branches), c64(g, 1));
  LLVMBuildBr(g->b, split);
  LLVMPositionBuilderAtEnd(g->b, slow);
  LLVMValueRef args[4] = {g->x, c32(g, pc), a, nt};
  LLVMValueRef ok = rt_call(g, "lsn_diverge", g->i32, args, 4);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, ok, c32(g, 0), ""), split, fault);
  LLVMPositionBuilderAtEnd(g->b, fault);
  ret(g, NATIVE_RET_STATE);
  LLVMPositionBuilderAtEnd(g->b, split); /* fewer lanes: the masked variant */
  to_masked(g, pc);
  bool full = g->full;
  LLVMBasicBlockRef *bb = g->bb;
  g->full = false, g->bb = g->bbv[0];
  store(g, t, g->act_slot, 8);
  uint32_t els, join = full ? if_arms(g, pc, &els) : 0; /* the whole warp's split: the common one */
  if (join)
    gen_if(g, pc, els, join, t, nt);
  else
    go(g, target);
  g->full = full, g->bb = bb;
  LLVMPositionBuilderAtEnd(g->b, taken);
  go(g, target);
  LLVMPositionBuilderAtEnd(g->b, fall);
  go(g, pc + 1);
}

/* The warp is done or waits (the deque moved it): where the whole warp
 * ran and the work-group has a next warp to run (lsn_next), its budget
 * and slice count start and the slice returns for it (in the function
 * itself, a branch or tail call back to the start would make one loop of
 * the whole function: slower to compile, its registers allocated
 * worse); else the slice returns. */
static void ret_state(struct gen *g) {
  if (!g->full) {
    ret(g, NATIVE_RET_STATE);
    return;
  }
  spill(g);
  LLVMValueRef next = rt_call(g, "lsn_next", g->i32, &g->x, 1);
  LLVMBasicBlockRef done = block(g), on = block(g);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, next, c32(g, 0), ""), done, on);
  LLVMPositionBuilderAtEnd(g->b, done);
  LLVMBuildRet(g->b, c32(g, NATIVE_RET_STATE));
  LLVMPositionBuilderAtEnd(g->b, on);
  LLVMValueRef budget = load(g, g->i64, field(g, g->x, offsetof(struct native_ctx, budget)), 8);
  store(g, budget, field(g, g->cnt, offsetof(struct native_count, budget)), 8);
  add_to(g, offsetof(struct native_count, slices), c64(g, 1));
  LLVMBuildRet(g->b, c32(g, NATIVE_RET_NEXT));
}

/* BAR: where the whole warp runs and no lane waits for anything (so
 * unwinding would pop every token as stale), the warp waits at the
 * barrier as simt_barrier_wait leaves it: every lane to resume at pc + 1,
 * the deque empty, no lane active; else lsn_bar. */
static void gen_bar(struct gen *g, uint32_t pc) {
  if (g->full) {
    LLVMBasicBlockRef alone = block(g), others = block(g);
    LLVMBuildCondBr(g->b,
                    LLVMBuildICmp(g->b, LLVMIntEQ, waiting(g, SIMT_REASON_BAR), c64(g, 0), ""),
                    alone, others);
    LLVMPositionBuilderAtEnd(g->b, alone);
    store(g, splat(g, c32(g, pc + 1)), wfield(g, offsetof(struct simt_warp, lane_pc)), 4);
    LLVMValueRef dp = wfield(g, offsetof(struct simt_warp, dis) + SIMT_REASON_BAR * 8);
    store(g, LLVMBuildOr(g->b, load(g, g->i64, dp, 8), c64(g, g->allw), ""), dp, 8);
    store(g, load(g, g->i32, wfield(g, offsetof(struct simt_warp, dq.tail)), 4),
          wfield(g, offsetof(struct simt_warp, dq.head)), 4);
    store(g, c64(g, 0), wfield(g, offsetof(struct simt_warp, active)), 8);
    store(g, c32(g, SIMT_WARP_BARRIER), wfield(g, offsetof(struct simt_warp, state)), 4);
    store(g, c64(g, g->allw), wfield(g, offsetof(struct simt_warp, bar_lanes)), 8);
    store(g, c32(g, pc + 1), wfield(g, offsetof(struct simt_warp, bar_at)), 4);
    ret_state(g);
    LLVMPositionBuilderAtEnd(g->b, others);
  }
  LLVMValueRef args[3] = {g->x, c32(g, pc), act(g)};
  rt_call(g, "lsn_bar", LLVMVoidTypeInContext(g->c), args, 3);
  ret(g, NATIVE_RET_STATE);
}

/* CALLB of a builtin that is not a work-group function: its argument rows
 * go to a buffer, the builtin runs on the active lanes (lsn_callb), its
 * results come back from another. */
static void gen_callb(struct gen *g, const lsi_insn *ip, uint32_t pc) {
  const struct lsi_builtin *bi = &lsi_builtins[ip->imm];
  for (uint32_t j = 0; j < ip->b; j++)
    store(g, row(g, g->k->arglist[ip->a + j]), field(g, g->argbuf, (size_t)j * g->W * 8), 8);
  LLVMValueRef args[5] = {g->x, c32(g, pc), act(g), g->argbuf, g->resbuf};
  LLVMValueRef ok = rt_call(g, "lsn_callb", g->i32, args, 5);
  LLVMBasicBlockRef done = block(g), fault = block(g);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, ok, c32(g, 0), ""), done, fault);
  LLVMPositionBuilderAtEnd(g->b, fault);
  ret(g, NATIVE_RET_STATE);
  LLVMPositionBuilderAtEnd(g->b, done);
  for (uint32_t j = 0; j < bi->nres; j++)
    set_row(g, ip->d + j, load(g, g->v64, field(g, g->resbuf, (size_t)j * g->W * 8), 8));
}

/* Builtins computed in line, each exactly as its C function in
 * builtins.c computes it (the same IEEE operation, correctly rounded):
 * name, LLVM intrinsic (NULL: mad, a multiply then an add, as mad_f's
 * a * b + c is compiled without contraction), float width. */
static const struct inline_bi {
  const char *name, *intrinsic;
  unsigned bits;
} inline_bis[] = {
    {"_Z3madfff", NULL, 32},
    {"_Z3madddd", NULL, 64},
    {"_Z3fmafff", "llvm.fma", 32},
    {"_Z3fmaddd", "llvm.fma", 64},
    {"_Z4sqrtf", "llvm.sqrt", 32},
    {"_Z4sqrtd", "llvm.sqrt", 64},
    {"_Z11native_sqrtf", "llvm.sqrt", 32},
    {"_Z11native_sqrtd", "llvm.sqrt", 64},
    {"_Z4fabsf", "llvm.fabs", 32},
    {"_Z4fabsd", "llvm.fabs", 64},
    {"_Z5floorf", "llvm.floor", 32},
    {"_Z5floord", "llvm.floor", 64},
    {"_Z4ceilf", "llvm.ceil", 32},
    {"_Z4ceild", "llvm.ceil", 64},
    {"_Z5truncf", "llvm.trunc", 32},
    {"_Z5truncd", "llvm.trunc", 64},
    {"_Z4rintf", "llvm.rint", 32},
    {"_Z4rintd", "llvm.rint", 64},
};

/* The in-line form of a CALLB, or NULL. */
static const struct inline_bi *inline_of(const lsi_insn *ip) {
  if (ip->op != LSI_CALLB) return NULL;
  for (size_t j = 0; j < sizeof inline_bis / sizeof inline_bis[0]; j++)
    if (!strcmp(lsi_builtins[ip->imm].name, inline_bis[j].name)) return &inline_bis[j];
  return NULL;
}

/* Integer min, max and clamp in line, as builtins.c's int_min, int_max
 * and int_clamp compute them: on the arguments' low n bits (signed or
 * not, the builtin's data), the result zero-extended. */
static const struct int_bi {
  const char *stem, *sop, *uop; /* clamp: NULL, a max then a min */
  unsigned nargs;
} int_bis[] = {
    {"_Z3min", "llvm.smin", "llvm.umin", 2},
    {"_Z3max", "llvm.smax", "llvm.umax", 2},
    {"_Z5clamp", NULL, NULL, 3},
};

/* The integer form of a CALLB of a scalar integer min, max or clamp, or
 * NULL. */
static const struct int_bi *int_inline_of(const lsi_insn *ip) {
  if (ip->op != LSI_CALLB) return NULL;
  const char *name = lsi_builtins[ip->imm].name;
  for (size_t j = 0; j < sizeof int_bis / sizeof int_bis[0]; j++) {
    size_t n = strlen(int_bis[j].stem);
    if (strncmp(name, int_bis[j].stem, n) != 0) continue;
    const char *t = name + n;
    if (!*t || !strchr("chstijlm", *t)) continue;
    unsigned k = 0;
    while (t[k] == t[0])
      k++;
    if (k == int_bis[j].nargs && !t[k]) return &int_bis[j];
  }
  return NULL;
}

static LLVMValueRef int_op(struct gen *g, const char *name, LLVMTypeRef t, LLVMValueRef x,
                           LLVMValueRef y) {
  LLVMValueRef a[2] = {x, y};
  return intrinsic(g, name, &t, 1, a, 2);
}

static bool gen_int_builtin(struct gen *g, const lsi_insn *ip) {
  const struct int_bi *ib = int_inline_of(ip);
  if (!ib) return false;
  uint32_t data = lsi_builtins[ip->imm].data;
  unsigned n = data & 0xff;
  bool sg = (data >> 8) & 1;
  LLVMTypeRef t = LLVMVectorType(LLVMIntTypeInContext(g->c, n), g->W);
  LLVMValueRef a[3];
  for (uint32_t i = 0; i < ib->nargs; i++) {
    a[i] = row(g, g->k->arglist[ip->a + i]);
    if (n < 64) a[i] = LLVMBuildTrunc(g->b, a[i], t, "");
  }
  LLVMValueRef r;
  if (ib->sop)
    r = int_op(g, sg ? ib->sop : ib->uop, t, a[0], a[1]);
  else
    r = int_op(g, sg ? "llvm.smin" : "llvm.umin", t,
               int_op(g, sg ? "llvm.smax" : "llvm.umax", t, a[0], a[1]), a[2]);
  set_row(g, ip->d, n < 64 ? LLVMBuildZExt(g->b, r, g->v64, "") : r);
  return true;
}

static bool gen_inline_builtin(struct gen *g, const lsi_insn *ip) {
  if (gen_int_builtin(g, ip)) return true;
  const struct inline_bi *ib = inline_of(ip);
  if (!ib) return false;
  LLVMTypeRef vt = ib->bits == 32 ? g->vf : g->vd;
  LLVMValueRef a[3];
  for (uint32_t i = 0; i < ip->b && i < 3; i++)
    a[i] = asf(g, row(g, g->k->arglist[ip->a + i]), ib->bits);
  LLVMValueRef r = ib->intrinsic
                       ? intrinsic(g, ib->intrinsic, &vt, 1, a, ip->b)
                       : LLVMBuildFAdd(g->b, LLVMBuildFMul(g->b, a[0], a[1], ""), a[2], "");
  set_row(g, ip->d, fromf(g, r, ib->bits));
  return true;
}

static bool gen_control(struct gen *g, const lsi_insn *ip, uint32_t pc) {
  unsigned op = ip->op;
  if (op == LSI_BRA || op == LSI_BRA_P || op == LSI_BRA_Z || op == LSI_SSY || op == LSI_PBRK ||
      op == LSI_PCONT || op == LSI_SYNC || op == LSI_BRK || op == LSI_CONT || op == LSI_BAR ||
      op == LSI_EXIT)
    count(g); /* before it leaves; YIELD counts on its own path */
  switch (op) {
  case LSI_BRA: go(g, (uint32_t)ip->imm); return true;
  case LSI_BRA_P:
  case LSI_BRA_Z: gen_branch(g, ip, pc); return true;
  case LSI_SSY:
  case LSI_PBRK:
  case LSI_PCONT: gen_push(g, ip, pc); return true;
  case LSI_SYNC:
  case LSI_BRK:
  case LSI_CONT: gen_join(g, ip); return true;
  case LSI_YIELD: gen_yield(g, pc); return true;
  case LSI_BAR: gen_bar(g, pc); return true;
  case LSI_EXIT: {
    LLVMValueRef args[3] = {g->x, c32(g, pc), act(g)};
    rt_call(g, "lsn_exit", LLVMVoidTypeInContext(g->c), args, 3);
    ret_state(g);
    return true;
  }
  case LSI_CALLB:
    if (lsi_builtins[ip->imm].flags & (LSI_BI_GROUP | LSI_BI_BARRIER)) return false;
    gen_callb(g, ip, pc);
    count(g);
    flush(g, pc);
    LLVMBuildBr(g->b, g->bb[pc + 1]);
    return true;
  default: return false;
  }
}

/* ---- the function ---- */

/* A builtin call made in line (no branch point). */
static bool inline_call(const lsi_insn *ip) {
  return ip->op == LSI_CALLB && (inline_of(ip) || int_inline_of(ip));
}

/* SSY, PBRK, PCONT: a token pushed, and on at the next instruction (or a
 * fault): the run of rows goes on past it. */
static bool is_push(const lsi_insn *ip) {
  return ip->op == LSI_SSY || ip->op == LSI_PBRK || ip->op == LSI_PCONT;
}

static bool is_control(const lsi_insn *ip) {
  unsigned op = ip->op;
  return (lsi_op_flags[op] & F_BRANCH) || op == LSI_SSY || op == LSI_PBRK || op == LSI_PCONT ||
         (op == LSI_CALLB && !inline_call(ip));
}

/* Where control can come in: pc 0, every target, the pc after every
 * branch point or call (tokens, barriers and slices resume there) and
 * after every instruction the interpreter always makes (it hands the
 * warp back there). */
static void entries(struct gen *g) {
  const struct lsi_kernel *k = g->k;
  g->entry[0] = 1;
  for (uint32_t pc = 0; pc < k->ninsns; pc++) {
    const lsi_insn *ip = &k->code[pc];
    unsigned fmt = lsi_op_format[ip->op];
    if ((fmt == FMT_BR || fmt == FMT_BRP) && ip->imm >= 0 && (uint64_t)ip->imm <= k->ninsns)
      g->entry[ip->imm] = 1;
    if ((is_control(ip) && !is_push(ip)) || interp_only(ip)) g->entry[pc + 1] = 1;
  }
}

/* Whether the instruction at pc continues the run of the one before:
 * control comes to it only from there. */
bool native_continues(const struct gen *g, uint32_t pc) {
  if (pc == 0 || g->entry[pc]) return false; /* targets are entries */
  const lsi_insn *prev = &g->k->code[pc - 1];
  return !is_control(prev) || is_push(prev);
}

/* An instruction that is not a branch point, counted once it ran (an
 * access that goes to the interpreter is counted there); false: the
 * generator has no code for it. */
static bool gen_plain(struct gen *g, const lsi_insn *ip, uint32_t pc) {
  bool ok = inline_call(ip)      ? gen_inline_builtin(g, ip)
            : ip->op == LSI_SREG ? gen_sreg(g, ip)
                                 : gen_int(g, ip) || gen_fp(g, ip) || gen_misc(g, ip) ||
                                       gen_div(g, ip, pc) || native_gen_mem(g, ip, pc);
  if (ok) count(g);
  return ok;
}

static void gen_insn(struct gen *g, uint32_t pc) {
  const lsi_insn *ip = &g->k->code[pc];
  g->pc = pc;
  if (!native_continues(g, pc)) forget(g);
  if (!inline_call(ip)) {
    /* it may leave, or branch; a branch never leaves before it ran, so
     * what only it reads need not be stored */
    if (is_control(ip) && (!is_push(ip) || !native_continues(g, pc + 1)))
      flush(g, ip->op == LSI_BRA_P || ip->op == LSI_BRA_Z ? pc : before(g));
    if (gen_control(g, ip, pc)) return;
  }
  if (gen_plain(g, ip, pc)) {
    if (!native_continues(g, pc + 1)) flush(g, pc);
    LLVMBuildBr(g->b, g->bb[pc + 1]);
    return;
  }
  leave(g, pc); /* everything else: the interpreter */
}

static void types(struct gen *g) {
  LLVMContextRef c = g->c;
  g->i1 = LLVMInt1TypeInContext(c);
  g->i8 = LLVMInt8TypeInContext(c);
  g->i32 = LLVMInt32TypeInContext(c);
  g->i64 = LLVMInt64TypeInContext(c);
  g->f32 = LLVMFloatTypeInContext(c);
  g->f64 = LLVMDoubleTypeInContext(c);
  g->ptr = LLVMPointerTypeInContext(c, 0);
  g->iW = LLVMIntTypeInContext(c, g->W);
  g->v1 = LLVMVectorType(g->i1, g->W);
  g->v32 = LLVMVectorType(g->i32, g->W);
  g->v64 = LLVMVectorType(g->i64, g->W);
  g->vf = LLVMVectorType(g->f32, g->W);
  g->vd = LLVMVectorType(g->f64, g->W);
  g->vp = LLVMVectorType(g->ptr, g->W);
}

/* g->masked_exit, where there are slots. */
static void masked_exit(struct gen *g) {
  g->masked_exit = NULL;
  bool any = false;
  for (uint32_t r = 0; r < g->k->nregs; r++)
    any |= g->slot[r] != NULL;
  if (!any) return;
  LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
  g->masked_exit = block(g);
  LLVMPositionBuilderAtEnd(g->b, g->masked_exit);
  g->masked_code = LLVMBuildPhi(g->b, g->i32, "");
  g->full = false;
  spill(g);
  LLVMBuildRet(g->b, g->masked_code);
  LLVMPositionBuilderAtEnd(g->b, here);
}

/* The entry block: where the warp is, then a switch to its pc. */
static void prologue(struct gen *g, unsigned maxargs, unsigned maxres) {
  LLVMBasicBlockRef entry = block(g);
  LLVMMoveBasicBlockBefore(entry, g->bbv[0][0]); /* the function's entry */
  LLVMPositionBuilderAtEnd(g->b, entry);
  g->act_slot = LLVMBuildAlloca(g->b, g->i64, "act");
  g->limit_slot = LLVMBuildAlloca(g->b, g->i64, "limit");
  g->argbuf = LLVMBuildArrayAlloca(g->b, g->i64, c32(g, (maxargs ? maxargs : 1) * g->W), "args");
  g->resbuf = LLVMBuildArrayAlloca(g->b, g->i64, c32(g, (maxres ? maxres : 1) * g->W), "res");
  g->lanes = LLVMBuildArrayAlloca(g->b, g->i64, c32(g, SIMT_MAX_W), "lanes");
  LLVMSetAlignment(g->lanes, 64);
  uint64_t *loop = native_loop_rows(g->k, g->live_in, g->lw);
  for (uint32_t r = 0; r < g->k->nregs && loop; r++)
    if ((loop[r / 64] >> (r % 64)) & 1) g->slot[r] = LLVMBuildAlloca(g->b, g->v64, "");
  free(loop); /* out of memory: no slots, every row in memory */
  masked_exit(g);
  g->w = load(g, g->ptr, field(g, g->x, offsetof(struct native_ctx, w)), 8);
  LLVMValueRef pc = load(g, g->i32, field(g, g->w, offsetof(struct simt_warp, pc)), 4);
  LLVMValueRef a = load(g, g->i64, field(g, g->w, offsetof(struct simt_warp, active)), 8);
  store(g, a, g->act_slot, 8);
  unsigned ncase = 0;
  for (uint32_t p = 0; p < g->k->ninsns; p++)
    ncase += g->entry[p];
  LLVMBasicBlockRef other = block(g), sw_of[2] = {block(g), block(g)};
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, a, c64(g, g->allw), ""), sw_of[1], sw_of[0]);
  for (int v = 0; v < 2; v++) {
    LLVMPositionBuilderAtEnd(g->b, sw_of[v]);
    g->full = v;
    if (!v) fill(g, 0); /* the masked variant: every slot, wherever it comes in */
    LLVMValueRef sw = LLVMBuildSwitch(g->b, pc, other, ncase);
    for (uint32_t p = 0; p < g->k->ninsns; p++) {
      if (!g->entry[p]) continue;
      if (!v) {
        LLVMAddCase(sw, c32(g, p), g->bbv[0][p]);
        continue;
      }
      LLVMBasicBlockRef in = block(g); /* the rows live there to their slots */
      LLVMAddCase(sw, c32(g, p), in);
      LLVMPositionBuilderAtEnd(g->b, in);
      fill(g, p);
      LLVMBuildBr(g->b, g->bbv[1][p]);
      LLVMPositionBuilderAtEnd(g->b, sw_of[v]);
    }
  }
  LLVMPositionBuilderAtEnd(g->b, other);         /* not an entry: the interpreter runs it */
  LLVMBuildRet(g->b, c32(g, NATIVE_RET_INTERP)); /* the rows are in memory */
}

/* Whether the comma-separated LLVM target features list has f ("+name"). */
static bool has_feature(const char *list, const char *f) {
  size_t n = strlen(f);
  for (const char *p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
    if (strncmp(p, f, n) == 0 && (p[n] == ',' || p[n] == 0)) return true;
  return false;
}

bool native_gen(LLVMContextRef c, LLVMModuleRef m, const char *name, const struct lsi_kernel *k,
                unsigned W, const char *features, char *why, size_t n) {
  if (W < 4 || W > SIMT_MAX_W || (W & (W - 1))) {
    snprintf(why, n, "warp width %u", W);
    return false;
  }
  for (uint32_t pc = 0; pc < k->ninsns; pc++)
    if ((lsi_op_flags[k->code[pc].op] & F_WRITES_D) && k->code[pc].d < k->nconst) {
      snprintf(why, n, "pc %u writes a constant register", pc);
      return false;
    }
  bool avx512 = has_feature(features, "+avx512f");
  struct gen g = {.c = c,
                  .m = m,
                  .k = k,
                  .W = W,
                  .permute = avx512,
                  .masked_narrow = has_feature(features, "+avx512bw"),
                  .masked_wide = avx512 || has_feature(features, "+avx"),
                  .spread = avx512};
  types(&g);
  LLVMTypeRef params[3] = {g.ptr, g.ptr, g.ptr};
  g.fn = LLVMAddFunction(m, name, LLVMFunctionType(g.i32, params, 3, 0));
  g.x = LLVMGetParam(g.fn, 0);
  g.reg = LLVMGetParam(g.fn, 1);
  g.cnt = LLVMGetParam(g.fn, 2);
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  for (unsigned i = 1; i <= 3; i++)
    LLVMAddAttributeAtIndex(g.fn, i, LLVMCreateEnumAttribute(c, noalias, 0));
  unsigned maxargs = 0, maxres = 0;
  for (uint32_t pc = 0; pc < k->ninsns; pc++)
    if (k->code[pc].op == LSI_CALLB) {
      if (k->code[pc].b > maxargs) maxargs = k->code[pc].b;
      if (lsi_builtins[k->code[pc].imm].nres > maxres) maxres = lsi_builtins[k->code[pc].imm].nres;
    }
  g.allw = simt_lanes_mask(W);
  g.bbv[0] = calloc(k->ninsns + 1, sizeof *g.bb);
  g.bbv[1] = calloc(k->ninsns + 1, sizeof *g.bb);
  g.entry = calloc(k->ninsns + 1, 1);
  g.live = native_liveness(k, &g.lw);
  g.live_in = g.live ? g.live + (k->ninsns + 1) * g.lw : NULL;
  g.slot = calloc(k->nregs + 1, sizeof *g.slot);
  g.val = calloc(k->nregs + 1, sizeof *g.val);
  g.dirty = calloc(k->nregs + 1, 1);
  g.uni = native_uniform_rows(k);
  g.mf[0] = calloc(k->nregs + 1, sizeof *g.mf[0]);
  g.mf[1] = calloc(k->nregs + 1, sizeof *g.mf[1]);
  if (!g.bbv[0] || !g.bbv[1] || !g.entry || !g.live || !g.slot || !g.val || !g.dirty || !g.uni ||
      !g.mf[0] || !g.mf[1]) {
    free(g.bbv[0]), free(g.bbv[1]), free(g.entry), free(g.live), free(g.slot);
    free(g.val), free(g.dirty), free(g.uni), free(g.mf[0]), free(g.mf[1]);
    snprintf(why, n, "out of host memory");
    return false;
  }
  native_warp_uniform(k, g.live_in, g.lw, inline_call, g.uni);
  g.b = LLVMCreateBuilderInContext(c);
  entries(&g);
  for (int v = 0; v < 2; v++)
    for (uint32_t pc = 0; pc <= k->ninsns; pc++)
      g.bbv[v][pc] = LLVMAppendBasicBlockInContext(c, g.fn, "");
  prologue(&g, maxargs, maxres);
  for (int v = 0; v < 2; v++) {
    g.full = v, g.bb = g.bbv[v];
    for (uint32_t pc = 0; pc < k->ninsns; pc++) {
      LLVMPositionBuilderAtEnd(g.b, g.bb[pc]);
      gen_insn(&g, pc);
    }
    /* falling off the end: the interpreter reports it as it would */
    g.pc = k->ninsns; /* nothing is live there */
    LLVMPositionBuilderAtEnd(g.b, g.bb[k->ninsns]);
    save_pc(&g, c32(&g, k->ninsns));
    ret(&g, NATIVE_RET_INTERP);
  }
  LLVMDisposeBuilder(g.b);
  free(g.bbv[0]), free(g.bbv[1]);
  free(g.entry);
  free(g.live), free(g.slot);
  free(g.val), free(g.dirty), free(g.uni), free(g.mf[0]), free(g.mf[1]);
  return true;
}
