/*
 * test_device.c - clGetDeviceIDs, clGetDeviceInfo (every OpenCL 3.0 query,
 * their sizes, their consistency and their error paths), sub-devices,
 * retain/release and the timers.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/rt.h"
#include "util/check_util.h"

static const cl_device_info all_params[] = {
    CL_DEVICE_TYPE,
    CL_DEVICE_VENDOR_ID,
    CL_DEVICE_MAX_COMPUTE_UNITS,
    CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
    CL_DEVICE_MAX_WORK_GROUP_SIZE,
    CL_DEVICE_MAX_WORK_ITEM_SIZES,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_MAX_CLOCK_FREQUENCY,
    CL_DEVICE_ADDRESS_BITS,
    CL_DEVICE_MAX_READ_IMAGE_ARGS,
    CL_DEVICE_MAX_WRITE_IMAGE_ARGS,
    CL_DEVICE_MAX_MEM_ALLOC_SIZE,
    CL_DEVICE_IMAGE2D_MAX_WIDTH,
    CL_DEVICE_IMAGE2D_MAX_HEIGHT,
    CL_DEVICE_IMAGE3D_MAX_WIDTH,
    CL_DEVICE_IMAGE3D_MAX_HEIGHT,
    CL_DEVICE_IMAGE3D_MAX_DEPTH,
    CL_DEVICE_IMAGE_SUPPORT,
    CL_DEVICE_MAX_PARAMETER_SIZE,
    CL_DEVICE_MAX_SAMPLERS,
    CL_DEVICE_MEM_BASE_ADDR_ALIGN,
    CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE,
    CL_DEVICE_SINGLE_FP_CONFIG,
    CL_DEVICE_GLOBAL_MEM_CACHE_TYPE,
    CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE,
    CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
    CL_DEVICE_GLOBAL_MEM_SIZE,
    CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
    CL_DEVICE_MAX_CONSTANT_ARGS,
    CL_DEVICE_LOCAL_MEM_TYPE,
    CL_DEVICE_LOCAL_MEM_SIZE,
    CL_DEVICE_ERROR_CORRECTION_SUPPORT,
    CL_DEVICE_PROFILING_TIMER_RESOLUTION,
    CL_DEVICE_ENDIAN_LITTLE,
    CL_DEVICE_AVAILABLE,
    CL_DEVICE_COMPILER_AVAILABLE,
    CL_DEVICE_EXECUTION_CAPABILITIES,
    CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
    CL_DEVICE_NAME,
    CL_DEVICE_VENDOR,
    CL_DEVICE_PROFILE,
    CL_DEVICE_VERSION,
    CL_DEVICE_EXTENSIONS,
    CL_DEVICE_PLATFORM,
    CL_DEVICE_DOUBLE_FP_CONFIG,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
    CL_DEVICE_HOST_UNIFIED_MEMORY,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
    CL_DEVICE_OPENCL_C_VERSION,
    CL_DEVICE_LINKER_AVAILABLE,
    CL_DEVICE_BUILT_IN_KERNELS,
    CL_DEVICE_IMAGE_MAX_BUFFER_SIZE,
    CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
    CL_DEVICE_PARENT_DEVICE,
    CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
    CL_DEVICE_PARTITION_PROPERTIES,
    CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
    CL_DEVICE_PARTITION_TYPE,
    CL_DEVICE_REFERENCE_COUNT,
    CL_DEVICE_PREFERRED_INTEROP_USER_SYNC,
    CL_DEVICE_PRINTF_BUFFER_SIZE,
    CL_DEVICE_IMAGE_PITCH_ALIGNMENT,
    CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT,
    CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS,
    CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
    CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES,
    CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE,
    CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
    CL_DEVICE_MAX_ON_DEVICE_QUEUES,
    CL_DEVICE_MAX_ON_DEVICE_EVENTS,
    CL_DEVICE_SVM_CAPABILITIES,
    CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
    CL_DEVICE_MAX_PIPE_ARGS,
    CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
    CL_DEVICE_PIPE_MAX_PACKET_SIZE,
    CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT,
    CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT,
    CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT,
    CL_DEVICE_IL_VERSION,
    CL_DEVICE_MAX_NUM_SUB_GROUPS,
    CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
    CL_DEVICE_NUMERIC_VERSION,
    CL_DEVICE_EXTENSIONS_WITH_VERSION,
    CL_DEVICE_ILS_WITH_VERSION,
    CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION,
    CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
    CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
    CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
    CL_DEVICE_OPENCL_C_ALL_VERSIONS,
    CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
    CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
    CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
    CL_DEVICE_OPENCL_C_FEATURES,
    CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
    CL_DEVICE_PIPE_SUPPORT,
    CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
    CL_DRIVER_VERSION,
    CL_DEVICE_HALF_FP_CONFIG,
};
#define NPARAMS (sizeof all_params / sizeof all_params[0])

static cl_device_id dev(void) {
  cl_device_id d = NULL;
  ck_assert_int_eq(clGetDeviceIDs(NULL, CL_DEVICE_TYPE_GPU, 1, &d, NULL), CL_SUCCESS);
  ck_assert_ptr_nonnull(d);
  return d;
}

static cl_ulong ulong_info(cl_device_info p) {
  cl_ulong v = 0;
  ck_assert_int_eq(clGetDeviceInfo(dev(), p, sizeof v, &v, NULL), CL_SUCCESS);
  return v;
}

static cl_uint uint_info(cl_device_info p) {
  cl_uint v = 0;
  ck_assert_int_eq(clGetDeviceInfo(dev(), p, sizeof v, &v, NULL), CL_SUCCESS);
  return v;
}

static size_t size_info(cl_device_info p) {
  size_t v = 0;
  ck_assert_int_eq(clGetDeviceInfo(dev(), p, sizeof v, &v, NULL), CL_SUCCESS);
  return v;
}

START_TEST(device_ids_by_type) {
  cl_platform_id p;
  cl_uint n = 99;
  cl_device_id d = NULL;
  ck_assert_int_eq(clGetPlatformIDs(1, &p, NULL), CL_SUCCESS);
  const cl_device_type found[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL,
                                  CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU};
  for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
    ck_assert_int_eq(clGetDeviceIDs(p, found[i], 1, &d, &n), CL_SUCCESS);
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_nonnull(d);
  }
  const cl_device_type missing[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_ACCELERATOR,
                                    CL_DEVICE_TYPE_CUSTOM};
  for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
    n = 99;
    ck_assert_int_eq(clGetDeviceIDs(p, missing[i], 1, &d, &n), CL_DEVICE_NOT_FOUND);
    ck_assert_uint_eq(n, 0);
  }
}
END_TEST

START_TEST(device_ids_errors) {
  cl_device_id d;
  cl_uint n;
  int junk[8] = {0};
  ck_assert_int_eq(clGetDeviceIDs((cl_platform_id)junk, CL_DEVICE_TYPE_ALL, 1, &d, &n),
                   CL_INVALID_PLATFORM);
  ck_assert_int_eq(clGetDeviceIDs(NULL, 0, 1, &d, &n), CL_INVALID_DEVICE_TYPE);
  ck_assert_int_eq(clGetDeviceIDs(NULL, (cl_device_type)1 << 40, 1, &d, &n),
                   CL_INVALID_DEVICE_TYPE);
  ck_assert_int_eq(clGetDeviceIDs(NULL, CL_DEVICE_TYPE_ALL, 0, &d, &n), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetDeviceIDs(NULL, CL_DEVICE_TYPE_ALL, 1, NULL, NULL), CL_INVALID_VALUE);
}
END_TEST

START_TEST(every_param_answers_with_its_size) {
  for (size_t i = 0; i < NPARAMS; i++) {
    size_t size = 0;
    ck_assert_msg(clGetDeviceInfo(dev(), all_params[i], 0, NULL, &size) == CL_SUCCESS,
                  "param 0x%x not answered", (unsigned)all_params[i]);
    void *buf = malloc(size + 1);
    size_t size2 = 0;
    ck_assert_int_eq(clGetDeviceInfo(dev(), all_params[i], size, size ? buf : NULL, &size2),
                     CL_SUCCESS);
    ck_assert_uint_eq(size, size2);
    if (size > 0)
      ck_assert_msg(clGetDeviceInfo(dev(), all_params[i], size - 1, buf, NULL) == CL_INVALID_VALUE,
                    "param 0x%x accepted a short buffer", (unsigned)all_params[i]);
    free(buf);
  }
}
END_TEST

START_TEST(info_errors) {
  cl_uint v;
  int junk[4] = {0};
  ck_assert_int_eq(clGetDeviceInfo(NULL, CL_DEVICE_TYPE, sizeof v, &v, NULL), CL_INVALID_DEVICE);
  ck_assert_int_eq(clGetDeviceInfo((cl_device_id)junk, CL_DEVICE_TYPE, sizeof v, &v, NULL),
                   CL_INVALID_DEVICE);
  ck_assert_int_eq(clGetDeviceInfo(dev(), 0x7fff, sizeof v, &v, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetDeviceInfo(dev(), CL_DEVICE_TYPE, 1, &v, NULL), CL_INVALID_VALUE);
}
END_TEST

START_TEST(values_are_consistent) {
  const struct dev_config *c = rt_config();
  cl_device_type t;
  ck_assert_int_eq(clGetDeviceInfo(dev(), CL_DEVICE_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
  ck_assert_uint_eq(t, CL_DEVICE_TYPE_GPU);
  ck_assert_uint_eq(uint_info(CL_DEVICE_MAX_COMPUTE_UNITS), c->compute_units);
  ck_assert_uint_eq(size_info(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), c->warp_width);
  ck_assert_uint_eq(ulong_info(CL_DEVICE_GLOBAL_MEM_SIZE), c->global_mem_size);
  ck_assert_uint_eq(ulong_info(CL_DEVICE_LOCAL_MEM_SIZE), c->local_mem_size);
  cl_ulong global = ulong_info(CL_DEVICE_GLOBAL_MEM_SIZE);
  cl_ulong max_alloc = ulong_info(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  ck_assert_uint_le(max_alloc, global);
  cl_ulong floor_alloc = global / 4 > (128u << 20) ? global / 4 : (128u << 20);
  ck_assert_uint_ge(max_alloc, floor_alloc < global ? floor_alloc : global);
  ck_assert_uint_ge(ulong_info(CL_DEVICE_LOCAL_MEM_SIZE), 32u << 10);
  size_t wg = size_info(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t sizes[3];
  ck_assert_int_eq(clGetDeviceInfo(dev(), CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL),
                   CL_SUCCESS);
  for (int i = 0; i < 3; i++)
    ck_assert_uint_le(sizes[i], wg);
  ck_assert_uint_ge(wg, c->warp_width);
  /* A small real GPU by default, with the memory a CPU device reports:
   * derived from the host's (tests/device/test_config.c checks how). */
  if (!getenv("LOCKSTEP_GLOBAL_MEM_SIZE") && !getenv("LOCKSTEP_MAX_ALLOC_SIZE")) {
    ck_assert_uint_ge(global, 256u << 20);
    ck_assert_uint_eq(max_alloc, global / 4 > (128u << 20) ? global / 4 : (128u << 20));
    ck_assert_uint_eq(ulong_info(CL_DEVICE_LOCAL_MEM_SIZE), 48u << 10);
    ck_assert_uint_eq(wg, 1024);
  }
  /* Exactly the optional features that work (tests/device runs each one). */
  cl_bool b;
  const cl_device_info on[] = {
      CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,           CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
      CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,  CL_DEVICE_IMAGE_SUPPORT,
      CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, CL_DEVICE_PIPE_SUPPORT};
  for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) {
    b = CL_FALSE;
    ck_assert_int_eq(clGetDeviceInfo(dev(), on[i], sizeof b, &b, NULL), CL_SUCCESS);
    ck_assert_int_eq(b, CL_TRUE);
  }
  ck_assert_uint_eq(uint_info(CL_DEVICE_MAX_NUM_SUB_GROUPS),
                    (wg + c->warp_width - 1) / c->warp_width);
  ck_assert_uint_eq(size_info(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE), 64u << 10);
  ck_assert_uint_eq(size_info(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE), 1u << 20);
  const cl_ulong atomics = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                           CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
                           CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
  ck_assert_uint_eq(ulong_info(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES), atomics);
  ck_assert_uint_eq(ulong_info(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES), atomics);
  static const char *const features[] = {"__opencl_c_int64",
                                         "__opencl_c_fp64",
                                         "__opencl_c_generic_address_space",
                                         "__opencl_c_program_scope_global_variables",
                                         "__opencl_c_subgroups",
                                         "__opencl_c_atomic_order_acq_rel",
                                         "__opencl_c_atomic_order_seq_cst",
                                         "__opencl_c_atomic_scope_device",
                                         "__opencl_c_atomic_scope_all_devices",
                                         "__opencl_c_device_enqueue",
                                         "__opencl_c_images",
                                         "__opencl_c_read_write_images",
                                         "__opencl_c_3d_image_writes",
                                         "__opencl_c_work_group_collective_functions",
                                         "__opencl_c_pipes"};
  cl_name_version fv[32];
  size_t fsize = 0;
  ck_assert_int_eq(clGetDeviceInfo(dev(), CL_DEVICE_OPENCL_C_FEATURES, sizeof fv, fv, &fsize),
                   CL_SUCCESS);
  ck_assert_uint_eq(fsize / sizeof fv[0], sizeof features / sizeof features[0]);
  for (size_t i = 0; i < sizeof features / sizeof features[0]; i++) {
    int seen = 0;
    for (size_t j = 0; j < fsize / sizeof fv[0]; j++)
      seen |= !strcmp(fv[j].name, features[i]) && fv[j].version == CL_MAKE_VERSION(3, 0, 0);
    ck_assert_msg(seen, "%s not claimed", features[i]);
  }
  ck_assert_uint_eq(ulong_info(CL_DEVICE_SVM_CAPABILITIES), CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                                                                CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                                                                CL_DEVICE_SVM_ATOMICS);
  ck_assert_uint_eq(ulong_info(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES),
                    CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT);
  /* Images: at least the OpenCL 3.0 minimums of a device with images. */
  ck_assert_uint_ge(uint_info(CL_DEVICE_MAX_READ_IMAGE_ARGS), 128);
  ck_assert_uint_ge(uint_info(CL_DEVICE_MAX_WRITE_IMAGE_ARGS), 64);
  ck_assert_uint_ge(uint_info(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS), 64);
  ck_assert_uint_ge(uint_info(CL_DEVICE_MAX_SAMPLERS), 16);
  ck_assert_uint_ge(size_info(CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384);
  ck_assert_uint_ge(size_info(CL_DEVICE_IMAGE2D_MAX_HEIGHT), 16384);
  ck_assert_uint_ge(size_info(CL_DEVICE_IMAGE3D_MAX_WIDTH), 2048);
  ck_assert_uint_ge(size_info(CL_DEVICE_IMAGE3D_MAX_HEIGHT), 2048);
  ck_assert_uint_ge(size_info(CL_DEVICE_IMAGE3D_MAX_DEPTH), 2048);
  ck_assert_uint_ge(size_info(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), 65536);
  ck_assert_uint_ge(size_info(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE), 2048);
  /* cl_khr_image2d_from_buffer: both alignments are powers of two */
  cl_uint pa = uint_info(CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  cl_uint ba = uint_info(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT);
  ck_assert_uint_ne(pa, 0);
  ck_assert_uint_eq(pa & (pa - 1), 0);
  ck_assert_uint_ne(ba, 0);
  ck_assert_uint_eq(ba & (ba - 1), 0);
  ck_assert_uint_eq(size_info(CL_DEVICE_IMAGE2D_MAX_WIDTH), c->image2d_max);
  char il[8];
  size_t n;
  ck_assert_int_eq(clGetDeviceInfo(dev(), CL_DEVICE_IL_VERSION, sizeof il, il, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, 1);
}
END_TEST

START_TEST(versions_and_extensions) {
  char buf[4096];
  ck_assert_int_eq(clGetDeviceInfo(dev(), CL_DEVICE_VERSION, sizeof buf, buf, NULL), CL_SUCCESS);
  ck_assert_int_eq(strncmp(buf, "OpenCL 3.0 ", 11), 0);
  ck_assert_int_eq(clGetDeviceInfo(dev(), CL_DEVICE_OPENCL_C_VERSION, sizeof buf, buf, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(strncmp(buf, "OpenCL C 1.2 ", 13), 0);
  ck_assert_uint_eq(uint_info(CL_DEVICE_NUMERIC_VERSION), CL_MAKE_VERSION(3, 0, 0));
  /* The string and the versioned list name the same extensions. */
  ck_assert_int_eq(clGetDeviceInfo(dev(), CL_DEVICE_EXTENSIONS, sizeof buf, buf, NULL), CL_SUCCESS);
  cl_name_version list[64];
  size_t size;
  ck_assert_int_eq(
      clGetDeviceInfo(dev(), CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof list, list, &size),
      CL_SUCCESS);
  size_t n = size / sizeof list[0], words = 0;
  for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
    words++;
    int seen = 0;
    for (size_t i = 0; i < n; i++)
      seen |= strcmp(list[i].name, w) == 0;
    ck_assert_msg(seen, "%s missing from the versioned list", w);
  }
  ck_assert_uint_eq(words, n);
  ck_assert(rt_has_extension("cl_khr_icd"));
  ck_assert(rt_has_extension("cl_khr_subgroups"));
  ck_assert(!rt_has_extension("cl_khr_fp16"));
  cl_name_version cv[8];
  ck_assert_int_eq(clGetDeviceInfo(dev(), CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof cv, cv, &size),
                   CL_SUCCESS);
  ck_assert_uint_ge(size / sizeof cv[0], 3);
  int has30 = 0;
  for (size_t i = 0; i < size / sizeof cv[0]; i++)
    has30 |= cv[i].version == CL_MAKE_VERSION(3, 0, 0);
  ck_assert(has30);
}
END_TEST

START_TEST(sub_devices_and_refcounts) {
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 2, 0};
  cl_device_id out[4];
  cl_uint n;
  ck_assert_int_eq(clCreateSubDevices(dev(), props, 4, out, &n), CL_INVALID_VALUE);
  ck_assert_int_eq(clCreateSubDevices(dev(), NULL, 4, out, &n), CL_INVALID_VALUE);
  ck_assert_int_eq(clCreateSubDevices(NULL, props, 4, out, &n), CL_INVALID_DEVICE);
  ck_assert_uint_eq(uint_info(CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0);
  ck_assert_int_eq(clRetainDevice(dev()), CL_SUCCESS);
  ck_assert_int_eq(clReleaseDevice(dev()), CL_SUCCESS);
  ck_assert_uint_eq(uint_info(CL_DEVICE_REFERENCE_COUNT), 1);
  ck_assert_int_eq(clRetainDevice(NULL), CL_INVALID_DEVICE);
  ck_assert_int_eq(clReleaseDevice(NULL), CL_INVALID_DEVICE);
}
END_TEST

START_TEST(timers_are_real_and_monotonic) {
  cl_ulong d0, h0, d1, h1, h2;
  ck_assert_int_eq(clGetDeviceAndHostTimer(dev(), &d0, &h0), CL_SUCCESS);
  ck_assert_int_eq(clGetHostTimer(dev(), &h1), CL_SUCCESS);
  struct timespec ts = {0, 2000000};
  nanosleep(&ts, NULL);
  ck_assert_int_eq(clGetDeviceAndHostTimer(dev(), &d1, &h2), CL_SUCCESS);
  ck_assert_uint_ge(h1, h0);
  ck_assert_uint_ge(d1 - d0, 2000000);
  ck_assert_uint_ge(h2 - h1, 2000000);
  ck_assert_int_eq(clGetDeviceAndHostTimer(dev(), NULL, &h0), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetHostTimer(dev(), NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetHostTimer(NULL, &h0), CL_INVALID_DEVICE);
}
END_TEST

int main(void) {
  Suite *s = suite_create("device");
  CU_ADD(s, device_ids_by_type);
  CU_ADD(s, device_ids_errors);
  CU_ADD(s, every_param_answers_with_its_size);
  CU_ADD(s, info_errors);
  CU_ADD(s, values_are_consistent);
  CU_ADD(s, versions_and_extensions);
  CU_ADD(s, sub_devices_and_refcounts);
  CU_ADD(s, timers_are_real_and_monotonic);
  return cu_run(s);
}
