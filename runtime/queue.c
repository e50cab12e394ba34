/*
 * queue.c - OpenCL command queues: creation and properties, queries, flush
 * and finish, markers and barriers, and rt_enqueue(), the one path every
 * command takes to the device.
 *
 * A queue decides what a new command waits for (the previous command of an
 * in-order queue, the newest barrier of an out-of-order queue, the wait
 * list); event.c owns the dependency graph itself. Nothing here may look at
 * what a command does.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

static atomic_uint next_stream = 1;

static const cl_command_queue_properties queue_known_props =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
    CL_QUEUE_ON_DEVICE_DEFAULT;

static cl_command_queue_properties device_queue_props(cl_device_id d) {
  cl_command_queue_properties p = 0;
  if (clGetDeviceInfo(d, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof p, &p, NULL) != CL_SUCCESS)
    p = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  return p;
}

static cl_int check_props(cl_device_id d, cl_command_queue_properties props) {
  if (props & ~queue_known_props) return CL_INVALID_VALUE;
  if ((props & CL_QUEUE_ON_DEVICE_DEFAULT) && !(props & CL_QUEUE_ON_DEVICE))
    return CL_INVALID_VALUE;
  if (props & CL_QUEUE_ON_DEVICE) {
    cl_command_queue_properties dp = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof dp, &dp, NULL) !=
            CL_SUCCESS ||
        !dp)
      return CL_INVALID_QUEUE_PROPERTIES;
    /* On-device queues are always out of order. */
    if (!(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) return CL_INVALID_VALUE;
    if (props & ~(dp | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT))
      return CL_INVALID_QUEUE_PROPERTIES;
    return CL_SUCCESS;
  }
  if (props & ~device_queue_props(d)) return CL_INVALID_QUEUE_PROPERTIES;
  return CL_SUCCESS;
}

static cl_uint device_uint(cl_device_id d, cl_device_info what) {
  cl_uint v = 0;
  if (clGetDeviceInfo(d, what, sizeof v, &v, NULL) != CL_SUCCESS) v = 0;
  return v;
}

/* Makes q an on-device queue of the device, the context's default one if
 * asked (or if there is none yet). */
static cl_int device_queue_create(cl_context ctx, cl_command_queue q, cl_uint size) {
  cl_uint max = device_uint(q->device, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE);
  if (size == 0) size = device_uint(q->device, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE);
  if (size > max) return CL_INVALID_QUEUE_PROPERTIES;
  if (!ctx->ops || !ctx->ops->dq_create) return CL_INVALID_QUEUE_PROPERTIES;
  q->dq_size = size;
  q->dq = ctx->ops->dq_create(ctx->dev, size);
  if (!q->dq) return CL_OUT_OF_RESOURCES;
  if (q->props & CL_QUEUE_ON_DEVICE_DEFAULT) {
    pthread_mutex_lock(&ctx->lock);
    ctx->default_dq = q;
    pthread_mutex_unlock(&ctx->lock);
  }
  return CL_SUCCESS;
}

