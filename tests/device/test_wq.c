/*
 * test_wq.c - device-side work queues (device/wq.c and CP_OP_FETCH in
 * device/cp_stream.c) driven by scripted launches: ring rules, disjoint
 * gap-free reservations from many threads, the gate, reservation order over
 * fill order, a wrong release value, capacity, a failed reservation, the
 * host channel waiting for a whole tree of children, switching while a
 * stream waits, command-block snapshots surviving slot reuse, slot reuse over
 * many laps, a long round's bounded history, randomised switch points, a
 * thousand children and a full queue. Memory is an array;
 * "threads" are the launch hook or real pthreads for the reservation race.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/wq.h"
#include "util/check_util.h"

#define MEMW    (1u << 18)
#define QA      65536u /* queue address */
#define DATA    20000u /* per-node words the tree writes */
#define OUTA    30000u
#define LOGN    4096
#define K_TREE  1
#define K_CHAIN 2
#define K_LOG   3
#define K_FAN   4

struct world {
  uint64_t mem[MEMW];
  uint64_t log[LOGN];
  unsigned nlog;
  struct wq_ref q;
  unsigned fanout, depth;
  unsigned full, bad_parent;
};

static uint64_t w_load(void *ctx, uint64_t a) {
  return __atomic_load_n(&((struct world *)ctx)->mem[a % MEMW], __ATOMIC_ACQUIRE);
}
static void w_store(void *ctx, uint64_t a, uint64_t v) {
  __atomic_store_n(&((struct world *)ctx)->mem[a % MEMW], v, __ATOMIC_RELEASE);
}
static void logv(struct world *w, uint64_t v) {
  ck_assert_uint_lt(w->nlog, LOGN);
  w->log[w->nlog++] = v;
}
static struct cp_op launch(unsigned kernel, uint64_t arg) {
  return (struct cp_op){.kind = CP_OP_LAUNCH, .n = 1, .value = arg, .id = kernel};
}

/* The scripted kernels: one work-group per launch. */
static int w_group(void *ctx, const struct cp_launch_info *l, uint64_t g) {
  struct world *w = ctx;
  logv(w, (uint64_t)l->kernel << 32 | l->arg);
  if (l->kernel == K_TREE) {
    uint64_t node = l->arg & 0xffffffu, depth = l->arg >> 24;
    if (node && w->mem[DATA + (node - 1) / w->fanout] != (node - 1) / w->fanout + 1)
      w->bad_parent++; /* the parent's write is not visible */
    w->mem[DATA + node] = node + 1;
    if (depth + 1 < w->depth) {
      struct cp_op cmds[16];
      uint32_t nc[16];
      for (unsigned k = 0; k < w->fanout; k++) {
        cmds[k] = launch(K_TREE, (depth + 1) << 24 | (node * w->fanout + 1 + k));
        nc[k] = 1;
      }
      if (wq_submit(w->q, cmds, nc, w->fanout) == WQ_FULL) w->full++;
    }
  } else if (l->kernel == K_FAN) { /* arg children, one reservation each */
    for (uint64_t k = 0; k < l->arg; k++) {
      struct cp_op c = launch(K_LOG, k);
      uint32_t one = 1;
      int rc = wq_submit(w->q, &c, &one, 1);
      ck_assert(rc == WQ_OK || rc == WQ_FULL);
      w->full += rc == WQ_FULL;
    }
  } else if (l->kernel == K_CHAIN && l->arg > 0) {
    struct cp_op c = launch(K_CHAIN, l->arg - 1);
    uint32_t one = 1;
    ck_assert_int_eq(wq_submit(w->q, &c, &one, 1), WQ_OK);
  }
  return 0;
}
static void w_signal(void *ctx, unsigned s, unsigned id) {
  logv(ctx, 99ull << 32 | id);
}

static struct cp_env env_of(struct world *w) {
  struct cp_env e = {
      .ctx = w, .load = w_load, .store = w_store, .group = w_group, .signal = w_signal};
  return e;
}

static struct world *new_world(uint32_t n) {
  struct world *w = calloc(1, sizeof *w);
  ck_assert_ptr_nonnull(w);
  w->q = (struct wq_ref){&w->mem[QA], QA, n};
  ck_assert_int_eq(wq_init(w->q), WQ_OK);
  return w;
}

