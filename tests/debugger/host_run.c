/*
 * host_run.c - an ordinary OpenCL host program for debugger tests: it builds
 * the kernel file named on the command line and runs its kernel `k(__global
 * int *out, __global int *in)` over GLOBAL work-items in groups of LOCAL, with
 * in[i] = i (8 ints per work-item) and out zeroed, then prints out, or the
 * error the launch ended with (past 64 values, its first 4 and the sum of
 * all of them: a million values would drown a transcript). It launches the
 * kernel LAUNCHES times (1 unless given), printing out after each launch;
 * with `wait` it first says so and reads a line from stdin (host code that
 * takes as long as a test wants). HOST_RUN_OPTIONS, when set, are the
 * build options (e.g. -cl-std=CL3.0).
 *
 * It knows nothing about the debugger and must stay that way.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_run";

static void print_out(const int *out, size_t n) {
  if (n > 64) {
    long long sum = 0;
    for (size_t i = 0; i < n; i++)
      sum += out[i];
    printf("out: %d %d %d %d ... sum %lld\n", out[0], out[1], out[2], out[3], sum);
    return;
  }
  printf("out:");
  for (size_t i = 0; i < n; i++)
    printf(" %d", out[i]);
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc < 4 || (argc > 5 && strcmp(argv[5], "wait"))) {
    fprintf(stderr, "usage: %s KERNEL.cl GLOBAL LOCAL [LAUNCHES [wait]]\n", lsh_prog);
    return 2;
  }
  int launches = argc > 4 ? atoi(argv[4]) : 1;
  char *src = lsh_read_file(argv[1], 0, NULL);
  size_t gs = (size_t)atol(argv[2]), ls = (size_t)atol(argv[3]);
  cl_context ctx;
  cl_command_queue q;
  const char *opts = getenv("HOST_RUN_OPTIONS");
  cl_program p = lsh_build(src, opts ? opts : "", &ctx, &q);
  free(src);
  int *in = malloc(gs * 8 * sizeof(int)), *out = calloc(gs, sizeof(int));
  for (size_t i = 0; i < gs * 8; i++)
    in[i] = (int)i;
  cl_mem din = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, gs * 8 * sizeof(int), in);
  cl_mem dout = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, gs * sizeof(int), out);
  cl_kernel k = lsh_kernel(p, "k");
  CHECK(clSetKernelArg(k, 0, sizeof dout, &dout));
  CHECK(clSetKernelArg(k, 1, sizeof din, &din));
  if (argc > 5) {
    char line[256];
    printf("waiting for a line on stdin\n");
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin)) return 1;
  }
  for (int n = 0; n < launches; n++) {
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &ls, 0, NULL, &ev));
    cl_int fin = clFinish(q), st = 0;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    if (fin != CL_SUCCESS || st < 0) {
      printf("launch failed: status %d\n", st < 0 ? st : fin);
    } else {
      CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, gs * sizeof(int), out, 0, NULL, NULL));
      print_out(out, gs);
    }
    fflush(stdout);
    clReleaseEvent(ev);
  }
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