static cl_int queue_create_in(const char *call, cl_context ctx, cl_device_id dev,
                              cl_command_queue_properties props, const cl_queue_properties *list,
                              cl_command_queue *out) {
  cl_int err = CL_SUCCESS;
  cl_uint size = 0;
  cl_command_queue q = NULL;
  if (!rt_valid_in(call, ctx, RT_TAG_CONTEXT)) {
    err = CL_INVALID_CONTEXT;
    goto out;
  }
  if (!rt_valid_in(call, dev, RT_TAG_DEVICE) || dev != ctx->device) {
    err = CL_INVALID_DEVICE;
    goto out;
  }
  q = calloc(1, sizeof *q);
  if (!q) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  q->priority = CL_QUEUE_PRIORITY_MED_KHR;
  if (list) {
    bool seen_props = false, seen_prio = false, seen_size = false;
    size_t n = 0;
    for (; list[n] != 0; n += 2) {
      if (n + 2 >= sizeof q->prop_list / sizeof q->prop_list[0]) {
        err = CL_INVALID_VALUE;
        goto out;
      }
      cl_queue_properties name = list[n], value = list[n + 1];
      switch (name) {
      case CL_QUEUE_PROPERTIES:
        if (seen_props) {
          err = CL_INVALID_VALUE;
          goto out;
        }
        seen_props = true;
        props = (cl_command_queue_properties)value;
        break;
      case CL_QUEUE_SIZE:
        seen_size = true;
        size = (cl_uint)value;
        break;
      case CL_QUEUE_PRIORITY_KHR:
        if (seen_prio ||
            (value != CL_QUEUE_PRIORITY_HIGH_KHR && value != CL_QUEUE_PRIORITY_MED_KHR &&
             value != CL_QUEUE_PRIORITY_LOW_KHR)) {
          err = CL_INVALID_VALUE;
          goto out;
        }
        seen_prio = true;
        q->priority = (cl_queue_priority_khr)value;
        break;
      default: err = CL_INVALID_VALUE; goto out;
      }
      q->prop_list[n] = name;
      q->prop_list[n + 1] = value;
    }
    q->prop_list[n] = 0;
    q->prop_list_size = (n + 1) * sizeof(cl_queue_properties);
    err = check_props(dev, props);
    if (err != CL_SUCCESS) goto out;
    /* CL_QUEUE_SIZE is only meaningful for an on-device queue. */
    if (seen_size && !(props & CL_QUEUE_ON_DEVICE)) {
      err = CL_INVALID_VALUE;
      goto out;
    }
  } else {
    err = check_props(dev, props);
    if (err != CL_SUCCESS) goto out;
  }
  q->props = props;
  q->context = ctx;
  rt_retain(&ctx->obj);
  q->device = dev;
  q->stream = atomic_fetch_add(
      &next_stream, (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) ? RT_OOO_STREAMS : 1);
  rt_object_init(&q->obj, RT_TAG_QUEUE);
  if (props & CL_QUEUE_ON_DEVICE) {
    pthread_mutex_lock(&ctx->lock);
    cl_command_queue def = (props & CL_QUEUE_ON_DEVICE_DEFAULT) ? ctx->default_dq : NULL;
    if (def) rt_retain(&def->obj);
    pthread_mutex_unlock(&ctx->lock);
    if (def) { /* there is one default on-device queue: this is it */
      rt_context_unref(ctx);
      rt_object_kill(&q->obj);
      *out = def;
      goto out;
    }
    err = device_queue_create(ctx, q, size);
    if (err != CL_SUCCESS) {
      rt_context_unref(ctx);
      rt_object_kill(&q->obj);
      goto out;
    }
  }
  *out = q;
  q = NULL;
out:
  free(q);
  return err;
}
#define queue_create(...) queue_create_in(__func__, __VA_ARGS__)

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context context, cl_device_id device,
                     cl_command_queue_properties properties, cl_int *errcode_ret) {
  cl_command_queue q = NULL;
  cl_int err = queue_create(context, device, properties, NULL, &q);
  rt_set_err(errcode_ret, err);
  return q;
}

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties *properties, cl_int *errcode_ret) {
  cl_command_queue q = NULL;
  cl_int err = queue_create(context, device, 0, properties, &q);
  rt_set_err(errcode_ret, err);
  return q;
}

void rt_queue_destroy(cl_command_queue q) {
  /* Every command of the queue holds a reference to it, so all of them
   * have completed: the device may forget the queue's streams. */
  cl_context ctx = q->context;
  if (q->dq) {
    pthread_mutex_lock(&ctx->lock);
    if (ctx->default_dq == q) ctx->default_dq = NULL;
    pthread_mutex_unlock(&ctx->lock);
    if (ctx->ops && ctx->ops->dq_release) ctx->ops->dq_release(ctx->dev, q->dq);
  }
  if (ctx->ops && ctx->ops->stream_release) {
    unsigned n = (q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) ? RT_OOO_STREAMS : 1;
    for (unsigned i = 0; i < n; i++)
      ctx->ops->stream_release(ctx->dev, q->stream + i);
  }
  rt_object_kill(&q->obj);
  rt_context_unref(q->context);
  rt_object_free(&q->obj, sizeof *q);
}

