/*
 * wq.c - device-side work queues (seed 002): the block encoding, the
 * driver's setup of a queue and its host-channel block, the thread-side
 * reservation protocol and the processor's terminator. The layout, the
 * recycling of slots and why the terminator always finds one are described
 * in wq.h. Threads reach queue words only through atomics on the mapped
 * words; the processor reaches them only through its command stream.
 * This file must not create threads, allocate device memory or know OpenCL.
 */
#include <string.h>

#include "device/wq.h"

/* ---- command encoding ---- */

void wq_encode(const struct cp_op *op, uint64_t *w) {
  w[0] = (uint64_t)op->kind | (uint64_t)op->n << 8 | (uint64_t)op->id << 40;
  w[1] = op->a;
  w[2] = op->b;
  w[3] = op->value;
}

bool wq_decode(const uint64_t *w, struct cp_op *op) {
  memset(op, 0, sizeof *op);
  op->kind = (enum cp_op_kind)(w[0] & 0xff);
  op->n = (uint32_t)(w[0] >> 8);
  op->id = (unsigned)(w[0] >> 40);
  op->a = w[1];
  op->b = w[2];
  op->value = w[3];
  switch (op->kind) {
  case CP_OP_STATE:
  case CP_OP_LAUNCH:
  case CP_OP_LAUNCH_INDIRECT:
  case CP_OP_COPY:
  case CP_OP_FILL:
  case CP_OP_SEM_ACQUIRE:
  case CP_OP_SEM_RELEASE:
  case CP_OP_WAIT_IDLE:
  case CP_OP_PREDICATE:
  case CP_OP_SIGNAL: return true;
  default: return false;
  }
}

/* ---- word access ---- */

static uint64_t ld(const struct wq_ref *r, uint64_t off) {
  return __atomic_load_n(&r->mem[off], __ATOMIC_ACQUIRE);
}
static void st(const struct wq_ref *r, uint64_t off, uint64_t v) {
  __atomic_store_n(&r->mem[off], v, __ATOMIC_RELEASE);
}

static void put_raw(const struct wq_ref *r, uint64_t pos, const struct cp_op *cmds, uint32_t nc) {
  uint64_t b = wq_block_off(r->n, pos);
  for (uint32_t k = 0; k < nc; k++) {
    uint64_t w[WQ_CMD_WORDS];
    wq_encode(&cmds[k], w);
    for (uint32_t j = 0; j < WQ_CMD_WORDS; j++)
      st(r, b + 1 + k * WQ_CMD_WORDS + j, w[j]);
  }
  st(r, b, nc);
  st(r, wq_entry_off(r->n, pos), r->addr + b);
}

static struct cp_op acquire(uint64_t addr, uint64_t value) {
  return (struct cp_op){.kind = CP_OP_SEM_ACQUIRE, .a = addr, .value = value};
}

/* ---- the driver ---- */

int wq_init(struct wq_ref r) {
  if (r.n < WQ_MIN_ENTRIES) return WQ_INVALID;
  memset(r.mem, 0, wq_words(r.n) * sizeof *r.mem);
  st(&r, WQ_NENT, r.n);
  struct cp_op gate[2] = {acquire(r.addr + WQ_SEM_X, 1), acquire(r.addr + wq_sem_off(r.n, 0), 1)};
  put_raw(&r, 0, gate, 2);
  st(&r, WQ_SHADOW_PUT, r.n - 1); /* GP_GET 0: n - 1 positions outstanding at most */
  st(&r, WQ_SOFT_PUT, 1);
  return WQ_OK;
}

int wq_attach(struct cp_stream *dev, const struct wq_ref *r) {
  struct cp_op ops[2] = {{.kind = CP_OP_CHECKPOINT},
                         {.kind = CP_OP_FETCH, .a = r->addr, .b = 0, .n = r->n}};
  for (int k = 0; k < 2; k++)
    if (cp_stream_append(dev, &ops[k]) != 0) return WQ_INVALID;
  return WQ_OK;
}

int wq_host_block(struct cp_stream *host, const struct wq_ref *r, uint64_t round,
                  const struct cp_op *launch) {
  struct cp_op ops[4] = {
      *launch,
      {.kind = CP_OP_WAIT_IDLE},
      {.kind = CP_OP_SEM_RELEASE, .a = r->addr + WQ_SEM_X, .value = round},
      acquire(r->addr + WQ_SEM_Y, round),
  };
  for (int k = 0; k < 4; k++)
    if (cp_stream_append(host, &ops[k]) != 0) return WQ_INVALID;
  return WQ_OK;
}

/* ---- threads ---- */

