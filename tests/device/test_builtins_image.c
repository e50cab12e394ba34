/*
 * test_builtins_image.c - the image builtins (device/builtins_image.c) on
 * the SIMT engine: OpenCL C kernels built by the compiler and launched on a
 * device whose image descriptors and texels this test lays out itself in
 * device memory (the layout of device/image.h), so neither the runtime nor
 * the sampling code is under test here beyond NEAREST reads of CL_FLOAT and
 * CL_UNSIGNED_INT32 texels. Every launch runs at warp widths 8 and 32 and on
 * 1 and 2 host threads. The undefined accesses each stop the kernel with a
 * device exception naming the image argument and the coordinates.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc.h"
#include "device/device.h"
#include "device/image.h"
#include "device/lsi.h"
#include "device/mem.h"
#include "device/simt.h"
#include "util/check_util.h"

#include "kconfig.h"

static const unsigned configs[4][2] = {{32, 1}, {8, 1}, {32, 2}, {8, 2}};

static struct dev_device *mkdev(unsigned W, unsigned threads, bool report) {
  struct dev_config c;
  memset(&c, 0, sizeof(c));
  c.compute_units = 2;
  c.warp_width = W;
  c.host_threads = threads;
  c.engine = kc_engine();
  c.local_mem_size = 65536;
  c.max_wg_size = 1024;
  c.faults_report = report;
  struct dev_device *d = dev_device_new(&c);
  ck_assert_ptr_nonnull(d);
  return d;
}

static struct lsi_program *build_opts(const char *src, const char *opts) {
  struct lsi_program *p = NULL;
  char *log = NULL;
  int rc = cc_build(src, "img.cl", opts, &p, &log);
  ck_assert_msg(rc == 0 && p, "build failed: %s", log ? log : "");
  free(log);
  return p;
}
static struct lsi_program *build(const char *src) {
  return build_opts(src, "-cl-std=CL1.2");
}

static const struct lsi_kernel *kernel(const struct lsi_program *p, const char *name) {
  for (uint32_t i = 0; i < p->nkernels; i++)
    if (!strcmp(p->kernels[i].name, name)) return &p->kernels[i];
  ck_abort_msg("no kernel %s", name);
  return NULL;
}

/* An image this test lays out: the descriptor (mapped read-only, as the
 * runtime maps it) and its texels, rows padded to show the pitches count. */
struct img {
  struct dev_image d;
  uint8_t *texels;
  uint64_t size;
  uint64_t addr; /* the descriptor's device address */
};

static void img_make(struct img *im, uint32_t type, uint32_t order, uint32_t dtype, uint64_t w,
                     uint64_t h, uint64_t z, uint32_t flags) {
  memset(im, 0, sizeof *im);
  struct dev_image *d = &im->d;
  d->magic = DEV_IMAGE_MAGIC;
  d->type = type;
  d->order = order;
  d->dtype = dtype;
  d->elem_size = (order == CL_RGBA ? 4 : 1) * 4;
  d->mem_flags = flags;
  d->dims[0] = w;
  d->dims[1] = h;
  d->dims[2] = z;
  d->pitch[0] = w * d->elem_size + 16;
  d->pitch[1] = d->pitch[0] * h + 32;
  d->width = w;
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: d->array_size = h; break;
  case CL_MEM_OBJECT_IMAGE2D: d->height = h; break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    d->height = h;
    d->array_size = z;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    d->height = h;
    d->depth = z;
    break;
  default: break;
  }
  im->size = d->pitch[1] * z;
  im->texels = calloc(1, im->size);
}

/* Maps the texels and the descriptor on dev. */
static void img_map(struct img *im, struct dev_device *dev) {
  struct dev_mem *m = dev_device_mem(dev);
  im->d.data = dev_mem_map(m, im->texels, im->size, false);
  im->addr = dev_mem_map(m, &im->d, sizeof im->d, true);
  ck_assert(im->d.data && im->addr);
}

static uint8_t *texel(struct img *im, uint64_t x, uint64_t y, uint64_t z) {
  return im->texels + x * im->d.elem_size + y * im->d.pitch[0] + z * im->d.pitch[1];
}

/* The reports of LOCKSTEP_FAULTS=report. */
static char reports[4][600];
static unsigned nreports;
static void on_report(void *arg, const struct dev_exception *e) {
  (void)arg;
  if (nreports < 4) dev_exception_format(e, reports[nreports], sizeof reports[0]);
  nreports++;
}

