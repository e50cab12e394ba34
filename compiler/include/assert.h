/*
 * assert.h - assert(cond) for OpenCL C kernels built by Lockstep. The
 * compiler puts this folder on every kernel's include path, so a kernel
 * writes `#include <assert.h>` as in C.
 *
 * A failed assertion calls the device builtin __lockstep_assert_fail: under
 * `lockstep debug` the work-item stops at the assertion's line; otherwise
 * the launch ends with a device exception naming file:line and the
 * condition. It must stay valid OpenCL C 1.2 and declare nothing else.
 */
#ifndef LOCKSTEP_CL_ASSERT_H
#define LOCKSTEP_CL_ASSERT_H
void __lockstep_assert_fail(__constant char *cond);
#endif

#undef assert
#ifdef NDEBUG
#define assert(cond) ((void)0)
#else
#define assert(cond) ((cond) ? (void)0 : __lockstep_assert_fail(#cond))
#endif
