/*
 * native_live.c - which registers each instruction's result must be kept
 * for, in memory or a slot (native.h): the registers live after it.
 *
 * Every lane follows the kernel's control-flow graph, even while its warp
 * runs other lanes: a lane left behind by a branch resumes at the branch's
 * other successor, one at a barrier or yield at the next instruction, one
 * waiting for reconvergence at the join's target. So a register no path
 * from an instruction reads before writing it is dead there for every
 * lane, and the native code need not store it: the lanes that wrote it
 * never read it, and the others keep their old values (in memory, or in
 * the slot the masked variant keeps for every lane).
 */
#include <stdlib.h>
#include <string.h>

#include "device/builtins.h"
#include "device/native.h"

/* Adds the registers ip reads to set. */
static void each_use(const struct lsi_kernel *k, const lsi_insn *ip, uint64_t *set) {
#define USE(r) (set[(r) / 64] |= UINT64_C(1) << ((r) % 64))
  switch (lsi_op_format[ip->op]) {
  case FMT_RRRR:
  case FMT_ATOM: USE(ip->c); /* fall through */
  case FMT_RRR:
  case FMT_RRRI:
  case FMT_ST: USE(ip->b); /* fall through */
  case FMT_RR:
  case FMT_RRI:
  case FMT_LD:
  case FMT_BRP: USE(ip->a); break;
  case FMT_CALL:
    for (uint32_t j = 0; j < ip->b; j++)
      USE(k->arglist[ip->a + j]);
    break;
  default: break;
  }
  if (ip->op == LSI_TRAP) USE(ip->a);
  if (ip->op == LSI_MEMCPY || ip->op == LSI_MEMSET) USE(ip->d); /* an address */
#undef USE
}

/* The registers ip writes: first and count. */
static uint32_t defs(const lsi_insn *ip, uint32_t *first) {
  *first = ip->d;
  if (ip->op == LSI_CALLB) return lsi_builtins[ip->imm].nres;
  return (lsi_op_flags[ip->op] & F_WRITES_D) && ip->op != LSI_MEMCPY && ip->op != LSI_MEMSET;
}

/* The successors of pc (at most two). */
static unsigned succs(const struct lsi_kernel *k, uint32_t pc, uint32_t *s) {
  const lsi_insn *ip = &k->code[pc];
  uint32_t t = (uint32_t)ip->imm;
  switch (ip->op) {
  case LSI_BRA:
  case LSI_SYNC:
  case LSI_BRK:
  case LSI_CONT: s[0] = t; return 1;
  case LSI_BRA_P:
  case LSI_BRA_Z: s[0] = t, s[1] = pc + 1; return 2;
  case LSI_EXIT:
  case LSI_TRAP: return 0;
  default: s[0] = pc + 1; return 1;
  }
}

uint64_t *native_liveness(const struct lsi_kernel *k, size_t *words) {
  size_t nw = (k->nregs + 63) / 64, n = k->ninsns;
  uint64_t *out = calloc(2 * (n + 1) * nw, 8), *in = out + (n + 1) * nw;
  uint64_t *use = calloc(nw, 8);
  if (!out || !use) {
    free(out), free(use);
    return NULL;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t pc = n; pc-- > 0;) {
      uint64_t *o = out + pc * nw, *i = in + pc * nw;
      uint32_t s[2];
      unsigned ns = succs(k, (uint32_t)pc, s);
      for (unsigned j = 0; j < ns; j++)
        if (s[j] <= n)
          for (size_t w = 0; w < nw; w++)
            o[w] |= in[s[j] * nw + w];
      /* in = use | (out - def) */
      memset(use, 0, nw * 8);
      each_use(k, &k->code[pc], use);
      uint32_t d0, nd = defs(&k->code[pc], &d0);
      for (size_t w = 0; w < nw; w++) {
        uint64_t keep = o[w];
        for (uint32_t r = d0; r < d0 + nd; r++)
          if (r / 64 == w) keep &= ~(UINT64_C(1) << (r % 64));
        uint64_t v = use[w] | keep;
        if (v != i[w]) i[w] = v, changed = true;
      }
    }
  }
  free(use);
  *words = nw;
  return out;
}

