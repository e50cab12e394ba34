/*
 * refcounts.c - a call rejected with an error leaves every reference count
 * unchanged. For a table of entry points, each given a handle of the wrong
 * type (or another invalid argument after valid handles), it reads the
 * CL_*_REFERENCE_COUNT of every live object before and after the call and
 * checks the call's exact error code. Runs through the real ICD loader.
 */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include "util/host_util.h"

#include <CL/cl_gl.h>

#define CHECK LSH_CHECK
const char *lsh_prog = "refcounts";

static const char *src = "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }\n";

static struct {
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue q;
  cl_mem m, sub;
  cl_program p;
  cl_kernel k;
  cl_event ue, ev;
  cl_command_queue dq; /* an on-device queue */
} g;

static cl_int err;

/* Each case is one failing call; its value is the call's error code. */
#define CASE(fn, expr)                                                                             \
  static cl_int fn(void) {                                                                         \
    err = CL_SUCCESS;                                                                              \
    return (expr);                                                                                 \
  }
/* The error code of a call that returns an object (NULL expected). */
#define ERR_OF(call) ((call) ? CL_SUCCESS : err)

static cl_buffer_region region = {0, 64};
static cl_buffer_region bad_region = {0, 1 << 20};
static const char *names[] = {"h.h"};
static const size_t len = 4;
static const unsigned char junk[4] = {1, 2, 3, 4};
static size_t gsize = 16;
static int host[64];

CASE(queue_wrong_ctx,
     ERR_OF(clCreateCommandQueueWithProperties((cl_context)g.q, g.dev, NULL, &err)))
CASE(queue_wrong_dev,
     ERR_OF(clCreateCommandQueueWithProperties(g.ctx, (cl_device_id)g.m, NULL, &err)))
CASE(queue_bad_props,
     ERR_OF(clCreateCommandQueue(g.ctx, g.dev, (cl_command_queue_properties)1 << 40, &err)))
CASE(buffer_wrong_ctx, ERR_OF(clCreateBuffer((cl_context)g.m, CL_MEM_READ_WRITE, 64, NULL, &err)))
CASE(buffer_bad_flags,
     ERR_OF(clCreateBuffer(g.ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, &err)))
CASE(buffer_bad_host_ptr, ERR_OF(clCreateBuffer(g.ctx, CL_MEM_USE_HOST_PTR, 64, NULL, &err)))
CASE(sub_wrong_mem,
     ERR_OF(clCreateSubBuffer((cl_mem)g.k, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err)))
CASE(sub_bad_region,
     ERR_OF(clCreateSubBuffer(g.m, 0, CL_BUFFER_CREATE_TYPE_REGION, &bad_region, &err)))
CASE(sub_of_sub, ERR_OF(clCreateSubBuffer(g.sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err)))
CASE(pipe_wrong_ctx, ERR_OF(clCreatePipe((cl_context)g.p, 0, 4, 4, NULL, &err)))
CASE(image_wrong_ctx, ERR_OF(clCreateImage((cl_context)g.k, 0, NULL, NULL, NULL, &err)))
CASE(source_wrong_ctx, ERR_OF(clCreateProgramWithSource((cl_context)g.p, 1, &src, NULL, &err)))
CASE(binary_wrong_dev, ERR_OF(clCreateProgramWithBinary(g.ctx, 1, (cl_device_id *)&g.m, &len,
                                                        (const unsigned char **)&junk, NULL, &err)))
CASE(binary_junk, ERR_OF(clCreateProgramWithBinary(g.ctx, 1, &g.dev, &len,
                                                   (const unsigned char *[]){junk}, NULL, &err)))
CASE(link_wrong_program,
     ERR_OF(clLinkProgram(g.ctx, 1, &g.dev, "", 1, (cl_program *)&g.k, NULL, NULL, &err)))
CASE(link_wrong_ctx,
     ERR_OF(clLinkProgram((cl_context)g.q, 1, &g.dev, "", 1, &g.p, NULL, NULL, &err)))
CASE(link_executable, ERR_OF(clLinkProgram(g.ctx, 1, &g.dev, "", 1, &g.p, NULL, NULL, &err)))
CASE(compile_wrong_header,
     clCompileProgram(g.p, 1, &g.dev, "", 1, (cl_program *)&g.m, names, NULL, NULL))