static void add(struct cp_stream *s, struct cp_op op) {
  ck_assert_int_eq(cp_stream_append(s, &op), 0);
}

/* Runs the streams, reserving the terminator whenever all of them wait;
 * returns what cp_sched_run last returned (-1: everything left waits). */
static int run(struct world *w, struct cp_stream **ss, unsigned n, struct cp_stream *dev,
               const struct cp_sched_opts *o) {
  struct cp_env e = env_of(w);
  for (int k = 0; k < 100000; k++) {
    int rc = cp_sched_run(ss, n, &e, o);
    if (rc != -1 || !wq_quiesce(w->q, dev)) return rc;
  }
  return -2;
}

static bool finished(const struct cp_stream *s) {
  return s->tr.scheduled >= s->nops && !s->error;
}

START_TEST(ring_rules) {
  for (uint32_t n = 3; n <= 16; n++) {
    for (uint32_t get = 0; get < n; get++) {
      ck_assert(wq_ring_empty(get, get));
      ck_assert(!wq_ring_full(get, get, n));
      uint32_t put = wq_wrap((int64_t)get - 1, n); /* the whole ring submitted */
      ck_assert(wq_ring_full(get, put, n));
      ck_assert(!wq_ring_empty(get, put));
      ck_assert_uint_eq(wq_wrap((int64_t)put + 1, n), get);
    }
    ck_assert_uint_eq(wq_wrap(-1, n), n - 1);
    ck_assert_uint_eq(wq_wrap(n, n), 0);
    ck_assert_uint_eq(wq_wrap(n - 1, n), n - 1);
  }
}
END_TEST

START_TEST(blocks_encode_and_reject_host_ops) {
  struct cp_op a = {.kind = CP_OP_LAUNCH, .a = 7, .b = 8, .value = 9, .n = 1000, .id = 77}, b;
  uint64_t w[WQ_CMD_WORDS];
  wq_encode(&a, w);
  ck_assert(wq_decode(w, &b));
  ck_assert(b.kind == a.kind && b.a == 7 && b.b == 8 && b.value == 9 && b.n == 1000 && b.id == 77);
  enum cp_op_kind bad[] = {CP_OP_READ, CP_OP_WRITE, CP_OP_CHECKPOINT, CP_OP_FETCH};
  for (unsigned k = 0; k < 4; k++) {
    a.kind = bad[k];
    wq_encode(&a, w);
    ck_assert(!wq_decode(w, &b));
  }
  struct world *wd = new_world(8);
  uint32_t one = 1;
  uint64_t before[256];
  memcpy(before, wd->q.mem, sizeof before);
  a.kind = CP_OP_WRITE;
  ck_assert_int_eq(wq_submit(wd->q, &a, &one, 1), WQ_INVALID);
  ck_assert(memcmp(before, wd->q.mem, sizeof before) == 0);
  free(wd);
}
END_TEST

START_TEST(init_writes_header_and_gate) {
  struct world *w = new_world(8);
  uint64_t *m = w->q.mem;
  ck_assert_uint_eq(m[WQ_SOFT_PUT], 1);
  ck_assert_uint_eq(m[WQ_SHADOW_PUT], 7);
  ck_assert_uint_eq(m[WQ_SEM_X], 0);
  ck_assert_uint_eq(m[WQ_SEM_Y], 0);
  ck_assert_uint_eq(m[WQ_NENT], 8);
  uint64_t blk = m[wq_entry_off(8, 0)];
  ck_assert_uint_eq(blk, QA + wq_block_off(8, 0)); /* inside the queue's memory */
  ck_assert_uint_eq(w->mem[blk], 2);
  struct cp_op op;
  ck_assert(wq_decode(&w->mem[blk + 1], &op));
  ck_assert(op.kind == CP_OP_SEM_ACQUIRE && op.a == QA + WQ_SEM_X && op.value == 1);
  ck_assert(wq_decode(&w->mem[blk + 1 + WQ_CMD_WORDS], &op));
  ck_assert(op.kind == CP_OP_SEM_ACQUIRE && op.a == QA + wq_sem_off(8, 0) && op.value == 1);
  ck_assert_int_eq(wq_init((struct wq_ref){w->q.mem, QA, 3}), WQ_INVALID);
  free(w);
}
END_TEST

/* ---- reservations from many threads ---- */

