/*
 * objects.h - the internals of contexts, command queues, memory objects
 * (buffers and images), samplers and events, shared by the runtime files that
 * need them (included by rt.h).
 *
 * Only the runtime reads these structs; nothing here may reach into the
 * device beyond struct dev_ops and the image descriptor of device/image.h.
 * Locking: each context owns one mutex (lock) and one condition variable
 * (cond) that guard the scheduling state of every queue and event of that
 * context (statuses, dependency links, queue lists).
 */
#ifndef LOCKSTEP_RUNTIME_OBJECTS_H
#define LOCKSTEP_RUNTIME_OBJECTS_H

/* ---- contexts (context.c) ---- */

struct rt_dtor {
  struct rt_dtor *next;
  void(CL_CALLBACK *ctx_fn)(cl_context ctx, void *user_data); /* one of the two is set */
  void(CL_CALLBACK *mem_fn)(cl_mem mem, void *user_data);
  void *user_data;
};

struct _cl_context {
  struct rt_object obj;
  cl_device_id device; /* the one device of the context */
  const struct dev_ops *ops;
  struct dev_device *dev;
  cl_context_properties props[8]; /* as given, 0-terminated */
  size_t props_size;              /* bytes for CL_CONTEXT_PROPERTIES (0: none given) */
  cl_bool interop_user_sync;
  void(CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info, size_t cb,
                                void *user_data);
  void *notify_data;
  cl_command_queue default_dq; /* the default on-device queue, not retained (under lock) */
  pthread_mutex_t lock;        /* guards the scheduling state below and in queues/events */
  pthread_cond_t cond;         /* broadcast whenever an event of this context completes */
  struct rt_dtor *dtors;       /* destructor callbacks, most recent first (under lock) */
};

/* ---- command queues (queue.c) ---- */

/* An out-of-order queue feeds this many device streams, so commands that do
 * not wait for each other run concurrently. */
#define RT_OOO_STREAMS 4

struct _cl_command_queue {
  struct rt_object obj;
  cl_context context; /* retained */
  cl_device_id device;
  cl_command_queue_properties props;
  cl_queue_properties prop_list[8]; /* as given to ...WithProperties, 0-terminated */
  size_t prop_list_size;            /* bytes for CL_QUEUE_PROPERTIES_ARRAY */
  cl_queue_priority_khr priority;
  unsigned stream;      /* the device command stream of this queue (the first of
                          RT_OOO_STREAMS for an out-of-order queue) */
  atomic_uint next_sub; /* out-of-order: which of its streams gets the next command */
  uint64_t dq;          /* on-device queue: the device's handle (the queue_t value) */
  cl_uint dq_size;      /* on-device queue: CL_QUEUE_SIZE */
  /* Under context->lock: */
  cl_event last;    /* in-order: the newest command (retained while incomplete) */
  cl_event barrier; /* out-of-order: the newest barrier (retained while incomplete) */
  cl_event pending; /* every incomplete command, linked through ev->q_next */
  unsigned npending;
};

/* ---- memory objects (mem.c) ---- */

struct rt_map {
  struct rt_map *next;
  void *ptr;
  size_t offset, size;
  cl_map_flags flags;
};

struct _cl_mem {
  struct rt_object obj;
  cl_context context; /* retained */
  cl_mem_object_type type;
  cl_mem_flags flags; /* effective flags (inherited ones included) */
  size_t size;
  void *host_ptr; /* CL_MEM_HOST_PTR: the user's pointer for USE_HOST_PTR */
  void *store;    /* the backing host storage the device maps */
  void *alloc;    /* what to free (NULL when the user owns the storage) */
  size_t mapped;  /* alloc's bytes when it is a mapping of its own, else 0 */
  uint64_t addr;  /* device address of the first byte */
  bool on_svm;    /* the storage is SVM: addr is its SVM address, nothing mapped */
  cl_mem parent;  /* for a sub-buffer (retained) */
  size_t origin;  /* offset in the parent */
  cl_mem_properties props[8];
  size_t props_size;
  pthread_mutex_t lock; /* maps and destructor callbacks */
  struct rt_map *maps;
  atomic_uint map_count;
  struct rt_dtor *dtors;
  struct rt_image *image; /* images only (image.c); NULL for a buffer */
};

