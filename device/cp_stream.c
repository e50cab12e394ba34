/*
 * cp_stream.c - command streams with a trace buffer and replay (seed 001).
 *
 * Each operation goes processed -> scheduled -> executed. Processing reads
 * what the operation depends on (memory words, host sources, predicate
 * inputs, semaphores) and records it in the stream's trace ring; scheduling
 * issues the side effects from that recorded data; a launch schedules one
 * work-group per step and records which groups completed. A switch keeps
 * only the trace (with the processed and scheduled indices) and forgets the
 * rest; on return the stream replays from its last checkpoint: operations
 * processed and scheduled are skipped (state operations are re-applied, they
 * are deterministic), processed-not-scheduled ones are scheduled from the
 * trace, reads of a location written in the block get the traced value, and
 * a launch issues only groups not yet completed. So no side effect happens
 * twice and no replayed operation sees memory another stream changed.
 * FETCH (device/wq.h) snapshots a work-queue command block the same way and
 * appends its commands when scheduled, so the stream grows as it runs.
 * This file must not create threads or look at OpenCL objects.
 */
#include <stdlib.h>
#include <string.h>

#include "device/cp_stream.h"
#include "device/wq.h"

int cp_stream_init(struct cp_stream *s, unsigned id, uint32_t trace_cap) {
  memset(s, 0, sizeof *s);
  s->id = id;
  if (trace_cap < 8) trace_cap = 8;
  s->tr.ring = calloc(trace_cap, sizeof *s->tr.ring);
  if (!s->tr.ring) return -1;
  s->tr.cap = trace_cap;
  s->tr.enabled = true;
  return 0;
}

void cp_stream_fini(struct cp_stream *s) {
  free(s->tr.ring);
  free(s->ops);
  memset(s, 0, sizeof *s);
}

int cp_stream_reserve(struct cp_stream *s, uint32_t n) {
  if (n > UINT32_MAX / 2 - s->nops) return -1;
  if (s->nops + n <= s->cap_ops) return 0;
  uint32_t cap = s->cap_ops ? s->cap_ops : 16;
  while (cap < s->nops + n)
    cap *= 2;
  struct cp_op *p = realloc(s->ops, (size_t)cap * sizeof *p);
  if (!p) return -1;
  s->ops = p;
  s->cap_ops = cap;
  return 0;
}

int cp_stream_append(struct cp_stream *s, const struct cp_op *op) {
  if (cp_stream_reserve(s, 1) != 0) return -1;
  s->ops[s->nops++] = *op;
  return 0;
}

/* ---- the trace ring ---- */

/* Data nodes are left out when the trace is disabled (the hazard demo);
 * checkpoints, switches and group completions are always kept. */
static bool is_data(uint32_t kind) {
  return kind == CP_N_READ || kind == CP_N_WRITE || kind == CP_N_PRED || kind == CP_N_SYNC;
}

static bool push(struct cp_stream *s, uint32_t kind, uint32_t op, uint64_t addr, uint64_t value) {
  struct cp_trace *t = &s->tr;
  if (!t->enabled && is_data(kind)) return true;
  if (t->wr - t->rd >= t->cap) return false;
  struct cp_node *n = &t->ring[t->wr % t->cap];
  n->kind = kind;
  n->op = op;
  n->addr = addr;
  n->value = value;
  t->wr++;
  if (t->wr - t->rd > s->st.max_nodes) s->st.max_nodes = t->wr - t->rd;
  return true;
}

/* State registers a checkpoint keeps: the nonzero ones. */
static uint32_t live_state(const struct cp_stream *s) {
  uint32_t n = 0;
  for (uint32_t r = 0; r < CP_NSTATE; r++)
    n += s->state[r] != 0;
  return n;
}

/* Purges the previous block and starts a new one resuming at `resume`,
 * with the state registers as they are now (nonzero ones follow the
 * checkpoint node): replay restores them without reading an op before
 * `resume`. */
