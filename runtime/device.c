/*
 * device.c - the one Lockstep device as the API sees it: clGetDeviceIDs,
 * clGetDeviceInfo (every OpenCL 3.0 query, answered from the one device
 * configuration), sub-devices, retain/release and the timers. It creates the
 * simulator on first use through the device ops table and must not reach
 * into the simulator otherwise.
 */
#include <string.h>
#include <time.h>

#include "compiler/cc.h"
#include "device/claims.h"
#include "device/pipe.h"
#include "runtime/rt.h"

static struct _cl_device_id device;
static struct dev_config config;
static pthread_once_t device_once = PTHREAD_ONCE_INIT;

static const struct dev_ops *dev_ops_in_use = &dev_simt_ops;
static struct dev_device *dev_instance;
static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;

static void device_init(void) {
  dev_config_load(&config);
  rt_object_init(&device.obj, RT_TAG_DEVICE);
  device.platform = rt_platform();
}

cl_device_id rt_device(void) {
  pthread_once(&device_once, device_init);
  return &device;
}

const struct dev_config *rt_config(void) {
  pthread_once(&device_once, device_init);
  return &config;
}

void rt_set_dev_ops(const struct dev_ops *ops) {
  pthread_mutex_lock(&dev_lock);
  if (!dev_instance) dev_ops_in_use = ops;
  pthread_mutex_unlock(&dev_lock);
}

const struct dev_ops *rt_dev_ops(void) {
  return dev_ops_in_use;
}

bool rt_device_enqueue(void) {
  return dev_ops_in_use->dq_create != NULL;
}

struct dev_device *rt_dev(void) {
  const struct dev_config *cfg = rt_config();
  pthread_mutex_lock(&dev_lock);
  if (!dev_instance) {
    dev_instance = dev_ops_in_use->create(cfg);
    device.dev = dev_instance;
  }
  struct dev_device *d = dev_instance;
  pthread_mutex_unlock(&dev_lock);
  return d;
}

static uint64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- clGetDeviceIDs ---- */

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                               cl_uint num_entries, cl_device_id *devices,
                                               cl_uint *num_devices) {
  if (platform == NULL) platform = rt_platform();
  if (!rt_valid(platform, RT_TAG_PLATFORM)) return CL_INVALID_PLATFORM;
  const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                               CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  if (device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || (device_type & ~known)))
    return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;
  bool match = device_type == CL_DEVICE_TYPE_ALL ||
               (device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT));
  if (!match) {
    if (num_devices) *num_devices = 0;
    return CL_DEVICE_NOT_FOUND;
  }
  if (devices) devices[0] = rt_device();
  if (num_devices) *num_devices = 1;
  return CL_SUCCESS;
}

/* ---- clGetDeviceInfo ---- */

#define RET(type, v)                                                                               \
  do {                                                                                             \
    type x_ = (v);                                                                                 \
    return rt_info(sz, pv, ret, &x_, sizeof x_);                                                   \
  } while (0)
#define RET_STR(s)   return rt_info_str(sz, pv, ret, (s))
#define RET_ARRAY(a) return rt_info(sz, pv, ret, (a), sizeof(a))
#define RET_NONE()   return rt_info(sz, pv, ret, NULL, 0)

static cl_int claims_info(enum dev_claim_list which, size_t sz, void *pv, size_t *ret) {
  const cl_name_version *list;
  size_t n = dev_claims(which, &list);
  return rt_info(sz, pv, ret, list, n * sizeof *list);
}

/* Device-side enqueue: claimed, and the device (not a test's stub) has it. */
static bool device_enqueue(void) {
  return dev_claimed("__opencl_c_device_enqueue") && rt_device_enqueue();
}

static bool images(void) {
  return dev_claimed("__opencl_c_images");
}

/* Program-scope global variables: the largest one the device promises, and
 * the total it prefers (the compiler accepts far more). */
