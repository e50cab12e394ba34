/*
 * ir.c - from bitcode to lsi_program: reads and links modules with the LLVM
 * C API, optimises them (always inlining every non-kernel function; a new-PM
 * O2 pipeline unless the build is for debugging), then sets up each kernel's
 * arguments and metadata and runs the translator on it.
 *
 * It does not run clang (frontend.c) or emit instructions itself (xlate.c).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "compiler/cc_int.h"

void xl_body(struct xl *x);
void xl_finish(struct xl *x);

static unsigned attr_kind(const char *n) {
  return LLVMGetEnumAttributeKindForName(n, strlen(n));
}

static int is_kernel(LLVMValueRef fn) {
  return !LLVMIsDeclaration(fn) && LLVMGetFunctionCallConv(fn) == LLVMSPIRKERNELCallConv;
}

/* LLVM reports link errors (a symbol defined twice, say) through the
 * context's diagnostic handler; the default one prints and exits the
 * process. Every context the compiler makes sends them to the log. */
static void diag_to_log(LLVMDiagnosticInfoRef di, void *user) {
  char **log = user;
  if (LLVMGetDiagInfoSeverity(di) != LLVMDSError) return;
  char *msg = LLVMGetDiagInfoDescription(di);
  if (log) cc_log_append(log, "error: %s\n", msg);
  LLVMDisposeMessage(msg);
}

static LLVMContextRef context_new(char **log) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(ctx, diag_to_log, log);
  return ctx;
}

static LLVMModuleRef parse(LLVMContextRef ctx, const struct cc_bitcode *bc, char **log) {
  LLVMMemoryBufferRef mb =
      LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)bc->data, bc->size, "object");
  LLVMModuleRef m = NULL;
  if (LLVMParseBitcodeInContext2(ctx, mb, &m)) {
    cc_log_append(log, "error: invalid LLVM bitcode in a compiled object\n");
    m = NULL;
  }
  LLVMDisposeMemoryBuffer(mb);
  return m;
}

int cc_bitcode_undefined(const struct cc_bitcode *bc) {
  char *log = NULL;
  LLVMContextRef ctx = context_new(&log);
  LLVMModuleRef m = parse(ctx, bc, &log);
  free(log);
  int n = m ? 0 : -1;
  for (LLVMValueRef f = m ? LLVMGetFirstFunction(m) : NULL; f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (!LLVMIsDeclaration(f) || !LLVMGetFirstUse(f) || !strncmp(name, "_Z", 2) ||
        !strncmp(name, "llvm.", 5) || !strncmp(name, "__", 2) || !strcmp(name, "printf"))
      continue;
    n++;
  }
  if (m) LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return n;
}

/* ---- C99 inline definitions ---- */

static int is_def(LLVMModuleRef m, const char *name) {
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  return f && !LLVMIsDeclaration(f);
}

static int is_local(LLVMValueRef g) {
  LLVMLinkage l = LLVMGetLinkage(g);
  return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

/* Marks in gnu (with LLVMLinkOnceODRLinkage) the external functions m uses
 * without defining, and those their bodies use in turn. Returns how many. */
static unsigned mark_wanted(LLVMModuleRef m, LLVMModuleRef gnu) {
  unsigned n = 0, grew = 1;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    LLVMValueRef g = LLVMGetNamedFunction(gnu, name);
    if (LLVMIsDeclaration(f) && LLVMGetFirstUse(f) && g && !LLVMIsDeclaration(g) && !is_local(g)) {
      LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
      n++;
    }
  }
  while (grew) {
    grew = 0;
    for (LLVMValueRef g = LLVMGetFirstFunction(gnu); g; g = LLVMGetNextFunction(g)) {
      if (LLVMGetLinkage(g) != LLVMLinkOnceODRLinkage) continue;
      for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(g); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in))
          for (int i = 0; i < LLVMGetNumOperands(in); i++) {
            LLVMValueRef c = LLVMGetOperand(in, (unsigned)i);
            size_t len;
            if (!c || !LLVMIsAFunction(c) || LLVMIsDeclaration(c) || is_local(c) ||
                LLVMGetLinkage(c) == LLVMLinkOnceODRLinkage ||
                is_def(m, LLVMGetValueName2(c, &len)))
              continue;
            LLVMSetLinkage(c, LLVMLinkOnceODRLinkage);
            n++;
            grew = 1;
          }
    }
  }
  return n;
}

