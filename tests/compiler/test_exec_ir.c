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

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "compiler/cc.h"
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

/* Runs textual LLVM IR defining "k(ptr addrspace(1) out, ptr addrspace(1)
 * in)" through the compiler (cc_link) and the program-binary path of the
 * API, like run(). The IR says itself whether it is optimised (optnone). */
static void run_ir(const char *ir, size_t n, const void *in, size_t in_bytes, void *out,
                   size_t out_bytes) {
  LLVMContextRef lc = LLVMContextCreate();
  LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "ir");
  LLVMModuleRef m = NULL;
  char *msg = NULL;
  ck_assert_msg(!LLVMParseIRInContext(lc, mb, &m, &msg), "IR: %s", msg ? msg : "");
  LLVMMemoryBufferRef bcb = LLVMWriteBitcodeToMemoryBuffer(m);
  struct cc_bitcode bc = {(uint8_t *)LLVMGetBufferStart(bcb), LLVMGetBufferSize(bcb)}, lib;
  struct lsi_program *prog = NULL;
  char *log = NULL;
  int rc = cc_link(&bc, 1, "", &prog, &lib, &log);
  ck_assert_msg(rc == CC_OK, "translation failed (%d): %s", rc, log ? log : "");
  free(log);
  LLVMDisposeMemoryBuffer(bcb);
  LLVMDisposeModule(m);
  LLVMContextDispose(lc);
  uint8_t *bin;
  size_t len;
  ck_assert_int_eq(cc_binary_save(prog, NULL, CC_BIN_EXECUTABLE, "", &bin, &len), CC_OK);
  cc_program_free(prog);
  cl_int err, st;
  cl_program p =
      clCreateProgramWithBinary(ctx, 1, &dev, &len, (const unsigned char **)&bin, &st, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  free(bin);
  ck_assert_int_eq(clBuildProgram(p, 1, &dev, "", NULL, NULL), CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "k", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  memset(out, 0xa5, out_bytes);
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, out_bytes, out, &err);
  cl_mem din = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, in_bytes, (void *)in, &err);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof(cl_mem), &dout), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof(cl_mem), &din), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &n, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, out_bytes, out, 0, NULL, NULL),
                   CL_SUCCESS);
  clReleaseMemObject(dout);
  clReleaseMemObject(din);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

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

/* Funnel shifts of widths other than 8, 16, 32 and 64 bits (i24, i48),
 * which clang makes of no OpenCL C but the optimiser may: the shift amount
 * is taken modulo a width that is no power of two, and the concatenation of
 * the operands is wider than the arithmetic it is done in. "%W" stands for
 * the width; a is bits [0, W) of the input, b bits [B, B + W), s its top
 * 16 bits. */
static const char *funnel_ir =
    "target datalayout = \"e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-"
    "v512:512-v1024:1024-G1\"\n"
    "target triple = \"spir64-unknown-unknown\"\n"
    "declare i64 @_Z13get_global_idj(i32)\n"
    "declare i%W @llvm.fshl.i%W(i%W, i%W, i%W)\n"
    "declare i%W @llvm.fshr.i%W(i%W, i%W, i%W)\n"
    "define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) #0 {\n"
    "  %gid = call i64 @_Z13get_global_idj(i32 0)\n"
    "  %pin = getelementptr i64, ptr addrspace(1) %in, i64 %gid\n"
    "  %v = load i64, ptr addrspace(1) %pin\n"
    "  %a = trunc i64 %v to i%W\n"
    "  %h = lshr i64 %v, %B\n"
    "  %b = trunc i64 %h to i%W\n"
    "  %h2 = lshr i64 %v, 48\n"
    "  %s = trunc i64 %h2 to i%W\n"
    "  %l = call i%W @llvm.fshl.i%W(i%W %a, i%W %b, i%W %s)\n"
    "  %r = call i%W @llvm.fshr.i%W(i%W %a, i%W %b, i%W %s)\n"
    "  %zl = zext i%W %l to i64\n"
    "  %zr = zext i%W %r to i64\n"
    "  %o = getelementptr [2 x i64], ptr addrspace(1) %out, i64 %gid\n"
    "  store i64 %zl, ptr addrspace(1) %o\n"
    "  %o1 = getelementptr i64, ptr addrspace(1) %o, i64 1\n"
    "  store i64 %zr, ptr addrspace(1) %o1\n"
    "  ret void\n"
    "}\n";

