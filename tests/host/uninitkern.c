/*
 * uninitkern.c - runs one kernel of a file on the device, for the
 * uninitialised-value checker's tests (uninit.sh, run under `lockstep
 * check`):
 *   uninitkern FILE.cl KERNEL GLOBAL LOCAL [BUILD-OPTIONS (default -g)]
 * The kernel takes a global int buffer out (GLOBAL ints, created from host
 * data: defined), a __local buffer of LOCAL ints and a global int buffer in
 * (GLOBAL ints, created without host data; the host writes its first half
 * with i % 8, so its second half is undefined). With no arguments it runs
 * uninit/uninit.cl's correct kernel on 4 work-groups of 64 and checks it.
 * It runs on the Lockstep platform, or on the only platform there is (so
 * the same kernels run under `oclgrind --uninitialized` for comparison).
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "uninitkern";

int main(int argc, char **argv) {
  const char *file = argc > 4 ? argv[1] : "uninit/uninit.cl";
  const char *name = argc > 4 ? argv[2] : "clean";
  size_t g = argc > 4 ? strtoul(argv[3], NULL, 10) : 256;
  size_t l = argc > 4 ? strtoul(argv[4], NULL, 10) : 64;
  if (!g || !l || g % l || g % 2) {
    fprintf(stderr, "usage: uninitkern FILE.cl KERNEL GLOBAL LOCAL (LOCAL dividing GLOBAL)\n");
    return 2;
  }
  char *src = lsh_read_file(file, 0, NULL);
  cl_context ctx;
  cl_command_queue q;
  cl_program prog = lsh_build_on(lsh_any_device(), src, argc > 5 ? argv[5] : "-g", &ctx, &q);
  cl_int err;
  int *host = calloc(g, sizeof(int));
  for (size_t i = 0; i < g; i++)
    host[i] = (int)(i % 8);
  cl_mem out =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, g * sizeof(int), host, &err);
  CHECK(err);
  cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_WRITE, g * sizeof(int), NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(q, in, CL_TRUE, 0, g / 2 * sizeof(int), host, 0, NULL, NULL));
  cl_kernel k = clCreateKernel(prog, name, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK(clSetKernelArg(k, 1, l * sizeof(int), NULL));
  CHECK(clSetKernelArg(k, 2, sizeof in, &in));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, g * sizeof(int), host, 0, NULL, NULL));
  int bad = 0;
  if (argc <= 4) /* clean: out[i] = in[i % (g / 2)] + the group's sum of i % 8 */
    for (size_t i = 0; i < g; i++)
      if (host[i] != (int)(i % (g / 2) % 8) + (int)(l / 8 * 28)) bad++;
  if (bad) fprintf(stderr, "uninitkern: %d wrong values\n", bad);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(host);
  free(src);
  return bad != 0;
}
