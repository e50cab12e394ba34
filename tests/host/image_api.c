/*
 * image_api.c - an ordinary OpenCL host program, linked only against the
 * ICD loader, that uses images and samplers through the API alone: the
 * minimum format list, 2D and 3D images written and read back, image
 * arrays, an image sharing a buffer's memory, maps with pitches (the
 * application's memory and the device's), fills of each kind, copies
 * between images and buffers, sampler queries, and the error codes of each
 * entry point. Exits non-zero naming the first mismatch of each part.
 *
 * With the argument --first it runs on the first platform the loader lists
 * instead of Lockstep's (to compare with another implementation).
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "image_api: %s:%d: ", __FILE__, __LINE__);                                   \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      failures++;                                                                                  \
      return;                                                                                      \
    }                                                                                              \
  } while (0)

/* A call that must return exactly `want`. */
#define EXPECT(want, call)                                                                         \
  do {                                                                                             \
    cl_int got_ = (call);                                                                          \
    CHECK(got_ == (want), "%s -> %d, expected %d", #call, got_, (int)(want));                      \
  } while (0)
#define OK(call) EXPECT(CL_SUCCESS, call)

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static int find_platform(bool first) {
  cl_uint n = 0;
  if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0) return 0;
  cl_platform_id ps[16];
  clGetPlatformIDs(n > 16 ? 16 : n, ps, NULL);
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[128] = {0};
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if ((first || strstr(name, "Lockstep")) &&
        clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS) {
      cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ps[i], 0};
      ctx = clCreateContext(props, 1, &dev, NULL, NULL, NULL);
      q = ctx ? clCreateCommandQueueWithProperties(ctx, dev, NULL, NULL) : NULL;
      return q != NULL;
    }
  }
  return 0;
}

static cl_mem image(cl_mem_flags flags, cl_channel_order o, cl_channel_type t,
                    cl_mem_object_type type, size_t w, size_t h, size_t d, void *host,
                    cl_int *err) {
  cl_image_format f = {o, t};
  cl_image_desc x;
  memset(&x, 0, sizeof x);
  x.image_type = type;
  x.image_width = w;
  x.image_height = h;
  x.image_depth = type == CL_MEM_OBJECT_IMAGE3D ? d : 0;
  x.image_array_size = type == CL_MEM_OBJECT_IMAGE3D ? 0 : d;
  return clCreateImage(ctx, flags, &f, &x, host, err);
}

static uint32_t val(size_t x, size_t y, size_t z) {
  return (uint32_t)(x * 7 + y * 1000 + z * 100000 + 1);
}

static void device_claims(void) {
  cl_bool images = CL_FALSE;
  OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
  CHECK(images, "no image support");
  cl_uint u = 0;
  OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_READ_IMAGE_ARGS, sizeof u, &u, NULL));
  CHECK(u >= 128, "MAX_READ_IMAGE_ARGS %u", u);
  OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_SAMPLERS, sizeof u, &u, NULL));
  CHECK(u >= 16, "MAX_SAMPLERS %u", u);
  size_t s = 0;
  OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof s, &s, NULL));
  CHECK(s >= 16384, "IMAGE2D_MAX_WIDTH %zu", s);
  OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof s, &s, NULL));
  CHECK(s >= 2048, "IMAGE3D_MAX_DEPTH %zu", s);
}

static void formats(void) {
  static const cl_channel_type types[] = {CL_UNORM_INT8,     CL_UNORM_INT16,   CL_SNORM_INT8,
                                          CL_SNORM_INT16,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                          CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                          CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
  static const cl_channel_order orders[] = {CL_R, CL_RG, CL_RGBA};
  static const cl_mem_flags flags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE};
  cl_image_format l[512];
  for (size_t f = 0; f < 3; f++) {
    cl_uint n = 0;
    OK(clGetSupportedImageFormats(ctx, flags[f], CL_MEM_OBJECT_IMAGE2D, 512, l, &n));
    for (size_t o = 0; o < 3; o++)
      for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        bool seen = false;
        for (cl_uint i = 0; i < n && i < 512; i++)
          seen |= l[i].image_channel_order == orders[o] && l[i].image_channel_data_type == types[t];
        CHECK(seen, "flags %#x: format %#x/%#x missing", (unsigned)flags[f], orders[o], types[t]);
      }
  }
  cl_uint n;
  EXPECT(CL_INVALID_VALUE, clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_BUFFER, 0, NULL, &n));
  EXPECT(CL_INVALID_CONTEXT,
         clGetSupportedImageFormats(NULL, 0, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n));
}

