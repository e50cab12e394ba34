/*
 * test_exec.c - translator correctness by execution: small kernels, each
 * exercising one group of IR features, run on the device at -O0
 * (-cl-opt-disable) and at O2, and compared element by element with the
 * same computation in C.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/check_util.h"

#define N 200

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;

static void setup(void) {
  cu_cl_setup(&dev, &ctx, &q);
}

static void teardown(void) {
  cu_cl_teardown(q, ctx);
}

/* Builds src with opts, runs kernel "k(__global int *out, __global int *aux)"
 * over N work-items (local size 40 when lsz), returns out (malloc'd). */
static int32_t *run(const char *src, const char *opts, int32_t *aux_out) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    ck_abort_msg("build (%s) failed (%d):\n%s", opts, err, log);
  }
  cl_kernel k = clCreateKernel(p, "k", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  int32_t *out = calloc(N, 4), aux[N * 4] = {0};
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * 4, out, &err);
  cl_mem daux = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * 16, aux, &err);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof(cl_mem), &dout), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof(cl_mem), &daux), CL_SUCCESS);
  size_t g = N, l = 40;
  cl_event ev;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev), CL_SUCCESS);
  ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
  cl_int st;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  ck_assert_int_eq(st, CL_COMPLETE);
  clReleaseEvent(ev);
  ck_assert_int_eq(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, N * 4, out, 0, NULL, NULL), CL_SUCCESS);
  if (aux_out)
    ck_assert_int_eq(clEnqueueReadBuffer(q, daux, CL_TRUE, 0, N * 4, aux_out, 0, NULL, NULL),
                     CL_SUCCESS);
  clReleaseMemObject(dout);
  clReleaseMemObject(daux);
  clReleaseKernel(k);
  clReleaseProgram(p);
  return out;
}

typedef int32_t (*ref_fn)(int32_t i);

static void check_both(const char *src, ref_fn ref) {
  const char *opts[] = {"-cl-opt-disable", ""};
  for (int o = 0; o < 2; o++) {
    int32_t *out = run(src, opts[o], NULL);
    for (int i = 0; i < N; i++)
      ck_assert_msg(out[i] == ref(i), "[%s] out[%d] = %d, want %d", opts[o], i, out[i], ref(i));
    free(out);
  }
}

/* ---- narrow integers ---- */
static int32_t ref_narrow(int32_t i) {
  int8_t c = (int8_t)(i * 37);
  int16_t s = (int16_t)(i * 1000);
  uint8_t u = (uint8_t)(i * 11);
  u = (uint8_t)(u + 200);
  return (int32_t)(c / 3) + (s >> 2) + (uint8_t)c % 7 + u + (int32_t)(int8_t)(c * c);
}
START_TEST(test_narrow_integers) {
  check_both("__kernel void k(__global int *out, __global int *aux) {\n"
             "  int i = get_global_id(0);\n"
             "  char c = (char)(i * 37);\n"
             "  short s = (short)(i * 1000);\n"
             "  uchar u = (uchar)(i * 11);\n"
             "  u = u + 200;\n"
             "  out[i] = (int)(c / 3) + (s >> 2) + (uchar)c % 7 + u + (char)(c * c);\n"
             "}\n",
             ref_narrow);
}
END_TEST

/* ---- loops and branches ---- */
static int32_t ref_loops(int32_t i) {
  int acc = 0;
  for (int j = 0; j < i % 17; j++) {
    if (j & 1)
      acc += j;
    else
      acc -= 2 * j;
  }
  int w = i;
  while (w > 3) {
    if (w % 7 == 0) {
      w -= 5;
      continue;
    }
    if (w == 50) break;
    w -= 3;
    acc += w;
  }
  return acc;
}
START_TEST(test_loops_and_branches) {
  check_both("__kernel void k(__global int *out, __global int *aux) {\n"
             "  int i = get_global_id(0);\n"
             "  int acc = 0;\n"
             "  for (int j = 0; j < i % 17; j++) {\n"
             "    if (j & 1)\n"
             "      acc += j;\n"
             "    else\n"
             "      acc -= 2 * j;\n"
             "  }\n"
             "  int w = i;\n"
             "  while (w > 3) {\n"
             "    if (w % 7 == 0) { w -= 5; continue; }\n"
             "    if (w == 50) break;\n"
             "    w -= 3;\n"
             "    acc += w;\n"
             "  }\n"
             "  out[i] = acc;\n"
             "}\n",
             ref_loops);
}
END_TEST