#define MAX_GLOBAL_VARIABLE_SIZE      (64u << 10)
#define GLOBAL_VARIABLE_PREFERRED_SUM (1u << 20)

static cl_int device_info(const struct dev_config *c, cl_device_info param, size_t sz, void *pv,
                          size_t *ret) {
  switch (param) {
  case CL_DEVICE_TYPE: RET(cl_device_type, CL_DEVICE_TYPE_GPU);
  case CL_DEVICE_VENDOR_ID: RET(cl_uint, 0x4c53); /* "LS": not a PCI device */
  case CL_DEVICE_MAX_COMPUTE_UNITS: RET(cl_uint, c->compute_units);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: RET(cl_uint, 3);
  case CL_DEVICE_MAX_WORK_GROUP_SIZE: RET(size_t, c->max_wg_size);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t s[3] = {c->max_wg_size, c->max_wg_size, c->max_wg_size < 64 ? c->max_wg_size : 64};
    RET_ARRAY(s);
  }
  /* A scalar SIMT machine: one element per lane is what it prefers. */
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: RET(cl_uint, 1);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: RET(cl_uint, 0); /* no cl_khr_fp16 */
  case CL_DEVICE_MAX_CLOCK_FREQUENCY: RET(cl_uint, c->clock_mhz);
  case CL_DEVICE_ADDRESS_BITS: RET(cl_uint, 64);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE: RET(cl_ulong, c->max_alloc_size);
  /* Images: the limits of the one configuration (all 0 without images). */
  case CL_DEVICE_IMAGE_SUPPORT: RET(cl_bool, dev_claimed("__opencl_c_images"));
  case CL_DEVICE_MAX_READ_IMAGE_ARGS: RET(cl_uint, images() ? c->max_read_images : 0);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: RET(cl_uint, images() ? c->max_write_images : 0);
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    RET(cl_uint, dev_claimed("__opencl_c_read_write_images") ? c->max_rw_images : 0);
  case CL_DEVICE_MAX_SAMPLERS: RET(cl_uint, images() ? c->max_samplers : 0);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: RET(cl_uint, images() ? c->image_pitch_align : 0);
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: RET(cl_uint, images() ? c->image_base_align : 0);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT: RET(size_t, images() ? c->image2d_max : 0);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH: RET(size_t, images() ? c->image3d_max : 0);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: RET(size_t, images() ? c->image_buffer_max : 0);
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: RET(size_t, images() ? c->image_array_max : 0);
  case CL_DEVICE_MAX_PARAMETER_SIZE: RET(size_t, 1024);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN: RET(cl_uint, 1024); /* bits: 128 bytes */
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: RET(cl_uint, 128);
  case CL_DEVICE_SINGLE_FP_CONFIG:
    RET(cl_device_fp_config, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA);
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    RET(cl_device_fp_config, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                 CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA);
  case CL_DEVICE_HALF_FP_CONFIG: RET(cl_device_fp_config, 0);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: RET(cl_device_mem_cache_type, CL_NONE);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: RET(cl_uint, 0);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: RET(cl_ulong, 0);
  case CL_DEVICE_GLOBAL_MEM_SIZE: RET(cl_ulong, c->global_mem_size);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: RET(cl_ulong, c->constant_buf_size);
  case CL_DEVICE_MAX_CONSTANT_ARGS: RET(cl_uint, 8);
  case CL_DEVICE_LOCAL_MEM_TYPE: RET(cl_device_local_mem_type, CL_LOCAL);
  case CL_DEVICE_LOCAL_MEM_SIZE: RET(cl_ulong, c->local_mem_size);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT: RET(cl_bool, CL_FALSE);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION: RET(size_t, 1);
  case CL_DEVICE_ENDIAN_LITTLE: RET(cl_bool, CL_TRUE);
  case CL_DEVICE_AVAILABLE: RET(cl_bool, CL_TRUE);
  case CL_DEVICE_COMPILER_AVAILABLE: RET(cl_bool, CL_TRUE);
  case CL_DEVICE_LINKER_AVAILABLE: RET(cl_bool, CL_TRUE);
  case CL_DEVICE_EXECUTION_CAPABILITIES: RET(cl_device_exec_capabilities, CL_EXEC_KERNEL);
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
    RET(cl_command_queue_properties,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  /* On-device queues (device-side enqueue), when the device has them:
   * sizes in bytes; a queue takes about 1 KiB per child launch in flight. */
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    RET(cl_command_queue_properties,
        device_enqueue() ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE : 0);
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE: RET(cl_uint, device_enqueue() ? 1024u * 1024u : 0);
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: RET(cl_uint, device_enqueue() ? 8u * 1024u * 1024u : 0);
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES: RET(cl_uint, device_enqueue() ? 4 : 0);
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS: RET(cl_uint, device_enqueue() ? 1024 : 0);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    RET(cl_device_device_enqueue_capabilities,
        device_enqueue() ? CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT : 0);
  case CL_DEVICE_NAME: RET_STR("Lockstep SIMT GPU");
  case CL_DEVICE_VENDOR: RET_STR("Lockstep");
  case CL_DRIVER_VERSION: RET_STR(cc_driver_version());
  case CL_DEVICE_PROFILE: RET_STR("FULL_PROFILE");
  case CL_DEVICE_VERSION: RET_STR("OpenCL 3.0 Lockstep " LOCKSTEP_VERSION);
  case CL_DEVICE_NUMERIC_VERSION: RET(cl_version, CL_MAKE_VERSION(3, 0, 0));
  case CL_DEVICE_OPENCL_C_VERSION: RET_STR(DEV_OPENCL_C_VERSION);
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS: return claims_info(DEV_CLAIM_C_VERSIONS, sz, pv, ret);
  case CL_DEVICE_OPENCL_C_FEATURES: return claims_info(DEV_CLAIM_FEATURES, sz, pv, ret);
  case CL_DEVICE_EXTENSIONS: RET_STR(rt_extensions_string());
  case CL_DEVICE_EXTENSIONS_WITH_VERSION: return claims_info(DEV_CLAIM_EXTENSIONS, sz, pv, ret);
  case CL_DEVICE_PLATFORM: RET(cl_platform_id, rt_platform());
  case CL_DEVICE_HOST_UNIFIED_MEMORY: RET(cl_bool, CL_FALSE);
  case CL_DEVICE_BUILT_IN_KERNELS: RET_STR("");
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: RET_NONE();
  case CL_DEVICE_IL_VERSION: RET_STR("");
  case CL_DEVICE_ILS_WITH_VERSION: RET_NONE();
  case CL_DEVICE_PARENT_DEVICE: RET(cl_device_id, NULL);
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: RET(cl_uint, 0);
  case CL_DEVICE_PARTITION_PROPERTIES: RET(cl_device_partition_property, 0);
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: RET(cl_device_affinity_domain, 0);
  case CL_DEVICE_PARTITION_TYPE: RET_NONE();
  case CL_DEVICE_REFERENCE_COUNT: RET(cl_uint, 1);
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: RET(cl_bool, CL_TRUE);
  case CL_DEVICE_PRINTF_BUFFER_SIZE: RET(size_t, 1u << 20);
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: RET(size_t, MAX_GLOBAL_VARIABLE_SIZE);
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: RET(size_t, GLOBAL_VARIABLE_PREFERRED_SUM);
  case CL_DEVICE_SVM_CAPABILITIES: /* only a device that allocates SVM (not a test's stub) */
    RET(cl_device_svm_capabilities, rt_dev_ops()->svm_alloc ? dev_claims_svm() : 0);
  /* pipes (device/pipe.h); 0 when the device does not claim them */
  case CL_DEVICE_MAX_PIPE_ARGS: RET(cl_uint, dev_claimed("__opencl_c_pipes") ? PIPE_MAX_ARGS : 0);
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    RET(cl_uint, dev_claimed("__opencl_c_pipes") ? PIPE_MAX_RESERVATIONS : 0);
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    RET(cl_uint, dev_claimed("__opencl_c_pipes") ? PIPE_MAX_PACKET_SIZE : 0);
  case CL_DEVICE_PIPE_SUPPORT: RET(cl_bool, dev_claimed("__opencl_c_pipes"));
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    RET(cl_uint, 0); /* natural alignment */
  /* A sub-group is a warp; warps of a work-group are scheduled in time
   * slices, so one spinning on another's store still lets it run. */
  case CL_DEVICE_MAX_NUM_SUB_GROUPS:
    RET(cl_uint, dev_claimed("__opencl_c_subgroups")
                     ? (c->max_wg_size + c->warp_width - 1) / c->warp_width
                     : 0);
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: RET(cl_bool, CL_TRUE);
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    RET(cl_device_atomic_capabilities,
        CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
            CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
            CL_DEVICE_ATOMIC_SCOPE_DEVICE |
            (dev_claimed("__opencl_c_atomic_scope_all_devices") ? CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES
                                                                : 0));
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: RET(cl_bool, CL_TRUE);
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    RET(cl_bool, dev_claimed("__opencl_c_work_group_collective_functions"));
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    RET(cl_bool, dev_claimed("__opencl_c_generic_address_space"));
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: RET(size_t, c->warp_width);
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: RET_STR("v0000-01-01-00");
  default: return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id d, cl_device_info param_name,
                                                size_t param_value_size, void *param_value,
                                                size_t *param_value_size_ret) {
  if (!rt_valid(d, RT_TAG_DEVICE)) return CL_INVALID_DEVICE;
  return device_info(rt_config(), param_name, param_value_size, param_value, param_value_size_ret);
}

/* ---- sub-devices: the device cannot be partitioned ---- */

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                                   const cl_device_partition_property *properties,
                                                   cl_uint num_devices, cl_device_id *out_devices,
                                                   cl_uint *num_devices_ret) {
  if (!rt_valid(in_device, RT_TAG_DEVICE)) return CL_INVALID_DEVICE;
  /* CL_DEVICE_PARTITION_PROPERTIES reports no scheme, so every request
   * names a scheme the device does not support. */
  return CL_INVALID_VALUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clCreateSubDevicesEXT(cl_device_id in_device, const cl_device_partition_property_ext *properties,
                      cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices) {
  if (!rt_valid(in_device, RT_TAG_DEVICE)) return CL_INVALID_DEVICE;
  /* cl_ext_device_fission is not claimed. */
  return CL_INVALID_OPERATION;
}

/* The root device is not reference counted (its count stays 1). */
CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id d) {
  return rt_valid(d, RT_TAG_DEVICE) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id d) {
  return rt_valid(d, RT_TAG_DEVICE) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDeviceEXT(cl_device_id d) {
  return rt_valid(d, RT_TAG_DEVICE) ? CL_INVALID_OPERATION : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDeviceEXT(cl_device_id d) {
  return rt_valid(d, RT_TAG_DEVICE) ? CL_INVALID_OPERATION : CL_INVALID_DEVICE;
}

/* ---- timers: the device clock is the host's CLOCK_MONOTONIC ---- */

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id d, cl_ulong *device_timestamp,
                                                        cl_ulong *host_timestamp) {
  if (!rt_valid(d, RT_TAG_DEVICE)) return CL_INVALID_DEVICE;
  if (!device_timestamp || !host_timestamp) return CL_INVALID_VALUE;
  uint64_t t = monotonic_ns();
  *device_timestamp = t;
  *host_timestamp = t;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id d, cl_ulong *host_timestamp) {
  if (!rt_valid(d, RT_TAG_DEVICE)) return CL_INVALID_DEVICE;
  if (!host_timestamp) return CL_INVALID_VALUE;
  *host_timestamp = monotonic_ns();
  return CL_SUCCESS;
}