#define NTHR 8
#define PERT 512
struct rsv {
  struct wq_ref q;
  unsigned seed, n;
  uint64_t first[PERT];
  uint32_t count[PERT];
};

static void *reserver(void *arg) {
  struct rsv *r = arg;
  for (r->n = 0; r->n < PERT;) {
    uint32_t c = 1 + rand_r(&r->seed) % 4;
    int rc = wq_reserve(r->q, c, &r->first[r->n]);
    if (rc == WQ_FULL) break;
    ck_assert_int_eq(rc, WQ_OK);
    r->count[r->n++] = c;
  }
  return NULL;
}

START_TEST(reservations_from_many_threads_are_disjoint_and_gap_free) {
  enum { N = 2048 };
  uint64_t *mem = calloc(wq_words(N), sizeof *mem);
  struct wq_ref q = {mem, 0, N};
  ck_assert_int_eq(wq_init(q), WQ_OK);
  static struct rsv r[NTHR];
  pthread_t t[NTHR];
  for (unsigned k = 0; k < NTHR; k++) {
    r[k] = (struct rsv){.q = q, .seed = 17 + k};
    ck_assert_int_eq(pthread_create(&t[k], NULL, reserver, &r[k]), 0);
  }
  for (unsigned k = 0; k < NTHR; k++)
    pthread_join(t[k], NULL);
  uint64_t soft = mem[WQ_SOFT_PUT];
  ck_assert_uint_le(soft, mem[WQ_SHADOW_PUT]);
  ck_assert_uint_gt(soft, N - 5); /* ran until (nearly) full */
  unsigned char *hit = calloc(N, 1);
  for (unsigned k = 0; k < NTHR; k++)
    for (unsigned i = 0; i < r[k].n; i++)
      for (uint64_t p = r[k].first[i]; p < r[k].first[i] + r[k].count[i]; p++) {
        ck_assert_uint_lt(p, soft);
        ck_assert_uint_eq(hit[p]++, 0); /* disjoint */
      }
  for (uint64_t p = 1; p < soft; p++)
    ck_assert_uint_eq(hit[p], 1); /* gap-free */
  free(hit);
  free(mem);
}
END_TEST

START_TEST(capacity_boundary_and_failed_reservation_change_nothing) {
  struct world *w = new_world(8);
  struct cp_env e = env_of(w);
  uint64_t first, before[WQ_HDR + 16 + 8 * WQ_BLOCK_WORDS];
  ck_assert_int_eq(wq_reserve(w->q, 8, &first), WQ_INVALID); /* never fits */
  ck_assert_int_eq(wq_reserve(w->q, 7, &first), WQ_FULL);    /* 1 + 7 > 7 */
  ck_assert_int_eq(wq_reserve(w->q, 6, &first), WQ_OK);      /* exactly up to the limit */
  ck_assert_uint_eq(first, 1);
  memcpy(before, w->q.mem, sizeof before);
  ck_assert_int_eq(wq_reserve(w->q, 1, &first), WQ_FULL);
  struct cp_op c = launch(K_LOG, 5);
  uint32_t one = 1;
  ck_assert_int_eq(wq_submit(w->q, &c, &one, 1), WQ_FULL);
  ck_assert(memcmp(before, w->q.mem, sizeof before) == 0);
  /* Fill and close positions 1..6, open the gate: the processor fetches
   * them all and the ring frees up to GP_GET + n - 1. */
  for (uint64_t p = 1; p < 6; p++) {
    struct cp_op l = launch(K_LOG, p);
    ck_assert_int_eq(wq_put_block(w->q, p, &l, 1), WQ_OK);
  }
  wq_commit(w->q, 1, 6);
  w->mem[QA + WQ_SEM_X] = 1;
  struct cp_stream dev;
  ck_assert_int_eq(cp_stream_init(&dev, 0, 256), 0);
  ck_assert_int_eq(wq_attach(&dev, &w->q), WQ_OK);
  struct cp_stream *ss[] = {&dev};
  ck_assert_int_eq(cp_sched_run(ss, 1, &e, NULL), -1);
  ck_assert_uint_eq(w->nlog, 5);
  ck_assert_uint_eq(wq_gp_get(&dev), 7);
  ck_assert_uint_eq(w->q.mem[WQ_SHADOW_PUT], 7 + 7);
  ck_assert_int_eq(wq_reserve(w->q, 7, &first), WQ_OK);
  ck_assert_uint_eq(first, 7);
  ck_assert_int_eq(wq_reserve(w->q, 1, &first), WQ_FULL);
  cp_stream_fini(&dev);
  free(w);
}
END_TEST