/* funnel_ir with %W and %B replaced by w and 64 - w. */
static void funnel_ir_for(unsigned w, char *out, size_t cap) {
  size_t o = 0;
  for (const char *p = funnel_ir; *p && o + 4 < cap; p++) {
    if (p[0] == '%' && (p[1] == 'W' || p[1] == 'B')) {
      o += (size_t)snprintf(out + o, cap - o, "%u", p[1] == 'W' ? w : 64 - w);
      p++;
    } else {
      out[o++] = *p;
    }
  }
  out[o] = 0;
}

/* fshl / fshr of the operands funnel_ir takes from v, in unsigned __int128. */
static void ref_funnel_w(uint64_t v, unsigned w, uint64_t *o) {
  uint64_t m = (UINT64_C(1) << w) - 1, a = v & m, b = (v >> (64 - w)) & m, s = (v >> 48) % w;
  unsigned __int128 ab = ((unsigned __int128)a << w) | b;
  o[0] = (uint64_t)((ab << s) >> w) & m;
  o[1] = (uint64_t)(ab >> s) & m;
}
START_TEST(test_funnel_shifts_odd_width) {
  static const char *const attrs[] = {"noinline optnone", "nounwind"};
  static const unsigned widths[] = {24, 48};
  uint64_t in[NF];
  fill_inputs(in, NF);
  for (unsigned wi = 0; wi < 2; wi++)
    for (int a = 0; a < 2; a++) {
      char body[4096], ir[4200];
      funnel_ir_for(widths[wi], body, sizeof body);
      snprintf(ir, sizeof ir, "%sattributes #0 = { %s }\n", body, attrs[a]);
      uint64_t out[NF * 2], want[2];
      run_ir(ir, NF, in, sizeof in, out, sizeof out);
      for (unsigned i = 0; i < NF; i++) {
        ref_funnel_w(in[i], widths[wi], want);
        for (unsigned j = 0; j < 2; j++)
          ck_assert_msg(out[i * 2 + j] == want[j], "[%s] i%u input %#llx fsh%c: %#llx, want %#llx",
                        attrs[a], widths[wi], (unsigned long long)in[i], j ? 'r' : 'l',
                        (unsigned long long)out[i * 2 + j], (unsigned long long)want[j]);
      }
    }
}
END_TEST

