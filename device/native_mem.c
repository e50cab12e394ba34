/*
 * native_mem.c - the native engine's loads and stores (native_gen.c): each
 * checked in line as simt_mem checks it, as one vector access where the
 * lanes allow, else a gather or scatter.
 */
#include <stddef.h>

#include "device/native_gen.h"

/* ---- memory ---- */

/* The base and size an access of kind st at addr0 is checked against:
 * the work-group's cache entry when it has the allocation, else
 * lsn_base's answer (NULL base and 0 size when there is none). */
static void base_of(struct gen *g, LLVMValueRef addr0, bool st, LLVMValueRef *base,
                    LLVMValueRef *limit) {
  LLVMValueRef key0 = LLVMBuildLShr(g->b, addr0, c64(g, LSI_ADDR_ID_SHIFT), "");
  LLVMValueRef idx = LLVMBuildAnd(g->b, key0, c64(g, SIMT_NCACHE - 1), "");
  idx = LLVMBuildAdd(g->b, idx, c64(g, st ? SIMT_NCACHE : 0), "");
  LLVMValueRef off = LLVMBuildMul(g->b, idx, c64(g, sizeof(struct simt_ncache)), "");
  LLVMValueRef cache = load(g, g->ptr, field(g, g->x, offsetof(struct native_ctx, ncache)), 8);
  LLVMValueRef ent = LLVMBuildGEP2(g->b, g->i8, cache, &off, 1, "");
  LLVMValueRef hit = LLVMBuildICmp(g->b, LLVMIntEQ, load(g, g->i64, ent, 8), key0, "");
  LLVMBasicBlockRef cached = block(g), ask = block(g), join = block(g);
  LLVMBuildCondBr(g->b, hit, cached, ask);
  LLVMPositionBuilderAtEnd(g->b, cached);
  LLVMValueRef cb = load(g, g->ptr, field(g, ent, offsetof(struct simt_ncache, host)), 8);
  LLVMValueRef cl = load(g, g->i64, field(g, ent, offsetof(struct simt_ncache, size)), 8);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, ask);
  store(g, c64(g, 0), g->limit_slot, 8);
  LLVMValueRef args[4] = {g->x, addr0, c32(g, st), g->limit_slot};
  LLVMValueRef ab = rt_call(g, "lsn_base", g->ptr, args, 4);
  LLVMValueRef al = load(g, g->i64, g->limit_slot, 8);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
  LLVMValueRef pb = LLVMBuildPhi(g->b, g->ptr, ""), pl = LLVMBuildPhi(g->b, g->i64, "");
  LLVMValueRef vb[2] = {cb, ab}, vl[2] = {cl, al};
  LLVMBasicBlockRef in[2] = {cached, ask};
  LLVMAddIncoming(pb, vb, in, 2);
  LLVMAddIncoming(pl, vl, in, 2);
  *base = pb, *limit = pl;
}

static LLVMValueRef reduce(struct gen *g, const char *op, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return intrinsic(g, op, &t, 1, &v, 1);
}

/* The facts that take a pass over every active lane. */
static void lane_facts(struct gen *g, struct mfacts *f, LLVMValueRef a, LLVMValueRef v[4]) {
  LLVMValueRef m = act_vec(g);
  LLVMValueRef key = LLVMBuildLShr(g->b, a, vc64(g, LSI_ADDR_ID_SHIFT), "");
  LLVMValueRef other =
      LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntNE, key, splat(g, f->key0), ""), m, "");
  v[0] = LLVMBuildNot(g->b, reduce(g, "llvm.vector.reduce.or", other), "");
  v[1] = reduce(g, "llvm.vector.reduce.umin",
                LLVMBuildSelect(g->b, m, f->off, vc64(g, LSI_ADDR_OFFSET_MASK), ""));
  v[2] = reduce(g, "llvm.vector.reduce.umax", LLVMBuildSelect(g->b, m, f->off, vc64(g, 0), ""));
  v[3] = reduce(g, "llvm.vector.reduce.or", LLVMBuildSelect(g->b, m, f->off, vc64(g, 0), ""));
}

/* Whether lanes whose offsets run up to maxoff from a first lane's, as
 * the linear and segment facts find them, are all in that lane's
 * allocation: their offsets do not carry into the allocation's id. */
static LLVMValueRef below_id(struct gen *g, LLVMValueRef maxoff) {
  return LLVMBuildICmp(g->b, LLVMIntULE, maxoff, c64(g, LSI_ADDR_OFFSET_MASK), "");
}

/* The same facts where the whole warp's lanes are step bytes apart, from
 * lane 0's offset: one allocation (the bounds check sees to that), the
 * least and greatest offset, and for alignment the offset's low bits
 * (with every bit from step's up to 8 bytes' set, where lanes differ). */
static void linear_facts(struct gen *g, LLVMValueRef off0, unsigned step, LLVMValueRef v[4]) {
  v[1] = off0;
  v[2] = LLVMBuildAdd(g->b, off0, c64(g, (uint64_t)(g->W - 1) * step), "");
  v[0] = below_id(g, v[2]);
  v[3] = LLVMBuildOr(g->b, off0, c64(g, step < 8 ? ~(uint64_t)(step - 1) & 7 : 0), "");
}

/* Whether the whole warp's addresses (the row a) run in segments of s
 * lanes, each segment's lanes at consecutive n-byte elements from its
 * first lane's, or (*one) all at its first lane's. */
static LLVMValueRef segments(struct gen *g, LLVMValueRef a, unsigned s, unsigned n,
                             LLVMValueRef *one) {
  LLVMValueRef head_idx[SIMT_MAX_W], in_seg[SIMT_MAX_W];
  for (unsigned i = 0; i < g->W; i++)
    head_idx[i] = c32(g, i & ~(s - 1)), in_seg[i] = c64(g, (uint64_t)(i & (s - 1)) * n);
  LLVMValueRef heads =
      LLVMBuildShuffleVector(g->b, a, LLVMGetPoison(g->v64), LLVMConstVector(head_idx, g->W), "");
  LLVMValueRef step = LLVMBuildSub(g->b, LLVMBuildExtractElement(g->b, a, c32(g, 1), ""),
                                   LLVMBuildExtractElement(g->b, a, c32(g, 0), ""), "");
  *one = LLVMBuildICmp(g->b, LLVMIntEQ, step, c64(g, 0), "");
  LLVMValueRef ok =
      LLVMBuildOr(g->b, *one, LLVMBuildICmp(g->b, LLVMIntEQ, step, c64(g, n), ""), "");
  /* the step is 0 or n where ok holds: no multiply (slow on some hosts) */
  LLVMValueRef within =
      LLVMBuildSelect(g->b, *one, LLVMConstNull(g->v64), LLVMConstVector(in_seg, g->W), "");
  LLVMValueRef want = LLVMBuildAdd(g->b, heads, within, "");
  return LLVMBuildAnd(
      g->b, ok, reduce(g, "llvm.vector.reduce.and", LLVMBuildICmp(g->b, LLVMIntEQ, a, want, "")),
      "");
}

