/*
 * test_mem.c - buffers on the stub device: creation flags and their errors,
 * sub-buffers, every buffer command with its range and pitch rules, maps,
 * host-access flags, queries and destructor callbacks.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "runtime/stub_dev.h"
#include "util/check_util.h"

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;

static void setup(void) {
  cl_int err;
  dev = rt_device();
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  q = clCreateCommandQueue(ctx, dev, 0, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
}

static void teardown(void) {
  clFinish(q);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

static cl_mem make(cl_mem_flags flags, size_t size, void *host, cl_int expect) {
  cl_int err = 12345;
  cl_mem m = clCreateBuffer(ctx, flags, size, host, &err);
  ck_assert_msg(err == expect, "flags %#llx size %zu: got %d, expected %d",
                (unsigned long long)flags, size, err, expect);
  if (expect != CL_SUCCESS) ck_assert_ptr_null(m);
  return m;
}

START_TEST(test_create_flags) {
  char host[64];
  cl_mem_flags access[] = {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY};
  cl_mem_flags hostacc[] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                            CL_MEM_HOST_NO_ACCESS};
  cl_mem_flags ptrf[] = {0, CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                         CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};
  for (unsigned a = 0; a < 4; a++)
    for (unsigned h = 0; h < 4; h++)
      for (unsigned p = 0; p < 5; p++) {
        cl_mem_flags f = access[a] | hostacc[h] | ptrf[p];
        bool needs = ptrf[p] & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        cl_mem m = make(f, sizeof host, needs ? host : NULL, CL_SUCCESS);
        cl_mem_flags got;
        ck_assert_int_eq(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof got, &got, NULL), CL_SUCCESS);
        ck_assert_uint_eq(got, access[a] ? f : f | CL_MEM_READ_WRITE);
        clReleaseMemObject(m);
        /* A pointer without USE/COPY, or USE/COPY without one. */
        make(f, sizeof host, needs ? NULL : host, CL_INVALID_HOST_PTR);
      }
  make(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 8, NULL, CL_INVALID_VALUE);
  make(CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 8, NULL, CL_INVALID_VALUE);
  make(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 8, NULL, CL_INVALID_VALUE);
  make(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 8, NULL, CL_INVALID_VALUE);
  make(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 8, host, CL_INVALID_VALUE);
  make(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 8, host, CL_INVALID_VALUE);
  make((cl_mem_flags)1 << 40, 8, NULL, CL_INVALID_VALUE);
  make(0, 0, NULL, CL_INVALID_BUFFER_SIZE);
  cl_ulong max;
  clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL);
  make(0, (size_t)max + 1, NULL, CL_INVALID_BUFFER_SIZE);
  cl_int err;
  ck_assert_ptr_null(clCreateBuffer(NULL, 0, 8, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
  ck_assert_ptr_null(clCreateBuffer((cl_context)q, 0, 8, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
}
END_TEST

START_TEST(test_create_with_properties) {
  cl_int err;
  cl_mem_properties empty[] = {0};
  cl_mem m = clCreateBufferWithProperties(ctx, empty, 0, 16, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  size_t sz = 99;
  ck_assert_int_eq(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &sz), CL_SUCCESS);
  ck_assert_uint_eq(sz, sizeof(cl_mem_properties));
  clReleaseMemObject(m);
  m = clCreateBufferWithProperties(ctx, NULL, 0, 16, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &sz), CL_SUCCESS);
  ck_assert_uint_eq(sz, 0);
  clReleaseMemObject(m);
  cl_mem_properties bad[] = {0x4242, 1, 0};
  ck_assert_ptr_null(clCreateBufferWithProperties(ctx, bad, 0, 16, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_PROPERTY);
}
END_TEST

START_TEST(test_copy_host_ptr_and_read) {
  unsigned char src[256], dst[256];
  for (int i = 0; i < 256; i++)
    src[i] = (unsigned char)i;
  cl_mem m = make(CL_MEM_COPY_HOST_PTR, sizeof src, src, CL_SUCCESS);
  memset(src, 0, sizeof src); /* the buffer has its own copy */
  memset(dst, 0xee, sizeof dst);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 256, dst, 0, NULL, NULL), CL_SUCCESS);
  for (int i = 0; i < 256; i++)
    ck_assert_uint_eq(dst[i], i);
  clReleaseMemObject(m);
}
END_TEST

START_TEST(test_read_write_ranges) {
  unsigned char buf[64], out[64];
  memset(buf, 0x5a, sizeof buf);
  cl_mem m = make(0, 64, NULL, CL_SUCCESS);
  ck_assert_int_eq(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 64, buf, 0, NULL, NULL), CL_SUCCESS);
  memset(buf, 0x11, sizeof buf);
  ck_assert_int_eq(clEnqueueWriteBuffer(q, m, CL_FALSE, 60, 8, buf, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueWriteBuffer(q, m, CL_FALSE, 65, 0, buf, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueWriteBuffer(q, m, CL_FALSE, SIZE_MAX, 2, buf, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 8, NULL, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 1, 64, out, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueReadBuffer(NULL, m, CL_TRUE, 0, 4, out, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  ck_assert_int_eq(clEnqueueReadBuffer(q, NULL, CL_TRUE, 0, 4, out, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, out, 1, NULL, NULL),
                   CL_INVALID_EVENT_WAIT_LIST);
  /* Nothing of the refused writes reached the buffer. */
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 64, out, 0, NULL, NULL), CL_SUCCESS);
  for (int i = 0; i < 64; i++)
    ck_assert_uint_eq(out[i], 0x5a);
  /* Another context's buffer. */
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
  cl_mem om = clCreateBuffer(other, 0, 8, NULL, NULL);
  ck_assert_int_eq(clEnqueueReadBuffer(q, om, CL_TRUE, 0, 4, out, 0, NULL, NULL),
                   CL_INVALID_CONTEXT);
  clReleaseMemObject(om);
  clReleaseContext(other);
  clReleaseMemObject(m);
}
END_TEST

START_TEST(test_host_access_flags) {
  char b[16] = {0};
  cl_mem no = make(CL_MEM_HOST_NO_ACCESS, 16, NULL, CL_SUCCESS);
  cl_mem ro = make(CL_MEM_HOST_READ_ONLY, 16, NULL, CL_SUCCESS);
  cl_mem wo = make(CL_MEM_HOST_WRITE_ONLY, 16, NULL, CL_SUCCESS);
  cl_int err;
  ck_assert_int_eq(clEnqueueReadBuffer(q, no, CL_TRUE, 0, 4, b, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  ck_assert_int_eq(clEnqueueWriteBuffer(q, no, CL_TRUE, 0, 4, b, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  ck_assert_int_eq(clEnqueueWriteBuffer(q, ro, CL_TRUE, 0, 4, b, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  ck_assert_int_eq(clEnqueueReadBuffer(q, ro, CL_TRUE, 0, 4, b, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, wo, CL_TRUE, 0, 4, b, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  ck_assert_int_eq(clEnqueueWriteBuffer(q, wo, CL_TRUE, 0, 4, b, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_ptr_null(clEnqueueMapBuffer(q, no, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_OPERATION);
  ck_assert_ptr_null(clEnqueueMapBuffer(q, ro, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_OPERATION);
  ck_assert_ptr_null(clEnqueueMapBuffer(q, wo, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_OPERATION);
  size_t r[3] = {4, 1, 1}, o[3] = {0, 0, 0};
  ck_assert_int_eq(clEnqueueReadBufferRect(q, wo, CL_TRUE, o, o, r, 0, 0, 0, 0, b, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  ck_assert_int_eq(clEnqueueWriteBufferRect(q, ro, CL_TRUE, o, o, r, 0, 0, 0, 0, b, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  clReleaseMemObject(no);
  clReleaseMemObject(ro);
  clReleaseMemObject(wo);
}
END_TEST

START_TEST(test_copy_and_overlap) {
  unsigned char in[128], out[128];
  for (int i = 0; i < 128; i++)
    in[i] = (unsigned char)(i * 3);
  cl_mem a = make(CL_MEM_COPY_HOST_PTR, 128, in, CL_SUCCESS);
  cl_mem b = make(0, 128, NULL, CL_SUCCESS);
  ck_assert_int_eq(clEnqueueCopyBuffer(q, a, b, 16, 32, 64, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 128, out, 0, NULL, NULL), CL_SUCCESS);
  for (int i = 0; i < 128; i++)
    ck_assert_uint_eq(out[i], (i >= 32 && i < 96) ? (unsigned char)((i - 16) * 3) : 0);
  ck_assert_int_eq(clEnqueueCopyBuffer(q, a, a, 0, 32, 33, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  ck_assert_int_eq(clEnqueueCopyBuffer(q, a, a, 0, 32, 32, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueCopyBuffer(q, a, b, 100, 0, 29, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueCopyBuffer(q, a, b, 0, 100, 29, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueCopyBuffer(q, a, NULL, 0, 0, 1, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  /* Sub-buffers of one buffer overlap through their parent. */
  cl_uint align_bits;
  clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
  size_t al = align_bits / 8;
  cl_mem big = make(0, 4 * al, NULL, CL_SUCCESS);
  cl_buffer_region r1 = {0, 2 * al}, r2 = {al, 2 * al};
  cl_mem s1 = clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, NULL);
  cl_mem s2 = clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, NULL);
  ck_assert_int_eq(clEnqueueCopyBuffer(q, s1, s2, al, 0, al, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  ck_assert_int_eq(clEnqueueCopyBuffer(q, s1, s2, 0, 0, al, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueCopyBuffer(q, s1, s2, 0, al, al, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueCopyBuffer(q, s1, big, al, al + 4, 8, 0, NULL, NULL),
                   CL_MEM_COPY_OVERLAP);
  clFinish(q);
  clReleaseMemObject(s1);
  clReleaseMemObject(s2);
  clReleaseMemObject(big);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}
END_TEST

START_TEST(test_fill) {
  unsigned char out[64];
  cl_mem m = make(0, 64, NULL, CL_SUCCESS);
  cl_uint pat = 0xa1b2c3d4;
  ck_assert_int_eq(clEnqueueFillBuffer(q, m, &pat, 4, 8, 16, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 64, out, 0, NULL, NULL), CL_SUCCESS);
  for (int i = 0; i < 64; i++) {
    unsigned char want = (i >= 8 && i < 24) ? ((unsigned char *)&pat)[i % 4] : 0;
    ck_assert_uint_eq(out[i], want);
  }
  ck_assert_int_eq(clEnqueueFillBuffer(q, m, NULL, 4, 0, 16, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueFillBuffer(q, m, &pat, 0, 0, 16, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueFillBuffer(q, m, &pat, 3, 0, 15, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueFillBuffer(q, m, &pat, 4, 2, 16, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueFillBuffer(q, m, &pat, 4, 0, 6, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueFillBuffer(q, m, &pat, 4, 60, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  char big[256] = {0};
  ck_assert_int_eq(clEnqueueFillBuffer(q, m, big, 256, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  clReleaseMemObject(m);
}
END_TEST

START_TEST(test_rect) {
  /* a 3D box 4x3x2 at (2,1,1) of a 10x5x3 buffer, to host box of 6x4x3 at (1,0,1) */
  enum { BR = 10, BS = 50, HR = 6, HS = 24 };
  unsigned char buf[150], host[72], back[150];
  for (int i = 0; i < 150; i++)
    buf[i] = (unsigned char)i;
  cl_mem m = make(CL_MEM_COPY_HOST_PTR, 150, buf, CL_SUCCESS);
  size_t bo[3] = {2, 1, 1}, ho[3] = {1, 0, 1}, reg[3] = {4, 3, 2};
  memset(host, 0, sizeof host);
  ck_assert_int_eq(
      clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, reg, BR, BS, HR, HS, host, 0, NULL, NULL),
      CL_SUCCESS);
  for (size_t z = 0; z < 3; z++)
    for (size_t y = 0; y < 4; y++)
      for (size_t x = 0; x < 6; x++) {
        bool in = z >= 1 && z < 3 && y < 3 && x >= 1 && x < 5;
        unsigned char want = in ? buf[(z - 1 + 1) * BS + (y + 1) * BR + (x - 1 + 2)] : 0;
        ck_assert_uint_eq(host[z * HS + y * HR + x], want);
      }
  /* write it back shifted to origin 0 */
  size_t zo[3] = {0, 0, 0};
  ck_assert_int_eq(
      clEnqueueWriteBufferRect(q, m, CL_TRUE, zo, ho, reg, BR, BS, HR, HS, host, 0, NULL, NULL),
      CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 150, back, 0, NULL, NULL), CL_SUCCESS);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 3; y++)
      for (size_t x = 0; x < 4; x++)
        ck_assert_uint_eq(back[z * BS + y * BR + x], buf[(z + 1) * BS + (y + 1) * BR + x + 2]);
  ck_assert_uint_eq(back[4], buf[4]);
  /* copy rect between two buffers, then to the same buffer without overlap */
  cl_mem d = make(0, 150, NULL, CL_SUCCESS);
  ck_assert_int_eq(clEnqueueCopyBufferRect(q, m, d, bo, bo, reg, BR, BS, BR, BS, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, d, CL_TRUE, 0, 150, back, 0, NULL, NULL), CL_SUCCESS);
  unsigned char mm[150];
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 150, mm, 0, NULL, NULL), CL_SUCCESS);
  for (size_t i = 0; i < 150; i++) {
    size_t z = i / BS, y = i % BS / BR, x = i % BR;
    bool in = z >= 1 && z < 3 && y >= 1 && y < 4 && x >= 2 && x < 6;
    ck_assert_uint_eq(back[i], in ? mm[i] : 0);
  }
  ck_assert_uint_eq(back[0], 0);
  size_t o2[3] = {5, 2, 1};
  ck_assert_int_eq(clEnqueueCopyBufferRect(q, m, m, bo, o2, reg, BR, BS, BR, BS, 0, NULL, NULL),
                   CL_MEM_COPY_OVERLAP);
  size_t o3[3] = {6, 2, 0};
  ck_assert_int_eq(clEnqueueCopyBufferRect(q, m, m, zo, o3, reg, BR, BS, BR, BS, 0, NULL, NULL),
                   CL_SUCCESS);
  /* pitch rules */
  ck_assert_int_eq(
      clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, reg, 3, BS, HR, HS, host, 0, NULL, NULL),
      CL_INVALID_VALUE); /* row pitch below region[0] */
  ck_assert_int_eq(
      clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, reg, BR, 25, HR, HS, host, 0, NULL, NULL),
      CL_INVALID_VALUE); /* slice pitch not a multiple of row pitch */
  ck_assert_int_eq(
      clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, reg, BR, 20, HR, HS, host, 0, NULL, NULL),
      CL_INVALID_VALUE); /* slice pitch below region[1] * row pitch */
  ck_assert_int_eq(
      clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, reg, BR, BS, 2, HS, host, 0, NULL, NULL),
      CL_INVALID_VALUE);
  ck_assert_int_eq(
      clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, reg, BR, BS, HR, 13, host, 0, NULL, NULL),
      CL_INVALID_VALUE);
  size_t zero[3] = {0, 1, 1};
  ck_assert_int_eq(
      clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, zero, BR, BS, HR, HS, host, 0, NULL, NULL),
      CL_INVALID_VALUE);
  size_t far[3] = {2, 1, 2};
  ck_assert_int_eq(
      clEnqueueReadBufferRect(q, m, CL_TRUE, far, ho, reg, BR, BS, HR, HS, host, 0, NULL, NULL),
      CL_INVALID_VALUE); /* runs past the end of the buffer */
  ck_assert_int_eq(
      clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, reg, BR, BS, HR, HS, NULL, 0, NULL, NULL),
      CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueCopyBufferRect(q, m, m, zo, o3, reg, BR, BS, 12, 60, 0, NULL, NULL),
                   CL_INVALID_VALUE); /* same buffer, both pitches differ */
  /* Zero pitches mean tightly packed. */
  unsigned char tight[24];
  ck_assert_int_eq(
      clEnqueueReadBufferRect(q, d, CL_TRUE, bo, zo, reg, BR, BS, 0, 0, tight, 0, NULL, NULL),
      CL_SUCCESS);
  ck_assert_uint_eq(tight[4], mm[1 * BS + 2 * BR + 2]);
  ck_assert_uint_eq(tight[23], mm[2 * BS + 3 * BR + 5]);
  clFinish(q);
  clReleaseMemObject(d);
  clReleaseMemObject(m);
}
END_TEST

START_TEST(test_map_use_host_ptr) {
  unsigned char host[256];
  memset(host, 7, sizeof host);
  cl_mem m = make(CL_MEM_USE_HOST_PTR, 256, host, CL_SUCCESS);
  cl_int err;
  unsigned char *p =
      clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 16, 64, 0, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_ptr_eq(p, host + 16);
  cl_uint mc;
  clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof mc, &mc, NULL);
  ck_assert_uint_eq(mc, 1);
  p[0] = 99;
  cl_event ev;
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, m, p, 0, NULL, &ev), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_INVALID_VALUE);
  clWaitForEvents(1, &ev);
  cl_command_type t;
  clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL);
  ck_assert_uint_eq(t, CL_COMMAND_UNMAP_MEM_OBJECT);
  clReleaseEvent(ev);
  unsigned char out;
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 16, 1, &out, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_uint_eq(out, 99);
  /* device writes are visible in the host memory */
  unsigned char v = 42;
  ck_assert_int_eq(clEnqueueWriteBuffer(q, m, CL_TRUE, 200, 1, &v, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_uint_eq(host[200], 42);
  /* non-blocking map: valid once the event completes */
  p = clEnqueueMapBuffer(q, m, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 8, 0, NULL, &ev, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
  ck_assert_ptr_eq(p, host);
  clReleaseEvent(ev);
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_SUCCESS);
  /* errors */
  ck_assert_ptr_null(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 250, 8, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                                        0, 8, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clEnqueueMapBuffer(q, m, CL_TRUE, 1 << 7, 0, 8, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clEnqueueMapBuffer(NULL, m, CL_TRUE, CL_MAP_READ, 0, 8, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_COMMAND_QUEUE);
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, NULL, p, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof mc, &mc, NULL);
  ck_assert_uint_eq(mc, 0);
  clReleaseMemObject(m);
}
END_TEST

START_TEST(test_map_alloc_buffer) {
  cl_mem m = make(CL_MEM_ALLOC_HOST_PTR, 64, NULL, CL_SUCCESS);
  cl_int err;
  unsigned *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_WRITE, 0, 64, 0, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  for (int i = 0; i < 16; i++)
    p[i] = 1000u + (unsigned)i;
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_SUCCESS);
  unsigned out[16];
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 64, out, 0, NULL, NULL), CL_SUCCESS);
  for (int i = 0; i < 16; i++)
    ck_assert_uint_eq(out[i], 1000u + (unsigned)i);
  clReleaseMemObject(m);
}
END_TEST

/* Whether the mapping of /proc/self/smaps holding p has VmFlags flag. */
static bool vm_flag(const void *p, const char *flag) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return false;
  char line[4096];
  bool in = false, has = false;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
      in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
    else if (in && !strncmp(line, "VmFlags:", 8))
      has = strstr(line, flag) != NULL;
  }
  fclose(f);
  return has;
}

/* Whether this kernel shows MADV_HUGEPAGE advice in smaps (not where it
 * has no transparent huge pages, or no /proc). */
static bool advice_shows(void) {
  size_t n = (size_t)2 << 20;
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(p, MAP_FAILED);
  bool shows = madvise(p, n, MADV_HUGEPAGE) == 0 && vm_flag(p, " hg");
  munmap(p, n);
  return shows;
}

/* A buffer of at least one huge page (2 MiB) starts on one and asks for
 * huge pages (VmFlags "hg"), where the kernel shows that. */
START_TEST(test_large_buffer_huge_pages) {
  const size_t huge = (size_t)2 << 20, n = 3 * huge + 12345;
  cl_mem m = make(CL_MEM_READ_WRITE, n, NULL, CL_SUCCESS);
  cl_int err;
  unsigned char *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, n, 0, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_msg((uintptr_t)p % huge == 0, "a %zu-byte buffer at %p", n, (void *)p);
  ck_assert_uint_eq(p[0] | p[n - 1], 0); /* zero-filled as any other */
  if (advice_shows()) ck_assert_msg(vm_flag(p, " hg"), "no MADV_HUGEPAGE on the buffer's memory");
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_SUCCESS);
  clReleaseMemObject(m);
}
END_TEST

START_TEST(test_sub_buffers) {
  cl_uint align_bits;
  clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
  size_t al = align_bits / 8;
  unsigned char *host = calloc(1, 4 * al);
  cl_mem m = make(CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, 4 * al, host,
                  CL_SUCCESS);
  cl_int err;
  cl_buffer_region r = {al, al};
  cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_mem_flags f;
  clGetMemObjectInfo(s, CL_MEM_FLAGS, sizeof f, &f, NULL);
  ck_assert_uint_eq(f, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY);
  void *hp;
  clGetMemObjectInfo(s, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL);
  ck_assert_ptr_eq(hp, host + al);
  cl_mem parent;
  size_t off, size;
  clGetMemObjectInfo(s, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
  clGetMemObjectInfo(s, CL_MEM_OFFSET, sizeof off, &off, NULL);
  clGetMemObjectInfo(s, CL_MEM_SIZE, sizeof size, &size, NULL);
  ck_assert_ptr_eq(parent, m);
  ck_assert_uint_eq(off, al);
  ck_assert_uint_eq(size, al);
  /* data through the sub-buffer lands in the parent's storage */
  host[al + 3] = 0x77;
  unsigned char v = 0;
  ck_assert_int_eq(clEnqueueReadBuffer(q, s, CL_TRUE, 3, 1, &v, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_uint_eq(v, 0x77);
  /* errors */
  ck_assert_ptr_null(clCreateSubBuffer(s, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
  ck_assert_int_eq(err, CL_INVALID_MEM_OBJECT);
  ck_assert_ptr_null(
      clCreateSubBuffer(m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(
      clCreateSubBuffer(m, CL_MEM_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(
      clCreateSubBuffer(m, CL_MEM_HOST_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(
      clCreateSubBuffer(m, CL_MEM_USE_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateSubBuffer(m, 0, 0x5555, &r, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  cl_buffer_region bad = {al / 2, 8};
  ck_assert_ptr_null(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &bad, &err));
  ck_assert_int_eq(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  bad = (cl_buffer_region){al, 0};
  ck_assert_ptr_null(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &bad, &err));
  ck_assert_int_eq(err, CL_INVALID_BUFFER_SIZE);
  bad = (cl_buffer_region){3 * al, al + 1};
  ck_assert_ptr_null(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &bad, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateSubBuffer(NULL, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
  ck_assert_int_eq(err, CL_INVALID_MEM_OBJECT);
  /* The sub-buffer keeps its parent alive. */
  clReleaseMemObject(m);
  ck_assert_int_eq(clEnqueueReadBuffer(q, s, CL_TRUE, 3, 1, &v, 0, NULL, NULL), CL_SUCCESS);
  clReleaseMemObject(s);
  free(host);
}
END_TEST

static int dtor_order[4], dtor_n;
static void CL_CALLBACK mem_dtor(cl_mem m, void *ud) {
  (void)m;
  dtor_order[dtor_n++] = (int)(intptr_t)ud;
}

START_TEST(test_info_and_destructor) {
  cl_mem m = make(0, 32, NULL, CL_SUCCESS);
  cl_mem_object_type t;
  cl_context c;
  cl_uint rc;
  cl_bool svm = CL_TRUE;
  void *hp = (void *)1;
  size_t sz;
  ck_assert_int_eq(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, &sz), CL_SUCCESS);
  ck_assert_uint_eq(t, CL_MEM_OBJECT_BUFFER);
  ck_assert_uint_eq(sz, sizeof t);
  clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, NULL);
  ck_assert_ptr_eq(c, ctx);
  clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, NULL);
  ck_assert_uint_eq(rc, 1);
  ck_assert_int_eq(clRetainMemObject(m), CL_SUCCESS);
  clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, NULL);
  ck_assert_uint_eq(rc, 2);
  clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, NULL);
  ck_assert_int_eq(svm, CL_FALSE);
  clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL);
  ck_assert_ptr_null(hp);
  ck_assert_int_eq(clGetMemObjectInfo(m, CL_MEM_SIZE, 2, &sz, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetMemObjectInfo(m, 0x9999, sizeof sz, &sz, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof sz, &sz, NULL),
                   CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clSetMemObjectDestructorCallback(NULL, mem_dtor, NULL), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clSetMemObjectDestructorCallback(m, mem_dtor, (void *)1), CL_SUCCESS);
  ck_assert_int_eq(clSetMemObjectDestructorCallback(m, mem_dtor, (void *)2), CL_SUCCESS);
  ck_assert_int_eq(clReleaseMemObject(m), CL_SUCCESS);
  ck_assert_int_eq(dtor_n, 0);
  ck_assert_int_eq(clReleaseMemObject(m), CL_SUCCESS);
  ck_assert_int_eq(dtor_n, 2);
  ck_assert_int_eq(dtor_order[0], 2);
  ck_assert_int_eq(dtor_order[1], 1);
  ck_assert_int_eq(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT);
}
END_TEST

START_TEST(test_migrate) {
  cl_mem m = make(0, 32, NULL, CL_SUCCESS);
  cl_event e;
  ck_assert_int_eq(clEnqueueMigrateMemObjects(q, 1, &m, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &e),
                   CL_SUCCESS);
  ck_assert_int_eq(clWaitForEvents(1, &e), CL_SUCCESS);
  cl_command_type t;
  clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL);
  ck_assert_uint_eq(t, CL_COMMAND_MIGRATE_MEM_OBJECTS);
  clReleaseEvent(e);
  ck_assert_int_eq(clEnqueueMigrateMemObjects(q, 0, &m, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueMigrateMemObjects(q, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueMigrateMemObjects(q, 1, &m, 1 << 5, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_mem bad = NULL;
  ck_assert_int_eq(clEnqueueMigrateMemObjects(q, 1, &bad, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clEnqueueMigrateMemObjects(NULL, 1, &m, 0, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  clReleaseMemObject(m);
}
END_TEST

START_TEST(test_release_while_pending) {
  /* A released buffer lives until its queued commands ran. */
  cl_event u = clCreateUserEvent(ctx, NULL);
  cl_mem m = make(0, 16, NULL, CL_SUCCESS);
  unsigned char in[16], out[16];
  memset(in, 3, sizeof in);
  ck_assert_int_eq(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 16, in, 1, &u, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_FALSE, 0, 16, out, 0, NULL, NULL), CL_SUCCESS);
  dtor_n = 0;
  clSetMemObjectDestructorCallback(m, mem_dtor, (void *)5);
  ck_assert_int_eq(clReleaseMemObject(m), CL_SUCCESS);
  ck_assert_int_eq(dtor_n, 0);
  clSetUserEventStatus(u, CL_COMPLETE);
  clFinish(q);
  ck_assert_int_eq(out[15], 3);
  for (int i = 0; i < 1000 && dtor_n == 0; i++) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  ck_assert_int_eq(dtor_n, 1);
  clReleaseEvent(u);
}
END_TEST

int main(void) {
  stub_install();
  Suite *s = suite_create("runtime_mem");
  TCase *tc = tcase_create("buffers");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_create_flags);
  tcase_add_test(tc, test_create_with_properties);
  tcase_add_test(tc, test_copy_host_ptr_and_read);
  tcase_add_test(tc, test_read_write_ranges);
  tcase_add_test(tc, test_host_access_flags);
  tcase_add_test(tc, test_copy_and_overlap);
  tcase_add_test(tc, test_fill);
  tcase_add_test(tc, test_rect);
  tcase_add_test(tc, test_map_use_host_ptr);
  tcase_add_test(tc, test_map_alloc_buffer);
  tcase_add_test(tc, test_large_buffer_huge_pages);
  tcase_add_test(tc, test_sub_buffers);
  tcase_add_test(tc, test_info_and_destructor);
  tcase_add_test(tc, test_migrate);
  tcase_add_test(tc, test_release_while_pending);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
