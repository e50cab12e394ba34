/*
 * platform.c - the one Lockstep platform: clGetPlatformIDs,
 * clGetPlatformInfo and the extension list the platform and its device share.
 * The platform object is static and lives for the process; it must not own
 * device state (see device.c).
 */
#include <string.h>

#include "debugger/dbg.h"
#include "runtime/rt.h"

static struct _cl_platform_id platform;
static pthread_once_t platform_once = PTHREAD_ONCE_INIT;

static void platform_init(void) {
  rt_object_init(&platform.obj, RT_TAG_PLATFORM);
}

cl_platform_id rt_platform(void) {
  pthread_once(&platform_once, platform_init);
  dbg_remote_active(); /* under `lockstep debug`: connect and take the first commands */
  return &platform;
}

/* Claimed only when they work. Later features add lines here. */
static const cl_name_version extensions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_byte_addressable_store"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp64"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_priority_hints"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroups"},
};
#define NUM_EXTENSIONS (sizeof extensions / sizeof extensions[0])

static char extensions_string[NUM_EXTENSIONS * CL_NAME_VERSION_MAX_NAME_SIZE];
static pthread_once_t extensions_once = PTHREAD_ONCE_INIT;

static void extensions_init(void) {
  char *p = extensions_string;
  for (size_t i = 0; i < NUM_EXTENSIONS; i++) {
    size_t n = strlen(extensions[i].name);
    memcpy(p, extensions[i].name, n);
    p += n;
    *p++ = i + 1 < NUM_EXTENSIONS ? ' ' : '\0';
  }
}

const char *rt_extensions_string(void) {
  pthread_once(&extensions_once, extensions_init);
  return extensions_string;
}

size_t rt_extensions(const cl_name_version **list) {
  *list = extensions;
  return NUM_EXTENSIONS;
}

bool rt_has_extension(const char *name) {
  for (size_t i = 0; i < NUM_EXTENSIONS; i++)
    if (strcmp(extensions[i].name, name) == 0) return true;
  return false;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                                 cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  if (platforms) platforms[0] = rt_platform();
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info param_name,
                                                  size_t param_value_size, void *param_value,
                                                  size_t *param_value_size_ret) {
  /* NULL selects the one platform, as the specification allows. */
  if (p == NULL) p = rt_platform();
  if (!rt_valid(p, RT_TAG_PLATFORM)) return CL_INVALID_PLATFORM;
  size_t sz = param_value_size;
  void *pv = param_value;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_PLATFORM_PROFILE: return rt_info_str(sz, pv, ret, "FULL_PROFILE");
  case CL_PLATFORM_VERSION:
    return rt_info_str(sz, pv, ret, "OpenCL 3.0 Lockstep " LOCKSTEP_VERSION);
  case CL_PLATFORM_NAME: return rt_info_str(sz, pv, ret, "Lockstep");
  case CL_PLATFORM_VENDOR: return rt_info_str(sz, pv, ret, "Lockstep");
  case CL_PLATFORM_EXTENSIONS: return rt_info_str(sz, pv, ret, rt_extensions_string());
  case CL_PLATFORM_ICD_SUFFIX_KHR: return rt_info_str(sz, pv, ret, "LSTP");
  case CL_PLATFORM_HOST_TIMER_RESOLUTION: {
    cl_ulong v = 1; /* CLOCK_MONOTONIC, nanoseconds */
    return rt_info(sz, pv, ret, &v, sizeof v);
  }
  case CL_PLATFORM_NUMERIC_VERSION: {
    cl_version v = CL_MAKE_VERSION(3, 0, 0);
    return rt_info(sz, pv, ret, &v, sizeof v);
  }
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
    return rt_info(sz, pv, ret, extensions, sizeof extensions);
  default: return CL_INVALID_VALUE;
  }
}
