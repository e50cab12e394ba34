/*
 * mem.c - the device memory table (see device/mem.h): maps allocation ids to
 * host storage. It never owns the storage it maps and never blocks readers.
 */
#include "device/mem.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct dev_mem *dev_mem_create(void) {
  struct dev_mem *m = calloc(1, sizeof(*m));
  if (!m) return NULL;
  m->tab = calloc(DEV_MEM_CAPACITY, sizeof(*m->tab));
  if (!m->tab) {
    free(m);
    return NULL;
  }
  pthread_mutex_init(&m->mu, NULL);
  m->next = 1;
  return m;
}

void dev_mem_destroy(struct dev_mem *m) {
  if (!m) return;
  pthread_mutex_destroy(&m->mu);
  for (uint32_t i = 0; i < DEV_MEM_CAPACITY; i++)
    if (!m->tab[i].undef_view) free(m->tab[i].undef);
  uint64_t span = atomic_load_explicit(&m->svm_span, memory_order_relaxed);
  if (span) munmap(m->svm_base, span);
  free((void *)m->svm_owner);
  free(m->svm_busy);
  free(m->tab);
  free(m);
}

uint64_t dev_mem_map(struct dev_mem *m, void *host, uint64_t size, bool read_only) {
  if (size > LSI_ADDR_OFFSET_MASK) return 0;
  uint64_t addr = 0;
  pthread_mutex_lock(&m->mu);
  if (m->live + 1 < DEV_MEM_CAPACITY) {
    /* Round-robin from the last id handed out: prefer never-used ids, so a
     * released id keeps reporting "released" for as long as possible. */
    uint32_t id = m->next;
    for (uint32_t n = 0; n < 2 * DEV_MEM_CAPACITY; n++, id++) {
      if (id >= DEV_MEM_CAPACITY) id = 1;
      uint32_t st = atomic_load_explicit(&m->tab[id].state, memory_order_relaxed);
      if (st == DEV_MEM_FREE || (st == DEV_MEM_RELEASED && n >= DEV_MEM_CAPACITY)) break;
    }
    struct dev_mem_entry *e = &m->tab[id];
    e->host = host;
    e->size = size;
    e->read_only = read_only;
    e->svm = 0;
    if (!e->undef_view) free(e->undef);
    e->undef = NULL;
    e->undef_view = false;
    atomic_store_explicit(&e->state, DEV_MEM_LIVE, memory_order_release);
    m->next = id + 1;
    m->live++;
    addr = LSI_ADDR(LSI_SPACE_GLOBAL, id, 0);
  }
  pthread_mutex_unlock(&m->mu);
  return addr;
}

void dev_mem_unmap(struct dev_mem *m, uint64_t addr) {
  struct dev_mem_entry *e = dev_mem_entry(m, addr);
  if (!e) return;
  pthread_mutex_lock(&m->mu);
  if (atomic_load_explicit(&e->state, memory_order_relaxed) == DEV_MEM_LIVE) {
    atomic_store_explicit(&e->state, DEV_MEM_RELEASED, memory_order_release);
    m->live--;
  }
  pthread_mutex_unlock(&m->mu);
}

bool dev_mem_set_undefined(struct dev_mem *m, uint64_t addr) {
  struct dev_mem_entry *e = dev_mem_entry(m, addr);
  if (!e || atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE) return false;
  uint8_t *u = malloc(e->size ? e->size : 1);
  if (!u) return false;
  memset(u, 1, e->size);
  pthread_mutex_lock(&m->mu);
  if (!e->undef_view) free(e->undef);
  e->undef = u;
  e->undef_view = false;
  pthread_mutex_unlock(&m->mu);
  return true;
}

void dev_mem_share_undefined(struct dev_mem *m, uint64_t addr, uint64_t parent) {
  struct dev_mem_entry *e = dev_mem_entry(m, addr), *p = dev_mem_entry(m, parent);
  if (!e || !p || e == p || atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE)
    return;
  uint64_t off = LSI_ADDR_OFFSET(parent);
  pthread_mutex_lock(&m->mu);
  if (p->undef && atomic_load_explicit(&p->state, memory_order_relaxed) == DEV_MEM_LIVE &&
      off <= p->size && e->size <= p->size - off) {
    if (!e->undef_view) free(e->undef);
    e->undef = p->undef + off;
    e->undef_view = true;
  }
  pthread_mutex_unlock(&m->mu);
}