static void checkpoint(struct cp_stream *s, uint32_t resume) {
  s->tr.rd = s->tr.wr;
  s->st.purges++;
  push(s, CP_N_CHECKPOINT, resume, 0, resume);
  for (uint32_t r = 0; r < CP_NSTATE; r++)
    if (s->state[r]) push(s, CP_N_STATE, resume, r, s->state[r]);
}

/* The k-th node of kind for op in the current block, or NULL. */
static const struct cp_node *find(const struct cp_stream *s, uint32_t kind, uint32_t op,
                                  uint32_t k) {
  const struct cp_trace *t = &s->tr;
  for (uint32_t i = t->rd; i != t->wr; i++) {
    const struct cp_node *n = cp_trace_node(t, i);
    if (n->kind == kind && n->op == op && k-- == 0) return n;
  }
  return NULL;
}

/* A read while processing: the latest traced write of addr in this block
 * (write forwarding), else live memory. A launch since that write may have
 * changed the word, so forwarding stops at a launch's group record. */
static uint64_t read_fwd(struct cp_stream *s, const struct cp_env *env, uint64_t addr) {
  const struct cp_trace *t = &s->tr;
  if (t->enabled) {
    for (uint32_t i = t->wr; i != t->rd; i--) {
      const struct cp_node *n = cp_trace_node(t, i - 1);
      if (n->kind == CP_N_GROUPS) break;
      if (n->kind == CP_N_WRITE && n->addr == addr) return n->value;
    }
  }
  return env->load(env->ctx, addr);
}

/* The first group at or after g of op i that the trace does not record as
 * completed: O(nodes), whatever the number of groups already done. */
static uint64_t next_open(const struct cp_stream *s, uint32_t op, uint64_t g) {
  const struct cp_trace *t = &s->tr;
  for (bool moved = true; moved;) {
    moved = false;
    for (uint32_t i = t->rd; i != t->wr; i++) {
      const struct cp_node *n = cp_trace_node(t, i);
      if (n->kind == CP_N_GROUPS && n->op == op && g >= n->addr && g - n->addr < n->value) {
        g = n->addr + n->value;
        moved = true;
      }
    }
  }
  return g;
}

/* The first group after the open group g of op i that is recorded as
 * completed, or limit. */
static uint64_t next_closed(const struct cp_stream *s, uint32_t op, uint64_t g, uint64_t limit) {
  const struct cp_trace *t = &s->tr;
  for (uint32_t i = t->rd; i != t->wr; i++) {
    const struct cp_node *n = cp_trace_node(t, i);
    if (n->kind == CP_N_GROUPS && n->op == op && n->value && n->addr > g && n->addr < limit)
      limit = n->addr;
  }
  return limit;
}

/* Whether an operation moves op->n words (at most CP_MAX_WORDS: more is a
 * bad operation, never a silent truncation). */
static bool moves_words(enum cp_op_kind kind) {
  return kind == CP_OP_READ || kind == CP_OP_WRITE || kind == CP_OP_COPY || kind == CP_OP_FILL;
}

/* Trace nodes processing op needs (plus one kept free for a switch; a
 * launch also keeps room for its run of completed groups and for the word
 * it may leave when it switches itself out). */
static uint32_t nodes_needed(const struct cp_op *op) {
  uint32_t n = op->n > CP_MAX_WORDS ? CP_MAX_WORDS : op->n;
  switch (op->kind) {
  case CP_OP_READ:
  case CP_OP_WRITE:
  case CP_OP_FILL: return n + 1;
  case CP_OP_COPY: return 2 * n + 1;
  case CP_OP_LAUNCH_INDIRECT: return 5;
  case CP_OP_LAUNCH: return 3;
  case CP_OP_FETCH: return 2 + WQ_BLOCK_WORDS + 1;
  default: return 2;
  }
}

/* ---- processing, replay and scheduling of one operation ---- */

