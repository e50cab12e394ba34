/*
 * zero_range.c - an NDRange with a zero or a NULL global work size is a
 * no-op that succeeds on a device of OpenCL 2.1 or later: in 1, 2 and 3 dimensions,
 * with and without a local size, on in-order and out-of-order queues. Its
 * event completes after its wait list (a user event) and the output buffer
 * is untouched, and its command type is still CL_COMMAND_NDRANGE_KERNEL.
 * The device version is read, not assumed.
 */
#include "util/host_util.h"

#include <stdbool.h>

#define CHECK LSH_CHECK
const char *lsh_prog = "zero_range";

static const char *src = "__kernel void k(__global int *p) {\n"
                         "  p[(get_global_id(0) + get_global_id(1) + get_global_id(2)) % 64] = 7;\n"
                         "}\n";

static const struct {
  cl_uint dim;
  size_t global[3], local[3];
  bool with_local, null_global;
} ranges[] = {
    {1, {0, 1, 1}, {1, 1, 1}, false}, {2, {0, 0, 1}, {1, 1, 1}, false},
    {2, {1, 0, 1}, {1, 1, 1}, false}, {2, {0, 1, 1}, {1, 1, 1}, false},
    {3, {0, 0, 0}, {1, 1, 1}, false}, {3, {1, 0, 0}, {1, 1, 1}, false},
    {3, {0, 1, 0}, {1, 1, 1}, false}, {3, {0, 0, 1}, {1, 1, 1}, false},
    {3, {0, 1, 1}, {1, 1, 1}, false}, {3, {1, 0, 1}, {1, 1, 1}, false},
    {3, {1, 1, 0}, {1, 1, 1}, false}, {3, {4, 4, 0}, {1, 1, 1}, false},
    {1, {0, 1, 1}, {8, 1, 1}, true},  {2, {0, 8, 1}, {4, 2, 1}, true},
    {1, {0}, {1, 1, 1}, false, true}, {2, {0}, {1, 1, 1}, false, true},
    {3, {0}, {1, 1, 1}, false, true}, {2, {0}, {4, 2, 1}, true, true},
};

/* The device's OpenCL version as major * 10 + minor. */
static int device_version(cl_device_id d) {
  char v[128] = "";
  CHECK(clGetDeviceInfo(d, CL_DEVICE_VERSION, sizeof v, v, NULL));
  int major = 0, minor = 0;
  if (sscanf(v, "OpenCL %d.%d", &major, &minor) != 2) {
    fprintf(stderr, "zero_range: cannot read the version in \"%s\"\n", v);
    exit(1);
  }
  return major * 10 + minor;
}

static int run_on(cl_context ctx, cl_device_id d, cl_kernel k, cl_mem m,
                  cl_command_queue_properties props) {
  cl_int err;
  cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, props, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, qp, &err);
  CHECK(err);
  int failed = 0;
  for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
    cl_event ue = clCreateUserEvent(ctx, &err);
    CHECK(err);
    cl_event ev;
    err = clEnqueueNDRangeKernel(q, k, ranges[i].dim, NULL,
                                 ranges[i].null_global ? NULL : ranges[i].global,
                                 ranges[i].with_local ? ranges[i].local : NULL, 1, &ue, &ev);
    if (err != CL_SUCCESS) {
      fprintf(stderr, "zero_range: range %zu (props %#lx): %d\n", i, (unsigned long)props, err);
      CHECK(clSetUserEventStatus(ue, CL_COMPLETE));
      CHECK(clReleaseEvent(ue));
      failed++;
      continue;
    }
    cl_command_type type;
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    if (type != CL_COMMAND_NDRANGE_KERNEL) {
      fprintf(stderr, "zero_range: range %zu has command type %#x\n", i, type);
      failed++;
    }
    cl_int st;
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    if (st != CL_QUEUED && st != CL_SUBMITTED) {
      fprintf(stderr, "zero_range: range %zu has status %d before its wait list\n", i, st);
      failed++;
    }
    CHECK(clSetUserEventStatus(ue, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &ev));
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    if (st != CL_COMPLETE) {
      fprintf(stderr, "zero_range: range %zu ended with status %d\n", i, st);
      failed++;
    }
    CHECK(clReleaseEvent(ev));
    CHECK(clReleaseEvent(ue));
  }
  CHECK(clFinish(q));
  int *out =
      clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 64 * sizeof(int), 0, NULL, NULL, &err);
  CHECK(err);
  for (int i = 0; i < 64; i++)
    if (out[i] != -1) {
      fprintf(stderr, "zero_range: out[%d] = %d: a work-item ran\n", i, out[i]);
      failed++;
      break;
    }
  CHECK(clEnqueueUnmapMemObject(q, m, out, 0, NULL, NULL));
  CHECK(clReleaseCommandQueue(q));
  return failed;
}

int main(void) {
  cl_device_id d = lsh_device();
  if (device_version(d) < 21) {
    printf("zero_range: the device is older than OpenCL 2.1; nothing to check\n");
    return 0;
  }
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  CHECK(err);
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &d, "", NULL, NULL));
  cl_kernel k = lsh_kernel(p, "k");
  cl_mem m = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 64 * sizeof(int), NULL);
  cl_command_queue fq = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
  CHECK(err);
  int minus_one = -1;
  CHECK(
      clEnqueueFillBuffer(fq, m, &minus_one, sizeof minus_one, 0, 64 * sizeof(int), 0, NULL, NULL));
  CHECK(clFinish(fq));
  CHECK(clReleaseCommandQueue(fq));
  CHECK(clSetKernelArg(k, 0, sizeof m, &m));
  int failed = run_on(ctx, d, k, m, 0);
  failed += run_on(ctx, d, k, m, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseContext(ctx));
  if (failed) return fprintf(stderr, "zero_range: %d failures\n", failed), 1;
  printf("zero_range: every zero-sized range succeeded as a no-op\n");
  return 0;
}