void rt_queue_unref(cl_command_queue q) {
  if (rt_release(&q->obj) == 0) rt_queue_destroy(q);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  rt_retain(&command_queue->obj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  /* Commands are submitted as soon as they may run, so the implicit flush
   * has nothing to do; pending commands keep the queue alive. */
  rt_queue_unref(command_queue);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
                                                      cl_command_queue_info param_name,
                                                      size_t param_value_size, void *param_value,
                                                      size_t *param_value_size_ret) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  cl_command_queue q = command_queue;
  size_t sz = param_value_size;
  void *pv = param_value;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_QUEUE_CONTEXT: return rt_info(sz, pv, ret, &q->context, sizeof q->context);
  case CL_QUEUE_DEVICE: return rt_info(sz, pv, ret, &q->device, sizeof q->device);
  case CL_QUEUE_REFERENCE_COUNT: {
    /* Every event of the queue holds a reference of the runtime's own. */
    cl_uint n = atomic_load(&q->obj.refcount);
    return rt_info(sz, pv, ret, &n, sizeof n);
  }
  case CL_QUEUE_PROPERTIES: {
    pthread_mutex_lock(&q->context->lock);
    cl_command_queue_properties p = q->props;
    pthread_mutex_unlock(&q->context->lock);
    return rt_info(sz, pv, ret, &p, sizeof p);
  }
  case CL_QUEUE_PROPERTIES_ARRAY: return rt_info(sz, pv, ret, q->prop_list, q->prop_list_size);
  case CL_QUEUE_SIZE:
    if (!q->dq) return CL_INVALID_COMMAND_QUEUE; /* not an on-device queue */
    return rt_info(sz, pv, ret, &q->dq_size, sizeof q->dq_size);
  case CL_QUEUE_DEVICE_DEFAULT: {
    pthread_mutex_lock(&q->context->lock);
    cl_command_queue d = q->context->default_dq;
    pthread_mutex_unlock(&q->context->lock);
    return rt_info(sz, pv, ret, &d, sizeof d);
  }
  default: return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL
clSetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties properties,
                          cl_bool enable, cl_command_queue_properties *old_properties) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  const cl_command_queue_properties host_props =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  if (properties & ~host_props) return CL_INVALID_VALUE;
  if (properties & ~device_queue_props(command_queue->device)) return CL_INVALID_QUEUE_PROPERTIES;
  /* The change applies to commands enqueued after it: let the earlier ones
   * finish under the old rules first. */
  cl_int err = clFinish(command_queue);
  if (err != CL_SUCCESS) return err;
  cl_context ctx = command_queue->context;
  pthread_mutex_lock(&ctx->lock);
  if (old_properties) *old_properties = command_queue->props;
  if (enable)
    command_queue->props |= properties;
  else
    command_queue->props &= ~properties;
  pthread_mutex_unlock(&ctx->lock);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  /* Every command is handed to the device as soon as its dependencies are
   * complete, so there is nothing left to flush. */
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  cl_context ctx = command_queue->context;
  pthread_mutex_lock(&ctx->lock);
  while (command_queue->npending > 0)
    pthread_cond_wait(&ctx->cond, &ctx->lock);
  pthread_mutex_unlock(&ctx->lock);
  return CL_SUCCESS;
}

void rt_queue_retire_locked(cl_command_queue q, cl_event ev) {
  if (ev->q_prev)
    ev->q_prev->q_next = ev->q_next;
  else if (q->pending == ev)
    q->pending = ev->q_next;
  if (ev->q_next) ev->q_next->q_prev = ev->q_prev;
  ev->q_next = ev->q_prev = NULL;
  if (q->npending > 0) q->npending--;
  if (q->last == ev) q->last = NULL;
  if (q->barrier == ev) q->barrier = NULL;
}

/* Commands that order the queue: later commands wait for them. */
static bool is_barrier(cl_command_type type) {
  return type == CL_COMMAND_BARRIER;
}

