/*
 * kernel.c - OpenCL kernel objects: creation from a built program, argument
 * setting with every CL_INVALID_ARG_* check, queries, and the NDRange
 * launch (validated here, packed into a struct dev_launch and handed to the
 * queue through rt_enqueue()).
 *
 * Nothing here runs kernel code or knows the device's internals; argument
 * packing follows struct lsi_arg (device/lsi.h).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/program.h"

static cl_kernel kernel_new(cl_program p, const struct lsi_kernel *k) {
  cl_kernel kn = calloc(1, sizeof(*kn));
  if (!kn) return NULL;
  kn->argbuf = calloc(k->argbuf_size ? k->argbuf_size : 1, 1);
  kn->arg_set = calloc(k->nargs + 1, sizeof(bool));
  kn->arg_mem = calloc(k->nargs + 1, sizeof(cl_mem));
  if (!kn->argbuf || !kn->arg_set || !kn->arg_mem) {
    free(kn->argbuf);
    free(kn->arg_set);
    free(kn->arg_mem);
    free(kn);
    return NULL;
  }
  rt_object_init(&kn->obj, RT_TAG_KERNEL);
  pthread_mutex_init(&kn->lock, NULL);
  kn->program = p;
  kn->k = k;
  rt_retain(&p->obj);
  kn->attached = true;
  atomic_fetch_add(&p->nkernels, 1);
  atomic_fetch_add(&p->live_kernels, 1);
  return kn;
}

/* The kernel no longer counts against a rebuild of its program. Under lock. */
static void detach(cl_kernel kn) {
  if (!kn->attached) return;
  kn->attached = false;
  atomic_fetch_sub(&kn->program->nkernels, 1);
}

static void kernel_destroy(cl_kernel kn) {
  rt_object_kill(&kn->obj);
  cl_program p = kn->program;
  pthread_mutex_lock(&kn->lock);
  detach(kn);
  pthread_mutex_unlock(&kn->lock);
  atomic_fetch_sub(&p->live_kernels, 1);
  pthread_mutex_destroy(&kn->lock);
  free(kn->argbuf);
  free(kn->arg_set);
  free(kn->arg_mem);
  rt_object_free(&kn->obj, sizeof *kn);
  rt_program_unref(p);
}

static bool has_executable(cl_program p) {
  return p->lsi && (p->status == CL_BUILD_SUCCESS || p->from_binary) && !p->building;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name,
                                                  cl_int *errcode_ret) {
  if (!rt_valid(program, RT_TAG_PROGRAM)) {
    rt_set_err(errcode_ret, CL_INVALID_PROGRAM);
    return NULL;
  }
  pthread_mutex_lock(&program->lock);
  cl_int err = CL_SUCCESS;
  cl_kernel kn = NULL;
  const struct lsi_kernel *k = NULL;
  if (!has_executable(program))
    err = CL_INVALID_PROGRAM_EXECUTABLE;
  else if (!kernel_name)
    err = CL_INVALID_VALUE;
  else if (!(k = rt_program_kernel(program, kernel_name)))
    err = CL_INVALID_KERNEL_NAME;
  else if (!(kn = kernel_new(program, k)))
    err = CL_OUT_OF_HOST_MEMORY;
  pthread_mutex_unlock(&program->lock);
  rt_set_err(errcode_ret, err);
  return kn;
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                                         cl_kernel *kernels,
                                                         cl_uint *num_kernels_ret) {
  if (!rt_valid(program, RT_TAG_PROGRAM)) return CL_INVALID_PROGRAM;
  pthread_mutex_lock(&program->lock);
  cl_int err = CL_SUCCESS;
  if (!has_executable(program)) {
    err = CL_INVALID_PROGRAM_EXECUTABLE;
  } else if (kernels && num_kernels < program->lsi->nkernels) {
    err = CL_INVALID_VALUE;
  } else {
    uint32_t n = program->lsi->nkernels;
    if (kernels) {
      for (uint32_t i = 0; i < n; i++) {
        kernels[i] = kernel_new(program, &program->lsi->kernels[i]);
        if (!kernels[i]) {
          for (uint32_t j = 0; j < i; j++) {
            atomic_fetch_sub(&program->nkernels, 1);
            atomic_fetch_sub(&program->live_kernels, 1);
            rt_release(&program->obj);
            free(kernels[j]->argbuf);
            free(kernels[j]->arg_set);
            free(kernels[j]->arg_mem);
            free(kernels[j]);
          }
          err = CL_OUT_OF_HOST_MEMORY;
          break;
        }
      }
    }
    if (err == CL_SUCCESS && num_kernels_ret) *num_kernels_ret = n;
  }
  pthread_mutex_unlock(&program->lock);
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  if (!rt_valid(kernel, RT_TAG_KERNEL)) return CL_INVALID_KERNEL;
  rt_retain(&kernel->obj);
  return CL_SUCCESS;
}