static void images_2d_3d_arrays(void) {
  enum { W = 11, H = 7, D = 5 };
  cl_int err;
  static uint32_t src[D][H][W], got[D][H][W];
  for (size_t z = 0; z < D; z++)
    for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W; x++)
        src[z][y][x] = val(x, y, z);
  size_t zero[3] = {0, 0, 0};
  const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE2D_ARRAY};
  for (int t = 0; t < 2; t++) {
    cl_mem m = image(0, CL_R, CL_UNSIGNED_INT32, types[t], W, H, D, NULL, &err);
    CHECK(err == CL_SUCCESS, "create %d", err);
    size_t all[3] = {W, H, D};
    OK(clEnqueueWriteImage(q, m, CL_TRUE, zero, all, 0, 0, src, 0, NULL, NULL));
    memset(got, 0, sizeof got);
    OK(clEnqueueReadImage(q, m, CL_TRUE, zero, all, 0, 0, got, 0, NULL, NULL));
    CHECK(!memcmp(src, got, sizeof src), "type %#x: read back differs", types[t]);
    /* one slice or layer, by its last coordinate */
    size_t o[3] = {0, 0, 3}, r[3] = {W, H, 1};
    uint32_t one[H][W];
    OK(clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, one, 0, NULL, NULL));
    CHECK(one[H - 1][W - 1] == val(W - 1, H - 1, 3), "slice 3");
    clReleaseMemObject(m);
  }
  cl_mem m2 = image(0, CL_R, CL_UNSIGNED_INT32, CL_MEM_OBJECT_IMAGE2D, W, H, 0, NULL, &err);
  size_t r2[3] = {W, H, 1};
  OK(clEnqueueWriteImage(q, m2, CL_TRUE, zero, r2, 0, 0, src[2], 0, NULL, NULL));
  OK(clEnqueueReadImage(q, m2, CL_TRUE, zero, r2, 0, 0, got[0], 0, NULL, NULL));
  CHECK(!memcmp(src[2], got[0], sizeof src[2]), "2D read back differs");
  EXPECT(CL_INVALID_VALUE, clEnqueueReadImage(q, m2, CL_TRUE, zero, r2, 0, 4, got, 0, NULL, NULL));
  size_t r3[3] = {W, H, 2};
  EXPECT(CL_INVALID_VALUE, clEnqueueReadImage(q, m2, CL_TRUE, zero, r3, 0, 0, got, 0, NULL, NULL));
  clReleaseMemObject(m2);
  cl_mem a1 = image(0, CL_R, CL_UNSIGNED_INT32, CL_MEM_OBJECT_IMAGE1D_ARRAY, W, 0, D, NULL, &err);
  CHECK(err == CL_SUCCESS, "1D array %d", err);
  size_t r1[3] = {W, D, 1}, o1[3] = {0, 2, 0}, l1[3] = {W, 1, 1};
  OK(clEnqueueWriteImage(q, a1, CL_TRUE, zero, r1, 0, 0, src[0], 0, NULL, NULL));
  uint32_t layer[W];
  OK(clEnqueueReadImage(q, a1, CL_TRUE, o1, l1, 0, 0, layer, 0, NULL, NULL));
  const uint32_t *flat = &src[0][0][0];
  CHECK(layer[0] == flat[2 * W] && layer[W - 1] == flat[3 * W - 1], "1D array layer 2");
  clReleaseMemObject(a1);
}

