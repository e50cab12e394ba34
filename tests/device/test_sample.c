/*
 * test_sample.c - addressing and filtering (device/sample.c) on small 1D,
 * 2D, 3D and array images held in host memory, against values worked out
 * by hand from the OpenCL C specification's formulas (floor(u - 0.5),
 * frac, the weights, the repeat and mirrored-repeat rules, the array layer
 * clamp(rint(c), 0, layers - 1)), and the status of every undefined or
 * outside access. The fetch hook fails the test on any texel outside the
 * image.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "device/image.h"
#include "util/check_util.h"

#define NEAREST DEV_SAMPLER_NEAREST
#define LINEAR  DEV_SAMPLER_LINEAR
#define NORM    DEV_SAMPLER_NORMALIZED
#define EDGE    DEV_SAMPLER_CLAMP_EDGE
#define CLAMP   DEV_SAMPLER_CLAMP
#define REPEAT  DEV_SAMPLER_REPEAT
#define MIRROR  DEV_SAMPLER_MIRROR
#define NONE    DEV_SAMPLER_NONE

/* An image in host memory: texels of elem_size bytes, x fastest. */
struct fake {
  struct dev_image img;
  uint8_t data[64 * 16];
  bool fail; /* fetch reports a fault */
  unsigned fetches;
};

static const void *fake_fetch(void *ctx, uint64_t x, uint64_t y, uint64_t z) {
  struct fake *f = ctx;
  ck_assert_msg(x < f->img.dims[0] && y < f->img.dims[1] && z < f->img.dims[2],
                "fetch outside the image: (%llu, %llu, %llu)", (unsigned long long)x,
                (unsigned long long)y, (unsigned long long)z);
  f->fetches++;
  if (f->fail) return NULL;
  uint64_t i = (z * f->img.dims[1] + y) * f->img.dims[0] + x;
  return f->data + i * f->img.elem_size;
}

static void fake_init(struct fake *f, uint32_t type, uint32_t order, uint32_t dtype, uint64_t w,
                      uint64_t h, uint64_t d) {
  memset(f, 0, sizeof *f);
  f->img = (struct dev_image){.magic = DEV_IMAGE_MAGIC,
                              .type = type,
                              .order = order,
                              .dtype = dtype,
                              .elem_size = dtype == CL_FLOAT ? 16 : 4,
                              .dims = {w, h, d}};
  ck_assert_uint_le(w * h * d, 64);
}

/* RGBA float texel (v, 0, 0, 1) at linear index i. */
static void put(struct fake *f, uint64_t i, float v) {
  float t[4] = {v, 0.0f, 0.0f, 1.0f};
  memcpy(f->data + i * 16, t, sizeof t);
}

/* 1D, width 4: 10, 20, 30, 40. */
static void image1d(struct fake *f) {
  fake_init(f, CL_MEM_OBJECT_IMAGE1D, CL_RGBA, CL_FLOAT, 4, 1, 1);
  for (int i = 0; i < 4; i++)
    put(f, i, 10.0f * (i + 1));
}

/* 2D, 3 x 2: 1 + x + 10 y. */
static void image2d(struct fake *f) {
  fake_init(f, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 3, 2, 1);
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 3; x++)
      put(f, y * 3 + x, 1.0f + x + 10.0f * y);
}

/* 3D, 2 x 2 x 2: 1 + x + 2 y + 4 z. */
static void image3d(struct fake *f) {
  fake_init(f, CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_FLOAT, 2, 2, 2);
  for (int i = 0; i < 8; i++)
    put(f, i, 1.0f + i);
}

static enum dev_sample_status samplef(struct fake *f, uint32_t sampler, float x, float y, float z,
                                      union dev_texel *out) {
  struct dev_sample_req rq = {
      .img = &f->img, .sampler = sampler, .float_coords = true, .fc = {x, y, z}};
  return dev_image_sample(&rq, fake_fetch, f, out);
}

static enum dev_sample_status samplei(struct fake *f, uint32_t sampler, int32_t x, int32_t y,
                                      int32_t z, union dev_texel *out) {
  struct dev_sample_req rq = {
      .img = &f->img, .sampler = sampler, .float_coords = false, .ic = {x, y, z}};
  return dev_image_sample(&rq, fake_fetch, f, out);
}

