/*
 * host_svm.c - an ordinary OpenCL host program for the `lockstep debug --`
 * transcript tests: it builds a linked list in fine-grained shared virtual
 * memory (three nodes over two allocations) and runs a kernel, read from
 * the file named on the command line, that walks it. It knows nothing
 * about the debugger.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_svm";

struct node {
  struct node *next;
  int value;
};

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "host_svm.cl";
  cl_device_id dev = lsh_device();
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);
  char *src = lsh_read_file(path, 0, NULL);
  cl_program p = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &dev, "-cl-std=CL3.0", NULL, NULL));
  free(src);
  struct node *a = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 2 * sizeof(struct node), 0);
  struct node *b = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, sizeof(struct node), 0);
  int *out = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 4 * sizeof(int), 0);
  if (!a || !b || !out) return 1;
  a[0] = (struct node){b, 10};
  b[0] = (struct node){&a[1], 20};
  a[1] = (struct node){NULL, 30};
  cl_kernel k = clCreateKernel(p, "walk", &err);
  CHECK(err);
  CHECK(clSetKernelArgSVMPointer(k, 0, a));
  CHECK(clSetKernelArgSVMPointer(k, 1, out));
  size_t g = 2;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  printf("walk: %d %d\n", out[0], out[1]);
  clSVMFree(ctx, a);
  clSVMFree(ctx, b);
  clSVMFree(ctx, out);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return 0;
}
