/*
 * cpswitch.c - what users see of the command processor: several queues of
 * one and of two contexts running at once, with priorities
 * (cl_khr_priority_hints). Checks that a kernel counting with atomics
 * counts exactly once per work-item, that a short kernel on a high-priority
 * queue finishes before a long low-priority one enqueued first, that
 * profiling timestamps are ordered, and that every result equals the
 * uninterrupted computation. Run by cpswitch.sh under forced and random
 * switch points too. It must not depend on the switch settings it runs
 * under.
 */
#include <unistd.h>

#include "util/host_util.h"

#include <CL/cl_ext.h>

#define CHECK LSH_CHECK
const char *lsh_prog = "cpswitch";

static const char *source = "__kernel void count(__global uint *c, __global uint *out) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  atomic_inc(c);\n"
                            "  out[i] = (uint)i * 7u + 3u;\n"
                            "}\n"
                            "__kernel void spin(__global uint *out, uint iters) {\n"
                            "  uint x = (uint)get_global_id(0);\n"
                            "  for (uint k = 0; k < iters; k++) x = x * 1664525u + 1013904223u;\n"
                            "  out[get_global_id(0)] = x;\n"
                            "}\n"
                            "__kernel void mix(__global uint *a, uint salt) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  a[i] = (a[i] ^ salt) * 2654435761u + (uint)i;\n"
                            "}\n";

static int failures;
#define EXPECT(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "cpswitch: FAIL: " __VA_ARGS__);                                             \
      fputc('\n', stderr);                                                                         \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

struct ctx {
  cl_context c;
  cl_program p;
};

static struct ctx make_ctx(cl_device_id dev) {
  struct ctx x;
  cl_int err;
  x.c = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  x.p = clCreateProgramWithSource(x.c, 1, &source, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(x.p, 1, &dev, "", NULL, NULL));
  return x;
}

static cl_command_queue make_queue(struct ctx *x, cl_device_id dev, cl_queue_priority_khr prio) {
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
                                 CL_QUEUE_PRIORITY_KHR, prio, 0};
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(x->c, dev, props, &err);
  CHECK(err);
  return q;
}

static cl_ulong prof(cl_event e, cl_profiling_info what) {
  cl_ulong t = 0;
  CHECK(clGetEventProfilingInfo(e, what, sizeof t, &t, NULL));
  return t;
}

/* QUEUED <= SUBMIT <= START <= END <= COMPLETE. */
static void check_times(cl_event e, const char *what) {
  cl_ulong q = prof(e, CL_PROFILING_COMMAND_QUEUED), s = prof(e, CL_PROFILING_COMMAND_SUBMIT),
           b = prof(e, CL_PROFILING_COMMAND_START), n = prof(e, CL_PROFILING_COMMAND_END),
           c = prof(e, CL_PROFILING_COMMAND_COMPLETE);
  EXPECT(q <= s && s <= b && b <= n && n <= c,
         "%s: timestamps out of order: queued %llu submit %llu start %llu end %llu complete %llu",
         what, (unsigned long long)q, (unsigned long long)s, (unsigned long long)b,
         (unsigned long long)n, (unsigned long long)c);
}

static cl_uint spin_ref(cl_uint i, cl_uint iters) {
  cl_uint x = i;
  for (cl_uint k = 0; k < iters; k++)
    x = x * 1664525u + 1013904223u;
  return x;
}

/* Counting with atomics: exactly N, and every item's own store. */
static void test_count(struct ctx *x, cl_command_queue q, cl_uint n) {
  cl_int err;
  cl_uint zero = 0, c = 0;
  cl_uint *out = calloc(n, sizeof *out);
  cl_mem dc = clCreateBuffer(x->c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4, &zero, &err);
  CHECK(err);
  cl_mem dout = clCreateBuffer(x->c, CL_MEM_READ_WRITE, n * sizeof *out, NULL, &err);
  CHECK(err);
  cl_kernel k = clCreateKernel(x->p, "count", &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof dc, &dc));
  CHECK(clSetKernelArg(k, 1, sizeof dout, &dout));
  size_t global = n, local = 32;
  cl_event ev;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev));
  CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, 4, &c, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
  EXPECT(c == n, "count: counter is %u, want %u", c, n);
  cl_uint bad = 0;
  for (cl_uint i = 0; i < n; i++)
    bad += out[i] != i * 7u + 3u;
  EXPECT(bad == 0, "count: %u wrong stores", bad);
  check_times(ev, "count");
  clReleaseEvent(ev);
  clReleaseKernel(k);
  clReleaseMemObject(dc);
  clReleaseMemObject(dout);
  free(out);
}