START_TEST(gate_holds_until_release_x) {
  struct world *w = new_world(8);
  struct cp_env e = env_of(w);
  struct cp_op c = launch(K_LOG, 1);
  uint32_t one = 1;
  ck_assert_int_eq(wq_submit(w->q, &c, &one, 1), WQ_OK);
  struct cp_stream dev;
  ck_assert_int_eq(cp_stream_init(&dev, 0, 256), 0);
  ck_assert_int_eq(wq_attach(&dev, &w->q), WQ_OK);
  struct cp_stream *ss[] = {&dev};
  ck_assert_int_eq(cp_sched_run(ss, 1, &e, NULL), -1);
  ck_assert_uint_eq(w->nlog, 0); /* committed, but the gate holds */
  ck_assert(!wq_quiesce(w->q, &dev));
  w->mem[QA + WQ_SEM_X] = 1;
  ck_assert_int_eq(cp_sched_run(ss, 1, &e, NULL), -1);
  ck_assert_uint_eq(w->nlog, 1);
  ck_assert_uint_eq(w->log[0], (uint64_t)K_LOG << 32 | 1);
  cp_stream_fini(&dev);
  free(w);
}
END_TEST

START_TEST(reservation_order_beats_fill_order) {
  struct world *w = new_world(8);
  struct cp_env e = env_of(w);
  w->mem[QA + WQ_SEM_X] = 1;
  uint64_t a, b;
  ck_assert_int_eq(wq_reserve(w->q, 2, &a), WQ_OK);
  ck_assert_int_eq(wq_reserve(w->q, 2, &b), WQ_OK);
  ck_assert_uint_eq(b, a + 2);
  struct cp_op lb = launch(K_LOG, 'B'), la = launch(K_LOG, 'A');
  ck_assert_int_eq(wq_put_block(w->q, b, &lb, 1), WQ_OK);
  wq_commit(w->q, b, 2); /* B is filled first */
  struct cp_stream dev;
  ck_assert_int_eq(cp_stream_init(&dev, 0, 256), 0);
  ck_assert_int_eq(wq_attach(&dev, &w->q), WQ_OK);
  struct cp_stream *ss[] = {&dev};
  ck_assert_int_eq(cp_sched_run(ss, 1, &e, NULL), -1);
  ck_assert_uint_eq(w->nlog, 0);
  ck_assert(!wq_quiesce(w->q, &dev)); /* reservations are pending */
  ck_assert_int_eq(wq_put_block(w->q, a, &la, 1), WQ_OK);
  wq_commit(w->q, a, 2);
  ck_assert_int_eq(cp_sched_run(ss, 1, &e, NULL), -1);
  ck_assert_uint_eq(w->nlog, 2);
  ck_assert_uint_eq(w->log[0] & 0xff, 'A');
  ck_assert_uint_eq(w->log[1] & 0xff, 'B');
  cp_stream_fini(&dev);
  free(w);
}
END_TEST

START_TEST(wrong_release_value_keeps_the_processor_blocked) {
  struct world *w = new_world(8);
  struct cp_env e = env_of(w);
  w->mem[QA + WQ_SEM_X] = 1;
  uint64_t a;
  ck_assert_int_eq(wq_reserve(w->q, 2, &a), WQ_OK);
  struct cp_op l = launch(K_LOG, 1);
  ck_assert_int_eq(wq_put_block(w->q, a, &l, 1), WQ_OK);
  struct cp_op close = {.kind = CP_OP_SEM_ACQUIRE, .a = QA + wq_sem_off(8, a + 1), .value = a + 2};
  ck_assert_int_eq(wq_put_block(w->q, a + 1, &close, 1), WQ_OK);
  struct cp_stream dev;
  ck_assert_int_eq(cp_stream_init(&dev, 0, 256), 0);
  ck_assert_int_eq(wq_attach(&dev, &w->q), WQ_OK);
  struct cp_stream *ss[] = {&dev};
  w->mem[QA + wq_sem_off(8, a - 1)] = a - 1; /* wrong: the acquire wants a */
  ck_assert_int_eq(cp_sched_run(ss, 1, &e, NULL), -1);
  ck_assert_uint_eq(w->nlog, 0);
  w->mem[QA + wq_sem_off(8, a - 1)] = a;
  ck_assert_int_eq(cp_sched_run(ss, 1, &e, NULL), -1);
  ck_assert_uint_eq(w->nlog, 1);
  cp_stream_fini(&dev);
  free(w);
}
END_TEST

