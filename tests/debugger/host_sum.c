/*
 * host_sum.c - an ordinary OpenCL host program for debugger tests at real
 * sizes: it builds the kernel file named on the command line and runs its
 * kernel `k(__global int *out, __global int *in)` once over GLOBAL
 * work-items in groups of LOCAL, with in[i] = i (8 ints per work-item) and
 * out zeroed, then prints the sum of out (not a million numbers), or the
 * error the launch ended with.
 *
 * It knows nothing about the debugger and must stay that way.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_sum";

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s KERNEL.cl GLOBAL LOCAL\n", lsh_prog);
    return 2;
  }
  char *src = lsh_read_file(argv[1], 0, NULL);
  size_t gs = (size_t)atol(argv[2]), ls = (size_t)atol(argv[3]);
  cl_context ctx;
  cl_command_queue q;
  cl_program p = lsh_build(src, "", &ctx, &q);
  free(src);
  int *in = malloc(gs * 8 * sizeof(int)), *out = calloc(gs, sizeof(int));
  for (size_t i = 0; i < gs * 8; i++)
    in[i] = (int)i;
  cl_mem din = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, gs * 8 * sizeof(int), in);
  cl_mem dout = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, gs * sizeof(int), out);
  cl_kernel k = lsh_kernel(p, "k");
  CHECK(clSetKernelArg(k, 0, sizeof dout, &dout));
  CHECK(clSetKernelArg(k, 1, sizeof din, &din));
  cl_int rc = clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &ls, 0, NULL, NULL);
  if (rc == CL_SUCCESS) rc = clFinish(q);
  if (rc != CL_SUCCESS) {
    printf("launch failed: status %d\n", rc);
  } else {
    CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, gs * sizeof(int), out, 0, NULL, NULL));
    long long sum = 0;
    for (size_t i = 0; i < gs; i++)
      sum += out[i];
    printf("sum of out: %lld\n", sum);
  }
  fflush(stdout);
  clReleaseKernel(k);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(in);
  free(out);
  return 0;
}
