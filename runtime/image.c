/*
 * image.c - image objects: creation of every image type (own storage, the
 * application's memory, or a buffer's) with every flag, format and
 * descriptor rule of the specification, clGetImageInfo,
 * clGetSupportedImageFormats, and the descriptor (struct dev_image) the
 * device reads for an image kernel argument.
 *
 * An image is a memory object whose storage is mapped as global memory like
 * a buffer's; its commands (image_cmd.c) treat it as a byte rectangle. The
 * format table is the device's (device/image.h): nothing here decides which
 * formats exist.
 */
#include <stdlib.h>
#include <string.h>

#include "device/claims.h"
#include "runtime/rt.h"

#define ACCESS_FLAGS      (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_PTR_FLAGS    (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define IMAGE_FLAGS       (ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS)

static bool image_support(void) {
  return dev_claimed("__opencl_c_images");
}

static int popcount64(cl_mem_flags f) {
  return __builtin_popcountll((unsigned long long)f);
}

/* The flags of an image creation (CL_MEM_KERNEL_READ_AND_WRITE "is only
 * used by clGetSupportedImageFormats"; query adds it). */
static cl_int check_flags(cl_mem_flags flags, cl_mem_flags query) {
  if (flags & ~(cl_mem_flags)(IMAGE_FLAGS | query)) return CL_INVALID_VALUE;
  if (popcount64(flags & ACCESS_FLAGS) > 1 || popcount64(flags & HOST_ACCESS_FLAGS) > 1)
    return CL_INVALID_VALUE;
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* ---- the descriptor: what the arguments of a creation say ---- */

/* A creation request, checked step by step. */
struct req {
  cl_context ctx;
  cl_mem_flags flags;
  cl_image_format fmt;
  cl_image_desc d; /* pitches filled in once checked */
  void *host_ptr;
  cl_mem buffer;    /* mem_object: the buffer (or 2D image) whose storage the image uses */
  size_t given_row; /* the row pitch as given (0: packed, or the 2D image's) */
  size_t elem;
  size_t size; /* bytes of storage */
};

/* Which of height (1), depth (2) and array size (4) a type uses. */
static unsigned type_dims(cl_mem_object_type t) {
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER: return 0;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: return 4;
  case CL_MEM_OBJECT_IMAGE2D: return 1;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY: return 1 | 4;
  case CL_MEM_OBJECT_IMAGE3D: return 1 | 2;
  default: return 8; /* not an image type */
  }
}

/* Sizes against the device's limits (CL_INVALID_IMAGE_SIZE). */
static cl_int check_limits(const struct req *r) {
  const struct dev_config *c = rt_config();
  const cl_image_desc *d = &r->d;
  bool is3d = d->image_type == CL_MEM_OBJECT_IMAGE3D;
  uint64_t wmax = d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? c->image_buffer_max
                  : is3d                                        ? c->image3d_max
                                                                : c->image2d_max;
  unsigned dims = type_dims(d->image_type);
  if (d->image_width > wmax) return CL_INVALID_IMAGE_SIZE;
  if ((dims & 1) && d->image_height > (is3d ? c->image3d_max : c->image2d_max))
    return CL_INVALID_IMAGE_SIZE;
  if ((dims & 2) && d->image_depth > c->image3d_max) return CL_INVALID_IMAGE_SIZE;
  if ((dims & 4) && d->image_array_size > c->image_array_max) return CL_INVALID_IMAGE_SIZE;
  return CL_SUCCESS;
}

/* Rows (of row pitch) in one slice, and slices, of a type. */
static size_t rows_of(const cl_image_desc *d) {
  return (type_dims(d->image_type) & 1) ? d->image_height : 1;
}
static size_t slices_of(const cl_image_desc *d) {
  unsigned dims = type_dims(d->image_type);
  return (dims & 2) ? d->image_depth : (dims & 4) ? d->image_array_size : 1;
}

/* The pitch rules: 0 means packed; a given row pitch holds a row and is a
 * multiple of the element size, a given slice pitch holds a slice and is a
 * multiple of the row pitch. Pitches may be given only with a host pointer
 * (or, for the row pitch, a buffer). */