/* One float-coordinate read: want (r, alpha) and a status. */
struct fcase {
  uint32_t sampler;
  float x, y, z;
  float r, a;
  enum dev_sample_status st;
};

static void run_fcases(void (*make)(struct fake *), const struct fcase *c, unsigned n,
                       const char *name) {
  for (unsigned i = 0; i < n; i++) {
    struct fake f;
    make(&f);
    union dev_texel out;
    enum dev_sample_status st = samplef(&f, c[i].sampler, c[i].x, c[i].y, c[i].z, &out);
    ck_assert_msg(st == c[i].st, "%s case %u (%g, %g, %g): status %d, want %d", name, i,
                  (double)c[i].x, (double)c[i].y, (double)c[i].z, st, c[i].st);
    if (c[i].st == DEV_SAMPLE_OUTSIDE) continue; /* only the status is specified */
    ck_assert_msg(out.f[0] == c[i].r && out.f[3] == c[i].a,
                  "%s case %u (%g, %g, %g): got (%g, .., %g), want (%g, .., %g)", name, i,
                  (double)c[i].x, (double)c[i].y, (double)c[i].z, (double)out.f[0],
                  (double)out.f[3], (double)c[i].r, (double)c[i].a);
  }
}

#define RUN(make, cases) run_fcases(make, cases, sizeof cases / sizeof cases[0], #cases)
#define OK               DEV_SAMPLE_OK
#define OUT              DEV_SAMPLE_OUTSIDE
#define UNDEF            DEV_SAMPLE_UNDEFINED

START_TEST(nearest_1d_every_addressing_mode) {
  static const struct fcase c[] = {
      /* CLAMP_TO_EDGE, unnormalized: i = floor(u) clamped to 0..3. */
      {NEAREST | EDGE, 0.0f, 0, 0, 10, 1, OK},
      {NEAREST | EDGE, 3.99f, 0, 0, 40, 1, OK},
      {NEAREST | EDGE, -0.5f, 0, 0, 10, 1, OK},
      {NEAREST | EDGE, 7.0f, 0, 0, 40, 1, OK},
      {NEAREST | EDGE, NAN, 0, 0, 10, 1, OK}, /* NaN counts as far below */
      /* CLAMP: outside is the border (0, 0, 0, 0) of CL_RGBA. */
      {NEAREST | CLAMP, -0.5f, 0, 0, 0, 0, OK},
      {NEAREST | CLAMP, 4.0f, 0, 0, 0, 0, OK},
      {NEAREST | CLAMP, 3.5f, 0, 0, 40, 1, OK},
      {NEAREST | CLAMP, -1e30f, 0, 0, 0, 0, OK},
      /* NONE: outside is reported. */
      {NEAREST | NONE, 2.5f, 0, 0, 30, 1, OK},
      {NEAREST | NONE, 4.0f, 0, 0, 0, 0, OUT},
      {NEAREST | NONE, -0.0001f, 0, 0, 0, 0, OUT},
      {NEAREST | NONE, NAN, 0, 0, 0, 0, OUT},
      /* Normalized: u = s * 4. */
      {NEAREST | NORM | EDGE, 0.5f, 0, 0, 30, 1, OK},
      {NEAREST | NORM | EDGE, 0.875f, 0, 0, 40, 1, OK},
      {NEAREST | NORM | EDGE, 1.0f, 0, 0, 40, 1, OK},
      {NEAREST | NORM | CLAMP, 1.0f, 0, 0, 0, 0, OK},
      {NEAREST | NORM | NONE, 1.0f, 0, 0, 0, 0, OUT},
      {NEAREST | NORM | NONE, 0.2f, 0, 0, 10, 1, OK},
      /* REPEAT: u = (s - floor(s)) * 4. */
      {NEAREST | NORM | REPEAT, 1.25f, 0, 0, 20, 1, OK},
      {NEAREST | NORM | REPEAT, -0.25f, 0, 0, 40, 1, OK},
      {NEAREST | NORM | REPEAT, 1.0f, 0, 0, 10, 1, OK},
      {NEAREST | NORM | REPEAT, 0.99f, 0, 0, 40, 1, OK},
      {NEAREST | NORM | REPEAT, -3.0f, 0, 0, 10, 1, OK},
      /* MIRRORED_REPEAT: s' = |s - 2 rint(s / 2)|, i = min(floor(4 s'), 3). */
      {NEAREST | NORM | MIRROR, 1.25f, 0, 0, 40, 1, OK},
      {NEAREST | NORM | MIRROR, -0.25f, 0, 0, 20, 1, OK},
      {NEAREST | NORM | MIRROR, 1.0f, 0, 0, 40, 1, OK},
      {NEAREST | NORM | MIRROR, 2.0f, 0, 0, 10, 1, OK},
      {NEAREST | NORM | MIRROR, 1.875f, 0, 0, 10, 1, OK},
      {NEAREST | NORM | MIRROR, -1.0f, 0, 0, 40, 1, OK},
      {NEAREST | NORM | MIRROR, 3.0f, 0, 0, 40, 1, OK},
      {NEAREST | NORM | MIRROR, 0.3f, 0, 0, 20, 1, OK},
      {NEAREST | NORM | MIRROR, INFINITY, 0, 0, 10, 1, OK}, /* stays inside */
  };
  RUN(image1d, c);
}
END_TEST