/* The undefined bytes of [addr, addr+len), NULL when there are none to
 * track (or the range is not one allocation's). */
static uint8_t *undef_at(struct dev_mem *m, uint64_t addr, uint64_t len) {
  unsigned sp = LSI_ADDR_SPACE(addr);
  if (sp != LSI_SPACE_GLOBAL && sp != LSI_SPACE_CONSTANT) return NULL;
  struct dev_mem_entry *e = dev_mem_entry(m, addr);
  if (!e || !e->undef || atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE)
    return NULL;
  uint64_t off = LSI_ADDR_OFFSET(addr);
  if (off > e->size || len > e->size - off) return NULL;
  return e->undef + off;
}

void dev_mem_define(struct dev_mem *m, uint64_t dst, uint64_t src, uint64_t len) {
  uint8_t *d = undef_at(m, dst, len);
  if (!d) return;
  const uint8_t *s = src ? undef_at(m, src, len) : NULL;
  if (s)
    memmove(d, s, len);
  else
    memset(d, 0, len);
}

void *dev_mem_host(struct dev_mem *m, uint64_t addr, uint64_t len) {
  unsigned sp = LSI_ADDR_SPACE(addr);
  if (sp == LSI_SPACE_NONE)
    return dev_mem_svm_live(m, addr, len ? len : 1) ? (void *)(uintptr_t)addr : NULL;
  if (sp != LSI_SPACE_GLOBAL && sp != LSI_SPACE_CONSTANT) return NULL;
  struct dev_mem_entry *e = dev_mem_entry(m, addr);
  if (!e || atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE) return NULL;
  uint64_t off = LSI_ADDR_OFFSET(addr);
  if (off > e->size || len > e->size - off) return NULL;
  return e->host + off;
}

/* ---- shared virtual memory ---- */

#define SVM_GRANULE (UINT64_C(1) << DEV_SVM_GRANULE_SHIFT)

/* Where the SVM range is asked for (the system may place it elsewhere): a
 * fixed place makes a program's SVM addresses the same on every run, so a
 * debugging session or a report can be repeated. */
#define SVM_HINT ((void *)(uintptr_t)0x3e0000000000ull)

/* Reserves the SVM range (under mu): inaccessible address space until an
 * allocation makes part of it readable and writable. Halves the span when
 * the system refuses (an address-space limit). */
static bool svm_reserve(struct dev_mem *m) {
  if (atomic_load_explicit(&m->svm_span, memory_order_relaxed)) return true;
  for (uint64_t span = DEV_SVM_SPAN; span >= (UINT64_C(1) << 30); span >>= 1) {
    void *base =
        mmap(SVM_HINT, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) continue;
    uint64_t n = span >> DEV_SVM_GRANULE_SHIFT;
    m->svm_owner = calloc(n, sizeof(*m->svm_owner));
    m->svm_busy = calloc(n, 1);
    if (!m->svm_owner || !m->svm_busy) {
      free((void *)m->svm_owner);
      free(m->svm_busy);
      m->svm_owner = NULL;
      m->svm_busy = NULL;
      munmap(base, span);
      return false;
    }
    m->svm_base = base;
    atomic_store_explicit(&m->svm_span, span, memory_order_release);
    return true;
  }
  return false;
}

/* First granule of a run of n free ones (under mu), searched from the
 * rover on so freed granules are reused as late as possible; or UINT64_MAX. */
static uint64_t svm_find(struct dev_mem *m, uint64_t n) {
  uint64_t total =
      atomic_load_explicit(&m->svm_span, memory_order_relaxed) >> DEV_SVM_GRANULE_SHIFT;
  if (n == 0 || n > total) return UINT64_MAX;
  for (int pass = 0; pass < 2; pass++) {
    uint64_t g = pass ? 0 : m->svm_rover, end = pass ? m->svm_rover + n : total;
    if (end > total) end = total;
    uint64_t run = 0;
    for (; g < end; g++) {
      run = m->svm_busy[g] ? 0 : run + 1;
      if (run == n) return g + 1 - n;
    }
  }
  return UINT64_MAX;
}

