/*
 * device.h - the simulated device object, shared by the device's own parts
 * (command processor, SIMT engine, memory). The runtime never includes this;
 * it sees only struct dev_ops (device/dev.h).
 */
#ifndef LOCKSTEP_DEVICE_DEVICE_H
#define LOCKSTEP_DEVICE_DEVICE_H

#include "device/dev.h"

struct dev_mem;
struct cp;

/* Accessors for the parts of the device (device/device.c). */
struct dev_mem *dev_device_mem(struct dev_device *d);
const struct dev_config *dev_device_config(struct dev_device *d);

#endif