/* The facts where segments() holds, from the segments' first lanes. */
static void segment_facts(struct gen *g, struct mfacts *f, LLVMValueRef a, unsigned s, unsigned n,
                          LLVMValueRef one, LLVMValueRef v[4]) {
  v[0] = LLVMConstInt(g->i1, 1, 0);
  v[1] = v[2] = v[3] = NULL;
  for (unsigned j = 0; j < g->W / s; j++) {
    LLVMValueRef h = LLVMBuildExtractElement(g->b, a, c32(g, j * s), "");
    LLVMValueRef key = LLVMBuildLShr(g->b, h, c64(g, LSI_ADDR_ID_SHIFT), "");
    LLVMValueRef o = LLVMBuildAnd(g->b, h, c64(g, LSI_ADDR_OFFSET_MASK), "");
    v[0] = LLVMBuildAnd(g->b, v[0], LLVMBuildICmp(g->b, LLVMIntEQ, key, f->key0, ""), "");
    if (!j) {
      v[1] = v[2] = v[3] = o;
      continue;
    }
    v[1] = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, o, v[1], ""), o, v[1], "");
    v[2] = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntUGT, o, v[2], ""), o, v[2], "");
    v[3] = LLVMBuildOr(g->b, v[3], o, "");
  }
  LLVMValueRef zero = c64(g, 0);
  v[2] = LLVMBuildAdd(g->b, v[2], LLVMBuildSelect(g->b, one, zero, c64(g, (s - 1) * n), ""), "");
  v[0] = LLVMBuildAnd(g->b, v[0], below_id(g, v[2]), "");
  uint64_t low = n < 8 ? ~(uint64_t)(n - 1) & 7 : 0;
  v[3] = LLVMBuildOr(g->b, v[3], LLVMBuildSelect(g->b, one, zero, c64(g, low), ""), "");
}

/* Whether each lane of the row v is lane 0's off0 plus i * step. */
static LLVMValueRef apart(struct gen *g, LLVMValueRef v, LLVMValueRef off0, uint64_t step) {
  return LLVMBuildICmp(g->b, LLVMIntEQ, v, LLVMBuildAdd(g->b, splat(g, off0), iota(g, step), ""),
                       "");
}

/* facts() where the whole warp runs: from lane 0 where the lanes are step
 * bytes apart (lin), else from each segment's first lane where they run
 * in segments of half the warp (rows of a 2-D work-group narrower than
 * the warp), each step bytes apart or all at one, else a pass over the
 * lanes. */
static void warp_facts(struct gen *g, struct mfacts *f, LLVMValueRef a, LLVMValueRef addr0,
                       unsigned step) {
  f->lin = reduce(g, "llvm.vector.reduce.and", apart(g, a, addr0, step)), f->step = step;
  LLVMValueRef w[4], s[4], v[4], one;
  linear_facts(g, LLVMBuildAnd(g->b, addr0, c64(g, LSI_ADDR_OFFSET_MASK), ""), step, w);
  LLVMBasicBlockRef from[3] = {LLVMGetInsertBlock(g->b), block(g), block(g)}, join = block(g);
  LLVMBuildCondBr(g->b, f->lin, join, from[1]);
  LLVMPositionBuilderAtEnd(g->b, from[1]);
  LLVMValueRef seg = segments(g, a, g->W / 2, step, &one);
  segment_facts(g, f, a, g->W / 2, step, one, s);
  LLVMBuildCondBr(g->b, seg, join, from[2]);
  LLVMPositionBuilderAtEnd(g->b, from[2]);
  lane_facts(g, f, a, v);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
  LLVMValueRef *out[4] = {&f->samekey, &f->minoff, &f->maxoff, &f->orbits};
  for (int i = 0; i < 4; i++) {
    *out[i] = LLVMBuildPhi(g->b, LLVMTypeOf(v[i]), "");
    LLVMValueRef in[3] = {w[i], s[i], v[i]};
    LLVMAddIncoming(*out[i], in, from, 3);
  }
  LLVMValueRef t = LLVMConstInt(g->i1, 1, 0), fa = LLVMConstInt(g->i1, 0, 0);
  LLVMValueRef in_seg[3] = {fa, t, fa}, in_one[3] = {fa, one, fa};
  f->seg = LLVMBuildPhi(g->b, g->i1, "");
  f->seg_one = LLVMBuildPhi(g->b, g->i1, "");
  LLVMAddIncoming(f->seg, in_seg, from, 3);
  LLVMAddIncoming(f->seg_one, in_one, from, 3);
}

/* The facts of row r for accesses of kind st (computed once per run);
 * step: how far apart the lanes of the first access are expected. */
static struct mfacts *facts(struct gen *g, uint32_t r, bool st, unsigned step) {
  struct mfacts *f = &g->mf[st][r];
  if (f->key0) return f;
  LLVMValueRef a = row(g, r), cz[2] = {act(g), LLVMConstInt(g->i1, 1, 0)};
  LLVMValueRef lane0 =
      LLVMBuildTrunc(g->b, intrinsic(g, "llvm.cttz", &g->i64, 1, cz, 2), g->i32, "");
  LLVMValueRef addr0 = LLVMBuildExtractElement(g->b, a, lane0, "");
  f->key0 = LLVMBuildLShr(g->b, addr0, c64(g, LSI_ADDR_ID_SHIFT), "");
  f->off = LLVMBuildAnd(g->b, a, vc64(g, LSI_ADDR_OFFSET_MASK), "");
  base_of(g, addr0, st, &f->base, &f->limit);
  /* private frames are W apart: lane i's is at priv + i * private_size */
  f->space = LLVMBuildLShr(g->b, addr0, c64(g, LSI_ADDR_SPACE_SHIFT), "");
  f->lane_off = f->off;
  if (g->k->private_size) {
    LLVMValueRef is_priv = LLVMBuildICmp(g->b, LLVMIntEQ, f->space, c64(g, LSI_SPACE_PRIVATE), "");
    f->lane_off = LLVMBuildSelect(
        g->b, is_priv, LLVMBuildAdd(g->b, f->off, iota(g, g->k->private_size), ""), f->off, "");
  }
  f->n = 0, f->lin = NULL, f->step = 0, f->seg = f->seg_one = NULL;
  if (g->full) {
    warp_facts(g, f, a, addr0, step);
  } else {
    LLVMValueRef v[4];
    lane_facts(g, f, a, v);
    f->samekey = v[0], f->minoff = v[1], f->maxoff = v[2], f->orbits = v[3];
  }
  return f;
}

