/*
 * builtins_pipe.c - the pipe builtins of OpenCL C 2.0 over the layout of
 * device/pipe.h: read_pipe/write_pipe (clang's __read_pipe_2/_4 and
 * friends, which pass the packet size and alignment), reservations and
 * their commits for a work-item, a work-group and a sub-group,
 * is_valid_reserve_id and the packet counts.
 *
 * Non-blocking as the specification says: a full or empty pipe makes the
 * call fail (a negative result, an invalid reserve id) and changes
 * nothing. Every packet access is checked: a bad pipe, a packet size that
 * is not the pipe's, a reserve id that is not an active reservation of
 * this pipe and direction, an index past the reservation, and work-group
 * or sub-group forms reached by only part of the group are device
 * exceptions. A failed call's result (negative, or an invalid id) carries
 * the other side's progress, so a loop that retries until the other kernel
 * moves is not taken for one that spins forever.
 *
 * This file must not know about OpenCL objects or run launches.
 */
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "device/builtins_pipe.h"
#include "device/mem.h"
#include "device/pipe.h"
#include "device/simt_int.h"

/* Reserve ids: tag in bits 57-63, direction in bit 56, the pipe's
 * allocation id in bits 40-55, the low 40 bits of the reservation's first
 * packet below. */
#define RID_TAG        UINT64_C(0x2d)
#define RID_START_MASK ((UINT64_C(1) << 40) - 1)
#define RID_INVALID    (UINT64_C(1) << 63)

enum { DIR_WRITE = 0, DIR_READ = 1 };

struct pipe_view {
  uint64_t *w;
  uint8_t *data;
  uint64_t handle;
  uint32_t psize, max;
};

static uint64_t ld(const uint64_t *p) {
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void lock(uint64_t *w) {
  while (__atomic_exchange_n(&w[PIPE_H_LOCK], 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(&w[PIPE_H_LOCK], __ATOMIC_RELAXED))
      sched_yield();
}

static void unlock(uint64_t *w) {
  __atomic_store_n(&w[PIPE_H_LOCK], 0, __ATOMIC_RELEASE);
}

static void pipe_fault(struct simt_lane *ln, uint64_t addr, const char *what) {
  simt_fault(ln->cu, ln->w, ln->lane, ln->pc, LSI_TRAP_PIPE, addr, "%s", what);
}

/* The pipe behind a pipe argument whose packets are psize bytes, or false
 * after a device exception. */
static bool view(struct simt_lane *ln, uint64_t handle, uint64_t psize, struct pipe_view *v) {
  struct dev_mem *m = ln->cu->run->mem;
  uint64_t *h = (handle & 7) ? NULL : dev_mem_host(m, handle, PIPE_HDR * 8);
  if (!h || ld(&h[PIPE_H_MAGIC]) != PIPE_MAGIC) {
    pipe_fault(ln, handle, "pipe builtin on something that is not a pipe");
    return false;
  }
  uint32_t ps = (uint32_t)h[PIPE_H_PSIZE], max = (uint32_t)h[PIPE_H_MAX];
  if (ps != psize) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "pipe packets are %" PRIu32 " bytes, the kernel's pipe type has %" PRIu64, ps, psize);
    pipe_fault(ln, handle, msg);
    return false;
  }
  uint64_t *w = dev_mem_host(m, handle, pipe_bytes(ps, max));
  if (!w) {
    pipe_fault(ln, handle, "pipe storage is smaller than its packets");
    return false;
  }
  *v = (struct pipe_view){w, (uint8_t *)w + pipe_data_offset(max), handle, ps, max};
  return true;
}

static const unsigned RES[2] = {PIPE_H_W_RES, PIPE_H_R_RES};
static const unsigned COM[2] = {PIPE_H_W_COM, PIPE_H_R_COM};

/* What a failed call returns: the other side's committed count, so the
 * result changes whenever the other side moves. */
static uint64_t other_progress(struct pipe_view *v, unsigned dir) {
  return ld(&v->w[COM[!dir]]) & 0x3fffffff;
}

/* Packets free for writing / ready for reading, under the lock. */
static uint64_t room(struct pipe_view *v, unsigned dir) {
  uint64_t *w = v->w;
  return dir == DIR_WRITE ? v->max - (w[PIPE_H_W_RES] - w[PIPE_H_R_COM])
                          : w[PIPE_H_W_COM] - w[PIPE_H_R_RES];
}

