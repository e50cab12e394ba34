/*
 * sample.c - one read_image{f,i,ui} call: addressing and filtering as the
 * OpenCL C specification ("Image Addressing and Filtering", "Selecting an
 * Image from an Image Array") defines them, independent of where texels
 * live: texels come from the caller's fetch hook, values from the texel
 * codec (device/texel.c).
 *
 * Conventions where the specification leaves a choice:
 *  - CLK_ADDRESS_NONE (and every read without a sampler): a coordinate
 *    outside the image is DEV_SAMPLE_OUTSIDE. With CLK_FILTER_LINEAR a
 *    coordinate inside the image may still have a neighbour texel outside
 *    it (within half a texel of the edge); that neighbour contributes the
 *    border color, as the conformance suite's reference does.
 *  - Undefined combinations (LINEAR on an integer image, REPEAT or
 *    MIRRORED_REPEAT with unnormalized coordinates, integer coordinates
 *    with anything but unnormalized NEAREST and NONE / CLAMP / CLAMP_TO_EDGE)
 *    return DEV_SAMPLE_UNDEFINED with a deterministic value: NEAREST for an
 *    integer image, CLAMP_TO_EDGE for the addressing, float coordinates.
 *  - The array layer is clamp(rint(c), 0, layers - 1) (clamp for integer
 *    coordinates) for every sampler: its addressing is always
 *    CLAMP_TO_EDGE.
 *  - A NaN coordinate counts as far below the image.
 *
 * Must not touch memory itself or report faults: the fetch hook does.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <string.h>

#include "device/image.h"

#define FAR 1099511627776.0 /* 2^40: beyond any image, exact as a double */

unsigned dev_image_ncoords(uint32_t type) {
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER: return 1;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D: return 2;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D: return 3;
  default: return 0;
  }
}

/* Coordinates that address texels (the array layer excluded). */
static unsigned spatial_coords(uint32_t type) {
  unsigned n = dev_image_ncoords(type);
  bool array = type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  return array ? n - 1 : n;
}

/* floor(x) as an integer, saturated far outside any image; NaN is far
 * below. */
static int64_t ifloor(float x) {
  double d = floor((double)x);
  if (!(d >= -FAR)) return (int64_t)-FAR;
  if (d > FAR) return (int64_t)FAR;
  return (int64_t)d;
}

static float frac(float x) {
  return x - floorf(x);
}

/* One coordinate's two texel indices (i0, i1 for LINEAR; i0 alone for
 * NEAREST), their weight a, and whether each is outside (border). */
struct axis {
  int64_t i[2];
  bool out[2];
  float a;
};

/* Index i under CLAMP_TO_EDGE, CLAMP or NONE; out when it is outside. */
static int64_t address(uint32_t addr, int64_t i, int64_t w, bool *out) {
  if (addr == DEV_SAMPLER_CLAMP_EDGE) return i < 0 ? 0 : i >= w ? w - 1 : i;
  *out = i < 0 || i >= w;
  return i;
}

static void axis_repeat(float s, int64_t w, bool linear, struct axis *ax) {
  float u = (s - floorf(s)) * (float)w;
  if (!linear) {
    ax->i[0] = ifloor(u);
    if (ax->i[0] > w - 1) ax->i[0] -= w;
    return;
  }
  ax->i[0] = ifloor(u - 0.5f);
  ax->i[1] = ax->i[0] + 1;
  if (ax->i[0] < 0) ax->i[0] += w;
  if (ax->i[1] > w - 1) ax->i[1] -= w;
  ax->a = frac(u - 0.5f);
}

static void axis_mirror(float s, int64_t w, bool linear, struct axis *ax) {
  float sp = 2.0f * rintf(0.5f * s);
  float u = fabsf(s - sp) * (float)w;
  if (!linear) {
    ax->i[0] = ifloor(u);
    if (ax->i[0] > w - 1) ax->i[0] = w - 1;
    return;
  }
  ax->i[0] = ifloor(u - 0.5f);
  ax->i[1] = ax->i[0] + 1;
  if (ax->i[0] < 0) ax->i[0] = 0;
  if (ax->i[1] > w - 1) ax->i[1] = w - 1;
  ax->a = frac(u - 0.5f);
}

/* One float coordinate; returns false when it is outside the image under
 * CLK_ADDRESS_NONE. */
static bool axis_float(uint32_t addr, bool norm, bool linear, float s, int64_t w, struct axis *ax) {
  memset(ax, 0, sizeof *ax);
  if (addr == DEV_SAMPLER_REPEAT || addr == DEV_SAMPLER_MIRROR) {
    (addr == DEV_SAMPLER_REPEAT ? axis_repeat : axis_mirror)(s, w, linear, ax);
    for (int k = 0; k < 2; k++) /* only a NaN or infinite s gets here */
      if (ax->i[k] < 0 || ax->i[k] >= w) ax->i[k] = 0;
    return true;
  }
  float u = norm ? s * (float)w : s;
  bool inside = true;
  if (addr == DEV_SAMPLER_NONE) inside = ifloor(u) >= 0 && ifloor(u) < w;
  if (!linear) {
    ax->i[0] = address(addr, ifloor(u), w, &ax->out[0]);
    return inside;
  }
  int64_t i0 = ifloor(u - 0.5f);
  ax->i[0] = address(addr, i0, w, &ax->out[0]);
  ax->i[1] = address(addr, i0 + 1, w, &ax->out[1]);
  ax->a = frac(u - 0.5f);
  return inside;
}

