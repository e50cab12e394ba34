/*
 * xcall.c - translation of call instructions: LLVM intrinsics, work-item
 * functions, barriers and fences, the OpenCL atomic library calls, and
 * builtins resolved to an id of the device's table at translation time
 * (scalarising vector calls when only the scalar form exists).
 *
 * It never defers a lookup to run time: an unknown callee fails the build.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_int.h"
#include "device/builtins.h"

#pragma GCC diagnostic ignored "-Wformat-truncation"

/* The device's table may be absent from a partial build: the lookup is then
 * treated as "no such builtin". */

#define I64OFF   (LSI_ADD_I64 - LSI_ADD_I32)
#define F64OFF_X (LSI_FADD_F64 - LSI_FADD_F32)

/* The table lists a builtin whose pointers may point into any address space
 * once, with unqualified pointers (the device checks every access by its
 * address); only builtins whose behaviour depends on the spaces (the async
 * copies) list each form. */
int cc_builtin_id(const char *mangled) {
  int id = lsi_builtin_lookup(mangled);
  char flat[256];
  if (id < 0 && !cc_mangle_flat(mangled, flat, sizeof(flat))) id = lsi_builtin_lookup(flat);
  return id;
}
int xl_builtin(struct xl *x, const char *mangled) {
  (void)x;
  return cc_builtin_id(mangled);
}

uint32_t xl_callb(struct xl *x, int id, const char *name, const uint32_t *args, unsigned nargs,
                  unsigned nres) {
  {
    unsigned want = lsi_builtin_nargs(id);
    int variadic = (lsi_builtin_flags(id) & LSI_BI_VARIADIC);
    if (variadic ? nargs < want : nargs != want)
      xl_fail(x, "builtin '%s' takes %u argument registers, the call passes %u", name, want, nargs);
    if (lsi_builtin_nres(id) != nres && nres)
      xl_fail(x, "builtin '%s' returns %u registers, the call expects %u", name,
              lsi_builtin_nres(id), nres);
  }
  uint32_t d = xl_vreg(x, nres ? nres : 1);
  uint32_t at = xl_arglist(x, args, nargs);
  uint32_t pc = xl_emit(x, LSI_CALLB, d, at, nargs, 0, id, 0);
  x->call_pc = realloc(x->call_pc, sizeof(uint32_t) * (x->ncalls + 1));
  x->call_name = realloc(x->call_name, sizeof(char *) * (x->ncalls + 1));
  x->call_pc[x->ncalls] = pc;
  x->call_name[x->ncalls++] = strdup(lsi_builtin_name(id)); /* re-resolved by this name */
  return d;
}

static void mov_leaves(struct xl *x, uint32_t d, uint32_t s, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    xl_emit(x, LSI_MOV, d + i, s + i, 0, 0, 0, 0);
}

/* ---- helpers ---- */

static void collect_args(struct xl *x, LLVMValueRef I, uint32_t **regs, unsigned *n) {
  unsigned na = LLVMGetNumArgOperands(I), cnt = 0, cap = 16;
  uint32_t *r = malloc(sizeof(uint32_t) * cap);
  for (unsigned k = 0; k < na; k++) {
    LLVMValueRef a = LLVMGetArgOperand(I, k);
    unsigned nl = xl_leaves(x, LLVMTypeOf(a), NULL);
    for (unsigned i = 0; i < nl; i++) {
      if (cnt == cap) r = realloc(r, sizeof(uint32_t) * (cap *= 2));
      r[cnt++] = xl_val(x, a, i);
    }
  }
  *regs = r;
  *n = cnt;
}

static int is_relational(const char *n) {
  static const char *const rel[] = {
      "isequal",     "isnotequal",    "isgreater",   "isgreaterequal", "isless",
      "islessequal", "islessgreater", "isfinite",    "isinf",          "isnan",
      "isnormal",    "isordered",     "isunordered", "signbit",        NULL};
  for (unsigned i = 0; rel[i]; i++)
    if (!strcmp(rel[i], n)) return 1;
  return 0;
}

/* A call of a builtin by its mangled name, scalarised when needed. */
static void call_builtin(struct xl *x, LLVMValueRef I, const char *mangled) {
  LLVMTypeRef rt = LLVMTypeOf(I);
  unsigned nres = xl_leaves(x, rt, NULL);
  int id = xl_builtin(x, mangled);
  if (id >= 0) {
    uint32_t *regs;
    unsigned n;
    collect_args(x, I, &regs, &n);
    uint32_t r = xl_callb(x, id, mangled, regs, n, nres);
    free(regs);
    if (nres) mov_leaves(x, xl_def(x, I), r, nres);
    return;
  }
  char name[128];
  struct cc_mparam ps[16];
  int np = cc_demangle(mangled, name, sizeof(name), ps, 16);
  unsigned width = 0;
  for (int k = 0; k < np; k++)
    if (ps[k].vec > width) width = ps[k].vec;
  if (np < 0 || !width || (unsigned)np != LLVMGetNumArgOperands(I))
    xl_fail(x, "call to unknown function '%s'", mangled);
  char sname[256];
  const char *st[16];
  for (int k = 0; k < np; k++)
    st[k] = ps[k].scalar;
  if (cc_mangle(name, st, (unsigned)np, sname, sizeof(sname)))
    xl_fail(x, "cannot name the scalar form of '%s'", mangled);
  int sid = xl_builtin(x, sname);
  if (sid < 0) xl_fail(x, "builtin '%s' is not supported (neither '%s')", mangled, sname);
  unsigned per = nres ? nres / width : 0;
  if (nres && (per != 1 || nres % width)) xl_fail(x, "cannot scalarise the builtin '%s'", mangled);
  uint32_t d = nres ? xl_def(x, I) : 0;
  int rel = is_relational(name) && nres && LLVMGetTypeKind(rt) == LLVMVectorTypeKind;
  unsigned rbits = rel ? xl_int_bits(x, rt) : 0;
  uint32_t args[16];
  for (unsigned e = 0; e < width; e++) {
    for (int k = 0; k < np; k++) {
      LLVMValueRef a = LLVMGetArgOperand(I, (unsigned)k);
      if (ps[k].is_ptr && ps[k].vec) {
        uint32_t r = xl_vreg(x, 1);
        xl_emit(x, LSI_ADDI, r, xl_val(x, a, 0), 0, 0, (int64_t)(e * ps[k].elem_size), 0);
        args[k] = r;
      } else {
        args[k] = xl_val(x, a, ps[k].vec ? e : 0);
      }
    }
    uint32_t r = xl_callb(x, sid, sname, args, (unsigned)np, per);
    if (!nres) continue;
    if (rel) {
      /* vector relationals return -1 for true */
      unsigned W = rbits <= 32 ? 32 : 64;
      xl_emit(x, W == 32 ? LSI_SUB_I32 : LSI_SUB_I64, d + e, xl_const(x, 0, 0), r, 0, 0, 0);
      if (rbits < W) xl_emit(x, LSI_TRUNC, d + e, d + e, 0, 0, rbits, 0);
    } else {
      xl_emit(x, LSI_MOV, d + e, r, 0, 0, 0, 0);
    }
  }
}

/* Calls a float builtin per element: base name + type code per argument. */
static void call_fp_elementwise(struct xl *x, LLVMValueRef I, const char *base, unsigned nargs,
                                const char *extra_codes) {
  LLVMTypeRef t = LLVMTypeOf(I);
  LLVMTypeRef et = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
  char code = LLVMGetTypeKind(et) == LLVMDoubleTypeKind  ? 'd'
              : LLVMGetTypeKind(et) == LLVMFloatTypeKind ? 'f'
                                                         : 0;
  if (!code) xl_fail(x, "unsupported type for '%s'", base);
  char name[64];
  int o = snprintf(name, sizeof(name), "_Z%zu%s", strlen(base), base);
  for (unsigned k = 0; k < nargs; k++)
    name[o++] = code;
  name[o] = 0;
  if (extra_codes) snprintf(name + o, sizeof(name) - (size_t)o, "%s", extra_codes);
  int id = xl_builtin(x, name);
  if (id < 0) xl_fail(x, "builtin '%s' is not available", name);
  unsigned n = xl_leaves(x, t, NULL), na = LLVMGetNumArgOperands(I);
  uint32_t d = xl_def(x, I), args[4];
  for (unsigned e = 0; e < n; e++) {
    for (unsigned k = 0; k < na && k < 4; k++)
      args[k] = xl_val(x, LLVMGetArgOperand(I, k), e);
    uint32_t r = xl_callb(x, id, name, args, na, 1);
    xl_emit(x, LSI_MOV, d + e, r, 0, 0, 0, 0);
  }
}

