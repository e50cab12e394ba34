/*
 * images.c - image kernels end to end through the real ICD loader:
 *   images [w32t1 | w8t1 | w32t2 | w8t2 | report]
 * With no argument it runs itself once per device setting (warp width 32
 * and 8, 1 and 2 host threads) in a fresh process; each run checks its
 * results against references computed here and writes a digest of every
 * result, and the digests of the four runs must be identical. Then once
 * with LOCKSTEP_FAULTS=report (an undefined write is reported and dropped).
 *
 *  - a 2D Gaussian blur through a normalized CLAMP_TO_EDGE LINEAR sampler,
 *    once through a constant sampler into a UNORM_INT8 image and once
 *    through a sampler kernel argument into a buffer, against a bilinear
 *    reference written here;
 *  - a 3D image written by a kernel, read back by the host and by a kernel;
 *  - 1D and 2D image arrays written per layer and read through a sampler;
 *  - an image1d_buffer sharing its buffer's memory;
 *  - get_image_* on every image type;
 *  - a read_write image updated twice by each work-item across
 *    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, ...);
 *  - one device exception for each undefined access, whose message names
 *    the kernel, the line, the image argument and the coordinates.
 */
#include "util/host_util.h"

#include <math.h>
#include <stdint.h>

#define CHECK LSH_CHECK
const char *lsh_prog = "images";

