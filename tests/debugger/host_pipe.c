/*
 * host_pipe.c - an ordinary OpenCL host program for the `lockstep debug --`
 * transcript tests of pipes: it builds the kernel file named on the command
 * line (OpenCL C 3.0 with pipes), makes a pipe of 16 int packets and runs its kernels
 * `produce(pipe)` and `consume(pipe, out)` over 8 work-items in groups of
 * LOCAL (the second argument, 4 unless given), then `left(pipe, out)` on one work-item. The
 * producer writes 8 packets 1, 4, 9, ... 64 (gid*gid + ...); the consumer reads 8 and writes each
 * packet, or -1 when its read failed, to out. It prints how many reads
 * succeeded, their sum and sum of squares against the expected ones, and how
 * many packets the pipe still holds: a packet written or read twice shows.
 *
 * It knows nothing about the debugger and must stay that way.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_pipe";

enum { N = 8, CAP = 16 };

static void run(cl_command_queue q, cl_kernel k, size_t g, size_t l) {
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "host_pipe.cl";
  size_t local = argc > 2 ? (size_t)atol(argv[2]) : 4;
  char *src = lsh_read_file(path, 0, NULL);
  cl_context ctx;
  cl_command_queue q;
  cl_program p = lsh_build(src, "-cl-std=CL3.0", &ctx, &q);
  free(src);
  cl_int err;
  cl_mem pipe = clCreatePipe(ctx, 0, sizeof(int), CAP, NULL, &err);
  CHECK(err);
  int out[N + 1];
  for (int i = 0; i <= N; i++)
    out[i] = -2;
  cl_mem dout = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out);
  cl_kernel kp = lsh_kernel(p, "produce"), kc = lsh_kernel(p, "consume");
  cl_kernel kl = lsh_kernel(p, "left");
  CHECK(clSetKernelArg(kp, 0, sizeof pipe, &pipe));
  CHECK(clSetKernelArg(kc, 0, sizeof pipe, &pipe));
  CHECK(clSetKernelArg(kc, 1, sizeof dout, &dout));
  CHECK(clSetKernelArg(kl, 0, sizeof pipe, &pipe));
  CHECK(clSetKernelArg(kl, 1, sizeof dout, &dout));
  run(q, kp, N, local);
  run(q, kc, N, local);
  run(q, kl, 1, 1);
  CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  long long n = 0, sum = 0, sq = 0, esum = 0, esq = 0;
  for (int i = 0; i < N; i++) {
    long long v = (long long)(i + 1) * (i + 1);
    esum += v, esq += v * v;
    if (out[i] < 0) continue;
    n++, sum += out[i], sq += (long long)out[i] * out[i];
  }
  printf("pipe: read %lld of %d, sum %lld (expect %lld), squares %lld (expect %lld), left %d\n", n,
         N, sum, esum, sq, esq, out[N]);
  printf("%s\n",
         n == N && sum == esum && sq == esq && out[N] == 0 ? "checksum exact" : "CHECKSUM WRONG");
  clReleaseKernel(kp);
  clReleaseKernel(kc);
  clReleaseKernel(kl);
  clReleaseMemObject(pipe);
  clReleaseMemObject(dout);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return 0;
}