static void resume(struct cp_stream *s) {
  struct cp_trace *t = &s->tr;
  s->pc = 0;
  if (t->wr != t->rd && cp_trace_node(t, t->rd)->kind == CP_N_CHECKPOINT) {
    const struct cp_node *c = cp_trace_node(t, t->rd);
    s->pc = (uint32_t)c->value;
    /* A forced checkpoint sits inside a block: its state comes back. */
    for (uint32_t k = t->rd + 1; k != t->wr && cp_trace_node(t, k)->kind == CP_N_STATE; k++)
      s->state[cp_trace_node(t, k)->addr % CP_NSTATE] = cp_trace_node(t, k)->value;
  }
  s->replay_until = t->processed > s->pc ? t->processed : s->pc;
  s->replaying = true;
  if (t->processed > s->pc) s->st.replays++;
  s->phase = CP_PH_PROCESS;
  s->resumed = true;
}

static enum cp_step fail(struct cp_stream *s, int err) {
  s->error = err;
  return CP_STEP_ERROR;
}

/* The words a FETCH depends on, into scratch: the entry, the block's
 * command count, its commands. First processing (replay false) reads memory
 * (with forwarding) and records every word; a replay takes them from the
 * trace (live memory only when the trace is disabled: the hazard). */
static enum cp_step fetch_words(struct cp_stream *s, const struct cp_env *env,
                                const struct cp_op *op, uint32_t i, bool replay) {
  const struct cp_node *nd;
  bool tr = s->tr.enabled;
  if (op->n < WQ_MIN_ENTRIES) return fail(s, CP_ERR_BAD_OP);
  uint64_t addr = op->a + wq_entry_off(op->n, op->b);
  uint32_t total = 2;
  for (uint32_t k = 0; k < total; k++) {
    uint64_t v;
    if (!replay) {
      v = read_fwd(s, env, addr);
      if (!push(s, CP_N_READ, i, addr, v)) return fail(s, CP_ERR_TRACE_FULL);
    } else {
      v = tr && (nd = find(s, CP_N_READ, i, k)) ? nd->value : env->load(env->ctx, addr);
    }
    s->scratch[k] = v;
    if (k == 0) { /* the entry: where the block is */
      if (v == 0) return fail(s, CP_ERR_BAD_OP);
      addr = v;
      continue;
    }
    if (k == 1) {
      if (v > WQ_MAX_CMDS) return fail(s, CP_ERR_BAD_OP);
      total = 2 + (uint32_t)v * WQ_CMD_WORDS;
    }
    addr++;
  }
  return CP_STEP_OK;
}