/* ---- bitcasts between vectors and integers, boolean vectors in memory ---- */
#define NB 64
#define BW 12
static const char *bitcast_ir =
    "target datalayout = \"e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-"
    "v512:512-v1024:1024-G1\"\n"
    "target triple = \"spir64-unknown-unknown\"\n"
    "declare i64 @_Z13get_global_idj(i32)\n"
    "define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) #0 {\n"
    "  %gid = call i64 @_Z13get_global_idj(i32 0)\n"
    "  %pin = getelementptr i64, ptr addrspace(1) %in, i64 %gid\n"
    "  %v = load i64, ptr addrspace(1) %pin\n"
    "  %o = getelementptr [12 x i32], ptr addrspace(1) %out, i64 %gid\n"
    /* 0, 1: i4 <-> <4 x i1> */
    "  %t4 = trunc i64 %v to i4\n"
    "  %b4 = bitcast i4 %t4 to <4 x i1>\n"
    "  %e2 = extractelement <4 x i1> %b4, i32 2\n"
    "  %z2 = zext i1 %e2 to i32\n"
    "  store i32 %z2, ptr addrspace(1) %o\n"
    "  %n4 = xor <4 x i1> %b4, <i1 1, i1 0, i1 0, i1 0>\n"
    "  %r4 = bitcast <4 x i1> %n4 to i4\n"
    "  %z4 = zext i4 %r4 to i32\n"
    "  %o1 = getelementptr i32, ptr addrspace(1) %o, i64 1\n"
    "  store i32 %z4, ptr addrspace(1) %o1\n"
    /* 2: the sign mask of 8 bytes, <8 x i1> -> i8 */
    "  %v8 = bitcast i64 %v to <8 x i8>\n"
    "  %c8 = icmp ugt <8 x i8> %v8, <i8 127, i8 127, i8 127, i8 127, i8 127, i8 127, i8 127, "
    "i8 127>\n"
    "  %m8 = bitcast <8 x i1> %c8 to i8\n"
    "  %z8 = zext i8 %m8 to i32\n"
    "  %o2 = getelementptr i32, ptr addrspace(1) %o, i64 2\n"
    "  store i32 %z8, ptr addrspace(1) %o2\n"
    /* 3: i24 <-> <3 x i8> */
    "  %t24 = trunc i64 %v to i24\n"
    "  %v3 = bitcast i24 %t24 to <3 x i8>\n"
    "  %s3 = add <3 x i8> %v3, <i8 1, i8 2, i8 3>\n"
    "  %r24 = bitcast <3 x i8> %s3 to i24\n"
    "  %z24 = zext i24 %r24 to i32\n"
    "  %o3 = getelementptr i32, ptr addrspace(1) %o, i64 3\n"
    "  store i32 %z24, ptr addrspace(1) %o3\n"
    /* 4: i64 -> <2 x float> */
    "  %f2 = bitcast i64 %v to <2 x float>\n"
    "  %f1 = extractelement <2 x float> %f2, i32 1\n"
    "  %u1 = bitcast float %f1 to i32\n"
    "  %o4 = getelementptr i32, ptr addrspace(1) %o, i64 4\n"
    "  store i32 %u1, ptr addrspace(1) %o4\n"
    /* 5, 6: <4 x i16> -> <2 x i32> */
    "  %h4 = bitcast i64 %v to <4 x i16>\n"
    "  %w2 = bitcast <4 x i16> %h4 to <2 x i32>\n"
    "  %w0 = extractelement <2 x i32> %w2, i32 0\n"
    "  %w1 = extractelement <2 x i32> %w2, i32 1\n"
    "  %o5 = getelementptr i32, ptr addrspace(1) %o, i64 5\n"
    "  store i32 %w0, ptr addrspace(1) %o5\n"
    "  %o6 = getelementptr i32, ptr addrspace(1) %o, i64 6\n"
    "  store i32 %w1, ptr addrspace(1) %o6\n"
    /* 7: i16 -> <16 x i1> -> <2 x i8> */
    "  %t16 = trunc i64 %v to i16\n"
    "  %b16 = bitcast i16 %t16 to <16 x i1>\n"
    "  %y2 = bitcast <16 x i1> %b16 to <2 x i8>\n"
    "  %y1 = extractelement <2 x i8> %y2, i32 1\n"
    "  %zy = zext i8 %y1 to i32\n"
    "  %o7 = getelementptr i32, ptr addrspace(1) %o, i64 7\n"
    "  store i32 %zy, ptr addrspace(1) %o7\n"
    /* 8: <2 x i32> -> <4 x i16>, element 3 */
    "  %x2 = bitcast i64 %v to <2 x i32>\n"
    "  %x4 = bitcast <2 x i32> %x2 to <4 x i16>\n"
    "  %x3 = extractelement <4 x i16> %x4, i32 3\n"
    "  %zx = zext i16 %x3 to i32\n"
    "  %o8 = getelementptr i32, ptr addrspace(1) %o, i64 8\n"
    "  store i32 %zx, ptr addrspace(1) %o8\n"
    /* 9, 10, 11: boolean vectors in memory are bit fields */
    "  %a1 = alloca i64, align 8\n"
    "  store <8 x i1> %c8, ptr %a1\n"
    "  %l9 = load i8, ptr %a1\n"
    "  %z9 = zext i8 %l9 to i32\n"
    "  %o9 = getelementptr i32, ptr addrspace(1) %o, i64 9\n"
    "  store i32 %z9, ptr addrspace(1) %o9\n"
    "  %sh = lshr i64 %v, 8\n"
    "  %t8 = trunc i64 %sh to i8\n"
    "  store i8 %t8, ptr %a1\n"
    "  %l10 = load <8 x i1>, ptr %a1\n"
    "  %e5 = extractelement <8 x i1> %l10, i32 5\n"
    "  %z10 = zext i1 %e5 to i32\n"
    "  %o10 = getelementptr i32, ptr addrspace(1) %o, i64 10\n"
    "  store i32 %z10, ptr addrspace(1) %o10\n"
    "  store i8 0, ptr %a1\n"
    "  store <4 x i1> %b4, ptr %a1\n"
    "  %l11 = load i8, ptr %a1\n"
    "  %z11 = zext i8 %l11 to i32\n"
    "  %o11 = getelementptr i32, ptr addrspace(1) %o, i64 11\n"
    "  store i32 %z11, ptr addrspace(1) %o11\n"
    "  ret void\n"
    "}\n";

