/*
 * cp_stream.h - command streams, the per-stream trace buffer and replay from
 * the last checkpoint (seed 001), plus a small scheduler that switches
 * between streams at any operation or between work-groups of a launch.
 *
 * Memory is reached only through struct cp_env (64-bit words at word
 * addresses), so scripted tests drive the same code the device does. This
 * layer must not create threads, know OpenCL objects, or keep anything about
 * a switched-out stream except its trace buffer and its pointers.
 */
#ifndef LOCKSTEP_DEVICE_CP_STREAM_H
#define LOCKSTEP_DEVICE_CP_STREAM_H

#include <stdbool.h>
#include <stdint.h>

enum cp_op_kind {
  CP_OP_CHECKPOINT,      /* block boundary: replay restarts here; purges the trace;
                            clears the state registers (blocks are independent) */
  CP_OP_STATE,           /* state[b] := value; deterministic, never traced */
  CP_OP_LAUNCH,          /* n work-groups, argument value, kernel id */
  CP_OP_LAUNCH_INDIRECT, /* groups and argument read from words a, a+1 */
  CP_OP_COPY,            /* n words a -> b */
  CP_OP_FILL,            /* n words at a := value */
  CP_OP_READ,            /* n words at a -> host[] */
  CP_OP_WRITE,           /* host[] -> n words at a */
  CP_OP_SEM_ACQUIRE,     /* wait until word a >= value */
  CP_OP_SEM_RELEASE,     /* word a := value */
  CP_OP_WAIT_IDLE,       /* wait until every scheduled operation executed */
  CP_OP_PREDICATE,       /* run the next n operations only if word a == value */
  CP_OP_SIGNAL,          /* signal event id */
  CP_OP_FETCH,           /* work queue at a (device/wq.h, n entries): snapshot the
                            command block of position b into the trace, then append
                            its commands and the FETCH of position b + 1 */
};

/* Most words one READ/WRITE/COPY/FILL operation may move; more stops the
 * stream with CP_ERR_BAD_OP. */
#define CP_MAX_WORDS 64
/* State registers per stream. */
#define CP_NSTATE 8
/* A stream past this many scheduled operations drops them (between two
 * operations, with a checkpoint): its history stays bounded. */
#define CP_DROP_MIN 4096u

struct cp_op {
  enum cp_op_kind kind;
  uint64_t a, b, value;
  uint32_t n;
  uint64_t *host; /* READ destination, WRITE source (n words) */
  unsigned id;    /* SIGNAL: event; LAUNCH: kernel */
};

/* What a work-group sees of its launch. */
struct cp_launch_info {
  unsigned stream, kernel;
  uint64_t arg, groups;
  const uint64_t *state; /* the stream's state registers at the launch */
  /* In: the word the trace keeps for this launch since it last switched
   * itself out (0 before that); out, when the hook returns
   * CP_HOOK_SWITCHED: the word to keep. Opaque to the stream. */
  uint64_t *saved;
};

/* A launch hook's return when the launch switched itself out: it completed
 * no work-group in this call and left its state under *saved. The step
 * returns CP_STEP_SWITCHED; once switched out and resumed, the stream
 * replays and calls the hook again with that word. Errors are negative. */
#define CP_HOOK_SWITCHED 1

/* The outside world of the processor. Hooks may be NULL except load/store. */
struct cp_env {
  void *ctx;
  uint64_t (*load)(void *ctx, uint64_t addr);
  void (*store)(void *ctx, uint64_t addr, uint64_t value);
  /* Runs work-group g of a launch to completion; returns 0, an error or
   * CP_HOOK_SWITCHED. */
  int (*group)(void *ctx, const struct cp_launch_info *l, uint64_t g);
  void (*signal)(void *ctx, unsigned stream, unsigned id);
  /* Observer: operation op of stream was scheduled (side effects issued). */
  void (*scheduled)(void *ctx, unsigned stream, uint32_t op);
  /* Observer: stream was switched out (tests use it to change memory). */
  void (*switched_out)(void *ctx, unsigned stream);
  /* Observer: a resumed stream's replay caught up with where it was. */
  void (*replayed)(void *ctx, unsigned stream);
  /* Optional, used instead of group: runs work-groups of a launch in order
   * from first (every group in [first, end) is not yet complete), as many
   * as it chooses, possibly none, and sets *done to one past the last one
   * completed; returns 0, an error or CP_HOOK_SWITCHED. */
  int (*groups)(void *ctx, const struct cp_launch_info *l, uint64_t first, uint64_t end,
                uint64_t *done);
};

