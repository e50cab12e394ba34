/*
 * texel.c - the image formats the device supports and the texel codec:
 * converting one texel between its bytes in memory and the four-channel
 * value the image builtins, the runtime and the debugger use, with the
 * conversion rules of the OpenCL C specification ("Conversion Rules" for
 * normalized integer, half, float, integer and sRGB channel data types).
 *
 * Pure and device-independent: no memory model, no faults, no state. It
 * must not know where texels live (device/sample.c and device/image.c do).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <string.h>

#include "device/image.h"

/* ---- the supported formats: the one table ---- */

#define RW  (DEV_IMAGE_READ | DEV_IMAGE_WRITE | DEV_IMAGE_READ_WRITE)
#define RWO (DEV_IMAGE_READ | DEV_IMAGE_WRITE) /* read or write, not both */
#define RO  DEV_IMAGE_READ

/* The twelve data types of the specification's minimum list: the ones the
 * minimum list also requires for read_write kernel arguments (R and RGBA)
 * take u_rw, the others RWO. */
#define ALL_TYPES(order, u_rw)                                                                     \
  {order, CL_UNORM_INT8, u_rw}, {order, CL_UNORM_INT16, RWO}, {order, CL_SNORM_INT8, RWO},         \
      {order, CL_SNORM_INT16, RWO}, {order, CL_SIGNED_INT8, u_rw}, {order, CL_SIGNED_INT16, u_rw}, \
      {order, CL_SIGNED_INT32, u_rw}, {order, CL_UNSIGNED_INT8, u_rw},                             \
      {order, CL_UNSIGNED_INT16, u_rw}, {order, CL_UNSIGNED_INT32, u_rw},                          \
      {order, CL_HALF_FLOAT, u_rw}, {                                                              \
    order, CL_FLOAT, u_rw                                                                          \
  }
/* The normalized and floating-point types (CL_INTENSITY and CL_LUMINANCE
 * are defined for these only in OpenCL 1.x). */
#define FLOAT_TYPES(order)                                                                         \
  {order, CL_UNORM_INT8, RWO}, {order, CL_UNORM_INT16, RWO}, {order, CL_SNORM_INT8, RWO},          \
      {order, CL_SNORM_INT16, RWO}, {order, CL_HALF_FLOAT, RWO}, {                                 \
    order, CL_FLOAT, RWO                                                                           \
  }
/* The 8-bit types (what OpenCL 1.x allows for CL_ARGB and CL_BGRA). */
#define BYTE_TYPES(order)                                                                          \
  {order, CL_UNORM_INT8, RWO}, {order, CL_SNORM_INT8, RWO}, {order, CL_SIGNED_INT8, RWO}, {        \
    order, CL_UNSIGNED_INT8, RWO                                                                   \
  }

const struct dev_image_format dev_image_formats[] = {
    /* The OpenCL 3.0 minimum list (read_only, write_only; read_write for
     * R and RGBA with the types the specification lists for it). */
    ALL_TYPES(CL_R, RW),
    ALL_TYPES(CL_RG, RWO),
    ALL_TYPES(CL_RGBA, RW),
    {CL_BGRA, CL_UNORM_INT8, RWO},
    {CL_sRGBA, CL_UNORM_INT8, RO},
    /* cl_khr_depth_images: 2D images and 2D arrays only (runtime/image.c),
     * read_only and write_only as the minimum list has them. */
    {CL_DEPTH, CL_UNORM_INT16, RWO},
    {CL_DEPTH, CL_FLOAT, RWO},
    /* Further well-defined formats. */
    ALL_TYPES(CL_A, RWO),
    ALL_TYPES(CL_RA, RWO),
    FLOAT_TYPES(CL_INTENSITY),
    FLOAT_TYPES(CL_LUMINANCE),
    {CL_BGRA, CL_SNORM_INT8, RWO},
    {CL_BGRA, CL_SIGNED_INT8, RWO},
    {CL_BGRA, CL_UNSIGNED_INT8, RWO},
    BYTE_TYPES(CL_ARGB),
    BYTE_TYPES(CL_ABGR),
    {CL_RGB, CL_UNORM_SHORT_565, RWO},
    {CL_RGB, CL_UNORM_SHORT_555, RWO},
    {CL_RGB, CL_UNORM_INT_101010, RWO},
    {CL_sBGRA, CL_UNORM_INT8, RO},
};
const unsigned dev_image_nformats = sizeof dev_image_formats / sizeof dev_image_formats[0];