CASE(build_wrong_program, clBuildProgram((cl_program)g.ctx, 1, &g.dev, "", NULL, NULL))
CASE(build_with_kernels, clBuildProgram(g.p, 1, &g.dev, "", NULL, NULL))
CASE(kernel_wrong_program, ERR_OF(clCreateKernel((cl_program)g.k, "k", &err)))
CASE(kernel_bad_name, ERR_OF(clCreateKernel(g.p, "nope", &err)))
CASE(kernels_too_few, clCreateKernelsInProgram(g.p, 0, (cl_kernel[1]){0}, NULL))
CASE(clone_wrong_kernel, ERR_OF(clCloneKernel((cl_kernel)g.p, &err)))
CASE(arg_wrong_mem, clSetKernelArg(g.k, 0, sizeof(cl_mem), (cl_mem[]){(cl_mem)g.q}))
CASE(arg_bad_index, clSetKernelArg(g.k, 5, sizeof(cl_mem), &g.m))
CASE(launch_wrong_queue,
     clEnqueueNDRangeKernel((cl_command_queue)g.ctx, g.k, 1, NULL, &gsize, NULL, 0, NULL, NULL))
CASE(launch_wrong_kernel,
     clEnqueueNDRangeKernel(g.q, (cl_kernel)g.p, 1, NULL, &gsize, NULL, 0, NULL, NULL))
CASE(launch_wrong_event,
     clEnqueueNDRangeKernel(g.q, g.k, 1, NULL, &gsize, NULL, 1, (cl_event *)&g.m, NULL))
CASE(launch_bad_dim, clEnqueueNDRangeKernel(g.q, g.k, 4, NULL, &gsize, NULL, 0, NULL, NULL))
CASE(task_wrong_event, clEnqueueTask(g.q, g.k, 1, (cl_event *)&g.p, NULL))
CASE(read_wrong_mem, clEnqueueReadBuffer(g.q, (cl_mem)g.k, CL_TRUE, 0, 64, host, 0, NULL, NULL))
CASE(read_wrong_event,
     clEnqueueReadBuffer(g.q, g.m, CL_FALSE, 0, 64, host, 1, (cl_event *)&g.q, NULL))
CASE(read_out_of_range, clEnqueueReadBuffer(g.q, g.m, CL_TRUE, 0, 1 << 20, host, 0, NULL, NULL))
CASE(write_wrong_event,
     clEnqueueWriteBuffer(g.q, g.m, CL_FALSE, 0, 64, host, 1, (cl_event *)&g.ctx, NULL))
CASE(copy_wrong_mem, clEnqueueCopyBuffer(g.q, g.m, (cl_mem)g.p, 0, 0, 64, 0, NULL, NULL))
CASE(fill_wrong_event, clEnqueueFillBuffer(g.q, g.m, host, 4, 0, 64, 1, (cl_event *)&g.k, NULL))
CASE(map_wrong_event, ERR_OF(clEnqueueMapBuffer(g.q, g.m, CL_FALSE, CL_MAP_READ, 0, 64, 1,
                                                (cl_event *)&g.m, NULL, &err)))
CASE(unmap_not_mapped, clEnqueueUnmapMemObject(g.q, g.m, host, 0, NULL, NULL))
CASE(migrate_wrong_mem, clEnqueueMigrateMemObjects(g.q, 1, (cl_mem *)&g.k, 0, 0, NULL, NULL))
CASE(marker_wrong_event, clEnqueueMarkerWithWaitList(g.q, 1, (cl_event *)&g.k, NULL))
CASE(barrier_wrong_queue, clEnqueueBarrierWithWaitList((cl_command_queue)g.m, 0, NULL, NULL))
CASE(user_event_wrong_ctx, ERR_OF(clCreateUserEvent((cl_context)g.q, &err)))
CASE(set_status_not_user, clSetUserEventStatus(g.ev, CL_COMPLETE))
CASE(callback_wrong_event, clSetEventCallback((cl_event)g.m, CL_COMPLETE, NULL, NULL))
CASE(wait_wrong_event, clWaitForEvents(1, (cl_event *)&g.k))
CASE(dtor_wrong_mem, clSetMemObjectDestructorCallback((cl_mem)g.ctx, NULL, NULL))
CASE(ctx_dtor_wrong_ctx, clSetContextDestructorCallback((cl_context)g.m, NULL, NULL))
CASE(sampler_wrong_ctx, ERR_OF(clCreateSamplerWithProperties((cl_context)g.q, NULL, &err)))
CASE(gl_buffer, ERR_OF(clCreateFromGLBuffer(g.ctx, CL_MEM_READ_WRITE, 1, &err)))
CASE(svm_memcpy_wrong_queue,
     clEnqueueSVMMemcpy((cl_command_queue)g.k, CL_TRUE, host, host + 16, 4, 0, NULL, NULL))