enum cp_node_kind {
  CP_N_CHECKPOINT, /* value = resume index */
  CP_N_STATE,      /* after a checkpoint: state[addr] = value on resume */
  CP_N_READ,       /* snapshot of word addr read by op */
  CP_N_WRITE,      /* op writes value to addr (several nodes = history) */
  CP_N_PRED,       /* flattened predicate: value = 1 if the ops run */
  CP_N_SYNC,       /* op's wait completed */
  CP_N_GROUPS,     /* work-groups [addr, addr + value) of op completed */
  CP_N_SWITCH,     /* switched out: addr = processed, value = scheduled */
  CP_N_SAVED,      /* launch op switched itself out leaving value (one per op) */
};

struct cp_node {
  uint32_t kind, op;
  uint64_t addr, value;
};

/* The ring: nodes [rd, wr) are valid (counters, index mod cap). */
struct cp_trace {
  struct cp_node *ring;
  uint32_t cap;
  uint32_t rd, wr;
  uint32_t processed, scheduled; /* ops below these indices are so */
  bool enabled;                  /* false only to show the hazard */
};

struct cp_stream_stats {
  uint64_t switches, replays, replay_skipped, replay_scheduled, forced_checkpoints, purges, drops;
  uint32_t max_nodes;
};

enum cp_phase { CP_PH_PROCESS, CP_PH_SCHEDULE };

struct cp_stream {
  unsigned id;
  int priority; /* higher runs first */
  struct cp_op *ops;
  uint32_t nops, cap_ops;
  struct cp_trace tr;
  uint32_t executed; /* ops below this index have executed */
  int error;         /* nonzero: the stream stopped */
  struct cp_stream_stats st;
  /* Volatile context: rebuilt by replay after every switch. */
  bool resumed;
  uint32_t pc;
  enum cp_phase phase;
  uint64_t state[CP_NSTATE];
  uint64_t scratch[CP_MAX_WORDS * 2];
  uint64_t groups, arg, next_group;
  uint32_t skip;         /* ops left to skip under a false predicate */
  uint32_t replay_until; /* processed index when resumed */
  bool replaying;        /* resumed, not yet caught up */
};

/* CP_STEP_SWITCHED: the launch hook switched its launch out (its word is in
 * the trace); the caller switches the stream out and resumes it when the
 * launch is re-issued. */
enum cp_step { CP_STEP_OK, CP_STEP_BLOCKED, CP_STEP_DONE, CP_STEP_ERROR, CP_STEP_SWITCHED };

/* Errors a stream can stop with. */
#define CP_ERR_TRACE_FULL (-1001)
#define CP_ERR_BAD_OP     (-1002)
#define CP_ERR_NO_MEMORY  (-1003)

/* trace_cap nodes (at least 8); returns 0 or -1 on allocation failure. */
int cp_stream_init(struct cp_stream *s, unsigned id, uint32_t trace_cap);
void cp_stream_fini(struct cp_stream *s);
int cp_stream_append(struct cp_stream *s, const struct cp_op *op);
/* Makes room for n more operations, so that the next n appends cannot
 * fail; returns 0 or -1 (nothing changed). */
int cp_stream_reserve(struct cp_stream *s, uint32_t n);
/* One step: process an op, schedule it, or run one work-group. */
enum cp_step cp_stream_step(struct cp_stream *s, const struct cp_env *env);
/* Once every operation executed: drops them and numbers the next one 0
 * again (the trace is purged; the next operation should be a checkpoint).
 * Returns false, changing nothing, while an operation is unfinished. */
bool cp_stream_rewind(struct cp_stream *s);
/* Saves the stream's progress in its trace and forgets the rest. */
void cp_stream_switch_out(struct cp_stream *s, const struct cp_env *env);
static inline uint32_t cp_trace_used(const struct cp_trace *t) {
  return t->wr - t->rd;
}
static inline const struct cp_node *cp_trace_node(const struct cp_trace *t, uint32_t i) {
  return &t->ring[i % t->cap];
}

/* Runs streams to completion, switching among them. */
struct cp_sched_opts {
  uint32_t switch_every; /* force a switch after this many steps (0 = never) */
  uint64_t seed;         /* nonzero: also switch at random steps */
  uint32_t random_one_in;
  uint32_t *arrive; /* per stream: global step it becomes runnable (NULL = 0) */
};
/* Returns 0 when every stream finished, else the first stream error or -1
 * when all remaining streams are blocked. */
int cp_sched_run(struct cp_stream **streams, unsigned n, const struct cp_env *env,
                 const struct cp_sched_opts *o);

#endif