static const char *kernel_src =
    "__constant float wt[3] = {0.25f, 0.5f, 0.25f};\n"                                 /* 1 */
    "const sampler_t lin = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |\n" /* 2 */
    "                      CLK_FILTER_LINEAR;\n"                                       /* 3 */
    "float4 blur_at(read_only image2d_t src, sampler_t s, int x, int y) {\n"           /* 4 */
    "  float2 inv = (float2)(1.0f / get_image_width(src), 1.0f / get_image_height(src));\n"
    "  float4 acc = 0.0f;\n"                 /* 6 */
    "  for (int j = -1; j <= 1; j++)\n"      /* 7 */
    "    for (int i = -1; i <= 1; i++)\n"    /* 8 */
    "      acc += wt[i + 1] * wt[j + 1] *\n" /* 9 */
    "             read_imagef(src, s, (float2)(x + 0.5f + 1.25f * i, y + 0.5f + 1.25f * j) * "
    "inv);\n"
    "  return acc;\n"                                                                 /* 11 */
    "}\n"                                                                             /* 12 */
    "__kernel void blur_const(read_only image2d_t src, write_only image2d_t dst) {\n" /* 13 */
    "  int x = get_global_id(0), y = get_global_id(1);\n"                             /* 14 */
    "  write_imagef(dst, (int2)(x, y), blur_at(src, lin, x, y));\n"                   /* 15 */
    "}\n"                                                                             /* 16 */
    "__kernel void blur_arg(read_only image2d_t src, sampler_t s, __global float4 *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"          /* 18 */
    "  out[y * get_global_size(0) + x] = blur_at(src, s, x, y);\n" /* 19 */
    "}\n"                                                          /* 20 */
    "__kernel void vol_write(write_only image3d_t v) {\n"          /* 21 */
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  write_imageui(v, (int4)(x, y, z, 0), (uint4)(x, y, z, x * 100 + y * 10 + z));\n"
    "}\n"                                                                         /* 24 */
    "__kernel void vol_read(read_only image3d_t v, __global uint4 *out) {\n"      /* 25 */
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"   /* 26 */
    "  int w = get_global_size(0), h = get_global_size(1);\n"                     /* 27 */
    "  out[(z * h + y) * w + x] = read_imageui(v, (int4)(w - 1 - x, y, z, 0));\n" /* 28 */
    "}\n"                                                                         /* 29 */
    "__kernel void arr_write(write_only image1d_array_t a1, write_only image2d_array_t a2) {\n"
    "  int x = get_global_id(0), l = get_global_id(1);\n"                  /* 31 */
    "  write_imagef(a1, (int2)(x, l), (float4)(x, l, 0.5f, 1.0f));\n"      /* 32 */
    "  for (int y = 0; y < get_image_height(a2); y++)\n"                   /* 33 */
    "    write_imagef(a2, (int4)(x, y, l, 0), (float4)(x, y, l, 2.0f));\n" /* 34 */
    "}\n"                                                                  /* 35 */
    "__kernel void arr_read(read_only image1d_array_t a1, read_only image2d_array_t a2,\n"
    "                       __global float4 *out) {\n" /* 37 */
    "  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                      CLK_FILTER_NEAREST;\n" /* 39 */
    "  int x = get_global_id(0), l = get_global_id(1), w = get_global_size(0);\n"
    "  out[2 * (l * w + x)] = read_imagef(a1, s, (float2)(x + 0.5f, l + 0.4f));\n"
    "  out[2 * (l * w + x) + 1] = read_imagef(a2, s, (float4)(x + 0.5f, 1.5f, l - 0.4f, 0));\n"
    "}\n"                                                        /* 43 */
    "__kernel void buf_image(read_write image1d_buffer_t b) {\n" /* 44 */
    "  int x = get_global_id(0);\n"                              /* 45 */
    "  int4 v = read_imagei(b, x);\n"                            /* 46 */
    "  write_imagei(b, x, v * -3);\n"                            /* 47 */
    "}\n"                                                        /* 48 */
    "__kernel void queries(read_only image1d_t i1, write_only image1d_buffer_t ib,\n"
    "                      read_write image1d_array_t ia, read_only image2d_t i2,\n"
    "                      write_only image2d_array_t i2a, read_only image3d_t i3,\n"
    "                      __global int *o) {\n"                              /* 52 */
    "  o[0] = get_image_width(i1); o[1] = get_image_channel_order(i1);\n"     /* 53 */
    "  o[2] = get_image_channel_data_type(i1); o[3] = get_image_width(ib);\n" /* 54 */
    "  o[4] = get_image_width(ia); o[5] = (int)get_image_array_size(ia);\n"   /* 55 */
    "  o[6] = get_image_width(i2); o[7] = get_image_height(i2);\n"            /* 56 */
    "  o[8] = get_image_dim(i2).x; o[9] = get_image_dim(i2).y;\n"             /* 57 */
    "  o[10] = get_image_height(i2a); o[11] = (int)get_image_array_size(i2a);\n"
    "  o[12] = get_image_dim(i2a).x;\n"                                     /* 59 */
    "  int4 d = get_image_dim(i3);\n"                                       /* 60 */
    "  o[13] = d.x; o[14] = d.y; o[15] = d.z; o[16] = d.w;\n"               /* 61 */
    "  o[17] = get_image_depth(i3); o[18] = get_image_channel_order(i3);\n" /* 62 */
    "  o[19] = get_image_channel_data_type(i2a);\n"                         /* 63 */
    "}\n"                                                                   /* 64 */
    "__kernel void rw(read_write image2d_t im) {\n"                         /* 65 */
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"              /* 66 */
    "  uint4 v = read_imageui(im, p);\n"                                    /* 67 */
    "  write_imageui(im, p, v + (uint4)(1, 2, 3, 4));\n"                    /* 68 */
    "  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel,\n" /* 69 */
    "                         memory_scope_work_item);\n"                   /* 70 */
    "  v = read_imageui(im, p);\n"                                          /* 71 */
    "  write_imageui(im, p, v * 2u);\n"                                     /* 72 */
    "}\n"                                                                   /* 73 */
    "__kernel void bad_write(write_only image2d_t dst, int d) {\n"          /* 74 */
    "  int x = get_global_id(0), y = get_global_id(1);\n"                   /* 75 */
    "  write_imagef(dst, (int2)(x == 3 && y == 2 ? x + d : x, y), (float4)(1.0f));\n"
    "}\n" /* 77 */
    "__kernel void bad_read(read_only image2d_t src, int d, __global float4 *o) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n" /* 79 */
    "  o[y * 8 + x] = read_imagef(src, (int2)(x, x == 1 && y == 3 ? y + d : y));\n"
    "}\n" /* 81 */
    "__kernel void bad_none(read_only image2d_t src, float d, __global float4 *o) {\n"
    "  const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_NONE |\n" /* 83 */
    "                      CLK_FILTER_NEAREST;\n"                             /* 84 */
    "  int x = get_global_id(0), y = get_global_id(1);\n"                     /* 85 */
    "  o[y * 8 + x] = read_imagef(src, s, (float2)(x == 2 && y == 1 ? d : 0.5f, 0.5f));\n"
    "}\n" /* 87 */
    "__kernel void bad_sampler(read_only image2d_t src, sampler_t s, __global uint4 *o) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"                    /* 89 */
    "  o[y * 8 + x] = read_imageui(src, s, (float2)(x + 0.5f, y + 0.5f));\n" /* 90 */
    "}\n"                                                                    /* 91 */
    "__kernel void bad_rw(read_write image2d_t im, int wr) {\n"              /* 92 */
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"               /* 93 */
    "  if (wr) write_imagef(im, p, (float4)(0.0f));\n"                       /* 94 */
    "  else if (read_imagef(im, p).x == 7.0f) write_imagef(im, (int2)(0), (float4)(1.0f));\n" /* 95
                                                                                               */
    "}\n"                                                                   /* 96 */
    "__kernel void bad_kind(read_only image2d_t src, __global int4 *o) {\n" /* 97 */
    "  o[0] = read_imagei(src, (int2)(get_global_id(0), 0));\n"             /* 98 */
    "}\n";                                                                  /* 99 */

