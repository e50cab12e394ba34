/*
 * test_extensions.c - extension function lookup: a known name on the
 * platform, an unknown name, and an invalid platform (NULL, another kind
 * of object, a released object) which must give NULL whatever the name.
 *
 * Through ocl-icd 2.3 the loader answers names ending in KHR or EXT from its
 * own table before it looks at the platform, so these calls go to the
 * library directly.
 */
#include "runtime/stub_dev.h"
#include "util/check_util.h"

#include "icd/icd.h"

START_TEST(test_valid_platform) {
  cl_platform_id p = rt_platform();
  ck_assert_ptr_eq(clGetExtensionFunctionAddressForPlatform(p, "clIcdGetPlatformIDsKHR"),
                   (void *)(uintptr_t)clIcdGetPlatformIDsKHR);
  ck_assert_ptr_null(clGetExtensionFunctionAddressForPlatform(p, "invalid_name"));
  ck_assert_ptr_null(clGetExtensionFunctionAddressForPlatform(p, NULL));
}
END_TEST

START_TEST(test_invalid_platform) {
  const char *name = "clIcdGetPlatformIDsKHR";
  ck_assert_ptr_null(clGetExtensionFunctionAddressForPlatform(NULL, name));
  cl_device_id d = rt_device();
  ck_assert_ptr_null(clGetExtensionFunctionAddressForPlatform((cl_platform_id)d, name));
  cl_int err;
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_ptr_null(clGetExtensionFunctionAddressForPlatform((cl_platform_id)c, name));
  ck_assert_int_eq(clReleaseContext(c), CL_SUCCESS);
  /* released: quarantined, still safe to look at */
  ck_assert_ptr_null(clGetExtensionFunctionAddressForPlatform((cl_platform_id)c, name));
  int junk[8] = {0};
  ck_assert_ptr_null(clGetExtensionFunctionAddressForPlatform((cl_platform_id)junk, name));
}
END_TEST

START_TEST(test_without_platform) {
  ck_assert_ptr_eq(clGetExtensionFunctionAddress("clIcdGetPlatformIDsKHR"),
                   (void *)(uintptr_t)clIcdGetPlatformIDsKHR);
  ck_assert_ptr_eq(clGetExtensionFunctionAddress("clGetKernelSubGroupInfoKHR"),
                   (void *)(uintptr_t)clGetKernelSubGroupInfoKHR); /* cl_khr_subgroups */
  ck_assert_ptr_null(clGetExtensionFunctionAddress("clNoSuchFunctionKHR"));
  ck_assert_ptr_null(clGetExtensionFunctionAddress(NULL));
}
END_TEST

/* The loader's entry point agrees with clGetPlatformIDs. */
START_TEST(test_icd_platform_ids) {
  cl_platform_id p = NULL, q = NULL;
  ck_assert_int_eq(clGetPlatformIDs(1, &p, NULL), CL_SUCCESS);
  cl_uint n = 0;
  ck_assert_int_eq(clIcdGetPlatformIDsKHR(1, &q, &n), CL_SUCCESS);
  ck_assert_ptr_eq(q, p);
  ck_assert_uint_eq(n, 1);
  ck_assert_int_eq(clIcdGetPlatformIDsKHR(0, &q, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clIcdGetPlatformIDsKHR(1, NULL, NULL), CL_INVALID_VALUE);
}
END_TEST

int main(void) {
  stub_install();
  Suite *s = suite_create("icd_extensions");
  CU_ADD(s, test_valid_platform);
  CU_ADD(s, test_invalid_platform);
  CU_ADD(s, test_without_platform);
  CU_ADD(s, test_icd_platform_ids);
  return cu_run(s);
}