static void call_int_elementwise(struct xl *x, LLVMValueRef I, const char *base) {
  LLVMTypeRef t = LLVMTypeOf(I);
  unsigned bits = xl_int_bits(x, t);
  char code = bits == 8 ? 'h' : bits == 16 ? 't' : bits == 32 ? 'j' : bits == 64 ? 'm' : 0;
  if (!code) xl_fail(x, "unsupported width for '%s'", base);
  char name[64];
  snprintf(name, sizeof(name), "_Z%zu%s%c", strlen(base), base, code);
  int id = xl_builtin(x, name);
  if (id < 0) xl_fail(x, "builtin '%s' is not available", name);
  unsigned n = xl_leaves(x, t, NULL);
  uint32_t d = xl_def(x, I);
  for (unsigned e = 0; e < n; e++) {
    uint32_t a = xl_val(x, LLVMGetArgOperand(I, 0), e);
    uint32_t r = xl_callb(x, id, name, &a, 1, 1);
    xl_emit(x, LSI_MOV, d + e, r, 0, 0, 0, 0);
  }
}

/* ---- intrinsics ---- */

static unsigned W_of(unsigned bits) {
  return bits <= 32 ? 32 : 64;
}

static void emit_minmax(struct xl *x, uint32_t d, uint32_t a, uint32_t b, unsigned bits,
                        unsigned op32, int sgn) {
  unsigned W = W_of(bits);
  if (sgn && bits < W) {
    a = xl_sext(x, a, bits, W);
    b = xl_sext(x, b, bits, W);
  }
  xl_emit(x, op32 + (W == 64 ? I64OFF : 0), d, a, b, 0, 0, 0);
  if (sgn && bits < W) xl_emit(x, LSI_TRUNC, d, d, 0, 0, bits, 0);
}

static uint32_t tmp1(struct xl *x) {
  return xl_vreg(x, 1);
}

static void emit_sat(struct xl *x, const char *n, uint32_t d, uint32_t a, uint32_t b,
                     unsigned bits) {
  int add = strstr(n, "add") != NULL, sgn = n[0] == 's';
  if (bits <= 32) {
    /* exact in 64 bits, then clamp */
    uint32_t t = tmp1(x);
    if (sgn) {
      a = xl_sext(x, a, bits, 64);
      b = xl_sext(x, b, bits, 64);
    }
    xl_emit(x, add ? LSI_ADD_I64 : LSI_SUB_I64, t, a, b, 0, 0, 0);
    if (sgn) {
      int64_t mx = (int64_t)((UINT64_C(1) << (bits - 1)) - 1), mn = -mx - 1;
      xl_emit(x, LSI_SMIN_I64, t, t, xl_const(x, (uint64_t)mx, 0), 0, 0, 0);
      xl_emit(x, LSI_SMAX_I64, t, t, xl_const(x, (uint64_t)mn, 0), 0, 0, 0);
      xl_emit(x, LSI_TRUNC, d, t, 0, 0, bits, 0);
    } else if (add) {
      xl_emit(x, LSI_UMIN_I64, d, t, xl_const(x, (UINT64_C(1) << bits) - 1, 0), 0, 0, 0);
    } else {
      uint32_t c = tmp1(x);
      xl_emit(x, LSI_ULT_I64, c, a, b, 0, 0, 0);
      xl_emit(x, LSI_SELECT, d, c, xl_const(x, 0, 0), t, 0, 0);
    }
    return;
  }
  uint32_t s = tmp1(x), c = tmp1(x);
  xl_emit(x, add ? LSI_ADD_I64 : LSI_SUB_I64, s, a, b, 0, 0, 0);
  if (!sgn) {
    xl_emit(x, add ? LSI_ULT_I64 : LSI_ULT_I64, c, add ? s : a, add ? a : b, 0, 0, 0);
    xl_emit(x, LSI_SELECT, d, c, xl_const(x, add ? ~UINT64_C(0) : 0, 0), s, 0, 0);
    return;
  }
  /* signed overflow: add: (a^s)&(b^s) < 0; sub: (a^b)&(a^s) < 0 */
  uint32_t t1 = tmp1(x), t2 = tmp1(x), sat = tmp1(x), neg = tmp1(x);
  xl_emit(x, LSI_XOR_I64, t1, a, s, 0, 0, 0);
  xl_emit(x, LSI_XOR_I64, t2, add ? b : a, add ? s : b, 0, 0, 0);
  xl_emit(x, LSI_AND_I64, t1, t1, t2, 0, 0, 0);
  xl_emit(x, LSI_SLT_I64, c, t1, xl_const(x, 0, 0), 0, 0, 0);
  xl_emit(x, LSI_SLT_I64, neg, a, xl_const(x, 0, 0), 0, 0, 0);
  xl_emit(x, LSI_SELECT, sat, neg, xl_const(x, UINT64_C(1) << 63, 0),
          xl_const(x, (UINT64_C(1) << 63) - 1, 0), 0, 0);
  xl_emit(x, LSI_SELECT, d, c, sat, s, 0, 0);
}

static void emit_fsh(struct xl *x, int left, uint32_t d, uint32_t a, uint32_t b, uint32_t s,
                     unsigned bits) {
  if (bits < 32) { /* a:b has 2 * bits < 64 bits: shift it in 64-bit arithmetic */
    uint32_t t = tmp1(x), sh = tmp1(x), r = tmp1(x);
    xl_emit(x, LSI_SHL_I64, t, a, xl_const(x, bits, 0), 0, 0, 0);
    xl_emit(x, LSI_OR_I64, t, t, b, 0, 0, 0);
    xl_emit(x, LSI_UREM_I64, sh, s, xl_const(x, bits, 0), 0, 0, 0);
    if (left) {
      xl_emit(x, LSI_SHL_I64, r, t, sh, 0, 0, 0);
      xl_emit(x, LSI_LSHR_I64, r, r, xl_const(x, bits, 0), 0, 0, 0);
    } else {
      xl_emit(x, LSI_LSHR_I64, r, t, sh, 0, 0, 0);
    }
    xl_emit(x, LSI_TRUNC, d, r, 0, 0, bits, 0);
    return;
  }
  /* 32 bits in 32-bit arithmetic, wider ones (i48 too) in 64-bit */
  unsigned off = bits > 32 ? I64OFF : 0;
  uint32_t sh = tmp1(x), inv = tmp1(x), hi = tmp1(x), lo = tmp1(x), z = tmp1(x), r = tmp1(x);
  if (bits & (bits - 1))
    xl_emit(x, LSI_UREM_I64, sh, s, xl_const(x, bits, 0), 0, 0, 0);
  else
    xl_emit(x, LSI_AND_I32 + off, sh, s, xl_const(x, bits - 1, 0), 0, 0, 0);
  xl_emit(x, LSI_SUB_I32 + off, inv, xl_const(x, bits, 0), sh, 0, 0, 0);
  if (left) {
    xl_emit(x, LSI_SHL_I32 + off, hi, a, sh, 0, 0, 0);
    xl_emit(x, LSI_LSHR_I32 + off, lo, b, inv, 0, 0, 0);
  } else {
    xl_emit(x, LSI_LSHR_I32 + off, lo, b, sh, 0, 0, 0);
    xl_emit(x, LSI_SHL_I32 + off, hi, a, inv, 0, 0, 0);
  }
  xl_emit(x, LSI_OR_I32 + off, r, hi, lo, 0, 0, 0);
  if (bits > 32 && bits < 64) xl_emit(x, LSI_TRUNC, r, r, 0, 0, bits, 0);
  xl_emit(x, LSI_EQ_I32 + off, z, sh, xl_const(x, 0, 0), 0, 0, 0);
  xl_emit(x, LSI_SELECT, d, z, left ? a : b, r, 0, 0);
}

static void emit_bswap(struct xl *x, uint32_t d, uint32_t a, unsigned bits) {
  unsigned nb = bits / 8;
  uint32_t acc = tmp1(x);
  xl_emit(x, LSI_MOV, acc, xl_const(x, 0, 0), 0, 0, 0, 0);
  for (unsigned k = 0; k < nb; k++) {
    uint32_t t = tmp1(x);
    xl_emit(x, LSI_LSHR_I64, t, a, xl_const(x, 8 * k, 0), 0, 0, 0);
    xl_emit(x, LSI_AND_I64, t, t, xl_const(x, 0xff, 0), 0, 0, 0);
    xl_emit(x, LSI_SHL_I64, t, t, xl_const(x, 8 * (nb - 1 - k), 0), 0, 0, 0);
    xl_emit(x, LSI_OR_I64, acc, acc, t, 0, 0, 0);
  }
  xl_emit(x, LSI_MOV, d, acc, 0, 0, 0, 0);
}