static cl_context ctx;
static cl_command_queue q;
static cl_program prog;
static uint64_t digest = 1469598103934665603u;
static int failed;

static void mix(const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++)
    digest = (digest ^ b[i]) * 1099511628211u;
}

#define EXPECT(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "images: line %d: ", __LINE__);                                              \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fprintf(stderr, "\n");                                                                       \
      failed = 1;                                                                                  \
    }                                                                                              \
  } while (0)

static cl_mem image(cl_mem_flags flags, cl_channel_order o, cl_channel_type t,
                    cl_mem_object_type ty, size_t w, size_t h, size_t d, size_t layers,
                    cl_mem buffer, void *host) {
  cl_image_format f = {o, t};
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = ty;
  desc.image_width = w;
  desc.image_height = h;
  desc.image_depth = d;
  desc.image_array_size = layers;
  desc.mem_object = buffer;
  cl_int err;
  cl_mem m = clCreateImage(ctx, flags, &f, &desc, host, &err);
  CHECK(err);
  return m;
}

static cl_int run(cl_kernel k, cl_uint dim, const size_t *g) {
  cl_event ev;
  CHECK(clEnqueueNDRangeKernel(q, k, dim, NULL, g, NULL, 0, NULL, &ev));
  clWaitForEvents(1, &ev);
  cl_int st = 0;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  clReleaseEvent(ev);
  return st;
}

static void set(cl_kernel k, cl_uint i, size_t n, const void *v) {
  CHECK(clSetKernelArg(k, i, n, v));
}

static void read_image(cl_mem im, size_t w, size_t h, size_t d, void *dst) {
  size_t o[3] = {0, 0, 0}, r[3] = {w, h, d};
  CHECK(clEnqueueReadImage(q, im, CL_TRUE, o, r, 0, 0, dst, 0, NULL, NULL));
}

/* ---- the blur ---- */

#define BW 29
#define BH 19

static double texel_ref(const uint8_t *img, int x, int y, int c) {
  x = x < 0 ? 0 : x >= BW ? BW - 1 : x;
  y = y < 0 ? 0 : y >= BH ? BH - 1 : y;
  return img[(y * BW + x) * 4 + c] / 255.0;
}

/* Bilinear filtering with normalized coordinates and CLAMP_TO_EDGE, as the
 * OpenCL specification defines it. */
static double bilinear_ref(const uint8_t *img, float s, float t, int c) {
  double u = (double)s * BW - 0.5, v = (double)t * BH - 0.5;
  double i0 = floor(u), j0 = floor(v), a = u - i0, b = v - j0;
  int i = (int)i0, j = (int)j0;
  return (1 - a) * (1 - b) * texel_ref(img, i, j, c) + a * (1 - b) * texel_ref(img, i + 1, j, c) +
         (1 - a) * b * texel_ref(img, i, j + 1, c) + a * b * texel_ref(img, i + 1, j + 1, c);
}

static double blur_ref(const uint8_t *img, int x, int y, int c) {
  static const float wt[3] = {0.25f, 0.5f, 0.25f};
  float inv_w = 1.0f / BW, inv_h = 1.0f / BH;
  double acc = 0;
  for (int j = -1; j <= 1; j++)
    for (int i = -1; i <= 1; i++) {
      float s = (x + 0.5f + 1.25f * (float)i) * inv_w, t = (y + 0.5f + 1.25f * (float)j) * inv_h;
      acc += (double)wt[i + 1] * wt[j + 1] * bilinear_ref(img, s, t, c);
    }
  return acc;
}

