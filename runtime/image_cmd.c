/*
 * image_cmd.c - the image commands: read, write, copy (image to image,
 * image to buffer, buffer to image), fill and map, with the origin, region,
 * pitch and host-access rules of the specification.
 *
 * An image is a byte rectangle to the device: coordinate 0 of a texel is
 * x * elem_size bytes, coordinates 1 and 2 step by the pitches of its
 * descriptor (device/image.h), so every command is one of the device's rect
 * commands and runs asynchronously through rt_enqueue_mem() like a buffer
 * command. Nothing here touches image data inside an API call.
 */
#include <stdlib.h>
#include <string.h>

#include "device/claims.h"
#include "runtime/rt.h"

/* The checks every image command starts with: queue, image, context. */
static cl_int check_qi_in(const char *call, cl_command_queue q, cl_mem img) {
  if (!rt_valid_in(call, q, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (!rt_valid_in(call, img, RT_TAG_MEM) || !img->image) return CL_INVALID_MEM_OBJECT;
  if (q->context != img->context) return CL_INVALID_CONTEXT;
  if (!dev_claimed("__opencl_c_images")) return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

static cl_int check_qb_in(const char *call, cl_command_queue q, cl_mem buf) {
  if (!rt_valid_in(call, buf, RT_TAG_MEM) || buf->type != CL_MEM_OBJECT_BUFFER)
    return CL_INVALID_MEM_OBJECT;
  if (q->context != buf->context) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

/* origin and region in the image's own coordinates (a layer last): none of
 * region is 0 and the box lies inside the image, which also makes unused
 * coordinates have origin 0 and region 1. */
static cl_int check_box(const cl_mem img, const size_t *origin, const size_t *region) {
  if (!origin || !region) return CL_INVALID_VALUE;
  const struct dev_image *v = &img->image->dev;
  for (int i = 0; i < 3; i++)
    if (region[i] == 0 || origin[i] > v->dims[i] || region[i] > v->dims[i] - origin[i])
      return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* The image side of a rect command: byte origin and pitches. */
static void image_side(const cl_mem img, const size_t *origin, uint64_t *o, uint64_t *row,
                       uint64_t *slice) {
  const struct dev_image *v = &img->image->dev;
  o[0] = origin[0] * v->elem_size;
  o[1] = origin[1];
  o[2] = origin[2];
  *row = v->pitch[0];
  *slice = v->pitch[1];
}

static void byte_region(const cl_mem img, const size_t *region, uint64_t *r) {
  r[0] = region[0] * img->image->elem_size;
  r[1] = region[1];
  r[2] = region[2];
}

/* Byte offset of origin in the image's storage. */
static size_t image_offset(const cl_mem img, const size_t *origin) {
  uint64_t o[3], row, slice;
  image_side(img, origin, o, &row, &slice);
  return o[0] + o[1] * row + o[2] * slice;
}

static bool has_slices(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
         t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

/* Whether the host bytes a read or write touches, with pitches p1 and p2
 * for coordinates 1 and 2, have an end that a size_t holds. */
static bool host_span_ok(const size_t *region, size_t row_bytes, uint64_t p1, uint64_t p2) {
  size_t a, b, end;
  return !__builtin_mul_overflow(p1, region[1] - 1, &a) &&
         !__builtin_mul_overflow(p2, region[2] - 1, &b) && !__builtin_add_overflow(a, b, &end) &&
         !__builtin_add_overflow(end, row_bytes, &end);
}

/* The host side's pitches of a read or write (0: packed), as the pitches of
 * the image's coordinates 1 and 2. */
static cl_int host_pitches(const cl_mem img, const size_t *region, size_t row, size_t slice,
                           uint64_t *p1, uint64_t *p2) {
  cl_mem_object_type t = img->type;
  size_t row_min = region[0] * img->image->elem_size, slice_min;
  if (row == 0)
    row = row_min;
  else if (row < row_min)
    return CL_INVALID_VALUE;
  if (!has_slices(t)) {
    if (slice != 0) return CL_INVALID_VALUE;
    *p1 = row;
    *p2 = 0; /* region[2] is 1 */
  } else {
    if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY)
      slice_min = row;
    else if (__builtin_mul_overflow(row, region[1], &slice_min))
      return CL_INVALID_VALUE;
    if (slice == 0)
      slice = slice_min;
    else if (slice < slice_min)
      return CL_INVALID_VALUE;
    /* A 1D array's layer is its coordinate 1. */
    *p1 = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row;
    *p2 = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : slice;
  }
  return host_span_ok(region, row_min, *p1, *p2) ? CL_SUCCESS : CL_INVALID_VALUE;
}

/* ---- read and write ---- */

static cl_int host_image_in(const char *call, cl_command_queue q, cl_mem img, bool read,
                            const size_t *origin, const size_t *region, size_t row, size_t slice,
                            void *ptr, cl_uint n, const cl_event *wl, cl_event *event,
                            cl_bool blocking) {
  cl_int err = check_qi_in(call, q, img);
  if (err != CL_SUCCESS) return err;
  if (!ptr) return CL_INVALID_VALUE;
  err = check_box(img, origin, region);
  if (err != CL_SUCCESS) return err;
  uint64_t hp1, hp2;
  err = host_pitches(img, region, row, slice, &hp1, &hp2);
  if (err != CL_SUCCESS) return err;
  cl_mem_flags forbid =
      CL_MEM_HOST_NO_ACCESS | (read ? CL_MEM_HOST_WRITE_ONLY : CL_MEM_HOST_READ_ONLY);
  if (img->flags & forbid) return CL_INVALID_OPERATION;
  struct dev_cmd *c = rt_cmd_new(read ? DEV_CMD_READ_RECT : DEV_CMD_WRITE_RECT);
  if (c) {
    struct dev_rect *r = &c->rect;
    c->host = ptr;
    byte_region(img, region, r->region);
    if (read) {
      c->src = img->addr;
      image_side(img, origin, r->src_origin, &r->src_row_pitch, &r->src_slice_pitch);
      r->dst_row_pitch = hp1;
      r->dst_slice_pitch = hp2;
    } else {
      c->dst = img->addr;
      image_side(img, origin, r->dst_origin, &r->dst_row_pitch, &r->dst_slice_pitch);
      r->src_row_pitch = hp1;
      r->src_slice_pitch = hp2;
    }
  }
  return rt_enqueue2_in(call, q, read ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE, c, img,
                        NULL, n, wl, event, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_read, const size_t *origin,
    const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return host_image_in(__func__, command_queue, image, true, origin, region, row_pitch, slice_pitch,
                       ptr, num_events_in_wait_list, event_wait_list, event, blocking_read);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_write, const size_t *origin,
    const size_t *region, size_t input_row_pitch, size_t input_slice_pitch, const void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return host_image_in(__func__, command_queue, image, false, origin, region, input_row_pitch,
                       input_slice_pitch, (void *)ptr, num_events_in_wait_list, event_wait_list,
                       event, blocking_write);
}

/* ---- copies ---- */

static bool boxes_overlap(const size_t *a, const size_t *b, const size_t *region) {
  for (int i = 0; i < 3; i++)
    if (!(a[i] < b[i] + region[i] && b[i] < a[i] + region[i])) return false;
  return true;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                                   cl_mem dst_image, const size_t *src_origin,
                                                   const size_t *dst_origin, const size_t *region,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list,
                                                   cl_event *event) {
  cl_int err = check_qi_in(__func__, command_queue, src_image);
  if (err == CL_SUCCESS) err = check_qi_in(__func__, command_queue, dst_image);
  if (err != CL_SUCCESS) return err;
  const cl_image_format *sf = &src_image->image->format, *df = &dst_image->image->format;
  if (sf->image_channel_order != df->image_channel_order ||
      sf->image_channel_data_type != df->image_channel_data_type)
    return CL_IMAGE_FORMAT_MISMATCH;
  err = check_box(src_image, src_origin, region);
  if (err == CL_SUCCESS) err = check_box(dst_image, dst_origin, region);
  if (err != CL_SUCCESS) return err;
  if (src_image == dst_image && boxes_overlap(src_origin, dst_origin, region))
    return CL_MEM_COPY_OVERLAP;
  struct dev_cmd *c = rt_cmd_new(DEV_CMD_COPY_RECT);
  if (c) {
    struct dev_rect *r = &c->rect;
    c->src = src_image->addr;
    c->dst = dst_image->addr;
    byte_region(src_image, region, r->region);
    image_side(src_image, src_origin, r->src_origin, &r->src_row_pitch, &r->src_slice_pitch);
    image_side(dst_image, dst_origin, r->dst_origin, &r->dst_row_pitch, &r->dst_slice_pitch);
  }
  return rt_enqueue2_in(__func__, command_queue, CL_COMMAND_COPY_IMAGE, c, src_image, dst_image,
                        num_events_in_wait_list, event_wait_list, event, CL_FALSE);
}

/* Shared by both directions between an image and a buffer, whose side is
 * packed rows of region[0] texels starting at offset. */
static cl_int image_buffer_in(const char *call, cl_command_queue q, cl_mem img, cl_mem buf,
                              bool to_buffer, const size_t *origin, const size_t *region,
                              size_t offset, cl_uint n, const cl_event *wl, cl_event *event) {
  cl_int err = check_qi_in(call, q, img);
  if (err == CL_SUCCESS) err = check_qb_in(call, q, buf);
  if (err != CL_SUCCESS) return err;
  /* A 1D image buffer and its own buffer are one memory. */
  if (img->type == CL_MEM_OBJECT_IMAGE1D_BUFFER && img->parent == buf) return CL_INVALID_MEM_OBJECT;
  err = check_box(img, origin, region);
  if (err != CL_SUCCESS) return err;
  uint64_t r[3];
  byte_region(img, region, r);
  size_t bytes = r[0] * r[1] * r[2];
  if (offset > buf->size || bytes > buf->size - offset) return CL_INVALID_VALUE;
  struct dev_cmd *c = rt_cmd_new(DEV_CMD_COPY_RECT);
  if (c) {
    struct dev_rect *rc = &c->rect;
    memcpy(rc->region, r, sizeof r);
    uint64_t *bo = to_buffer ? rc->dst_origin : rc->src_origin;
    bo[0] = offset;
    if (to_buffer) {
      c->src = img->addr;
      c->dst = buf->addr;
      image_side(img, origin, rc->src_origin, &rc->src_row_pitch, &rc->src_slice_pitch);
      rc->dst_row_pitch = r[0];
      rc->dst_slice_pitch = r[0] * r[1];
    } else {
      c->src = buf->addr;
      c->dst = img->addr;
      image_side(img, origin, rc->dst_origin, &rc->dst_row_pitch, &rc->dst_slice_pitch);
      rc->src_row_pitch = r[0];
      rc->src_slice_pitch = r[0] * r[1];
    }
  }
  return rt_enqueue2_in(
      call, q, to_buffer ? CL_COMMAND_COPY_IMAGE_TO_BUFFER : CL_COMMAND_COPY_BUFFER_TO_IMAGE, c,
      img, buf, n, wl, event, CL_FALSE);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer, const size_t *src_origin,
    const size_t *region, size_t dst_offset, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return image_buffer_in(__func__, command_queue, src_image, dst_buffer, true, src_origin, region,
                         dst_offset, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image, size_t src_offset,
    const size_t *dst_origin, const size_t *region, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return image_buffer_in(__func__, command_queue, dst_image, src_buffer, false, dst_origin, region,
                         src_offset, num_events_in_wait_list, event_wait_list, event);
}

/* ---- fill ---- */

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                                   const void *fill_color, const size_t *origin,
                                                   const size_t *region,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list,
                                                   cl_event *event) {
  cl_int err = check_qi_in(__func__, command_queue, image);
  if (err != CL_SUCCESS) return err;
  if (!fill_color) return CL_INVALID_VALUE;
  err = check_box(image, origin, region);
  if (err != CL_SUCCESS) return err;
  const struct rt_image *im = image->image;
  /* float4 for normalized and float types, int4 / uint4 for integer ones;
   * a depth image takes one float. */
  union dev_texel color;
  memset(&color, 0, sizeof color);
  if (im->format.image_channel_order == CL_DEPTH)
    memcpy(&color.f[0], fill_color, sizeof(float));
  else
    memcpy(&color, fill_color, sizeof color);
  struct dev_cmd *c = rt_cmd_new(DEV_CMD_FILL_RECT);
  if (c) {
    struct dev_rect *r = &c->rect;
    dev_texel_encode(im->format.image_channel_order, im->format.image_channel_data_type, &color,
                     c->pattern);
    c->pattern_size = (uint32_t)im->elem_size;
    c->dst = image->addr;
    byte_region(image, region, r->region);
    image_side(image, origin, r->dst_origin, &r->dst_row_pitch, &r->dst_slice_pitch);
  }
  return rt_enqueue2_in(__func__, command_queue, CL_COMMAND_FILL_IMAGE, c, image, NULL,
                        num_events_in_wait_list, event_wait_list, event, CL_FALSE);
}

/* ---- map ---- */

static cl_int map_image_in(const char *call, cl_command_queue q, cl_mem img, cl_bool blocking,
                           cl_map_flags flags, const size_t *origin, const size_t *region,
                           size_t *row_pitch, size_t *slice_pitch, cl_uint n, const cl_event *wl,
                           cl_event *event, void **out) {
  cl_int err = check_qi_in(call, q, img);
  if (err != CL_SUCCESS) return err;
  err = check_box(img, origin, region);
  if (err != CL_SUCCESS) return err;
  if (!row_pitch || (has_slices(img->type) && !slice_pitch)) return CL_INVALID_VALUE;
  err = rt_mem_check_map(img, flags);
  if (err != CL_SUCCESS) return err;
  size_t last[3] = {origin[0] + region[0] - 1, origin[1] + region[1] - 1,
                    origin[2] + region[2] - 1};
  size_t off = image_offset(img, origin);
  size_t end = image_offset(img, last) + img->image->elem_size;
  void *ptr = (char *)img->store + off;
  err = rt_mem_map_in(call, q, img, CL_COMMAND_MAP_IMAGE, ptr, off, end - off, flags, n, wl, event,
                      blocking);
  if (err != CL_SUCCESS) return err;
  const cl_image_desc *d = &img->image->desc;
  *row_pitch = d->image_row_pitch;
  if (slice_pitch) *slice_pitch = has_slices(img->type) ? d->image_slice_pitch : 0;
  *out = ptr;
  return CL_SUCCESS;
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                                                 cl_bool blocking_map, cl_map_flags map_flags,
                                                 const size_t *origin, const size_t *region,
                                                 size_t *image_row_pitch, size_t *image_slice_pitch,
                                                 cl_uint num_events_in_wait_list,
                                                 const cl_event *event_wait_list, cl_event *event,
                                                 cl_int *errcode_ret) {
  void *ptr = NULL;
  cl_int err = map_image_in(__func__, command_queue, image, blocking_map, map_flags, origin, region,
                            image_row_pitch, image_slice_pitch, num_events_in_wait_list,
                            event_wait_list, event, &ptr);
  rt_set_err(errcode_ret, err);
  return ptr;
}
