/*
 * cp.h - the command processor: turns the runtime's commands (struct dev_cmd)
 * into work on the device, one command stream per command queue.
 *
 * Commands of one stream run in submission order; streams run concurrently,
 * a stream of higher priority (struct dev_cmd.priority) first, preempting
 * lower ones between work-groups. Each command's done() is called exactly
 * once, from a device thread.
 */
#ifndef LOCKSTEP_DEVICE_CP_H
#define LOCKSTEP_DEVICE_CP_H

#include "device/dev.h"

struct cp;

struct cp *cp_create(struct dev_device *d);
/* Waits for every submitted command to finish, then frees the processor
 * (a parked launch is unfinished until it is re-issued and completes). */
void cp_destroy(struct cp *cp);
void cp_submit(struct cp *cp, unsigned stream, struct dev_cmd *cmd);
/* Nothing more will be submitted to stream: frees its channel (its trace
 * and command list) now, or, when a processor thread still steps it (the
 * last done() may be running), as soon as that thread lets it go. */
void cp_release_stream(struct cp *cp, unsigned stream);
/* An on-device queue (device/dq.h): its words at mem, initialised, mapped
 * at handle, n ring entries; the processor runs it as stream (an id no
 * command queue uses). free_fn(arg) releases the memory once the queue is
 * released and idle. Returns 0 or -1. */
int cp_add_ring(struct cp *cp, uint64_t handle, uint64_t *mem, uint32_t n, unsigned stream,
                void (*free_fn)(void *arg), void *arg);
/* The queue will get no more work: freed once its rounds are finished. */
void cp_release_ring(struct cp *cp, uint64_t handle);
/* dev_device_reissue: the stream named by token (struct dev_switch) runs
 * again after its launch_fn switched it out. Until then the stream is
 * parked: no processor thread takes it or waits for it. A token is good
 * for one re-issue, also one that comes before the stream has parked; an
 * unknown or used token changes nothing. Any thread. */
void cp_reissue(struct cp *cp, uint64_t token);
/* How many streams are parked now (switched out by their launch_fn, not
 * yet re-issued). */
unsigned cp_parked(struct cp *cp);

#endif