static void ref_bitcast(uint64_t v, uint32_t *o) {
  uint8_t mask = 0;
  for (unsigned b = 0; b < 8; b++)
    mask |= (uint8_t)(((v >> (8 * b + 7)) & 1) << b);
  o[0] = (v >> 2) & 1;
  o[1] = (uint32_t)((v ^ 1) & 15);
  o[2] = mask;
  o[3] = (uint32_t)(((v + 1) & 0xff) | ((((v >> 8) + 2) & 0xff) << 8) |
                    ((((v >> 16) + 3) & 0xff) << 16));
  o[4] = (uint32_t)(v >> 32);
  o[5] = (uint32_t)v;
  o[6] = (uint32_t)(v >> 32);
  o[7] = (uint32_t)(v >> 8) & 0xff;
  o[8] = (uint32_t)(v >> 48);
  o[9] = mask;
  o[10] = (v >> 13) & 1;
  o[11] = (uint32_t)v & 15;
}
START_TEST(test_vector_integer_bitcasts) {
  static const char *const attrs[] = {"noinline optnone", "nounwind"};
  uint64_t in[NB];
  fill_inputs(in, NB);
  for (int a = 0; a < 2; a++) {
    char ir[8192];
    snprintf(ir, sizeof ir, "%sattributes #0 = { %s }\n", bitcast_ir, attrs[a]);
    uint32_t out[NB * BW], want[BW];
    run_ir(ir, NB, in, sizeof in, out, sizeof out);
    for (unsigned i = 0; i < NB; i++) {
      ref_bitcast(in[i], want);
      for (unsigned j = 0; j < BW; j++)
        ck_assert_msg(out[i * BW + j] == want[j], "[%s] item %u result %u: %#x, want %#x", attrs[a],
                      i, j, out[i * BW + j], want[j]);
    }
  }
}
END_TEST

/* The OpenCL C that LLVM turns into a boolean-vector bitcast (`any` of
 * unrolled compares: bitcast <4 x i1> to i4). */
static int32_t ref_any_differs(const int32_t *v, int32_t i) {
  int32_t r = 0;
  for (int j = 0; j < 4; j++)
    if (v[j] != (0x0403020 | j)) r = -1;
  return r ? r : i;
}
START_TEST(test_compare_chain) {
  static const char *src = "kernel void k(global int *out, global const int *in) {\n"
                           "  int i = get_global_id(0);\n"
                           "  int r = i;\n"
                           "  for (int j = 0; j < 4; ++j)\n"
                           "    if (in[4 * i + j] != (0x0403020 | j)) r = -1;\n"
                           "  out[i] = r;\n"
                           "}\n";
  enum { n = 32 };
  int32_t in[4 * n], out[n];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 4; j++)
      in[4 * i + j] = (0x0403020 | j) + (i % 5 == j ? 1 : 0);
  for (int o = 0; o < 2; o++) {
    run(src, opt_levels[o], n, in, sizeof in, out, sizeof out);
    for (int i = 0; i < n; i++)
      ck_assert_msg(out[i] == ref_any_differs(in + 4 * i, i), "[%s] out[%d] = %d", opt_levels[o], i,
                    out[i]);
  }
}
END_TEST

