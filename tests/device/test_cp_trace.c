/*
 * test_cp_trace.c - scripted command streams through the trace buffer and
 * replay (device/cp_stream.c): selective recording, snapshot reads (and the
 * hazard without the trace), resume point, no double scheduling,
 * processed-not-scheduled, write forwarding, predicate stability, purge at
 * checkpoints, ring wrap-around and overflow, randomised switch points
 * against the uninterrupted run, and a launch that switches itself out
 * (its saved word in the trace, handed back by replay). No threads, no
 * device: memory is an array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/cp_stream.h"
#include "util/check_util.h"

#define MEMW   4096
#define NS     3
#define MAXOPS 128
#define IN(s)  (1000u + 200u * (s))
#define OUT(s) (2000u + 200u * (s))

struct world {
  uint64_t mem[MEMW];
  unsigned sched[NS][MAXOPS];
  unsigned signals[NS][MAXOPS];
  unsigned groups[NS][MAXOPS];
  uint64_t saved[NS][64];
  bool scribbled[NS];
  bool interfere;
};

static uint64_t w_load(void *ctx, uint64_t a) {
  return ((struct world *)ctx)->mem[a % MEMW];
}
static void w_store(void *ctx, uint64_t a, uint64_t v) {
  ((struct world *)ctx)->mem[a % MEMW] = v;
}
static int w_group(void *ctx, const struct cp_launch_info *l, uint64_t g) {
  struct world *w = ctx;
  if (g >= 64) return -1; /* a launch read from a changed descriptor */
  w->mem[OUT(l->stream) + (l->arg + g) % 64] += g + 1 + l->state[0];
  w->groups[l->stream][(l->kernel + g) % MAXOPS]++;
  return 0;
}
static void w_signal(void *ctx, unsigned s, unsigned id) {
  ((struct world *)ctx)->signals[s][id % MAXOPS]++;
}
static void w_sched(void *ctx, unsigned s, uint32_t op) {
  ((struct world *)ctx)->sched[s][op % MAXOPS]++;
}
/* Another agent: while a stream is out, its input words change; they come
 * back only after its replay caught up (so only replayed reads could see the
 * change, and the trace must hide it). */
static void w_out(void *ctx, unsigned s) {
  struct world *w = ctx;
  if (!w->interfere || w->scribbled[s]) return;
  for (unsigned k = 0; k < 64; k++) {
    w->saved[s][k] = w->mem[IN(s) + k];
    w->mem[IN(s) + k] = 0xdead0000u + k;
  }
  w->scribbled[s] = true;
}
static void w_replayed(void *ctx, unsigned s) {
  struct world *w = ctx;
  if (!w->scribbled[s]) return;
  for (unsigned k = 0; k < 64; k++)
    w->mem[IN(s) + k] = w->saved[s][k];
  w->scribbled[s] = false;
}

static struct cp_env env_of(struct world *w) {
  struct cp_env e = {w, w_load, w_store, w_group, w_signal, w_sched, w_out, w_replayed};
  return e;
}

static void add(struct cp_stream *s, enum cp_op_kind k, uint64_t a, uint64_t b, uint64_t v,
                uint32_t n, uint64_t *host) {
  struct cp_op op = {k, a, b, v, n, host, 0};
  ck_assert_int_eq(cp_stream_append(s, &op), 0);
}

static void run_steps(struct cp_stream *s, const struct cp_env *e, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    ck_assert_int_eq(cp_stream_step(s, e), CP_STEP_OK);
}

static void finish(struct cp_stream *s, const struct cp_env *e) {
  enum cp_step r;
  while ((r = cp_stream_step(s, e)) == CP_STEP_OK)
    ;
  ck_assert_int_eq(r, CP_STEP_DONE);
}

START_TEST(state_ops_leave_no_nodes) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  struct cp_stream s;
  uint64_t h[1], src[1] = {3};
  ck_assert_int_eq(cp_stream_init(&s, 0, 64), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_STATE, 0, 1, 7, 0, NULL);
  add(&s, CP_OP_STATE, 0, 2, 8, 0, NULL);
  add(&s, CP_OP_READ, 10, 0, 0, 1, h);
  add(&s, CP_OP_STATE, 0, 3, 9, 0, NULL);
  add(&s, CP_OP_WRITE, 11, 0, 0, 1, src);
  add(&s, CP_OP_STATE, 0, 4, 1, 0, NULL);
  finish(&s, &e);
  const struct cp_trace *t = &s.tr;
  ck_assert_uint_eq(cp_trace_used(t), 3); /* checkpoint, read, write */
  ck_assert_uint_eq(cp_trace_node(t, t->rd)->kind, CP_N_CHECKPOINT);
  ck_assert_uint_eq(cp_trace_node(t, t->rd + 1)->kind, CP_N_READ);
  ck_assert_uint_eq(cp_trace_node(t, t->rd + 2)->kind, CP_N_WRITE);
  for (uint32_t i = t->rd + 1; i != t->wr; i++)
    ck_assert_int_ne(s.ops[cp_trace_node(t, i)->op].kind, CP_OP_STATE);
  cp_stream_fini(&s);
}
END_TEST

/* A: checkpoint, read x. Switch after processing the read (not scheduled);
 * B writes 9 to x; A resumes. */
