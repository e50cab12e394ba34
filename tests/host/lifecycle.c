/*
 * lifecycle.c - creates and releases every object type many times through
 * the ICD loader and checks reference counts on the way. Under the
 * sanitizer build the leak checker fails this program if a cycle leaks;
 * the same binary runs clean under valgrind in an ordinary build.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "lifecycle";

static cl_uint refcount(cl_int (*get)(void *, cl_uint, size_t, void *, size_t *), void *obj,
                        cl_uint param) {
  cl_uint n = 0;
  CHECK(get(obj, param, sizeof n, &n, NULL));
  return n;
}
#define REFS(fn, obj, param)                                                                       \
  refcount((cl_int(*)(void *, cl_uint, size_t, void *, size_t *))fn, obj, param)

static const char *src = "__kernel void k(__global int *p) { p[get_global_id(0)] += 1; }\n";

int main(void) {
  cl_device_id d = lsh_device();
  cl_int err;
  for (int round = 0; round < 20; round++) {
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    CHECK(err);
    CHECK(clRetainContext(ctx));
    if (REFS(clGetContextInfo, ctx, CL_CONTEXT_REFERENCE_COUNT) != 2)
      return fprintf(stderr, "lifecycle: context refcount\n"), 1;
    CHECK(clReleaseContext(ctx));
    cl_queue_properties qp[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q1 = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
    CHECK(err);
    cl_command_queue q2 = clCreateCommandQueueWithProperties(ctx, d, qp, &err);
    CHECK(err);
    int host[64] = {0};
    cl_mem b =
        clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    CHECK(err);
    cl_mem u = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    CHECK(err);
    cl_buffer_region r = {0, 32 * sizeof(int)};
    cl_mem sub = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK(err);
    cl_event ue = clCreateUserEvent(ctx, &err);
    CHECK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &d, "", NULL, NULL));
    cl_kernel k = clCreateKernel(prog, "k", &err);
    CHECK(err);
    cl_kernel k2 = clCloneKernel(k, &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof sub, &sub));
    size_t g = 32;
    cl_event launch, marker;
    CHECK(clEnqueueNDRangeKernel(q2, k, 1, NULL, &g, NULL, 1, &ue, &launch));
    CHECK(clEnqueueMarkerWithWaitList(q2, 1, &launch, &marker));
    CHECK(clSetUserEventStatus(ue, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &marker));
    int out[64];
    CHECK(clEnqueueReadBuffer(q1, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < 64; i++)
      if (out[i] != (i < 32 ? 1 : 0))
        return fprintf(stderr, "lifecycle: out[%d] = %d\n", i, out[i]), 1;
    CHECK(clReleaseEvent(launch));
    CHECK(clReleaseEvent(marker));
    CHECK(clReleaseEvent(ue));
    CHECK(clReleaseKernel(k2));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseMemObject(sub));
    CHECK(clReleaseMemObject(u));
    CHECK(clReleaseMemObject(b));
    CHECK(clFinish(q1));
    CHECK(clReleaseCommandQueue(q1));
    CHECK(clReleaseCommandQueue(q2));
    CHECK(clReleaseContext(ctx));
  }
  printf("lifecycle: 20 rounds of every object type created and released\n");
  return 0;
}