/* Launches kernel k of p over global[0..1] (local 4 x 2) with its arguments
 * given as 8-byte values in order (ints take the low 4 bytes). */
static int launch(struct dev_device *dev, const struct lsi_program *p, const char *k,
                  const uint64_t *argv, const uint64_t *global, struct dev_exception *exc) {
  const struct lsi_kernel *kk = kernel(p, k);
  uint8_t *argbuf = calloc(1, kk->argbuf_size + 8);
  for (uint32_t j = 0; j < kk->nargs; j++)
    memcpy(argbuf + kk->args[j].buf_offset, &argv[j], kk->args[j].size < 8 ? kk->args[j].size : 8);
  struct dev_launch l;
  memset(&l, 0, sizeof l);
  l.prog = p;
  l.kernel = kk;
  l.work_dim = 2;
  l.global[0] = global[0];
  l.global[1] = global[1];
  l.local[0] = global[0] % 4 ? 1 : 4;
  l.local[1] = global[1] % 2 ? 1 : 2;
  l.argbuf = argbuf;
  l.report = on_report;
  memset(exc, 0, sizeof *exc);
  int rc = simt_launch(dev, &l, exc);
  free(argbuf);
  return rc;
}

static const char *rw_src =
    "__kernel void fill(write_only image2d_t dst) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imagef(dst, (int2)(x, y), (float4)(x, y, x * y, -1.5f));\n"
    "}\n"
    "const sampler_t near = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                       CLK_FILTER_NEAREST;\n"
    "__kernel void copy(read_only image2d_t src, sampler_t s, __global float4 *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);\n"
    "  float4 a = read_imagef(src, (int2)(x, y));\n"
    "  float4 b = read_imagef(src, near, (float2)(x + 0.5f, y + 0.5f));\n"
    "  float4 c = read_imagef(src, s, (int2)(x, y));\n"
    "  out[3 * (y * w + x)] = a;\n"
    "  out[3 * (y * w + x) + 1] = b;\n"
    "  out[3 * (y * w + x) + 2] = c;\n"
    "}\n";

/* write_imagef lays texels out at the descriptor's pitches; read_imagef
 * without a sampler, through a constant sampler and through a sampler
 * argument reads them back; at -O0 (images and samplers in allocas) and O2. */
START_TEST(test_write_then_read_2d) {
  struct lsi_program *p =
      build_opts(rw_src, _i ? "-cl-std=CL1.2" : "-cl-std=CL1.2 -cl-opt-disable");
  for (unsigned c = 0; c < 4; c++) {
    struct dev_device *dev = mkdev(configs[c][0], configs[c][1], false);
    struct img im;
    img_make(&im, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 12, 6, 1, CL_MEM_READ_WRITE);
    img_map(&im, dev);
    float out[12 * 6 * 12];
    uint64_t dout = dev_mem_map(dev_device_mem(dev), out, sizeof out, false);
    uint64_t g[2] = {12, 6};
    struct dev_exception exc;
    uint64_t a1[1] = {im.addr};
    ck_assert_int_eq(launch(dev, p, "fill", a1, g, &exc), 0);
    for (unsigned y = 0; y < 6; y++)
      for (unsigned x = 0; x < 12; x++) {
        float t[4];
        memcpy(t, texel(&im, x, y, 0), 16);
        ck_assert(t[0] == (float)x && t[1] == (float)y && t[2] == (float)(x * y) && t[3] == -1.5f);
      }
    uint64_t a2[3] = {im.addr, DEV_SAMPLER_CLAMP | DEV_SAMPLER_NEAREST, dout};
    ck_assert_int_eq(launch(dev, p, "copy", a2, g, &exc), 0);
    for (unsigned i = 0; i < 12 * 6 * 3; i++) {
      unsigned xy = i / 3, x = xy % 12, y = xy / 12;
      const float *o = out + 4 * i;
      ck_assert_msg(o[0] == (float)x && o[1] == (float)y && o[2] == (float)(x * y) && o[3] == -1.5f,
                    "config %u: read %u at (%u, %u) = (%g, %g, %g, %g)", c, i % 3, x, y, o[0], o[1],
                    o[2], o[3]);
    }
    dev_device_free(dev);
    free(im.texels);
  }
  cc_program_free(p);
}
END_TEST

