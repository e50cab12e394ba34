/*
 * interop.c - sharing with OpenGL, EGL, Direct3D and DX9 media surfaces. None
 * of these extensions is claimed and no context is created from a graphics
 * context, so each entry point validates its handles and returns the error
 * the specification gives for a context without that sharing.
 */
#include "runtime/interop.h"
#include "runtime/rt.h"

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLBuffer(cl_context context, cl_mem_flags flags,
                                                     cl_GLuint bufobj, cl_int *errcode_ret) {
  rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture2D(cl_context context, cl_mem_flags flags,
                                                        cl_GLenum target, cl_GLint miplevel,
                                                        cl_GLuint texture, cl_int *errcode_ret) {
  rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture3D(cl_context context, cl_mem_flags flags,
                                                        cl_GLenum target, cl_GLint miplevel,
                                                        cl_GLuint texture, cl_int *errcode_ret) {
  rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags,
                                                           cl_GLuint renderbuffer,
                                                           cl_int *errcode_ret) {
  rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type *gl_object_type,
                                                  cl_GLuint *gl_object_name) {
  return CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_int CL_API_CALL clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name,
                                                   size_t param_value_size, void *param_value,
                                                   size_t *param_value_size_ret) {
  return CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireGLObjects(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (num_objects == 0 && mem_objects == NULL)
    return CL_SUCCESS; /* the specification: nothing to do */
  if ((num_objects == 0) != (mem_objects == NULL)) return CL_INVALID_VALUE;
  /* The queue's context was not created from an OpenGL context. */
  return CL_INVALID_CONTEXT;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseGLObjects(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (num_objects == 0 && mem_objects == NULL)
    return CL_SUCCESS; /* the specification: nothing to do */
  if ((num_objects == 0) != (mem_objects == NULL)) return CL_INVALID_VALUE;
  /* The queue's context was not created from an OpenGL context. */
  return CL_INVALID_CONTEXT;
}

CL_API_ENTRY cl_int CL_API_CALL clGetGLContextInfoKHR(const cl_context_properties *properties,
                                                      cl_gl_context_info param_name,
                                                      size_t param_value_size, void *param_value,
                                                      size_t *param_value_size_ret) {
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDsFromD3D10KHR(
    cl_platform_id platform, cl_uint d3d_device_source, void *d3d_object, cl_uint d3d_device_set,
    cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices) {
  if (!rt_valid(platform, RT_TAG_PLATFORM)) {
    return CL_INVALID_PLATFORM;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D10BufferKHR(cl_context context, cl_mem_flags flags,
                                                           void *resource, cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D10Texture2DKHR(cl_context context,
                                                              cl_mem_flags flags, void *resource,
                                                              cl_uint subresource,
                                                              cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D10Texture3DKHR(cl_context context,
                                                              cl_mem_flags flags, void *resource,
                                                              cl_uint subresource,
                                                              cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireD3D10ObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseD3D10ObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_event CL_API_CALL clCreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync,
                                                             cl_int *errcode_ret) {
  rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture(cl_context context, cl_mem_flags flags,
                                                      cl_GLenum target, cl_GLint miplevel,
                                                      cl_GLuint texture, cl_int *errcode_ret) {
  rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDsFromD3D11KHR(
    cl_platform_id platform, cl_uint d3d_device_source, void *d3d_object, cl_uint d3d_device_set,
    cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices) {
  if (!rt_valid(platform, RT_TAG_PLATFORM)) {
    return CL_INVALID_PLATFORM;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D11BufferKHR(cl_context context, cl_mem_flags flags,
                                                           void *resource, cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D11Texture2DKHR(cl_context context,
                                                              cl_mem_flags flags, void *resource,
                                                              cl_uint subresource,
                                                              cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D11Texture3DKHR(cl_context context,
                                                              cl_mem_flags flags, void *resource,
                                                              cl_uint subresource,
                                                              cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromDX9MediaSurfaceKHR(cl_context context,
                                                               cl_mem_flags flags,
                                                               cl_uint adapter_type,
                                                               void *surface_info, cl_uint plane,
                                                               cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireD3D11ObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseD3D11ObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDsFromDX9MediaAdapterKHR(
    cl_platform_id platform, cl_uint num_media_adapters, cl_uint *media_adapter_type,
    void *media_adapters, cl_uint media_adapter_set, cl_uint num_entries, cl_device_id *devices,
    cl_uint *num_devices) {
  if (!rt_valid(platform, RT_TAG_PLATFORM)) {
    return CL_INVALID_PLATFORM;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireDX9MediaSurfacesKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseDX9MediaSurfacesKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromEGLImageKHR(
    cl_context context, CLeglDisplayKHR egldisplay, CLeglImageKHR eglimage, cl_mem_flags flags,
    const cl_egl_image_properties_khr *properties, cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireEGLObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseEGLObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_event CL_API_CALL clCreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR sync,
                                                              CLeglDisplayKHR display,
                                                              cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}