/* Host: [checkpoint, launch parent, WAIT_IDLE, release X, acquire Y, signal]
 * per round; the tree's every node runs before the signal. */
static void tree_case(unsigned fanout, unsigned depth, uint32_t n, unsigned rounds,
                      const struct cp_sched_opts *o, uint64_t *log_out, unsigned *nlog_out) {
  struct world *w = new_world(n);
  w->fanout = fanout;
  w->depth = depth;
  struct cp_stream dev, host;
  ck_assert_int_eq(cp_stream_init(&dev, 0, 256), 0);
  ck_assert_int_eq(cp_stream_init(&host, 1, 256), 0);
  ck_assert_int_eq(wq_attach(&dev, &w->q), WQ_OK);
  for (unsigned r = 1; r <= rounds; r++) {
    add(&host, (struct cp_op){.kind = CP_OP_CHECKPOINT});
    struct cp_op parent = launch(K_TREE, 0);
    ck_assert_int_eq(wq_host_block(&host, &w->q, r, &parent), WQ_OK);
    add(&host, (struct cp_op){.kind = CP_OP_SIGNAL, .id = r});
  }
  struct cp_stream *ss[] = {&dev, &host};
  ck_assert_int_eq(run(w, ss, 2, &dev, o), -1); /* the queue waits for the next round */
  ck_assert(finished(&host));
  unsigned nodes = 0;
  for (unsigned d = 0, k = 1; d < depth; d++, k *= fanout)
    nodes += k;
  ck_assert_uint_eq(w->full, 0);
  ck_assert_uint_eq(w->bad_parent, 0);
  ck_assert_uint_eq(w->nlog, rounds * (nodes + 1));
  for (unsigned r = 0; r < rounds; r++) {
    const uint64_t *l = &w->log[r * (nodes + 1)];
    for (unsigned k = 0; k < nodes; k++)
      ck_assert_uint_eq(l[k] >> 32, K_TREE);
    ck_assert_uint_eq(l[nodes], 99ull << 32 | (r + 1)); /* after every child */
  }
  ck_assert_uint_eq(w->mem[QA + WQ_SEM_Y], rounds);
  if (log_out) memcpy(log_out, w->log, w->nlog * sizeof *log_out);
  if (nlog_out) *nlog_out = w->nlog;
  cp_stream_fini(&dev);
  cp_stream_fini(&host);
  free(w);
}

START_TEST(host_signal_waits_for_children_and_grandchildren) {
  tree_case(3, 4, 64, 1, NULL, NULL, NULL); /* 40 nodes, 3 levels below the parent */
  tree_case(2, 3, 8, 3, NULL, NULL, NULL);  /* three rounds through the terminator */
  tree_case(1, 1, 4, 2, NULL, NULL, NULL);  /* no children: the terminator alone */
}
END_TEST

START_TEST(processor_runs_another_stream_while_one_waits) {
  struct world *w = new_world(8);
  struct cp_env e = env_of(w);
  struct cp_stream dev, other;
  ck_assert_int_eq(cp_stream_init(&dev, 0, 256), 0);
  ck_assert_int_eq(cp_stream_init(&other, 1, 64), 0);
  ck_assert_int_eq(wq_attach(&dev, &w->q), WQ_OK);
  add(&other, (struct cp_op){.kind = CP_OP_CHECKPOINT});
  for (unsigned k = 0; k < 5; k++)
    add(&other, (struct cp_op){.kind = CP_OP_FILL, .a = OUTA + k, .n = 1, .value = k + 1});
  struct cp_stream *ss[] = {&dev, &other};
  ck_assert_int_eq(cp_sched_run(ss, 2, &e, NULL), -1); /* only the queue is left waiting */
  ck_assert(finished(&other));
  ck_assert_uint_ge(dev.st.switches, 1);
  for (unsigned k = 0; k < 5; k++)
    ck_assert_uint_eq(w->mem[OUTA + k], k + 1);
  cp_stream_fini(&dev);
  cp_stream_fini(&other);
  free(w);
}
END_TEST