static void test_blur(void) {
  static uint8_t in[BW * BH * 4], out8[BW * BH * 4];
  static float outf[BW * BH * 4];
  uint32_t seed = 12345;
  for (size_t i = 0; i < sizeof in; i++)
    in[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 24);
  cl_mem src = image(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNORM_INT8,
                     CL_MEM_OBJECT_IMAGE2D, BW, BH, 0, 0, NULL, in);
  cl_mem dst = image(CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, BW, BH, 0, 0,
                     NULL, NULL);
  cl_mem buf = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof outf, NULL);
  cl_int err;
  cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                   CL_TRUE,
                                   CL_SAMPLER_ADDRESSING_MODE,
                                   CL_ADDRESS_CLAMP_TO_EDGE,
                                   CL_SAMPLER_FILTER_MODE,
                                   CL_FILTER_LINEAR,
                                   0};
  cl_sampler smp = clCreateSamplerWithProperties(ctx, props, &err);
  CHECK(err);
  size_t g[2] = {BW, BH};
  cl_kernel kc = lsh_kernel(prog, "blur_const"), ka = lsh_kernel(prog, "blur_arg");
  set(kc, 0, sizeof src, &src);
  set(kc, 1, sizeof dst, &dst);
  EXPECT(run(kc, 2, g) == CL_COMPLETE, "blur_const failed");
  set(ka, 0, sizeof src, &src);
  set(ka, 1, sizeof smp, &smp);
  set(ka, 2, sizeof buf, &buf);
  EXPECT(run(ka, 2, g) == CL_COMPLETE, "blur_arg failed");
  read_image(dst, BW, BH, 1, out8);
  CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof outf, outf, 0, NULL, NULL));
  double worst = 0;
  int bad8 = 0;
  for (int y = 0; y < BH; y++)
    for (int x = 0; x < BW; x++)
      for (int c = 0; c < 4; c++) {
        double want = blur_ref(in, x, y, c);
        double e = fabs(outf[(y * BW + x) * 4 + c] - want);
        worst = e > worst ? e : worst;
        /* UNORM_INT8 conversion: round to nearest, within the spec's 0.6 ulp */
        bad8 += fabs(out8[(y * BW + x) * 4 + c] - want * 255.0) > 0.6;
      }
  EXPECT(worst < 1e-4, "blur through the sampler argument: error %g", worst);
  EXPECT(bad8 == 0, "blur into UNORM_INT8: %d channels off by more than 0.6", bad8);
  /* the constant sampler and the argument sampler give the same texels */
  int differ = 0;
  for (size_t i = 0; i < sizeof out8; i++) {
    float v = outf[i] < 0 ? 0 : outf[i] > 1 ? 1 : outf[i];
    differ += abs((int)out8[i] - (int)lrintf(v * 255.0f)) > 1;
  }
  EXPECT(differ == 0, "constant sampler and sampler argument differ in %d channels", differ);
  mix(out8, sizeof out8);
  mix(outf, sizeof outf);
  clReleaseSampler(smp);
  clReleaseKernel(kc), clReleaseKernel(ka);
  clReleaseMemObject(src), clReleaseMemObject(dst), clReleaseMemObject(buf);
}

/* ---- a 3D image written and read by kernels ---- */