/* Whether register r holds (an element of) one of k's arguments. */
static bool is_arg(const struct lsi_kernel *k, uint32_t r) {
  for (uint32_t j = 0; j < k->nargs; j++) {
    const struct lsi_arg *a = &k->args[j];
    uint32_t n = a->kind == LSI_ARG_VALUE ? a->nregs : 1;
    if (r >= a->reg && r - a->reg < n) return true;
  }
  return false;
}

bool native_rows_fixed(const struct lsi_kernel *k, const uint8_t *uni) {
  bool fixed = true;
  for (uint32_t r = 0; fixed && r < k->nregs; r++)
    fixed = uni[r] != NATIVE_ROW_LANES || (r >= k->nconst && !is_arg(k, r));
  return fixed;
}

uint8_t *native_uniform_rows(const struct lsi_kernel *k) {
  uint8_t *u = calloc(k->nregs + 1, 1);
  if (!u) return NULL;
  for (uint32_t r = 0; r < k->nregs; r++)
    u[r] = is_arg(k, r) || (r < k->nconst && k->consts[r].reloc == LSI_CONST_DATA)
               ? NATIVE_ROW_SPLAT /* an argument is written over a constant's row */
           : r < k->nconst ? NATIVE_ROW_CONST
                           : NATIVE_ROW_LANES;
  for (uint32_t pc = 0; pc < k->ninsns; pc++) {
    uint32_t d0, nd = defs(&k->code[pc], &d0);
    for (uint32_t r = d0; r < d0 + nd && r < k->nregs; r++)
      u[r] = NATIVE_ROW_LANES; /* written: its lanes may differ */
  }
  return u;
}

/* Whether an instruction in [from, to] ends the warp's slice every time
 * it runs (a barrier, a work-group function, an exit). */
static bool ends_slice(const struct lsi_kernel *k, uint32_t from, uint32_t to) {
  for (uint32_t pc = from; pc <= to; pc++) {
    const lsi_insn *ip = &k->code[pc];
    if (ip->op == LSI_BAR || ip->op == LSI_EXIT ||
        (ip->op == LSI_CALLB && (lsi_builtins[ip->imm].flags & (LSI_BI_GROUP | LSI_BI_BARRIER))))
      return true;
  }
  return false;
}

uint64_t *native_loop_rows(const struct lsi_kernel *k, const uint64_t *live_in, size_t nw) {
  uint64_t *rows = calloc(nw ? nw : 1, 8), *written = calloc(nw ? nw : 1, 8);
  if (!rows || !written) {
    free(rows), free(written);
    return NULL;
  }
  for (uint32_t pc = 0; pc < k->ninsns; pc++) {
    const lsi_insn *ip = &k->code[pc];
    uint32_t d0, nd = defs(ip, &d0);
    for (uint32_t r = d0; r < d0 + nd && r < k->nregs; r++)
      written[r / 64] |= UINT64_C(1) << (r % 64);
    unsigned fmt = lsi_op_format[ip->op];
    if ((fmt == FMT_BR || fmt == FMT_BRP) && ip->imm >= 0 && (uint64_t)ip->imm <= pc &&
        !ends_slice(k, (uint32_t)ip->imm, pc))
      for (size_t w = 0; w < nw; w++)
        rows[w] |= live_in[(size_t)ip->imm * nw + w];
  }
  for (size_t w = 0; w < nw; w++)
    rows[w] &= written[w];
  free(written);
  return rows;
}

/* ---- rows every lane of a warp holds the same value in ---- */

/* Special registers with one value for the whole warp. */
static bool sreg_uniform(uint64_t s) {
  return (s >= LSI_SREG_GROUP_ID_X && s <= LSI_SREG_WORK_DIM) || s == LSI_SREG_SUB_GROUP_ID ||
         s == LSI_SREG_SUB_GROUP_SIZE || s == LSI_SREG_MAX_SUB_GROUP_SIZE ||
         s == LSI_SREG_NUM_SUB_GROUPS;
}