/* Whether all W lanes of the facts' row, active or not, are consecutive
 * for n-byte accesses (not private): then the active ones are a vector
 * access, masked where not all are active. */
static LLVMValueRef contiguous(struct gen *g, struct mfacts *f, unsigned n) {
  if (f->n == n) return f->contig;
  LLVMValueRef c =
      f->lin && f->step == n
          ? f->lin
          : reduce(g, "llvm.vector.reduce.and", /* every lane, active or not */
                   apart(g, f->off, LLVMBuildExtractElement(g->b, f->off, c32(g, 0), ""), n));
  if (g->k->private_size)
    c = LLVMBuildAnd(g->b, c,
                     LLVMBuildICmp(g->b, LLVMIntNE, f->space, c64(g, LSI_SPACE_PRIVATE), ""), "");
  f->n = n;
  f->contig = c;
  return c;
}

/* Whether every active lane's access of the bytes [imm, imm + end) from
 * its address is in the first lane's allocation and n-aligned: where
 * samekey holds, offsets are below 2^40, so these sums cannot wrap. */
static LLVMValueRef in_bounds(struct gen *g, struct mfacts *f, int64_t imm, uint64_t end,
                              unsigned n) {
  LLVMValueRef lo = LLVMBuildAdd(g->b, f->minoff, c64(g, (uint64_t)imm), "");
  LLVMValueRef hi = LLVMBuildAdd(g->b, f->maxoff, c64(g, (uint64_t)imm + end), "");
  LLVMValueRef ok = LLVMBuildAnd(g->b, f->samekey, LLVMBuildIsNotNull(g->b, f->base, ""), "");
  ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntSGE, lo, c64(g, 0), ""), "");
  ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntSLE, hi, f->limit, ""), "");
  if (n > 1) { /* an offset not a multiple of n: the interpreter decides */
    LLVMValueRef low = LLVMBuildAnd(g->b, LLVMBuildOr(g->b, f->orbits, c64(g, (uint64_t)imm), ""),
                                    c64(g, n - 1), "");
    ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntEQ, low, c64(g, 0), ""), "");
  }
  return ok;
}

/* Vectors of m lanes each, in order, as one of n * m lanes. */
static LLVMValueRef concat(struct gen *g, LLVMValueRef *v, unsigned n, unsigned m) {
  LLVMValueRef idx[SIMT_MAX_W];
  for (; n > 1; n /= 2, m *= 2) {
    for (unsigned i = 0; i < 2 * m; i++)
      idx[i] = c32(g, i);
    for (unsigned j = 0; j < n / 2; j++)
      v[j] = LLVMBuildShuffleVector(g->b, v[2 * j], v[2 * j + 1], LLVMConstVector(idx, 2 * m), "");
  }
  return v[0];
}

/* The group of loads, or of stores, that begins at pc, if one does
 * (struct ilv): the stores of a group write each of its elements once. */
static bool ilv_group(struct gen *g, uint32_t pc, struct ilv *v) {
  const lsi_insn *ip = &g->k->code[pc];
  bool st = ip->op >= LSI_ST8 && ip->op <= LSI_ST64;
  int64_t lo = ip->imm, hi = ip->imm, lim = INT64_C(1) << LSI_ADDR_ID_SHIFT;
  unsigned n = lsi_mem_size(ip->op);
  uint64_t seen = 0; /* bit 32 + (imm - ip->imm) / n */
  v->k = 0;
  for (uint32_t q = pc; q < g->k->ninsns && q - pc < 2 * ILV_MAX_K; q++) {
    const lsi_insn *m = &g->k->code[q];
    if (m->op != ip->op || m->a != ip->a || (q > pc && !native_continues(g, q))) break;
    if (m->imm <= -lim || m->imm >= lim || (m->imm - ip->imm) % (int64_t)n) break;
    int64_t nlo = m->imm < lo ? m->imm : lo, nhi = m->imm > hi ? m->imm : hi;
    if ((nhi - nlo) / (int64_t)n >= ILV_MAX_K) break;
    uint64_t bit = UINT64_C(1) << (32 + (m->imm - ip->imm) / (int64_t)n);
    if (st && (seen & bit)) break;
    lo = nlo, hi = nhi, seen |= bit;
    unsigned k = 2, span = (unsigned)((hi - lo) / (int64_t)n) + 1;
    while (k < span)
      k *= 2;
    uint32_t have = (uint32_t)(seen >> (32 + (lo - ip->imm) / (int64_t)n));
    if (q > pc && span >= 2 && (!st || have == (1u << k) - 1)) /* stores: every element */
      *v = (struct ilv){
          .first = pc, .last = q, .n = n, .k = k, .imm0 = lo, .span = span * n, .have = have};
    if (!st && m->d == ip->a) break; /* the base changes after it */
  }
  return v->k != 0;
}

/* The k streams of a block of W * k elements (element j of lane i at
 * i * k + j) held in chunks ch[0..nch) of c elements, into out[first +
 * gap * j]: the even and the odd elements of each pair of chunks, each
 * split again while k > 1 - two-register shuffles, which hosts do well
 * and code generators handle quickly. */
static void split_streams(struct gen *g, LLVMValueRef *ch, unsigned nch, unsigned c, unsigned k,
                          unsigned first, unsigned gap, LLVMValueRef *out) {
  if (k == 1) {
    out[first] = concat(g, ch, nch, c);
    return;
  }
  LLVMValueRef idx[SIMT_MAX_W], half[ILV_MAX_CHUNKS / 2];
  for (unsigned odd = 0; odd < 2; odd++) {
    for (unsigned i = 0; i < c; i++)
      idx[i] = c32(g, 2 * i + odd);
    for (unsigned j = 0; j < nch / 2; j++)
      half[j] = LLVMBuildShuffleVector(g->b, ch[2 * j], ch[2 * j + 1], LLVMConstVector(idx, c), "");
    split_streams(g, half, nch / 2, c, k / 2, first + odd * gap, 2 * gap, out);
  }
}