const struct dev_image_format *dev_image_format_find(uint32_t order, uint32_t dtype) {
  for (unsigned i = 0; i < dev_image_nformats; i++)
    if (dev_image_formats[i].order == order && dev_image_formats[i].dtype == dtype)
      return &dev_image_formats[i];
  return NULL;
}

/* ---- channel orders and data types ---- */

/* Which data types an order may be combined with. */
enum type_class {
  TC_PLAIN,  /* one channel per component: the 8/16/32-bit, half, float types */
  TC_PACKED, /* CL_UNORM_SHORT_565/555, CL_UNORM_INT_101010 */
  TC_SRGB,   /* CL_UNORM_INT8 only */
  TC_DEPTH,  /* CL_UNORM_INT16, CL_FLOAT */
  TC_BYTE,   /* the 8-bit types only (CL_BGRA, CL_ARGB, CL_ABGR) */
  TC_NORMF,  /* normalized, half and float types (CL_INTENSITY, CL_LUMINANCE) */
};

/* How decoding fills the four components from the stored channels. */
enum fill { FILL_MAP, FILL_INTENSITY, FILL_LUMINANCE };

struct order_desc {
  uint32_t order;
  const char *name;
  uint8_t nch;   /* channels stored per texel, padding included */
  int8_t map[4]; /* component (0 R .. 3 A) of each stored channel; -1 padding */
  uint8_t tc;    /* enum type_class */
  uint8_t fill;  /* enum fill */
  bool srgb;
  bool border_alpha; /* the CLK_ADDRESS_CLAMP border has alpha 1 */
};

/* Both tables are indexed by the value's offset from the first one of its
 * kind, so converting a texel finds its format in constant time. */
#define ORDER0 CL_R
#define DTYPE0 CL_SNORM_INT8

static const struct order_desc orders[] = {
    [CL_R - ORDER0] = {CL_R, "CL_R", 1, {0}, TC_PLAIN, FILL_MAP, false, true},
    [CL_A - ORDER0] = {CL_A, "CL_A", 1, {3}, TC_PLAIN, FILL_MAP, false, false},
    [CL_RG - ORDER0] = {CL_RG, "CL_RG", 2, {0, 1}, TC_PLAIN, FILL_MAP, false, true},
    [CL_RA - ORDER0] = {CL_RA, "CL_RA", 2, {0, 3}, TC_PLAIN, FILL_MAP, false, false},
    [CL_RGB - ORDER0] = {CL_RGB, "CL_RGB", 3, {0, 1, 2}, TC_PACKED, FILL_MAP, false, true},
    [CL_RGBA - ORDER0] = {CL_RGBA, "CL_RGBA", 4, {0, 1, 2, 3}, TC_PLAIN, FILL_MAP, false, false},
    [CL_BGRA - ORDER0] = {CL_BGRA, "CL_BGRA", 4, {2, 1, 0, 3}, TC_BYTE, FILL_MAP, false, false},
    [CL_ARGB - ORDER0] = {CL_ARGB, "CL_ARGB", 4, {3, 0, 1, 2}, TC_BYTE, FILL_MAP, false, false},
    [CL_ABGR - ORDER0] = {CL_ABGR, "CL_ABGR", 4, {3, 2, 1, 0}, TC_BYTE, FILL_MAP, false, false},
    [CL_INTENSITY -
        ORDER0] = {CL_INTENSITY, "CL_INTENSITY", 1, {0}, TC_NORMF, FILL_INTENSITY, false, false},
    [CL_LUMINANCE -
        ORDER0] = {CL_LUMINANCE, "CL_LUMINANCE", 1, {0}, TC_NORMF, FILL_LUMINANCE, false, true},
    [CL_Rx - ORDER0] = {CL_Rx, "CL_Rx", 2, {0, -1}, TC_PLAIN, FILL_MAP, false, false},
    [CL_RGx - ORDER0] = {CL_RGx, "CL_RGx", 3, {0, 1, -1}, TC_PLAIN, FILL_MAP, false, false},
    [CL_RGBx - ORDER0] = {CL_RGBx, "CL_RGBx", 4, {0, 1, 2, -1}, TC_PACKED, FILL_MAP, false, false},
    [CL_DEPTH - ORDER0] = {CL_DEPTH, "CL_DEPTH", 1, {0}, TC_DEPTH, FILL_MAP, false, false},
    [CL_sRGB - ORDER0] = {CL_sRGB, "CL_sRGB", 3, {0, 1, 2}, TC_SRGB, FILL_MAP, true, true},
    [CL_sRGBx - ORDER0] = {CL_sRGBx, "CL_sRGBx", 4, {0, 1, 2, -1}, TC_SRGB, FILL_MAP, true, false},
    [CL_sRGBA - ORDER0] = {CL_sRGBA, "CL_sRGBA", 4, {0, 1, 2, 3}, TC_SRGB, FILL_MAP, true, false},
    [CL_sBGRA - ORDER0] = {CL_sBGRA, "CL_sBGRA", 4, {2, 1, 0, 3}, TC_SRGB, FILL_MAP, true, false},
};

