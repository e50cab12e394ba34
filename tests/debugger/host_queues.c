/*
 * host_queues.c - an ordinary OpenCL host program for the debugger's
 * several-launches test (queues.sh): N host threads (argv[1], default 4),
 * each with its own command queue, launch kernel `count` (256 work-items
 * in groups of 64: each one increments a counter atomically, then writes a
 * hash of its id) and wait for it; meanwhile the main thread runs kernel
 * `other` on a queue of its own to completion and says so. Every result is
 * compared with the host's own computation, and every counter must read
 * exactly 256: a work-item's side effects happen once, however often its
 * launch stopped.
 * It knows nothing about the debugger and must stay that way.
 */
#include <pthread.h>
#include <stdlib.h>

#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_queues";

static const char *source = "__kernel void count(__global uint *out, volatile __global uint *n,\n"
                            "                    uint seed) {\n"
                            "  uint i = get_global_id(0);\n"
                            "  uint v = i * 2654435761u + seed;\n"
                            "  atomic_inc(n);\n"
                            "  out[i] = v ^ (v >> 7);\n"
                            "}\n"
                            "__kernel void other(__global uint *out) {\n"
                            "  out[get_global_id(0)] = (uint)get_global_id(0) + 7u;\n"
                            "}\n";

enum { ITEMS = 256, LOCAL = 64, MAX_QUEUES = 16, OTHER_ITEMS = 4096 };

static cl_context ctx;
static cl_program prog;

struct job {
  unsigned seed;
  int ok;
};

static void *run_count(void *arg) {
  struct job *j = arg;
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, lsh_context_device(ctx), NULL, &err);
  CHECK(err);
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
  j->ok = n == ITEMS;
  for (cl_uint i = 0; i < ITEMS; i++) {
    cl_uint v = i * 2654435761u + j->seed;
    if (out[i] != (v ^ (v >> 7))) j->ok = 0;
  }
  printf("queue %u: %s (counter %u)\n", j->seed, j->ok ? "ok" : "WRONG", n);
  fflush(stdout);
  clReleaseKernel(k);
  clReleaseMemObject(d);
  clReleaseMemObject(c);
  clReleaseCommandQueue(q);
  return NULL;
}

/* Kernel `other` on a queue of the main thread's own, to completion. */
static int run_other(void) {
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, lsh_context_device(ctx), NULL, &err);
  CHECK(err);
  static cl_uint out[OTHER_ITEMS];
  cl_mem d = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL);
  cl_kernel k = lsh_kernel(prog, "other");
  CHECK(clSetKernelArg(k, 0, sizeof d, &d));
  size_t gs = OTHER_ITEMS;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, d, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  int ok = 1;
  for (cl_uint i = 0; i < OTHER_ITEMS; i++)
    ok &= out[i] == i + 7;
  printf("other: %s\n", ok ? "ok" : "WRONG");
  fflush(stdout);
  clReleaseKernel(k);
  clReleaseMemObject(d);
  clReleaseCommandQueue(q);
  return ok;
}

int main(int argc, char **argv) {
  int nq = argc > 1 ? atoi(argv[1]) : 4;
  if (nq < 1 || nq > MAX_QUEUES) {
    fprintf(stderr, "usage: host_queues [QUEUES], 1 to %d\n", MAX_QUEUES);
    return 2;
  }
  cl_command_queue q0;
  prog = lsh_build(source, "", &ctx, &q0);
  struct job jobs[MAX_QUEUES];
  pthread_t th[MAX_QUEUES];
  for (int t = 0; t < nq; t++) {
    jobs[t] = (struct job){(unsigned)t + 1, 0};
    if (pthread_create(&th[t], NULL, run_count, &jobs[t])) return 1;
  }
  int ok = run_other();
  for (int t = 0; t < nq; t++) {
    pthread_join(th[t], NULL);
    ok &= jobs[t].ok;
  }
  clReleaseCommandQueue(q0);
  clReleaseProgram(prog);
  clReleaseContext(ctx);
  return ok ? 0 : 1;
}