static void image_from_buffer(void) {
  enum { W = 32, H = 4 };
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, 0, W * H * 4, NULL, &err);
  uint32_t data[H][W], got[H][W];
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++)
      data[y][x] = val(x, y, 0);
  OK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
  cl_image_format f = {CL_R, CL_UNSIGNED_INT32};
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = W;
  d.image_height = H;
  d.mem_object = buf;
  cl_mem img = clCreateImage(ctx, 0, &f, &d, NULL, &err);
  CHECK(err == CL_SUCCESS, "2D image from a buffer: %d", err);
  size_t zero[3] = {0, 0, 0}, all[3] = {W, H, 1};
  OK(clEnqueueReadImage(q, img, CL_TRUE, zero, all, 0, 0, got, 0, NULL, NULL));
  CHECK(!memcmp(data, got, sizeof data), "the image does not see the buffer's data");
  cl_mem assoc = NULL;
  OK(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
  CHECK(assoc == buf, "CL_MEM_ASSOCIATED_MEMOBJECT");
  uint32_t px = 0xabcdef01u;
  size_t o[3] = {5, 3, 0}, one[3] = {1, 1, 1};
  OK(clEnqueueWriteImage(q, img, CL_TRUE, o, one, 0, 0, &px, 0, NULL, NULL));
  OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  CHECK(got[3][5] == px, "the buffer does not see the image's write");
  /* a 1D image buffer on the same memory, and the copy it may not make */
  d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  d.image_width = W * H;
  d.image_height = 0;
  cl_mem ib = clCreateImage(ctx, 0, &f, &d, NULL, &err);
  CHECK(err == CL_SUCCESS, "1D image buffer: %d", err);
  size_t r1[3] = {W, 1, 1}, o1[3] = {3 * W + 5, 0, 0};
  OK(clEnqueueReadImage(q, ib, CL_TRUE, o1, one, 0, 0, got, 0, NULL, NULL));
  CHECK(got[0][0] == px, "1D image buffer texel");
  EXPECT(CL_INVALID_MEM_OBJECT, clEnqueueCopyImageToBuffer(q, ib, buf, zero, r1, 0, 0, NULL, NULL));
  clReleaseMemObject(ib);
  clReleaseMemObject(img);
  clReleaseMemObject(buf);
}

static void maps(void) {
  enum { W = 6, H = 5, PITCH = 64 };
  cl_int err;
  static unsigned char host[PITCH * H];
  for (size_t i = 0; i < sizeof host; i++)
    host[i] = (unsigned char)i;
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = W;
  d.image_height = H;
  d.image_row_pitch = PITCH;
  for (int use = 0; use < 2; use++) {
    cl_mem m =
        clCreateImage(ctx, use ? CL_MEM_USE_HOST_PTR : CL_MEM_COPY_HOST_PTR, &f, &d, host, &err);
    CHECK(err == CL_SUCCESS, "create %d", err);
    size_t o[3] = {1, 2, 0}, r[3] = {3, 2, 1}, row = 0, slice = 99;
    unsigned char *p = clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o, r, &row,
                                         &slice, 0, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS && p, "map %d", err);
    CHECK(slice == 0, "a 2D image's slice pitch is %zu", slice);
    CHECK(row >= W * 4, "row pitch %zu", row);
    if (use) CHECK(p == host + 2 * PITCH + 4 && row == PITCH, "USE_HOST_PTR map");
    CHECK(p[row + 4] == host[3 * PITCH + 8], "mapped texel (2, 3)");
    p[row + 4] = 0xee;
    OK(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
    unsigned char px[4];
    size_t o2[3] = {2, 3, 0}, one[3] = {1, 1, 1};
    OK(clEnqueueReadImage(q, m, CL_TRUE, o2, one, 0, 0, px, 0, NULL, NULL));
    CHECK(px[0] == 0xee, "write through the map lost");
    EXPECT(CL_INVALID_VALUE, clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
    clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ, o, r, NULL, NULL, 0, NULL, NULL, &err);
    CHECK(err == CL_INVALID_VALUE, "map without a row pitch pointer: %d", err);
    clReleaseMemObject(m);
  }
  cl_mem m3 = image(0, CL_RGBA, CL_FLOAT, CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, NULL, &err);
  size_t o[3] = {0, 0, 1}, r[3] = {4, 4, 2}, row = 0, slice = 0;
  clEnqueueMapImage(q, m3, CL_TRUE, CL_MAP_READ, o, r, &row, NULL, 0, NULL, NULL, &err);
  CHECK(err == CL_INVALID_VALUE, "3D map without a slice pitch pointer: %d", err);
  void *p = clEnqueueMapImage(q, m3, CL_TRUE, CL_MAP_READ, o, r, &row, &slice, 0, NULL, NULL, &err);
  CHECK(err == CL_SUCCESS && slice >= row * 4 && row >= 64, "3D map: %d %zu %zu", err, row, slice);
  OK(clEnqueueUnmapMemObject(q, m3, p, 0, NULL, NULL));
  clReleaseMemObject(m3);
}

