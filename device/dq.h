/*
 * dq.h - on-device command queues (OpenCL CL_QUEUE_ON_DEVICE) built on the
 * work queue of device/wq.h: what one device allocation holds besides the
 * ring, shared by the enqueue builtins (device/builtins_enq.c, the thread
 * side) and the command processor (device/cp.c, which runs the ring).
 *
 * A queue's handle (the queue_t value kernels see) is the byte address of
 * its allocation; its ring is at word address handle >> 3 (wq.h layout,
 * whose spare header words hold DQ_MAGIC, the record and event counts).
 * After the ring (word wq_words(n)) come nev device events of DQ_EV_WORDS
 * words, then nrec launch records of DQ_REC_WORDS words.
 *
 * A launch record holds what a child launch needs that does not fit in a
 * command: the kernel, the NDRange, its argument buffer and the copy of
 * the block literal (the child's argument 0 points at it). A thread claims
 * a free record (busy 0 -> 1) and an event slot before it reserves ring
 * positions, and gives them back if the reservation fails, so a full queue
 * changes nothing. The command block it writes is
 *   [acquire done >= 1 of each waited event ..., LAUNCH record, SIGNAL record]
 * (LAUNCH left out for a marker); the processor's SIGNAL completes the
 * record's event and frees the record. Each waited event gains a reference
 * when the block is written and loses it at that SIGNAL, so an event the
 * kernel releases while a command still waits for it keeps its slot: a
 * freed slot taken by a new event would make the waiter wait for that one.
 *
 * A device event (clk_event_t) is the byte address of its slot: a
 * reference count (0 = free slot), done (1 once complete), the status, the
 * start and end times of its command, and the capture word.
 * capture_event_profiling_info writes its values once the event completed:
 * on an event not yet complete it parks its destination in the capture
 * word; whoever completes the event fixes the times, closes the word
 * (dq_ev_close), writes a parked capture, and only then sets done.
 *
 * This file must not know OpenCL objects or create threads.
 */
#ifndef LOCKSTEP_DEVICE_DQ_H
#define LOCKSTEP_DEVICE_DQ_H

#include <stdbool.h>
#include <stdint.h>

#include "device/wq.h"

#define DQ_MAGIC      0x4c53445155455545ull /* header word 5 */
#define DQ_H_MAGIC    5
#define DQ_H_NREC     6
#define DQ_H_NEV      7
#define DQ_BYTES_PER  1024u /* queue bytes per child launch in flight */
#define DQ_PREF_SIZE  (1024u * 1024u)
#define DQ_MAX_SIZE   (8u * 1024u * 1024u)
#define DQ_MAX_QUEUES 4
#define DQ_MAX_EVENTS 1024

/* Event slot words. */
#define DQ_EV_WORDS  8
#define DQ_EV_REFS   0
#define DQ_EV_DONE   1
#define DQ_EV_STATUS 2
#define DQ_EV_START  3
#define DQ_EV_END    4
#define DQ_EV_MAGIC  5
#define DQ_EV_TAG    0x4c534556454e5400ull
#define DQ_EV_CAPT   6       /* byte address a capture waits to write to, 0, or: */
#define DQ_EV_CLOSED (~0ull) /* the event completed: captures write at once */

/* Launch record words. */
#define DQ_REC_WORDS 160
#define DQ_R_BUSY    0
#define DQ_R_PROG    1 /* the program, as the processor registered it */
#define DQ_R_KERNEL  2 /* kernel index in it; ~0 for a marker */
#define DQ_R_EVENT   3 /* byte address of the event to complete, or 0 */
#define DQ_R_DIM     4
#define DQ_R_OFFSET  5  /* 3 words */
#define DQ_R_GLOBAL  8  /* 3 words */
#define DQ_R_LOCAL   11 /* 3 words */
#define DQ_R_DATA    14 /* the program's data segment */
#define DQ_R_DEFQ    15 /* the default queue children see */
#define DQ_R_ARGS    16 /* argument buffer, DQ_ARG_WORDS words */
#define DQ_ARG_WORDS 16
#define DQ_R_BLOCK   32 /* the block literal's copy */
#define DQ_BLOCK_MAX ((DQ_R_NWAIT - DQ_R_BLOCK) * 8)
#define DQ_R_NWAIT   128 /* events the command waits for, each holding a reference */
#define DQ_R_WAIT    129 /* their byte addresses, DQ_MAX_WAIT words */
#define DQ_MAX_WAIT  (DQ_REC_WORDS - DQ_R_WAIT)
#define DQ_NO_KERNEL (~0ull)