/* A long low-priority kernel, then a short high-priority one: the short one
 * ends first, the long one still computes the right values. */
static void test_priority(struct ctx *x, cl_device_id dev) {
  cl_int err;
  cl_command_queue lo = make_queue(x, dev, CL_QUEUE_PRIORITY_LOW_KHR);
  cl_command_queue hi = make_queue(x, dev, CL_QUEUE_PRIORITY_HIGH_KHR);
  const cl_uint n = 64 * 64, iters = 16000;
  cl_uint *out = calloc(n, sizeof *out);
  cl_mem dout = clCreateBuffer(x->c, CL_MEM_READ_WRITE, n * sizeof *out, NULL, &err);
  CHECK(err);
  cl_kernel k = clCreateKernel(x->p, "spin", &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof dout, &dout));
  CHECK(clSetKernelArg(k, 1, sizeof iters, &iters));
  size_t global = n, local = 16;
  cl_event elong, eshort;
  CHECK(clEnqueueNDRangeKernel(lo, k, 1, NULL, &global, &local, 0, NULL, &elong));
  CHECK(clFlush(lo));
  cl_int st = CL_QUEUED;
  for (int ms = 0; st > CL_RUNNING && ms < 10000; ms++) { /* until the long kernel runs */
    CHECK(clGetEventInfo(elong, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    if (st > CL_RUNNING) usleep(1000);
  }
  EXPECT(st == CL_RUNNING, "priority: the long kernel is not running (status %d)", st);
  cl_uint zero = 0, c = 0;
  cl_mem dc = clCreateBuffer(x->c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4, &zero, &err);
  CHECK(err);
  cl_mem dsmall = clCreateBuffer(x->c, CL_MEM_READ_WRITE, 64 * 4, NULL, &err);
  CHECK(err);
  cl_kernel ks = clCreateKernel(x->p, "count", &err);
  CHECK(err);
  CHECK(clSetKernelArg(ks, 0, sizeof dc, &dc));
  CHECK(clSetKernelArg(ks, 1, sizeof dsmall, &dsmall));
  size_t gs = 64, ls = 32;
  CHECK(clEnqueueNDRangeKernel(hi, ks, 1, NULL, &gs, &ls, 0, NULL, &eshort));
  CHECK(clFinish(hi));
  CHECK(clGetEventInfo(elong, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  EXPECT(st != CL_COMPLETE, "priority: the long kernel already completed when the short one did");
  CHECK(clFinish(lo));
  CHECK(clEnqueueReadBuffer(lo, dout, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(hi, dc, CL_TRUE, 0, 4, &c, 0, NULL, NULL));
  EXPECT(c == 64, "priority: short kernel counted %u, want 64", c);
  cl_ulong ls0 = prof(elong, CL_PROFILING_COMMAND_START),
           le = prof(elong, CL_PROFILING_COMMAND_END);
  cl_ulong ss = prof(eshort, CL_PROFILING_COMMAND_START),
           se = prof(eshort, CL_PROFILING_COMMAND_END);
  EXPECT(se < le, "priority: short kernel ended at %llu, after the long one (%llu)",
         (unsigned long long)se, (unsigned long long)le);
  EXPECT(ls0 <= ss, "priority: long kernel started at %llu, after the short one (%llu)",
         (unsigned long long)ls0, (unsigned long long)ss);
  cl_uint bad = 0;
  for (cl_uint i = 0; i < n; i++)
    bad += out[i] != spin_ref(i, iters);
  EXPECT(bad == 0, "priority: the preempted kernel computed %u wrong values", bad);
  check_times(elong, "long kernel");
  check_times(eshort, "short kernel");
  printf("cpswitch: long kernel %.1f ms, short kernel %.3f ms inside it\n",
         (double)(le - ls0) / 1e6, (double)(se - ss) / 1e6);
  clReleaseEvent(elong);
  clReleaseEvent(eshort);
  clReleaseKernel(k);
  clReleaseKernel(ks);
  clReleaseMemObject(dout);
  clReleaseMemObject(dc);
  clReleaseMemObject(dsmall);
  clReleaseCommandQueue(lo);
  clReleaseCommandQueue(hi);
  free(out);
}

/* One queue's work for the concurrency test. */
struct job {
  cl_command_queue q;
  cl_mem buf;
  cl_uint *host, *want;
  cl_event ev[8];
  unsigned nev;
};

#define JN     2048
#define JSTEPS 4

static void job_start(struct job *j, struct ctx *x, cl_uint salt0) {
  cl_int err;
  j->host = malloc(JN * sizeof(cl_uint));
  j->want = malloc(JN * sizeof(cl_uint));
  for (cl_uint i = 0; i < JN; i++)
    j->host[i] = j->want[i] = i * 31u + salt0;
  for (cl_uint s = 0; s < JSTEPS; s++)
    for (cl_uint i = 0; i < JN; i++)
      j->want[i] = (j->want[i] ^ (salt0 + s)) * 2654435761u + i;
  j->buf = clCreateBuffer(x->c, CL_MEM_READ_WRITE, JN * sizeof(cl_uint), NULL, &err);
  CHECK(err);
  j->nev = 0;
  CHECK(clEnqueueWriteBuffer(j->q, j->buf, CL_FALSE, 0, JN * sizeof(cl_uint), j->host, 0, NULL,
                             &j->ev[j->nev++]));
  cl_kernel k = clCreateKernel(x->p, "mix", &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof j->buf, &j->buf));
  size_t global = JN, local = 32;
  for (cl_uint s = 0; s < JSTEPS; s++) {
    cl_uint salt = salt0 + s;
    CHECK(clSetKernelArg(k, 1, sizeof salt, &salt));
    CHECK(clEnqueueNDRangeKernel(j->q, k, 1, NULL, &global, &local, 0, NULL, &j->ev[j->nev++]));
  }
  clReleaseKernel(k);
  CHECK(clEnqueueReadBuffer(j->q, j->buf, CL_FALSE, 0, JN * sizeof(cl_uint), j->host, 0, NULL,
                            &j->ev[j->nev++]));
  CHECK(clFlush(j->q));
}

static void job_check(struct job *j, unsigned id) {
  CHECK(clFinish(j->q));
  cl_uint bad = 0;
  for (cl_uint i = 0; i < JN; i++)
    bad += j->host[i] != j->want[i];
  EXPECT(bad == 0, "concurrent queue %u: %u values differ from the uninterrupted run", id, bad);
  for (unsigned e = 0; e < j->nev; e++) {
    check_times(j->ev[e], "concurrent command");
    if (e > 0)
      EXPECT(prof(j->ev[e - 1], CL_PROFILING_COMMAND_END) <=
                 prof(j->ev[e], CL_PROFILING_COMMAND_START),
             "concurrent queue %u: command %u started before the previous one ended", id, e);
  }
  for (unsigned e = 0; e < j->nev; e++)
    clReleaseEvent(j->ev[e]);
  clReleaseMemObject(j->buf);
  free(j->host);
  free(j->want);
}

/* Five queues over two contexts, of all three priorities, at once. */
static void test_concurrent(struct ctx *x, struct ctx *y, cl_device_id dev) {
  static const cl_queue_priority_khr prios[5] = {
      CL_QUEUE_PRIORITY_LOW_KHR, CL_QUEUE_PRIORITY_MED_KHR, CL_QUEUE_PRIORITY_HIGH_KHR,
      CL_QUEUE_PRIORITY_MED_KHR, CL_QUEUE_PRIORITY_MED_KHR};
  struct job jobs[5];
  for (unsigned i = 0; i < 5; i++) {
    jobs[i].q = make_queue(i < 3 ? x : y, dev, prios[i]);
    job_start(&jobs[i], i < 3 ? x : y, 1000u * (i + 1));
  }
  for (unsigned i = 0; i < 5; i++) {
    job_check(&jobs[i], i);
    clReleaseCommandQueue(jobs[i].q);
  }
}

int main(void) {
  cl_device_id dev = lsh_device();
  struct ctx x = make_ctx(dev), y = make_ctx(dev);
  cl_command_queue q = make_queue(&x, dev, CL_QUEUE_PRIORITY_MED_KHR);
  test_count(&x, q, 8192);
  test_priority(&x, dev);
  test_concurrent(&x, &y, dev);
  cl_command_queue q2 = make_queue(&y, dev, CL_QUEUE_PRIORITY_LOW_KHR);
  test_count(&y, q2, 4096);
  clReleaseCommandQueue(q2);
  clReleaseCommandQueue(q);
  clReleaseProgram(x.p);
  clReleaseProgram(y.p);
  clReleaseContext(x.c);
  clReleaseContext(y.c);
  if (failures) return 1;
  printf("cpswitch: ok\n");
  return 0;
}
