/*
 * test_exec_ir.c - translator correctness by execution for IR that the
 * optimiser makes out of ordinary OpenCL C: funnel shifts from rotates,
 * bitcasts between boolean vectors and integers, denormal flushing under
 * -cl-denorms-are-zero, program-scope pointers initialised with addresses and
 * the placement of __local pointer arguments. Each kernel runs at -O0 and at
 * O2 and is compared with the same computation in C.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/check_util.h"

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;

static void setup(void) {
  cu_cl_setup(&dev, &ctx, &q);
}

static void teardown(void) {
  cu_cl_teardown(q, ctx);
}

static cl_program build(const char *src, const char *opts) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    ck_abort_msg("build (%s) failed (%d):\n%s", opts, err, log);
  }
  return p;
}

/* Builds src with opts and runs "k(__global out, __global const in)" over n
 * work-items (one group); out_bytes of out are read back. */
static void run(const char *src, const char *opts, size_t n, const void *in, size_t in_bytes,
                void *out, size_t out_bytes) {
  cl_program p = build(src, opts);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  memset(out, 0xa5, out_bytes);
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, out_bytes, out, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_mem din = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, in_bytes, (void *)in, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof(cl_mem), &dout), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof(cl_mem), &din), CL_SUCCESS);
  cl_event ev;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &n, 0, NULL, &ev), CL_SUCCESS);
  ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
  cl_int st;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  ck_assert_int_eq(st, CL_COMPLETE);
  clReleaseEvent(ev);
  ck_assert_int_eq(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, out_bytes, out, 0, NULL, NULL),
                   CL_SUCCESS);
  clReleaseMemObject(dout);
  clReleaseMemObject(din);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static const char *const opt_levels[] = {"-cl-opt-disable", ""};

/* A deterministic spread of 64-bit inputs. */
static void fill_inputs(uint64_t *v, unsigned n) {
  uint64_t s = 0x9e3779b97f4a7c15u;
  for (unsigned i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    v[i] = s;
  }
  v[0] = 0;
  v[1] = ~UINT64_C(0);
}

/* ---- funnel shifts: rotates by shifts become llvm.fshl / llvm.fshr ---- */
#define NF 64
#define FW 9
static uint32_t rotl32(uint32_t a, unsigned s) {
  s &= 31;
  return s ? (a << s) | (a >> (32 - s)) : a;
}
static void ref_funnel(uint64_t v, uint32_t *o) {
  uint32_t a = (uint32_t)v, s = (uint32_t)(v >> 32) & 31;
  uint8_t c = (uint8_t)v;
  uint16_t h = (uint16_t)v;
  o[0] = rotl32(a, 7);
  o[1] = rotl32(a, 25);
  o[2] = rotl32(a, s);
  o[3] = (uint8_t)((c << 3) | (c >> 5));
  o[4] = (uint16_t)((h << 11) | (h >> 5));
  uint64_t r = (v << 13) | (v >> 51);
  o[5] = (uint32_t)r;
  o[6] = (uint32_t)(r >> 32);
  o[7] = rotl32(a, s);
  /* a funnel of two different values */
  o[8] = (a << 5) | (uint32_t)(v >> 59);
}
START_TEST(test_funnel_shifts) {
  static const char *src = "kernel void k(global uint *out, global const ulong *in) {\n"
                           "  int i = get_global_id(0);\n"
                           "  ulong v = in[i];\n"
                           "  uint a = (uint)v, s = (uint)(v >> 32) & 31;\n"
                           "  uchar c = (uchar)v;\n"
                           "  ushort h = (ushort)v;\n"
                           "  global uint *o = out + i * 9;\n"
                           "  o[0] = (a << 7) | (a >> 25);\n"
                           "  o[1] = (a >> 7) | (a << 25);\n"
                           "  o[2] = (a << s) | (a >> ((32 - s) & 31));\n"
                           "  o[3] = (uchar)((c << 3) | (c >> 5));\n"
                           "  o[4] = (ushort)((h << 11) | (h >> 5));\n"
                           "  ulong r = (v << 13) | (v >> 51);\n"
                           "  o[5] = (uint)r;\n"
                           "  o[6] = (uint)(r >> 32);\n"
                           "  o[7] = rotate(a, s);\n"
                           "  o[8] = (a << 5) | (uint)(v >> 59);\n"
                           "}\n";
  uint64_t in[NF];
  fill_inputs(in, NF);
  for (int o = 0; o < 2; o++) {
    uint32_t out[NF * FW], want[FW];
    run(src, opt_levels[o], NF, in, sizeof in, out, sizeof out);
    for (unsigned i = 0; i < NF; i++) {
      ref_funnel(in[i], want);
      for (unsigned j = 0; j < FW; j++)
        ck_assert_msg(out[i * FW + j] == want[j], "[%s] item %u result %u: %#x, want %#x",
                      opt_levels[o], i, j, out[i * FW + j], want[j]);
    }
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("exec_ir");
  TCase *tc = tcase_create("exec_ir");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_funnel_shifts);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