int cc_bitcode_add_inline(struct cc_bitcode *bc, const struct cc_bitcode *gnu_bc, char **log) {
  LLVMContextRef ctx = context_new(NULL);
  LLVMModuleRef m = parse(ctx, bc, log), gnu = m ? parse(ctx, gnu_bc, log) : NULL;
  int n = gnu ? (int)mark_wanted(m, gnu) : -1;
  if (n > 0) {
    /* Everything else of the second object yields to the first: its
     * external definitions become available_externally (dropped by the
     * linker where the first one defines them, by globaldce otherwise). */
    for (LLVMValueRef g = LLVMGetFirstFunction(gnu); g; g = LLVMGetNextFunction(g))
      if (!LLVMIsDeclaration(g) && !is_local(g) && LLVMGetLinkage(g) != LLVMLinkOnceODRLinkage)
        LLVMSetLinkage(g, LLVMAvailableExternallyLinkage);
    for (LLVMValueRef g = LLVMGetFirstGlobal(gnu); g; g = LLVMGetNextGlobal(g))
      if (!LLVMIsDeclaration(g) && !is_local(g)) LLVMSetLinkage(g, LLVMAvailableExternallyLinkage);
    LLVMModuleRef g2 = gnu;
    gnu = NULL;
    if (LLVMLinkModules2(m, g2)) n = -1;
  }
  if (n > 0) {
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, "globaldce", NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) LLVMConsumeError(e);
    LLVMMemoryBufferRef mb = LLVMWriteBitcodeToMemoryBuffer(m);
    free(bc->data);
    bc->size = LLVMGetBufferSize(mb);
    bc->data = malloc(bc->size);
    memcpy(bc->data, LLVMGetBufferStart(mb), bc->size);
    LLVMDisposeMemoryBuffer(mb);
  }
  if (gnu) LLVMDisposeModule(gnu);
  if (m) LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return n;
}

/* Debug builds are those clang compiled without optimisation (optnone). */
static int module_is_debug(LLVMModuleRef m) {
  unsigned optnone = attr_kind("optnone");
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (is_kernel(f) && LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone))
      return 1;
  return 0;
}

static int optimise(LLVMModuleRef m, int debug, char **log) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  unsigned optnone = attr_kind("optnone"), noinline = attr_kind("noinline");
  unsigned always = attr_kind("alwaysinline");
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue;
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone);
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline);
    if (!is_kernel(f)) {
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateEnumAttribute(ctx, always, 0));
      LLVMSetLinkage(f, LLVMInternalLinkage);
    }
  }
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(po, 0);
  LLVMPassBuilderOptionsSetSLPVectorization(po, 0);
  LLVMPassBuilderOptionsSetLoopInterleaving(po, 0);
  const char *pipe = debug ? "always-inline,function(lower-switch),globaldce"
                           : "always-inline,default<O2>,function(lower-switch),globaldce";
  LLVMErrorRef e = LLVMRunPasses(m, pipe, NULL, po);
  LLVMDisposePassBuilderOptions(po);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    cc_log_append(log, "error: optimisation failed: %s\n", msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
  }
  LLVMSetIsNewDbgInfoFormat(m, 0);
  return 0;
}

/* ---- kernel metadata ---- */

