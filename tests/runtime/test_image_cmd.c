/*
 * test_image_cmd.c - the image commands on the real device: read and write
 * (with host pitches) of every image type, arrays, copies between images and
 * buffers, fills of each kind of format, maps with the pitches they return,
 * and every error code of those entry points.
 */
#include <stdlib.h>
#include <string.h>

#include "util/check_util.h"

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;

static void setup(void) {
  cu_cl_setup(&dev, &ctx, &q);
}

static void teardown(void) {
  cu_cl_teardown(q, ctx);
}

static const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};
static const cl_image_format r32 = {CL_R, CL_UNSIGNED_INT32};

static cl_mem image(cl_mem_flags flags, const cl_image_format *f, cl_mem_object_type t, size_t w,
                    size_t h, size_t d, size_t layers) {
  cl_image_desc x;
  memset(&x, 0, sizeof x);
  x.image_type = t;
  x.image_width = w;
  x.image_height = h;
  x.image_depth = d;
  x.image_array_size = layers;
  cl_int err;
  cl_mem m = clCreateImage(ctx, flags, f, &x, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  return m;
}

static void write_all(cl_mem m, const size_t *region, const void *data) {
  size_t origin[3] = {0, 0, 0};
  ck_assert_int_eq(clEnqueueWriteImage(q, m, CL_TRUE, origin, region, 0, 0, data, 0, NULL, NULL),
                   CL_SUCCESS);
}

static void read_all(cl_mem m, const size_t *region, void *data) {
  size_t origin[3] = {0, 0, 0};
  ck_assert_int_eq(clEnqueueReadImage(q, m, CL_TRUE, origin, region, 0, 0, data, 0, NULL, NULL),
                   CL_SUCCESS);
}

/* A 3D image of R32UI whose texel (x, y, z) holds x + 100 y + 10000 z. */
static uint32_t val(size_t x, size_t y, size_t z) {
  return (uint32_t)(x + 100 * y + 10000 * z);
}

START_TEST(test_3d_write_read) {
  enum { W = 9, H = 5, D = 4 };
  cl_mem m = image(0, &r32, CL_MEM_OBJECT_IMAGE3D, W, H, D, 0);
  static uint32_t src[D][H][W], got[D][H][W];
  for (size_t z = 0; z < D; z++)
    for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W; x++)
        src[z][y][x] = val(x, y, z);
  size_t all[3] = {W, H, D};
  write_all(m, all, src);
  read_all(m, all, got);
  ck_assert_int_eq(memcmp(src, got, sizeof src), 0);
  /* a sub-box into host memory with its own pitches: 3x2x2 at (4,2,1) */
  uint32_t box[2][4][8];
  memset(box, 0xff, sizeof box);
  size_t o[3] = {4, 2, 1}, r[3] = {3, 2, 2};
  ck_assert_int_eq(
      clEnqueueReadImage(q, m, CL_TRUE, o, r, sizeof box[0][0], sizeof box[0], box, 0, NULL, NULL),
      CL_SUCCESS);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 4; y++)
      for (size_t x = 0; x < 8; x++) {
        uint32_t want = x < 3 && y < 2 ? val(4 + x, 2 + y, 1 + z) : 0xffffffffu;
        ck_assert_uint_eq(box[z][y][x], want);
      }
  /* and written back elsewhere with the same pitches */
  size_t o2[3] = {0, 0, 2};
  ck_assert_int_eq(clEnqueueWriteImage(q, m, CL_TRUE, o2, r, sizeof box[0][0], sizeof box[0], box,
                                       0, NULL, NULL),
                   CL_SUCCESS);
  read_all(m, all, got);
  for (size_t y = 0; y < 2; y++)
    for (size_t x = 0; x < 3; x++) {
      ck_assert_uint_eq(got[2][y][x], val(4 + x, 2 + y, 1));
      ck_assert_uint_eq(got[3][y][x], val(4 + x, 2 + y, 2));
    }
  ck_assert_uint_eq(got[3][2][0], val(0, 2, 3));
  ck_assert_uint_eq(got[3][0][3], val(3, 0, 3));
  clReleaseMemObject(m);
}
END_TEST