static void fills_and_copies(void) {
  enum { W = 8, H = 4 };
  cl_int err;
  size_t zero[3] = {0, 0, 0}, all[3] = {W, H, 1};
  cl_mem u8 = image(0, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, W, H, 0, NULL, &err);
  cl_mem s8 = image(0, CL_RGBA, CL_SIGNED_INT8, CL_MEM_OBJECT_IMAGE2D, W, H, 0, NULL, &err);
  cl_mem u32 = image(0, CL_R, CL_UNSIGNED_INT32, CL_MEM_OBJECT_IMAGE2D, W, H, 0, NULL, &err);
  cl_mem f32 = image(0, CL_RG, CL_FLOAT, CL_MEM_OBJECT_IMAGE2D, W, H, 0, NULL, &err);
  float fc[4] = {1.0f, 0.5f, 0.0f, 1.0f};
  cl_int ic[4] = {-1, 2, -128, 127};
  cl_uint uc[4] = {123456789u, 0, 0, 0};
  OK(clEnqueueFillImage(q, u8, fc, zero, all, 0, NULL, NULL));
  OK(clEnqueueFillImage(q, s8, ic, zero, all, 0, NULL, NULL));
  OK(clEnqueueFillImage(q, u32, uc, zero, all, 0, NULL, NULL));
  OK(clEnqueueFillImage(q, f32, fc, zero, all, 0, NULL, NULL));
  unsigned char b[H][W][4];
  signed char sb[H][W][4];
  uint32_t u[H][W];
  float f[H][W][2];
  OK(clEnqueueReadImage(q, u8, CL_TRUE, zero, all, 0, 0, b, 0, NULL, NULL));
  OK(clEnqueueReadImage(q, s8, CL_TRUE, zero, all, 0, 0, sb, 0, NULL, NULL));
  OK(clEnqueueReadImage(q, u32, CL_TRUE, zero, all, 0, 0, u, 0, NULL, NULL));
  OK(clEnqueueReadImage(q, f32, CL_TRUE, zero, all, 0, 0, f, 0, NULL, NULL));
  CHECK(b[H - 1][W - 1][0] == 255 && b[0][0][1] == 128 && b[1][1][2] == 0, "UNORM_INT8 fill");
  CHECK(sb[2][3][0] == -1 && sb[2][3][2] == -128 && sb[2][3][3] == 127, "SIGNED_INT8 fill");
  CHECK(u[3][7] == 123456789u, "UNSIGNED_INT32 fill");
  CHECK(f[1][2][0] == 1.0f && f[1][2][1] == 0.5f, "FLOAT fill");
  /* image -> buffer -> another image */
  cl_mem buf = clCreateBuffer(ctx, 0, W * H * 4 + 16, NULL, &err);
  OK(clEnqueueCopyImageToBuffer(q, u8, buf, zero, all, 16, 0, NULL, NULL));
  cl_mem u8b = image(0, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, W, H, 0, NULL, &err);
  OK(clEnqueueCopyBufferToImage(q, buf, u8b, 16, zero, all, 0, NULL, NULL));
  unsigned char b2[H][W][4];
  OK(clEnqueueReadImage(q, u8b, CL_TRUE, zero, all, 0, 0, b2, 0, NULL, NULL));
  CHECK(!memcmp(b, b2, sizeof b), "image -> buffer -> image differs");
  EXPECT(CL_INVALID_VALUE, clEnqueueCopyImageToBuffer(q, u8, buf, zero, all, 17, 0, NULL, NULL));
  EXPECT(CL_IMAGE_FORMAT_MISMATCH, clEnqueueCopyImage(q, u8, s8, zero, zero, all, 0, NULL, NULL));
  size_t o1[3] = {1, 0, 0}, half[3] = {4, 4, 1};
  EXPECT(CL_MEM_COPY_OVERLAP, clEnqueueCopyImage(q, u8, u8, zero, o1, half, 0, NULL, NULL));
  OK(clEnqueueCopyImage(q, u8, u8b, zero, o1, half, 0, NULL, NULL));
  EXPECT(CL_INVALID_VALUE, clEnqueueFillImage(q, u8, NULL, zero, all, 0, NULL, NULL));
  OK(clFinish(q));
  cl_mem ms[] = {u8, s8, u32, f32, buf, u8b};
  for (size_t i = 0; i < 6; i++)
    clReleaseMemObject(ms[i]);
}

