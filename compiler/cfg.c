/*
 * cfg.c - control-flow analysis of one kernel for the divergence rules of
 * seed 004: dominators, immediate post-dominators (with a virtual exit),
 * natural loops, and the reconvergence "sites" (where an SSY is pushed and
 * which SYNC at the post-dominator pops it).
 *
 * It reads the IR's CFG only; it emits no code and allocates no registers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_int.h"

static uint64_t *bits_new(unsigned words) {
  return calloc(words ? words : 1, sizeof(uint64_t));
}
static void bit_set(uint64_t *s, unsigned i) {
  s[i / 64] |= UINT64_C(1) << (i % 64);
}
static unsigned bits_count(const uint64_t *s, unsigned words) {
  unsigned n = 0;
  for (unsigned i = 0; i < words; i++)
    n += (unsigned)__builtin_popcountll(s[i]);
  return n;
}

int cc_cfg_block_index(const struct xl_cfg *g, LLVMBasicBlockRef bb) {
  for (unsigned i = 0; i < g->nblocks; i++)
    if (g->b[i].bb == bb) return (int)i;
  return -1;
}

/* Cooper, Harvey and Kennedy's iterative dominator algorithm over an order
 * (order[0] is the root) with predecessor lists given by pred/npred. */
static void dominators(unsigned n, const int *order, unsigned norder, const int *num,
                       unsigned *const *pred, const unsigned *npred, int *idom) {
  for (unsigned i = 0; i < n; i++)
    idom[i] = -1;
  idom[order[0]] = order[0];
  int changed = 1;
  while (changed) {
    changed = 0;
    for (unsigned k = 1; k < norder; k++) {
      int b = order[k], nd = -1;
      for (unsigned j = 0; j < npred[b]; j++) {
        int p = (int)pred[b][j];
        if (idom[p] < 0) continue;
        if (nd < 0) {
          nd = p;
          continue;
        }
        int f1 = p, f2 = nd;
        while (f1 != f2) {
          while (num[f1] > num[f2])
            f1 = idom[f1];
          while (num[f2] > num[f1])
            f2 = idom[f2];
        }
        nd = f1;
      }
      if (nd >= 0 && idom[b] != nd) {
        idom[b] = nd;
        changed = 1;
      }
    }
  }
}

/* Post-order DFS from root following adj; fills order with reverse post-order
 * and num[i] = position (or -1 when unreached). */
static unsigned rpo(unsigned n, int root, unsigned *const *adj, const unsigned *nadj, int *order,
                    int *num) {
  int *stack = malloc(sizeof(int) * (n + 1)), *it = calloc(n + 1, sizeof(int));
  char *seen = calloc(n + 1, 1);
  int *post = malloc(sizeof(int) * (n + 1));
  unsigned np = 0, sp = 0;
  stack[sp++] = root;
  seen[root] = 1;
  while (sp) {
    int b = stack[sp - 1];
    if ((unsigned)it[b] < nadj[b]) {
      int s = (int)adj[b][it[b]++];
      if (!seen[s]) {
        seen[s] = 1;
        stack[sp++] = s;
      }
    } else {
      post[np++] = b;
      sp--;
    }
  }
  for (unsigned i = 0; i < n; i++)
    num[i] = -1;
  for (unsigned i = 0; i < np; i++) {
    order[i] = post[np - 1 - i];
    num[order[i]] = (int)i;
  }
  free(stack);
  free(it);
  free(seen);
  free(post);
  return np;
}

static int dominates(const int *idom, int a, int b) {
  /* does a dominate b? */
  while (b >= 0) {
    if (a == b) return 1;
    if (idom[b] == b) return 0;
    b = idom[b];
  }
  return 0;
}

int cc_cfg_is_back_edge(const struct xl_cfg *g, int from, int to) {
  if (g->b[to].is_header < 0) return 0;
  const struct xl_loop *l = &g->loops[g->b[to].is_header];
  return cc_bit(l->blocks, (unsigned)from);
}

/* Blocks reachable from start without passing post, restricted to blocks
 * dominated by dom. */
static uint64_t *region(struct xl_cfg *g, int start, int post, int dom, const int *idom) {
  uint64_t *r = bits_new(g->words);
  int *stack = malloc(sizeof(int) * (g->nblocks + 1));
  unsigned sp = 0;
  if (start != post) {
    stack[sp++] = start;
    bit_set(r, (unsigned)start);
  }
  while (sp) {
    int b = stack[--sp];
    for (unsigned j = 0; j < g->b[b].nsucc; j++) {
      int s = (int)g->b[b].succ[j];
      if (s == post || cc_bit(r, (unsigned)s) || !dominates(idom, dom, s)) continue;
      bit_set(r, (unsigned)s);
      stack[sp++] = s;
    }
  }
  free(stack);
  return r;
}