/* CLK_* results of enqueue_kernel and enqueue_marker (OpenCL C 2.0). */
#define DQ_CLK_SUCCESS                  0
#define DQ_CLK_ENQUEUE_FAILURE          (-101)
#define DQ_CLK_INVALID_QUEUE            (-102)
#define DQ_CLK_INVALID_NDRANGE          (-160)
#define DQ_CLK_INVALID_EVENT_WAIT_LIST  (-57)
#define DQ_CLK_DEVICE_QUEUE_FULL        (-161)
#define DQ_CLK_INVALID_ARG_SIZE         (-51)
#define DQ_CLK_EVENT_ALLOCATION_FAILURE (-100)
#define DQ_CLK_OUT_OF_RESOURCES         (-5)
#define DQ_NULL_EVENT                   (~0ull) /* CLK_NULL_EVENT */

/* Entries of a queue of size bytes, and its records and events. */
static inline uint32_t dq_entries(uint64_t size) {
  uint64_t n = 2 * (size / DQ_BYTES_PER) + 2;
  return n < 2 * WQ_MIN_ENTRIES ? 2 * WQ_MIN_ENTRIES : (uint32_t)n;
}
static inline uint32_t dq_records(uint32_t n) {
  return n / 2;
}
static inline uint32_t dq_events(uint32_t n) {
  return n / 2 < DQ_MAX_EVENTS ? n / 2 : DQ_MAX_EVENTS;
}
/* Word offsets from the start of the allocation. */
static inline uint64_t dq_ev_off(uint32_t n, uint32_t i) {
  return wq_words(n) + (uint64_t)i * DQ_EV_WORDS;
}
static inline uint64_t dq_rec_off(uint32_t n, uint32_t i) {
  return wq_words(n) + (uint64_t)dq_events(n) * DQ_EV_WORDS + (uint64_t)i * DQ_REC_WORDS;
}
static inline uint64_t dq_words(uint32_t n) {
  return dq_rec_off(n, dq_records(n));
}

/* The completer's side: START and END are final. Closes the capture word
 * and returns the destination of a parked capture (0 when none); the
 * caller writes dq_ev_exec_time there, then sets done. */
static inline uint64_t dq_ev_close(uint64_t *ev) {
  uint64_t d = __atomic_exchange_n(&ev[DQ_EV_CAPT], DQ_EV_CLOSED, __ATOMIC_ACQ_REL);
  return d == DQ_EV_CLOSED ? 0 : d;
}

/* CLK_PROFILING_COMMAND_EXEC_TIME of a closed event: END - START, and the
 * same for the command with its children (a child's time is its own). */
static inline void dq_ev_exec_time(const uint64_t *ev, uint64_t v[2]) {
  uint64_t t0 = __atomic_load_n(&ev[DQ_EV_START], __ATOMIC_ACQUIRE);
  uint64_t t1 = __atomic_load_n(&ev[DQ_EV_END], __ATOMIC_ACQUIRE);
  v[0] = v[1] = t1 > t0 ? t1 - t0 : 0;
}

/* Drops one reference of an event slot (ev: its words), never below 0. */
static inline void dq_ev_unref(uint64_t *ev) {
  uint64_t r = __atomic_load_n(&ev[DQ_EV_REFS], __ATOMIC_ACQUIRE);
  while (r && !__atomic_compare_exchange_n(&ev[DQ_EV_REFS], &r, r - 1, false, __ATOMIC_ACQ_REL,
                                           __ATOMIC_ACQUIRE)) {
  }
}

#endif
