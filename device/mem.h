/*
 * mem.h - device memory: the table that maps device addresses (see the layout
 * in device/lsi.h) to host storage, and the checks every access goes through.
 *
 * The table has a fixed capacity and is read without locks by the SIMT engine
 * (an entry's fields are written before its state is published with release
 * order); map and unmap take a mutex. Every global and constant allocation
 * gets an address in the global space (LSI_SPACE_GLOBAL, id, offset 0); a
 * read-only mapping is marked in its entry, and stores to it fault. Ids are
 * handed out round-robin so a released id keeps faulting as "released" for as
 * long as possible before it is reused.
 */
#ifndef LOCKSTEP_DEVICE_MEM_H
#define LOCKSTEP_DEVICE_MEM_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "device/dev.h"
#include "device/lsi.h"

#define DEV_MEM_CAPACITY (1u << 16) /* live allocations at once, id 0 never used */

enum dev_mem_state {
  DEV_MEM_FREE = 0,     /* never mapped */
  DEV_MEM_LIVE = 1,     /* mapped */
  DEV_MEM_RELEASED = 2, /* unmapped: accesses fault as "released" */
};

struct dev_mem_entry {
  _Atomic uint32_t state; /* enum dev_mem_state */
  uint32_t read_only;
  uint8_t *host;
  uint64_t size;
  /* LOCKSTEP_CHECK=uninit: a byte per byte of the buffer, non-zero where it
   * is undefined (created without host data and not yet written); NULL when
   * every byte is defined. Owned by the table unless undef_view (a
   * sub-buffer's: its parent's bytes). */
  uint8_t *undef;
  bool undef_view;
};

struct dev_mem {
  pthread_mutex_t mu;
  uint32_t next; /* next id to try */
  uint32_t live;
  struct dev_mem_entry *tab; /* DEV_MEM_CAPACITY entries */
};

struct dev_mem *dev_mem_create(void);
void dev_mem_destroy(struct dev_mem *m);

/* Maps host storage as a global (or constant, when read_only) allocation.
 * Returns its device address, 0 when the table is full. */
uint64_t dev_mem_map(struct dev_mem *m, void *host, uint64_t size, bool read_only);
/* Unmaps; later accesses fault as "access to a released buffer". */
void dev_mem_unmap(struct dev_mem *m, uint64_t addr);

/* LOCKSTEP_CHECK=uninit: the allocation at addr holds undefined bytes (a
 * buffer created without host data); false when out of host memory. */
bool dev_mem_set_undefined(struct dev_mem *m, uint64_t addr);
/* The allocation at addr views the bytes at parent (a sub-buffer of a live
 * allocation that outlives it): it shares their undefined bytes, if any. */
void dev_mem_share_undefined(struct dev_mem *m, uint64_t addr, uint64_t parent);
/* A command wrote [dst, dst+len) of an allocation: its bytes are defined,
 * or (src non-zero, a copy) as defined as those at src. */
void dev_mem_define(struct dev_mem *m, uint64_t dst, uint64_t src, uint64_t len);

/* Host pointer for [addr, addr+len) when the whole range lies inside one live
 * global/constant allocation; NULL otherwise. */
void *dev_mem_host(struct dev_mem *m, uint64_t addr, uint64_t len);

/* The entry an address's id bits name (NULL for id 0 or out of range). No
 * check of the state: callers read it (acquire) themselves. */
static inline struct dev_mem_entry *dev_mem_entry(struct dev_mem *m, uint64_t addr) {
  unsigned id = LSI_ADDR_ID(addr);
  if (id == 0 || id >= DEV_MEM_CAPACITY) return 0;
  return &m->tab[id];
}

#endif