/* FETCH of position 1 is processed (its block snapshotted), the stream is
 * switched out and the slot's words change; the replay runs the snapshot. */
static uint64_t snapshot_case(bool trace) {
  struct world *w = new_world(8);
  struct cp_env e = env_of(w);
  w->mem[QA + WQ_SEM_X] = 1;
  struct cp_op fill = {.kind = CP_OP_FILL, .a = OUTA, .n = 1, .value = 5};
  uint32_t one = 1;
  ck_assert_int_eq(wq_submit(w->q, &fill, &one, 1), WQ_OK);
  struct cp_stream dev;
  ck_assert_int_eq(cp_stream_init(&dev, 0, 256), 0);
  dev.tr.enabled = trace;
  ck_assert_int_eq(wq_attach(&dev, &w->q), WQ_OK);
  while (!(dev.nops > 4 && dev.tr.processed == 5)) /* ckpt, fetch0, acq X, acq s0, fetch1 */
    ck_assert_int_eq(cp_stream_step(&dev, &e), CP_STEP_OK);
  ck_assert_int_eq(dev.ops[4].kind, CP_OP_FETCH);
  ck_assert_uint_eq(dev.tr.scheduled, 4);
  cp_stream_switch_out(&dev, &e);
  w->mem[QA + wq_block_off(8, 1) + 1 + 3] = 9; /* the FILL's value word */
  struct cp_stream *ss[] = {&dev};
  ck_assert_int_eq(cp_sched_run(ss, 1, &e, NULL), -1);
  uint64_t v = w->mem[OUTA];
  cp_stream_fini(&dev);
  free(w);
  return v;
}

START_TEST(fetched_block_is_snapshotted_in_the_trace) {
  ck_assert_uint_eq(snapshot_case(true), 5);
  ck_assert_uint_eq(snapshot_case(false), 9); /* the hazard the snapshot prevents */
}
END_TEST

/* One parent whose chain of `length` children runs through a 4-entry ring,
 * each child one reservation of two positions. */
static void chain_case(unsigned length, const struct cp_sched_opts *o) {
  struct world *w = new_world(4);
  struct cp_stream dev, host;
  ck_assert_int_eq(cp_stream_init(&dev, 0, 64), 0);
  ck_assert_int_eq(cp_stream_init(&host, 1, 64), 0);
  ck_assert_int_eq(wq_attach(&dev, &w->q), WQ_OK);
  add(&host, (struct cp_op){.kind = CP_OP_CHECKPOINT});
  struct cp_op parent = launch(K_CHAIN, length);
  ck_assert_int_eq(wq_host_block(&host, &w->q, 1, &parent), WQ_OK);
  add(&host, (struct cp_op){.kind = CP_OP_SIGNAL, .id = 1});
  struct cp_stream *ss[] = {&dev, &host};
  ck_assert_int_eq(run(w, ss, 2, &dev, o), -1);
  ck_assert(finished(&host));
  ck_assert_uint_eq(w->nlog, length + 2);
  for (unsigned k = 0; k <= length; k++)
    ck_assert_uint_eq(w->log[k], (uint64_t)K_CHAIN << 32 | (length - k));
  ck_assert_uint_eq(w->log[length + 1], 99ull << 32 | 1);
  ck_assert_uint_gt(wq_gp_get(&dev), 2 * length); /* length / 2 laps of the ring */
  ck_assert_uint_gt(dev.st.forced_checkpoints, 0);
  /* The ring's stream never finishes: it keeps a bounded history. */
  ck_assert_uint_lt(dev.nops, CP_DROP_MIN + 8);
  ck_assert_uint_eq(dev.st.drops > 0, 4 * length > CP_DROP_MIN);
  cp_stream_fini(&dev);
  cp_stream_fini(&host);
  free(w);
}

START_TEST(slots_are_reused_over_many_laps) {
  chain_case(200, NULL);
}
END_TEST

/* Thousands of children in one round: the history before the round's gate
 * is dropped, and the round still ends (its terminator is reserved). */
START_TEST(a_long_round_keeps_a_bounded_history) {
  chain_case(3000, NULL);
  for (uint32_t every = 1; every <= 3; every += 2) { /* 1: every step is the first after a resume */
    struct cp_sched_opts o = {.switch_every = every};
    chain_case(3000, &o);
  }
}
END_TEST

