/*
 * test_ximage.c - images and samplers in the translator (compiler/ximage.c
 * and the target extension types in xlate.c): sampler initializers become
 * their CLK_* constant, image and sampler kernel arguments are 8-byte
 * slots, images and samplers pass through allocas (-O0), selects and calls,
 * and every image builtin clang declares for OpenCL C 1.2 resolves in the
 * device's table at -O0 and O2. Execution is tested in
 * tests/device/test_builtins_image.c and the host programs.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "compiler/cc.h"
#include "device/lsi.h"
#include "util/check_util.h"

static const char *const opt_levels[] = {"-cl-std=CL1.2 -cl-opt-disable", "-cl-std=CL1.2"};

static struct lsi_program *build_ok(const char *src, const char *opts) {
  struct lsi_program *p = NULL;
  char *log = NULL;
  int rc = cc_build(src, "t.cl", opts, &p, &log);
  ck_assert_msg(rc == CC_OK, "build (%s) failed (%d): %s", opts, rc, log ? log : "");
  free(log);
  return p;
}

static char *listing(const struct lsi_program *p, const char *src) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cc_dump(f, p, src);
  fclose(f);
  return buf;
}

/* Whether kernel k has a constant row holding v. */
static int has_const(const struct lsi_kernel *k, uint64_t v) {
  for (uint32_t i = 0; i < k->nconst; i++)
    if (k->consts[i].value == v && !k->consts[i].reloc) return 1;
  return 0;
}

static const char *sampler_src =
    "const sampler_t ps = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                     CLK_FILTER_LINEAR;\n"
    "float4 get(read_only image2d_t a, sampler_t s, int2 p) { return read_imagef(a, s, p); }\n"
    "__kernel void k(read_only image2d_t a, read_only image2d_t b, sampler_t s1, int c,\n"
    "                __global float4 *o) {\n"
    "  const sampler_t ks = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT |\n"
    "                       CLK_FILTER_NEAREST;\n"
    "  float4 r = read_imagef(a, ps, (float2)(0.5f, 0.5f));\n"
    "  for (int i = 0; i < c; i++)\n"
    "    r += get(i & 1 ? a : b, i & 2 ? s1 : ks, (int2)(i, 0));\n"
    "  o[0] = r;\n"
    "}\n";

/* A program-scope and a kernel-scope sampler become their bit fields;
 * image and sampler arguments are 8-byte slots of their kinds. */
START_TEST(test_sampler_initializers_and_args) {
  for (unsigned o = 0; o < 2; o++) {
    struct lsi_program *p = build_ok(sampler_src, opt_levels[o]);
    const struct lsi_kernel *k = &p->kernels[0];
    ck_assert_msg(has_const(k, 0x23), "%s: no constant for ps", opt_levels[o]);
    ck_assert_msg(has_const(k, 0x19), "%s: no constant for ks", opt_levels[o]);
    char *l = listing(p, sampler_src);
    ck_assert_msg(!strstr(l, "__translate_sampler_initializer"), "%s", l);
    ck_assert_msg(strstr(l, "_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i"), "%s", l);
    ck_assert_msg(strstr(l, "_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f"), "%s", l);
    free(l);
    ck_assert_uint_eq(k->nargs, 5);
    const uint32_t kinds[5] = {LSI_ARG_IMAGE, LSI_ARG_IMAGE, LSI_ARG_SAMPLER, LSI_ARG_VALUE,
                               LSI_ARG_GLOBAL};
    for (unsigned j = 0; j < 5; j++)
      ck_assert_uint_eq(k->args[j].kind, kinds[j]);
    ck_assert_uint_eq(k->args[0].size, 8);
    ck_assert_uint_eq(k->args[2].size, 8);
    cc_program_free(p);
  }
}
END_TEST

/* The kind of an argument comes from its type, not its name: pointers to
 * structs whose names start like the opaque types are global pointers, and
 * queue_t is a queue. */
