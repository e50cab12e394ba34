/*
 * svm.c - shared virtual memory: clSVMAlloc/clSVMFree, the SVM commands
 * (free, memcpy, fill, map, unmap, migrate) and the registry of live
 * allocations the other families ask (kernel arguments, buffers on SVM).
 *
 * The device allocates SVM storage (dev_ops.svm_alloc) at a host address
 * that is also its device address, so an SVM pointer, and every pointer
 * stored in SVM data, means the same on both sides; the device checks
 * every access a kernel or a command makes against the live allocations.
 * Coarse- and fine-grained buffer SVM are the same memory here: a map moves
 * no data and only keeps the rules (what was mapped is what is unmapped).
 * This file must not look inside the device.
 */
#include "runtime/rt.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define SVM_ACCESS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define SVM_FLAGS  (SVM_ACCESS | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS)
/* clSVMAlloc's largest alignment: the device's allocations start on 64 KiB. */
#define SVM_MAX_ALIGN ((cl_uint)1 << 16)

/* A mapped range of an allocation (clEnqueueSVMMap). */
struct svm_map {
  void *ptr;
  struct svm_map *next;
};

/* One live allocation. */
struct svm_alloc {
  char *base;
  size_t size;
  cl_context ctx;
  cl_svm_mem_flags flags;
  struct svm_map *maps;
};

/* The live allocations, sorted by base. */
static struct {
  pthread_mutex_t mu;
  struct svm_alloc *a;
  size_t n, cap;
} reg = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

/* Index of the allocation holding p (end inclusive: one past the end is a
 * pointer into it too), or reg.n. Under reg.mu. */
static size_t find_locked(const void *p, bool end_ok) {
  const char *c = p;
  size_t lo = 0, hi = reg.n;
  while (lo < hi) { /* first allocation whose base is above p */
    size_t mid = lo + (hi - lo) / 2;
    if (reg.a[mid].base <= c)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || !p) return reg.n;
  const struct svm_alloc *s = &reg.a[lo - 1];
  size_t off = (size_t)(c - s->base);
  return off < s->size || (end_ok && off == s->size) ? lo - 1 : reg.n;
}

static bool reg_add(const struct svm_alloc *s) {
  bool ok = true;
  pthread_mutex_lock(&reg.mu);
  if (reg.n == reg.cap) {
    size_t cap = reg.cap ? 2 * reg.cap : 16;
    struct svm_alloc *a = realloc(reg.a, cap * sizeof *a);
    if (a) {
      reg.a = a;
      reg.cap = cap;
    } else {
      ok = false;
    }
  }
  if (ok) {
    size_t i = reg.n;
    while (i > 0 && reg.a[i - 1].base > s->base)
      i--;
    memmove(&reg.a[i + 1], &reg.a[i], (reg.n - i) * sizeof *reg.a);
    reg.a[i] = *s;
    reg.n++;
  }
  pthread_mutex_unlock(&reg.mu);
  return ok;
}

bool rt_svm_lookup(const void *p, void **base, size_t *size) {
  pthread_mutex_lock(&reg.mu);
  size_t i = find_locked(p, true);
  bool found = i < reg.n;
  if (found) {
    if (base) *base = reg.a[i].base;
    if (size) *size = reg.a[i].size;
  }
  pthread_mutex_unlock(&reg.mu);
  return found;
}

/* Whether [p, p+size) lies inside one allocation. */
static bool range_in_svm(const void *p, size_t size) {
  void *base;
  size_t total;
  if (!rt_svm_lookup(p, &base, &total)) return false;
  size_t off = (size_t)((const char *)p - (const char *)base);
  return size <= total - off;
}

/* ---- allocation ---- */

