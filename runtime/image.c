/*
 * image.c - images and samplers. The device does not support images
 * (CL_DEVICE_IMAGE_SUPPORT is false), so each entry point validates its
 * handles and returns the error the specification names for that case. No
 * image or sampler object can exist.
 */
#include "runtime/rt.h"

#include <stddef.h>

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format *image_format,
                                                size_t image_width, size_t image_height,
                                                size_t image_row_pitch, void *host_ptr,
                                                cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format *image_format,
                                                size_t image_width, size_t image_height,
                                                size_t image_depth, size_t image_row_pitch,
                                                size_t image_slice_pitch, void *host_ptr,
                                                cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                           cl_mem_object_type image_type,
                                                           cl_uint num_entries,
                                                           cl_image_format *image_formats,
                                                           cl_uint *num_image_formats) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) return CL_INVALID_CONTEXT;
  const cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
                             CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
                             CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
                             CL_MEM_HOST_NO_ACCESS | CL_MEM_KERNEL_READ_AND_WRITE;
  if (flags & ~known) return CL_INVALID_VALUE;
  switch (image_type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D: break;
  default: return CL_INVALID_VALUE;
  }
  if (num_entries == 0 && image_formats) return CL_INVALID_VALUE;
  /* The device supports no image format. */
  if (num_image_formats) *num_image_formats = 0;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name,
                                               size_t param_value_size, void *param_value,
                                               size_t *param_value_size_ret) {
  return CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode,
                                                    cl_filter_mode filter_mode,
                                                    cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_read, const size_t *origin,
    const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_write, const size_t *origin,
    const size_t *region, size_t input_row_pitch, size_t input_slice_pitch, const void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                                   cl_mem dst_image, const size_t *src_origin,
                                                   const size_t *dst_origin, const size_t *region,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list,
                                                   cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer, const size_t *src_origin,
    const size_t *region, size_t dst_offset, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image, size_t src_offset,
    const size_t *dst_origin, const size_t *region, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                                                 cl_bool blocking_map, cl_map_flags map_flags,
                                                 const size_t *origin, const size_t *region,
                                                 size_t *image_row_pitch, size_t *image_slice_pitch,
                                                 cl_uint num_events_in_wait_list,
                                                 const cl_event *event_wait_list, cl_event *event,
                                                 cl_int *errcode_ret) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    rt_set_err(errcode_ret, CL_INVALID_COMMAND_QUEUE);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                              const cl_image_format *image_format,
                                              const cl_image_desc *image_desc, void *host_ptr,
                                              cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                                   const void *fill_color, const size_t *origin,
                                                   const size_t *region,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list,
                                                   cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *sampler_properties, cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                                            const cl_mem_properties *properties,
                                                            cl_mem_flags flags,
                                                            const cl_image_format *image_format,
                                                            const cl_image_desc *image_desc,
                                                            void *host_ptr, cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}
