/*
 * check_util.c - helpers shared by the Check suites (see check_util.h).
 */
#include "util/check_util.h"

#include <stdio.h>
#include <stdlib.h>

int cu_run(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

char *cu_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n + 4096 + 1 > cap) {
      cap = (n + 4096 + 1) * 2;
      char *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = nb;
    }
    size_t got = fread(buf + n, 1, 4096, f);
    n += got;
    if (got == 0) break;
  }
  fclose(f);
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

void cu_cl_setup(cl_device_id *dev, cl_context *ctx, cl_command_queue *q) {
  cl_platform_id plat;
  cl_int err;
  ck_assert_int_eq(clGetPlatformIDs(1, &plat, NULL), CL_SUCCESS);
  ck_assert_int_eq(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, dev, NULL), CL_SUCCESS);
  *ctx = clCreateContext(NULL, 1, dev, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  *q = clCreateCommandQueueWithProperties(*ctx, *dev, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
}

void cu_cl_teardown(cl_command_queue q, cl_context ctx) {
  clFinish(q);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