/* Marks granules [g, g+n) handed out or not (under mu). */
static void svm_mark(struct dev_mem *m, uint64_t g, uint64_t n, uint8_t busy) {
  memset(m->svm_busy + g, busy, n);
}

void *dev_mem_svm_alloc(struct dev_mem *m, uint64_t size, bool read_only) {
  if (size == 0 || size > LSI_ADDR_OFFSET_MASK) return NULL;
  uint64_t n = (size + SVM_GRANULE - 1) >> DEV_SVM_GRANULE_SHIFT;
  uint8_t *host = NULL;
  pthread_mutex_lock(&m->mu);
  uint64_t g = svm_reserve(m) ? svm_find(m, n) : UINT64_MAX;
  if (g != UINT64_MAX) {
    host = m->svm_base + (g << DEV_SVM_GRANULE_SHIFT);
    if (mprotect(host, n << DEV_SVM_GRANULE_SHIFT, PROT_READ | PROT_WRITE) == 0)
      svm_mark(m, g, n, 1);
    else
      host = NULL;
  }
  pthread_mutex_unlock(&m->mu);
  if (!host) return NULL;
  uint64_t addr = dev_mem_map(m, host, size, read_only);
  pthread_mutex_lock(&m->mu);
  if (addr) {
    /* the entry is live already, but no SVM address reaches it before
     * its granules name it */
    dev_mem_entry(m, addr)->svm = 1;
    for (uint64_t i = 0; i < n; i++)
      atomic_store_explicit(&m->svm_owner[g + i], LSI_ADDR_ID(addr), memory_order_release);
    m->svm_rover = g + n;
  } else {
    svm_mark(m, g, n, 0);
    host = NULL;
  }
  pthread_mutex_unlock(&m->mu);
  return host;
}

void dev_mem_svm_free(struct dev_mem *m, void *p) {
  uint64_t addr = (uint64_t)(uintptr_t)p;
  struct dev_mem_entry *e = dev_mem_svm_live(m, addr, 1);
  if (!e || e->host != p) return;
  uint64_t id = (uint64_t)(e - m->tab);
  uint64_t g = (addr - (uint64_t)(uintptr_t)m->svm_base) >> DEV_SVM_GRANULE_SHIFT;
  uint64_t n = (e->size + SVM_GRANULE - 1) >> DEV_SVM_GRANULE_SHIFT;
  dev_mem_unmap(m, LSI_ADDR(LSI_SPACE_GLOBAL, id, 0));
  /* The pages go back to the system and read as zero when handed out
   * again; they stay accessible, so a kernel still running on them (a
   * program error) cannot crash the host. */
  madvise(p, n << DEV_SVM_GRANULE_SHIFT, MADV_DONTNEED);
  pthread_mutex_lock(&m->mu);
  svm_mark(m, g, n, 0);
  pthread_mutex_unlock(&m->mu);
}

/* Distance from [addr, addr+len) to an allocation's bytes (0: overlaps). */
static uint64_t svm_distance(const struct dev_mem_entry *e, uint64_t addr, uint64_t len) {
  uint64_t lo = (uint64_t)(uintptr_t)e->host, hi = lo + e->size;
  if (addr >= hi) return addr - hi + 1;
  if (addr + len <= lo) return lo - (addr + len) + 1;
  return 0;
}

struct dev_mem_entry *dev_mem_svm_nearest(struct dev_mem *m, uint64_t addr, uint64_t len) {
  struct dev_mem_entry *best = NULL;
  uint64_t bd = UINT64_MAX;
  for (uint32_t i = 1; i < DEV_MEM_CAPACITY; i++) {
    struct dev_mem_entry *e = &m->tab[i];
    if (atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE || !e->svm) continue;
    uint64_t d = svm_distance(e, addr, len);
    if (d < bd) best = e, bd = d;
  }
  return best;
}
