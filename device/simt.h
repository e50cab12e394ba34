/*
 * simt.h - the SIMT engine: runs one NDRange launch on the simulated compute
 * units (warps, active masks, the divergence deque, barriers, checked memory).
 */
#ifndef LOCKSTEP_DEVICE_SIMT_H
#define LOCKSTEP_DEVICE_SIMT_H

#include "device/dev.h"

/* Runs the launch to completion on the device's worker threads and returns
 * 0, or CL_OUT_OF_RESOURCES (-5) with *exc filled when a work-item raised a
 * device exception (out of bounds, misaligned, released buffer, store to a
 * read-only buffer, division by zero, barrier divergence, no forward
 * progress, watchdog, trap) or the launch cannot run (malformed code, too
 * much local memory). The launch stops at the first exception; other
 * work-groups are abandoned; printf output produced so far is flushed.
 * Environment: LOCKSTEP_RECONVERGENCE=stack selects the classic
 * reconvergence stack (YIELD is a no-op and a warp spinning without
 * progress faults); LOCKSTEP_STATS=1 prints the launch's counters to stderr.
 * May be called from several threads at once for different launches. */
int simt_launch(struct dev_device *d, const struct dev_launch *l, struct dev_exception *exc);

#endif