int wq_reserve(struct wq_ref r, uint32_t count, uint64_t *first) {
  if (count < 1 || count > r.n - 1) return WQ_INVALID;
  uint64_t old = ld(&r, WQ_SOFT_PUT);
  for (;;) {
    if (old + count > ld(&r, WQ_SHADOW_PUT)) return WQ_FULL;
    /* The fetch-add, made conditional so a failure leaves no trace. */
    if (__atomic_compare_exchange_n(&r.mem[WQ_SOFT_PUT], &old, old + count, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      break;
  }
  *first = old;
  return WQ_OK;
}

int wq_put_block(struct wq_ref r, uint64_t pos, const struct cp_op *cmds, uint32_t ncmds) {
  if (ncmds > WQ_MAX_CMDS) return WQ_INVALID;
  for (uint32_t k = 0; k < ncmds; k++) {
    uint64_t w[WQ_CMD_WORDS];
    struct cp_op chk;
    wq_encode(&cmds[k], w);
    if (!wq_decode(w, &chk)) return WQ_INVALID;
  }
  put_raw(&r, pos, cmds, ncmds);
  return WQ_OK;
}

void wq_commit(struct wq_ref r, uint64_t first, uint32_t count) {
  uint64_t last = first + count - 1;
  struct cp_op close = acquire(r.addr + wq_sem_off(r.n, last), last + 1);
  put_raw(&r, last, &close, 1);
  /* Last: the processor may run this reservation from now on. */
  st(&r, wq_sem_off(r.n, first - 1), first);
}

int wq_submit(struct wq_ref r, const struct cp_op *cmds, const uint32_t *ncmds, uint32_t nblocks) {
  /* Check everything first: a bad block must not leave a reservation. */
  const struct cp_op *c = cmds;
  for (uint32_t b = 0; b < nblocks; b++) {
    if (ncmds[b] > WQ_MAX_CMDS) return WQ_INVALID;
    for (uint32_t k = 0; k < ncmds[b]; k++, c++) {
      uint64_t w[WQ_CMD_WORDS];
      struct cp_op chk;
      wq_encode(c, w);
      if (!wq_decode(w, &chk)) return WQ_INVALID;
    }
  }
  uint64_t first;
  int rc = wq_reserve(r, nblocks + 1, &first);
  if (rc != WQ_OK) return rc;
  for (uint32_t b = 0; b < nblocks; b++) {
    put_raw(&r, first + b, cmds, ncmds[b]);
    cmds += ncmds[b];
  }
  wq_commit(r, first, nblocks + 1);
  return WQ_OK;
}

/* ---- the processor ---- */

uint64_t wq_gp_get(const struct cp_stream *dev) {
  for (uint32_t i = dev->nops; i > 0; i--)
    if (dev->ops[i - 1].kind == CP_OP_FETCH) return dev->ops[i - 1].b;
  return 0;
}

bool wq_quiesce(struct wq_ref r, const struct cp_stream *dev) {
  uint64_t get = wq_gp_get(dev);
  uint32_t i = dev->tr.processed;
  if (get == 0 || i >= dev->nops || dev->executed < i) return false;
  /* Waiting on the closing acquire of the last fetched position? */
  const struct cp_op *op = &dev->ops[i];
  if (op->kind != CP_OP_SEM_ACQUIRE || op->a != r.addr + wq_sem_off(r.n, get - 1) ||
      op->value != get || ld(&r, wq_sem_off(r.n, get - 1)) >= get)
    return false;
  /* ... past the gate of a round whose terminator has not run: a closing
   * acquire comes after the gate X >= round, which comes after the
   * terminator of round - 1 (Y := round - 1; only terminators and a
   * broken ring, which fails the test below, write Y);
   * the host released X := round once the parent finished ... */
  uint64_t round = ld(&r, WQ_SEM_Y) + 1;
  if (ld(&r, WQ_SEM_X) < round) return false;
  /* ... with nothing reserved after it: the tree is finished. */
  uint64_t old = get;
  if (!__atomic_compare_exchange_n(&r.mem[WQ_SOFT_PUT], &old, get + 1, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE))
    return false;
  struct cp_op term[4] = {
      {.kind = CP_OP_WAIT_IDLE},
      {.kind = CP_OP_SEM_RELEASE, .a = r.addr + WQ_SEM_Y, .value = round},
      acquire(r.addr + WQ_SEM_X, round + 1),
      acquire(r.addr + wq_sem_off(r.n, get), get + 1),
  };
  put_raw(&r, get, term, 4);
  st(&r, wq_sem_off(r.n, get - 1), get);
  return true;
}