/* Reverses the whole 64-bit register by swapping ever larger blocks, then
 * shifts the reversed N bits back down (the value stays canonical). */
static void emit_bitreverse(struct xl *x, uint32_t d, uint32_t a, unsigned bits) {
  static const uint64_t mask[6] = {0x5555555555555555u, 0x3333333333333333u, 0x0f0f0f0f0f0f0f0fu,
                                   0x00ff00ff00ff00ffu, 0x0000ffff0000ffffu, 0x00000000ffffffffu};
  uint32_t v = tmp1(x);
  xl_emit(x, LSI_MOV, v, a, 0, 0, 0, 0);
  for (unsigned k = 0; k < 6; k++) {
    uint32_t hi = tmp1(x), lo = tmp1(x), m = xl_const(x, mask[k], 0), s = xl_const(x, 1u << k, 0);
    xl_emit(x, LSI_LSHR_I64, hi, v, s, 0, 0, 0);
    xl_emit(x, LSI_AND_I64, hi, hi, m, 0, 0, 0);
    xl_emit(x, LSI_AND_I64, lo, v, m, 0, 0, 0);
    xl_emit(x, LSI_SHL_I64, lo, lo, s, 0, 0, 0);
    xl_emit(x, LSI_OR_I64, v, hi, lo, 0, 0, 0);
  }
  if (bits < 64)
    xl_emit(x, LSI_LSHR_I64, d, v, xl_const(x, 64 - bits, 0), 0, 0, 0);
  else
    xl_emit(x, LSI_MOV, d, v, 0, 0, 0, 0);
}

/* llvm.{s,u}{add,sub,mul}.with.overflow: result r and overflow bit o of one
 * element. Narrow widths are computed exactly in 64 bits and checked against
 * the truncated (sign-extended for signed) result. */
static void emit_ovf(struct xl *x, const char *op, uint32_t r, uint32_t o, uint32_t a, uint32_t b,
                     unsigned bits) {
  int sgn = op[0] == 's';
  char kind = op[1]; /* a(dd), s(ub), m(ul) */
  uint32_t zero = xl_const(x, 0, 0);
  if (bits < 64) {
    if (kind == 'm' && bits > 32)
      xl_fail(x, "multiplication with overflow on i%u is not supported", bits);
    if (sgn) {
      a = xl_sext(x, a, bits, 64);
      b = xl_sext(x, b, bits, 64);
    }
    uint32_t t = tmp1(x), back = tmp1(x);
    xl_emit(x,
            kind == 'a'   ? LSI_ADD_I64
            : kind == 's' ? LSI_SUB_I64
                          : LSI_MUL_I64,
            t, a, b, 0, 0, 0);
    xl_emit(x, LSI_TRUNC, r, t, 0, 0, bits, 0);
    if (sgn)
      back = xl_sext(x, r, bits, 64);
    else
      xl_emit(x, LSI_MOV, back, r, 0, 0, 0, 0);
    xl_emit(x, LSI_NE_I64, o, t, back, 0, 0, 0);
    return;
  }
  if (kind == 'a' || kind == 's') {
    uint32_t s = tmp1(x);
    xl_emit(x, kind == 'a' ? LSI_ADD_I64 : LSI_SUB_I64, s, a, b, 0, 0, 0);
    if (!sgn) {
      xl_emit(x, LSI_ULT_I64, o, kind == 'a' ? s : a, kind == 'a' ? a : b, 0, 0, 0);
    } else {
      /* add: (a^s)&(b^s) < 0; sub: (a^b)&(a^s) < 0 */
      uint32_t t1 = tmp1(x), t2 = tmp1(x);
      xl_emit(x, LSI_XOR_I64, t1, a, s, 0, 0, 0);
      xl_emit(x, LSI_XOR_I64, t2, kind == 'a' ? b : a, kind == 'a' ? s : b, 0, 0, 0);
      xl_emit(x, LSI_AND_I64, t1, t1, t2, 0, 0, 0);
      xl_emit(x, LSI_SLT_I64, o, t1, zero, 0, 0, 0);
    }
    xl_emit(x, LSI_MOV, r, s, 0, 0, 0, 0);
    return;
  }
  /* 64-bit multiply: overflow when a != 0 and p / a != b (the division is
   * guarded against a == 0; signed MIN * -1 is the one case it misses). */
  uint32_t p = tmp1(x), nz = tmp1(x), den = tmp1(x), q = tmp1(x), ne = tmp1(x);
  xl_emit(x, LSI_MUL_I64, p, a, b, 0, 0, 0);
  xl_emit(x, LSI_NE_I64, nz, a, zero, 0, 0, 0);
  xl_emit(x, LSI_SELECT, den, nz, a, xl_const(x, 1, 0), 0, 0);
  xl_emit(x, sgn ? LSI_SDIV_I64 : LSI_UDIV_I64, q, p, den, 0, 0, 0);
  xl_emit(x, LSI_NE_I64, ne, q, b, 0, 0, 0);
  if (sgn) {
    uint32_t m1 = tmp1(x), mn = tmp1(x);
    xl_emit(x, LSI_EQ_I64, m1, a, xl_const(x, ~UINT64_C(0), 0), 0, 0, 0);
    xl_emit(x, LSI_EQ_I64, mn, b, xl_const(x, UINT64_C(1) << 63, 0), 0, 0, 0);
    xl_emit(x, LSI_AND_I64, m1, m1, mn, 0, 0, 0);
    xl_emit(x, LSI_OR_I64, ne, ne, m1, 0, 0, 0);
  }
  xl_emit(x, LSI_AND_I64, o, ne, nz, 0, 0, 0);
  xl_emit(x, LSI_MOV, r, p, 0, 0, 0, 0);
}

static int starts(const char *s, const char *p) {
  return !strncmp(s, p, strlen(p));
}

/* llvm.vector.reduce.<op>: a left fold over the elements. */
static void reduce(struct xl *x, LLVMValueRef I, const char *op) {
  unsigned na = LLVMGetNumArgOperands(I);
  LLVMValueRef v = LLVMGetArgOperand(I, na - 1);
  unsigned n = xl_leaves(x, LLVMTypeOf(v), NULL);
  LLVMTypeRef et = LLVMTypeOf(I);
  uint32_t d = xl_def(x, I);
  int isfp = LLVMGetTypeKind(et) == LLVMFloatTypeKind || LLVMGetTypeKind(et) == LLVMDoubleTypeKind;
  int dbl = LLVMGetTypeKind(et) == LLVMDoubleTypeKind;
  unsigned bits = isfp ? (dbl ? 64 : 32) : xl_int_bits(x, et), W = W_of(bits);
  unsigned ioff = W == 64 ? I64OFF : 0, o = 0;
  int sgn = 0, trunc = 0;
  if (!strncmp(op, "add", 3))
    o = LSI_ADD_I32 + ioff, trunc = 1;
  else if (!strncmp(op, "mul", 3))
    o = LSI_MUL_I32 + ioff, trunc = 1;
  else if (!strncmp(op, "and", 3))
    o = LSI_AND_I32 + ioff;
  else if (!strncmp(op, "or", 2))
    o = LSI_OR_I32 + ioff;
  else if (!strncmp(op, "xor", 3))
    o = LSI_XOR_I32 + ioff;
  else if (!strncmp(op, "smin", 4))
    o = LSI_SMIN_I32 + ioff, sgn = 1, trunc = 1;
  else if (!strncmp(op, "smax", 4))
    o = LSI_SMAX_I32 + ioff, sgn = 1, trunc = 1;
  else if (!strncmp(op, "umin", 4))
    o = LSI_UMIN_I32 + ioff;
  else if (!strncmp(op, "umax", 4))
    o = LSI_UMAX_I32 + ioff;
  else if (!strncmp(op, "fadd", 4))
    o = dbl ? LSI_FADD_F64 : LSI_FADD_F32;
  else if (!strncmp(op, "fmul", 4))
    o = dbl ? LSI_FMUL_F64 : LSI_FMUL_F32;
  else
    xl_fail(x, "unsupported vector reduction '%s'", op);
  uint32_t acc = tmp1(x);
  unsigned first = 0;
  if (na == 2) {
    xl_emit(x, LSI_MOV, acc, xl_val(x, LLVMGetArgOperand(I, 0), 0), 0, 0, 0, 0);
  } else {
    xl_emit(x, LSI_MOV, acc, xl_val(x, v, 0), 0, 0, 0, 0);
    first = 1;
  }
  if (sgn && bits < W) acc = xl_sext(x, acc, bits, W);
  for (unsigned e = first; e < n; e++) {
    uint32_t b = xl_val(x, v, e);
    if (sgn && bits < W) b = xl_sext(x, b, bits, W);
    xl_emit(x, o, acc, acc, b, 0, 0, 0);
  }
  if (!isfp && trunc && bits < W)
    xl_emit(x, LSI_TRUNC, d, acc, 0, 0, bits, 0);
  else
    xl_emit(x, LSI_MOV, d, acc, 0, 0, 0, 0);
}