CASE(launch_on_device_queue,
     clEnqueueNDRangeKernel(g.dq, g.k, 1, NULL, &gsize, NULL, 0, NULL, NULL))
CASE(read_on_device_queue, clEnqueueReadBuffer(g.dq, g.m, CL_TRUE, 0, 64, host, 0, NULL, NULL))
CASE(dq_too_big,
     ERR_OF(clCreateCommandQueueWithProperties(
         g.ctx, g.dev,
         (cl_queue_properties[]){CL_QUEUE_PROPERTIES,
                                 CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                 CL_QUEUE_SIZE, 1u << 31, 0},
         &err)))
CASE(default_dq_host_queue, clSetDefaultDeviceCommandQueue(g.ctx, g.dev, g.q))
CASE(read_rect_wrong_event,
     clEnqueueReadBufferRect(g.q, g.m, CL_FALSE, (size_t[]){0, 0, 0}, (size_t[]){0, 0, 0},
                             (size_t[]){4, 1, 1}, 0, 0, 0, 0, host, 1, (cl_event *)&g.p, NULL))
CASE(copy_rect_wrong_mem,
     clEnqueueCopyBufferRect(g.q, (cl_mem)g.ue, g.m, (size_t[]){0, 0, 0}, (size_t[]){0, 0, 0},
                             (size_t[]){4, 1, 1}, 0, 0, 0, 0, 0, NULL, NULL))
CASE(wait_events_wrong_event, clEnqueueWaitForEvents(g.q, 1, (cl_event *)&g.sub))
CASE(marker_wrong_queue, clEnqueueMarker((cl_command_queue)g.sub, NULL))
CASE(native_wrong_mem,
     clEnqueueNativeKernel(g.q, NULL, NULL, 0, 1, (cl_mem *)&g.k, NULL, 0, NULL, NULL))
CASE(wg_info_wrong_device,
     clGetKernelWorkGroupInfo(g.k, (cl_device_id)g.m, CL_KERNEL_WORK_GROUP_SIZE, sizeof(size_t),
                              host, NULL))
CASE(exec_info_wrong_kernel,
     clSetKernelExecInfo((cl_kernel)g.m, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void *), host))
CASE(retain_wrong_ctx, clRetainContext((cl_context)g.q))
CASE(retain_wrong_queue, clRetainCommandQueue((cl_command_queue)g.ctx))
CASE(retain_wrong_mem, clRetainMemObject((cl_mem)g.ev))
CASE(retain_wrong_program, clRetainProgram((cl_program)g.k))
CASE(retain_wrong_kernel, clRetainKernel((cl_kernel)g.p))
CASE(retain_wrong_event, clRetainEvent((cl_event)g.m))
CASE(release_wrong_ctx, clReleaseContext((cl_context)g.ev))
CASE(release_wrong_queue, clReleaseCommandQueue((cl_command_queue)g.p))
CASE(release_wrong_mem, clReleaseMemObject((cl_mem)g.q))
CASE(release_wrong_program, clReleaseProgram((cl_program)g.ctx))
CASE(release_wrong_kernel, clReleaseKernel((cl_kernel)g.ue))
CASE(release_wrong_event, clReleaseEvent((cl_event)g.k))

