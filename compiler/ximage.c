/*
 * ximage.c - translation of what is special about images and samplers.
 *
 * Image and sampler values are LLVM target extension types
 * (target("spirv.Image", ...), target("spirv.Sampler")); the translator
 * carries each as one 64-bit register like any other leaf (xlate.c): an
 * image is the device address of its descriptor (struct dev_image in
 * device/image.h), a sampler the CLK_* bit field. This file turns clang's
 * sampler constants into that bit field and names the image builtins the
 * device does not have. The builtins themselves are ordinary table calls
 * (xcall.c, device/builtins_image.c).
 */
#include <stdio.h>
#include <string.h>

#include "compiler/cc_int.h"

/* A kernel-scope or program-scope `const sampler_t s = CLK_...` becomes
 * __translate_sampler_initializer(i32 N): the sampler value is N itself. */
static int sampler_initializer(struct xl *x, LLVMValueRef I, const char *n) {
  if (strcmp(n, "__translate_sampler_initializer")) return 0;
  if (LLVMGetNumArgOperands(I) != 1) xl_fail(x, "malformed sampler initializer");
  LLVMValueRef v = LLVMGetArgOperand(I, 0);
  if (!LLVMIsAConstantInt(v)) xl_fail(x, "a sampler initializer must be a constant");
  uint64_t bits = LLVMConstIntGetZExtValue(v);
  xl_emit(x, LSI_MOV, xl_def(x, I), xl_const(x, bits & 0xffffffffu, 0), 0, 0, 0, 0);
  return 1;
}

/* True when a parameter of the mangled name is an OpenCL image type. */
static int takes_image(const char *n) {
  return strstr(n, "ocl_image") != NULL;
}

int xl_image_call(struct xl *x, LLVMValueRef I, const char *n) {
  if (sampler_initializer(x, I, n)) return 1;
  if (!takes_image(n) || xl_builtin(x, n) >= 0) return 0;
  char name[128];
  struct cc_mparam ps[8];
  if (cc_demangle(n, name, sizeof name, ps, 8) < 0) snprintf(name, sizeof name, "%s", n);
  if (!strcmp(name, "read_imageh") || !strcmp(name, "write_imageh"))
    xl_fail(x, "%s needs cl_khr_fp16, which this device does not support", name);
  xl_fail(x, "image builtin '%s' (%s) is not supported on this device", name, n);
}
