/*
 * test_program.c - program objects: creation from source, binary, IL and
 * built-in kernels with their error codes; builds (options, failures and
 * their logs, callbacks); compile + link with embedded headers and
 * libraries; queries; the binary round trip; and the kernel API's error
 * paths that need a built program (arguments, arg info, work-group info,
 * launch validation).
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/check_util.h"

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;
static cl_platform_id plat;

static void setup(void) {
  cu_cl_setup(&dev, &ctx, &q);
  ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL), CL_SUCCESS);
}

static void teardown(void) {
  cu_cl_teardown(q, ctx);
}

static const char *good_src =
    "__kernel void fill(__global int *out, int v) { out[get_global_id(0)] = v; }\n"
    "__kernel void args(__global const float *restrict a, __constant int *c,\n"
    "                   __local float *scratch, float4 v, uchar u) {\n"
    "  scratch[0] = a[0] + c[0] + v.x + u;\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void fixed(__global int *o) {\n"
    "  o[get_global_id(0)] = 1;\n"
    "}\n";

static cl_program source_program(const char *src) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  return p;
}

static char *build_log(cl_program p) {
  size_t n = 0;
  ck_assert_int_eq(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n), CL_SUCCESS);
  char *log = malloc(n + 1);
  ck_assert_int_eq(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL), CL_SUCCESS);
  return log;
}

static cl_program built(void) {
  cl_program p = source_program(good_src);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
  return p;
}

START_TEST(test_create_with_source_errors) {
  cl_int err;
  const char *s = "kernel void k(){}";
  ck_assert_ptr_null(clCreateProgramWithSource(NULL, 1, &s, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
  ck_assert_ptr_null(clCreateProgramWithSource(ctx, 0, &s, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateProgramWithSource(ctx, 1, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  const char *bad[2] = {s, NULL};
  ck_assert_ptr_null(clCreateProgramWithSource(ctx, 2, bad, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  /* several strings with lengths are concatenated */
  const char *parts[2] = {"kernel void k(global int *o)XXXX", "{ o[0] = 1; }"};
  size_t lens[2] = {28, 0};
  cl_program p = clCreateProgramWithSource(ctx, 2, parts, lens, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  char src[128];
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof src, src, NULL), CL_SUCCESS);
  ck_assert_str_eq(src, "kernel void k(global int *o){ o[0] = 1; }");
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "", NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clReleaseProgram(p), CL_SUCCESS);
  ck_assert_int_eq(clReleaseProgram(NULL), CL_INVALID_PROGRAM);
  ck_assert_int_eq(clRetainProgram(NULL), CL_INVALID_PROGRAM);
}
END_TEST