static void intrinsic(struct xl *x, LLVMValueRef I, const char *n) {
  static const char *const skip[] = {"llvm.dbg.",           "llvm.lifetime.",
                                     "llvm.assume",         "llvm.experimental.noalias.scope.decl",
                                     "llvm.var.annotation", "llvm.sideeffect",
                                     "llvm.donothing",      "llvm.invariant.",
                                     "llvm.pseudoprobe",    NULL};
  for (unsigned i = 0; skip[i]; i++)
    if (starts(n, skip[i])) return;
  unsigned na = LLVMGetNumArgOperands(I);
  LLVMValueRef a0 = na > 0 ? LLVMGetArgOperand(I, 0) : NULL;
  LLVMValueRef a1 = na > 1 ? LLVMGetArgOperand(I, 1) : NULL;
  LLVMValueRef a2 = na > 2 ? LLVMGetArgOperand(I, 2) : NULL;
  if (starts(n, "llvm.memcpy.") || starts(n, "llvm.memmove.") || starts(n, "llvm.memcpy.inline.")) {
    /* MEMCPY is overlap-safe (it copies as memmove does), so memmove maps
     * onto it too. */
    xl_emit(x, LSI_MEMCPY, xl_val(x, a0, 0), xl_val(x, a1, 0), xl_val(x, a2, 0), 0, 0, 0);
    return;
  }
  if (starts(n, "llvm.memset.")) {
    xl_emit(x, LSI_MEMSET, xl_val(x, a0, 0), xl_val(x, a1, 0), xl_val(x, a2, 0), 0, 0, 0);
    return;
  }
  if (starts(n, "llvm.expect.") || starts(n, "llvm.annotation.") ||
      starts(n, "llvm.canonicalize.") || starts(n, "llvm.arithmetic.fence.") ||
      starts(n, "llvm.ssa.copy.")) {
    unsigned nl = xl_leaves(x, LLVMTypeOf(I), NULL);
    uint32_t d = xl_def(x, I);
    for (unsigned i = 0; i < nl; i++)
      xl_emit(x, LSI_MOV, d + i, xl_val(x, a0, i), 0, 0, 0, 0);
    return;
  }
  if (starts(n, "llvm.is.constant.")) {
    xl_emit(x, LSI_MOV, xl_def(x, I), xl_const(x, 0, 0), 0, 0, 0, 0);
    return;
  }
  if (starts(n, "llvm.vector.reduce.")) {
    reduce(x, I, n + 19);
    return;
  }
  LLVMTypeRef t = LLVMTypeOf(I);
  if (strstr(n, ".with.overflow.") && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
    /* {iN, i1} or {<k x iN>, <k x i1>}: the values' leaves, then the bits' */
    unsigned k = xl_leaves(x, t, NULL) / 2;
    unsigned bits = xl_int_bits(x, LLVMStructGetTypeAtIndex(t, 0));
    const char *op = n + 5;
    if (!(starts(op, "sadd") || starts(op, "uadd") || starts(op, "ssub") || starts(op, "usub") ||
          starts(op, "smul") || starts(op, "umul")))
      xl_fail(x, "unsupported intrinsic '%s'", n);
    uint32_t d = xl_def(x, I);
    for (unsigned e = 0; e < k; e++)
      emit_ovf(x, op, d + e, d + k + e, xl_val(x, a0, e), xl_val(x, a1, e), bits);
    return;
  }
  unsigned nl = LLVMGetTypeKind(t) == LLVMVoidTypeKind ? 0 : xl_leaves(x, t, NULL);
  int isint = nl && (LLVMGetTypeKind(t) == LLVMIntegerTypeKind ||
                     (LLVMGetTypeKind(t) == LLVMVectorTypeKind &&
                      LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMIntegerTypeKind));
  if (isint) {
    unsigned bits = xl_int_bits(x, t);
    uint32_t d = xl_def(x, I);
    if (starts(n, "llvm.ctpop.")) {
      call_int_elementwise(x, I, "popcount");
      return;
    }
    if (starts(n, "llvm.ctlz.")) {
      call_int_elementwise(x, I, "clz");
      return;
    }
    if (starts(n, "llvm.cttz.")) {
      call_int_elementwise(x, I, "ctz");
      return;
    }
    for (unsigned e = 0; e < nl; e++) {
      uint32_t a = xl_val(x, a0, e), b = a1 ? xl_val(x, a1, e) : 0;
      if (starts(n, "llvm.smin."))
        emit_minmax(x, d + e, a, b, bits, LSI_SMIN_I32, 1);
      else if (starts(n, "llvm.smax."))
        emit_minmax(x, d + e, a, b, bits, LSI_SMAX_I32, 1);
      else if (starts(n, "llvm.umin."))
        emit_minmax(x, d + e, a, b, bits, LSI_UMIN_I32, 0);
      else if (starts(n, "llvm.umax."))
        emit_minmax(x, d + e, a, b, bits, LSI_UMAX_I32, 0);
      else if (starts(n, "llvm.abs.")) {
        unsigned W = W_of(bits), off = W == 64 ? I64OFF : 0;
        uint32_t sa = xl_sext(x, a, bits, W), neg = tmp1(x), c = tmp1(x);
        xl_emit(x, LSI_SUB_I32 + off, neg, xl_const(x, 0, 0), sa, 0, 0, 0);
        xl_emit(x, LSI_SLT_I32 + off, c, sa, xl_const(x, 0, 0), 0, 0, 0);
        xl_emit(x, LSI_SELECT, d + e, c, neg, sa, 0, 0);
        if (bits < W) xl_emit(x, LSI_TRUNC, d + e, d + e, 0, 0, bits, 0);
      } else if (starts(n, "llvm.fshl.") || starts(n, "llvm.fshr.")) {
        emit_fsh(x, starts(n, "llvm.fshl."), d + e, a, b, xl_val(x, a2, e), bits);
      } else if (strstr(n, ".sat.") && (starts(n, "llvm.uadd") || starts(n, "llvm.usub") ||
                                        starts(n, "llvm.sadd") || starts(n, "llvm.ssub"))) {
        emit_sat(x, n + 5, d + e, a, b, bits);
      } else if (starts(n, "llvm.bswap.")) {
        emit_bswap(x, d + e, a, bits);
      } else if (starts(n, "llvm.bitreverse.")) {
        emit_bitreverse(x, d + e, a, bits);
      } else {
        xl_fail(x, "unsupported intrinsic '%s'", n);
      }
    }
    return;
  }
  /* floating point */
  if (starts(n, "llvm.fmuladd.") || starts(n, "llvm.fma.")) {
    int dbl = strstr(n, "f64") != NULL;
    uint32_t d = xl_def(x, I);
    for (unsigned e = 0; e < nl; e++) {
      uint32_t a = xl_val(x, a0, e), b = xl_val(x, a1, e), c = xl_val(x, a2, e);
      if (!dbl) {
        a = xl_ftz_in(x, a);
        b = xl_ftz_in(x, b);
        c = xl_ftz_in(x, c);
      }
      xl_emit(x, dbl ? LSI_FMA_F64 : LSI_FMA_F32, d + e, a, b, c, 0, 0);
      if (!dbl) xl_ftz_out(x, d + e);
    }
    return;
  }
  if (starts(n, "llvm.fabs.") || starts(n, "llvm.copysign.")) {
    int dbl = strstr(n, "f64") != NULL;
    uint64_t sign = dbl ? UINT64_C(1) << 63 : UINT64_C(1) << 31;
    uint32_t d = xl_def(x, I);
    unsigned and_op = dbl ? LSI_AND_I64 : LSI_AND_I32, or_op = dbl ? LSI_OR_I64 : LSI_OR_I32;
    for (unsigned e = 0; e < nl; e++) {
      if (n[5] == 'f') {
        xl_emit(x, and_op, d + e, xl_val(x, a0, e), xl_const(x, sign - 1, 0), 0, 0, 0);
      } else {
        uint32_t m = tmp1(x), s = tmp1(x);
        xl_emit(x, and_op, m, xl_val(x, a0, e), xl_const(x, sign - 1, 0), 0, 0, 0);
        xl_emit(x, and_op, s, xl_val(x, a1, e), xl_const(x, sign, 0), 0, 0, 0);
        xl_emit(x, or_op, d + e, m, s, 0, 0, 0);
      }
    }
    return;
  }
  static const struct {
    const char *ll, *cl;
    unsigned nargs;
  } fmap[] = {
      {"llvm.sqrt.", "sqrt", 1},      {"llvm.minnum.", "fmin", 2},  {"llvm.maxnum.", "fmax", 2},
      {"llvm.minimum.", "fmin", 2},   {"llvm.maximum.", "fmax", 2}, {"llvm.floor.", "floor", 1},
      {"llvm.ceil.", "ceil", 1},      {"llvm.trunc.", "trunc", 1},  {"llvm.rint.", "rint", 1},
      {"llvm.nearbyint.", "rint", 1}, {"llvm.round.", "round", 1},  {"llvm.roundeven.", "rint", 1},
      {"llvm.exp.", "exp", 1},        {"llvm.exp2.", "exp2", 1},    {"llvm.log.", "log", 1},
      {"llvm.log2.", "log2", 1},      {"llvm.log10.", "log10", 1},  {"llvm.pow.", "pow", 2},
      {"llvm.sin.", "sin", 1},        {"llvm.cos.", "cos", 1},      {NULL, NULL, 0}};
  for (unsigned i = 0; fmap[i].ll; i++)
    if (starts(n, fmap[i].ll)) {
      call_fp_elementwise(x, I, fmap[i].cl, fmap[i].nargs, NULL);
      return;
    }
  if (starts(n, "llvm.ldexp.") || starts(n, "llvm.powi.")) {
    call_fp_elementwise(x, I, n[5] == 'l' ? "ldexp" : "pown", 1, "i");
    return;
  }
  xl_fail(x, "unsupported intrinsic '%s'", n);
}

