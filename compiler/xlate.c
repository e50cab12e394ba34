/*
 * xlate.c - the translator's core: LLVM IR of one kernel -> LSI code.
 *
 * Registers (one per SSA value leaf, vectors and aggregates as N registers),
 * constant rows, the private frame, static __local data, program-scope data,
 * arithmetic, casts, memory, GEPs, aggregates, phis and the control flow of
 * seed 004 (SSY/SYNC at immediate post-dominators, YIELD on back edges).
 * Calls live in xcall.c; the debug tables in debug.c. A construct it does not
 * handle fails the build with the instruction and its source line: nothing
 * here may defer a failure to run time.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "compiler/cc_int.h"

#define I64OFF (LSI_ADD_I64 - LSI_ADD_I32)
#define F64OFF (LSI_FADD_F64 - LSI_FADD_F32)

static const char *value_str(LLVMValueRef v, char *buf, size_t len) {
  char *s = LLVMPrintValueToString(v);
  const char *p = s;
  while (*p == ' ')
    p++;
  snprintf(buf, len, "%s", p);
  LLVMDisposeMessage(s);
  char *nl = strchr(buf, '\n');
  if (nl) *nl = 0;
  char *dbg = strstr(buf, ", !dbg");
  if (dbg) *dbg = 0;
  return buf;
}

_Noreturn void xl_fail(struct xl *x, const char *fmt, ...) {
  char msg[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  const char *file = x->prog->p->nfiles > x->cur_file ? x->prog->p->files[x->cur_file] : "?";
  if (x->cur_inst) {
    char ins[160];
    value_str(x->cur_inst, ins, sizeof(ins));
    snprintf(x->err, sizeof(x->err), "%s:%u: error: %s in kernel '%s' (instruction: %s)", file,
             x->cur_line, msg, LLVMGetValueName2(x->fn, &(size_t){0}), ins);
  } else {
    snprintf(x->err, sizeof(x->err), "%s:%u: error: %s in kernel '%s'", file, x->cur_line, msg,
             LLVMGetValueName2(x->fn, &(size_t){0}));
  }
  longjmp(x->fail, 1);
}

/* ---- code, labels ---- */

uint32_t xl_emit(struct xl *x, unsigned op, uint32_t d, uint32_t a, uint32_t b, uint32_t c,
                 int64_t imm, unsigned aux) {
  if (x->ncode == x->capcode) {
    x->capcode = x->capcode ? x->capcode * 2 : 256;
    x->code = realloc(x->code, sizeof(lsi_insn) * x->capcode);
    x->lines = realloc(x->lines, sizeof(struct lsi_line) * x->capcode);
  }
  lsi_insn *i = &x->code[x->ncode];
  memset(i, 0, sizeof(*i));
  i->op = (uint16_t)op;
  i->aux = (uint8_t)aux;
  i->d = d;
  i->a = a;
  i->b = b;
  i->c = c;
  i->imm = imm;
  x->lines[x->ncode].file = x->cur_file;
  x->lines[x->ncode].line = x->cur_line;
  return x->ncode++;
}

uint32_t xl_new_label(struct xl *x) {
  if (x->nlabels == x->caplabels) {
    x->caplabels = x->caplabels ? x->caplabels * 2 : 64;
    x->label_pc = realloc(x->label_pc, sizeof(uint32_t) * x->caplabels);
  }
  x->label_pc[x->nlabels] = ~0u;
  return x->nlabels++;
}

void xl_place_label(struct xl *x, uint32_t label) {
  x->label_pc[label] = x->ncode;
}

static void add_fixup(struct xl *x, uint32_t pc, uint32_t label) {
  if (x->nfix == x->capfix) {
    x->capfix = x->capfix ? x->capfix * 2 : 64;
    x->fix = realloc(x->fix, sizeof(struct xl_fixup) * x->capfix);
  }
  x->fix[x->nfix].pc = pc;
  x->fix[x->nfix].label = label;
  x->nfix++;
}

uint32_t xl_emit_br(struct xl *x, unsigned op, uint32_t a, uint32_t label) {
  uint32_t pc = xl_emit(x, op, 0, a, 0, 0, 0, 0);
  add_fixup(x, pc, label);
  return pc;
}

/* ---- registers and constants ---- */

uint32_t xl_vreg(struct xl *x, unsigned n) {
  uint32_t r = x->nv;
  x->nv += n;
  return r;
}

uint32_t xl_const(struct xl *x, uint64_t v, uint32_t reloc) {
  for (uint32_t i = 0; i < x->nconst; i++)
    if (x->consts[i].value == v && x->consts[i].reloc == reloc) return XL_CONST | i;
  if (x->nconst == x->capconst) {
    x->capconst = x->capconst ? x->capconst * 2 : 32;
    x->consts = realloc(x->consts, sizeof(struct lsi_const) * x->capconst);
  }
  x->consts[x->nconst].value = v;
  x->consts[x->nconst].reloc = reloc;
  return XL_CONST | x->nconst++;
}

uint32_t xl_arglist(struct xl *x, const uint32_t *regs, unsigned n) {
  uint32_t at = x->narglist;
  if (x->narglist + n > x->caparglist) {
    x->caparglist = (x->narglist + n) * 2 + 16;
    x->arglist = realloc(x->arglist, sizeof(uint32_t) * x->caparglist);
  }
  for (unsigned i = 0; i < n; i++)
    x->arglist[x->narglist++] = regs[i];
  return at;
}

static unsigned leaves_rec(struct xl *x, LLVMTypeRef t, struct cc_leaf *out, unsigned n,
                           uint32_t off) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: {
    unsigned w = LLVMGetIntTypeWidth(t);
    if (w > 64) xl_fail(x, "%u-bit integers are not supported", w);
    if (n >= XL_MAX_LEAVES) xl_fail(x, "value too large for registers");
    if (out) out[n] = (struct cc_leaf){LK_INT, (uint8_t)w, off};
    return n + 1;
  }
  case LLVMHalfTypeKind:
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind:
  case LLVMPointerTypeKind: {
    if (n >= XL_MAX_LEAVES) xl_fail(x, "value too large for registers");
    LLVMTypeKind k = LLVMGetTypeKind(t);
    struct cc_leaf l = {LK_PTR, 64, off};
    if (k == LLVMHalfTypeKind)
      l = (struct cc_leaf){LK_F16, 16, off};
    else if (k == LLVMFloatTypeKind)
      l = (struct cc_leaf){LK_F32, 32, off};
    else if (k == LLVMDoubleTypeKind)
      l = (struct cc_leaf){LK_F64, 64, off};
    if (out) out[n] = l;
    return n + 1;
  }
  case LLVMVectorTypeKind: {
    LLVMTypeRef e = LLVMGetElementType(t);
    unsigned cnt = LLVMGetVectorSize(t);
    uint32_t es = (uint32_t)LLVMStoreSizeOfType(x->td, e);
    for (unsigned i = 0; i < cnt; i++)
      n = leaves_rec(x, e, out, n, off + i * es);
    return n;
  }
  case LLVMArrayTypeKind: {
    LLVMTypeRef e = LLVMGetElementType(t);
    uint64_t cnt = LLVMGetArrayLength2(t);
    uint32_t es = (uint32_t)LLVMABISizeOfType(x->td, e);
    if (cnt > XL_MAX_LEAVES) xl_fail(x, "array value too large for registers");
    for (uint64_t i = 0; i < cnt; i++)
      n = leaves_rec(x, e, out, n, off + (uint32_t)i * es);
    return n;
  }
  case LLVMStructTypeKind: {
    unsigned cnt = LLVMCountStructElementTypes(t);
    for (unsigned i = 0; i < cnt; i++)
      n = leaves_rec(x, LLVMStructGetTypeAtIndex(t, i), out, n,
                     off + (uint32_t)LLVMOffsetOfElement(x->td, t, i));
    return n;
  }
  case LLVMTargetExtTypeKind: /* event_t: an opaque 64-bit handle */
    if (n >= XL_MAX_LEAVES) xl_fail(x, "value too large for registers");
    if (out) out[n] = (struct cc_leaf){LK_INT, 64, off};
    return n + 1;
  case LLVMVoidTypeKind: return n;
  default: xl_fail(x, "values of this type are not supported");
  }
}

unsigned xl_leaves(struct xl *x, LLVMTypeRef t, struct cc_leaf *out) {
  return leaves_rec(x, t, out, 0, 0);
}

static struct xl_map_ent *map_find(struct xl *x, LLVMValueRef v, int create) {
  if (x->mapn * 2 >= x->mapcap) {
    uint32_t oc = x->mapcap;
    struct xl_map_ent *om = x->map;
    x->mapcap = oc ? oc * 2 : 1024;
    x->map = calloc(x->mapcap, sizeof(struct xl_map_ent));
    for (uint32_t i = 0; i < oc; i++) {
      if (!om[i].v) continue;
      uint32_t h = (uint32_t)(((uintptr_t)om[i].v >> 4) * 2654435761u) & (x->mapcap - 1);
      while (x->map[h].v)
        h = (h + 1) & (x->mapcap - 1);
      x->map[h] = om[i];
    }
    free(om);
  }
  uint32_t h = (uint32_t)(((uintptr_t)v >> 4) * 2654435761u) & (x->mapcap - 1);
  while (x->map[h].v) {
    if (x->map[h].v == v) return &x->map[h];
    h = (h + 1) & (x->mapcap - 1);
  }
  if (!create) return NULL;
  x->map[h].v = v;
  unsigned n = xl_leaves(x, LLVMTypeOf(v), NULL);
  x->map[h].n = n;
  x->map[h].reg = xl_vreg(x, n ? n : 1);
  x->mapn++;
  return &x->map[h];
}