/* First processing of op i (i == tr.processed). */
static enum cp_step process(struct cp_stream *s, const struct cp_env *env, const struct cp_op *op,
                            uint32_t i) {
  struct cp_trace *t = &s->tr;
  if (moves_words(op->kind) && op->n > CP_MAX_WORDS) return fail(s, CP_ERR_BAD_OP);
  uint32_t n = op->n;
  if (op->kind != CP_OP_CHECKPOINT && cp_trace_used(t) + nodes_needed(op) > t->cap) {
    if (nodes_needed(op) + 2 + live_state(s) > t->cap) return fail(s, CP_ERR_TRACE_FULL);
    /* Everything before i is scheduled: a checkpoint here is safe. */
    checkpoint(s, i);
    s->st.forced_checkpoints++;
  }
  bool ok = true;
  switch (op->kind) {
  case CP_OP_CHECKPOINT: /* blocks are independent: each starts with clear state */
    memset(s->state, 0, sizeof s->state);
    checkpoint(s, i + 1);
    break;
  case CP_OP_STATE: s->state[op->b % CP_NSTATE] = op->value; break;
  case CP_OP_READ:
  case CP_OP_COPY:
    for (uint32_t k = 0; k < n; k++) {
      s->scratch[k] = read_fwd(s, env, op->a + k);
      ok = ok && push(s, CP_N_READ, i, op->a + k, s->scratch[k]);
      if (op->kind == CP_OP_COPY) ok = ok && push(s, CP_N_WRITE, i, op->b + k, s->scratch[k]);
    }
    break;
  case CP_OP_WRITE:
    for (uint32_t k = 0; k < n; k++) {
      s->scratch[k] = op->host[k]; /* snapshot of the host source */
      ok = ok && push(s, CP_N_WRITE, i, op->a + k, s->scratch[k]);
    }
    break;
  case CP_OP_FILL:
    for (uint32_t k = 0; k < n; k++)
      ok = ok && push(s, CP_N_WRITE, i, op->a + k, op->value);
    break;
  case CP_OP_SEM_ACQUIRE:
    if (read_fwd(s, env, op->a) < op->value) return CP_STEP_BLOCKED;
    ok = push(s, CP_N_SYNC, i, op->a, op->value);
    break;
  case CP_OP_SEM_RELEASE: ok = push(s, CP_N_WRITE, i, op->a, op->value); break;
  case CP_OP_WAIT_IDLE:
    if (s->executed < i) return CP_STEP_BLOCKED;
    ok = push(s, CP_N_SYNC, i, 0, 0);
    break;
  case CP_OP_PREDICATE: {
    bool run = read_fwd(s, env, op->a) == op->value;
    ok = push(s, CP_N_PRED, i, op->a, run);
    s->skip = run ? 0 : op->n;
    break;
  }
  case CP_OP_LAUNCH:
    s->groups = op->n;
    s->arg = op->value;
    s->next_group = 0;
    break;
  case CP_OP_LAUNCH_INDIRECT:
    s->groups = read_fwd(s, env, op->a);
    s->arg = read_fwd(s, env, op->a + 1);
    ok = push(s, CP_N_READ, i, op->a, s->groups) && push(s, CP_N_READ, i, op->a + 1, s->arg);
    s->next_group = 0;
    break;
  case CP_OP_SIGNAL: break;
  case CP_OP_FETCH: {
    enum cp_step r = fetch_words(s, env, op, i, false);
    if (r != CP_STEP_OK) return r;
    break;
  }
  default: return fail(s, CP_ERR_BAD_OP);
  }
  if (!ok) return fail(s, CP_ERR_TRACE_FULL);
  t->processed = i + 1;
  return CP_STEP_OK;
}

/* Replay of op i, processed but not scheduled: rebuild what processing
 * produced from the trace instead of memory. */
static enum cp_step reload(struct cp_stream *s, const struct cp_env *env, const struct cp_op *op,
                           uint32_t i) {
  const struct cp_node *nd;
  uint32_t n = op->n > CP_MAX_WORDS ? CP_MAX_WORDS : op->n;
  bool tr = s->tr.enabled;
  switch (op->kind) {
  case CP_OP_STATE: s->state[op->b % CP_NSTATE] = op->value; break;
  case CP_OP_READ:
  case CP_OP_COPY:
    for (uint32_t k = 0; k < n; k++)
      s->scratch[k] =
          tr && (nd = find(s, CP_N_READ, i, k)) ? nd->value : env->load(env->ctx, op->a + k);
    break;
  case CP_OP_WRITE:
    for (uint32_t k = 0; k < n; k++)
      s->scratch[k] = tr && (nd = find(s, CP_N_WRITE, i, k)) ? nd->value : op->host[k];
    break;
  case CP_OP_SEM_ACQUIRE:
    if (!(tr && find(s, CP_N_SYNC, i, 0)) && env->load(env->ctx, op->a) < op->value)
      return CP_STEP_BLOCKED;
    break;
  case CP_OP_PREDICATE: {
    bool run = tr && (nd = find(s, CP_N_PRED, i, 0)) ? nd->value != 0
                                                     : env->load(env->ctx, op->a) == op->value;
    s->skip = run ? 0 : op->n;
    break;
  }
  case CP_OP_LAUNCH:
    s->groups = op->n;
    s->arg = op->value;
    s->next_group = 0;
    break;
  case CP_OP_LAUNCH_INDIRECT:
    s->groups = tr && (nd = find(s, CP_N_READ, i, 0)) ? nd->value : env->load(env->ctx, op->a);
    s->arg = tr && (nd = find(s, CP_N_READ, i, 1)) ? nd->value : env->load(env->ctx, op->a + 1);
    s->next_group = 0;
    break;
  case CP_OP_FETCH: {
    enum cp_step r = fetch_words(s, env, op, i, true);
    if (r != CP_STEP_OK) return r;
    break;
  }
  default: break;
  }
  s->st.replay_scheduled++;
  return CP_STEP_OK;
}