START_TEST(test_il_builtin_and_unsupported) {
  cl_int err;
  ck_assert_ptr_null(clCreateProgramWithIL(ctx, "abcd", 4, &err));
  ck_assert_int_eq(err, CL_INVALID_OPERATION);
  ck_assert_ptr_null(clCreateProgramWithIL(ctx, NULL, 4, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateProgramWithIL(NULL, "abcd", 4, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
  ck_assert_ptr_null(clCreateProgramWithBuiltInKernels(ctx, 1, &dev, "foo", &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateProgramWithBuiltInKernels(ctx, 0, NULL, "foo", &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  cl_program p = built();
  ck_assert_int_eq(clSetProgramSpecializationConstant(p, 0, 4, &err), CL_INVALID_OPERATION);
  ck_assert_int_eq(clSetProgramSpecializationConstant(NULL, 0, 4, &err), CL_INVALID_PROGRAM);
  ck_assert_int_eq(clSetProgramReleaseCallback(p, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clUnloadPlatformCompiler(plat), CL_SUCCESS);
  ck_assert_int_eq(clUnloadPlatformCompiler(NULL), CL_INVALID_PLATFORM);
  clReleaseProgram(p);
}
END_TEST

START_TEST(test_build_errors_and_options) {
  cl_program p = source_program(good_src);
  ck_assert_int_eq(clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
  ck_assert_int_eq(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clBuildProgram(p, 0, &dev, NULL, NULL, NULL), CL_INVALID_VALUE);
  cl_device_id bogus = (cl_device_id)&p;
  ck_assert_int_eq(clBuildProgram(p, 1, &bogus, NULL, NULL, NULL), CL_INVALID_DEVICE);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, NULL, NULL, &p), CL_INVALID_VALUE);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-fno-such-thing", NULL, NULL),
                   CL_INVALID_BUILD_OPTIONS);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-cl-std=CL9.9", NULL, NULL),
                   CL_INVALID_BUILD_OPTIONS);
  /* in CL_DEVICE_OPENCL_C_ALL_VERSIONS (which one is refused when not:
   * test_claims) */
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-cl-std=CL2.0", NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clBuildProgram(p, 1, &dev,
                                  "-D FOO=1 -DBAR -I . -cl-std=CL3.0 -cl-mad-enable "
                                  "-cl-fast-relaxed-math -cl-denorms-are-zero -w "
                                  "-cl-kernel-arg-info -cl-finite-math-only",
                                  NULL, NULL),
                   CL_SUCCESS);
  char opts[512];
  ck_assert_int_eq(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, NULL),
                   CL_SUCCESS);
  ck_assert_ptr_nonnull(strstr(opts, "-cl-std=CL3.0"));
  cl_build_status st;
  ck_assert_int_eq(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(st, CL_BUILD_SUCCESS);
  ck_assert_int_eq(clGetProgramBuildInfo(p, NULL, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL),
                   CL_INVALID_DEVICE);
  /* a build with kernels attached is refused */
  cl_int err;
  cl_kernel k = clCreateKernel(p, "fill", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
END_TEST

START_TEST(test_build_failure_log_names_line) {
  cl_program p = source_program("__kernel void k(__global int *o) {\n"
                                "  int x = 1\n"
                                "  o[0] = x;\n"
                                "}\n");
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  char *log = build_log(p);
  ck_assert_msg(strstr(log, "program.cl:2:") && strstr(log, "error:"), "log: %s", log);
  cl_build_status st;
  clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL);
  ck_assert_int_eq(st, CL_BUILD_ERROR);
  cl_int err;
  ck_assert_ptr_null(clCreateKernel(p, "k", &err));
  ck_assert_int_eq(err, CL_INVALID_PROGRAM_EXECUTABLE);
  size_t nk;
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL),
                   CL_INVALID_PROGRAM_EXECUTABLE);
  free(log);
  /* -Werror turns a warning into a failure */
  cl_program w = source_program("__kernel void k(__global int *o) { int unused; o[0] = 1; }\n");
  ck_assert_int_eq(clBuildProgram(w, 0, NULL, "-Werror -Wunused-variable", NULL, NULL),
                   CL_INVALID_BUILD_OPTIONS);
  ck_assert_int_eq(clBuildProgram(w, 0, NULL, "-Werror", NULL, NULL), CL_SUCCESS);
  clReleaseProgram(w);
  clReleaseProgram(p);
}
END_TEST

static int notified;
static void CL_CALLBACK on_build(cl_program p, void *user) {
  (void)p;
  notified = *(int *)user;
}

START_TEST(test_build_callback_and_queries) {
  cl_program p = source_program(good_src);
  int tag = 42;
  notified = 0;
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, NULL, on_build, &tag), CL_SUCCESS);
  ck_assert_int_eq(notified, 42);
  size_t nk;
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL), CL_SUCCESS);
  ck_assert_uint_eq(nk, 3);
  char names[128];
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
                   CL_SUCCESS);
  ck_assert_str_eq(names, "fill;args;fixed");
  cl_context c;
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(c, ctx);
  cl_uint nd;
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof nd, &nd, NULL), CL_SUCCESS);
  ck_assert_uint_eq(nd, 1);
  cl_device_id d;
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof d, &d, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(d, dev);
  size_t sz = 99;
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &sz), CL_SUCCESS);
  ck_assert_uint_eq(sz, 0);
  ck_assert_int_eq(clGetProgramInfo(p, 0x7777, sizeof sz, &sz, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, 1, &nk, NULL), CL_INVALID_VALUE);
  cl_program_binary_type bt;
  ck_assert_int_eq(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(bt, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  cl_uint rc;
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof rc, &rc, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(rc, 1);
  clReleaseProgram(p);
}
END_TEST

static unsigned char *get_binary(cl_program p, size_t *len) {
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *len, len, NULL),
                   CL_SUCCESS);
  ck_assert_uint_gt(*len, 0);
  unsigned char *bin = malloc(*len);
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
  return bin;
}

