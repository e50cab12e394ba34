/*
 * ooo.c - an out-of-order queue runs commands that do not wait for each
 * other at the same time (their [START, END] profiling intervals overlap),
 * while an in-order queue runs the same two kernels one after the other; a
 * wait list on the out-of-order queue still orders the dependent command.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "ooo";

static const char *src = "__kernel void spin(__global float *out, int iters) {\n"
                         "  size_t i = get_global_id(0);\n"
                         "  float x = (float)i;\n"
                         "  for (int k = 0; k < iters; k++)\n"
                         "    x = x * 0.999f + 1.0f;\n"
                         "  out[i] = x;\n"
                         "}\n";

static void times(cl_event e, cl_ulong *start, cl_ulong *end) {
  CHECK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof *start, start, NULL));
  CHECK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof *end, end, NULL));
}

/* Runs two independent kernels (and, with dep, a third waiting on the
 * first) on q; returns 1 when the first two overlapped in time. */
static int run(cl_context ctx, cl_command_queue q, cl_kernel k, cl_mem a, cl_mem b, int dep) {
  size_t g = 4096, l = 64;
  cl_event e[3];
  CHECK(clSetKernelArg(k, 0, sizeof a, &a));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &e[0]));
  CHECK(clSetKernelArg(k, 0, sizeof b, &b));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &e[1]));
  if (dep) {
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, &e[0], &e[2]));
  }
  CHECK(clFinish(q));
  cl_ulong s0, e0, s1, e1;
  times(e[0], &s0, &e0);
  times(e[1], &s1, &e1);
  if (dep) {
    cl_ulong s2, e2;
    times(e[2], &s2, &e2);
    if (s2 < e0) {
      fprintf(stderr, "ooo: a command started before the event it waits for ended\n");
      exit(1);
    }
    clReleaseEvent(e[2]);
  }
  clReleaseEvent(e[0]);
  clReleaseEvent(e[1]);
  return s0 < e1 && s1 < e0;
}

int main(void) {
  cl_device_id d = lsh_device();
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  CHECK(err);
  cl_queue_properties ooo_props[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
  cl_queue_properties in_props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue ooo = clCreateCommandQueueWithProperties(ctx, d, ooo_props, &err);
  CHECK(err);
  cl_command_queue ino = clCreateCommandQueueWithProperties(ctx, d, in_props, &err);
  CHECK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(prog, 1, &d, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prog, "spin", &err);
  CHECK(err);
  int iters = 20000; /* long enough to overlap on the native engine too */
  CHECK(clSetKernelArg(k, 1, sizeof iters, &iters));
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096 * sizeof(float), NULL, &err);
  CHECK(err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096 * sizeof(float), NULL, &err);
  CHECK(err);

  int in_order_overlap = run(ctx, ino, k, a, b, 0);
  int ooo_overlap = run(ctx, ooo, k, a, b, 1);
  printf("ooo: in-order overlap %d, out-of-order overlap %d\n", in_order_overlap, ooo_overlap);

  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(ooo);
  clReleaseCommandQueue(ino);
  clReleaseContext(ctx);
  return (!in_order_overlap && ooo_overlap) ? 0 : 1;
}