/* Replay of op i, processed and scheduled: no side effect, but the stream's
 * own deterministic context (state, predicate skips) is rebuilt. */
static void skip_done(struct cp_stream *s, const struct cp_env *env, const struct cp_op *op,
                      uint32_t i) {
  const struct cp_node *nd;
  if (op->kind == CP_OP_STATE) s->state[op->b % CP_NSTATE] = op->value;
  if (op->kind == CP_OP_PREDICATE) {
    bool run = s->tr.enabled && (nd = find(s, CP_N_PRED, i, 0))
                   ? nd->value != 0
                   : env->load(env->ctx, op->a) == op->value;
    s->skip = run ? 0 : op->n;
  }
  s->st.replay_skipped++;
}

/* Records group g of op i as completed (coalescing a run of groups). */
static bool note_group(struct cp_stream *s, uint32_t i, uint64_t g) {
  struct cp_trace *t = &s->tr;
  for (uint32_t k = t->rd; k != t->wr; k++) {
    struct cp_node *n = &t->ring[k % t->cap];
    if (n->kind == CP_N_GROUPS && n->op == i && n->addr + n->value == g) {
      n->value++;
      return true;
    }
  }
  return push(s, CP_N_GROUPS, i, g, 1);
}

/* Records groups [g, g + n) of op i as completed. */
static bool note_groups(struct cp_stream *s, uint32_t i, uint64_t g, uint64_t n) {
  struct cp_trace *t = &s->tr;
  for (uint32_t k = t->rd; k != t->wr; k++) {
    struct cp_node *nd = &t->ring[k % t->cap];
    if (nd->kind == CP_N_GROUPS && nd->op == i && nd->addr + nd->value == g) {
      nd->value += n;
      return true;
    }
  }
  return push(s, CP_N_GROUPS, i, g, n);
}

/* The word launch op i left when it last switched itself out, or 0. */
static uint64_t saved_word(const struct cp_stream *s, uint32_t i) {
  const struct cp_node *n = find(s, CP_N_SAVED, i, 0);
  return n ? n->value : 0;
}

/* Whether the trace can take what one hook call of launch op i from group g
 * records: a run of groups (a new node unless it extends the run ending at
 * g) or a saved word (a new node unless the op keeps one). Checked before
 * the call, so a launch never runs or switches out with nowhere to record
 * it. */
static bool launch_room(const struct cp_stream *s, uint32_t i, uint64_t g) {
  const struct cp_trace *t = &s->tr;
  if (t->wr - t->rd < t->cap) return true;
  bool run = false, saved = false;
  for (uint32_t k = t->rd; k != t->wr; k++) {
    const struct cp_node *n = cp_trace_node(t, k);
    run |= n->kind == CP_N_GROUPS && n->op == i && n->addr + n->value == g;
    saved |= n->kind == CP_N_SAVED && n->op == i;
  }
  return run && saved;
}

/* Launch op i switched itself out leaving word: kept in its node (one per
 * op and block, until the purge like every node). A full trace stops the
 * stream; the word is never dropped. */
static enum cp_step keep_saved(struct cp_stream *s, uint32_t i, uint64_t word) {
  struct cp_trace *t = &s->tr;
  for (uint32_t k = t->rd; k != t->wr; k++) {
    struct cp_node *n = &t->ring[k % t->cap];
    if (n->kind == CP_N_SAVED && n->op == i) {
      n->value = word;
      return CP_STEP_SWITCHED;
    }
  }
  if (!push(s, CP_N_SAVED, i, 0, word)) return fail(s, CP_ERR_TRACE_FULL);
  return CP_STEP_SWITCHED;
}