static uint64_t snapshot_case(bool trace) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  struct cp_stream a, b;
  uint64_t h = 0, nine = 9;
  ck_assert_int_eq(cp_stream_init(&a, 0, 64), 0);
  ck_assert_int_eq(cp_stream_init(&b, 1, 64), 0);
  a.tr.enabled = trace;
  w.mem[10] = 5;
  add(&a, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&a, CP_OP_READ, 10, 0, 0, 1, &h);
  add(&b, CP_OP_WRITE, 10, 0, 0, 1, &nine);
  run_steps(&a, &e, 2); /* checkpoint; process read */
  ck_assert_uint_eq(a.tr.processed, 2);
  ck_assert_uint_eq(a.tr.scheduled, 1);
  cp_stream_switch_out(&a, &e);
  finish(&b, &e);
  ck_assert_uint_eq(w.mem[10], 9);
  finish(&a, &e);
  ck_assert_uint_eq(w.sched[0][1], 1);
  cp_stream_fini(&a);
  cp_stream_fini(&b);
  return h;
}

START_TEST(snapshot_read_replays_as_traced) {
  ck_assert_uint_eq(snapshot_case(true), 5);
}
END_TEST

START_TEST(without_trace_the_replayed_read_sees_the_other_write) {
  ck_assert_uint_eq(snapshot_case(false), 9); /* the hazard */
}
END_TEST

START_TEST(resume_point_is_last_checkpoint) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  struct cp_stream s;
  ck_assert_int_eq(cp_stream_init(&s, 0, 64), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL); /* 0 */
  add(&s, CP_OP_FILL, 20, 0, 1, 1, NULL);      /* 1 */
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL); /* 2 */
  add(&s, CP_OP_STATE, 0, 0, 5, 0, NULL);      /* 3 */
  add(&s, CP_OP_FILL, 21, 0, 2, 1, NULL);      /* 4 */
  add(&s, CP_OP_FILL, 22, 0, 3, 1, NULL);      /* 5 */
  add(&s, CP_OP_LAUNCH, 0, 0, 0, 2, NULL);     /* 6: uses state[0] */
  run_steps(&s, &e, 1 + 2 + 1 + 2 + 2 + 2);    /* through op 5 */
  cp_stream_switch_out(&s, &e);
  const struct cp_node *c = cp_trace_node(&s.tr, s.tr.rd);
  ck_assert_uint_eq(c->kind, CP_N_CHECKPOINT);
  ck_assert_uint_eq(c->value, 3);
  finish(&s, &e);
  ck_assert_uint_eq(s.st.replays, 1);
  ck_assert_uint_eq(s.st.replay_skipped, 3); /* ops 3, 4, 5: not 0..2 */
  ck_assert_uint_eq(w.sched[0][1], 1);
  ck_assert_uint_eq(w.sched[0][4], 1);
  /* the state op was re-applied: groups add 1 + g + 5 */
  ck_assert_uint_eq(w.mem[OUT(0) + 0], 6);
  ck_assert_uint_eq(w.mem[OUT(0) + 1], 7);
  cp_stream_fini(&s);
}
END_TEST

START_TEST(nothing_is_scheduled_twice) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  struct cp_stream s;
  uint64_t h[4], src[4] = {1, 2, 3, 4};
  ck_assert_int_eq(cp_stream_init(&s, 0, 256), 0);
  w.mem[IN(0)] = 3;
  w.mem[IN(0) + 1] = 10;
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_WRITE, OUT(0) + 30, 0, 0, 4, src);
  add(&s, CP_OP_READ, OUT(0) + 30, 0, 0, 4, h);
  add(&s, CP_OP_LAUNCH, 0, 0, 0, 5, NULL);
  add(&s, CP_OP_SEM_RELEASE, OUT(0) + 40, 0, 1, 0, NULL);
  add(&s, CP_OP_SEM_ACQUIRE, OUT(0) + 40, 0, 1, 0, NULL);
  add(&s, CP_OP_LAUNCH_INDIRECT, IN(0), 0, 0, 0, NULL);
  add(&s, CP_OP_WAIT_IDLE, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_SIGNAL, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_COPY, OUT(0) + 30, OUT(0) + 50, 0, 4, NULL);
  struct cp_stream *v[1] = {&s};
  struct cp_sched_opts o = {.switch_every = 1};
  ck_assert_int_eq(cp_sched_run(v, 1, &e, &o), 0);
  ck_assert_uint_ge(s.st.switches, 8);
  for (uint32_t i = 1; i < s.nops; i++)
    ck_assert_uint_eq(w.sched[0][i], 1);
  ck_assert_uint_eq(w.signals[0][0], 1);
  /* launch groups 0..4 once each (kernel id 0); indirect adds 3 more */
  ck_assert_uint_eq(w.groups[0][0], 2);
  ck_assert_uint_eq(w.groups[0][1], 2);
  ck_assert_uint_eq(w.groups[0][2], 2);
  ck_assert_uint_eq(w.groups[0][3], 1);
  ck_assert_uint_eq(w.groups[0][4], 1);
  for (int k = 0; k < 4; k++) {
    ck_assert_uint_eq(h[k], src[k]);
    ck_assert_uint_eq(w.mem[OUT(0) + 50 + k], src[k]);
  }
  ck_assert_uint_eq(w.mem[OUT(0) + 10], 1); /* indirect arg 10, group 0 */
  cp_stream_fini(&s);
}
END_TEST

START_TEST(processed_not_scheduled_uses_traced_host_source) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  struct cp_stream s;
  uint64_t src[2] = {11, 12};
  ck_assert_int_eq(cp_stream_init(&s, 0, 64), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_WRITE, 30, 0, 0, 2, src);
  run_steps(&s, &e, 2);
  cp_stream_switch_out(&s, &e);
  src[0] = src[1] = 99; /* the host reuses its buffer meanwhile */
  finish(&s, &e);
  ck_assert_uint_eq(w.mem[30], 11);
  ck_assert_uint_eq(w.mem[31], 12);
  ck_assert_uint_eq(s.st.replay_scheduled, 1);
  ck_assert_uint_eq(w.sched[0][1], 1);
  cp_stream_fini(&s);
}
END_TEST

