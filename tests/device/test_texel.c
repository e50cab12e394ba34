/*
 * test_texel.c - the image format table and the texel codec (device/texel.c)
 * against references written here: hand-made tables of expected bytes and
 * values (rounding boundaries of the normalized types, half-float
 * subnormals, infinities, NaN and ties, sRGB values, integer saturation,
 * the packed 565/555/101010 layouts, the channel layout of every order,
 * the border colors), never a call back into the codec for an expected
 * value.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "device/image.h"
#include "util/check_util.h"

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float bitsf(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static union dev_texel tf(float r, float g, float b, float a) {
  return (union dev_texel){.f = {r, g, b, a}};
}
static union dev_texel ti(int32_t r, int32_t g, int32_t b, int32_t a) {
  return (union dev_texel){.i = {r, g, b, a}};
}

/* Encodes v and checks the texel's bytes. */
static void expect_bytes(uint32_t order, uint32_t dtype, union dev_texel v, const uint8_t *want,
                         unsigned n, const char *what) {
  uint8_t got[20];
  memset(got, 0xcc, sizeof got);
  dev_texel_encode(order, dtype, &v, got);
  for (unsigned i = 0; i < n; i++)
    ck_assert_msg(got[i] == want[i], "%s: byte %u is 0x%02x, want 0x%02x", what, i, got[i],
                  want[i]);
  ck_assert_msg(got[n] == 0xcc, "%s: wrote past the texel", what);
}

static void expect_u16(uint32_t order, uint32_t dtype, union dev_texel v, uint16_t want,
                       const char *what) {
  uint8_t b[2];
  memcpy(b, &want, 2);
  expect_bytes(order, dtype, v, b, 2, what);
}

static void expect_u32(uint32_t order, uint32_t dtype, union dev_texel v, uint32_t want,
                       const char *what) {
  uint8_t b[4];
  memcpy(b, &want, 4);
  expect_bytes(order, dtype, v, b, 4, what);
}

/* Decodes bytes and checks four float components bit for bit. */
static void expect_floats(uint32_t order, uint32_t dtype, const void *src, union dev_texel want,
                          const char *what) {
  union dev_texel got;
  dev_texel_decode(order, dtype, src, &got);
  for (int c = 0; c < 4; c++)
    ck_assert_msg(fbits(got.f[c]) == fbits(want.f[c]), "%s: component %d is %a, want %a", what, c,
                  got.f[c], want.f[c]);
}

/* ---- the format table ---- */

static const uint32_t min_types[12] = {CL_UNORM_INT8,     CL_UNORM_INT16,   CL_SNORM_INT8,
                                       CL_SNORM_INT16,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                       CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                       CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};

/* The read_write minimum list: R and RGBA with these. */
static bool rw_type(uint32_t t) {
  return t != CL_UNORM_INT16 && t != CL_SNORM_INT8 && t != CL_SNORM_INT16;
}

START_TEST(table_holds_the_opencl_3_minimum_list) {
  const uint32_t min_orders[3] = {CL_R, CL_RG, CL_RGBA};
  const uint8_t rwo = DEV_IMAGE_READ | DEV_IMAGE_WRITE;
  for (int o = 0; o < 3; o++)
    for (int t = 0; t < 12; t++) {
      const struct dev_image_format *f = dev_image_format_find(min_orders[o], min_types[t]);
      ck_assert_msg(f, "order 0x%x type 0x%x missing", min_orders[o], min_types[t]);
      uint8_t want = rwo;
      if (min_orders[o] != CL_RG && rw_type(min_types[t])) want |= DEV_IMAGE_READ_WRITE;
      ck_assert_msg(f->uses == want, "order 0x%x type 0x%x uses 0x%x, want 0x%x", min_orders[o],
                    min_types[t], f->uses, want);
    }
  const struct dev_image_format *bgra = dev_image_format_find(CL_BGRA, CL_UNORM_INT8);
  ck_assert_ptr_nonnull(bgra);
  ck_assert_uint_eq(bgra->uses, rwo);
  const struct dev_image_format *srgba = dev_image_format_find(CL_sRGBA, CL_UNORM_INT8);
  ck_assert_ptr_nonnull(srgba);
  ck_assert_uint_eq(srgba->uses, DEV_IMAGE_READ); /* no cl_khr_srgb_image_writes */
}
END_TEST

