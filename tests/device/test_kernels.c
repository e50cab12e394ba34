/*
 * test_kernels.c - end-to-end kernels (the .cl files in kernels/) through
 * the real OpenCL API, each checked against a host reference in C, run with
 * warp widths 32 and 8 and 1 and 2 host threads (one child process per
 * configuration, the environment set before the platform is first used),
 * plus device exceptions seen through the API. It must not reach into the
 * device's internals.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
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

static void setup(void) {
  cu_cl_setup(&dev, &ctx, &q);
}
static void teardown(void) {
  cu_cl_teardown(q, ctx);
}

static cl_kernel load(const char *name) {
  char path[256];
  snprintf(path, sizeof path, "kernels/%s.cl", name);
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  static char src[65536];
  size_t n = fread(src, 1, sizeof src - 1, f);
  fclose(f);
  src[n] = 0;
  const char *s = src;
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  err = clBuildProgram(p, 1, &dev, "-cl-std=CL3.0", NULL, NULL);
  if (err != CL_SUCCESS) {
    static char log[16384];
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    ck_abort_msg("%s: build failed (%d):\n%s", name, err, log);
  }
  cl_kernel k = clCreateKernel(p, name, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  clReleaseProgram(p);
  return k;
}
static cl_mem buf(size_t n, const void *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), n,
                            (void *)init, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  return m;
}
static cl_int run(cl_kernel k, size_t global, size_t local) {
  cl_event ev;
  cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, &ev);
  ck_assert_int_eq(err, CL_SUCCESS);
  clWaitForEvents(1, &ev);
  cl_int st = 0;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  clReleaseEvent(ev);
  return st;
}
static void rd(cl_mem m, void *dst, size_t n) {
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n, dst, 0, NULL, NULL), CL_SUCCESS);
}

START_TEST(k_divergence) {
  enum { N = 300 };
  cl_kernel k = load("divergence");
  cl_mem o = buf(N * 4, NULL);
  clSetKernelArg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, N, 60), CL_COMPLETE);
  int got[N];
  rd(o, got, sizeof got);
  for (int g = 0; g < N; g++) {
    int want;
    if (g % 5 == 0) {
      want = -1;
    } else {
      int acc = 0;
      for (int i = 0; i < g % 13; i++) {
        if (i == 9) break;
        if (i % 3 == 1) continue;
        if (g & 1)
          acc += (i & 2) ? i * 3 : -1;
        else
          acc += 7;
      }
      switch (g % 4) {
      case 0: acc *= 2; break;
      case 1: acc += 100; break;
      case 2: acc ^= 0x55; break;
      default: break;
      }
      want = acc;
    }
    ck_assert_msg(got[g] == want, "divergence gid %d: got %d want %d", g, got[g], want);
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_local_reduce) {
  enum { N = 4096, L = 128 };
  static int in[N], got[N / L];
  for (int i = 0; i < N; i++)
    in[i] = (i * 37) % 101 - 50;
  cl_kernel k = load("local_reduce");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof got, NULL);
  clSetKernelArg(k, 0, sizeof a, &a);
  clSetKernelArg(k, 1, sizeof o, &o);
  clSetKernelArg(k, 2, L * sizeof(int), NULL);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, got, sizeof got);
  for (int gr = 0; gr < N / L; gr++) {
    int want = 0;
    for (int i = 0; i < L; i++)
      want += in[gr * L + i];
    ck_assert_msg(got[gr] == want, "local_reduce group %d: got %d want %d", gr, got[gr], want);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_atomics) {
  enum { N = 2048, L = 64 };
  int init[4] = {0, -1, 0, 0}, got[4];
  cl_kernel k = load("atomics");
  cl_mem o = buf(sizeof init, init);
  clSetKernelArg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, got, sizeof got);
  ck_assert_int_eq(got[0], N);
  ck_assert_int_eq(got[1], N - 1);
  ck_assert_int_eq(got[2], -(N - 1));
  ck_assert_int_eq(got[3], N);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

typedef struct {
  cl_int a;
  cl_float b;
  cl_int4 v;
} item;

START_TEST(k_constant_struct) {
  enum { N = 100 };
  static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  static item items[N];
  for (int i = 0; i < N; i++)
    items[i] = (item){i, 0.5f * i, {{i, -i, 2 * i, 7}}};
  item kv = {3, 4.0f, {{1, 2, 3, 4}}};
  cl_kernel k = load("constant_struct");
  cl_mem a = buf(sizeof items, items), o = buf(N * 4, NULL);
  clSetKernelArg(k, 0, sizeof a, &a);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof kv, &kv), CL_SUCCESS);
  clSetKernelArg(k, 2, sizeof o, &o);
  ck_assert_int_eq(run(k, N, 0), CL_COMPLETE);
  int got[N];
  rd(o, got, sizeof got);
  for (int g = 0; g < N; g++) {
    const item *it = &items[g];
    int s[4];
    for (int j = 0; j < 4; j++)
      s[j] = it->v.s[j] + kv.v.s[j];
    int want =
        table[g % 8] + it->a * kv.a + (int)(it->b * kv.b) + s[0] + s[1] * 2 + s[2] * 3 + s[3] * 4;
    ck_assert_msg(got[g] == want, "constant_struct gid %d: got %d want %d", g, got[g], want);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_subgroup) {
  enum { N = 256 };
  cl_kernel k = load("subgroup");
  cl_mem o = buf(3 * N * 4, NULL);
  clSetKernelArg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, N, 64), CL_COMPLETE);
  static cl_uint got[3 * N];
  rd(o, got, sizeof got);
  for (unsigned g = 0; g < N; g++) {
    unsigned w0 = g / W * W;
    cl_uint r = 0, s = 0;
    for (unsigned j = w0; j < w0 + W; j++) {
      r += j * 3 + 1;
      if (j <= g) s += j * 3 + 1;
    }
    ck_assert_msg(got[3 * g] == r && got[3 * g + 1] == s && got[3 * g + 2] == w0 * 3 + 1,
                  "subgroup W=%u gid %u: got %u %u %u want %u %u %u", W, g, got[3 * g],
                  got[3 * g + 1], got[3 * g + 2], r, s, w0 * 3 + 1);
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

static int sat(double x, double lo, double hi) {
  return x != x ? 0 : x < lo ? (int)lo : x > hi ? (int)hi : (int)x;
}
START_TEST(k_convert_sat) {
  static const float in[8] = {-300.5f, -2.5f, -0.5f, 0.5f, 1.5f, 2.5f, 254.5f, 70000.25f};
  cl_kernel k = load("convert_sat");
  cl_mem a = buf(sizeof in, in), o = buf(4 * 8 * 4, NULL);
  clSetKernelArg(k, 0, sizeof a, &a);
  clSetKernelArg(k, 1, sizeof o, &o);
  ck_assert_int_eq(run(k, 8, 0), CL_COMPLETE);
  int got[32];
  rd(o, got, sizeof got);
  for (int g = 0; g < 8; g++) {
    double x = in[g];
    int want[4] = {sat(trunc(x), -128, 127), sat(nearbyint(x), 0, 255), (int)floor(x),
                   sat(ceil(x), -32768, 32767)};
    for (int j = 0; j < 4; j++)
      ck_assert_msg(got[4 * g + j] == want[j], "convert_sat x=%g form %d: got %d want %d", x, j,
                    got[4 * g + j], want[j]);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

/* An out-of-bounds store: negative event status, the process lives on, and
 * another buffer is intact. (The stderr report is checked by eye for now.) */