START_TEST(linear_1d_every_addressing_mode) {
  static const struct fcase c[] = {
      /* i0 = floor(u - 0.5), i1 = i0 + 1, a = frac(u - 0.5). */
      {LINEAR | EDGE, 1.0f, 0, 0, 15, 1, OK},
      {LINEAR | EDGE, 1.75f, 0, 0, 22.5f, 1, OK},
      {LINEAR | EDGE, 0.25f, 0, 0, 10, 1, OK},
      {LINEAR | EDGE, 4.0f, 0, 0, 40, 1, OK},
      {LINEAR | EDGE, -8.0f, 0, 0, 10, 1, OK},
      /* CLAMP: a neighbour outside weighs in as (0, 0, 0, 0). */
      {LINEAR | CLAMP, 0.25f, 0, 0, 7.5f, 0.75f, OK},
      {LINEAR | CLAMP, 4.5f, 0, 0, 0, 0, OK},
      {LINEAR | CLAMP, 3.75f, 0, 0, 30, 0.75f, OK},
      {LINEAR | CLAMP, 2.0f, 0, 0, 25, 1, OK},
      /* NONE: inside the image, a neighbour outside is the border too. */
      {LINEAR | NONE, 0.25f, 0, 0, 7.5f, 0.75f, OK},
      {LINEAR | NONE, 3.75f, 0, 0, 30, 0.75f, OK},
      {LINEAR | NONE, -0.25f, 0, 0, 0, 0, OUT},
      {LINEAR | NONE, 4.25f, 0, 0, 0, 0, OUT},
      /* Normalized. */
      {LINEAR | NORM | EDGE, 0.25f, 0, 0, 15, 1, OK},
      /* REPEAT: i0 < 0 wraps to 3, i1 > 3 wraps to 0. */
      {LINEAR | NORM | REPEAT, 0.0f, 0, 0, 25, 1, OK},
      {LINEAR | NORM | REPEAT, 1.0f, 0, 0, 25, 1, OK},
      {LINEAR | NORM | REPEAT, 0.9375f, 0, 0, 32.5f, 1, OK},
      {LINEAR | NORM | REPEAT, -0.125f, 0, 0, 40, 1, OK},
      {LINEAR | NORM | REPEAT, 0.5f, 0, 0, 25, 1, OK},
      /* MIRRORED_REPEAT: i0 = max(i0, 0), i1 = min(i1, 3). */
      {LINEAR | NORM | MIRROR, 0.0f, 0, 0, 10, 1, OK},
      {LINEAR | NORM | MIRROR, 1.0f, 0, 0, 40, 1, OK},
      {LINEAR | NORM | MIRROR, 1.125f, 0, 0, 40, 1, OK},
      {LINEAR | NORM | MIRROR, 0.5f, 0, 0, 25, 1, OK},
      {LINEAR | NORM | MIRROR, -0.3125f, 0, 0, 17.5f, 1, OK},
      {LINEAR | NORM | MIRROR, 1.6875f, 0, 0, 17.5f, 1, OK},
  };
  RUN(image1d, c);
}
END_TEST