uint32_t xl_def(struct xl *x, LLVMValueRef v) {
  return map_find(x, v, 1)->reg;
}

unsigned xl_space(unsigned as) {
  switch (as) {
  case 0: return LSI_SPACE_PRIVATE;
  case 1: return LSI_SPACE_GLOBAL;
  case 2: return LSI_SPACE_CONSTANT;
  case 3: return LSI_SPACE_LOCAL;
  default: return LSI_SPACE_GENERIC;
  }
}

unsigned xl_int_bits(struct xl *x, LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) t = LLVMGetElementType(t);
  if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) return 64;
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
    xl_fail(x, "integer operation on a non-integer type");
  unsigned w = LLVMGetIntTypeWidth(t);
  if (w > 64) xl_fail(x, "%u-bit integers are not supported", w);
  return w;
}

/* ---- program-scope and __local globals ---- */

static uint64_t half_bits(double d) {
  float f = (float)d;
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t sign = (u >> 16) & 0x8000, e = (u >> 23) & 0xff, m = u & 0x7fffff;
  if (e == 0xff) return sign | 0x7c00 | (m ? 0x200 : 0);
  int ne = (int)e - 127 + 15;
  if (ne >= 31) return sign | 0x7c00;
  if (ne <= 0) {
    if (ne < -10) return sign;
    m |= 0x800000;
    uint32_t shift = (uint32_t)(14 - ne);
    uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (hm & 1))) hm++;
    return sign | hm;
  }
  uint32_t hm = m >> 13, rem = m & 0x1fff;
  uint32_t r = sign | ((uint32_t)ne << 10) | hm;
  if (rem > 0x1000 || (rem == 0x1000 && (hm & 1))) r++;
  return r;
}

static void write_init(struct xl *x, LLVMValueRef c, uint64_t at, uint64_t room);

static uint32_t prog_global(struct xl *x, LLVMValueRef g) {
  struct xl_prog *P = x->prog;
  for (unsigned i = 0; i < P->nglob; i++)
    if (P->glob[i] == g) return P->glob_off[i];
  LLVMTypeRef t = LLVMGlobalGetValueType(g);
  uint64_t size = LLVMABISizeOfType(x->td, t);
  unsigned align = LLVMGetAlignment(g);
  if (!align) align = LLVMABIAlignmentOfType(x->td, t);
  if (align < 1) align = 1;
  uint64_t off = (P->p->data_size + align - 1) / align * align;
  if (off + size > (1u << 30)) xl_fail(x, "program-scope data too large");
  P->p->data_init = realloc(P->p->data_init, off + size + 1);
  memset(P->p->data_init + P->p->data_size, 0, off + size - P->p->data_size);
  P->p->data_size = (uint32_t)(off + size);
  P->glob = realloc(P->glob, sizeof(LLVMValueRef) * (P->nglob + 1));
  P->glob_off = realloc(P->glob_off, sizeof(uint32_t) * (P->nglob + 1));
  P->glob[P->nglob] = g;
  P->glob_off[P->nglob++] = (uint32_t)off;
  LLVMValueRef init = LLVMIsDeclaration(g) ? NULL : LLVMGetInitializer(g);
  if (init) write_init(x, init, off, size);
  return (uint32_t)off;
}

static uint32_t local_global(struct xl *x, LLVMValueRef g) {
  for (unsigned i = 0; i < x->nlglob; i++)
    if (x->lglob[i] == g) return x->lglob_off[i];
  LLVMTypeRef t = LLVMGlobalGetValueType(g);
  uint64_t size = LLVMABISizeOfType(x->td, t);
  unsigned align = LLVMGetAlignment(g);
  if (!align) align = LLVMABIAlignmentOfType(x->td, t);
  if (align < 1) align = 1;
  uint64_t off = (x->local_size + align - 1) / align * align;
  x->local_size = (uint32_t)(off + size);
  x->lglob = realloc(x->lglob, sizeof(LLVMValueRef) * (x->nlglob + 1));
  x->lglob_off = realloc(x->lglob_off, sizeof(uint32_t) * (x->nlglob + 1));
  x->lglob[x->nlglob] = g;
  x->lglob_off[x->nlglob++] = (uint32_t)off;
  return (uint32_t)off;
}

int64_t xl_kernel_index(struct xl *x, LLVMValueRef fn) {
  int64_t i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(x->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || LLVMGetFunctionCallConv(f) != LLVMSPIRKERNELCallConv) continue;
    if (f == fn) return i;
    i++;
  }
  return -1;
}

/* A block's invoke function (stored in its literal, never called: the
 * enqueue builtin runs the block's kernel) stands for that kernel's index. */
static uint64_t function_value(struct xl *x, LLVMValueRef fn) {
  size_t len;
  const char *n = LLVMGetValueName2(fn, &len);
  char buf[512];
  snprintf(buf, sizeof buf, "%s_kernel", n);
  LLVMValueRef k = LLVMGetNamedFunction(x->mod, buf);
  int64_t i = xl_kernel_index(x, k ? k : fn);
  if (i < 0) xl_fail(x, "function pointers are not supported");
  return (uint64_t)i;
}

/* Address of a global: value and relocation kind (see struct lsi_const). */
static void global_addr(struct xl *x, LLVMValueRef g, uint64_t *val, uint32_t *reloc) {
  if (LLVMIsAFunction(g)) {
    *val = function_value(x, g);
    *reloc = 0;
    return;
  }
  if (!LLVMIsAGlobalVariable(g)) xl_fail(x, "unsupported global object");
  unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
  if (as == 3) {
    *val = LSI_ADDR(LSI_SPACE_LOCAL, 0, local_global(x, g));
    *reloc = 0;
  } else {
    *val = prog_global(x, g);
    *reloc = 1;
  }
}

static int64_t gep_const_offset(struct xl *x, LLVMValueRef gep, unsigned first_idx) {
  LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
  unsigned n = LLVMGetNumOperands(gep);
  int64_t off = 0;
  for (unsigned i = first_idx; i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(gep, i);
    if (!LLVMIsAConstantInt(idx)) xl_fail(x, "non-constant index in a constant expression");
    int64_t iv = LLVMConstIntGetSExtValue(idx);
    if (i == first_idx) {
      off += iv * (int64_t)LLVMABISizeOfType(x->td, t);
    } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      off += (int64_t)LLVMOffsetOfElement(x->td, t, (unsigned)iv);
      t = LLVMStructGetTypeAtIndex(t, (unsigned)iv);
    } else {
      t = LLVMGetElementType(t);
      off += iv * (int64_t)LLVMABISizeOfType(x->td, t);
    }
  }
  return off;
}

/* Evaluates leaf i of constant c. */
static void const_leaf(struct xl *x, LLVMValueRef c, unsigned i, uint64_t *val, uint32_t *reloc) {
  *val = 0;
  *reloc = 0;
  LLVMTypeRef t = LLVMTypeOf(c);
  LLVMTypeKind tk = LLVMGetTypeKind(t);
  if (LLVMIsUndef(c) || LLVMIsPoison(c) || LLVMIsAConstantAggregateZero(c) ||
      LLVMIsAConstantPointerNull(c) || tk == LLVMTargetExtTypeKind)
    return; /* a target type's only constant is its null handle */
  if (tk == LLVMStructTypeKind || tk == LLVMArrayTypeKind || tk == LLVMVectorTypeKind) {
    unsigned cnt = tk == LLVMStructTypeKind  ? LLVMCountStructElementTypes(t)
                   : tk == LLVMArrayTypeKind ? (unsigned)LLVMGetArrayLength2(t)
                                             : LLVMGetVectorSize(t);
    for (unsigned k = 0; k < cnt; k++) {
      LLVMTypeRef et =
          tk == LLVMStructTypeKind ? LLVMStructGetTypeAtIndex(t, k) : LLVMGetElementType(t);
      unsigned nl = xl_leaves(x, et, NULL);
      if (i < nl) {
        LLVMValueRef e = LLVMGetAggregateElement(c, k);
        if (!e) xl_fail(x, "unsupported constant aggregate");
        const_leaf(x, e, i, val, reloc);
        return;
      }
      i -= nl;
    }
    xl_fail(x, "constant leaf out of range");
  }
  if (LLVMIsAConstantInt(c)) {
    *val = LLVMConstIntGetZExtValue(c);
    return;
  }
  if (LLVMIsAConstantFP(c)) {
    LLVMBool loses;
    double d = LLVMConstRealGetDouble(c, &loses);
    if (tk == LLVMFloatTypeKind) {
      float f = (float)d;
      uint32_t u;
      memcpy(&u, &f, 4);
      *val = u;
    } else if (tk == LLVMDoubleTypeKind) {
      memcpy(val, &d, 8);
    } else if (tk == LLVMHalfTypeKind) {
      *val = half_bits(d);
    } else {
      xl_fail(x, "unsupported floating-point constant type");
    }
    return;
  }
  if (LLVMIsAGlobalValue(c)) {
    global_addr(x, c, val, reloc);
    return;
  }
  if (LLVMIsAConstantExpr(c)) {
    switch (LLVMGetConstOpcode(c)) {
    case LLVMGetElementPtr:
      const_leaf(x, LLVMGetOperand(c, 0), 0, val, reloc);
      *val += (uint64_t)gep_const_offset(x, c, 1);
      return;
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMIntToPtr: const_leaf(x, LLVMGetOperand(c, 0), i, val, reloc); return;
    case LLVMPtrToInt: const_leaf(x, LLVMGetOperand(c, 0), i, val, reloc); return;
    default: break;
    }
  }
  xl_fail(x, "unsupported constant");
}

