/*
 * host_util.h - what the host-program tests share: they link only against
 * the ICD loader, so this is header-only. A call that fails ends the program
 * with its error code and line; lsh_platform() finds the Lockstep platform
 * among whatever platforms the loader lists.
 */
#ifndef LOCKSTEP_TESTS_HOST_UTIL_H
#define LOCKSTEP_TESTS_HOST_UTIL_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LSH_CHECK(call)                                                                            \
  do {                                                                                             \
    cl_int err_ = (call);                                                                          \
    if (err_ != CL_SUCCESS) {                                                                      \
      fprintf(stderr, "%s: %s failed: %d (line %d)\n", lsh_prog, #call, err_, __LINE__);           \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* Each program defines its name for messages. */
extern const char *lsh_prog;

/* An expectation that does not stop the program: it reports cond with its
 * line and sets the program's own `failed` flag. */
#define LSH_EXPECT(cond)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s: expected %s (line %d)\n", lsh_prog, #cond, __LINE__);                   \
      failed = 1;                                                                                  \
    }                                                                                              \
  } while (0)

/* Runs `self mode` in a fresh process with the environment variable var
 * set to value (unset when value is NULL); 0 when it exits with 0, else 1
 * with a line naming the mode. */
static inline int lsh_run_self(const char *self, const char *mode, const char *var,
                               const char *value) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    if (var && value)
      setenv(var, value, 1);
    else if (var)
      unsetenv(var);
    execl(self, self, mode, (char *)NULL);
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "%s: the %s case failed\n", lsh_prog, mode);
    return 1;
  }
  return 0;
}

static inline cl_platform_id lsh_platform(void) {
  cl_platform_id ps[16];
  cl_uint n = 0;
  LSH_CHECK(clGetPlatformIDs(16, ps, &n));
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[64] = "";
    LSH_CHECK(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
    if (strcmp(name, "Lockstep") == 0) return ps[i];
  }
  fprintf(stderr, "%s: no Lockstep platform among %u\n", lsh_prog, n);
  exit(1);
}

static inline cl_device_id lsh_device(void) {
  cl_device_id d;
  LSH_CHECK(clGetDeviceIDs(lsh_platform(), CL_DEVICE_TYPE_GPU, 1, &d, NULL));
  return d;
}

/* The device of the only platform there is (so a program runs under a
 * peer's ICD alone, for comparison), else Lockstep's. */
static inline cl_device_id lsh_any_device(void) {
  cl_platform_id ps[16];
  cl_uint n = 0;
  LSH_CHECK(clGetPlatformIDs(16, ps, &n));
  if (n != 1) return lsh_device();
  cl_device_id d;
  LSH_CHECK(clGetDeviceIDs(ps[0], CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  return d;
}

/* The file at path, NUL-terminated, with room for spare more bytes after
 * it; *len (unless len is NULL) is its size. The caller frees it. A file
 * that cannot be read ends the program. */
static inline char *lsh_read_file(const char *path, size_t spare, size_t *len) {
  FILE *f = fopen(path, "rb");
  long size = -1;
  if (f && fseek(f, 0, SEEK_END) == 0) size = ftell(f);
  char *buf = size >= 0 ? malloc((size_t)size + spare + 1) : NULL;
  if (!buf || fseek(f, 0, SEEK_SET) != 0 || fread(buf, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "%s: cannot open %s\n", lsh_prog, path);
    exit(1);
  }
  fclose(f);
  buf[size] = 0;
  if (len) *len = (size_t)size;
  return buf;
}

/* A buffer of size bytes with flags (host: CL_MEM_COPY_HOST_PTR's data). */
static inline cl_mem lsh_buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, flags, size, host, &err);
  LSH_CHECK(err);
  return m;
}

/* Kernel `name` of a built program. */
static inline cl_kernel lsh_kernel(cl_program p, const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  LSH_CHECK(err);
  return k;
}

/* Builds p for dev with options; a failure prints the build log and exits. */
static inline void lsh_build_program(cl_program p, cl_device_id dev, const char *options) {
  if (clBuildProgram(p, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "%s: build failed:\n%s\n", lsh_prog, log);
    exit(1);
  }
}

/* A context and an in-order queue on dev, and a program built from src
 * with options; a build failure prints the log and exits. */
static inline cl_program lsh_build_on(cl_device_id dev, const char *src, const char *options,
                                      cl_context *ctx, cl_command_queue *q) {
  cl_int err;
  *ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  LSH_CHECK(err);
  *q = clCreateCommandQueueWithProperties(*ctx, dev, NULL, &err);
  LSH_CHECK(err);
  cl_program p = clCreateProgramWithSource(*ctx, 1, &src, NULL, &err);
  LSH_CHECK(err);
  lsh_build_program(p, dev, options);
  return p;
}

/* lsh_build_on the Lockstep device. */
static inline cl_program lsh_build(const char *src, const char *options, cl_context *ctx,
                                   cl_command_queue *q) {
  return lsh_build_on(lsh_device(), src, options, ctx, q);
}

/* The device of a context made by lsh_build. */
static inline cl_device_id lsh_context_device(cl_context ctx) {
  cl_device_id dev;
  LSH_CHECK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL));
  return dev;
}

#endif