/* Reads of a 3D image and writes/reads of 1D and 2D arrays and of a 1D
 * buffer image, with their layer coordinates. */
static const char *types_src =
    "__kernel void vol(read_only image3d_t v, __global uint4 *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  out[y * 4 + x] = read_imageui(v, (int4)(x, y, 2, 0));\n"
    "}\n"
    "__kernel void arr(write_only image2d_array_t a2, write_only image1d_array_t a1,\n"
    "                  write_only image1d_buffer_t b) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imageui(a2, (int4)(x, 1, y, 7), (uint4)(x, y, 1, 2));\n"
    "  write_imageui(a1, (int2)(x, y), (uint4)(x + 10, y, 1, 2));\n"
    "  if (y == 0) write_imageui(b, x, (uint4)(x + 20, 0, 0, 0));\n"
    "}\n"
    "__kernel void arr_rd(read_only image2d_array_t a2, read_only image1d_array_t a1,\n"
    "                     read_only image1d_buffer_t b, __global uint4 *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  out[3 * (y * 4 + x)] = read_imageui(a2, (int4)(x, 1, y, 0));\n"
    "  out[3 * (y * 4 + x) + 1] = read_imageui(a1, (int2)(x, y));\n"
    "  out[3 * (y * 4 + x) + 2] = read_imageui(b, x);\n"
    "}\n";

START_TEST(test_3d_arrays_buffer) {
  struct lsi_program *p = build(types_src);
  for (unsigned c = 0; c < 4; c++) {
    struct dev_device *dev = mkdev(configs[c][0], configs[c][1], false);
    struct img v, a2, a1, b;
    img_make(&v, CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_UNSIGNED_INT32, 4, 2, 3, CL_MEM_READ_ONLY);
    img_make(&a2, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_UNSIGNED_INT32, 4, 3, 2, 0);
    img_make(&a1, CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_UNSIGNED_INT32, 4, 2, 1, 0);
    img_make(&b, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_RGBA, CL_UNSIGNED_INT32, 4, 1, 1, 0);
    for (uint32_t z = 0; z < 3; z++)
      for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 4; x++) {
          uint32_t t[4] = {x, y, z, 100 * z + 10 * y + x};
          memcpy(texel(&v, x, y, z), t, 16);
        }
    img_map(&v, dev), img_map(&a2, dev), img_map(&a1, dev), img_map(&b, dev);
    uint32_t out[4 * 2 * 3 * 4];
    uint64_t dout = dev_mem_map(dev_device_mem(dev), out, sizeof out, false);
    uint64_t g[2] = {4, 2};
    struct dev_exception exc;
    uint64_t av[2] = {v.addr, dout};
    ck_assert_int_eq(launch(dev, p, "vol", av, g, &exc), 0);
    for (uint32_t i = 0; i < 8; i++)
      ck_assert_uint_eq(out[4 * i + 3], 200 + 10 * (i / 4) + i % 4);
    uint64_t aw[3] = {a2.addr, a1.addr, b.addr};
    ck_assert_int_eq(launch(dev, p, "arr", aw, g, &exc), 0);
    for (uint32_t y = 0; y < 2; y++)
      for (uint32_t x = 0; x < 4; x++) {
        uint32_t t[4];
        memcpy(t, texel(&a2, x, 1, y), 16);
        ck_assert(t[0] == x && t[1] == y && t[2] == 1 && t[3] == 2);
        memcpy(t, texel(&a1, x, y, 0), 16);
        ck_assert(t[0] == x + 10 && t[1] == y);
      }
    uint64_t ar[4] = {a2.addr, a1.addr, b.addr, dout};
    ck_assert_int_eq(launch(dev, p, "arr_rd", ar, g, &exc), 0);
    for (uint32_t i = 0; i < 8; i++) {
      uint32_t x = i % 4, y = i / 4;
      ck_assert_uint_eq(out[12 * i + 0], x);
      ck_assert_uint_eq(out[12 * i + 1], y);
      ck_assert_uint_eq(out[12 * i + 4], x + 10);
      ck_assert_uint_eq(out[12 * i + 8], x + 20);
    }
    dev_device_free(dev);
    free(v.texels), free(a2.texels), free(a1.texels), free(b.texels);
  }
  cc_program_free(p);
}
END_TEST