/* CL_R: the border is (0, 0, 0, 1), so alpha stays 1. */
static void image1d_r(struct fake *f) {
  image1d(f);
  f->img.order = CL_R;
}

START_TEST(border_of_an_order_without_alpha) {
  static const struct fcase c[] = {
      {LINEAR | CLAMP, 0.25f, 0, 0, 7.5f, 1, OK},
      {NEAREST | CLAMP, -1.0f, 0, 0, 0, 1, OK},
      {NEAREST | CLAMP, 2.0f, 0, 0, 30, 1, OK},
  };
  RUN(image1d_r, c);
}
END_TEST

START_TEST(bilinear_2d) {
  static const struct fcase c[] = {
      /* a = 0.75 between x 0 and 1, b = 0.5 between rows: 6.75. */
      {LINEAR | EDGE, 1.25f, 1.0f, 0, 6.75f, 1, OK},
      {LINEAR | EDGE, 0.5f, 0.5f, 0, 1, 1, OK},
      {LINEAR | EDGE, 3.0f, 2.0f, 0, 13, 1, OK},
      {LINEAR | EDGE, 2.0f, -5.0f, 0, 2.5f, 1, OK},
      /* CLAMP at the top edge: row -1 is the border, b = 0.75. */
      {LINEAR | CLAMP, 0.5f, 0.25f, 0, 0.75f, 0.75f, OK},
      {LINEAR | CLAMP, 0.0f, 0.0f, 0, 0.25f, 0.25f, OK},
      {LINEAR | NONE, 0.0f, 0.0f, 0, 0.25f, 0.25f, OK},
      {LINEAR | NONE, 1.0f, 2.0f, 0, 0, 0, OUT},
      /* Normalized: u = 3 s, v = 2 t. */
      {LINEAR | NORM | EDGE, 0.5f, 0.5f, 0, 7, 1, OK},
      {NEAREST | NORM | EDGE, 0.5f, 0.5f, 0, 12, 1, OK},
      {NEAREST | EDGE, 2.9f, 1.9f, 0, 13, 1, OK},
      {NEAREST | NONE, 2.9f, 2.0f, 0, 0, 0, OUT},
      {NEAREST | NONE, 2.9f, -0.1f, 0, 0, 0, OUT},
      /* REPEAT on both axes: (0, 0) mixes the four corners equally. */
      {LINEAR | NORM | REPEAT, 0.0f, 0.0f, 0, 7, 1, OK},
      {NEAREST | NORM | REPEAT, -0.5f, 1.75f, 0, 12, 1, OK},
      {NEAREST | NORM | MIRROR, -0.5f, 1.75f, 0, 2, 1, OK},
  };
  RUN(image2d, c);
}
END_TEST

START_TEST(trilinear_3d) {
  static const struct fcase c[] = {
      {LINEAR | EDGE, 1.0f, 1.0f, 1.0f, 4.5f, 1, OK},
      /* a = 0.75, b = 0, z clamps to slice 1: 0.25 * 5 + 0.75 * 6. */
      {LINEAR | EDGE, 1.25f, 0.5f, 1.5f, 5.75f, 1, OK},
      {NEAREST | NORM | EDGE, 0.75f, 0.25f, 0.75f, 6, 1, OK},
      {LINEAR | NORM | REPEAT, 0.0f, 0.0f, 0.0f, 4.5f, 1, OK},
      /* CLAMP: z - 0.5 = -0.5, half the weight on the border slice. */
      {LINEAR | CLAMP, 1.0f, 1.0f, 0.0f, 1.25f, 0.5f, OK},
      {NEAREST | NONE, 1.0f, 1.0f, 2.0f, 0, 0, OUT},
      {NEAREST | NONE, 1.5f, 0.5f, 1.5f, 8 - 2, 1, OK},
      {NEAREST | NORM | MIRROR, 1.25f, 0.25f, -0.75f, 6, 1, OK},
  };
  RUN(image3d, c);
}
END_TEST

