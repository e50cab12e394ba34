/*
 * test_claims.c - what the device claims, seen three ways that must agree:
 * clGetDeviceInfo, the macros kernels see (built for OpenCL C 1.2 and 3.0),
 * and the README. A kernel reports which of every extension and feature
 * macro the OpenCL C headers know is defined; each must be defined exactly
 * when the device lists it.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/check_util.h"

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;

static void setup(void) {
  cu_cl_setup(&dev, &ctx, &q);
}

static void teardown(void) {
  cu_cl_teardown(q, ctx);
}

/* Every extension and feature macro a kernel might test: the Khronos
 * language extensions, clang's SPIR extras and the OpenCL C 3.0 features. */
static const char *const names[] = {
    "cl_khr_fp16",
    "cl_khr_fp64",
    "cl_khr_3d_image_writes",
    "cl_khr_image2d_from_buffer",
    "cl_khr_image2d_from_image",
    "cl_khr_depth_images",
    "cl_khr_gl_msaa_sharing",
    "cl_khr_mipmap_image",
    "cl_khr_mipmap_image_writes",
    "cl_khr_srgb_image_writes",
    "cl_khr_subgroups",
    "cl_khr_byte_addressable_store",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_icd",
    "cl_khr_priority_hints",
    "cl_khr_spir",
    "cl_khr_il_program",
    "cl_khr_gl_sharing",
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_rotate",
    "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product",
    "cl_khr_kernel_clock",
    "cl_ext_float_atomics",
    "cl_intel_subgroups",
    "cl_intel_subgroups_short",
    "cl_intel_required_subgroup_size",
    "cl_amd_media_ops",
    "cl_amd_media_ops2",
    "cl_khr_gl_event",
    "cl_khr_d3d10_sharing",
    "cl_khr_extended_async_copies",
    "cl_khr_expect_assume",
    "cl_khr_suggested_local_work_size",
    "cl_khr_work_group_uniform_arithmetic",
    "cl_clang_storage_class_specifiers",
    "__cl_clang_function_pointers",
    "__cl_clang_variadic_functions",
    "__opencl_c_3d_image_writes",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_device_enqueue",
    "__opencl_c_generic_address_space",
    "__opencl_c_fp64",
    "__opencl_c_images",
    "__opencl_c_int64",
    "__opencl_c_pipes",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_read_write_images",
    "__opencl_c_subgroups",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_kernel_clock_scope_device",
    "__opencl_c_kernel_clock_scope_work_group",
    "__opencl_c_kernel_clock_scope_sub_group",
    "__opencl_c_ext_fp16_global_atomic_load_store",
    "__opencl_c_ext_fp16_local_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_add",
    "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_ext_fp64_global_atomic_add",
    "__opencl_c_ext_fp64_local_atomic_min_max",
    "__opencl_c_ext_image_raw10_raw12",
    "__IMAGE_SUPPORT__",
};
#define NNAMES (sizeof names / sizeof names[0])

static size_t list_info(cl_device_info what, cl_name_version *l, size_t max) {
  size_t n = 0;
  ck_assert_int_eq(clGetDeviceInfo(dev, what, max * sizeof *l, l, &n), CL_SUCCESS);
  return n / sizeof *l;
}

static int in_list(const char *name, cl_device_info what) {
  cl_name_version l[64];
  size_t n = list_info(what, l, 64);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(l[i].name, name)) return 1;
  return 0;
}

static cl_bool bool_info(cl_device_info what) {
  cl_bool b;
  ck_assert_int_eq(clGetDeviceInfo(dev, what, sizeof b, &b, NULL), CL_SUCCESS);
  return b;
}

/* Builds the probe with options; out[i] is 1 when names[i] is defined, and
 * the last two slots hold __OPENCL_VERSION__ and __OPENCL_C_VERSION__. */