START_TEST(read_after_traced_write_is_forwarded) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  struct cp_stream a, b;
  uint64_t seven = 7, nine = 9, h = 0;
  ck_assert_int_eq(cp_stream_init(&a, 0, 64), 0);
  ck_assert_int_eq(cp_stream_init(&b, 1, 64), 0);
  add(&a, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&a, CP_OP_WRITE, 40, 0, 0, 1, &seven);
  add(&a, CP_OP_READ, 40, 0, 0, 1, &h);
  add(&b, CP_OP_WRITE, 40, 0, 0, 1, &nine);
  run_steps(&a, &e, 3); /* write scheduled */
  cp_stream_switch_out(&a, &e);
  finish(&b, &e);
  finish(&a, &e);
  ck_assert_uint_eq(h, 7);
  ck_assert_uint_eq(w.sched[0][1], 1);
  cp_stream_fini(&a);
  cp_stream_fini(&b);
}
END_TEST

/* predicate on word 50; switch after `steps`; another agent flips it. */
static void predicate_case(uint64_t initial, unsigned steps, uint64_t expect_y) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  struct cp_stream s;
  ck_assert_int_eq(cp_stream_init(&s, 0, 64), 0);
  w.mem[50] = initial;
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_PREDICATE, 50, 0, 1, 2, NULL);
  add(&s, CP_OP_FILL, 51, 0, 42, 1, NULL);
  add(&s, CP_OP_STATE, 0, 0, 1, 0, NULL);
  add(&s, CP_OP_FILL, 52, 0, 1, 1, NULL);
  run_steps(&s, &e, steps);
  cp_stream_switch_out(&s, &e);
  w.mem[50] = !initial;
  finish(&s, &e);
  ck_assert_uint_eq(w.mem[51], expect_y);
  ck_assert_uint_eq(w.mem[52], 1);
  ck_assert_uint_eq(w.sched[0][2], expect_y ? 1 : 0);
  cp_stream_fini(&s);
}

START_TEST(traced_predicate_keeps_its_branch) {
  for (unsigned steps = 2; steps <= 4; steps++) {
    predicate_case(1, steps, 42);
    predicate_case(0, steps, 0);
  }
}
END_TEST

START_TEST(checkpoint_purges_previous_block) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  struct cp_stream s;
  uint64_t h[3];
  ck_assert_int_eq(cp_stream_init(&s, 0, 64), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_READ, 60, 0, 0, 3, h);
  add(&s, CP_OP_FILL, 61, 0, 4, 3, NULL);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  run_steps(&s, &e, 5);
  ck_assert_uint_eq(cp_trace_used(&s.tr), 7);
  run_steps(&s, &e, 1);
  ck_assert_uint_eq(cp_trace_used(&s.tr), 1);
  ck_assert_uint_eq(cp_trace_node(&s.tr, s.tr.rd)->kind, CP_N_CHECKPOINT);
  ck_assert_uint_eq(s.tr.rd, 7);
  ck_assert_uint_eq(s.st.purges, 2);
  cp_stream_fini(&s);
}
END_TEST

START_TEST(ring_wraps_and_overflow_is_clean) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  struct cp_stream s;
  uint64_t h[50];
  ck_assert_int_eq(cp_stream_init(&s, 0, 8), 0);
  for (unsigned b = 0; b < 50; b++) {
    w.mem[100 + b] = b * 3;
    add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
    add(&s, CP_OP_READ, 100 + b, 0, 0, 1, &h[b]);
    add(&s, CP_OP_COPY, 100 + b, 300 + b, 0, 1, NULL);
  }
  struct cp_stream *v[1] = {&s};
  struct cp_sched_opts o = {.switch_every = 1};
  w.interfere = false;
  ck_assert_int_eq(cp_sched_run(v, 1, &e, &o), 0);
  ck_assert_uint_gt(s.tr.wr, 3 * s.tr.cap);
  for (unsigned b = 0; b < 50; b++) {
    ck_assert_uint_eq(h[b], b * 3);
    ck_assert_uint_eq(w.mem[300 + b], b * 3);
  }
  cp_stream_fini(&s);

  /* A block larger than the ring forces checkpoints, result unchanged. */
  memset(&w, 0, sizeof w);
  ck_assert_int_eq(cp_stream_init(&s, 0, 8), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  for (unsigned k = 0; k < 20; k++) {
    w.mem[100 + k] = k + 1;
    add(&s, CP_OP_COPY, 100 + k, 300 + k, 0, 1, NULL);
  }
  v[0] = &s;
  ck_assert_int_eq(cp_sched_run(v, 1, &e, &o), 0);
  ck_assert_uint_gt(s.st.forced_checkpoints, 0);
  ck_assert_uint_le(s.st.max_nodes, 8);
  for (unsigned k = 0; k < 20; k++)
    ck_assert_uint_eq(w.mem[300 + k], k + 1);
  for (unsigned k = 1; k <= 20; k++)
    ck_assert_uint_eq(w.sched[0][k], 1);
  cp_stream_fini(&s);

  /* One operation needing more nodes than the ring fails cleanly. */
  memset(&w, 0, sizeof w);
  ck_assert_int_eq(cp_stream_init(&s, 0, 8), 0);
  add(&s, CP_OP_FILL, 500, 0, 1, 20, NULL);
  ck_assert_int_eq(cp_stream_step(&s, &e), CP_STEP_ERROR);
  ck_assert_int_eq(s.error, CP_ERR_TRACE_FULL);
  ck_assert_uint_eq(w.mem[500], 0);
  cp_stream_fini(&s);
}
END_TEST

