/*
 * host_prog.c - an ordinary OpenCL host program for the `lockstep debug --`
 * transcript tests: it reads its kernels from the file named on the command
 * line (so the debugger can tie the program to that file), builds a second
 * program from a string no file matches, and runs: scale on one queue, an
 * atomic counter kernel while a kernel on a second queue runs, and fill.
 * It knows nothing about the debugger and must stay that way.
 */
#include <unistd.h>

#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_prog";

static const char *fill_source = "__kernel void fill(__global int *out, int v) {\n"
                                 "  int gid = get_global_id(0);\n"
                                 "  out[gid] = v + gid;\n"
                                 "}\n";

static cl_program build(cl_context ctx, cl_device_id dev, const char *src) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
  return p;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "host_kernel.cl";
  cl_device_id dev = lsh_device();
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q1 = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);
  cl_command_queue q2 = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);
  char *src = lsh_read_file(path, 0, NULL);
  cl_program pa = build(ctx, dev, src);
  free(src);
  cl_program pb = build(ctx, dev, fill_source);

  /* scale: data[i] = +-(n * i * factor) */
  enum { N = 8, M = 16 };
  float data[N];
  for (int i = 0; i < N; i++)
    data[i] = (float)i;
  cl_mem dd =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
  CHECK(err);
  cl_kernel ks = clCreateKernel(pa, "scale", &err);
  CHECK(err);
  float factor = 2.0f;
  int n = 3;
  CHECK(clSetKernelArg(ks, 0, sizeof dd, &dd));
  CHECK(clSetKernelArg(ks, 1, sizeof factor, &factor));
  CHECK(clSetKernelArg(ks, 2, sizeof n, &n));
  size_t gs = N, ls = 4;
  CHECK(clEnqueueNDRangeKernel(q1, ks, 1, NULL, &gs, &ls, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q1, dd, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
  printf("scale:");
  for (int i = 0; i < N; i++)
    printf(" %g", data[i]);
  printf("\n");

  /* count on q1; while it runs (or is stopped), fill on q2 */
  int zero = 0, seen[M], filled[M];
  cl_mem dc =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
  CHECK(err);
  cl_mem dsn = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof seen, NULL, &err);
  CHECK(err);
  cl_mem df = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof filled, NULL, &err);
  CHECK(err);
  cl_kernel kc = clCreateKernel(pa, "count", &err);
  CHECK(err);
  CHECK(clSetKernelArg(kc, 0, sizeof dc, &dc));
  CHECK(clSetKernelArg(kc, 1, sizeof dsn, &dsn));
  cl_kernel kf = clCreateKernel(pb, "fill", &err);
  CHECK(err);
  int v = 100;
  CHECK(clSetKernelArg(kf, 0, sizeof df, &df));
  CHECK(clSetKernelArg(kf, 1, sizeof v, &v));
  size_t gm = M, lm = 4;
  cl_event ec;
  CHECK(clEnqueueNDRangeKernel(q1, kc, 1, NULL, &gm, &lm, 0, NULL, &ec));
  CHECK(clFlush(q1));
  usleep(1000 * 1000);
  CHECK(clEnqueueNDRangeKernel(q2, kf, 1, NULL, &gm, &lm, 0, NULL, NULL));
  CHECK(clFinish(q2));
  cl_int st;
  CHECK(clGetEventInfo(ec, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  printf("second queue finished while count was %s\n",
         st == CL_COMPLETE ? "complete" : "not complete");
  CHECK(clFinish(q1));
  int counter = 0;
  CHECK(clEnqueueReadBuffer(q1, dc, CL_TRUE, 0, sizeof counter, &counter, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q1, dsn, CL_TRUE, 0, sizeof seen, seen, 0, NULL, NULL));
  int mask = 0;
  for (int i = 0; i < M; i++)
    if (seen[i] >= 1 && seen[i] <= M) mask |= 1 << (seen[i] - 1);
  printf("counter = %d, distinct tickets = %s\n", counter, mask == (1 << M) - 1 ? "yes" : "no");

  /* fill again on q1 */
  v = 7;
  CHECK(clSetKernelArg(kf, 1, sizeof v, &v));
  CHECK(clEnqueueNDRangeKernel(q1, kf, 1, NULL, &gm, &lm, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q1, df, CL_TRUE, 0, sizeof filled, filled, 0, NULL, NULL));
  printf("fill: %d %d .. %d\n", filled[0], filled[1], filled[M - 1]);

  clReleaseEvent(ec);
  clReleaseKernel(ks);
  clReleaseKernel(kc);
  clReleaseKernel(kf);
  clReleaseMemObject(dd);
  clReleaseMemObject(dc);
  clReleaseMemObject(dsn);
  clReleaseMemObject(df);
  clReleaseProgram(pa);
  clReleaseProgram(pb);
  clReleaseCommandQueue(q1);
  clReleaseCommandQueue(q2);
  clReleaseContext(ctx);
  return 0;
}
