/*
 * buffers.c - an ordinary OpenCL host program, linked only against the ICD
 * loader: it finds the Lockstep platform, then moves data through buffers,
 * sub-buffers, maps, fills and rect copies on both queue kinds and checks
 * every byte. Exits non-zero with a message naming the first mismatch. It
 * must use nothing but the public OpenCL API.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "buffers: %s:%d: ", __FILE__, __LINE__);                                     \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      failures++;                                                                                  \
      return;                                                                                      \
    }                                                                                              \
  } while (0)

#define OK(call) CHECK((err = (call)) == CL_SUCCESS, "%s -> %d", #call, err)

static cl_context ctx;
static cl_device_id dev;

static unsigned char pat(size_t i, unsigned seed) {
  return (unsigned char)(i * 131u + seed * 7u + (i >> 8));
}

static int find_lockstep(void) {
  cl_uint n = 0;
  if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0) return 0;
  cl_platform_id ps[16];
  clGetPlatformIDs(n > 16 ? 16 : n, ps, NULL);
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[128] = {0};
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strstr(name, "Lockstep") &&
        clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS) {
      cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ps[i], 0};
      ctx = clCreateContext(props, 1, &dev, NULL, NULL, NULL);
      return ctx != NULL;
    }
  }
  return 0;
}

static void write_read(cl_command_queue q) {
  enum { N = 1 << 16 };
  cl_int err;
  unsigned char *in = malloc(N), *out = malloc(N);
  for (size_t i = 0; i < N; i++)
    in[i] = pat(i, 1);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N, NULL, &err);
  CHECK(err == CL_SUCCESS, "create %d", err);
  cl_event w;
  OK(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, N, in, 0, NULL, &w));
  memset(out, 0, N);
  OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, out, 1, &w, NULL));
  for (size_t i = 0; i < N; i++)
    CHECK(out[i] == in[i], "write/read byte %zu: %u != %u", i, out[i], in[i]);
  /* partial read at an offset */
  OK(clEnqueueReadBuffer(q, b, CL_TRUE, 1000, 77, out, 0, NULL, NULL));
  for (size_t i = 0; i < 77; i++)
    CHECK(out[i] == in[1000 + i], "offset read byte %zu", i);
  /* a refused out-of-range write changes nothing */
  CHECK(clEnqueueWriteBuffer(q, b, CL_TRUE, N - 4, 8, out, 0, NULL, NULL) == CL_INVALID_VALUE,
        "out-of-range write accepted");
  OK(clEnqueueReadBuffer(q, b, CL_TRUE, N - 4, 4, out, 0, NULL, NULL));
  CHECK(memcmp(out, in + N - 4, 4) == 0, "refused write changed the buffer");
  clReleaseEvent(w);
  clReleaseMemObject(b);
  free(in);
  free(out);
}

static void copy_fill(cl_command_queue q) {
  enum { N = 4096 };
  cl_int err;
  unsigned char in[N], out[N];
  for (size_t i = 0; i < N; i++)
    in[i] = pat(i, 2);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N, in, &err);
  cl_mem b = clCreateBuffer(ctx, 0, N, NULL, &err);
  CHECK(err == CL_SUCCESS, "create %d", err);
  cl_uint p4 = 0xdeadbeef;
  cl_event f, c;
  OK(clEnqueueFillBuffer(q, b, &p4, 4, 0, N, 0, NULL, &f));
  OK(clEnqueueCopyBuffer(q, a, b, 100, 1000, 500, 1, &f, &c));
  OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, out, 1, &c, NULL));
  for (size_t i = 0; i < N; i++) {
    unsigned char want =
        (i >= 1000 && i < 1500) ? in[i - 1000 + 100] : ((unsigned char *)&p4)[i % 4];
    CHECK(out[i] == want, "copy/fill byte %zu: %u != %u", i, out[i], want);
  }
  unsigned char p16[16];
  for (int i = 0; i < 16; i++)
    p16[i] = (unsigned char)(0xf0 + i);
  OK(clEnqueueFillBuffer(q, b, p16, 16, 32, 64, 0, NULL, NULL));
  OK(clFinish(q)); /* the queue may be out of order */
  OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 128, out, 0, NULL, NULL));
  for (size_t i = 32; i < 96; i++)
    CHECK(out[i] == p16[i % 16], "fill16 byte %zu", i);
  CHECK(out[31] == ((unsigned char *)&p4)[3] && out[96] == ((unsigned char *)&p4)[0],
        "fill16 spilled");
  CHECK(clEnqueueCopyBuffer(q, a, a, 0, 10, 20, 0, NULL, NULL) == CL_MEM_COPY_OVERLAP,
        "overlap not detected");
  clReleaseEvent(f);
  clReleaseEvent(c);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

