/*
 * test_event.c - events on the stub device: wait lists and ordering, user
 * events and error propagation, callbacks, waiting, queries and profiling.
 * Ordering is observed on the stub's single worker, never by timing.
 */
#include "runtime/stub_dev.h"
#include "util/check_util.h"

static cl_context ctx;
static cl_command_queue q, oq, pq;
static cl_device_id dev;

static struct stub_log order_log = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};

struct cb_record {
  pthread_mutex_t lock;
  int calls;
  cl_int seen[8];
  int order[8];
};
static struct cb_record rec = {PTHREAD_MUTEX_INITIALIZER, 0, {0}, {0}};

static void setup(void) {
  cl_int err;
  order_log.n = 0;
  rec.calls = 0;
  dev = rt_device();
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  q = clCreateCommandQueue(ctx, dev, 0, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  oq = clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  pq = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
}

static void teardown(void) {
  clFinish(q);
  clFinish(oq);
  clFinish(pq);
  clReleaseCommandQueue(q);
  clReleaseCommandQueue(oq);
  clReleaseCommandQueue(pq);
  clReleaseContext(ctx);
}

static cl_int status_of(cl_event e) {
  cl_int st = 99;
  ck_assert_int_eq(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL),
                   CL_SUCCESS);
  return st;
}

static cl_int enqueue_log(cl_command_queue queue, struct stub_log_entry *e, cl_uint n,
                          const cl_event *wl, cl_event *ev) {
  return rt_enqueue(queue, CL_COMMAND_NATIVE_KERNEL, stub_host_cmd(stub_log_fn, e), n, wl, ev,
                    CL_FALSE);
}