/* How one channel (or, packed, the whole texel) is stored. */
enum repr {
  R_UNORM, /* unsigned normalized: value / max */
  R_SNORM, /* signed normalized: max(-1, value / max) */
  R_SINT,
  R_UINT,
  R_HALF,
  R_FLOAT,
  R_PACKED, /* unsigned normalized fields of one 16- or 32-bit word */
};

struct dtype_desc {
  uint32_t dtype;
  const char *name;
  uint8_t bytes; /* per channel; per texel when packed */
  uint8_t repr;  /* enum repr */
  char kind;     /* 'f', 'i', 'u' */
  uint8_t nfield;
  uint8_t shift[4], bits[4]; /* packed fields, in R, G, B, A order */
};

static const struct dtype_desc dtypes[] = {
    [CL_UNORM_INT8 - DTYPE0] = {CL_UNORM_INT8, "CL_UNORM_INT8", 1, R_UNORM, 'f', 0, {0}, {0}},
    [CL_UNORM_INT16 - DTYPE0] = {CL_UNORM_INT16, "CL_UNORM_INT16", 2, R_UNORM, 'f', 0, {0}, {0}},
    [CL_SNORM_INT8 - DTYPE0] = {CL_SNORM_INT8, "CL_SNORM_INT8", 1, R_SNORM, 'f', 0, {0}, {0}},
    [CL_SNORM_INT16 - DTYPE0] = {CL_SNORM_INT16, "CL_SNORM_INT16", 2, R_SNORM, 'f', 0, {0}, {0}},
    [CL_SIGNED_INT8 - DTYPE0] = {CL_SIGNED_INT8, "CL_SIGNED_INT8", 1, R_SINT, 'i', 0, {0}, {0}},
    [CL_SIGNED_INT16 - DTYPE0] = {CL_SIGNED_INT16, "CL_SIGNED_INT16", 2, R_SINT, 'i', 0, {0}, {0}},
    [CL_SIGNED_INT32 - DTYPE0] = {CL_SIGNED_INT32, "CL_SIGNED_INT32", 4, R_SINT, 'i', 0, {0}, {0}},
    [CL_UNSIGNED_INT8 -
        DTYPE0] = {CL_UNSIGNED_INT8, "CL_UNSIGNED_INT8", 1, R_UINT, 'u', 0, {0}, {0}},
    [CL_UNSIGNED_INT16 -
        DTYPE0] = {CL_UNSIGNED_INT16, "CL_UNSIGNED_INT16", 2, R_UINT, 'u', 0, {0}, {0}},
    [CL_UNSIGNED_INT32 -
        DTYPE0] = {CL_UNSIGNED_INT32, "CL_UNSIGNED_INT32", 4, R_UINT, 'u', 0, {0}, {0}},
    [CL_HALF_FLOAT - DTYPE0] = {CL_HALF_FLOAT, "CL_HALF_FLOAT", 2, R_HALF, 'f', 0, {0}, {0}},
    [CL_FLOAT - DTYPE0] = {CL_FLOAT, "CL_FLOAT", 4, R_FLOAT, 'f', 0, {0}, {0}},
    [CL_UNORM_SHORT_565 - DTYPE0] =
        {CL_UNORM_SHORT_565, "CL_UNORM_SHORT_565", 2, R_PACKED, 'f', 3, {11, 5, 0}, {5, 6, 5}},
    [CL_UNORM_SHORT_555 - DTYPE0] =
        {CL_UNORM_SHORT_555, "CL_UNORM_SHORT_555", 2, R_PACKED, 'f', 3, {10, 5, 0}, {5, 5, 5}},
    [CL_UNORM_INT_101010 - DTYPE0] = {CL_UNORM_INT_101010,
                                      "CL_UNORM_INT_101010",
                                      4,
                                      R_PACKED,
                                      'f',
                                      3,
                                      {20, 10, 0},
                                      {10, 10, 10}},
};

