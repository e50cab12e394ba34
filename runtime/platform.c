/*
 * platform.c - the one Lockstep platform: clGetPlatformIDs,
 * clGetPlatformInfo and the extension list the platform and its device share.
 * The platform object is static and lives for the process; it must not own
 * device state (see device.c).
 */
#include <string.h>

#include "device/claims.h"
#include "runtime/hooks.h"
#include "runtime/rt.h"

static struct _cl_platform_id platform;
static pthread_once_t platform_once = PTHREAD_ONCE_INIT;

static void platform_init(void) {
  rt_object_init(&platform.obj, RT_TAG_PLATFORM);
}

cl_platform_id rt_platform(void) {
  pthread_once(&platform_once, platform_init);
  rt_hooks_active(); /* a layer above (the debugger) may connect and take its first commands */
  return &platform;
}

/* The device's claims (device/claims.c) are the platform's too. */
const char *rt_extensions_string(void) {
  return dev_claims_extension_string();
}

size_t rt_extensions(const cl_name_version **list) {
  return dev_claims(DEV_CLAIM_EXTENSIONS, list);
}

bool rt_has_extension(const char *name) {
  return strncmp(name, "cl_", 3) == 0 && dev_claimed(name);
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
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
    const cl_name_version *list;
    size_t n = rt_extensions(&list);
    return rt_info(sz, pv, ret, list, n * sizeof *list);
  }
  default: return CL_INVALID_VALUE;
  }
}