static void run_fill(cl_program p, int value, int expect) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "fill", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  int out[16] = {0};
  cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof value, &value), CL_SUCCESS);
  size_t g = 16;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  for (int i = 0; i < 16; i++)
    ck_assert_int_eq(out[i], expect);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

START_TEST(test_binary_round_trip) {
  cl_program p = built();
  size_t len;
  unsigned char *bin = get_binary(p, &len);
  clReleaseProgram(p);
  cl_int err, st = 1;
  const unsigned char *b = bin;
  cl_program p2 = clCreateProgramWithBinary(ctx, 1, &dev, &len, &b, &st, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(st, CL_SUCCESS);
  ck_assert_int_eq(clBuildProgram(p2, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
  run_fill(p2, 77, 77);
  /* and once more from the reloaded program's own binary */
  size_t len2;
  unsigned char *bin2 = get_binary(p2, &len2);
  ck_assert_uint_eq(len2, len);
  ck_assert_int_eq(memcmp(bin, bin2, len), 0);
  clReleaseProgram(p2);
  free(bin2);
  free(bin);
}
END_TEST

START_TEST(test_binary_corrupt_and_truncated) {
  cl_program p = built();
  size_t len;
  unsigned char *bin = get_binary(p, &len);
  clReleaseProgram(p);
  cl_int err, st = 0;
  const unsigned char *b = bin;
  size_t half = len / 2;
  ck_assert_ptr_null(clCreateProgramWithBinary(ctx, 1, &dev, &half, &b, &st, &err));
  ck_assert_int_eq(err, CL_INVALID_BINARY);
  ck_assert_int_eq(st, CL_INVALID_BINARY);
  bin[len - 5] ^= 0x40;
  ck_assert_ptr_null(clCreateProgramWithBinary(ctx, 1, &dev, &len, &b, &st, &err));
  ck_assert_int_eq(err, CL_INVALID_BINARY);
  ck_assert_int_eq(st, CL_INVALID_BINARY);
  const unsigned char *junk = (const unsigned char *)"this is not a program binary at all....";
  size_t jl = 40;
  ck_assert_ptr_null(clCreateProgramWithBinary(ctx, 1, &dev, &jl, &junk, &st, &err));
  ck_assert_int_eq(err, CL_INVALID_BINARY);
  size_t zero = 0;
  ck_assert_ptr_null(clCreateProgramWithBinary(ctx, 1, &dev, &zero, &b, &st, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_int_eq(st, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateProgramWithBinary(ctx, 0, &dev, &len, &b, &st, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateProgramWithBinary(NULL, 1, &dev, &len, &b, &st, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
  free(bin);
}
END_TEST

/* Bindings and applications cache binaries keyed on CL_DRIVER_VERSION (and
 * the device and platform versions): the driver version must name everything
 * a binary has to match to load, the container version and the compiler
 * identity stored in its header, or a cache filled by another build hands
 * back binaries this one rejects. */
START_TEST(test_driver_version_names_binary_format) {
  cl_program p = built();
  size_t len;
  unsigned char *bin = get_binary(p, &len);
  clReleaseProgram(p);
  /* header: magic[8], u32 version, u32 kind, u64 size, u64 sum, then the
   * log and the compiler identity as (u32 length, bytes) strings */
  ck_assert_uint_gt(len, 40);
  uint32_t ver, n;
  memcpy(&ver, bin + 8, 4);
  size_t at = 32;
  memcpy(&n, bin + at, 4);
  at += 4 + n;
  ck_assert_uint_le(at + 4, len);
  memcpy(&n, bin + at, 4);
  ck_assert_uint_le(at + 4 + n, len);
  char *cc = strndup((const char *)bin + at + 4, n);
  ck_assert_uint_gt(strlen(cc), 0);
  char drv[256];
  ck_assert_int_eq(clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof drv, drv, NULL), CL_SUCCESS);
  char want[32];
  snprintf(want, sizeof want, "binary %u", ver);
  ck_assert_msg(strstr(drv, want), "driver version '%s' lacks '%s'", drv, want);
  ck_assert_msg(strstr(drv, cc), "driver version '%s' lacks '%s'", drv, cc);
  free(cc);
  free(bin);
}
END_TEST

START_TEST(test_compile_and_link) {
  cl_int err;
  cl_program hdr = source_program("#define SCALE 3\nint scale(int x);\n");
  cl_program lib =
      source_program("#include \"inc/scale.h\"\nint scale(int x) { return x * SCALE; }\n");
  cl_program main = source_program(
      "#include \"inc/scale.h\"\n"
      "__kernel void fill(__global int *out, int v) { out[get_global_id(0)] = scale(v); }\n");
  const char *names[] = {"inc/scale.h"};
  ck_assert_int_eq(clCompileProgram(lib, 0, NULL, "", 1, &hdr, names, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clCompileProgram(main, 0, NULL, "", 1, &hdr, names, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clCompileProgram(main, 0, NULL, "", 1, NULL, names, NULL, NULL),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clCompileProgram(main, 0, NULL, "-bogus", 0, NULL, NULL, NULL, NULL),
                   CL_INVALID_COMPILER_OPTIONS);
  ck_assert_int_eq(clCompileProgram(main, 0, NULL, "", 1, &hdr, names, NULL, NULL), CL_SUCCESS);
  cl_program_binary_type bt;
  clGetProgramBuildInfo(main, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL);
  ck_assert_uint_eq(bt, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  /* a library, then the executable */
  cl_program l = clLinkProgram(ctx, 0, NULL, "-create-library", 1, &lib, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  clGetProgramBuildInfo(l, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL);
  ck_assert_uint_eq(bt, CL_PROGRAM_BINARY_TYPE_LIBRARY);
  cl_program objs[2] = {main, l};
  cl_program exe = clLinkProgram(ctx, 0, NULL, "", 2, objs, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  run_fill(exe, 9, 27);
  /* linking without the library leaves scale() undefined */
  cl_program bad = clLinkProgram(ctx, 0, NULL, "", 1, &main, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_LINK_PROGRAM_FAILURE);
  ck_assert_ptr_nonnull(bad);
  char *log = build_log(bad);
  ck_assert_ptr_nonnull(strstr(log, "scale"));
  free(log);
  ck_assert_ptr_null(clLinkProgram(ctx, 0, NULL, "-cl-opt-disable", 1, &main, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_LINKER_OPTIONS);
  ck_assert_ptr_null(clLinkProgram(ctx, 0, NULL, "", 0, NULL, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clLinkProgram(ctx, 0, NULL, "", 1, &hdr, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_OPERATION);
  clReleaseProgram(bad);
  clReleaseProgram(exe);
  clReleaseProgram(l);
  clReleaseProgram(main);
  clReleaseProgram(lib);
  clReleaseProgram(hdr);
}
END_TEST

START_TEST(test_kernel_create_errors) {
  cl_program p = built();
  cl_int err;
  ck_assert_ptr_null(clCreateKernel(p, "nope", &err));
  ck_assert_int_eq(err, CL_INVALID_KERNEL_NAME);
  ck_assert_ptr_null(clCreateKernel(p, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateKernel(NULL, "fill", &err));
  ck_assert_int_eq(err, CL_INVALID_PROGRAM);
  cl_program unbuilt = source_program(good_src);
  ck_assert_ptr_null(clCreateKernel(unbuilt, "fill", &err));
  ck_assert_int_eq(err, CL_INVALID_PROGRAM_EXECUTABLE);
  cl_uint n;
  ck_assert_int_eq(clCreateKernelsInProgram(p, 0, NULL, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, 3);
  cl_kernel ks[3];
  ck_assert_int_eq(clCreateKernelsInProgram(p, 2, ks, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clCreateKernelsInProgram(p, 3, ks, &n), CL_SUCCESS);
  char name[32];
  ck_assert_int_eq(clGetKernelInfo(ks[1], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL),
                   CL_SUCCESS);
  ck_assert_str_eq(name, "args");
  cl_uint na;
  ck_assert_int_eq(clGetKernelInfo(ks[1], CL_KERNEL_NUM_ARGS, sizeof na, &na, NULL), CL_SUCCESS);
  ck_assert_uint_eq(na, 5);
  char attrs[128];
  ck_assert_int_eq(clGetKernelInfo(ks[2], CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL),
                   CL_SUCCESS);
  ck_assert_str_eq(attrs, "reqd_work_group_size(8,1,1)");
  cl_program kp;
  ck_assert_int_eq(clGetKernelInfo(ks[0], CL_KERNEL_PROGRAM, sizeof kp, &kp, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(kp, p);
  for (int i = 0; i < 3; i++)
    clReleaseKernel(ks[i]);
  ck_assert_int_eq(clReleaseKernel(NULL), CL_INVALID_KERNEL);
  clReleaseProgram(unbuilt);
  clReleaseProgram(p);
}
END_TEST

START_TEST(test_set_kernel_arg_errors) {
  cl_program p = built();
  cl_int err;
  cl_kernel k = clCreateKernel(p, "args", &err);
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  float f4[4] = {1, 2, 3, 4};
  cl_uchar u = 1;
  ck_assert_int_eq(clSetKernelArg(k, 5, sizeof m, &m), CL_INVALID_ARG_INDEX);
  ck_assert_int_eq(clSetKernelArg(k, 0, 4, &m), CL_INVALID_ARG_SIZE);
  static uint64_t fake[16];
  cl_mem notmem = (cl_mem)fake;
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof m, &notmem), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof m, NULL), CL_SUCCESS); /* NULL buffer */
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof m, &m), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 2, 64, &m), CL_INVALID_ARG_VALUE);
  ck_assert_int_eq(clSetKernelArg(k, 2, 0, NULL), CL_INVALID_ARG_SIZE);
  ck_assert_int_eq(clSetKernelArg(k, 3, 8, f4), CL_INVALID_ARG_SIZE);
  ck_assert_int_eq(clSetKernelArg(k, 3, 16, NULL), CL_INVALID_ARG_VALUE);
  ck_assert_int_eq(clSetKernelArg(k, 4, 4, &u), CL_INVALID_ARG_SIZE);
  /* launching with unset arguments */
  size_t g = 8;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_KERNEL_ARGS);
  ck_assert_int_eq(clSetKernelArg(k, 2, 64, NULL), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 3, 16, f4), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 4, 1, &u), CL_SUCCESS);
  cl_ulong lm;
  ck_assert_int_eq(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL),
                   CL_SUCCESS);
  ck_assert_uint_ge(lm, 64);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clFinish(q), CL_SUCCESS);
  /* a clone keeps the arguments */
  cl_kernel c = clCloneKernel(k, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, c, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clFinish(q), CL_SUCCESS);
  /* SVM: a NULL pointer argument; a list naming something that is not
   * SVM memory (a buffer handle) and an empty one are refused */
  ck_assert_int_eq(clSetKernelArgSVMPointer(k, 0, NULL), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArgSVMPointer(k, 3, NULL), CL_INVALID_ARG_VALUE);
  cl_bool no = CL_FALSE;
  ck_assert_int_eq(
      clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof no, &no),
      CL_SUCCESS);
  ck_assert_int_eq(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof m, &m),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 8, NULL), CL_INVALID_VALUE);
  /* an empty list unsets the previous one */
  ck_assert_int_eq(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 0, NULL),
                   CL_INVALID_VALUE);
  clReleaseKernel(c);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
END_TEST

START_TEST(test_arg_info) {
  cl_program p = source_program(good_src);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-cl-kernel-arg-info", NULL, NULL), CL_SUCCESS);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "args", &err);
  char s[64];
  ck_assert_int_eq(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof s, s, NULL), CL_SUCCESS);
  ck_assert_str_eq(s, "a");
  ck_assert_int_eq(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof s, s, NULL),
                   CL_SUCCESS);
  ck_assert_str_eq(s, "float*");
  ck_assert_int_eq(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_NAME, sizeof s, s, NULL),
                   CL_SUCCESS);
  ck_assert_str_eq(s, "float4");
  cl_kernel_arg_address_qualifier aq;
  cl_kernel_arg_address_qualifier want[] = {
      CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_ADDRESS_LOCAL,
      CL_KERNEL_ARG_ADDRESS_PRIVATE};
  for (cl_uint i = 0; i < 4; i++) {
    ck_assert_int_eq(
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL),
        CL_SUCCESS);
    ck_assert_uint_eq(aq, want[i]);
  }
  cl_kernel_arg_type_qualifier tq;
  ck_assert_int_eq(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(tq, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT);
  ck_assert_int_eq(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(tq & CL_KERNEL_ARG_TYPE_CONST, CL_KERNEL_ARG_TYPE_CONST);
  cl_kernel_arg_access_qualifier acc;
  ck_assert_int_eq(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(acc, CL_KERNEL_ARG_ACCESS_NONE);
  ck_assert_int_eq(clGetKernelArgInfo(k, 9, CL_KERNEL_ARG_NAME, sizeof s, s, NULL),
                   CL_INVALID_ARG_INDEX);
  ck_assert_int_eq(clGetKernelArgInfo(k, 0, 0x1234, sizeof s, s, NULL), CL_INVALID_VALUE);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
END_TEST

START_TEST(test_work_group_info_and_launch_checks) {
  cl_program p = built();
  cl_int err;
  cl_kernel k = clCreateKernel(p, "fixed", &err);
  size_t s3[3];
  ck_assert_int_eq(
      clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof s3, s3, NULL),
      CL_SUCCESS);
  ck_assert_uint_eq(s3[0], 8);
  ck_assert_uint_eq(s3[1], 1);
  size_t mult, wg;
  ck_assert_int_eq(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                            sizeof mult, &mult, NULL),
                   CL_SUCCESS);
  ck_assert_uint_ge(mult, 4);
  ck_assert_int_eq(
      clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
      CL_SUCCESS);
  ck_assert_uint_ge(wg, mult);
  ck_assert_int_eq(
      clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof s3, s3, NULL),
      CL_INVALID_VALUE);
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024, NULL, &err);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  size_t g = 64, l = 16, l8 = 8, zero = 0, big = 1u << 20;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 0, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_WORK_DIMENSION);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 4, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_WORK_DIMENSION);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL),
                   CL_INVALID_WORK_GROUP_SIZE);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &zero, 0, NULL, NULL),
                   CL_INVALID_WORK_GROUP_SIZE);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &big, 0, NULL, NULL),
                   CL_INVALID_WORK_ITEM_SIZE);
  size_t off = SIZE_MAX - 10;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, &off, &g, &l8, 0, NULL, NULL),
                   CL_INVALID_GLOBAL_OFFSET);
  ck_assert_int_eq(clEnqueueNDRangeKernel(NULL, k, 1, NULL, &g, &l8, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, NULL, 1, NULL, &g, &l8, 0, NULL, NULL),
                   CL_INVALID_KERNEL);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l8, 1, NULL, NULL),
                   CL_INVALID_EVENT_WAIT_LIST);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l8, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &zero, NULL, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueTask(q, k, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  ck_assert_int_eq(clEnqueueNativeKernel(q, NULL, NULL, 0, 0, NULL, NULL, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  ck_assert_int_eq(clFinish(q), CL_SUCCESS);
  /* CL 1.2 builds need uniform work-groups */
  cl_kernel f = clCreateKernel(p, "fill", &err);
  int v = 1;
  clSetKernelArg(f, 0, sizeof m, &m);
  clSetKernelArg(f, 1, sizeof v, &v);
  size_t g10 = 10, l4 = 4;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, f, 1, NULL, &g10, &l4, 0, NULL, NULL),
                   CL_INVALID_WORK_GROUP_SIZE);
  ck_assert_int_eq(clEnqueueTask(q, f, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clFinish(q), CL_SUCCESS);
  clReleaseKernel(f);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("program");
  TCase *tc = tcase_create("program");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_create_with_source_errors);
  tcase_add_test(tc, test_il_builtin_and_unsupported);
  tcase_add_test(tc, test_build_errors_and_options);
  tcase_add_test(tc, test_build_failure_log_names_line);
  tcase_add_test(tc, test_build_callback_and_queries);
  tcase_add_test(tc, test_binary_round_trip);
  tcase_add_test(tc, test_binary_corrupt_and_truncated);
  tcase_add_test(tc, test_driver_version_names_binary_format);
  tcase_add_test(tc, test_compile_and_link);
  tcase_add_test(tc, test_kernel_create_errors);
  tcase_add_test(tc, test_set_kernel_arg_errors);
  tcase_add_test(tc, test_arg_info);
  tcase_add_test(tc, test_work_group_info_and_launch_checks);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