/* Whether the host has a masked vector access of elements of `bits`
 * each: a masked load or store of consecutive ones (spread false), or a
 * gather or scatter. LLVM's code generator expands one it has not into a
 * branch per element. */
static bool host_masked(const struct gen *g, unsigned bits, bool spread) {
  if (bits < 32) return !spread && g->masked_narrow;
  return spread ? g->spread : g->masked_wide;
}

/* vt's elements where mask has them: loaded (val NULL) from, or val's
 * stored to, ptr's (spread: each element's own pointer, a vector of
 * them; else consecutive elements from ptr) - a masked load, store,
 * gather or scatter. Where the host has none of that kind and the mask
 * is not constant, a loop over the mask's set bits moves one element at a
 * time through g->lanes: the branch per element the code generator would
 * make instead takes thousands of blocks in a kernel of a few hundred
 * instructions, and seconds to compile. */
static LLVMValueRef masked_mem(struct gen *g, LLVMTypeRef vt, LLVMValueRef ptr, bool spread,
                               LLVMValueRef mask, LLVMValueRef val, unsigned align) {
  LLVMTypeRef et = LLVMGetElementType(vt);
  unsigned c = LLVMGetVectorSize(vt), bits = LLVMGetIntTypeWidth(et);
  if (LLVMIsConstant(mask) || host_masked(g, bits, spread)) {
    LLVMTypeRef tys[2] = {vt, LLVMTypeOf(ptr)};
    LLVMValueRef al = c32(g, align), la[4] = {ptr, al, mask, LLVMGetPoison(vt)};
    LLVMValueRef sa[4] = {val, ptr, al, mask};
    const char *name = spread ? (val ? "llvm.masked.scatter" : "llvm.masked.gather")
                              : (val ? "llvm.masked.store" : "llvm.masked.load");
    return intrinsic(g, name, tys, 2, val ? sa : la, 4);
  }
  if (val) store(g, val, g->lanes, 8);
  LLVMValueRef bits0 = LLVMBuildBitCast(g->b, mask, LLVMIntTypeInContext(g->c, c), "");
  if (c < 64) bits0 = LLVMBuildZExt(g->b, bits0, g->i64, "");
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b), head = block(g), body = block(g),
                    done = block(g);
  LLVMBuildBr(g->b, head);
  LLVMPositionBuilderAtEnd(g->b, head);
  LLVMValueRef left = LLVMBuildPhi(g->b, g->i64, "");
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, left, c64(g, 0), ""), body, done);
  LLVMPositionBuilderAtEnd(g->b, body);
  LLVMValueRef cz[2] = {left, LLVMConstInt(g->i1, 1, 0)};
  LLVMValueRef i = intrinsic(g, "llvm.cttz", &g->i64, 1, cz, 2);
  LLVMValueRef at =
      spread ? LLVMBuildExtractElement(g->b, ptr, LLVMBuildTrunc(g->b, i, g->i32, ""), "")
             : LLVMBuildGEP2(g->b, et, ptr, &i, 1, "");
  LLVMValueRef in = LLVMBuildGEP2(g->b, et, g->lanes, &i, 1, "");
  if (val)
    store(g, load(g, et, in, 1), at, align);
  else
    store(g, load(g, et, at, align), in, 1);
  LLVMValueRef next = LLVMBuildAnd(g->b, left, LLVMBuildSub(g->b, left, c64(g, 1), ""), "");
  LLVMValueRef vals[2] = {bits0, next};
  LLVMBasicBlockRef from[2] = {pre, body};
  LLVMAddIncoming(left, vals, from, 2);
  LLVMBuildBr(g->b, head);
  LLVMPositionBuilderAtEnd(g->b, done);
  return val ? NULL : load(g, vt, g->lanes, 8);
}

/* A block's chunks: a 512-bit register's elements, or W where fewer. */
static unsigned chunk_len(const struct gen *g) {
  unsigned c = 64 / g->ilv.n;
  return c < g->W ? c : g->W;
}

/* Chunk j of the group's block at p, loaded (val NULL) or val stored:
 * where lanes (a <W x i1>) is given, only its lanes' elements. */
static LLVMValueRef chunk(struct gen *g, LLVMValueRef p, unsigned j, LLVMValueRef lanes,
                          LLVMValueRef val) {
  const struct ilv *v = &g->ilv;
  unsigned c = chunk_len(g);
  LLVMTypeRef ct = LLVMVectorType(LLVMIntTypeInContext(g->c, v->n * 8), c);
  LLVMValueRef at = c64(g, (uint64_t)j * c * v->n), idx[SIMT_MAX_W];
  LLVMValueRef q = LLVMBuildGEP2(g->b, g->i8, p, &at, 1, "");
  if (!lanes) {
    if (!val) return load(g, ct, q, v->n);
    store(g, val, q, v->n);
    return NULL;
  }
  for (unsigned i = 0; i < c; i++) /* each element's lane */
    idx[i] = c32(g, (j * c + i) / v->k);
  LLVMValueRef m =
      LLVMBuildShuffleVector(g->b, lanes, LLVMGetPoison(g->v1), LLVMConstVector(idx, c), "");
  return masked_mem(g, ct, q, false, m, val, v->n);
}

/* The group's block at p (every lane k * n bytes from the one before),
 * a register's worth at a time - in the masked variant only the active
 * lanes' elements - split into its streams. */
static void ilv_block(struct gen *g, LLVMValueRef p, LLVMValueRef *s) {
  unsigned nch = g->W * g->ilv.k / chunk_len(g);
  LLVMValueRef ch[ILV_MAX_CHUNKS], lanes = g->full ? NULL : act_vec(g);
  for (unsigned j = 0; j < nch; j++)
    ch[j] = chunk(g, p, j, lanes, NULL);
  split_streams(g, ch, nch, chunk_len(g), g->ilv.k, 0, 1, s);
}

/* At a group's first access (pc): one check of every member's access -
 * where it fails, the interpreter runs the group from its first access.
 * Then whether the (in the masked variant: active) lanes are a vector
 * apart and the block in bounds (the block's way), with at *p the
 * block's address: where lane 0's vector is or would be (it may lie
 * outside the allocation where lane 0 does not run; no element of it is
 * then touched). */