/* ---- switch ---- */
static int32_t ref_switch(int32_t i) {
  int r = 1;
  switch (i % 6) {
  case 0: r = 10; break;
  case 1: r = i; break;
  case 3: r = -i; /* fall through */
  case 4: r += 7; break;
  default: r = 99;
  }
  return r;
}
START_TEST(test_switch) {
  check_both("__kernel void k(__global int *out, __global int *aux) {\n"
             "  int i = get_global_id(0);\n"
             "  int r = 1;\n"
             "  switch (i % 6) {\n"
             "  case 0: r = 10; break;\n"
             "  case 1: r = i; break;\n"
             "  case 3: r = -i;\n"
             "  case 4: r += 7; break;\n"
             "  default: r = 99;\n"
             "  }\n"
             "  out[i] = r;\n"
             "}\n",
             ref_switch);
}
END_TEST

/* ---- vectors ---- */
static int32_t ref_vectors(int32_t i) {
  int v[4] = {i, i + 1, i + 2, i + 3}, w[4];
  for (int k = 0; k < 4; k++)
    w[k] = v[k] * 2 + v[3 - k];
  int s = w[0] + w[1] * 10 + w[2] * 100 - w[3];
  int m = (w[i % 4] > 20) ? -1 : 0;
  return s + m + (w[1] < w[2]);
}
START_TEST(test_vectors) {
  check_both("__kernel void k(__global int *out, __global int *aux) {\n"
             "  int i = get_global_id(0);\n"
             "  int4 v = (int4)(i, i + 1, i + 2, i + 3);\n"
             "  int4 w = v * 2 + v.wzyx;\n"
             "  int s = w.x + w.y * 10 + w.z * 100 - w.w;\n"
             "  int4 c = w > (int4)20;\n"
             "  int m = c[i % 4];\n"
             "  out[i] = s + m + (w.y < w.z);\n"
             "}\n",
             ref_vectors);
}
END_TEST

/* ---- structs, private arrays, helper functions ---- */
static int32_t ref_structs(int32_t i) {
  struct {
    int a;
    float b;
    char c;
  } arr[4];
  for (int k = 0; k < 4; k++) {
    arr[k].a = i + k;
    arr[k].b = (float)k * 0.5f;
    arr[k].c = (char)(k + i);
  }
  int t = 0;
  for (int k = 0; k < 4; k++)
    t += arr[k].a * 3 + (int)(arr[k].b * 4) + arr[(k + i) % 4].c;
  return t;
}
START_TEST(test_structs_arrays_helpers) {
  check_both("struct P { int a; float b; char c; };\n"
             "static int weigh(struct P *p) { return p->a * 3 + (int)(p->b * 4); }\n"
             "__kernel void k(__global int *out, __global int *aux) {\n"
             "  int i = get_global_id(0);\n"
             "  struct P arr[4];\n"
             "  for (int k = 0; k < 4; k++) {\n"
             "    arr[k].a = i + k; arr[k].b = k * 0.5f; arr[k].c = (char)(k + i);\n"
             "  }\n"
             "  int t = 0;\n"
             "  for (int k = 0; k < 4; k++) t += weigh(&arr[k]) + arr[(k + i) % 4].c;\n"
             "  out[i] = t;\n"
             "}\n",
             ref_structs);
}
END_TEST

