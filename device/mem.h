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
 *
 * Shared virtual memory: an SVM allocation is a live entry too (svm set),
 * but kernels reach it by its host address, which is also its device
 * address (space bits LSI_SPACE_NONE: user-space host addresses lie below
 * bit 47), so pointers stored inside SVM data mean the same on both sides.
 * Its storage is carved out of one host address range the table reserves
 * on the first SVM allocation; svm_owner[] names the entry of each granule
 * of that range, so finding the allocation of an address takes no lock
 * and no search. A granule keeps naming a freed allocation's entry (the
 * access faults as "released") until the granule is handed out again.
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
  uint32_t svm; /* an SVM allocation: its device address is host */
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
  /* SVM (see above): the reserved range [svm_base, svm_base + svm_span)
   * (svm_span 0 until the first SVM allocation, then never changed),
   * the entry id of each granule, and which granules are handed out
   * (svm_busy and svm_rover under mu) */
  uint8_t *svm_base;
  _Atomic uint64_t svm_span;
  _Atomic uint32_t *svm_owner;
  uint8_t *svm_busy;
  uint64_t svm_rover;
};

#define DEV_SVM_GRANULE_SHIFT 16 /* 64 KiB: SVM allocations start on a granule */
#define DEV_SVM_SPAN          (UINT64_C(64) << 30)
#define DEV_SVM_MAX_ALIGN     (UINT64_C(1) << DEV_SVM_GRANULE_SHIFT)

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

/* A zeroed SVM allocation of size bytes (aligned to DEV_SVM_MAX_ALIGN,
 * since it starts on a granule), mapped as a live entry: returns its address,
 * the same for the host and the device (kernel stores fault when
 * read_only); NULL when out of address range,
 * host memory or entries. */
void *dev_mem_svm_alloc(struct dev_mem *m, uint64_t size, bool read_only);
/* Frees an SVM allocation (its address as dev_mem_svm_alloc returned it);
 * later device accesses fault as "released". Anything else is ignored. */
void dev_mem_svm_free(struct dev_mem *m, void *p);
/* The SVM allocation nearest to [addr, addr+len) among the live ones (for
 * reports): NULL when there is none. Scans the table: slow. */
struct dev_mem_entry *dev_mem_svm_nearest(struct dev_mem *m, uint64_t addr, uint64_t len);

/* Host pointer for [addr, addr+len) when the whole range lies inside one live
 * global/constant allocation (or, for an SVM address, one live SVM
 * allocation); NULL otherwise. */
void *dev_mem_host(struct dev_mem *m, uint64_t addr, uint64_t len);

/* The entry an address's id bits name (NULL for id 0 or out of range). No
 * check of the state: callers read it (acquire) themselves. */
static inline struct dev_mem_entry *dev_mem_entry(struct dev_mem *m, uint64_t addr) {
  unsigned id = LSI_ADDR_ID(addr);
  if (id == 0 || id >= DEV_MEM_CAPACITY) return 0;
  return &m->tab[id];
}

/* The entry an SVM address's granule names (NULL outside the SVM range or
 * for a granule never handed out). The caller checks the state, svm and
 * that addr lies in [host, host + size): the granule may name a freed
 * allocation whose entry went to another. */
static inline struct dev_mem_entry *dev_mem_svm_entry(struct dev_mem *m, uint64_t addr) {
  uint64_t span = atomic_load_explicit(&m->svm_span, memory_order_acquire);
  uint64_t rel = addr - (uint64_t)(uintptr_t)m->svm_base;
  if (rel >= span) return 0;
  uint32_t id =
      atomic_load_explicit(&m->svm_owner[rel >> DEV_SVM_GRANULE_SHIFT], memory_order_acquire);
  return id ? &m->tab[id] : 0;
}

/* The live SVM allocation holding all of [addr, addr+len), or NULL. */
static inline struct dev_mem_entry *dev_mem_svm_live(struct dev_mem *m, uint64_t addr,
                                                     uint64_t len) {
  struct dev_mem_entry *e = dev_mem_svm_entry(m, addr);
  if (!e || atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE || !e->svm)
    return 0;
  uint64_t off = addr - (uint64_t)(uintptr_t)e->host;
  return off < e->size && len <= e->size - off ? e : 0;
}

/* The global address (LSI_SPACE_GLOBAL, its entry's id, offset) an SVM
 * address inside a live SVM allocation stands for, so code keyed by entry
 * (the checkers' shadows) treats both alike; addr itself otherwise. */
static inline uint64_t dev_mem_canon(struct dev_mem *m, uint64_t addr) {
  if (LSI_ADDR_SPACE(addr) != LSI_SPACE_NONE) return addr;
  struct dev_mem_entry *e = dev_mem_svm_live(m, addr, 1);
  if (!e) return addr;
  return LSI_ADDR(LSI_SPACE_GLOBAL, (uint64_t)(e - m->tab), addr - (uint64_t)(uintptr_t)e->host);
}

#endif
