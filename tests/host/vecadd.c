/*
 * vecadd.c - the sample host program: an ordinary OpenCL application that
 * adds two vectors on the Lockstep device through the ICD loader and checks
 * every element. `make run` runs it; so does the test suite.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "vecadd";
#include <math.h>
#include <time.h>

static const char *source = "__kernel void vecadd(__global const float *a,\n"
                            "                     __global const float *b,\n"
                            "                     __global float *c, uint n) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  if (i < n)\n"
                            "    c[i] = a[i] + b[i];\n"
                            "}\n";

int main(int argc, char **argv) {
  cl_uint n = argc > 1 ? (cl_uint)strtoul(argv[1], NULL, 0) : 1u << 20;
  cl_device_id device = lsh_device();
  char dname[128];
  CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dname, dname, NULL));

  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
  CHECK(err);

  size_t bytes = (size_t)n * sizeof(float);
  float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
  for (cl_uint i = 0; i < n; i++) {
    a[i] = (float)i * 0.5f;
    b[i] = (float)(n - i) * 0.25f;
  }
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
  CHECK(err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
  CHECK(err);
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
  CHECK(err);

  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  CHECK(err);
  err = clBuildProgram(prog, 1, &device, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "vecadd: build failed (%d):\n%s\n", err, log);
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, "vecadd", &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof da, &da));
  CHECK(clSetKernelArg(k, 1, sizeof db, &db));
  CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));

  size_t local = 256, global = ((size_t)n + local - 1) / local * local;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));
  clock_gettime(CLOCK_MONOTONIC, &t1);

  cl_uint bad = 0;
  for (cl_uint i = 0; i < n; i++)
    if (c[i] != a[i] + b[i]) {
      if (bad < 5) fprintf(stderr, "vecadd: c[%u] = %g, want %g\n", i, c[i], a[i] + b[i]);
      bad++;
    }
  double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
  printf("vecadd on %s: %u elements, %u wrong, %.1f ms\n", dname, n, bad, ms);

  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(a);
  free(b);
  free(c);
  return bad == 0 ? 0 : 1;
}