/* A layer is the last coordinate of an array: origin[1] for a 1D array,
 * origin[2] for a 2D array. */
START_TEST(test_arrays) {
  enum { W = 6, H = 3, L = 4 };
  cl_mem a1 = image(0, &r32, CL_MEM_OBJECT_IMAGE1D_ARRAY, W, 0, 0, L);
  cl_mem a2 = image(0, &r32, CL_MEM_OBJECT_IMAGE2D_ARRAY, W, H, 0, L);
  uint32_t layer[H][W], got[H][W];
  for (size_t l = 0; l < L; l++) {
    for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W; x++)
        layer[y][x] = val(x, y, l);
    size_t o1[3] = {0, l, 0}, r1[3] = {W, 1, 1};
    ck_assert_int_eq(clEnqueueWriteImage(q, a1, CL_TRUE, o1, r1, 0, 0, layer, 0, NULL, NULL),
                     CL_SUCCESS);
    size_t o2[3] = {0, 0, l}, r2[3] = {W, H, 1};
    ck_assert_int_eq(clEnqueueWriteImage(q, a2, CL_TRUE, o2, r2, 0, 0, layer, 0, NULL, NULL),
                     CL_SUCCESS);
  }
  /* layers 1..2 of the 1D array with a host slice pitch of 8 texels */
  uint32_t two[2][8];
  memset(two, 0, sizeof two);
  size_t o[3] = {0, 1, 0}, r[3] = {W, 2, 1};
  ck_assert_int_eq(clEnqueueReadImage(q, a1, CL_TRUE, o, r, 0, sizeof two[0], two, 0, NULL, NULL),
                   CL_SUCCESS);
  for (size_t l = 0; l < 2; l++)
    for (size_t x = 0; x < W; x++)
      ck_assert_uint_eq(two[l][x], val(x, 0, 1 + l));
  ck_assert_uint_eq(two[0][W], 0);
  /* layer 2 of the 2D array */
  size_t o2[3] = {0, 0, 2}, r2[3] = {W, H, 1};
  ck_assert_int_eq(clEnqueueReadImage(q, a2, CL_TRUE, o2, r2, 0, 0, got, 0, NULL, NULL),
                   CL_SUCCESS);
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++)
      ck_assert_uint_eq(got[y][x], val(x, y, 2));
  /* a 1D array's layers copied into the rows of a 2D image */
  cl_mem img2 = image(0, &r32, CL_MEM_OBJECT_IMAGE2D, W, L, 0, 0);
  size_t zero[3] = {0, 0, 0}, rr[3] = {W, L, 1};
  ck_assert_int_eq(clEnqueueCopyImage(q, a1, img2, zero, zero, rr, 0, NULL, NULL), CL_SUCCESS);
  uint32_t rows[L][W];
  read_all(img2, rr, rows);
  for (size_t l = 0; l < L; l++)
    ck_assert_uint_eq(rows[l][W - 1], val(W - 1, 0, l));
  /* the slice pitch of a 1D array read is at least a row */
  ck_assert_int_eq(clEnqueueReadImage(q, a1, CL_TRUE, o, r, 0, 4, two, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  clReleaseMemObject(img2);
  clReleaseMemObject(a1);
  clReleaseMemObject(a2);
}
END_TEST

START_TEST(test_read_write_errors) {
  cl_int err;
  cl_mem m = image(0, &rgba8, CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0);
  cl_mem m1 = image(0, &rgba8, CL_MEM_OBJECT_IMAGE1D, 8, 0, 0, 0);
  cl_mem m3 = image(0, &rgba8, CL_MEM_OBJECT_IMAGE3D, 8, 8, 8, 0);
  cl_mem buf = clCreateBuffer(ctx, 0, 1024, NULL, &err);
  char host[8 * 8 * 8 * 4 * 2];
  size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1}, r3[3] = {8, 8, 8};
#define RD(img, oo, rr, rp, sp, p)                                                                 \
  clEnqueueReadImage(q, img, CL_TRUE, oo, rr, rp, sp, p, 0, NULL, NULL)
#define WR(img, oo, rr, rp, sp, p)                                                                 \
  clEnqueueWriteImage(q, img, CL_TRUE, oo, rr, rp, sp, p, 0, NULL, NULL)
  ck_assert_int_eq(RD(m, o, r, 0, 0, host), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadImage(NULL, m, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  ck_assert_int_eq(RD(buf, o, r, 0, 0, host), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(WR(buf, o, r, 0, 0, host), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(RD(NULL, o, r, 0, 0, host), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(RD(m, o, r, 0, 0, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(WR(m, o, r, 0, 0, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m, NULL, r, 0, 0, host), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m, o, NULL, 0, 0, host), CL_INVALID_VALUE);
  /* out of bounds, zero regions, and the unused coordinates of each type */
  size_t obig[3] = {1, 0, 0}, rz[3] = {0, 8, 1}, o2z[3] = {0, 0, 1}, r2z[3] = {8, 8, 2};
  ck_assert_int_eq(RD(m, obig, r, 0, 0, host), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m, o, rz, 0, 0, host), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m, o2z, r, 0, 0, host), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m, o, r2z, 0, 0, host), CL_INVALID_VALUE);
  size_t r1[3] = {8, 1, 1}, o1y[3] = {0, 1, 0}, r1y[3] = {8, 2, 1};
  ck_assert_int_eq(RD(m1, o, r1, 0, 0, host), CL_SUCCESS);
  ck_assert_int_eq(RD(m1, o1y, r1, 0, 0, host), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m1, o, r1y, 0, 0, host), CL_INVALID_VALUE);
  size_t huge[3] = {SIZE_MAX, 0, 0};
  ck_assert_int_eq(RD(m, huge, r, 0, 0, host), CL_INVALID_VALUE);
  /* pitches */
  ck_assert_int_eq(RD(m, o, r, 31, 0, host), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m, o, r, 32, 0, host), CL_SUCCESS);
  ck_assert_int_eq(RD(m, o, r, 0, 256, host), CL_INVALID_VALUE); /* a slice pitch for 2D */
  ck_assert_int_eq(RD(m1, o, r1, 0, 32, host), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m3, o, r3, 0, 255, host), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m3, o, r3, 40, 319, host), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m3, o, r3, 0, 256, host), CL_SUCCESS);
  /* pitches whose span a size_t does not hold */
  ck_assert_int_eq(RD(m, o, r, SIZE_MAX / 4, 0, host), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m3, o, r3, SIZE_MAX / 4, 0, host), CL_INVALID_VALUE);
  ck_assert_int_eq(RD(m3, o, r3, 0, SIZE_MAX / 4, host), CL_INVALID_VALUE);
  /* host access flags */
  cl_mem no = image(CL_MEM_HOST_NO_ACCESS, &rgba8, CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0);
  cl_mem ro = image(CL_MEM_HOST_READ_ONLY, &rgba8, CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0);
  cl_mem wo = image(CL_MEM_HOST_WRITE_ONLY, &rgba8, CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0);
  ck_assert_int_eq(RD(no, o, r, 0, 0, host), CL_INVALID_OPERATION);
  ck_assert_int_eq(WR(no, o, r, 0, 0, host), CL_INVALID_OPERATION);
  ck_assert_int_eq(WR(ro, o, r, 0, 0, host), CL_INVALID_OPERATION);
  ck_assert_int_eq(RD(ro, o, r, 0, 0, host), CL_SUCCESS);
  ck_assert_int_eq(RD(wo, o, r, 0, 0, host), CL_INVALID_OPERATION);
  ck_assert_int_eq(WR(wo, o, r, 0, 0, host), CL_SUCCESS);
  /* wait lists, and an image of another context */
  ck_assert_int_eq(clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, host, 1, NULL, NULL),
                   CL_INVALID_EVENT_WAIT_LIST);
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 8, .image_height = 8};
  cl_mem om = clCreateImage(other, 0, &rgba8, &d, NULL, &err);
  ck_assert_int_eq(RD(om, o, r, 0, 0, host), CL_INVALID_CONTEXT);
  /* non-blocking, with an event */
  cl_event ev;
  ck_assert_int_eq(clEnqueueReadImage(q, m, CL_FALSE, o, r, 0, 0, host, 0, NULL, &ev), CL_SUCCESS);
  ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
  cl_command_type ct;
  clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL);
  ck_assert_uint_eq(ct, CL_COMMAND_READ_IMAGE);
  clReleaseEvent(ev);
  clReleaseMemObject(om);
  clReleaseContext(other);
  cl_mem all[] = {m, m1, m3, buf, no, ro, wo};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    clReleaseMemObject(all[i]);