static void add_data_reloc(struct xl *x, uint64_t at) {
  struct lsi_program *p = x->prog->p;
  p->data_relocs = realloc(p->data_relocs, sizeof(uint32_t) * (p->ndata_relocs + 1));
  p->data_relocs[p->ndata_relocs++] = (uint32_t)at;
}

/* Writes constant c at byte `at` of the data segment (room bytes there are
 * its own). Evaluating c may place further globals and so move data_init:
 * the destination is recomputed for every leaf. */
static void write_init(struct xl *x, LLVMValueRef c, uint64_t at, uint64_t room) {
  LLVMTypeRef t = LLVMTypeOf(c);
  LLVMTypeKind tk = LLVMGetTypeKind(t);
  if (LLVMIsAConstantAggregateZero(c) || LLVMIsUndef(c) || LLVMIsPoison(c)) return;
  if (tk == LLVMArrayTypeKind || tk == LLVMStructTypeKind) {
    /* recurse per element so large arrays never hit the leaf limit */
    unsigned cnt = tk == LLVMStructTypeKind ? LLVMCountStructElementTypes(t)
                                            : (unsigned)LLVMGetArrayLength2(t);
    for (unsigned k = 0; k < cnt; k++) {
      uint64_t off = tk == LLVMStructTypeKind ? LLVMOffsetOfElement(x->td, t, k)
                                              : k * LLVMABISizeOfType(x->td, LLVMGetElementType(t));
      LLVMValueRef e = LLVMGetAggregateElement(c, k);
      if (e && off < room) write_init(x, e, at + off, room - off);
    }
    return;
  }
  struct cc_leaf *lv = malloc(sizeof(struct cc_leaf) * XL_MAX_LEAVES);
  unsigned n = xl_leaves(x, t, lv);
  for (unsigned i = 0; i < n; i++) {
    uint64_t v;
    uint32_t reloc;
    const_leaf(x, c, i, &v, &reloc);
    unsigned bytes = lv[i].kind == LK_INT ? (lv[i].bits + 7) / 8 : lv[i].bits / 8;
    if (lv[i].off + bytes > room) continue;
    if (reloc && bytes != 8) {
      free(lv);
      xl_fail(x, "the address of a program-scope variable in an integer narrower than a pointer");
    }
    if (reloc) add_data_reloc(x, at + lv[i].off);
    uint8_t *dst = x->prog->p->data_init + at + lv[i].off;
    for (unsigned b = 0; b < bytes; b++)
      dst[b] = (uint8_t)(v >> (8 * b));
  }
  free(lv);
}

uint32_t xl_val(struct xl *x, LLVMValueRef v, unsigned i) {
  if (LLVMIsUndef(v) || LLVMIsPoison(v)) {
    /* A scalar undef is a variable never initialised on some path (0, but
     * undefined for the uninitialised-value checker); an undefined element
     * of a vector or aggregate is padding (a float3's fourth) and plain 0. */
    LLVMTypeKind tk = LLVMGetTypeKind(LLVMTypeOf(v));
    int agg = tk == LLVMStructTypeKind || tk == LLVMArrayTypeKind || tk == LLVMVectorTypeKind;
    return xl_const(x, 0, agg ? LSI_CONST_PLAIN : LSI_CONST_UNDEF);
  }
  if (LLVMIsAConstant(v) && !LLVMIsAGlobalValue(v)) {
    uint64_t val;
    uint32_t reloc;
    const_leaf(x, v, i, &val, &reloc);
    return xl_const(x, val, reloc);
  }
  if (LLVMIsAGlobalValue(v)) {
    uint64_t val;
    uint32_t reloc;
    global_addr(x, v, &val, &reloc);
    return xl_const(x, val, reloc);
  }
  if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMMetadataTypeKind || LLVMIsABasicBlock(v))
    xl_fail(x, "unexpected operand");
  struct xl_map_ent *e = map_find(x, v, 1);
  if (i >= e->n && !(i == 0 && e->n == 0)) xl_fail(x, "operand leaf out of range");
  return e->reg + i;
}

/* ---- small emitters ---- */

uint32_t xl_sext(struct xl *x, uint32_t r, unsigned from, unsigned to) {
  if (from >= to) return r;
  uint32_t t = xl_vreg(x, 1);
  xl_emit(x, LSI_SEXT, t, r, 0, 0, (int64_t)(from | (to << 8)), 0);
  return t;
}

uint32_t xl_trunc(struct xl *x, uint32_t r, unsigned bits) {
  if (bits >= 64) return r;
  uint32_t t = xl_vreg(x, 1);
  xl_emit(x, LSI_TRUNC, t, r, 0, 0, bits, 0);
  return t;
}

uint32_t xl_alloc_private(struct xl *x, uint32_t size, uint32_t align) {
  if (align < 1) align = 1;
  uint32_t off = (x->private_size + align - 1) / align * align;
  x->private_size = off + (size ? size : 1);
  return off;
}

uint32_t xl_ftz_in(struct xl *x, uint32_t r) {
  if (!x->ftz_f32) return r;
  uint32_t t = xl_vreg(x, 1);
  xl_emit(x, LSI_FTZ_F32, t, r, 0, 0, 0, 0);
  return t;
}

void xl_ftz_out(struct xl *x, uint32_t d) {
  if (x->ftz_f32) xl_emit(x, LSI_FTZ_F32, d, d, 0, 0, 0, 0);
}

uint32_t xl_private_addr(struct xl *x, uint32_t off) {
  uint32_t r = xl_vreg(x, 1);
  xl_emit(x, LSI_ADDI, r, x->priv_base_reg, 0, 0, off, 0);
  return r;
}

/* Bytes a leaf occupies in memory: its store size (an i24 is 3 bytes). */
static unsigned leaf_bytes(const struct cc_leaf *l) {
  return (l->bits + 7u) / 8u;
}

/* The widest access that can move b bytes at byte off of an address
 * aligned to align: aligned there, and a power of two dividing b. */
static unsigned piece_bytes(unsigned align, int64_t off, unsigned b) {
  unsigned a = align ? align : 1;
  while (a > 1 && ((off & (int64_t)(a - 1)) || b % a))
    a /= 2;
  return a;
}

/* Loads and stores are never wider than the alignment the IR guarantees
 * (e.g. an i64 copy of a struct of floats with align 4): a leaf wider than
 * that is moved in aligned pieces, little-endian, so a legal access never
 * faults as misaligned whatever the address space. */
void xl_load_leaf(struct xl *x, uint32_t d, uint32_t addr, int64_t off, const struct cc_leaf *l,
                  unsigned space, unsigned align) {
  static const unsigned ops[] = {0, LSI_LD8, LSI_LD16, 0, LSI_LD32, 0, 0, 0, LSI_LD64};
  unsigned b = leaf_bytes(l), a = piece_bytes(align, off, b);
  if (a >= b) {
    xl_emit(x, ops[b], d, addr, 0, 0, off, space);
  } else {
    uint32_t acc = xl_vreg(x, 1), piece = xl_vreg(x, 1);
    xl_emit(x, ops[a], acc, addr, 0, 0, off, space);
    for (unsigned k = a; k < b; k += a) {
      xl_emit(x, ops[a], piece, addr, 0, 0, off + k, space);
      xl_emit(x, LSI_SHL_I64, piece, piece, xl_const(x, 8 * k, 0), 0, 0, 0);
      xl_emit(x, LSI_OR_I64, acc, acc, piece, 0, 0, 0);
    }
    xl_emit(x, LSI_MOV, d, acc, 0, 0, 0, 0);
  }
  /* the bits past an odd-width integer are not its value */
  if (l->kind == LK_INT && l->bits % 8) xl_emit(x, LSI_TRUNC, d, d, 0, 0, l->bits, 0);
}