static void sub_buffers(cl_command_queue q) {
  cl_int err;
  cl_uint bits = 0;
  clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
  size_t al = bits / 8, n = 8 * al;
  unsigned char *in = malloc(n), *out = malloc(n);
  for (size_t i = 0; i < n; i++)
    in[i] = pat(i, 3);
  cl_mem parent = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n, in, &err);
  CHECK(err == CL_SUCCESS, "create %d", err);
  cl_buffer_region r1 = {al, 2 * al}, r2 = {4 * al, 3 * al};
  cl_mem s1 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  CHECK(err == CL_SUCCESS, "sub 1: %d", err);
  cl_mem s2 = clCreateSubBuffer(parent, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
  CHECK(err == CL_SUCCESS, "sub 2: %d", err);
  cl_buffer_region mis = {1, 8};
  CHECK(!clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &mis, &err) &&
            err == CL_MISALIGNED_SUB_BUFFER_OFFSET,
        "misaligned sub-buffer: %d", err);
  /* read through a sub-buffer, write through the other, copy between them */
  OK(clEnqueueReadBuffer(q, s1, CL_TRUE, 0, 2 * al, out, 0, NULL, NULL));
  for (size_t i = 0; i < 2 * al; i++)
    CHECK(out[i] == in[al + i], "sub read byte %zu", i);
  OK(clEnqueueWriteBuffer(q, s1, CL_TRUE, 5, 10, in, 0, NULL, NULL));
  OK(clEnqueueCopyBuffer(q, s2, s1, 0, al, al, 0, NULL, NULL));
  OK(clFinish(q));
  OK(clEnqueueReadBuffer(q, parent, CL_TRUE, 0, n, out, 0, NULL, NULL));
  for (size_t i = 0; i < n; i++) {
    unsigned char want = in[i];
    if (i >= al + 5 && i < al + 15)
      want = in[i - al - 5];
    else if (i >= 2 * al && i < 3 * al)
      want = in[i - 2 * al + 4 * al];
    CHECK(out[i] == want, "parent byte %zu after sub-buffer traffic: %u != %u", i, out[i], want);
  }
  clReleaseMemObject(parent); /* the sub-buffers keep it alive */
  OK(clEnqueueReadBuffer(q, s2, CL_TRUE, 0, al, out, 0, NULL, NULL));
  CHECK(out[0] == in[4 * al], "sub-buffer after parent release");
  clReleaseMemObject(s1);
  clReleaseMemObject(s2);
  free(in);
  free(out);
}

static void maps(cl_command_queue q) {
  enum { N = 8192 };
  cl_int err;
  unsigned char *host = malloc(N), out[N];
  for (size_t i = 0; i < N; i++)
    host[i] = pat(i, 4);
  cl_mem u = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, N, host, &err);
  CHECK(err == CL_SUCCESS, "create %d", err);
  unsigned char *p =
      clEnqueueMapBuffer(q, u, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 512, 1024, 0, NULL, NULL, &err);
  CHECK(err == CL_SUCCESS && p == host + 512, "USE_HOST_PTR map returned %p (host %p)", (void *)p,
        (void *)(host + 512));
  for (size_t i = 0; i < 1024; i++)
    p[i] = (unsigned char)~p[i];
  OK(clEnqueueUnmapMemObject(q, u, p, 0, NULL, NULL));
  OK(clFinish(q));
  OK(clEnqueueReadBuffer(q, u, CL_TRUE, 0, N, out, 0, NULL, NULL));
  for (size_t i = 0; i < N; i++) {
    unsigned char want = pat(i, 4);
    if (i >= 512 && i < 1536) want = (unsigned char)~want;
    CHECK(out[i] == want, "mapped write byte %zu", i);
  }
  /* device writes land in the user's memory */
  OK(clEnqueueWriteBuffer(q, u, CL_TRUE, 0, 16, "0123456789abcdef", 0, NULL, NULL));
  CHECK(memcmp(host, "0123456789abcdef", 16) == 0, "USE_HOST_PTR not coherent");
  /* a non-blocking map of an allocated buffer */
  cl_mem a = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, N, NULL, &err);
  cl_event me;
  unsigned *w =
      clEnqueueMapBuffer(q, a, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, 0, N, 0, NULL, &me, &err);
  CHECK(err == CL_SUCCESS, "map %d", err);
  OK(clWaitForEvents(1, &me));
  for (unsigned i = 0; i < N / 4; i++)
    w[i] = i * 2654435761u;
  OK(clEnqueueUnmapMemObject(q, a, w, 0, NULL, NULL));
  OK(clFinish(q));
  unsigned back[N / 4];
  OK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, N, back, 0, NULL, NULL));
  for (unsigned i = 0; i < N / 4; i++)
    CHECK(back[i] == i * 2654435761u, "alloc map word %u", i);
  clReleaseEvent(me);
  clReleaseMemObject(a);
  clReleaseMemObject(u);
  free(host);
}

