/*
 * mem.c - OpenCL buffers and sub-buffers: creation with every flag rule,
 * queries, destructor callbacks, and the buffer commands (read, write, copy,
 * fill, their rect forms, map/unmap, migrate).
 *
 * A buffer's storage is host memory that the device maps into its address
 * space, so a map returns a pointer into it (the user's own pointer for
 * CL_MEM_USE_HOST_PTR) and stays coherent. Every data movement is a device
 * command run asynchronously through rt_enqueue_mem(); nothing here copies
 * buffer data inside an API call, and a command with a bad range is refused
 * before anything is enqueued.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/rt.h"

#define ACCESS_FLAGS      (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_PTR_FLAGS    (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define BUFFER_FLAGS      (ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS)

static int popcount64(cl_mem_flags f) {
  return __builtin_popcountll((unsigned long long)f);
}

static cl_ulong device_ulong(cl_device_info param, cl_ulong fallback) {
  cl_ulong v = 0;
  if (clGetDeviceInfo(rt_device(), param, sizeof v, &v, NULL) != CL_SUCCESS) return fallback;
  return v;
}

/* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes. */
static size_t base_align(void) {
  cl_uint bits = 0;
  if (clGetDeviceInfo(rt_device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL) !=
          CL_SUCCESS ||
      bits < 8)
    bits = 1024;
  return bits / 8;
}

/* Storage of at least one huge page is a mapping of its own, aligned to a
 * huge page and advised to use them (where transparent huge pages are on
 * only on request): a kernel that streams through a large buffer then
 * takes a TLB miss per 2 MiB, not per 4 KiB. Its own mapping, so that the
 * advice leaves with it (heap memory reused after free would keep it). */
#define HUGE_PAGE ((size_t)2 << 20)
static void *map_huge(size_t size, size_t *mapped) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t len = (size + page - 1) / page * page, span = len + HUGE_PAGE;
  char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  char *a = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
  if (a > p) munmap(p, (size_t)(a - p));
  if (a + len < p + span) munmap(a + len, (size_t)(p + span - (a + len)));
#ifdef MADV_HUGEPAGE
  (void)madvise(a, len, MADV_HUGEPAGE); /* only a hint */
#endif
  *mapped = len;
  return a;
}

cl_int rt_mem_store_alloc(cl_mem m, size_t size, size_t align, bool zero) {
  m->mapped = 0;
  if (size >= HUGE_PAGE && align <= HUGE_PAGE) {
    m->alloc = map_huge(size, &m->mapped); /* zero-filled by the kernel */
  } else if (posix_memalign(&m->alloc, align, size ? size : 1) != 0) {
    m->alloc = NULL;
  } else if (zero) {
    memset(m->alloc, 0, size);
  }
  m->store = m->alloc;
  return m->alloc ? CL_SUCCESS : CL_MEM_OBJECT_ALLOCATION_FAILURE;
}

static void store_free(cl_mem m) {
  if (m->mapped)
    munmap(m->alloc, m->mapped);
  else
    free(m->alloc);
}

/* Device address of a memory object (0 for anything that is not one). */
uint64_t rt_mem_addr(cl_mem m) {
  return rt_valid(m, RT_TAG_MEM) ? m->addr : 0;
}

static cl_mem mem_root(cl_mem m) {
  return m->parent ? m->parent : m;
}

static bool range_ok(size_t offset, size_t size, size_t total) {
  return offset <= total && size <= total - offset;
}

/* ---- creation ---- */