void xl_store_leaf(struct xl *x, uint32_t val, uint32_t addr, int64_t off, const struct cc_leaf *l,
                   unsigned space, unsigned align) {
  static const unsigned ops[] = {0, LSI_ST8, LSI_ST16, 0, LSI_ST32, 0, 0, 0, LSI_ST64};
  unsigned b = leaf_bytes(l), a = piece_bytes(align, off, b);
  if (a >= b) {
    xl_emit(x, ops[b], 0, addr, val, 0, off, space);
    return;
  }
  uint32_t piece = xl_vreg(x, 1);
  xl_emit(x, ops[a], 0, addr, val, 0, off, space);
  for (unsigned k = a; k < b; k += a) {
    xl_emit(x, LSI_LSHR_I64, piece, val, xl_const(x, 8 * k, 0), 0, 0, 0);
    xl_emit(x, ops[a], 0, addr, piece, 0, off + k, space);
  }
}

static int is_packed_vec(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind &&
         LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMIntegerTypeKind &&
         LLVMGetIntTypeWidth(LLVMGetElementType(t)) % 8 != 0;
}

/* ---- arithmetic ---- */

static void int_binop(struct xl *x, LLVMOpcode op, unsigned bits, uint32_t d, uint32_t a,
                      uint32_t b) {
  unsigned W = bits <= 32 ? 32 : 64, lop;
  int sgn = op == LLVMSDiv || op == LLVMSRem || op == LLVMAShr;
  int trunc = op == LLVMAdd || op == LLVMSub || op == LLVMMul || op == LLVMShl || sgn;
  switch (op) {
  case LLVMAdd: lop = LSI_ADD_I32; break;
  case LLVMSub: lop = LSI_SUB_I32; break;
  case LLVMMul: lop = LSI_MUL_I32; break;
  case LLVMUDiv: lop = LSI_UDIV_I32; break;
  case LLVMSDiv: lop = LSI_SDIV_I32; break;
  case LLVMURem: lop = LSI_UREM_I32; break;
  case LLVMSRem: lop = LSI_SREM_I32; break;
  case LLVMAnd: lop = LSI_AND_I32; break;
  case LLVMOr: lop = LSI_OR_I32; break;
  case LLVMXor: lop = LSI_XOR_I32; break;
  case LLVMShl: lop = LSI_SHL_I32; break;
  case LLVMLShr: lop = LSI_LSHR_I32; break;
  case LLVMAShr: lop = LSI_ASHR_I32; break;
  default: xl_fail(x, "unsupported integer operation");
  }
  if (W == 64) lop += I64OFF;
  if (sgn && bits < W) {
    a = xl_sext(x, a, bits, W);
    if (op != LLVMAShr) b = xl_sext(x, b, bits, W);
  }
  xl_emit(x, lop, d, a, b, 0, 0, 0);
  if (trunc && bits < W) xl_emit(x, LSI_TRUNC, d, d, 0, 0, bits, 0);
}

static unsigned icmp_op(struct xl *x, LLVMIntPredicate p, int *sgn) {
  *sgn = 0;
  switch (p) {
  case LLVMIntEQ: return LSI_EQ_I32;
  case LLVMIntNE: return LSI_NE_I32;
  case LLVMIntUGT: return LSI_UGT_I32;
  case LLVMIntUGE: return LSI_UGE_I32;
  case LLVMIntULT: return LSI_ULT_I32;
  case LLVMIntULE: return LSI_ULE_I32;
  case LLVMIntSGT: *sgn = 1; return LSI_SGT_I32;
  case LLVMIntSGE: *sgn = 1; return LSI_SGE_I32;
  case LLVMIntSLT: *sgn = 1; return LSI_SLT_I32;
  case LLVMIntSLE: *sgn = 1; return LSI_SLE_I32;
  }
  xl_fail(x, "unsupported integer comparison");
}

static int fcmp_op(LLVMRealPredicate p) {
  switch (p) {
  case LLVMRealOEQ: return LSI_FOEQ_F32;
  case LLVMRealONE: return LSI_FONE_F32;
  case LLVMRealOLT: return LSI_FOLT_F32;
  case LLVMRealOLE: return LSI_FOLE_F32;
  case LLVMRealOGT: return LSI_FOGT_F32;
  case LLVMRealOGE: return LSI_FOGE_F32;
  case LLVMRealORD: return LSI_FORD_F32;
  case LLVMRealUEQ: return LSI_FUEQ_F32;
  case LLVMRealUNE: return LSI_FUNE_F32;
  case LLVMRealULT: return LSI_FULT_F32;
  case LLVMRealULE: return LSI_FULE_F32;
  case LLVMRealUGT: return LSI_FUGT_F32;
  case LLVMRealUGE: return LSI_FUGE_F32;
  case LLVMRealUNO: return LSI_FUNO_F32;
  case LLVMRealPredicateFalse: return -1;
  case LLVMRealPredicateTrue: return -2;
  }
  return -1;
}

static int fp_width(struct xl *x, LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) t = LLVMGetElementType(t);
  switch (LLVMGetTypeKind(t)) {
  case LLVMFloatTypeKind: return 32;
  case LLVMDoubleTypeKind: return 64;
  case LLVMHalfTypeKind: xl_fail(x, "half arithmetic is not supported (cl_khr_fp16)");
  default: xl_fail(x, "unsupported floating-point type");
  }
}

/* Leaf index where the aggregate index path of an extract/insertvalue starts. */
static unsigned agg_leaf_start(struct xl *x, LLVMTypeRef t, const unsigned *idx, unsigned n,
                               LLVMTypeRef *sub) {
  unsigned start = 0;
  for (unsigned k = 0; k < n; k++) {
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      for (unsigned j = 0; j < idx[k]; j++)
        start += xl_leaves(x, LLVMStructGetTypeAtIndex(t, j), NULL);
      t = LLVMStructGetTypeAtIndex(t, idx[k]);
    } else {
      t = LLVMGetElementType(t);
      start += idx[k] * xl_leaves(x, t, NULL);
    }
  }
  *sub = t;
  return start;
}

/* d := bits [lo, lo + w) of the concatenation of n registers of ws bits each,
 * register 0 lowest: LLVM's little-endian layout of a vector's elements,
 * which bitcasts between vectors and scalars (<4 x i1> <-> i4, <2 x float>
 * <-> i64, ...) preserve. Sources are canonical (zero-extended). */
static void gather_bits(struct xl *x, uint32_t d, const uint32_t *r, unsigned n, unsigned ws,
                        unsigned lo, unsigned w) {
  uint32_t piece = xl_vreg(x, 1);
  int first = 1;
  for (unsigned i = lo / ws; i < n && i * ws < lo + w; i++) {
    int64_t sh = (int64_t)i * ws - lo;
    uint32_t v = sh ? piece : r[i];
    if (sh > 0) xl_emit(x, LSI_SHL_I64, piece, r[i], xl_const(x, (uint64_t)sh, 0), 0, 0, 0);
    if (sh < 0) xl_emit(x, LSI_LSHR_I64, piece, r[i], xl_const(x, (uint64_t)-sh, 0), 0, 0, 0);
    if (first)
      xl_emit(x, LSI_MOV, d, v, 0, 0, 0, 0);
    else
      xl_emit(x, LSI_OR_I64, d, d, v, 0, 0, 0);
    first = 0;
  }
  if (first) xl_emit(x, LSI_MOV, d, xl_const(x, 0, 0), 0, 0, 0, 0);
  if (w < 64) xl_emit(x, LSI_TRUNC, d, d, 0, 0, w, 0);
}

/* Bitcast between first-class types whose leaves differ in number (a vector
 * and a scalar, or vectors of different element widths), in registers. */
static void bitcast_bits(struct xl *x, LLVMValueRef src, LLVMTypeRef dt, uint32_t d) {
  struct cc_leaf *sl = malloc(sizeof(struct cc_leaf) * XL_MAX_LEAVES * 2), *dl = sl + XL_MAX_LEAVES;
  unsigned ns = xl_leaves(x, LLVMTypeOf(src), sl), nd = xl_leaves(x, dt, dl);
  if (!ns || !nd || ns * sl[0].bits != nd * dl[0].bits) {
    free(sl);
    xl_fail(x, "bitcast between types of different bit sizes");
  }
  uint32_t *r = malloc(sizeof(uint32_t) * ns);
  for (unsigned i = 0; i < ns; i++)
    r[i] = xl_val(x, src, i);
  for (unsigned j = 0; j < nd; j++)
    gather_bits(x, d + j, r, ns, sl[0].bits, j * dl[0].bits, dl[0].bits);
  free(r);
  free(sl);
}

/* A vector of integers narrower than a byte or of odd bit widths (<8 x i1>,
 * <2 x i4>) is a bit field in memory: element i at bits [i*w, (i+1)*w) of
 * StoreSize bytes. The integer leaf those bytes are moved as. */
static struct cc_leaf packed_vec_leaf(struct xl *x, LLVMTypeRef t) {
  unsigned bytes = (unsigned)LLVMStoreSizeOfType(x->td, t);
  if (bytes > 8)
    xl_fail(x, "vectors of %u-bit elements wider than 64 bits in memory are not supported",
            LLVMGetIntTypeWidth(LLVMGetElementType(t)));
  return (struct cc_leaf){LK_INT, (uint8_t)(bytes * 8), 0};
}

