/*
 * host_bin.c - an ordinary OpenCL host program that ships its kernel as a
 * program binary, for debugger tests.
 *   host_bin save KERNEL.cl OUT.bin OPTIONS   builds KERNEL.cl with OPTIONS and
 *                                             writes CL_PROGRAM_BINARIES to OUT.bin
 *   host_bin load IN.bin                      creates the program from IN.bin and
 *                                             runs `k(__global int *out, __global
 *                                             int *in)` over 8 work-items in groups
 *                                             of 4 with in[i] = i, then prints out
 *   host_bin link KERNEL.cl                   the same with a program that
 *                                             clCompileProgram and clLinkProgram
 *                                             made from KERNEL.cl
 * It knows nothing about the debugger and must stay that way.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_bin";

/* A program made from the source in the file cl, not built yet. */
static cl_program from_source(cl_context ctx, const char *cl) {
  char *text = lsh_read_file(cl, 0, NULL);
  const char *src = text;
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  free(text);
  return p;
}

static int save(cl_context ctx, cl_device_id dev, const char *cl, const char *out,
                const char *options) {
  cl_program p = from_source(ctx, cl);
  lsh_build_program(p, dev, options);
  size_t size;
  CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  unsigned char *bin = malloc(size);
  CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  FILE *f = fopen(out, "wb");
  if (!f || fwrite(bin, 1, size, f) != size || fclose(f)) {
    fprintf(stderr, "%s: cannot write %s\n", lsh_prog, out);
    return 1;
  }
  free(bin);
  clReleaseProgram(p);
  return 0;
}

static cl_program from_binary(cl_context ctx, cl_device_id dev, const char *path) {
  size_t len;
  char *data = lsh_read_file(path, 0, &len);
  const unsigned char *bin = (const unsigned char *)data;
  cl_int err, st;
  cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, &bin, &st, &err);
  CHECK(err);
  CHECK(st);
  free(data);
  lsh_build_program(p, dev, "");
  return p;
}

static cl_program linked(cl_context ctx, cl_device_id dev, const char *cl) {
  cl_program obj = from_source(ctx, cl);
  CHECK(clCompileProgram(obj, 1, &dev, "", 0, NULL, NULL, NULL, NULL));
  cl_int err;
  cl_program p = clLinkProgram(ctx, 1, &dev, "", 1, &obj, NULL, NULL, &err);
  CHECK(err);
  clReleaseProgram(obj);
  return p;
}

static int run(cl_context ctx, cl_device_id dev, cl_program p) {
  size_t gs = 8, ls = 4;
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);
  int in[64], out[8] = {0};
  for (int i = 0; i < 64; i++)
    in[i] = i;
  cl_mem din = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof in, in);
  cl_mem dout = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out);
  cl_kernel k = lsh_kernel(p, "k");
  CHECK(clSetKernelArg(k, 0, sizeof dout, &dout));
  CHECK(clSetKernelArg(k, 1, sizeof din, &din));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &ls, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  printf("out:");
  for (size_t i = 0; i < gs; i++)
    printf(" %d", out[i]);
  printf("\n");
  clReleaseKernel(k);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  return 0;
}

int main(int argc, char **argv) {
  int is_save = argc == 5 && !strcmp(argv[1], "save");
  int is_load = argc == 3 && !strcmp(argv[1], "load");
  if (!is_save && !is_load && !(argc == 3 && !strcmp(argv[1], "link"))) {
    fprintf(stderr, "usage: %s save KERNEL.cl OUT.bin OPTIONS | load IN.bin | link KERNEL.cl\n",
            lsh_prog);
    return 2;
  }
  cl_device_id dev = lsh_device();
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  int rc = is_save   ? save(ctx, dev, argv[2], argv[3], argv[4])
           : is_load ? run(ctx, dev, from_binary(ctx, dev, argv[2]))
                     : run(ctx, dev, linked(ctx, dev, argv[2]));
  clReleaseContext(ctx);
  return rc;
}
