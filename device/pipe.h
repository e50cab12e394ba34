/*
 * pipe.h - the layout of a pipe in device memory, shared by the runtime
 * (which creates it) and the pipe builtins (device/builtins_pipe.c).
 *
 * A pipe is one device allocation of 64-bit words: a header, two tables of
 * reservations (writes, then reads) with two words per packet slot, and the
 * packets. Packet k of the stream (k counts from 0 forever) lives in slot
 * k % max_packets.
 *
 *   W_RES  packets reserved by writers      W_COM  of them committed
 *   R_RES  packets reserved by readers      R_COM  of them committed
 *
 * R_RES <= W_COM (readers only take committed packets) and
 * W_RES - R_COM <= max_packets (writers only take freed slots), so the
 * packets between COM and RES of either side span at most max_packets
 * slots. A reservation of n packets from k is recorded at slot k % max of
 * its side's table: [0] k + 1, [1] n | done << 32. A commit marks it done
 * and advances COM over the done reservations that start at COM, so
 * reservations commit in order whatever order their commits come in, and
 * a work-item may hold as many as the pipe has packets. Everything is
 * changed under the header's lock word. The kernel cannot store to the
 * allocation (it is mapped read-only); only the pipe builtins change it.
 */
#ifndef LOCKSTEP_DEVICE_PIPE_H
#define LOCKSTEP_DEVICE_PIPE_H

#include <stdint.h>
#include <string.h>

#define PIPE_MAGIC UINT64_C(0x4c53504950453032) /* "LSPIPE02" */
/* Reservations a work-item may hold at once
 * (CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS): any number up to the pipe's
 * packets; this many are promised. */
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
  PIPE_HDR
};

/* First word of the reservation record for packet k of side dir (0 write,
 * 1 read). */
static inline uint64_t pipe_rec_word(unsigned dir, uint64_t k, uint32_t max_packets) {
  return PIPE_HDR + ((uint64_t)dir * max_packets + k % max_packets) * 2u;
}

/* Byte offset of the packets. */
static inline uint64_t pipe_data_offset(uint32_t max_packets) {
  return (PIPE_HDR + 4ull * max_packets) * 8u;
}

static inline uint64_t pipe_bytes(uint32_t packet_size, uint32_t max_packets) {
  return pipe_data_offset(max_packets) + (uint64_t)packet_size * max_packets;
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