/* 1D array: width 2, 3 layers: 1 + x + 10 layer. */
static void array1d(struct fake *f) {
  fake_init(f, CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_FLOAT, 2, 3, 1);
  for (int l = 0; l < 3; l++)
    for (int x = 0; x < 2; x++)
      put(f, l * 2 + x, 1.0f + x + 10.0f * l);
}

/* 2D array: 2 x 2, 3 layers: 1 + x + 2 y + 10 layer. */
static void array2d(struct fake *f) {
  fake_init(f, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_FLOAT, 2, 2, 3);
  for (int l = 0; l < 3; l++)
    for (int i = 0; i < 4; i++)
      put(f, l * 4 + i, 1.0f + (i & 1) + 2.0f * (i >> 1) + 10.0f * l);
}

START_TEST(array_layer_is_rounded_and_clamped) {
  static const struct fcase c1[] = {
      {NEAREST | EDGE, 0.5f, 1.5f, 0, 21, 1, OK}, /* rint(1.5) = 2 */
      {NEAREST | EDGE, 0.5f, 0.5f, 0, 1, 1, OK},  /* rint(0.5) = 0 */
      {NEAREST | EDGE, 0.5f, 2.5f, 0, 21, 1, OK}, /* rint(2.5) = 2 */
      {NEAREST | EDGE, 0.5f, 1.49f, 0, 11, 1, OK},
      {NEAREST | EDGE, 0.5f, 7.0f, 0, 21, 1, OK}, /* clamped to 2 */
      {NEAREST | EDGE, 0.5f, -3.0f, 0, 1, 1, OK}, /* clamped to 0 */
      {NEAREST | NONE, 0.5f, 9.0f, 0, 21, 1, OK}, /* the layer always clamps */
      {NEAREST | CLAMP, 1.5f, -9.0f, 0, 2, 1, OK},
      {NEAREST | EDGE, 0.5f, NAN, 0, 1, 1, OK},
      {LINEAR | EDGE, 1.0f, 1.2f, 0, 11.5f, 1, OK}, /* filtered in x only */
      /* Normalized coordinates leave the layer unnormalized. */
      {NEAREST | NORM | EDGE, 0.75f, 1.0f, 0, 12, 1, OK},
      {LINEAR | NORM | REPEAT, 0.0f, 2.0f, 0, 21.5f, 1, OK},
  };
  RUN(array1d, c1);
  static const struct fcase c2[] = {
      {LINEAR | EDGE, 1.0f, 1.0f, 2.4f, 22.5f, 1, OK},
      {NEAREST | EDGE, 1.5f, 0.5f, 0.5f, 2, 1, OK},
      {NEAREST | NORM | EDGE, 0.75f, 0.75f, 1.0f, 14, 1, OK},
      {LINEAR | CLAMP, 0.0f, 1.0f, 1.0f, 6.0f, 0.5f, OK},
  };
  RUN(array2d, c2);
  struct fake f;
  array2d(&f);
  union dev_texel out;
  ck_assert_int_eq(samplei(&f, NEAREST | EDGE, 1, 1, 4, &out), OK);
  ck_assert(out.f[0] == 24.0f);
  ck_assert_int_eq(samplei(&f, DEV_SAMPLER_NONE_GIVEN, 1, 0, -2, &out), OK);
  ck_assert(out.f[0] == 2.0f);
}
END_TEST