static cl_int check_pitches(struct req *r) {
  cl_image_desc *d = &r->d;
  bool sliced = type_dims(d->image_type) & (2 | 4);
  size_t row_min;
  if (__builtin_mul_overflow(d->image_width, r->elem, &row_min)) return CL_INVALID_IMAGE_SIZE;
  /* "image_row_pitch must be 0 if host_ptr is NULL", except for an image
   * that uses a buffer's storage: a 2D image from a buffer, and (as the
   * conformance tests create them) a 1D image buffer. */
  bool from_buffer = r->buffer != NULL;
  if (!r->host_ptr && (d->image_slice_pitch || (d->image_row_pitch && !from_buffer)))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (d->image_row_pitch == 0)
    d->image_row_pitch = row_min;
  else if (d->image_row_pitch < row_min || d->image_row_pitch % r->elem)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  size_t slice_min;
  if (__builtin_mul_overflow(d->image_row_pitch, rows_of(d), &slice_min))
    return CL_INVALID_IMAGE_SIZE;
  if (!sliced)
    d->image_slice_pitch = 0;
  else if (d->image_slice_pitch == 0)
    d->image_slice_pitch = slice_min;
  else if (d->image_slice_pitch < slice_min || d->image_slice_pitch % d->image_row_pitch)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  size_t slice = sliced ? d->image_slice_pitch : slice_min;
  if (__builtin_mul_overflow(slice, slices_of(d), &r->size)) return CL_INVALID_IMAGE_SIZE;
  if (r->size > rt_config()->max_alloc_size) return CL_INVALID_IMAGE_SIZE;
  return CL_SUCCESS;
}

/* mem_object: a buffer for a 1D buffer image (required), a buffer or
 * another 2D image for a 2D image (optional); nothing for the other types. */
static cl_int check_mem_object(struct req *r) {
  cl_mem b = r->d.mem_object;
  cl_mem_object_type t = r->d.image_type;
  if (!b) return t == CL_MEM_OBJECT_IMAGE1D_BUFFER ? CL_INVALID_IMAGE_DESCRIPTOR : CL_SUCCESS;
  if (t != CL_MEM_OBJECT_IMAGE1D_BUFFER && t != CL_MEM_OBJECT_IMAGE2D)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (!rt_valid(b, RT_TAG_MEM) || b->context != r->ctx) return CL_INVALID_IMAGE_DESCRIPTOR;
  bool from_2d = t == CL_MEM_OBJECT_IMAGE2D && b->type == CL_MEM_OBJECT_IMAGE2D;
  if (b->type != CL_MEM_OBJECT_BUFFER && !from_2d) return CL_INVALID_IMAGE_DESCRIPTOR;
  r->buffer = b;
  return CL_SUCCESS;
}

/* Channel orders that view the same texels differently
 * (cl_khr_image2d_from_image). */
static bool orders_compatible(cl_channel_order a, cl_channel_order b) {
  static const cl_channel_order pairs[][2] = {
      {CL_sBGRA, CL_BGRA}, {CL_sRGBA, CL_RGBA}, {CL_sRGB, CL_RGB},
      {CL_sRGBx, CL_RGBx}, {CL_DEPTH, CL_R},
  };
  if (a == b) return true;
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    if ((a == pairs[i][0] && b == pairs[i][1]) || (a == pairs[i][1] && b == pairs[i][0]))
      return true;
  return false;
}

/* A 2D image made from another: the same size, row pitch and data type,
 * a compatible channel order. */
static cl_int check_from_image(struct req *r) {
  const struct rt_image *src = r->buffer->image;
  const cl_image_desc *sd = &src->desc;
  if (r->fmt.image_channel_data_type != src->format.image_channel_data_type ||
      !orders_compatible(r->fmt.image_channel_order, src->format.image_channel_order) ||
      r->elem != src->elem_size || r->d.image_width != sd->image_width ||
      r->d.image_height != sd->image_height ||
      (r->given_row && r->given_row != sd->image_row_pitch))
    return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  r->d.image_row_pitch = sd->image_row_pitch;
  r->size = r->buffer->size;
  return CL_SUCCESS;
}