static const struct order_desc *order_of(uint32_t order) {
  uint32_t i = order - ORDER0;
  return i < sizeof orders / sizeof orders[0] && orders[i].order == order ? &orders[i] : NULL;
}

static const struct dtype_desc *dtype_of(uint32_t dtype) {
  uint32_t i = dtype - DTYPE0;
  return i < sizeof dtypes / sizeof dtypes[0] && dtypes[i].dtype == dtype ? &dtypes[i] : NULL;
}

static bool class_allows(uint8_t tc, const struct dtype_desc *t) {
  switch (tc) {
  case TC_PLAIN: return t->repr != R_PACKED;
  case TC_PACKED: return t->repr == R_PACKED;
  case TC_SRGB: return t->dtype == CL_UNORM_INT8;
  case TC_DEPTH: return t->dtype == CL_UNORM_INT16 || t->dtype == CL_FLOAT;
  case TC_BYTE: return t->repr != R_PACKED && t->bytes == 1;
  case TC_NORMF:
    return t->repr == R_UNORM || t->repr == R_SNORM || t->repr == R_HALF || t->repr == R_FLOAT;
  }
  return false;
}

unsigned dev_image_elem_size(uint32_t order, uint32_t dtype) {
  const struct order_desc *o = order_of(order);
  const struct dtype_desc *t = dtype_of(dtype);
  if (!o || !t || !class_allows(o->tc, t)) return 0;
  unsigned size = t->repr == R_PACKED ? t->bytes : o->nch * t->bytes;
  /* "The number of bits per element ... must be a power of two." */
  return (size & (size - 1)) ? 0 : size;
}

unsigned dev_image_channels(uint32_t order) {
  const struct order_desc *o = order_of(order);
  return o ? o->nch : 0;
}

const char *dev_image_order_name(uint32_t order) {
  const struct order_desc *o = order_of(order);
  return o ? o->name : NULL;
}

const char *dev_image_dtype_name(uint32_t dtype) {
  const struct dtype_desc *t = dtype_of(dtype);
  return t ? t->name : NULL;
}

char dev_image_kind(uint32_t dtype) {
  const struct dtype_desc *t = dtype_of(dtype);
  return t ? t->kind : 0;
}

