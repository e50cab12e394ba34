/*
 * pipe.h - the layout of a pipe in device memory, shared by the runtime
 * (which creates it) and the pipe builtins (device/builtins_pipe.c).
 *
 * A pipe is one device allocation of 64-bit words: a header, two rings of
 * reservations (writes, then reads) and the packets. Packet k of the
 * stream (k counts from 0 forever) lives in slot k % max_packets.
 *
 *   W_RES  packets reserved by writers      W_COM  of them committed
 *   R_RES  packets reserved by readers      R_COM  of them committed
 *
 * R_RES <= W_COM (readers only take committed packets) and
 * W_RES - R_COM <= max_packets (writers only take freed slots). Each
 * reservation is an entry in its ring, in reservation order; a commit marks
 * its entry done and advances W_COM (R_COM) over the done entries at the
 * head, so reservations commit in order whatever order their commits come
 * in. Everything is changed under the header's lock word. The kernel
 * cannot store to the allocation (it is mapped read-only); only the pipe
 * builtins change it.
 */
#ifndef LOCKSTEP_DEVICE_PIPE_H
#define LOCKSTEP_DEVICE_PIPE_H

#include <stdint.h>
#include <string.h>

#define PIPE_MAGIC UINT64_C(0x4c53504950453031) /* "LSPIPE01" */
/* Reservations that can be active at once per direction
 * (CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS). */
#define PIPE_MAX_RESERVATIONS 4096u
/* Largest packet (CL_DEVICE_PIPE_MAX_PACKET_SIZE). */
#define PIPE_MAX_PACKET_SIZE 1024u
/* Pipe arguments a kernel may take (CL_DEVICE_MAX_PIPE_ARGS). */
#define PIPE_MAX_ARGS 16u

enum pipe_word {
  PIPE_H_MAGIC,
  PIPE_H_PSIZE, /* bytes per packet */
  PIPE_H_MAX,   /* max_packets */
  PIPE_H_LOCK,  /* 0 free, 1 held */
  PIPE_H_W_RES,
  PIPE_H_W_COM,
  PIPE_H_R_RES,
  PIPE_H_R_COM,
  PIPE_H_W_HEAD, /* write ring: oldest active reservation's sequence number */
  PIPE_H_W_TAIL, /* write ring: the next reservation's sequence number */
  PIPE_H_R_HEAD,
  PIPE_H_R_TAIL,
  PIPE_HDR
};

/* A ring entry: [0] sequence number + 1 (0: free), [1] first packet,
 * [2] packet count | done << 32. */
#define PIPE_ENTRY_WORDS 3u

static inline uint64_t pipe_ring_word(unsigned dir, uint64_t seq) {
  return PIPE_HDR +
         ((uint64_t)dir * PIPE_MAX_RESERVATIONS + seq % PIPE_MAX_RESERVATIONS) * PIPE_ENTRY_WORDS;
}

/* Byte offset of the packets. */
static inline uint64_t pipe_data_offset(void) {
  return (PIPE_HDR + 2ull * PIPE_MAX_RESERVATIONS * PIPE_ENTRY_WORDS) * 8u;
}

static inline uint64_t pipe_bytes(uint32_t packet_size, uint32_t max_packets) {
  return pipe_data_offset() + (uint64_t)packet_size * max_packets;
}

/* Initialises the storage of a fresh pipe (pipe_bytes() bytes, 8-aligned). */
static inline void pipe_init(void *store, uint32_t packet_size, uint32_t max_packets) {
  uint64_t *w = store;
  memset(store, 0, pipe_bytes(packet_size, max_packets));
  w[PIPE_H_PSIZE] = packet_size;
  w[PIPE_H_MAX] = max_packets;
  w[PIPE_H_MAGIC] = PIPE_MAGIC;
}

#endif