/* Schedules a FETCH: appends the snapshot's commands and the next FETCH,
 * then frees the fetched entry for reuse (shadow GP_PUT = GP_GET + n - 1). */
static enum cp_step schedule_fetch(struct cp_stream *s, const struct cp_env *env, uint32_t i) {
  struct cp_op f = s->ops[i], cmds[WQ_MAX_CMDS];
  uint32_t c = (uint32_t)s->scratch[1];
  for (uint32_t k = 0; k < c; k++)
    if (!wq_decode(&s->scratch[2 + k * WQ_CMD_WORDS], &cmds[k])) return fail(s, CP_ERR_BAD_OP);
  for (uint32_t k = 0; k < c; k++)
    if (cp_stream_append(s, &cmds[k]) != 0) return fail(s, CP_ERR_NO_MEMORY);
  struct cp_op next = f;
  next.b = f.b + 1;
  if (cp_stream_append(s, &next) != 0) return fail(s, CP_ERR_NO_MEMORY);
  env->store(env->ctx, f.a + WQ_SHADOW_PUT, next.b + f.n - 1);
  if (env->scheduled) env->scheduled(env->ctx, s->id, i);
  return CP_STEP_OK;
}

/* One scheduling step of op i; *finished says whether it is now scheduled. */
static enum cp_step schedule(struct cp_stream *s, const struct cp_env *env, const struct cp_op *op,
                             uint32_t i, bool *finished) {
  uint32_t n = op->n > CP_MAX_WORDS ? CP_MAX_WORDS : op->n;
  *finished = true;
  switch (op->kind) {
  case CP_OP_FETCH: return schedule_fetch(s, env, i); /* may move s->ops */
  case CP_OP_READ:
    for (uint32_t k = 0; k < n; k++)
      op->host[k] = s->scratch[k];
    break;
  case CP_OP_COPY:
    for (uint32_t k = 0; k < n; k++)
      env->store(env->ctx, op->b + k, s->scratch[k]);
    break;
  case CP_OP_WRITE:
    for (uint32_t k = 0; k < n; k++)
      env->store(env->ctx, op->a + k, s->scratch[k]);
    break;
  case CP_OP_FILL:
    for (uint32_t k = 0; k < n; k++)
      env->store(env->ctx, op->a + k, op->value);
    break;
  case CP_OP_SEM_RELEASE: env->store(env->ctx, op->a, op->value); break;
  case CP_OP_SIGNAL:
    if (env->signal) env->signal(env->ctx, s->id, op->id);
    break;
  case CP_OP_LAUNCH:
  case CP_OP_LAUNCH_INDIRECT: {
    s->next_group = next_open(s, i, s->next_group);
    if (s->next_group >= s->groups) break;
    uint64_t g = s->next_group, saved = saved_word(s, i);
    if (!launch_room(s, i, g)) return fail(s, CP_ERR_TRACE_FULL);
    struct cp_launch_info li = {s->id, op->id, s->arg, s->groups, s->state, &saved};
    if (env->groups) { /* a batch, up to the next completed group */
      uint64_t end = next_closed(s, i, g, s->groups), done = g;
      int rc = env->groups(env->ctx, &li, g, end, &done);
      if (rc == CP_HOOK_SWITCHED) return keep_saved(s, i, saved);
      if (rc) return fail(s, rc);
      if (done > end) done = end;
      if (done > g && !note_groups(s, i, g, done - g)) return fail(s, CP_ERR_TRACE_FULL);
      s->next_group = done;
      *finished = false;
      return CP_STEP_OK;
    }
    int rc = env->group ? env->group(env->ctx, &li, g) : 0;
    if (rc == CP_HOOK_SWITCHED) return keep_saved(s, i, saved);
    if (rc) return fail(s, rc);
    if (!note_group(s, i, g)) return fail(s, CP_ERR_TRACE_FULL);
    s->next_group = g + 1;
    *finished = false;
    return CP_STEP_OK;
  }
  default: break;
  }
  if (env->scheduled && op->kind != CP_OP_CHECKPOINT && op->kind != CP_OP_STATE)
    env->scheduled(env->ctx, s->id, i);
  return CP_STEP_OK;
}