static const struct {
  const char *name;
  cl_int (*run)(void);
  cl_int want;
} cases[] = {
    {"clCreateCommandQueueWithProperties(queue as context)", queue_wrong_ctx, CL_INVALID_CONTEXT},
    {"clCreateCommandQueueWithProperties(buffer as device)", queue_wrong_dev, CL_INVALID_DEVICE},
    {"clCreateCommandQueue(unknown property)", queue_bad_props, CL_INVALID_VALUE},
    {"clCreateBuffer(buffer as context)", buffer_wrong_ctx, CL_INVALID_CONTEXT},
    {"clCreateBuffer(read-only and write-only)", buffer_bad_flags, CL_INVALID_VALUE},
    {"clCreateBuffer(USE_HOST_PTR, no pointer)", buffer_bad_host_ptr, CL_INVALID_HOST_PTR},
    {"clCreateSubBuffer(kernel as buffer)", sub_wrong_mem, CL_INVALID_MEM_OBJECT},
    {"clCreateSubBuffer(region outside)", sub_bad_region, CL_INVALID_VALUE},
    {"clCreateSubBuffer(of a sub-buffer)", sub_of_sub, CL_INVALID_MEM_OBJECT},
    {"clCreatePipe(program as context)", pipe_wrong_ctx, CL_INVALID_CONTEXT},
    {"clCreateImage(kernel as context)", image_wrong_ctx, CL_INVALID_CONTEXT},
    {"clCreateProgramWithSource(program as context)", source_wrong_ctx, CL_INVALID_CONTEXT},
    {"clCreateProgramWithBinary(buffer as device)", binary_wrong_dev, CL_INVALID_DEVICE},
    {"clCreateProgramWithBinary(junk)", binary_junk, CL_INVALID_BINARY},
    {"clLinkProgram(kernel as program)", link_wrong_program, CL_INVALID_PROGRAM},
    {"clLinkProgram(queue as context)", link_wrong_ctx, CL_INVALID_CONTEXT},
    {"clLinkProgram(an executable)", link_executable, CL_INVALID_OPERATION},
    {"clCompileProgram(buffer as header)", compile_wrong_header, CL_INVALID_PROGRAM},
    {"clBuildProgram(context as program)", build_wrong_program, CL_INVALID_PROGRAM},
    {"clBuildProgram(program with kernels)", build_with_kernels, CL_INVALID_OPERATION},
    {"clCreateKernel(kernel as program)", kernel_wrong_program, CL_INVALID_PROGRAM},
    {"clCreateKernel(unknown name)", kernel_bad_name, CL_INVALID_KERNEL_NAME},
    {"clCreateKernelsInProgram(too few)", kernels_too_few, CL_INVALID_VALUE},
    {"clCloneKernel(program as kernel)", clone_wrong_kernel, CL_INVALID_KERNEL},
    {"clSetKernelArg(queue as buffer)", arg_wrong_mem, CL_INVALID_MEM_OBJECT},
    {"clSetKernelArg(index past the last)", arg_bad_index, CL_INVALID_ARG_INDEX},
    {"clEnqueueNDRangeKernel(context as queue)", launch_wrong_queue, CL_INVALID_COMMAND_QUEUE},
    {"clEnqueueNDRangeKernel(program as kernel)", launch_wrong_kernel, CL_INVALID_KERNEL},
    {"clEnqueueNDRangeKernel(buffer as event)", launch_wrong_event, CL_INVALID_EVENT_WAIT_LIST},
    {"clEnqueueNDRangeKernel(4 dimensions)", launch_bad_dim, CL_INVALID_WORK_DIMENSION},
    {"clEnqueueTask(program as event)", task_wrong_event, CL_INVALID_EVENT_WAIT_LIST},
    {"clEnqueueReadBuffer(kernel as buffer)", read_wrong_mem, CL_INVALID_MEM_OBJECT},
    {"clEnqueueReadBuffer(queue as event)", read_wrong_event, CL_INVALID_EVENT_WAIT_LIST},
    {"clEnqueueReadBuffer(out of range)", read_out_of_range, CL_INVALID_VALUE},
    {"clEnqueueWriteBuffer(context as event)", write_wrong_event, CL_INVALID_EVENT_WAIT_LIST},
    {"clEnqueueCopyBuffer(program as buffer)", copy_wrong_mem, CL_INVALID_MEM_OBJECT},
    {"clEnqueueFillBuffer(kernel as event)", fill_wrong_event, CL_INVALID_EVENT_WAIT_LIST},
    {"clEnqueueMapBuffer(buffer as event)", map_wrong_event, CL_INVALID_EVENT_WAIT_LIST},
    {"clEnqueueUnmapMemObject(not mapped)", unmap_not_mapped, CL_INVALID_VALUE},
    {"clEnqueueMigrateMemObjects(kernel as buffer)", migrate_wrong_mem, CL_INVALID_MEM_OBJECT},
    {"clEnqueueMarkerWithWaitList(kernel as event)", marker_wrong_event,
     CL_INVALID_EVENT_WAIT_LIST},
    {"clEnqueueBarrierWithWaitList(buffer as queue)", barrier_wrong_queue,
     CL_INVALID_COMMAND_QUEUE},
    {"clCreateUserEvent(queue as context)", user_event_wrong_ctx, CL_INVALID_CONTEXT},
    {"clSetUserEventStatus(a command's event)", set_status_not_user, CL_INVALID_EVENT},
    {"clSetEventCallback(buffer as event)", callback_wrong_event, CL_INVALID_EVENT},
    {"clWaitForEvents(kernel as event)", wait_wrong_event, CL_INVALID_EVENT},
    {"clSetMemObjectDestructorCallback(context as buffer)", dtor_wrong_mem, CL_INVALID_MEM_OBJECT},
    {"clSetContextDestructorCallback(buffer as context)", ctx_dtor_wrong_ctx, CL_INVALID_CONTEXT},
    {"clCreateSamplerWithProperties(queue as context)", sampler_wrong_ctx, CL_INVALID_CONTEXT},
    {"clCreateFromGLBuffer(no GL sharing)", gl_buffer, CL_INVALID_CONTEXT},
    {"clEnqueueSVMMemcpy(kernel as queue)", svm_memcpy_wrong_queue, CL_INVALID_COMMAND_QUEUE},
    {"clEnqueueNDRangeKernel(on-device queue)", launch_on_device_queue, CL_INVALID_COMMAND_QUEUE},
    {"clEnqueueReadBuffer(on-device queue)", read_on_device_queue, CL_INVALID_COMMAND_QUEUE},
    {"clCreateCommandQueueWithProperties(on-device, too big)", dq_too_big,
     CL_INVALID_QUEUE_PROPERTIES},
    {"clSetDefaultDeviceCommandQueue(host queue)", default_dq_host_queue, CL_INVALID_COMMAND_QUEUE},
    {"clEnqueueReadBufferRect(program as event)", read_rect_wrong_event,
     CL_INVALID_EVENT_WAIT_LIST},
    {"clEnqueueCopyBufferRect(user event as buffer)", copy_rect_wrong_mem, CL_INVALID_MEM_OBJECT},
    {"clEnqueueWaitForEvents(buffer as event)", wait_events_wrong_event, CL_INVALID_EVENT},
    {"clEnqueueMarker(buffer as queue)", marker_wrong_queue, CL_INVALID_COMMAND_QUEUE},
    {"clEnqueueNativeKernel(kernel as buffer)", native_wrong_mem, CL_INVALID_OPERATION},
    {"clGetKernelWorkGroupInfo(buffer as device)", wg_info_wrong_device, CL_INVALID_DEVICE},
    {"clSetKernelExecInfo(buffer as kernel)", exec_info_wrong_kernel, CL_INVALID_KERNEL},
    {"clRetainContext(queue)", retain_wrong_ctx, CL_INVALID_CONTEXT},
    {"clRetainCommandQueue(context)", retain_wrong_queue, CL_INVALID_COMMAND_QUEUE},
    {"clRetainMemObject(event)", retain_wrong_mem, CL_INVALID_MEM_OBJECT},
    {"clRetainProgram(kernel)", retain_wrong_program, CL_INVALID_PROGRAM},
    {"clRetainKernel(program)", retain_wrong_kernel, CL_INVALID_KERNEL},
    {"clRetainEvent(buffer)", retain_wrong_event, CL_INVALID_EVENT},
    {"clReleaseContext(event)", release_wrong_ctx, CL_INVALID_CONTEXT},
    {"clReleaseCommandQueue(program)", release_wrong_queue, CL_INVALID_COMMAND_QUEUE},
    {"clReleaseMemObject(queue)", release_wrong_mem, CL_INVALID_MEM_OBJECT},
    {"clReleaseProgram(context)", release_wrong_program, CL_INVALID_PROGRAM},
    {"clReleaseKernel(user event)", release_wrong_kernel, CL_INVALID_KERNEL},
    {"clReleaseEvent(kernel)", release_wrong_event, CL_INVALID_EVENT},
};