/* A forced checkpoint keeps the state registers in the trace: resuming
 * after it reads no op before it, so a long-lived stream (an on-device
 * queue's ring) resumes in time that does not grow with its history. The
 * state op before the checkpoint is changed while the stream is out; the
 * launch after it must still see the value it had. */
START_TEST(forced_checkpoint_keeps_state) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  struct cp_stream s;
  ck_assert_int_eq(cp_stream_init(&s, 0, 8), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_STATE, 0, 0, 5, 0, NULL);
  add(&s, CP_OP_STATE, 0, 3, 0, 0, NULL);
  for (unsigned k = 0; k < 20; k++) {
    w.mem[100 + k] = k + 1;
    add(&s, CP_OP_COPY, 100 + k, 300 + k, 0, 1, NULL);
  }
  add(&s, CP_OP_LAUNCH, 0, 0, 0, 2, NULL); /* adds g + 1 + state[0] */
  while (!s.st.forced_checkpoints)
    ck_assert_int_eq(cp_stream_step(&s, &e), CP_STEP_OK);
  cp_stream_switch_out(&s, &e);
  const struct cp_trace *t = &s.tr;
  ck_assert_uint_eq(cp_trace_node(t, t->rd + 1)->kind, CP_N_STATE); /* state[0] only */
  ck_assert_uint_ne(cp_trace_node(t, t->rd + 2)->kind, CP_N_STATE);
  s.ops[1].value = 100;
  finish(&s, &e);
  ck_assert_uint_eq(w.mem[OUT(0) + 0], 6);
  ck_assert_uint_eq(w.mem[OUT(0) + 1], 7);
  for (unsigned k = 0; k < 20; k++)
    ck_assert_uint_eq(w.mem[300 + k], k + 1);
  cp_stream_fini(&s);
}
END_TEST

/* An operation moving more words than CP_MAX_WORDS stops the stream with
 * CP_ERR_BAD_OP before touching anything: it is never cut short. */
START_TEST(too_many_words_is_a_bad_op) {
  static struct world w;
  static uint64_t host[CP_MAX_WORDS + 1];
  const enum cp_op_kind kinds[] = {CP_OP_READ, CP_OP_WRITE, CP_OP_COPY, CP_OP_FILL};
  struct cp_env e = env_of(&w);
  for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    memset(&w, 0, sizeof w);
    for (unsigned k = 0; k <= CP_MAX_WORDS; k++)
      w.mem[100 + k] = host[k] = k + 1;
    struct cp_stream s;
    ck_assert_int_eq(cp_stream_init(&s, 0, 4096), 0);
    add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
    add(&s, kinds[i], 100, 300, 9, CP_MAX_WORDS + 1, host);
    enum cp_step r;
    while ((r = cp_stream_step(&s, &e)) == CP_STEP_OK)
      ;
    ck_assert_msg(r == CP_STEP_ERROR && s.error == CP_ERR_BAD_OP, "kind %d: step %d, error %d",
                  (int)kinds[i], (int)r, s.error);
    ck_assert_uint_eq(w.mem[300], 0);
    ck_assert_uint_eq(w.mem[100], 1);
    ck_assert_uint_eq(host[0], 1);
    cp_stream_fini(&s);
  }
}
END_TEST

/* cp_stream_reserve makes room once; the appends after it cannot fail. */
START_TEST(reserve_makes_room) {
  struct cp_stream s;
  ck_assert_int_eq(cp_stream_init(&s, 0, 8), 0);
  ck_assert_int_eq(cp_stream_reserve(&s, 100), 0);
  ck_assert_uint_ge(s.cap_ops, 100);
  struct cp_op *before = s.ops;
  for (unsigned k = 0; k < 100; k++)
    add(&s, CP_OP_STATE, 0, k % CP_NSTATE, k, 0, NULL);
  ck_assert_ptr_eq(s.ops, before);
  ck_assert_int_eq(cp_stream_reserve(&s, UINT32_MAX), -1);
  ck_assert_uint_eq(s.nops, 100);
  cp_stream_fini(&s);
}
END_TEST

/* A high-priority stream arriving mid-launch runs before the low one's
 * remaining work-groups; the low launch then resumes by replay. */
static unsigned order[64], norder;
static void note_order(void *ctx, unsigned s, uint32_t op) {
  w_sched(ctx, s, op);
  if (norder < 64) order[norder++] = s;
}

START_TEST(high_priority_preempts_between_work_groups) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  e.scheduled = note_order;
  norder = 0;
  struct cp_stream lo, hi;
  ck_assert_int_eq(cp_stream_init(&lo, 0, 64), 0);
  ck_assert_int_eq(cp_stream_init(&hi, 1, 64), 0);
  hi.priority = 1;
  add(&lo, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&lo, CP_OP_LAUNCH, 0, 0, 0, 40, NULL);
  add(&hi, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&hi, CP_OP_FILL, OUT(1), 0, 5, 1, NULL);
  add(&hi, CP_OP_SIGNAL, 0, 0, 0, 0, NULL);
  struct cp_stream *v[2] = {&lo, &hi};
  uint32_t arrive[2] = {0, 10};
  struct cp_sched_opts o = {.arrive = arrive};
  ck_assert_int_eq(cp_sched_run(v, 2, &e, &o), 0);
  ck_assert_uint_eq(norder, 3);
  ck_assert_uint_eq(order[0], 1); /* fill, signal of the high stream first */
  ck_assert_uint_eq(order[1], 1);
  ck_assert_uint_eq(order[2], 0); /* the launch finishes after */
  ck_assert_uint_eq(lo.st.switches, 1);
  ck_assert_uint_eq(lo.st.replays, 1);
  for (unsigned g = 0; g < 40; g++) {
    ck_assert_uint_eq(w.groups[0][g], 1);
    ck_assert_uint_eq(w.mem[OUT(0) + g], g + 1);
  }
  cp_stream_fini(&lo);
  cp_stream_fini(&hi);
}
END_TEST