static const char *query_src =
    "__kernel void q(read_only image1d_t i1, write_only image1d_buffer_t ib,\n"
    "                read_only image1d_array_t ia, write_only image2d_t i2,\n"
    "                read_only image2d_array_t i2a, read_only image3d_t i3, __global long *o) {\n"
    "  o[0] = get_image_width(i1); o[1] = get_image_channel_order(i1);\n"
    "  o[2] = get_image_width(ib); o[3] = get_image_channel_data_type(ib);\n"
    "  o[4] = get_image_width(ia); o[5] = get_image_array_size(ia);\n"
    "  o[6] = get_image_width(i2); o[7] = get_image_height(i2);\n"
    "  o[8] = get_image_dim(i2).x; o[9] = get_image_dim(i2).y;\n"
    "  o[10] = get_image_height(i2a); o[11] = get_image_array_size(i2a);\n"
    "  o[12] = get_image_dim(i2a).y;\n"
    "  int4 d = get_image_dim(i3);\n"
    "  o[13] = d.x; o[14] = d.y; o[15] = d.z; o[16] = d.w;\n"
    "  o[17] = get_image_depth(i3); o[18] = get_image_channel_data_type(i3);\n"
    "}\n";

/* Images and samplers chosen at run time (select, phi, a helper's
 * parameters; allocas at -O0): a CLAMP_TO_EDGE sampler argument and a
 * constant CLAMP sampler tell themselves apart above row 0. */
static const char *pick_src =
    "uint4 get(read_only image2d_t im, sampler_t s, int2 p) { return read_imageui(im, s, p); }\n"
    "__kernel void pick(read_only image2d_t a, read_only image2d_t b, sampler_t s1,\n"
    "                   __global uint4 *o) {\n"
    "  const sampler_t s2 = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP |\n"
    "                       CLK_FILTER_NEAREST;\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  uint4 r = 0;\n"
    "  for (int i = 0; i <= x % 3; i++)\n"
    "    r += get(i & 1 ? a : b, (x + i) & 2 ? s1 : s2, (int2)(x, y - 1));\n"
    "  o[y * 8 + x] = r;\n"
    "}\n";

START_TEST(test_images_chosen_at_run_time) {
  struct lsi_program *p =
      build_opts(pick_src, _i ? "-cl-std=CL1.2" : "-cl-std=CL1.2 -cl-opt-disable");
  for (unsigned c = 0; c < 4; c++) {
    struct dev_device *dev = mkdev(configs[c][0], configs[c][1], false);
    struct img a, b;
    img_make(&a, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNSIGNED_INT32, 8, 2, 1, 0);
    img_make(&b, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNSIGNED_INT32, 8, 2, 1, 0);
    for (uint32_t y = 0; y < 2; y++)
      for (uint32_t x = 0; x < 8; x++) {
        uint32_t ta[4] = {1, x, y, 0}, tb[4] = {100, x, y, 0};
        memcpy(texel(&a, x, y, 0), ta, 16);
        memcpy(texel(&b, x, y, 0), tb, 16);
      }
    img_map(&a, dev), img_map(&b, dev);
    uint32_t out[8 * 2 * 4];
    uint64_t argv[4] = {a.addr, b.addr, DEV_SAMPLER_CLAMP_EDGE | DEV_SAMPLER_NEAREST,
                        dev_mem_map(dev_device_mem(dev), out, sizeof out, false)};
    uint64_t g[2] = {8, 2};
    struct dev_exception exc;
    ck_assert_int_eq(launch(dev, p, "pick", argv, g, &exc), 0);
    for (uint32_t y = 0; y < 2; y++)
      for (uint32_t x = 0; x < 8; x++) {
        uint32_t want[4] = {0, 0, 0, 0};
        for (uint32_t i = 0; i <= x % 3; i++) {
          bool edge = (x + i) & 2; /* s1: row -1 clamps to row 0; s2: border 0 */
          if (y == 0 && !edge) continue;
          want[0] += i & 1 ? 1 : 100;
          want[1] += x;
        }
        const uint32_t *o = out + 4 * (y * 8 + x);
        ck_assert_msg(o[0] == want[0] && o[1] == want[1], "config %u (%u, %u): %u %u, want %u %u",
                      c, x, y, o[0], o[1], want[0], want[1]);
      }
    dev_device_free(dev);
    free(a.texels), free(b.texels);
  }
  cc_program_free(p);
}
END_TEST