int cc_cfg_site_for_edge(const struct xl_cfg *g, int from, int post) {
  int best = -1;
  unsigned best_n = ~0u;
  for (uint32_t s1 = g->b[post].first_site; s1; s1 = g->sites[s1 - 1].next_site) {
    const struct xl_site *s = &g->sites[s1 - 1];
    /* the branch block's own edges to post carry its sync too */
    if (!cc_bit(s->region, (unsigned)from) && s->block != from) continue;
    unsigned n = bits_count(s->region, g->words);
    if (n < best_n) {
      best_n = n;
      best = (int)(s1 - 1);
    }
  }
  return best;
}

/* ---- loops whose trip count is known at compile time ----
 *
 * Such a loop cannot spin, so its back edge needs no YIELD. The rule is
 * deliberately simple and sound: some exiting block E, which every latch
 * passes through, ends in `br (icmp X, K)` with K a constant, X the header
 * phi i (or i + constant), i starting at one constant and stepped by one
 * constant on every back edge. The values i takes are then fixed, and the
 * loop is counted when simulating them (with the width's wrap-around) takes
 * the exit within COUNTED_MAX iterations. Anything else keeps its YIELD. */
#define COUNTED_MAX 65536u

static int icmp_eval(LLVMIntPredicate p, uint64_t a, uint64_t b, unsigned w) {
  int64_t sa = (int64_t)a, sb = (int64_t)b;
  if (w < 64) {
    sa = (int64_t)(a << (64 - w)) >> (64 - w);
    sb = (int64_t)(b << (64 - w)) >> (64 - w);
  }
  switch (p) {
  case LLVMIntEQ: return a == b;
  case LLVMIntNE: return a != b;
  case LLVMIntUGT: return a > b;
  case LLVMIntUGE: return a >= b;
  case LLVMIntULT: return a < b;
  case LLVMIntULE: return a <= b;
  case LLVMIntSGT: return sa > sb;
  case LLVMIntSGE: return sa >= sb;
  case LLVMIntSLT: return sa < sb;
  case LLVMIntSLE: return sa <= sb;
  }
  return 0;
}

static LLVMIntPredicate icmp_swap(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntUGT: return LLVMIntULT;
  case LLVMIntUGE: return LLVMIntULE;
  case LLVMIntULT: return LLVMIntUGT;
  case LLVMIntULE: return LLVMIntUGE;
  case LLVMIntSGT: return LLVMIntSLT;
  case LLVMIntSGE: return LLVMIntSLE;
  case LLVMIntSLT: return LLVMIntSGT;
  case LLVMIntSLE: return LLVMIntSGE;
  default: return p;
  }
}

/* v is `add base, C` with C a constant: returns base and sets *c. */
static LLVMValueRef add_const(LLVMValueRef v, uint64_t *c) {
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != LLVMAdd) return NULL;
  LLVMValueRef k = LLVMGetOperand(v, 1);
  if (!LLVMIsAConstantInt(k)) return NULL;
  *c = LLVMConstIntGetZExtValue(k);
  return LLVMGetOperand(v, 0);
}

static int counted_exit(const struct xl_cfg *g, const struct xl_loop *L, LLVMValueRef cmp,
                        int exit_when) {
  LLVMValueRef x = LLVMGetOperand(cmp, 0), k = LLVMGetOperand(cmp, 1);
  LLVMIntPredicate pred = LLVMGetICmpPredicate(cmp);
  if (LLVMIsAConstantInt(x)) {
    LLVMValueRef t = x;
    x = k;
    k = t;
    pred = icmp_swap(pred);
  }
  if (!LLVMIsAConstantInt(k) || LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMIntegerTypeKind) return 0;
  unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(x));
  if (w == 0 || w > 64) return 0;
  uint64_t mask = w == 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1, off = 0;
  LLVMValueRef phi = x;
  if (!LLVMIsAPHINode(phi)) phi = add_const(x, &off);
  if (!phi || !LLVMIsAPHINode(phi) || LLVMGetInstructionParent(phi) != g->b[L->header].bb) return 0;
  uint64_t start = 0, step = 0;
  int have_start = 0, have_step = 0;
  for (unsigned j = 0, nin = LLVMCountIncoming(phi); j < nin; j++) {
    LLVMValueRef v = LLVMGetIncomingValue(phi, j);
    int from = cc_cfg_block_index(g, LLVMGetIncomingBlock(phi, j));
    if (from < 0) return 0;
    uint64_t c;
    if (cc_bit(L->blocks, (unsigned)from)) {
      if (add_const(v, &c) != phi || (have_step && c != step)) return 0;
      step = c;
      have_step = 1;
    } else {
      if (!LLVMIsAConstantInt(v)) return 0;
      c = LLVMConstIntGetZExtValue(v);
      if (have_start && c != start) return 0;
      start = c;
      have_start = 1;
    }
  }
  if (!have_start || !have_step) return 0;
  uint64_t kv = LLVMConstIntGetZExtValue(k) & mask, i = start & mask;
  for (unsigned n = 0; n < COUNTED_MAX; n++) {
    if (icmp_eval(pred, (i + off) & mask, kv, w) == exit_when) return 1;
    i = (i + step) & mask;
  }
  return 0;
}

