/*
 * cpstreams.c - more command streams than command-processor threads: 16
 * host threads, each with its own queue (half in-order, half out-of-order),
 * each enqueueing several launches of a looping kernel that counts with
 * atomic_inc on a counter shared by every thread and on one of its own,
 * then a blocking read. Every count must be exact and the program must end:
 * streams waiting for a processor thread once made the running ones give
 * way before they ran a single work-group, forever. Run by cpstreams.sh
 * under forced switches and with one and two compute units too; it must
 * not depend on the settings it runs under. An alarm turns a hang into a
 * failure.
 */
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "cpstreams";

#define NTHREADS 16
#define NLAUNCH  3
#define NITEMS   4096
#define NLOCAL   64
#define ITERS    64
#define ALARM_S  240

static const char *source = "__kernel void count(__global uint *shared, __global uint *own,\n"
                            "                    uint iters) {\n"
                            "  uint x = (uint)get_global_id(0);\n"
                            "  for (uint k = 0; k < iters; k++) x = x * 1664525u + 1013904223u;\n"
                            "  atomic_inc(shared);\n"
                            "  atomic_inc(own);\n"
                            "  if (x == 0u) atomic_inc(own + 1); /* keeps the loop */\n"
                            "}\n";

static cl_context ctx;
static cl_device_id dev;
static cl_program prog;
static cl_mem shared;

struct worker {
  unsigned index;
  int failed;
};

static void hang(int sig) {
  (void)sig;
  static const char msg[] = "cpstreams: FAIL: not finished when the alarm rang (a hang)\n";
  if (write(2, msg, sizeof msg - 1) < 0) _exit(2);
  _exit(1);
}

/* In-order: each launch, then a blocking read of the thread's own counter,
 * which must show every launch so far. */
static int run_in_order(cl_command_queue q, cl_kernel k, cl_mem own, unsigned index) {
  size_t g = NITEMS, l = NLOCAL;
  int failed = 0;
  for (unsigned n = 1; n <= NLAUNCH; n++) {
    cl_uint c[2] = {0, 0};
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, own, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
    if (c[0] != n * NITEMS) {
      fprintf(stderr, "cpstreams: FAIL: thread %u (in-order) counted %u after launch %u, want %u\n",
              index, c[0], n, n * NITEMS);
      failed = 1;
    }
  }
  return failed;
}

/* Out-of-order: every launch at once, then a blocking read waiting on all. */
static int run_out_of_order(cl_command_queue q, cl_kernel k, cl_mem own, unsigned index) {
  size_t g = NITEMS, l = NLOCAL;
  cl_event ev[NLAUNCH];
  cl_uint c[2] = {0, 0};
  for (unsigned n = 0; n < NLAUNCH; n++)
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev[n]));
  CHECK(clEnqueueReadBuffer(q, own, CL_TRUE, 0, sizeof c, c, NLAUNCH, ev, NULL));
  for (unsigned n = 0; n < NLAUNCH; n++) {
    cl_int st = 1;
    CHECK(clGetEventInfo(ev[n], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    if (st != CL_COMPLETE) {
      fprintf(stderr, "cpstreams: FAIL: thread %u launch %u ended with status %d\n", index, n, st);
      return 1;
    }
    clReleaseEvent(ev[n]);
  }
  if (c[0] != NLAUNCH * NITEMS) {
    fprintf(stderr, "cpstreams: FAIL: thread %u (out-of-order) counted %u, want %u\n", index, c[0],
            NLAUNCH * NITEMS);
    return 1;
  }
  return 0;
}

static void *work(void *arg) {
  struct worker *w = arg;
  cl_int err;
  cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue q =
      clCreateCommandQueueWithProperties(ctx, dev, w->index % 2 ? ooo : NULL, &err);
  CHECK(err);
  cl_uint zero[2] = {0, 0};
  cl_mem own = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
  cl_kernel k = lsh_kernel(prog, "count");
  cl_uint iters = ITERS;
  CHECK(clSetKernelArg(k, 0, sizeof shared, &shared));
  CHECK(clSetKernelArg(k, 1, sizeof own, &own));
  CHECK(clSetKernelArg(k, 2, sizeof iters, &iters));
  w->failed =
      w->index % 2 ? run_out_of_order(q, k, own, w->index) : run_in_order(q, k, own, w->index);
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseMemObject(own));
  CHECK(clReleaseCommandQueue(q));
  return NULL;
}

int main(void) {
  signal(SIGALRM, hang);
  alarm(ALARM_S);
  cl_command_queue q;
  prog = lsh_build(source, "", &ctx, &q);
  dev = lsh_context_device(ctx);
  cl_uint zero = 0, total = 0;
  shared = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero);
  pthread_t t[NTHREADS];
  struct worker w[NTHREADS];
  for (unsigned i = 0; i < NTHREADS; i++) {
    w[i] = (struct worker){i, 0};
    if (pthread_create(&t[i], NULL, work, &w[i]) != 0) {
      fprintf(stderr, "cpstreams: cannot start thread %u\n", i);
      return 1;
    }
  }
  int failed = 0;
  for (unsigned i = 0; i < NTHREADS; i++) {
    pthread_join(t[i], NULL);
    failed |= w[i].failed;
  }
  CHECK(clEnqueueReadBuffer(q, shared, CL_TRUE, 0, sizeof total, &total, 0, NULL, NULL));
  if (total != NTHREADS * NLAUNCH * NITEMS) {
    fprintf(stderr, "cpstreams: FAIL: shared counter is %u, want %u\n", total,
            NTHREADS * NLAUNCH * NITEMS);
    failed = 1;
  }
  clReleaseMemObject(shared);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  if (!failed)
    printf("cpstreams: %u threads x %u launches of %u items counted exactly\n", NTHREADS, NLAUNCH,
           NITEMS);
  return failed;
}