static bool svm_flags_ok(cl_svm_mem_flags flags) {
  if (flags & ~(cl_svm_mem_flags)SVM_FLAGS) return false;
  if (__builtin_popcountll((unsigned long long)(flags & SVM_ACCESS)) > 1) return false;
  /* atomics are a property of fine-grained buffers */
  if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)) return false;
  cl_device_svm_capabilities caps = 0;
  clGetDeviceInfo(rt_device(), CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
  if ((flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) && !(caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
    return false;
  if ((flags & CL_MEM_SVM_ATOMICS) && !(caps & CL_DEVICE_SVM_ATOMICS)) return false;
  return caps != 0;
}

CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                                          cl_uint alignment) {
  if (!rt_valid(context, RT_TAG_CONTEXT) || !context->ops->svm_alloc) return NULL;
  cl_ulong max = 0;
  clGetDeviceInfo(rt_device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL);
  if (!svm_flags_ok(flags) || size == 0 || size > max) return NULL;
  if ((alignment & (alignment - 1)) != 0 || alignment > SVM_MAX_ALIGN) return NULL;
  struct svm_alloc s = {NULL, size, context, flags, NULL};
  s.base = context->ops->svm_alloc(context->dev, size, (flags & CL_MEM_READ_ONLY) != 0);
  if (!s.base) return NULL;
  if (!reg_add(&s)) {
    context->ops->svm_free(context->dev, s.base);
    return NULL;
  }
  return s.base;
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer) {
  if (!rt_valid(context, RT_TAG_CONTEXT) || !svm_pointer) return;
  struct svm_map *maps = NULL;
  bool found = false;
  pthread_mutex_lock(&reg.mu);
  size_t i = find_locked(svm_pointer, false);
  if (i < reg.n && reg.a[i].base == svm_pointer && reg.a[i].ctx == context) {
    found = true;
    maps = reg.a[i].maps;
    memmove(&reg.a[i], &reg.a[i + 1], (reg.n - i - 1) * sizeof *reg.a);
    reg.n--;
  }
  pthread_mutex_unlock(&reg.mu);
  if (!found) {
    RT_LOG("clSVMFree: %p is not an SVM allocation of context %p", svm_pointer, (void *)context);
    return;
  }
  while (maps) {
    struct svm_map *next = maps->next;
    free(maps);
    maps = next;
  }
  context->ops->svm_free(context->dev, svm_pointer);
}

/* ---- commands ---- */

/* A command whose work is a host function on the device thread; the
 * runtime frees the whole block with free(cmd). */
struct svm_cmd {
  struct dev_cmd cmd; /* must stay first */
  cl_command_queue q;
  void *dst;
  const void *src;
  size_t size;
  uint8_t pattern[128];
  size_t pattern_size;
  void(CL_CALLBACK *free_fn)(cl_command_queue, cl_uint, void **, void *);
  void *user_data;
  cl_uint n;
  void *ptrs[]; /* clEnqueueSVMFree's list */
};

static struct svm_cmd *svm_cmd_new(void (*fn)(void *), size_t nptrs) {
  struct svm_cmd *c = calloc(1, sizeof *c + nptrs * sizeof(void *));
  if (!c) return NULL;
  c->cmd.kind = DEV_CMD_HOST;
  c->cmd.host_fn = fn;
  c->cmd.host_arg = c;
  return c;
}

static cl_int queue_check(cl_command_queue q) {
  return rt_valid(q, RT_TAG_QUEUE) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

static void run_free(void *arg) {
  struct svm_cmd *c = arg;
  if (c->free_fn) {
    c->free_fn(c->q, c->n, c->ptrs, c->user_data);
    return;
  }
  for (cl_uint i = 0; i < c->n; i++)
    clSVMFree(c->q->context, c->ptrs[i]);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void *svm_pointers[],
                 void(CL_CALLBACK *pfn_free_func)(cl_command_queue queue, cl_uint num_svm_pointers,
                                                  void *svm_pointers[], void *user_data),
                 void *user_data, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                 cl_event *event) {
  cl_int err = queue_check(command_queue);
  if (err != CL_SUCCESS) return err;
  if ((num_svm_pointers == 0) != (svm_pointers == NULL)) return CL_INVALID_VALUE;
  struct svm_cmd *c = svm_cmd_new(run_free, num_svm_pointers);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  c->q = command_queue;
  c->free_fn = pfn_free_func;
  c->user_data = user_data;
  c->n = num_svm_pointers;
  if (num_svm_pointers) memcpy(c->ptrs, svm_pointers, num_svm_pointers * sizeof(void *));
  return rt_enqueue(command_queue, CL_COMMAND_SVM_FREE, &c->cmd, num_events_in_wait_list,
                    event_wait_list, event, CL_FALSE);
}

static void run_memcpy(void *arg) {
  struct svm_cmd *c = arg;
  memmove(c->dst, c->src, c->size);
}

/* The command for a copy between SVM (which the device checks) and other
 * host memory; NULL when out of memory. */
static struct dev_cmd *memcpy_cmd(void *dst, const void *src, size_t size) {
  bool sd = rt_svm_lookup(dst, NULL, NULL), ss = rt_svm_lookup(src, NULL, NULL);
  if (!sd && !ss) {
    struct svm_cmd *c = svm_cmd_new(run_memcpy, 0);
    if (!c) return NULL;
    c->dst = dst;
    c->src = src;
    c->size = size;
    return &c->cmd;
  }
  struct dev_cmd *cmd = rt_cmd_new(sd && ss ? DEV_CMD_COPY : sd ? DEV_CMD_WRITE : DEV_CMD_READ);
  if (!cmd) return NULL;
  cmd->size = size;
  cmd->dst = sd ? (uint64_t)(uintptr_t)dst : 0;
  cmd->src = ss ? (uint64_t)(uintptr_t)src : 0;
  cmd->host = sd ? (ss ? NULL : (void *)(uintptr_t)src) : dst;
  return cmd;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue,
                                                   cl_bool blocking_copy, void *dst_ptr,
                                                   const void *src_ptr, size_t size,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list,
                                                   cl_event *event) {
  cl_int err = queue_check(command_queue);
  if (err != CL_SUCCESS) return err;
  if (!dst_ptr || !src_ptr) return CL_INVALID_VALUE;
  const char *d = dst_ptr, *s = src_ptr;
  if (size && d < s + size && s < d + size) return CL_MEM_COPY_OVERLAP;
  struct dev_cmd *cmd = memcpy_cmd(dst_ptr, src_ptr, size);
  if (!cmd) return CL_OUT_OF_HOST_MEMORY;
  return rt_enqueue(command_queue, CL_COMMAND_SVM_MEMCPY, cmd, num_events_in_wait_list,
                    event_wait_list, event, blocking_copy);
}

static void run_fill(void *arg) {
  struct svm_cmd *c = arg;
  for (size_t i = 0; i + c->pattern_size <= c->size; i += c->pattern_size)
    memcpy((char *)c->dst + i, c->pattern, c->pattern_size);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                                                    const void *pattern, size_t pattern_size,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list,
                                                    cl_event *event) {
  cl_int err = queue_check(command_queue);
  if (err != CL_SUCCESS) return err;
  if (!svm_ptr || !pattern || pattern_size == 0 || pattern_size > 128 ||
      (pattern_size & (pattern_size - 1)) != 0)
    return CL_INVALID_VALUE;
  if ((uintptr_t)svm_ptr % pattern_size != 0 || size % pattern_size != 0) return CL_INVALID_VALUE;
  struct dev_cmd *cmd;
  if (rt_svm_lookup(svm_ptr, NULL, NULL)) {
    cmd = rt_cmd_new(DEV_CMD_FILL);
    if (cmd) {
      cmd->dst = (uint64_t)(uintptr_t)svm_ptr;
      cmd->size = size;
      cmd->pattern_size = (uint32_t)pattern_size;
      memcpy(cmd->pattern, pattern, pattern_size);
    }
  } else {
    struct svm_cmd *c = svm_cmd_new(run_fill, 0);
    if (c) {
      c->dst = svm_ptr;
      c->size = size;
      c->pattern_size = pattern_size;
      memcpy(c->pattern, pattern, pattern_size);
    }
    cmd = c ? &c->cmd : NULL;
  }
  if (!cmd) return CL_OUT_OF_HOST_MEMORY;
  return rt_enqueue(command_queue, CL_COMMAND_SVM_MEMFILL, cmd, num_events_in_wait_list,
                    event_wait_list, event, CL_FALSE);
}

/* Records a map of ptr (inside a live allocation of size bytes from ptr). */
static cl_int map_add(void *ptr, size_t size) {
  struct svm_map *mp = calloc(1, sizeof *mp);
  if (!mp) return CL_OUT_OF_HOST_MEMORY;
  mp->ptr = ptr;
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&reg.mu);
  size_t i = find_locked(ptr, false);
  if (i < reg.n && size <= reg.a[i].size - (size_t)((char *)ptr - reg.a[i].base)) {
    mp->next = reg.a[i].maps;
    reg.a[i].maps = mp;
    mp = NULL;
  } else {
    err = CL_INVALID_VALUE;
  }
  pthread_mutex_unlock(&reg.mu);
  free(mp);
  return err;
}

/* Takes back the most recent map of ptr (CL_INVALID_VALUE: none). */
static cl_int map_take(void *ptr) {
  struct svm_map *gone = NULL;
  pthread_mutex_lock(&reg.mu);
  size_t i = find_locked(ptr, false);
  for (struct svm_map **pp = i < reg.n ? &reg.a[i].maps : NULL; pp && *pp; pp = &(*pp)->next)
    if ((*pp)->ptr == ptr) {
      gone = *pp;
      *pp = gone->next;
      break;
    }
  pthread_mutex_unlock(&reg.mu);
  free(gone);
  return gone ? CL_SUCCESS : CL_INVALID_VALUE;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue,
                                                cl_bool blocking_map, cl_map_flags flags,
                                                void *svm_ptr, size_t size,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event) {
  cl_int err = queue_check(command_queue);
  if (err != CL_SUCCESS) return err;
  const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if (!svm_ptr || size == 0 || (flags & ~known) ||
      ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return CL_INVALID_VALUE;
  err = rt_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS) return err;
  /* A range outside every allocation is an error the device would
   * otherwise never see: a map moves no data. */
  err = map_add(svm_ptr, size);
  if (err != CL_SUCCESS) return err;
  err = rt_enqueue(command_queue, CL_COMMAND_SVM_MAP, NULL, num_events_in_wait_list,
                   event_wait_list, event, blocking_map);
  if (err != CL_SUCCESS) map_take(svm_ptr);
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                                                  cl_uint num_events_in_wait_list,
                                                  const cl_event *event_wait_list,
                                                  cl_event *event) {
  cl_int err = queue_check(command_queue);
  if (err != CL_SUCCESS) return err;
  if (!svm_ptr) return CL_INVALID_VALUE;
  err = rt_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS) return err;
  /* Only what clEnqueueSVMMap mapped can be unmapped. */
  err = map_take(svm_ptr);
  if (err != CL_SUCCESS) return err;
  err = rt_enqueue(command_queue, CL_COMMAND_SVM_UNMAP, NULL, num_events_in_wait_list,
                   event_wait_list, event, CL_FALSE);
  if (err != CL_SUCCESS) map_add(svm_ptr, 1);
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(
    cl_command_queue command_queue, cl_uint num_svm_pointers, const void **svm_pointers,
    const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  cl_int err = queue_check(command_queue);
  if (err != CL_SUCCESS) return err;
  const cl_mem_migration_flags known =
      CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
  if (num_svm_pointers == 0 || !svm_pointers || (flags & ~known)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_svm_pointers; i++) {
    if (!svm_pointers[i]) return CL_INVALID_VALUE;
    size_t n = sizes ? sizes[i] : 0;
    if (!range_in_svm(svm_pointers[i], n ? n : 1)) return CL_INVALID_VALUE;
  }
  /* Host and device share the storage: nothing moves. */
  return rt_enqueue(command_queue, CL_COMMAND_SVM_MIGRATE_MEM, NULL, num_events_in_wait_list,
                    event_wait_list, event, CL_FALSE);
}
