/*
 * pipe.c - pipes. CL_DEVICE_PIPE_SUPPORT is false: clCreatePipe reports the
 * feature unsupported and no pipe object can exist.
 */
#include "runtime/rt.h"

#include <stddef.h>

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags,
                                             cl_uint pipe_packet_size, cl_uint pipe_max_packets,
                                             const cl_pipe_properties *properties,
                                             cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name,
                                              size_t param_value_size, void *param_value,
                                              size_t *param_value_size_ret) {
  return CL_INVALID_MEM_OBJECT;
}