static LLVMValueRef ilv_check(struct gen *g, struct mfacts *f, uint32_t pc, LLVMValueRef *p) {
  struct ilv *v = &g->ilv;
  LLVMValueRef ok = in_bounds(g, f, v->imm0, v->span, v->n);
  LLVMBasicBlockRef slow = block(g), fast = block(g);
  LLVMBuildCondBr(g->b, ok, fast, slow);
  LLVMPositionBuilderAtEnd(g->b, slow);
  leave(g, pc);
  LLVMPositionBuilderAtEnd(g->b, fast);
  uint64_t step = (uint64_t)v->k * v->n;
  LLVMValueRef off0, seq;
  if (g->full) {
    off0 = LLVMBuildExtractElement(g->b, f->off, c32(g, 0), "");
    seq = f->lin && f->step == step
              ? f->lin
              : reduce(g, "llvm.vector.reduce.and", apart(g, f->off, off0, step));
  } else { /* the active lanes a vector apart, where lane 0's would be */
    LLVMValueRef cz[2] = {act(g), LLVMConstInt(g->i1, 1, 0)};
    LLVMValueRef first = intrinsic(g, "llvm.cttz", &g->i64, 1, cz, 2);
    off0 = LLVMBuildSub(
        g->b, LLVMBuildExtractElement(g->b, f->off, LLVMBuildTrunc(g->b, first, g->i32, ""), ""),
        LLVMBuildMul(g->b, first, c64(g, step), ""), "");
    seq = reduce(
        g, "llvm.vector.reduce.and",
        LLVMBuildOr(g->b, apart(g, f->off, off0, step), LLVMBuildNot(g->b, act_vec(g), ""), ""));
  }
  LLVMValueRef whole = LLVMBuildAnd(g->b, in_bounds(g, f, v->imm0, step, v->n), seq, "");
  LLVMValueRef at = LLVMBuildAdd(g->b, off0, c64(g, (uint64_t)v->imm0), "");
  *p = LLVMBuildGEP2(g->b, g->i8, f->base, &at, 1, "");
  return LLVMBuildAnd(g->b, whole,
                      LLVMBuildICmp(g->b, LLVMIntNE, f->space, c64(g, LSI_SPACE_PRIVATE), ""), "");
}

/* Member j's lanes at the group's base, for a gather or scatter. */
static LLVMValueRef ilv_ptrs(struct gen *g, struct mfacts *f, unsigned j) {
  const struct ilv *v = &g->ilv;
  LLVMValueRef o = LLVMBuildAdd(g->b, f->lane_off, vc64(g, (uint64_t)v->imm0 + j * v->n), "");
  return LLVMBuildGEP2(g->b, g->i8, f->base, &o, 1, "");
}

/* How a group's members are made where its block's way does not apply. */
enum member_way {
  MEMBER_VECTOR, /* the lanes n bytes apart: one vector access each */
  MEMBER_ONE,    /* (loads) every active lane at one address: one element each */
  MEMBER_SPREAD, /* else a gather or scatter each */
};

/* Member j of the group as way has it: a load's lanes (val NULL), or a
 * store of val. */
static LLVMValueRef member(struct gen *g, struct mfacts *f, unsigned j, LLVMValueRef val,
                           enum member_way way) {
  const struct ilv *v = &g->ilv;
  LLVMTypeRef et = LLVMIntTypeInContext(g->c, v->n * 8), vt = LLVMVectorType(et, g->W);
  LLVMValueRef imm = c64(g, (uint64_t)v->imm0 + j * v->n);
  if (way == MEMBER_SPREAD)
    return masked_mem(g, vt, ilv_ptrs(g, f, j), true, act_vec(g), val, v->n);
  LLVMValueRef at = LLVMBuildAdd(
      g->b, way == MEMBER_ONE ? f->minoff : LLVMBuildExtractElement(g->b, f->off, c32(g, 0), ""),
      imm, "");
  LLVMValueRef p = LLVMBuildGEP2(g->b, g->i8, f->base, &at, 1, "");
  if (way == MEMBER_ONE) return splat(g, load(g, et, p, v->n));
  if (g->full) {
    if (!val) return load(g, vt, p, v->n);
    store(g, val, p, v->n);
    return NULL;
  }
  return masked_mem(g, vt, p, false, act_vec(g), val, v->n);
}

/* A group of loads (struct ilv): the block's streams where the lanes are
 * a vector apart, else each member's lanes by one of the member ways. */
static void ilv_load(struct gen *g, struct mfacts *f, uint32_t pc) {
  struct ilv *v = &g->ilv;
  LLVMValueRef p, whole = ilv_check(g, f, pc, &p);
  LLVMValueRef ways[2] = {contiguous(g, f, v->n), /* here, where later accesses see it */
                          LLVMBuildICmp(g->b, LLVMIntEQ, f->minoff, f->maxoff, "")};
  if (g->k->private_size) /* each lane's private frame is its own */
    ways[1] = LLVMBuildAnd(
        g->b, ways[1], LLVMBuildICmp(g->b, LLVMIntNE, f->space, c64(g, LSI_SPACE_PRIVATE), ""), "");
  LLVMBasicBlockRef in[4] = {block(g), block(g), block(g), block(g)}, join = block(g);
  LLVMBuildCondBr(g->b, whole, in[0], in[1]);
  LLVMValueRef s[4][ILV_MAX_K];
  LLVMPositionBuilderAtEnd(g->b, in[0]);
  ilv_block(g, p, s[0]);
  in[0] = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, join);
  for (int w = MEMBER_VECTOR; w <= MEMBER_SPREAD; w++) {
    LLVMPositionBuilderAtEnd(g->b, in[1 + w]);
    if (w < MEMBER_SPREAD) { /* this way, else the next */
      LLVMBasicBlockRef here = block(g);
      LLVMBuildCondBr(g->b, ways[w], here, in[2 + w]);
      LLVMPositionBuilderAtEnd(g->b, here);
    }
    for (unsigned j = 0; j < v->k; j++)
      s[1 + w][j] = v->have >> j & 1 ? member(g, f, j, NULL, (enum member_way)w)
                                     : LLVMGetPoison(LLVMTypeOf(s[0][j]));
    in[1 + w] = LLVMGetInsertBlock(g->b);
    LLVMBuildBr(g->b, join);
  }
  LLVMPositionBuilderAtEnd(g->b, join);
  for (unsigned j = 0; j < v->k; j++) {
    LLVMValueRef vals[4] = {s[0][j], s[1][j], s[2][j], s[3][j]};
    v->stream[j] = LLVMBuildPhi(g->b, LLVMTypeOf(s[0][j]), "");
    LLVMAddIncoming(v->stream[j], vals, in, 4);
  }
}