static void test_3d(void) {
  enum { W = 6, H = 5, D = 4 };
  cl_mem v = image(CL_MEM_READ_WRITE, CL_RGBA, CL_UNSIGNED_INT16, CL_MEM_OBJECT_IMAGE3D, W, H, D, 0,
                   NULL, NULL);
  cl_mem out = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, W * H * D * 16, NULL);
  size_t g[3] = {W, H, D};
  cl_kernel kw = lsh_kernel(prog, "vol_write"), kr = lsh_kernel(prog, "vol_read");
  set(kw, 0, sizeof v, &v);
  EXPECT(run(kw, 3, g) == CL_COMPLETE, "vol_write failed");
  static uint16_t host[W * H * D * 4];
  read_image(v, W, H, D, host);
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        const uint16_t *t = host + ((z * H + y) * W + x) * 4;
        EXPECT(t[0] == x && t[1] == y && t[2] == z && t[3] == x * 100 + y * 10 + z,
               "3D texel (%d, %d, %d) = (%u, %u, %u, %u)", x, y, z, t[0], t[1], t[2], t[3]);
      }
  set(kr, 0, sizeof v, &v);
  set(kr, 1, sizeof out, &out);
  EXPECT(run(kr, 3, g) == CL_COMPLETE, "vol_read failed");
  static uint32_t back[W * H * D * 4];
  CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
  for (int i = 0; i < W * H * D; i++) {
    int x = W - 1 - i % W, y = i / W % H, z = i / (W * H);
    EXPECT(back[4 * i + 3] == (uint32_t)(x * 100 + y * 10 + z), "3D read at %d", i);
  }
  mix(host, sizeof host);
  mix(back, sizeof back);
  clReleaseKernel(kw), clReleaseKernel(kr);
  clReleaseMemObject(v), clReleaseMemObject(out);
}

/* ---- 1D and 2D arrays ---- */

static void test_arrays(void) {
  enum { W = 7, H = 3, L = 4 };
  cl_mem a1 = image(CL_MEM_READ_WRITE, CL_RGBA, CL_FLOAT, CL_MEM_OBJECT_IMAGE1D_ARRAY, W, 0, 0, L,
                    NULL, NULL);
  cl_mem a2 = image(CL_MEM_READ_WRITE, CL_RGBA, CL_FLOAT, CL_MEM_OBJECT_IMAGE2D_ARRAY, W, H, 0, L,
                    NULL, NULL);
  cl_mem out = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, W * L * 2 * 16, NULL);
  size_t g[2] = {W, L};
  cl_kernel kw = lsh_kernel(prog, "arr_write"), kr = lsh_kernel(prog, "arr_read");
  set(kw, 0, sizeof a1, &a1);
  set(kw, 1, sizeof a2, &a2);
  EXPECT(run(kw, 2, g) == CL_COMPLETE, "arr_write failed");
  static float h1[W * L * 4], h2[W * H * L * 4];
  size_t o[3] = {0, 0, 0}, r1[3] = {W, L, 1}, r2[3] = {W, H, L};
  CHECK(clEnqueueReadImage(q, a1, CL_TRUE, o, r1, 0, 0, h1, 0, NULL, NULL));
  CHECK(clEnqueueReadImage(q, a2, CL_TRUE, o, r2, 0, 0, h2, 0, NULL, NULL));
  for (int l = 0; l < L; l++)
    for (int x = 0; x < W; x++) {
      const float *t = h1 + (l * W + x) * 4;
      EXPECT(t[0] == x && t[1] == l && t[2] == 0.5f, "1D array texel (%d, %d)", x, l);
      for (int y = 0; y < H; y++) {
        t = h2 + ((l * H + y) * W + x) * 4;
        EXPECT(t[0] == x && t[1] == y && t[2] == l && t[3] == 2.0f, "2D array (%d,%d,%d)", x, y, l);
      }
    }
  set(kr, 0, sizeof a1, &a1);
  set(kr, 1, sizeof a2, &a2);
  set(kr, 2, sizeof out, &out);
  EXPECT(run(kr, 2, g) == CL_COMPLETE, "arr_read failed");
  static float back[W * L * 2 * 4];
  CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
  for (int l = 0; l < L; l++)
    for (int x = 0; x < W; x++) {
      const float *b1 = back + 8 * (l * W + x), *b2 = b1 + 4;
      /* layer l + 0.4 rounds to l; l - 0.4 to l (clamped at 0) */
      EXPECT(b1[0] == x && b1[1] == l, "1D array read (%d, %d): (%g, %g)", x, l, b1[0], b1[1]);
      EXPECT(b2[0] == x && b2[1] == 1 && b2[2] == l, "2D array read (%d, %d): (%g, %g, %g)", x, l,
             b2[0], b2[1], b2[2]);
    }
  mix(h1, sizeof h1), mix(h2, sizeof h2), mix(back, sizeof back);
  clReleaseKernel(kw), clReleaseKernel(kr);
  clReleaseMemObject(a1), clReleaseMemObject(a2), clReleaseMemObject(out);
}