static void probe(const char *options, int *out) {
  size_t cap = 256 + NNAMES * 160, o = 0;
  char *src = malloc(cap);
  o += (size_t)snprintf(src + o, cap - o, "kernel void k(global int *o) {\n");
  for (size_t i = 0; i < NNAMES; i++)
    o += (size_t)snprintf(src + o, cap - o, "#ifdef %s\n  o[%zu] = 1;\n#endif\n", names[i], i);
  snprintf(src + o, cap - o,
           "  o[%zu] = __OPENCL_VERSION__;\n  o[%zu] = __OPENCL_C_VERSION__;\n}\n", NNAMES,
           NNAMES + 1);
  cl_int err;
  const char *s = src;
  cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, options, NULL, NULL), CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "k", &err);
  size_t bytes = (NNAMES + 2) * sizeof(int);
  memset(out, 0, bytes);
  cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, bytes, out, &err);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  size_t g = 1;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, out, 0, NULL, NULL), CL_SUCCESS);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  free(src);
}

START_TEST(test_kernel_macros_match_the_device) {
  char exts[4096];
  ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof exts, exts, NULL), CL_SUCCESS);
  const char *opts[] = {"", "-cl-std=CL1.2", "-cl-std=CL3.0"};
  const int c_version[] = {120, 120, 300};
  int out[NNAMES + 2];
  for (int v = 0; v < 3; v++) {
    probe(opts[v], out);
    ck_assert_int_eq(out[NNAMES], 300);
    ck_assert_int_eq(out[NNAMES + 1], c_version[v]);
    for (size_t i = 0; i < NNAMES; i++) {
      int want;
      if (!strcmp(names[i], "__IMAGE_SUPPORT__"))
        want = bool_info(CL_DEVICE_IMAGE_SUPPORT);
      else if (!strncmp(names[i], "__opencl_c_", 11))
        /* features are OpenCL C 3.0's */
        want = c_version[v] >= 300 && in_list(names[i], CL_DEVICE_OPENCL_C_FEATURES);
      else
        want = in_list(names[i], CL_DEVICE_EXTENSIONS_WITH_VERSION);
      if (!strncmp(names[i], "__opencl_c_", 11) && c_version[v] < 300 && out[i])
        want = in_list(names[i], CL_DEVICE_OPENCL_C_FEATURES); /* allowed, if claimed */
      ck_assert_msg(out[i] == want, "%s: %s is %sdefined", opts[v], names[i], out[i] ? "" : "not ");
    }
  }
  /* and every claimed extension and feature is one of the names probed */
  cl_name_version l[64];
  cl_device_info lists[] = {CL_DEVICE_EXTENSIONS_WITH_VERSION, CL_DEVICE_OPENCL_C_FEATURES};
  for (int w = 0; w < 2; w++) {
    size_t n = list_info(lists[w], l, 64);
    for (size_t i = 0; i < n; i++) {
      int known = 0;
      for (size_t j = 0; j < NNAMES; j++)
        known |= !strcmp(names[j], l[i].name);
      ck_assert_msg(known, "%s is claimed but not probed", l[i].name);
    }
  }
}
END_TEST

/* OpenCL C 2.0 requires these; a device without all of them must not list
 * 2.0 and must refuse -cl-std=CL2.0. */
static const char *const c20_needs[] = {
    "__opencl_c_pipes",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_images",
    "__opencl_c_generic_address_space",
    "__opencl_c_device_enqueue",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_read_write_images",
    "__opencl_c_3d_image_writes",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
};