cl_int rt_enqueue_mem_in(const char *call, cl_command_queue q, cl_command_type type,
                         struct dev_cmd *cmd, unsigned nmems, cl_mem const *mems,
                         cl_uint num_events, const cl_event *wait_list, cl_event *event_ret,
                         cl_bool blocking) {
  cl_int err = CL_SUCCESS;
  cl_event ev = NULL;
  if (!rt_valid_in(call, q, RT_TAG_QUEUE) || q->dq) { /* on-device queues take no host commands */
    err = CL_INVALID_COMMAND_QUEUE;
    goto out;
  }
  cl_context ctx = q->context;
  err = rt_check_wait_list_in(call, ctx, num_events, wait_list);
  if (err != CL_SUCCESS) goto out;
  if (blocking) {
    pthread_mutex_lock(&ctx->lock);
    for (cl_uint i = 0; i < num_events; i++)
      if (wait_list[i]->status < 0) err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    pthread_mutex_unlock(&ctx->lock);
    if (err != CL_SUCCESS) goto out;
  }
  if (!cmd) {
    cmd = calloc(1, sizeof *cmd);
    if (!cmd) {
      err = CL_OUT_OF_HOST_MEMORY;
      goto out;
    }
    cmd->kind = DEV_CMD_NOP;
  }
  err = rt_event_new(q, type, &ev);
  if (err != CL_SUCCESS) goto out;
  cmd->priority = q->priority == CL_QUEUE_PRIORITY_HIGH_KHR  ? 1
                  : q->priority == CL_QUEUE_PRIORITY_LOW_KHR ? -1
                                                             : 0;
  ev->cmd = cmd;
  cmd = NULL;
  if (nmems > 0) {
    ev->mems = calloc(nmems, sizeof *ev->mems);
    if (!ev->mems) {
      rt_event_unref(ev);
      ev = NULL;
      err = CL_OUT_OF_HOST_MEMORY;
      goto out;
    }
    ev->nmems = nmems;
    for (unsigned i = 0; i < nmems; i++) {
      if (mems[i] && rt_valid_in(call, mems[i], RT_TAG_MEM)) {
        rt_retain(&mems[i]->obj);
        ev->mems[i] = mems[i];
      }
    }
  }
  /* The caller's reference (or ours while a blocking call waits). */
  rt_retain(&ev->obj);

  pthread_mutex_lock(&ctx->lock);
  for (cl_uint i = 0; i < num_events; i++)
    rt_event_depend_locked(ev, wait_list[i]);
  if (!(q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    rt_event_depend_locked(ev, q->last);
  } else {
    rt_event_depend_locked(ev, q->barrier);
    /* A barrier or a marker without a wait list waits for every earlier
     * command of the queue. */
    if (num_events == 0 && (is_barrier(type) || type == CL_COMMAND_MARKER))
      for (cl_event p = q->pending; p; p = p->q_next)
        rt_event_depend_locked(ev, p);
  }
  ev->q_next = q->pending;
  ev->q_prev = NULL;
  if (q->pending) q->pending->q_prev = ev;
  q->pending = ev;
  q->npending++;
  q->last = ev;
  if (is_barrier(type)) q->barrier = ev;
  rt_event_arm_unlock(ev);

  if (blocking && rt_event_wait(ev) < 0) err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  if (event_ret)
    *event_ret = ev;
  else
    rt_event_unref(ev);
out:
  free(cmd);
  return err;
}

cl_int rt_enqueue_in(const char *call, cl_command_queue q, cl_command_type type,
                     struct dev_cmd *cmd, cl_uint num_events, const cl_event *wait_list,
                     cl_event *event_ret, cl_bool blocking) {
  return rt_enqueue_mem_in(call, q, type, cmd, 0, NULL, num_events, wait_list, event_ret, blocking);
}

/* ---- markers and barriers ---- */

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event *event_wait_list,
                                                            cl_event *event) {
  return rt_enqueue(command_queue, CL_COMMAND_MARKER, NULL, num_events_in_wait_list,
                    event_wait_list, event, CL_FALSE);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event *event_wait_list,
                                                             cl_event *event) {
  return rt_enqueue(command_queue, CL_COMMAND_BARRIER, NULL, num_events_in_wait_list,
                    event_wait_list, event, CL_FALSE);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (!event) return CL_INVALID_VALUE;
  /* The 1.1 marker waits for every earlier command, like a marker without a
   * wait list. */
  return rt_enqueue(command_queue, CL_COMMAND_MARKER, NULL, 0, NULL, event, CL_FALSE);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  return rt_enqueue(command_queue, CL_COMMAND_BARRIER, NULL, 0, NULL, NULL, CL_FALSE);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue,
                                                       cl_uint num_events,
                                                       const cl_event *event_list) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (num_events == 0 || !event_list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; i++)
    if (!rt_event_valid(event_list[i])) return CL_INVALID_EVENT;
  for (cl_uint i = 0; i < num_events; i++)
    if (event_list[i]->context != command_queue->context) return CL_INVALID_CONTEXT;
  /* Later commands must wait for the listed events: a barrier on them. */
  return rt_enqueue(command_queue, CL_COMMAND_BARRIER, NULL, num_events, event_list, NULL,
                    CL_FALSE);
}

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context,
                                                               cl_device_id device,
                                                               cl_command_queue command_queue) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) return CL_INVALID_CONTEXT;
  if (!rt_valid(device, RT_TAG_DEVICE) || device != context->device) return CL_INVALID_DEVICE;
  if (!rt_device_enqueue()) return CL_INVALID_OPERATION; /* no replaceable default queue */
  if (!rt_valid(command_queue, RT_TAG_QUEUE) || !command_queue->dq ||
      command_queue->context != context)
    return CL_INVALID_COMMAND_QUEUE;
  pthread_mutex_lock(&context->lock);
  context->default_dq = command_queue;
  command_queue->props |= CL_QUEUE_ON_DEVICE_DEFAULT;
  pthread_mutex_unlock(&context->lock);
  return CL_SUCCESS;
}