/* The chunks (c elements each, W * k / c of them) of the block whose
 * element j of lane i (at i * k + j) is lane i of s[first + gap * j]:
 * split_streams undone, the two halves' chunks interleaved pairwise. */
static void merge_streams(struct gen *g, LLVMValueRef *s, unsigned c, unsigned k, unsigned first,
                          unsigned gap, LLVMValueRef *out) {
  LLVMValueRef idx[SIMT_MAX_W];
  if (k == 1) {
    for (unsigned j = 0; j < g->W / c; j++) {
      for (unsigned i = 0; i < c; i++)
        idx[i] = c32(g, j * c + i);
      out[j] = c == g->W
                   ? s[first]
                   : LLVMBuildShuffleVector(g->b, s[first], LLVMGetPoison(LLVMTypeOf(s[first])),
                                            LLVMConstVector(idx, c), "");
    }
    return;
  }
  LLVMValueRef a[ILV_MAX_CHUNKS / 2], b[ILV_MAX_CHUNKS / 2];
  merge_streams(g, s, c, k / 2, first, 2 * gap, a);
  merge_streams(g, s, c, k / 2, first + gap, 2 * gap, b);
  for (unsigned half = 0; half < 2; half++) {
    for (unsigned i = 0; i < c; i++)
      idx[i] = c32(g, (i % 2 ? c : 0) + half * c / 2 + i / 2);
    for (unsigned j = 0; j < g->W * k / c / 2; j++)
      out[2 * j + half] = LLVMBuildShuffleVector(g->b, a[j], b[j], LLVMConstVector(idx, c), "");
  }
}

/* A group of stores (struct ilv): where the lanes are a vector apart, the
 * members' values interleaved into the block, stored a register at a
 * time (in the masked variant, the active lanes' elements only), else
 * each member in order by one of the member ways. */
static void ilv_store(struct gen *g, struct mfacts *f, uint32_t pc) {
  const struct ilv *v = &g->ilv;
  LLVMTypeRef vt = LLVMVectorType(LLVMIntTypeInContext(g->c, v->n * 8), g->W);
  LLVMValueRef val[ILV_MAX_K];
  for (unsigned j = 0; j < v->k; j++)
    val[j] = LLVMGetPoison(vt);
  for (uint32_t q = v->first; q <= v->last; q++) /* read here, where later reads see them */
    val[(g->k->code[q].imm - v->imm0) / (int64_t)v->n] =
        LLVMBuildTrunc(g->b, row(g, g->k->code[q].b), vt, "");
  LLVMValueRef p, whole = ilv_check(g, f, pc, &p);
  LLVMValueRef contig = contiguous(g, f, v->n); /* here, where later accesses see it */
  LLVMBasicBlockRef blk = block(g), sc = block(g), join = block(g);
  LLVMBuildCondBr(g->b, whole, blk, sc);
  LLVMPositionBuilderAtEnd(g->b, blk);
  unsigned c = chunk_len(g), nch = g->W * v->k / c;
  LLVMValueRef ch[ILV_MAX_CHUNKS], lanes = g->full ? NULL : act_vec(g);
  merge_streams(g, val, c, v->k, 0, 1, ch);
  for (unsigned j = 0; j < nch; j++)
    chunk(g, p, j, lanes, ch[j]);
  LLVMBuildBr(g->b, join);
  LLVMBasicBlockRef way[2] = {block(g), block(g)};
  LLVMPositionBuilderAtEnd(g->b, sc);
  LLVMBuildCondBr(g->b, contig, way[0], way[1]);
  for (int w = 0; w < 2; w++) { /* in the members' order */
    LLVMPositionBuilderAtEnd(g->b, way[w]);
    for (uint32_t q = v->first; q <= v->last; q++) {
      unsigned j = (unsigned)((g->k->code[q].imm - v->imm0) / (int64_t)v->n);
      member(g, f, j, val[j], w ? MEMBER_SPREAD : MEMBER_VECTOR);
    }
    LLVMBuildBr(g->b, join);
  }
  LLVMPositionBuilderAtEnd(g->b, join);
}

/* A group member's lanes, as the group loaded them. */
static LLVMValueRef ilv_take(struct gen *g, int64_t imm) {
  const struct ilv *v = &g->ilv;
  return v->stream[(imm - v->imm0) / (int64_t)v->n];
}

/* One segment's lanes out of memory at p: s consecutive elements, or
 * (one) one element for all. */
static LLVMValueRef seg_part(struct gen *g, LLVMValueRef p, LLVMTypeRef et, unsigned s, unsigned n,
                             bool one) {
  LLVMTypeRef st = LLVMVectorType(et, s);
  if (!one) return load(g, st, p, n);
  LLVMValueRef e =
      LLVMBuildInsertElement(g->b, LLVMGetPoison(st), load(g, et, p, n), c32(g, 0), "");
  return LLVMBuildShuffleVector(g->b, e, LLVMGetPoison(st),
                                LLVMConstNull(LLVMVectorType(g->i32, s)), "");
}

/* A load of the whole warp whose lanes run in segments of s lanes (rows
 * of a work-group narrower than the warp), each segment's lanes at
 * consecutive elements or all at one: a vector load (or one element) per
 * segment then replaces the gather. Adds the value and its block to the
 * incoming of done where the lanes are so; the builder goes on where
 * they are not. off: the lanes' offsets, all checked. */