static void load_packed_vec(struct xl *x, uint32_t d, uint32_t addr, LLVMTypeRef t, unsigned space,
                            unsigned align) {
  struct cc_leaf l = packed_vec_leaf(x, t);
  unsigned w = LLVMGetIntTypeWidth(LLVMGetElementType(t));
  uint32_t packed = xl_vreg(x, 1);
  xl_load_leaf(x, packed, addr, 0, &l, space, align);
  for (unsigned i = 0; i < LLVMGetVectorSize(t); i++)
    gather_bits(x, d + i, &packed, 1, 64, i * w, w);
}

static void store_packed_vec(struct xl *x, LLVMValueRef v, uint32_t addr, unsigned space,
                             unsigned align) {
  LLVMTypeRef t = LLVMTypeOf(v);
  struct cc_leaf l = packed_vec_leaf(x, t);
  unsigned n = LLVMGetVectorSize(t), w = LLVMGetIntTypeWidth(LLVMGetElementType(t));
  uint32_t *r = malloc(sizeof(uint32_t) * n), packed = xl_vreg(x, 1);
  for (unsigned i = 0; i < n; i++)
    r[i] = xl_val(x, v, i);
  gather_bits(x, packed, r, n, w, 0, l.bits);
  free(r);
  xl_store_leaf(x, packed, addr, 0, &l, space, align);
}

static void xl_gep(struct xl *x, LLVMValueRef I) {
  uint32_t d = xl_def(x, I);
  if (LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMVectorTypeKind)
    xl_fail(x, "vector GEPs are not supported");
  LLVMTypeRef t = LLVMGetGEPSourceElementType(I);
  unsigned n = LLVMGetNumOperands(I);
  uint32_t cur = xl_val(x, LLVMGetOperand(I, 0), 0);
  int64_t off = 0;
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(I, i);
    int64_t esz;
    if (i == 1) {
      esz = (int64_t)LLVMABISizeOfType(x->td, t);
    } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      unsigned f = (unsigned)LLVMConstIntGetZExtValue(idx);
      off += (int64_t)LLVMOffsetOfElement(x->td, t, f);
      t = LLVMStructGetTypeAtIndex(t, f);
      continue;
    } else {
      t = LLVMGetElementType(t);
      esz = (int64_t)LLVMABISizeOfType(x->td, t);
    }
    if (LLVMIsAConstantInt(idx)) {
      off += LLVMConstIntGetSExtValue(idx) * esz;
      continue;
    }
    unsigned w = xl_int_bits(x, LLVMTypeOf(idx));
    uint32_t r = xl_sext(x, xl_val(x, idx, 0), w, 64);
    uint32_t nd = xl_vreg(x, 1);
    xl_emit(x, LSI_MADI, nd, cur, r, 0, esz, 0);
    cur = nd;
  }
  xl_emit(x, LSI_ADDI, d, cur, 0, 0, off, 0);
}

static void xl_cast(struct xl *x, LLVMValueRef I, LLVMOpcode op) {
  LLVMValueRef s = LLVMGetOperand(I, 0);
  LLVMTypeRef st = LLVMTypeOf(s), dt = LLVMTypeOf(I);
  uint32_t d = xl_def(x, I);
  unsigned n = xl_leaves(x, dt, NULL);
  if (op == LLVMBitCast && xl_leaves(x, st, NULL) != n) {
    bitcast_bits(x, s, dt, d);
    return;
  }
  for (unsigned i = 0; i < n; i++) {
    uint32_t a = xl_val(x, s, i);
    switch (op) {
    case LLVMTrunc: xl_emit(x, LSI_TRUNC, d + i, a, 0, 0, xl_int_bits(x, dt), 0); break;
    case LLVMZExt:
    case LLVMIntToPtr:
    case LLVMAddrSpaceCast:
    case LLVMBitCast:
    case LLVMFreeze: xl_emit(x, LSI_MOV, d + i, a, 0, 0, 0, 0); break;
    case LLVMPtrToInt: {
      unsigned w = xl_int_bits(x, dt);
      if (w < 64)
        xl_emit(x, LSI_TRUNC, d + i, a, 0, 0, w, 0);
      else
        xl_emit(x, LSI_MOV, d + i, a, 0, 0, 0, 0);
      break;
    }
    case LLVMSExt:
      xl_emit(x, LSI_SEXT, d + i, a, 0, 0,
              (int64_t)(xl_int_bits(x, st) | (xl_int_bits(x, dt) << 8)), 0);
      break;
    case LLVMFPToSI:
    case LLVMFPToUI: {
      int fw = fp_width(x, st);
      unsigned w = xl_int_bits(x, dt);
      unsigned o = op == LLVMFPToSI ? (w <= 32 ? LSI_FPTOSI32_F32 : LSI_FPTOSI64_F32)
                                    : (w <= 32 ? LSI_FPTOUI32_F32 : LSI_FPTOUI64_F32);
      if (fw == 64) o += F64OFF;
      xl_emit(x, o, d + i, a, 0, 0, 0, 0);
      if (w < 32 || (w > 32 && w < 64)) xl_emit(x, LSI_TRUNC, d + i, d + i, 0, 0, w, 0);
      break;
    }
    case LLVMSIToFP:
    case LLVMUIToFP: {
      int fw = fp_width(x, dt);
      unsigned w = xl_int_bits(x, st);
      unsigned o;
      if (op == LLVMSIToFP) {
        unsigned to = w <= 32 ? 32 : 64;
        a = xl_sext(x, a, w, to);
        o = to == 32 ? LSI_SI32TOFP_F32 : LSI_SI64TOFP_F32;
      } else {
        o = w <= 32 ? LSI_UI32TOFP_F32 : LSI_UI64TOFP_F32;
      }
      if (fw == 64) o += F64OFF;
      xl_emit(x, o, d + i, a, 0, 0, 0, 0);
      break;
    }
    case LLVMFPExt:
    case LLVMFPTrunc: {
      int sw = fp_width(x, st), dw = fp_width(x, dt);
      if (sw == dw) {
        xl_emit(x, LSI_MOV, d + i, a, 0, 0, 0, 0);
      } else if (op == LLVMFPExt) {
        xl_emit(x, LSI_FPEXT, d + i, sw == 32 ? xl_ftz_in(x, a) : a, 0, 0, 0, 0);
      } else {
        xl_emit(x, LSI_FPTRUNC, d + i, a, 0, 0, 0, 0);
        if (dw == 32) xl_ftz_out(x, d + i);
      }
      break;
    }
    default: xl_fail(x, "unsupported cast");
    }
  }
}

static void xl_atomicrmw(struct xl *x, LLVMValueRef I) {
  LLVMValueRef p = LLVMGetOperand(I, 0), v = LLVMGetOperand(I, 1);
  LLVMTypeRef t = LLVMTypeOf(v);
  unsigned space = xl_space(LLVMGetPointerAddressSpace(LLVMTypeOf(p)));
  int isfp = LLVMGetTypeKind(t) == LLVMFloatTypeKind || LLVMGetTypeKind(t) == LLVMDoubleTypeKind;
  unsigned bits = isfp ? (unsigned)fp_width(x, t) : xl_int_bits(x, t);
  if (bits != 32 && bits != 64) xl_fail(x, "atomics on %u-bit values are not supported", bits);
  unsigned o;
  switch (LLVMGetAtomicRMWBinOp(I)) {
  case LLVMAtomicRMWBinOpXchg: o = LSI_ATOM_XCHG_I32; break;
  case LLVMAtomicRMWBinOpAdd: o = LSI_ATOM_ADD_I32; break;
  case LLVMAtomicRMWBinOpSub: o = LSI_ATOM_SUB_I32; break;
  case LLVMAtomicRMWBinOpAnd: o = LSI_ATOM_AND_I32; break;
  case LLVMAtomicRMWBinOpOr: o = LSI_ATOM_OR_I32; break;
  case LLVMAtomicRMWBinOpXor: o = LSI_ATOM_XOR_I32; break;
  case LLVMAtomicRMWBinOpMax: o = LSI_ATOM_SMAX_I32; break;
  case LLVMAtomicRMWBinOpMin: o = LSI_ATOM_SMIN_I32; break;
  case LLVMAtomicRMWBinOpUMax: o = LSI_ATOM_UMAX_I32; break;
  case LLVMAtomicRMWBinOpUMin: o = LSI_ATOM_UMIN_I32; break;
  case LLVMAtomicRMWBinOpFAdd:
    o = bits == 32 ? LSI_ATOM_FADD_F32 : LSI_ATOM_FADD_F64;
    xl_emit(x, o, xl_def(x, I), xl_val(x, p, 0), xl_val(x, v, 0), 0, 0, space);
    return;
  default: xl_fail(x, "unsupported atomicrmw operation");
  }
  if (isfp && o != LSI_ATOM_XCHG_I32) xl_fail(x, "unsupported floating-point atomic");
  if (bits == 64) o += LSI_ATOM_ADD_I64 - LSI_ATOM_ADD_I32;
  xl_emit(x, o, xl_def(x, I), xl_val(x, p, 0), xl_val(x, v, 0), 0, 0, space);
}