static int64_t layer_index(const struct dev_sample_req *rq, unsigned c) {
  int64_t n = (int64_t)rq->img->dims[c], l;
  if (rq->float_coords) {
    float r = rintf(rq->fc[c]);
    l = r != r ? 0 : r < 0 ? 0 : r > (float)(n - 1) ? n - 1 : (int64_t)r;
  } else {
    l = rq->ic[c] < 0 ? 0 : rq->ic[c] > n - 1 ? n - 1 : rq->ic[c];
  }
  return l;
}

/* The sampler as it will be applied, and the status its combination with
 * the request earns. */
struct plan {
  uint32_t addr;
  bool norm, linear, float_coords;
  enum dev_sample_status status;
};

static struct plan make_plan(const struct dev_sample_req *rq) {
  uint32_t s = rq->sampler;
  struct plan p = {.addr = s & DEV_SAMPLER_ADDR_MASK,
                   .norm = (s & DEV_SAMPLER_NORMALIZED) != 0,
                   .linear = (s & (DEV_SAMPLER_LINEAR | DEV_SAMPLER_NEAREST)) == DEV_SAMPLER_LINEAR,
                   .float_coords = rq->float_coords,
                   .status = DEV_SAMPLE_OK};
  if (p.addr > DEV_SAMPLER_MIRROR ||
      (!p.norm && (p.addr == DEV_SAMPLER_REPEAT || p.addr == DEV_SAMPLER_MIRROR))) {
    p.addr = DEV_SAMPLER_CLAMP_EDGE;
    p.status = DEV_SAMPLE_UNDEFINED;
  }
  if (p.linear && dev_image_kind(rq->img->dtype) != 'f') {
    p.linear = false;
    p.status = DEV_SAMPLE_UNDEFINED;
  }
  if (!p.float_coords && (p.norm || p.linear || p.status != DEV_SAMPLE_OK)) {
    p.float_coords = true; /* undefined: sample at the integer as a float */
    p.status = DEV_SAMPLE_UNDEFINED;
  }
  return p;
}

/* Texel (x, y, z), or the border color when any index is outside. */
static enum dev_sample_status texel(const struct dev_sample_req *rq, const int64_t idx[3],
                                    bool outside, dev_image_fetch_fn fetch, void *ctx,
                                    union dev_texel *t) {
  const struct dev_image *img = rq->img;
  if (outside) {
    dev_texel_border(img->order, img->dtype, t);
    return DEV_SAMPLE_OK;
  }
  const void *p = fetch(ctx, (uint64_t)idx[0], (uint64_t)idx[1], (uint64_t)idx[2]);
  if (!p) return DEV_SAMPLE_FAULT;
  dev_texel_decode(img->order, img->dtype, p, t);
  return DEV_SAMPLE_OK;
}

/* NEAREST: the one texel (i0 of every axis). LINEAR: the weighted sum over
 * the 2^n corners in the specification's order (x varies fastest), each
 * weight the product of (1 - a) or a over the axes. */
static enum dev_sample_status filter(const struct dev_sample_req *rq, const struct axis ax[3],
                                     unsigned n, bool linear, int64_t layer,
                                     dev_image_fetch_fn fetch, void *ctx, union dev_texel *out) {
  memset(out, 0, sizeof *out);
  for (unsigned corner = 0; corner < (linear ? 1u << n : 1u); corner++) {
    int64_t idx[3] = {0, 0, 0};
    bool outside = false;
    float w = 1.0f;
    for (unsigned d = 0; d < n; d++) {
      unsigned k = (corner >> d) & 1;
      idx[d] = ax[d].i[k];
      outside |= ax[d].out[k];
      w *= k ? ax[d].a : 1.0f - ax[d].a;
    }
    if (n < 3) idx[n] = layer;
    union dev_texel t;
    enum dev_sample_status st = texel(rq, idx, outside, fetch, ctx, &t);
    if (st != DEV_SAMPLE_OK) return st;
    if (!linear) {
      *out = t;
      break;
    }
    for (unsigned c = 0; c < 4; c++)
      out->f[c] += w * t.f[c];
  }
  return DEV_SAMPLE_OK;
}

/* Integer coordinates with an unnormalized NEAREST sampler. */
static bool axis_int(uint32_t addr, int32_t c, int64_t w, struct axis *ax) {
  memset(ax, 0, sizeof *ax);
  bool out = false;
  ax->i[0] = address(addr, c, w, &out);
  ax->out[0] = out;
  return addr != DEV_SAMPLER_NONE || !out;
}

enum dev_sample_status dev_image_sample(const struct dev_sample_req *rq, dev_image_fetch_fn fetch,
                                        void *ctx, union dev_texel *out) {
  const struct dev_image *img = rq->img;
  unsigned n = spatial_coords(img->type), nc = dev_image_ncoords(img->type);
  memset(out, 0, sizeof *out);
  if (!nc || !img->dims[0] || !img->dims[1] || !img->dims[2]) return DEV_SAMPLE_UNDEFINED;
  struct plan p = make_plan(rq);
  struct axis ax[3];
  bool inside = true;
  for (unsigned d = 0; d < n; d++) {
    int64_t w = (int64_t)img->dims[d];
    if (p.float_coords) {
      float s = rq->float_coords ? rq->fc[d] : (float)rq->ic[d];
      inside &= axis_float(p.addr, p.norm, p.linear, s, w, &ax[d]);
    } else {
      inside &= axis_int(p.addr, rq->ic[d], w, &ax[d]);
    }
  }
  int64_t layer = n < nc ? layer_index(rq, n) : 0;
  enum dev_sample_status st = filter(rq, ax, n, p.linear, layer, fetch, ctx, out);
  if (st != DEV_SAMPLE_OK) return st;
  return inside ? p.status : DEV_SAMPLE_OUTSIDE;
}
