/*
 * svm.c - kernels on shared virtual memory through the real ICD loader: a
 * linked list built by the host across two SVM allocations (coarse-grained,
 * through map/unmap, and fine-grained) walked by a kernel that follows the
 * host's pointers; a pointer into the middle of an allocation as a kernel
 * argument; a buffer made on SVM with CL_MEM_USE_HOST_PTR; atomics with the
 * all-devices scope on fine-grained SVM; and the faults: a node pointing
 * past its allocation's end, a released allocation and a store to a
 * read-only one stop the kernel with a report naming the allocation.
 */
#include "util/host_util.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHECK LSH_CHECK
const char *lsh_prog = "svm";

static int failed;
#define EXPECT LSH_EXPECT

static const char *src =
    "struct node { __global struct node *next; int value; };\n"
    "__kernel void walk(__global struct node *head, __global int *out) {\n"
    "  int sum = 0;\n"
    "  for (__global struct node *p = head; p; p = p->next)\n"
    "    sum += p->value;\n"
    "  out[get_global_id(0)] = sum;\n"
    "}\n"
    "__kernel void add(__global int *p, int v) { p[get_global_id(0)] += v; }\n"
    "__kernel void link(__global struct node *n) { n[0].next = &n[1]; n[1].value = 7; }\n"
    "__kernel void spaces(__global int *out) {\n"
    "  int *g = out + 4;\n"
    "  out[0] = to_global(g) == out + 4;\n"
    "  out[1] = !to_local(g) && !to_private(g);\n"
    "  out[2] = get_fence(g) == CLK_GLOBAL_MEM_FENCE;\n"
    "}\n"
    "__kernel void race(__global int *p) { p[1] = (int)get_global_id(0); }\n"
    "__kernel void count(__global atomic_int *c) {\n"
    "  atomic_fetch_add_explicit(c, 1, memory_order_relaxed, memory_scope_all_devices);\n"
    "}\n";

struct node {
  struct node *next;
  int value;
};

static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q;
static cl_program prog;

/* Builds a list of n nodes over two allocations (even nodes in a, odd in
 * b), values 1..n; returns the head. */
static struct node *build_list(struct node *a, struct node *b, int n) {
  struct node *head = NULL;
  for (int i = n - 1; i >= 0; i--) {
    struct node *nd = i % 2 ? &b[i / 2] : &a[i / 2];
    nd->value = i + 1;
    nd->next = head;
    head = nd;
  }
  return head;
}

static void walk(cl_svm_mem_flags flags, bool coarse) {
  enum { N = 20 };
  struct node *a = clSVMAlloc(ctx, flags, N * sizeof(struct node), 0);
  struct node *b = clSVMAlloc(ctx, flags, N * sizeof(struct node), 0);
  int *out = clSVMAlloc(ctx, flags, 64 * sizeof(int), 0);
  if (!a || !b || !out) {
    fprintf(stderr, "svm: clSVMAlloc failed\n");
    exit(1);
  }
  if (coarse) {
    CHECK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, a, N * sizeof(struct node), 0, NULL, NULL));
    CHECK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, b, N * sizeof(struct node), 0, NULL, NULL));
  }
  struct node *head = build_list(a, b, N);
  if (coarse) {
    CHECK(clEnqueueSVMUnmap(q, a, 0, NULL, NULL));
    CHECK(clEnqueueSVMUnmap(q, b, 0, NULL, NULL));
  }
  cl_kernel k = lsh_kernel(prog, "walk");
  CHECK(clSetKernelArgSVMPointer(k, 0, head));
  /* a pointer into the middle of an allocation */
  CHECK(clSetKernelArgSVMPointer(k, 1, out + 16));
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof b, &b));
  size_t g = 32;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  if (coarse) CHECK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, out, 64 * sizeof(int), 0, NULL, NULL));
  EXPECT(out[15] == 0 && out[16] == N * (N + 1) / 2 && out[47] == N * (N + 1) / 2);
  if (coarse) CHECK(clEnqueueSVMUnmap(q, out, 0, NULL, NULL));
  CHECK(clFinish(q));
  clReleaseKernel(k);
  clSVMFree(ctx, a);
  clSVMFree(ctx, b);
  clSVMFree(ctx, out);
}