START_TEST(table_entries_are_valid_unique_and_found) {
  ck_assert_uint_ge(dev_image_nformats, 38);
  for (unsigned i = 0; i < dev_image_nformats; i++) {
    const struct dev_image_format *f = &dev_image_formats[i];
    ck_assert_msg(dev_image_elem_size(f->order, f->dtype), "entry %u not a valid format", i);
    ck_assert_msg(dev_image_kind(f->dtype), "entry %u has no kind", i);
    ck_assert_msg(f->uses & (DEV_IMAGE_READ | DEV_IMAGE_WRITE), "entry %u usable for nothing", i);
    ck_assert_ptr_eq(dev_image_format_find(f->order, f->dtype), f); /* so no duplicate */
  }
  /* Valid formats the device does not claim, and invalid ones. */
  ck_assert_ptr_null(dev_image_format_find(CL_Rx, CL_UNORM_INT8));
  ck_assert_ptr_null(dev_image_format_find(CL_DEPTH, CL_HALF_FLOAT));
  ck_assert_ptr_null(dev_image_format_find(CL_sRGBA, CL_UNORM_INT16));
  ck_assert_ptr_null(dev_image_format_find(CL_RGB, CL_UNORM_INT8));
  ck_assert_ptr_null(dev_image_format_find(0x1234, CL_UNORM_INT8));
}
END_TEST

START_TEST(elem_size_channels_and_kind) {
  static const struct {
    uint32_t order, dtype;
    unsigned size;
  } sizes[] = {
      {CL_R, CL_UNORM_INT8, 1},
      {CL_R, CL_FLOAT, 4},
      {CL_RG, CL_UNORM_INT16, 4},
      {CL_RGBA, CL_FLOAT, 16},
      {CL_RGBA, CL_HALF_FLOAT, 8},
      {CL_RGBA, CL_SIGNED_INT32, 16},
      {CL_BGRA, CL_UNORM_INT8, 4},
      {CL_ARGB, CL_SIGNED_INT8, 4},
      {CL_A, CL_UNSIGNED_INT16, 2},
      {CL_RA, CL_SNORM_INT8, 2},
      {CL_INTENSITY, CL_FLOAT, 4},
      {CL_LUMINANCE, CL_UNORM_INT16, 2},
      {CL_RGB, CL_UNORM_SHORT_565, 2},
      {CL_RGB, CL_UNORM_SHORT_555, 2},
      {CL_RGB, CL_UNORM_INT_101010, 4},
      {CL_RGBx, CL_UNORM_SHORT_565, 2},
      {CL_Rx, CL_UNORM_INT8, 2},
      {CL_sRGBA, CL_UNORM_INT8, 4},
      {CL_sBGRA, CL_UNORM_INT8, 4},
      {CL_sRGBx, CL_UNORM_INT8, 4},
      {CL_DEPTH, CL_UNORM_INT16, 2},
      {CL_DEPTH, CL_FLOAT, 4},
      /* not valid: */
      {CL_RGB, CL_UNORM_INT8, 0},  /* RGB is packed only */
      {CL_RGx, CL_UNORM_INT8, 0},  /* 24 bits: not a power of two */
      {CL_sRGB, CL_UNORM_INT8, 0}, /* likewise */
      {CL_RGBA, CL_UNORM_SHORT_565, 0},
      {CL_sRGBA, CL_UNORM_INT16, 0},
      {CL_DEPTH, CL_UNORM_INT8, 0},
      {0x1234, CL_UNORM_INT8, 0},
      {CL_R, 0x1234, 0},
  };
  for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    ck_assert_msg(dev_image_elem_size(sizes[i].order, sizes[i].dtype) == sizes[i].size,
                  "order 0x%x type 0x%x: size %u, want %u", sizes[i].order, sizes[i].dtype,
                  dev_image_elem_size(sizes[i].order, sizes[i].dtype), sizes[i].size);
  static const struct {
    uint32_t order;
    unsigned n;
  } chans[] = {{CL_R, 1},     {CL_A, 1},    {CL_INTENSITY, 1}, {CL_LUMINANCE, 1}, {CL_DEPTH, 1},
               {CL_RG, 2},    {CL_RA, 2},   {CL_Rx, 2},        {CL_RGB, 3},       {CL_RGx, 3},
               {CL_RGBA, 4},  {CL_BGRA, 4}, {CL_ARGB, 4},      {CL_ABGR, 4},      {CL_sRGBA, 4},
               {CL_sBGRA, 4}, {CL_RGBx, 4}, {0x1234, 0}};
  for (unsigned i = 0; i < sizeof chans / sizeof chans[0]; i++)
    ck_assert_uint_eq(dev_image_channels(chans[i].order), chans[i].n);
  static const struct {
    uint32_t dtype;
    char kind;
  } kinds[] = {{CL_UNORM_INT8, 'f'},      {CL_UNORM_INT16, 'f'},      {CL_SNORM_INT8, 'f'},
               {CL_SNORM_INT16, 'f'},     {CL_HALF_FLOAT, 'f'},       {CL_FLOAT, 'f'},
               {CL_UNORM_SHORT_565, 'f'}, {CL_UNORM_INT_101010, 'f'}, {CL_SIGNED_INT8, 'i'},
               {CL_SIGNED_INT16, 'i'},    {CL_SIGNED_INT32, 'i'},     {CL_UNSIGNED_INT8, 'u'},
               {CL_UNSIGNED_INT16, 'u'},  {CL_UNSIGNED_INT32, 'u'},   {0x1234, 0}};
  for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    ck_assert_int_eq(dev_image_kind(kinds[i].dtype), kinds[i].kind);
}
END_TEST