static LLVMValueRef fn_md(LLVMValueRef fn, const char *kind) {
  LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  unsigned kid = LLVMGetMDKindIDInContext(ctx, kind, (unsigned)strlen(kind));
  size_t n;
  LLVMValueMetadataEntry *e = LLVMGlobalCopyAllMetadata(fn, &n);
  LLVMValueRef r = NULL;
  for (size_t i = 0; i < n; i++)
    if (LLVMValueMetadataEntriesGetKind(e, (unsigned)i) == kid)
      r = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(e, (unsigned)i));
  if (e) LLVMDisposeValueMetadataEntries(e);
  return r;
}

/* Operand i of a metadata node as a string (MDString) or NULL. */
static char *md_str(LLVMValueRef node, unsigned i) {
  if (!node || i >= LLVMGetMDNodeNumOperands(node)) return NULL;
  LLVMValueRef *ops = malloc(sizeof(LLVMValueRef) * LLVMGetMDNodeNumOperands(node));
  LLVMGetMDNodeOperands(node, ops);
  char *r = NULL;
  unsigned len;
  const char *s = ops[i] ? LLVMGetMDString(ops[i], &len) : NULL;
  if (s) r = strndup(s, len);
  free(ops);
  return r;
}

static int64_t md_int(LLVMValueRef node, unsigned i, int64_t dflt) {
  if (!node || i >= LLVMGetMDNodeNumOperands(node)) return dflt;
  LLVMValueRef *ops = malloc(sizeof(LLVMValueRef) * LLVMGetMDNodeNumOperands(node));
  LLVMGetMDNodeOperands(node, ops);
  int64_t r = dflt;
  if (ops[i] && LLVMIsAConstantInt(ops[i])) r = LLVMConstIntGetSExtValue(ops[i]);
  free(ops);
  return r;
}

static void kernel_attributes(LLVMValueRef fn, struct lsi_kernel *k) {
  char buf[256] = "";
  size_t o = 0;
  LLVMValueRef r = fn_md(fn, "reqd_work_group_size");
  if (r) {
    for (unsigned i = 0; i < 3; i++)
      k->reqd_wg_size[i] = (uint64_t)md_int(r, i, 1);
    o += (size_t)snprintf(buf + o, sizeof(buf) - o, "reqd_work_group_size(%llu,%llu,%llu)",
                          (unsigned long long)k->reqd_wg_size[0],
                          (unsigned long long)k->reqd_wg_size[1],
                          (unsigned long long)k->reqd_wg_size[2]);
  }
  LLVMValueRef h = fn_md(fn, "work_group_size_hint");
  if (h) {
    for (unsigned i = 0; i < 3; i++)
      k->wg_size_hint[i] = (uint64_t)md_int(h, i, 1);
    o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%swork_group_size_hint(%llu,%llu,%llu)",
                          o ? " " : "", (unsigned long long)k->wg_size_hint[0],
                          (unsigned long long)k->wg_size_hint[1],
                          (unsigned long long)k->wg_size_hint[2]);
  }
  LLVMValueRef v = fn_md(fn, "vec_type_hint");
  if (v && LLVMGetMDNodeNumOperands(v) >= 2) {
    LLVMValueRef ops[2];
    LLVMGetMDNodeOperands(v, ops);
    LLVMTypeRef t = ops[0] ? LLVMTypeOf(ops[0]) : NULL;
    int sgn = (int)md_int(v, 1, 1);
    if (t) {
      unsigned n = 1;
      if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
        n = LLVMGetVectorSize(t);
        t = LLVMGetElementType(t);
      }
      const char *base = "int";
      if (LLVMGetTypeKind(t) == LLVMFloatTypeKind)
        base = "float";
      else if (LLVMGetTypeKind(t) == LLVMDoubleTypeKind)
        base = "double";
      else if (LLVMGetTypeKind(t) == LLVMHalfTypeKind)
        base = "half";
      else if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind) {
        unsigned w = LLVMGetIntTypeWidth(t);
        base = w == 8    ? (sgn ? "char" : "uchar")
               : w == 16 ? (sgn ? "short" : "ushort")
               : w == 64 ? (sgn ? "long" : "ulong")
                         : (sgn ? "int" : "uint");
      }
      char nb[16] = "";
      if (n > 1) snprintf(nb, sizeof(nb), "%u", n);
      o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%svec_type_hint(%s%s)", o ? " " : "", base,
                            nb);
    }
  }
  k->attributes = strdup(buf);
}

