/*
 * switch.c - measures what one command-processor stream switch costs on
 * Lockstep: vecadd on 2^22 floats (16,384 work-groups of 256) timed without
 * forced switches and with LOCKSTEP_CP_SWITCH_EVERY=1 (a switch and a replay
 * between every two passes), the switches counted from a LOCKSTEP_TRACE
 * run; prints ns per switch = (time switched - time plain) / switches.
 * Each setting runs in a child process of its own, because the device reads
 * the knobs once. Not part of the test command: run it by hand on a Release
 * build with OCL_ICD_VENDORS pointing at Lockstep. It must not check
 * anything but the results of its own kernels.
 */
#define _POSIX_C_SOURCE          200809L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N     (1u << 22)
#define LOCAL 256
#define REPS  3

static const char *source = "__kernel void vecadd(__global const float *a,\n"
                            "                     __global const float *b, __global float *c) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  c[i] = a[i] + b[i];\n"
                            "}\n";

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cl_int e_ = (x);                                                                               \
    if (e_ != CL_SUCCESS) {                                                                        \
      fprintf(stderr, "switch: %s failed: %d\n", #x, e_);                                          \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* The child: runs vecadd reps times on Lockstep and prints the best time. */
static int child(int reps) {
  cl_platform_id ps[8];
  cl_uint np = 0;
  cl_device_id dev = NULL;
  CHECK(clGetPlatformIDs(8, ps, &np));
  for (cl_uint i = 0; i < np && !dev; i++) {
    char name[128] = "";
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strcmp(name, "Lockstep") == 0)
      CHECK(clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  }
  if (!dev) {
    fprintf(stderr, "switch: no Lockstep platform\n");
    return 1;
  }
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prog, "vecadd", &err);
  CHECK(err);
  float *a = malloc(N * 4), *b = malloc(N * 4), *c = malloc(N * 4);
  for (unsigned i = 0; i < N; i++)
    a[i] = (float)(i % 1000), b[i] = (float)(i % 777) * 0.5f;
  cl_mem m[3];
  for (int j = 0; j < 3; j++) {
    m[j] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (j < 2 ? CL_MEM_COPY_HOST_PTR : 0), N * 4,
                          j == 0   ? (void *)a
                          : j == 1 ? (void *)b
                                   : NULL,
                          &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, (cl_uint)j, sizeof m[j], &m[j]));
  }
  size_t g = N, l = LOCAL;
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now_s();
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK(clFinish(q));
    double t = now_s() - t0;
    if (t < best) best = t;
  }
  CHECK(clEnqueueReadBuffer(q, m[2], CL_TRUE, 0, N * 4, c, 0, NULL, NULL));
  for (unsigned i = 0; i < N; i++)
    if (c[i] != a[i] + b[i]) {
      fprintf(stderr, "switch: vecadd wrong at %u\n", i);
      return 1;
    }
  printf("%.6f\n", best);
  for (int j = 0; j < 3; j++)
    clReleaseMemObject(m[j]);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(a), free(b), free(c);
  return 0;
}

/* Runs this program as a child with one extra environment setting (and
 * optionally a trace file) and returns the time it printed, or -1. */
static double run_child(const char *self, const char *every, const char *trace, int reps) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    if (every)
      setenv("LOCKSTEP_CP_SWITCH_EVERY", every, 1);
    else
      unsetenv("LOCKSTEP_CP_SWITCH_EVERY");
    unsetenv("LOCKSTEP_CP_SWITCH_SEED");
    if (trace)
      setenv("LOCKSTEP_TRACE", trace, 1);
    else
      unsetenv("LOCKSTEP_TRACE");
    char r[16];
    snprintf(r, sizeof r, "%d", reps);
    execl(self, self, "--child", r, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  char buf[64] = "";
  FILE *f = fdopen(fd[0], "r");
  double t = -1;
  if (f && fgets(buf, sizeof buf, f)) t = atof(buf);
  if (f) fclose(f);
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? t : -1;
}

/* Forced switches of one launch, counted in a device trace. */
static long count_switches(const char *self) {
  const char *dir = getenv("TMPDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/lockstep-switch-XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  close(fd);
  long n = -1;
  if (run_child(self, "1", path, 1) >= 0) {
    FILE *f = fopen(path, "r");
    char line[512];
    n = 0;
    while (f && fgets(line, sizeof line, f))
      n += strstr(line, "\"name\":\"switch\"") != NULL;
    if (f) fclose(f);
  }
  unlink(path);
  return n;
}

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "--child") == 0) return child(atoi(argv[2]));
  const char *self = "/proc/self/exe";
  char exe[4096];
  ssize_t len = readlink(self, exe, sizeof exe - 1);
  if (len <= 0) return 1;
  exe[len] = 0;
  double plain = run_child(exe, NULL, NULL, REPS);
  double sw = run_child(exe, "1", NULL, REPS);
  long n = count_switches(exe);
  if (plain < 0 || sw < 0 || n <= 0) {
    fprintf(stderr, "switch: a run failed\n");
    return 1;
  }
  printf("vecadd 2^22, %u work-groups: %.4f s plain, %.4f s with a switch after every pass, "
         "%ld switches: %.1f us per switch\n",
         N / LOCAL, plain, sw, n, (sw - plain) / (double)n * 1e6);
  return 0;
}