/* Drops a reference; a launch's own (launch) or the application's. Once
 * only launches hold the kernel, it is detached from its program. */
static void kernel_unref(cl_kernel kernel, bool launch) {
  pthread_mutex_lock(&kernel->lock);
  if (launch) kernel->launches--;
  unsigned left = rt_release(&kernel->obj);
  if (left && left == kernel->launches) detach(kernel);
  pthread_mutex_unlock(&kernel->lock);
  if (left == 0) kernel_destroy(kernel);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  if (!rt_valid(kernel, RT_TAG_KERNEL)) return CL_INVALID_KERNEL;
  kernel_unref(kernel, false);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  if (!rt_valid(source_kernel, RT_TAG_KERNEL)) {
    rt_set_err(errcode_ret, CL_INVALID_KERNEL);
    return NULL;
  }
  cl_kernel kn = kernel_new(source_kernel->program, source_kernel->k);
  if (!kn) {
    rt_set_err(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  pthread_mutex_lock(&source_kernel->lock);
  const struct lsi_kernel *k = source_kernel->k;
  memcpy(kn->argbuf, source_kernel->argbuf, k->argbuf_size);
  memcpy(kn->arg_set, source_kernel->arg_set, sizeof(bool) * k->nargs);
  memcpy(kn->arg_mem, source_kernel->arg_mem, sizeof(cl_mem) * k->nargs);
  kn->local_args = source_kernel->local_args;
  pthread_mutex_unlock(&source_kernel->lock);
  rt_set_err(errcode_ret, CL_SUCCESS);
  return kn;
}

/* ---- arguments ---- */

/* Bytes the __local arguments set so far take, with the device's layout
 * (unset ones hold size 0). */
static uint64_t local_arg_bytes(cl_kernel kn) {
  return lsi_local_layout(kn->k, kn->argbuf, NULL) - kn->k->local_size;
}

/* The image type an image argument's type name declares (0: unknown). */
static cl_mem_object_type image_arg_type(const char *type_name) {
  static const struct {
    const char *name;
    cl_mem_object_type type;
  } types[] = {
      /* longest names first: each is looked up as a prefix */
      {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER},
      {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY},
      {"image2d_array_depth_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
      {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
      {"image2d_depth_t", CL_MEM_OBJECT_IMAGE2D},
      {"image1d_t", CL_MEM_OBJECT_IMAGE1D},
      {"image2d_t", CL_MEM_OBJECT_IMAGE2D},
      {"image3d_t", CL_MEM_OBJECT_IMAGE3D},
  };
  const char *t = type_name ? strstr(type_name, "image") : NULL;
  for (size_t i = 0; t && i < sizeof types / sizeof types[0]; i++)
    if (!strncmp(t, types[i].name, strlen(types[i].name))) return types[i].type;
  return 0;
}

/* clSetKernelArg's rules for an image argument: an image of ctx of the
 * declared type whose access flags allow the declared access. */
static cl_int image_arg_check(const struct lsi_arg *a, cl_mem m, cl_context ctx) {
  if (!m || !rt_valid(m, RT_TAG_MEM) || !m->image || m->context != ctx)
    return CL_INVALID_MEM_OBJECT;
  cl_mem_object_type want = image_arg_type(a->type_name);
  if (want && m->type != want) return CL_INVALID_MEM_OBJECT;
  if (a->access_qualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY && (m->flags & CL_MEM_WRITE_ONLY))
    return CL_INVALID_ARG_VALUE;
  if (a->access_qualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY && (m->flags & CL_MEM_READ_ONLY))
    return CL_INVALID_ARG_VALUE;
  return CL_SUCCESS;
}

/* clSetKernelArg for a pipe argument: a pipe of the kernel's context (a
 * buffer or image there is CL_INVALID_ARG_VALUE). Called under kernel->lock. */
static cl_int pipe_arg(cl_kernel kernel, cl_uint i, size_t arg_size, const void *arg_value) {
  if (arg_size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
  cl_mem m = arg_value ? *(const cl_mem *)arg_value : NULL;
  if (!m || !rt_valid(m, RT_TAG_MEM) || m->context != kernel->program->context)
    return CL_INVALID_MEM_OBJECT;
  if (m->type != CL_MEM_OBJECT_PIPE) return CL_INVALID_ARG_VALUE;
  memcpy(kernel->argbuf + kernel->k->args[i].buf_offset, &m->addr, 8);
  kernel->arg_mem[i] = m;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                               const void *arg_value) {
  if (!rt_valid(kernel, RT_TAG_KERNEL)) return CL_INVALID_KERNEL;
  const struct lsi_kernel *k = kernel->k;
  if (arg_index >= k->nargs) return CL_INVALID_ARG_INDEX;
  const struct lsi_arg *a = &k->args[arg_index];
  uint8_t *slot = kernel->argbuf + a->buf_offset;
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&kernel->lock);
  switch (a->kind) {
  case LSI_ARG_GLOBAL:
  case LSI_ARG_CONSTANT: {
    if (arg_size != sizeof(cl_mem)) {
      err = CL_INVALID_ARG_SIZE;
      break;
    }
    cl_mem m = arg_value ? *(const cl_mem *)arg_value : NULL;
    uint64_t addr = 0;
    if (m) {
      if (!rt_valid(m, RT_TAG_MEM) || m->type != CL_MEM_OBJECT_BUFFER) {
        /* a pipe where a buffer is expected is a memory object of the
         * wrong kind for this argument */
        err = rt_valid(m, RT_TAG_MEM) && m->type == CL_MEM_OBJECT_PIPE ? CL_INVALID_ARG_VALUE
                                                                       : CL_INVALID_MEM_OBJECT;
        break;
      }
      if (m->context != kernel->program->context) {
        err = CL_INVALID_MEM_OBJECT;
        break;
      }
      addr = rt_mem_addr(m);
    }
    memcpy(slot, &addr, 8);
    kernel->arg_mem[arg_index] = m;
    break;
  }
  case LSI_ARG_LOCAL: {
    if (arg_value) {
      err = CL_INVALID_ARG_VALUE;
      break;
    }
    if (arg_size == 0) {
      err = CL_INVALID_ARG_SIZE;
      break;
    }
    uint64_t v = arg_size;
    memcpy(slot, &v, 8);
    break;
  }
  case LSI_ARG_VALUE:
  case LSI_ARG_BYVAL:
    if (!arg_value) {
      err = CL_INVALID_ARG_VALUE;
      break;
    }
    if (arg_size != a->size) {
      err = CL_INVALID_ARG_SIZE;
      break;
    }
    memcpy(slot, arg_value, arg_size);
    break;
  case LSI_ARG_SAMPLER: {
    uint32_t bits = 0;
    if (arg_size != sizeof(cl_sampler)) {
      err = CL_INVALID_ARG_SIZE;
      break;
    }
    if (!arg_value ||
        !rt_sampler_bits(*(const cl_sampler *)arg_value, kernel->program->context, &bits)) {
      err = CL_INVALID_SAMPLER;
      break;
    }
    uint64_t v = bits;
    memcpy(slot, &v, 8);
    break;
  }
  case LSI_ARG_IMAGE: {
    if (arg_size != sizeof(cl_mem)) {
      err = CL_INVALID_ARG_SIZE;
      break;
    }
    if (!arg_value) {
      err = CL_INVALID_ARG_VALUE;
      break;
    }
    cl_mem m = *(const cl_mem *)arg_value;
    err = image_arg_check(a, m, kernel->program->context);
    if (err != CL_SUCCESS) break;
    memcpy(slot, &m->image->dev_addr, 8);
    kernel->arg_mem[arg_index] = m;
    break;
  }
  case LSI_ARG_QUEUE: {
    cl_command_queue dq =
        arg_value && arg_size == sizeof dq ? *(const cl_command_queue *)arg_value : NULL;
    if (arg_size != sizeof dq) {
      err = CL_INVALID_ARG_SIZE;
      break;
    }
    if (!dq || !rt_valid(dq, RT_TAG_QUEUE) || !dq->dq || dq->context != kernel->program->context) {
      err = CL_INVALID_DEVICE_QUEUE;
      break;
    }
    memcpy(slot, &dq->dq, 8);
    break;
  }
  case LSI_ARG_PIPE: err = pipe_arg(kernel, arg_index, arg_size, arg_value); break;
  default: err = CL_INVALID_ARG_VALUE;
  }
  if (err == CL_SUCCESS) {
    kernel->arg_set[arg_index] = true;
    kernel->local_args = local_arg_bytes(kernel);
  }
  pthread_mutex_unlock(&kernel->lock);
  return err;
}

/* Whether the context's device has SVM at all. */
static bool svm_supported(void) {
  cl_device_svm_capabilities caps = 0;
  clGetDeviceInfo(rt_device(), CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
  return caps != 0;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                                         const void *arg_value) {
  if (!rt_valid(kernel, RT_TAG_KERNEL)) return CL_INVALID_KERNEL;
  if (!svm_supported()) return CL_INVALID_OPERATION;
  const struct lsi_kernel *k = kernel->k;
  if (arg_index >= k->nargs) return CL_INVALID_ARG_INDEX;
  const struct lsi_arg *a = &k->args[arg_index];
  if (a->kind != LSI_ARG_GLOBAL && a->kind != LSI_ARG_CONSTANT) return CL_INVALID_ARG_VALUE;
  /* Any pointer into a live allocation (or one past its end), or NULL:
   * the device has no fine-grained system SVM. The pointer is the
   * device address itself. */
  if (arg_value && !rt_svm_lookup(arg_value, NULL, NULL)) return CL_INVALID_ARG_VALUE;
  uint64_t addr = (uint64_t)(uintptr_t)arg_value;
  pthread_mutex_lock(&kernel->lock);
  memcpy(kernel->argbuf + a->buf_offset, &addr, 8);
  kernel->arg_mem[arg_index] = NULL;
  kernel->arg_set[arg_index] = true;
  kernel->local_args = local_arg_bytes(kernel);
  pthread_mutex_unlock(&kernel->lock);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel,
                                                    cl_kernel_exec_info param_name,
                                                    size_t param_value_size,
                                                    const void *param_value) {
  if (!rt_valid(kernel, RT_TAG_KERNEL)) return CL_INVALID_KERNEL;
  /* Both names are about SVM: without it that comes before any check of
   * the value, so a NULL list of SVM pointers is CL_INVALID_OPERATION too. */
  if (param_name == CL_KERNEL_EXEC_INFO_SVM_PTRS && !svm_supported()) return CL_INVALID_OPERATION;
  /* an empty list (0, NULL) unsets the previous one */
  if (param_name == CL_KERNEL_EXEC_INFO_SVM_PTRS && param_value_size == 0 && !param_value)
    return CL_SUCCESS;
  if (!param_value) return CL_INVALID_VALUE;
  switch (param_name) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS: {
    /* Every live SVM allocation is reachable by every kernel (the device
     * checks each access against all of them), so the list only has to
     * name SVM memory. */
    if (param_value_size == 0 || param_value_size % sizeof(void *) != 0) return CL_INVALID_VALUE;
    void *const *ptrs = param_value;
    for (size_t i = 0; i < param_value_size / sizeof(void *); i++)
      if (!rt_svm_lookup(ptrs[i], NULL, NULL)) return CL_INVALID_VALUE;
    return CL_SUCCESS;
  }
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
    if (param_value_size != sizeof(cl_bool)) return CL_INVALID_VALUE;
    return *(const cl_bool *)param_value ? CL_INVALID_OPERATION : CL_SUCCESS;
  default: return CL_INVALID_VALUE;
  }
}

/* ---- queries ---- */

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                                size_t param_value_size, void *param_value,
                                                size_t *param_value_size_ret) {
  if (!rt_valid(kernel, RT_TAG_KERNEL)) return CL_INVALID_KERNEL;
  size_t sz = param_value_size;
  void *pv = param_value;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_KERNEL_FUNCTION_NAME: return rt_info_str(sz, pv, ret, kernel->k->name);
  case CL_KERNEL_NUM_ARGS: {
    cl_uint n = kernel->k->nargs;
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_KERNEL_REFERENCE_COUNT: {
    cl_uint n = atomic_load(&kernel->obj.refcount);
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_KERNEL_CONTEXT:
    return rt_info(sz, pv, ret, &kernel->program->context, sizeof(cl_context));
  case CL_KERNEL_PROGRAM: return rt_info(sz, pv, ret, &kernel->program, sizeof(cl_program));
  case CL_KERNEL_ATTRIBUTES:
    return rt_info_str(sz, pv, ret, kernel->k->attributes ? kernel->k->attributes : "");
  default: return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx,
                                                   cl_kernel_arg_info param_name,
                                                   size_t param_value_size, void *param_value,
                                                   size_t *param_value_size_ret) {
  if (!rt_valid(kernel, RT_TAG_KERNEL)) return CL_INVALID_KERNEL;
  if (arg_indx >= kernel->k->nargs) return CL_INVALID_ARG_INDEX;
  if (param_name < CL_KERNEL_ARG_ADDRESS_QUALIFIER || param_name > CL_KERNEL_ARG_NAME)
    return CL_INVALID_VALUE;
  /* Only a program built from source with -cl-kernel-arg-info has it. */
  if (!kernel->program->arg_info) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  const struct lsi_arg *a = &kernel->k->args[arg_indx];
  size_t sz = param_value_size;
  void *pv = param_value;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
    cl_kernel_arg_address_qualifier q = a->address_qualifier;
    return rt_info(sz, pv, ret, &q, sizeof(q));
  }
  case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
    cl_kernel_arg_access_qualifier q = a->access_qualifier;
    return rt_info(sz, pv, ret, &q, sizeof(q));
  }
  case CL_KERNEL_ARG_TYPE_QUALIFIER: {
    cl_kernel_arg_type_qualifier q = a->type_qualifier;
    return rt_info(sz, pv, ret, &q, sizeof(q));
  }
  case CL_KERNEL_ARG_TYPE_NAME:
    if (!a->type_name || !*a->type_name) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
    return rt_info_str(sz, pv, ret, a->type_name);
  case CL_KERNEL_ARG_NAME:
    if (!a->name || !*a->name) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
    return rt_info_str(sz, pv, ret, a->name);
  default: return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                                         cl_kernel_work_group_info param_name,
                                                         size_t param_value_size, void *param_value,
                                                         size_t *param_value_size_ret) {
  if (!rt_valid(kernel, RT_TAG_KERNEL)) return CL_INVALID_KERNEL;
  if (device && device != rt_device()) return CL_INVALID_DEVICE;
  const struct dev_config *c = rt_config();
  const struct lsi_kernel *k = kernel->k;
  size_t sz = param_value_size;
  void *pv = param_value;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_KERNEL_WORK_GROUP_SIZE: {
    size_t n = c->max_wg_size;
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t s[3] = {k->reqd_wg_size[0], k->reqd_wg_size[1], k->reqd_wg_size[2]};
    return rt_info(sz, pv, ret, s, sizeof(s));
  }
  case CL_KERNEL_LOCAL_MEM_SIZE: {
    cl_ulong n = k->local_size + kernel->local_args;
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: {
    size_t n = c->warp_width;
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_KERNEL_PRIVATE_MEM_SIZE: {
    cl_ulong n = k->private_size;
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    return CL_INVALID_VALUE; /* only for custom devices and built-in kernels */
  default: return CL_INVALID_VALUE;
  }
}

static cl_int subgroup_info_in(const char *call, cl_kernel kernel, cl_device_id device,
                               cl_kernel_sub_group_info param_name, size_t input_value_size,
                               const void *input_value, size_t param_value_size, void *param_value,
                               size_t *param_value_size_ret) {
  if (!rt_valid_in(call, kernel, RT_TAG_KERNEL)) return CL_INVALID_KERNEL;
  if (device && device != rt_device()) return CL_INVALID_DEVICE;
  cl_uint nsg = 0;
  clGetDeviceInfo(rt_device(), CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(nsg), &nsg, NULL);
  if (!nsg) return CL_INVALID_OPERATION; /* the device does not claim sub-groups */
  const struct dev_config *c = rt_config();
  size_t sz = param_value_size;
  void *pv = param_value;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    if (!input_value || input_value_size == 0 || input_value_size % sizeof(size_t) ||
        input_value_size > 3 * sizeof(size_t))
      return CL_INVALID_VALUE;
    size_t total = 1;
    for (size_t i = 0; i < input_value_size / sizeof(size_t); i++)
      total *= ((const size_t *)input_value)[i];
    size_t n = param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE
                   ? (total < c->warp_width ? total : c->warp_width)
                   : (total + c->warp_width - 1) / c->warp_width;
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    if (!input_value || input_value_size != sizeof(size_t)) return CL_INVALID_VALUE;
    size_t want = *(const size_t *)input_value, dims = sz / sizeof(size_t);
    if (pv && (dims == 0 || dims > 3)) return CL_INVALID_VALUE;
    /* want warps in dimension 0; all zeros when no work-group holds them */
    size_t s[3] = {want * c->warp_width, 1, 1};
    if (want == 0 || want > c->max_wg_size / c->warp_width) s[0] = s[1] = s[2] = 0;
    if (dims == 0) dims = 1;
    return rt_info(sz, pv, ret, s, dims * sizeof(size_t));
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS: {
    size_t n = (c->max_wg_size + c->warp_width - 1) / c->warp_width;
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: {
    size_t n = 0;
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  default: return CL_INVALID_VALUE;
  }
}
#define subgroup_info(...) subgroup_info_in(__func__, __VA_ARGS__)

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                                        cl_kernel_sub_group_info param_name,
                                                        size_t input_value_size,
                                                        const void *input_value,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret) {
  return subgroup_info(kernel, device, param_name, input_value_size, input_value, param_value_size,
                       param_value, param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(
    cl_kernel in_kernel, cl_device_id in_device, cl_kernel_sub_group_info param_name,
    size_t input_value_size, const void *input_value, size_t param_value_size, void *param_value,
    size_t *param_value_size_ret) {
  return subgroup_info(in_kernel, in_device, param_name, input_value_size, input_value,
                       param_value_size, param_value, param_value_size_ret);
}

/* ---- launches ---- */

/* What a launch keeps alive until it completes. */
struct launch_ref {
  cl_kernel kernel;    /* retained (keeps the program and its code) */
  cl_command_queue dq; /* the default on-device queue, retained: children may use it */
  cl_uint nmems;
  cl_mem mems[];
};

/* LOCKSTEP_FAULTS=report: an invalid access the kernel went on past gets the
 * report a device exception gets, on stderr and to pfn_notify (a device
 * worker thread calls this; the launch's event keeps the context alive). */
static void launch_report(void *arg, const struct dev_exception *e) {
  char msg[1400];
  dev_exception_format(e, msg, sizeof msg);
  fprintf(stderr, "lockstep: %s\n", msg);
  rt_context_notify(arg, msg);
}

static void CL_CALLBACK launch_done(cl_event ev, cl_int status, void *user) {
  (void)ev;
  (void)status;
  struct launch_ref *r = user;
  for (cl_uint i = 0; i < r->nmems; i++)
    clReleaseMemObject(r->mems[i]);
  kernel_unref(r->kernel, true);
  if (r->dq) clReleaseCommandQueue(r->dq);
  free(r);
}

/* Largest divisor of n that is <= limit (prefers multiples of pref). */
static size_t pick_local(size_t n, size_t limit, size_t pref) {
  if (limit == 0) return 1;
  size_t best = 1;
  for (size_t d = limit < n ? limit : n; d >= 1; d--) {
    if (n % d) continue;
    if (d % pref == 0 || d == n) return d;
    if (best == 1) best = d;
    if (d < pref) break;
  }
  return best;
}

static cl_int ndrange_in(const char *call, cl_command_queue q, cl_kernel kernel, cl_uint work_dim,
                         const size_t *offset, const size_t *global, const size_t *local,
                         cl_uint nev, const cl_event *evs, cl_event *event, cl_command_type type) {
  if (!rt_valid_in(call, q, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (!rt_valid_in(call, kernel, RT_TAG_KERNEL)) return CL_INVALID_KERNEL;
  cl_program p = kernel->program;
  if (p->context != q->context) return CL_INVALID_CONTEXT;
  if (work_dim < 1 || work_dim > 3) return CL_INVALID_WORK_DIMENSION;
  /* A NULL global size, like a zero in any dimension, is an empty range: the
   * command completes once its wait list has (OpenCL 3.0, clEnqueueNDRangeKernel). */
  static const size_t none[3] = {0, 0, 0};
  if (!global) global = none;
  const struct lsi_kernel *k = kernel->k;
  const struct dev_config *c = rt_config();
  size_t max_items[3] = {c->max_wg_size, c->max_wg_size, c->max_wg_size < 64 ? c->max_wg_size : 64};
  struct dev_launch L;
  memset(&L, 0, sizeof(L));
  int empty = 0;
  for (cl_uint i = 0; i < 3; i++) {
    L.global[i] = 1;
    L.local[i] = 1;
  }
  for (cl_uint i = 0; i < work_dim; i++) {
    size_t o = offset ? offset[i] : 0;
    if (global[i] == 0) empty = 1;
    if (o > SIZE_MAX - global[i]) return CL_INVALID_GLOBAL_OFFSET;
    L.offset[i] = o;
    L.global[i] = global[i];
  }
  bool reqd = k->reqd_wg_size[0] != 0;
  if (local) {
    size_t total = 1;
    for (cl_uint i = 0; i < work_dim; i++) {
      if (local[i] == 0) return CL_INVALID_WORK_GROUP_SIZE;
      if (local[i] > max_items[i]) return CL_INVALID_WORK_ITEM_SIZE;
      total *= local[i];
      L.local[i] = local[i];
    }
    if (total > c->max_wg_size) return CL_INVALID_WORK_GROUP_SIZE;
    if (reqd)
      for (cl_uint i = 0; i < 3; i++)
        if (L.local[i] != k->reqd_wg_size[i]) return CL_INVALID_WORK_GROUP_SIZE;
    if (p->uniform_wg)
      for (cl_uint i = 0; i < work_dim; i++)
        if (!empty && global[i] % local[i]) return CL_INVALID_WORK_GROUP_SIZE;
  } else if (reqd) {
    for (cl_uint i = 0; i < 3; i++)
      L.local[i] = k->reqd_wg_size[i];
    if (p->uniform_wg)
      for (cl_uint i = 0; i < work_dim; i++)
        if (!empty && global[i] % L.local[i]) return CL_INVALID_WORK_GROUP_SIZE;
  } else {
    size_t budget = c->max_wg_size;
    for (cl_uint i = 0; i < work_dim; i++) {
      size_t lim = budget < max_items[i] ? budget : max_items[i];
      L.local[i] = empty ? 1 : pick_local(global[i], lim, i == 0 ? c->warp_width : 1);
      budget /= L.local[i];
    }
  }
  cl_int err = rt_check_wait_list_in(call, q->context, nev, evs);
  if (err != CL_SUCCESS) return err;
  pthread_mutex_lock(&kernel->lock);
  for (uint32_t i = 0; i < k->nargs; i++)
    if (!kernel->arg_set[i]) {
      pthread_mutex_unlock(&kernel->lock);
      return CL_INVALID_KERNEL_ARGS;
    }
  if (k->local_size + kernel->local_args > c->local_mem_size) {
    pthread_mutex_unlock(&kernel->lock);
    return CL_OUT_OF_RESOURCES;
  }
  struct dev_cmd *cmd = calloc(1, sizeof(*cmd) + k->argbuf_size + 8);
  struct launch_ref *ref = calloc(1, sizeof(*ref) + sizeof(cl_mem) * (k->nargs + 1));
  if (!cmd || !ref) {
    pthread_mutex_unlock(&kernel->lock);
    free(cmd);
    free(ref);
    return CL_OUT_OF_HOST_MEMORY;
  }
  uint8_t *argbuf = (uint8_t *)(cmd + 1);
  memcpy(argbuf, kernel->argbuf, k->argbuf_size);
  for (uint32_t i = 0; i < k->nargs; i++)
    if (kernel->arg_mem[i] && rt_valid_in(call, kernel->arg_mem[i], RT_TAG_MEM)) {
      clRetainMemObject(kernel->arg_mem[i]);
      ref->mems[ref->nmems++] = kernel->arg_mem[i];
    }
  kernel->launches++;
  rt_retain(&kernel->obj);
  pthread_mutex_unlock(&kernel->lock);
  ref->kernel = kernel;
  if (empty) {
    cmd->kind = DEV_CMD_NOP;
  } else {
    cmd->kind = DEV_CMD_LAUNCH;
    L.prog = p->lsi;
    L.kernel = k;
    L.data_base = rt_program_data(p);
    L.work_dim = work_dim;
    L.argbuf = argbuf;
    L.report = launch_report;
    L.report_arg = q->context;
    pthread_mutex_lock(&q->context->lock);
    if ((ref->dq = q->context->default_dq)) {
      rt_retain(&ref->dq->obj);
      L.default_queue = ref->dq->dq;
    }
    pthread_mutex_unlock(&q->context->lock);
    cmd->launch = L;
    const struct rt_hooks *h = rt_hooks_active();
    if (h && h->launch_fn) {
      /* a layer above runs it (under `lockstep debug`, the debugger); the
       * retained kernel keeps the program and its source alive (the build
       * set p->text) */
      cmd->launch_fn = h->launch_fn;
      cmd->launch_arg = &p->text;
    }
  }
  cl_event ev = NULL;
  err = rt_enqueue_in(call, q, type, cmd, nev, evs, &ev, CL_FALSE);
  if (err != CL_SUCCESS) {
    launch_done(NULL, err, ref);
    return err;
  }
  clSetEventCallback(ev, CL_COMPLETE, launch_done, ref);
  if (event)
    *event = ev;
  else
    clReleaseEvent(ev);
  return CL_SUCCESS;
}
#define ndrange(...) ndrange_in(__func__, __VA_ARGS__)

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size, const size_t *local_work_size,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return ndrange(command_queue, kernel, work_dim, global_work_offset, global_work_size,
                 local_work_size, num_events_in_wait_list, event_wait_list, event,
                 CL_COMMAND_NDRANGE_KERNEL);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  size_t one = 1;
  return ndrange(command_queue, kernel, 1, NULL, &one, &one, num_events_in_wait_list,
                 event_wait_list, event, CL_COMMAND_TASK);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(
    cl_command_queue command_queue, void(CL_CALLBACK *user_func)(void *), void *args,
    size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list, const void **args_mem_loc,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  if (!rt_valid(command_queue, RT_TAG_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  (void)user_func;
  (void)args;
  (void)cb_args;
  (void)num_mem_objects;
  (void)mem_list;
  (void)args_mem_loc;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  return CL_INVALID_OPERATION; /* the device cannot run native kernels */
}
