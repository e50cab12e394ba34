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
struct simt_run;

/* Accessors for the parts of the device (device/device.c). */
struct dev_mem *dev_device_mem(struct dev_device *d);
const struct dev_config *dev_device_config(struct dev_device *d);

/* Creates a device with its memory table and worker pool but without a
 * command processor (dev_simt_ops.create adds one); for tests and tools that
 * call simt_launch() directly. NULL on failure. */
struct dev_device *dev_device_new(const struct dev_config *cfg);
/* Stops the workers and frees what dev_device_new made (not the cp). */
void dev_device_free(struct dev_device *d);

/* Number of worker threads (host threads simulating compute units). */
unsigned dev_device_workers(struct dev_device *d);
/* Runs fn(arg, k) for k = 0 .. n-1 on n distinct threads (n is clamped to
 * the pool size): the calling thread runs k = 0 itself and n-1 pool workers
 * run the rest, so a single-group pass needs no hand-off. Returns when every
 * call has returned. Any host thread but a pool worker may call it, several
 * at once; calls queue for workers. */
void dev_device_run(struct dev_device *d, void (*fn)(void *arg, unsigned k), void *arg, unsigned n);
/* Index of the calling worker thread in the pool, or -1 for any other
 * thread, such as a caller of dev_device_run running its own share (names
 * the compute-unit track of the device trace). */
int dev_device_worker_id(struct dev_device *d);
/* Re-issues a launch whose launch_fn switched it out (struct dev_switch):
 * its stream runs again and replays from its checkpoint. May be called
 * from any thread, also before the processor has finished switching the
 * stream out; an unknown or stale token changes nothing. */
void dev_device_reissue(struct dev_device *d, uint64_t token);
/* The launches open on the device, from simt_open to simt_close, which
 * the SIMT engine links through its runs: what a launch's hang detector
 * looks at besides its own compute units. dev_device_open_runs locks the
 * list and returns its head; dev_device_open_done unlocks it. */
struct simt_run **dev_device_open_runs(struct dev_device *d);
void dev_device_open_done(struct dev_device *d);
/* Nanoseconds on the device clock. */
uint64_t dev_device_now_ns(struct dev_device *d);

#endif