/* Whether ip's result is the same in every lane whose operands are. */
static bool op_uniform(const lsi_insn *ip, bool (*pure)(const lsi_insn *)) {
  if (lsi_op_flags[ip->op] & F_MEM) return false;
  if (ip->op == LSI_SREG) return sreg_uniform((uint64_t)ip->imm);
  if (ip->op == LSI_CALLB) return pure(ip);
  return true;
}

/* The control-flow graph backwards, from a node n past every instruction
 * that ends the kernel (EXIT, TRAP): each node's successors (its
 * predecessors backwards) as lists, and a postorder of the nodes found
 * going backwards from n. */
struct cfg {
  uint32_t n, *first, *succ, *po, *order, norder;
};

static bool cfg_build(const struct lsi_kernel *k, struct cfg *g) {
  uint32_t n = g->n = k->ninsns, s[2];
  g->first = calloc(n + 2, 4), g->succ = calloc(2 * (size_t)n + 1, 4);
  g->po = malloc((n + 1) * 4), g->order = malloc((n + 1) * 4);
  if (!g->first || !g->succ || !g->po || !g->order) return false;
  for (uint32_t pc = 0; pc < n; pc++) {
    unsigned ns = succs(k, pc, s);
    g->first[pc + 1] = g->first[pc];
    for (unsigned j = 0; j < ns; j++)
      g->succ[g->first[pc + 1]++] = s[j] < n ? s[j] : n;
    if (!ns) g->succ[g->first[pc + 1]++] = n;
  }
  g->first[n + 1] = g->first[n];
  return true;
}

/* Postorder of the nodes that reach n, walking the edges backwards from
 * n; false where some instruction never reaches the end (a loop with no
 * way out), or out of memory. */
static bool cfg_postorder(struct cfg *g) {
  uint32_t n = g->n, npred = g->first[n];
  uint32_t *pfirst = calloc(n + 2, 4), *pred = malloc((npred + 1) * 4);
  uint32_t *stack = malloc((n + 1) * 4), *next = calloc(n + 1, 4), top = 0;
  bool ok = pfirst && pred && stack && next;
  for (uint32_t e = 0; ok && e < npred; e++)
    pfirst[g->succ[e] + 1]++;
  for (uint32_t v = 0; ok && v <= n; v++)
    pfirst[v + 1] += pfirst[v];
  for (uint32_t pc = 0; ok && pc < n; pc++)
    for (uint32_t e = g->first[pc]; e < g->first[pc + 1]; e++)
      pred[pfirst[g->succ[e]] + next[g->succ[e]]++] = pc;
  memset(g->po, 0xff, (n + 1) * 4);
  g->norder = 0;
  if (ok) memset(next, 0, (n + 1) * 4), stack[top++] = n, g->po[n] = UINT32_MAX - 1;
  while (ok && top) {
    uint32_t v = stack[top - 1];
    if (pfirst[v] + next[v] < pfirst[v + 1]) {
      uint32_t p = pred[pfirst[v] + next[v]++];
      if (g->po[p] == UINT32_MAX) g->po[p] = UINT32_MAX - 1, stack[top++] = p;
      continue;
    }
    top--;
    g->po[v] = g->norder, g->order[g->norder++] = v;
  }
  free(pfirst), free(pred), free(stack), free(next);
  return ok && g->norder == n + 1;
}

static uint32_t intersect(const struct cfg *g, const uint32_t *ipdom, uint32_t a, uint32_t b) {
  while (a != b) {
    while (g->po[a] < g->po[b])
      a = ipdom[a];
    while (g->po[b] < g->po[a])
      b = ipdom[b];
  }
  return a;
}

/* Each node's immediate post-dominator (Cooper, Harvey and Kennedy's
 * iteration over the reverse postorder), the end its own. */