/* ---- every plain format of the table: bytes and values by hand ---- */

/* Per data type: how the test vector's four components encode (as the
 * little-endian channel value) and what those encodings decode to.
 * Float kinds encode (0.5, 0.0, 1.0, 0.25); 'i' (200, 0, 1, -3);
 * 'u' (300, 0, 1, 70000). */
struct type_ref {
  uint32_t dtype;
  unsigned bytes;
  uint32_t enc[4];
  float dec[4]; /* float kinds */
};
static const struct type_ref type_refs[] = {
    {CL_UNORM_INT8, 1, {0x80, 0, 0xff, 0x40}, {128 / 255.0f, 0.0f, 1.0f, 64 / 255.0f}},
    {CL_UNORM_INT16, 2, {0x8000, 0, 0xffff, 0x4000}, {32768 / 65535.0f, 0, 1.0f, 16384 / 65535.0f}},
    {CL_SNORM_INT8, 1, {0x40, 0, 0x7f, 0x20}, {64 / 127.0f, 0.0f, 1.0f, 32 / 127.0f}},
    {CL_SNORM_INT16, 2, {0x4000, 0, 0x7fff, 0x2000}, {16384 / 32767.0f, 0, 1.0f, 8192 / 32767.0f}},
    {CL_HALF_FLOAT, 2, {0x3800, 0, 0x3c00, 0x3400}, {0.5f, 0.0f, 1.0f, 0.25f}},
    {CL_FLOAT, 4, {0x3f000000, 0, 0x3f800000, 0x3e800000}, {0.5f, 0.0f, 1.0f, 0.25f}},
    {CL_SIGNED_INT8, 1, {0x7f, 0, 1, 0xfd}, {0}},
    {CL_SIGNED_INT16, 2, {200, 0, 1, 0xfffd}, {0}},
    {CL_SIGNED_INT32, 4, {200, 0, 1, 0xfffffffd}, {0}},
    {CL_UNSIGNED_INT8, 1, {0xff, 0, 1, 0xff}, {0}},
    {CL_UNSIGNED_INT16, 2, {300, 0, 1, 0xffff}, {0}},
    {CL_UNSIGNED_INT32, 4, {300, 0, 1, 70000}, {0}},
};

/* Per order: the component each stored channel holds; how decoding fills. */
struct order_ref {
  uint32_t order;
  unsigned n;
  int comp[4];
  char fill; /* 'm' mapped, 'I' intensity, 'L' luminance */
};
static const struct order_ref order_refs[] = {
    {CL_R, 1, {0}, 'm'},
    {CL_A, 1, {3}, 'm'},
    {CL_RG, 2, {0, 1}, 'm'},
    {CL_RA, 2, {0, 3}, 'm'},
    {CL_RGBA, 4, {0, 1, 2, 3}, 'm'},
    {CL_BGRA, 4, {2, 1, 0, 3}, 'm'},
    {CL_ARGB, 4, {3, 0, 1, 2}, 'm'},
    {CL_ABGR, 4, {3, 2, 1, 0}, 'm'},
    {CL_INTENSITY, 1, {0}, 'I'},
    {CL_LUMINANCE, 1, {0}, 'L'},
};

static char kind_of_ref(uint32_t t) {
  if (t == CL_SIGNED_INT8 || t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32) return 'i';
  if (t == CL_UNSIGNED_INT8 || t == CL_UNSIGNED_INT16 || t == CL_UNSIGNED_INT32) return 'u';
  return 'f';
}

/* What the decoded component c of the encoded test vector must be. */
static uint32_t decoded_ref(const struct type_ref *t, char kind, unsigned c) {
  static const int32_t ivals[4] = {127, 0, 1, -3}, i16[4] = {200, 0, 1, -3};
  static const uint32_t u8[4] = {255, 0, 1, 255}, u16[4] = {300, 0, 1, 65535},
                        u32[4] = {300, 0, 1, 70000};
  if (kind == 'f') return fbits(t->dec[c]);
  if (kind == 'i') return (uint32_t)(t->bytes == 1 ? ivals[c] : i16[c]);
  return t->bytes == 1 ? u8[c] : t->bytes == 2 ? u16[c] : u32[c];
}