#define NCOUNTS 8

/* The reference counts of every live object, in a fixed order. */
static void counts(cl_uint n[NCOUNTS]) {
  CHECK(clGetContextInfo(g.ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof n[0], &n[0], NULL));
  CHECK(clGetCommandQueueInfo(g.q, CL_QUEUE_REFERENCE_COUNT, sizeof n[1], &n[1], NULL));
  CHECK(clGetMemObjectInfo(g.m, CL_MEM_REFERENCE_COUNT, sizeof n[2], &n[2], NULL));
  CHECK(clGetMemObjectInfo(g.sub, CL_MEM_REFERENCE_COUNT, sizeof n[3], &n[3], NULL));
  CHECK(clGetProgramInfo(g.p, CL_PROGRAM_REFERENCE_COUNT, sizeof n[4], &n[4], NULL));
  CHECK(clGetKernelInfo(g.k, CL_KERNEL_REFERENCE_COUNT, sizeof n[5], &n[5], NULL));
  CHECK(clGetEventInfo(g.ue, CL_EVENT_REFERENCE_COUNT, sizeof n[6], &n[6], NULL));
  CHECK(clGetEventInfo(g.ev, CL_EVENT_REFERENCE_COUNT, sizeof n[7], &n[7], NULL));
}

static const char *count_names[NCOUNTS] = {"context", "queue",  "buffer",     "sub-buffer",
                                           "program", "kernel", "user event", "event"};

