/*
 * check_util.h - small helpers shared by the Check suites. Only helpers that
 * several suites need; no test logic lives here.
 */
#ifndef LOCKSTEP_TESTS_CHECK_UTIL_H
#define LOCKSTEP_TESTS_CHECK_UTIL_H

#include <check.h>

#include "runtime/rt.h"

/* Runs one suite with CK_NORMAL output; returns the process exit status. */
int cu_run(Suite *s);

/* Adds a test case named after the test function to s. */
#define CU_ADD(s, fn)                                                                              \
  do {                                                                                             \
    TCase *tc_ = tcase_create(#fn);                                                                \
    tcase_set_timeout(tc_, 120);                                                                   \
    tcase_add_test(tc_, fn);                                                                       \
    suite_add_tcase((s), tc_);                                                                     \
  } while (0)

/* Reads a whole file into a NUL-terminated malloc'd string (NULL on error). */
char *cu_read_file(const char *path, size_t *len);

/* The fixture most API suites share: the Lockstep device, a context on it
 * and an in-order queue. Teardown finishes the queue and releases both. */
void cu_cl_setup(cl_device_id *dev, cl_context *ctx, cl_command_queue *q);
void cu_cl_teardown(cl_command_queue q, cl_context ctx);

#endif
