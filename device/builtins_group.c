/*
 * builtins_group.c - the work-group collective functions (work_group_all,
 * any, broadcast, reduce and scan): builtins flagged LSI_BI_GROUP in
 * device/builtins.def. A call is a work-group barrier; simt_group_call runs
 * when that barrier is released, gathers every work-item's arguments in
 * local linear order, computes, and writes each item's result register.
 * So the results need no memory of their own, the arithmetic order is the
 * same on every warp width (and in the debugger's one-item warps), and a
 * call reached by part of the group is barrier divergence like any barrier.
 * Nothing here keeps state between calls.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "device/builtins_ext.h"
#include "device/simt_int.h"

bool bg_broadcast(BG_ARGS) {
  const struct simt_cu *cu = ln->cu;
  const uint64_t *gs = cu->group_size;
  uint64_t id[3] = {0, 0, 0};
  for (unsigned d = 0; d < data; d++)
    id[d] = arg[1 + d][0];
  for (uint64_t i = 1; i < n; i++)
    for (unsigned d = 0; d < data; d++)
      if (arg[1 + d][i] != id[d]) {
        simt_fault(ln->cu, ln->w, ln->lane, ln->pc, LSI_TRAP_COLLECTIVE, 0,
                   "work_group_broadcast: work-items name different local ids (%" PRIu64
                   " in dimension %u for local linear id 0, %" PRIu64 " for %" PRIu64 ")",
                   id[d], d, arg[1 + d][i], i);
        return false;
      }
  if (id[0] >= gs[0] || id[1] >= gs[1] || id[2] >= gs[2]) {
    simt_fault(ln->cu, ln->w, ln->lane, ln->pc, LSI_TRAP_COLLECTIVE, 0,
               "work_group_broadcast: local id (%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ") is outside the work-group (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")",
               id[0], id[1], id[2], gs[0], gs[1], gs[2]);
    return false;
  }
  uint64_t v = arg[0][id[0] + id[1] * gs[0] + id[2] * gs[0] * gs[1]];
  for (uint64_t i = 0; i < n; i++)
    res[i] = v;
  return true;
}

/* data: element type in bits 0-3 (enum bx_elem), operation in bits 4-7 */
bool bg_reduce(BG_ARGS) {
  (void)ln;
  unsigned ty = data & 15, op = (data >> 4) & 15;
  uint64_t acc = arg[0][0];
  for (uint64_t i = 1; i < n; i++)
    acc = bx_combine(ty, op, acc, arg[0][i]);
  for (uint64_t i = 0; i < n; i++)
    res[i] = acc;
  return true;
}

/* res may not alias arg (simt_group_call keeps them apart) */
static void scan(uint64_t n, uint64_t *res, const uint64_t *x, uint32_t data, bool inclusive) {
  unsigned ty = data & 15, op = (data >> 4) & 15;
  uint64_t acc = bx_identity(ty, op);
  for (uint64_t i = 0; i < n; i++) {
    uint64_t next = bx_combine(ty, op, acc, x[i]);
    res[i] = inclusive ? next : acc;
    acc = next;
  }
}
bool bg_scan_incl(BG_ARGS) {
  (void)ln;
  scan(n, res, arg[0], data, true);
  return true;
}
bool bg_scan_excl(BG_ARGS) {
  (void)ln;
  scan(n, res, arg[0], data, false);
  return true;
}

/* predicates are ints: the low 32 bits */
static bool vote(uint64_t n, uint64_t *res, const uint64_t *x, bool all) {
  uint64_t r = all;
  for (uint64_t i = 0; i < n; i++)
    if (((uint32_t)x[i] != 0) != all) r = !all;
  for (uint64_t i = 0; i < n; i++)
    res[i] = r;
  return true;
}
bool bg_any(BG_ARGS) {
  (void)ln, (void)data;
  return vote(n, res, arg[0], false);
}
bool bg_all(BG_ARGS) {
  (void)ln, (void)data;
  return vote(n, res, arg[0], true);
}

/* ---- the release ---- */

#define MAX_GROUP_ARGS 4

bool simt_group_call(struct simt_cu *cu, uint32_t resume) {
  const struct simt_run *run = cu->run;
  const struct lsi_kernel *k = run->k;
  if (resume == 0 || resume > k->ninsns) return true;
  const lsi_insn *ip = &k->code[resume - 1];
  if (ip->op != LSI_CALLB || !(lsi_builtins[ip->imm].flags & LSI_BI_GROUP)) return true;
  const struct lsi_builtin *bi = &lsi_builtins[ip->imm];
  const unsigned W = run->W, na = ip->b;
  const uint64_t n = cu->nitems;
  struct simt_lane ln = {cu, &cu->warps[0], 0, resume - 1, 0};
  uint64_t *buf = na <= MAX_GROUP_ARGS ? malloc(sizeof(uint64_t) * n * (na + 1)) : NULL;
  if (!buf) {
    simt_fault(cu, ln.w, 0, ln.pc, LSI_TRAP_UNSUPPORTED, 0,
               "out of host memory for work-group function %s", bi->name);
    return false;
  }
  const uint32_t *al = k->arglist + ip->a;
  const uint64_t *arg[MAX_GROUP_ARGS];
  uint64_t *res = buf + n * na;
  for (unsigned j = 0; j < na; j++)
    arg[j] = buf + n * j;
  /* item i of the group is lane i % W of warp i / W (warp_init) */
  for (uint64_t i = 0; i < n; i++) {
    const uint64_t *reg = cu->warps[i / W].reg;
    for (unsigned j = 0; j < na; j++)
      buf[n * j + i] = reg[(size_t)al[j] * W + i % W];
  }
  bool ok = bi->gfn(&ln, n, res, arg, bi->data);
  for (uint64_t i = 0; ok && i < n; i++)
    cu->warps[i / W].reg[(size_t)ip->d * W + i % W] = res[i];
  free(buf);
  return ok;
}
