/*
 * mem.h - device memory: the table that maps device addresses (see the layout
 * in device/lsi.h) to host storage, and the checks every access goes through.
 */
#ifndef LOCKSTEP_DEVICE_MEM_H
#define LOCKSTEP_DEVICE_MEM_H

#include <stdbool.h>
#include <stdint.h>

#include "device/dev.h"

struct dev_mem;

struct dev_mem *dev_mem_create(void);
void dev_mem_destroy(struct dev_mem *m);

/* Maps host storage as a global (or constant, when read_only) allocation.
 * Returns its device address, 0 when the table is full. */
uint64_t dev_mem_map(struct dev_mem *m, void *host, uint64_t size, bool read_only);
/* Unmaps; later accesses fault as "access to a released buffer". */
void dev_mem_unmap(struct dev_mem *m, uint64_t addr);

/* Host pointer for [addr, addr+len) when the whole range lies inside one live
 * global/constant allocation; NULL otherwise. */
void *dev_mem_host(struct dev_mem *m, uint64_t addr, uint64_t len);

#endif