static int loop_is_counted(const struct xl_cfg *g, const struct xl_loop *L, const int *idom) {
  const struct xl_block *h = &g->b[L->header];
  for (unsigned e = 0; e < g->nblocks; e++) {
    if (!cc_bit(L->blocks, e)) continue;
    LLVMValueRef br = LLVMGetBasicBlockTerminator(g->b[e].bb);
    if (!br || LLVMGetInstructionOpcode(br) != LLVMBr || !LLVMIsConditional(br)) continue;
    LLVMValueRef cmp = LLVMGetCondition(br);
    if (!LLVMIsAICmpInst(cmp)) continue;
    int s0 = cc_cfg_block_index(g, LLVMGetSuccessor(br, 0));
    int s1 = cc_cfg_block_index(g, LLVMGetSuccessor(br, 1));
    if (s0 < 0 || s1 < 0) continue;
    int out0 = !cc_bit(L->blocks, (unsigned)s0), out1 = !cc_bit(L->blocks, (unsigned)s1);
    if (out0 == out1) continue;
    int every = 1;
    for (unsigned j = 0; j < h->npred; j++)
      if (cc_bit(L->blocks, h->pred[j]) && !dominates(idom, (int)e, (int)h->pred[j])) every = 0;
    if (every && counted_exit(g, L, cmp, out0)) return 1;
  }
  return 0;
}