/* ---- program-scope pointers initialised with addresses ---- */
START_TEST(test_program_scope_pointers) {
  static const char *src =
      "global int a[4] = {10, 11, 12, 13};\n"
      "constant int c[3] = {20, 21, 22};\n"
      "global int *p = &a[1];\n"
      "global int *global q = a + 3;\n"
      "constant int *constant pc = &c[2];\n"
      "typedef struct { int tag; global int *ptr; constant int *cp; } S;\n"
      "global S s = {7, &a[2], c};\n"
      "global int *arr[3] = {&a[0], 0, &a[3]};\n"
      "global int **pp = &arr[2];\n"
      "kernel void k(global int *out, global const int *in) {\n"
      "  int i = get_global_id(0);\n"
      "  if (i == 0) { *p += in[0]; p = &a[2]; }\n"
      "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
      "  if (i == 1) {\n"
      "    out[0] = *p; out[1] = *q; out[2] = *pc; out[3] = s.tag + *s.ptr + s.cp[1];\n"
      "    out[4] = *arr[0] + *arr[2] + (arr[1] == 0); out[5] = **pp; out[6] = a[1];\n"
      "  }\n"
      "}\n";
  int32_t in[1] = {100};
  int32_t want[7] = {12, 13, 22, 7 + 12 + 21, 10 + 13 + 1, 13, 111};
  for (int o = 0; o < 2; o++) {
    int32_t out[7];
    char opts[64];
    snprintf(opts, sizeof opts, "-cl-std=CL3.0 %s", opt_levels[o]);
    run(src, opts, 2, in, sizeof in, out, sizeof out);
    for (int j = 0; j < 7; j++)
      ck_assert_msg(out[j] == want[j], "[%s] out[%d] = %d, want %d", opts, j, out[j], want[j]);
  }
}
END_TEST

/* The relocations survive the program binary (CL_PROGRAM_BINARIES). */
START_TEST(test_program_scope_pointers_binary) {
  static const char *src = "global int a[2] = {5, 6};\n"
                           "global int *p = &a[1];\n"
                           "kernel void k(global int *out, global const int *in) {\n"
                           "  out[0] = *p + in[0];\n"
                           "}\n";
  cl_program p = build(src, "-cl-std=CL3.0");
  size_t len;
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL),
                   CL_SUCCESS);
  unsigned char *bin = malloc(len);
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
  clReleaseProgram(p);
  cl_int err, st;
  p = clCreateProgramWithBinary(ctx, 1, &dev, &len, (const unsigned char **)&bin, &st, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  free(bin);
  ck_assert_int_eq(clBuildProgram(p, 1, &dev, "", NULL, NULL), CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "k", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  int32_t in = 30, out = 0;
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 4, &out, &err);
  cl_mem din = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 4, &in, &err);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof(cl_mem), &dout), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof(cl_mem), &din), CL_SUCCESS);
  size_t one = 1;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, 4, &out, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(out, 36);
  clReleaseMemObject(dout);
  clReleaseMemObject(din);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
END_TEST

/* ---- __local pointer arguments are aligned for their pointee ---- */
START_TEST(test_local_arg_alignment) {
  static const char *src =
      "kernel void k(global ulong *out, global const int *in, local char *c,\n"
      "              local int *i4, local long16 *p, local double16 *d, local void *v) {\n"
      "  c[0] = 1;\n"
      "  p[1] = (long16)(in[0]);\n"
      "  d[0] = (double16)(2.0);\n"
      "  out[0] = (ulong)c; out[1] = (ulong)i4; out[2] = (ulong)p;\n"
      "  out[3] = (ulong)d; out[4] = (ulong)v; out[5] = p[1].sf + (long)d[0].s7;\n"
      "}\n";
  for (int o = 0; o < 2; o++) {
    cl_program p = build(src, opt_levels[o]);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    uint64_t out[6] = {0};
    int32_t in = 40;
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
    cl_mem din = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, &in, &err);
    ck_assert_int_eq(clSetKernelArg(k, 0, sizeof(cl_mem), &dout), CL_SUCCESS);
    ck_assert_int_eq(clSetKernelArg(k, 1, sizeof(cl_mem), &din), CL_SUCCESS);
    static const size_t sizes[] = {3, 4, 256, 128, 5};
    for (cl_uint a = 0; a < 5; a++)
      ck_assert_int_eq(clSetKernelArg(k, 2 + a, sizes[a], NULL), CL_SUCCESS);
    cl_ulong lmem = 0;
    ck_assert_int_eq(
        clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL),
        CL_SUCCESS);
    size_t one = 1;
    ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
    ck_assert_int_eq(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                     CL_SUCCESS);
    /* long16 and double16 need 128 bytes, int 4; a void pointee anything */
    static const uint64_t need[] = {1, 4, 128, 128, 128};
    for (int a = 0; a < 5; a++)
      ck_assert_msg(out[a] % need[a] == 0, "[%s] local argument %d at %#llx, not %llu-aligned",
                    opt_levels[o], a, (unsigned long long)out[a], (unsigned long long)need[a]);
    ck_assert_uint_eq(out[5], 42);
    /* the blocks, each aligned for its pointee (at least 16) and no more: 0-3,
     * 16-20, 128-384, 384-512, 512-517 (CL_KERNEL_LOCAL_MEM_SIZE uses the
     * device's layout) */
    ck_assert_uint_eq(lmem, 517);
    clReleaseMemObject(dout);
    clReleaseMemObject(din);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
}
END_TEST

