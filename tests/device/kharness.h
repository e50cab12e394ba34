/*
 * kharness.h - the harness the end-to-end kernel suites share: load a kernel
 * from kernels/<name>.cl through the OpenCL API, make buffers, run, read,
 * compare floats in ULPs, capture stdout, and run a suite once per device
 * configuration (W 32/8, 1/2 host threads) in a child process. It must not
 * reach into the device's internals or hold any test's reference logic.
 */
#ifndef LOCKSTEP_TESTS_KHARNESS_H
#define LOCKSTEP_TESTS_KHARNESS_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/check_util.h"

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;
static unsigned W = 32;

static inline void kh_setup(void) {
  cu_cl_setup(&dev, &ctx, &q);
}
static inline void kh_teardown(void) {
  cu_cl_teardown(q, ctx);
}

/* Builds kernels/<file>.cl with options and returns kernel `name`. */
static inline cl_kernel load_opts(const char *file, const char *name, const char *opts) {
  char path[256];
  snprintf(path, sizeof path, "kernels/%s.cl", file);
  size_t len;
  char *src = cu_read_file(path, &len);
  ck_assert_msg(src != NULL, "cannot open %s", path);
  const char *s = src;
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  free(src);
  err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
  if (err != CL_SUCCESS) {
    static char log[16384];
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    ck_abort_msg("%s: build failed (%d):\n%s", file, err, log);
  }
  cl_kernel k = clCreateKernel(p, name, &err);
  ck_assert_msg(err == CL_SUCCESS, "%s: no kernel %s (%d)", file, name, err);
  clReleaseProgram(p);
  return k;
}
static inline cl_kernel load(const char *name) {
  return load_opts(name, name, "-cl-std=CL3.0");
}
static inline cl_mem buf(size_t n, const void *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), n,
                            (void *)init, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  return m;
}
static inline void arg(cl_kernel k, cl_uint i, size_t n, const void *v) {
  ck_assert_int_eq(clSetKernelArg(k, i, n, v), CL_SUCCESS);
}
/* ARGS(k, KA(a), KA(b), ...) sets k's arguments 0, 1, ... to a, b, ... */
struct kh_arg {
  size_t size;
  const void *value;
};
#define KA(x) ((struct kh_arg){sizeof(x), &(x)})
static inline void kh_args(cl_kernel k, size_t n, const struct kh_arg *a) {
  for (size_t i = 0; i < n; i++)
    arg(k, (cl_uint)i, a[i].size, a[i].value);
}
#define ARGS(k, ...)                                                                               \
  kh_args((k), sizeof((struct kh_arg[]){__VA_ARGS__}) / sizeof(struct kh_arg),                     \
          (struct kh_arg[]){__VA_ARGS__})
/* Runs an NDRange of dim dimensions; returns the event's final status. */
static inline cl_int run_nd(cl_kernel k, cl_uint dim, const size_t *off, const size_t *global,
                            const size_t *local) {
  cl_event ev;
  cl_int err = clEnqueueNDRangeKernel(q, k, dim, off, global, local, 0, NULL, &ev);
  ck_assert_int_eq(err, CL_SUCCESS);
  clWaitForEvents(1, &ev);
  cl_int st = 0;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  clReleaseEvent(ev);
  return st;
}
static inline cl_int run(cl_kernel k, size_t global, size_t local) {
  return run_nd(k, 1, NULL, &global, local ? &local : NULL);
}
static inline void rd(cl_mem m, void *dst, size_t n) {
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n, dst, 0, NULL, NULL), CL_SUCCESS);
}

/* The common shape: kernel(in, out) over n work-items (in may be NULL:
 * kernel(out)); out_bytes read back into out. */
