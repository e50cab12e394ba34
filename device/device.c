/*
 * device.c - the simulated device: its configuration, memory table, worker
 * thread pool (the host threads that simulate compute units) and command
 * processor, and the dev_ops table the runtime reaches it through.
 *
 * It must not interpret kernels (simt.c) or order commands (cp.c).
 */
#include "device/device.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "device/cp.h"
#include "device/dq.h"
#include "device/check.h"
#include "device/mem.h"

struct dev_job {
  void (*fn)(void *arg, unsigned k);
  void *arg;
  unsigned want, joined, finished;
  struct dev_job *next;
  pthread_cond_t done;
};

struct dev_device {
  struct dev_config cfg;
  struct dev_mem *mem;
  struct cp *cp;
  uint64_t t0;
  /* the pool */
  pthread_mutex_t mu;
  pthread_cond_t work;
  struct dev_job *queue; /* jobs still wanting workers, oldest first */
  bool quit;
  unsigned nthreads;
  pthread_t *threads;
  /* the open launches (dev_device_open_runs) */
  pthread_mutex_t open_mu;
  struct simt_run *open;
};

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void dev_device_reissue(struct dev_device *d, uint64_t token) {
  if (d && d->cp) cp_reissue(d->cp, token);
}

int dev_device_worker_id(struct dev_device *d) {
  pthread_t self = pthread_self();
  for (unsigned i = 0; i < d->nthreads; i++)
    if (pthread_equal(d->threads[i], self)) return (int)i;
  return -1;
}

static void *worker_main(void *p) {
  struct dev_device *d = p;
  pthread_mutex_lock(&d->mu);
  for (;;) {
    while (!d->quit && !d->queue)
      pthread_cond_wait(&d->work, &d->mu);
    if (d->quit) break;
    struct dev_job *j = d->queue;
    unsigned k = 1 + j->joined++; /* the caller itself runs k = 0 */
    if (j->joined == j->want) d->queue = j->next;
    pthread_mutex_unlock(&d->mu);
    j->fn(j->arg, k);
    pthread_mutex_lock(&d->mu);
    if (++j->finished == j->want) pthread_cond_signal(&j->done);
  }
  pthread_mutex_unlock(&d->mu);
  return NULL;
}

struct dev_device *dev_device_new(const struct dev_config *cfg) {
  struct dev_device *d = calloc(1, sizeof(*d));
  if (!d) return NULL;
  d->cfg = *cfg;
  d->t0 = mono_ns();
  d->mem = dev_mem_create();
  unsigned n = cfg->host_threads;
  if (n == 0) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    n = c > 0 ? (unsigned)c : 1;
  }
  if (n > 256) n = 256;
  d->threads = calloc(n, sizeof(*d->threads));
  if (!d->mem || !d->threads) {
    dev_mem_destroy(d->mem);
    free(d->threads);
    free(d);
    return NULL;
  }
  pthread_mutex_init(&d->mu, NULL);
  pthread_mutex_init(&d->open_mu, NULL);
  pthread_cond_init(&d->work, NULL);
  for (unsigned i = 0; i < n; i++) {
    if (pthread_create(&d->threads[i], NULL, worker_main, d) != 0) break;
    d->nthreads++;
  }
  if (d->nthreads == 0) {
    dev_device_free(d);
    return NULL;
  }
  return d;
}

void dev_device_free(struct dev_device *d) {
  if (!d) return;
  pthread_mutex_lock(&d->mu);
  d->quit = true;
  pthread_cond_broadcast(&d->work);
  pthread_mutex_unlock(&d->mu);
  for (unsigned i = 0; i < d->nthreads; i++)
    pthread_join(d->threads[i], NULL);
  pthread_cond_destroy(&d->work);
  pthread_mutex_destroy(&d->mu);
  pthread_mutex_destroy(&d->open_mu);
  dev_mem_destroy(d->mem);
  free(d->threads);
  free(d);
}

struct simt_run **dev_device_open_runs(struct dev_device *d) {
  pthread_mutex_lock(&d->open_mu);
  return &d->open;
}

void dev_device_open_done(struct dev_device *d) {
  pthread_mutex_unlock(&d->open_mu);
}

unsigned dev_device_workers(struct dev_device *d) {
  return d->nthreads;
}

