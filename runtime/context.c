/*
 * context.c - OpenCL contexts: creation (by device list or by type), the
 * properties, the error-notification callback, queries, reference counting
 * and destructor callbacks.
 *
 * A context binds the device's ops table and instance; it must not schedule
 * commands or know how the device works inside.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

typedef void(CL_CALLBACK *rt_notify_fn)(const char *errinfo, const void *private_info, size_t cb,
                                        void *user_data);

static cl_int parse_properties(cl_context ctx, const cl_context_properties *props) {
  cl_int err = CL_SUCCESS;
  size_t n = 0;
  bool seen_platform = false, seen_sync = false;
  if (!props) goto out;
  for (; props[n] != 0; n += 2) {
    if (n + 2 >= sizeof ctx->props / sizeof ctx->props[0]) {
      err = CL_INVALID_PROPERTY;
      goto out;
    }
    cl_context_properties name = props[n], value = props[n + 1];
    switch (name) {
    case CL_CONTEXT_PLATFORM:
      if (seen_platform) {
        err = CL_INVALID_PROPERTY;
        goto out;
      }
      seen_platform = true;
      if (!rt_valid((const void *)value, RT_TAG_PLATFORM)) {
        err = CL_INVALID_PLATFORM;
        goto out;
      }
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      /* Named twice, or a value other than CL_TRUE/CL_FALSE: the value of a
       * supported property that is not valid is CL_INVALID_PROPERTY. */
      if (seen_sync || (value != CL_TRUE && value != CL_FALSE)) {
        err = CL_INVALID_PROPERTY;
        goto out;
      }
      seen_sync = true;
      ctx->interop_user_sync = (cl_bool)value;
      break;
    default: err = CL_INVALID_PROPERTY; goto out;
    }
    ctx->props[n] = name;
    ctx->props[n + 1] = value;
  }
  ctx->props[n] = 0;
  ctx->props_size = (n + 1) * sizeof(cl_context_properties);
out:
  return err;
}

/* Creates a context for the one device, after the caller validated it. */
static cl_int context_create(const cl_context_properties *props, rt_notify_fn pfn_notify,
                             void *user_data, cl_context *out) {
  cl_int err = CL_SUCCESS;
  cl_context ctx = NULL;
  if (!pfn_notify && user_data) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  ctx = calloc(1, sizeof *ctx);
  if (!ctx) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  err = parse_properties(ctx, props);
  if (err != CL_SUCCESS) goto out;
  ctx->device = rt_device();
  ctx->ops = rt_dev_ops();
  ctx->dev = rt_dev();
  if (!ctx->dev) {
    err = CL_OUT_OF_RESOURCES;
    goto out;
  }
  ctx->pfn_notify = pfn_notify;
  ctx->notify_data = user_data;
  pthread_mutex_init(&ctx->lock, NULL);
  pthread_cond_init(&ctx->cond, NULL);
  rt_object_init(&ctx->obj, RT_TAG_CONTEXT);
  *out = ctx;
  ctx = NULL;
out:
  free(ctx);
  return err;
}

static cl_int check_devices(cl_uint num_devices, const cl_device_id *devices) {
  if (!devices || num_devices == 0) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; i++)
    if (!rt_valid(devices[i], RT_TAG_DEVICE) || devices[i] != rt_device()) return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties,
                                                    cl_uint num_devices,
                                                    const cl_device_id *devices,
                                                    rt_notify_fn pfn_notify, void *user_data,
                                                    cl_int *errcode_ret) {
  cl_context ctx = NULL;
  cl_int err = check_devices(num_devices, devices);
  if (err == CL_SUCCESS) err = context_create(properties, pfn_notify, user_data, &ctx);
  rt_set_err(errcode_ret, err);
  return ctx;
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *properties,
                                                            cl_device_type device_type,
                                                            rt_notify_fn pfn_notify,
                                                            void *user_data, cl_int *errcode_ret) {
  cl_context ctx = NULL;
  cl_int err = CL_SUCCESS;
  const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                               CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  if (device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || (device_type & ~known)))
    err = CL_INVALID_DEVICE_TYPE;
  else if (!pfn_notify && user_data)
    err = CL_INVALID_VALUE;
  else if (device_type != CL_DEVICE_TYPE_ALL &&
           !(device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT)))
    err = CL_DEVICE_NOT_FOUND;
  if (err == CL_SUCCESS) err = context_create(properties, pfn_notify, user_data, &ctx);
  rt_set_err(errcode_ret, err);
  return ctx;
}

void rt_context_destroy(cl_context ctx) {
  /* Destructor callbacks run most recent first, before anything is freed. */
  for (struct rt_dtor *d = ctx->dtors, *next; d; d = next) {
    next = d->next;
    d->ctx_fn(ctx, d->user_data);
    free(d);
  }
  rt_object_kill(&ctx->obj);
  pthread_cond_destroy(&ctx->cond);
  pthread_mutex_destroy(&ctx->lock);
  rt_object_free(&ctx->obj, sizeof *ctx);
}

void rt_context_unref(cl_context ctx) {
  if (rt_release(&ctx->obj) == 0) rt_context_destroy(ctx);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) return CL_INVALID_CONTEXT;
  rt_retain(&context->obj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) return CL_INVALID_CONTEXT;
  rt_context_unref(context);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) return CL_INVALID_CONTEXT;
  switch (param_name) {
  case CL_CONTEXT_REFERENCE_COUNT: {
    cl_uint n = atomic_load(&context->obj.refcount);
    return rt_info(param_value_size, param_value, param_value_size_ret, &n, sizeof n);
  }
  case CL_CONTEXT_NUM_DEVICES: {
    cl_uint n = 1;
    return rt_info(param_value_size, param_value, param_value_size_ret, &n, sizeof n);
  }
  case CL_CONTEXT_DEVICES:
    return rt_info(param_value_size, param_value, param_value_size_ret, &context->device,
                   sizeof context->device);
  case CL_CONTEXT_PROPERTIES:
    return rt_info(param_value_size, param_value, param_value_size_ret, context->props,
                   context->props_size);
  default: return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(
    cl_context context, void(CL_CALLBACK *pfn_notify)(cl_context context, void *user_data),
    void *user_data) {
  cl_int err = CL_SUCCESS;
  struct rt_dtor *d = NULL;
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    err = CL_INVALID_CONTEXT;
    goto out;
  }
  if (!pfn_notify) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  d = malloc(sizeof *d);
  if (!d) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  d->ctx_fn = pfn_notify;
  d->mem_fn = NULL;
  d->user_data = user_data;
  pthread_mutex_lock(&context->lock);
  d->next = context->dtors;
  context->dtors = d;
  pthread_mutex_unlock(&context->lock);
out:
  return err;
}

void rt_context_notify(cl_context ctx, const char *errinfo) {
  if (ctx && ctx->pfn_notify) ctx->pfn_notify(errinfo, NULL, 0, ctx->notify_data);
}