START_TEST(test_user_event_gates_command) {
  cl_int err;
  cl_event u = clCreateUserEvent(ctx, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(status_of(u), CL_SUBMITTED);
  cl_command_type t;
  ck_assert_int_eq(clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
  ck_assert_uint_eq(t, CL_COMMAND_USER);
  cl_command_queue none = (cl_command_queue)1;
  ck_assert_int_eq(clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, sizeof none, &none, NULL), CL_SUCCESS);
  ck_assert_ptr_null(none);

  struct stub_log_entry e = {&order_log, 7};
  cl_event m;
  ck_assert_int_eq(enqueue_log(q, &e, 1, &u, &m), CL_SUCCESS);
  ck_assert_int_eq(status_of(m), CL_QUEUED);
  ck_assert_uint_eq(order_log.n, 0);
  ck_assert_int_eq(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
  ck_assert_int_eq(clWaitForEvents(1, &m), CL_SUCCESS);
  ck_assert_int_eq(status_of(m), CL_COMPLETE);
  ck_assert_uint_eq(order_log.n, 1);
  ck_assert_int_eq(order_log.seq[0], 7);
  /* Status may be set only once, and only to COMPLETE or an error. */
  ck_assert_int_eq(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
  cl_event u2 = clCreateUserEvent(ctx, NULL);
  ck_assert_int_eq(clSetUserEventStatus(u2, CL_SUBMITTED), CL_INVALID_VALUE);
  ck_assert_int_eq(clSetUserEventStatus(u2, 5), CL_INVALID_VALUE);
  ck_assert_int_eq(clSetUserEventStatus(m, CL_COMPLETE), CL_INVALID_EVENT);
  ck_assert_int_eq(clSetUserEventStatus(NULL, CL_COMPLETE), CL_INVALID_EVENT);
  clSetUserEventStatus(u2, CL_COMPLETE);
  clReleaseEvent(u2);
  clReleaseEvent(m);
  clReleaseEvent(u);
}
END_TEST

START_TEST(test_user_event_errors) {
  cl_int err = 0;
  ck_assert_ptr_null(clCreateUserEvent(NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
  ck_assert_ptr_null(clCreateUserEvent((cl_context)q, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
}
END_TEST

START_TEST(test_negative_status_propagates) {
  cl_event u = clCreateUserEvent(ctx, NULL);
  struct stub_log_entry e1 = {&order_log, 1}, e2 = {&order_log, 2}, e3 = {&order_log, 3};
  cl_event a, b, c, d;
  ck_assert_int_eq(enqueue_log(oq, &e1, 1, &u, &a), CL_SUCCESS);
  ck_assert_int_eq(enqueue_log(oq, &e2, 1, &a, &b), CL_SUCCESS);
  /* A command on another queue of the same context, waiting across queues. */
  ck_assert_int_eq(enqueue_log(q, &e3, 1, &b, &c), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 0, NULL, &d), CL_SUCCESS);
  ck_assert_int_eq(clSetUserEventStatus(u, -1234), CL_SUCCESS);
  ck_assert_int_eq(status_of(u), -1234);
  cl_event all[] = {a, b, c};
  ck_assert_int_eq(clWaitForEvents(3, all), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ck_assert_int_eq(status_of(a), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ck_assert_int_eq(status_of(b), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ck_assert_int_eq(status_of(c), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clFinish(q);
  ck_assert_uint_eq(order_log.n, 0); /* none of them ran */
  /* A blocking command waiting on a failed event reports it. */
  char buf[4];
  cl_mem m = clCreateBuffer(ctx, 0, 4, NULL, NULL);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, buf, 1, &u, NULL),
                   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseMemObject(m);
  clReleaseEvent(a);
  clReleaseEvent(b);
  clReleaseEvent(c);
  clReleaseEvent(d);
  clReleaseEvent(u);
}
END_TEST

START_TEST(test_in_order_and_wait_lists) {
  struct stub_log_entry e[6];
  cl_event u = clCreateUserEvent(ctx, NULL);
  for (int i = 0; i < 6; i++)
    e[i] = (struct stub_log_entry){&order_log, i};
  /* in-order queue: 0 waits for the user event; 1, 2 follow it */
  ck_assert_int_eq(enqueue_log(q, &e[0], 1, &u, NULL), CL_SUCCESS);
  ck_assert_int_eq(enqueue_log(q, &e[1], 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(enqueue_log(q, &e[2], 0, NULL, NULL), CL_SUCCESS);
  /* out-of-order: 3 is free to run at once */
  cl_event ev3;
  ck_assert_int_eq(enqueue_log(oq, &e[3], 0, NULL, &ev3), CL_SUCCESS);
  ck_assert_int_eq(clWaitForEvents(1, &ev3), CL_SUCCESS);
  ck_assert_uint_eq(order_log.n, 1);
  ck_assert_int_eq(order_log.seq[0], 3);
  ck_assert_int_eq(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
  ck_assert_int_eq(clFinish(q), CL_SUCCESS);
  ck_assert_uint_eq(order_log.n, 4);
  ck_assert_int_eq(order_log.seq[1], 0);
  ck_assert_int_eq(order_log.seq[2], 1);
  ck_assert_int_eq(order_log.seq[3], 2);
  clReleaseEvent(ev3);
  clReleaseEvent(u);
}
END_TEST

START_TEST(test_out_of_order_barrier) {
  cl_event u = clCreateUserEvent(ctx, NULL);
  struct stub_log_entry e0 = {&order_log, 0}, e1 = {&order_log, 1}, e2 = {&order_log, 2};
  ck_assert_int_eq(enqueue_log(oq, &e0, 1, &u, NULL), CL_SUCCESS);
  cl_event bar, mk;
  ck_assert_int_eq(clEnqueueBarrierWithWaitList(oq, 0, NULL, &bar), CL_SUCCESS);
  ck_assert_int_eq(enqueue_log(oq, &e1, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(oq, 0, NULL, &mk), CL_SUCCESS);
  cl_command_type t;
  clGetEventInfo(bar, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL);
  ck_assert_uint_eq(t, CL_COMMAND_BARRIER);
  clGetEventInfo(mk, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL);
  ck_assert_uint_eq(t, CL_COMMAND_MARKER);
  /* Nothing after the barrier may run before the gated command. */
  ck_assert_int_eq(enqueue_log(q, &e2, 0, NULL, NULL), CL_SUCCESS);
  clFinish(q);
  ck_assert_uint_eq(order_log.n, 1);
  ck_assert_int_eq(order_log.seq[0], 2);
  ck_assert_int_eq(status_of(bar), CL_QUEUED);
  ck_assert_int_eq(status_of(mk), CL_QUEUED);
  clSetUserEventStatus(u, CL_COMPLETE);
  ck_assert_int_eq(clWaitForEvents(1, &mk), CL_SUCCESS);
  ck_assert_uint_eq(order_log.n, 3);
  ck_assert_int_eq(order_log.seq[1], 0);
  ck_assert_int_eq(order_log.seq[2], 1);
  ck_assert_int_eq(status_of(bar), CL_COMPLETE);
  clReleaseEvent(bar);
  clReleaseEvent(mk);
  clReleaseEvent(u);
}
END_TEST

START_TEST(test_legacy_marker_barrier_wait) {
  cl_event u = clCreateUserEvent(ctx, NULL), mk;
  struct stub_log_entry e0 = {&order_log, 0}, e1 = {&order_log, 1};
  ck_assert_int_eq(clEnqueueMarker(oq, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueMarker(NULL, &mk), CL_INVALID_COMMAND_QUEUE);
  ck_assert_int_eq(clEnqueueBarrier(NULL), CL_INVALID_COMMAND_QUEUE);
  ck_assert_int_eq(clEnqueueWaitForEvents(oq, 0, &u), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueWaitForEvents(oq, 1, NULL), CL_INVALID_VALUE);
  cl_event bad = (cl_event)ctx;
  ck_assert_int_eq(clEnqueueWaitForEvents(oq, 1, &bad), CL_INVALID_EVENT);
  ck_assert_int_eq(clEnqueueWaitForEvents(oq, 1, &u), CL_SUCCESS);
  ck_assert_int_eq(enqueue_log(oq, &e0, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueBarrier(oq), CL_SUCCESS);
  ck_assert_int_eq(enqueue_log(oq, &e1, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueMarker(oq, &mk), CL_SUCCESS);
  ck_assert_uint_eq(order_log.n, 0);
  clSetUserEventStatus(u, CL_COMPLETE);
  ck_assert_int_eq(clWaitForEvents(1, &mk), CL_SUCCESS);
  ck_assert_uint_eq(order_log.n, 2);
  ck_assert_int_eq(order_log.seq[0], 0);
  ck_assert_int_eq(order_log.seq[1], 1);
  clReleaseEvent(mk);
  clReleaseEvent(u);
}
END_TEST

START_TEST(test_wait_list_errors) {
  cl_int err;
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_event foreign = clCreateUserEvent(other, NULL);
  cl_event mine = clCreateUserEvent(ctx, NULL);
  cl_event bad = NULL;
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 1, &foreign, NULL), CL_INVALID_CONTEXT);
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 0, &mine, NULL), CL_INVALID_EVENT_WAIT_LIST);
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 1, &bad, NULL), CL_INVALID_EVENT_WAIT_LIST);
  ck_assert_int_eq(clEnqueueBarrierWithWaitList(NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  /* clWaitForEvents */
  ck_assert_int_eq(clWaitForEvents(0, &mine), CL_INVALID_VALUE);
  ck_assert_int_eq(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clWaitForEvents(1, &bad), CL_INVALID_EVENT);
  cl_event two[] = {mine, foreign};
  ck_assert_int_eq(clWaitForEvents(2, two), CL_INVALID_CONTEXT);
  clSetUserEventStatus(mine, CL_COMPLETE);
  clSetUserEventStatus(foreign, CL_COMPLETE);
  clReleaseEvent(mine);
  clReleaseEvent(foreign);
  clReleaseContext(other);
}
END_TEST

static void CL_CALLBACK record_cb(cl_event e, cl_int st, void *data) {
  (void)e;
  pthread_mutex_lock(&rec.lock);
  if (rec.calls < 8) {
    rec.seen[rec.calls] = st;
    rec.order[rec.calls] = (int)(intptr_t)data;
  }
  rec.calls++;
  pthread_mutex_unlock(&rec.lock);
}

static int rec_calls(void) {
  pthread_mutex_lock(&rec.lock);
  int n = rec.calls;
  pthread_mutex_unlock(&rec.lock);
  return n;
}

static void wait_calls(int n) {
  for (int i = 0; i < 2000 && rec_calls() < n; i++) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}

START_TEST(test_callbacks_every_status) {
  cl_event u = clCreateUserEvent(ctx, NULL), m;
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 1, &u, &m), CL_SUCCESS);
  ck_assert_int_eq(clSetEventCallback(m, CL_COMPLETE, record_cb, (void *)3), CL_SUCCESS);
  ck_assert_int_eq(clSetEventCallback(m, CL_RUNNING, record_cb, (void *)2), CL_SUCCESS);
  ck_assert_int_eq(clSetEventCallback(m, CL_SUBMITTED, record_cb, (void *)1), CL_SUCCESS);
  ck_assert_int_eq(clSetEventCallback(m, CL_QUEUED, record_cb, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clSetEventCallback(m, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clSetEventCallback(NULL, CL_COMPLETE, record_cb, NULL), CL_INVALID_EVENT);
  ck_assert_int_eq(rec_calls(), 0);
  clSetUserEventStatus(u, CL_COMPLETE);
  clWaitForEvents(1, &m);
  wait_calls(3);
  ck_assert_int_eq(rec_calls(), 3);
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(rec.order[i], i + 1);
    ck_assert_int_eq(rec.seen[i], CL_SUBMITTED - i);
  }
  /* Registered after the fact: called at once. */
  ck_assert_int_eq(clSetEventCallback(m, CL_SUBMITTED, record_cb, (void *)4), CL_SUCCESS);
  wait_calls(4);
  ck_assert_int_eq(rec_calls(), 4);
  ck_assert_int_eq(rec.seen[3], CL_SUBMITTED);
  clReleaseEvent(m);
  clReleaseEvent(u);
}
END_TEST

START_TEST(test_callbacks_on_error) {
  cl_event u = clCreateUserEvent(ctx, NULL), m;
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 1, &u, &m), CL_SUCCESS);
  clSetEventCallback(m, CL_SUBMITTED, record_cb, (void *)1);
  clSetEventCallback(m, CL_COMPLETE, record_cb, (void *)2);
  clSetEventCallback(u, CL_COMPLETE, record_cb, (void *)0);
  clSetUserEventStatus(u, -77);
  clWaitForEvents(1, &u);
  wait_calls(3);
  ck_assert_int_eq(rec_calls(), 3);
  ck_assert_int_eq(rec.seen[0], -77);
  ck_assert_int_eq(rec.seen[1], CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ck_assert_int_eq(rec.seen[2], CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(m);
  clReleaseEvent(u);
}
END_TEST

/* Queries its event from inside the callback. */
static atomic_int cb_query;
static void CL_CALLBACK query_cb(cl_event ev, cl_int status, void *ud) {
  (void)ud;
  cl_int st = 1;
  cl_int err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  atomic_store(&cb_query, err == CL_SUCCESS && st == status ? 1 : -1);
}

/* The application released the event before its command ran: the callback
 * still gets a usable event, while the application's handle is dead (a
 * second release is refused, not taken from the runtime). */
START_TEST(test_callback_after_release) {
  cl_event u = clCreateUserEvent(ctx, NULL), m;
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 1, &u, &m), CL_SUCCESS);
  ck_assert_int_eq(clSetEventCallback(m, CL_COMPLETE, query_cb, NULL), CL_SUCCESS);
  ck_assert_int_eq(clReleaseEvent(m), CL_SUCCESS);
  ck_assert_int_eq(clReleaseEvent(m), CL_INVALID_EVENT);
  ck_assert_int_eq(clRetainEvent(m), CL_INVALID_EVENT);
  ck_assert_int_eq(clEnqueueBarrierWithWaitList(q, 1, &m, NULL), CL_INVALID_EVENT_WAIT_LIST);
  ck_assert_int_eq(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
  ck_assert_int_eq(clFinish(q), CL_SUCCESS);
  for (int i = 0; i < 2000 && atomic_load(&cb_query) == 0; i++) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  ck_assert_int_eq(atomic_load(&cb_query), 1);
  clReleaseEvent(u);
}
END_TEST

START_TEST(test_event_info) {
  cl_event m;
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 0, NULL, &m), CL_SUCCESS);
  clWaitForEvents(1, &m);
  cl_context c;
  cl_command_queue qq;
  cl_uint rc;
  size_t sz;
  ck_assert_int_eq(clGetEventInfo(m, CL_EVENT_CONTEXT, sizeof c, &c, &sz), CL_SUCCESS);
  ck_assert_ptr_eq(c, ctx);
  ck_assert_uint_eq(sz, sizeof c);
  ck_assert_int_eq(clGetEventInfo(m, CL_EVENT_COMMAND_QUEUE, sizeof qq, &qq, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(qq, q);
  ck_assert_int_eq(clGetEventInfo(m, CL_EVENT_REFERENCE_COUNT, sizeof rc, &rc, NULL), CL_SUCCESS);
  ck_assert_uint_eq(rc, 1);
  ck_assert_int_eq(clRetainEvent(m), CL_SUCCESS);
  clGetEventInfo(m, CL_EVENT_REFERENCE_COUNT, sizeof rc, &rc, NULL);
  ck_assert_uint_eq(rc, 2);
  ck_assert_int_eq(clReleaseEvent(m), CL_SUCCESS);
  ck_assert_int_eq(clGetEventInfo(m, CL_EVENT_COMMAND_TYPE, 1, &rc, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetEventInfo(m, 0x7777, sizeof rc, &rc, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetEventInfo(NULL, CL_EVENT_CONTEXT, sizeof c, &c, NULL), CL_INVALID_EVENT);
  ck_assert_int_eq(clRetainEvent(NULL), CL_INVALID_EVENT);
  ck_assert_int_eq(clReleaseEvent((cl_event)q), CL_INVALID_EVENT);
  ck_assert_int_eq(clReleaseEvent(m), CL_SUCCESS);
}
END_TEST

START_TEST(test_profiling) {
  cl_event e;
  char buf[4096];
  cl_mem m = clCreateBuffer(ctx, 0, sizeof buf, NULL, NULL);
  memset(buf, 1, sizeof buf);
  ck_assert_int_eq(clEnqueueWriteBuffer(pq, m, CL_TRUE, 0, sizeof buf, buf, 0, NULL, &e),
                   CL_SUCCESS);
  cl_ulong t[5];
  const cl_profiling_info p[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                  CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                  CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; i++)
    ck_assert_int_eq(clGetEventProfilingInfo(e, p[i], sizeof t[i], &t[i], NULL), CL_SUCCESS);
  ck_assert_uint_gt(t[0], 0);
  for (int i = 1; i < 5; i++)
    ck_assert_uint_ge(t[i], t[i - 1]);
  ck_assert_int_eq(clGetEventProfilingInfo(e, 0x1234, sizeof t[0], t, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetEventProfilingInfo(e, p[0], 4, t, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetEventProfilingInfo(NULL, p[0], 8, t, NULL), CL_INVALID_EVENT);
  clReleaseEvent(e);
  /* Without profiling, for user events, and before completion. */
  ck_assert_int_eq(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 4, buf, 0, NULL, &e), CL_SUCCESS);
  ck_assert_int_eq(clGetEventProfilingInfo(e, p[0], 8, t, NULL), CL_PROFILING_INFO_NOT_AVAILABLE);
  clReleaseEvent(e);
  cl_event u = clCreateUserEvent(ctx, NULL);
  ck_assert_int_eq(clGetEventProfilingInfo(u, p[0], 8, t, NULL), CL_PROFILING_INFO_NOT_AVAILABLE);
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(pq, 1, &u, &e), CL_SUCCESS);
  ck_assert_int_eq(clGetEventProfilingInfo(e, p[0], 8, t, NULL), CL_PROFILING_INFO_NOT_AVAILABLE);
  clSetUserEventStatus(u, CL_COMPLETE);
  clWaitForEvents(1, &e);
  ck_assert_int_eq(clGetEventProfilingInfo(e, p[3], 8, t, NULL), CL_SUCCESS);
  clReleaseEvent(e);
  clReleaseEvent(u);
  clReleaseMemObject(m);
}
END_TEST

static const char *notified;
static void CL_CALLBACK ctx_notify(const char *info, const void *pi, size_t cb, void *ud) {
  (void)pi;
  (void)cb;
  *(int *)ud += 1;
  notified = strdup(info);
}

START_TEST(test_device_exception) {
  int count = 0;
  cl_int err;
  cl_context c = clCreateContext(NULL, 1, &dev, ctx_notify, &count, &err);
  cl_command_queue cq = clCreateCommandQueue(c, dev, 0, &err);
  struct dev_cmd *cmd = calloc(1, sizeof *cmd);
  cmd->kind = DEV_CMD_LAUNCH;
  cl_event e, after;
  ck_assert_int_eq(rt_enqueue(cq, CL_COMMAND_NDRANGE_KERNEL, cmd, 0, NULL, &e, CL_FALSE),
                   CL_SUCCESS);
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(cq, 1, &e, &after), CL_SUCCESS);
  ck_assert_int_eq(clWaitForEvents(1, &e), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ck_assert_int_lt(status_of(e), 0);
  ck_assert_int_eq(clWaitForEvents(1, &after), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ck_assert_int_eq(status_of(after), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ck_assert_int_eq(count, 1);
  ck_assert_ptr_nonnull(strstr(notified, "faulted"));
  free((void *)notified);
  /* A bad queue refuses the command and frees it. */
  cmd = calloc(1, sizeof *cmd);
  ck_assert_int_eq(rt_enqueue(NULL, CL_COMMAND_NDRANGE_KERNEL, cmd, 0, NULL, NULL, CL_FALSE),
                   CL_INVALID_COMMAND_QUEUE);
  clReleaseEvent(e);
  clReleaseEvent(after);
  clReleaseCommandQueue(cq);
  clReleaseContext(c);
}
END_TEST

int main(void) {
  stub_install();
  Suite *s = suite_create("runtime_event");
  TCase *tc = tcase_create("events");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_user_event_gates_command);
  tcase_add_test(tc, test_user_event_errors);
  tcase_add_test(tc, test_negative_status_propagates);
  tcase_add_test(tc, test_in_order_and_wait_lists);
  tcase_add_test(tc, test_out_of_order_barrier);
  tcase_add_test(tc, test_legacy_marker_barrier_wait);
  tcase_add_test(tc, test_wait_list_errors);
  tcase_add_test(tc, test_callbacks_every_status);
  tcase_add_test(tc, test_callbacks_on_error);
  tcase_add_test(tc, test_callback_after_release);
  tcase_add_test(tc, test_event_info);
  tcase_add_test(tc, test_profiling);
  tcase_add_test(tc, test_device_exception);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