START_TEST(equal_priorities_time_slice) {
  static struct world w;
  memset(&w, 0, sizeof w);
  struct cp_env e = env_of(&w);
  struct cp_stream a, b;
  ck_assert_int_eq(cp_stream_init(&a, 0, 64), 0);
  ck_assert_int_eq(cp_stream_init(&b, 1, 64), 0);
  add(&a, CP_OP_LAUNCH, 0, 0, 0, 30, NULL);
  add(&b, CP_OP_LAUNCH, 0, 0, 0, 30, NULL);
  struct cp_stream *v[2] = {&a, &b};
  struct cp_sched_opts o = {.switch_every = 4};
  ck_assert_int_eq(cp_sched_run(v, 2, &e, &o), 0);
  ck_assert_uint_ge(a.st.switches, 5);
  ck_assert_uint_ge(b.st.switches, 5);
  for (unsigned g = 0; g < 30; g++) {
    ck_assert_uint_eq(w.groups[0][g], 1);
    ck_assert_uint_eq(w.groups[1][g], 1);
  }
  cp_stream_fini(&a);
  cp_stream_fini(&b);
}
END_TEST

/* ---- randomised switch points ---- */

static uint64_t rnd(uint64_t *x) {
  *x = *x * 6364136223846793005ull + 1442695040888963407ull;
  return *x >> 33;
}

static uint64_t hostbuf[2][NS][MAXOPS * 4];
static uint64_t hostsrc[NS][MAXOPS * 4];

static void build(struct cp_stream *s, unsigned sid, uint64_t seed, uint64_t *hb) {
  uint64_t x = seed * 977 + sid;
  unsigned nops = 40 + (unsigned)(rnd(&x) % 60), pos = 0;
  for (unsigned i = 0; i < nops && i < MAXOPS; i++) {
    unsigned r = (unsigned)(rnd(&x) % 64), r2 = (unsigned)(rnd(&x) % 60), n = 1 + r % 3;
    struct cp_op op = {0};
    switch (rnd(&x) % 12) {
    case 0: op.kind = CP_OP_CHECKPOINT; break;
    case 1: op = (struct cp_op){CP_OP_STATE, 0, rnd(&x) % 2, rnd(&x) % 5, 0, NULL, 0}; break;
    case 2:
      op = (struct cp_op){CP_OP_READ, IN(sid) + r % 60, 0, 0, n, hb + pos, 0};
      pos += n;
      break;
    case 3:
      op = (struct cp_op){CP_OP_READ, OUT(sid) + r % 60, 0, 0, n, hb + pos, 0};
      pos += n;
      break;
    case 4: op = (struct cp_op){CP_OP_WRITE, OUT(sid) + r2, 0, 0, n, hostsrc[sid] + r, 0}; break;
    case 5: op = (struct cp_op){CP_OP_FILL, OUT(sid) + r2, 0, rnd(&x) % 100, n, NULL, 0}; break;
    case 6: op = (struct cp_op){CP_OP_COPY, IN(sid) + r % 60, OUT(sid) + r2, 0, n, NULL, 0}; break;
    case 7: op = (struct cp_op){CP_OP_COPY, OUT(sid) + r % 60, OUT(sid) + r2, 0, n, NULL, 0}; break;
    case 8:
      op =
          (struct cp_op){CP_OP_PREDICATE, IN(sid) + r, 0, (r & 1) ? 999 : (r * 7) % 13, n, NULL, 0};
      break;
    case 9: op = (struct cp_op){CP_OP_LAUNCH, 0, 0, r2, 1 + r % 6, NULL, i}; break;
    case 10:
      op = (struct cp_op){CP_OP_LAUNCH_INDIRECT, IN(sid) + (r % 60), 0, 0, 0, NULL, i};
      break;
    default:
      op =
          (struct cp_op){(r & 1) ? CP_OP_SIGNAL : CP_OP_SEM_ACQUIRE, IN(sid) + r, 0, 0, 0, NULL, i};
      if (r & 2) op.kind = CP_OP_SEM_RELEASE, op.a = OUT(sid) + r2, op.value = r;
      if (r & 4) op.kind = CP_OP_WAIT_IDLE;
      break;
    }
    ck_assert_int_eq(cp_stream_append(s, &op), 0);
  }
}

static void init_world(struct world *w, bool interfere) {
  memset(w, 0, sizeof *w);
  w->interfere = interfere;
  for (unsigned s = 0; s < NS; s++)
    for (unsigned k = 0; k < 64; k++)
      w->mem[IN(s) + k] = (k * 7) % 13;
}

/* Runs the three streams of seed; returns whether every result matched the
 * uninterrupted run. */