static void samplers(void) {
  cl_int err;
  cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                   CL_FALSE,
                                   CL_SAMPLER_ADDRESSING_MODE,
                                   CL_ADDRESS_CLAMP_TO_EDGE,
                                   CL_SAMPLER_FILTER_MODE,
                                   CL_FILTER_LINEAR,
                                   0};
  cl_sampler s = clCreateSamplerWithProperties(ctx, props, &err);
  CHECK(err == CL_SUCCESS, "create %d", err);
  cl_bool norm = CL_TRUE;
  cl_addressing_mode am = 0;
  cl_filter_mode fm = 0;
  cl_sampler_properties got[8];
  size_t n = 0;
  OK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
  OK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  OK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
  OK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof got, got, &n));
  CHECK(!norm && am == CL_ADDRESS_CLAMP_TO_EDGE && fm == CL_FILTER_LINEAR, "sampler values");
  CHECK(n == sizeof props && !memcmp(got, props, n), "CL_SAMPLER_PROPERTIES");
  OK(clRetainSampler(s));
  OK(clReleaseSampler(s));
  OK(clReleaseSampler(s));
  s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST, &err);
  CHECK(err == CL_SUCCESS, "clCreateSampler %d", err);
  OK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK(am == CL_ADDRESS_MIRRORED_REPEAT, "addressing mode");
  OK(clReleaseSampler(s));
  clCreateSampler(ctx, CL_TRUE, 0x1234, CL_FILTER_NEAREST, &err);
  CHECK(err == CL_INVALID_VALUE, "bad addressing mode: %d", err);
  cl_sampler_properties dup[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
                                 CL_FILTER_LINEAR, 0};
  clCreateSamplerWithProperties(ctx, dup, &err);
  CHECK(err == CL_INVALID_VALUE, "a property given twice: %d", err);
  EXPECT(CL_INVALID_SAMPLER, clRetainSampler(NULL));
}

static void creation_errors(void) {
  cl_int err;
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = 4;
  d.image_height = 4;
  clCreateImage(ctx, 0, NULL, &d, NULL, &err);
  CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "NULL format: %d", err);
  clCreateImage(ctx, 0, &f, NULL, NULL, &err);
  CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "NULL descriptor: %d", err);
  char host[256];
  clCreateImage(ctx, CL_MEM_USE_HOST_PTR, &f, &d, NULL, &err);
  CHECK(err == CL_INVALID_HOST_PTR, "USE_HOST_PTR without a pointer: %d", err);
  clCreateImage(ctx, 0, &f, &d, host, &err);
  CHECK(err == CL_INVALID_HOST_PTR, "a pointer without a flag: %d", err);
  d.image_width = 1u << 20;
  clCreateImage(ctx, 0, &f, &d, NULL, &err);
  CHECK(err == CL_INVALID_IMAGE_SIZE, "too wide: %d", err);
  d.image_width = 4;
  d.image_row_pitch = 64;
  clCreateImage(ctx, 0, &f, &d, NULL, &err);
  CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "a pitch without a pointer: %d", err);
  clCreateImage2D(ctx, 0, &f, 0, 4, 0, NULL, &err);
  CHECK(err == CL_INVALID_IMAGE_SIZE, "clCreateImage2D of width 0: %d", err);
}

int main(int argc, char **argv) {
  bool first = argc > 1 && !strcmp(argv[1], "--first");
  if (!find_platform(first)) {
    fprintf(stderr, "image_api: no platform\n");
    return 1;
  }
  device_claims();
  formats();
  images_2d_3d_arrays();
  image_from_buffer();
  maps();
  fills_and_copies();
  samplers();
  creation_errors();
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  if (failures) {
    fprintf(stderr, "image_api: %d part(s) failed\n", failures);
    return 1;
  }
  printf("image_api: ok\n");
  return 0;
}
