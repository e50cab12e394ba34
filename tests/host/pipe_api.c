/*
 * pipe_api.c - the host side of pipes through the real ICD loader: the
 * device's pipe limits, clCreatePipe's validation (flags, properties,
 * sizes, context), clGetPipeInfo, clGetMemObjectInfo on a pipe, buffer
 * commands refusing a pipe, and pipe kernel arguments (a buffer where a
 * pipe is expected and the other way round, sizes, the
 * CL_KERNEL_ARG_TYPE_PIPE qualifier).
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "pipe_api";

static int failures;

#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s: line %d: %s\n", lsh_prog, __LINE__, #cond);                             \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

static const char *src = "__kernel void k(__read_only pipe int in, __write_only pipe float4 out,\n"
                         "                __global int *buf) {\n"
                         "  int v;\n"
                         "  if (read_pipe(in, &v) == 0) buf[0] = v;\n"
                         "}\n";

static cl_int create(cl_context ctx, cl_mem_flags flags, cl_uint size, cl_uint n,
                     const cl_pipe_properties *props, cl_mem *out) {
  cl_int err = 12345;
  cl_mem m = clCreatePipe(ctx, flags, size, n, props, &err);
  if (out)
    *out = m;
  else if (m)
    clReleaseMemObject(m);
  if ((m != NULL) != (err == CL_SUCCESS)) {
    fprintf(stderr, "%s: clCreatePipe returned %p with %d\n", lsh_prog, (void *)m, err);
    failures++;
  }
  return err;
}

static void device_limits(cl_device_id dev) {
  cl_bool support = CL_FALSE;
  cl_uint args = 0, res = 0, packet = 0;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_PIPE_SUPPORT, sizeof support, &support, NULL));
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_PIPE_ARGS, sizeof args, &args, NULL));
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, sizeof res, &res, NULL));
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof packet, &packet, NULL));
  EXPECT(support == CL_TRUE);
  EXPECT(args >= 16);
  EXPECT(res >= 1);
  EXPECT(packet >= 1024);
  size_t n = 0;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &n));
  cl_name_version *f = malloc(n);
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, n, f, NULL));
  int have = 0;
  for (size_t i = 0; i < n / sizeof *f; i++)
    have |= !strcmp(f[i].name, "__opencl_c_pipes");
  EXPECT(have);
  free(f);
}

static void creation(cl_context ctx, cl_device_id dev) {
  cl_uint max_packet = 0;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof max_packet, &max_packet, NULL));
  cl_pipe_properties none[] = {0};
  EXPECT(create(NULL, 0, 4, 16, NULL, NULL) == CL_INVALID_CONTEXT);
  EXPECT(create((cl_context)dev, 0, 4, 16, NULL, NULL) == CL_INVALID_CONTEXT);
  EXPECT(create(ctx, CL_MEM_READ_ONLY, 4, 16, NULL, NULL) == CL_INVALID_VALUE);
  EXPECT(create(ctx, CL_MEM_WRITE_ONLY, 4, 16, NULL, NULL) == CL_INVALID_VALUE);
  EXPECT(create(ctx, CL_MEM_COPY_HOST_PTR, 4, 16, NULL, NULL) == CL_INVALID_VALUE);
  EXPECT(create(ctx, CL_MEM_HOST_READ_ONLY, 4, 16, NULL, NULL) == CL_INVALID_VALUE);
  EXPECT(create(ctx, 0, 4, 16, none, NULL) == CL_INVALID_VALUE);
  EXPECT(create(ctx, 0, 0, 16, NULL, NULL) == CL_INVALID_PIPE_SIZE);
  EXPECT(create(ctx, 0, max_packet + 1, 16, NULL, NULL) == CL_INVALID_PIPE_SIZE);
  EXPECT(create(ctx, 0, 4, 0, NULL, NULL) == CL_INVALID_PIPE_SIZE);
  EXPECT(create(ctx, 0, max_packet, 0xffffffffu, NULL, NULL) == CL_INVALID_PIPE_SIZE);
  EXPECT(create(ctx, 0, 4, 16, NULL, NULL) == CL_SUCCESS);
  EXPECT(create(ctx, CL_MEM_READ_WRITE, 4, 16, NULL, NULL) == CL_SUCCESS);
  EXPECT(create(ctx, CL_MEM_HOST_NO_ACCESS, 4, 16, NULL, NULL) == CL_SUCCESS);
  EXPECT(create(ctx, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, max_packet, 1, NULL, NULL) ==
         CL_SUCCESS);
}

static void info(cl_context ctx, cl_command_queue q) {
  cl_mem p = NULL, buf = lsh_buffer(ctx, CL_MEM_READ_WRITE, 64, NULL);
  CHECK(create(ctx, 0, 12, 100, NULL, &p));
  cl_uint v = 0;
  size_t sz = 99;
  CHECK(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof v, &v, &sz));
  EXPECT(v == 12 && sz == sizeof v);
  CHECK(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, sizeof v, &v, NULL));
  EXPECT(v == 100);
  sz = 99;
  CHECK(clGetPipeInfo(p, CL_PIPE_PROPERTIES, 0, NULL, &sz));
  EXPECT(sz == 0);
  EXPECT(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, 2, &v, NULL) == CL_INVALID_VALUE);
  EXPECT(clGetPipeInfo(p, CL_MEM_SIZE, sizeof v, &v, NULL) == CL_INVALID_VALUE);
  EXPECT(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof v, &v, NULL) == CL_INVALID_MEM_OBJECT);
  EXPECT(clGetPipeInfo(NULL, CL_PIPE_PACKET_SIZE, sizeof v, &v, NULL) == CL_INVALID_MEM_OBJECT);

  cl_mem_object_type type = 0;
  cl_mem_flags flags = 0;
  size_t size = 0;
  cl_context c = NULL;
  CHECK(clGetMemObjectInfo(p, CL_MEM_TYPE, sizeof type, &type, NULL));
  CHECK(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
  CHECK(clGetMemObjectInfo(p, CL_MEM_SIZE, sizeof size, &size, NULL));
  CHECK(clGetMemObjectInfo(p, CL_MEM_CONTEXT, sizeof c, &c, NULL));
  EXPECT(type == CL_MEM_OBJECT_PIPE);
  EXPECT(flags == (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS));
  EXPECT(size >= 1200);
  EXPECT(c == ctx);

  /* the host has no access to a pipe's packets */
  char host[64];
  EXPECT(clEnqueueReadBuffer(q, p, CL_TRUE, 0, 4, host, 0, NULL, NULL) == CL_INVALID_MEM_OBJECT);
  EXPECT(clEnqueueWriteBuffer(q, p, CL_TRUE, 0, 4, host, 0, NULL, NULL) == CL_INVALID_MEM_OBJECT);
  EXPECT(clEnqueueCopyBuffer(q, buf, p, 0, 0, 4, 0, NULL, NULL) == CL_INVALID_MEM_OBJECT);
  cl_int err = 0;
  EXPECT(clEnqueueMapBuffer(q, p, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL);
  EXPECT(err == CL_INVALID_MEM_OBJECT);
  cl_buffer_region r = {0, 4};
  EXPECT(clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL);
  EXPECT(err == CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(p));
  CHECK(clReleaseMemObject(buf));
}