static bool random_case(uint64_t seed, bool trace) {
  static struct world ref, w;
  struct cp_stream st[2][NS];
  struct cp_stream *v[NS];
  for (unsigned s = 0; s < NS; s++)
    for (unsigned k = 0; k < MAXOPS * 4; k++)
      hostsrc[s][k] = s * 1000 + k;
  memset(hostbuf, 0, sizeof hostbuf);
  for (int pass = 0; pass < 2; pass++) {
    struct world *wp = pass ? &w : &ref;
    init_world(wp, pass == 1);
    for (unsigned s = 0; s < NS; s++) {
      ck_assert_int_eq(cp_stream_init(&st[pass][s], s, 128), 0);
      st[pass][s].tr.enabled = pass == 0 || trace;
      build(&st[pass][s], s, seed, hostbuf[pass][s]);
      v[s] = &st[pass][s];
    }
    struct cp_env e = env_of(wp);
    struct cp_sched_opts o = {0};
    if (pass) {
      o.seed = seed;
      o.random_one_in = 2 + seed % 5;
    }
    int rc = cp_sched_run(v, NS, &e, &o);
    if (rc && getenv("CP_DEBUG"))
      for (unsigned s = 0; s < NS; s++)
        fprintf(stderr, "seed %u s%u err %d pc %u kind %d used %u groups %llu\n", (unsigned)seed, s,
                v[s]->error, v[s]->pc, v[s]->pc < v[s]->nops ? (int)v[s]->ops[v[s]->pc].kind : -1,
                cp_trace_used(&v[s]->tr), (unsigned long long)v[s]->groups);
    if (rc && !trace && pass) {
      for (unsigned s = 0; s < NS; s++) {
        cp_stream_fini(&st[0][s]);
        cp_stream_fini(&st[1][s]);
      }
      return false;
    }
    ck_assert_int_eq(rc, 0);
    if (pass) {
      uint64_t sw = 0;
      for (unsigned s = 0; s < NS; s++)
        sw += st[pass][s].st.switches;
      ck_assert_uint_gt(sw, 3);
    }
  }
  if (getenv("CP_DEBUG")) {
    for (unsigned s = 0; s < NS; s++)
      for (unsigned k = 0; k < 64; k++)
        if (ref.mem[OUT(s) + k] != w.mem[OUT(s) + k])
          fprintf(stderr, "s%u out[%u] %llu vs %llu\n", s, k,
                  (unsigned long long)ref.mem[OUT(s) + k], (unsigned long long)w.mem[OUT(s) + k]);
    for (unsigned s = 0; s < NS; s++)
      for (unsigned k = 0; k < MAXOPS; k++)
        if (ref.sched[s][k] != w.sched[s][k] || ref.groups[s][k] != w.groups[s][k])
          fprintf(stderr, "s%u op %u sched %u/%u groups %u/%u kind %d\n", s, k, ref.sched[s][k],
                  w.sched[s][k], ref.groups[s][k], w.groups[s][k],
                  k < st[0][s].nops ? (int)st[0][s].ops[k].kind : -1);
    for (unsigned s = 0; s < NS; s++)
      for (unsigned k = 0; k < MAXOPS * 4; k++)
        if (hostbuf[0][s][k] != hostbuf[1][s][k]) fprintf(stderr, "s%u host %u\n", s, k);
  }
  bool same = memcmp(ref.sched, w.sched, sizeof ref.sched) == 0 &&
              memcmp(ref.signals, w.signals, sizeof ref.signals) == 0 &&
              memcmp(ref.groups, w.groups, sizeof ref.groups) == 0 &&
              memcmp(hostbuf[0], hostbuf[1], sizeof hostbuf[0]) == 0;
  for (unsigned s = 0; s < NS; s++)
    same = same && memcmp(&ref.mem[OUT(s)], &w.mem[OUT(s)], 64 * sizeof(uint64_t)) == 0;
  for (unsigned s = 0; s < NS; s++) {
    for (unsigned i = 0; i < MAXOPS; i++)
      ck_assert_uint_le(w.sched[s][i], 1);
    cp_stream_fini(&st[0][s]);
    cp_stream_fini(&st[1][s]);
  }
  return same;
}

START_TEST(random_switch_points_match_uninterrupted_run) {
  for (uint64_t seed = 1; seed <= 300; seed++) {
    if (!random_case(seed, true)) ck_abort_msg("seed %u differs", (unsigned)seed);
  }
}
END_TEST

START_TEST(random_switch_points_without_trace_differ) {
  unsigned bad = 0;
  for (uint64_t seed = 1; seed <= 100; seed++)
    bad += !random_case(seed, false);
  ck_assert_uint_gt(bad, 0);
}
END_TEST

/* ---- a launch that switches itself out (CP_HOOK_SWITCHED) ---- */

/* A groups hook scripted per call: SWITCH_OUT leaves the next word and
 * claims (falsely) to have completed everything; a number n > 0 completes
 * n groups. */
#define SWITCH_OUT 0
static struct {
  unsigned calls;
  int script[8];
  uint64_t words[8];    /* word left by call k when it switches */
  uint64_t seen[8];     /* *saved as call k found it */
  uint64_t first[8];    /* first group of call k */
  unsigned done_by[16]; /* how often each group was completed */
} hk;

static int hk_groups(void *ctx, const struct cp_launch_info *l, uint64_t first, uint64_t end,
                     uint64_t *done) {
  (void)ctx;
  unsigned k = hk.calls++;
  ck_assert_uint_lt(k, 8);
  hk.seen[k] = *l->saved;
  hk.first[k] = first;
  if (hk.script[k] == SWITCH_OUT) {
    *l->saved = hk.words[k];
    *done = end; /* ignored: a switched-out call completes nothing */
    return CP_HOOK_SWITCHED;
  }
  uint64_t n = (uint64_t)hk.script[k];
  *done = first + n < end ? first + n : end;
  for (uint64_t g = first; g < *done; g++)
    hk.done_by[g % 16]++;
  return 0;
}

static struct cp_env hk_env(struct world *w, const int *script, unsigned n) {
  memset(&hk, 0, sizeof hk);
  memcpy(hk.script, script, n * sizeof *script);
  for (unsigned k = 0; k < 8; k++)
    hk.words[k] = 0xa000u + k;
  struct cp_env e = env_of(w);
  e.group = NULL;
  e.groups = hk_groups;
  return e;
}