static void xl_cmpxchg(struct xl *x, LLVMValueRef I) {
  LLVMValueRef p = LLVMGetOperand(I, 0), cmp = LLVMGetOperand(I, 1), nv = LLVMGetOperand(I, 2);
  unsigned bits = xl_int_bits(x, LLVMTypeOf(cmp));
  if (bits != 32 && bits != 64) xl_fail(x, "atomics on %u-bit values are not supported", bits);
  unsigned space = xl_space(LLVMGetPointerAddressSpace(LLVMTypeOf(p)));
  uint32_t d = xl_def(x, I);
  uint32_t c = xl_val(x, cmp, 0);
  xl_emit(x, bits == 32 ? LSI_ATOM_CMPXCHG_I32 : LSI_ATOM_CMPXCHG_I64, d, xl_val(x, p, 0),
          xl_val(x, nv, 0), c, 0, space);
  xl_emit(x, bits == 32 ? LSI_EQ_I32 : LSI_EQ_I64, d + 1, d, c, 0, 0, 0);
}

/* The alignment a load or store guarantees for its address. */
static unsigned access_align(struct xl *x, LLVMValueRef I, LLVMTypeRef t) {
  unsigned a = LLVMGetAlignment(I);
  return a ? a : LLVMABIAlignmentOfType(x->td, t);
}

/* One non-terminator instruction. */
static void xl_inst(struct xl *x, LLVMValueRef I) {
  LLVMOpcode op = LLVMGetInstructionOpcode(I);
  switch (op) {
  case LLVMAdd:
  case LLVMSub:
  case LLVMMul:
  case LLVMUDiv:
  case LLVMSDiv:
  case LLVMURem:
  case LLVMSRem:
  case LLVMShl:
  case LLVMLShr:
  case LLVMAShr:
  case LLVMAnd:
  case LLVMOr:
  case LLVMXor: {
    unsigned bits = xl_int_bits(x, LLVMTypeOf(I));
    uint32_t d = xl_def(x, I);
    unsigned n = xl_leaves(x, LLVMTypeOf(I), NULL);
    for (unsigned i = 0; i < n; i++)
      int_binop(x, op, bits, d + i, xl_val(x, LLVMGetOperand(I, 0), i),
                xl_val(x, LLVMGetOperand(I, 1), i));
    return;
  }
  case LLVMFAdd:
  case LLVMFSub:
  case LLVMFMul:
  case LLVMFDiv:
  case LLVMFRem: {
    int w = fp_width(x, LLVMTypeOf(I));
    unsigned o = op == LLVMFAdd   ? LSI_FADD_F32
                 : op == LLVMFSub ? LSI_FSUB_F32
                 : op == LLVMFMul ? LSI_FMUL_F32
                 : op == LLVMFDiv ? LSI_FDIV_F32
                                  : LSI_FREM_F32;
    if (w == 64) o += F64OFF;
    uint32_t d = xl_def(x, I);
    unsigned n = xl_leaves(x, LLVMTypeOf(I), NULL);
    for (unsigned i = 0; i < n; i++) {
      uint32_t a = xl_val(x, LLVMGetOperand(I, 0), i), b = xl_val(x, LLVMGetOperand(I, 1), i);
      if (w == 32) {
        a = xl_ftz_in(x, a);
        b = xl_ftz_in(x, b);
      }
      xl_emit(x, o, d + i, a, b, 0, 0, 0);
      if (w == 32) xl_ftz_out(x, d + i);
    }
    return;
  }
  case LLVMFNeg: {
    int w = fp_width(x, LLVMTypeOf(I));
    uint32_t d = xl_def(x, I);
    unsigned n = xl_leaves(x, LLVMTypeOf(I), NULL);
    for (unsigned i = 0; i < n; i++)
      xl_emit(x, w == 64 ? LSI_FNEG_F64 : LSI_FNEG_F32, d + i, xl_val(x, LLVMGetOperand(I, 0), i),
              0, 0, 0, 0);
    return;
  }
  case LLVMICmp: {
    LLVMTypeRef ot = LLVMTypeOf(LLVMGetOperand(I, 0));
    unsigned bits = xl_int_bits(x, ot), W = bits <= 32 ? 32 : 64;
    int sgn;
    unsigned o = icmp_op(x, LLVMGetICmpPredicate(I), &sgn);
    if (W == 64) o += I64OFF;
    uint32_t d = xl_def(x, I);
    unsigned n = xl_leaves(x, ot, NULL);
    for (unsigned i = 0; i < n; i++) {
      uint32_t a = xl_val(x, LLVMGetOperand(I, 0), i), b = xl_val(x, LLVMGetOperand(I, 1), i);
      if (sgn && bits < W) {
        a = xl_sext(x, a, bits, W);
        b = xl_sext(x, b, bits, W);
      }
      xl_emit(x, o, d + i, a, b, 0, 0, 0);
    }
    return;
  }
  case LLVMFCmp: {
    LLVMTypeRef ot = LLVMTypeOf(LLVMGetOperand(I, 0));
    int w = fp_width(x, ot);
    int o = fcmp_op(LLVMGetFCmpPredicate(I));
    uint32_t d = xl_def(x, I);
    unsigned n = xl_leaves(x, ot, NULL);
    for (unsigned i = 0; i < n; i++) {
      uint32_t a = xl_val(x, LLVMGetOperand(I, 0), i), b = xl_val(x, LLVMGetOperand(I, 1), i);
      if (w == 32 && o >= 0) {
        a = xl_ftz_in(x, a);
        b = xl_ftz_in(x, b);
      }
      if (o < 0)
        xl_emit(x, LSI_MOV, d + i, xl_const(x, o == -2, 0), 0, 0, 0, 0);
      else
        xl_emit(x, (unsigned)o + (w == 64 ? F64OFF : 0), d + i, a, b, 0, 0, 0);
    }
    return;
  }
  case LLVMSelect: {
    LLVMValueRef c = LLVMGetOperand(I, 0);
    int vc = LLVMGetTypeKind(LLVMTypeOf(c)) == LLVMVectorTypeKind;
    uint32_t d = xl_def(x, I);
    unsigned n = xl_leaves(x, LLVMTypeOf(I), NULL);
    for (unsigned i = 0; i < n; i++)
      xl_emit(x, LSI_SELECT, d + i, xl_val(x, c, vc ? i : 0), xl_val(x, LLVMGetOperand(I, 1), i),
              xl_val(x, LLVMGetOperand(I, 2), i), 0, 0);
    return;
  }
  case LLVMTrunc:
  case LLVMZExt:
  case LLVMSExt:
  case LLVMFPToUI:
  case LLVMFPToSI:
  case LLVMUIToFP:
  case LLVMSIToFP:
  case LLVMFPTrunc:
  case LLVMFPExt:
  case LLVMPtrToInt:
  case LLVMIntToPtr:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMFreeze: xl_cast(x, I, op); return;
  case LLVMAlloca: {
    LLVMTypeRef t = LLVMGetAllocatedType(I);
    LLVMValueRef cnt = LLVMGetOperand(I, 0);
    if (!LLVMIsAConstantInt(cnt)) xl_fail(x, "variable-length arrays are not supported");
    uint64_t size = LLVMABISizeOfType(x->td, t) * LLVMConstIntGetZExtValue(cnt);
    unsigned align = LLVMGetAlignment(I);
    if (size > (1u << 24)) xl_fail(x, "private array too large");
    uint32_t off = xl_alloc_private(x, (uint32_t)size, align ? align : 8);
    x->allocas = realloc(x->allocas, sizeof(LLVMValueRef) * (x->nallocas + 1));
    x->alloca_off = realloc(x->alloca_off, sizeof(uint32_t) * (x->nallocas + 1));
    x->allocas[x->nallocas] = I;
    x->alloca_off[x->nallocas++] = off;
    xl_emit(x, LSI_ADDI, xl_def(x, I), x->priv_base_reg, 0, 0, off, 0);
    return;
  }
  case LLVMLoad: {
    LLVMValueRef p = LLVMGetOperand(I, 0);
    unsigned space = xl_space(LLVMGetPointerAddressSpace(LLVMTypeOf(p)));
    uint32_t addr = xl_val(x, p, 0), d = xl_def(x, I);
    LLVMTypeRef t = LLVMTypeOf(I);
    if (LLVMGetOrdering(I) != LLVMAtomicOrderingNotAtomic) {
      unsigned bits = (unsigned)LLVMStoreSizeOfType(x->td, t) * 8;
      if (bits != 32 && bits != 64) xl_fail(x, "atomic loads of %u bits are not supported", bits);
      xl_emit(x, bits == 32 ? LSI_ATOM_LD_I32 : LSI_ATOM_LD_I64, d, addr, 0, 0, 0, space);
      return;
    }
    if (is_packed_vec(t)) {
      load_packed_vec(x, d, addr, t, space, access_align(x, I, t));
      return;
    }
    struct cc_leaf *lv = malloc(sizeof(struct cc_leaf) * XL_MAX_LEAVES);
    unsigned n = xl_leaves(x, t, lv), al = access_align(x, I, t);
    for (unsigned i = 0; i < n; i++)
      xl_load_leaf(x, d + i, addr, lv[i].off, &lv[i], space, al);
    free(lv);
    return;
  }
  case LLVMStore: {
    LLVMValueRef v = LLVMGetOperand(I, 0), p = LLVMGetOperand(I, 1);
    unsigned space = xl_space(LLVMGetPointerAddressSpace(LLVMTypeOf(p)));
    uint32_t addr = xl_val(x, p, 0);
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetOrdering(I) != LLVMAtomicOrderingNotAtomic) {
      unsigned bits = (unsigned)LLVMStoreSizeOfType(x->td, t) * 8;
      if (bits != 32 && bits != 64) xl_fail(x, "atomic stores of %u bits are not supported", bits);
      xl_emit(x, bits == 32 ? LSI_ATOM_ST_I32 : LSI_ATOM_ST_I64, 0, addr, xl_val(x, v, 0), 0, 0,
              space);
      return;
    }
    if (is_packed_vec(t)) {
      store_packed_vec(x, v, addr, space, access_align(x, I, t));
      return;
    }
    struct cc_leaf *lv = malloc(sizeof(struct cc_leaf) * XL_MAX_LEAVES);
    unsigned n = xl_leaves(x, t, lv), al = access_align(x, I, t);
    for (unsigned i = 0; i < n; i++)
      xl_store_leaf(x, xl_val(x, v, i), addr, lv[i].off, &lv[i], space, al);
    free(lv);
    return;
  }
  case LLVMGetElementPtr: xl_gep(x, I); return;
  case LLVMPHI: xl_def(x, I); return;
  case LLVMCall: xl_call(x, I); return;
  case LLVMExtractElement: {
    LLVMValueRef v = LLVMGetOperand(I, 0), idx = LLVMGetOperand(I, 1);
    uint32_t d = xl_def(x, I);
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
    if (LLVMIsAConstantInt(idx)) {
      uint64_t k = LLVMConstIntGetZExtValue(idx);
      xl_emit(x, LSI_MOV, d, k < n ? xl_val(x, v, (unsigned)k) : xl_const(x, 0, 0), 0, 0, 0, 0);
      return;
    }
    uint32_t ix = xl_val(x, idx, 0), t = xl_vreg(x, 1);
    unsigned w = xl_int_bits(x, LLVMTypeOf(idx));
    xl_emit(x, LSI_MOV, d, xl_val(x, v, 0), 0, 0, 0, 0);
    for (unsigned i = 1; i < n; i++) {
      xl_emit(x, w <= 32 ? LSI_EQ_I32 : LSI_EQ_I64, t, ix, xl_const(x, i, 0), 0, 0, 0);
      xl_emit(x, LSI_SELECT, d, t, xl_val(x, v, i), d, 0, 0);
    }
    return;
  }
  case LLVMInsertElement: {
    LLVMValueRef v = LLVMGetOperand(I, 0), e = LLVMGetOperand(I, 1), idx = LLVMGetOperand(I, 2);
    uint32_t d = xl_def(x, I);
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
    if (LLVMIsAConstantInt(idx)) {
      uint64_t k = LLVMConstIntGetZExtValue(idx);
      for (unsigned i = 0; i < n; i++)
        xl_emit(x, LSI_MOV, d + i, i == k ? xl_val(x, e, 0) : xl_val(x, v, i), 0, 0, 0, 0);
      return;
    }
    uint32_t ix = xl_val(x, idx, 0), t = xl_vreg(x, 1);
    unsigned w = xl_int_bits(x, LLVMTypeOf(idx));
    for (unsigned i = 0; i < n; i++) {
      xl_emit(x, w <= 32 ? LSI_EQ_I32 : LSI_EQ_I64, t, ix, xl_const(x, i, 0), 0, 0, 0);
      xl_emit(x, LSI_SELECT, d + i, t, xl_val(x, e, 0), xl_val(x, v, i), 0, 0);
    }
    return;
  }
  case LLVMShuffleVector: {
    LLVMValueRef a = LLVMGetOperand(I, 0), b = LLVMGetOperand(I, 1);
    unsigned na = LLVMGetVectorSize(LLVMTypeOf(a));
    unsigned n = LLVMGetNumMaskElements(I);
    uint32_t d = xl_def(x, I);
    for (unsigned i = 0; i < n; i++) {
      int m = LLVMGetMaskValue(I, i);
      uint32_t src = m < 0              ? xl_const(x, 0, 0)
                     : (unsigned)m < na ? xl_val(x, a, (unsigned)m)
                                        : xl_val(x, b, (unsigned)m - na);
      xl_emit(x, LSI_MOV, d + i, src, 0, 0, 0, 0);
    }
    return;
  }
  case LLVMExtractValue: {
    LLVMValueRef a = LLVMGetOperand(I, 0);
    LLVMTypeRef sub;
    unsigned start =
        agg_leaf_start(x, LLVMTypeOf(a), LLVMGetIndices(I), LLVMGetNumIndices(I), &sub);
    uint32_t d = xl_def(x, I);
    unsigned n = xl_leaves(x, sub, NULL);
    for (unsigned i = 0; i < n; i++)
      xl_emit(x, LSI_MOV, d + i, xl_val(x, a, start + i), 0, 0, 0, 0);
    return;
  }
  case LLVMInsertValue: {
    LLVMValueRef a = LLVMGetOperand(I, 0), e = LLVMGetOperand(I, 1);
    LLVMTypeRef sub;
    unsigned start =
        agg_leaf_start(x, LLVMTypeOf(a), LLVMGetIndices(I), LLVMGetNumIndices(I), &sub);
    uint32_t d = xl_def(x, I);
    unsigned n = xl_leaves(x, LLVMTypeOf(a), NULL), ne = xl_leaves(x, sub, NULL);
    for (unsigned i = 0; i < n; i++) {
      uint32_t src = (i >= start && i < start + ne) ? xl_val(x, e, i - start) : xl_val(x, a, i);
      xl_emit(x, LSI_MOV, d + i, src, 0, 0, 0, 0);
    }
    return;
  }
  case LLVMAtomicRMW: xl_atomicrmw(x, I); return;
  case LLVMAtomicCmpXchg: xl_cmpxchg(x, I); return;
  case LLVMFence: xl_emit(x, LSI_FENCE, 0, 0, 0, 0, 3, 0); return;
  default: xl_fail(x, "unsupported instruction");
  }
}