static void check_plain_format(const struct order_ref *o, const struct type_ref *t) {
  char kind = kind_of_ref(t->dtype), what[64];
  snprintf(what, sizeof what, "order 0x%x type 0x%x", o->order, t->dtype);
  union dev_texel in = kind == 'f'   ? tf(0.5f, 0.0f, 1.0f, 0.25f)
                       : kind == 'i' ? ti(200, 0, 1, -3)
                                     : (union dev_texel){.u = {300, 0, 1, 70000}};
  uint8_t want[16] = {0};
  for (unsigned i = 0; i < o->n; i++)
    memcpy(want + i * t->bytes, &t->enc[o->comp[i]], t->bytes); /* little-endian host */
  expect_bytes(o->order, t->dtype, in, want, o->n * t->bytes, what);

  union dev_texel got;
  dev_texel_decode(o->order, t->dtype, want, &got);
  uint32_t one = kind == 'f' ? fbits(1.0f) : 1;
  for (unsigned c = 0; c < 4; c++) {
    uint32_t exp = c == 3 ? one : 0;
    if (o->fill == 'I' || (o->fill == 'L' && c < 3)) exp = decoded_ref(t, kind, 0);
    for (unsigned i = 0; o->fill == 'm' && i < o->n; i++)
      if ((unsigned)o->comp[i] == c) exp = decoded_ref(t, kind, c);
    ck_assert_msg(got.u[c] == exp, "%s: decoded component %u is 0x%x, want 0x%x", what, c, got.u[c],
                  exp);
  }
}

START_TEST(every_plain_format_encodes_and_decodes_by_hand) {
  unsigned checked = 0;
  for (unsigned i = 0; i < dev_image_nformats; i++) {
    const struct dev_image_format *f = &dev_image_formats[i];
    const struct order_ref *o = NULL;
    const struct type_ref *t = NULL;
    for (unsigned k = 0; k < sizeof order_refs / sizeof order_refs[0]; k++)
      if (order_refs[k].order == f->order) o = &order_refs[k];
    for (unsigned k = 0; k < sizeof type_refs / sizeof type_refs[0]; k++)
      if (type_refs[k].dtype == f->dtype) t = &type_refs[k];
    if (f->order == CL_DEPTH) { /* one channel: the depth, (d, 0, 0, 1) read back */
      uint8_t want[4];
      float d = 0.25f;
      uint16_t u = 0x8000;
      if (f->dtype == CL_FLOAT)
        memcpy(want, &d, 4);
      else
        memcpy(want, &u, 2);
      expect_bytes(f->order, f->dtype, tf(f->dtype == CL_FLOAT ? d : 0.5f, 7, 7, 7), want,
                   f->dtype == CL_FLOAT ? 4 : 2, "CL_DEPTH");
      union dev_texel got;
      dev_texel_decode(f->order, f->dtype, want, &got);
      ck_assert(got.f[0] == (f->dtype == CL_FLOAT ? d : 32768.0f / 65535.0f));
      checked++;
      continue;
    }
    if (!o || !t) continue; /* packed and sRGB formats: their own tests */
    check_plain_format(o, t);
    checked++;
  }
  /* Every table entry is either checked here or one of the five packed and
   * sRGB formats below. */
  ck_assert_uint_eq(checked + 5, dev_image_nformats);
}
END_TEST

/* ---- normalized types ---- */

START_TEST(unorm8_decodes_every_code_and_rounds_to_nearest_even) {
  for (unsigned c = 0; c < 256; c++) {
    uint8_t b = (uint8_t)c;
    expect_floats(CL_R, CL_UNORM_INT8, &b, tf((float)c / 255.0f, 0, 0, 1), "unorm8 decode");
  }
  static const struct {
    float f;
    uint8_t b;
  } enc[] = {
      {0.0f, 0},
      {1.0f, 255},
      {-0.5f, 0},
      {7.0f, 255},
      {0x1.010102p-9f, 0}, /* 0.5/255 as a float: f * 255 is exactly 0.5, a tie: even 0 */
      {0.49f / 255, 0},
      {0.51f / 255, 1},
      {254.49f / 255, 254},
      {254.51f / 255, 255},
      {0.5f, 128},  /* 127.5: the tie goes to even 128 */
      {0.25f, 64},  /* 63.75 */
      {0.75f, 191}, /* 191.25 */
      {NAN, 0},
      {-NAN, 0},
      {INFINITY, 255},
      {-INFINITY, 0},
  };
  ck_assert(0x1.010102p-9f * 255.0f == 0.5f); /* the tie above is exact */
  for (unsigned i = 0; i < sizeof enc / sizeof enc[0]; i++) {
    char what[48];
    snprintf(what, sizeof what, "unorm8 encode %a", enc[i].f);
    expect_bytes(CL_R, CL_UNORM_INT8, tf(enc[i].f, 0, 0, 0), &enc[i].b, 1, what);
  }
}
END_TEST

START_TEST(unorm16_rounding) {
  static const struct {
    float f;
    uint16_t v;
  } enc[] = {{0.0f, 0},  {1.0f, 65535}, {2.0f, 65535},
             {-1.0f, 0}, {0.5f, 32768}, {0x1.0001p-17f, 0} /* f * 65535 == 0.5 exactly: even 0 */,
             {NAN, 0},   {0.25f, 16384}};
  ck_assert(0x1.0001p-17f * 65535.0f == 0.5f);
  for (unsigned i = 0; i < sizeof enc / sizeof enc[0]; i++)
    expect_u16(CL_R, CL_UNORM_INT16, tf(enc[i].f, 0, 0, 0), enc[i].v, "unorm16 encode");
  uint16_t max = 65535, mid = 32768;
  expect_floats(CL_R, CL_UNORM_INT16, &max, tf(1.0f, 0, 0, 1), "unorm16 1.0");
  expect_floats(CL_R, CL_UNORM_INT16, &mid, tf(32768.0f / 65535.0f, 0, 0, 1), "unorm16 mid");
}
END_TEST