START_TEST(test_queries) {
  struct lsi_program *p = build(query_src);
  struct dev_device *dev = mkdev(8, 1, false);
  struct img im[6];
  img_make(&im[0], CL_MEM_OBJECT_IMAGE1D, CL_R, CL_FLOAT, 9, 1, 1, 0);
  img_make(&im[1], CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_RGBA, CL_UNSIGNED_INT32, 11, 1, 1, 0);
  img_make(&im[2], CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_FLOAT, 5, 3, 1, 0);
  img_make(&im[3], CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 7, 4, 1, 0);
  img_make(&im[4], CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_FLOAT, 6, 2, 8, 0);
  img_make(&im[5], CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_SIGNED_INT32, 3, 4, 5, 0);
  uint64_t argv[7];
  for (unsigned i = 0; i < 6; i++) {
    img_map(&im[i], dev);
    argv[i] = im[i].addr;
  }
  int64_t o[19];
  memset(o, 0x55, sizeof o);
  argv[6] = dev_mem_map(dev_device_mem(dev), o, sizeof o, false);
  uint64_t g[2] = {1, 1};
  struct dev_exception exc;
  ck_assert_int_eq(launch(dev, p, "q", argv, g, &exc), 0);
  const int64_t want[19] = {9, CL_R, 11, CL_UNSIGNED_INT32, 5, 3, 7, 4, 7, 4, 2, 8, 2, 3, 4,
                            5, 0,    5,  CL_SIGNED_INT32};
  for (unsigned i = 0; i < 19; i++)
    ck_assert_msg(o[i] == want[i], "o[%u] = %ld, want %ld", i, (long)o[i], (long)want[i]);
  dev_device_free(dev);
  for (unsigned i = 0; i < 6; i++)
    free(im[i].texels);
  cc_program_free(p);
}
END_TEST

/* ---- undefined accesses: a device exception naming image and coordinates ---- */

static const char *fault_src =
    "__kernel void wr(write_only image2d_t dst, int dx) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imagef(dst, (int2)(x + (x == 5 && y == 1 ? dx : 0), y), (float4)(1.0f));\n"
    "}\n"
    "__kernel void rd(read_only image2d_t src, int dx, __global float4 *o) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  o[y * 8 + x] = read_imagef(src, (int2)(x, y - (x == 3 && y == 0 ? dx : 0)));\n"
    "}\n"
    "__kernel void rd_none(read_only image2d_t src, int dx, __global float4 *o) {\n"
    "  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  o[y * 8 + x] = read_imagef(src, s, (float2)(x + 0.5f + (x == 2 && y == 0 ? dx : 0), y + "
    "0.5f));\n"
    "}\n"
    "__kernel void rd_i(read_only image2d_t src, __global int4 *o) {\n"
    "  o[0] = read_imagei(src, (int2)(0, 0));\n"
    "}\n"
    "__kernel void rd_layer(read_only image2d_array_t src, int l, __global float4 *o) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  o[y * 8 + x] = read_imagef(src, (int4)(x, y, x == 6 && y == 2 ? l : 1, 0));\n"
    "}\n";

struct fault_case {
  const char *kernel;
  uint32_t type; /* 0: CL_MEM_OBJECT_IMAGE2D */
  int dx;
  uint32_t flags;
  uint32_t magic;
  unsigned line;
  uint64_t gid[2];     /* the faulting work-item; ANY_ITEM when all of them fault */
  const char *want[3]; /* substrings of the message */
};

/* Every work-item faults: with several host threads any work-group may
 * report first, so only the report's other parts are checked. */
#define ANY_ITEM                                                                                   \
  { UINT64_MAX, UINT64_MAX }