/* The node of kind for op in the current block, or NULL. */
static const struct cp_node *node_of(const struct cp_stream *s, uint32_t kind, uint32_t op) {
  for (uint32_t i = s->tr.rd; i != s->tr.wr; i++)
    if (cp_trace_node(&s->tr, i)->kind == kind && cp_trace_node(&s->tr, i)->op == op)
      return cp_trace_node(&s->tr, i);
  return NULL;
}

/* Steps until the stream does something other than OK; returns that. */
static enum cp_step step_until(struct cp_stream *s, const struct cp_env *e) {
  enum cp_step r;
  for (unsigned n = 0; (r = cp_stream_step(s, e)) == CP_STEP_OK; n++)
    ck_assert_uint_lt(n, 1000);
  return r;
}

/* The hook completes group 0, switches out twice leaving different words,
 * then completes the rest. Each switch ends the step with
 * CP_STEP_SWITCHED and no group recorded; the trace keeps the word across
 * the switch and the replay hands it back; nothing runs twice. */
START_TEST(launch_switches_itself_out_and_replays_with_its_word) {
  static struct world w;
  memset(&w, 0, sizeof w);
  static const int script[] = {1, SWITCH_OUT, SWITCH_OUT, 8};
  struct cp_env e = hk_env(&w, script, 4);
  struct cp_stream s;
  uint64_t src[1] = {5};
  ck_assert_int_eq(cp_stream_init(&s, 0, 64), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL); /* 0 */
  add(&s, CP_OP_WRITE, 30, 0, 0, 1, src);      /* 1 */
  add(&s, CP_OP_LAUNCH, 0, 0, 0, 4, NULL);     /* 2: four groups */
  add(&s, CP_OP_SIGNAL, 0, 0, 0, 0, NULL);     /* 3 */
  ck_assert_int_eq(step_until(&s, &e), CP_STEP_SWITCHED);
  ck_assert_uint_eq(hk.calls, 2);
  const struct cp_node *n = node_of(&s, CP_N_SAVED, 2);
  ck_assert_ptr_nonnull(n);
  ck_assert_uint_eq(n->value, 0xa001u);
  cp_stream_switch_out(&s, &e);
  ck_assert_uint_eq(s.tr.processed, 3); /* the launch: processed, */
  ck_assert_uint_eq(s.tr.scheduled, 2); /* not completed */
  ck_assert_ptr_nonnull(node_of(&s, CP_N_SWITCH, 3));
  ck_assert_uint_eq(node_of(&s, CP_N_SAVED, 2)->value, 0xa001u);

  ck_assert_int_eq(step_until(&s, &e), CP_STEP_SWITCHED);
  ck_assert_uint_eq(hk.calls, 3);
  ck_assert_uint_eq(s.st.replays, 1);
  cp_stream_switch_out(&s, &e);
  n = node_of(&s, CP_N_SAVED, 2);
  ck_assert_uint_eq(n->value, 0xa002u);
  uint32_t used = cp_trace_used(&s.tr);

  ck_assert_int_eq(step_until(&s, &e), CP_STEP_DONE);
  ck_assert_uint_eq(hk.calls, 4);
  ck_assert_uint_eq(cp_trace_used(&s.tr), used); /* both nodes updated in place */
  uint64_t seen[] = {0, 0, 0xa001u, 0xa002u}, first[] = {0, 1, 1, 1};
  for (unsigned k = 0; k < 4; k++) {
    ck_assert_uint_eq(hk.seen[k], seen[k]);
    ck_assert_uint_eq(hk.first[k], first[k]);
  }
  for (unsigned g = 0; g < 4; g++)
    ck_assert_uint_eq(hk.done_by[g], 1);
  ck_assert_uint_eq(w.sched[0][1], 1);
  ck_assert_uint_eq(w.signals[0][0], 1);
  ck_assert_uint_eq(w.mem[30], 5);
  cp_stream_fini(&s);
}
END_TEST

/* Stepping again without a switch re-issues at once: the hook gets the
 * word it just left, and the scheduler replays a switched-out stream. */
START_TEST(scheduler_resumes_a_switched_out_launch) {
  static struct world w;
  memset(&w, 0, sizeof w);
  static const int script[] = {SWITCH_OUT, SWITCH_OUT, 2};
  struct cp_env e = hk_env(&w, script, 3);
  struct cp_stream s;
  ck_assert_int_eq(cp_stream_init(&s, 0, 64), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_LAUNCH, 0, 0, 0, 2, NULL);
  ck_assert_int_eq(step_until(&s, &e), CP_STEP_SWITCHED);
  ck_assert_int_eq(step_until(&s, &e), CP_STEP_SWITCHED);
  ck_assert_uint_eq(hk.seen[1], 0xa000u);
  ck_assert_int_eq(step_until(&s, &e), CP_STEP_DONE);
  ck_assert_uint_eq(hk.seen[2], 0xa001u);
  cp_stream_fini(&s);

  struct cp_stream *v[1] = {&s};
  e = hk_env(&w, script, 3);
  ck_assert_int_eq(cp_stream_init(&s, 0, 64), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_LAUNCH, 0, 0, 0, 2, NULL);
  ck_assert_int_eq(cp_sched_run(v, 1, &e, NULL), 0);
  ck_assert_uint_eq(hk.calls, 3);
  ck_assert_uint_eq(hk.seen[2], 0xa001u);
  ck_assert_uint_eq(s.st.switches, 2);
  ck_assert_uint_eq(hk.done_by[0] + hk.done_by[1], 2);
  cp_stream_fini(&s);
}
END_TEST

/* A launch at the end of a nearly full ring: processing it forces a
 * checkpoint, so its groups, its word and the switch all fit. */