/* ---- 64-bit and double ---- */
static int32_t ref_wide(int32_t i) {
  uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  int64_t y = -(int64_t)i * 12345678901ll;
  double d = (double)i * 1.5 + 0.25;
  return (int32_t)(x % 1000003) + (int32_t)(y / 1000000007ll) + (int32_t)(d * d);
}
START_TEST(test_64bit_and_double) {
  check_both("__kernel void k(__global int *out, __global int *aux) {\n"
             "  int i = get_global_id(0);\n"
             "  ulong x = (ulong)i * 0x9E3779B97F4A7C15ul;\n"
             "  x ^= x >> 29;\n"
             "  long y = -(long)i * 12345678901l;\n"
             "  double d = (double)i * 1.5 + 0.25;\n"
             "  out[i] = (int)(x % 1000003) + (int)(y / 1000000007l) + (int)(d * d);\n"
             "}\n",
             ref_wide);
}
END_TEST

/* ---- integer builtins and intrinsics ---- */
static int32_t ref_intb(int32_t i) {
  int a = i * 7 - 300, b = 50 - i;
  int mn = a < b ? a : b, mx = a > b ? a : b;
  int ab = a < 0 ? -a : a;
  int cl = a < -10 ? -10 : a > 10 ? 10 : a;
  uint32_t u = (uint32_t)i * 2654435761u;
  uint32_t rot = (u << 5) | (u >> 27);
  int pc = __builtin_popcount(u);
  int lz = u ? __builtin_clz(u) : 32;
  uint8_t sat = (uint8_t)((i * 3) > 255 ? 255 : i * 3);
  return mn + mx * 3 + ab + cl + (int)(rot & 0xffff) + pc + lz + sat;
}
START_TEST(test_integer_builtins) {
  check_both(
      "__kernel void k(__global int *out, __global int *aux) {\n"
      "  int i = get_global_id(0);\n"
      "  int a = i * 7 - 300, b = 50 - i;\n"
      "  uint u = (uint)i * 2654435761u;\n"
      "  uint r = rotate(u, 5u);\n"
      "  uchar s = add_sat((uchar)(i * 2 > 255 ? 255 : i * 2), (uchar)(i));\n"
      "  out[i] = min(a, b) + max(a, b) * 3 + abs(a) + clamp(a, -10, 10) + (int)(r & 0xffff)\n"
      "         + popcount(u) + clz(u) + s;\n"
      "}\n",
      ref_intb);
}
END_TEST

/* ---- float math through builtins ---- */
static int32_t ref_fmath(int32_t i) {
  float x = (float)i * 0.25f;
  float r = sqrtf(x) + fabsf(-x) + fminf(x, 3.0f) + floorf(x) + fmaf(x, 2.0f, 1.0f);
  return (int32_t)lrintf(r * 1000.0f);
}
START_TEST(test_float_math) {
  const char *src =
      "__kernel void k(__global int *out, __global int *aux) {\n"
      "  int i = get_global_id(0);\n"
      "  float x = i * 0.25f;\n"
      "  float r = sqrt(x) + fabs(-x) + fmin(x, 3.0f) + floor(x) + fma(x, 2.0f, 1.0f);\n"
      "  out[i] = (int)rint(r * 1000.0f);\n"
      "}\n";
  const char *opts[] = {"-cl-opt-disable", ""};
  for (int o = 0; o < 2; o++) {
    int32_t *out = run(src, opts[o], NULL);
    for (int i = 0; i < N; i++)
      ck_assert_msg(abs(out[i] - ref_fmath(i)) <= 1, "[%s] out[%d] = %d, want %d", opts[o], i,
                    out[i], ref_fmath(i));
    free(out);
  }
}
END_TEST

/* ---- local memory, barriers, atomics ---- */
START_TEST(test_local_barrier_atomics) {
  const char *src = "__kernel void k(__global int *out, __global int *aux) {\n"
                    "  __local int tile[40];\n"
                    "  int l = get_local_id(0), i = get_global_id(0);\n"
                    "  tile[l] = i * 2;\n"
                    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "  out[i] = tile[39 - l];\n"
                    "  atomic_inc(&aux[0]);\n"
                    "  atomic_add(&aux[1], i);\n"
                    "  atomic_max(&aux[2], i);\n"
                    "}\n";
  const char *opts[] = {"-cl-opt-disable", ""};
  for (int o = 0; o < 2; o++) {
    int32_t aux[N];
    int32_t *out = run(src, opts[o], aux);
    for (int i = 0; i < N; i++) {
      int base = i / 40 * 40, l = i % 40;
      ck_assert_int_eq(out[i], (base + 39 - l) * 2);
    }
    ck_assert_int_eq(aux[0], N);
    ck_assert_int_eq(aux[1], N * (N - 1) / 2);
    ck_assert_int_eq(aux[2], N - 1);
    free(out);
  }
}
END_TEST