/* clSetKernelArgSVMPointer, clSetKernelExecInfo and clCreateBuffer on SVM. */
static void arg_rules(void) {
  int *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), 0);
  int host[4];
  cl_kernel k = lsh_kernel(prog, "add");
  EXPECT(clSetKernelArgSVMPointer(k, 0, host) == CL_INVALID_ARG_VALUE);
  EXPECT(clSetKernelArgSVMPointer(k, 1, p) == CL_INVALID_ARG_VALUE); /* an int */
  EXPECT(clSetKernelArgSVMPointer(k, 2, p) == CL_INVALID_ARG_INDEX);
  EXPECT(clSetKernelArgSVMPointer(NULL, 0, p) == CL_INVALID_KERNEL);
  cl_bool yes = CL_TRUE, no = CL_FALSE;
  EXPECT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes) ==
         CL_INVALID_OPERATION);
  EXPECT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof no, &no) ==
         CL_SUCCESS);
  void *ptrs[2] = {p, host};
  EXPECT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs) ==
         CL_INVALID_VALUE);
  EXPECT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, ptrs) == CL_INVALID_VALUE);
  EXPECT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, ptrs) == CL_INVALID_VALUE);
  EXPECT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, NULL) ==
         CL_INVALID_VALUE);
  EXPECT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL) == CL_SUCCESS); /* unset */
  EXPECT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void *), ptrs) == CL_SUCCESS);

  /* a buffer on SVM shares its storage */
  cl_int err;
  EXPECT(!clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64 * sizeof(int) + 1, p, &err) &&
         err == CL_INVALID_BUFFER_SIZE);
  EXPECT(!clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64 * sizeof(int), p + 1, &err) &&
         err == CL_INVALID_BUFFER_SIZE);
  cl_mem m = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 32 * sizeof(int), p + 8, &err);
  CHECK(err);
  cl_bool uses = CL_FALSE;
  CHECK(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
  EXPECT(uses == CL_TRUE);
  int v = 5;
  CHECK(clSetKernelArg(k, 0, sizeof m, &m));
  CHECK(clSetKernelArg(k, 1, sizeof v, &v));
  size_t g = 32;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  v = 100;
  CHECK(clSetKernelArgSVMPointer(k, 0, p + 60));
  CHECK(clSetKernelArg(k, 1, sizeof v, &v));
  g = 4;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  EXPECT(p[7] == 0 && p[8] == 5 && p[39] == 5 && p[40] == 0 && p[59] == 0 && p[60] == 100 &&
         p[63] == 100);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clSVMFree(ctx, p);
}

/* A buffer on SVM has the SVM address on the device too: a pointer a
 * kernel takes into it, stored in SVM, is the host's pointer. */
static void buffer_pointers(void) {
  struct node *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 16 * sizeof(struct node), 0);
  cl_int err;
  cl_mem whole = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 16 * sizeof(struct node), a, &err);
  CHECK(err);
  cl_buffer_region r = {8 * sizeof(struct node), 2 * sizeof(struct node)}; /* 128 bytes in */
  cl_mem sub = clCreateSubBuffer(whole, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK(err);
  cl_kernel k = lsh_kernel(prog, "link");
  size_t g = 1;
  CHECK(clSetKernelArg(k, 0, sizeof whole, &whole));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clSetKernelArg(k, 0, sizeof sub, &sub));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 16 * sizeof(struct node), 0, NULL, NULL));
  EXPECT(a[0].next == &a[1] && a[0].next->value == 7);
  EXPECT(a[8].next == &a[9] && a[8].next->value == 7);
  CHECK(clEnqueueSVMUnmap(q, a, 0, NULL, NULL));
  /* buffer commands reach the same memory */
  int v = 0;
  CHECK(clEnqueueReadBuffer(q, sub, CL_TRUE, offsetof(struct node, value) + sizeof(struct node),
                            sizeof v, &v, 0, NULL, NULL));
  EXPECT(v == 7);
  CHECK(clFinish(q));
  clReleaseKernel(k);
  clReleaseMemObject(sub);
  clReleaseMemObject(whole);
  clSVMFree(ctx, a);
}

/* A generic pointer to SVM is a global one. */
static void spaces(void) {
  int *p = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 8 * sizeof(int), 0);
  cl_kernel k = lsh_kernel(prog, "spaces");
  CHECK(clSetKernelArgSVMPointer(k, 0, p));
  size_t g = 1;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  EXPECT(p[0] == 1 && p[1] == 1 && p[2] == 1);
  clReleaseKernel(k);
  clSVMFree(ctx, p);
}

/* Device atomics on fine-grained SVM are the host's own. */
static void atomics(void) {
  int *c = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, sizeof(int), 0);
  *c = 1000;
  cl_kernel k = lsh_kernel(prog, "count");
  CHECK(clSetKernelArgSVMPointer(k, 0, c));
  size_t g = 4096;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  for (int i = 0; i < 1000; i++)
    __atomic_fetch_add(c, 1, __ATOMIC_SEQ_CST);
  CHECK(clFinish(q));
  EXPECT(__atomic_load_n(c, __ATOMIC_SEQ_CST) == 6096);
  clReleaseKernel(k);
  clSVMFree(ctx, c);
}

/* Runs kernel k over g work-items (groups of 64 at most), expecting a
 * device exception or (fails false) none; returns what stderr said. */
