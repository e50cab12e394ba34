/*
 * event.c - OpenCL events: the dependency graph of commands, their statuses
 * and timestamps, callbacks, user events, waiting and profiling queries.
 *
 * All scheduling state of a context is guarded by ctx->lock. Callbacks, the
 * device's submit hook and releases that may free objects run only after the
 * lock is dropped. This file must not know what a command does: it hands a
 * struct dev_cmd to the device and learns only its final status and times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

/*
 * Work collected under the lock and carried out after it is dropped: events
 * whose command may now be submitted, events that completed, callbacks to
 * call and dependency links to free.
 */
struct work {
  cl_context ctx;
  cl_event submit[64];
  size_t nsubmit;
  struct submit_spill {
    struct submit_spill *next;
    cl_event ev;
  } * spill;
  cl_event done_head, done_tail; /* FIFO through the w_next field of struct _cl_event */
  struct rt_ev_cb *fire, **fire_tail;
  struct rt_ev_link *links;
};

#define W_NEXT(ev) ((ev)->w_next)

static uint64_t ctx_now(cl_context ctx) {
  return ctx->ops->now_ns(ctx->dev);
}

static void work_init(struct work *w, cl_context ctx) {
  memset(w, 0, sizeof *w);
  w->ctx = ctx;
  w->fire_tail = &w->fire;
}

/* Moves the callbacks of ev registered for a status that st reached or
 * passed into the fire list, in the order SUBMITTED, RUNNING, COMPLETE. */
static void detach_callbacks(struct work *w, cl_event ev, cl_int st) {
  static const cl_int order[] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    if (st > order[i]) continue;
    struct rt_ev_cb **pp = &ev->callbacks;
    while (*pp) {
      struct rt_ev_cb *cb = *pp;
      if (cb->on == order[i]) {
        *pp = cb->next;
        cb->next = NULL;
        cb->ev = ev;
        cb->status = st < 0 ? st : cb->on;
        *w->fire_tail = cb;
        w->fire_tail = &cb->next;
      } else {
        pp = &cb->next;
      }
    }
  }
}

static void push_submit(struct work *w, cl_event ev) {
  if (w->nsubmit < sizeof w->submit / sizeof w->submit[0]) {
    w->submit[w->nsubmit++] = ev;
    return;
  }
  struct submit_spill *s = malloc(sizeof *s);
  if (!s) {
    /* Without memory the command cannot be tracked for submission; fail it. */
    ev->dep_failed = true;
    return;
  }
  s->ev = ev;
  s->next = w->spill;
  w->spill = s;
}

/* Marks ev complete with status st and appends it to the completion FIFO;
 * its waiters are visited by process_locked. */
static void complete_locked(struct work *w, cl_event ev, cl_int st) {
  cl_context ctx = ev->context;
  uint64_t now = ctx_now(ctx);
  ev->status = st;
  if (ev->t_submit < ev->t_queued) ev->t_submit = ev->t_queued;
  if (ev->t_start < ev->t_submit) ev->t_start = ev->t_submit;
  if (ev->t_end < ev->t_start) ev->t_end = ev->t_start;
  ev->t_complete = now > ev->t_end ? now : ev->t_end;
  if (ev->queue) rt_queue_retire_locked(ev->queue, ev);
  W_NEXT(ev) = NULL;
  if (w->done_tail)
    W_NEXT(w->done_tail) = ev;
  else
    w->done_head = ev;
  w->done_tail = ev;
  detach_callbacks(w, ev, st);
}