/* ---- program-scope constant data ---- */
static int32_t ref_const(int32_t i) {
  static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  return table[i % 8] * 100 + table[(i + 3) % 8];
}
START_TEST(test_program_scope_constants) {
  check_both("__constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};\n"
             "__kernel void k(__global int *out, __global int *aux) {\n"
             "  int i = get_global_id(0);\n"
             "  out[i] = table[i % 8] * 100 + table[(i + 3) % 8];\n"
             "}\n",
             ref_const);
}
END_TEST

/* ---- a spin lock inside one warp (seed 004) ---- */
START_TEST(test_warp_spin_lock) {
  const char *src = "__kernel void k(__global int *out, __global int *aux) {\n"
                    "  int i = get_global_id(0);\n"
                    "  while (atomic_cmpxchg(&aux[0], 0, 1) != 0)\n"
                    "    ;\n"
                    "  aux[1] = aux[1] + 1;\n"
                    "  atomic_xchg(&aux[0], 0);\n"
                    "  out[i] = 1;\n"
                    "}\n";
  const char *opts[] = {"-cl-opt-disable", ""};
  for (int o = 0; o < 2; o++) {
    int32_t aux[N];
    int32_t *out = run(src, opts[o], aux);
    ck_assert_int_eq(aux[1], N);
    free(out);
  }
}
END_TEST

/* ---- conversions, shuffles, vload/vstore ---- */
static int32_t ref_conv(int32_t i) {
  float f = (float)i * 1.5f - 150.0f;
  int a = (int)f;                                /* convert_int (rtz) */
  int b = (int)floorf(f);                        /* convert_int_rtn */
  int c = f < 0 ? 0 : f > 255 ? 255 : (int)f;    /* convert_uchar_sat */
  int s = (i * 300) > 32767 ? 32767 : (i * 300); /* convert_short_sat */
  int v[4] = {i, i + 1, i + 2, i + 3}, sh = v[(i + 1) & 3];
  return a + b * 3 + c * 5 + s + sh * 7;
}
START_TEST(test_conversions_and_shuffles) {
  check_both("__kernel void k(__global int *out, __global int *aux) {\n"
             "  int i = get_global_id(0);\n"
             "  float f = i * 1.5f - 150.0f;\n"
             "  float4 fv = (float4)(f);\n"
             "  int4 a = convert_int4(fv);\n"
             "  int b = convert_int_rtn(f);\n"
             "  uchar c = convert_uchar_sat(f);\n"
             "  short s = convert_short_sat(i * 300);\n"
             "  int4 v = (int4)(i, i + 1, i + 2, i + 3);\n"
             "  uint4 m = (uint4)(i + 1, 0, 0, 0);\n"
             "  int4 sh = shuffle(v, m);\n"
             "  vstore4(v, i, aux);\n"
             "  int4 back = vload4(i, aux);\n"
             "  out[i] = a.y + b * 3 + c * 5 + s + sh.x * 7 + (back.w - v.w);\n"
             "}\n",
             ref_conv);
}
END_TEST

