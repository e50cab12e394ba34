/*
 * host_stops.c - an ordinary OpenCL host program for the debugger's
 * stopped-launch edge cases (stops.sh): `host_stops MODE [N]`.
 *   count N  N host threads, each with its own queue, launch kernel `count`
 *            (as host_queues does) and check the result and counter.
 *   exit N   as count, but the main thread reads a line from stdin first
 *            and then calls exit(3) without waiting for the launches.
 *   fault    one thread launches `count`; the main thread launches `bad`,
 *            which writes out of its buffer, and reports the error its
 *            event gets; then it checks count.
 *   spin N   N threads launch `spin`, which loops until the main thread
 *            has read a line from stdin and set the word it watches.
 *   shared   one kernel object `count`, its arguments set once, launched
 *            on two queues at once (both write the same buffer).
 *   hello N  kernel `hello` N times in a row, each printing a line.
 *   chatty   kernel `chatty` waits for a word a debugger sets (at a stop of
 *            kernel `opener`, launched meanwhile) and then its work-items
 *            print a line each, over a megabyte in all.
 * It knows nothing about the debugger and must stay that way.
 */
#include <pthread.h>
#include <stdlib.h>

#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_stops";

static const char *source = "__kernel void count(__global uint *out, volatile __global uint *n,\n"
                            "                    uint seed) {\n"
                            "  uint i = get_global_id(0);\n"
                            "  uint v = i * 2654435761u + seed;\n"
                            "  atomic_inc(n);\n"
                            "  out[i] = v ^ (v >> 7);\n"
                            "}\n"
                            "__kernel void bad(__global uint *out) {\n"
                            "  out[get_global_id(0) + 1000000u] = 1u;\n"
                            "}\n"
                            "__kernel void spin(__global uint *out, volatile __global uint *go) {\n"
                            "  uint s = 0;\n"
                            "  while (atomic_or(go, 0u) == 0u)\n"
                            "    s++;\n"
                            "  out[get_global_id(0)] = s + 7u - s;\n"
                            "}\n"
                            "__kernel void hello(uint n) {\n"
                            "  printf(\"hello %u\\n\", n);\n"
                            "}\n"
                            "__kernel void chatty(volatile __global uint *go) {\n"
                            "  while (atomic_or(go, 0u) == 0u)\n"
                            "    ;\n"
                            "  printf(\"chatty %5u: a line of output to fill a socket\\n\",\n"
                            "         (uint)get_global_id(0));\n"
                            "}\n"
                            "__kernel void opener(__global uint *go) {\n"
                            "  go[0] = go[0];\n"
                            "}\n";

enum { ITEMS = 256, LOCAL = 64, MAX_QUEUES = 16, SPIN_ITEMS = 64, CHATTY_ITEMS = 20000 };

static cl_context ctx;
static cl_program prog;
static cl_mem go;       /* spin: the kernels loop while it holds 0 */
static cl_uint go_word; /* its storage (CL_MEM_USE_HOST_PTR) */

struct job {
  unsigned seed;
  int ok;
};

static cl_command_queue new_queue(void) {
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, lsh_context_device(ctx), NULL, &err);
  CHECK(err);
  return q;
}

static int check_count(const cl_uint *out, cl_uint n, unsigned seed) {
  int ok = n == ITEMS;
  for (cl_uint i = 0; i < ITEMS; i++) {
    cl_uint v = i * 2654435761u + seed;
    if (out[i] != (v ^ (v >> 7))) ok = 0;
  }
  return ok;
}

static void *run_count(void *arg) {
  struct job *j = arg;
  cl_command_queue q = new_queue();
  cl_uint out[ITEMS], zero = 0, n = 0;
  cl_mem d = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL);
  cl_mem c = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero);
  cl_kernel k = lsh_kernel(prog, "count");
  CHECK(clSetKernelArg(k, 0, sizeof d, &d));
  CHECK(clSetKernelArg(k, 1, sizeof c, &c));
  CHECK(clSetKernelArg(k, 2, sizeof j->seed, &j->seed));
  size_t gs = ITEMS, ls = LOCAL;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &ls, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, d, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, c, CL_TRUE, 0, sizeof n, &n, 0, NULL, NULL));
  j->ok = check_count(out, n, j->seed);
  printf("queue %u: %s (counter %u)\n", j->seed, j->ok ? "ok" : "WRONG", n);
  fflush(stdout);
  clReleaseKernel(k);
  clReleaseMemObject(d);
  clReleaseMemObject(c);
  clReleaseCommandQueue(q);
  return NULL;
}

static void *run_spin(void *arg) {
  struct job *j = arg;
  cl_command_queue q = new_queue();
  cl_uint out[SPIN_ITEMS];
  cl_mem d = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL);
  cl_kernel k = lsh_kernel(prog, "spin");
  CHECK(clSetKernelArg(k, 0, sizeof d, &d));
  CHECK(clSetKernelArg(k, 1, sizeof go, &go));
  size_t gs = SPIN_ITEMS;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, d, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  j->ok = 1;
  for (cl_uint i = 0; i < SPIN_ITEMS; i++)
    j->ok &= out[i] == 7u;
  printf("spin %u: %s\n", j->seed, j->ok ? "ok" : "WRONG");
  fflush(stdout);
  clReleaseKernel(k);
  clReleaseMemObject(d);
  clReleaseCommandQueue(q);
  return NULL;
}