START_TEST(snorm_clamps_minus_one_and_saturates) {
  /* Decoding: -128 and -127 both give -1.0. */
  int8_t s8[] = {-128, -127, 0, 127, 64, -64};
  float want8[] = {-1.0f, -1.0f, 0.0f, 1.0f, 64 / 127.0f, -64 / 127.0f};
  for (unsigned i = 0; i < 6; i++)
    expect_floats(CL_R, CL_SNORM_INT8, &s8[i], tf(want8[i], 0, 0, 1), "snorm8 decode");
  int16_t s16[] = {-32768, -32767, 32767, 1};
  float want16[] = {-1.0f, -1.0f, 1.0f, 1 / 32767.0f};
  for (unsigned i = 0; i < 4; i++)
    expect_floats(CL_R, CL_SNORM_INT16, &s16[i], tf(want16[i], 0, 0, 1), "snorm16 decode");
  /* Encoding: convert_char_sat_rte(f * 127): -1.0 is -127, below -1 it
   * saturates at -128; NaN is 0. */
  static const struct {
    float f;
    uint8_t b;
  } enc[] = {
      {-1.0f, 0x81}, {-2.0f, 0x80},           {1.0f, 0x7f},
      {3.0f, 0x7f},  {0.5f, 0x40} /* 63.5 */, {-0.5f, 0xc0} /* -63.5 -> -64 */,
      {NAN, 0},      {-INFINITY, 0x80},       {0x1.020408p-8f, 0} /* f * 127 == 0.5: even 0 */};
  ck_assert(0x1.020408p-8f * 127.0f == 0.5f);
  for (unsigned i = 0; i < sizeof enc / sizeof enc[0]; i++)
    expect_bytes(CL_R, CL_SNORM_INT8, tf(enc[i].f, 0, 0, 0), &enc[i].b, 1, "snorm8 encode");
  expect_u16(CL_R, CL_SNORM_INT16, tf(-1.0f, 0, 0, 0), 0x8001, "snorm16 -1");
  expect_u16(CL_R, CL_SNORM_INT16, tf(-5.0f, 0, 0, 0), 0x8000, "snorm16 -5");
  expect_u16(CL_R, CL_SNORM_INT16, tf(0.5f, 0, 0, 0), 0x4000, "snorm16 0.5");
}
END_TEST

/* ---- half ---- */

START_TEST(half_encodes_with_round_to_nearest_even) {
  static const struct {
    float f;
    uint16_t h;
  } enc[] = {
      {1.0f, 0x3c00},
      {-2.0f, 0xc000},
      {0.0f, 0x0000},
      {-0.0f, 0x8000},
      {65504.0f, 0x7bff}, /* the largest half */
      {65519.0f, 0x7bff}, /* below the midpoint to 65536 */
      {65520.0f, 0x7c00}, /* the midpoint: ties to even, which is infinity */
      {1e10f, 0x7c00},
      {INFINITY, 0x7c00},
      {-INFINITY, 0xfc00},
      {0x1p-14f, 0x0400},        /* smallest normal */
      {0x1p-15f, 0x0200},        /* subnormal */
      {0x1p-24f, 0x0001},        /* smallest subnormal */
      {0x1p-25f, 0x0000},        /* half of it: tie to even 0 */
      {0x1.000002p-25f, 0x0001}, /* just above the tie */
      {0x1.8p-24f, 0x0002},      /* 1.5 units: tie to even 2 */
      {0x1.4p-23f, 0x0002},      /* 2.5 units: tie to even 2 */
      {0x1.ffcp-15f, 0x0400},    /* 1023.5 units rounds up into the normals */
      {1e-10f, 0x0000},
      {-0x1p-24f, 0x8001},
      {0x1.002p0f, 0x3c00},  /* 1 + 2^-11: tie to even 1.0 */
      {0x1.006p0f, 0x3c02},  /* 1 + 3 * 2^-11: tie to even */
      {0x1.0021p0f, 0x3c01}, /* just above the tie */
      {0.1f, 0x2e66},
      {1.0f / 3.0f, 0x3555},
  };
  for (unsigned i = 0; i < sizeof enc / sizeof enc[0]; i++) {
    char what[48];
    snprintf(what, sizeof what, "half encode %a", enc[i].f);
    expect_u16(CL_R, CL_HALF_FLOAT, tf(enc[i].f, 0, 0, 0), enc[i].h, what);
  }
  /* NaN stays a NaN: exponent all ones, mantissa not zero. */
  uint16_t h;
  union dev_texel v = tf(NAN, 0, 0, 0);
  dev_texel_encode(CL_R, CL_HALF_FLOAT, &v, &h);
  ck_assert_msg((h & 0x7c00) == 0x7c00 && (h & 0x3ff), "NaN encodes as 0x%04x", h);
  v = tf(bitsf(0x7f800001u), 0, 0, 0); /* a NaN whose payload is in the low bits */
  dev_texel_encode(CL_R, CL_HALF_FLOAT, &v, &h);
  ck_assert_msg((h & 0x7c00) == 0x7c00 && (h & 0x3ff), "low NaN encodes as 0x%04x", h);
}
END_TEST