START_TEST(launch_keeps_room_for_its_word) {
  static struct world w;
  memset(&w, 0, sizeof w);
  static const int script[] = {SWITCH_OUT, 1, SWITCH_OUT, 8};
  struct cp_env e = hk_env(&w, script, 4);
  struct cp_stream s;
  ck_assert_int_eq(cp_stream_init(&s, 0, 8), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_FILL, 40, 0, 7, 5, NULL); /* six nodes with the checkpoint's */
  add(&s, CP_OP_LAUNCH, 0, 0, 0, 3, NULL);
  for (unsigned k = 0; k < 2; k++) {
    ck_assert_int_eq(step_until(&s, &e), CP_STEP_SWITCHED);
    cp_stream_switch_out(&s, &e);
  }
  ck_assert_int_eq(step_until(&s, &e), CP_STEP_DONE);
  ck_assert_uint_eq(s.st.forced_checkpoints, 1);
  ck_assert_uint_le(s.st.max_nodes, 8);
  ck_assert_uint_eq(hk.calls, 4);
  ck_assert_uint_eq(hk.seen[3], 0xa002u);
  for (unsigned g = 0; g < 3; g++)
    ck_assert_uint_eq(hk.done_by[g], 1);
  ck_assert_uint_eq(w.mem[44], 7);
  cp_stream_fini(&s);
}
END_TEST

/* Fills the rest of the ring with nodes no operation reads (processing
 * keeps room for a launch, so only a full ring from elsewhere gets here). */
static void fill_ring(struct cp_stream *s) {
  while (cp_trace_used(&s->tr) < s->tr.cap)
    s->tr.ring[s->tr.wr++ % s->tr.cap] = (struct cp_node){CP_N_SYNC, 99, 0, 0};
}

/* A full ring with nowhere for what the hook may record stops the stream
 * with CP_ERR_TRACE_FULL before the hook runs: the launch neither runs nor
 * switches out with its word dropped, and the stream stays stopped. When
 * the launch's nodes exist already (updated in place), a full ring is no
 * obstacle. */
START_TEST(full_trace_fails_the_stream_not_the_word) {
  static struct world w;
  memset(&w, 0, sizeof w);
  static const int script[] = {1, SWITCH_OUT, 8};
  struct cp_env e = hk_env(&w, script, 3);
  struct cp_stream s;
  ck_assert_int_eq(cp_stream_init(&s, 0, 16), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_LAUNCH, 0, 0, 0, 3, NULL);
  add(&s, CP_OP_SIGNAL, 0, 0, 0, 0, NULL);
  run_steps(&s, &e, 2); /* checkpoint; process the launch */
  fill_ring(&s);
  uint32_t wr = s.tr.wr;
  ck_assert_int_eq(cp_stream_step(&s, &e), CP_STEP_ERROR);
  ck_assert_int_eq(s.error, CP_ERR_TRACE_FULL);
  ck_assert_uint_eq(hk.calls, 0);
  ck_assert_uint_eq(s.tr.wr, wr);
  ck_assert_int_eq(cp_stream_step(&s, &e), CP_STEP_ERROR);
  ck_assert_uint_eq(hk.calls, 0);
  ck_assert_uint_eq(w.signals[0][0], 0);
  cp_stream_fini(&s);

  /* Group 0 done and the word kept: the last call fits a full ring. */
  e = hk_env(&w, script, 3);
  ck_assert_int_eq(cp_stream_init(&s, 0, 16), 0);
  add(&s, CP_OP_CHECKPOINT, 0, 0, 0, 0, NULL);
  add(&s, CP_OP_LAUNCH, 0, 0, 0, 3, NULL);
  add(&s, CP_OP_SIGNAL, 0, 0, 0, 0, NULL);
  ck_assert_int_eq(step_until(&s, &e), CP_STEP_SWITCHED);
  cp_stream_switch_out(&s, &e);
  fill_ring(&s);
  ck_assert_int_eq(step_until(&s, &e), CP_STEP_DONE);
  ck_assert_uint_eq(hk.calls, 3);
  ck_assert_uint_eq(hk.seen[2], 0xa001u);
  ck_assert_uint_eq(w.signals[0][0], 1);
  cp_stream_fini(&s);
}
END_TEST

int main(void) {
  Suite *s = suite_create("cp_trace");
  CU_ADD(s, state_ops_leave_no_nodes);
  CU_ADD(s, snapshot_read_replays_as_traced);
  CU_ADD(s, without_trace_the_replayed_read_sees_the_other_write);
  CU_ADD(s, resume_point_is_last_checkpoint);
  CU_ADD(s, nothing_is_scheduled_twice);
  CU_ADD(s, processed_not_scheduled_uses_traced_host_source);
  CU_ADD(s, read_after_traced_write_is_forwarded);
  CU_ADD(s, traced_predicate_keeps_its_branch);
  CU_ADD(s, checkpoint_purges_previous_block);
  CU_ADD(s, ring_wraps_and_overflow_is_clean);
  CU_ADD(s, forced_checkpoint_keeps_state);
  CU_ADD(s, too_many_words_is_a_bad_op);
  CU_ADD(s, reserve_makes_room);
  CU_ADD(s, high_priority_preempts_between_work_groups);
  CU_ADD(s, equal_priorities_time_slice);
  CU_ADD(s, random_switch_points_match_uninterrupted_run);
  CU_ADD(s, random_switch_points_without_trace_differ);
  CU_ADD(s, launch_switches_itself_out_and_replays_with_its_word);
  CU_ADD(s, scheduler_resumes_a_switched_out_launch);
  CU_ADD(s, launch_keeps_room_for_its_word);
  CU_ADD(s, full_trace_fails_the_stream_not_the_word);
  return cu_run(s);
}
