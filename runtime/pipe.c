/*
 * pipe.c - pipes: clCreatePipe and clGetPipeInfo. A pipe is a memory object
 * of type CL_MEM_OBJECT_PIPE whose storage is the device layout of
 * device/pipe.h (header, reservation tables, packets), mapped read-only so
 * that only the pipe builtins change it; kernels get its device address.
 * The host never reads or writes a pipe's packets.
 */
#include "runtime/rt.h"

#include <stdlib.h>
#include <string.h>

#include "device/claims.h"
#include "device/pipe.h"

static cl_int pipe_create(cl_context ctx, cl_mem_flags flags, cl_uint packet_size,
                          cl_uint max_packets, const cl_pipe_properties *props, cl_mem *out) {
  cl_int err = CL_SUCCESS;
  cl_mem m = NULL;
  if (!rt_valid(ctx, RT_TAG_CONTEXT)) return CL_INVALID_CONTEXT;
  if (!dev_claimed("__opencl_c_pipes")) return CL_INVALID_OPERATION;
  /* Only these two flags are allowed; 0 means both. */
  if (flags & ~(cl_mem_flags)(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS)) return CL_INVALID_VALUE;
  if (props) return CL_INVALID_VALUE; /* no pipe property is defined */
  if (packet_size == 0 || packet_size > PIPE_MAX_PACKET_SIZE || max_packets == 0)
    return CL_INVALID_PIPE_SIZE;
  cl_ulong max_alloc = 0;
  if (clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc,
                      NULL) != CL_SUCCESS ||
      (cl_ulong)packet_size * max_packets > max_alloc)
    return CL_INVALID_PIPE_SIZE;
  err = rt_mem_alloc(ctx, &m);
  if (err != CL_SUCCESS) return err;
  m->type = CL_MEM_OBJECT_PIPE;
  m->flags = CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS;
  m->size = (size_t)packet_size * max_packets;
  size_t bytes = (size_t)pipe_bytes(packet_size, max_packets);
  if (posix_memalign(&m->alloc, 128, bytes) != 0) {
    m->alloc = NULL;
    err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    goto out;
  }
  m->store = m->alloc;
  pipe_init(m->store, packet_size, max_packets);
  m->addr = ctx->ops->map_global(ctx->dev, m->store, bytes, true);
  if (m->addr == 0) {
    err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    goto out;
  }
  rt_retain(&ctx->obj);
  rt_object_init(&m->obj, RT_TAG_MEM);
  *out = m;
  m = NULL;
out:
  rt_mem_free(m);
  return err;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags,
                                             cl_uint pipe_packet_size, cl_uint pipe_max_packets,
                                             const cl_pipe_properties *properties,
                                             cl_int *errcode_ret) {
  cl_mem m = NULL;
  cl_int err = pipe_create(context, flags, pipe_packet_size, pipe_max_packets, properties, &m);
  rt_set_err(errcode_ret, err);
  return err == CL_SUCCESS ? m : NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name,
                                              size_t param_value_size, void *param_value,
                                              size_t *param_value_size_ret) {
  if (!rt_valid(pipe, RT_TAG_MEM) || pipe->type != CL_MEM_OBJECT_PIPE) return CL_INVALID_MEM_OBJECT;
  const uint64_t *w = pipe->store;
  cl_uint v;
  switch (param_name) {
  case CL_PIPE_PACKET_SIZE: v = (cl_uint)w[PIPE_H_PSIZE]; break;
  case CL_PIPE_MAX_PACKETS: v = (cl_uint)w[PIPE_H_MAX]; break;
  case CL_PIPE_PROPERTIES: /* created with none: an empty answer */
    return rt_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
  default: return CL_INVALID_VALUE;
  }
  return rt_info(param_value_size, param_value, param_value_size_ret, &v, sizeof v);
}