void dev_device_run(struct dev_device *d, void (*fn)(void *arg, unsigned k), void *arg,
                    unsigned n) {
  if (n == 0) return;
  if (n > d->nthreads) n = d->nthreads;
  if (n == 1) { /* no hand-off at all: the caller is the one compute unit */
    fn(arg, 0);
    return;
  }
  /* The pool runs k = 1 .. n-1; only that many workers are woken. */
  struct dev_job j = {fn, arg, n - 1, 0, 0, NULL};
  pthread_cond_init(&j.done, NULL);
  pthread_mutex_lock(&d->mu);
  struct dev_job **tail = &d->queue;
  while (*tail)
    tail = &(*tail)->next;
  *tail = &j;
  for (unsigned i = 0; i < j.want; i++)
    pthread_cond_signal(&d->work);
  pthread_mutex_unlock(&d->mu);
  fn(arg, 0);
  pthread_mutex_lock(&d->mu);
  while (j.finished < j.want)
    pthread_cond_wait(&j.done, &d->mu);
  pthread_mutex_unlock(&d->mu);
  pthread_cond_destroy(&j.done);
}

uint64_t dev_device_now_ns(struct dev_device *d) {
  return mono_ns() - d->t0;
}

struct dev_mem *dev_device_mem(struct dev_device *d) {
  return d->mem;
}
const struct dev_config *dev_device_config(struct dev_device *d) {
  return &d->cfg;
}

/* ---- the ops table ---- */

static struct dev_device *simt_create(const struct dev_config *cfg) {
  struct dev_device *d = dev_device_new(cfg);
  if (!d) return NULL;
  d->cp = cp_create(d);
  if (!d->cp) {
    dev_device_free(d);
    return NULL;
  }
  return d;
}

static uint64_t simt_map_global(struct dev_device *d, void *host, uint64_t size, bool read_only) {
  return dev_mem_map(d->mem, host, size, read_only);
}

static void simt_unmap_global(struct dev_device *d, uint64_t addr) {
  dev_mem_unmap(d->mem, addr);
}

static void *simt_svm_alloc(struct dev_device *d, uint64_t size, bool read_only) {
  return dev_mem_svm_alloc(d->mem, size, read_only);
}

static void simt_svm_free(struct dev_device *d, void *p) {
  dev_mem_svm_free(d->mem, p);
}

static void simt_map_undefined(struct dev_device *d, uint64_t addr) {
  if (d->cfg.check & DEV_CHECK_UNINIT) dev_mem_set_undefined(d->mem, addr);
}

static void simt_map_view(struct dev_device *d, uint64_t addr, uint64_t parent) {
  if (d->cfg.check & DEV_CHECK_UNINIT) dev_mem_share_undefined(d->mem, addr, parent);
}

static void simt_define_global(struct dev_device *d, uint64_t addr, uint64_t len) {
  dev_mem_define(d->mem, addr, 0, len);
}

static void simt_submit(struct dev_device *d, unsigned stream, struct dev_cmd *cmd) {
  cp_submit(d->cp, stream, cmd);
}

static void simt_stream_release(struct dev_device *d, unsigned stream) {
  cp_release_stream(d->cp, stream);
}

/* ---- on-device queues ---- */

struct dq_mem {
  struct dev_device *d;
  uint64_t handle;
  uint64_t *words;
};

static void dq_free(void *arg) {
  struct dq_mem *m = arg;
  dev_mem_unmap(m->d->mem, m->handle);
  free(m->words);
  free(m);
}

static uint64_t simt_dq_create(struct dev_device *d, uint64_t size) {
  static _Atomic unsigned next_stream = 0x40000000u;
  uint32_t n = dq_entries(size);
  uint64_t words = dq_words(n);
  struct dq_mem *m = calloc(1, sizeof *m);
  if (!m || !(m->words = calloc(words, 8))) {
    free(m);
    return 0;
  }
  m->d = d;
  m->handle = dev_mem_map(d->mem, m->words, words * 8, false);
  if (!m->handle) {
    free(m->words);
    free(m);
    return 0;
  }
  struct wq_ref r = {m->words, m->handle >> 3, n};
  wq_init(r);
  m->words[DQ_H_MAGIC] = DQ_MAGIC;
  m->words[DQ_H_NREC] = dq_records(n);
  m->words[DQ_H_NEV] = dq_events(n);
  if (cp_add_ring(d->cp, m->handle, m->words, n, atomic_fetch_add(&next_stream, 1), dq_free, m)) {
    dq_free(m);
    return 0;
  }
  return m->handle;
}

static void simt_dq_release(struct dev_device *d, uint64_t handle) {
  cp_release_ring(d->cp, handle);
}

static uint64_t simt_now_ns(struct dev_device *d) {
  return dev_device_now_ns(d);
}

const struct dev_ops dev_simt_ops = {
    .name = "lockstep-simt",
    .create = simt_create,
    .map_global = simt_map_global,
    .unmap_global = simt_unmap_global,
    .map_undefined = simt_map_undefined,
    .svm_alloc = simt_svm_alloc,
    .svm_free = simt_svm_free,
    .map_view = simt_map_view,
    .define_global = simt_define_global,
    .submit = simt_submit,
    .stream_release = simt_stream_release,
    .now_ns = simt_now_ns,
    .dq_create = simt_dq_create,
    .dq_release = simt_dq_release,
};
