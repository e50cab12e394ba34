/*
 * simt.h - the SIMT engine: runs one NDRange launch on the simulated compute
 * units (warps, active masks, the divergence deque, barriers, checked memory).
 */
#ifndef LOCKSTEP_DEVICE_SIMT_H
#define LOCKSTEP_DEVICE_SIMT_H

#include "device/dev.h"

/* Runs the launch to completion on the device's worker threads and returns
 * 0, or a negative CL error code with *exc filled when a work-item raised a
 * device exception (the launch stops; other work-groups are abandoned).
 * May be called from several threads at once for different launches. */
int simt_launch(struct dev_device *d, const struct dev_launch *l, struct dev_exception *exc);

#endif
