/*
 * test_queue.c - command queues on the stub device: creation in both forms,
 * properties and their errors, queries, the legacy property setter, flush
 * and finish, and the default device queue.
 */
#include "runtime/stub_dev.h"
#include "util/check_util.h"

static cl_context ctx;
static cl_device_id dev;

static void setup(void) {
  dev = rt_device();
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
  ck_assert_ptr_nonnull(ctx);
}

static void teardown(void) {
  clReleaseContext(ctx);
}

START_TEST(test_create_legacy) {
  cl_int err;
  const cl_command_queue_properties ok[] = {
      0, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
      CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE};
  for (unsigned i = 0; i < 4; i++) {
    cl_command_queue q = clCreateCommandQueue(ctx, dev, ok[i], &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    cl_command_queue_properties p;
    ck_assert_int_eq(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL), CL_SUCCESS);
    ck_assert_uint_eq(p, ok[i]);
    size_t sz = 1;
    ck_assert_int_eq(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &sz), CL_SUCCESS);
    ck_assert_uint_eq(sz, 0);
    clReleaseCommandQueue(q);
  }
  ck_assert_ptr_null(clCreateCommandQueue(NULL, dev, 0, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
  ck_assert_ptr_null(clCreateCommandQueue(ctx, NULL, 0, &err));
  ck_assert_int_eq(err, CL_INVALID_DEVICE);
  ck_assert_ptr_null(clCreateCommandQueue(ctx, (cl_device_id)ctx, 0, &err));
  ck_assert_int_eq(err, CL_INVALID_DEVICE);
  ck_assert_ptr_null(clCreateCommandQueue(ctx, dev, (cl_command_queue_properties)1 << 10, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateCommandQueue(
      ctx, dev, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err));
  ck_assert_int_eq(err, CL_INVALID_QUEUE_PROPERTIES);
}
END_TEST

START_TEST(test_create_with_properties) {
  cl_int err;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
                                 CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_HIGH_KHR, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_uint_eq(q->priority, CL_QUEUE_PRIORITY_HIGH_KHR);
  cl_queue_properties got[8];
  size_t sz;
  ck_assert_int_eq(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof got, got, &sz),
                   CL_SUCCESS);
  ck_assert_uint_eq(sz, sizeof props);
  ck_assert_mem_eq(got, props, sizeof props);
  cl_command_queue_properties p;
  clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL);
  ck_assert_uint_eq(p, CL_QUEUE_PROFILING_ENABLE);
  clReleaseCommandQueue(q);
  q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  clReleaseCommandQueue(q);
  cl_queue_properties empty[] = {0};
  q = clCreateCommandQueueWithProperties(ctx, dev, empty, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  clReleaseCommandQueue(q);

  cl_queue_properties ondev[] = {CL_QUEUE_PROPERTIES,
                                 CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  ck_assert_ptr_null(clCreateCommandQueueWithProperties(ctx, dev, ondev, &err));
  ck_assert_int_eq(err, CL_INVALID_QUEUE_PROPERTIES);
  cl_queue_properties unknown[] = {0x9999, 1, 0};
  ck_assert_ptr_null(clCreateCommandQueueWithProperties(ctx, dev, unknown, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  cl_queue_properties badprio[] = {CL_QUEUE_PRIORITY_KHR, 77, 0};
  ck_assert_ptr_null(clCreateCommandQueueWithProperties(ctx, dev, badprio, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  cl_queue_properties size_only[] = {CL_QUEUE_SIZE, 1024, 0};
  ck_assert_ptr_null(clCreateCommandQueueWithProperties(ctx, dev, size_only, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  cl_queue_properties badbits[] = {CL_QUEUE_PROPERTIES, 1 << 12, 0};
  ck_assert_ptr_null(clCreateCommandQueueWithProperties(ctx, dev, badbits, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateCommandQueueWithProperties(NULL, dev, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
}
END_TEST

START_TEST(test_info) {
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, NULL);
  cl_context c;
  cl_device_id d;
  cl_uint rc;
  ck_assert_int_eq(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(c, ctx);
  ck_assert_int_eq(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(d, dev);
  ck_assert_int_eq(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof rc, &rc, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(rc, 1);
  ck_assert_int_eq(clRetainCommandQueue(q), CL_SUCCESS);
  clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof rc, &rc, NULL);
  ck_assert_uint_eq(rc, 2);
  ck_assert_int_eq(clReleaseCommandQueue(q), CL_SUCCESS);
  cl_command_queue dq = (cl_command_queue)1;
  ck_assert_int_eq(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof dq, &dq, NULL),
                   CL_SUCCESS);
  ck_assert_ptr_null(dq);
  ck_assert_int_eq(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof rc, &rc, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  ck_assert_int_eq(clGetCommandQueueInfo(q, 0x7777, sizeof rc, &rc, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, 1, &c, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetCommandQueueInfo(NULL, CL_QUEUE_CONTEXT, sizeof c, &c, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  ck_assert_int_eq(clRetainCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
  ck_assert_int_eq(clReleaseCommandQueue((cl_command_queue)ctx), CL_INVALID_COMMAND_QUEUE);
  ck_assert_int_eq(clReleaseCommandQueue(q), CL_SUCCESS);
}
END_TEST

START_TEST(test_set_property) {
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, NULL);
  cl_command_queue_properties old = 99, p;
  ck_assert_int_eq(clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old),
                   CL_SUCCESS);
  ck_assert_uint_eq(old, 0);
  clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL);
  ck_assert_uint_eq(p, CL_QUEUE_PROFILING_ENABLE);
  ck_assert_int_eq(clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_FALSE, &old),
                   CL_SUCCESS);
  ck_assert_uint_eq(old, CL_QUEUE_PROFILING_ENABLE);
  ck_assert_int_eq(clSetCommandQueueProperty(q, 1 << 9, CL_TRUE, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clSetCommandQueueProperty(NULL, 0, CL_TRUE, NULL), CL_INVALID_COMMAND_QUEUE);
  clReleaseCommandQueue(q);
}
END_TEST

START_TEST(test_flush_finish) {
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, NULL);
  stub_pause(true);
  cl_event e;
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 0, NULL, &e), CL_SUCCESS);
  ck_assert_int_eq(clFlush(q), CL_SUCCESS);
  cl_int st;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  ck_assert_int_eq(st, CL_SUBMITTED); /* handed to the device, not run */
  ck_assert_uint_eq(stub_queued(), 1);
  stub_pause(false);
  ck_assert_int_eq(clFinish(q), CL_SUCCESS);
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  ck_assert_int_eq(st, CL_COMPLETE);
  clReleaseEvent(e);
  ck_assert_int_eq(clFlush(NULL), CL_INVALID_COMMAND_QUEUE);
  ck_assert_int_eq(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
  /* Releasing a queue with pending work lets the work finish. */
  cl_event u = clCreateUserEvent(ctx, NULL);
  ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 1, &u, &e), CL_SUCCESS);
  ck_assert_int_eq(clReleaseCommandQueue(q), CL_SUCCESS);
  clSetUserEventStatus(u, CL_COMPLETE);
  ck_assert_int_eq(clWaitForEvents(1, &e), CL_SUCCESS);
  clReleaseEvent(e);
  clReleaseEvent(u);
}
END_TEST

START_TEST(test_default_device_queue) {
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, NULL);
  ck_assert_int_eq(clSetDefaultDeviceCommandQueue(ctx, dev, q), CL_INVALID_OPERATION);
  ck_assert_int_eq(clSetDefaultDeviceCommandQueue(NULL, dev, q), CL_INVALID_CONTEXT);
  ck_assert_int_eq(clSetDefaultDeviceCommandQueue(ctx, NULL, q), CL_INVALID_DEVICE);
  clReleaseCommandQueue(q);
}
END_TEST

int main(void) {
  stub_install();
  Suite *s = suite_create("runtime_queue");
  TCase *tc = tcase_create("queues");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_create_legacy);
  tcase_add_test(tc, test_create_with_properties);
  tcase_add_test(tc, test_info);
  tcase_add_test(tc, test_set_property);
  tcase_add_test(tc, test_flush_finish);
  tcase_add_test(tc, test_default_device_queue);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