static const struct fault_case fault_cases[] = {
    {"wr",
     0,
     3,
     0,
     DEV_IMAGE_MAGIC,
     3,
     {5, 1},
     {"write_imagef at (8, 1) outside image 'dst' (argument 0)", "8 x 4", NULL}},
    {"wr",
     0,
     0,
     CL_MEM_READ_ONLY,
     DEV_IMAGE_MAGIC,
     3,
     ANY_ITEM,
     {"write_imagef on image 'dst'", "CL_MEM_READ_ONLY", NULL}},
    {"rd",
     0,
     1,
     0,
     DEV_IMAGE_MAGIC,
     7,
     {3, 0},
     {"read_imagef without a sampler at (3, -1) outside image 'src' (argument 0)", NULL, NULL}},
    {"rd",
     0,
     0,
     CL_MEM_WRITE_ONLY,
     DEV_IMAGE_MAGIC,
     7,
     ANY_ITEM,
     {"read_imagef on image 'src'", "CL_MEM_WRITE_ONLY", NULL}},
    {"rd_none",
     0,
     9,
     0,
     DEV_IMAGE_MAGIC,
     12,
     {2, 0},
     {"read_imagef with CLK_ADDRESS_NONE at (11.5, 0.5) outside image 'src'", NULL, NULL}},
    {"rd_i",
     0,
     0,
     0,
     DEV_IMAGE_MAGIC,
     15,
     ANY_ITEM,
     {"read_imagei on image 'src'", "CL_FLOAT", "read_imagef"}},
    {"rd",
     0,
     0,
     0,
     0x1234,
     7,
     ANY_ITEM,
     {"read_imagef on image 'src' (argument 0): bad image descriptor", NULL, NULL}},
    {"rd_layer",
     CL_MEM_OBJECT_IMAGE2D_ARRAY,
     2,
     0,
     DEV_IMAGE_MAGIC,
     19,
     {6, 2},
     {"read_imagef without a sampler at (6, 2, 2) outside image 'src' (argument 0)",
      "8 x 4 x 2 layers", NULL}},
};

START_TEST(test_undefined_accesses_fault) {
  struct lsi_program *p = build(fault_src);
  for (unsigned c = 0; c < 4; c++) {
    const struct fault_case *fc = &fault_cases[_i];
    struct dev_device *dev = mkdev(configs[c][0], configs[c][1], false);
    struct img im;
    if (fc->type)
      img_make(&im, fc->type, CL_RGBA, CL_FLOAT, 8, 4, 2, fc->flags);
    else
      img_make(&im, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 8, 4, 1, fc->flags);
    im.d.magic = fc->magic;
    img_map(&im, dev);
    float out[8 * 4 * 4];
    uint64_t argv[3] = {im.addr, (uint32_t)fc->dx,
                        dev_mem_map(dev_device_mem(dev), out, sizeof out, false)};
    if (!strcmp(fc->kernel, "rd_i")) argv[1] = argv[2];
    uint64_t g[2] = {8, 4};
    struct dev_exception exc;
    ck_assert_int_eq(launch(dev, p, fc->kernel, argv, g, &exc), CL_OUT_OF_RESOURCES);
    char line[1400];
    dev_exception_format(&exc, line, sizeof line);
    ck_assert_int_eq(exc.trap, LSI_TRAP_IMAGE);
    ck_assert_msg(exc.line == fc->line, "line %u: %s", exc.line, line);
    if (fc->gid[0] != UINT64_MAX)
      ck_assert_msg(exc.global_id[0] == fc->gid[0] && exc.global_id[1] == fc->gid[1], "%s", line);
    ck_assert_msg(strstr(line, "kernel '") && strstr(line, "img.cl:"), "%s", line);
    for (unsigned i = 0; i < 3 && fc->want[i]; i++)
      ck_assert_msg(strstr(line, fc->want[i]), "config %u: '%s' not in: %s", c, fc->want[i], line);
    dev_device_free(dev);
    free(im.texels);
  }
  cc_program_free(p);
}
END_TEST

/* LOCKSTEP_FAULTS=report: the out-of-image write is reported once and
 * dropped; every other work-item's write lands. */
START_TEST(test_report_and_continue) {
  struct lsi_program *p = build(fault_src);
  for (unsigned c = 0; c < 4; c++) {
    struct dev_device *dev = mkdev(configs[c][0], configs[c][1], true);
    struct img im;
    img_make(&im, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 8, 4, 1, 0);
    img_map(&im, dev);
    nreports = 0;
    uint64_t argv[2] = {im.addr, 3};
    uint64_t g[2] = {8, 4};
    struct dev_exception exc;
    ck_assert_int_eq(launch(dev, p, "wr", argv, g, &exc), 0);
    ck_assert_uint_eq(nreports, 1);
    ck_assert_msg(strstr(reports[0], "write_imagef at (8, 1) outside image 'dst'"), "%s",
                  reports[0]);
    for (unsigned y = 0; y < 4; y++)
      for (unsigned x = 0; x < 8; x++) {
        float t[4];
        memcpy(t, texel(&im, x, y, 0), 16);
        ck_assert(t[0] == (x == 5 && y == 1 ? 0.0f : 1.0f));
      }
    dev_device_free(dev);
    free(im.texels);
  }
  cc_program_free(p);
}
END_TEST