static void seg_load(struct gen *g, struct mfacts *f, LLVMValueRef off, unsigned s, LLVMTypeRef vt,
                     unsigned n, LLVMBasicBlockRef done, LLVMValueRef *val, LLVMBasicBlockRef *from,
                     unsigned *nin) {
  LLVMValueRef one, ok;
  if (f->seg && s == g->W / 2 && f->step == n && !g->k->private_size)
    ok = f->seg, one = f->seg_one; /* the facts asked already */
  else
    ok = segments(g, off, s, n, &one);
  LLVMBasicBlockRef yes = block(g), no = block(g), blk[2] = {block(g), block(g)};
  LLVMBuildCondBr(g->b, ok, yes, no);
  LLVMPositionBuilderAtEnd(g->b, yes);
  LLVMBuildCondBr(g->b, one, blk[1], blk[0]);
  LLVMValueRef parts[SIMT_MAX_W];
  unsigned np = g->W / s;
  for (int k = 0; k < 2; k++) {
    LLVMPositionBuilderAtEnd(g->b, blk[k]);
    for (unsigned j = 0; j < np; j++) {
      LLVMValueRef o = LLVMBuildExtractElement(g->b, off, c32(g, j * s), "");
      parts[j] = seg_part(g, LLVMBuildGEP2(g->b, g->i8, f->base, &o, 1, ""), LLVMGetElementType(vt),
                          s, n, k);
    }
    val[*nin] = concat(g, parts, np, s), from[(*nin)++] = blk[k];
    LLVMBuildBr(g->b, done);
  }
  LLVMPositionBuilderAtEnd(g->b, no);
}

/* n lanes of type t's element type, each v */
static LLVMValueRef lanes_of(LLVMTypeRef t, unsigned n, uint64_t v) {
  LLVMValueRef e[SIMT_MAX_W];
  for (unsigned i = 0; i < n; i++)
    e[i] = LLVMConstInt(LLVMGetElementType(t), v, 0);
  return LLVMConstVector(e, n);
}

/* Elements pick[i] (of two registers' worth, a then b) of the 512-bit
 * registers a and b, e-bit elements: one permute instruction. */
static LLVMValueRef permute2(struct gen *g, unsigned e, LLVMValueRef a, LLVMValueRef pick,
                             LLVMValueRef b) {
  LLVMValueRef args[3] = {a, pick, b};
  return intrinsic(
      g, e == 32 ? "llvm.x86.avx512.vpermi2var.d.512" : "llvm.x86.avx512.vpermi2var.q.512", NULL, 0,
      args, 3);
}

/* A load whose active lanes fall in a window of 2 * W elements of n bytes
 * (4 or 8) from the least offset, within the allocation: two vector
 * loads' worth of elements, and the lanes' elements picked out of them
 * by permutes of 512-bit register pairs - where a gather would take an
 * element at a time (strided and butterfly accesses to local memory).
 * The lanes of the window are read only to be dropped. Adds the value
 * and its block to done's incoming where the lanes are so; the builder
 * goes on where they are not. off: the lanes' offsets, all checked. */
static void window_load(struct gen *g, struct mfacts *f, LLVMValueRef off, int64_t imm, unsigned n,
                        LLVMBasicBlockRef done, LLVMValueRef *val, LLVMBasicBlockRef *from,
                        unsigned *nin) {
  unsigned e = n * 8, L = 512 / e, W2 = 2 * g->W, nch = W2 / L, G = g->W < L ? 1 : g->W / L;
  LLVMTypeRef et = LLVMIntTypeInContext(g->c, e), lt = LLVMVectorType(et, L);
  LLVMValueRef lo = LLVMBuildAdd(g->b, f->minoff, c64(g, (uint64_t)imm), "");
  LLVMValueRef span = LLVMBuildSub(g->b, f->maxoff, f->minoff, "");
  LLVMValueRef ok = LLVMBuildICmp(g->b, LLVMIntULT, span, c64(g, (uint64_t)W2 * n), "");
  LLVMValueRef end = LLVMBuildAdd(g->b, lo, c64(g, (uint64_t)W2 * n), "");
  ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntSLE, end, f->limit, ""), "");
  if (g->k->private_size) /* private offsets are in per-lane frames, not one window */
    ok = LLVMBuildAnd(g->b, ok,
                      LLVMBuildICmp(g->b, LLVMIntNE, f->space, c64(g, LSI_SPACE_PRIVATE), ""), "");
  LLVMBasicBlockRef yes = block(g), no = block(g);
  LLVMBuildCondBr(g->b, ok, yes, no);
  LLVMPositionBuilderAtEnd(g->b, yes);
  LLVMValueRef win =
      load(g, LLVMVectorType(et, W2), LLVMBuildGEP2(g->b, g->i8, f->base, &lo, 1, ""), n);
  LLVMValueRef ch[2 * SIMT_MAX_W / 8], idx[2 * SIMT_MAX_W];
  for (unsigned c = 0; c < nch; c++) {
    for (unsigned i = 0; i < L; i++)
      idx[i] = c32(g, c * L + i);
    ch[c] = LLVMBuildShuffleVector(g->b, win, LLVMGetPoison(LLVMTypeOf(win)),
                                   LLVMConstVector(idx, L), "");
  }
  if (nch == 1) ch[1] = ch[0];
  /* each lane's element in the window */
  LLVMValueRef pick =
      LLVMBuildLShr(g->b, LLVMBuildSub(g->b, off, splat(g, lo), ""), vc64(g, n == 4 ? 2 : 3), "");
  if (e == 32) pick = LLVMBuildTrunc(g->b, pick, LLVMVectorType(g->i32, g->W), "");
  LLVMValueRef parts[SIMT_MAX_W];
  for (unsigned h = 0; h < G; h++) {
    for (unsigned i = 0; i < L; i++) /* lanes past W (where W < L) pick element 0 */
      idx[i] = c32(g, h * L + i < g->W ? h * L + i : g->W);
    LLVMValueRef p = LLVMBuildShuffleVector(g->b, pick, LLVMConstNull(LLVMTypeOf(pick)),
                                            LLVMConstVector(idx, L), "");
    LLVMValueRef r = permute2(g, e, ch[0], p, ch[1]);
    /* the pair of registers each lane's element is in: p / (2 L) */
    LLVMValueRef pair =
        nch > 2 ? LLVMBuildLShr(g->b, p, lanes_of(lt, L, L == 16 ? 5 : 4), "") : NULL;
    for (unsigned q = 1; 2 * q < nch; q++) {
      LLVMValueRef in_q = LLVMBuildICmp(g->b, LLVMIntEQ, pair, lanes_of(lt, L, q), "");
      r = LLVMBuildSelect(g->b, in_q, permute2(g, e, ch[2 * q], p, ch[2 * q + 1]), r, "");
    }
    parts[h] = r;
  }
  LLVMValueRef v = concat(g, parts, G, L);
  if (G * L > g->W) {
    for (unsigned i = 0; i < g->W; i++)
      idx[i] = c32(g, i);
    v = LLVMBuildShuffleVector(g->b, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(idx, g->W),
                               "");
  }
  val[*nin] = v, from[(*nin)++] = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, done);
  LLVMPositionBuilderAtEnd(g->b, no);
}

