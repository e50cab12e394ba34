/*
 * host_grid.c - an ordinary OpenCL host program for the `lockstep debug --`
 * transcript tests: a 2-D launch over the interior of a 7x6 grid (global
 * offset (1,1), 5x4 work-items in work-groups of 3x3, so the last ones are
 * smaller; built for OpenCL C 3.0, which allows that), each work-item
 * writing x * 10 + y; it prints the grid.
 * It knows nothing about the debugger and must stay that way.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_grid";

static const char *source = "__kernel void grid(__global int *o, int w) {\n"
                            "  int x = get_global_id(0);\n"
                            "  int y = get_global_id(1);\n"
                            "  o[y * w + x] = x * 10 + y;\n"
                            "}\n";

int main(void) {
  cl_context ctx;
  cl_command_queue q;
  cl_program p = lsh_build(source, "-cl-std=CL3.0", &ctx, &q);
  enum { W = 7, H = 6 };
  int o[W * H];
  for (int i = 0; i < W * H; i++)
    o[i] = -1;
  cl_mem d = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof o, o);
  cl_kernel k = lsh_kernel(p, "grid");
  int w = W;
  CHECK(clSetKernelArg(k, 0, sizeof d, &d));
  CHECK(clSetKernelArg(k, 1, sizeof w, &w));
  size_t off[2] = {1, 1}, gs[2] = {5, 4}, ls[2] = {3, 3};
  CHECK(clEnqueueNDRangeKernel(q, k, 2, off, gs, ls, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, d, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
  for (int y = 0; y < H; y++) {
    for (int x = 0; x < W; x++)
      printf(" %3d", o[y * W + x]);
    printf("\n");
  }
  return 0;
}