/* ---- image1d_buffer: the kernel's writes are the buffer's contents ---- */

static void test_image1d_buffer(void) {
  enum { N = 37 };
  int32_t init[N * 4];
  for (int i = 0; i < N * 4; i++)
    init[i] = i - 50;
  cl_mem b = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init);
  cl_mem im = image(CL_MEM_READ_WRITE, CL_RGBA, CL_SIGNED_INT32, CL_MEM_OBJECT_IMAGE1D_BUFFER, N, 0,
                    0, 0, b, NULL);
  cl_kernel k = lsh_kernel(prog, "buf_image");
  set(k, 0, sizeof im, &im);
  size_t g = N;
  EXPECT(run(k, 1, &g) == CL_COMPLETE, "buf_image failed");
  int32_t back[N * 4];
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
  for (int i = 0; i < N * 4; i++)
    EXPECT(back[i] == (i - 50) * -3, "buffer word %d = %d", i, back[i]);
  mix(back, sizeof back);
  clReleaseKernel(k);
  clReleaseMemObject(im), clReleaseMemObject(b);
}

/* ---- get_image_* ---- */

static void test_queries(void) {
  cl_mem b = lsh_buffer(ctx, CL_MEM_READ_WRITE, 64 * 16, NULL);
  cl_mem im[6] = {
      image(CL_MEM_READ_ONLY, CL_R, CL_UNORM_INT16, CL_MEM_OBJECT_IMAGE1D, 33, 0, 0, 0, NULL, NULL),
      image(CL_MEM_WRITE_ONLY, CL_RGBA, CL_FLOAT, CL_MEM_OBJECT_IMAGE1D_BUFFER, 41, 0, 0, 0, b,
            NULL),
      image(CL_MEM_READ_WRITE, CL_RG, CL_SNORM_INT8, CL_MEM_OBJECT_IMAGE1D_ARRAY, 12, 0, 0, 5, NULL,
            NULL),
      image(CL_MEM_READ_ONLY, CL_BGRA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 17, 9, 0, 0, NULL,
            NULL),
      image(CL_MEM_WRITE_ONLY, CL_RGBA, CL_HALF_FLOAT, CL_MEM_OBJECT_IMAGE2D_ARRAY, 8, 6, 0, 3,
            NULL, NULL),
      image(CL_MEM_READ_ONLY, CL_RGBA, CL_UNSIGNED_INT8, CL_MEM_OBJECT_IMAGE3D, 4, 3, 2, 0, NULL,
            NULL),
  };
  cl_mem out = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, 20 * sizeof(int), NULL);
  cl_kernel k = lsh_kernel(prog, "queries");
  for (cl_uint i = 0; i < 6; i++)
    set(k, i, sizeof im[i], &im[i]);
  set(k, 6, sizeof out, &out);
  size_t g = 1;
  EXPECT(run(k, 1, &g) == CL_COMPLETE, "queries failed");
  int o[20];
  CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
  const int want[20] = {33, CL_R,    CL_UNORM_INT16, 41, 12, 5, 17, 9, 17, 9, 6, 3, 8, 4, 3, 2, 0,
                        2,  CL_RGBA, CL_HALF_FLOAT};
  for (int i = 0; i < 20; i++)
    EXPECT(o[i] == want[i], "query %d = %d, want %d", i, o[i], want[i]);
  mix(o, sizeof o);
  clReleaseKernel(k);
  for (int i = 0; i < 6; i++)
    clReleaseMemObject(im[i]);
  clReleaseMemObject(out), clReleaseMemObject(b);
}

/* ---- read_write with a fence between a work-item's own accesses ---- */

static void test_read_write(void) {
  enum { W = 9, H = 7 };
  uint32_t init[W * H * 4];
  for (int i = 0; i < W * H * 4; i++)
    init[i] = (uint32_t)(i * 7);
  cl_mem im = image(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNSIGNED_INT32,
                    CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0, NULL, init);
  cl_kernel k = lsh_kernel(prog, "rw");
  set(k, 0, sizeof im, &im);
  size_t g[2] = {W, H};
  EXPECT(run(k, 2, g) == CL_COMPLETE, "rw failed");
  uint32_t back[W * H * 4];
  read_image(im, W, H, 1, back);
  for (int i = 0; i < W * H * 4; i++)
    EXPECT(back[i] == (init[i] + (uint32_t)(i % 4 + 1)) * 2, "rw texel word %d = %u", i, back[i]);
  mix(back, sizeof back);
  clReleaseKernel(k);
  clReleaseMemObject(im);
}