static cl_int check_desc(struct req *r, const cl_image_desc *desc) {
  if (!desc) return CL_INVALID_IMAGE_DESCRIPTOR;
  r->d = *desc;
  r->given_row = desc->image_row_pitch;
  cl_image_desc *d = &r->d;
  unsigned dims = type_dims(d->image_type);
  if (dims == 8 || d->num_mip_levels || d->num_samples) return CL_INVALID_IMAGE_DESCRIPTOR;
  if (d->image_width == 0 || ((dims & 1) && d->image_height == 0) ||
      ((dims & 2) && d->image_depth == 0) || ((dims & 4) && d->image_array_size == 0))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  cl_int err = check_mem_object(r);
  if (err == CL_SUCCESS) err = check_limits(r);
  if (err == CL_SUCCESS) err = check_pitches(r);
  return err;
}

/* The rules of an image that uses a buffer's (or another image's) storage. */
static cl_int check_buffer_backed(struct req *r) {
  cl_mem b = r->buffer;
  cl_mem_flags f = 0;
  if (r->flags & HOST_PTR_FLAGS) return CL_INVALID_VALUE;
  cl_int err = rt_mem_derived_flags(b->flags, r->flags, &f);
  if (err != CL_SUCCESS) return err;
  r->flags = f;
  if (b->image) return check_from_image(r);
  if (r->d.image_type == CL_MEM_OBJECT_IMAGE2D) {
    const struct dev_config *c = rt_config();
    if (r->d.image_row_pitch % (c->image_pitch_align * r->elem) ||
        (uintptr_t)b->store % (c->image_base_align * r->elem))
      return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  }
  if (r->size > b->size) return CL_INVALID_IMAGE_SIZE;
  return CL_SUCCESS;
}

/* The uses flags ask for: clGetSupportedImageFormats lists the formats
 * that have them all, and clCreateImage takes only those. */
static uint8_t wanted_uses(cl_mem_flags flags) {
  if (flags & CL_MEM_KERNEL_READ_AND_WRITE) return DEV_IMAGE_READ_WRITE;
  if (flags & CL_MEM_READ_ONLY) return DEV_IMAGE_READ;
  if (flags & CL_MEM_WRITE_ONLY) return DEV_IMAGE_WRITE;
  return DEV_IMAGE_READ | DEV_IMAGE_WRITE; /* CL_MEM_READ_WRITE, the default */
}

/* Every check of a creation, in the order the specification lists them. */
static cl_int check_request(struct req *r, const cl_mem_properties *props,
                            const cl_image_format *fmt, const cl_image_desc *desc) {
  if (props && props[0] != 0) return CL_INVALID_PROPERTY; /* no image property exists */
  if (!image_support()) return CL_INVALID_OPERATION;
  cl_int err = check_flags(r->flags, 0);
  if (err != CL_SUCCESS) return err;
  if (!fmt ||
      !(r->elem = dev_image_elem_size(fmt->image_channel_order, fmt->image_channel_data_type)))
    return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  r->fmt = *fmt;
  err = check_desc(r, desc);
  if (err != CL_SUCCESS) return err;
  bool wants_ptr = r->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (r->buffer) {
    err = check_buffer_backed(r);
    if (err != CL_SUCCESS) return err;
    if (r->host_ptr) return CL_INVALID_HOST_PTR;
  } else if (wants_ptr != (r->host_ptr != NULL)) {
    return CL_INVALID_HOST_PTR;
  }
  const struct dev_image_format *f =
      dev_image_format_find(fmt->image_channel_order, fmt->image_channel_data_type);
  uint8_t want = wanted_uses(r->flags);
  if (!f || (f->uses & want) != want ||
      (fmt->image_channel_order == CL_DEPTH && r->d.image_type != CL_MEM_OBJECT_IMAGE2D &&
       r->d.image_type != CL_MEM_OBJECT_IMAGE2D_ARRAY))
    return CL_IMAGE_FORMAT_NOT_SUPPORTED;
  return CL_SUCCESS;
}