/* ---- -cl-denorms-are-zero flushes f32 subnormal operands and results ---- */
static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
START_TEST(test_denorms_are_zero) {
  static const char *src = "kernel void k(global uint *out, global const float *in) {\n"
                           "  float zero = in[0], sub = in[1], minn = in[2], h = in[3];\n"
                           "  out[0] = as_uint(zero + sub);\n"       /* a subnormal result */
                           "  out[1] = as_uint(minn * -h);\n"        /* -subnormal result: -0 */
                           "  out[2] = as_uint(sub * 1048576.0f);\n" /* a subnormal operand */
                           "  out[3] = sub == zero;\n"               /* compares see zero */
                           "  out[4] = as_uint(sub * h);\n"
                           "  out[5] = as_uint(minn + zero);\n" /* normal values unchanged */
                           "}\n";
  float sub = 0x1p-143f, minn = 0x1p-126f;
  float in[4] = {0.0f, sub, minn, 0.5f};
  const uint32_t kept[6] = {fbits(sub), fbits(-0x1p-127f), fbits(sub * 1048576.0f),
                            0,          fbits(sub * 0.5f), fbits(minn)};
  const uint32_t flushed[6] = {0, 0x80000000u, 0, 1, 0, fbits(minn)};
  static const char *const opts[] = {"-cl-denorms-are-zero -cl-opt-disable", "-cl-denorms-are-zero",
                                     "-cl-opt-disable", ""};
  for (int o = 0; o < 4; o++) {
    const uint32_t *want = o < 2 ? flushed : kept;
    uint32_t out[6];
    run(src, opts[o], 1, in, sizeof in, out, sizeof out);
    for (int j = 0; j < 6; j++)
      ck_assert_msg(out[j] == want[j], "[%s] out[%d] = %#x, want %#x", opts[o], j, out[j], want[j]);
  }
}
END_TEST

