/*
 * svm_api.c - the shared virtual memory API through the real ICD loader:
 * clSVMAlloc's flag, size and alignment rules, memcpy (every pairing of SVM
 * and host memory, overlapping and misaligned ranges), fill (pattern size
 * and alignment rules), map/unmap rules, migrate, clEnqueueSVMFree with and
 * without a callback, and a copy that runs past an allocation's end failing
 * on the device instead of touching the memory after it.
 */
#include "util/host_util.h"

#include <stdint.h>

#define CHECK LSH_CHECK
const char *lsh_prog = "svm_api";

static int failed;
#define EXPECT LSH_EXPECT
#define EXPECT_ERR(call, want)                                                                     \
  do {                                                                                             \
    cl_int got_ = (call);                                                                          \
    if (got_ != (want)) {                                                                          \
      fprintf(stderr, "svm_api: %s gave %d, expected %s (line %d)\n", #call, got_, #want,          \
              __LINE__);                                                                           \
      failed = 1;                                                                                  \
    }                                                                                              \
  } while (0)

static cl_context ctx;
static cl_command_queue q;

static void alloc_rules(void) {
  cl_device_svm_capabilities caps = 0;
  CHECK(clGetDeviceInfo(lsh_device(), CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL));
  EXPECT(caps == (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                  CL_DEVICE_SVM_ATOMICS));
  cl_ulong max = 0;
  CHECK(clGetDeviceInfo(lsh_device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL));
  EXPECT(clSVMAlloc(NULL, CL_MEM_READ_WRITE, 64, 0) == NULL);
  EXPECT(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 0, 0) == NULL);
  EXPECT(clSVMAlloc(ctx, CL_MEM_READ_WRITE, (size_t)max + 1, 0) == NULL);
  EXPECT(clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0) == NULL);
  EXPECT(clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 64, 0) == NULL);
  EXPECT(clSVMAlloc(ctx, CL_MEM_USE_HOST_PTR, 64, 0) == NULL);
  EXPECT(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 3) == NULL);
  EXPECT(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 1u << 20) == NULL);
  void *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 100, 128);
  void *f = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 100, 0);
  EXPECT(p && (uintptr_t)p % 128 == 0);
  EXPECT(f && (uintptr_t)f % 128 == 0);
  if (p) EXPECT(((unsigned char *)p)[99] == 0); /* fresh memory is zero */
  clSVMFree(ctx, p);
  clSVMFree(ctx, f);
  clSVMFree(ctx, NULL); /* no effect */
}