/* ---- scalar conversions ---- */

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | mant << 13; /* inf, NaN (payload kept) */
  } else if (exp) {
    bits = sign | (exp + 112) << 23 | mant << 13;
  } else {
    float f = ldexpf((float)mant, -24); /* zero or subnormal: exact */
    return sign ? -f : f;
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* Round a mantissa right by shift bits to nearest, ties to even. */
static uint32_t shift_rne(uint32_t m, unsigned shift) {
  if (shift >= 32) return 0;
  uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  return q + (rem > half || (rem == half && (q & 1)));
}

/* float -> half, round to nearest even; subnormals, inf and NaN kept. */
static uint16_t float_to_half(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  uint32_t abs = bits & 0x7fffffffu;
  if (abs > 0x7f800000u) return sign | 0x7e00u | (uint16_t)((abs >> 13) & 0x3ffu); /* NaN */
  if (abs >= 0x477ff000u) return sign | 0x7c00u; /* >= 65520 rounds to inf */
  if (abs >= 0x38800000u) /* a normal half: rebias, the carry may bump the exponent */
    return sign | (uint16_t)shift_rne(abs - (112u << 23), 13);
  if (abs < 0x00800000u) return sign; /* float zero or subnormal: far below 2^-25 */
  /* A half subnormal: units of 2^-24. */
  uint32_t m = (abs & 0x7fffffu) | 0x800000u;
  int e = (int)(abs >> 23) - 127; /* value = m * 2^(e-23) = m * 2^(e+1) units */
  return sign | (uint16_t)shift_rne(m, (unsigned)(-e - 1));
}

/* convert_<unsigned>_sat_rte(f * max): NaN gives 0. */
static uint32_t unorm_encode(float f, uint32_t max) {
  float x = f * (float)max;
  if (!(x > 0.0f)) return 0;
  if (x >= (float)max) return max;
  return (uint32_t)rintf(x);
}

/* convert_<signed>_sat_rte(f * max): saturates at -(max + 1). */
static int32_t snorm_encode(float f, int32_t max) {
  float x = f * (float)max;
  if (x != x) return 0;
  if (x <= (float)(-max - 1)) return -max - 1;
  if (x >= (float)max) return max;
  return (int32_t)rintf(x);
}

static float srgb_to_linear(float c) {
  double d = c;
  return (float)(d <= 0.04045 ? d / 12.92 : pow((d + 0.055) / 1.055, 2.4));
}

/* The specification's linear -> sRGB rule, rounded to an 8-bit code. */
static uint32_t linear_to_srgb8(float f) {
  double c = f;
  if (c != c) c = 0.0;
  if (c > 1.0)
    c = 1.0;
  else if (c < 0.0)
    c = 0.0;
  else if (c < 0.0031308)
    c = 12.92 * c;
  else
    c = 1.055 * pow(c, 1.0 / 2.4) - 0.055;
  return (uint32_t)floor(c * 255.0 + 0.5);
}

/* ---- raw channel access (native byte order, any alignment) ---- */

static uint32_t load_bits(const uint8_t *p, unsigned bytes) {
  uint8_t b8;
  uint16_t b16;
  uint32_t b32;
  switch (bytes) {
  case 1: memcpy(&b8, p, 1); return b8;
  case 2: memcpy(&b16, p, 2); return b16;
  default: memcpy(&b32, p, 4); return b32;
  }
}

static void store_bits(uint8_t *p, unsigned bytes, uint32_t v) {
  uint8_t b8 = (uint8_t)v;
  uint16_t b16 = (uint16_t)v;
  switch (bytes) {
  case 1: memcpy(p, &b8, 1); break;
  case 2: memcpy(p, &b16, 2); break;
  default: memcpy(p, &v, 4); break;
  }
}

static int32_t sign_extend(uint32_t v, unsigned bytes) {
  if (bytes == 1) return (int8_t)v;
  if (bytes == 2) return (int16_t)v;
  return (int32_t)v;
}

static uint32_t max_of(unsigned bits) {
  return bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
}

/* One stored channel's bits -> its component value. */
static void decode_channel(const struct dtype_desc *t, uint32_t raw, bool srgb, union dev_texel *v,
                           unsigned c) {
  unsigned bits = 8u * t->bytes;
  switch (t->repr) {
  case R_UNORM:
    v->f[c] = (float)raw / (float)max_of(bits);
    if (srgb) v->f[c] = srgb_to_linear(v->f[c]);
    break;
  case R_SNORM:
    v->f[c] = fmaxf(-1.0f, (float)sign_extend(raw, t->bytes) / (float)max_of(bits - 1));
    break;
  case R_SINT: v->i[c] = sign_extend(raw, t->bytes); break;
  case R_UINT: v->u[c] = raw; break;
  case R_HALF: v->f[c] = half_to_float((uint16_t)raw); break;
  default: memcpy(&v->f[c], &raw, 4); break; /* R_FLOAT: bits kept, NaN included */
  }
}

/* One component value -> the stored channel's bits. */
static uint32_t encode_channel(const struct dtype_desc *t, const union dev_texel *v, unsigned c,
                               bool srgb) {
  unsigned bits = 8u * t->bytes;
  uint32_t raw;
  switch (t->repr) {
  case R_UNORM: return srgb ? linear_to_srgb8(v->f[c]) : unorm_encode(v->f[c], max_of(bits));
  case R_SNORM: return (uint32_t)snorm_encode(v->f[c], (int32_t)max_of(bits - 1)) & max_of(bits);
  case R_SINT: {
    int32_t lo = bits == 32 ? INT32_MIN : -(int32_t)max_of(bits - 1) - 1;
    int32_t hi = bits == 32 ? INT32_MAX : (int32_t)max_of(bits - 1);
    int32_t x = v->i[c] < lo ? lo : v->i[c] > hi ? hi : v->i[c];
    return (uint32_t)x & max_of(bits);
  }
  case R_UINT: return v->u[c] > max_of(bits) ? max_of(bits) : v->u[c];
  case R_HALF: return float_to_half(v->f[c]);
  default: memcpy(&raw, &v->f[c], 4); return raw; /* R_FLOAT */
  }
}

/* ---- the texel codec ---- */

static void fill_defaults(char kind, bool alpha_one, union dev_texel *out) {
  memset(out, 0, sizeof *out);
  if (!alpha_one) return;
  if (kind == 'f')
    out->f[3] = 1.0f;
  else
    out->u[3] = 1;
}

static void decode_packed(const struct order_desc *o, const struct dtype_desc *t, const uint8_t *p,
                          union dev_texel *out) {
  uint32_t word = load_bits(p, t->bytes);
  for (unsigned j = 0; j < t->nfield; j++) {
    uint32_t max = max_of(t->bits[j]);
    if (o->map[j] >= 0) out->f[o->map[j]] = (float)((word >> t->shift[j]) & max) / (float)max;
  }
}

void dev_texel_decode(uint32_t order, uint32_t dtype, const void *src, union dev_texel *out) {
  const struct order_desc *o = order_of(order);
  const struct dtype_desc *t = dtype_of(dtype);
  fill_defaults(t ? t->kind : 'f', true, out);
  if (!o || !t || !dev_image_elem_size(order, dtype)) return;
  const uint8_t *p = src;
  if (t->repr == R_PACKED) {
    decode_packed(o, t, p, out);
    return;
  }
  union dev_texel ch;
  for (unsigned i = 0; i < o->nch; i++) {
    bool srgb = o->srgb && o->map[i] != 3; /* alpha stays linear */
    decode_channel(t, load_bits(p + i * t->bytes, t->bytes), srgb, &ch, i);
  }
  if (o->fill == FILL_MAP) {
    for (unsigned i = 0; i < o->nch; i++)
      if (o->map[i] >= 0) out->u[o->map[i]] = ch.u[i];
  } else {
    unsigned n = o->fill == FILL_INTENSITY ? 4 : 3;
    for (unsigned c = 0; c < n; c++)
      out->u[c] = ch.u[0];
  }
}

static void encode_packed(const struct order_desc *o, const struct dtype_desc *t,
                          const union dev_texel *in, uint8_t *p) {
  uint32_t word = 0;
  for (unsigned j = 0; j < t->nfield; j++)
    if (o->map[j] >= 0) word |= unorm_encode(in->f[o->map[j]], max_of(t->bits[j])) << t->shift[j];
  store_bits(p, t->bytes, word);
}

void dev_texel_encode(uint32_t order, uint32_t dtype, const union dev_texel *in, void *dst) {
  const struct order_desc *o = order_of(order);
  const struct dtype_desc *t = dtype_of(dtype);
  unsigned size = dev_image_elem_size(order, dtype);
  if (!size) return;
  uint8_t *p = dst;
  memset(p, 0, size); /* padding channels are written as 0 */
  if (t->repr == R_PACKED) {
    encode_packed(o, t, in, p);
    return;
  }
  for (unsigned i = 0; i < o->nch; i++) {
    if (o->map[i] < 0) continue;
    bool srgb = o->srgb && o->map[i] != 3;
    store_bits(p + i * t->bytes, t->bytes, encode_channel(t, in, (unsigned)o->map[i], srgb));
  }
}

void dev_texel_border(uint32_t order, uint32_t dtype, union dev_texel *out) {
  const struct order_desc *o = order_of(order);
  char kind = dev_image_kind(dtype);
  fill_defaults(kind ? kind : 'f', o && o->border_alpha, out);
}