START_TEST(half_decodes_exactly) {
  static const struct {
    uint16_t h;
    float f;
  } dec[] = {{0x3c00, 1.0f},        {0xc000, -2.0f},    {0x0001, 0x1p-24f}, {0x03ff, 0x1.ff8p-15f},
             {0x0400, 0x1p-14f},    {0x7bff, 65504.0f}, {0x7c00, INFINITY}, {0xfc00, -INFINITY},
             {0x3555, 0x1.554p-2f}, {0x8000, -0.0f},    {0x0000, 0.0f}};
  for (unsigned i = 0; i < sizeof dec / sizeof dec[0]; i++)
    expect_floats(CL_R, CL_HALF_FLOAT, &dec[i].h, tf(dec[i].f, 0, 0, 1), "half decode");
  uint16_t nan = 0x7e00;
  union dev_texel got;
  dev_texel_decode(CL_R, CL_HALF_FLOAT, &nan, &got);
  ck_assert(isnan(got.f[0]));
}
END_TEST

START_TEST(float_keeps_every_bit) {
  uint32_t vals[] = {0x7fc00123u, 0x00000001u /* denormal */, 0x80000000u, 0xff800000u,
                     0x3f800000u};
  for (unsigned i = 0; i < 5; i++) {
    expect_u32(CL_R, CL_FLOAT, tf(bitsf(vals[i]), 0, 0, 0), vals[i], "float encode");
    union dev_texel got;
    dev_texel_decode(CL_R, CL_FLOAT, &vals[i], &got);
    ck_assert_uint_eq(got.u[0], vals[i]);
  }
}
END_TEST

/* ---- integer types ---- */

START_TEST(integer_types_saturate_and_extend) {
  static const struct {
    uint32_t dtype;
    int32_t in;
    uint32_t stored; /* the channel's bits */
    unsigned bytes;
  } sints[] = {
      {CL_SIGNED_INT8, 200, 0x7f, 1},
      {CL_SIGNED_INT8, -200, 0x80, 1},
      {CL_SIGNED_INT8, -1, 0xff, 1},
      {CL_SIGNED_INT8, 127, 0x7f, 1},
      {CL_SIGNED_INT16, 40000, 0x7fff, 2},
      {CL_SIGNED_INT16, -40000, 0x8000, 2},
      {CL_SIGNED_INT16, -2, 0xfffe, 2},
      {CL_SIGNED_INT32, INT32_MIN, 0x80000000u, 4},
      {CL_SIGNED_INT32, INT32_MAX, 0x7fffffffu, 4},
  };
  for (unsigned i = 0; i < sizeof sints / sizeof sints[0]; i++) {
    uint8_t want[4];
    memcpy(want, &sints[i].stored, 4);
    expect_bytes(CL_R, sints[i].dtype, ti(sints[i].in, 0, 0, 0), want, sints[i].bytes, "sint");
  }
  static const struct {
    uint32_t dtype, in, stored;
    unsigned bytes;
  } uints[] = {
      {CL_UNSIGNED_INT8, 300, 0xff, 1},      {CL_UNSIGNED_INT8, 0xffffffffu, 0xff, 1},
      {CL_UNSIGNED_INT8, 255, 0xff, 1},      {CL_UNSIGNED_INT16, 70000, 0xffff, 2},
      {CL_UNSIGNED_INT16, 65535, 0xffff, 2}, {CL_UNSIGNED_INT32, 0xffffffffu, 0xffffffffu, 4},
  };
  for (unsigned i = 0; i < sizeof uints / sizeof uints[0]; i++) {
    uint8_t want[4];
    memcpy(want, &uints[i].stored, 4);
    union dev_texel v = {.u = {uints[i].in, 0, 0, 0}};
    expect_bytes(CL_R, uints[i].dtype, v, want, uints[i].bytes, "uint");
  }
  /* Sign and zero extension, and the integer 1 for a missing alpha. */
  uint8_t b80 = 0x80;
  uint16_t h8000 = 0x8000;
  union dev_texel got;
  dev_texel_decode(CL_R, CL_SIGNED_INT8, &b80, &got);
  ck_assert_int_eq(got.i[0], -128);
  ck_assert_int_eq(got.i[3], 1);
  dev_texel_decode(CL_R, CL_UNSIGNED_INT8, &b80, &got);
  ck_assert_uint_eq(got.u[0], 128);
  ck_assert_uint_eq(got.u[3], 1);
  dev_texel_decode(CL_R, CL_SIGNED_INT16, &h8000, &got);
  ck_assert_int_eq(got.i[0], -32768);
  dev_texel_decode(CL_R, CL_UNSIGNED_INT16, &h8000, &got);
  ck_assert_uint_eq(got.u[0], 32768);
}
END_TEST