static inline void run_io(const char *name, size_t n, size_t local, const void *in, size_t in_bytes,
                          void *out, size_t out_bytes) {
  cl_kernel k = load(name);
  cl_mem a = in ? buf(in_bytes, in) : NULL, o = buf(out_bytes, NULL);
  cl_uint i = 0;
  if (a) arg(k, i++, sizeof a, &a);
  arg(k, i, sizeof o, &o);
  ck_assert_int_eq(run(k, n, local), CL_COMPLETE);
  rd(o, out, out_bytes);
  if (a) clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}

/* Distance in float ULPs of got from a double-precision reference. */
static inline double ulps_f(float got, double want) {
  if (isnan(want)) return isnan(got) ? 0 : INFINITY;
  if (isinf(want)) return (double)got == want ? 0 : INFINITY;
  if (isnan(got) || isinf(got)) return INFINITY;
  double a = fabs(want);
  int e;
  frexp(a < 0x1p-126 ? 0x1p-126 : a, &e);
  double ulp = ldexp(1.0, e - 24); /* float has 24 significand bits */
  return fabs((double)got - want) / ulp;
}
/* Distance in double ULPs of got from a long double reference. */
static inline double ulps_d(double got, long double want) {
  if (isnan((double)want)) return isnan(got) ? 0 : INFINITY;
  if (isinf((double)want)) return got == (double)want ? 0 : INFINITY;
  if (isnan(got) || isinf(got)) return INFINITY;
  long double a = fabsl(want);
  int e;
  frexpl(a < 0x1p-1022L ? 0x1p-1022L : a, &e);
  long double ulp = ldexpl(1.0L, e - 53);
  return (double)(fabsl((long double)got - want) / ulp);
}
#define CK_ULP(what, x, got, want, lim)                                                            \
  ck_assert_msg(ulps_f((got), (want)) <= (lim), "%s(%a): got %a want %a (%g ulp > %g)", (what),    \
                (double)(x), (double)(got), (double)(want), ulps_f((got), (want)), (double)(lim))

/* Captures what fn writes to stdout (device printf output included). */
static inline size_t capture_stdout(void (*fn)(void *), void *ud, char *out, size_t cap) {
  fflush(stdout);
  int saved = dup(1);
  FILE *tmp = tmpfile();
  ck_assert_ptr_nonnull(tmp);
  dup2(fileno(tmp), 1);
  fn(ud);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  rewind(tmp);
  size_t n = fread(out, 1, cap - 1, tmp);
  out[n] = 0;
  fclose(tmp);
  return n;
}

/* Runs the suite built by make() in a child with the given device
 * configuration; returns the child's exit status. */
static inline int kh_run_config(Suite *(*make)(void), unsigned w, unsigned threads) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    char b[16];
    snprintf(b, sizeof b, "%u", w);
    setenv("LOCKSTEP_WARP_WIDTH", b, 1);
    snprintf(b, sizeof b, "%u", threads);
    setenv("LOCKSTEP_HOST_THREADS", b, 1);
    W = w;
    printf("-- warp width %u, %u host thread(s)\n", w, threads);
    fflush(stdout);
    _exit(cu_run(make()));
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
/* Runs the suite once per configuration: warp widths 32 and 8 with 1 and 2
 * host threads, or only those KH_CONFIGS lists ("W/threads ..."; the engine
 * matrix, tests/util/engines.sh, runs one at a time). The engine is the
 * environment's (LOCKSTEP_ENGINE). */
static inline int kh_main(Suite *(*make)(void)) {
  const char *list = getenv("KH_CONFIGS");
  if (!list || !*list) list = "32/1 8/2 32/2 8/1";
  int rc = 0, used = 0;
  for (const char *p = list; *p; p += used) {
    unsigned w = 0, threads = 0;
    if (sscanf(p, " %u/%u %n", &w, &threads, &used) != 2 || !w || (w & (w - 1))) {
      fprintf(stderr, "kharness: bad KH_CONFIGS \"%s\": expected W/threads ...\n", list);
      return 1;
    }
    rc |= kh_run_config(make, w, threads);
  }
  return rc;
}
#define KH_ADD(tc, fn) tcase_add_test((tc), fn)

#endif
