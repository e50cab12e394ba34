/*
 * test_context.c - contexts on the stub device: creation by list and by
 * type, properties and their errors, queries, reference counts, destructor
 * callbacks and the error notification.
 */
#include "runtime/stub_dev.h"
#include "util/check_util.h"

static void CL_CALLBACK notify(const char *info, const void *pi, size_t cb, void *ud) {
  (void)info;
  (void)pi;
  (void)cb;
  (*(int *)ud)++;
}

START_TEST(test_create_by_list) {
  cl_device_id dev = rt_device();
  cl_int err = 1;
  cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_ptr_nonnull(c);
  cl_uint n = 0;
  ck_assert_int_eq(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL), CL_SUCCESS);
  ck_assert_uint_eq(n, 1);
  cl_device_id got = NULL;
  size_t sz = 0;
  ck_assert_int_eq(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof got, &got, &sz), CL_SUCCESS);
  ck_assert_ptr_eq(got, dev);
  ck_assert_uint_eq(sz, sizeof got);
  ck_assert_int_eq(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &sz), CL_SUCCESS);
  ck_assert_uint_eq(sz, 0);
  ck_assert_int_eq(clReleaseContext(c), CL_SUCCESS);
  /* Duplicates are ignored. */
  cl_device_id two[2] = {dev, dev};
  c = clCreateContext(NULL, 2, two, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL);
  ck_assert_uint_eq(n, 1);
  clReleaseContext(c);
  /* errcode_ret may be NULL. */
  c = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
  ck_assert_ptr_nonnull(c);
  clReleaseContext(c);
}
END_TEST

