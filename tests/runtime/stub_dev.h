/*
 * stub_dev.h - a stub device (a struct dev_ops) for the runtime's unit
 * tests: one worker thread runs every command in submission order, data
 * commands act on host memory through a small mapping table, and a test can
 * pause the worker to observe queued states deterministically. A LAUNCH
 * always fails with a device exception. Header-only, included once per test
 * program; it must not depend on the simulator.
 */
#ifndef LOCKSTEP_TESTS_STUB_DEV_H
#define LOCKSTEP_TESTS_STUB_DEV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/rt.h"

#define STUB_MAX_MAPS 4096

struct stub_item {
  struct stub_item *next;
  struct dev_cmd *cmd;
};

struct stub_dev {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  struct stub_item *head, *tail;
  bool paused;
  unsigned executed;
  struct {
    void *host;
    uint64_t size;
    bool live;
  } maps[STUB_MAX_MAPS];
  unsigned nmaps;
  pthread_t thread;
};

static struct stub_dev *stub_instance;
#define SD(d) ((struct stub_dev *)(void *)(d))

static uint64_t stub_now_ns(struct dev_device *d) {
  (void)d;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define STUB_ADDR(id) ((UINT64_C(1) << 60) | ((uint64_t)(id) << 40))

static void *stub_host(struct stub_dev *d, uint64_t addr, uint64_t len) {
  unsigned id = (unsigned)((addr >> 40) & 0xfffff);
  uint64_t off = addr & ((UINT64_C(1) << 40) - 1);
  void *p = NULL;
  pthread_mutex_lock(&d->lock);
  if ((addr >> 60) == 1 && id >= 1 && id <= d->nmaps && d->maps[id - 1].live &&
      off <= d->maps[id - 1].size && len <= d->maps[id - 1].size - off)
    p = (char *)d->maps[id - 1].host + off;
  pthread_mutex_unlock(&d->lock);
  return p;
}

static int stub_fault(struct dev_cmd *c, const char *what) {
  snprintf(c->exc.message, sizeof c->exc.message, "stub device: %s", what);
  return CL_OUT_OF_RESOURCES;
}

static int stub_rect(struct stub_dev *d, struct dev_cmd *c) {
  const struct dev_rect *r = &c->rect;
  for (uint64_t z = 0; z < r->region[2]; z++)
    for (uint64_t y = 0; y < r->region[1]; y++) {
      uint64_t so = (r->src_origin[2] + z) * r->src_slice_pitch +
                    (r->src_origin[1] + y) * r->src_row_pitch + r->src_origin[0];
      uint64_t dof = (r->dst_origin[2] + z) * r->dst_slice_pitch +
                     (r->dst_origin[1] + y) * r->dst_row_pitch + r->dst_origin[0];
      char *s = c->kind == DEV_CMD_WRITE_RECT ? (char *)c->host + so
                                              : stub_host(d, c->src + so, r->region[0]);
      char *t = c->kind == DEV_CMD_READ_RECT ? (char *)c->host + dof
                                             : stub_host(d, c->dst + dof, r->region[0]);
      if (!s || !t) return stub_fault(c, "rect out of range");
      memmove(t, s, r->region[0]);
    }
  return 0;
}

static int stub_fill_rect(struct stub_dev *d, struct dev_cmd *c) {
  const struct dev_rect *r = &c->rect;
  for (uint64_t z = 0; z < r->region[2]; z++)
    for (uint64_t y = 0; y < r->region[1]; y++) {
      uint64_t o = (r->dst_origin[2] + z) * r->dst_slice_pitch +
                   (r->dst_origin[1] + y) * r->dst_row_pitch + r->dst_origin[0];
      char *t = stub_host(d, c->dst + o, r->region[0]);
      if (!t) return stub_fault(c, "rect fill out of range");
      for (uint64_t i = 0; i + c->pattern_size <= r->region[0]; i += c->pattern_size)
        memcpy(t + i, c->pattern, c->pattern_size);
    }
  return 0;
}

static int stub_exec(struct stub_dev *d, struct dev_cmd *c) {
  char *s, *t;
  switch (c->kind) {
  case DEV_CMD_NOP: return 0;
  case DEV_CMD_READ:
    if (!c->size) return 0;
    if (!(s = stub_host(d, c->src, c->size))) return stub_fault(c, "read out of range");
    memcpy(c->host, s, c->size);
    return 0;
  case DEV_CMD_WRITE:
    if (!c->size) return 0;
    if (!(t = stub_host(d, c->dst, c->size))) return stub_fault(c, "write out of range");
    memcpy(t, c->host, c->size);
    return 0;
  case DEV_CMD_COPY:
    if (!c->size) return 0;
    s = stub_host(d, c->src, c->size);
    t = stub_host(d, c->dst, c->size);
    if (!s || !t) return stub_fault(c, "copy out of range");
    memmove(t, s, c->size);
    return 0;
  case DEV_CMD_FILL:
    if (!c->size) return 0;
    if (!(t = stub_host(d, c->dst, c->size))) return stub_fault(c, "fill out of range");
    for (uint64_t i = 0; i + c->pattern_size <= c->size; i += c->pattern_size)
      memcpy(t + i, c->pattern, c->pattern_size);
    return 0;
  case DEV_CMD_READ_RECT:
  case DEV_CMD_WRITE_RECT:
  case DEV_CMD_COPY_RECT: return stub_rect(d, c);
  case DEV_CMD_FILL_RECT: return stub_fill_rect(d, c);
  case DEV_CMD_LAUNCH: return stub_fault(c, "kernel 'k' faulted at stub.cl:1");
  case DEV_CMD_HOST: c->host_fn(c->host_arg); return 0;
  }
  return stub_fault(c, "unknown command");
}

static void *stub_worker(void *arg) {
  struct stub_dev *d = arg;
  for (;;) {
    pthread_mutex_lock(&d->lock);
    while (d->paused || !d->head)
      pthread_cond_wait(&d->cond, &d->lock);
    struct stub_item *it = d->head;
    d->head = it->next;
    if (!d->head) d->tail = NULL;
    pthread_mutex_unlock(&d->lock);
    struct dev_cmd *c = it->cmd;
    free(it);
    c->t_start = stub_now_ns(NULL);
    int st = stub_exec(d, c);
    c->t_end = stub_now_ns(NULL);
    pthread_mutex_lock(&d->lock);
    d->executed++;
    pthread_mutex_unlock(&d->lock);
    c->done(c, st);
  }
  return NULL;
}

static struct dev_device *stub_create(const struct dev_config *cfg) {
  (void)cfg;
  struct stub_dev *d = calloc(1, sizeof *d);
  pthread_mutex_init(&d->lock, NULL);
  pthread_cond_init(&d->cond, NULL);
  pthread_create(&d->thread, NULL, stub_worker, d);
  pthread_detach(d->thread);
  stub_instance = d;
  return (struct dev_device *)(void *)d;
}

static uint64_t stub_map(struct stub_dev *d, void *host, uint64_t size, bool ro) {
  (void)ro;
  uint64_t a = 0;
  pthread_mutex_lock(&d->lock);
  if (d->nmaps < STUB_MAX_MAPS) {
    d->maps[d->nmaps].host = host;
    d->maps[d->nmaps].size = size;
    d->maps[d->nmaps].live = true;
    a = STUB_ADDR(++d->nmaps);
  }
  pthread_mutex_unlock(&d->lock);
  return a;
}

static void stub_unmap(struct stub_dev *d, uint64_t addr) {
  unsigned id = (unsigned)((addr >> 40) & 0xfffff);
  pthread_mutex_lock(&d->lock);
  if (id >= 1 && id <= d->nmaps) d->maps[id - 1].live = false;
  pthread_mutex_unlock(&d->lock);
}

static void stub_submit(struct stub_dev *d, unsigned stream, struct dev_cmd *cmd) {
  (void)stream;
  struct stub_item *it = calloc(1, sizeof *it);
  it->cmd = cmd;
  pthread_mutex_lock(&d->lock);
  if (d->tail)
    d->tail->next = it;
  else
    d->head = it;
  d->tail = it;
  pthread_cond_broadcast(&d->cond);
  pthread_mutex_unlock(&d->lock);
}

static uint64_t stub_ops_map(struct dev_device *d, void *host, uint64_t size, bool ro) {
  return stub_map(SD(d), host, size, ro);
}
static void stub_ops_unmap(struct dev_device *d, uint64_t addr) {
  stub_unmap(SD(d), addr);
}
static void stub_ops_submit(struct dev_device *d, unsigned stream, struct dev_cmd *cmd) {
  stub_submit(SD(d), stream, cmd);
}

static const struct dev_ops stub_ops = {
    .name = "stub",
    .create = stub_create,
    .map_global = stub_ops_map,
    .unmap_global = stub_ops_unmap,
    .submit = stub_ops_submit,
    .now_ns = stub_now_ns,
};

/* Installs the stub; call before anything touches the device. */
static inline void stub_install(void) {
  rt_set_dev_ops(&stub_ops);
}

/* Holds (true) or releases (false) the worker. */
static inline void stub_pause(bool on) {
  struct stub_dev *d = SD(rt_dev());
  pthread_mutex_lock(&d->lock);
  d->paused = on;
  pthread_cond_broadcast(&d->cond);
  pthread_mutex_unlock(&d->lock);
}

/* Number of commands submitted to the stub and not yet started. */
static inline unsigned stub_queued(void) {
  struct stub_dev *d = SD(rt_dev());
  unsigned n = 0;
  pthread_mutex_lock(&d->lock);
  for (struct stub_item *it = d->head; it; it = it->next)
    n++;
  pthread_mutex_unlock(&d->lock);
  return n;
}

/* A command that runs fn(arg) on the stub's thread, for ordering tests. */
static inline struct dev_cmd *stub_host_cmd(void (*fn)(void *), void *arg) {
  struct dev_cmd *c = calloc(1, sizeof *c);
  c->kind = DEV_CMD_HOST;
  c->host_fn = fn;
  c->host_arg = arg;
  return c;
}

/* An order log filled by stub_log_fn (one int per command). */
struct stub_log {
  pthread_mutex_t lock;
  int seq[256];
  unsigned n;
};
struct stub_log_entry {
  struct stub_log *log;
  int value;
};
static inline void stub_log_fn(void *arg) {
  struct stub_log_entry *e = arg;
  pthread_mutex_lock(&e->log->lock);
  if (e->log->n < 256) e->log->seq[e->log->n++] = e->value;
  pthread_mutex_unlock(&e->log->lock);
}

#endif