/* The kernel clang makes for a block given to enqueue_kernel:
 * __<kernel>_block_invoke[_N]_kernel. */
static int is_block_kernel(LLVMValueRef fn) {
  size_t len;
  const char *n = LLVMGetValueName2(fn, &len);
  return len > 7 && !strncmp(n, "__", 2) && strstr(n, "_block_invoke") &&
         !strcmp(n + len - 7, "_kernel");
}

/* The argument kind of an opaque OpenCL type (clang's target extension
 * types for spir64), or -1. Decided by the type, never by its name: a
 * pointer to a struct called image_data is a global pointer. */
static int opaque_arg_kind(LLVMTypeRef t) {
  static const struct {
    const char *name;
    enum lsi_arg_kind kind;
  } kinds[] = {
      {"spirv.Image", LSI_ARG_IMAGE},
      {"spirv.Sampler", LSI_ARG_SAMPLER},
      {"spirv.Queue", LSI_ARG_QUEUE},
      {"spirv.Pipe", LSI_ARG_PIPE},
  };
  if (LLVMGetTypeKind(t) != LLVMTargetExtTypeKind) return -1;
  const char *n = LLVMGetTargetExtTypeName(t);
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (n && !strcmp(n, kinds[i].name)) return (int)kinds[i].kind;
  return -1;
}