static cl_int check_flags(cl_mem_flags flags) {
  if (flags & ~(cl_mem_flags)BUFFER_FLAGS) return CL_INVALID_VALUE;
  if (popcount64(flags & ACCESS_FLAGS) > 1 || popcount64(flags & HOST_ACCESS_FLAGS) > 1)
    return CL_INVALID_VALUE;
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

cl_int rt_mem_alloc(cl_context ctx, cl_mem *out) {
  cl_mem m = calloc(1, sizeof *m);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  m->context = ctx;
  m->type = CL_MEM_OBJECT_BUFFER;
  pthread_mutex_init(&m->lock, NULL);
  *out = m;
  return CL_SUCCESS;
}

void rt_mem_free(cl_mem m) {
  if (!m) return;
  pthread_mutex_destroy(&m->lock);
  store_free(m);
  free(m);
}

static cl_int buffer_create_in(const char *call, cl_context ctx, const cl_mem_properties *props,
                               cl_mem_flags flags, size_t size, void *host_ptr, cl_mem *out) {
  cl_int err = CL_SUCCESS;
  cl_mem m = NULL;
  if (!rt_valid_in(call, ctx, RT_TAG_CONTEXT)) {
    err = CL_INVALID_CONTEXT;
    goto out;
  }
  if (props && props[0] != 0) {
    err = CL_INVALID_PROPERTY; /* no buffer property is supported */
    goto out;
  }
  err = check_flags(flags);
  if (err != CL_SUCCESS) goto out;
  if (size == 0 || size > device_ulong(CL_DEVICE_MAX_MEM_ALLOC_SIZE, rt_config()->max_alloc_size)) {
    err = CL_INVALID_BUFFER_SIZE;
    goto out;
  }
  bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wants_ptr != (host_ptr != NULL)) {
    err = CL_INVALID_HOST_PTR;
    goto out;
  }
  err = rt_mem_alloc(ctx, &m);
  if (err != CL_SUCCESS) goto out;
  if (!(flags & ACCESS_FLAGS)) flags |= CL_MEM_READ_WRITE;
  m->flags = flags;
  m->size = size;
  if (props) {
    m->props[0] = 0;
    m->props_size = sizeof(cl_mem_properties);
  }
  if (flags & CL_MEM_USE_HOST_PTR) {
    /* SVM as a buffer's storage: the buffer must fit in the allocation */
    void *svm_base;
    size_t svm_size;
    if (rt_svm_lookup(host_ptr, &svm_base, &svm_size) &&
        size > svm_size - (size_t)((char *)host_ptr - (char *)svm_base)) {
      err = CL_INVALID_BUFFER_SIZE;
      goto out;
    }
    m->host_ptr = host_ptr;
    m->store = host_ptr;
  } else {
    size_t align = base_align();
    if (align < 128) align = 128;
    bool copy = flags & CL_MEM_COPY_HOST_PTR;
    if ((err = rt_mem_store_alloc(m, size, align, !copy)) != CL_SUCCESS) goto out;
    if (copy) memcpy(m->store, host_ptr, size);
  }
  /* A buffer on SVM is the SVM memory to the device too: its address is
   * the SVM pointer, so pointers a kernel takes into it are valid on the
   * host (and in SVM data). */
  m->on_svm = (flags & CL_MEM_USE_HOST_PTR) && rt_svm_lookup(host_ptr, NULL, NULL);
  m->addr = m->on_svm ? (uint64_t)(uintptr_t)host_ptr
                      : ctx->ops->map_global(ctx->dev, m->store, size, false);
  if (m->addr == 0) {
    err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    goto out;
  }
  if (!wants_ptr && ctx->ops->map_undefined) ctx->ops->map_undefined(ctx->dev, m->addr);
  rt_retain(&ctx->obj);
  rt_object_init(&m->obj, RT_TAG_MEM);
  *out = m;
  m = NULL;
out:
  rt_mem_free(m);
  return err;
}
#define buffer_create(...) buffer_create_in(__func__, __VA_ARGS__)

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                               void *host_ptr, cl_int *errcode_ret) {
  cl_mem m = NULL;
  cl_int err = buffer_create(context, NULL, flags, size, host_ptr, &m);
  rt_set_err(errcode_ret, err);
  return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context,
                                                             const cl_mem_properties *properties,
                                                             cl_mem_flags flags, size_t size,
                                                             void *host_ptr, cl_int *errcode_ret) {
  cl_mem m = NULL;
  cl_int err = buffer_create(context, properties, flags, size, host_ptr, &m);
  rt_set_err(errcode_ret, err);
  return m;
}