static void cfg_ipdom(const struct cfg *g, uint32_t *ipdom) {
  memset(ipdom, 0xff, (g->n + 1) * 4);
  ipdom[g->n] = g->n;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = g->norder - 1; i-- > 0;) {
      uint32_t v = g->order[i], d = UINT32_MAX;
      for (uint32_t e = g->first[v]; e < g->first[v + 1]; e++) {
        uint32_t s = g->succ[e];
        if (ipdom[s] != UINT32_MAX) d = d == UINT32_MAX ? s : intersect(g, ipdom, s, d);
      }
      if (d != ipdom[v]) ipdom[v] = d, changed = true;
    }
  }
}

/* One round of the divergence analysis: rows written with a value that
 * may differ between lanes (an operation that may, an operand that may,
 * or in a region only some lanes run), and the regions of branches whose
 * lanes may split. True when it changed anything. */
static bool diverge_round(const struct lsi_kernel *k, const struct cfg *g, const uint32_t *ipdom,
                          bool (*pure)(const lsi_insn *), uint8_t *div, uint8_t *region,
                          uint8_t *split, uint64_t *use, size_t nw) {
  bool changed = false;
  for (uint32_t pc = 0; pc < k->ninsns; pc++) {
    const lsi_insn *ip = &k->code[pc];
    memset(use, 0, nw * 8);
    each_use(k, ip, use);
    bool same = !region[pc] && op_uniform(ip, pure);
    for (size_t w = 0; same && w < nw; w++)
      for (uint64_t m = use[w]; same && m; m &= m - 1)
        same = !div[w * 64 + (unsigned)__builtin_ctzll(m)];
    uint32_t d0, nd = defs(ip, &d0);
    for (uint32_t r = d0; !same && r < d0 + nd && r < k->nregs; r++)
      if (!div[r]) div[r] = 1, changed = true;
    if ((ip->op != LSI_BRA_P && ip->op != LSI_BRA_Z) || split[pc] ||
        (!region[pc] && ip->a < k->nregs && !div[ip->a]))
      continue;
    split[pc] = 1, changed = true; /* what runs between it and where its lanes meet */
    for (uint32_t e = g->first[pc]; e < g->first[pc + 1]; e++)
      for (uint32_t v = g->succ[e]; v != ipdom[pc] && v != g->n; v = ipdom[v])
        region[v] = 1;
  }
  return changed;
}

/* Whether some of a warp's lanes may run ahead of the others past where
 * they would meet: a yield (or a sub-group barrier) that only some lanes
 * reach lets the others run on, round a loop and back, and the lanes then
 * meet at any pc, each with its own turn's values. */
static bool lanes_run_apart(const struct lsi_kernel *k, const uint8_t *region) {
  for (uint32_t pc = 0; pc < k->ninsns; pc++)
    if (region[pc] && (k->code[pc].op == LSI_YIELD || k->code[pc].op == LSI_SGBAR)) return true;
  return false;
}

void native_warp_uniform(const struct lsi_kernel *k, const uint64_t *live_in, size_t nw,
                         bool (*pure)(const lsi_insn *), uint8_t *uni) {
  struct cfg g = {0};
  uint32_t *ipdom = malloc((k->ninsns + 1) * 4);
  uint8_t *div = calloc(nw * 64 + 1, 1), *region = calloc(k->ninsns + 1, 2);
  uint64_t *use = calloc(nw + 1, 8);
  if (ipdom && div && region && use && cfg_build(k, &g) && cfg_postorder(&g)) {
    cfg_ipdom(&g, ipdom);
    for (uint32_t r = 0; r < k->nregs; r++) /* read before written, on some path */
      div[r] = ((live_in[r / 64] >> (r % 64)) & 1) && r >= k->nconst && !is_arg(k, r);
    while (diverge_round(k, &g, ipdom, pure, div, region, region + k->ninsns + 1, use, nw))
      ;
    bool apart = lanes_run_apart(k, region);
    for (uint32_t r = 0; r < k->nregs && !apart; r++)
      if (uni[r] == NATIVE_ROW_LANES && !div[r]) uni[r] = NATIVE_ROW_WARP;
  }
  free(g.first), free(g.succ), free(g.po), free(g.order);
  free(ipdom), free(div), free(region), free(use);
}
