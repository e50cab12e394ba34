/*
 * sampler.c - sampler objects: creation from arguments or a property list,
 * queries, retain/release, and the CLK_* value (DEV_SAMPLER_* in
 * device/image.h) a sampler_t kernel argument holds. Sampling itself is
 * the device's; nothing here knows how a texel is read.
 */
#include <stdlib.h>
#include <string.h>

#include "device/claims.h"
#include "runtime/rt.h"

/* One row per addressing mode: its API value and its CLK_* bits. */
static const struct {
  cl_addressing_mode mode;
  uint32_t bits;
} addressing[] = {
    {CL_ADDRESS_NONE, DEV_SAMPLER_NONE},
    {CL_ADDRESS_CLAMP_TO_EDGE, DEV_SAMPLER_CLAMP_EDGE},
    {CL_ADDRESS_CLAMP, DEV_SAMPLER_CLAMP},
    {CL_ADDRESS_REPEAT, DEV_SAMPLER_REPEAT},
    {CL_ADDRESS_MIRRORED_REPEAT, DEV_SAMPLER_MIRROR},
};

/* The CLK_* value of a valid combination; false for an invalid value. */
static bool sampler_bits(cl_bool normalized, cl_addressing_mode a, cl_filter_mode f,
                         uint32_t *out) {
  if (normalized != CL_TRUE && normalized != CL_FALSE) return false;
  uint32_t bits = normalized ? DEV_SAMPLER_NORMALIZED : 0;
  if (f == CL_FILTER_NEAREST)
    bits |= DEV_SAMPLER_NEAREST;
  else if (f == CL_FILTER_LINEAR)
    bits |= DEV_SAMPLER_LINEAR;
  else
    return false;
  for (size_t i = 0; i < sizeof addressing / sizeof addressing[0]; i++)
    if (addressing[i].mode == a) {
      *out = bits | addressing[i].bits;
      return true;
    }
  return false;
}

/* Reads a property list: each name at most once, every value valid. */
static cl_int parse_props(const cl_sampler_properties *props, cl_bool *norm, cl_addressing_mode *a,
                          cl_filter_mode *f, size_t *count) {
  unsigned seen = 0;
  size_t i = 0;
  for (; props && props[i]; i += 2) {
    unsigned bit;
    cl_sampler_properties v = props[i + 1];
    switch (props[i]) {
    case CL_SAMPLER_NORMALIZED_COORDS: bit = 1, *norm = (cl_bool)v; break;
    case CL_SAMPLER_ADDRESSING_MODE: bit = 2, *a = (cl_addressing_mode)v; break;
    case CL_SAMPLER_FILTER_MODE: bit = 4, *f = (cl_filter_mode)v; break;
    default: return CL_INVALID_VALUE; /* mipmap properties: no cl_khr_mipmap_image */
    }
    if (seen & bit) return CL_INVALID_VALUE;
    seen |= bit;
    if (i + 2 >= 8) return CL_INVALID_VALUE; /* longer than any valid list */
    if (props[i] == CL_SAMPLER_NORMALIZED_COORDS && v != CL_TRUE && v != CL_FALSE)
      return CL_INVALID_VALUE;
  }
  *count = props ? i + 1 : 0;
  return CL_SUCCESS;
}

static cl_int sampler_create_in(const char *call, cl_context ctx,
                                const cl_sampler_properties *props, cl_bool norm,
                                cl_addressing_mode a, cl_filter_mode f, bool from_props,
                                cl_sampler *out) {
  if (!rt_valid_in(call, ctx, RT_TAG_CONTEXT)) return CL_INVALID_CONTEXT;
  size_t nprops = 0;
  if (from_props) {
    cl_int err = parse_props(props, &norm, &a, &f, &nprops);
    if (err != CL_SUCCESS) return err;
  }
  uint32_t bits;
  if (!sampler_bits(norm, a, f, &bits)) return CL_INVALID_VALUE;
  if (!dev_claimed("__opencl_c_images")) return CL_INVALID_OPERATION;
  cl_sampler s = calloc(1, sizeof *s);
  if (!s) return CL_OUT_OF_HOST_MEMORY;
  s->context = ctx;
  s->normalized = norm;
  s->addressing = a;
  s->filter = f;
  s->bits = bits;
  if (nprops) memcpy(s->props, props, nprops * sizeof *props);
  s->props_size = nprops * sizeof *props;
  rt_retain(&ctx->obj);
  rt_object_init(&s->obj, RT_TAG_SAMPLER);
  *out = s;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode,
                                                    cl_filter_mode filter_mode,
                                                    cl_int *errcode_ret) {
  cl_sampler s = NULL;
  cl_int err = sampler_create_in(__func__, context, NULL, normalized_coords, addressing_mode,
                                 filter_mode, false, &s);
  rt_set_err(errcode_ret, err);
  return s;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *sampler_properties, cl_int *errcode_ret) {
  cl_sampler s = NULL;
  cl_int err = sampler_create_in(__func__, context, sampler_properties, CL_TRUE, CL_ADDRESS_CLAMP,
                                 CL_FILTER_NEAREST, true, &s);
  rt_set_err(errcode_ret, err);
  return s;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  if (!rt_valid(sampler, RT_TAG_SAMPLER)) return CL_INVALID_SAMPLER;
  rt_retain(&sampler->obj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  if (!rt_valid(sampler, RT_TAG_SAMPLER)) return CL_INVALID_SAMPLER;
  if (rt_release(&sampler->obj) == 0) {
    cl_context ctx = sampler->context;
    rt_object_kill(&sampler->obj);
    rt_object_free(&sampler->obj, sizeof *sampler);
    rt_context_unref(ctx);
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  if (!rt_valid(sampler, RT_TAG_SAMPLER)) return CL_INVALID_SAMPLER;
  cl_sampler s = sampler;
  size_t sz = param_value_size;
  void *pv = param_value;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_SAMPLER_REFERENCE_COUNT: {
    cl_uint n = atomic_load(&s->obj.refcount);
    return rt_info(sz, pv, ret, &n, sizeof n);
  }
  case CL_SAMPLER_CONTEXT: return rt_info(sz, pv, ret, &s->context, sizeof s->context);
  case CL_SAMPLER_NORMALIZED_COORDS:
    return rt_info(sz, pv, ret, &s->normalized, sizeof s->normalized);
  case CL_SAMPLER_ADDRESSING_MODE:
    return rt_info(sz, pv, ret, &s->addressing, sizeof s->addressing);
  case CL_SAMPLER_FILTER_MODE: return rt_info(sz, pv, ret, &s->filter, sizeof s->filter);
  case CL_SAMPLER_PROPERTIES: return rt_info(sz, pv, ret, s->props, s->props_size);
  default: return CL_INVALID_VALUE;
  }
}

bool rt_sampler_bits(cl_sampler s, cl_context ctx, uint32_t *bits) {
  if (!rt_valid(s, RT_TAG_SAMPLER) || s->context != ctx) return false;
  *bits = s->bits;
  return true;
}