/* Depth images (cl_khr_depth_images): write_imagef of one float into layer
 * 1 of an image2d_array_depth_t, read back through a CLK_FILTER_LINEAR
 * sampler against the bilinear weights computed here; a CL_UNORM_INT16
 * image2d_depth_t read without a sampler; the queries; and a depth builtin
 * on a non-depth image, or the other way round, is a device exception. */
static const char *depth_src =
    "const sampler_t lin = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                      CLK_FILTER_LINEAR;\n"
    "__kernel void dfill(write_only image2d_array_depth_t d) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imagef(d, (int4)(x, y, 1, 0), x * 0.25f + y);\n"
    "}\n"
    "__kernel void dread(read_only image2d_array_depth_t d, read_only image2d_depth_t u,\n"
    "                    __global float *out, __global int *q) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);\n"
    "  out[2 * (y * w + x)] = read_imagef(d, lin, (float4)(x + 0.75f, y + 0.25f, 1.2f, 0));\n"
    "  out[2 * (y * w + x) + 1] = read_imagef(u, (int2)(x, y));\n"
    "  if (x == 0 && y == 0) {\n"
    "    q[0] = get_image_channel_order(d) == CLK_DEPTH;\n"
    "    q[1] = get_image_channel_data_type(u) == CLK_UNORM_INT16;\n"
    "    q[2] = (int)get_image_array_size(d);\n"
    "    q[3] = get_image_dim(d).x * 100 + get_image_dim(u).y;\n"
    "    q[4] = get_image_width(u) * 100 + get_image_height(d);\n"
    "  }\n"
    "}\n"
    "__kernel void color(read_only image2d_t c, __global float4 *o) {\n"
    "  o[0] = read_imagef(c, (int2)(0, 0));\n"
    "}\n"
    "__kernel void depth(read_only image2d_depth_t c, __global float *o) {\n"
    "  o[0] = read_imagef(c, (int2)(0, 0));\n"
    "}\n";

/* The texel of layer 1 that dfill writes, clamped to the 8 x 4 image. */
static double depth_at(int x, int y) {
  x = x < 0 ? 0 : x > 7 ? 7 : x;
  y = y < 0 ? 0 : y > 3 ? 3 : y;
  return x * 0.25 + y;
}

START_TEST(test_depth_images) {
  struct lsi_program *p = build(depth_src);
  for (unsigned c = 0; c < 4; c++) {
    struct dev_device *dev = mkdev(configs[c][0], configs[c][1], false);
    struct img d, u;
    img_make(&d, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_DEPTH, CL_FLOAT, 8, 4, 2, CL_MEM_READ_WRITE);
    img_make(&u, CL_MEM_OBJECT_IMAGE2D, CL_DEPTH, CL_UNORM_INT16, 8, 4, 1, CL_MEM_READ_WRITE);
    u.d.elem_size = 2;
    for (unsigned y = 0; y < 4; y++)
      for (unsigned x = 0; x < 8; x++) {
        float far = 100.0f; /* layer 0: a sampler that ignored the layer reads this */
        memcpy(texel(&d, x, y, 0), &far, 4);
        uint16_t v = (uint16_t)(1000 * x + y);
        memcpy(texel(&u, x, y, 0), &v, 2);
      }
    img_map(&d, dev);
    img_map(&u, dev);
    float out[8 * 4 * 2];
    int q[5] = {0};
    struct dev_mem *m = dev_device_mem(dev);
    uint64_t g[2] = {8, 4};
    struct dev_exception exc;
    uint64_t a1[1] = {d.addr};
    ck_assert_int_eq(launch(dev, p, "dfill", a1, g, &exc), 0);
    for (unsigned y = 0; y < 4; y++)
      for (unsigned x = 0; x < 8; x++) {
        float t;
        memcpy(&t, texel(&d, x, y, 1), 4);
        ck_assert(t == (float)depth_at((int)x, (int)y));
      }
    uint64_t a2[4] = {d.addr, u.addr, dev_mem_map(m, out, sizeof out, false),
                      dev_mem_map(m, q, sizeof q, false)};
    ck_assert_int_eq(launch(dev, p, "dread", a2, g, &exc), 0);
    for (int y = 0; y < 4; y++)
      for (int x = 0; x < 8; x++) {
        /* unnormalized (x + 0.75, y + 0.25): u = x + 0.25, v = y - 0.25, so
         * i0 = x, j0 = y - 1, a = 0.25, b = 0.75 */
        double a = 0.25, b = 0.75;
        double want = (1 - a) * (1 - b) * depth_at(x, y - 1) +
                      a * (1 - b) * depth_at(x + 1, y - 1) + (1 - a) * b * depth_at(x, y) +
                      a * b * depth_at(x + 1, y);
        float got = out[2 * (y * 8 + x)];
        ck_assert_msg(fabs(got - want) < 1e-5, "config %u at (%d, %d): %g, want %g", c, x, y,
                      (double)got, want);
        ck_assert_float_eq(out[2 * (y * 8 + x) + 1], (float)(1000 * x + y) / 65535.0f);
      }
    ck_assert(q[0] == 1 && q[1] == 1 && q[2] == 2 && q[3] == 804 && q[4] == 804);
    dev_device_free(dev);
    free(d.texels);
    free(u.texels);
  }
  cc_program_free(p);
}
END_TEST