START_TEST(test_versions_and_support_flags_follow_the_features) {
  char buf[256];
  ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_VERSION, sizeof buf, buf, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(strncmp(buf, "OpenCL C 1.2 ", 13), 0);
  cl_name_version l[16];
  size_t n = list_info(CL_DEVICE_OPENCL_C_ALL_VERSIONS, l, 16);
  int has20 = 0, has30 = 0, has12 = 0;
  for (size_t i = 0; i < n; i++) {
    ck_assert_str_eq(l[i].name, "OpenCL C");
    has20 |= l[i].version == CL_MAKE_VERSION(2, 0, 0);
    has30 |= l[i].version == CL_MAKE_VERSION(3, 0, 0);
    has12 |= l[i].version == CL_MAKE_VERSION(1, 2, 0);
  }
  ck_assert(has12 && has30);
  int all20 = 1;
  for (size_t i = 0; i < sizeof c20_needs / sizeof c20_needs[0]; i++)
    all20 &= in_list(c20_needs[i], CL_DEVICE_OPENCL_C_FEATURES);
  ck_assert_int_eq(has20, all20);
  const char *src = "kernel void k(global int *o) { o[0] = 1; }";
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-cl-std=CL2.0", NULL, NULL),
                   has20 ? CL_SUCCESS : CL_INVALID_BUILD_OPTIONS);
  char log[1024];
  ck_assert_int_eq(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                   CL_SUCCESS);
  if (!has20) ck_assert_ptr_nonnull(strstr(log, "OpenCL C 2.0"));
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-cl-std=CL3.0", NULL, NULL), CL_SUCCESS);
  clReleaseProgram(p);
  /* each support flag is its feature's */
  ck_assert_int_eq(bool_info(CL_DEVICE_IMAGE_SUPPORT),
                   in_list("__opencl_c_images", CL_DEVICE_OPENCL_C_FEATURES));
  ck_assert_int_eq(bool_info(CL_DEVICE_PIPE_SUPPORT),
                   in_list("__opencl_c_pipes", CL_DEVICE_OPENCL_C_FEATURES));
  ck_assert_int_eq(bool_info(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT),
                   in_list("__opencl_c_generic_address_space", CL_DEVICE_OPENCL_C_FEATURES));
  ck_assert_int_eq(
      bool_info(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT),
      in_list("__opencl_c_work_group_collective_functions", CL_DEVICE_OPENCL_C_FEATURES));
  cl_device_device_enqueue_capabilities dq;
  ck_assert_int_eq(
      clGetDeviceInfo(dev, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof dq, &dq, NULL),
      CL_SUCCESS);
  ck_assert_int_eq(dq != 0, in_list("__opencl_c_device_enqueue", CL_DEVICE_OPENCL_C_FEATURES));
  cl_uint sg;
  ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof sg, &sg, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(sg != 0, in_list("__opencl_c_subgroups", CL_DEVICE_OPENCL_C_FEATURES));
}
END_TEST

/* The README's claims paragraph names every claimed extension and feature
 * and no other __opencl_c_ or cl_ name in backquotes. */
START_TEST(test_readme_agrees) {
  size_t len;
  char *text = cu_read_file("../../README.md", &len);
  ck_assert_ptr_nonnull(text);
  char *a = strstr(text, "<!-- claims -->"), *b = a ? strstr(a, "<!-- /claims -->") : NULL;
  ck_assert_msg(a && b, "README has no claims paragraph");
  *b = 0;
  cl_name_version l[64];
  cl_device_info lists[] = {CL_DEVICE_EXTENSIONS_WITH_VERSION, CL_DEVICE_OPENCL_C_FEATURES};
  for (int w = 0; w < 2; w++) {
    size_t n = list_info(lists[w], l, 64);
    for (size_t i = 0; i < n; i++) {
      char quoted[80];
      snprintf(quoted, sizeof quoted, "`%s`", l[i].name);
      ck_assert_msg(strstr(a, quoted), "README does not list %s", l[i].name);
    }
  }
  for (char *s = strchr(a, '`'); s; s = strchr(s, '`')) {
    char *e = strchr(s + 1, '`');
    if (!e) break;
    *e = 0;
    if (!strncmp(s + 1, "__opencl_c_", 11) || !strncmp(s + 1, "cl_", 3))
      ck_assert_msg(in_list(s + 1, CL_DEVICE_OPENCL_C_FEATURES) ||
                        in_list(s + 1, CL_DEVICE_EXTENSIONS_WITH_VERSION),
                    "README claims %s, the device does not", s + 1);
    s = e + 1;
  }
  free(text);
}
END_TEST

int main(void) {
  Suite *s = suite_create("claims");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_kernel_macros_match_the_device);
  tcase_add_test(tc, test_versions_and_support_flags_follow_the_features);
  tcase_add_test(tc, test_readme_agrees);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
