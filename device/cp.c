/*
 * cp.c - the command processor on the real device: each command queue's
 * commands are lowered into a command stream (device/cp_stream.c) and a
 * few processor threads step the streams, switching between them at any
 * operation and between work-groups of a launch, with replay from the last
 * checkpoint through each stream's trace buffer.
 *
 * Lowering of one struct dev_cmd: CHECKPOINT; LAUNCH of its pieces (the
 * work-groups of a kernel, 256 KiB chunks of a 1D transfer or fill, one
 * piece for anything else), whose completed pieces the trace records;
 * SIGNAL, which ends the command (t_end, done()) exactly once. A stream runs
 * only while no stream of higher priority has work; a higher-priority
 * command stops lower ones from taking new work-groups, so it starts as soon
 * as a slot frees; streams of equal priority run side by side and switch
 * after a time slice when another waits. Data movement goes through the
 * device memory table, so a bad address fails the command instead of
 * touching host memory.
 *
 * On-device queues (device/dq.h) are streams too: a ring's stream is the
 * FETCH loop of device/wq.h over real device memory, whose LAUNCH commands
 * name launch records that threads filled. A launch of a kernel that can
 * enqueue is lowered as the seed's host-channel block for each queue it can
 * reach: [acquire Y >= round - 1, LAUNCH, WAIT_IDLE, release X := round,
 * acquire Y >= round, SIGNAL], so its command (and everything queued after
 * it) completes only after every child and their children ran; rounds of
 * one queue never overlap. A blocked stream is set aside for a short while
 * and retried; a ring blocked with its tree finished gets its terminator
 * (wq_quiesce).
 *
 * A launch with a launch_fn may switch itself out (DEV_LAUNCH_SWITCHED): its
 * word goes into the stream's trace, the stream is switched out and parked
 * (no processor thread takes it or waits for it) until cp_reissue names the
 * token that call was given; then it replays from its checkpoint and the
 * launch_fn is called again with the word. This file must not know about
 * OpenCL objects: it sees only struct dev_cmd.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device/cp.h"
#include "device/cp_json.h"
#include "device/cp_stream.h"
#include "device/builtins.h"
#include "device/device.h"
#include "device/dq.h"
#include "device/mem.h"
#include "device/simt.h"
#include "device/wq.h"

#define CP_THREADS   4
#define CP_CHUNK     (256u * 1024u) /* bytes per piece of a transfer */
#define CP_TRACE_CAP 256            /* trace nodes per stream */
#define CP_SLICE_US  5000           /* default time slice */
#define CP_RETRY_NS  50000          /* a blocked stream is retried after this */

/* A child launch of a ring, from its launch record. */
struct cp_dqrun {
  struct dev_launch l;
  struct simt_run *run;
  bool started;
  int status;
  uint64_t t_start;
};

/* An on-device queue. */
struct cp_ring {
  uint64_t handle;
  struct wq_ref ref;
  uint32_t nrec;
  struct cp_dqrun *runs; /* per record; only the ring's owner */
  /* Under cp->lock: */
  uint64_t rounds;                  /* host-channel blocks lowered */
  const struct lsi_program **progs; /* programs whose kernels may run here */
  uint32_t nprogs, cap_progs;
  int err;     /* first child failure of the open round */
  bool broken; /* its stream stopped: every launch gating it fails */
  struct dev_exception exc;
  void (*free_fn)(void *arg);
  void *free_arg;
};

struct cp_item {
  struct cp_item *next;
  struct dev_cmd *cmd;
};

/* A lowered command. */
struct cp_rec {
  struct dev_cmd *cmd;
  int status;
  bool started;
  struct simt_run *run;   /* a kernel prepared once for all its passes */
  struct cp_ring **rings; /* queues the launch gates (owned array) */
  unsigned nrings;
};

struct cp;

/* One command stream and what the processor keeps about it. */
struct cp_chan {
  struct cp_chan *next;
  struct cp *cp;
  unsigned id;
  /* Under cp->lock: */
  struct cp_item *head, *tail; /* submitted, not yet lowered */
  unsigned pending;            /* submitted, done() not yet called */
  int prio;
  bool owned; /* a processor thread is stepping it */
  bool dead;  /* released: freed once no thread steps it */
  uint64_t last_run;
  uint64_t retry_at;    /* blocked: not run again before this time */
  struct cp_ring *ring; /* an on-device queue's stream, or NULL */
  uint64_t token;       /* names the current call of a launch_fn (cp_reissue), or 0 */
  bool wake;            /* re-issued while its launch_fn was still switching out */
  bool parked;          /* switched out by its launch_fn: runs only once re-issued */
  /* Only the owning thread: */
  struct cp_stream s;
  struct cp_env env;
  struct cp_rec *recs;
  uint32_t nrecs, cap_recs;
  uint64_t rng;
  uint32_t fresh;      /* steps since the stream was resumed */
  uint64_t slice_end;  /* when its time slice, begun when a thread took it, ends */
  _Atomic int preempt; /* stop handing out work-groups: someone waits */
};

struct cp {
  struct dev_device *d;
  pthread_mutex_t lock;
  pthread_cond_t work; /* a stream became runnable, or stop */
  pthread_cond_t idle; /* a command finished */
  struct cp_chan *chans;
  unsigned queued; /* submitted, not yet finished */
  uint64_t tick;
  uint64_t tokens; /* the last token handed to a launch_fn */
  bool stop;
  pthread_t threads[CP_THREADS];
  unsigned nthreads;
  /* knobs */
  uint32_t switch_every;
  uint64_t seed;
  bool no_trace;
  uint64_t slice_ns;
  struct cp_json *json;
};

static uint64_t cp_now(struct cp *cp) {
  return dev_simt_ops.now_ns(cp->d);
}

static int cp_fault(struct dev_cmd *cmd, const char *what, uint64_t addr, uint64_t len) {
  memset(&cmd->exc, 0, sizeof cmd->exc);
  cmd->exc.address = addr;
  snprintf(cmd->exc.message, sizeof cmd->exc.message,
           "device exception: %s of %" PRIu64 " bytes at 0x%" PRIx64
           " is outside every live buffer and SVM allocation",
           what, len, addr);
  return -5; /* CL_OUT_OF_RESOURCES */
}

/* Host pointer for a device range, or NULL (len 0 is always fine). */
static void *dev_ptr(struct dev_mem *m, uint64_t addr, uint64_t len) {
  static char empty;
  if (len == 0) return &empty;
  return dev_mem_host(m, addr, len);
}

/* Byte offset of row (y, z) of a rect side. */
static uint64_t rect_row(const uint64_t *origin, uint64_t y, uint64_t z, uint64_t row,
                         uint64_t slice) {
  return (origin[2] + z) * slice + (origin[1] + y) * row + origin[0];
}

/* FILL_RECT: each row of the destination side gets the pattern repeated
 * (region[0] is a multiple of the pattern size). */