cl_int rt_mem_derived_flags(cl_mem_flags pf, cl_mem_flags flags, cl_mem_flags *out) {
  if (flags & ~(cl_mem_flags)(ACCESS_FLAGS | HOST_ACCESS_FLAGS)) return CL_INVALID_VALUE;
  if (popcount64(flags & ACCESS_FLAGS) > 1 || popcount64(flags & HOST_ACCESS_FLAGS) > 1)
    return CL_INVALID_VALUE;
  if ((pf & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
    return CL_INVALID_VALUE;
  if ((pf & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
    return CL_INVALID_VALUE;
  if ((pf & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) return CL_INVALID_VALUE;
  if ((pf & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) return CL_INVALID_VALUE;
  if ((pf & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
    return CL_INVALID_VALUE;
  cl_mem_flags f = flags;
  if (!(f & ACCESS_FLAGS)) f |= pf & ACCESS_FLAGS;
  if (!(f & HOST_ACCESS_FLAGS)) f |= pf & HOST_ACCESS_FLAGS;
  f |= pf & HOST_PTR_FLAGS;
  *out = f;
  return CL_SUCCESS;
}

static cl_int subbuffer_create_in(const char *call, cl_mem buffer, cl_mem_flags flags,
                                  cl_buffer_create_type type, const void *info, cl_mem *out) {
  cl_int err = CL_SUCCESS;
  cl_mem m = NULL;
  if (!rt_valid_in(call, buffer, RT_TAG_MEM) || buffer->type != CL_MEM_OBJECT_BUFFER ||
      buffer->parent) {
    err = CL_INVALID_MEM_OBJECT;
    goto out;
  }
  cl_mem_flags f = 0;
  err = rt_mem_derived_flags(buffer->flags, flags, &f);
  if (err != CL_SUCCESS) goto out;
  if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  const cl_buffer_region *r = info;
  if (r->size == 0) {
    err = CL_INVALID_BUFFER_SIZE;
    goto out;
  }
  if (!range_ok(r->origin, r->size, buffer->size)) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  if (r->origin % base_align() != 0) {
    err = CL_MISALIGNED_SUB_BUFFER_OFFSET;
    goto out;
  }
  cl_context ctx = buffer->context;
  err = rt_mem_alloc(ctx, &m);
  if (err != CL_SUCCESS) goto out;
  m->flags = f;
  m->size = r->size;
  m->origin = r->origin;
  m->store = (char *)buffer->store + r->origin;
  if (buffer->host_ptr) m->host_ptr = (char *)buffer->host_ptr + r->origin;
  m->on_svm = buffer->on_svm;
  m->addr = m->on_svm ? buffer->addr + r->origin
                      : ctx->ops->map_global(ctx->dev, m->store, m->size, false);
  if (m->addr == 0) {
    err = CL_OUT_OF_RESOURCES;
    goto out;
  }
  if (ctx->ops->map_view) ctx->ops->map_view(ctx->dev, m->addr, buffer->addr + r->origin);
  m->parent = buffer;
  rt_retain(&buffer->obj);
  rt_retain(&ctx->obj);
  rt_object_init(&m->obj, RT_TAG_MEM);
  *out = m;
  m = NULL;
out:
  rt_mem_free(m);
  return err;
}
#define subbuffer_create(...) subbuffer_create_in(__func__, __VA_ARGS__)

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                                  cl_buffer_create_type buffer_create_type,
                                                  const void *buffer_create_info,
                                                  cl_int *errcode_ret) {
  cl_mem m = NULL;
  cl_int err = subbuffer_create(buffer, flags, buffer_create_type, buffer_create_info, &m);
  rt_set_err(errcode_ret, err);
  return m;
}

/* ---- lifetime and queries ---- */

void rt_mem_destroy(cl_mem m) {
  cl_context ctx = m->context;
  rt_object_kill(&m->obj);
  if (!m->on_svm) ctx->ops->unmap_global(ctx->dev, m->addr);
  /* Destructor callbacks run most recent first, before the storage goes
   * (the application may free its USE_HOST_PTR memory in them). */
  for (struct rt_dtor *d = m->dtors, *next; d; d = next) {
    next = d->next;
    d->mem_fn(m, d->user_data);
    free(d);
  }
  for (struct rt_map *mp = m->maps, *next; mp; mp = next) {
    next = mp->next;
    free(mp);
  }
  if (m->image) rt_image_destroy(m);
  if (m->parent) rt_mem_unref(m->parent);
  pthread_mutex_destroy(&m->lock);
  store_free(m);
  rt_object_free(&m->obj, sizeof *m);
  rt_context_unref(ctx);
}

void rt_mem_unref(cl_mem m) {
  if (rt_release(&m->obj) == 0) rt_mem_destroy(m);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  if (!rt_valid(memobj, RT_TAG_MEM)) return CL_INVALID_MEM_OBJECT;
  rt_retain(&memobj->obj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  if (!rt_valid(memobj, RT_TAG_MEM)) return CL_INVALID_MEM_OBJECT;
  rt_mem_unref(memobj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem memobj, void(CL_CALLBACK *pfn_notify)(cl_mem memobj, void *user_data), void *user_data) {
  cl_int err = CL_SUCCESS;
  struct rt_dtor *d = NULL;
  if (!rt_valid(memobj, RT_TAG_MEM)) {
    err = CL_INVALID_MEM_OBJECT;
    goto out;
  }
  if (!pfn_notify) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  d = calloc(1, sizeof *d);
  if (!d) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  d->mem_fn = pfn_notify;
  d->user_data = user_data;
  pthread_mutex_lock(&memobj->lock);
  d->next = memobj->dtors;
  memobj->dtors = d;
  pthread_mutex_unlock(&memobj->lock);
out:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                                                   size_t param_value_size, void *param_value,
                                                   size_t *param_value_size_ret) {
  if (!rt_valid(memobj, RT_TAG_MEM)) return CL_INVALID_MEM_OBJECT;
  cl_mem m = memobj;
  size_t sz = param_value_size;
  void *pv = param_value;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_MEM_TYPE: return rt_info(sz, pv, ret, &m->type, sizeof m->type);
  case CL_MEM_FLAGS: return rt_info(sz, pv, ret, &m->flags, sizeof m->flags);
  case CL_MEM_SIZE: return rt_info(sz, pv, ret, &m->size, sizeof m->size);
  case CL_MEM_HOST_PTR: return rt_info(sz, pv, ret, &m->host_ptr, sizeof m->host_ptr);
  case CL_MEM_MAP_COUNT: {
    cl_uint n = atomic_load(&m->map_count);
    return rt_info(sz, pv, ret, &n, sizeof n);
  }
  case CL_MEM_REFERENCE_COUNT: {
    cl_uint n = atomic_load(&m->obj.refcount);
    return rt_info(sz, pv, ret, &n, sizeof n);
  }
  case CL_MEM_CONTEXT: return rt_info(sz, pv, ret, &m->context, sizeof m->context);
  case CL_MEM_ASSOCIATED_MEMOBJECT: return rt_info(sz, pv, ret, &m->parent, sizeof m->parent);
  case CL_MEM_OFFSET: return rt_info(sz, pv, ret, &m->origin, sizeof m->origin);
  case CL_MEM_USES_SVM_POINTER: {
    cl_bool svm = m->on_svm;
    return rt_info(sz, pv, ret, &svm, sizeof svm);
  }
  case CL_MEM_PROPERTIES: return rt_info(sz, pv, ret, m->props, m->props_size);
  default: return CL_INVALID_VALUE;
  }
}

/* ---- commands ---- */

/* The checks every buffer command starts with. */
static cl_int check_qm_in(const char *call, cl_command_queue q, cl_mem m) {
  if (!rt_valid_in(call, q, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (!rt_valid_in(call, m, RT_TAG_MEM) || m->type != CL_MEM_OBJECT_BUFFER)
    return CL_INVALID_MEM_OBJECT;
  if (q->context != m->context) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}
#define check_qm(...) check_qm_in(__func__, __VA_ARGS__)

struct dev_cmd *rt_cmd_new(enum dev_cmd_kind kind) {
  struct dev_cmd *c = calloc(1, sizeof *c);
  if (c) c->kind = kind;
  return c;
}

cl_int rt_enqueue2_in(const char *call, cl_command_queue q, cl_command_type type,
                      struct dev_cmd *cmd, cl_mem a, cl_mem b, cl_uint n, const cl_event *wl,
                      cl_event *ev, cl_bool blocking) {
  if (!cmd) return CL_OUT_OF_HOST_MEMORY;
  cl_mem mems[2] = {a, b};
  return rt_enqueue_mem_in(call, q, type, cmd, b ? 2 : 1, mems, n, wl, ev, blocking);
}
#define enqueue(...) rt_enqueue2_in(__func__, __VA_ARGS__)

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                    cl_bool blocking_read, size_t offset,
                                                    size_t size, void *ptr,
                                                    cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list,
                                                    cl_event *event) {
  cl_int err = check_qm(command_queue, buffer);
  if (err != CL_SUCCESS) return err;
  if (!ptr || !range_ok(offset, size, buffer->size)) return CL_INVALID_VALUE;
  if (buffer->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) return CL_INVALID_OPERATION;
  struct dev_cmd *c = rt_cmd_new(DEV_CMD_READ);
  if (c) {
    c->src = buffer->addr + offset;
    c->host = ptr;
    c->size = size;
  }
  return enqueue(command_queue, CL_COMMAND_READ_BUFFER, c, buffer, NULL, num_events_in_wait_list,
                 event_wait_list, event, blocking_read);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                     cl_bool blocking_write, size_t offset,
                                                     size_t size, const void *ptr,
                                                     cl_uint num_events_in_wait_list,
                                                     const cl_event *event_wait_list,
                                                     cl_event *event) {
  cl_int err = check_qm(command_queue, buffer);
  if (err != CL_SUCCESS) return err;
  if (!ptr || !range_ok(offset, size, buffer->size)) return CL_INVALID_VALUE;
  if (buffer->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) return CL_INVALID_OPERATION;
  struct dev_cmd *c = rt_cmd_new(DEV_CMD_WRITE);
  if (c) {
    c->dst = buffer->addr + offset;
    c->host = (void *)ptr;
    c->size = size;
  }
  return enqueue(command_queue, CL_COMMAND_WRITE_BUFFER, c, buffer, NULL, num_events_in_wait_list,
                 event_wait_list, event, blocking_write);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue,
                                                    cl_mem src_buffer, cl_mem dst_buffer,
                                                    size_t src_offset, size_t dst_offset,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list,
                                                    cl_event *event) {
  cl_int err = check_qm(command_queue, src_buffer);
  if (err == CL_SUCCESS) err = check_qm(command_queue, dst_buffer);
  if (err != CL_SUCCESS) return err;
  if (!range_ok(src_offset, size, src_buffer->size) ||
      !range_ok(dst_offset, size, dst_buffer->size))
    return CL_INVALID_VALUE;
  if (mem_root(src_buffer) == mem_root(dst_buffer)) {
    size_t s = src_buffer->origin + src_offset, d = dst_buffer->origin + dst_offset;
    if (size > 0 && s < d + size && d < s + size) return CL_MEM_COPY_OVERLAP;
  }
  struct dev_cmd *c = rt_cmd_new(DEV_CMD_COPY);
  if (c) {
    c->src = src_buffer->addr + src_offset;
    c->dst = dst_buffer->addr + dst_offset;
    c->size = size;
  }
  return enqueue(command_queue, CL_COMMAND_COPY_BUFFER, c, src_buffer, dst_buffer,
                 num_events_in_wait_list, event_wait_list, event, CL_FALSE);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                    const void *pattern, size_t pattern_size,
                                                    size_t offset, size_t size,
                                                    cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list,
                                                    cl_event *event) {
  cl_int err = check_qm(command_queue, buffer);
  if (err != CL_SUCCESS) return err;
  if (!range_ok(offset, size, buffer->size)) return CL_INVALID_VALUE;
  if (!pattern || pattern_size == 0 || pattern_size > 128 ||
      (pattern_size & (pattern_size - 1)) != 0)
    return CL_INVALID_VALUE;
  if (offset % pattern_size != 0 || size % pattern_size != 0) return CL_INVALID_VALUE;
  struct dev_cmd *c = rt_cmd_new(DEV_CMD_FILL);
  if (c) {
    c->dst = buffer->addr + offset;
    c->size = size;
    memcpy(c->pattern, pattern, pattern_size);
    c->pattern_size = (uint32_t)pattern_size;
  }
  return enqueue(command_queue, CL_COMMAND_FILL_BUFFER, c, buffer, NULL, num_events_in_wait_list,
                 event_wait_list, event, CL_FALSE);
}

/* ---- rect commands ---- */

/* Applies the pitch rules: 0 means tightly packed; a given pitch must hold
 * a row (a slice) and a slice pitch must be a multiple of the row pitch. */
static cl_int rect_pitches(const size_t *region, size_t *row, size_t *slice) {
  if (*row == 0)
    *row = region[0];
  else if (*row < region[0])
    return CL_INVALID_VALUE;
  size_t min_slice;
  if (__builtin_mul_overflow(region[1], *row, &min_slice)) return CL_INVALID_VALUE;
  if (*slice == 0)
    *slice = min_slice;
  else if (*slice < min_slice || *slice % *row != 0)
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* Byte offset of origin, and one past the last byte the rect touches. */
static bool rect_span(const size_t *origin, const size_t *region, size_t row, size_t slice,
                      size_t *start, size_t *end) {
  size_t a, b, s, e;
  if (__builtin_mul_overflow(origin[2], slice, &a) || __builtin_mul_overflow(origin[1], row, &b) ||
      __builtin_add_overflow(a, b, &s) || __builtin_add_overflow(s, origin[0], &s))
    return false;
  if (__builtin_mul_overflow(region[2] - 1, slice, &a) ||
      __builtin_mul_overflow(region[1] - 1, row, &b) || __builtin_add_overflow(s, a, &e) ||
      __builtin_add_overflow(e, b, &e) || __builtin_add_overflow(e, region[0], &e))
    return false;
  *start = s;
  *end = e;
  return true;
}

static bool region_ok(const size_t *region) {
  return region && region[0] != 0 && region[1] != 0 && region[2] != 0;
}

static void fill_rect(struct dev_rect *r, const size_t *src_origin, const size_t *dst_origin,
                      const size_t *region, size_t src_row, size_t src_slice, size_t dst_row,
                      size_t dst_slice) {
  for (int i = 0; i < 3; i++) {
    r->src_origin[i] = src_origin[i];
    r->dst_origin[i] = dst_origin[i];
    r->region[i] = region[i];
  }
  r->src_row_pitch = src_row;
  r->src_slice_pitch = src_slice;
  r->dst_row_pitch = dst_row;
  r->dst_slice_pitch = dst_slice;
}

/* Shared by the read and write rect forms: buffer side and host side. */
static cl_int host_rect_in(const char *call, cl_command_queue q, cl_mem buffer, bool read,
                           const size_t *buffer_origin, const size_t *host_origin,
                           const size_t *region, size_t buffer_row, size_t buffer_slice,
                           size_t host_row, size_t host_slice, void *ptr, cl_uint n,
                           const cl_event *wl, cl_event *event, cl_bool blocking) {
  cl_int err = check_qm_in(call, q, buffer);
  if (err != CL_SUCCESS) return err;
  if (!ptr || !buffer_origin || !host_origin || !region_ok(region)) return CL_INVALID_VALUE;
  if (rect_pitches(region, &buffer_row, &buffer_slice) != CL_SUCCESS ||
      rect_pitches(region, &host_row, &host_slice) != CL_SUCCESS)
    return CL_INVALID_VALUE;
  size_t start, end;
  if (!rect_span(buffer_origin, region, buffer_row, buffer_slice, &start, &end) ||
      end > buffer->size)
    return CL_INVALID_VALUE;
  if (!rect_span(host_origin, region, host_row, host_slice, &start, &end)) return CL_INVALID_VALUE;
  cl_mem_flags forbid =
      CL_MEM_HOST_NO_ACCESS | (read ? CL_MEM_HOST_WRITE_ONLY : CL_MEM_HOST_READ_ONLY);
  if (buffer->flags & forbid) return CL_INVALID_OPERATION;
  struct dev_cmd *c = rt_cmd_new(read ? DEV_CMD_READ_RECT : DEV_CMD_WRITE_RECT);
  if (c) {
    c->host = ptr;
    if (read) {
      c->src = buffer->addr;
      fill_rect(&c->rect, buffer_origin, host_origin, region, buffer_row, buffer_slice, host_row,
                host_slice);
    } else {
      c->dst = buffer->addr;
      fill_rect(&c->rect, host_origin, buffer_origin, region, host_row, host_slice, buffer_row,
                buffer_slice);
    }
  }
  return rt_enqueue2_in(call, q, read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT,
                        c, buffer, NULL, n, wl, event, blocking);
}
#define host_rect(...) host_rect_in(__func__, __VA_ARGS__)

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
    const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
    size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
    size_t host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return host_rect(command_queue, buffer, true, buffer_origin, host_origin, region,
                   buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
                   num_events_in_wait_list, event_wait_list, event, blocking_read);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
    const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
    size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
    size_t host_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return host_rect(command_queue, buffer, false, buffer_origin, host_origin, region,
                   buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                   (void *)ptr, num_events_in_wait_list, event_wait_list, event, blocking_write);
}

/* Whether two rects of one root buffer share a byte. Exact when both use
 * the same pitches and no row wraps past its pitch; otherwise the linear
 * spans are compared, which may report overlap conservatively. */
static bool rects_overlap(size_t s0, size_t d0, const size_t *region, size_t src_row,
                          size_t src_slice, size_t dst_row, size_t dst_slice) {
  size_t s_end = s0 + (region[2] - 1) * src_slice + (region[1] - 1) * src_row + region[0];
  size_t d_end = d0 + (region[2] - 1) * dst_slice + (region[1] - 1) * dst_row + region[0];
  if (!(s0 < d_end && d0 < s_end)) return false;
  if (src_row != dst_row || src_slice != dst_slice) return true;
  size_t row = src_row, slice = src_slice;
  size_t sc[3] = {s0 % slice % row, s0 % slice / row, s0 / slice};
  size_t dc[3] = {d0 % slice % row, d0 % slice / row, d0 / slice};
  size_t rows_per_slice = slice / row;
  if (sc[0] + region[0] > row || dc[0] + region[0] > row || sc[1] + region[1] > rows_per_slice ||
      dc[1] + region[1] > rows_per_slice)
    return true;
  for (int i = 0; i < 3; i++)
    if (!(sc[i] < dc[i] + region[i] && dc[i] < sc[i] + region[i])) return false;
  return true;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer, const size_t *src_origin,
    const size_t *dst_origin, const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
    size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  cl_int err = check_qm(command_queue, src_buffer);
  if (err == CL_SUCCESS) err = check_qm(command_queue, dst_buffer);
  if (err != CL_SUCCESS) return err;
  if (!src_origin || !dst_origin || !region_ok(region)) return CL_INVALID_VALUE;
  if (rect_pitches(region, &src_row_pitch, &src_slice_pitch) != CL_SUCCESS ||
      rect_pitches(region, &dst_row_pitch, &dst_slice_pitch) != CL_SUCCESS)
    return CL_INVALID_VALUE;
  size_t s0, s1, d0, d1;
  if (!rect_span(src_origin, region, src_row_pitch, src_slice_pitch, &s0, &s1) ||
      s1 > src_buffer->size ||
      !rect_span(dst_origin, region, dst_row_pitch, dst_slice_pitch, &d0, &d1) ||
      d1 > dst_buffer->size)
    return CL_INVALID_VALUE;
  if (src_buffer == dst_buffer && src_row_pitch != dst_row_pitch &&
      src_slice_pitch != dst_slice_pitch)
    return CL_INVALID_VALUE;
  if (mem_root(src_buffer) == mem_root(dst_buffer) &&
      rects_overlap(src_buffer->origin + s0, dst_buffer->origin + d0, region, src_row_pitch,
                    src_slice_pitch, dst_row_pitch, dst_slice_pitch))
    return CL_MEM_COPY_OVERLAP;
  struct dev_cmd *c = rt_cmd_new(DEV_CMD_COPY_RECT);
  if (c) {
    c->src = src_buffer->addr;
    c->dst = dst_buffer->addr;
    fill_rect(&c->rect, src_origin, dst_origin, region, src_row_pitch, src_slice_pitch,
              dst_row_pitch, dst_slice_pitch);
  }
  return enqueue(command_queue, CL_COMMAND_COPY_BUFFER_RECT, c, src_buffer, dst_buffer,
                 num_events_in_wait_list, event_wait_list, event, CL_FALSE);
}

/* ---- map, unmap, migrate ---- */

cl_int rt_mem_check_map(cl_mem m, cl_map_flags flags) {
  const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if ((flags & ~known) ||
      ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return CL_INVALID_VALUE;
  if ((m->flags & CL_MEM_HOST_NO_ACCESS) ||
      ((m->flags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MAP_READ)) ||
      ((m->flags & CL_MEM_HOST_READ_ONLY) &&
       (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))))
    return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

cl_int rt_mem_map_in(const char *call, cl_command_queue q, cl_mem m, cl_command_type type,
                     void *ptr, size_t offset, size_t size, cl_map_flags flags, cl_uint n,
                     const cl_event *wl, cl_event *event, cl_bool blocking) {
  struct rt_map *mp = calloc(1, sizeof *mp);
  if (!mp) return CL_OUT_OF_HOST_MEMORY;
  mp->ptr = ptr;
  mp->offset = offset;
  mp->size = size;
  mp->flags = flags;
  pthread_mutex_lock(&m->lock);
  mp->next = m->maps;
  m->maps = mp;
  pthread_mutex_unlock(&m->lock);
  atomic_fetch_add(&m->map_count, 1);
  /* The storage is what the device uses, so the map itself moves no data:
   * it completes in queue order. */
  cl_int err =
      rt_enqueue2_in(call, q, type, rt_cmd_new(DEV_CMD_NOP), m, NULL, n, wl, event, blocking);
  if (err != CL_SUCCESS) {
    pthread_mutex_lock(&m->lock);
    for (struct rt_map **pp = &m->maps; *pp; pp = &(*pp)->next) {
      if (*pp == mp) {
        *pp = mp->next;
        break;
      }
    }
    pthread_mutex_unlock(&m->lock);
    atomic_fetch_sub(&m->map_count, 1);
    free(mp);
  }
  return err;
}

static cl_int map_buffer_in(const char *call, cl_command_queue q, cl_mem m, cl_bool blocking,
                            cl_map_flags flags, size_t offset, size_t size, cl_uint n,
                            const cl_event *wl, cl_event *event, void **out) {
  cl_int err = check_qm_in(call, q, m);
  if (err != CL_SUCCESS) return err;
  if (size == 0 || !range_ok(offset, size, m->size)) return CL_INVALID_VALUE;
  err = rt_mem_check_map(m, flags);
  if (err != CL_SUCCESS) return err;
  void *ptr = (char *)m->store + offset;
  err = rt_mem_map_in(call, q, m, CL_COMMAND_MAP_BUFFER, ptr, offset, size, flags, n, wl, event,
                      blocking);
  if (err == CL_SUCCESS) *out = ptr;
  return err;
}
#define map_buffer(...) map_buffer_in(__func__, __VA_ARGS__)

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                  cl_bool blocking_map, cl_map_flags map_flags,
                                                  size_t offset, size_t size,
                                                  cl_uint num_events_in_wait_list,
                                                  const cl_event *event_wait_list, cl_event *event,
                                                  cl_int *errcode_ret) {
  void *ptr = NULL;
  cl_int err = map_buffer(command_queue, buffer, blocking_map, map_flags, offset, size,
                          num_events_in_wait_list, event_wait_list, event, &ptr);
  rt_set_err(errcode_ret, err);
  return ptr;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue,
                                                        cl_mem memobj, void *mapped_ptr,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event *event_wait_list,
                                                        cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (!rt_valid(memobj, RT_TAG_MEM)) return CL_INVALID_MEM_OBJECT;
  if (command_queue->context != memobj->context) return CL_INVALID_CONTEXT;
  cl_int err = rt_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS) return err;
  struct rt_map *found = NULL;
  pthread_mutex_lock(&memobj->lock);
  for (struct rt_map **pp = &memobj->maps; *pp; pp = &(*pp)->next) {
    if ((*pp)->ptr == mapped_ptr) {
      found = *pp;
      *pp = found->next;
      break;
    }
  }
  pthread_mutex_unlock(&memobj->lock);
  if (!found) return CL_INVALID_VALUE;
  /* what the host wrote through a write map is defined from now on */
  if ((found->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
      memobj->context->ops->define_global)
    memobj->context->ops->define_global(memobj->context->dev, memobj->addr + found->offset,
                                        found->size);
  free(found);
  atomic_fetch_sub(&memobj->map_count, 1);
  return enqueue(command_queue, CL_COMMAND_UNMAP_MEM_OBJECT, rt_cmd_new(DEV_CMD_NOP), memobj, NULL,
                 num_events_in_wait_list, event_wait_list, event, CL_FALSE);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(
    cl_command_queue command_queue, cl_uint num_mem_objects, const cl_mem *mem_objects,
    cl_mem_migration_flags flags, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (num_mem_objects == 0 || !mem_objects) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_mem_objects; i++)
    if (!rt_valid(mem_objects[i], RT_TAG_MEM)) return CL_INVALID_MEM_OBJECT;
  for (cl_uint i = 0; i < num_mem_objects; i++)
    if (mem_objects[i]->context != command_queue->context) return CL_INVALID_CONTEXT;
  if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return CL_INVALID_VALUE;
  /* One memory, shared by host and device: migration only orders. */
  return rt_enqueue(command_queue, CL_COMMAND_MIGRATE_MEM_OBJECTS, NULL, num_events_in_wait_list,
                    event_wait_list, event, CL_FALSE);
}