/* A depth image through image2d_t, a colour image through image2d_depth_t. */
START_TEST(test_depth_mismatch_faults) {
  struct lsi_program *p = build(depth_src);
  static const struct {
    const char *kernel;
    uint32_t order;
    unsigned line;
    const char *want;
  } cases[] = {
      {"color", CL_DEPTH, 21,
       "read_imagef of a non-depth image type on image 'c' (argument 0) of channel order CL_DEPTH"},
      {"depth", CL_RGBA, 24,
       "read_imagef of a depth image type on image 'c' (argument 0) of channel order CL_RGBA"},
  };
  for (unsigned i = 0; i < 2; i++)
    for (unsigned c = 0; c < 4; c++) {
      struct dev_device *dev = mkdev(configs[c][0], configs[c][1], false);
      struct img im;
      img_make(&im, CL_MEM_OBJECT_IMAGE2D, cases[i].order, CL_FLOAT, 8, 4, 1, CL_MEM_READ_WRITE);
      img_map(&im, dev);
      float out[4];
      uint64_t argv[2] = {im.addr, dev_mem_map(dev_device_mem(dev), out, sizeof out, false)};
      uint64_t g[2] = {1, 1};
      struct dev_exception exc;
      ck_assert_int_eq(launch(dev, p, cases[i].kernel, argv, g, &exc), CL_OUT_OF_RESOURCES);
      char line[1400];
      dev_exception_format(&exc, line, sizeof line);
      ck_assert_int_eq(exc.trap, LSI_TRAP_IMAGE);
      ck_assert_msg(exc.line == cases[i].line, "line %u: %s", exc.line, line);
      ck_assert_msg(strstr(line, cases[i].want), "config %u: %s", c, line);
      dev_device_free(dev);
      free(im.texels);
    }
  cc_program_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("builtins_image");
  TCase *t2 = tcase_create("test_write_then_read_2d");
  tcase_set_timeout(t2, 120);
  tcase_add_loop_test(t2, test_write_then_read_2d, 0, 2);
  suite_add_tcase(s, t2);
  TCase *t3 = tcase_create("test_images_chosen_at_run_time");
  tcase_set_timeout(t3, 120);
  tcase_add_loop_test(t3, test_images_chosen_at_run_time, 0, 2);
  suite_add_tcase(s, t3);
  CU_ADD(s, test_3d_arrays_buffer);
  CU_ADD(s, test_queries);
  TCase *tc = tcase_create("test_undefined_accesses_fault");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_undefined_accesses_fault, 0,
                      (int)(sizeof fault_cases / sizeof fault_cases[0]));
  suite_add_tcase(s, tc);
  CU_ADD(s, test_report_and_continue);
  CU_ADD(s, test_depth_images);
  CU_ADD(s, test_depth_mismatch_faults);
  return cu_run(s);
}