/* ---- device exceptions ---- */

static char notified[2048];
static void CL_CALLBACK notify(const char *errinfo, const void *pi, size_t cb, void *user) {
  (void)pi, (void)cb, (void)user;
  snprintf(notified, sizeof notified, "%s", errinfo);
}

struct bad_case {
  const char *kernel;
  cl_mem_flags flags;
  cl_channel_type dtype;
  int arg; /* the second argument (int, or float for bad_none) */
  const char *want[4];
};

static const struct bad_case bad_cases[] = {
    {"bad_write",
     CL_MEM_WRITE_ONLY,
     CL_FLOAT,
     5,
     {".cl:76", "work-item (3,2,0)", "write_imagef at (8, 2) outside image 'dst' (argument 0)",
      "8 x 4"}},
    {"bad_read",
     CL_MEM_READ_ONLY,
     CL_FLOAT,
     2,
     {".cl:80", "work-item (1,3,0)", "read_imagef without a sampler at (1, 5) outside image 'src'",
      NULL}},
    {"bad_none",
     CL_MEM_READ_ONLY,
     CL_FLOAT,
     0,
     {".cl:86", "work-item (2,1,0)", "read_imagef with CLK_ADDRESS_NONE at (1.25, 0.5) outside",
      "image 'src' (argument 0)"}},
    {"bad_sampler",
     CL_MEM_READ_ONLY,
     CL_UNSIGNED_INT32,
     0,
     {".cl:90", "read_imageui on image 'src' (argument 0) at (0.5, 0.5)",
      "CLK_FILTER_LINEAR on an integer image", NULL}},
    {"bad_rw",
     CL_MEM_READ_ONLY,
     CL_FLOAT,
     1,
     {".cl:94", "write_imagef on image 'im' (argument 0)", "CL_MEM_READ_ONLY", NULL}},
    {"bad_rw",
     CL_MEM_WRITE_ONLY,
     CL_FLOAT,
     0,
     {".cl:95", "read_imagef on image 'im' (argument 0)", "CL_MEM_WRITE_ONLY", NULL}},
    {"bad_kind",
     CL_MEM_READ_ONLY,
     CL_FLOAT,
     0,
     {".cl:98", "read_imagei on image 'src' (argument 0) of channel data type CL_FLOAT", NULL,
      NULL}},
};

static void test_faults(void) {
  for (size_t c = 0; c < sizeof bad_cases / sizeof bad_cases[0]; c++) {
    const struct bad_case *bc = &bad_cases[c];
    static const float texels[8 * 4 * 4]; /* defined: only the faults are wanted */
    cl_mem im = image(bc->flags | CL_MEM_COPY_HOST_PTR, CL_RGBA, bc->dtype, CL_MEM_OBJECT_IMAGE2D,
                      8, 4, 0, 0, NULL, (void *)texels);
    cl_mem out = lsh_buffer(ctx, CL_MEM_READ_WRITE, 8 * 4 * 16, NULL);
    cl_kernel k = lsh_kernel(prog, bc->kernel);
    set(k, 0, sizeof im, &im);
    cl_uint next = 1;
    if (!strcmp(bc->kernel, "bad_sampler")) {
      cl_int err;
      cl_sampler_properties sp[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_FILTER_MODE,
                                    CL_FILTER_LINEAR, 0};
      cl_sampler s = clCreateSamplerWithProperties(ctx, sp, &err);
      CHECK(err);
      set(k, next++, sizeof s, &s);
      clReleaseSampler(s);
    } else if (!strcmp(bc->kernel, "bad_none")) {
      float d = 1.25f;
      set(k, next++, sizeof d, &d);
    } else if (strcmp(bc->kernel, "bad_kind")) {
      set(k, next++, sizeof bc->arg, &bc->arg);
    }
    if (strcmp(bc->kernel, "bad_write") && strcmp(bc->kernel, "bad_rw"))
      set(k, next++, sizeof out, &out);
    notified[0] = 0;
    size_t g[2] = {8, 4};
    cl_int st = run(k, 2, g);
    EXPECT(st < 0, "%s: status %d", bc->kernel, st);
    EXPECT(strstr(notified, "device exception in kernel '") && strstr(notified, bc->kernel),
           "%s: no exception report: %s", bc->kernel, notified);
    for (int i = 0; i < 4 && bc->want[i]; i++)
      EXPECT(strstr(notified, bc->want[i]), "%s: '%s' not in: %s", bc->kernel, bc->want[i],
             notified);
    mix(notified, strlen(notified));
    clReleaseKernel(k);
    clReleaseMemObject(im), clReleaseMemObject(out);
  }
}