/* ---- sRGB ---- */

START_TEST(srgb_converts_color_but_not_alpha) {
  /* sRGB code -> linear, from the specification's formula worked out in
   * double precision. */
  static const struct {
    uint8_t code;
    float lin;
  } dec[] = {{0, 0.0f},          {1, 0.000303527f},  {10, 0.00303527f}, {11, 0.00334654f},
             {128, 0.21586053f}, {188, 0.50288647f}, {255, 1.0f}};
  for (unsigned i = 0; i < sizeof dec / sizeof dec[0]; i++) {
    uint8_t px[4] = {dec[i].code, 0, 255, 128};
    union dev_texel got;
    dev_texel_decode(CL_sRGBA, CL_UNORM_INT8, px, &got);
    ck_assert_msg(fabsf(got.f[0] - dec[i].lin) <= 2e-7f * (1 + dec[i].lin) + 1e-9f,
                  "sRGB %u decodes to %.9g, want %.9g", dec[i].code, got.f[0], dec[i].lin);
    ck_assert(got.f[1] == 0.0f && got.f[2] == 1.0f);
    ck_assert(got.f[3] == 128 / 255.0f); /* alpha stays linear */
  }
  /* linear -> sRGB code: 0.5 is 187.516 -> 188; 0.18 117.65 -> 118;
   * 0.002 is on the linear segment, 6.59 -> 7; 0.0031308 10.31 -> 10. */
  static const struct {
    float lin;
    uint8_t code;
  } enc[] = {{0.5f, 188},      {0.2158605f, 128}, {0.18f, 118}, {0.002f, 7},
             {0.0031308f, 10}, {0.25f, 137},      {1.0f, 255},  {2.0f, 255},
             {-1.0f, 0},       {0.0001f, 0},      {NAN, 0}};
  for (unsigned i = 0; i < sizeof enc / sizeof enc[0]; i++) {
    uint8_t want[4] = {enc[i].code, 0, 255, 64};
    char what[48];
    snprintf(what, sizeof what, "sRGB encode %g", enc[i].lin);
    expect_bytes(CL_sRGBA, CL_UNORM_INT8, tf(enc[i].lin, 0.0f, 1.0f, 0.25f), want, 4, what);
  }
  /* sBGRA: the same with red and blue swapped in memory. */
  uint8_t bgra[4] = {0, 0, 188, 255};
  expect_bytes(CL_sBGRA, CL_UNORM_INT8, tf(0.5f, 0.0f, 0.0f, 1.0f), bgra, 4, "sBGRA encode");
  union dev_texel got;
  dev_texel_decode(CL_sBGRA, CL_UNORM_INT8, bgra, &got);
  ck_assert(fabsf(got.f[0] - 0.50288647f) < 2e-7f && got.f[2] == 0.0f && got.f[3] == 1.0f);
}
END_TEST

/* ---- packed ---- */

START_TEST(packed_565_555_101010_layouts) {
  expect_u16(CL_RGB, CL_UNORM_SHORT_565, tf(1, 0, 1, 0), 0xf81f, "565 magenta");
  expect_u16(CL_RGB, CL_UNORM_SHORT_565, tf(0, 1, 0, 0), 0x07e0, "565 green");
  /* 0.5: 15.5 -> 16 (5 bits), 31.5 -> 32 (6 bits). */
  expect_u16(CL_RGB, CL_UNORM_SHORT_565, tf(0.5f, 0.5f, 0.5f, 0), 0x8410, "565 grey");
  expect_u16(CL_RGB, CL_UNORM_SHORT_565, tf(NAN, -1, 9, 0), 0x001f, "565 saturate");
  expect_u16(CL_RGB, CL_UNORM_SHORT_555, tf(1, 0, 0, 0), 0x7c00, "555 red");
  expect_u16(CL_RGB, CL_UNORM_SHORT_555, tf(0, 1, 0, 0), 0x03e0, "555 green");
  expect_u16(CL_RGB, CL_UNORM_SHORT_555, tf(0, 0, 1, 0), 0x001f, "555 blue");
  expect_u32(CL_RGB, CL_UNORM_INT_101010, tf(1, 0, 0, 0), 0x3ff00000u, "101010 red");
  expect_u32(CL_RGB, CL_UNORM_INT_101010, tf(0, 1, 0, 0), 0x000ffc00u, "101010 green");
  expect_u32(CL_RGB, CL_UNORM_INT_101010, tf(0, 0, 1, 0), 0x000003ffu, "101010 blue");
  expect_u32(CL_RGB, CL_UNORM_INT_101010, tf(0.5f, 0, 0, 0), 0x20000000u, "101010 511.5");

  uint16_t w565 = 0xf81f, w555 = 0xfc00 /* the top bit is ignored */, g6 = 1u << 5;
  expect_floats(CL_RGB, CL_UNORM_SHORT_565, &w565, tf(1, 0, 1, 1), "565 decode");
  expect_floats(CL_RGB, CL_UNORM_SHORT_565, &g6, tf(0, 1 / 63.0f, 0, 1), "565 green lsb");
  expect_floats(CL_RGB, CL_UNORM_SHORT_555, &w555, tf(1, 0, 0, 1), "555 decode");
  uint32_t w10 = 0xc00003ffu; /* the top two bits are ignored */
  expect_floats(CL_RGB, CL_UNORM_INT_101010, &w10, tf(0, 0, 1, 1), "101010 decode");
  uint32_t g10 = 1u << 10;
  expect_floats(CL_RGB, CL_UNORM_INT_101010, &g10, tf(0, 1 / 1023.0f, 0, 1), "101010 lsb");
}
END_TEST