static char *run_report(cl_kernel k, size_t g, bool fails) {
  static char report[4096];
  fflush(stderr);
  int saved = dup(2);
  FILE *tmp = tmpfile();
  dup2(fileno(tmp), 2);
  cl_event ev;
  size_t l = g < 64 ? g : 64;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev));
  clWaitForEvents(1, &ev);
  clFinish(q);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t n = fread(report, 1, sizeof report - 1, tmp);
  report[n] = 0;
  fclose(tmp);
  cl_int st = 0;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  EXPECT(fails ? st < 0 : st == CL_COMPLETE);
  clReleaseEvent(ev);
  fprintf(stderr, "svm: stderr said: %s", report);
  return report;
}

static void faults(void) {
  enum { N = 4 };
  struct node *a = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(struct node), 0);
  int *out = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64 * sizeof(int), 0);
  int *ro = clSVMAlloc(ctx, CL_MEM_READ_ONLY, 64 * sizeof(int), 0);
  for (int i = 0; i < N; i++) {
    a[i].value = i;
    a[i].next = i + 1 < N ? &a[i + 1] : NULL;
  }
  /* the last node points 64 bytes past the allocation's end */
  a[N - 1].next = (struct node *)((char *)a + N * sizeof(struct node) + 64);
  char want[160];
  cl_kernel k = lsh_kernel(prog, "walk");
  CHECK(clSetKernelArgSVMPointer(k, 0, a));
  CHECK(clSetKernelArgSVMPointer(k, 1, out));
  char *r = run_report(k, 1, true);
  snprintf(want, sizeof want, "SVM allocation 0x%" PRIxPTR " (%zu bytes)", (uintptr_t)a,
           N * sizeof(struct node));
  EXPECT(strstr(r, want) != NULL);
  EXPECT(strstr(r, "out-of-bounds 4-byte SVM load") != NULL); /* p->value, 8 bytes in */
  EXPECT(strstr(r, "bytes past the end") != NULL);
  EXPECT(strstr(r, "kernel 'walk'") != NULL && strstr(r, ".cl:5") != NULL);

  /* a released allocation */
  int *gone = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), 0);
  cl_kernel add = lsh_kernel(prog, "add");
  int v = 1;
  CHECK(clSetKernelArgSVMPointer(add, 0, gone));
  CHECK(clSetKernelArg(add, 1, sizeof v, &v));
  clSVMFree(ctx, gone);
  r = run_report(add, 1, true);
  snprintf(want, sizeof want, "released SVM allocation 0x%" PRIxPTR, (uintptr_t)gone);
  EXPECT(strstr(r, want) != NULL);

  /* a store to a read-only allocation */
  CHECK(clSetKernelArgSVMPointer(add, 0, ro));
  r = run_report(add, 1, true);
  snprintf(want, sizeof want, "read-only SVM allocation 0x%" PRIxPTR, (uintptr_t)ro);
  EXPECT(strstr(r, want) != NULL);

  /* the device goes on */
  a[N - 1].next = NULL;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){1}, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  EXPECT(out[0] == 0 + 1 + 2 + 3);
  clReleaseKernel(k);
  clReleaseKernel(add);
  clSVMFree(ctx, a);
  clSVMFree(ctx, out);
  clSVMFree(ctx, ro);
}

/* Under LOCKSTEP_CHECK=races (a child process): every work-item storing
 * to one SVM int is a race, reported with the allocation's name. */
static void races(void) {
  int *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 16 * sizeof(int), 0);
  cl_kernel k = lsh_kernel(prog, "race");
  CHECK(clSetKernelArgSVMPointer(k, 0, p));
  char *r = run_report(k, 128, false);
  char want[160];
  snprintf(want, sizeof want, "SVM allocation 0x%" PRIxPTR, (uintptr_t)p);
  EXPECT(strstr(r, "data race") != NULL && strstr(r, want) != NULL);
  clReleaseKernel(k);
  clSVMFree(ctx, p);
}

int main(int argc, char **argv) {
  /* The child's race is deliberate: it checks its own report, and keeps it
   * out of a log its parent's checker run may share. */
  if (argc > 1 && !strcmp(argv[1], "races")) unsetenv("LOCKSTEP_CHECK_LOG");
  prog = lsh_build(src, "-cl-std=CL3.0", &ctx, &q);
  dev = lsh_device();
  if (argc > 1 && !strcmp(argv[1], "races")) {
    races();
    return failed;
  }
  failed |= lsh_run_self(argv[0], "races", "LOCKSTEP_CHECK", "races");
  walk(CL_MEM_READ_WRITE, true);
  walk(CL_MEM_SVM_FINE_GRAIN_BUFFER, false);
  arg_rules();
  atomics();
  spaces();
  buffer_pointers();
  faults();
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  printf("svm: %s\n", failed ? "FAILED" : "lists, arguments, atomics and faults as expected");
  return failed;
}