static void setup_args(struct xl *x) {
  LLVMValueRef fn = x->fn;
  struct lsi_kernel *k = x->k;
  unsigned n = LLVMCountParams(fn);
  k->nargs = n;
  k->args = calloc(n ? n : 1, sizeof(struct lsi_arg));
  LLVMValueRef names = fn_md(fn, "kernel_arg_name"), types = fn_md(fn, "kernel_arg_type");
  LLVMValueRef quals = fn_md(fn, "kernel_arg_type_qual"), acc = fn_md(fn, "kernel_arg_access_qual");
  LLVMValueRef spaces = fn_md(fn, "kernel_arg_addr_space");
  LLVMValueRef base_types = fn_md(fn, "kernel_arg_base_type");
  unsigned byval = attr_kind("byval");
  uint32_t off = 0;
  struct cc_leaf lv[XL_MAX_LEAVES];
  for (unsigned i = 0; i < n; i++) {
    struct lsi_arg *a = &k->args[i];
    LLVMValueRef p = LLVMGetParam(fn, i);
    LLVMTypeRef t = LLVMTypeOf(p);
    a->name = md_str(names, i);
    if (!a->name) a->name = strdup("");
    a->type_name = md_str(types, i);
    if (!a->type_name) a->type_name = strdup("");
    char *bt = md_str(base_types, i);
    int as = (int)md_int(spaces, i, 0);
    char *q = md_str(quals, i), *ac = md_str(acc, i);
    a->type_qualifier = 0;
    if (q) {
      if (strstr(q, "const")) a->type_qualifier |= CL_KERNEL_ARG_TYPE_CONST;
      if (strstr(q, "restrict")) a->type_qualifier |= CL_KERNEL_ARG_TYPE_RESTRICT;
      if (strstr(q, "volatile")) a->type_qualifier |= CL_KERNEL_ARG_TYPE_VOLATILE;
      if (strstr(q, "pipe")) a->type_qualifier |= CL_KERNEL_ARG_TYPE_PIPE;
    }
    a->access_qualifier = CL_KERNEL_ARG_ACCESS_NONE;
    if (ac && !strcmp(ac, "read_only"))
      a->access_qualifier = CL_KERNEL_ARG_ACCESS_READ_ONLY;
    else if (ac && !strcmp(ac, "write_only"))
      a->access_qualifier = CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    else if (ac && !strcmp(ac, "read_write"))
      a->access_qualifier = CL_KERNEL_ARG_ACCESS_READ_WRITE;
    a->address_qualifier = as == 1   ? CL_KERNEL_ARG_ADDRESS_GLOBAL
                           : as == 2 ? CL_KERNEL_ARG_ADDRESS_CONSTANT
                           : as == 3 ? CL_KERNEL_ARG_ADDRESS_LOCAL
                                     : CL_KERNEL_ARG_ADDRESS_PRIVATE;
    if (as == 2) a->type_qualifier |= CL_KERNEL_ARG_TYPE_CONST;
    int is_ptr = LLVMGetTypeKind(t) == LLVMPointerTypeKind;
    LLVMAttributeRef bv = LLVMGetEnumAttributeAtIndex(fn, i + 1, byval);
    a->reg = xl_def(x, p);
    int opaque = opaque_arg_kind(t);
    if (opaque >= 0) {
      a->kind = (uint8_t)opaque;
      a->size = 8;
      a->align = 8;
    } else if (is_ptr && bv) {
      LLVMTypeRef st = LLVMGetTypeAttributeValue(bv);
      a->kind = LSI_ARG_BYVAL;
      a->size = (uint32_t)LLVMABISizeOfType(x->td, st);
      a->align = LLVMABIAlignmentOfType(x->td, st);
      if (a->align < 4) a->align = 4;
      a->priv_offset = xl_alloc_private(x, a->size, a->align);
      xl_emit(x, LSI_ADDI, a->reg, x->priv_base_reg, 0, 0, a->priv_offset, 0);
    } else if (is_ptr) {
      unsigned pas = LLVMGetPointerAddressSpace(t);
      a->kind = pas == 3 ? LSI_ARG_LOCAL : pas == 2 ? LSI_ARG_CONSTANT : LSI_ARG_GLOBAL;
      a->size = 8;
      a->align = 8;
      /* clang's align attribute carries the pointee's alignment */
      LLVMAttributeRef al = LLVMGetEnumAttributeAtIndex(fn, i + 1, attr_kind("align"));
      uint64_t pal = al ? LLVMGetEnumAttributeValue(al) : 0;
      if (pas == 3 && pal && pal <= (1u << 16) && !(pal & (pal - 1)))
        a->local_align = (uint32_t)pal;
      /* A block's kernel gets its literal (copied to global memory by the
       * enqueue) as a generic pointer. */
      if (pas == 4 && i == 0 && is_block_kernel(fn))
        a->kind = LSI_ARG_GLOBAL;
      else if (pas == 0 || pas == 4)
        xl_fail(x, "kernel argument %u is a pointer to private or generic memory", i);
    } else {
      unsigned nl = xl_leaves(x, t, lv);
      a->kind = LSI_ARG_VALUE;
      a->nregs = nl;
      a->elem_size = nl ? (lv[0].kind == LK_INT ? (lv[0].bits + 7) / 8 : lv[0].bits / 8) : 0;
      a->size = (uint32_t)LLVMABISizeOfType(x->td, t);
      a->align = LLVMABIAlignmentOfType(x->td, t);
      if (nl && lv[0].kind == LK_INT && lv[0].bits == 1)
        xl_fail(x, "bool kernel arguments are not allowed");
    }
    if (a->align < 1) a->align = 1;
    off = (off + a->align - 1) / a->align * a->align;
    a->buf_offset = off;
    off += a->size;
    free(bt);
    free(q);
    free(ac);
  }
  k->argbuf_size = (off + 7) / 8 * 8;
}