START_TEST(test_arg_kinds_by_type_not_name) {
  static const char *src =
      "typedef struct { int width; } image_kernel_data;\n"
      "typedef struct { int n; } sampler_tab;\n"
      "__kernel void k(__global image_kernel_data *a, read_only image1d_t b,\n"
      "                __global sampler_tab *c, __constant image_kernel_data *d,\n"
      "                image_kernel_data e) {\n"
      "  a->width = get_image_width(b) + c->n + d->width + e.width;\n"
      "}\n"
      "__kernel void q(queue_t dq, __global int *o) { *o = 1; }\n";
  for (unsigned o = 0; o < 2; o++) {
    struct lsi_program *p = build_ok(src, o ? "-cl-std=CL3.0" : "-cl-std=CL3.0 -cl-opt-disable");
    const struct lsi_kernel *k = &p->kernels[0];
    ck_assert_uint_eq(k->nargs, 5);
    const uint32_t kinds[5] = {LSI_ARG_GLOBAL, LSI_ARG_IMAGE, LSI_ARG_GLOBAL, LSI_ARG_CONSTANT,
                               LSI_ARG_BYVAL};
    for (unsigned j = 0; j < 5; j++)
      ck_assert_msg(k->args[j].kind == kinds[j], "arg %u (%s): kind %u, want %u", j,
                    k->args[j].type_name, k->args[j].kind, kinds[j]);
    ck_assert_uint_eq(p->kernels[1].args[0].kind, LSI_ARG_QUEUE);
    cc_program_free(p);
  }
}
END_TEST

/* Every image builtin of OpenCL C 1.2 (read_only and write_only images;
 * 3D writes need an extension) for every image type, as clang names it. */
static char *all_forms_src(void) {
  static const struct {
    const char *t, *ic, *fc;
    int sampler, h, d, arr;
  } ty[] = {
      {"image1d_t", "int", "float", 1, 0, 0, 0},
      {"image1d_buffer_t", "int", NULL, 0, 0, 0, 0},
      {"image1d_array_t", "int2", "float2", 1, 0, 0, 1},
      {"image2d_t", "int2", "float2", 1, 1, 0, 0},
      {"image2d_array_t", "int4", "float4", 1, 1, 0, 1},
      {"image3d_t", "int4", "float4", 1, 1, 1, 0},
  };
  char *s = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&s, &len);
  for (unsigned i = 0; i < 6; i++) {
    fprintf(f, "__kernel void r%u(read_only %s im, sampler_t s, __global float4 *o) {\n", i,
            ty[i].t);
    fprintf(f,
            "  float4 r = read_imagef(im, (%s)0) + convert_float4(read_imagei(im, (%s)0))"
            " + convert_float4(read_imageui(im, (%s)0));\n",
            ty[i].ic, ty[i].ic, ty[i].ic);
    if (ty[i].sampler) {
      const char *c[2] = {ty[i].ic, ty[i].fc};
      for (unsigned j = 0; j < 2; j++)
        fprintf(f,
                "  r += read_imagef(im, s, (%s)0) + convert_float4(read_imagei(im, s, (%s)0))"
                " + convert_float4(read_imageui(im, s, (%s)0));\n",
                c[j], c[j], c[j]);
    }
    fprintf(f, "  r.x += get_image_width(im) + get_image_channel_data_type(im)"
               " + get_image_channel_order(im);\n");
    if (ty[i].h) fprintf(f, "  r.x += get_image_height(im) + get_image_dim(im).y;\n");
    if (ty[i].d) fprintf(f, "  r.x += get_image_depth(im);\n");
    if (ty[i].arr) fprintf(f, "  r.x += get_image_array_size(im);\n");
    fprintf(f, "  *o = r;\n}\n");
    if (ty[i].d) continue; /* 3D writes: cl_khr_3d_image_writes */
    fprintf(f, "__kernel void w%u(write_only %s im, __global float4 *o) {\n", i, ty[i].t);
    fprintf(f, "  write_imagef(im, (%s)0, (float4)0); write_imagei(im, (%s)0, (int4)0);\n",
            ty[i].ic, ty[i].ic);
    fprintf(f, "  write_imageui(im, (%s)0, (uint4)0);\n", ty[i].ic);
    fprintf(f, "  o->x = get_image_width(im) + get_image_channel_data_type(im)"
               " + get_image_channel_order(im);\n");
    if (ty[i].h) fprintf(f, "  o->y = get_image_height(im) + get_image_dim(im).y;\n");
    if (ty[i].arr) fprintf(f, "  o->z = get_image_array_size(im);\n");
    fprintf(f, "}\n");
  }
  fclose(f);
  return s;
}

START_TEST(test_every_image_builtin_resolves) {
  char *src = all_forms_src();
  for (unsigned o = 0; o < 2; o++) {
    struct lsi_program *p = build_ok(src, opt_levels[o]);
    ck_assert_uint_eq(p->nkernels, 11);
    char *l = listing(p, src);
    ck_assert_msg(strstr(l, "_Z12write_imagei20ocl_image2d_array_woDv4_iS0_"), "%s", l);
    ck_assert_msg(strstr(l, "_Z20get_image_array_size20ocl_image1d_array_ro"), "%s", l);
    ck_assert_msg(strstr(l, "_Z11read_imagef21ocl_image1d_buffer_roi"), "%s", l);
    free(l);
    cc_program_free(p);
  }
  free(src);
}
END_TEST