/* ---- control flow ---- */

static uint32_t site_cont(struct xl *x, int s) {
  const struct xl_site *st = &x->cfg.sites[s];
  if (st->parent >= 0) return x->cfg.sites[st->parent].sync_label;
  return st->back ? x->cfg.b[st->post].yield_label : x->cfg.b[st->post].body_label;
}

static uint32_t edge_target(struct xl *x, int from, int to) {
  int s = cc_cfg_site_for_edge(&x->cfg, from, to);
  if (s >= 0) return x->cfg.sites[s].sync_label;
  if (cc_cfg_is_back_edge(&x->cfg, from, to)) return x->cfg.b[to].yield_label;
  return x->cfg.b[to].body_label;
}

static int edge_has_phis(struct xl *x, int from, int to) {
  LLVMValueRef i = LLVMGetFirstInstruction(x->cfg.b[to].bb);
  (void)from;
  return i && LLVMIsAPHINode(i);
}

static int edge_enters_hoisted(struct xl *x, int from, int to) {
  int l = x->cfg.b[to].is_header;
  if (l < 0 || cc_bit(x->cfg.loops[l].blocks, (unsigned)from)) return 0;
  for (unsigned s = 0; s < x->cfg.nsites; s++)
    if (x->cfg.sites[s].loop == l) return 1;
  return 0;
}