static void free_xl(struct xl *x) {
  cc_cfg_free(&x->cfg);
  free(x->code);
  free(x->lines);
  free(x->label_pc);
  free(x->fix);
  free(x->map);
  free(x->consts);
  free(x->arglist);
  free(x->lglob);
  free(x->lglob_off);
  free(x->ipc_inst);
  free(x->ipc_pc);
  for (uint32_t i = 0; i < x->ncalls; i++)
    free(x->call_name[i]);
  free(x->call_pc);
  free(x->call_name);
  for (uint32_t i = 0; i < x->nsyms; i++) {
    free(x->syms[i].name);
    free(x->syms[i].type_name);
  }
  free(x->syms);
  free(x->sym_alloca);
  free(x->allocas);
  free(x->alloca_off);
  free(x);
}

/* -cl-denorms-are-zero: clang marks the functions it compiled with it. */
static int denorms_are_zero(LLVMValueRef fn) {
  static const char k[] = "denormal-fp-math-f32";
  LLVMAttributeRef a =
      LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, k, sizeof k - 1);
  unsigned len = 0;
  const char *v = a ? LLVMGetStringAttributeValue(a, &len) : NULL;
  return v && len >= 13 && (!strncmp(v, "preserve-sign", 13) || !strncmp(v, "positive-zero", 13));
}

static int translate_kernel(struct xl_prog *P, LLVMValueRef fn, struct lsi_kernel *k, char **log) {
  struct xl *x = calloc(1, sizeof(*x));
  x->prog = P;
  x->mod = P->mod;
  x->td = P->td;
  x->fn = fn;
  x->k = k;
  size_t len;
  k->name = strdup(LLVMGetValueName2(fn, &len));
  if (setjmp(x->fail)) {
    cc_log_append(log, "%s\n", x->err);
    free_xl(x);
    return CC_BUILD_FAILURE;
  }
  LLVMMetadataRef sp = LLVMGetSubprogram(fn);
  if (sp) x->cur_line = LLVMDISubprogramGetLine(sp);
  char err[256];
  if (cc_cfg_build(&x->cfg, fn, err, sizeof(err))) xl_fail(x, "%s", err);
  x->ftz_f32 = denorms_are_zero(fn);
  x->priv_base_reg = xl_vreg(x, 1);
  xl_emit(x, LSI_SREG, x->priv_base_reg, 0, 0, 0, LSI_SREG_PRIVATE_BASE, 0);
  kernel_attributes(fn, k);
  setup_args(x);
  xl_body(x);
  xl_finish(x);
  for (uint32_t i = 0; i < k->nargs; i++)
    k->args[i].reg += x->nconst;
  k->nconst = x->nconst;
  k->consts = x->consts;
  x->consts = NULL;
  k->nregs = x->nconst + x->nv;
  k->ninsns = x->ncode;
  k->code = x->code;
  k->lines = x->lines;
  k->narglist = x->narglist;
  k->arglist = x->arglist;
  k->private_size = (x->private_size + 7) / 8 * 8;
  k->local_size = x->local_size;
  cc_debug_build(x);
  x->code = NULL;
  x->lines = NULL;
  x->arglist = NULL;
  free_xl(x);
  return CC_OK;
}

static int translate_module(LLVMModuleRef m, struct lsi_program **out, char **log) {
  struct xl_prog P = {0};
  P.mod = m;
  P.ctx = LLVMGetModuleContext(m);
  P.td = LLVMGetModuleDataLayout(m);
  P.p = calloc(1, sizeof(struct lsi_program));
  P.debug_build = module_is_debug(m);
  if (optimise(m, P.debug_build, log)) {
    cc_program_free(P.p);
    return CC_BUILD_FAILURE;
  }
  unsigned nk = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    nk += (unsigned)is_kernel(f);
  P.p->kernels = calloc(nk ? nk : 1, sizeof(struct lsi_kernel));
  int rc = CC_OK;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!is_kernel(f)) continue;
    int r = translate_kernel(&P, f, &P.p->kernels[P.p->nkernels++], log);
    if (r != CC_OK) rc = r;
  }
  free(P.glob);
  free(P.glob_off);
  if (rc != CC_OK) {
    cc_program_free(P.p);
    return rc;
  }
  *out = P.p;
  return CC_OK;
}