#undef RD
#undef WR
}
END_TEST

START_TEST(test_copy_image) {
  enum { W = 8, H = 8 };
  cl_mem a = image(0, &r32, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  cl_mem b = image(0, &r32, CL_MEM_OBJECT_IMAGE3D, W, H, 3, 0);
  cl_mem c = image(0, &rgba8, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  uint32_t src[H][W], got[H][W];
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++)
      src[y][x] = val(x, y, 0);
  size_t all[3] = {W, H, 1};
  write_all(a, all, src);
  /* a 2D image into slice 2 of a 3D image, then a box back */
  size_t zero[3] = {0, 0, 0}, s2[3] = {0, 0, 2};
  ck_assert_int_eq(clEnqueueCopyImage(q, a, b, zero, s2, all, 0, NULL, NULL), CL_SUCCESS);
  size_t from[3] = {1, 2, 2}, to[3] = {4, 5, 0}, box[3] = {3, 2, 1};
  ck_assert_int_eq(clEnqueueCopyImage(q, b, a, from, to, box, 0, NULL, NULL), CL_SUCCESS);
  read_all(a, all, got);
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++) {
      bool in = x >= 4 && x < 7 && y >= 5 && y < 7;
      ck_assert_uint_eq(got[y][x], in ? val(x - 3, y - 3, 0) : val(x, y, 0));
    }
  /* within one image: apart is fine, overlapping is not */
  size_t p[3] = {0, 0, 0}, p2[3] = {4, 4, 0}, p3[3] = {2, 2, 0}, q4[3] = {4, 4, 1};
  ck_assert_int_eq(clEnqueueCopyImage(q, a, a, p, p2, q4, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueCopyImage(q, a, a, p, p3, q4, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  /* errors */
  ck_assert_int_eq(clEnqueueCopyImage(q, a, c, zero, zero, all, 0, NULL, NULL),
                   CL_IMAGE_FORMAT_MISMATCH);
  size_t big[3] = {W + 1, 1, 1}, off[3] = {1, 0, 0};
  ck_assert_int_eq(clEnqueueCopyImage(q, a, b, zero, zero, big, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueCopyImage(q, a, b, off, zero, all, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t s3[3] = {0, 0, 3};
  ck_assert_int_eq(clEnqueueCopyImage(q, a, b, zero, s3, all, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueCopyImage(q, a, b, NULL, zero, all, 0, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueCopyImage(q, a, b, zero, zero, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, 0, 1024, NULL, &err);
  ck_assert_int_eq(clEnqueueCopyImage(q, buf, b, zero, zero, all, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clEnqueueCopyImage(q, a, buf, zero, zero, all, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clEnqueueCopyImage(NULL, a, b, zero, zero, all, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  clReleaseMemObject(buf);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(c);
}
END_TEST

START_TEST(test_copy_image_buffer) {
  enum { W = 8, H = 6 };
  cl_int err;
  cl_mem img = image(0, &r32, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  cl_mem buf = clCreateBuffer(ctx, 0, 4096, NULL, &err);
  uint32_t src[H][W], got[H][W];
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++)
      src[y][x] = val(x, y, 0);
  size_t all[3] = {W, H, 1}, zero[3] = {0, 0, 0};
  write_all(img, all, src);
  /* a 3x2 box to offset 100 of the buffer: packed rows of 3 texels */
  size_t o[3] = {2, 3, 0}, box[3] = {3, 2, 1};
  ck_assert_int_eq(clEnqueueCopyImageToBuffer(q, img, buf, o, box, 100, 0, NULL, NULL), CL_SUCCESS);
  uint32_t packed[6];
  ck_assert_int_eq(clEnqueueReadBuffer(q, buf, CL_TRUE, 100, sizeof packed, packed, 0, NULL, NULL),
                   CL_SUCCESS);
  for (size_t y = 0; y < 2; y++)
    for (size_t x = 0; x < 3; x++)
      ck_assert_uint_eq(packed[y * 3 + x], val(2 + x, 3 + y, 0));
  /* and back into the image's corner */
  ck_assert_int_eq(clEnqueueCopyBufferToImage(q, buf, img, 100, zero, box, 0, NULL, NULL),
                   CL_SUCCESS);
  read_all(img, all, got);
  ck_assert_uint_eq(got[0][0], val(2, 3, 0));
  ck_assert_uint_eq(got[1][2], val(4, 4, 0));
  ck_assert_uint_eq(got[0][3], val(3, 0, 0));
  ck_assert_uint_eq(got[2][0], val(0, 2, 0));
  /* errors */
  ck_assert_int_eq(clEnqueueCopyImageToBuffer(q, img, buf, o, box, 4096 - 23, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueCopyBufferToImage(q, buf, img, 4096 - 23, zero, box, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  size_t bad[3] = {W - 2, 0, 0};
  ck_assert_int_eq(clEnqueueCopyImageToBuffer(q, img, buf, bad, box, 0, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueCopyBufferToImage(q, buf, img, 0, bad, box, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clEnqueueCopyImageToBuffer(q, buf, buf, o, box, 0, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clEnqueueCopyImageToBuffer(q, img, img, o, box, 0, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clEnqueueCopyBufferToImage(q, img, img, 0, zero, box, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clEnqueueCopyBufferToImage(q, buf, buf, 0, zero, box, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  /* a 1D image buffer and its own buffer */
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 16};
  d.mem_object = buf;
  cl_mem ib = clCreateImage(ctx, 0, &r32, &d, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  size_t r1[3] = {4, 1, 1};
  ck_assert_int_eq(clEnqueueCopyImageToBuffer(q, ib, buf, zero, r1, 512, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clEnqueueCopyBufferToImage(q, buf, ib, 512, zero, r1, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(ib);
  clReleaseMemObject(buf);
  clReleaseMemObject(img);
}
END_TEST

/* A fill converts the color to the image's format: a float color for
 * normalized and float types, int and uint colors for integer types. */
START_TEST(test_fill) {
  enum { W = 6, H = 4 };
  size_t all[3] = {W, H, 1}, o[3] = {1, 1, 0}, box[3] = {3, 2, 1};
  /* UNORM_INT8 from a float color, rounded */
  cl_mem u8 = image(0, &rgba8, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  unsigned char b[H][W][4];
  memset(b, 0, sizeof b);
  write_all(u8, all, b);
  float fc[4] = {0.0f, 0.5f, 1.0f, 0.25f};
  ck_assert_int_eq(clEnqueueFillImage(q, u8, fc, o, box, 0, NULL, NULL), CL_SUCCESS);
  read_all(u8, all, b);
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++) {
      bool in = x >= 1 && x < 4 && y >= 1 && y < 3;
      const unsigned char want[4] = {0, 128, 255, 64};
      for (int c = 0; c < 4; c++)
        ck_assert_uint_eq(b[y][x][c], in ? want[c] : 0);
    }
  /* signed integers from an int color */
  cl_image_format s16 = {CL_RG, CL_SIGNED_INT16};
  cl_mem i16 = image(0, &s16, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  cl_int ic[4] = {-5, 300, 7, 9};
  ck_assert_int_eq(clEnqueueFillImage(q, i16, ic, (size_t[3]){0, 0, 0}, all, 0, NULL, NULL),
                   CL_SUCCESS);
  int16_t s[H][W][2];
  read_all(i16, all, s);
  ck_assert_int_eq(s[3][5][0], -5);
  ck_assert_int_eq(s[3][5][1], 300);
  ck_assert_int_eq(s[0][0][0], -5);
  /* unsigned integers from a uint color, in a 3D image */
  cl_mem u32 = image(0, &r32, CL_MEM_OBJECT_IMAGE3D, 4, 3, 2, 0);
  cl_uint uc[4] = {0xdeadbeefu, 1, 2, 3};
  size_t all3[3] = {4, 3, 2};
  ck_assert_int_eq(clEnqueueFillImage(q, u32, uc, (size_t[3]){0, 0, 0}, all3, 0, NULL, NULL),
                   CL_SUCCESS);
  uint32_t u[2][3][4];
  read_all(u32, all3, u);
  ck_assert_uint_eq(u[1][2][3], 0xdeadbeefu);
  ck_assert_uint_eq(u[0][0][0], 0xdeadbeefu);
  /* float */
  cl_image_format f32 = {CL_RGBA, CL_FLOAT};
  cl_mem fl = image(0, &f32, CL_MEM_OBJECT_IMAGE1D_ARRAY, 3, 0, 0, 2);
  float ff[4] = {1.5f, -2.0f, 0.0f, 3.25f}, fg[2][3][4];
  size_t all1[3] = {3, 2, 1};
  ck_assert_int_eq(clEnqueueFillImage(q, fl, ff, (size_t[3]){0, 0, 0}, all1, 0, NULL, NULL),
                   CL_SUCCESS);
  read_all(fl, all1, fg);
  ck_assert_int_eq(memcmp(fg[1][2], ff, sizeof ff), 0);
  /* errors */
  ck_assert_int_eq(clEnqueueFillImage(q, u8, NULL, o, box, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t bad[3] = {4, 0, 0};
  ck_assert_int_eq(clEnqueueFillImage(q, u8, fc, bad, box, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t bad2[3] = {3, 2, 2};
  ck_assert_int_eq(clEnqueueFillImage(q, u8, fc, o, bad2, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, 0, 64, NULL, &err);
  ck_assert_int_eq(clEnqueueFillImage(q, buf, fc, o, box, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clEnqueueFillImage(NULL, u8, fc, o, box, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  cl_event ev;
  ck_assert_int_eq(clEnqueueFillImage(q, u8, fc, o, box, 0, NULL, &ev), CL_SUCCESS);
  cl_command_type ct;
  clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL);
  ck_assert_uint_eq(ct, CL_COMMAND_FILL_IMAGE);
  clWaitForEvents(1, &ev);
  clReleaseEvent(ev);
  cl_mem all_m[] = {u8, i16, u32, fl, buf};
  for (size_t i = 0; i < 5; i++)
    clReleaseMemObject(all_m[i]);
}
END_TEST

/* A map returns a pointer into the storage with the storage's pitches. */
START_TEST(test_map) {
  enum { W = 8, H = 4, D = 3 };
  cl_int err;
  cl_mem m = image(0, &r32, CL_MEM_OBJECT_IMAGE3D, W, H, D, 0);
  size_t all[3] = {W, H, D};
  static uint32_t src[D][H][W];
  for (size_t z = 0; z < D; z++)
    for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W; x++)
        src[z][y][x] = val(x, y, z);
  write_all(m, all, src);
  size_t o[3] = {2, 1, 1}, box[3] = {3, 2, 2}, row = 0, slice = 0;
  uint32_t *p = clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o, box, &row, &slice,
                                  0, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_uint_eq(row, W * 4);
  ck_assert_uint_eq(slice, W * H * 4);
  ck_assert_uint_eq(p[0], val(2, 1, 1));
  ck_assert_uint_eq(p[(slice + row) / 4 + 2], val(4, 2, 2));
  p[row / 4 + 1] = 4242; /* texel (3, 2, 1) */
  cl_uint count = 0;
  clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL);
  ck_assert_uint_eq(count, 1);
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_INVALID_VALUE);
  static uint32_t got[D][H][W];
  read_all(m, all, got);
  ck_assert_uint_eq(got[1][2][3], 4242);
  /* pitch pointers: the row pitch always, the slice pitch for 3D and arrays */
  ck_assert_ptr_null(
      clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ, o, box, NULL, &slice, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(
      clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ, o, box, &row, NULL, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  cl_mem a1 = image(0, &r32, CL_MEM_OBJECT_IMAGE1D_ARRAY, W, 0, 0, 3);
  size_t o1[3] = {0, 1, 0}, b1[3] = {W, 2, 1};
  ck_assert_ptr_null(
      clEnqueueMapImage(q, a1, CL_TRUE, CL_MAP_READ, o1, b1, &row, NULL, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  void *p1 =
      clEnqueueMapImage(q, a1, CL_TRUE, CL_MAP_READ, o1, b1, &row, &slice, 0, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_uint_eq(slice, W * 4);
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, a1, p1, 0, NULL, NULL), CL_SUCCESS);
  cl_mem m2 = image(0, &r32, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  size_t z[3] = {0, 0, 0}, b2[3] = {W, H, 1};
  slice = 99;
  void *p2 =
      clEnqueueMapImage(q, m2, CL_TRUE, CL_MAP_WRITE, z, b2, &row, &slice, 0, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_uint_eq(slice, 0);
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, m2, p2, 0, NULL, NULL), CL_SUCCESS);
  p2 = clEnqueueMapImage(q, m2, CL_TRUE, CL_MAP_WRITE, z, b2, &row, NULL, 0, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, m2, p2, 0, NULL, NULL), CL_SUCCESS);
  /* bounds, flags and host access */
  size_t bad[3] = {W, 0, 0};
  ck_assert_ptr_null(
      clEnqueueMapImage(q, m2, CL_TRUE, CL_MAP_READ, bad, b2, &row, NULL, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clEnqueueMapImage(q, m2, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                                       z, b2, &row, NULL, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  cl_mem no = image(CL_MEM_HOST_NO_ACCESS, &r32, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  ck_assert_ptr_null(
      clEnqueueMapImage(q, no, CL_TRUE, CL_MAP_READ, z, b2, &row, NULL, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_OPERATION);
  cl_mem wo = image(CL_MEM_HOST_WRITE_ONLY, &r32, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  ck_assert_ptr_null(
      clEnqueueMapImage(q, wo, CL_TRUE, CL_MAP_READ, z, b2, &row, NULL, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_OPERATION);
  cl_mem buf = clCreateBuffer(ctx, 0, 64, NULL, &err);
  ck_assert_ptr_null(
      clEnqueueMapImage(q, buf, CL_TRUE, CL_MAP_READ, z, b2, &row, NULL, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_MEM_OBJECT);
  cl_mem all_m[] = {m, a1, m2, no, wo, buf};
  for (size_t i = 0; i < 6; i++)
    clReleaseMemObject(all_m[i]);
}
END_TEST

/* Mapping a CL_MEM_USE_HOST_PTR image gives the application's own memory
 * and pitches back. */
START_TEST(test_map_use_host_ptr) {
  enum { W = 5, H = 4, PITCH = 64, SLICE = PITCH * 5, D = 2 };
  static unsigned char host[SLICE * D];
  for (size_t i = 0; i < sizeof host; i++)
    host[i] = (unsigned char)(i * 3);
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                     .image_width = W,
                     .image_height = H,
                     .image_depth = D,
                     .image_row_pitch = PITCH,
                     .image_slice_pitch = SLICE};
  cl_int err;
  cl_mem m = clCreateImage(ctx, CL_MEM_USE_HOST_PTR, &rgba8, &d, host, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  size_t o[3] = {1, 2, 1}, box[3] = {2, 2, 1}, row = 0, slice = 0;
  unsigned char *p =
      clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_WRITE, o, box, &row, &slice, 0, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_ptr_eq(p, host + SLICE + 2 * PITCH + 4);
  ck_assert_uint_eq(row, PITCH);
  ck_assert_uint_eq(slice, SLICE);
  p[row + 4] = 77; /* texel (2, 3, 1), red */
  ck_assert_int_eq(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_SUCCESS);
  unsigned char px[4];
  size_t o2[3] = {2, 3, 1}, one[3] = {1, 1, 1};
  ck_assert_int_eq(clEnqueueReadImage(q, m, CL_TRUE, o2, one, 0, 0, px, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_uint_eq(px[0], 77);
  ck_assert_uint_eq(px[1], host[SLICE + 3 * PITCH + 8 + 1]);
  clReleaseMemObject(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("image commands");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_3d_write_read);
  tcase_add_test(tc, test_arrays);
  tcase_add_test(tc, test_read_write_errors);
  tcase_add_test(tc, test_copy_image);
  tcase_add_test(tc, test_copy_image_buffer);
  tcase_add_test(tc, test_fill);
  tcase_add_test(tc, test_map);
  tcase_add_test(tc, test_map_use_host_ptr);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