/* The active lanes' n bytes each to the bytes loaded or stored in f's
 * address space. */
static void count_bytes(struct gen *g, struct mfacts *f, bool st, unsigned n) {
  size_t arr =
      st ? offsetof(struct native_count, st_bytes) : offsetof(struct native_count, ld_bytes);
  LLVMValueRef slot = LLVMBuildAdd(
      g->b, c64(g, arr),
      LLVMBuildMul(g->b, LLVMBuildAnd(g->b, f->space, c64(g, 7), ""), c64(g, 8), ""), "");
  LLVMValueRef sp = LLVMBuildGEP2(g->b, g->i8, g->cnt, &slot, 1, "");
  store(g,
        LLVMBuildAdd(g->b, load(g, g->i64, sp, 8),
                     LLVMBuildMul(g->b, popcount(g, act(g)), c64(g, n), ""), ""),
        sp, 8);
}

/* A load or store, checked like simt_mem: every active lane in the
 * allocation of the first active lane, in bounds and aligned, else the
 * interpreter makes (and reports) the access. A group of them (struct
 * ilv) is checked and made at its first; otherwise contiguous lanes are
 * one vector access (masked in the masked variant), rows of a 2-D
 * work-group one per row (seg_load), a window's lanes two vector loads
 * and permutes (window_load), others a gather or scatter. */
bool native_gen_mem(struct gen *g, const lsi_insn *ip, uint32_t pc) {
  bool st = ip->op >= LSI_ST8 && ip->op <= LSI_ST64;
  if (!st && !(ip->op >= LSI_LD8 && ip->op <= LSI_LD64)) return false;
  unsigned n = lsi_mem_size(ip->op);
  int64_t imm = ip->imm;
  if (imm <= -(INT64_C(1) << LSI_ADDR_ID_SHIFT) || imm >= INT64_C(1) << LSI_ADDR_ID_SHIFT)
    return false; /* no allocation is that large: the interpreter reports it */
  LLVMTypeRef et = LLVMIntTypeInContext(g->c, n * 8), vt = LLVMVectorType(et, g->W);
  /* a group of loads or stores: its first access checks and makes all */
  if ((!g->ilv.k || pc > g->ilv.last) && ilv_group(g, pc, &g->ilv)) {
    struct mfacts *f = facts(g, ip->a, st, g->ilv.k * n);
    if (st)
      ilv_store(g, f, pc);
    else
      ilv_load(g, f, pc);
  }
  if (g->ilv.k && pc >= g->ilv.first && pc <= g->ilv.last) {
    count_bytes(g, facts(g, ip->a, st, n), st, n); /* before the base may change */
    if (st)
      add_to(g, offsetof(struct native_count, epoch), c64(g, 1));
    else
      set_row(g, ip->d, LLVMBuildZExt(g->b, ilv_take(g, imm), g->v64, ""));
    return true;
  }
  struct mfacts *f = facts(g, ip->a, st, n);
  LLVMBasicBlockRef done = block(g);
  LLVMValueRef contig = contiguous(g, f, n); /* here, where the next access sees it */
  LLVMValueRef ok = in_bounds(g, f, imm, n, n);
  LLVMBasicBlockRef slow = block(g), fast = block(g);
  LLVMBuildCondBr(g->b, ok, fast, slow);
  LLVMPositionBuilderAtEnd(g->b, slow);
  leave(g, pc);
  LLVMPositionBuilderAtEnd(g->b, fast);
  LLVMValueRef lane_off = LLVMBuildAdd(g->b, f->lane_off, vc64(g, (uint64_t)imm), "");
  LLVMValueRef ptrs = LLVMBuildGEP2(g->b, g->i8, f->base, &lane_off, 1, "");
  LLVMValueRef mask = act_vec(g);
  LLVMValueRef val = st ? LLVMBuildTrunc(g->b, row(g, ip->b), vt, "") : NULL, v1 = NULL, v2 = NULL;
  LLVMValueRef off0 = LLVMBuildAdd(g->b, LLVMBuildExtractElement(g->b, f->off, c32(g, 0), ""),
                                   c64(g, (uint64_t)imm), "");
  LLVMBasicBlockRef vec = block(g), sg = block(g);
  LLVMBuildCondBr(g->b, contig, vec, sg);
  LLVMPositionBuilderAtEnd(g->b, vec);
  LLVMValueRef p0 = LLVMBuildGEP2(g->b, g->i8, f->base, &off0, 1, "");
  if (g->full) {
    if (st)
      store(g, val, p0, n);
    else
      v1 = load(g, vt, p0, n);
  } else { /* only the active lanes' elements, which are checked, are touched */
    v1 = masked_mem(g, vt, p0, false, act_vec(g), val, n);
  }
  vec = LLVMGetInsertBlock(g->b); /* masked_mem's loop ends in a block of its own */
  LLVMBuildBr(g->b, done);
  LLVMPositionBuilderAtEnd(g->b, sg);
  /* one way each: vector, 2 x 2 segment loads, window, gather */
  LLVMValueRef vals[8] = {v1};
  LLVMBasicBlockRef from[8] = {vec};
  unsigned nin = 1;
  /* segments of half and of a quarter of the warp */
  for (unsigned s = g->W / 2; !st && g->full && s >= 4 && s >= g->W / 4; s /= 2)
    seg_load(g, f, lane_off, s, vt, n, done, vals, from, &nin);
  /* at most 8 registers' window: more permutes and selects would cost
   * what the gather does */
  if (!st && g->permute && (n == 4 || n == 8) && g->W * n >= 32 && g->W * n <= 256)
    window_load(g, f, lane_off, imm, n, done, vals, from, &nin);
  v2 = masked_mem(g, vt, ptrs, true, mask, val, n);
  vals[nin] = v2, from[nin++] = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, done);
  LLVMPositionBuilderAtEnd(g->b, done);
  if (!st) {
    LLVMValueRef phi = LLVMBuildPhi(g->b, vt, "");
    LLVMAddIncoming(phi, vals, from, nin);
    set_row(g, ip->d, LLVMBuildZExt(g->b, phi, g->v64, ""));
  } else {
    add_to(g, offsetof(struct native_count, epoch), c64(g, 1));
  }
  count_bytes(g, f, st, n);
  return true;
}
