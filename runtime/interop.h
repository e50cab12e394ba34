/*
 * interop.h - the Windows-only sharing entry points (interop.c) whose
 * prototypes the OpenCL headers give only on Windows. The runtime defines
 * them so every dispatch slot can be filled; the ICD surface, above the
 * runtime, includes this to fill them.
 */
#ifndef LOCKSTEP_RUNTIME_INTEROP_H
#define LOCKSTEP_RUNTIME_INTEROP_H

#include "runtime/rt.h"

/* D3D10/D3D11/DX9 media sharing: declared here because their headers need
 * Windows. They report the feature as unsupported. */
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDsFromD3D10KHR(
    cl_platform_id platform, cl_uint d3d_device_source, void *d3d_object, cl_uint d3d_device_set,
    cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices);
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D10BufferKHR(cl_context context, cl_mem_flags flags,
                                                           void *resource, cl_int *errcode_ret);
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D10Texture2DKHR(cl_context context,
                                                              cl_mem_flags flags, void *resource,
                                                              cl_uint subresource,
                                                              cl_int *errcode_ret);
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D10Texture3DKHR(cl_context context,
                                                              cl_mem_flags flags, void *resource,
                                                              cl_uint subresource,
                                                              cl_int *errcode_ret);
CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireD3D10ObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseD3D10ObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDsFromD3D11KHR(
    cl_platform_id platform, cl_uint d3d_device_source, void *d3d_object, cl_uint d3d_device_set,
    cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices);
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D11BufferKHR(cl_context context, cl_mem_flags flags,
                                                           void *resource, cl_int *errcode_ret);
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D11Texture2DKHR(cl_context context,
                                                              cl_mem_flags flags, void *resource,
                                                              cl_uint subresource,
                                                              cl_int *errcode_ret);
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromD3D11Texture3DKHR(cl_context context,
                                                              cl_mem_flags flags, void *resource,
                                                              cl_uint subresource,
                                                              cl_int *errcode_ret);
CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireD3D11ObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseD3D11ObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromDX9MediaSurfaceKHR(cl_context context,
                                                               cl_mem_flags flags,
                                                               cl_uint adapter_type,
                                                               void *surface_info, cl_uint plane,
                                                               cl_int *errcode_ret);
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDsFromDX9MediaAdapterKHR(
    cl_platform_id platform, cl_uint num_media_adapters, cl_uint *media_adapter_type,
    void *media_adapters, cl_uint media_adapter_set, cl_uint num_entries, cl_device_id *devices,
    cl_uint *num_devices);
CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireDX9MediaSurfacesKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseDX9MediaSurfacesKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);

#endif