START_TEST(integer_coordinates) {
  struct fake f;
  image1d(&f);
  union dev_texel out;
  /* Without a sampler. */
  ck_assert_int_eq(samplei(&f, DEV_SAMPLER_NONE_GIVEN, 2, 0, 0, &out), OK);
  ck_assert(out.f[0] == 30.0f);
  ck_assert_int_eq(samplei(&f, DEV_SAMPLER_NONE_GIVEN, -1, 0, 0, &out), OUT);
  ck_assert_int_eq(samplei(&f, DEV_SAMPLER_NONE_GIVEN, 4, 0, 0, &out), OUT);
  ck_assert_int_eq(samplei(&f, DEV_SAMPLER_NONE_GIVEN, INT32_MIN, 0, 0, &out), OUT);
  /* With unnormalized NEAREST samplers. */
  ck_assert_int_eq(samplei(&f, NEAREST | CLAMP, -1, 0, 0, &out), OK);
  ck_assert(out.f[0] == 0.0f && out.f[3] == 0.0f);
  ck_assert_int_eq(samplei(&f, NEAREST | EDGE, 9, 0, 0, &out), OK);
  ck_assert(out.f[0] == 40.0f);
  ck_assert_int_eq(samplei(&f, NEAREST | EDGE, INT32_MIN, 0, 0, &out), OK);
  ck_assert(out.f[0] == 10.0f);
  /* Anything else is undefined, yet deterministic. */
  ck_assert_int_eq(samplei(&f, LINEAR | EDGE, 2, 0, 0, &out), UNDEF);
  ck_assert(out.f[0] == 25.0f); /* the integer taken as a float coordinate */
  ck_assert_int_eq(samplei(&f, NEAREST | NORM | EDGE, 0, 0, 0, &out), UNDEF);
  ck_assert(out.f[0] == 10.0f);
  ck_assert_int_eq(samplei(&f, NEAREST | NORM | REPEAT, 5, 0, 0, &out), UNDEF);
  ck_assert(out.f[0] == 10.0f);
  struct fake g;
  image2d(&g);
  ck_assert_int_eq(samplei(&g, DEV_SAMPLER_NONE_GIVEN, 2, 1, 0, &out), OK);
  ck_assert(out.f[0] == 13.0f);
  ck_assert_int_eq(samplei(&g, DEV_SAMPLER_NONE_GIVEN, 2, 2, 0, &out), OUT);
}
END_TEST

/* 1D CL_R CL_SIGNED_INT32: 5, -7, 9. */
static void image1d_int(struct fake *f) {
  fake_init(f, CL_MEM_OBJECT_IMAGE1D, CL_R, CL_SIGNED_INT32, 3, 1, 1);
  int32_t v[3] = {5, -7, 9};
  for (int i = 0; i < 3; i++)
    memcpy(f->data + i * 4, &v[i], 4);
}

START_TEST(undefined_combinations_are_reported_and_deterministic) {
  struct fake f;
  image1d_int(&f);
  union dev_texel out;
  /* LINEAR on an integer image: NEAREST's value. */
  ck_assert_int_eq(samplef(&f, LINEAR | EDGE, 1.9f, 0, 0, &out), UNDEF);
  ck_assert_int_eq(out.i[0], -7);
  ck_assert_int_eq(out.i[3], 1);
  ck_assert_int_eq(samplef(&f, NEAREST | EDGE, 1.9f, 0, 0, &out), OK);
  ck_assert_int_eq(out.i[0], -7);
  ck_assert_int_eq(samplef(&f, NEAREST | CLAMP, 3.0f, 0, 0, &out), OK);
  ck_assert_int_eq(out.i[0], 0);
  ck_assert_int_eq(out.i[3], 1); /* CL_R border, as integers */
  /* Outside with NONE wins over undefined. */
  ck_assert_int_eq(samplef(&f, LINEAR | NONE, 3.5f, 0, 0, &out), OUT);
  /* REPEAT and MIRRORED_REPEAT with unnormalized coordinates: clamped to
   * the edge. */
  struct fake g;
  image1d(&g);
  ck_assert_int_eq(samplef(&g, NEAREST | REPEAT, 5.5f, 0, 0, &out), UNDEF);
  ck_assert(out.f[0] == 40.0f);
  ck_assert_int_eq(samplef(&g, NEAREST | MIRROR, -1.0f, 0, 0, &out), UNDEF);
  ck_assert(out.f[0] == 10.0f);
  ck_assert_int_eq(samplef(&g, LINEAR | REPEAT, 1.0f, 0, 0, &out), UNDEF);
  ck_assert(out.f[0] == 15.0f);
  /* An addressing mode that does not exist. */
  ck_assert_int_eq(samplef(&g, NEAREST | NORM | 0x0a, 0.5f, 0, 0, &out), UNDEF);
  ck_assert(out.f[0] == 30.0f);
}
END_TEST