static int run_fill_rect(struct dev_mem *m, struct dev_cmd *cmd) {
  const struct dev_rect *r = &cmd->rect;
  uint32_t ps = cmd->pattern_size ? cmd->pattern_size : 1;
  for (uint64_t z = 0; z < r->region[2]; z++) {
    for (uint64_t y = 0; y < r->region[1]; y++) {
      uint64_t off = rect_row(r->dst_origin, y, z, r->dst_row_pitch, r->dst_slice_pitch);
      char *dst = dev_ptr(m, cmd->dst + off, r->region[0]);
      if (!dst) return cp_fault(cmd, "rect fill", cmd->dst + off, r->region[0]);
      for (uint64_t i = 0; i + ps <= r->region[0]; i += ps)
        memcpy(dst + i, cmd->pattern, ps);
      dev_mem_define(m, cmd->dst + off, 0, r->region[0]);
    }
  }
  return 0;
}

static int run_rect(struct dev_mem *m, struct dev_cmd *cmd) {
  const struct dev_rect *r = &cmd->rect;
  for (uint64_t z = 0; z < r->region[2]; z++) {
    for (uint64_t y = 0; y < r->region[1]; y++) {
      uint64_t so = rect_row(r->src_origin, y, z, r->src_row_pitch, r->src_slice_pitch);
      uint64_t dof = rect_row(r->dst_origin, y, z, r->dst_row_pitch, r->dst_slice_pitch);
      uint64_t n = r->region[0];
      const void *src;
      void *dst;
      if (cmd->kind == DEV_CMD_WRITE_RECT) {
        src = (const char *)cmd->host + so;
      } else if (!(src = dev_ptr(m, cmd->src + so, n))) {
        return cp_fault(cmd, "rect read", cmd->src + so, n);
      }
      if (cmd->kind == DEV_CMD_READ_RECT) {
        dst = (char *)cmd->host + dof;
      } else if (!(dst = dev_ptr(m, cmd->dst + dof, n))) {
        return cp_fault(cmd, "rect write", cmd->dst + dof, n);
      }
      memmove(dst, src, n);
      /* LOCKSTEP_CHECK=uninit: the row written is as defined as its source */
      if (cmd->kind != DEV_CMD_READ_RECT)
        dev_mem_define(m, cmd->dst + dof, cmd->kind == DEV_CMD_COPY_RECT ? cmd->src + so : 0, n);
    }
  }
  return 0;
}

/* Pieces a command is split into (the "work-groups" of its launch op). */
static uint64_t cmd_pieces(const struct dev_cmd *cmd) {
  switch (cmd->kind) {
  case DEV_CMD_LAUNCH:
    /* A launch run through its launch_fn (a layer above) is one piece. */
    return cmd->launch_fn ? 1 : simt_launch_groups(&cmd->launch);
  case DEV_CMD_READ:
  case DEV_CMD_WRITE:
  case DEV_CMD_COPY:
  case DEV_CMD_FILL: return cmd->size > CP_CHUNK ? (cmd->size + CP_CHUNK - 1) / CP_CHUNK : 1;
  default: return 1;
  }
}

static const char *cmd_name(const struct dev_cmd *cmd) {
  static const char *const names[] = {"nop",    "read",      "write",      "copy",
                                      "fill",   "read rect", "write rect", "copy rect",
                                      "launch", "host",      "fill rect"};
  if (cmd->kind == DEV_CMD_LAUNCH && cmd->launch.kernel && cmd->launch.kernel->name)
    return cmd->launch.kernel->name;
  return (unsigned)cmd->kind < sizeof names / sizeof names[0] ? names[cmd->kind] : "?";
}

/* Executes piece g of a command other than a launch; 0 or a negative error
 * with cmd->exc set. A transfer's whole range is checked by every piece. */
static int run_piece(struct cp *cp, struct dev_cmd *cmd, uint64_t g) {
  struct dev_mem *m = dev_device_mem(cp->d);
  uint64_t off = g * CP_CHUNK, n = cmd->size - off < CP_CHUNK ? cmd->size - off : CP_CHUNK;
  if (cmd->size == 0) off = n = 0;
  char *p, *q;
  switch (cmd->kind) {
  case DEV_CMD_NOP: return 0;
  case DEV_CMD_READ:
    if (!(p = dev_ptr(m, cmd->src, cmd->size))) return cp_fault(cmd, "read", cmd->src, cmd->size);
    memcpy((char *)cmd->host + off, p + off, n);
    return 0;
  case DEV_CMD_WRITE:
    if (!(p = dev_ptr(m, cmd->dst, cmd->size))) return cp_fault(cmd, "write", cmd->dst, cmd->size);
    memcpy(p + off, (const char *)cmd->host + off, n);
    dev_mem_define(m, cmd->dst + off, 0, n);
    return 0;
  case DEV_CMD_COPY:
    if (!(p = dev_ptr(m, cmd->src, cmd->size)))
      return cp_fault(cmd, "copy source", cmd->src, cmd->size);
    if (!(q = dev_ptr(m, cmd->dst, cmd->size)))
      return cp_fault(cmd, "copy destination", cmd->dst, cmd->size);
    memmove(q + off, p + off, n);
    dev_mem_define(m, cmd->dst + off, cmd->src + off, n);
    return 0;
  case DEV_CMD_FILL: {
    if (!(p = dev_ptr(m, cmd->dst, cmd->size))) return cp_fault(cmd, "fill", cmd->dst, cmd->size);
    uint32_t ps = cmd->pattern_size ? cmd->pattern_size : 1;
    /* CP_CHUNK is a multiple of every pattern size (powers of two to 128) */
    for (uint64_t i = off; i + ps <= off + n && i + ps <= cmd->size; i += ps)
      memcpy(p + i, cmd->pattern, ps);
    dev_mem_define(m, cmd->dst + off, 0, n);
    return 0;
  }
  case DEV_CMD_READ_RECT: return run_rect(m, cmd);
  case DEV_CMD_WRITE_RECT:
  case DEV_CMD_COPY_RECT: return run_rect(m, cmd);
  case DEV_CMD_FILL_RECT: return run_fill_rect(m, cmd);
  case DEV_CMD_HOST:
    if (cmd->host_fn) cmd->host_fn(cmd->host_arg);
    return 0;
  case DEV_CMD_LAUNCH: break;
  }
  snprintf(cmd->exc.message, sizeof cmd->exc.message, "device exception: unknown command %d",
           (int)cmd->kind);
  return -30; /* CL_INVALID_VALUE */
}