/* The link option flushes too, whatever the objects were compiled with. */
START_TEST(test_denorms_are_zero_link) {
  static const char *src = "kernel void k(global uint *out, global const float *in) {\n"
                           "  out[0] = as_uint(in[0] + in[1]);\n"
                           "}\n";
  float in[2] = {0.0f, 0x1p-143f};
  static const char *const lopts[] = {"-cl-denorms-are-zero", ""};
  for (int o = 0; o < 2; o++) {
    cl_int err;
    cl_program obj = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_int_eq(clCompileProgram(obj, 1, &dev, "", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_program p = clLinkProgram(ctx, 1, &dev, lopts[o], 1, &obj, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "k", &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    uint32_t out = 7;
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 4, &out, &err);
    cl_mem din = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    ck_assert_int_eq(clSetKernelArg(k, 0, sizeof(cl_mem), &dout), CL_SUCCESS);
    ck_assert_int_eq(clSetKernelArg(k, 1, sizeof(cl_mem), &din), CL_SUCCESS);
    size_t one = 1;
    ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
    ck_assert_int_eq(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, 4, &out, 0, NULL, NULL), CL_SUCCESS);
    ck_assert_uint_eq(out, o == 0 ? 0 : fbits(0x1p-143f));
    clReleaseMemObject(dout);
    clReleaseMemObject(din);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseProgram(obj);
  }
}
END_TEST

/* ---- immediates of every integer width ---- */
/* One text for the kernel and the reference: u64 is a typedef on both sides;
 * unsigned arithmetic wraps, signed operations never overflow. */
typedef uint64_t u64;
#define IMM_OPS(S, U)                                                                              \
  {                                                                                                \
    U x = (U)v;                                                                                    \
    S s = (S)v;                                                                                    \
    o[n++] = (u64)(U)(x + (U)-1);                                                                  \
    o[n++] = (u64)(U)(x + (U)64);                                                                  \
    o[n++] = (u64)(U)(x - (U)-64);                                                                 \
    o[n++] = (u64)(U)(x * (U)-3);                                                                  \
    o[n++] = (u64)(U)(x + (U)0x123456789abcdefUL);                                                 \
    o[n++] = (u64)(U)(x ^ (U)0x8000000000000000UL);                                                \
    o[n++] = (u64)(s < (S)-2);                                                                     \
    o[n++] = (u64)(x > (U)-2);                                                                     \
    o[n++] = (u64)(S)(s / (S)-7);                                                                  \
    o[n++] = (u64)(S)(s >> 3);                                                                     \
    o[n++] = (u64)(S)(s & (S)-64);                                                                 \
    o[n++] = (u64)(S)(s == (S)-1 ? (S)-128 : (S)127);                                              \
  }
#define IMM_ALL                                                                                    \
  IMM_OPS(char, uchar)                                                                             \
  IMM_OPS(short, ushort) IMM_OPS(int, uint) IMM_OPS(long, ulong)
#define XSTR(...) STR(__VA_ARGS__)
#define STR(...)  #__VA_ARGS__
#define NI        64
#define IW        48
static void ref_imm(u64 v, u64 *o) {
  int n = 0;
  IMM_OPS(int8_t, uint8_t)
  IMM_OPS(int16_t, uint16_t) IMM_OPS(int32_t, uint32_t) IMM_OPS(int64_t, uint64_t)
}
START_TEST(test_immediates) {
  static const char *src = "typedef ulong u64;\n"
                           "#define IMM_OPS(S, U) " XSTR(IMM_OPS(
                               S, U)) "\n"
                                      "kernel void k(global ulong *out, global const ulong *in) {\n"
                                      "  int i = get_global_id(0);\n"
                                      "  ulong v = in[i];\n"
                                      "  global ulong *o = out + i * 48;\n"
                                      "  int n = 0;\n"
                                      "  " XSTR(IMM_ALL) "\n"
                                                         "}\n";
  u64 in[NI];
  fill_inputs(in, NI);
  in[2] = (u64)-1 >> 1;
  in[3] = (u64)1 << 63;
  in[4] = 0xffffffffu;
  for (int o = 0; o < 2; o++) {
    u64 out[NI * IW], want[IW];
    run(src, opt_levels[o], NI, in, sizeof in, out, sizeof out);
    for (unsigned i = 0; i < NI; i++) {
      ref_imm(in[i], want);
      for (unsigned j = 0; j < IW; j++)
        ck_assert_msg(out[i * IW + j] == want[j], "[%s] input %#llx op %u: %#llx, want %#llx",
                      opt_levels[o], (unsigned long long)in[i], j,
                      (unsigned long long)out[i * IW + j], (unsigned long long)want[j]);
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
  tcase_add_test(tc, test_funnel_shifts_odd_width);
  tcase_add_test(tc, test_vector_integer_bitcasts);
  tcase_add_test(tc, test_compare_chain);
  tcase_add_test(tc, test_program_scope_pointers);
  tcase_add_test(tc, test_program_scope_pointers_binary);
  tcase_add_test(tc, test_local_arg_alignment);
  tcase_add_test(tc, test_denorms_are_zero);
  tcase_add_test(tc, test_denorms_are_zero_link);
  tcase_add_test(tc, test_immediates);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
