/*
 * rt.h - the OpenCL API objects shared by every runtime file.
 *
 * Every CL object starts with the ICD dispatch pointer, then a type tag and an
 * atomic reference count. Entry points validate a handle with rt_valid()
 * before touching anything else. This header knows nothing about how the
 * device works inside: the runtime reaches it only through struct dev_ops.
 */
#ifndef LOCKSTEP_RUNTIME_RT_H
#define LOCKSTEP_RUNTIME_RT_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_gl.h>
#include <CL/cl_icd.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/dev.h"
#include "device/image.h"

/* The dispatch table every object carries first (the ICD loader calls
 * through it). The runtime does not know the table: the layer that exports
 * it (the ICD surface) installs its own before any object exists, from a
 * constructor. Until one is installed objects carry an empty table of the
 * runtime's own (a program that calls the entry points directly, such as a
 * unit test, never dispatches through it). rt_valid accepts only objects
 * that carry the table in force. */
void rt_set_dispatch(const cl_icd_dispatch *table);
const cl_icd_dispatch *rt_dispatch(void);

enum rt_tag {
  RT_TAG_DEAD = 0,
  RT_TAG_PLATFORM = 0x4c53504c, /* "LSPL" */
  RT_TAG_DEVICE,
  RT_TAG_CONTEXT,
  RT_TAG_QUEUE,
  RT_TAG_MEM,
  RT_TAG_PROGRAM,
  RT_TAG_KERNEL,
  RT_TAG_EVENT,
  RT_TAG_SAMPLER,
};

struct rt_object {
  const cl_icd_dispatch *dispatch; /* must stay first: the ICD loader reads it */
  uint32_t tag;                    /* RT_TAG_DEAD once released */
  atomic_uint refcount;
  uint32_t was;             /* the tag it was created with (for diagnostics) */
  size_t size;              /* in the quarantine: bytes of the whole object */
  struct rt_object *q_next; /* in the quarantine: the next newer object */
};

/* Released objects kept allocated (see rt_object_free) at most. */
#define RT_QUARANTINE_OBJECTS 4096
#define RT_QUARANTINE_BYTES   ((size_t)4 << 20)

/* Initialise the header of a freshly allocated object with refcount 1. */
void rt_object_init(struct rt_object *o, enum rt_tag tag);
/* True when p is a live object of that tag (non-NULL, our dispatch, tag,
 * refcount above 0). A released object of ours is reported on stderr as
 * used after its last release by the API call `call`. */
bool rt_valid_in(const char *call, const void *p, enum rt_tag tag);
#define rt_valid(p, tag) rt_valid_in(__func__, (p), (tag))
/* The one diagnostic line for a released handle passed to `call`. */
void rt_report_dead(const char *call, const void *p);
/* Retain; returns the new count. */
unsigned rt_retain(struct rt_object *o);
/* Release; returns the new count (0 means: caller destroys, after
 * rt_object_kill). */
unsigned rt_release(struct rt_object *o);
/* Mark the object dead so stale handles fail validation; the dispatch
 * pointer stays, since the ICD loader calls through it. */
void rt_object_kill(struct rt_object *o);
/* Instead of free() for an object that was handed out: keeps its memory
 * (size bytes) allocated with a dead header in a bounded FIFO quarantine,
 * so stale handles stay safe to dispatch through and to validate. */
void rt_object_free(struct rt_object *o, size_t size);
/* How many objects and bytes the quarantine holds now (for tests). */
void rt_quarantine_usage(size_t *count, size_t *bytes);

struct _cl_platform_id {
  struct rt_object obj;
};

struct _cl_device_id {
  struct rt_object obj;
  cl_platform_id platform;
  struct dev_device *dev; /* the simulated device (or a stub in tests) */
};

/* The platform and its one device; created on first use, never freed. */
cl_platform_id rt_platform(void);
cl_device_id rt_device(void);
/* The device configuration in force (read from the environment once). */
const struct dev_config *rt_config(void);
/* Whether the device has on-device queues (device-side enqueue). */
bool rt_device_enqueue(void);
/* The device's ops table and its instance, created on first use. Tests may
 * install another ops table (a stub device) before anything uses the device. */
const struct dev_ops *rt_dev_ops(void);
struct dev_device *rt_dev(void);
void rt_set_dev_ops(const struct dev_ops *ops);
/* Extensions the platform and its device claim (one list, cl_khr_icd
 * included): as a space-separated string and as name/version pairs. */
const char *rt_extensions_string(void);
size_t rt_extensions(const cl_name_version **list);
bool rt_has_extension(const char *name);

/*
 * Contracts between runtime families (each defined in the file named).
 */
/* queue.c: enqueues cmd (malloc'd; the runtime frees it after completion) as a
 * command of the given CL_COMMAND_* type on q, after the wait list; returns
 * the event in *event_ret when non-NULL; waits for completion when blocking. */
cl_int rt_enqueue_in(const char *call, cl_command_queue q, cl_command_type type,
                     struct dev_cmd *cmd, cl_uint num_events, const cl_event *wait_list,
                     cl_event *event_ret, cl_bool blocking);
/* The API entry point calling it is named in diagnostics. */
#define rt_enqueue(...) rt_enqueue_in(__func__, __VA_ARGS__)
/* context.c: calls the context's pfn_notify (if any) with a message. */
void rt_context_notify(cl_context ctx, const char *errinfo);
/* svm.c: the live SVM allocation holding p (one past its end counts):
 * its first byte and size (either may be NULL); false when none does. */
bool rt_svm_lookup(const void *p, void **base, size_t *size);
/* mem.c: m's storage (m->alloc and m->store; its release frees it), size
 * bytes aligned to at least align, zero-filled when zero is set (and
 * always when it is a mapping of its own). */
cl_int rt_mem_store_alloc(cl_mem m, size_t size, size_t align, bool zero);
/* mem.c: device address of the first byte of a buffer (or sub-buffer). */
uint64_t rt_mem_addr(cl_mem m);

/*
 * clGetXxxInfo helper: copies size bytes of value into param_value, checking
 * param_value_size, and stores size into *param_value_size_ret.
 */
cl_int rt_info(size_t param_value_size, void *param_value, size_t *param_value_size_ret,
               const void *value, size_t size);
cl_int rt_info_str(size_t param_value_size, void *param_value, size_t *param_value_size_ret,
                   const char *s);

/* Writes err into *errcode_ret when errcode_ret is non-NULL. */
static inline void rt_set_err(cl_int *errcode_ret, cl_int err) {
  if (errcode_ret) *errcode_ret = err;
}

/* Diagnostics behind LOCKSTEP_LOG=1 (file:line prefixed). */
void rt_log_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define RT_LOG(...) rt_log_at(__FILE__, __LINE__, __VA_ARGS__)

/* The internals of contexts, queues, memory objects and events. */
#include "runtime/objects.h"

#endif