static uint64_t rng_next(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* Work-groups (pieces) one pass may run: the forced switch knobs. */
static uint64_t pass_limit(struct cp_chan *ch) {
  struct cp *cp = ch->cp;
  if (cp->switch_every) return cp->switch_every;
  if (cp->seed) return 1 + rng_next(&ch->rng) % 4;
  return 0;
}

/* What the compute-unit observer of one pass needs. */
struct cu_obs {
  struct cp_chan *ch;
  const struct dev_cmd *cmd;
};

/* Index of the calling processor thread, or -1. */
static int cp_self(struct cp *cp) {
  pthread_t self = pthread_self();
  for (unsigned i = 0; i < cp->nthreads; i++)
    if (pthread_equal(cp->threads[i], self)) return (int)i;
  return -1;
}

/* The compute-unit track of the calling thread: a pool worker's own, or
 * for a processor thread running its share of a pass, one past the pool. */
static unsigned cu_track(struct cp *cp, unsigned k) {
  int w = dev_device_worker_id(cp->d);
  if (w >= 0) return 1u + (unsigned)w;
  int c = cp_self(cp);
  return 1u + dev_device_workers(cp->d) + (unsigned)(c >= 0 ? c : (int)k);
}

static void cu_group_done(void *arg, unsigned k, uint64_t g, uint64_t t0, uint64_t t1) {
  const struct cu_obs *o = arg;
  char detail[48];
  snprintf(detail, sizeof detail, "group %" PRIu64 ", stream %u", g, o->ch->id);
  cp_json_span(o->ch->cp->json, cu_track(o->ch->cp, k), cmd_name(o->cmd), detail, t0, t1);
}

static void cu_warp_span(void *arg, unsigned k, uint64_t g, unsigned warp, uint64_t t0,
                         uint64_t t1) {
  const struct cu_obs *o = arg;
  char name[32], detail[48];
  snprintf(name, sizeof name, "warp %u", warp);
  snprintf(detail, sizeof detail, "group %" PRIu64 ", stream %u", g, o->ch->id);
  cp_json_span(o->ch->cp->json, cu_track(o->ch->cp, k), name, detail, t0, t1);
}

/* Calls a launch's launch_fn with what its stream's trace keeps for it
 * (*saved) and a fresh token naming this call (cp_reissue); a switched-out
 * launch leaves its word in *saved. Returns DEV_LAUNCH_SWITCHED, 0, or a
 * negative error with cmd->exc filled. */
static int run_launch_fn(struct cp_chan *ch, struct dev_cmd *cmd, uint64_t *saved) {
  struct cp *cp = ch->cp;
  pthread_mutex_lock(&cp->lock);
  ch->token = ++cp->tokens;
  ch->wake = false;
  struct dev_switch sw = {*saved, ch->token, ch->id};
  pthread_mutex_unlock(&cp->lock);
  int rc = cmd->launch_fn(cmd->launch_arg, cp->d, &cmd->launch, &cmd->exc, &sw);
  if (rc == DEV_LAUNCH_SWITCHED) {
    *saved = sw.saved;
    return rc;
  }
  pthread_mutex_lock(&cp->lock);
  ch->token = 0; /* over: its token is stale now */
  ch->wake = false;
  pthread_mutex_unlock(&cp->lock);
  if (rc > 0) { /* outside the contract: a failure, not a status the runtime misreads */
    memset(&cmd->exc, 0, sizeof cmd->exc);
    snprintf(cmd->exc.message, sizeof cmd->exc.message,
             "device exception: the launch function returned %d", rc);
    rc = -5; /* CL_OUT_OF_RESOURCES */
  }
  return rc;
}

/* The stream's launch hook: runs pieces [first, end) of a command, stopping
 * early when someone waits for the device or a forced switch is due. A
 * failed command completes its remaining pieces as nothing. */
static int chan_groups(void *ctx, const struct cp_launch_info *li, uint64_t first, uint64_t end,
                       uint64_t *done) {
  struct cp_chan *ch = ctx;
  struct cp *cp = ch->cp;
  struct cp_rec *r = &ch->recs[li->arg];
  struct dev_cmd *cmd = r->cmd;
  uint64_t t0 = cp_now(cp);
  if (!r->started) {
    r->started = true;
    cmd->t_start = t0;
    if (cmd->started) cmd->started(cmd);
  }
  if (r->status < 0) {
    *done = end;
    return 0;
  }
  uint64_t limit = pass_limit(ch);
  if (limit && end - first > limit) end = first + limit;
  uint64_t deadline = cp->slice_ns ? t0 + cp->slice_ns : 0;
  int ret = 0;
  if (cmd->kind == DEV_CMD_LAUNCH && cmd->launch_fn) {
    int rc = run_launch_fn(ch, cmd, li->saved);
    if (rc == DEV_LAUNCH_SWITCHED)
      ret = CP_HOOK_SWITCHED;
    else if (rc)
      r->status = rc;
    *done = rc == DEV_LAUNCH_SWITCHED ? first : end;
  } else if (cmd->kind == DEV_CMD_LAUNCH) {
    struct simt_pass p;
    memset(&p, 0, sizeof p);
    p.first = first;
    p.limit = end - first;
    p.deadline_ns = deadline;
    p.stop = &ch->preempt;
    struct cu_obs obs = {ch, cmd};
    if (cp->json) {
      p.group_done = cu_group_done;
      p.warp_span = cu_warp_span;
      p.arg = &obs;
    }
    int rc = 0;
    if (!r->run) r->run = simt_open(cp->d, &cmd->launch, &cmd->exc, &rc);
    if (r->run) rc = simt_run_pass(r->run, &cmd->exc, &p);
    if (rc) {
      r->status = rc;
      *done = end;
    } else {
      *done = p.done;
    }
    if (r->run && (rc || p.done >= p.total)) { /* the launch is over */
      simt_close(r->run);
      r->run = NULL;
    }
  } else {
    uint64_t g = first;
    while (g < end) {
      int rc = run_piece(cp, cmd, g);
      g++;
      if (rc) {
        r->status = rc;
        g = end;
        break;
      }
      if (atomic_load(&ch->preempt) || (deadline && cp_now(cp) >= deadline)) break;
    }
    *done = g;
  }
  if (cp->json) {
    char detail[64];
    snprintf(detail, sizeof detail, "stream %u, pieces %" PRIu64 "-%" PRIu64, ch->id, first, *done);
    cp_json_span(cp->json, CP_JSON_CP_TRACK, cmd_name(cmd), detail, t0, cp_now(cp));
  }
  return ret;
}

/* The stream's SIGNAL: the command is finished. */
static void chan_signal(void *ctx, unsigned stream, unsigned id) {
  struct cp_chan *ch = ctx;
  struct cp *cp = ch->cp;
  struct cp_rec *r = &ch->recs[id];
  struct dev_cmd *cmd = r->cmd;
  simt_close(r->run); /* normally closed by its last pass already */
  r->run = NULL;
  cmd->t_end = cp_now(cp);
  if (!r->started) cmd->t_start = cmd->t_end;
  r->cmd = NULL;
  if (r->nrings) { /* a child's failure is the parent's */
    pthread_mutex_lock(&cp->lock);
    for (unsigned q = 0; q < r->nrings; q++) {
      struct cp_ring *g = r->rings[q];
      if (g->err && r->status >= 0) {
        r->status = g->err;
        cmd->exc = g->exc;
      }
      if (!g->broken) g->err = 0;
    }
    pthread_mutex_unlock(&cp->lock);
    r->nrings = 0;
  }
  free(r->rings);
  r->rings = NULL;
  /* After done() the command belongs to the runtime again. */
  cmd->done(cmd, r->status);
  pthread_mutex_lock(&cp->lock);
  ch->pending--;
  cp->queued--;
  pthread_cond_broadcast(&cp->idle);
  pthread_mutex_unlock(&cp->lock);
}

static void chan_replayed(void *ctx, unsigned stream) {
  struct cp_chan *ch = ctx;
  if (ch->cp->json) {
    char detail[32];
    snprintf(detail, sizeof detail, "stream %u", stream);
    cp_json_instant(ch->cp->json, CP_JSON_CP_TRACK, "replayed", detail, cp_now(ch->cp));
  }
}

/* Words of device memory at word addresses (semaphores, rings, records). */
static uint64_t *word(struct cp_chan *ch, uint64_t addr) {
  return dev_mem_host(dev_device_mem(ch->cp->d), addr << 3, 8);
}
static uint64_t env_load(void *ctx, uint64_t addr) {
  uint64_t *p = word(ctx, addr);
  return p ? __atomic_load_n(p, __ATOMIC_ACQUIRE) : 0;
}
static void env_store(void *ctx, uint64_t addr, uint64_t value) {
  uint64_t *p = word(ctx, addr);
  if (p) __atomic_store_n(p, value, __ATOMIC_RELEASE);
}

/* ---- on-device queues ---- */

/* Whether a kernel contains a call that enqueues on a device queue. */
static bool kernel_enqueues(const struct lsi_kernel *k) {
  for (uint32_t pc = 0; k && pc < k->ninsns; pc++)
    if (k->code[pc].op == LSI_CALLB && (lsi_builtin_flags((int)k->code[pc].imm) & LSI_BI_ENQUEUE))
      return true;
  return false;
}

/* Under cp->lock: the stream of the live ring with that handle. */
static struct cp_chan *ring_chan(struct cp *cp, uint64_t handle) {
  for (struct cp_chan *c = cp->chans; c && handle; c = c->next)
    if (c->ring && !c->dead && c->ring->handle == handle) return c;
  return NULL;
}

/* Under cp->lock: whether launches of program p may run from ring r. */
static bool ring_knows(const struct cp_ring *r, const struct lsi_program *p) {
  for (uint32_t i = 0; i < r->nprogs; i++)
    if (r->progs[i] == p) return true;
  return false;
}

/* Under cp->lock: whether a round of the ring is open (released X, Y not
 * yet), i.e. its stream has work. */
static bool ring_open(const struct cp_ring *r) {
  const uint64_t *w = r->ref.mem;
  return __atomic_load_n(&w[WQ_SEM_X], __ATOMIC_ACQUIRE) >
         __atomic_load_n(&w[WQ_SEM_Y], __ATOMIC_ACQUIRE);
}

static void ring_fail(struct cp *cp, struct cp_ring *r, int rc, const struct dev_exception *e) {
  pthread_mutex_lock(&cp->lock);
  if (!r->err) {
    r->err = rc;
    r->exc = *e;
  }
  pthread_mutex_unlock(&cp->lock);
}

/* Prepares record idx's launch; false (with status set) when it is bad. */
static bool ring_prepare(struct cp_chan *ch, uint64_t idx) {
  struct cp_ring *r = ch->ring;
  struct cp_dqrun *dr = &r->runs[idx];
  const uint64_t *rec = &r->ref.mem[dq_rec_off(r->ref.n, (uint32_t)idx)];
  const struct lsi_program *p = (const struct lsi_program *)(uintptr_t)rec[DQ_R_PROG];
  pthread_mutex_lock(&ch->cp->lock);
  bool known = ring_knows(r, p);
  pthread_mutex_unlock(&ch->cp->lock);
  memset(&dr->l, 0, sizeof dr->l);
  if (!known || rec[DQ_R_KERNEL] >= p->nkernels || rec[DQ_R_DIM] < 1 || rec[DQ_R_DIM] > 3) {
    struct dev_exception e;
    memset(&e, 0, sizeof e);
    snprintf(e.message, sizeof e.message,
             "device exception: a child launch on device queue 0x%" PRIx64
             " names no kernel this queue can run",
             r->handle);
    dr->status = -5; /* CL_OUT_OF_RESOURCES */
    ring_fail(ch->cp, r, dr->status, &e);
    return false;
  }
  dr->l.prog = p;
  dr->l.kernel = &p->kernels[rec[DQ_R_KERNEL]];
  dr->l.data_base = rec[DQ_R_DATA];
  dr->l.work_dim = (uint32_t)rec[DQ_R_DIM];
  for (int d = 0; d < 3; d++) {
    dr->l.offset[d] = rec[DQ_R_OFFSET + d];
    dr->l.global[d] = rec[DQ_R_GLOBAL + d];
    dr->l.local[d] = rec[DQ_R_LOCAL + d];
  }
  dr->l.argbuf = (const uint8_t *)&rec[DQ_R_ARGS];
  dr->l.default_queue = rec[DQ_R_DEFQ];
  return true;
}

/* The ring's launch hook: arg is the launch record. */
static int ring_groups(void *ctx, const struct cp_launch_info *li, uint64_t first, uint64_t end,
                       uint64_t *done) {
  struct cp_chan *ch = ctx;
  struct cp_ring *r = ch->ring;
  struct cp *cp = ch->cp;
  *done = end;
  if (li->arg >= r->nrec) return 0;
  struct cp_dqrun *dr = &r->runs[li->arg];
  if (!dr->started) {
    dr->started = true;
    dr->status = 0;
    dr->t_start = cp_now(cp);
    ring_prepare(ch, li->arg);
  }
  if (dr->status < 0) return 0;
  uint64_t limit = pass_limit(ch);
  if (limit && end - first > limit) end = first + limit;
  struct simt_pass p;
  memset(&p, 0, sizeof p);
  p.first = first;
  p.limit = end - first;
  p.deadline_ns = cp->slice_ns ? cp_now(cp) + cp->slice_ns : 0;
  p.stop = &ch->preempt;
  struct dev_exception exc;
  int rc = 0;
  if (!dr->run) dr->run = simt_open(cp->d, &dr->l, &exc, &rc);
  if (dr->run) rc = simt_run_pass(dr->run, &exc, &p);
  if (rc) {
    dr->status = rc;
    ring_fail(cp, r, rc, &exc);
  } else {
    *done = p.done;
  }
  if (dr->run && (rc || p.done >= p.total)) {
    simt_close(dr->run);
    dr->run = NULL;
  }
  return 0;
}

/* The ring's SIGNAL: record id's command finished; completes its event and
 * frees the record. */
static void ring_signal(void *ctx, unsigned stream, unsigned id) {
  struct cp_chan *ch = ctx;
  struct cp_ring *r = ch->ring;
  (void)stream;
  if (id >= r->nrec) return;
  struct cp_dqrun *dr = &r->runs[id];
  simt_close(dr->run);
  uint64_t *rec = &r->ref.mem[dq_rec_off(r->ref.n, id)];
  uint64_t ev = rec[DQ_R_EVENT], now = cp_now(ch->cp);
  uint64_t *e = ev ? dev_mem_host(dev_device_mem(ch->cp->d), ev, DQ_EV_WORDS * 8) : NULL;
  if (e) {
    __atomic_store_n(&e[DQ_EV_START], dr->started ? dr->t_start : now, __ATOMIC_RELEASE);
    __atomic_store_n(&e[DQ_EV_END], now, __ATOMIC_RELEASE);
    __atomic_store_n(&e[DQ_EV_STATUS], (uint64_t)(int64_t)(dr->status < 0 ? dr->status : 0),
                     __ATOMIC_RELEASE);
    uint64_t dst = dq_ev_close(e), v[2];
    uint64_t *p = dst ? dev_mem_host(dev_device_mem(ch->cp->d), dst, sizeof v) : NULL;
    if (p) { /* a capture parked before the command completed */
      dq_ev_exec_time(e, v);
      memcpy(p, v, sizeof v);
    }
    __atomic_store_n(&e[DQ_EV_DONE], 1, __ATOMIC_RELEASE);
    dq_ev_unref(e);
  }
  /* The command has passed its waits: the events it held may go. */
  uint64_t nw = rec[DQ_R_NWAIT] < DQ_MAX_WAIT ? rec[DQ_R_NWAIT] : DQ_MAX_WAIT;
  for (uint64_t i = 0; i < nw; i++) {
    uint64_t *w = dev_mem_host(dev_device_mem(ch->cp->d), rec[DQ_R_WAIT + i], DQ_EV_WORDS * 8);
    if (w) dq_ev_unref(w);
  }
  rec[DQ_R_NWAIT] = 0;
  memset(dr, 0, sizeof *dr);
  __atomic_store_n(&rec[DQ_R_BUSY], 0, __ATOMIC_RELEASE);
}

/* Under cp->lock: whether a stream has unfinished work. */
static bool has_cmds(const struct cp_chan *c) {
  return c->pending || c->head || (c->ring && ring_open(c->ring));
}

/* Under cp->lock: whether a stream has work a processor thread may take
 * (a parked stream waits for cp_reissue, not for a thread). */
static bool has_work(const struct cp_chan *c) {
  return !c->parked && has_cmds(c);
}

/* Under cp->lock: whether a stream may be freed (nothing to do, and for a
 * ring no round lowered that has not finished). */
static bool idle(const struct cp_chan *c) {
  return !has_cmds(c) && !(c->ring && c->ring->rounds > __atomic_load_n(&c->ring->ref.mem[WQ_SEM_Y],
                                                                        __ATOMIC_ACQUIRE));
}

/* The on-device queue handles a launch can enqueue on: its default queue
 * and its queue_t arguments (duplicates included). Stores them in h unless
 * h is NULL; returns how many there are. */
static unsigned launch_queues(const struct dev_launch *l, uint64_t *h) {
  unsigned nh = 0;
  if (h) h[nh] = l->default_queue;
  nh++;
  for (uint32_t j = 0; j < l->kernel->nargs; j++)
    if (l->kernel->args[j].kind == LSI_ARG_QUEUE) {
      if (h) memcpy(&h[nh], l->argbuf + l->kernel->args[j].buf_offset, 8);
      nh++;
    }
  return nh;
}

/* Owner only: gates the distinct live rings among handles h[0..nh) for
 * rec (whose rings array holds nh), giving each the launch's round. Cannot
 * fail: a ring that cannot record the launch's program still gets its
 * round, and its children then fail the launch with a device exception. */
static void gate_rings(struct cp_chan *ch, struct dev_cmd *cmd, struct cp_rec *rec,
                       const uint64_t *h, unsigned nh, uint64_t *round) {
  struct cp *cp = ch->cp;
  const struct dev_launch *l = &cmd->launch;
  pthread_mutex_lock(&cp->lock);
  for (unsigned i = 0; i < nh; i++) {
    struct cp_chan *rc = ring_chan(cp, h[i]);
    struct cp_ring *r = rc ? rc->ring : NULL;
    bool dup = false;
    for (unsigned q = 0; q < rec->nrings; q++)
      dup |= rec->rings[q] == r;
    if (!r || dup) continue;
    if (!ring_knows(r, l->prog)) {
      if (r->nprogs == r->cap_progs) {
        uint32_t cap = r->cap_progs ? r->cap_progs * 2 : 4;
        const struct lsi_program **np = realloc(r->progs, cap * sizeof *np);
        if (np) {
          r->progs = np;
          r->cap_progs = cap;
        }
      }
      if (r->nprogs < r->cap_progs) r->progs[r->nprogs++] = l->prog;
    }
    round[rec->nrings] = ++r->rounds;
    rec->rings[rec->nrings++] = r;
    rc->prio = cmd->priority; /* the ring runs at the priority of the launches that feed it */
  }
  pthread_mutex_unlock(&cp->lock);
}

/* The operations of a command, into ops (room for 4 + 3 * rec->nrings):
 * CHECKPOINT, [acquire Y >= round - 1 per ring], LAUNCH, [WAIT_IDLE,
 * release X := round and acquire Y >= round per ring], SIGNAL. */
static unsigned command_ops(const struct dev_cmd *cmd, const struct cp_rec *rec, uint32_t id,
                            const uint64_t *round, struct cp_op *ops) {
  unsigned k = 0;
  ops[k++] = (struct cp_op){.kind = CP_OP_CHECKPOINT};
  for (unsigned q = 0; q < rec->nrings; q++)
    ops[k++] = (struct cp_op){
        .kind = CP_OP_SEM_ACQUIRE, .a = rec->rings[q]->ref.addr + WQ_SEM_Y, .value = round[q] - 1};
  uint64_t n = cmd_pieces(cmd);
  ops[k++] = (struct cp_op){.kind = CP_OP_LAUNCH,
                            .value = id,
                            .id = (unsigned)cmd->kind,
                            .n = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n};
  if (rec->nrings) ops[k++] = (struct cp_op){.kind = CP_OP_WAIT_IDLE};
  for (unsigned q = 0; q < rec->nrings; q++) {
    uint64_t a = rec->rings[q]->ref.addr;
    ops[k++] = (struct cp_op){.kind = CP_OP_SEM_RELEASE, .a = a + WQ_SEM_X, .value = round[q]};
    ops[k++] = (struct cp_op){.kind = CP_OP_SEM_ACQUIRE, .a = a + WQ_SEM_Y, .value = round[q]};
  }
  ops[k++] = (struct cp_op){.kind = CP_OP_SIGNAL, .id = id};
  return k;
}

/* Owner only: appends a command's operations to the stream. Everything
 * sized by the launch (its queues, its operations, room in the stream) is
 * allocated before any ring's round is taken, since a round taken must be
 * lowered: after that nothing can fail. Returns 0 or -1 (out of memory,
 * nothing changed). */
static int lower(struct cp_chan *ch, struct dev_cmd *cmd) {
  if (ch->nrecs == ch->cap_recs) {
    uint32_t cap = ch->cap_recs ? ch->cap_recs * 2 : 16;
    struct cp_rec *p = realloc(ch->recs, cap * sizeof *p);
    if (!p) return -1;
    ch->recs = p;
    ch->cap_recs = cap;
  }
  uint32_t id = ch->nrecs;
  struct cp_rec rec = {cmd, 0, false, NULL, NULL, 0};
  bool gated =
      cmd->kind == DEV_CMD_LAUNCH && !cmd->launch_fn && kernel_enqueues(cmd->launch.kernel);
  unsigned nh = gated ? launch_queues(&cmd->launch, NULL) : 0;
  struct cp_op *ops = malloc((4 + 3 * (size_t)nh) * sizeof *ops);
  uint64_t *h = nh ? malloc(2 * nh * sizeof *h) : NULL, *round = nh ? h + nh : NULL;
  rec.rings = nh ? malloc(nh * sizeof *rec.rings) : NULL;
  int rc = -1;
  if (!ops || (nh && (!h || !rec.rings)) || cp_stream_reserve(&ch->s, 4 + 3 * nh) != 0) goto out;
  if (nh) {
    launch_queues(&cmd->launch, h);
    gate_rings(ch, cmd, &rec, h, nh, round);
  }
  unsigned k = command_ops(cmd, &rec, id, round, ops);
  for (unsigned j = 0; j < k; j++)
    cp_stream_append(&ch->s, &ops[j]); /* room reserved above */
  ch->recs[id] = rec;
  rec.rings = NULL;
  ch->nrecs++;
  rc = 0;
out:
  free(ops);
  free(h);
  free(rec.rings);
  return rc;
}

/* Under cp->lock: the highest priority of any stream with work. */
static int top_priority(struct cp *cp, uint64_t now) {
  int top = -1000;
  for (struct cp_chan *c = cp->chans; c; c = c->next)
    if (has_work(c) && c->retry_at <= now && c->prio > top) top = c->prio;
  return top;
}

/* Under cp->lock: whether another stream waits that ch should give way to:
 * a higher priority at once, an equal one only once ch has used its slice
 * and made progress in it. Replay is not progress: a stream that gave way
 * right after replaying would be taken, replay and give way again, and with
 * more streams than processor threads none would ever run a work-group. */
static bool should_yield(struct cp *cp, struct cp_chan *ch) {
  uint64_t now = cp_now(cp);
  bool slice_used = ch->fresh > 0 && now >= ch->slice_end;
  for (struct cp_chan *c = cp->chans; c; c = c->next)
    if (c != ch && has_work(c) && c->retry_at <= now &&
        (c->prio > ch->prio || (c->prio == ch->prio && !c->owned && slice_used)))
      return true;
  return false;
}

/* Under cp->lock: a stream with work that no thread steps and that no
 * stream of higher priority waits before, least recently run first. */
static struct cp_chan *next_runnable(struct cp *cp, bool *waiting) {
  uint64_t now = cp_now(cp);
  int top = top_priority(cp, now);
  struct cp_chan *best = NULL;
  *waiting = false;
  for (struct cp_chan *c = cp->chans; c; c = c->next) {
    if (!has_work(c) || c->owned) continue;
    if (c->retry_at > now) {
      *waiting = true;
      continue;
    }
    if (c->prio == top && (!best || c->last_run < best->last_run)) best = c;
  }
  return best;
}

/* Under cp->lock: a ring that will run nothing more. Its Y semaphore is
 * raised past every round, so no launch gating it waits for it, and each
 * such launch fails with the ring's exception (chan_signal). A round the
 * ring is still running may lower Y again when it ends; the rounds after it
 * see the raised value once the ring stops (its own stream's error). */
static void ring_break(struct cp_ring *r, int rc, const char *why) {
  if (!r->broken) {
    if (!r->err) {
      r->err = rc;
      memset(&r->exc, 0, sizeof r->exc);
      snprintf(r->exc.message, sizeof r->exc.message, "device exception: %s", why);
    }
    r->broken = true;
  }
  __atomic_store_n(&r->ref.mem[WQ_SEM_Y], UINT64_MAX / 2, __ATOMIC_RELEASE);
}

static const char *stream_error(int err) {
  switch (err) {
  case CP_ERR_TRACE_FULL: return "its trace buffer is full";
  case CP_ERR_BAD_OP: return "it holds a malformed command";
  case CP_ERR_NO_MEMORY: return "out of host memory";
  default: return "a command failed";
  }
}

/* Owner: the stream stopped with an error. A ring is broken (its queue
 * runs nothing more, its parents fail); a command queue's stream fails
 * every command lowered into it, breaks the rings they gate, and starts
 * empty. Every command still gets its done(), with a device exception:
 * nothing waits forever. */
static void chan_stopped(struct cp *cp, struct cp_chan *ch) {
  char why[160];
  snprintf(why, sizeof why, "command stream %u stopped: %s", ch->id, stream_error(ch->s.error));
  fprintf(stderr, "lockstep: %s\n", why);
  pthread_mutex_lock(&cp->lock);
  ch->token = 0; /* a launch switched out with nowhere to keep its word: no re-issue */
  ch->wake = false;
  pthread_mutex_unlock(&cp->lock);
  if (ch->ring) {
    pthread_mutex_lock(&cp->lock);
    ring_break(ch->ring, -5, why);
    pthread_mutex_unlock(&cp->lock);
    return;
  }
  for (uint32_t i = 0; i < ch->nrecs; i++) {
    struct cp_rec *r = &ch->recs[i];
    if (!r->cmd) continue;
    pthread_mutex_lock(&cp->lock);
    for (unsigned q = 0; q < r->nrings; q++)
      ring_break(r->rings[q], -5, why);
    pthread_mutex_unlock(&cp->lock);
    memset(&r->cmd->exc, 0, sizeof r->cmd->exc);
    snprintf(r->cmd->exc.message, sizeof r->cmd->exc.message, "device exception: %s", why);
    r->status = -5; /* CL_OUT_OF_RESOURCES */
    r->nrings = 0;
    chan_signal(ch, ch->id, i);
  }
  cp_stream_fini(&ch->s);
  if (cp_stream_init(&ch->s, ch->id, CP_TRACE_CAP) == 0)
    ch->s.tr.enabled = !cp->no_trace;
  else
    ch->s.error = CP_ERR_NO_MEMORY; /* its next commands fail the same way */
  ch->nrecs = 0;
}

/* Owner: the launch at the stream's front switched itself out (its word is
 * in the trace). The stream is switched out, so its trace records the
 * launch processed but not completed, and parked: no processor thread takes
 * it until cp_reissue names its token. A re-issue that came first (while
 * launch_fn was returning) leaves it runnable. Returns whether it parked. */
static bool park(struct cp *cp, struct cp_chan *ch) {
  cp_stream_switch_out(&ch->s, &ch->env);
  ch->fresh = 0;
  pthread_mutex_lock(&cp->lock);
  bool parked = !ch->wake;
  ch->parked = parked;
  ch->wake = false;
  pthread_mutex_unlock(&cp->lock);
  if (cp->json) {
    char detail[32];
    snprintf(detail, sizeof detail, "stream %u", ch->id);
    cp_json_instant(cp->json, CP_JSON_CP_TRACK, "switched out (launch_fn)", detail, cp_now(cp));
  }
  return parked;
}

/* Owner: steps the stream until it is idle or should switch. */
static void run_chan(struct cp *cp, struct cp_chan *ch) {
  for (;;) {
    pthread_mutex_lock(&cp->lock);
    struct cp_item *items = ch->head;
    ch->head = ch->tail = NULL;
    pthread_mutex_unlock(&cp->lock);
    for (struct cp_item *it = items, *next; it; it = next) {
      next = it->next;
      if (lower(ch, it->cmd) != 0) {
        struct dev_cmd *cmd = it->cmd;
        snprintf(cmd->exc.message, sizeof cmd->exc.message,
                 "device exception: out of host memory queueing a command");
        cmd->t_start = cmd->t_end = cp_now(cp);
        cmd->done(cmd, -6); /* CL_OUT_OF_HOST_MEMORY */
        pthread_mutex_lock(&cp->lock);
        ch->pending--;
        cp->queued--;
        pthread_cond_broadcast(&cp->idle);
        pthread_mutex_unlock(&cp->lock);
      }
      free(it);
    }
    enum cp_step r = cp_stream_step(&ch->s, &ch->env);
    if (r == CP_STEP_DONE) {
      if (cp_stream_rewind(&ch->s)) ch->nrecs = 0;
      pthread_mutex_lock(&cp->lock);
      bool more = ch->head != NULL;
      pthread_mutex_unlock(&cp->lock);
      if (!more) return;
      continue;
    }
    if (r == CP_STEP_SWITCHED) {
      if (park(cp, ch)) return;
      continue; /* re-issued already: replay at once */
    }
    if (r == CP_STEP_BLOCKED) {
      /* A ring whose tree of work is finished hands control back. */
      if (ch->ring && wq_quiesce(ch->ring->ref, &ch->s)) continue;
      cp_stream_switch_out(&ch->s, &ch->env);
      ch->fresh = 0;
      pthread_mutex_lock(&cp->lock);
      ch->retry_at = cp_now(cp) + CP_RETRY_NS;
      pthread_mutex_unlock(&cp->lock);
      return;
    }
    if (r != CP_STEP_OK) {
      chan_stopped(cp, ch);
      return;
    }
    if (!ch->s.replaying) ch->fresh++;
    bool forced = (cp->switch_every && ch->fresh >= cp->switch_every) ||
                  (cp->seed && !ch->s.replaying && rng_next(&ch->rng) % 3 == 0);
    bool yield = atomic_load(&ch->preempt);
    if (!yield && ch->s.phase == CP_PH_SCHEDULE) {
      pthread_mutex_lock(&cp->lock);
      yield = should_yield(cp, ch);
      pthread_mutex_unlock(&cp->lock);
    }
    if (forced || yield) {
      uint64_t t = cp_now(cp);
      cp_stream_switch_out(&ch->s, &ch->env);
      ch->fresh = 0;
      if (cp->json) {
        char detail[48];
        snprintf(detail, sizeof detail, "stream %u%s", ch->id, forced ? " (forced)" : "");
        cp_json_instant(cp->json, CP_JSON_CP_TRACK, "switch", detail, t);
      }
      if (yield) return;
    }
  }
}

/* Under cp->lock: unlinks and frees a channel no thread steps. */
static void chan_free(struct cp *cp, struct cp_chan *ch) {
  for (struct cp_chan **pp = &cp->chans; *pp; pp = &(*pp)->next)
    if (*pp == ch) {
      *pp = ch->next;
      break;
    }
  for (uint32_t i = 0; i < ch->nrecs; i++) {
    simt_close(ch->recs[i].run);
    free(ch->recs[i].rings);
  }
  if (ch->ring) {
    for (uint32_t i = 0; i < ch->ring->nrec; i++)
      simt_close(ch->ring->runs[i].run);
    if (ch->ring->free_fn) ch->ring->free_fn(ch->ring->free_arg);
    free(ch->ring->runs);
    free(ch->ring->progs);
    free(ch->ring);
  }
  cp_stream_fini(&ch->s);
  free(ch->recs);
  free(ch);
}

static void *cp_thread(void *arg) {
  struct cp *cp = arg;
  pthread_mutex_lock(&cp->lock);
  for (;;) {
    bool waiting;
    struct cp_chan *ch = next_runnable(cp, &waiting);
    if (!ch) {
      if (cp->stop) break;
      if (waiting) { /* a blocked stream: look again shortly */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += CP_RETRY_NS;
        if (ts.tv_nsec >= 1000000000L) {
          ts.tv_sec++;
          ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&cp->work, &cp->lock, &ts);
      } else {
        pthread_cond_wait(&cp->work, &cp->lock);
      }
      continue;
    }
    ch->owned = true;
    ch->retry_at = 0;
    ch->last_run = ++cp->tick;
    ch->fresh = 0;
    ch->slice_end = cp_now(cp) + cp->slice_ns;
    atomic_store(&ch->preempt, 0);
    pthread_mutex_unlock(&cp->lock);
    run_chan(cp, ch);
    pthread_mutex_lock(&cp->lock);
    ch->owned = false;
    if (ch->dead && idle(ch)) chan_free(cp, ch);
    pthread_cond_broadcast(&cp->work);
  }
  pthread_mutex_unlock(&cp->lock);
  return NULL;
}

void cp_reissue(struct cp *cp, uint64_t token) {
  if (!cp || !token) return;
  unsigned stream = 0;
  bool found = false;
  pthread_mutex_lock(&cp->lock);
  for (struct cp_chan *c = cp->chans; c && !found; c = c->next) {
    if (c->token != token) continue;
    found = true;
    stream = c->id;
    c->token = 0; /* each switch is re-issued once */
    if (c->parked) {
      c->parked = false;
      pthread_cond_broadcast(&cp->work);
    } else {
      c->wake = true; /* its processor thread has not parked it yet */
    }
  }
  pthread_mutex_unlock(&cp->lock);
  if (found && cp->json) {
    char detail[32];
    snprintf(detail, sizeof detail, "stream %u", stream);
    cp_json_instant(cp->json, CP_JSON_CP_TRACK, "reissued", detail, cp_now(cp));
  }
}

unsigned cp_parked(struct cp *cp) {
  unsigned n = 0;
  pthread_mutex_lock(&cp->lock);
  for (struct cp_chan *c = cp->chans; c; c = c->next)
    n += c->parked;
  pthread_mutex_unlock(&cp->lock);
  return n;
}

static uint64_t env_u64(const char *name, uint64_t dflt) {
  const char *v = getenv(name);
  if (!v || !*v) return dflt;
  char *end;
  unsigned long long x = strtoull(v, &end, 0);
  if (*end) {
    fprintf(stderr, "lockstep: %s=%s is not a number; ignored\n", name, v);
    return dflt;
  }
  return x;
}

struct cp *cp_create(struct dev_device *d) {
  struct cp *cp = calloc(1, sizeof *cp);
  if (!cp) return NULL;
  cp->d = d;
  pthread_mutex_init(&cp->lock, NULL);
  pthread_cond_init(&cp->work, NULL);
  pthread_cond_init(&cp->idle, NULL);
  cp->switch_every = (uint32_t)env_u64("LOCKSTEP_CP_SWITCH_EVERY", 0);
  cp->seed = env_u64("LOCKSTEP_CP_SWITCH_SEED", 0);
  cp->no_trace = env_u64("LOCKSTEP_CP_NO_TRACE", 0) != 0;
  cp->slice_ns = env_u64("LOCKSTEP_CP_SLICE_US", CP_SLICE_US) * 1000u;
  const char *tf = getenv("LOCKSTEP_TRACE");
  if (tf && *tf) cp->json = cp_json_open(tf);
  for (unsigned i = 0; i < CP_THREADS; i++) {
    if (pthread_create(&cp->threads[i], NULL, cp_thread, cp) != 0) break;
    cp->nthreads++;
  }
  if (cp->nthreads == 0) {
    cp_destroy(cp);
    return NULL;
  }
  return cp;
}

void cp_destroy(struct cp *cp) {
  if (!cp) return;
  pthread_mutex_lock(&cp->lock);
  while (cp->queued > 0)
    pthread_cond_wait(&cp->idle, &cp->lock);
  cp->stop = true;
  pthread_cond_broadcast(&cp->work);
  pthread_mutex_unlock(&cp->lock);
  for (unsigned i = 0; i < cp->nthreads; i++)
    pthread_join(cp->threads[i], NULL);
  while (cp->chans)
    chan_free(cp, cp->chans);
  cp_json_close(cp->json);
  pthread_cond_destroy(&cp->idle);
  pthread_cond_destroy(&cp->work);
  pthread_mutex_destroy(&cp->lock);
  free(cp);
}

/* Under cp->lock: the stream with that id, made on first use. */
static struct cp_chan *chan_get(struct cp *cp, unsigned stream) {
  struct cp_chan *c = cp->chans;
  while (c && (c->id != stream || c->dead))
    c = c->next;
  if (c) return c;
  c = calloc(1, sizeof *c);
  if (!c) return NULL;
  if (cp_stream_init(&c->s, stream, CP_TRACE_CAP) != 0) {
    free(c);
    return NULL;
  }
  c->cp = cp;
  c->id = stream;
  c->s.tr.enabled = !cp->no_trace;
  c->rng = (cp->seed ^ ((uint64_t)stream * 0x9e3779b97f4a7c15u)) | 1;
  c->env = (struct cp_env){.ctx = c,
                           .load = env_load,
                           .store = env_store,
                           .signal = chan_signal,
                           .replayed = chan_replayed,
                           .groups = chan_groups};
  atomic_init(&c->preempt, 0);
  c->next = cp->chans;
  cp->chans = c;
  return c;
}

void cp_submit(struct cp *cp, unsigned stream, struct dev_cmd *cmd) {
  struct cp_item *it = malloc(sizeof *it);
  pthread_mutex_lock(&cp->lock);
  struct cp_chan *ch = it ? chan_get(cp, stream) : NULL;
  if (!ch) {
    pthread_mutex_unlock(&cp->lock);
    free(it);
    snprintf(cmd->exc.message, sizeof cmd->exc.message,
             "device exception: out of host memory queueing a command");
    cmd->t_start = cmd->t_end = cp_now(cp);
    cmd->done(cmd, -6); /* CL_OUT_OF_HOST_MEMORY */
    return;
  }
  it->cmd = cmd;
  it->next = NULL;
  if (ch->tail)
    ch->tail->next = it;
  else
    ch->head = it;
  ch->tail = it;
  if (!ch->pending || cmd->priority > ch->prio) ch->prio = cmd->priority;
  ch->pending++;
  cp->queued++;
  /* Lower-priority streams stop taking work-groups; equal ones switch
   * after their slice. */
  for (struct cp_chan *c = cp->chans; c && !ch->parked; c = c->next)
    if (c->owned && c->prio < ch->prio) atomic_store(&c->preempt, 1);
  pthread_cond_broadcast(&cp->work);
  pthread_mutex_unlock(&cp->lock);
}

void cp_release_stream(struct cp *cp, unsigned stream) {
  pthread_mutex_lock(&cp->lock);
  struct cp_chan *c = cp->chans;
  while (c && (c->id != stream || c->dead))
    c = c->next;
  if (c) {
    c->dead = true;
    if (!c->owned && !c->pending && !c->head) chan_free(cp, c);
  }
  pthread_mutex_unlock(&cp->lock);
}

int cp_add_ring(struct cp *cp, uint64_t handle, uint64_t *mem, uint32_t n, unsigned stream,
                void (*free_fn)(void *arg), void *arg) {
  struct cp_ring *r = calloc(1, sizeof *r);
  if (!r) return -1;
  r->handle = handle;
  r->ref = (struct wq_ref){mem, handle >> 3, n};
  r->nrec = dq_records(n);
  r->runs = calloc(r->nrec, sizeof *r->runs);
  pthread_mutex_lock(&cp->lock);
  struct cp_chan *c = r->runs ? chan_get(cp, stream) : NULL;
  if (!c || c->ring || c->s.nops || wq_attach(&c->s, &r->ref) != WQ_OK) {
    pthread_mutex_unlock(&cp->lock);
    free(r->runs);
    free(r);
    return -1;
  }
  r->free_fn = free_fn;
  r->free_arg = arg;
  c->ring = r;
  c->env.groups = ring_groups;
  c->env.signal = ring_signal;
  pthread_mutex_unlock(&cp->lock);
  return 0;
}

void cp_release_ring(struct cp *cp, uint64_t handle) {
  pthread_mutex_lock(&cp->lock);
  struct cp_chan *c = ring_chan(cp, handle);
  if (c) {
    c->dead = true;
    if (!c->owned && idle(c)) chan_free(cp, c);
  }
  pthread_mutex_unlock(&cp->lock);
}