/* ---- creation ---- */

/* The descriptor of an image whose storage has device address data. */
static void fill_dev(struct rt_image *im, cl_mem_flags flags, uint64_t data) {
  const cl_image_desc *d = &im->desc;
  struct dev_image *v = &im->dev;
  unsigned dims = type_dims(d->image_type);
  v->magic = DEV_IMAGE_MAGIC;
  v->type = d->image_type;
  v->order = im->format.image_channel_order;
  v->dtype = im->format.image_channel_data_type;
  v->elem_size = (uint32_t)im->elem_size;
  v->mem_flags = (uint32_t)(flags & ACCESS_FLAGS);
  v->width = d->image_width;
  v->height = (dims & 1) ? d->image_height : 0;
  v->depth = (dims & 2) ? d->image_depth : 0;
  v->array_size = (dims & 4) ? d->image_array_size : 0;
  v->dims[0] = d->image_width;
  v->dims[1] = (dims & 1) ? d->image_height : (dims & 4) ? d->image_array_size : 1;
  v->dims[2] = (dims & 2) ? d->image_depth : (dims & 1) && (dims & 4) ? d->image_array_size : 1;
  /* The pitch of coordinate 1 is the slice pitch of a 1D array. */
  if (d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    v->pitch[0] = d->image_slice_pitch;
    v->pitch[1] = d->image_slice_pitch * d->image_array_size;
  } else {
    v->pitch[0] = d->image_row_pitch;
    v->pitch[1] = d->image_slice_pitch ? d->image_slice_pitch : d->image_row_pitch * rows_of(d);
  }
  v->data = data;
}

/* Copies the application's texels (with its pitches) into packed storage. */
static void copy_in(const struct req *r, const cl_image_desc *user, void *store) {
  const cl_image_desc *d = &r->d;
  size_t row = d->image_width * r->elem, rows = rows_of(d), slices = slices_of(d);
  size_t urow = user->image_row_pitch ? user->image_row_pitch : row;
  size_t uslice = user->image_slice_pitch ? user->image_slice_pitch : urow * rows;
  size_t slice = d->image_slice_pitch ? d->image_slice_pitch : row * rows;
  for (size_t z = 0; z < slices; z++)
    for (size_t y = 0; y < rows; y++)
      memcpy((char *)store + z * slice + y * row, (const char *)r->host_ptr + z * uslice + y * urow,
             row);
}

/* Storage for a request without a buffer: the application's memory
 * (USE_HOST_PTR, its pitches kept) or packed storage of our own. */
static cl_int make_storage(struct req *r, cl_mem m) {
  if (r->flags & CL_MEM_USE_HOST_PTR) {
    m->host_ptr = r->host_ptr;
    m->store = r->host_ptr;
    return CL_SUCCESS;
  }
  cl_image_desc user = r->d;
  cl_image_desc *d = &r->d;
  d->image_row_pitch = d->image_width * r->elem;
  if (d->image_slice_pitch) d->image_slice_pitch = d->image_row_pitch * rows_of(d);
  r->size = (d->image_slice_pitch ? d->image_slice_pitch : d->image_row_pitch * rows_of(d)) *
            slices_of(d);
  bool copy = r->flags & CL_MEM_COPY_HOST_PTR;
  cl_int err = rt_mem_store_alloc(m, r->size, 128, !copy);
  if (err != CL_SUCCESS) return err;
  if (copy) copy_in(r, &user, m->store);
  return CL_SUCCESS;
}

