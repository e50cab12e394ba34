/*
 * test_platform.c - clGetPlatformIDs and clGetPlatformInfo: every query,
 * sizes, the ICD suffix and extension list, and the error paths (the ICD
 * entry points are tests/icd's).
 */
#include <string.h>

#include "runtime/rt.h"
#include "util/check_util.h"

static cl_platform_id plat(void) {
  cl_platform_id p = NULL;
  cl_uint n = 0;
  ck_assert_int_eq(clGetPlatformIDs(1, &p, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, 1);
  return p;
}

START_TEST(one_platform) {
  cl_uint n = 0;
  ck_assert_int_eq(clGetPlatformIDs(0, NULL, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, 1);
  cl_platform_id p[2] = {NULL, NULL};
  ck_assert_int_eq(clGetPlatformIDs(2, p, &n), CL_SUCCESS);
  ck_assert_ptr_nonnull(p[0]);
  ck_assert_ptr_null(p[1]);
  ck_assert_int_eq(clGetPlatformIDs(0, p, &n), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
}
END_TEST

static void expect_str(cl_platform_info param, const char *want) {
  char buf[1024];
  size_t n = 0;
  ck_assert_int_eq(clGetPlatformInfo(plat(), param, sizeof buf, buf, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, strlen(buf) + 1);
  if (want) ck_assert_str_eq(buf, want);
}

START_TEST(strings) {
  expect_str(CL_PLATFORM_PROFILE, "FULL_PROFILE");
  expect_str(CL_PLATFORM_NAME, "Lockstep");
  expect_str(CL_PLATFORM_VENDOR, "Lockstep");
  expect_str(CL_PLATFORM_ICD_SUFFIX_KHR, "LSTP");
  expect_str(CL_PLATFORM_VERSION, "OpenCL 3.0 Lockstep " LOCKSTEP_VERSION);
  char ext[2048];
  ck_assert_int_eq(clGetPlatformInfo(plat(), CL_PLATFORM_EXTENSIONS, sizeof ext, ext, NULL),
                   CL_SUCCESS);
  ck_assert_ptr_nonnull(strstr(ext, "cl_khr_icd"));
  /* NULL selects the one platform. */
  char name[64];
  ck_assert_int_eq(clGetPlatformInfo(NULL, CL_PLATFORM_NAME, sizeof name, name, NULL), CL_SUCCESS);
  ck_assert_str_eq(name, "Lockstep");
}
END_TEST

START_TEST(numbers) {
  cl_version v = 0;
  ck_assert_int_eq(clGetPlatformInfo(plat(), CL_PLATFORM_NUMERIC_VERSION, sizeof v, &v, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(v, CL_MAKE_VERSION(3, 0, 0));
  cl_ulong res = 0;
  ck_assert_int_eq(
      clGetPlatformInfo(plat(), CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof res, &res, NULL),
      CL_SUCCESS);
  ck_assert_uint_eq(res, 1);
  cl_name_version list[64];
  size_t size = 0;
  ck_assert_int_eq(
      clGetPlatformInfo(plat(), CL_PLATFORM_EXTENSIONS_WITH_VERSION, sizeof list, list, &size),
      CL_SUCCESS);
  ck_assert_uint_eq(size % sizeof list[0], 0);
  int icd = 0;
  for (size_t i = 0; i < size / sizeof list[0]; i++)
    icd |= strcmp(list[i].name, "cl_khr_icd") == 0;
  ck_assert(icd);
}
END_TEST

START_TEST(errors) {
  char buf[64];
  int junk[8] = {0};
  ck_assert_int_eq(clGetPlatformInfo((cl_platform_id)junk, CL_PLATFORM_NAME, sizeof buf, buf, NULL),
                   CL_INVALID_PLATFORM);
  ck_assert_int_eq(clGetPlatformInfo(plat(), 0x1234, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetPlatformInfo(plat(), CL_PLATFORM_NAME, 3, buf, NULL), CL_INVALID_VALUE);
  size_t n = 0;
  ck_assert_int_eq(clGetPlatformInfo(plat(), CL_PLATFORM_NAME, 0, NULL, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, sizeof "Lockstep");
}
END_TEST

int main(void) {
  Suite *s = suite_create("platform");
  CU_ADD(s, one_platform);
  CU_ADD(s, strings);
  CU_ADD(s, numbers);
  CU_ADD(s, errors);
  return cu_run(s);
}