/* ---- work-item functions, barriers, atomics ---- */

static const struct {
  const char *name;
  unsigned sreg;
  uint64_t dflt;
} wi_dim[] = {{"_Z13get_global_idj", LSI_SREG_GLOBAL_ID_X, 0},
              {"_Z12get_local_idj", LSI_SREG_LOCAL_ID_X, 0},
              {"_Z12get_group_idj", LSI_SREG_GROUP_ID_X, 0},
              {"_Z15get_global_sizej", LSI_SREG_GLOBAL_SIZE_X, 1},
              {"_Z14get_local_sizej", LSI_SREG_LOCAL_SIZE_X, 1},
              {"_Z23get_enqueued_local_sizej", LSI_SREG_ENQ_LOCAL_SIZE_X, 1},
              {"_Z14get_num_groupsj", LSI_SREG_NUM_GROUPS_X, 1},
              {"_Z17get_global_offsetj", LSI_SREG_GLOBAL_OFFSET_X, 0},
              {NULL, 0, 0}};

static const struct {
  const char *name;
  unsigned sreg;
} wi0[] = {{"_Z12get_work_dimv", LSI_SREG_WORK_DIM},
           {"_Z20get_global_linear_idv", LSI_SREG_GLOBAL_LINEAR_ID},
           {"_Z19get_local_linear_idv", LSI_SREG_LOCAL_LINEAR_ID},
           {"_Z18get_sub_group_sizev", LSI_SREG_SUB_GROUP_SIZE},
           {"_Z22get_max_sub_group_sizev", LSI_SREG_MAX_SUB_GROUP_SIZE},
           {"_Z18get_num_sub_groupsv", LSI_SREG_NUM_SUB_GROUPS},
           {"_Z27get_enqueued_num_sub_groupsv", LSI_SREG_NUM_SUB_GROUPS},
           {"_Z16get_sub_group_idv", LSI_SREG_SUB_GROUP_ID},
           {"_Z22get_sub_group_local_idv", LSI_SREG_SUB_GROUP_LOCAL_ID},
           {NULL, 0}};

static int workitem(struct xl *x, LLVMValueRef I, const char *n) {
  for (unsigned i = 0; wi0[i].name; i++)
    if (!strcmp(n, wi0[i].name)) {
      uint32_t d = xl_def(x, I);
      xl_emit(x, LSI_SREG, d, 0, 0, 0, wi0[i].sreg, 0);
      unsigned bits = xl_int_bits(x, LLVMTypeOf(I));
      if (bits < 64) xl_emit(x, LSI_TRUNC, d, d, 0, 0, bits, 0);
      return 1;
    }
  for (unsigned i = 0; wi_dim[i].name; i++) {
    if (strcmp(n, wi_dim[i].name)) continue;
    LLVMValueRef dim = LLVMGetArgOperand(I, 0);
    uint32_t d = xl_def(x, I);
    if (LLVMIsAConstantInt(dim)) {
      uint64_t k = LLVMConstIntGetZExtValue(dim);
      if (k < 3)
        xl_emit(x, LSI_SREG, d, 0, 0, 0, wi_dim[i].sreg + (unsigned)k, 0);
      else
        xl_emit(x, LSI_MOV, d, xl_const(x, wi_dim[i].dflt, 0), 0, 0, 0, 0);
      return 1;
    }
    uint32_t dr = xl_val(x, dim, 0), c = tmp1(x), s = tmp1(x);
    xl_emit(x, LSI_MOV, d, xl_const(x, wi_dim[i].dflt, 0), 0, 0, 0, 0);
    for (unsigned k = 0; k < 3; k++) {
      xl_emit(x, LSI_EQ_I32, c, dr, xl_const(x, k, 0), 0, 0, 0);
      xl_emit(x, LSI_SREG, s, 0, 0, 0, wi_dim[i].sreg + k, 0);
      xl_emit(x, LSI_SELECT, d, c, s, d, 0, 0);
    }
    return 1;
  }
  return 0;
}

static int64_t flags_arg(LLVMValueRef I) {
  LLVMValueRef f = LLVMGetArgOperand(I, 0);
  return LLVMIsAConstantInt(f) ? (int64_t)LLVMConstIntGetZExtValue(f) : 3;
}

static int barrier(struct xl *x, LLVMValueRef I, const char *n) {
  if (!strcmp(n, "_Z7barrierj") || starts(n, "_Z18work_group_barrierj")) {
    xl_emit(x, LSI_BAR, 0, 0, 0, 0, flags_arg(I), 0);
    return 1;
  }
  if (starts(n, "_Z17sub_group_barrierj")) {
    xl_emit(x, LSI_SGBAR, 0, 0, 0, 0, flags_arg(I), 0);
    return 1;
  }
  if (!strcmp(n, "_Z9mem_fencej") || !strcmp(n, "_Z14read_mem_fencej") ||
      !strcmp(n, "_Z15write_mem_fencej") || starts(n, "_Z22atomic_work_item_fencej")) {
    xl_emit(x, LSI_FENCE, 0, 0, 0, 0, flags_arg(I), 0);
    return 1;
  }
  return 0;
}

/* The pointee's scalar type code of a mangled pointer parameter. */
static char pointee_code(const char *p) {
  if (*p != 'P') return 0;
  p++;
  for (;;) {
    if (*p == 'U') {
      char *e;
      unsigned len = (unsigned)strtoul(p + 1, &e, 10);
      p = e + len;
    } else if (*p == 'V' || *p == 'K' || *p == 'r') {
      p++;
    } else {
      break;
    }
  }
  return *p;
}