/* ---- images (image.c) ---- */

/* What an image adds to its memory object. Texel (x, y, z) of the image's
 * own coordinates (device/image.h) is at store + x * elem_size
 * + y * dev.pitch[0] + z * dev.pitch[1]; a buffer-backed image keeps its
 * buffer as the memory object's parent. */
struct rt_image {
  cl_image_format format;
  cl_image_desc desc;   /* as created: pitches as the storage has them */
  size_t elem_size;     /* bytes per texel */
  struct dev_image dev; /* the descriptor an image kernel argument points to */
  uint64_t dev_addr;    /* its device address (a read-only mapping) */
};

/* ---- samplers (sampler.c) ---- */

struct _cl_sampler {
  struct rt_object obj;
  cl_context context; /* retained */
  cl_bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter;
  uint32_t bits; /* the CLK_* value a sampler_t argument holds (DEV_SAMPLER_*) */
  cl_sampler_properties props[8];
  size_t props_size; /* bytes for CL_SAMPLER_PROPERTIES (0: none given) */
};

/* ---- events (event.c) ---- */

struct rt_ev_cb {
  struct rt_ev_cb *next;
  cl_int on; /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
  void(CL_CALLBACK *fn)(cl_event ev, cl_int status, void *user_data);
  void *user_data;
  cl_event ev;   /* set when detached for calling */
  cl_int status; /* the status passed to fn */
};

struct rt_ev_link {
  struct rt_ev_link *next;
  cl_event waiter; /* retained by the link */
};

struct _cl_event {
  struct rt_object obj;
  cl_context context;     /* retained */
  cl_command_queue queue; /* retained; NULL for a user event */
  cl_command_type type;
  /* Under context->lock: */
  cl_int status;              /* CL_QUEUED .. CL_COMPLETE, or negative */
  unsigned deps;              /* dependency links still pointing at this event */
  unsigned unlinking;         /* links done with whose reference is not yet dropped */
  bool dep_failed;            /* a dependency ended with an error */
  bool user_set;              /* clSetUserEventStatus was called */
  bool internal_ref;          /* the runtime holds a reference until completion */
  struct rt_ev_link *waiters; /* commands waiting for this event */
  struct rt_ev_cb *callbacks; /* not yet called */
  cl_event q_next, q_prev;    /* queue->pending list */
  cl_event w_next;            /* completion FIFO of one scheduling pass */
  struct dev_cmd *cmd;        /* owned until completion */
  cl_mem *mems; /* memory objects the command uses (each retained; NULL entries allowed) */
  unsigned nmems;
  cl_ulong t_queued, t_submit, t_start, t_end, t_complete;
};

/*
 * Internal contracts between the files above.
 */

/* event.c: a command event in CL_QUEUED state, holding one reference for the
 * runtime (released at completion). */
cl_int rt_event_new(cl_command_queue q, cl_command_type type, cl_event *out);
/* event.c: under ctx->lock, records that ev waits for dep (no-op when dep is
 * already complete; marks ev failed when dep failed). */
void rt_event_depend_locked(cl_event ev, cl_event dep);
/* event.c: called with ctx->lock held once every dependency is recorded;
 * drops the lock; submits the command when nothing remains to wait for. */
void rt_event_arm_unlock(cl_event ev);
/* event.c: waits (without holding any lock) until ev completes; returns its
 * final status. */
cl_int rt_event_wait(cl_event ev);
/* event.c: frees an event whose reference count reached 0. */
void rt_event_destroy(cl_event ev);
/* event.c: validates a wait list against ctx (CL_INVALID_EVENT_WAIT_LIST /
 * CL_INVALID_CONTEXT). */
