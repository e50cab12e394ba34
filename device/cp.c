/*
 * cp.c - the command processor: one FIFO command stream per command queue,
 * executed in order by a small pool of device threads; different streams
 * run concurrently.
 *
 * Data movement (read, write, copy, fill and their rect forms) goes through
 * the device memory table, so a bad address fails the command instead of
 * touching host memory; launches go to the SIMT engine. Each command gets
 * real start/end times and exactly one done() call. This file must not know
 * about OpenCL objects: it sees only struct dev_cmd.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/cp.h"
#include "device/device.h"
#include "device/mem.h"
#include "device/simt.h"

#define CP_THREADS 4

struct cp_item {
  struct cp_item *next;
  struct dev_cmd *cmd;
};

/* One command stream: its FIFO and whether a thread is executing from it. */
struct cp_stream {
  struct cp_stream *next;
  unsigned id;
  struct cp_item *head, *tail;
  bool busy;
};

struct cp {
  struct dev_device *d;
  pthread_mutex_t lock;
  pthread_cond_t work; /* a stream became runnable, or stop */
  pthread_cond_t idle; /* a command finished */
  struct cp_stream *streams;
  struct cp_stream *rr; /* where the next search for work starts */
  unsigned queued;      /* submitted, not yet finished */
  bool stop;
  pthread_t threads[CP_THREADS];
  unsigned nthreads;
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

static int run_fill(struct dev_mem *m, struct dev_cmd *cmd) {
  char *dst = dev_ptr(m, cmd->dst, cmd->size);
  if (!dst) return cp_fault(cmd, "fill", cmd->dst, cmd->size);
  uint32_t ps = cmd->pattern_size ? cmd->pattern_size : 1;
  for (uint64_t i = 0; i + ps <= cmd->size; i += ps)
    memcpy(dst + i, cmd->pattern, ps);
  return 0;
}

/* Executes one command; returns 0 or a negative error with cmd->exc set. */
static int cp_execute(struct cp *cp, struct dev_cmd *cmd) {
  struct dev_mem *m = dev_device_mem(cp->d);
  void *p, *q;
  switch (cmd->kind) {
  case DEV_CMD_NOP: return 0;
  case DEV_CMD_READ:
    if (!(p = dev_ptr(m, cmd->src, cmd->size))) return cp_fault(cmd, "read", cmd->src, cmd->size);
    memcpy(cmd->host, p, cmd->size);
    return 0;
  case DEV_CMD_WRITE:
    if (!(p = dev_ptr(m, cmd->dst, cmd->size))) return cp_fault(cmd, "write", cmd->dst, cmd->size);
    memcpy(p, cmd->host, cmd->size);
    return 0;
  case DEV_CMD_COPY:
    if (!(p = dev_ptr(m, cmd->src, cmd->size)))
      return cp_fault(cmd, "copy source", cmd->src, cmd->size);
    if (!(q = dev_ptr(m, cmd->dst, cmd->size)))
      return cp_fault(cmd, "copy destination", cmd->dst, cmd->size);
    memmove(q, p, cmd->size);
    return 0;
  case DEV_CMD_FILL: return run_fill(m, cmd);
  case DEV_CMD_READ_RECT:
  case DEV_CMD_WRITE_RECT:
  case DEV_CMD_COPY_RECT: return run_rect(m, cmd);
  case DEV_CMD_LAUNCH:
    if (cmd->launch_fn) return cmd->launch_fn(cmd->launch_arg, cp->d, &cmd->launch, &cmd->exc);
    return simt_launch(cp->d, &cmd->launch, &cmd->exc);
  case DEV_CMD_HOST:
    if (cmd->host_fn) cmd->host_fn(cmd->host_arg);
    return 0;
  }
  snprintf(cmd->exc.message, sizeof cmd->exc.message, "device exception: unknown command %d",
           (int)cmd->kind);
  return -30; /* CL_INVALID_VALUE */
}

/* Under cp->lock: a stream with work and no command running, round-robin. */
static struct cp_stream *next_runnable(struct cp *cp) {
  struct cp_stream *start = cp->rr ? cp->rr : cp->streams;
  struct cp_stream *s = start;
  if (!s) return NULL;
  do {
    if (s->head && !s->busy) {
      cp->rr = s->next ? s->next : cp->streams;
      return s;
    }
    s = s->next ? s->next : cp->streams;
  } while (s != start);
  return NULL;
}

static void *cp_thread(void *arg) {
  struct cp *cp = arg;
  pthread_mutex_lock(&cp->lock);
  for (;;) {
    struct cp_stream *s = next_runnable(cp);
    if (!s) {
      if (cp->stop) break;
      pthread_cond_wait(&cp->work, &cp->lock);
      continue;
    }
    struct cp_item *it = s->head;
    s->head = it->next;
    if (!s->head) s->tail = NULL;
    s->busy = true;
    pthread_mutex_unlock(&cp->lock);

    struct dev_cmd *cmd = it->cmd;
    free(it);
    cmd->t_start = cp_now(cp);
    int status = cp_execute(cp, cmd);
    cmd->t_end = cp_now(cp);
    /* After done() the command belongs to the runtime again. */
    cmd->done(cmd, status);

    pthread_mutex_lock(&cp->lock);
    s->busy = false;
    cp->queued--;
    pthread_cond_broadcast(&cp->idle);
    if (s->head) pthread_cond_signal(&cp->work);
  }
  pthread_mutex_unlock(&cp->lock);
  return NULL;
}

struct cp *cp_create(struct dev_device *d) {
  struct cp *cp = calloc(1, sizeof *cp);
  if (!cp) return NULL;
  cp->d = d;
  pthread_mutex_init(&cp->lock, NULL);
  pthread_cond_init(&cp->work, NULL);
  pthread_cond_init(&cp->idle, NULL);
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
  for (struct cp_stream *s = cp->streams, *next; s; s = next) {
    next = s->next;
    free(s);
  }
  pthread_cond_destroy(&cp->idle);
  pthread_cond_destroy(&cp->work);
  pthread_mutex_destroy(&cp->lock);
  free(cp);
}

void cp_submit(struct cp *cp, unsigned stream, struct dev_cmd *cmd) {
  struct cp_item *it = malloc(sizeof *it);
  if (!it) {
    snprintf(cmd->exc.message, sizeof cmd->exc.message,
             "device exception: out of host memory queueing a command");
    cmd->t_start = cmd->t_end = cp_now(cp);
    cmd->done(cmd, -6); /* CL_OUT_OF_HOST_MEMORY */
    return;
  }
  it->cmd = cmd;
  it->next = NULL;
  pthread_mutex_lock(&cp->lock);
  struct cp_stream *s = cp->streams;
  while (s && s->id != stream)
    s = s->next;
  if (!s) {
    s = calloc(1, sizeof *s);
    if (!s) {
      pthread_mutex_unlock(&cp->lock);
      free(it);
      cmd->t_start = cmd->t_end = cp_now(cp);
      cmd->done(cmd, -6);
      return;
    }
    s->id = stream;
    s->next = cp->streams;
    cp->streams = s;
  }
  if (s->tail)
    s->tail->next = it;
  else
    s->head = it;
  s->tail = it;
  cp->queued++;
  pthread_cond_signal(&cp->work);
  pthread_mutex_unlock(&cp->lock);
}