static int atomic_call(struct xl *x, LLVMValueRef I, const char *mangled) {
  char name[128];
  struct cc_mparam ps[8];
  int np = cc_demangle(mangled, name, sizeof(name), ps, 8);
  if (np < 1) return 0;
  const char *op = NULL;
  int is_new = 0;
  if (starts(name, "atomic_") || starts(name, "atom_")) {
    op = strchr(name, '_') + 1;
    is_new = starts(op, "fetch_") || starts(op, "load") || starts(op, "store") ||
             starts(op, "exchange") || starts(op, "compare_exchange") || starts(op, "init") ||
             starts(op, "flag_");
  } else {
    return 0;
  }
  char base[64];
  snprintf(base, sizeof(base), "%s", starts(op, "fetch_") ? op + 6 : op);
  char *ex = strstr(base, "_explicit");
  if (ex) *ex = 0;
  char code = pointee_code(ps[0].full);
  LLVMValueRef ptr = LLVMGetArgOperand(I, 0);
  unsigned space = xl_space(LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)));
  uint32_t a = xl_val(x, ptr, 0);
  if (!strcmp(base, "flag_test_and_set") || !strcmp(base, "flag_clear")) {
    if (base[5] == 't') {
      uint32_t old = tmp1(x);
      xl_emit(x, LSI_ATOM_XCHG_I32, old, a, xl_const(x, 1, 0), 0, 0, space);
      xl_emit(x, LSI_NE_I32, xl_def(x, I), old, xl_const(x, 0, 0), 0, 0, 0);
    } else {
      xl_emit(x, LSI_ATOM_ST_I32, 0, a, xl_const(x, 0, 0), 0, 0, space);
    }
    return 1;
  }
  unsigned sz = cc_builtin_size(code);
  int isfp = code == 'f' || code == 'd', sgn = code == 'i' || code == 'l';
  if (sz != 4 && sz != 8) xl_fail(x, "atomic '%s' on this type is not supported", mangled);
  unsigned off = sz == 8 ? (unsigned)(LSI_ATOM_ADD_I64 - LSI_ATOM_ADD_I32) : 0;
  uint32_t d = LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMVoidTypeKind ? tmp1(x) : xl_def(x, I);
  uint32_t b = LLVMGetNumArgOperands(I) > 1 ? xl_val(x, LLVMGetArgOperand(I, 1), 0) : 0;
  unsigned o;
  if (!strcmp(base, "add"))
    o = isfp ? (sz == 8 ? LSI_ATOM_FADD_F64 : LSI_ATOM_FADD_F32) : LSI_ATOM_ADD_I32 + off;
  else if (!strcmp(base, "sub"))
    o = LSI_ATOM_SUB_I32 + off;
  else if (!strcmp(base, "xchg") || !strcmp(base, "exchange"))
    o = LSI_ATOM_XCHG_I32 + off;
  else if (!strcmp(base, "and"))
    o = LSI_ATOM_AND_I32 + off;
  else if (!strcmp(base, "or"))
    o = LSI_ATOM_OR_I32 + off;
  else if (!strcmp(base, "xor"))
    o = LSI_ATOM_XOR_I32 + off;
  else if (!strcmp(base, "min"))
    o = (sgn ? LSI_ATOM_SMIN_I32 : LSI_ATOM_UMIN_I32) + off;
  else if (!strcmp(base, "max"))
    o = (sgn ? LSI_ATOM_SMAX_I32 : LSI_ATOM_UMAX_I32) + off;
  else if (!strcmp(base, "inc"))
    o = LSI_ATOM_INC_I32 + off;
  else if (!strcmp(base, "dec"))
    o = LSI_ATOM_DEC_I32 + off;
  else if (!strcmp(base, "load"))
    o = LSI_ATOM_LD_I32 + off;
  else if (!strcmp(base, "store") || !strcmp(base, "init"))
    o = LSI_ATOM_ST_I32 + off;
  else if (!strcmp(base, "cmpxchg")) {
    uint32_t nv = xl_val(x, LLVMGetArgOperand(I, 2), 0);
    xl_emit(x, LSI_ATOM_CMPXCHG_I32 + off, d, a, nv, b, 0, space);
    return 1;
  } else if (starts(base, "compare_exchange_")) {
    /* (obj, expected*, desired, ...): returns success, writes old to *expected */
    LLVMValueRef ep = LLVMGetArgOperand(I, 1);
    unsigned espace = xl_space(LLVMGetPointerAddressSpace(LLVMTypeOf(ep)));
    uint32_t nv = xl_val(x, LLVMGetArgOperand(I, 2), 0), exp = tmp1(x), old = tmp1(x);
    unsigned ld = sz == 8 ? LSI_LD64 : LSI_LD32, st = sz == 8 ? LSI_ST64 : LSI_ST32;
    xl_emit(x, ld, exp, b, 0, 0, 0, espace);
    xl_emit(x, LSI_ATOM_CMPXCHG_I32 + off, old, a, nv, exp, 0, space);
    xl_emit(x, st, 0, b, old, 0, 0, espace);
    xl_emit(x, sz == 8 ? LSI_EQ_I64 : LSI_EQ_I32, d, old, exp, 0, 0, 0);
    return 1;
  } else {
    (void)is_new;
    xl_fail(x, "atomic '%s' is not supported", mangled);
  }
  if (isfp && o != LSI_ATOM_XCHG_I32 + off && o != LSI_ATOM_FADD_F32 && o != LSI_ATOM_FADD_F64 &&
      o != LSI_ATOM_LD_I32 + off && o != LSI_ATOM_ST_I32 + off)
    xl_fail(x, "atomic '%s' on floating point is not supported", mangled);
  if (!strcmp(base, "init"))
    xl_emit(x, sz == 8 ? LSI_ST64 : LSI_ST32, 0, a, b, 0, 0, space);
  else
    xl_emit(x, o, d, a, b, 0, 0, space);
  return 1;
}

/* convert_<type>[n][_sat][_rte|_rtz|_rtp|_rtn]: conversions are casts, done
 * inline (the device table has no conversion builtins). */