/* ---- borders and depth ---- */

START_TEST(border_color_per_order) {
  static const struct {
    uint32_t order;
    bool alpha_one;
  } b[] = {{CL_R, true},      {CL_RG, true},    {CL_RGB, true},        {CL_LUMINANCE, true},
           {CL_A, false},     {CL_RA, false},   {CL_RGBA, false},      {CL_BGRA, false},
           {CL_ARGB, false},  {CL_ABGR, false}, {CL_INTENSITY, false}, {CL_sRGBA, false},
           {CL_sBGRA, false}, {CL_Rx, false},   {CL_RGBx, false},      {CL_DEPTH, false}};
  for (unsigned i = 0; i < sizeof b / sizeof b[0]; i++) {
    union dev_texel got;
    dev_texel_border(b[i].order, CL_UNORM_INT8, &got);
    union dev_texel want = tf(0, 0, 0, b[i].alpha_one ? 1.0f : 0.0f);
    ck_assert_msg(memcmp(&got, &want, sizeof got) == 0, "order 0x%x border", b[i].order);
    dev_texel_border(b[i].order, CL_UNSIGNED_INT16, &got);
    union dev_texel wanti = ti(0, 0, 0, b[i].alpha_one);
    ck_assert_msg(memcmp(&got, &wanti, sizeof got) == 0, "order 0x%x int border", b[i].order);
  }
}
END_TEST

START_TEST(depth_and_unsupported_pairs) {
  uint16_t d16 = 65535;
  expect_floats(CL_DEPTH, CL_UNORM_INT16, &d16, tf(1.0f, 0, 0, 1), "depth16");
  expect_u16(CL_DEPTH, CL_UNORM_INT16, tf(0.5f, 0, 0, 0), 32768, "depth16 encode");
  float d = 0.25f;
  expect_floats(CL_DEPTH, CL_FLOAT, &d, tf(0.25f, 0, 0, 1), "depth float");
  /* An invalid pair decodes to (0, 0, 0, 1) and encodes nothing. */
  uint8_t px[4] = {1, 2, 3, 4}, keep[4] = {1, 2, 3, 4};
  expect_floats(CL_RGB, CL_UNORM_INT8, px, tf(0, 0, 0, 1), "invalid decode");
  union dev_texel v = tf(1, 1, 1, 1);
  dev_texel_encode(CL_RGB, CL_UNORM_INT8, &v, px);
  ck_assert(memcmp(px, keep, 4) == 0);
  /* Padding channels are written as 0. */
  uint8_t want_rx[2] = {0xff, 0};
  expect_bytes(CL_Rx, CL_UNORM_INT8, tf(1, 1, 1, 1), want_rx, 2, "Rx");
}
END_TEST

int main(void) {
  Suite *s = suite_create("texel");
  CU_ADD(s, table_holds_the_opencl_3_minimum_list);
  CU_ADD(s, table_entries_are_valid_unique_and_found);
  CU_ADD(s, elem_size_channels_and_kind);
  CU_ADD(s, every_plain_format_encodes_and_decodes_by_hand);
  CU_ADD(s, unorm8_decodes_every_code_and_rounds_to_nearest_even);
  CU_ADD(s, unorm16_rounding);
  CU_ADD(s, snorm_clamps_minus_one_and_saturates);
  CU_ADD(s, half_encodes_with_round_to_nearest_even);
  CU_ADD(s, half_decodes_exactly);
  CU_ADD(s, float_keeps_every_bit);
  CU_ADD(s, integer_types_saturate_and_extend);
  CU_ADD(s, srgb_converts_color_but_not_alpha);
  CU_ADD(s, packed_565_555_101010_layouts);
  CU_ADD(s, border_color_per_order);
  CU_ADD(s, depth_and_unsupported_pairs);
  return cu_run(s);
}
