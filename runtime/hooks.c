/*
 * hooks.c - the registration point of runtime/hooks.h.
 */
#include "runtime/hooks.h"

#include <stdatomic.h>
#include <stddef.h>

static _Atomic(const struct rt_hooks *) installed;

void rt_hooks_install(const struct rt_hooks *h) {
  atomic_store(&installed, h);
}

const struct rt_hooks *rt_hooks_active(void) {
  const struct rt_hooks *h = atomic_load(&installed);
  return h && h->active && h->active() ? h : NULL;
}