/* Between operations, with everything before pc scheduled and no replay
 * under way: a checkpoint at pc, then the operations before it are dropped
 * and the rest numbered from 0. A stream that never finishes (an on-device
 * queue's ring appends what it fetches) keeps no more than CP_DROP_MIN
 * operations of history. */
static void drop_history(struct cp_stream *s) {
  struct cp_trace *t = &s->tr;
  uint32_t k = s->pc;
  if (k < CP_DROP_MIN || s->replaying || s->phase != CP_PH_PROCESS || s->skip ||
      t->processed != k || t->scheduled != k || s->executed != k ||
      2 + live_state(s) > t->cap) /* the checkpoint, its state, a switch */
    return;
  memmove(s->ops, s->ops + k, (size_t)(s->nops - k) * sizeof *s->ops);
  s->nops -= k;
  s->pc = t->processed = t->scheduled = s->executed = 0;
  s->replay_until = 0;
  checkpoint(s, 0);
  s->st.drops++;
}

enum cp_step cp_stream_step(struct cp_stream *s, const struct cp_env *env) {
  if (s->error) return CP_STEP_ERROR;
  if (!s->resumed) resume(s);
  struct cp_trace *t = &s->tr;
  /* Caught up: past the processed ops, or the last one reloaded. */
  if (s->replaying && ((s->pc >= s->replay_until && s->phase == CP_PH_PROCESS) ||
                       (s->pc + 1 == s->replay_until && s->phase == CP_PH_SCHEDULE))) {
    s->replaying = false;
    if (env->replayed) env->replayed(env->ctx, s->id);
  }
  drop_history(s); /* after the catch-up: a stream switched at every step drops too */
  if (s->pc >= s->nops) return CP_STEP_DONE;
  uint32_t i = s->pc;
  const struct cp_op *op = &s->ops[i];
  if (s->phase == CP_PH_PROCESS) {
    if (s->skip) { /* under a false predicate: processed as nothing */
      s->skip--;
      if (i >= t->processed) t->processed = i + 1;
      if (i >= t->scheduled) t->scheduled = s->executed = i + 1;
      s->pc++;
      return CP_STEP_OK;
    }
    if (i < t->scheduled) {
      skip_done(s, env, op, i);
      s->pc++;
      return CP_STEP_OK;
    }
    enum cp_step r = i < t->processed ? reload(s, env, op, i) : process(s, env, op, i);
    if (r != CP_STEP_OK) return r;
    if (op->kind == CP_OP_CHECKPOINT) {
      t->scheduled = s->executed = i + 1;
      s->pc++;
      return CP_STEP_OK;
    }
    s->phase = CP_PH_SCHEDULE;
    return CP_STEP_OK;
  }
  bool finished;
  enum cp_step r = schedule(s, env, op, i, &finished);
  if (r != CP_STEP_OK || !finished) return r;
  t->scheduled = i + 1;
  s->executed = i + 1; /* the scripted device executes as it schedules */
  s->phase = CP_PH_PROCESS;
  s->pc++;
  return CP_STEP_OK;
}

bool cp_stream_rewind(struct cp_stream *s) {
  struct cp_trace *t = &s->tr;
  if (s->error || s->executed < s->nops || t->scheduled < s->nops || s->skip) return false;
  s->nops = 0;
  t->rd = t->wr;
  t->processed = t->scheduled = 0;
  s->executed = 0;
  s->resumed = false;
  s->pc = 0;
  s->phase = CP_PH_PROCESS;
  s->replaying = false;
  return true;
}