START_TEST(test_create_errors) {
  cl_device_id dev = rt_device(), bad = (cl_device_id)rt_platform();
  cl_int err;
  int ud = 0;
  ck_assert_ptr_null(clCreateContext(NULL, 0, &dev, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateContext(NULL, 1, NULL, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateContext(NULL, 1, &bad, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_DEVICE);
  cl_device_id null_dev = NULL;
  ck_assert_ptr_null(clCreateContext(NULL, 1, &null_dev, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_DEVICE);
  ck_assert_ptr_null(clCreateContext(NULL, 1, &dev, NULL, &ud, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  cl_context_properties badprop[] = {0x7777, 0, 0};
  ck_assert_ptr_null(clCreateContext(badprop, 1, &dev, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_PROPERTY);
  cl_context_properties badplat[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev, 0};
  ck_assert_ptr_null(clCreateContext(badplat, 1, &dev, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_PLATFORM);
  cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)rt_platform(),
                                   CL_CONTEXT_PLATFORM, (cl_context_properties)rt_platform(), 0};
  ck_assert_ptr_null(clCreateContext(twice, 1, &dev, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_PROPERTY);
  /* A supported property with a value it cannot take. */
  cl_context_properties badsync[] = {CL_CONTEXT_INTEROP_USER_SYNC, 7, 0};
  ck_assert_ptr_null(clCreateContext(badsync, 1, &dev, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_PROPERTY);
  ck_assert_ptr_null(clCreateContextFromType(badsync, CL_DEVICE_TYPE_GPU, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_PROPERTY);
}
END_TEST

START_TEST(test_properties) {
  cl_device_id dev = rt_device();
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)rt_platform(),
                                   CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
  cl_context c = clCreateContext(props, 1, &dev, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_context_properties got[8];
  size_t sz;
  ck_assert_int_eq(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, &sz), CL_SUCCESS);
  ck_assert_uint_eq(sz, sizeof props);
  ck_assert_mem_eq(got, props, sizeof props);
  ck_assert_int_eq(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 8, got, NULL), CL_INVALID_VALUE);
  clReleaseContext(c);
}
END_TEST

START_TEST(test_from_type) {
  cl_int err;
  const cl_device_type ok[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL};
  for (unsigned i = 0; i < 3; i++) {
    cl_context c = clCreateContextFromType(NULL, ok[i], NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    cl_device_id d;
    clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof d, &d, NULL);
    ck_assert_ptr_eq(d, rt_device());
    clReleaseContext(c);
  }
  ck_assert_ptr_null(clCreateContextFromType(NULL, CL_DEVICE_TYPE_CPU, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_DEVICE_NOT_FOUND);
  ck_assert_ptr_null(clCreateContextFromType(NULL, CL_DEVICE_TYPE_ACCELERATOR, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_DEVICE_NOT_FOUND);
  ck_assert_ptr_null(clCreateContextFromType(NULL, 0, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_DEVICE_TYPE);
  ck_assert_ptr_null(clCreateContextFromType(NULL, (cl_device_type)1 << 20, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_DEVICE_TYPE);
  int ud;
  ck_assert_ptr_null(clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU, NULL, &ud, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  cl_context_properties bad[] = {CL_CONTEXT_PLATFORM, 0, 0};
  ck_assert_ptr_null(clCreateContextFromType(bad, CL_DEVICE_TYPE_GPU, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_PLATFORM);
}
END_TEST

static int order[4], norder;
static void CL_CALLBACK dtor(cl_context c, void *ud) {
  cl_uint rc = 99;
  (void)c;
  (void)rc;
  order[norder++] = (int)(intptr_t)ud;
}

START_TEST(test_refcount_and_destructor) {
  cl_device_id dev = rt_device();
  cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
  cl_uint rc;
  ck_assert_int_eq(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof rc, &rc, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(rc, 1);
  ck_assert_int_eq(clRetainContext(c), CL_SUCCESS);
  clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof rc, &rc, NULL);
  ck_assert_uint_eq(rc, 2);
  ck_assert_int_eq(clSetContextDestructorCallback(c, dtor, (void *)1), CL_SUCCESS);
  ck_assert_int_eq(clSetContextDestructorCallback(c, dtor, (void *)2), CL_SUCCESS);
  ck_assert_int_eq(clSetContextDestructorCallback(c, NULL, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clSetContextDestructorCallback(NULL, dtor, NULL), CL_INVALID_CONTEXT);
  /* A child keeps the context alive. */
  cl_mem m = clCreateBuffer(c, 0, 16, NULL, NULL);
  ck_assert_int_eq(clReleaseContext(c), CL_SUCCESS);
  ck_assert_int_eq(clReleaseContext(c), CL_SUCCESS);
  ck_assert_int_eq(norder, 0);
  clReleaseMemObject(m);
  ck_assert_int_eq(norder, 2);
  ck_assert_int_eq(order[0], 2);
  ck_assert_int_eq(order[1], 1);
  ck_assert_int_eq(clRetainContext(NULL), CL_INVALID_CONTEXT);
  ck_assert_int_eq(clReleaseContext(NULL), CL_INVALID_CONTEXT);
  ck_assert_int_eq(clReleaseContext((cl_context)dev), CL_INVALID_CONTEXT);
}
END_TEST

START_TEST(test_info_errors) {
  cl_device_id dev = rt_device();
  cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
  cl_uint v;
  ck_assert_int_eq(clGetContextInfo(c, 0x4242, sizeof v, &v, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, 2, &v, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetContextInfo(NULL, CL_CONTEXT_REFERENCE_COUNT, sizeof v, &v, NULL),
                   CL_INVALID_CONTEXT);
  ck_assert_int_eq(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, 0, NULL, NULL), CL_SUCCESS);
  clReleaseContext(c);
}
END_TEST

START_TEST(test_notify_on_device_exception) {
  cl_device_id dev = rt_device();
  int calls = 0;
  cl_int err;
  cl_context c = clCreateContext(NULL, 1, &dev, notify, &calls, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueue(c, dev, 0, &err);
  struct dev_cmd *cmd = calloc(1, sizeof *cmd);
  cmd->kind = DEV_CMD_LAUNCH; /* the stub device faults every launch */
  ck_assert_int_eq(rt_enqueue(q, CL_COMMAND_NDRANGE_KERNEL, cmd, 0, NULL, NULL, CL_FALSE),
                   CL_SUCCESS);
  clFinish(q);
  ck_assert_int_eq(calls, 1);
  rt_context_notify(c, "direct");
  ck_assert_int_eq(calls, 2);
  clReleaseCommandQueue(q);
  clReleaseContext(c);
}
END_TEST

int main(void) {
  stub_install();
  Suite *s = suite_create("runtime_context");
  CU_ADD(s, test_create_by_list);
  CU_ADD(s, test_create_errors);
  CU_ADD(s, test_properties);
  CU_ADD(s, test_from_type);
  CU_ADD(s, test_refcount_and_destructor);
  CU_ADD(s, test_info_errors);
  CU_ADD(s, test_notify_on_device_exception);
  return cu_run(s);
}