/* Marks ev submitted (its dependencies are all complete). */
static void ready_locked(struct work *w, cl_event ev) {
  if (ev->dep_failed) {
    complete_locked(w, ev, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return;
  }
  ev->status = CL_SUBMITTED;
  ev->t_submit = ctx_now(ev->context);
  detach_callbacks(w, ev, CL_SUBMITTED);
  push_submit(w, ev);
}

/* Visits the waiters of every event in the completion FIFO (which grows as
 * failures propagate). */
static void process_locked(struct work *w) {
  for (cl_event ev = w->done_head; ev; ev = W_NEXT(ev)) {
    bool failed = ev->status < 0;
    struct rt_ev_link *l = ev->waiters;
    ev->waiters = NULL;
    while (l) {
      struct rt_ev_link *next = l->next;
      cl_event wt = l->waiter;
      wt->deps--;
      wt->unlinking++; /* its reference is dropped in run_work */
      if (wt->status == CL_QUEUED) {
        if (failed) {
          wt->dep_failed = true;
          complete_locked(w, wt, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        } else if (wt->deps == 0) {
          ready_locked(w, wt);
        }
      }
      l->next = w->links;
      w->links = l;
      l = next;
    }
  }
  if (w->done_head) pthread_cond_broadcast(&w->ctx->cond);
}

static void cmd_done(struct dev_cmd *cmd, int status);
static void cmd_started(struct dev_cmd *cmd);

static void submit_one(cl_event ev) {
  cl_context ctx = ev->context;
  struct dev_cmd *cmd = ev->cmd;
  ev->cmd = NULL;
  if (!cmd) {
    /* Only reachable when the command vanished, which cannot happen: treat
     * as a finished no-op. */
    return;
  }
  cmd->user = ev;
  cmd->done = cmd_done;
  cmd->started = cmd_started;
  /* An out-of-order queue spreads its ready commands over its streams; they
   * were submitted only once everything they wait for completed. */
  cl_command_queue q = ev->queue;
  unsigned stream = q->stream;
  if (q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    stream += atomic_fetch_add(&q->next_sub, 1) % RT_OOO_STREAMS;
  ctx->ops->submit(ctx->dev, stream, cmd);
}

/* Drops a reference the runtime held on ev: its own until completion
 * (own), or a dependency link's. The count app_refs subtracts for it goes
 * with it under the lock, so that app_refs never counts it as the
 * application's: an event the application released is seen as such. */
static void drop_internal(cl_event ev, bool own) {
  /* ev may be destroyed by another thread the moment its reference is
   * gone, and the context with it: the context is held until unlocked */
  cl_context ctx = ev->context;
  rt_retain(&ctx->obj);
  pthread_mutex_lock(&ctx->lock);
  if (own)
    ev->internal_ref = false;
  else
    ev->unlinking--;
  unsigned left = rt_release(&ev->obj);
  pthread_mutex_unlock(&ctx->lock);
  rt_context_unref(ctx);
  if (left == 0) rt_event_destroy(ev);
}

/* Carries out the work collected under the lock; called without it. */
static void run_work(struct work *w) {
  for (struct rt_ev_cb *cb = w->fire, *next; cb; cb = next) {
    next = cb->next;
    /* The callback may use the event even after the application released
     * it: it holds a reference of its own meanwhile. */
    rt_retain(&cb->ev->obj);
    cb->fn(cb->ev, cb->status, cb->user_data);
    rt_event_unref(cb->ev);
    free(cb);
  }
  for (size_t i = 0; i < w->nsubmit; i++)
    submit_one(w->submit[i]);
  for (struct submit_spill *s = w->spill, *next; s; s = next) {
    next = s->next;
    submit_one(s->ev);
    free(s);
  }
  for (cl_event ev = w->done_head, next; ev; ev = next) {
    next = W_NEXT(ev);
    W_NEXT(ev) = NULL;
    free(ev->cmd);
    ev->cmd = NULL;
    for (unsigned i = 0; i < ev->nmems; i++)
      if (ev->mems[i]) rt_mem_unref(ev->mems[i]);
    free(ev->mems);
    ev->mems = NULL;
    ev->nmems = 0;
    if (ev->internal_ref) drop_internal(ev, true);
  }
  for (struct rt_ev_link *l = w->links, *next; l; l = next) {
    next = l->next;
    drop_internal(l->waiter, false);
    free(l);
  }
}

/* ev is CL_RUNNING, unless it is further already. */
static void running_locked(struct work *w, cl_event ev) {
  if (ev->status > CL_RUNNING) {
    ev->status = CL_RUNNING;
    detach_callbacks(w, ev, CL_RUNNING);
  }
}

/* The device's hook for a command that begins to run (on a device
 * thread): the event is CL_RUNNING from then. */
static void cmd_started(struct dev_cmd *cmd) {
  cl_event ev = cmd->user;
  struct work w;
  work_init(&w, ev->context);
  pthread_mutex_lock(&ev->context->lock);
  running_locked(&w, ev);
  pthread_mutex_unlock(&ev->context->lock);
  run_work(&w);
}

/* The device's completion hook (runs on a device thread). */
static void cmd_done(struct dev_cmd *cmd, int status) {
  cl_event ev = cmd->user;
  cl_context ctx = ev->context;
  if (status < 0) {
    char msg[1400];
    dev_exception_format(&cmd->exc, msg, sizeof msg);
    fprintf(stderr, "lockstep: %s\n", msg);
    rt_context_notify(ctx, msg);
  }
  struct work w;
  work_init(&w, ctx);
  pthread_mutex_lock(&ctx->lock);
  ev->t_start = cmd->t_start;
  ev->t_end = cmd->t_end;
  ev->cmd = cmd; /* freed with the completion */
  if (status >= 0) running_locked(&w, ev);
  complete_locked(&w, ev, status >= 0 ? CL_COMPLETE : (cl_int)status);
  process_locked(&w);
  pthread_mutex_unlock(&ctx->lock);
  run_work(&w);
}

cl_int rt_event_new(cl_command_queue q, cl_command_type type, cl_event *out) {
  cl_event ev = calloc(1, sizeof *ev);
  if (!ev) return CL_OUT_OF_HOST_MEMORY;
  rt_object_init(&ev->obj, RT_TAG_EVENT);
  ev->context = q->context;
  rt_retain(&q->context->obj);
  ev->queue = q;
  rt_retain(&q->obj);
  ev->type = type;
  ev->status = CL_QUEUED;
  ev->internal_ref = true;
  ev->t_queued = ctx_now(q->context);
  *out = ev;
  return CL_SUCCESS;
}

void rt_event_depend_locked(cl_event ev, cl_event dep) {
  if (!dep || dep == ev || dep->status == CL_COMPLETE) return;
  if (dep->status < 0) {
    ev->dep_failed = true;
    return;
  }
  struct rt_ev_link *l = malloc(sizeof *l);
  if (!l) {
    ev->dep_failed = true;
    return;
  }
  rt_retain(&ev->obj);
  l->waiter = ev;
  l->next = dep->waiters;
  dep->waiters = l;
  ev->deps++;
}

void rt_event_arm_unlock(cl_event ev) {
  cl_context ctx = ev->context;
  struct work w;
  work_init(&w, ctx);
  if (ev->dep_failed)
    complete_locked(&w, ev, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  else if (ev->deps == 0)
    ready_locked(&w, ev);
  process_locked(&w);
  pthread_mutex_unlock(&ctx->lock);
  run_work(&w);
}

cl_int rt_event_wait(cl_event ev) {
  cl_context ctx = ev->context;
  pthread_mutex_lock(&ctx->lock);
  while (ev->status > CL_COMPLETE)
    pthread_cond_wait(&ctx->cond, &ctx->lock);
  cl_int st = ev->status;
  pthread_mutex_unlock(&ctx->lock);
  return st;
}

void rt_event_destroy(cl_event ev) {
  rt_object_kill(&ev->obj);
  for (struct rt_ev_cb *cb = ev->callbacks, *next; cb; cb = next) {
    next = cb->next;
    free(cb);
  }
  free(ev->cmd);
  for (unsigned i = 0; i < ev->nmems; i++)
    if (ev->mems[i]) rt_mem_unref(ev->mems[i]);
  free(ev->mems);
  if (ev->queue) rt_queue_unref(ev->queue);
  rt_context_unref(ev->context);
  rt_object_free(&ev->obj, sizeof *ev);
}

void rt_event_unref(cl_event ev) {
  if (rt_release(&ev->obj) == 0) rt_event_destroy(ev);
}

/* The application's references to ev: the runtime's own (until completion,
 * and one per pending dependency link) are not counted. */
static cl_uint app_refs(cl_event ev) {
  pthread_mutex_lock(&ev->context->lock);
  cl_uint n =
      atomic_load(&ev->obj.refcount) - (ev->internal_ref ? 1 : 0) - ev->deps - ev->unlinking;
  pthread_mutex_unlock(&ev->context->lock);
  return n;
}

bool rt_event_valid_in(const char *call, cl_event ev) {
  if (!rt_valid_in(call, ev, RT_TAG_EVENT)) return false;
  if (app_refs(ev) > 0) return true;
  rt_report_dead(call, ev);
  return false;
}

cl_int rt_check_wait_list_in(const char *call, cl_context ctx, cl_uint n, const cl_event *list) {
  if ((n == 0) != (list == NULL)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; i++)
    if (!rt_event_valid_in(call, list[i])) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; i++)
    if (list[i]->context != ctx) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

/* ---- entry points ---- */

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  cl_int err = CL_SUCCESS;
  if (num_events == 0 || !event_list) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  for (cl_uint i = 0; i < num_events; i++) {
    if (!rt_event_valid(event_list[i])) {
      err = CL_INVALID_EVENT;
      goto out;
    }
  }
  for (cl_uint i = 1; i < num_events; i++) {
    if (event_list[i]->context != event_list[0]->context) {
      err = CL_INVALID_CONTEXT;
      goto out;
    }
  }
  for (cl_uint i = 0; i < num_events; i++)
    if (rt_event_wait(event_list[i]) < 0) err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
out:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name,
                                               size_t param_value_size, void *param_value,
                                               size_t *param_value_size_ret) {
  if (!rt_event_valid(event)) return CL_INVALID_EVENT;
  size_t sz = param_value_size;
  void *pv = param_value;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_EVENT_COMMAND_QUEUE: return rt_info(sz, pv, ret, &event->queue, sizeof event->queue);
  case CL_EVENT_CONTEXT: return rt_info(sz, pv, ret, &event->context, sizeof event->context);
  case CL_EVENT_COMMAND_TYPE: return rt_info(sz, pv, ret, &event->type, sizeof event->type);
  case CL_EVENT_COMMAND_EXECUTION_STATUS: {
    pthread_mutex_lock(&event->context->lock);
    cl_int st = event->status;
    pthread_mutex_unlock(&event->context->lock);
    return rt_info(sz, pv, ret, &st, sizeof st);
  }
  case CL_EVENT_REFERENCE_COUNT: {
    cl_uint n = app_refs(event);
    return rt_info(sz, pv, ret, &n, sizeof n);
  }
  default: return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event) {
  if (!rt_event_valid(event)) return CL_INVALID_EVENT;
  rt_retain(&event->obj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  /* A pending command's event lives on for the runtime: releasing it once
   * more than retained would take the runtime's reference. */
  if (!rt_event_valid(event)) return CL_INVALID_EVENT;
  rt_event_unref(event);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event,
                                                        cl_profiling_info param_name,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret) {
  if (!rt_event_valid(event)) return CL_INVALID_EVENT;
  if (!event->queue || !(event->queue->props & CL_QUEUE_PROFILING_ENABLE))
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  cl_context ctx = event->context;
  pthread_mutex_lock(&ctx->lock);
  cl_int st = event->status;
  cl_ulong t[5] = {event->t_queued, event->t_submit, event->t_start, event->t_end,
                   event->t_complete};
  pthread_mutex_unlock(&ctx->lock);
  if (st != CL_COMPLETE) return CL_PROFILING_INFO_NOT_AVAILABLE;
  cl_ulong v;
  switch (param_name) {
  case CL_PROFILING_COMMAND_QUEUED: v = t[0]; break;
  case CL_PROFILING_COMMAND_SUBMIT: v = t[1]; break;
  case CL_PROFILING_COMMAND_START: v = t[2]; break;
  case CL_PROFILING_COMMAND_END: v = t[3]; break;
  case CL_PROFILING_COMMAND_COMPLETE: v = t[4]; break;
  default: return CL_INVALID_VALUE;
  }
  return rt_info(param_value_size, param_value, param_value_size_ret, &v, sizeof v);
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(
    cl_event event, cl_int command_exec_callback_type,
    void(CL_CALLBACK *pfn_notify)(cl_event event, cl_int event_command_status, void *user_data),
    void *user_data) {
  cl_int err = CL_SUCCESS;
  struct rt_ev_cb *cb = NULL;
  if (!rt_event_valid(event)) {
    err = CL_INVALID_EVENT;
    goto out;
  }
  if (!pfn_notify ||
      (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
       command_exec_callback_type != CL_COMPLETE)) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  cb = calloc(1, sizeof *cb);
  if (!cb) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  cb->on = command_exec_callback_type;
  cb->fn = pfn_notify;
  cb->user_data = user_data;
  cl_context ctx = event->context;
  struct work w;
  work_init(&w, ctx);
  pthread_mutex_lock(&ctx->lock);
  struct rt_ev_cb **pp = &event->callbacks;
  while (*pp)
    pp = &(*pp)->next;
  *pp = cb;
  cb = NULL;
  /* A status already reached (or an error) calls the callback at once. */
  if (event->status <= command_exec_callback_type) detach_callbacks(&w, event, event->status);
  pthread_mutex_unlock(&ctx->lock);
  run_work(&w);
out:
  free(cb);
  return err;
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_event ev = NULL;
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    err = CL_INVALID_CONTEXT;
    goto out;
  }
  ev = calloc(1, sizeof *ev);
  if (!ev) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  rt_object_init(&ev->obj, RT_TAG_EVENT);
  ev->context = context;
  rt_retain(&context->obj);
  ev->type = CL_COMMAND_USER;
  ev->status = CL_SUBMITTED;
  ev->t_queued = ev->t_submit = ctx_now(context);
out:
  rt_set_err(errcode_ret, err);
  return ev;
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
  cl_int err = CL_SUCCESS;
  if (!rt_event_valid(event) || event->type != CL_COMMAND_USER || event->queue) {
    err = CL_INVALID_EVENT;
    goto out;
  }
  if (execution_status != CL_COMPLETE && execution_status >= 0) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  cl_context ctx = event->context;
  struct work w;
  work_init(&w, ctx);
  pthread_mutex_lock(&ctx->lock);
  if (event->user_set) {
    pthread_mutex_unlock(&ctx->lock);
    err = CL_INVALID_OPERATION;
    goto out;
  }
  event->user_set = true;
  complete_locked(&w, event, execution_status);
  process_locked(&w);
  pthread_mutex_unlock(&ctx->lock);
  run_work(&w);
out:
  return err;
}