/* ---- llvm.bitreverse, llvm.memmove, llvm.*.with.overflow ---- */
static uint64_t rev_bits(uint64_t v, unsigned bits) {
  uint64_t r = 0;
  for (unsigned b = 0; b < bits; b++)
    r |= ((v >> b) & 1) << (bits - 1 - b);
  return r;
}
static int32_t ref_bitreverse(int32_t i) {
  uint32_t u = (uint32_t)i * 2654435761u;
  uint64_t l = (uint64_t)u * 0x9e3779b97f4a7c15u;
  uint32_t r = (uint32_t)rev_bits(u, 32);
  uint8_t c = (uint8_t)rev_bits((uint8_t)i, 8);
  uint16_t h = (uint16_t)rev_bits((uint16_t)(i * 977), 16);
  uint64_t lr = rev_bits(l, 64);
  return (int32_t)(r ^ c ^ ((uint32_t)h << 8) ^ (uint32_t)lr ^ (uint32_t)(lr >> 32));
}
START_TEST(test_bitreverse) {
  check_both("__kernel void k(__global int *out, __global int *aux) {\n"
             "  int i = get_global_id(0);\n"
             "  uint u = (uint)i * 2654435761u;\n"
             "  ulong l = (ulong)u * 0x9e3779b97f4a7c15ul;\n"
             "  uint r = 0;\n"
             "  for (int b = 0; b < 32; b++)\n"
             "    r |= ((u >> b) & 1u) << (31 - b);\n"
             "  uchar c = __builtin_bitreverse8((uchar)i);\n"
             "  ushort h = __builtin_bitreverse16((ushort)(i * 977));\n"
             "  ulong lr = __builtin_bitreverse64(l);\n"
             "  out[i] = r ^ c ^ ((uint)h << 8) ^ (uint)lr ^ (uint)(lr >> 32);\n"
             "}\n",
             ref_bitreverse);
}
END_TEST

static int32_t ref_memmove(int32_t i) {
  int p[16];
  for (int j = 0; j < 16; j++)
    p[j] = i * 3 + j * j;
  memmove(&p[1 + i % 3], &p[0], 8 * sizeof(int));
  memmove(&p[0], &p[2 + i % 5], 7 * sizeof(int));
  uint32_t acc = 0;
  for (int j = 0; j < 16; j++)
    acc = acc * 31 + (uint32_t)p[j];
  return (int32_t)acc;
}
START_TEST(test_memmove) {
  check_both("__kernel void k(__global int *out, __global int *aux) {\n"
             "  int i = get_global_id(0);\n"
             "  int p[16];\n"
             "  for (int j = 0; j < 16; j++)\n"
             "    p[j] = i * 3 + j * j;\n"
             "  __builtin_memmove(&p[1 + i % 3], &p[0], 8 * sizeof(int));\n"
             "  __builtin_memmove(&p[0], &p[2 + i % 5], 7 * sizeof(int));\n"
             "  uint acc = 0;\n"
             "  for (int j = 0; j < 16; j++)\n"
             "    acc = acc * 31 + p[j];\n"
             "  out[i] = acc;\n"
             "}\n",
             ref_memmove);
}
END_TEST

