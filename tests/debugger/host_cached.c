/*
 * host_cached.c - a host program that builds its kernels as pyopencl's
 * program cache does, for the `lockstep debug --` transcript tests: the
 * source read from the file named on the command line gets a line appended
 * (`__constant int pyopencl_defeat_cache_<hex> = 0;`), is built with -D
 * options, and its binary then makes a second program, as a cache hit
 * would. It runs the vector kernel vmath once from each program, with a
 * different ulong argument each time, and prints what it read back.
 * It knows nothing about the debugger and must stay that way.
 */
#include <string.h>

#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_cached";

enum { N = 16, LOCAL = 8 };

static const char *suffix =
    "\n\n__constant int pyopencl_defeat_cache_b0dcb4fb57714a5ea5a6c392f8e0012e = 0;\n";

static char *source(const char *path) {
  char *buf = lsh_read_file(path, strlen(suffix), NULL);
  strcat(buf, suffix);
  return buf;
}

static void run(cl_context ctx, cl_command_queue q, cl_program p, cl_ulong big) {
  float a[4 * N], b[4 * N], o[4 * N];
  cl_uchar u[4 * N];
  double d[N];
  for (int i = 0; i < 4 * N; i++) {
    a[i] = (float)i;
    b[i] = (float)i * 0.5f;
  }
  cl_mem A = lsh_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
  cl_mem B = lsh_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b);
  cl_mem O = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof o, NULL);
  cl_mem U = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof u, NULL);
  cl_mem D = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof d, NULL);
  cl_kernel k = lsh_kernel(p, "vmath");
  CHECK(clSetKernelArg(k, 0, sizeof A, &A));
  CHECK(clSetKernelArg(k, 1, sizeof B, &B));
  CHECK(clSetKernelArg(k, 2, sizeof O, &O));
  CHECK(clSetKernelArg(k, 3, sizeof U, &U));
  CHECK(clSetKernelArg(k, 4, sizeof D, &D));
  CHECK(clSetKernelArg(k, 5, 16 * LOCAL, NULL));
  CHECK(clSetKernelArg(k, 6, sizeof big, &big));
  size_t g = N, l = LOCAL;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, U, CL_TRUE, 0, sizeof u, u, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, D, CL_TRUE, 0, sizeof d, d, 0, NULL, NULL));
  printf("out[0..1] = %g %g %g %g  %g %g %g %g\n", o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7]);
  printf("u[0..1] = %u %u %u %u  %u %u %u %u\n", u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7]);
  printf("d[0..3] = %.4f %.4f %.4f %.4f\n", d[0], d[1], d[2], d[3]);
  fflush(stdout);
  clReleaseKernel(k);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
  clReleaseMemObject(O);
  clReleaseMemObject(U);
  clReleaseMemObject(D);
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "host_vec.cl";
  const char *opts = "-DN=16 -DSCALE=3";
  cl_context ctx;
  cl_command_queue q;

  /* a cache miss: built from the source with the line appended */
  char *src = source(path);
  cl_program ps = lsh_build(src, opts, &ctx, &q);
  free(src);
  run(ctx, q, ps, 0xFFFFFFFFFFFFFFF0ull);

  /* a cache hit: the binary of that build */
  size_t size = 0;
  CHECK(clGetProgramInfo(ps, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  unsigned char *bin = malloc(size);
  if (!bin) return 1;
  CHECK(clGetProgramInfo(ps, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  const unsigned char *cbin = bin;
  cl_device_id dev = lsh_context_device(ctx);
  cl_int status, err;
  cl_program pb = clCreateProgramWithBinary(ctx, 1, &dev, &size, &cbin, &status, &err);
  CHECK(err);
  CHECK(status);
  lsh_build_program(pb, dev, opts);
  free(bin);
  run(ctx, q, pb, 0x7FFFFFFFFFFFFFFFull);

  clReleaseProgram(ps);
  clReleaseProgram(pb);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return 0;
}