static void kernel_args(cl_context ctx, cl_program prog) {
  cl_kernel k = lsh_kernel(prog, "k");
  cl_mem p = NULL, p2 = NULL, buf = lsh_buffer(ctx, CL_MEM_READ_WRITE, 64, NULL);
  CHECK(create(ctx, 0, 4, 8, NULL, &p));
  CHECK(create(ctx, 0, 16, 8, NULL, &p2));
  CHECK(clSetKernelArg(k, 0, sizeof p, &p));
  CHECK(clSetKernelArg(k, 1, sizeof p2, &p2));
  CHECK(clSetKernelArg(k, 2, sizeof buf, &buf));
  EXPECT(clSetKernelArg(k, 0, sizeof buf, &buf) == CL_INVALID_ARG_VALUE);
  EXPECT(clSetKernelArg(k, 2, sizeof p, &p) == CL_INVALID_ARG_VALUE);
  EXPECT(clSetKernelArg(k, 0, 4, &p) == CL_INVALID_ARG_SIZE);
  EXPECT(clSetKernelArg(k, 0, sizeof p, NULL) == CL_INVALID_MEM_OBJECT);
  cl_mem junk = (cl_mem)ctx;
  EXPECT(clSetKernelArg(k, 1, sizeof junk, &junk) == CL_INVALID_MEM_OBJECT);

  cl_kernel_arg_type_qualifier tq = 0;
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
  EXPECT(tq == CL_KERNEL_ARG_TYPE_PIPE);
  CHECK(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
  EXPECT(tq == CL_KERNEL_ARG_TYPE_PIPE);
  CHECK(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
  EXPECT(tq == CL_KERNEL_ARG_TYPE_NONE);
  cl_kernel_arg_access_qualifier aq = 0;
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof aq, &aq, NULL));
  EXPECT(aq == CL_KERNEL_ARG_ACCESS_READ_ONLY);
  CHECK(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof aq, &aq, NULL));
  EXPECT(aq == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseMemObject(p));
  CHECK(clReleaseMemObject(p2));
  CHECK(clReleaseMemObject(buf));
}

int main(void) {
  cl_context ctx;
  cl_command_queue q;
  cl_program prog = lsh_build(src, "-cl-std=CL3.0 -cl-kernel-arg-info", &ctx, &q);
  cl_device_id dev = lsh_context_device(ctx);
  device_limits(dev);
  creation(ctx, dev);
  info(ctx, q);
  kernel_args(ctx, prog);
  CHECK(clReleaseProgram(prog));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  if (failures) fprintf(stderr, "%s: %d failures\n", lsh_prog, failures);
  return failures != 0;
}