START_TEST(k_fault_oob) {
  enum { N = 64 };
  int other_init[4] = {11, 22, 33, 44}, other[4];
  cl_mem keep = buf(sizeof other_init, other_init);
  cl_kernel k = load("fault_oob");
  cl_mem o = buf(N * 4, NULL);
  int n = N;
  clSetKernelArg(k, 0, sizeof o, &o);
  clSetKernelArg(k, 1, sizeof n, &n);
  ck_assert_int_lt(run(k, N, 32), 0);
  rd(keep, other, sizeof other);
  ck_assert_mem_eq(other, other_init, sizeof other);
  clReleaseMemObject(o);
  clReleaseMemObject(keep);
  clReleaseKernel(k);
}
END_TEST

static int run_config(unsigned w, unsigned threads) {
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
    Suite *s = suite_create("device_kernels");
    TCase *tc = tcase_create("kernels");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, k_divergence);
    tcase_add_test(tc, k_local_reduce);
    tcase_add_test(tc, k_atomics);
    tcase_add_test(tc, k_constant_struct);
    tcase_add_test(tc, k_subgroup);
    tcase_add_test(tc, k_convert_sat);
    tcase_add_test(tc, k_fault_oob);
    suite_add_tcase(s, tc);
    _exit(cu_run(s));
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int main(void) {
  int rc = 0;
  rc |= run_config(32, 1);
  rc |= run_config(8, 2);
  rc |= run_config(32, 2);
  rc |= run_config(8, 1);
  return rc;
}