START_TEST(random_switch_points_give_the_uninterrupted_result) {
  static uint64_t base[LOGN], got[LOGN];
  unsigned nb, ng;
  tree_case(3, 3, 16, 2, NULL, base, &nb);
  for (uint32_t every = 1; every <= 6; every++) {
    struct cp_sched_opts o = {.switch_every = every};
    tree_case(3, 3, 16, 2, &o, got, &ng);
    ck_assert_uint_eq(ng, nb);
    ck_assert(memcmp(base, got, nb * sizeof *got) == 0);
  }
  for (uint64_t seed = 1; seed <= 20; seed++) {
    struct cp_sched_opts o = {.seed = seed * 7919, .random_one_in = 3};
    tree_case(3, 3, 16, 2, &o, got, &ng);
    ck_assert_uint_eq(ng, nb);
    ck_assert(memcmp(base, got, nb * sizeof *got) == 0);
  }
}
END_TEST

/* One parent, `children` children of one block each, `rounds` times. */
static void fan_case(uint32_t n, unsigned children, unsigned rounds, unsigned expect_run) {
  struct world *w = new_world(n);
  struct cp_stream dev, host;
  ck_assert_int_eq(cp_stream_init(&dev, 0, 256), 0);
  ck_assert_int_eq(cp_stream_init(&host, 1, 256), 0);
  ck_assert_int_eq(wq_attach(&dev, &w->q), WQ_OK);
  for (unsigned r = 1; r <= rounds; r++) {
    add(&host, (struct cp_op){.kind = CP_OP_CHECKPOINT});
    struct cp_op parent = launch(K_FAN, children);
    ck_assert_int_eq(wq_host_block(&host, &w->q, r, &parent), WQ_OK);
    add(&host, (struct cp_op){.kind = CP_OP_SIGNAL, .id = r});
  }
  struct cp_stream *ss[] = {&dev, &host};
  ck_assert_int_eq(run(w, ss, 2, &dev, NULL), -1);
  ck_assert(finished(&host));
  ck_assert_uint_eq(w->full, rounds * (children - expect_run));
  ck_assert_uint_eq(w->nlog, rounds * (expect_run + 2));
  for (unsigned r = 0; r < rounds; r++) {
    const uint64_t *l = &w->log[r * (expect_run + 2)];
    ck_assert_uint_eq(l[0], (uint64_t)K_FAN << 32 | children);
    for (unsigned k = 0; k < expect_run; k++) /* the ones that fit, in order */
      ck_assert_uint_eq(l[1 + k], (uint64_t)K_LOG << 32 | k);
    ck_assert_uint_eq(l[1 + expect_run], 99ull << 32 | (r + 1));
  }
  cp_stream_fini(&dev);
  cp_stream_fini(&host);
  free(w);
}

START_TEST(a_thousand_children_from_one_parent) {
  fan_case(2048, 1000, 2, 1000);
}
END_TEST

START_TEST(a_full_queue_fails_cleanly_and_stays_usable) {
  fan_case(64, 1000, 3, 31); /* positions 1..62 hold 31 reservations of 2 */
}
END_TEST

int main(void) {
  Suite *s = suite_create("wq");
  CU_ADD(s, ring_rules);
  CU_ADD(s, blocks_encode_and_reject_host_ops);
  CU_ADD(s, init_writes_header_and_gate);
  CU_ADD(s, reservations_from_many_threads_are_disjoint_and_gap_free);
  CU_ADD(s, capacity_boundary_and_failed_reservation_change_nothing);
  CU_ADD(s, gate_holds_until_release_x);
  CU_ADD(s, reservation_order_beats_fill_order);
  CU_ADD(s, wrong_release_value_keeps_the_processor_blocked);
  CU_ADD(s, host_signal_waits_for_children_and_grandchildren);
  CU_ADD(s, processor_runs_another_stream_while_one_waits);
  CU_ADD(s, fetched_block_is_snapshotted_in_the_trace);
  CU_ADD(s, slots_are_reused_over_many_laps);
  CU_ADD(s, a_long_round_keeps_a_bounded_history);
  CU_ADD(s, random_switch_points_give_the_uninterrupted_result);
  CU_ADD(s, a_thousand_children_from_one_parent);
  CU_ADD(s, a_full_queue_fails_cleanly_and_stays_usable);
  return cu_run(s);
}