static int convert_call(struct xl *x, LLVMValueRef I, const char *mangled) {
  char name[64];
  struct cc_mparam ps[2];
  if (cc_demangle(mangled, name, sizeof(name), ps, 2) != 1 || strncmp(name, "convert_", 8))
    return 0;
  static const struct {
    const char *n;
    unsigned bits;
    int sgn, fp;
  } types[] = {{"uchar", 8, 0, 0},  {"char", 8, 1, 0},    {"ushort", 16, 0, 0}, {"short", 16, 1, 0},
               {"uint", 32, 0, 0},  {"int", 32, 1, 0},    {"ulong", 64, 0, 0},  {"long", 64, 1, 0},
               {"float", 32, 1, 1}, {"double", 64, 1, 1}, {NULL, 0, 0, 0}};
  const char *t = name + 8;
  int di = -1;
  for (int k = 0; types[k].n; k++)
    if (!strncmp(t, types[k].n, strlen(types[k].n)) &&
        (di < 0 || strlen(types[k].n) > strlen(types[di].n)))
      di = k;
  if (di < 0) return 0;
  const char *rest = t + strlen(types[di].n);
  while (*rest >= '0' && *rest <= '9')
    rest++;
  int sat = strstr(rest, "_sat") != NULL;
  const char *rnd = strstr(rest, "_rt");
  char sc = ps[0].scalar[0];
  int sfp = sc == 'f' || sc == 'd',
      ssgn = sc == 'c' || sc == 'a' || sc == 's' || sc == 'i' || sc == 'l';
  unsigned sbits = cc_builtin_size(sc) * 8;
  if (!sbits) xl_fail(x, "unsupported conversion '%s'", mangled);
  unsigned dbits = types[di].bits;
  int dfp = types[di].fp, dsgn = types[di].sgn;
  LLVMValueRef a = LLVMGetArgOperand(I, 0);
  unsigned n = xl_leaves(x, LLVMTypeOf(I), NULL);
  uint32_t d = xl_def(x, I);
  if (dfp && rnd && rnd[3] != 'e') {
    /* a directed rounding to float or double: the device's conversion
     * builtin (the inline casts round to nearest even), once per element */
    char sn[48], bn[64];
    snprintf(sn, sizeof(sn), "convert_%s%s", types[di].n, rest);
    snprintf(bn, sizeof(bn), "_Z%zu%s%c", strlen(sn), sn, sc);
    int id = xl_builtin(x, bn);
    if (id < 0) xl_fail(x, "builtin '%s' is not available", bn);
    for (unsigned e = 0; e < n; e++) {
      uint32_t v = xl_val(x, a, e);
      xl_emit(x, LSI_MOV, d + e, xl_callb(x, id, bn, &v, 1, 1), 0, 0, 0, 0);
    }
    return 1;
  }
  for (unsigned e = 0; e < n; e++) {
    uint32_t v = xl_val(x, a, e), r = tmp1(x);
    if (sfp && dfp) {
      xl_emit(x,
              sbits == dbits  ? LSI_MOV
              : sbits < dbits ? LSI_FPEXT
                              : LSI_FPTRUNC,
              r, v, 0, 0, 0, 0);
    } else if (!sfp && dfp) {
      unsigned o = ssgn ? (sbits <= 32 ? LSI_SI32TOFP_F32 : LSI_SI64TOFP_F32)
                        : (sbits <= 32 ? LSI_UI32TOFP_F32 : LSI_UI64TOFP_F32);
      if (ssgn) v = xl_sext(x, v, sbits, sbits <= 32 ? 32 : 64);
      xl_emit(x, o + (dbits == 64 ? F64OFF_X : 0), r, v, 0, 0, 0, 0);
    } else if (sfp) {
      unsigned off = sbits == 64 ? F64OFF_X : 0;
      if (rnd && rnd[3] != 'z') {
        char bn[32];
        snprintf(bn, sizeof(bn), "_Z%d%s%c",
                 rnd[3] == 'e'   ? 4
                 : rnd[3] == 'p' ? 4
                                 : 5,
                 rnd[3] == 'e'   ? "rint"
                 : rnd[3] == 'p' ? "ceil"
                                 : "floor",
                 sbits == 64 ? 'd' : 'f');
        int id = xl_builtin(x, bn);
        if (id < 0) xl_fail(x, "builtin '%s' is not available", bn);
        v = xl_callb(x, id, bn, &v, 1, 1);
      }
      /* FPTO*32/64 saturate (NaN gives 0): the 32- and 64-bit results need
       * no clamp, and a clamp to float bounds would be wrong for them
       * (UINT_MAX rounds up to 2^32 as a float). Narrower types clamp to
       * their bounds, which every float holds exactly. */
      if (sat && dbits < 32) {
        double lo = dsgn ? -ldexp(1.0, (int)dbits - 1) : 0.0;
        double hi = dsgn ? ldexp(1.0, (int)dbits - 1) - 1.0 : ldexp(1.0, (int)dbits) - 1.0;
        uint64_t lob, hib;
        if (sbits == 64) {
          memcpy(&lob, &lo, 8);
          memcpy(&hib, &hi, 8);
        } else {
          float lf = (float)lo, hf = (float)hi;
          uint32_t l32, h32;
          memcpy(&l32, &lf, 4);
          memcpy(&h32, &hf, 4);
          lob = l32;
          hib = h32;
        }
        uint32_t c = tmp1(x), cl = tmp1(x);
        xl_emit(x, LSI_FOLT_F32 + off, c, v, xl_const(x, lob, 0), 0, 0, 0);
        xl_emit(x, LSI_SELECT, cl, c, xl_const(x, lob, 0), v, 0, 0);
        xl_emit(x, LSI_FOGT_F32 + off, c, cl, xl_const(x, hib, 0), 0, 0, 0);
        xl_emit(x, LSI_SELECT, cl, c, xl_const(x, hib, 0), cl, 0, 0);
        xl_emit(x, LSI_FUNO_F32 + off, c, v, v, 0, 0, 0);
        xl_emit(x, LSI_SELECT, cl, c, xl_const(x, 0, 0), cl, 0, 0);
        v = cl;
      }
      unsigned o = dsgn ? (dbits <= 32 ? LSI_FPTOSI32_F32 : LSI_FPTOSI64_F32)
                        : (dbits <= 32 ? LSI_FPTOUI32_F32 : LSI_FPTOUI64_F32);
      xl_emit(x, o + off, r, v, 0, 0, 0, 0);
      if (dbits < 32) xl_emit(x, LSI_TRUNC, r, r, 0, 0, dbits, 0);
    } else {
      /* integer to integer */
      uint32_t w = ssgn ? xl_sext(x, v, sbits, 64) : v;
      if (sat) {
        uint64_t umax = dbits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << dbits) - 1;
        uint64_t smax = umax >> 1, smin = ~smax;
        uint32_t c = tmp1(x);
        xl_emit(x, LSI_MOV, c, w, 0, 0, 0, 0);
        if (ssgn && dsgn) {
          xl_emit(x, LSI_SMIN_I64, c, c, xl_const(x, smax, 0), 0, 0, 0);
          xl_emit(x, LSI_SMAX_I64, c, c, xl_const(x, smin, 0), 0, 0, 0);
        } else if (ssgn) {
          xl_emit(x, LSI_SMAX_I64, c, c, xl_const(x, 0, 0), 0, 0, 0);
          if (dbits < 64) xl_emit(x, LSI_SMIN_I64, c, c, xl_const(x, umax, 0), 0, 0, 0);
        } else if (dsgn) {
          xl_emit(x, LSI_UMIN_I64, c, c, xl_const(x, smax, 0), 0, 0, 0);
        } else if (dbits < 64) {
          xl_emit(x, LSI_UMIN_I64, c, c, xl_const(x, umax, 0), 0, 0, 0);
        }
        w = c;
      }
      if (dbits < 64)
        xl_emit(x, LSI_TRUNC, r, w, 0, 0, dbits, 0);
      else
        xl_emit(x, LSI_MOV, r, w, 0, 0, 0, 0);
    }
    xl_emit(x, LSI_MOV, d + e, r, 0, 0, 0, 0);
  }
  return 1;
}

/* any/all and select have vector semantics the scalar forms lack. */
static int vector_semantics(struct xl *x, LLVMValueRef I, const char *mangled) {
  char name[64];
  struct cc_mparam ps[4];
  int np = cc_demangle(mangled, name, sizeof(name), ps, 4);
  if (np < 1) return 0;
  if ((!strcmp(name, "any") || !strcmp(name, "all")) && np == 1) {
    LLVMValueRef v = LLVMGetArgOperand(I, 0);
    unsigned bits = xl_int_bits(x, LLVMTypeOf(v)), n = xl_leaves(x, LLVMTypeOf(v), NULL);
    uint32_t d = xl_def(x, I), t = tmp1(x);
    int any = name[1] == 'n';
    xl_emit(x, LSI_MOV, d, xl_const(x, any ? 0 : 1, 0), 0, 0, 0, 0);
    for (unsigned e = 0; e < n; e++) {
      xl_emit(x, LSI_LSHR_I64, t, xl_val(x, v, e), xl_const(x, bits - 1, 0), 0, 0, 0);
      xl_emit(x, any ? LSI_OR_I32 : LSI_AND_I32, d, d, t, 0, 0, 0);
    }
    return 1;
  }
  if ((!strcmp(name, "shuffle") && np == 2) || (!strcmp(name, "shuffle2") && np == 3)) {
    LLVMValueRef a = LLVMGetArgOperand(I, 0), b = np == 3 ? LLVMGetArgOperand(I, 1) : NULL;
    LLVMValueRef m = LLVMGetArgOperand(I, (unsigned)np - 1);
    unsigned na = xl_leaves(x, LLVMTypeOf(a), NULL), tot = b ? 2 * na : na;
    unsigned n = xl_leaves(x, LLVMTypeOf(I), NULL), mb = xl_int_bits(x, LLVMTypeOf(m));
    uint32_t d = xl_def(x, I), ix = tmp1(x), c = tmp1(x);
    unsigned off = mb > 32 ? I64OFF : 0;
    for (unsigned e = 0; e < n; e++) {
      xl_emit(x, LSI_AND_I32 + off, ix, xl_val(x, m, e), xl_const(x, tot - 1, 0), 0, 0, 0);
      xl_emit(x, LSI_MOV, d + e, xl_val(x, a, 0), 0, 0, 0, 0);
      for (unsigned k = 1; k < tot; k++) {
        xl_emit(x, LSI_EQ_I32 + off, c, ix, xl_const(x, k, 0), 0, 0, 0);
        uint32_t src = k < na ? xl_val(x, a, k) : xl_val(x, b, k - na);
        xl_emit(x, LSI_SELECT, d + e, c, src, d + e, 0, 0);
      }
    }
    return 1;
  }
  if (!strcmp(name, "select") && np == 3) {
    LLVMValueRef a = LLVMGetArgOperand(I, 0), b = LLVMGetArgOperand(I, 1),
                 c = LLVMGetArgOperand(I, 2);
    unsigned n = xl_leaves(x, LLVMTypeOf(I), NULL), cb = xl_int_bits(x, LLVMTypeOf(c));
    int vec = ps[2].vec != 0;
    uint32_t d = xl_def(x, I), t = tmp1(x);
    for (unsigned e = 0; e < n; e++) {
      if (vec)
        xl_emit(x, LSI_LSHR_I64, t, xl_val(x, c, e), xl_const(x, cb - 1, 0), 0, 0, 0);
      else
        xl_emit(x, LSI_NE_I64, t, xl_val(x, c, 0), xl_const(x, 0, 0), 0, 0, 0);
      xl_emit(x, LSI_SELECT, d + e, t, xl_val(x, b, e), xl_val(x, a, e), 0, 0);
    }
    return 1;
  }
  return 0;
}

/* to_global / to_local / to_private (clang calls __to_<space>): the
 * generic address if its space bits (device/lsi.h) name that space, else
 * NULL. An SVM address (space bits 0, device/mem.h) is global. */