/* Translates LLVM IR text; returns the build's result and its log. */
static int translate_ir(const char *ir, char **log) {
  LLVMContextRef lc = LLVMContextCreate();
  LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "ir");
  LLVMModuleRef m = NULL;
  char *msg = NULL;
  ck_assert_msg(!LLVMParseIRInContext(lc, mb, &m, &msg), "IR: %s", msg ? msg : "");
  LLVMMemoryBufferRef bcb = LLVMWriteBitcodeToMemoryBuffer(m);
  struct cc_bitcode bc = {(uint8_t *)LLVMGetBufferStart(bcb), LLVMGetBufferSize(bcb)}, lib;
  struct lsi_program *prog = NULL;
  int rc = cc_link(&bc, 1, "", &prog, &lib, log);
  if (prog) cc_program_free(prog);
  LLVMDisposeMemoryBuffer(bcb);
  LLVMDisposeModule(m);
  LLVMContextDispose(lc);
  return rc;
}

#define IR_HEAD                                                                                    \
  "target datalayout = \"e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-"          \
  "v512:512-v1024:1024-G1\"\n"                                                                     \
  "target triple = \"spir64-unknown-unknown\"\n"
#define IMG2D "target(\"spirv.Image\", void, 1, 0, 0, 0, 0, 0, 0)"

static const struct {
  const char *ir, *want;
} bad_ir[] = {
    /* read_imageh needs cl_khr_fp16 */
    {IR_HEAD "declare spir_func <4 x half> @_Z11read_imageh14ocl_image2d_roDv2_i(" IMG2D
             ", <2 x i32>)\n"
             "define spir_kernel void @k(" IMG2D " %im, ptr addrspace(1) %o) {\n"
             "  %v = call spir_func <4 x half> @_Z11read_imageh14ocl_image2d_roDv2_i(" IMG2D
             " %im, <2 x i32> zeroinitializer)\n"
             "  store <4 x half> %v, ptr addrspace(1) %o\n  ret void\n}\n",
     "read_imageh needs cl_khr_fp16"},
    /* an image builtin the device does not have */
    {IR_HEAD "declare spir_func i32 @_Z24get_image_num_mip_levels14ocl_image2d_ro(" IMG2D ")\n"
             "define spir_kernel void @k(" IMG2D " %im, ptr addrspace(1) %o) {\n"
             "  %v = call spir_func i32 @_Z24get_image_num_mip_levels14ocl_image2d_ro(" IMG2D
             " %im)\n"
             "  store i32 %v, ptr addrspace(1) %o\n  ret void\n}\n",
     "image builtin 'get_image_num_mip_levels' "
     "(_Z24get_image_num_mip_levels14ocl_image2d_ro) is not supported"},
    /* a sampler from a run-time value */
    {IR_HEAD
     "declare spir_func target(\"spirv.Sampler\") @__translate_sampler_initializer(i32)\n"
     "declare spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(" IMG2D
     ", target(\"spirv.Sampler\"), <2 x i32>)\n"
     "define spir_kernel void @k(" IMG2D " %im, i32 %n, ptr addrspace(1) %o) {\n"
     "  %s = call spir_func target(\"spirv.Sampler\") @__translate_sampler_initializer(i32 "
     "%n)\n"
     "  %v = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(" IMG2D
     " %im, target(\"spirv.Sampler\") %s, <2 x i32> zeroinitializer)\n"
     "  store <4 x float> %v, ptr addrspace(1) %o\n  ret void\n}\n",
     "a sampler initializer must be a constant"},
};

/* What the translator cannot do fails the build with a message saying so. */
START_TEST(test_unsupported_image_calls_fail) {
  char *log = NULL;
  int rc = translate_ir(bad_ir[_i].ir, &log);
  ck_assert_msg(rc != CC_OK, "translated: %s", bad_ir[_i].want);
  ck_assert_msg(log && strstr(log, bad_ir[_i].want), "'%s' not in: %s", bad_ir[_i].want,
                log ? log : "");
  free(log);
}
END_TEST

int main(void) {
  Suite *s = suite_create("ximage");
  CU_ADD(s, test_sampler_initializers_and_args);
  CU_ADD(s, test_arg_kinds_by_type_not_name);
  CU_ADD(s, test_every_image_builtin_resolves);
  TCase *tc = tcase_create("test_unsupported_image_calls_fail");
  tcase_add_loop_test(tc, test_unsupported_image_calls_fail, 0,
                      (int)(sizeof bad_ir / sizeof bad_ir[0]));
  suite_add_tcase(s, tc);
  return cu_run(s);
}