int cc_translate_build(const struct cc_bitcode *bc, const char *options, struct lsi_program **out,
                       char **log) {
  (void)options;
  *out = NULL;
  LLVMContextRef ctx = context_new(log);
  LLVMModuleRef m = parse(ctx, bc, log);
  int rc = CC_BUILD_FAILURE;
  if (m) {
    rc = translate_module(m, out, log);
    LLVMDisposeModule(m);
  }
  LLVMContextDispose(ctx);
  return rc;
}

/* clLinkProgram's -cl-denorms-are-zero: mark every function as clang does. */
static void set_denorms_are_zero(LLVMModuleRef m) {
  static const char k[] = "denormal-fp-math-f32", v[] = "preserve-sign,preserve-sign";
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(ctx, k, sizeof k - 1, v, sizeof v - 1));
}

int cc_link(const struct cc_bitcode *objs, unsigned nobjs, const char *options,
            struct lsi_program **out, struct cc_bitcode *lib, char **log) {
  struct cc_options o;
  char err[256];
  *out = NULL;
  memset(lib, 0, sizeof(*lib));
  if (!*log) *log = strdup("");
  if (cc_options_parse(options, 1, &o, err, sizeof(err)) != CC_OK) {
    cc_log_append(log, "error: %s\n", err);
    return CC_INVALID_OPTIONS;
  }
  int create_library = o.create_library, daz = o.denorms_are_zero;
  cc_options_free(&o);
  LLVMContextRef ctx = context_new(log);
  LLVMModuleRef m = NULL;
  int rc = CC_OK;
  for (unsigned i = 0; i < nobjs && rc == CC_OK; i++) {
    LLVMModuleRef mi = parse(ctx, &objs[i], log);
    if (!mi) {
      rc = CC_LINK_FAILURE;
      break;
    }
    if (!m) {
      m = mi;
    } else if (LLVMLinkModules2(m, mi)) {
      cc_log_append(log, "error: linking the compiled objects failed\n");
      rc = CC_LINK_FAILURE;
    }
  }
  if (rc == CC_OK && !m) rc = CC_LINK_FAILURE;
  if (rc == CC_OK && create_library) {
    LLVMMemoryBufferRef mb = LLVMWriteBitcodeToMemoryBuffer(m);
    lib->size = LLVMGetBufferSize(mb);
    lib->data = malloc(lib->size);
    memcpy(lib->data, LLVMGetBufferStart(mb), lib->size);
    LLVMDisposeMemoryBuffer(mb);
  } else if (rc == CC_OK) {
    if (daz) set_denorms_are_zero(m);
    rc = translate_module(m, out, log);
    if (rc == CC_BUILD_FAILURE) rc = CC_LINK_FAILURE;
  }
  if (m) LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return rc;
}

void cc_program_free(struct lsi_program *p) {
  if (!p) return;
  for (uint32_t i = 0; i < p->nkernels; i++) {
    struct lsi_kernel *k = &p->kernels[i];
    free(k->name);
    free(k->attributes);
    free(k->consts);
    for (uint32_t a = 0; a < k->nargs; a++) {
      free(k->args[a].name);
      free(k->args[a].type_name);
    }
    free(k->args);
    free(k->code);
    free(k->arglist);
    free(k->lines);
    cc_debug_free(k->debug);
  }
  free(p->kernels);
  free(p->data_init);
  free(p->data_relocs);
  for (uint32_t i = 0; i < p->nfiles; i++)
    free(p->files[i]);
  free(p->files);
  free(p->source);
  free(p->options);
  free(p);
}