/* Reserves n packets; the reserve id, or an invalid one. */
static uint64_t reserve(struct pipe_view *v, unsigned dir, uint64_t n) {
  uint64_t *w = v->w, id = RID_INVALID | other_progress(v, dir);
  if (n == 0 || n > v->max) return id;
  lock(w);
  if (room(v, dir) >= n) {
    uint64_t k = w[RES[dir]];
    uint64_t *r = &w[pipe_rec_word(dir, k, v->max)];
    r[0] = k + 1;
    r[1] = n;
    __atomic_store_n(&w[RES[dir]], k + n, __ATOMIC_RELEASE);
    id = RID_TAG << 57 | (uint64_t)dir << 56 | (uint64_t)LSI_ADDR_ID(v->handle) << 40 |
         (k & RID_START_MASK);
  }
  unlock(w);
  /* a full or empty pipe: now and then let the other side's compute
   * units run (a host thread per unit, often more than there are cores) */
  static _Thread_local unsigned fails;
  if ((id & RID_INVALID) && !(++fails % 64)) sched_yield();
  return id;
}

/* The record of an active reservation id of v in direction dir, under the
 * lock; NULL when id is none. */
static uint64_t *record(struct pipe_view *v, unsigned dir, uint64_t id) {
  if (id >> 57 != RID_TAG || ((id >> 56) & 1) != dir ||
      ((id >> 40) & 0xffff) != LSI_ADDR_ID(v->handle))
    return NULL;
  uint64_t com = v->w[COM[dir]], res = v->w[RES[dir]];
  uint64_t k = (res & ~RID_START_MASK) | (id & RID_START_MASK);
  if (k >= res) k -= RID_START_MASK + 1;
  if (k < com || k >= res) return NULL;
  uint64_t *r = &v->w[pipe_rec_word(dir, k, v->max)];
  return r[0] == k + 1 && !(r[1] >> 32) ? r : NULL;
}

static const char *const NOT_ACTIVE[2] = {
    "reserve id is not an active write reservation of this pipe",
    "reserve id is not an active read reservation of this pipe"};

/* Commits reservation id; false after a device exception. */
static bool commit(struct simt_lane *ln, struct pipe_view *v, unsigned dir, uint64_t id) {
  uint64_t *w = v->w;
  lock(w);
  uint64_t *r = record(v, dir, id);
  if (r) {
    r[1] |= UINT64_C(1) << 32;
    /* advance over the done reservations that start at COM */
    for (uint64_t k = w[COM[dir]]; k < w[RES[dir]];) {
      uint64_t *h = &w[pipe_rec_word(dir, k, v->max)];
      if (h[0] != k + 1 || !(h[1] >> 32)) break;
      k += (uint32_t)h[1];
      h[0] = h[1] = 0;
      __atomic_store_n(&w[COM[dir]], k, __ATOMIC_RELEASE);
    }
  }
  unlock(w);
  if (!r) pipe_fault(ln, id, NOT_ACTIVE[dir]);
  return r != NULL;
}

/* Copies packet `index` of reservation id to or from the work-item's
 * memory at addr; false after a device exception. */
static bool move(struct simt_lane *ln, struct pipe_view *v, unsigned dir, uint64_t id,
                 uint64_t index, uint64_t addr) {
  lock(v->w);
  uint64_t *r = record(v, dir, id);
  uint64_t first = r ? r[0] - 1 : 0, n = r ? (uint32_t)r[1] : 0;
  unlock(v->w);
  if (!r) {
    pipe_fault(ln, id, NOT_ACTIVE[dir]);
    return false;
  }
  if (index >= n) {
    char msg[128];
    snprintf(msg, sizeof msg, "packet index %" PRIu64 " of a reservation of %" PRIu64 " packets",
             index, n);
    pipe_fault(ln, id, msg);
    return false;
  }
  uint64_t slot = (first + index) % v->max;
  uint8_t *pk = v->data + slot * v->psize;
  void *p = simt_mem_range(ln->cu, ln->w, ln->lane, ln->pc, addr, v->psize, dir == DIR_READ);
  if (!p) return false;
  if (dir == DIR_READ)
    memcpy(p, pk, v->psize);
  else
    memcpy(pk, p, v->psize);
  ln->cu->epoch++;
  return true;
}

/* ---- one work-item's calls: arg[0] is the pipe, the last two the packet
 * size and alignment; data is the direction ---- */