/* LOCKSTEP_FAULTS=report: the write outside the image is reported once and
 * dropped, and every other work-item's write lands. */
static void test_report(void) {
  cl_mem im =
      image(CL_MEM_WRITE_ONLY, CL_RGBA, CL_FLOAT, CL_MEM_OBJECT_IMAGE2D, 8, 4, 0, 0, NULL, NULL);
  cl_kernel k = lsh_kernel(prog, "bad_write");
  int d = 5;
  set(k, 0, sizeof im, &im);
  set(k, 1, sizeof d, &d);
  notified[0] = 0;
  size_t g[2] = {8, 4};
  EXPECT(run(k, 2, g) == CL_COMPLETE, "bad_write under LOCKSTEP_FAULTS=report did not complete");
  EXPECT(strstr(notified, "write_imagef at (8, 2) outside image 'dst' (argument 0)"),
         "no report: %s", notified);
  float back[8 * 4 * 4];
  read_image(im, 8, 4, 1, back);
  for (int i = 0; i < 8 * 4; i++)
    EXPECT(back[4 * i] == (i == 2 * 8 + 3 ? 0.0f : 1.0f), "texel %d = %g", i, back[4 * i]);
  mix(back, sizeof back);
  clReleaseKernel(k);
  clReleaseMemObject(im);
}

static int run_one(const char *mode) {
  cl_device_id dev = lsh_device();
  cl_int err;
  ctx = clCreateContext(NULL, 1, &dev, notify, NULL, &err);
  CHECK(err);
  q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);
  prog = clCreateProgramWithSource(ctx, 1, &kernel_src, NULL, &err);
  CHECK(err);
  lsh_build_program(prog, dev, "-cl-std=CL3.0");
  if (!strcmp(mode, "report")) {
    test_report();
  } else {
    test_blur();
    test_3d();
    test_arrays();
    test_image1d_buffer();
    test_queries();
    test_read_write();
    test_faults();
  }
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  const char *path = getenv("IMAGES_DIGEST");
  FILE *f = path ? fopen(path, "w") : NULL;
  if (f) {
    fprintf(f, "%016llx\n", (unsigned long long)digest);
    fclose(f);
  }
  return failed;
}

int main(int argc, char **argv) {
  if (argc > 1) return run_one(argv[1]);
  static const char *const modes[4][3] = {
      {"w32t1", "32", "1"}, {"w8t1", "8", "1"}, {"w32t2", "32", "2"}, {"w8t2", "8", "2"}};
  char digests[4][64];
  int bad = 0;
  for (int i = 0; i < 4; i++) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/lockstep-images-%d-%d", (int)getpid(), i);
    setenv("IMAGES_DIGEST", path, 1);
    setenv("LOCKSTEP_HOST_THREADS", modes[i][2], 1);
    bad |= lsh_run_self(argv[0], modes[i][0], "LOCKSTEP_WARP_WIDTH", modes[i][1]);
    FILE *f = fopen(path, "r");
    digests[i][0] = 0;
    if (!f || !fgets(digests[i], sizeof digests[i], f)) bad = 1;
    if (f) fclose(f);
    remove(path);
    if (i && strcmp(digests[i], digests[0])) {
      fprintf(stderr, "images: results of %s differ from %s\n", modes[i][0], modes[0][0]);
      bad = 1;
    }
  }
  unsetenv("IMAGES_DIGEST");
  unsetenv("LOCKSTEP_HOST_THREADS");
  bad |= lsh_run_self(argv[0], "report", "LOCKSTEP_FAULTS", "report");
  printf("images: %s\n", bad ? "FAILED" : "every setting gave the same, correct results");
  return bad;
}