static cl_int image_create_in(const char *call, cl_context ctx, const cl_mem_properties *props,
                              cl_mem_flags flags, const cl_image_format *fmt,
                              const cl_image_desc *desc, void *host_ptr, cl_mem *out) {
  if (!rt_valid_in(call, ctx, RT_TAG_CONTEXT)) return CL_INVALID_CONTEXT;
  struct req r = {.ctx = ctx, .flags = flags, .host_ptr = host_ptr};
  cl_int err = check_request(&r, props, fmt, desc);
  if (err != CL_SUCCESS) return err;
  cl_mem m = NULL;
  err = rt_mem_alloc(ctx, &m);
  if (err != CL_SUCCESS) return err;
  const struct dev_ops *ops = ctx->ops;
  if (!(m->image = calloc(1, sizeof *m->image))) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  if (!(r.flags & ACCESS_FLAGS)) r.flags |= CL_MEM_READ_WRITE;
  if (r.buffer) {
    m->store = r.buffer->store;
    m->host_ptr = r.buffer->host_ptr;
  } else if ((err = make_storage(&r, m)) != CL_SUCCESS) {
    goto out;
  }
  m->type = r.d.image_type;
  m->flags = r.flags;
  m->size = r.size;
  if (props) m->props_size = sizeof(cl_mem_properties); /* the empty list */
  struct rt_image *im = m->image;
  im->format = r.fmt;
  im->desc = r.d;
  im->elem_size = r.elem;
  m->addr = ops->map_global(ctx->dev, m->store, m->size, r.flags & CL_MEM_READ_ONLY);
  if (m->addr == 0) {
    err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    goto out;
  }
  /* the checker: an image of a buffer shares its bytes' definedness; one
   * created without host data is undefined */
  if (r.buffer && ops->map_view)
    ops->map_view(ctx->dev, m->addr, r.buffer->addr);
  else if (!r.buffer && !(r.flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) &&
           ops->map_undefined)
    ops->map_undefined(ctx->dev, m->addr);
  fill_dev(im, r.flags, m->addr);
  im->dev_addr = ops->map_global(ctx->dev, &im->dev, sizeof im->dev, true);
  if (im->dev_addr == 0) {
    err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    goto out;
  }
  if (r.buffer) {
    m->parent = r.buffer;
    rt_retain(&r.buffer->obj);
  }
  rt_retain(&ctx->obj);
  rt_object_init(&m->obj, RT_TAG_MEM);
  *out = m;
  return CL_SUCCESS;
out:
  if (m->addr) ops->unmap_global(ctx->dev, m->addr);
  free(m->image);
  rt_mem_free(m);
  return err;
}
#define image_create(...) image_create_in(__func__, __VA_ARGS__)

void rt_image_destroy(cl_mem m) {
  cl_context ctx = m->context;
  if (m->image->dev_addr) ctx->ops->unmap_global(ctx->dev, m->image->dev_addr);
  free(m->image);
  m->image = NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                              const cl_image_format *image_format,
                                              const cl_image_desc *image_desc, void *host_ptr,
                                              cl_int *errcode_ret) {
  cl_mem m = NULL;
  cl_int err = image_create(context, NULL, flags, image_format, image_desc, host_ptr, &m);
  rt_set_err(errcode_ret, err);
  return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                                            const cl_mem_properties *properties,
                                                            cl_mem_flags flags,
                                                            const cl_image_format *image_format,
                                                            const cl_image_desc *image_desc,
                                                            void *host_ptr, cl_int *errcode_ret) {
  cl_mem m = NULL;
  cl_int err = image_create(context, properties, flags, image_format, image_desc, host_ptr, &m);
  rt_set_err(errcode_ret, err);
  return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format *image_format,
                                                size_t image_width, size_t image_height,
                                                size_t image_row_pitch, void *host_ptr,
                                                cl_int *errcode_ret) {
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                     .image_width = image_width,
                     .image_height = image_height,
                     .image_row_pitch = image_row_pitch};
  cl_mem m = NULL;
  cl_int err = image_create(context, NULL, flags, image_format, &d, host_ptr, &m);
  /* The 1.1 entry points have no descriptor: a bad size or pitch is
   * CL_INVALID_IMAGE_SIZE there. */
  if (err == CL_INVALID_IMAGE_DESCRIPTOR) err = CL_INVALID_IMAGE_SIZE;
  rt_set_err(errcode_ret, err);
  return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format *image_format,
                                                size_t image_width, size_t image_height,
                                                size_t image_depth, size_t image_row_pitch,
                                                size_t image_slice_pitch, void *host_ptr,
                                                cl_int *errcode_ret) {
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                     .image_width = image_width,
                     .image_height = image_height,
                     .image_depth = image_depth,
                     .image_row_pitch = image_row_pitch,
                     .image_slice_pitch = image_slice_pitch};
  cl_mem m = NULL;
  cl_int err = CL_SUCCESS;
  /* clCreateImage3D makes 3D images only: a depth of 1 is an invalid size. */
  if (image_depth <= 1 && rt_valid(context, RT_TAG_CONTEXT))
    err = CL_INVALID_IMAGE_SIZE;
  else
    err = image_create(context, NULL, flags, image_format, &d, host_ptr, &m);
  if (err == CL_INVALID_IMAGE_DESCRIPTOR) err = CL_INVALID_IMAGE_SIZE;
  rt_set_err(errcode_ret, err);
  return m;
}

