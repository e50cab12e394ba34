/*
 * program.c - OpenCL program objects: creation from source or binary, build,
 * compile and link (through compiler/), queries, and the program-scope data
 * segment each executable gets in device memory.
 *
 * Validation and error codes live here; the compiler knows nothing about CL
 * objects, and this file knows nothing about how code is generated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/program.h"

#define PROGRAM_FILE "program.cl"

static bool device_ok(cl_device_id d) {
  return d && d == rt_device();
}

/* num_devices/device_list checks shared by build, compile and link. */
static cl_int check_devices(cl_uint num_devices, const cl_device_id *list) {
  if ((num_devices == 0) != (list == NULL)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; i++)
    if (!device_ok(list[i])) return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

static cl_program program_new(cl_context ctx) {
  cl_program p = calloc(1, sizeof(*p));
  if (!p) return NULL;
  rt_object_init(&p->obj, RT_TAG_PROGRAM);
  p->context = ctx;
  clRetainContext(ctx);
  pthread_mutex_init(&p->lock, NULL);
  p->status = CL_BUILD_NONE;
  p->bintype = CL_PROGRAM_BINARY_TYPE_NONE;
  p->options = strdup("");
  p->log = strdup("");
  return p;
}

static void unmap_data(cl_program p) {
  if (p->data_addr) p->context->ops->unmap_global(p->context->dev, p->data_addr);
  p->data_addr = 0;
  free(p->data);
  p->data = NULL;
}

/* Keeps the executable and its data segment until the program goes: a
 * launch of a kernel the application released may still run it. */
static void retire(cl_program p) {
  struct rt_retired *r = malloc(sizeof(*r));
  /* without memory for the note it is leaked rather than freed under a launch */
  if (r) {
    *r = (struct rt_retired){p->retired, p->lsi, p->data, p->data_addr};
    p->retired = r;
  }
  p->lsi = NULL;
  p->data = NULL;
  p->data_addr = 0;
}

/* Installs a new executable (or bitcode), replacing the previous one. */
static void set_result(cl_program p, struct lsi_program *lsi, struct cc_bitcode *bc) {
  if (p->lsi && atomic_load(&p->live_kernels) > 0) retire(p);
  unmap_data(p);
  cc_program_free(p->lsi);
  free(p->bc.data);
  p->lsi = lsi;
  if (bc) {
    p->bc = *bc;
    memset(bc, 0, sizeof(*bc));
  } else {
    memset(&p->bc, 0, sizeof(p->bc));
  }
}

/* Under p->lock, once a build changed the executable or the options: what
 * a launch run by a layer above gets (runtime/hooks.h). Set here, not per
 * launch: launches of the program read it on the device's threads while
 * others are enqueued, and a build is refused while kernels exist. */
static void set_text(cl_program p) {
  p->text.source = p->source ? p->source : p->lsi ? p->lsi->source : NULL;
  p->text.options = p->options;
}

uint64_t rt_program_data(cl_program p) {
  pthread_mutex_lock(&p->lock);
  uint64_t a = p->data_addr;
  if (!a && p->lsi && p->lsi->data_size) {
    p->data = calloc(1, p->lsi->data_size);
    if (p->data) {
      a = p->data_addr =
          p->context->ops->map_global(p->context->dev, p->data, p->lsi->data_size, false);
      lsi_data_image(p->lsi, p->data, a);
    }
  }
  pthread_mutex_unlock(&p->lock);
  return a;
}

const struct lsi_kernel *rt_program_kernel(cl_program p, const char *name) {
  if (!p->lsi) return NULL;
  for (uint32_t i = 0; i < p->lsi->nkernels; i++)
    if (!strcmp(p->lsi->kernels[i].name, name)) return &p->lsi->kernels[i];
  return NULL;
}

static void program_destroy(cl_program p) {
  for (struct rt_prog_cb *c = p->release_cbs; c; c = c->next)
    c->fn(p, c->user_data);
  while (p->release_cbs) {
    struct rt_prog_cb *n = p->release_cbs->next;
    free(p->release_cbs);
    p->release_cbs = n;
  }
  rt_object_kill(&p->obj);
  set_result(p, NULL, NULL);
  while (p->retired) {
    struct rt_retired *r = p->retired;
    p->retired = r->next;
    if (r->data_addr) p->context->ops->unmap_global(p->context->dev, r->data_addr);
    free(r->data);
    cc_program_free(r->lsi);
    free(r);
  }
  free(p->source);
  free(p->options);
  free(p->log);
  pthread_mutex_destroy(&p->lock);
  cl_context ctx = p->context;
  rt_object_free(&p->obj, sizeof *p);
  rt_context_unref(ctx);
}

void rt_program_unref(cl_program p) {
  if (rt_release(&p->obj) == 0) program_destroy(p);
}

/* ---- creation ---- */

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                              const char **strings,
                                                              const size_t *lengths,
                                                              cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (count == 0 || !strings) {
    rt_set_err(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  size_t total = 0;
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i]) {
      rt_set_err(errcode_ret, CL_INVALID_VALUE);
      return NULL;
    }
    total += (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
  }
  cl_program p = program_new(context);
  char *src = malloc(total + 1);
  if (!p || !src) {
    free(src);
    if (p) rt_program_unref(p);
    rt_set_err(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  size_t o = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t n = (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
    memcpy(src + o, strings[i], n);
    o += n;
  }
  src[o] = 0;
  p->source = src;
  rt_set_err(errcode_ret, CL_SUCCESS);
  return p;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list, const size_t *lengths,
    const unsigned char **binaries, cl_int *binary_status, cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (num_devices == 0 || !device_list || !lengths || !binaries) {
    rt_set_err(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < num_devices; i++)
    if (!device_ok(device_list[i])) {
      rt_set_err(errcode_ret, CL_INVALID_DEVICE);
      return NULL;
    }
  cl_int err = CL_SUCCESS;
  for (cl_uint i = 0; i < num_devices; i++) {
    cl_int st = (!lengths[i] || !binaries[i]) ? CL_INVALID_VALUE : CL_SUCCESS;
    if (binary_status) binary_status[i] = st;
    if (st != CL_SUCCESS) err = CL_INVALID_VALUE;
  }
  if (err != CL_SUCCESS) {
    rt_set_err(errcode_ret, err);
    return NULL;
  }
  /* one device: the first binary is the program */
  int kind = 0;
  struct lsi_program *lsi = NULL;
  struct cc_bitcode bc = {0};
  char *log = NULL;
  for (cl_uint i = 0; i < num_devices; i++) {
    struct lsi_program *l2 = NULL;
    struct cc_bitcode b2 = {0};
    int k2;
    int rc = cc_binary_load(binaries[i], lengths[i], &k2, &l2, &b2, i == 0 ? &log : NULL);
    if (binary_status) binary_status[i] = rc == CC_OK ? CL_SUCCESS : CL_INVALID_BINARY;
    if (rc != CC_OK) {
      err = CL_INVALID_BINARY;
    } else if (i == 0) {
      kind = k2;
      lsi = l2;
      bc = b2;
      continue;
    }
    cc_program_free(l2);
    free(b2.data);
  }
  if (err != CL_SUCCESS) {
    cc_program_free(lsi);
    free(bc.data);
    free(log);
    rt_set_err(errcode_ret, err);
    return NULL;
  }
  cl_program p = program_new(context);
  if (!p) {
    cc_program_free(lsi);
    free(bc.data);
    free(log);
    rt_set_err(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  p->from_binary = 1;
  set_result(p, lsi, lsi ? NULL : &bc);
  free(p->log);
  p->log = log ? log : strdup("");
  p->bintype = kind == CC_BIN_EXECUTABLE ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
               : kind == CC_BIN_OBJECT   ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
                                         : CL_PROGRAM_BINARY_TYPE_LIBRARY;
  rt_set_err(errcode_ret, CL_SUCCESS);
  return p;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il,
                                                          size_t length, cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (!il || !length) {
    rt_set_err(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  /* CL_DEVICE_IL_VERSION is empty: no device of the context takes IL. */
  rt_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const char *kernel_names, cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (num_devices == 0 || !device_list || !kernel_names) {
    rt_set_err(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < num_devices; i++)
    if (!device_ok(device_list[i])) {
      rt_set_err(errcode_ret, CL_INVALID_DEVICE);
      return NULL;
    }
  /* The device has no built-in kernels, so no name can be valid. */
  rt_set_err(errcode_ret, CL_INVALID_VALUE);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) {
  if (!rt_valid(program, RT_TAG_PROGRAM)) return CL_INVALID_PROGRAM;
  rt_retain(&program->obj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  if (!rt_valid(program, RT_TAG_PROGRAM)) return CL_INVALID_PROGRAM;
  rt_program_unref(program);
  return CL_SUCCESS;
}

/* ---- build, compile, link ---- */

/* Whether options ask for kernel argument information (-cl-kernel-arg-info). */
static bool arg_info_for(const char *options) {
  struct cc_options o;
  char err[64];
  if (cc_options_parse(options, 0, &o, err, sizeof(err)) != CC_OK) return false;
  bool a = o.kernel_arg_info;
  cc_options_free(&o);
  return a;
}

static bool uniform_for(const char *options) {
  struct cc_options o;
  char err[64];
  if (cc_options_parse(options, 0, &o, err, sizeof(err)) != CC_OK) return true;
  bool u = o.cl_std < 200;
  for (int i = 0; i < o.nargs; i++)
    if (!strcmp(o.args[i], "-cl-uniform-work-group-size")) u = true;
  cc_options_free(&o);
  return u;
}

/* Marks the program busy; fails when it is building or has kernels. */
static cl_int begin_build(cl_program p) {
  pthread_mutex_lock(&p->lock);
  cl_int err = CL_SUCCESS;
  if (p->building || atomic_load(&p->nkernels) > 0)
    err = CL_INVALID_OPERATION;
  else
    p->building = true;
  pthread_mutex_unlock(&p->lock);
  return err;
}

static void end_build(cl_program p, cl_build_status st, const char *options, char *log,
                      struct lsi_program *lsi, struct cc_bitcode *bc, cl_program_binary_type bt) {
  pthread_mutex_lock(&p->lock);
  p->status = st;
  free(p->options);
  p->options = strdup(options ? options : "");
  free(p->log);
  p->log = log ? log : strdup("");
  if (st == CL_BUILD_SUCCESS) {
    set_result(p, lsi, bc);
    p->bintype = bt;
    p->uniform_wg = uniform_for(options);
  } else {
    cc_program_free(lsi);
    if (bc) free(bc->data);
  }
  set_text(p);
  p->building = false;
  pthread_mutex_unlock(&p->lock);
}

/* The options the compiler gets: under `lockstep debug` every program is
 * built with -g (which implies -cl-opt-disable) so the debug tables are
 * complete. The program keeps reporting the caller's options. Malloc'd. */
static char *compile_options(const char *options) {
  const char *o = options ? options : "";
  const struct rt_hooks *h = rt_hooks_active();
  return h && h->build_options ? h->build_options(o) : strdup(o);
}

/* Under `lockstep debug`: an executable binary that carries its source but
 * was built without -g is rebuilt from that source with its options and -g,
 * so it debugs like a program built from source. NULL: keep the binary. */
static struct lsi_program *debug_rebuild(const struct lsi_program *bin) {
  if (!bin || !bin->source || !rt_hooks_active()) return NULL;
  struct cc_options o;
  char e[256];
  if (cc_options_parse(bin->options, 0, &o, e, sizeof(e)) != CC_OK) return NULL;
  int debug = o.debug;
  cc_options_free(&o);
  if (debug) return NULL;
  char *opts = compile_options(bin->options), *log = NULL;
  struct lsi_program *lsi = NULL;
  int rc = opts ? cc_build(bin->source, PROGRAM_FILE, opts, &lsi, &log) : CC_OUT_OF_MEMORY;
  free(opts);
  free(log);
  if (rc == CC_OK) return lsi;
  cc_program_free(lsi);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
    void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data), void *user_data) {
  if (!rt_valid(program, RT_TAG_PROGRAM)) return CL_INVALID_PROGRAM;
  cl_int err = check_devices(num_devices, device_list);
  if (err != CL_SUCCESS) return err;
  if (!pfn_notify && user_data) return CL_INVALID_VALUE;
  if (!program->source && !program->from_binary) return CL_INVALID_OPERATION;
  if (program->from_binary && program->bintype == CL_PROGRAM_BINARY_TYPE_NONE)
    return CL_INVALID_BINARY;
  err = begin_build(program);
  if (err != CL_SUCCESS) return err;
  struct lsi_program *lsi = NULL;
  char *log = NULL;
  int rc;
  if (program->source) {
    char *opts = compile_options(options);
    rc = opts ? cc_build(program->source, PROGRAM_FILE, opts, &lsi, &log) : CC_OUT_OF_MEMORY;
    free(opts);
  } else if (program->bintype == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
    /* already an executable: validate the options, keep the code */
    struct cc_options o;
    char e[256];
    rc = cc_options_parse(options, 0, &o, e, sizeof(e));
    struct lsi_program *rebuilt = rc == CC_OK ? debug_rebuild(program->lsi) : NULL;
    if (rc == CC_OK)
      cc_options_free(&o);
    else {
      char msg[300];
      snprintf(msg, sizeof(msg), "error: %s\n", e);
      log = strdup(msg);
    }
    pthread_mutex_lock(&program->lock);
    if (rc == CC_OK) {
      if (rebuilt) set_result(program, rebuilt, NULL);
      program->status = CL_BUILD_SUCCESS;
      program->uniform_wg = uniform_for(options);
      free(program->options);
      program->options = strdup(options ? options : "");
      set_text(program);
    } else {
      free(program->log);
      program->log = log;
      program->status = CL_BUILD_ERROR;
      log = NULL;
    }
    program->building = false;
    pthread_mutex_unlock(&program->lock);
    free(log);
    if (pfn_notify) pfn_notify(program, user_data);
    return rc == CC_OK ? CL_SUCCESS : CL_INVALID_BUILD_OPTIONS;
  } else {
    /* a compiled object or library from a binary: link it alone */
    struct cc_bitcode lib = {0};
    rc = cc_link(&program->bc, 1, "", &lsi, &lib, &log);
    free(lib.data);
    if (rc == CC_LINK_FAILURE) rc = CC_BUILD_FAILURE;
  }
  end_build(program, rc == CC_OK ? CL_BUILD_SUCCESS : CL_BUILD_ERROR, options, log, lsi, NULL,
            CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  /* argument information only for what was built from source asking for it */
  program->arg_info = program->source && arg_info_for(options);
  if (pfn_notify) pfn_notify(program, user_data);
  if (rc == CC_OK) return CL_SUCCESS;
  return rc == CC_INVALID_OPTIONS ? CL_INVALID_BUILD_OPTIONS
         : rc == CC_OUT_OF_MEMORY ? CL_OUT_OF_HOST_MEMORY
                                  : CL_BUILD_PROGRAM_FAILURE;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
    cl_uint num_input_headers, const cl_program *input_headers, const char **header_include_names,
    void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data), void *user_data) {
  if (!rt_valid(program, RT_TAG_PROGRAM)) return CL_INVALID_PROGRAM;
  cl_int err = check_devices(num_devices, device_list);
  if (err != CL_SUCCESS) return err;
  if (!pfn_notify && user_data) return CL_INVALID_VALUE;
  if ((num_input_headers == 0) != (input_headers == NULL) ||
      (num_input_headers == 0) != (header_include_names == NULL))
    return CL_INVALID_VALUE;
  struct cc_header *hdrs = calloc(num_input_headers + 1, sizeof(*hdrs));
  if (!hdrs) return CL_OUT_OF_HOST_MEMORY;
  for (cl_uint i = 0; i < num_input_headers; i++) {
    if (!rt_valid(input_headers[i], RT_TAG_PROGRAM) || !input_headers[i]->source) {
      free(hdrs);
      return CL_INVALID_PROGRAM;
    }
    if (!header_include_names[i]) {
      free(hdrs);
      return CL_INVALID_VALUE;
    }
    hdrs[i].name = header_include_names[i];
    hdrs[i].source = input_headers[i]->source;
  }
  if (!program->source) {
    free(hdrs);
    return CL_INVALID_OPERATION;
  }
  err = begin_build(program);
  if (err != CL_SUCCESS) {
    free(hdrs);
    return err;
  }
  struct cc_bitcode bc = {0};
  char *log = NULL;
  char *opts = compile_options(options);
  int rc = opts
               ? cc_compile(program->source, PROGRAM_FILE, opts, hdrs, num_input_headers, &bc, &log)
               : CC_OUT_OF_MEMORY;
  free(opts);
  free(hdrs);
  end_build(program, rc == CC_OK ? CL_BUILD_SUCCESS : CL_BUILD_ERROR, options, log, NULL, &bc,
            CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  program->arg_info = arg_info_for(options);
  if (pfn_notify) pfn_notify(program, user_data);
  if (rc == CC_OK) return CL_SUCCESS;
  return rc == CC_INVALID_OPTIONS ? CL_INVALID_COMPILER_OPTIONS : CL_COMPILE_PROGRAM_FAILURE;
}

CL_API_ENTRY cl_program CL_API_CALL
clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
              const char *options, cl_uint num_input_programs, const cl_program *input_programs,
              void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data), void *user_data,
              cl_int *errcode_ret) {
  if (!rt_valid(context, RT_TAG_CONTEXT)) {
    rt_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  cl_int err = check_devices(num_devices, device_list);
  if (err == CL_SUCCESS && (num_input_programs == 0 || !input_programs)) err = CL_INVALID_VALUE;
  if (err == CL_SUCCESS && !pfn_notify && user_data) err = CL_INVALID_VALUE;
  for (cl_uint i = 0; err == CL_SUCCESS && i < num_input_programs; i++)
    if (!rt_valid(input_programs[i], RT_TAG_PROGRAM)) err = CL_INVALID_PROGRAM;
  for (cl_uint i = 0; err == CL_SUCCESS && i < num_input_programs; i++) {
    cl_program_binary_type bt = input_programs[i]->bintype;
    if ((bt != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && bt != CL_PROGRAM_BINARY_TYPE_LIBRARY) ||
        !input_programs[i]->bc.data)
      err = CL_INVALID_OPERATION;
  }
  struct cc_options o;
  char e[256];
  if (err == CL_SUCCESS && cc_options_parse(options, 1, &o, e, sizeof(e)) != CC_OK)
    err = CL_INVALID_LINKER_OPTIONS;
  else if (err == CL_SUCCESS)
    cc_options_free(&o);
  if (err != CL_SUCCESS) {
    rt_set_err(errcode_ret, err);
    return NULL;
  }
  struct cc_bitcode *objs = calloc(num_input_programs, sizeof(*objs));
  bool arg_info = true; /* every object compiled from source with -cl-kernel-arg-info */
  for (cl_uint i = 0; i < num_input_programs; i++) {
    pthread_mutex_lock(&input_programs[i]->lock);
    arg_info = arg_info && input_programs[i]->arg_info;
    objs[i].size = input_programs[i]->bc.size;
    objs[i].data = malloc(objs[i].size ? objs[i].size : 1);
    memcpy(objs[i].data, input_programs[i]->bc.data, objs[i].size);
    pthread_mutex_unlock(&input_programs[i]->lock);
  }
  cl_program p = program_new(context);
  if (!p) {
    for (cl_uint i = 0; i < num_input_programs; i++)
      free(objs[i].data);
    free(objs);
    rt_set_err(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  struct lsi_program *lsi = NULL;
  struct cc_bitcode lib = {0};
  char *log = NULL;
  int rc = cc_link(objs, num_input_programs, options, &lsi, &lib, &log);
  for (cl_uint i = 0; i < num_input_programs; i++)
    free(objs[i].data);
  free(objs);
  p->building = true;
  p->arg_info = arg_info;
  end_build(p, rc == CC_OK ? CL_BUILD_SUCCESS : CL_BUILD_ERROR, options, log, lsi,
            lsi ? NULL : &lib,
            lsi ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_LIBRARY);
  if (!lsi) free(lib.data);
  if (pfn_notify) pfn_notify(p, user_data);
  rt_set_err(errcode_ret, rc == CC_OK ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE);
  return p;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) {
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  if (!platform || platform != rt_platform()) return CL_INVALID_PLATFORM;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(
    cl_program program, void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
    void *user_data) {
  if (!rt_valid(program, RT_TAG_PROGRAM)) return CL_INVALID_PROGRAM;
  if (!pfn_notify) return CL_INVALID_VALUE;
  /* No device supports destructors for program-scope global variables. */
  (void)user_data;
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program,
                                                                   cl_uint spec_id,
                                                                   size_t spec_size,
                                                                   const void *spec_value) {
  if (!rt_valid(program, RT_TAG_PROGRAM)) return CL_INVALID_PROGRAM;
  /* Programs never come from IL, so there are no specialization constants. */
  (void)spec_id;
  (void)spec_size;
  (void)spec_value;
  return CL_INVALID_OPERATION;
}

/* ---- queries ---- */

static cl_int binary_of(cl_program p, uint8_t **out, size_t *len) {
  *out = NULL;
  *len = 0;
  if (p->lsi)
    return cc_binary_save(p->lsi, NULL, CC_BIN_EXECUTABLE, p->log, out, len) == CC_OK
               ? CL_SUCCESS
               : CL_OUT_OF_HOST_MEMORY;
  if (p->bc.data)
    return cc_binary_save(NULL, &p->bc,
                          p->bintype == CL_PROGRAM_BINARY_TYPE_LIBRARY ? CC_BIN_LIBRARY
                                                                       : CC_BIN_OBJECT,
                          p->log, out, len) == CC_OK
               ? CL_SUCCESS
               : CL_OUT_OF_HOST_MEMORY;
  return CL_SUCCESS;
}

static cl_int program_info(cl_program p, cl_program_info param, size_t sz, void *pv, size_t *ret) {
  switch (param) {
  case CL_PROGRAM_REFERENCE_COUNT: {
    cl_uint n = atomic_load(&p->obj.refcount);
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_PROGRAM_CONTEXT: return rt_info(sz, pv, ret, &p->context, sizeof(cl_context));
  case CL_PROGRAM_NUM_DEVICES: {
    cl_uint n = 1;
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_PROGRAM_DEVICES: {
    cl_device_id d = rt_device();
    return rt_info(sz, pv, ret, &d, sizeof(d));
  }
  case CL_PROGRAM_SOURCE: return rt_info_str(sz, pv, ret, p->source ? p->source : "");
  case CL_PROGRAM_IL:
    if (ret) *ret = 0;
    return CL_SUCCESS;
  case CL_PROGRAM_BINARY_SIZES: {
    uint8_t *b;
    size_t n;
    cl_int e = binary_of(p, &b, &n);
    free(b);
    if (e != CL_SUCCESS) return e;
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_PROGRAM_BINARIES: {
    if (pv && sz < sizeof(unsigned char *)) return CL_INVALID_VALUE;
    if (ret) *ret = sizeof(unsigned char *);
    if (!pv) return CL_SUCCESS;
    unsigned char *dst = ((unsigned char **)pv)[0];
    if (!dst) return CL_SUCCESS;
    uint8_t *b;
    size_t n;
    cl_int e = binary_of(p, &b, &n);
    if (e == CL_SUCCESS && n) memcpy(dst, b, n);
    free(b);
    return e;
  }
  case CL_PROGRAM_NUM_KERNELS: {
    if (!p->lsi || p->status != CL_BUILD_SUCCESS)
      if (!(p->lsi && p->from_binary)) return CL_INVALID_PROGRAM_EXECUTABLE;
    size_t n = p->lsi->nkernels;
    return rt_info(sz, pv, ret, &n, sizeof(n));
  }
  case CL_PROGRAM_KERNEL_NAMES: {
    if (!p->lsi || p->status != CL_BUILD_SUCCESS)
      if (!(p->lsi && p->from_binary)) return CL_INVALID_PROGRAM_EXECUTABLE;
    size_t len = 1;
    for (uint32_t i = 0; i < p->lsi->nkernels; i++)
      len += strlen(p->lsi->kernels[i].name) + 1;
    char *s = calloc(len, 1);
    for (uint32_t i = 0; i < p->lsi->nkernels; i++) {
      if (i) strcat(s, ";");
      strcat(s, p->lsi->kernels[i].name);
    }
    cl_int e = rt_info_str(sz, pv, ret, s);
    free(s);
    return e;
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: {
    cl_bool f = CL_FALSE;
    return rt_info(sz, pv, ret, &f, sizeof(f));
  }
  default: return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  if (!rt_valid(program, RT_TAG_PROGRAM)) return CL_INVALID_PROGRAM;
  pthread_mutex_lock(&program->lock);
  cl_int e = program_info(program, param_name, param_value_size, param_value, param_value_size_ret);
  pthread_mutex_unlock(&program->lock);
  return e;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                                      cl_program_build_info param_name,
                                                      size_t param_value_size, void *param_value,
                                                      size_t *param_value_size_ret) {
  if (!rt_valid(program, RT_TAG_PROGRAM)) return CL_INVALID_PROGRAM;
  if (!device_ok(device)) return CL_INVALID_DEVICE;
  size_t sz = param_value_size;
  void *pv = param_value;
  size_t *ret = param_value_size_ret;
  pthread_mutex_lock(&program->lock);
  cl_int e;
  switch (param_name) {
  case CL_PROGRAM_BUILD_STATUS: {
    cl_build_status st = program->building ? CL_BUILD_IN_PROGRESS : program->status;
    e = rt_info(sz, pv, ret, &st, sizeof(st));
    break;
  }
  case CL_PROGRAM_BUILD_OPTIONS: e = rt_info_str(sz, pv, ret, program->options); break;
  case CL_PROGRAM_BUILD_LOG: e = rt_info_str(sz, pv, ret, program->log); break;
  case CL_PROGRAM_BINARY_TYPE:
    e = rt_info(sz, pv, ret, &program->bintype, sizeof(program->bintype));
    break;
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
    size_t n = program->lsi ? program->lsi->data_size : 0;
    e = rt_info(sz, pv, ret, &n, sizeof(n));
    break;
  }
  default: e = CL_INVALID_VALUE;
  }
  pthread_mutex_unlock(&program->lock);
  return e;
}
