/*
 * object.c - what every CL object shares: the header (dispatch, tag,
 * refcount), handle validation, the quarantine of released objects, the
 * clGetXxxInfo copy rule and diagnostics. It must not know any object
 * family's internals.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

/* The table in force: the exporting layer's once it installed one. The
 * empty default is not NULL, so zeroed memory never passes for an object. */
static const cl_icd_dispatch no_dispatch;
static _Atomic(const cl_icd_dispatch *) dispatch_table = &no_dispatch;

void rt_set_dispatch(const cl_icd_dispatch *table) {
  atomic_store(&dispatch_table, table ? table : &no_dispatch);
}

const cl_icd_dispatch *rt_dispatch(void) {
  return atomic_load_explicit(&dispatch_table, memory_order_relaxed);
}

void rt_object_init(struct rt_object *o, enum rt_tag tag) {
  o->dispatch = rt_dispatch();
  o->tag = (uint32_t)tag;
  o->was = (uint32_t)tag;
  atomic_init(&o->refcount, 1);
}

/* What a diagnostic calls an object of each tag. */
static const struct {
  enum rt_tag tag;
  const char *name;
} kinds[] = {
    {RT_TAG_PLATFORM, "platform"},   {RT_TAG_DEVICE, "device"},     {RT_TAG_CONTEXT, "context"},
    {RT_TAG_QUEUE, "command queue"}, {RT_TAG_MEM, "memory object"}, {RT_TAG_PROGRAM, "program"},
    {RT_TAG_KERNEL, "kernel"},       {RT_TAG_EVENT, "event"},       {RT_TAG_SAMPLER, "sampler"},
};

static const char *kind_name(uint32_t tag) {
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if ((uint32_t)kinds[i].tag == tag) return kinds[i].name;
  return "object";
}

void rt_report_dead(const char *call, const void *p) {
  const struct rt_object *o = p;
  fprintf(stderr, "lockstep: %s: %s %p was used after its last release\n", call, kind_name(o->was),
          p);
}

bool rt_valid_in(const char *call, const void *p, enum rt_tag tag) {
  const struct rt_object *o = p;
  if (!o || o->dispatch != rt_dispatch()) return false;
  if (o->tag == (uint32_t)tag && atomic_load(&((struct rt_object *)o)->refcount) > 0) return true;
  /* Our header, but released: the memory is still ours (quarantined). */
  if (o->tag == RT_TAG_DEAD || atomic_load(&((struct rt_object *)o)->refcount) == 0)
    rt_report_dead(call, p);
  return false;
}

unsigned rt_retain(struct rt_object *o) {
  return atomic_fetch_add(&o->refcount, 1) + 1;
}

unsigned rt_release(struct rt_object *o) {
  return atomic_fetch_sub(&o->refcount, 1) - 1;
}

void rt_object_kill(struct rt_object *o) {
  o->tag = RT_TAG_DEAD;
}

/*
 * The quarantine: released objects stay allocated, their header intact
 * (our dispatch table, the dead tag), so a stale handle that the ICD loader
 * dispatches through, or that an entry point validates, still reads memory
 * of ours. They are freed first in, first out once more than
 * RT_QUARANTINE_OBJECTS objects or RT_QUARANTINE_BYTES bytes wait.
 */
static struct {
  pthread_mutex_t lock;
  struct rt_object *head, *tail;
  size_t count, bytes;
} quarantine = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, 0, 0};

void rt_object_free(struct rt_object *o, size_t size) {
  if (!o) return;
  o->tag = RT_TAG_DEAD;
  o->size = size;
  o->q_next = NULL;
  struct rt_object *evict = NULL;
  pthread_mutex_lock(&quarantine.lock);
  if (quarantine.tail)
    quarantine.tail->q_next = o;
  else
    quarantine.head = o;
  quarantine.tail = o;
  quarantine.count++;
  quarantine.bytes += size;
  while (quarantine.count > RT_QUARANTINE_OBJECTS || quarantine.bytes > RT_QUARANTINE_BYTES) {
    struct rt_object *h = quarantine.head;
    quarantine.head = h->q_next;
    if (!quarantine.head) quarantine.tail = NULL;
    quarantine.count--;
    quarantine.bytes -= h->size;
    h->q_next = evict;
    evict = h;
  }
  pthread_mutex_unlock(&quarantine.lock);
  while (evict) {
    struct rt_object *n = evict->q_next;
    free(evict);
    evict = n;
  }
}

void rt_quarantine_usage(size_t *count, size_t *bytes) {
  pthread_mutex_lock(&quarantine.lock);
  *count = quarantine.count;
  *bytes = quarantine.bytes;
  pthread_mutex_unlock(&quarantine.lock);
}

cl_int rt_info(size_t param_value_size, void *param_value, size_t *param_value_size_ret,
               const void *value, size_t size) {
  if (param_value) {
    if (param_value_size < size) return CL_INVALID_VALUE;
    if (size) memcpy(param_value, value, size);
  }
  if (param_value_size_ret) *param_value_size_ret = size;
  return CL_SUCCESS;
}

cl_int rt_info_str(size_t param_value_size, void *param_value, size_t *param_value_size_ret,
                   const char *s) {
  return rt_info(param_value_size, param_value, param_value_size_ret, s, strlen(s) + 1);
}

void rt_log_at(const char *file, int line, const char *fmt, ...) {
  static int enabled = -1;
  if (enabled < 0) {
    const char *e = getenv("LOCKSTEP_LOG");
    enabled = e && *e && strcmp(e, "0") != 0;
  }
  if (!enabled) return;
  const char *base = strrchr(file, '/');
  fprintf(stderr, "lockstep: %s:%d: ", base ? base + 1 : file, line);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}