static void rects(cl_command_queue q) {
  /* a 16 x 8 x 4 buffer volume; copy a 5 x 3 x 2 box around */
  enum { X = 16, Y = 8, Z = 4, N = X * Y * Z };
  cl_int err;
  unsigned char in[N], out[N], host[N];
  for (size_t i = 0; i < N; i++)
    in[i] = pat(i, 5);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N, in, &err);
  cl_mem b = clCreateBuffer(ctx, 0, N, NULL, &err);
  CHECK(err == CL_SUCCESS, "create %d", err);
  unsigned char zero = 0;
  OK(clEnqueueFillBuffer(q, b, &zero, 1, 0, N, 0, NULL, NULL));
  OK(clFinish(q));
  size_t so[3] = {3, 2, 1}, dof[3] = {9, 4, 2}, reg[3] = {5, 3, 2};
  OK(clEnqueueCopyBufferRect(q, a, b, so, dof, reg, X, X * Y, X, X * Y, 0, NULL, NULL));
  OK(clFinish(q));
  OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, out, 0, NULL, NULL));
  for (size_t z = 0; z < Z; z++)
    for (size_t y = 0; y < Y; y++)
      for (size_t x = 0; x < X; x++) {
        bool inside = x >= 9 && x < 14 && y >= 4 && y < 7 && z >= 2 && z < 4;
        unsigned char want = inside ? in[(z - 2 + 1) * X * Y + (y - 4 + 2) * X + (x - 9 + 3)] : 0;
        CHECK(out[z * X * Y + y * X + x] == want, "copy rect (%zu,%zu,%zu)", x, y, z);
      }
  /* read the box into a host volume with other pitches, write it back elsewhere */
  size_t ho[3] = {1, 1, 0};
  memset(host, 0xcc, sizeof host);
  OK(clEnqueueReadBufferRect(q, a, CL_TRUE, so, ho, reg, X, X * Y, 8, 8 * 5, host, 0, NULL, NULL));
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 3; y++)
      for (size_t x = 0; x < 5; x++)
        CHECK(host[z * 40 + (y + 1) * 8 + x + 1] == in[(z + 1) * X * Y + (y + 2) * X + x + 3],
              "read rect (%zu,%zu,%zu)", x, y, z);
  CHECK(host[0] == 0xcc, "read rect wrote outside its box");
  size_t wo[3] = {0, 0, 0};
  OK(clEnqueueWriteBufferRect(q, b, CL_TRUE, wo, ho, reg, 0, 0, 8, 40, host, 0, NULL, NULL));
  OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 30, out, 0, NULL, NULL));
  for (size_t i = 0; i < 30; i++) /* tightly packed: 5 x 3 x 2 */
    CHECK(out[i] == in[(i / 15 + 1) * X * Y + (i % 15 / 5 + 2) * X + i % 5 + 3],
          "write rect packed byte %zu", i);
  CHECK(clEnqueueReadBufferRect(q, a, CL_TRUE, so, ho, reg, 4, 0, 0, 0, host, 0, NULL, NULL) ==
            CL_INVALID_VALUE,
        "row pitch below the region accepted");
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

static void profiling(void) {
  cl_int err;
  cl_command_queue_properties pr = CL_QUEUE_PROFILING_ENABLE;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, pr, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
  CHECK(err == CL_SUCCESS, "profiling queue %d", err);
  cl_mem b = clCreateBuffer(ctx, 0, 1 << 20, NULL, &err);
  cl_event e;
  unsigned char v = 9;
  OK(clEnqueueFillBuffer(q, b, &v, 1, 0, 1 << 20, 0, NULL, &e));
  OK(clWaitForEvents(1, &e));
  cl_ulong t[5];
  cl_profiling_info p[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                            CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                            CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; i++)
    OK(clGetEventProfilingInfo(e, p[i], sizeof t[i], &t[i], NULL));
  for (int i = 1; i < 5; i++)
    CHECK(t[i] >= t[i - 1], "profiling times out of order at %d", i);
  CHECK(t[3] > t[2], "a 1 MiB fill took no time");
  clReleaseEvent(e);
  clReleaseMemObject(b);
  clReleaseCommandQueue(q);
}

int main(void) {
  if (!find_lockstep()) {
    fprintf(stderr, "buffers: no Lockstep platform (is OCL_ICD_VENDORS set?)\n");
    return 1;
  }
  cl_int err;
  cl_command_queue qs[2];
  cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  qs[0] = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  qs[1] = clCreateCommandQueueWithProperties(ctx, dev, ooo, &err);
  for (int i = 0; i < 2; i++) {
    write_read(qs[i]);
    copy_fill(qs[i]);
    sub_buffers(qs[i]);
    maps(qs[i]);
    rects(qs[i]);
    clFinish(qs[i]);
    clReleaseCommandQueue(qs[i]);
  }
  profiling();
  clReleaseContext(ctx);
  if (failures) {
    fprintf(stderr, "buffers: %d check(s) failed\n", failures);
    return 1;
  }
  printf("buffers: all bytes verified\n");
  return 0;
}
