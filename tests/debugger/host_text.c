/*
 * host_text.c - an ordinary OpenCL host program for the `lockstep debug --`
 * transcript tests: its program is a string in this file (no file matches
 * it, so the debugger names it after its first kernel, `upper`) with two
 * kernels; it upper-cases a text with `upper`, then counts its characters by
 * their low three bits with `count`, and prints both results.
 * It knows nothing about the debugger and must stay that way.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_text";

static const char *source =
    "__kernel void upper(__global const uchar *in, __global uchar *out, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  uchar c = in[i];\n"
    "  out[i] = (c >= 'a' && c <= 'z') ? (uchar)(c - 32) : c;\n"
    "}\n"
    "\n"
    "__kernel void count(__global const uchar *in, __global int *hist, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) {\n"
    "    uchar c = in[i];\n"
    "    atomic_inc(&hist[c & 7]);\n"
    "  }\n"
    "}\n";

int main(void) {
  cl_context ctx;
  cl_command_queue q;
  cl_program p = lsh_build(source, "", &ctx, &q);
  enum { G = 16 };
  const char *text = "hello, lockstep";
  int n = (int)strlen(text), hist[8] = {0};
  unsigned char in[G] = {0}, out[G + 1] = {0};
  memcpy(in, text, (size_t)n);
  cl_mem din = lsh_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, G, in);
  cl_mem dout = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, G, NULL);
  cl_mem dh = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof hist, hist);
  cl_kernel ku = lsh_kernel(p, "upper");
  cl_kernel kc = lsh_kernel(p, "count");
  CHECK(clSetKernelArg(ku, 0, sizeof din, &din));
  CHECK(clSetKernelArg(ku, 1, sizeof dout, &dout));
  CHECK(clSetKernelArg(ku, 2, sizeof n, &n));
  CHECK(clSetKernelArg(kc, 0, sizeof din, &din));
  CHECK(clSetKernelArg(kc, 1, sizeof dh, &dh));
  CHECK(clSetKernelArg(kc, 2, sizeof n, &n));
  size_t gs = G, ls = 4;
  CHECK(clEnqueueNDRangeKernel(q, ku, 1, NULL, &gs, &ls, 0, NULL, NULL));
  CHECK(clEnqueueNDRangeKernel(q, kc, 1, NULL, &gs, &ls, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, G, out, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dh, CL_TRUE, 0, sizeof hist, hist, 0, NULL, NULL));
  printf("upper: %s\n", (char *)out);
  printf("hist:");
  for (int i = 0; i < 8; i++)
    printf(" %d", hist[i]);
  printf("\n");
  return 0;
}