void bp_rw2(BP_ARGS) {
  struct pipe_view v;
  (void)nargs;
  if (!view(ln, arg[0], arg[2], &v)) return;
  uint64_t id = reserve(&v, data, 1);
  if (id & RID_INVALID) {
    res[0] = (uint32_t) - (int32_t)(1 + (id & 0x3fffffff));
    return;
  }
  if (move(ln, &v, data, id, 0, arg[1]) && commit(ln, &v, data, id)) res[0] = 0;
}

void bp_rw4(BP_ARGS) {
  struct pipe_view v;
  (void)nargs;
  if (!view(ln, arg[0], arg[4], &v)) return;
  if (move(ln, &v, data, arg[1], (uint32_t)arg[2], arg[3])) res[0] = 0;
}

void bp_reserve(BP_ARGS) {
  struct pipe_view v;
  (void)nargs;
  if (view(ln, arg[0], arg[2], &v)) res[0] = reserve(&v, data, (uint32_t)arg[1]);
}

void bp_commit(BP_ARGS) {
  struct pipe_view v;
  (void)nargs, (void)res;
  if (view(ln, arg[0], arg[2], &v)) commit(ln, &v, data, arg[1]);
}

void bp_is_valid(BP_ARGS) {
  (void)ln, (void)nargs, (void)data;
  res[0] = arg[0] >> 57 == RID_TAG;
}

/* data: 0 get_pipe_num_packets, 1 get_pipe_max_packets. */
void bp_query(BP_ARGS) {
  struct pipe_view v;
  (void)nargs;
  if (!view(ln, arg[0], arg[1], &v)) return;
  /* R_RES first: it never passes W_COM, which only grows */
  uint64_t taken = ld(&v.w[PIPE_H_R_RES]);
  res[0] = data ? v.max : (uint32_t)(ld(&v.w[PIPE_H_W_COM]) - taken);
}

/* ---- work-group forms: every work-item of the group calls them with the
 * same arguments (the call is a work-group barrier too). The first to
 * arrive reserves for the group, the last to arrive commits, once all
 * accesses of the group are done. ---- */

/* Counts this work-item's arrival; returns its position (0 first). */
static uint64_t arrive(struct simt_lane *ln) {
  struct simt_cu *cu = ln->cu;
  struct simt_pipe_wg *g = &cu->pipe_wg;
  if (g->run != cu->run || memcmp(g->group, cu->group_id, sizeof g->group) ||
      g->arrived >= cu->nitems) {
    g->run = cu->run;
    memcpy(g->group, cu->group_id, sizeof g->group);
    g->arrived = 0;
  }
  return g->arrived++;
}

void bp_wg_reserve(BP_ARGS) {
  struct pipe_view v;
  (void)nargs;
  if (!view(ln, arg[0], arg[2], &v)) return;
  if (arrive(ln) == 0) ln->cu->pipe_wg.rid = reserve(&v, data, (uint32_t)arg[1]);
  res[0] = ln->cu->pipe_wg.rid;
}

void bp_wg_commit(BP_ARGS) {
  struct pipe_view v;
  (void)nargs, (void)res;
  if (!view(ln, arg[0], arg[2], &v)) return;
  if (arrive(ln) + 1 == ln->cu->nitems) commit(ln, &v, data, arg[1]);
}

/* ---- sub-group forms: once for the warp, which must arrive whole ---- */

static bool whole_sub_group(struct simt_lane *ln, uint64_t act) {
  uint64_t live = ln->live;
  if (act == live) return true;
  char msg[128];
  snprintf(msg, sizeof msg,
           "sub-group pipe function reached by %d of %d live work-items of the sub-group",
           __builtin_popcountll(act), __builtin_popcountll(live));
  simt_fault(ln->cu, ln->w, ln->lane, ln->pc, LSI_TRAP_BARRIER_DIVERGENCE, 0, "%s", msg);
  return false;
}

void bp_sg_reserve(BP_WARGS) {
  struct pipe_view v;
  (void)W;
  unsigned l = (unsigned)__builtin_ctzll(act); /* arguments are uniform: the first lane's */
  if (!whole_sub_group(ln, act) || !view(ln, arg[0][l], arg[2][l], &v)) return;
  uint64_t id = reserve(&v, data, (uint32_t)arg[1][l]);
  for (uint64_t m = act; m; m &= m - 1)
    res[0][__builtin_ctzll(m)] = id;
}

void bp_sg_commit(BP_WARGS) {
  struct pipe_view v;
  (void)W, (void)res;
  unsigned l = (unsigned)__builtin_ctzll(act);
  if (whole_sub_group(ln, act) && view(ln, arg[0][l], arg[2][l], &v))
    commit(ln, &v, data, arg[1][l]);
}
