/*
 * mem.c - the device memory table (see device/mem.h): maps allocation ids to
 * host storage. It never owns the storage it maps and never blocks readers.
 */
#include "device/mem.h"

#include <stdlib.h>
#include <string.h>

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
  if (sp != LSI_SPACE_GLOBAL && sp != LSI_SPACE_CONSTANT) return NULL;
  struct dev_mem_entry *e = dev_mem_entry(m, addr);
  if (!e || atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE) return NULL;
  uint64_t off = LSI_ADDR_OFFSET(addr);
  if (off > e->size || len > e->size - off) return NULL;
  return e->host + off;
}