void cp_stream_switch_out(struct cp_stream *s, const struct cp_env *env) {
  struct cp_trace *t = &s->tr;
  /* Record the last processed and scheduled op; one node per block. */
  struct cp_node *last = NULL;
  for (uint32_t i = t->rd; i != t->wr; i++)
    if (t->ring[i % t->cap].kind == CP_N_SWITCH) last = &t->ring[i % t->cap];
  if (last) {
    last->op = last->addr = t->processed;
    last->value = t->scheduled;
  } else {
    push(s, CP_N_SWITCH, t->processed, t->processed, t->scheduled);
  }
  s->st.switches++;
  /* Forget everything else: replay must rebuild it. */
  s->resumed = false;
  s->pc = 0;
  s->phase = CP_PH_PROCESS;
  memset(s->state, 0, sizeof s->state);
  memset(s->scratch, 0, sizeof s->scratch);
  s->groups = s->arg = s->next_group = 0;
  s->skip = 0;
  s->replaying = false;
  if (env && env->switched_out) env->switched_out(env->ctx, s->id);
}

/* ---- a scheduler over several streams ---- */

static uint64_t rng_next(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

int cp_sched_run(struct cp_stream **streams, unsigned n, const struct cp_env *env,
                 const struct cp_sched_opts *o) {
  enum { MAXS = 64 };
  if (n > MAXS) return -1;
  bool done[MAXS] = {0}, blocked[MAXS] = {0};
  uint64_t step = 0, rng = o && o->seed ? o->seed : 0;
  uint32_t quantum = 0;
  int cur = -1;
  unsigned last = n - 1;
  for (;;) {
    /* The eligible stream of highest priority, round-robin after last. */
    int best = -1;
    bool any_left = false;
    for (unsigned j = 1; j <= n; j++) {
      unsigned k = (last + j) % n;
      if (done[k]) continue;
      any_left = true;
      if (blocked[k] || (o && o->arrive && o->arrive[k] > step)) continue;
      if (best < 0 || streams[k]->priority > streams[best]->priority) best = (int)k;
    }
    if (!any_left) return 0;
    if (best < 0) {
      bool waiting = false;
      for (unsigned k = 0; k < n; k++)
        waiting |= !done[k] && o && o->arrive && o->arrive[k] > step;
      if (!waiting) return -1; /* everything left is blocked */
      step++;
      continue;
    }
    /* Keep the current stream unless preempted or its slice ended (a
     * stream alone switches out and replays all the same). */
    if (cur >= 0 && o && o->switch_every && quantum >= o->switch_every) {
      cp_stream_switch_out(streams[cur], env);
      cur = -1;
    } else if (cur >= 0 && !blocked[cur] && streams[cur]->priority >= streams[best]->priority) {
      best = cur;
    }
    if (best != cur) {
      if (cur >= 0) cp_stream_switch_out(streams[cur], env);
      cur = best;
      quantum = 0;
    }
    last = (unsigned)cur;
    struct cp_stream *s = streams[cur];
    enum cp_step r = cp_stream_step(s, env);
    step++;
    bool fresh = !s->replaying; /* replay steps do not use up a slice */
    quantum += fresh;
    if (r == CP_STEP_ERROR) return s->error;
    if (r == CP_STEP_SWITCHED) { /* re-issued at once: it replays when next taken */
      cp_stream_switch_out(s, env);
      cur = -1;
      continue;
    }
    if (r == CP_STEP_DONE) {
      done[cur] = true;
      cur = -1;
      continue;
    }
    if (r == CP_STEP_BLOCKED) {
      blocked[cur] = true;
      cp_stream_switch_out(s, env);
      cur = -1;
      continue;
    }
    /* Progress may unblock others; a replay step re-issues nothing, so two
     * waiting streams must not keep waking each other by replaying. */
    if (fresh) memset(blocked, 0, sizeof blocked);
    if (fresh && rng && rng_next(&rng) % (o->random_one_in ? o->random_one_in : 4) == 0) {
      cp_stream_switch_out(s, env);
      cur = -1;
    }
  }
}