START_TEST(fault_and_bad_images) {
  struct fake f;
  image2d(&f);
  f.fail = true;
  union dev_texel out;
  ck_assert_int_eq(samplef(&f, LINEAR | EDGE, 1.0f, 1.0f, 0, &out), DEV_SAMPLE_FAULT);
  ck_assert_uint_eq(f.fetches, 1); /* stops at the first fault */
  ck_assert_int_eq(samplei(&f, DEV_SAMPLER_NONE_GIVEN, 0, 0, 0, &out), DEV_SAMPLE_FAULT);
  /* Border texels are not fetched. */
  f.fail = false;
  f.fetches = 0;
  ck_assert_int_eq(samplef(&f, NEAREST | CLAMP, -1.0f, 0.5f, 0, &out), OK);
  ck_assert_uint_eq(f.fetches, 0);
  ck_assert_int_eq(samplef(&f, LINEAR | EDGE, 1.0f, 1.0f, 0, &out), OK);
  ck_assert_uint_eq(f.fetches, 4);
  /* Not an image type, or an empty image: nothing is fetched. */
  f.fetches = 0;
  f.img.type = CL_MEM_OBJECT_BUFFER;
  ck_assert_int_eq(samplef(&f, NEAREST | EDGE, 0, 0, 0, &out), UNDEF);
  f.img.type = CL_MEM_OBJECT_IMAGE2D;
  f.img.dims[1] = 0;
  ck_assert_int_eq(samplef(&f, NEAREST | EDGE, 0, 0, 0, &out), UNDEF);
  ck_assert_uint_eq(f.fetches, 0);
}
END_TEST

START_TEST(srgb_filters_after_conversion) {
  struct fake f;
  fake_init(&f, CL_MEM_OBJECT_IMAGE1D, CL_sRGBA, CL_UNORM_INT8, 2, 1, 1);
  uint8_t px[8] = {0, 0, 0, 255, 255, 255, 255, 255};
  memcpy(f.data, px, 8);
  union dev_texel out;
  /* Half of linear 0 and half of linear 1: 0.5 (filtering the codes and
   * converting after would give 0.214). */
  ck_assert_int_eq(samplef(&f, LINEAR | EDGE, 1.0f, 0, 0, &out), OK);
  ck_assert(out.f[0] == 0.5f && out.f[3] == 1.0f);
}
END_TEST

START_TEST(ncoords_of_every_type) {
  ck_assert_uint_eq(dev_image_ncoords(CL_MEM_OBJECT_IMAGE1D), 1);
  ck_assert_uint_eq(dev_image_ncoords(CL_MEM_OBJECT_IMAGE1D_BUFFER), 1);
  ck_assert_uint_eq(dev_image_ncoords(CL_MEM_OBJECT_IMAGE1D_ARRAY), 2);
  ck_assert_uint_eq(dev_image_ncoords(CL_MEM_OBJECT_IMAGE2D), 2);
  ck_assert_uint_eq(dev_image_ncoords(CL_MEM_OBJECT_IMAGE2D_ARRAY), 3);
  ck_assert_uint_eq(dev_image_ncoords(CL_MEM_OBJECT_IMAGE3D), 3);
  ck_assert_uint_eq(dev_image_ncoords(CL_MEM_OBJECT_BUFFER), 0);
  ck_assert_uint_eq(dev_image_ncoords(CL_MEM_OBJECT_PIPE), 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("sample");
  CU_ADD(s, nearest_1d_every_addressing_mode);
  CU_ADD(s, linear_1d_every_addressing_mode);
  CU_ADD(s, border_of_an_order_without_alpha);
  CU_ADD(s, bilinear_2d);
  CU_ADD(s, trilinear_3d);
  CU_ADD(s, array_layer_is_rounded_and_clamped);
  CU_ADD(s, integer_coordinates);
  CU_ADD(s, undefined_combinations_are_reported_and_deterministic);
  CU_ADD(s, fault_and_bad_images);
  CU_ADD(s, srgb_filters_after_conversion);
  CU_ADD(s, ncoords_of_every_type);
  return cu_run(s);
}
