/*
 * racekern.c - runs one kernel of a file on the device, for the data-race
 * checker's tests (races.sh, run under `lockstep check`):
 *   racekern FILE.cl KERNEL GLOBAL LOCAL
 * The kernel takes a global int buffer (GLOBAL ints, zeroed) and a __local
 * buffer of LOCAL ints. With no arguments it runs races/races.cl's correct
 * reduction on 4 work-groups of 64 and checks the sums (2080 each). It
 * runs on the Lockstep platform, or on the only platform there is (so the
 * same kernels run under `oclgrind --data-races` for comparison).
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "racekern";

int main(int argc, char **argv) {
  const char *file = argc > 4 ? argv[1] : "races/races.cl";
  const char *name = argc > 4 ? argv[2] : "reduce_ok";
  size_t g = argc > 4 ? strtoul(argv[3], NULL, 10) : 256;
  size_t l = argc > 4 ? strtoul(argv[4], NULL, 10) : 64;
  if (!g || !l || g % l) {
    fprintf(stderr, "usage: racekern FILE.cl KERNEL GLOBAL LOCAL (LOCAL dividing GLOBAL)\n");
    return 2;
  }
  char *src = lsh_read_file(file, 0, NULL);
  cl_context ctx;
  cl_command_queue q;
  cl_program prog = lsh_build_on(lsh_any_device(), src, "", &ctx, &q);
  cl_int err;
  int *host = calloc(g, sizeof(int));
  cl_mem out =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, g * sizeof(int), host, &err);
  CHECK(err);
  cl_kernel k = clCreateKernel(prog, name, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK(clSetKernelArg(k, 1, l * sizeof(int), NULL));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, g * sizeof(int), host, 0, NULL, NULL));
  int bad = 0;
  if (argc <= 4)
    for (size_t i = 0; i < g / l; i++)
      if (host[i] != (int)(l * (l + 1) / 2)) bad++;
  if (bad) fprintf(stderr, "racekern: %d wrong sums\n", bad);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseMemObject(out);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(host);
  free(src);
  return bad != 0;
}