/* Phi moves, hoisted SSYs and the jump for the edge from -> to. */
static void emit_edge(struct xl *x, int from, int to) {
  LLVMBasicBlockRef fbb = x->cfg.b[from].bb;
  LLVMValueRef phis[256];
  unsigned np = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(x->cfg.b[to].bb); i && LLVMIsAPHINode(i);
       i = LLVMGetNextInstruction(i)) {
    if (np == 256) xl_fail(x, "too many phi nodes in one block");
    phis[np++] = i;
  }
  LLVMValueRef in[256];
  for (unsigned k = 0; k < np; k++) {
    in[k] = NULL;
    unsigned nin = LLVMCountIncoming(phis[k]);
    for (unsigned j = 0; j < nin; j++)
      if (LLVMGetIncomingBlock(phis[k], j) == fbb) {
        in[k] = LLVMGetIncomingValue(phis[k], j);
        break;
      }
    if (!in[k]) xl_fail(x, "phi without an incoming value for an edge");
  }
  if (np == 1) {
    uint32_t d = xl_def(x, phis[0]);
    unsigned n = xl_leaves(x, LLVMTypeOf(phis[0]), NULL);
    for (unsigned i = 0; i < n; i++)
      xl_emit(x, LSI_MOV, d + i, xl_val(x, in[0], i), 0, 0, 0, 0);
  } else if (np > 1) {
    uint32_t *tmp = malloc(sizeof(uint32_t) * np);
    for (unsigned k = 0; k < np; k++) {
      unsigned n = xl_leaves(x, LLVMTypeOf(phis[k]), NULL);
      tmp[k] = xl_vreg(x, n ? n : 1);
      for (unsigned i = 0; i < n; i++)
        xl_emit(x, LSI_MOV, tmp[k] + i, xl_val(x, in[k], i), 0, 0, 0, 0);
    }
    for (unsigned k = 0; k < np; k++) {
      uint32_t d = xl_def(x, phis[k]);
      unsigned n = xl_leaves(x, LLVMTypeOf(phis[k]), NULL);
      for (unsigned i = 0; i < n; i++)
        xl_emit(x, LSI_MOV, d + i, tmp[k] + i, 0, 0, 0, 0);
    }
    free(tmp);
  }
  /* entering a loop: push the sync tokens hoisted out of it, outermost first */
  int l = x->cfg.b[to].is_header;
  if (l >= 0 && !cc_bit(x->cfg.loops[l].blocks, (unsigned)from)) {
    int done[64];
    unsigned nd = 0;
    for (;;) {
      int pick = -1;
      for (unsigned s = 0; s < x->cfg.nsites; s++) {
        if (x->cfg.sites[s].loop != l) continue;
        int seen = 0;
        for (unsigned k = 0; k < nd; k++)
          seen |= done[k] == (int)s;
        if (seen) continue;
        /* outermost first: a site whose parent is still pending waits */
        int par = x->cfg.sites[s].parent, wait = 0;
        if (par >= 0 && x->cfg.sites[par].loop == l) {
          wait = 1;
          for (unsigned k = 0; k < nd; k++)
            wait &= done[k] != par;
        }
        if (!wait) {
          pick = (int)s;
          break;
        }
      }
      if (pick < 0 || nd == 64) break;
      done[nd++] = pick;
      xl_emit_br(x, LSI_SSY, 0, site_cont(x, pick));
    }
  }
  xl_emit_br(x, LSI_BRA, 0, edge_target(x, from, to));
}

static void set_loc(struct xl *x, LLVMValueRef I);

static void emit_terminator(struct xl *x, int bi, LLVMValueRef t) {
  LLVMOpcode op = LLVMGetInstructionOpcode(t);
  if (op == LLVMRet) {
    xl_emit(x, LSI_EXIT, 0, 0, 0, 0, 0, 0);
    return;
  }
  if (op == LLVMUnreachable) {
    xl_emit(x, LSI_TRAP, 0, 0, 0, 0, LSI_TRAP_UNREACHABLE, 0);
    return;
  }
  if (op != LLVMBr) xl_fail(x, "unsupported terminator");
  if (!LLVMIsConditional(t)) {
    emit_edge(x, bi, cc_cfg_block_index(&x->cfg, LLVMGetSuccessor(t, 0)));
    return;
  }
  int T = cc_cfg_block_index(&x->cfg, LLVMGetSuccessor(t, 0));
  int F = cc_cfg_block_index(&x->cfg, LLVMGetSuccessor(t, 1));
  if (T == F) {
    emit_edge(x, bi, T);
    return;
  }
  for (unsigned s = 0; s < x->cfg.nsites; s++)
    if (x->cfg.sites[s].block == bi) xl_emit_br(x, LSI_SSY, 0, site_cont(x, (int)s));
  uint32_t cond = xl_val(x, LLVMGetCondition(t), 0);
  int stubT = edge_has_phis(x, bi, T) || edge_enters_hoisted(x, bi, T);
  int stubF = edge_has_phis(x, bi, F) || edge_enters_hoisted(x, bi, F);
  uint32_t lt = stubT ? xl_new_label(x) : edge_target(x, bi, T);
  xl_emit_br(x, LSI_BRA_P, cond, lt);
  emit_edge(x, bi, F);
  (void)stubF;
  if (stubT) {
    xl_place_label(x, lt);
    emit_edge(x, bi, T);
  }
}

static void set_loc(struct xl *x, LLVMValueRef I) {
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(I);
  if (!loc) return;
  x->cur_line = LLVMDILocationGetLine(loc);
  LLVMMetadataRef scope = LLVMDILocationGetScope(loc);
  LLVMMetadataRef file = scope ? LLVMDIScopeGetFile(scope) : NULL;
  if (!file) return;
  unsigned len;
  const char *name = LLVMDIFileGetFilename(file, &len);
  struct lsi_program *p = x->prog->p;
  for (uint32_t i = 0; i < p->nfiles; i++)
    if (strlen(p->files[i]) == len && !strncmp(p->files[i], name, len)) {
      x->cur_file = i;
      return;
    }
  p->files = realloc(p->files, sizeof(char *) * (p->nfiles + 1));
  p->files[p->nfiles] = strndup(name, len);
  x->cur_file = p->nfiles++;
}

static void note_ipc(struct xl *x, LLVMValueRef I) {
  if (x->nipc == x->capipc) {
    x->capipc = x->capipc ? x->capipc * 2 : 256;
    x->ipc_inst = realloc(x->ipc_inst, sizeof(LLVMValueRef) * x->capipc);
    x->ipc_pc = realloc(x->ipc_pc, sizeof(uint32_t) * x->capipc);
  }
  x->ipc_inst[x->nipc] = I;
  x->ipc_pc[x->nipc++] = x->ncode;
}

/* Emits the whole function body. */
void xl_body(struct xl *x) {
  struct xl_cfg *g = &x->cfg;
  for (unsigned i = 0; i < g->nblocks; i++) {
    g->b[i].body_label = xl_new_label(x);
    g->b[i].yield_label = xl_new_label(x);
  }
  for (unsigned s = 0; s < g->nsites; s++)
    g->sites[s].sync_label = xl_new_label(x);
  for (unsigned bi = 0; bi < g->nblocks; bi++) {
    struct xl_block *b = &g->b[bi];
    LLVMValueRef first = LLVMGetFirstInstruction(b->bb);
    for (LLVMValueRef i = first; i; i = LLVMGetNextInstruction(i))
      if (LLVMInstructionGetDebugLoc(i)) {
        set_loc(x, i);
        break;
      }
    x->cur_inst = NULL;
    b->start_pc = x->ncode;
    /* the SYNC ladder of the sites reconverging here, innermost first */
    for (uint32_t s1 = b->first_site; s1; s1 = g->sites[s1 - 1].next_site) {
      xl_place_label(x, g->sites[s1 - 1].sync_label);
      xl_emit_br(x, LSI_SYNC, 0, site_cont(x, (int)(s1 - 1)));
    }
    if (b->is_header >= 0) {
      xl_place_label(x, b->yield_label);
      if (!g->loops[b->is_header].counted) {
        xl_emit(x, LSI_YIELD, 0, 0, 0, 0, 0, 0);
        xl_emit_br(x, LSI_BRA, 0, b->body_label);
      }
    }
    xl_place_label(x, b->body_label);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b->bb);
    for (LLVMValueRef i = first; i; i = LLVMGetNextInstruction(i)) {
      set_loc(x, i);
      x->cur_inst = i;
      note_ipc(x, i);
      if (i == term)
        emit_terminator(x, (int)bi, i);
      else
        xl_inst(x, i);
    }
    x->cur_inst = NULL;
  }
}

/* Renumbers registers (constant rows first), resolves labels. */
void xl_finish(struct xl *x) {
  uint32_t nc = x->nconst;
#define FIX(r) ((r) = ((r)&XL_CONST) ? ((r) & ~XL_CONST) : (r) + nc)
  for (uint32_t pc = 0; pc < x->ncode; pc++) {
    lsi_insn *i = &x->code[pc];
    switch (lsi_op_format[i->op]) {
    case FMT_RR:
      FIX(i->d);
      FIX(i->a);
      break;
    case FMT_RRR:
      FIX(i->d);
      FIX(i->a);
      FIX(i->b);
      break;
    case FMT_RRRR:
    case FMT_ATOM:
      FIX(i->d);
      FIX(i->a);
      FIX(i->b);
      FIX(i->c);
      break;
    case FMT_RI:
      FIX(i->d);
      FIX(i->a);
      break;
    case FMT_RRI:
      FIX(i->d);
      FIX(i->a);
      break;
    case FMT_RRRI:
      FIX(i->d);
      FIX(i->a);
      FIX(i->b);
      break;
    case FMT_LD:
      FIX(i->d);
      FIX(i->a);
      break;
    case FMT_ST:
      FIX(i->a);
      FIX(i->b);
      break;
    case FMT_BRP: FIX(i->a); break;
    case FMT_CALL: FIX(i->d); break;
    default: break;
    }
  }
  for (uint32_t k = 0; k < x->narglist; k++)
    FIX(x->arglist[k]);
#undef FIX
  for (uint32_t f = 0; f < x->nfix; f++)
    x->code[x->fix[f].pc].imm = x->label_pc[x->fix[f].label];
}