static int to_space(struct xl *x, LLVMValueRef I, const char *n) {
  unsigned space;
  if (!strcmp(n, "__to_global"))
    space = LSI_SPACE_GLOBAL;
  else if (!strcmp(n, "__to_local"))
    space = LSI_SPACE_LOCAL;
  else if (!strcmp(n, "__to_private"))
    space = LSI_SPACE_PRIVATE;
  else
    return 0;
  if (LLVMGetNumArgOperands(I) != 1) xl_fail(x, "'%s' takes one pointer", n);
  uint32_t a = xl_val(x, LLVMGetArgOperand(I, 0), 0), sp = tmp1(x), c = tmp1(x);
  xl_emit(x, LSI_LSHR_I64, sp, a, xl_const(x, LSI_ADDR_SPACE_SHIFT, 0), 0, 0, 0);
  if (space == LSI_SPACE_GLOBAL) /* LSI_SPACE_NONE or GLOBAL (NULL stays NULL) */
    xl_emit(x, LSI_ULT_I64, c, sp, xl_const(x, LSI_SPACE_GLOBAL + 1, 0), 0, 0, 0);
  else
    xl_emit(x, LSI_EQ_I64, c, sp, xl_const(x, space, 0), 0, 0, 0);
  xl_emit(x, LSI_SELECT, xl_def(x, I), c, a, xl_const(x, 0, 0), 0, 0);
  return 1;
}

/* get_fence(ptr): CLK_LOCAL_MEM_FENCE (1) for a local address, else
 * CLK_GLOBAL_MEM_FENCE (2), read from the generic address's space bits. */
static int get_fence(struct xl *x, LLVMValueRef I, const char *n) {
  if (strcmp(n, "_Z9get_fencePU3AS4v") && strcmp(n, "_Z9get_fencePU3AS4Kv")) return 0;
  if (LLVMGetNumArgOperands(I) != 1) xl_fail(x, "'%s' takes one pointer", n);
  uint32_t a = xl_val(x, LLVMGetArgOperand(I, 0), 0), sp = tmp1(x), c = tmp1(x);
  xl_emit(x, LSI_LSHR_I64, sp, a, xl_const(x, LSI_ADDR_SPACE_SHIFT, 0), 0, 0, 0);
  xl_emit(x, LSI_EQ_I64, c, sp, xl_const(x, LSI_SPACE_LOCAL, 0), 0, 0, 0);
  xl_emit(x, LSI_SELECT, xl_def(x, I), c, xl_const(x, 1, 0), xl_const(x, 2, 0), 0, 0);
  return 1;
}

/* The kernel a block's invoke operand names (a constant cast of the
 * __<k>_block_invoke[_N]_kernel function): its index in the program. */
static uint32_t invoke_kernel(struct xl *x, LLVMValueRef v) {
  while (v && !LLVMIsAFunction(v) && LLVMIsAConstantExpr(v))
    v = LLVMGetOperand(v, 0);
  if (!v || !LLVMIsAFunction(v)) xl_fail(x, "enqueue_kernel needs a block known at compile time");
  int64_t k = xl_kernel_index(x, v);
  if (k < 0) xl_fail(x, "the block passed to enqueue_kernel has no kernel");
  return xl_const(x, (uint64_t)k, 0);
}

/* enqueue_kernel in all its forms (clang's __enqueue_kernel_*), lowered to
 * one builtin call, and the work-group size queries on blocks. */
static int enqueue_call(struct xl *x, LLVMValueRef I, const char *n) {
  static const struct {
    const char *name;
    int ev, va; /* has the event arguments, the local sizes */
  } forms[] = {{"__enqueue_kernel_basic", 0, 0},
               {"__enqueue_kernel_basic_events", 1, 0},
               {"__enqueue_kernel_varargs", 0, 1},
               {"__enqueue_kernel_events_varargs", 1, 1}};
  const char *query = !strcmp(n, "__get_kernel_work_group_size_impl") ? "__lockstep_kernel_wg_size"
                      : !strcmp(n, "__get_kernel_preferred_work_group_size_multiple_impl")
                          ? "__lockstep_kernel_wg_multiple"
                          : NULL;
  if (query) {
    uint32_t k = invoke_kernel(x, LLVMGetArgOperand(I, 0));
    int id = xl_builtin(x, query);
    if (id < 0) xl_fail(x, "'%s' is not available on this device", n);
    xl_emit(x, LSI_MOV, xl_def(x, I), xl_callb(x, id, query, &k, 1, 1), 0, 0, 0, 0);
    return 1;
  }
  /* the sub-group queries for an NDRange: (ndrange address, invoke, block) */
  const char *sgq =
      !strcmp(n, "__get_kernel_sub_group_count_for_ndrange_impl") ? "__lockstep_kernel_sg_count"
      : !strcmp(n, "__get_kernel_max_sub_group_size_for_ndrange_impl") ? "__lockstep_kernel_sg_max"
                                                                       : NULL;
  if (sgq) {
    if (LLVMGetNumArgOperands(I) != 3) xl_fail(x, "'%s' takes 3 arguments", n);
    uint32_t a[2] = {invoke_kernel(x, LLVMGetArgOperand(I, 1)),
                     xl_val(x, LLVMGetArgOperand(I, 0), 0)};
    int id = xl_builtin(x, sgq);
    if (id < 0) xl_fail(x, "'%s' is not available on this device", n);
    xl_emit(x, LSI_MOV, xl_def(x, I), xl_callb(x, id, sgq, a, 2, 1), 0, 0, 0, 0);
    return 1;
  }
  int f = -1;
  for (int i = 0; i < 4; i++)
    if (!strcmp(n, forms[i].name)) f = i;
  if (f < 0) return 0;
  unsigned want = 5 + 3 * (unsigned)forms[f].ev + 2 * (unsigned)forms[f].va;
  if (LLVMGetNumArgOperands(I) != want) xl_fail(x, "'%s' takes %u arguments", n, want);
  uint32_t zero = xl_const(x, 0, 0), a[10];
  unsigned k = 0;
#define ARG(i) xl_val(x, LLVMGetArgOperand(I, (i)), 0)
  a[0] = ARG(0);
  a[1] = ARG(1);
  a[2] = ARG(2);
  k = 3;
  a[3] = forms[f].ev ? ARG(k++) : zero;
  a[4] = forms[f].ev ? ARG(k++) : zero;
  a[5] = forms[f].ev ? ARG(k++) : zero;
  a[6] = invoke_kernel(x, LLVMGetArgOperand(I, k++));
  a[7] = ARG(k++);
  a[8] = forms[f].va ? ARG(k++) : zero;
  a[9] = forms[f].va ? ARG(k++) : zero;
#undef ARG
  int id = xl_builtin(x, "__lockstep_enqueue");
  if (id < 0) xl_fail(x, "enqueue_kernel is not available on this device");
  xl_emit(x, LSI_MOV, xl_def(x, I), xl_callb(x, id, n, a, 10, 1), 0, 0, 0, 0);
  return 1;
}

void xl_call(struct xl *x, LLVMValueRef I) {
  LLVMValueRef callee = LLVMGetCalledValue(I);
  if (!callee || !LLVMIsAFunction(callee)) xl_fail(x, "indirect calls are not supported");
  size_t len;
  const char *n = LLVMGetValueName2(callee, &len);
  if (starts(n, "llvm.")) {
    intrinsic(x, I, n);
    return;
  }
  if (!LLVMIsDeclaration(callee))
    xl_fail(x, "call to '%s' was not inlined (recursion is not allowed in OpenCL C)", n);
  if (workitem(x, I, n) || barrier(x, I, n) || atomic_call(x, I, n) || convert_call(x, I, n) ||
      vector_semantics(x, I, n))
    return;
  if (!strcmp(n, "printf")) {
    int id = xl_builtin(x, "printf");
    if (id < 0) xl_fail(x, "printf is not available on this device");
    uint32_t *regs;
    unsigned cnt;
    collect_args(x, I, &regs, &cnt);
    uint32_t r = xl_callb(x, id, "printf", regs, cnt, 1);
    free(regs);
    xl_emit(x, LSI_MOV, xl_def(x, I), r, 0, 0, 0, 0);
    return;
  }
  if (to_space(x, I, n) || get_fence(x, I, n) || enqueue_call(x, I, n) || xl_image_call(x, I, n))
    return;
  /* the device's own unmangled helpers (compiler/include: assert.h) and
   * clang's unmangled pipe builtins (__read_pipe_2, __reserve_write_pipe ...) */
  if ((starts(n, "__lockstep_") || (starts(n, "__") && strstr(n, "_pipe"))) &&
      xl_builtin(x, n) >= 0) {
    call_builtin(x, I, n);
    return;
  }
  if (!starts(n, "_Z")) xl_fail(x, "call to undefined function '%s'", n);
  call_builtin(x, I, n);
}