static void memcpy_rules(void) {
  unsigned char *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 256, 0);
  unsigned char *b = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 256, 0);
  unsigned char host[256], back[256];
  for (int i = 0; i < 256; i++)
    host[i] = (unsigned char)(i * 7 + 1);
  EXPECT_ERR(clEnqueueSVMMemcpy(q, CL_TRUE, NULL, host, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMemcpy(q, CL_TRUE, a, NULL, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMemcpy(NULL, CL_TRUE, a, host, 4, 0, NULL, NULL),
             CL_INVALID_COMMAND_QUEUE);
  EXPECT_ERR(clEnqueueSVMMemcpy(q, CL_TRUE, a, host, 4, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  /* overlapping ranges of one allocation, either way round */
  EXPECT_ERR(clEnqueueSVMMemcpy(q, CL_TRUE, a + 1, a, 8, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  EXPECT_ERR(clEnqueueSVMMemcpy(q, CL_TRUE, a, a + 7, 8, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  EXPECT_ERR(clEnqueueSVMMemcpy(q, CL_TRUE, a, a, 1, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  /* host -> SVM at an odd offset, SVM -> SVM misaligned, SVM -> host */
  CHECK(clEnqueueSVMMemcpy(q, CL_TRUE, a + 3, host, 101, 0, NULL, NULL));
  CHECK(clEnqueueSVMMemcpy(q, CL_TRUE, a + 104, a + 3, 101, 0, NULL, NULL)); /* adjacent: fine */
  CHECK(clEnqueueSVMMemcpy(q, CL_FALSE, b + 5, a + 104, 101, 0, NULL, NULL));
  CHECK(clFinish(q));
  memset(back, 0xee, sizeof back);
  CHECK(clEnqueueSVMMemcpy(q, CL_TRUE, back, b + 5, 101, 0, NULL, NULL));
  EXPECT(memcmp(back, host, 101) == 0 && back[101] == 0xee);
  EXPECT(a[2] == 0 && a[3] == host[0] && b[4] == 0 && b[106] == 0);
  /* host -> host is allowed too */
  CHECK(clEnqueueSVMMemcpy(q, CL_TRUE, back, host + 50, 10, 0, NULL, NULL));
  EXPECT(memcmp(back, host + 50, 10) == 0);
  /* past the end of an allocation: the device refuses, the bytes after it
   * are untouched (the next granule is never handed out by a copy) */
  cl_event ev;
  CHECK(clEnqueueSVMMemcpy(q, CL_FALSE, a + 200, host, 100, 0, NULL, &ev));
  clWaitForEvents(1, &ev);
  cl_int st = 0;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  EXPECT(st < 0);
  EXPECT(a[210] == 0);
  clReleaseEvent(ev);
  clSVMFree(ctx, a);
  clSVMFree(ctx, b);
}

static void fill_rules(void) {
  unsigned char *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 256, 0);
  const uint32_t pat4 = 0xa1b2c3d4u;
  const unsigned char pat3[3] = {1, 2, 3}, big[256] = {0};
  EXPECT_ERR(clEnqueueSVMMemFill(q, NULL, &pat4, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMemFill(q, a, NULL, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMemFill(q, a, &pat4, 0, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMemFill(q, a, pat3, 3, 9, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMemFill(q, a, big, 256, 256, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMemFill(q, a + 2, &pat4, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMemFill(q, a, &pat4, 4, 10, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(q, a + 4, &pat4, 4, 12, 0, NULL, NULL));
  CHECK(clEnqueueSVMMemFill(q, a + 17, pat3, 1, 3, 0, NULL, NULL));
  CHECK(clEnqueueSVMMemFill(q, a + 128, big, 128, 128, 0, NULL, NULL));
  CHECK(clFinish(q));
  uint32_t w[5];
  memcpy(w, a, sizeof w);
  EXPECT(w[0] == 0 && w[1] == pat4 && w[2] == pat4 && w[3] == pat4 && a[16] == 0);
  EXPECT(a[17] == 1 && a[18] == 1 && a[19] == 1 && a[20] == 0);
  clSVMFree(ctx, a);
}

static void map_rules(void) {
  int *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), 0);
  int host;
  EXPECT_ERR(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, NULL, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, a, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, a, 4, 0,
                             NULL, NULL),
             CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMap(q, CL_TRUE, (cl_map_flags)1 << 9, a, 4, 0, NULL, NULL),
             CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, a + 60, 5 * sizeof(int), 0, NULL, NULL),
             CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, &host, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMUnmap(q, a, 0, NULL, NULL), CL_INVALID_VALUE); /* not mapped */
  EXPECT_ERR(clEnqueueSVMUnmap(q, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, a + 8, 8 * sizeof(int), 0, NULL, NULL));
  a[8] = 42;
  EXPECT_ERR(clEnqueueSVMUnmap(q, a, 0, NULL, NULL), CL_INVALID_VALUE); /* a + 8 was mapped */
  cl_event ev;
  CHECK(clEnqueueSVMUnmap(q, a + 8, 0, NULL, &ev));
  CHECK(clWaitForEvents(1, &ev));
  cl_command_type t = 0;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
  EXPECT(t == CL_COMMAND_SVM_UNMAP);
  clReleaseEvent(ev);
  EXPECT_ERR(clEnqueueSVMUnmap(q, a + 8, 0, NULL, NULL), CL_INVALID_VALUE); /* once only */
  /* migrate */
  const void *ptrs[2] = {a, a + 10};
  size_t sizes[2] = {0, 4};
  CHECK(clEnqueueSVMMigrateMem(q, 2, ptrs, sizes, 0, 0, NULL, NULL));
  CHECK(clEnqueueSVMMigrateMem(q, 2, ptrs, NULL, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
  EXPECT_ERR(clEnqueueSVMMigrateMem(q, 0, ptrs, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMMigrateMem(q, 1, NULL, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(
      clEnqueueSVMMigrateMem(q, 2, ptrs, NULL, (cl_mem_migration_flags)1 << 7, 0, NULL, NULL),
      CL_INVALID_VALUE);
  sizes[1] = 64 * sizeof(int); /* runs past the end */
  EXPECT_ERR(clEnqueueSVMMigrateMem(q, 2, ptrs, sizes, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  const void *stack[1] = {&host};
  EXPECT_ERR(clEnqueueSVMMigrateMem(q, 1, stack, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  clSVMFree(ctx, a);
}

static int freed_calls;
static void *freed[2];
static void CL_CALLBACK free_cb(cl_command_queue cq, cl_uint n, void *ptrs[], void *user) {
  if (cq == q && n == 2 && user == &freed_calls) {
    freed[0] = ptrs[0];
    freed[1] = ptrs[1];
    clSVMFree(ctx, ptrs[0]);
    clSVMFree(ctx, ptrs[1]);
  }
  freed_calls++;
}

static void free_rules(void) {
  void *p[2] = {clSVMAlloc(ctx, CL_MEM_READ_WRITE, 16, 0),
                clSVMAlloc(ctx, CL_MEM_READ_WRITE, 16, 0)};
  EXPECT_ERR(clEnqueueSVMFree(q, 0, p, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueSVMFree(q, 2, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_event ev;
  void *list[2] = {p[0], p[1]};
  CHECK(clEnqueueSVMFree(q, 2, list, free_cb, &freed_calls, 0, NULL, &ev));
  list[0] = list[1] = NULL; /* the command keeps its own copy */
  CHECK(clWaitForEvents(1, &ev));
  cl_command_type t = 0;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
  EXPECT(t == CL_COMMAND_SVM_FREE);
  clReleaseEvent(ev);
  EXPECT(freed_calls == 1 && freed[0] == p[0] && freed[1] == p[1]);
  /* without a callback the queue frees them: a map of freed memory fails */
  void *r = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 16, 0);
  CHECK(clEnqueueSVMFree(q, 1, &r, NULL, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  EXPECT_ERR(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, r, 4, 0, NULL, NULL), CL_INVALID_VALUE);
}

int main(void) {
  cl_device_id d = lsh_device();
  cl_int err;
  ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  CHECK(err);
  q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
  CHECK(err);
  alloc_rules();
  memcpy_rules();
  fill_rules();
  map_rules();
  free_rules();
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  printf("svm_api: %s\n", failed ? "FAILED" : "every rule as expected");
  return failed;
}
