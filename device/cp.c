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
 * touching host memory. This file must not know about OpenCL objects: it
 * sees only struct dev_cmd.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/cp.h"
#include "device/cp_json.h"
#include "device/cp_stream.h"
#include "device/device.h"
#include "device/mem.h"
#include "device/simt.h"

#define CP_THREADS   4
#define CP_CHUNK     (256u * 1024u) /* bytes per piece of a transfer */
#define CP_TRACE_CAP 256            /* trace nodes per stream */
#define CP_SLICE_US  5000           /* default time slice */

struct cp_item {
  struct cp_item *next;
  struct dev_cmd *cmd;
};

/* A lowered command. */
struct cp_rec {
  struct dev_cmd *cmd;
  int status;
  bool started;
  struct simt_run *run; /* a kernel prepared once for all its passes */
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
  /* Only the owning thread: */
  struct cp_stream s;
  struct cp_env env;
  struct cp_rec *recs;
  uint32_t nrecs, cap_recs;
  uint64_t rng;
  uint32_t fresh;      /* steps since the stream was resumed */
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
           " is outside every live buffer",
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
    }
  }
  return 0;
}

/* Pieces a command is split into (the "work-groups" of its launch op). */
static uint64_t cmd_pieces(const struct dev_cmd *cmd) {
  switch (cmd->kind) {
  case DEV_CMD_LAUNCH:
    /* A launch the debugger holds open runs as one piece. */
    return cmd->launch_fn ? 1 : simt_launch_groups(&cmd->launch);
  case DEV_CMD_READ:
  case DEV_CMD_WRITE:
  case DEV_CMD_COPY:
  case DEV_CMD_FILL: return cmd->size > CP_CHUNK ? (cmd->size + CP_CHUNK - 1) / CP_CHUNK : 1;
  default: return 1;
  }
}

static const char *cmd_name(const struct dev_cmd *cmd) {
  static const char *const names[] = {"nop",       "read",       "write",     "copy",   "fill",
                                      "read rect", "write rect", "copy rect", "launch", "host"};
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
    return 0;
  case DEV_CMD_COPY:
    if (!(p = dev_ptr(m, cmd->src, cmd->size)))
      return cp_fault(cmd, "copy source", cmd->src, cmd->size);
    if (!(q = dev_ptr(m, cmd->dst, cmd->size)))
      return cp_fault(cmd, "copy destination", cmd->dst, cmd->size);
    memmove(q + off, p + off, n);
    return 0;
  case DEV_CMD_FILL: {
    if (!(p = dev_ptr(m, cmd->dst, cmd->size))) return cp_fault(cmd, "fill", cmd->dst, cmd->size);
    uint32_t ps = cmd->pattern_size ? cmd->pattern_size : 1;
    /* CP_CHUNK is a multiple of every pattern size (powers of two to 128) */
    for (uint64_t i = off; i + ps <= off + n && i + ps <= cmd->size; i += ps)
      memcpy(p + i, cmd->pattern, ps);
    return 0;
  }
  case DEV_CMD_READ_RECT:
  case DEV_CMD_WRITE_RECT:
  case DEV_CMD_COPY_RECT: return run_rect(m, cmd);
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
  }
  if (r->status < 0) {
    *done = end;
    return 0;
  }
  uint64_t limit = pass_limit(ch);
  if (limit && end - first > limit) end = first + limit;
  uint64_t deadline = cp->slice_ns ? t0 + cp->slice_ns : 0;
  if (cmd->kind == DEV_CMD_LAUNCH && cmd->launch_fn) {
    int rc = cmd->launch_fn(cmd->launch_arg, cp->d, &cmd->launch, &cmd->exc);
    if (rc) r->status = rc;
    *done = end;
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
  return 0;
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

static uint64_t env_load(void *ctx, uint64_t addr) {
  return 0; /* the lowering reads no memory words */
}
static void env_store(void *ctx, uint64_t addr, uint64_t value) {}

/* Owner only: appends a command's operations to the stream. */
static int lower(struct cp_chan *ch, struct dev_cmd *cmd) {
  if (ch->nrecs == ch->cap_recs) {
    uint32_t cap = ch->cap_recs ? ch->cap_recs * 2 : 16;
    struct cp_rec *p = realloc(ch->recs, cap * sizeof *p);
    if (!p) return -1;
    ch->recs = p;
    ch->cap_recs = cap;
  }
  uint32_t id = ch->nrecs;
  struct cp_op ops[3] = {
      {.kind = CP_OP_CHECKPOINT},
      {.kind = CP_OP_LAUNCH, .value = id, .id = (unsigned)cmd->kind},
      {.kind = CP_OP_SIGNAL, .id = id},
  };
  uint64_t n = cmd_pieces(cmd);
  ops[1].n = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
  for (int k = 0; k < 3; k++)
    if (cp_stream_append(&ch->s, &ops[k]) != 0) return -1;
  ch->recs[id] = (struct cp_rec){cmd, 0, false, NULL};
  ch->nrecs++;
  return 0;
}

/* Under cp->lock: the highest priority of any stream with work. */
static int top_priority(struct cp *cp) {
  int top = -1000;
  for (struct cp_chan *c = cp->chans; c; c = c->next)
    if (c->pending && c->prio > top) top = c->prio;
  return top;
}

/* Under cp->lock: whether another stream waits that ch should give way to
 * (a higher priority, or an equal one after a slice). */
static bool should_yield(struct cp *cp, struct cp_chan *ch) {
  for (struct cp_chan *c = cp->chans; c; c = c->next)
    if (c != ch && c->pending && (c->prio > ch->prio || (c->prio == ch->prio && !c->owned)))
      return true;
  return false;
}

/* Under cp->lock: a stream with work that no thread steps and that no
 * stream of higher priority waits before, least recently run first. */
static struct cp_chan *next_runnable(struct cp *cp) {
  int top = top_priority(cp);
  struct cp_chan *best = NULL;
  for (struct cp_chan *c = cp->chans; c; c = c->next)
    if (c->pending && !c->owned && c->prio == top && (!best || c->last_run < best->last_run))
      best = c;
  return best;
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
    if (r != CP_STEP_OK) {
      /* Cannot happen with this lowering (no waits, traces sized for it). */
      fprintf(stderr, "lockstep: command stream %u stopped (%d)\n", ch->id, ch->s.error);
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
  for (uint32_t i = 0; i < ch->nrecs; i++)
    simt_close(ch->recs[i].run);
  cp_stream_fini(&ch->s);
  free(ch->recs);
  free(ch);
}

static void *cp_thread(void *arg) {
  struct cp *cp = arg;
  pthread_mutex_lock(&cp->lock);
  for (;;) {
    struct cp_chan *ch = next_runnable(cp);
    if (!ch) {
      if (cp->stop) break;
      pthread_cond_wait(&cp->work, &cp->lock);
      continue;
    }
    ch->owned = true;
    ch->last_run = ++cp->tick;
    atomic_store(&ch->preempt, 0);
    pthread_mutex_unlock(&cp->lock);
    run_chan(cp, ch);
    pthread_mutex_lock(&cp->lock);
    ch->owned = false;
    if (ch->dead && !ch->pending && !ch->head) chan_free(cp, ch);
    pthread_cond_broadcast(&cp->work);
  }
  pthread_mutex_unlock(&cp->lock);
  return NULL;
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
  for (struct cp_chan *c = cp->chans; c; c = c->next)
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