/* event.c: true when ev is an event the application still holds: live, and
 * not only kept alive by the runtime's own references (a released handle is
 * reported as used after its last release by `call`). */
bool rt_event_valid_in(const char *call, cl_event ev);
#define rt_event_valid(ev) rt_event_valid_in(__func__, (ev))
cl_int rt_check_wait_list_in(const char *call, cl_context ctx, cl_uint n, const cl_event *list);
#define rt_check_wait_list(...) rt_check_wait_list_in(__func__, __VA_ARGS__)

/* queue.c: like rt_enqueue, and keeps the nmems memory objects of mems
 * alive until the command completed. cmd is owned by the runtime in every
 * case, freed with free() after completion or on error. */
cl_int rt_enqueue_mem_in(const char *call, cl_command_queue q, cl_command_type type,
                         struct dev_cmd *cmd, unsigned nmems, cl_mem const *mems,
                         cl_uint num_events, const cl_event *wait_list, cl_event *event_ret,
                         cl_bool blocking);
#define rt_enqueue_mem(...) rt_enqueue_mem_in(__func__, __VA_ARGS__)
/* mem.c: a zeroed command of that kind (NULL when out of memory), and
 * rt_enqueue_mem for a command using one or two memory objects (b may be
 * NULL; cmd may be NULL after an allocation failure). */
struct dev_cmd *rt_cmd_new(enum dev_cmd_kind kind);
cl_int rt_enqueue2_in(const char *call, cl_command_queue q, cl_command_type type,
                      struct dev_cmd *cmd, cl_mem a, cl_mem b, cl_uint n, const cl_event *wl,
                      cl_event *ev, cl_bool blocking);
/* queue.c: called by event.c under ctx->lock when a command event completes. */
void rt_queue_retire_locked(cl_command_queue q, cl_event ev);
void rt_queue_destroy(cl_command_queue q);

/* context.c */
void rt_context_destroy(cl_context ctx);
/* mem.c */
void rt_mem_destroy(cl_mem m);
/* mem.c: flags of a memory object made from one whose effective flags are
 * pf (a sub-buffer, an image from a buffer): checked against pf, the
 * unspecified ones inherited (CL_INVALID_VALUE when they conflict). */
cl_int rt_mem_derived_flags(cl_mem_flags pf, cl_mem_flags flags, cl_mem_flags *out);
/* mem.c: a fresh memory object of ctx (not yet handed out, no storage). */
cl_int rt_mem_alloc(cl_context ctx, cl_mem *out);
/* mem.c: frees a memory object that was never handed out. */
void rt_mem_free(cl_mem m);
/* mem.c: records a map of m at ptr (offset/size in its storage) and
 * enqueues the command that completes it; undone when enqueueing fails. */
cl_int rt_mem_map_in(const char *call, cl_command_queue q, cl_mem m, cl_command_type type,
                     void *ptr, size_t offset, size_t size, cl_map_flags flags, cl_uint n,
                     const cl_event *wl, cl_event *event, cl_bool blocking);
/* mem.c: whether map flags are valid and allowed by the host-access flags of
 * m (CL_INVALID_VALUE / CL_INVALID_OPERATION). */
cl_int rt_mem_check_map(cl_mem m, cl_map_flags flags);
/* image.c: releases what an image adds to its memory object. */
void rt_image_destroy(cl_mem m);
/* sampler.c: the CLK_* value of a live sampler of ctx, or false. */
bool rt_sampler_bits(cl_sampler s, cl_context ctx, uint32_t *bits);

/* Release helpers that destroy at zero (each family's clRelease* without the
 * handle check). */
void rt_context_unref(cl_context ctx);
void rt_queue_unref(cl_command_queue q);
void rt_mem_unref(cl_mem m);
void rt_event_unref(cl_event ev);

#endif
