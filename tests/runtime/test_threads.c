/*
 * test_threads.c - several host threads creating, enqueueing, waiting on and
 * releasing objects at once, on one shared context and on their own ones,
 * with user events set from other threads. Runs on the stub device.
 */
#include "runtime/stub_dev.h"
#include "util/check_util.h"

#define NTHREADS 6
#define ROUNDS   40

static cl_context shared_ctx;
static cl_event gate;

struct worker {
  int id;
  int failures;
};

static void *worker_main(void *arg) {
  struct worker *w = arg;
  cl_device_id dev = rt_device();
  for (int r = 0; r < ROUNDS; r++) {
    cl_context ctx = shared_ctx;
    bool own = (r % 4) == 3;
    if (own) ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
    cl_command_queue q =
        clCreateCommandQueue(ctx, dev, (r & 1) ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, NULL);
    unsigned char in[512], out[512];
    for (int i = 0; i < 512; i++)
      in[i] = (unsigned char)(w->id * 31 + r + i);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, NULL);
    cl_mem b = clCreateBuffer(ctx, 0, sizeof in, NULL, NULL);
    cl_event e1, e2;
    cl_uint nwait = (!own && r == 0) ? 1 : 0;
    if (clEnqueueCopyBuffer(q, a, b, 0, 0, sizeof in, nwait, nwait ? &gate : NULL, &e1) !=
        CL_SUCCESS)
      w->failures++;
    /* Release the sources while the copy may still be pending. */
    clReleaseMemObject(a);
    if (clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof out, out, 1, &e1, &e2) != CL_SUCCESS)
      w->failures++;
    clReleaseMemObject(b);
    if (clWaitForEvents(1, &e2) != CL_SUCCESS || memcmp(in, out, sizeof in) != 0) w->failures++;
    clReleaseEvent(e1);
    clReleaseEvent(e2);
    clReleaseCommandQueue(q);
    if (own) clReleaseContext(ctx);
  }
  return NULL;
}

static void *opener(void *arg) {
  (void)arg;
  struct timespec ts = {0, 20 * 1000000};
  nanosleep(&ts, NULL);
  clSetUserEventStatus(gate, CL_COMPLETE);
  return NULL;
}

START_TEST(test_many_threads) {
  cl_device_id dev = rt_device();
  shared_ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
  gate = clCreateUserEvent(shared_ctx, NULL);
  pthread_t t[NTHREADS], o;
  struct worker w[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    w[i] = (struct worker){i, 0};
    ck_assert_int_eq(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
  }
  pthread_create(&o, NULL, opener, NULL);
  for (int i = 0; i < NTHREADS; i++) {
    pthread_join(t[i], NULL);
    ck_assert_int_eq(w[i].failures, 0);
  }
  pthread_join(o, NULL);
  clReleaseEvent(gate);
  cl_uint rc;
  clGetContextInfo(shared_ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof rc, &rc, NULL);
  ck_assert_uint_eq(rc, 1); /* every child is gone */
  clReleaseContext(shared_ctx);
}
END_TEST

static void *retainer(void *arg) {
  cl_mem m = arg;
  for (int i = 0; i < 2000; i++) {
    clRetainMemObject(m);
    clReleaseMemObject(m);
  }
  return NULL;
}

START_TEST(test_refcounts_race) {
  cl_device_id dev = rt_device();
  cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
  cl_mem m = clCreateBuffer(c, 0, 64, NULL, NULL);
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++)
    pthread_create(&t[i], NULL, retainer, m);
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], NULL);
  cl_uint rc;
  clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, NULL);
  ck_assert_uint_eq(rc, 1);
  clReleaseMemObject(m);
  clReleaseContext(c);
}
END_TEST

int main(void) {
  stub_install();
  Suite *s = suite_create("runtime_threads");
  CU_ADD(s, test_many_threads);
  CU_ADD(s, test_refcounts_race);
  return cu_run(s);
}