/* Kernel `bad` faults: its event must carry an error, not CL_COMPLETE. */
static int run_bad(void) {
  cl_command_queue q = new_queue();
  cl_mem d = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, 64 * sizeof(cl_uint), NULL);
  cl_kernel k = lsh_kernel(prog, "bad");
  CHECK(clSetKernelArg(k, 0, sizeof d, &d));
  size_t gs = 64;
  cl_event ev;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, NULL, 0, NULL, &ev));
  clFinish(q);
  cl_int st = 0;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  printf("bad: status %s\n", st < 0 ? "error" : "complete");
  fflush(stdout);
  clReleaseEvent(ev);
  clReleaseKernel(k);
  clReleaseMemObject(d);
  clReleaseCommandQueue(q);
  return st < 0;
}

/* Kernel `chatty` over CHATTY_ITEMS work-items, each printing a line once
 * the word at go is set. */
static void *run_chatty(void *arg) {
  (void)arg;
  cl_command_queue q = new_queue();
  cl_kernel k = lsh_kernel(prog, "chatty");
  CHECK(clSetKernelArg(k, 0, sizeof go, &go));
  size_t gs = CHATTY_ITEMS;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  printf("chatty: done\n");
  fflush(stdout);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  return NULL;
}

/* Kernel `opener` on the word chatty waits for (which stays 0: a debugger
 * may set it), while chatty runs on a thread of its own. */
static int run_opener(void) {
  go = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof go_word, &go_word);
  pthread_t t;
  if (pthread_create(&t, NULL, run_chatty, NULL)) return 0;
  cl_command_queue q = new_queue();
  cl_kernel k = lsh_kernel(prog, "opener");
  CHECK(clSetKernelArg(k, 0, sizeof go, &go));
  size_t gs = 1;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  pthread_join(t, NULL);
  printf("opener: done\n");
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  return 1;
}

/* Kernel `hello` n times, one after the other: each prints a line. */
static int run_hello(int n) {
  cl_command_queue q = new_queue();
  cl_kernel k = lsh_kernel(prog, "hello");
  for (cl_uint i = 0; i < (cl_uint)n; i++) {
    CHECK(clSetKernelArg(k, 0, sizeof i, &i));
    size_t gs = 1;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, NULL, 0, NULL, NULL));
    CHECK(clFinish(q));
  }
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  return 1;
}

/* One kernel object, launched on two queues at once. */
static int run_shared(void) {
  cl_command_queue q[2] = {new_queue(), new_queue()};
  cl_uint out[ITEMS], zero = 0, n = 0, seed = 5;
  cl_mem d = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL);
  cl_mem c = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero);
  cl_kernel k = lsh_kernel(prog, "count");
  CHECK(clSetKernelArg(k, 0, sizeof d, &d));
  CHECK(clSetKernelArg(k, 1, sizeof c, &c));
  CHECK(clSetKernelArg(k, 2, sizeof seed, &seed));
  size_t gs = ITEMS, ls = LOCAL;
  for (int i = 0; i < 2; i++) {
    CHECK(clEnqueueNDRangeKernel(q[i], k, 1, NULL, &gs, &ls, 0, NULL, NULL));
    CHECK(clFlush(q[i]));
  }
  for (int i = 0; i < 2; i++)
    CHECK(clFinish(q[i]));
  CHECK(clEnqueueReadBuffer(q[0], d, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q[0], c, CL_TRUE, 0, sizeof n, &n, 0, NULL, NULL));
  int ok = check_count(out, n / 2, seed) && n == 2 * ITEMS;
  printf("shared: %s (counter %u)\n", ok ? "ok" : "WRONG", n);
  fflush(stdout);
  clReleaseKernel(k);
  clReleaseMemObject(d);
  clReleaseMemObject(c);
  for (int i = 0; i < 2; i++)
    clReleaseCommandQueue(q[i]);
  return ok;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "count";
  int nq = argc > 2 ? atoi(argv[2]) : 1, hello = !strcmp(mode, "hello");
  if (nq < 1 || nq > (hello ? 1000 : MAX_QUEUES)) {
    fprintf(stderr, "usage: host_stops MODE [THREADS], 1 to %d\n", MAX_QUEUES);
    return 2;
  }
  cl_command_queue q0;
  prog = lsh_build(source, "", &ctx, &q0);
  if (!strcmp(mode, "shared")) return run_shared() ? 0 : 1;
  if (hello) return run_hello(nq) ? 0 : 1;
  if (!strcmp(mode, "chatty")) return run_opener() ? 0 : 1;
  struct job jobs[MAX_QUEUES];
  pthread_t th[MAX_QUEUES];
  int spin = !strcmp(mode, "spin");
  if (spin) go = lsh_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, sizeof go_word, &go_word);
  for (int t = 0; t < nq; t++) {
    jobs[t] = (struct job){(unsigned)t + 1, 0};
    if (pthread_create(&th[t], NULL, spin ? run_spin : run_count, &jobs[t])) return 1;
  }
  int ok = 1;
  char line[64];
  if (!strcmp(mode, "exit")) {
    if (!fgets(line, sizeof line, stdin)) return 4;
    printf("exiting\n");
    fflush(stdout);
    exit(3);
  }
  if (spin) { /* the spinning kernels end once a line comes */
    if (!fgets(line, sizeof line, stdin)) return 4;
    __atomic_store_n(&go_word, 1u, __ATOMIC_RELEASE);
  }
  if (!strcmp(mode, "fault")) ok = run_bad();

  for (int t = 0; t < nq; t++) {
    pthread_join(th[t], NULL);
    ok &= jobs[t].ok;
  }
  clReleaseCommandQueue(q0);
  clReleaseProgram(prog);
  clReleaseContext(ctx);
  return ok ? 0 : 1;
}