int main(void) {
  g.dev = lsh_device();
  g.ctx = clCreateContext(NULL, 1, &g.dev, NULL, NULL, &err);
  CHECK(err);
  g.q = clCreateCommandQueueWithProperties(g.ctx, g.dev, NULL, &err);
  CHECK(err);
  g.m = lsh_buffer(g.ctx, CL_MEM_READ_WRITE, 4096, NULL);
  g.sub = clCreateSubBuffer(g.m, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK(err);
  g.p = clCreateProgramWithSource(g.ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(g.p, 1, &g.dev, "", NULL, NULL));
  g.k = lsh_kernel(g.p, "k");
  CHECK(clSetKernelArg(g.k, 0, sizeof g.m, &g.m));
  g.ue = clCreateUserEvent(g.ctx, &err);
  CHECK(err);
  CHECK(clEnqueueMarkerWithWaitList(g.q, 0, NULL, &g.ev));
  CHECK(clFinish(g.q));
  cl_queue_properties dqp[] = {CL_QUEUE_PROPERTIES,
                               CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  g.dq = clCreateCommandQueueWithProperties(g.ctx, g.dev, dqp, &err);
  CHECK(err);
  int failed = 0;
  size_t ncases = sizeof cases / sizeof cases[0];
  for (size_t i = 0; i < ncases; i++) {
    cl_uint before[NCOUNTS], after[NCOUNTS];
    counts(before);
    cl_int got = cases[i].run();
    CHECK(clFinish(g.q));
    counts(after);
    if (got != cases[i].want) {
      fprintf(stderr, "refcounts: %s: got %d, want %d\n", cases[i].name, got, cases[i].want);
      failed++;
    }
    for (int j = 0; j < NCOUNTS; j++)
      if (before[j] != after[j]) {
        fprintf(stderr, "refcounts: %s: %s reference count %u -> %u\n", cases[i].name,
                count_names[j], before[j], after[j]);
        failed++;
      }
  }
  CHECK(clReleaseEvent(g.ev));
  CHECK(clSetUserEventStatus(g.ue, CL_COMPLETE));
  CHECK(clReleaseEvent(g.ue));
  CHECK(clReleaseKernel(g.k));
  CHECK(clReleaseProgram(g.p));
  CHECK(clReleaseMemObject(g.sub));
  CHECK(clReleaseMemObject(g.m));
  CHECK(clReleaseCommandQueue(g.dq));
  CHECK(clReleaseCommandQueue(g.q));
  CHECK(clReleaseContext(g.ctx));
  if (failed) return fprintf(stderr, "refcounts: %d failures in %zu cases\n", failed, ncases), 1;
  printf("refcounts: %zu failing calls, no reference count changed\n", ncases);
  return 0;
}