int cc_cfg_build(struct xl_cfg *g, LLVMValueRef fn, char *err, size_t errlen) {
  memset(g, 0, sizeof(*g));
  unsigned n = LLVMCountBasicBlocks(fn);
  g->nblocks = n;
  g->words = (n + 1 + 63) / 64;
  g->b = calloc(n + 1, sizeof(struct xl_block));
  unsigned i = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    g->b[i++].bb = bb;
  /* successors (deduplicated) and predecessors */
  for (i = 0; i < n; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->b[i].bb);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    g->b[i].succ = calloc(ns + 1, sizeof(unsigned));
    for (unsigned j = 0; j < ns; j++) {
      int s = cc_cfg_block_index(g, LLVMGetSuccessor(t, j)), dup = 0;
      for (unsigned k = 0; k < g->b[i].nsucc; k++)
        dup |= g->b[i].succ[k] == (unsigned)s;
      if (!dup && s >= 0) g->b[i].succ[g->b[i].nsucc++] = (unsigned)s;
    }
  }
  for (i = 0; i < n; i++)
    g->b[i].pred = calloc(n + 1, sizeof(unsigned));
  for (i = 0; i < n; i++)
    for (unsigned j = 0; j < g->b[i].nsucc; j++) {
      struct xl_block *s = &g->b[g->b[i].succ[j]];
      s->pred[s->npred++] = i;
    }
  /* dominators */
  unsigned **succ = calloc(n + 1, sizeof(unsigned *)), **pred = calloc(n + 1, sizeof(unsigned *));
  unsigned *nsucc = calloc(n + 1, sizeof(unsigned)), *npred = calloc(n + 1, sizeof(unsigned));
  for (i = 0; i < n; i++) {
    succ[i] = g->b[i].succ;
    nsucc[i] = g->b[i].nsucc;
    pred[i] = g->b[i].pred;
    npred[i] = g->b[i].npred;
  }
  int *order = malloc(sizeof(int) * (n + 1)), *num = malloc(sizeof(int) * (n + 1));
  int *idom = malloc(sizeof(int) * (n + 1)), *ipdom = malloc(sizeof(int) * (n + 2));
  unsigned norder = rpo(n, 0, succ, nsucc, order, num);
  dominators(n, order, norder, num, pred, npred, idom);
  for (i = 0; i < n; i++)
    g->b[i].rpo = num[i];
  /* post-dominators: the reverse graph rooted at a virtual exit (index n) */
  unsigned *exits = calloc(n + 1, sizeof(unsigned)), nexits = 0;
  for (i = 0; i < n; i++)
    if (g->b[i].nsucc == 0) exits[nexits++] = i;
  unsigned **rs = malloc(sizeof(unsigned *) * (n + 1)), **rp = malloc(sizeof(unsigned *) * (n + 1));
  unsigned *nrs = calloc(n + 1, sizeof(unsigned)), *nrp = calloc(n + 1, sizeof(unsigned));
  unsigned **exit_pred = calloc(n + 1, sizeof(unsigned *));
  for (i = 0; i < n; i++) {
    rs[i] = g->b[i].pred;
    nrs[i] = g->b[i].npred;
    rp[i] = g->b[i].succ;
    nrp[i] = g->b[i].nsucc;
    if (g->b[i].nsucc == 0) {
      exit_pred[i] = malloc(sizeof(unsigned));
      exit_pred[i][0] = n;
      rp[i] = exit_pred[i];
      nrp[i] = 1;
    }
  }
  rs[n] = exits;
  nrs[n] = nexits;
  rp[n] = NULL;
  int *porder = malloc(sizeof(int) * (n + 2)), *pnum = malloc(sizeof(int) * (n + 2));
  unsigned npo = rpo(n + 1, (int)n, rs, nrs, porder, pnum);
  dominators(n + 1, porder, npo, pnum, rp, nrp, ipdom);
  for (i = 0; i < n; i++) {
    g->b[i].idom = (idom[i] == (int)i) ? -1 : idom[i];
    g->b[i].ipdom = (ipdom[i] < 0 || ipdom[i] == (int)n) ? -1 : ipdom[i];
    g->b[i].loop = -1;
    g->b[i].is_header = -1;
  }
  int rc = 0;
  /* natural loops */
  for (i = 0; i < n && !rc; i++) {
    if (num[i] < 0) continue;
    for (unsigned j = 0; j < g->b[i].nsucc; j++) {
      int h = (int)g->b[i].succ[j];
      if (num[h] > num[i]) continue; /* forward edge */
      if (!dominates(idom, h, (int)i)) {
        snprintf(err, errlen, "irreducible control flow (a loop with more than one entry)");
        rc = -1;
        break;
      }
      int li = g->b[h].is_header;
      if (li < 0) {
        g->loops = realloc(g->loops, sizeof(struct xl_loop) * (g->nloops + 1));
        li = (int)g->nloops++;
        memset(&g->loops[li], 0, sizeof(struct xl_loop));
        g->loops[li].header = h;
        g->loops[li].parent = -1;
        g->loops[li].blocks = bits_new(g->words);
        bit_set(g->loops[li].blocks, (unsigned)h);
        g->b[h].is_header = li;
      }
      /* everything reaching the latch i without passing h */
      uint64_t *body = g->loops[li].blocks;
      int *stack = malloc(sizeof(int) * (n + 1));
      unsigned sp = 0;
      if (!cc_bit(body, i)) {
        bit_set(body, i);
        stack[sp++] = (int)i;
      }
      while (sp) {
        int b = stack[--sp];
        for (unsigned k = 0; k < g->b[b].npred; k++) {
          int p = (int)g->b[b].pred[k];
          if (num[p] < 0 || cc_bit(body, (unsigned)p)) continue;
          bit_set(body, (unsigned)p);
          stack[sp++] = p;
        }
      }
      free(stack);
    }
  }
  /* nesting: a block's loop is the smallest containing it */
  for (unsigned l = 0; l < g->nloops; l++) {
    unsigned sz = bits_count(g->loops[l].blocks, g->words);
    for (i = 0; i < n; i++) {
      if (!cc_bit(g->loops[l].blocks, i)) continue;
      int cur = g->b[i].loop;
      if (cur < 0 || bits_count(g->loops[cur].blocks, g->words) > sz) g->b[i].loop = (int)l;
    }
  }
  for (unsigned l = 0; l < g->nloops; l++) {
    int h = g->loops[l].header, best = -1;
    unsigned bsz = ~0u, sz = bits_count(g->loops[l].blocks, g->words);
    for (unsigned m = 0; m < g->nloops; m++) {
      unsigned msz = bits_count(g->loops[m].blocks, g->words);
      if (m != l && cc_bit(g->loops[m].blocks, (unsigned)h) && msz > sz && msz < bsz) {
        bsz = msz;
        best = (int)m;
      }
    }
    g->loops[l].parent = best;
  }
  for (unsigned l = 0; l < g->nloops; l++) {
    int d = 0;
    for (int p = g->loops[l].parent; p >= 0; p = g->loops[p].parent)
      d++;
    g->loops[l].depth = d;
    g->loops[l].counted = loop_is_counted(g, &g->loops[l], idom);
  }
  /* reconvergence sites */
  for (i = 0; i < n && !rc; i++) {
    if (g->b[i].nsucc < 2 || num[i] < 0) continue;
    int post = g->b[i].ipdom;
    if (post < 0) continue; /* paths only meet at the kernel's exit: lanes finish apart */
    int hoist = -1;
    for (int l = g->b[i].loop; l >= 0; l = g->loops[l].parent) {
      if (cc_bit(g->loops[l].blocks, (unsigned)post)) break;
      hoist = l;
    }
    int found = 0;
    for (unsigned s = 0; s < g->nsites && !found; s++)
      found = hoist >= 0 && g->sites[s].loop == hoist && g->sites[s].post == post;
    if (found) continue;
    g->sites = realloc(g->sites, sizeof(struct xl_site) * (g->nsites + 1));
    struct xl_site *s = &g->sites[g->nsites++];
    memset(s, 0, sizeof(*s));
    s->block = hoist >= 0 ? -1 : (int)i;
    s->loop = hoist;
    s->post = post;
    s->parent = -1;
    int start = hoist >= 0 ? g->loops[hoist].header : (int)i;
    s->region = region(g, start, post, start, idom);
    if (hoist < 0) {
      /* the branch block itself is not part of its region unless re-reached */
      s->region[i / 64] &= ~(UINT64_C(1) << (i % 64));
      for (unsigned j = 0; j < g->b[i].nsucc; j++) {
        uint64_t *r2 = region(g, (int)g->b[i].succ[j], post, (int)i, idom);
        for (unsigned w = 0; w < g->words; w++)
          s->region[w] |= r2[w];
        free(r2);
      }
    }
  }
  /* per post: list, parents, back flags */
  for (unsigned s = 0; s < g->nsites; s++) {
    struct xl_site *st = &g->sites[s];
    st->next_site = g->b[st->post].first_site;
    g->b[st->post].first_site = s + 1;
    for (i = 0; i < n; i++)
      if (cc_bit(st->region, i))
        for (unsigned j = 0; j < g->b[i].nsucc; j++)
          if ((int)g->b[i].succ[j] == st->post && cc_cfg_is_back_edge(g, (int)i, st->post))
            st->back = 1;
  }
  for (unsigned s = 0; s < g->nsites; s++) {
    struct xl_site *st = &g->sites[s];
    int where = st->block >= 0 ? st->block : g->loops[st->loop].header;
    unsigned mysz = bits_count(st->region, g->words), bsz = ~0u;
    for (unsigned t = 0; t < g->nsites; t++) {
      const struct xl_site *o = &g->sites[t];
      if (t == s || o->post != st->post || !cc_bit(o->region, (unsigned)where)) continue;
      unsigned osz = bits_count(o->region, g->words);
      if ((osz > mysz || (osz == mysz && t < s)) && osz < bsz) {
        bsz = osz;
        st->parent = (int)t;
      }
    }
  }
  free(succ);
  free(pred);
  free(nsucc);
  free(npred);
  free(order);
  free(num);
  free(idom);
  free(ipdom);
  free(exits);
  free(rs);
  free(rp);
  free(nrs);
  free(nrp);
  for (i = 0; i <= n; i++)
    free(exit_pred[i]);
  free(exit_pred);
  free(porder);
  free(pnum);
  return rc;
}

void cc_cfg_free(struct xl_cfg *g) {
  for (unsigned i = 0; i < g->nblocks; i++) {
    free(g->b[i].succ);
    free(g->b[i].pred);
  }
  free(g->b);
  for (unsigned l = 0; l < g->nloops; l++)
    free(g->loops[l].blocks);
  free(g->loops);
  for (unsigned s = 0; s < g->nsites; s++)
    free(g->sites[s].region);
  free(g->sites);
  memset(g, 0, sizeof(*g));
}