/* ---- queries ---- */

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name,
                                               size_t param_value_size, void *param_value,
                                               size_t *param_value_size_ret) {
  if (!rt_valid(image, RT_TAG_MEM) || !image->image) return CL_INVALID_MEM_OBJECT;
  const struct rt_image *im = image->image;
  const struct dev_image *v = &im->dev;
  size_t sz = param_value_size;
  void *pv = param_value;
  size_t *ret = param_value_size_ret;
  size_t s;
  cl_uint zero = 0;
  switch (param_name) {
  case CL_IMAGE_FORMAT: return rt_info(sz, pv, ret, &im->format, sizeof im->format);
  case CL_IMAGE_ELEMENT_SIZE: return rt_info(sz, pv, ret, &im->elem_size, sizeof(size_t));
  case CL_IMAGE_ROW_PITCH: return rt_info(sz, pv, ret, &im->desc.image_row_pitch, sizeof(size_t));
  case CL_IMAGE_SLICE_PITCH:
    return rt_info(sz, pv, ret, &im->desc.image_slice_pitch, sizeof(size_t));
  case CL_IMAGE_WIDTH: s = v->width; break;
  case CL_IMAGE_HEIGHT: s = v->height; break;
  case CL_IMAGE_DEPTH: s = v->depth; break;
  case CL_IMAGE_ARRAY_SIZE: s = v->array_size; break;
  case CL_IMAGE_BUFFER: {
    cl_mem b = image->parent && !image->parent->image ? image->parent : NULL;
    return rt_info(sz, pv, ret, &b, sizeof b);
  }
  case CL_IMAGE_NUM_MIP_LEVELS:
  case CL_IMAGE_NUM_SAMPLES: return rt_info(sz, pv, ret, &zero, sizeof zero);
  default: return CL_INVALID_VALUE;
  }
  return rt_info(sz, pv, ret, &s, sizeof s);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                           cl_mem_object_type image_type,
                                                           cl_uint num_entries,
                                                           cl_image_format *image_formats,
                                                           cl_uint *num_image_formats) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) return CL_INVALID_CONTEXT;
  if (check_flags(flags, CL_MEM_KERNEL_READ_AND_WRITE) != CL_SUCCESS || type_dims(image_type) == 8)
    return CL_INVALID_VALUE;
  if (num_entries == 0 && image_formats) return CL_INVALID_VALUE;
  cl_uint n = 0;
  uint8_t want = wanted_uses(flags);
  bool depth_ok = image_type == CL_MEM_OBJECT_IMAGE2D || image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  for (unsigned i = 0; image_support() && i < dev_image_nformats; i++) {
    const struct dev_image_format *f = &dev_image_formats[i];
    if ((f->uses & want) != want || (f->order == CL_DEPTH && !depth_ok)) continue;
    if (image_formats && n < num_entries) image_formats[n] = (cl_image_format){f->order, f->dtype};
    n++;
  }
  if (num_image_formats) *num_image_formats = n;
  return CL_SUCCESS;
}