static int32_t ref_overflow(int32_t i) {
  int32_t a = (int32_t)((uint32_t)i * 21474836u - 2000000000u), b = 1500000000 - i * 7777777, s;
  uint32_t ua = (uint32_t)i * 2654435761u, ub = (uint32_t)i * 40503u + 3000000000u, us;
  int64_t la = (int64_t)((uint64_t)i * 92233720368547758u - INT64_MAX),
          lb = (int64_t)i * -46116860184273879, ls;
  uint64_t ula = (uint64_t)ua << 31, ulb = (uint64_t)i * 0x9e3779b97f4a7c15u, uls;
  int16_t sa = (int16_t)(i * 300), sb = (int16_t)(i * -250), ss;
  uint32_t h = 0, k = 1;
#define OV(op, x, y, r)                                                                            \
  do {                                                                                             \
    int o = op(x, y, &r);                                                                          \
    h = h * 3 + (uint32_t)r + (uint32_t)((uint64_t)r >> 32) * 5 + (uint32_t)o * k;                 \
    k *= 2;                                                                                        \
  } while (0)
  OV(__builtin_add_overflow, a, b, s);
  OV(__builtin_sub_overflow, a, b, s);
  OV(__builtin_mul_overflow, a, b, s);
  OV(__builtin_add_overflow, ua, ub, us);
  OV(__builtin_sub_overflow, ua, ub, us);
  OV(__builtin_mul_overflow, ua, ub, us);
  OV(__builtin_add_overflow, la, lb, ls);
  OV(__builtin_sub_overflow, la, lb, ls);
  OV(__builtin_mul_overflow, la, lb, ls);
  OV(__builtin_mul_overflow, la, (int64_t)-1, ls);
  OV(__builtin_add_overflow, ula, ulb, uls);
  OV(__builtin_sub_overflow, ula, ulb, uls);
  OV(__builtin_mul_overflow, ula, ulb, uls);
  OV(__builtin_mul_overflow, ula, (uint64_t)(i % 3), uls);
  OV(__builtin_add_overflow, sa, sb, ss);
  OV(__builtin_mul_overflow, sa, sb, ss);
#undef OV
  return (int32_t)h;
}
START_TEST(test_arith_with_overflow) {
  check_both(
      "#define OV(op, x, y, r) do { \\\n"
      "    int o = op(x, y, &r); \\\n"
      "    h = h * 3 + (uint)r + (uint)((ulong)r >> 32) * 5 + (uint)o * k; \\\n"
      "    k *= 2; \\\n"
      "  } while (0)\n"
      "__kernel void k(__global int *out, __global int *aux) {\n"
      "  int i = get_global_id(0);\n"
      "  int a = (int)((uint)i * 21474836u - 2000000000u), b = 1500000000 - i * 7777777, s;\n"
      "  uint ua = (uint)i * 2654435761u, ub = (uint)i * 40503u + 3000000000u, us;\n"
      "  long la = (long)((ulong)i * 92233720368547758ul - LONG_MAX), lb = (long)i * "
      "-46116860184273879l, ls;\n"
      "  ulong ula = (ulong)ua << 31, ulb = (ulong)i * 0x9e3779b97f4a7c15ul, uls;\n"
      "  short sa = (short)(i * 300), sb = (short)(i * -250), ss;\n"
      "  uint h = 0, k = 1;\n"
      "  OV(__builtin_add_overflow, a, b, s);\n"
      "  OV(__builtin_sub_overflow, a, b, s);\n"
      "  OV(__builtin_mul_overflow, a, b, s);\n"
      "  OV(__builtin_add_overflow, ua, ub, us);\n"
      "  OV(__builtin_sub_overflow, ua, ub, us);\n"
      "  OV(__builtin_mul_overflow, ua, ub, us);\n"
      "  OV(__builtin_add_overflow, la, lb, ls);\n"
      "  OV(__builtin_sub_overflow, la, lb, ls);\n"
      "  OV(__builtin_mul_overflow, la, lb, ls);\n"
      "  OV(__builtin_mul_overflow, la, (long)-1, ls);\n"
      "  OV(__builtin_add_overflow, ula, ulb, uls);\n"
      "  OV(__builtin_sub_overflow, ula, ulb, uls);\n"
      "  OV(__builtin_mul_overflow, ula, ulb, uls);\n"
      "  OV(__builtin_mul_overflow, ula, (ulong)(i % 3), uls);\n"
      "  OV(__builtin_add_overflow, sa, sb, ss);\n"
      "  OV(__builtin_mul_overflow, sa, sb, ss);\n"
      "  out[i] = h;\n"
      "}\n",
      ref_overflow);
}
END_TEST

int main(void) {
  Suite *s = suite_create("exec");
  TCase *tc = tcase_create("exec");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_narrow_integers);
  tcase_add_test(tc, test_loops_and_branches);
  tcase_add_test(tc, test_switch);
  tcase_add_test(tc, test_vectors);
  tcase_add_test(tc, test_structs_arrays_helpers);
  tcase_add_test(tc, test_64bit_and_double);
  tcase_add_test(tc, test_integer_builtins);
  tcase_add_test(tc, test_float_math);
  tcase_add_test(tc, test_local_barrier_atomics);
  tcase_add_test(tc, test_program_scope_constants);
  tcase_add_test(tc, test_warp_spin_lock);
  tcase_add_test(tc, test_conversions_and_shuffles);
  tcase_add_test(tc, test_bitreverse);
  tcase_add_test(tc, test_memmove);
  tcase_add_test(tc, test_arith_with_overflow);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
