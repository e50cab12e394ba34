/*
 * wq.h - device-side work queues (seed 002): a ring of entries in device
 * memory that running threads fill with command blocks and the command
 * processor executes, with no trip back to the host.
 *
 * Layout of a queue at word address q (64-bit words; n entries):
 *
 *   q + 0                soft GP_PUT   next free position (thread-visible)
 *   q + 1                shadow GP_PUT limit: positions below it may be
 *                        reserved (thread-visible, written by the processor)
 *   q + 2, q + 3         semaphores X and Y (host channel <-> work queue)
 *   q + 4                n, for threads
 *   q + 8 + i            entry i: word address of its command block, or 0
 *   q + 8 + n + i        semaphore of entry i
 *   q + 8 + 2n + i * WQ_BLOCK_WORDS   command block storage of entry i
 *
 * Positions are 64-bit counters that never wrap; entry = position mod n.
 * The hardware pointers GP_GET / GP_PUT are the processor's own and never
 * in memory threads use: GP_GET is the position the next FETCH operation of
 * the queue's command stream reads (cp_stream.h, CP_OP_FETCH), and GP_PUT is
 * always wrap(GP_GET - 1): the whole ring is submitted up front and
 * execution is gated by semaphore acquires instead (wq_ring_* below state
 * the ring rules on entry indices).
 *
 * A command block is one word holding the number of commands c (at most
 * WQ_MAX_CMDS), then c commands of WQ_CMD_WORDS words (wq_encode). A thread
 * reserves count = N + 1 positions with wq_reserve (an atomic
 * compare-and-swap on soft GP_PUT against shadow GP_PUT, so a reservation
 * that does not fit changes nothing), writes its N blocks (wq_put_block),
 * then wq_commit writes the closing block [acquire own semaphore >= pos + 1]
 * at the last position and releases the semaphore of the entry before its
 * first (value = that position + 1). The processor, blocked on that closing
 * acquire of the previous reservation, then runs this one: execution follows
 * reservation order, not the order in which threads finish filling.
 *
 * Slot recycling. FETCH snapshots the entry word and the whole command
 * block into the stream's trace buffer while processing; only when it is
 * scheduled (the snapshot taken) does it append the decoded commands to the
 * stream, advance GP_GET and move shadow GP_PUT to GP_GET + n - 1. So entry
 * p mod n is free for position p + n as soon as p has been fetched, a
 * replay after a switch reads the snapshot and never the reused slot, and at
 * most n - 1 positions are outstanding (GP_GET == (GP_PUT + 1) mod n is
 * "full"). Semaphore values are position + 1, so a stale value left by the
 * previous lap of the ring is always too small and nothing is reset.
 *
 * The terminator [WAIT_IDLE, release Y, acquire X, acquire own semaphore]
 * is reserved by the processor (wq_quiesce) only when the tree of work is
 * finished: the host released X (the parent is done), the stream waits on
 * the closing acquire of the last fetched position with everything before
 * it executed, and soft GP_PUT == GP_GET. Then the ring is empty, so it has
 * n - 1 free entries and the terminator always finds a slot; no entry needs
 * to be held back from threads for it. Its last acquire is the gate of the
 * next round, like the gate block wq_init writes at position 0.
 *
 * This file must not create threads, know OpenCL objects or allocate device
 * memory: the caller places the queue (wq_words) and maps it.
 */
#ifndef LOCKSTEP_DEVICE_WQ_H
#define LOCKSTEP_DEVICE_WQ_H

#include <stdbool.h>
#include <stdint.h>

#include "device/cp_stream.h"

#define WQ_SOFT_PUT    0
#define WQ_SHADOW_PUT  1
#define WQ_SEM_X       2
#define WQ_SEM_Y       3
#define WQ_NENT        4
#define WQ_HDR         8
#define WQ_MAX_CMDS    8
#define WQ_CMD_WORDS   4
#define WQ_BLOCK_WORDS (1 + WQ_MAX_CMDS * WQ_CMD_WORDS)
#define WQ_MIN_ENTRIES 4

/* Reservation results. */
#define WQ_OK      0
#define WQ_FULL    (-1) /* does not fit now; nothing changed */
#define WQ_INVALID (-2) /* bad count or block */

/* Ring rules on entry indices, as the seed states them. */
static inline uint32_t wq_wrap(int64_t x, uint32_t n) {
  return (uint32_t)(x < 0 ? x + n : x >= (int64_t)n ? x - n : x);
}
static inline bool wq_ring_empty(uint32_t get, uint32_t put) {
  return get == put;
}
static inline bool wq_ring_full(uint32_t get, uint32_t put, uint32_t n) {
  return get == (put + 1) % n;
}

/* Word counts and addresses. */
static inline uint64_t wq_words(uint32_t n) {
  return WQ_HDR + 2ull * n + (uint64_t)n * WQ_BLOCK_WORDS;
}
static inline uint64_t wq_entry_off(uint32_t n, uint64_t pos) {
  return WQ_HDR + pos % n;
}
static inline uint64_t wq_sem_off(uint32_t n, uint64_t pos) {
  return WQ_HDR + n + pos % n;
}
static inline uint64_t wq_block_off(uint32_t n, uint64_t pos) {
  return WQ_HDR + 2ull * n + (pos % n) * WQ_BLOCK_WORDS;
}

/* A queue as threads see it: its words mapped at mem, at word address addr. */
struct wq_ref {
  uint64_t *mem;
  uint64_t addr;
  uint32_t n;
};

/* One command <-> WQ_CMD_WORDS words; READ/WRITE (host memory), CHECKPOINT
 * and FETCH are not allowed in a block (decode returns false). */
void wq_encode(const struct cp_op *op, uint64_t *w);
bool wq_decode(const uint64_t *w, struct cp_op *op);

/* ---- the driver ---- */

/* Writes the header and the gate block [acquire X >= 1, acquire sem(0) >= 1]
 * at position 0; soft GP_PUT = 1, shadow GP_PUT = n - 1. n >= WQ_MIN_ENTRIES. */
int wq_init(struct wq_ref r);
/* Appends the queue's fetch loop to its (empty) command stream. */
int wq_attach(struct cp_stream *dev, const struct wq_ref *r);
/* Appends the host-channel block of round (1, 2, ...):
 * [launch, WAIT_IDLE, release X := round, acquire Y >= round]. */
int wq_host_block(struct cp_stream *host, const struct wq_ref *r, uint64_t round,
                  const struct cp_op *launch);

/* ---- threads ---- */

/* Reserves count consecutive positions (N blocks and the closing one). */
int wq_reserve(struct wq_ref r, uint32_t count, uint64_t *first);
/* Writes a command block at a reserved position and points its entry at it. */
int wq_put_block(struct wq_ref r, uint64_t pos, const struct cp_op *cmds, uint32_t ncmds);
/* Writes the closing block at first + count - 1 and releases the semaphore of
 * the entry before first with value `first` (the right value). */
void wq_commit(struct wq_ref r, uint64_t first, uint32_t count);
/* Reserve + put + commit of nblocks blocks of one command list each. */
int wq_submit(struct wq_ref r, const struct cp_op *cmds, const uint32_t *ncmds, uint32_t nblocks);

/* ---- the processor ---- */

/* The next position the queue's stream fetches (GP_GET). */
uint64_t wq_gp_get(const struct cp_stream *dev);
/* Reserves and releases the terminator when the tree is finished (see
 * above); returns true when it did. dev must not be stepped meanwhile. */
bool wq_quiesce(struct wq_ref r, const struct cp_stream *dev);

#endif
