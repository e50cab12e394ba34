/*
 * debug.c - the debug tables of seed 003 for one translated kernel: the
 * microkernels (one per source statement, cut where no SSA value is live),
 * the flow-control table (successors, condition-evaluating microkernels,
 * loop init/condition/body/increment) and the symbol table built from
 * llvm.dbg.declare and the debug info of __local and program-scope data.
 *
 * It reads the IR and the emitted code; it never changes the code.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "compiler/cc_int.h"
#include "device/builtins.h"

#define DW_TAG_array_type       0x01
#define DW_TAG_enumeration_type 0x04
#define DW_TAG_lexical_block    0x0b
#define DW_TAG_member           0x0d
#define DW_TAG_pointer_type     0x0f
#define DW_TAG_structure_type   0x13
#define DW_TAG_typedef          0x16
#define DW_TAG_union_type       0x17
#define DW_TAG_base_type        0x24
#define DW_TAG_const_type       0x26
#define DW_TAG_volatile_type    0x35
#define DW_TAG_restrict_type    0x37

void cc_debug_free(struct cc_debug *d) {
  if (!d) return;
  free(d->mk);
  free(d->pc_to_mk);
  for (uint32_t i = 0; i < d->nsyms; i++) {
    free(d->syms[i].name);
    free(d->syms[i].type_name);
  }
  free(d->syms);
  for (uint32_t i = 0; i < d->ncalls; i++)
    free(d->call_name[i]);
  free(d->call_pc);
  free(d->call_name);
  for (uint32_t i = 0; i < d->ntypes; i++) {
    free(d->types[i].name);
    for (uint32_t f = 0; f < d->types[i].nfields; f++) {
      free(d->types[i].fields[f].name);
      free(d->types[i].fields[f].type_name);
    }
    free(d->types[i].fields);
  }
  free(d->types);
  for (uint32_t i = 0; i < d->ninl; i++)
    free(d->inl[i].func);
  free(d->inl);
  free(d->pc_inl);
  free(d);
}

const struct cc_type *cc_debug_find_type(const struct cc_debug *d, const char *name) {
  static const char *const quals[] = {"const ",      "volatile ", "__private ", "private ",
                                      "__global ",   "global ",   "__local ",   "local ",
                                      "__constant ", "constant "};
  for (int again = 1; again;) {
    again = 0;
    for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++)
      if (!strncmp(name, quals[q], strlen(quals[q]))) {
        name += strlen(quals[q]);
        again = 1;
      }
  }
  size_t n = strlen(name);
  while (n && name[n - 1] == ' ')
    n--;
  for (uint32_t i = 0; d && i < d->ntypes; i++)
    if (strlen(d->types[i].name) == n && !strncmp(d->types[i].name, name, n)) return &d->types[i];
  return NULL;
}

const struct cc_microkernel *cc_debug_mk_at(const struct cc_debug *d, uint32_t pc) {
  if (!d || !d->pc_to_mk || !d->nmk || pc >= d->npc) return NULL;
  const struct cc_microkernel *m = &d->mk[d->pc_to_mk[pc]];
  return pc >= m->pc_begin && pc < m->pc_end ? m : NULL;
}

const struct cc_symbol *cc_debug_find_symbol(const struct cc_debug *d, const char *name,
                                             uint32_t line) {
  return cc_debug_find_symbol_in(d, name, 0, line);
}

const struct cc_symbol *cc_debug_find_symbol_in(const struct cc_debug *d, const char *name,
                                                uint32_t inl, uint32_t line) {
  const struct cc_symbol *best = NULL;
  for (uint32_t i = 0; d && i < d->nsyms; i++) {
    const struct cc_symbol *s = &d->syms[i];
    if (s->inl != inl || strcmp(s->name, name)) continue;
    if (line && (line < s->scope_first || line > s->scope_last)) continue;
    if (!best || s->scope_first >= best->scope_first) best = s;
  }
  return best;
}

const struct cc_symbol *cc_debug_symbol_at(const struct cc_debug *d, uint32_t pc, uint32_t line,
                                           uint32_t space, uint64_t off) {
  uint32_t inl = d && d->pc_inl && pc < d->npc ? d->pc_inl[pc] : 0;
  const struct cc_symbol *best = NULL;
  for (uint32_t i = 0; d && i < d->nsyms; i++) {
    const struct cc_symbol *s = &d->syms[i];
    if (s->space != space || off < s->offset || off - s->offset >= s->size) continue;
    if (space == CC_SYM_PRIVATE && s->inl != inl) continue;
    if (line && space == CC_SYM_PRIVATE && (line < s->scope_first || line > s->scope_last))
      continue;
    if (!best || s->scope_first >= best->scope_first) best = s;
  }
  return best;
}

/* ---- liveness over IR values ---- */

struct live {
  unsigned nvals, words;
  LLVMValueRef *vals; /* tracked values (non-alloca instructions with results) */
};

static int val_index(struct live *L, LLVMValueRef v) {
  /* instructions were numbered through their position in vals; linear search
   * is fine for the sizes of kernels, but keep it cheap with a hash */
  for (unsigned i = 0; i < L->nvals; i++)
    if (L->vals[i] == v) return (int)i;
  return -1;
}

static int tracked(LLVMValueRef v) {
  return v && LLVMIsAInstruction(v) && !LLVMIsAAllocaInst(v) &&
         LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVoidTypeKind;
}

/* cut[i] = 1 when no tracked value is live just before ipc instruction i. */
static unsigned char *compute_cuts(struct xl *x, unsigned char **block_clean) {
  struct xl_cfg *g = &x->cfg;
  struct live L = {0};
  L.vals = malloc(sizeof(LLVMValueRef) * (x->nipc + 1));
  for (uint32_t i = 0; i < x->nipc; i++)
    if (tracked(x->ipc_inst[i])) L.vals[L.nvals++] = x->ipc_inst[i];
  /* index values by a small open hash for speed */
  unsigned hcap = 16;
  while (hcap < L.nvals * 2 + 2)
    hcap *= 2;
  LLVMValueRef *hk = calloc(hcap, sizeof(LLVMValueRef));
  int *hv = malloc(sizeof(int) * hcap);
  for (unsigned i = 0; i < L.nvals; i++) {
    unsigned h = (unsigned)(((uintptr_t)L.vals[i] >> 4) * 2654435761u) & (hcap - 1);
    while (hk[h])
      h = (h + 1) & (hcap - 1);
    hk[h] = L.vals[i];
    hv[h] = (int)i;
  }
#define VIDX(v)                                                                                    \
  ({                                                                                               \
    int _r = -1;                                                                                   \
    unsigned _h = (unsigned)(((uintptr_t)(v) >> 4) * 2654435761u) & (hcap - 1);                    \
    while (hk[_h]) {                                                                               \
      if (hk[_h] == (v)) {                                                                         \
        _r = hv[_h];                                                                               \
        break;                                                                                     \
      }                                                                                            \
      _h = (_h + 1) & (hcap - 1);                                                                  \
    }                                                                                              \
    _r;                                                                                            \
  })
  (void)val_index;
  L.words = (L.nvals + 63) / 64 + 1;
  unsigned nb = g->nblocks;
  uint64_t *in = calloc((size_t)nb * L.words, sizeof(uint64_t));
  uint64_t *out = calloc((size_t)nb * L.words, sizeof(uint64_t));
  uint64_t *cur = calloc(L.words, sizeof(uint64_t));
  int changed = 1;
  while (changed) {
    changed = 0;
    for (int bi = (int)nb - 1; bi >= 0; bi--) {
      struct xl_block *b = &g->b[bi];
      uint64_t *o = out + (size_t)bi * L.words;
      memset(cur, 0, L.words * sizeof(uint64_t));
      for (unsigned j = 0; j < b->nsucc; j++) {
        unsigned s = b->succ[j];
        uint64_t *si = in + (size_t)s * L.words;
        for (unsigned w = 0; w < L.words; w++)
          cur[w] |= si[w];
        for (LLVMValueRef p = LLVMGetFirstInstruction(g->b[s].bb); p && LLVMIsAPHINode(p);
             p = LLVMGetNextInstruction(p)) {
          unsigned nin = LLVMCountIncoming(p);
          for (unsigned k = 0; k < nin; k++)
            if (LLVMGetIncomingBlock(p, k) == b->bb) {
              int vi = VIDX(LLVMGetIncomingValue(p, k));
              if (vi >= 0) cur[vi / 64] |= UINT64_C(1) << (vi % 64);
            }
        }
      }
      memcpy(o, cur, L.words * sizeof(uint64_t));
      for (LLVMValueRef I = LLVMGetLastInstruction(b->bb); I; I = LLVMGetPreviousInstruction(I)) {
        int di = VIDX(I);
        if (di >= 0) cur[di / 64] &= ~(UINT64_C(1) << (di % 64));
        if (LLVMIsAPHINode(I)) continue;
        unsigned no = (unsigned)LLVMGetNumOperands(I);
        for (unsigned k = 0; k < no; k++) {
          int ui = VIDX(LLVMGetOperand(I, k));
          if (ui >= 0) cur[ui / 64] |= UINT64_C(1) << (ui % 64);
        }
      }
      uint64_t *ii = in + (size_t)bi * L.words;
      if (memcmp(ii, cur, L.words * sizeof(uint64_t))) {
        memcpy(ii, cur, L.words * sizeof(uint64_t));
        changed = 1;
      }
    }
  }
  /* per instruction: live set just before it */
  unsigned char *cut = calloc(x->nipc + 1, 1);
  *block_clean = calloc(nb + 1, 1);
  uint32_t ip = x->nipc;
  for (int bi = (int)nb - 1; bi >= 0; bi--) {
    struct xl_block *b = &g->b[bi];
    memcpy(cur, out + (size_t)bi * L.words, L.words * sizeof(uint64_t));
    for (LLVMValueRef I = LLVMGetLastInstruction(b->bb); I; I = LLVMGetPreviousInstruction(I)) {
      int di = VIDX(I);
      if (LLVMIsAPHINode(I)) {
        /* phis are written on the edges: live at the block's start */
        continue;
      }
      if (di >= 0) cur[di / 64] &= ~(UINT64_C(1) << (di % 64));
      unsigned no = (unsigned)LLVMGetNumOperands(I);
      for (unsigned k = 0; k < no; k++) {
        int ui = VIDX(LLVMGetOperand(I, k));
        if (ui >= 0) cur[ui / 64] |= UINT64_C(1) << (ui % 64);
      }
      while (ip > 0 && x->ipc_inst[ip - 1] != I)
        ip--;
      int empty = 1;
      for (unsigned w = 0; w < L.words && empty; w++)
        empty = cur[w] == 0;
      if (ip > 0) cut[ip - 1] = (unsigned char)empty;
    }
    int empty = 1;
    for (unsigned w = 0; w < L.words && empty; w++)
      empty = cur[w] == 0;
    (*block_clean)[bi] = (unsigned char)empty;
  }
#undef VIDX
  free(in);
  free(out);
  free(cur);
  free(hk);
  free(hv);
  free(L.vals);
  return cut;
}

static uint32_t inst_line(LLVMValueRef I) {
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(I);
  return loc ? LLVMDILocationGetLine(loc) : 0;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int block_of_pc(struct xl *x, uint32_t pc) {
  int best = -1;
  for (unsigned i = 0; i < x->cfg.nblocks; i++)
    if (x->cfg.b[i].start_pc <= pc && (best < 0 || x->cfg.b[i].start_pc >= x->cfg.b[best].start_pc))
      best = (int)i;
  return best;
}

static void build_microkernels(struct xl *x, struct cc_debug *d) {
  struct lsi_kernel *k = x->k;
  unsigned char *bclean;
  unsigned char *cut = compute_cuts(x, &bclean);
  uint32_t *cuts = malloc(sizeof(uint32_t) * (x->nipc + x->cfg.nblocks + 2));
  unsigned nc = 0;
  cuts[nc++] = 0;
  uint32_t cur_line = 0;
  for (unsigned bi = 0; bi < x->cfg.nblocks; bi++) {
    struct xl_block *b = &x->cfg.b[bi];
    if (bclean[bi] && b->start_pc > 0) {
      cuts[nc++] = b->start_pc;
      cur_line = 0;
    }
  }
  for (uint32_t i = 0; i < x->nipc; i++) {
    LLVMValueRef I = x->ipc_inst[i];
    if (LLVMIsAPHINode(I) || LLVMIsADbgInfoIntrinsic(I)) continue;
    uint32_t ln = inst_line(I);
    int bi = block_of_pc(x, x->ipc_pc[i]);
    if (bi >= 0 && x->cfg.b[bi].bb && LLVMGetFirstInstruction(x->cfg.b[bi].bb) == I) cur_line = 0;
    if (ln && ln != cur_line && cut[i] && x->ipc_pc[i] > 0) {
      cuts[nc++] = x->ipc_pc[i];
      cur_line = ln;
    } else if (ln && !cur_line) {
      cur_line = ln;
    }
  }
  qsort(cuts, nc, sizeof(uint32_t), cmp_u32);
  unsigned m = 0;
  for (unsigned i = 0; i < nc; i++)
    if (cuts[i] < k->ninsns && (m == 0 || cuts[i] != cuts[m - 1])) cuts[m++] = cuts[i];
  nc = m;
  d->nmk = nc;
  d->mk = calloc(nc ? nc : 1, sizeof(struct cc_microkernel));
  d->pc_to_mk = calloc(k->ninsns ? k->ninsns : 1, sizeof(uint32_t));
  d->npc = d->pc_to_mk ? k->ninsns : 0;
  for (unsigned i = 0; i < nc; i++) {
    struct cc_microkernel *mk = &d->mk[i];
    mk->id = i;
    mk->pc_begin = cuts[i];
    mk->pc_end = i + 1 < nc ? cuts[i + 1] : k->ninsns;
    mk->line_first = ~0u;
    for (uint32_t pc = mk->pc_begin; pc < mk->pc_end; pc++) {
      d->pc_to_mk[pc] = i;
      uint32_t ln = k->lines[pc].line;
      if (ln && ln < mk->line_first) {
        mk->line_first = ln;
        mk->file = k->lines[pc].file;
      }
      if (ln > mk->line_last) mk->line_last = ln;
    }
    if (mk->line_first == ~0u) mk->line_first = mk->line_last = 0;
  }
  /* roles and flow control */
  for (unsigned i = 0; i < nc; i++) {
    struct cc_microkernel *mk = &d->mk[i];
    int bi = block_of_pc(x, mk->pc_begin);
    struct xl_block *b = bi >= 0 ? &x->cfg.b[bi] : NULL;
    int has_cond = 0, has_bar = 0, has_exit = 0;
    uint32_t succ[16], ns = 0;
    for (uint32_t pc = mk->pc_begin; pc < mk->pc_end; pc++) {
      const lsi_insn *in = &k->code[pc];
      uint32_t tgt[2];
      unsigned nt = 0;
      switch (in->op) {
      case LSI_BRA_P:
      case LSI_BRA_Z:
        has_cond = 1;
        tgt[nt++] = (uint32_t)in->imm;
        break;
      case LSI_BRA:
      case LSI_SYNC:
      case LSI_BRK:
      case LSI_CONT: tgt[nt++] = (uint32_t)in->imm; break;
      case LSI_BAR: has_bar = 1; break;
      case LSI_CALLB: has_bar |= (lsi_builtin_flags((int)in->imm) & LSI_BI_GROUP) != 0; break;
      case LSI_EXIT: has_exit = 1; break;
      default: break;
      }
      if (pc + 1 == mk->pc_end && pc + 1 < k->ninsns &&
          !(lsi_op_flags[in->op] & F_BRANCH && in->op != LSI_BRA_P && in->op != LSI_BRA_Z &&
            in->op != LSI_YIELD && in->op != LSI_BAR && in->op != LSI_SGBAR))
        tgt[nt++] = pc + 1;
      for (unsigned t = 0; t < nt; t++) {
        if (tgt[t] >= mk->pc_begin && tgt[t] < mk->pc_end) continue;
        if (tgt[t] >= k->ninsns) continue;
        uint32_t id = d->pc_to_mk[tgt[t]];
        int dup = 0;
        for (unsigned q = 0; q < ns; q++)
          dup |= succ[q] == id;
        if (!dup && ns < 16) succ[ns++] = id;
      }
    }
    mk->nsucc = ns < 4 ? ns : 4;
    mk->more_succ = ns > 4;
    memcpy(mk->succ, succ, sizeof(uint32_t) * mk->nsucc);
    mk->role = CC_MK_STMT;
    if (b && b->loop >= 0) {
      mk->loop = (uint32_t)b->loop + 1;
      mk->role = CC_MK_LOOP_BODY;
      int latch = 0;
      for (unsigned j = 0; j < b->nsucc; j++)
        latch |= cc_cfg_is_back_edge(&x->cfg, bi, (int)b->succ[j]);
      if (b->is_header >= 0 && has_cond)
        mk->role = CC_MK_LOOP_COND;
      else if (latch && !has_cond)
        mk->role = CC_MK_LOOP_INC;
      else if (has_cond)
        mk->role = CC_MK_COND;
    } else if (has_cond) {
      mk->role = CC_MK_COND;
    }
    if (b && mk->role != CC_MK_LOOP_COND) {
      /* the last statement before entering a loop is its init */
      for (unsigned j = 0; j < b->nsucc; j++) {
        int h = (int)b->succ[j];
        if (x->cfg.b[h].is_header >= 0 && !cc_cfg_is_back_edge(&x->cfg, bi, h) &&
            (i + 1 == nc || block_of_pc(x, d->mk[i + 1].pc_begin) != bi) && !has_cond)
          mk->role = CC_MK_LOOP_INIT;
      }
    }
    if (has_bar && mk->role == CC_MK_STMT) mk->role = CC_MK_BARRIER;
    if (has_exit && mk->role == CC_MK_STMT) mk->role = CC_MK_EXIT;
  }
  free(cuts);
  free(cut);
  free(bclean);
}

/* ---- symbols ---- */

static LLVMValueRef md_op(LLVMContextRef ctx, LLVMMetadataRef md, unsigned i) {
  if (!md) return NULL;
  LLVMValueRef v = LLVMMetadataAsValue(ctx, md);
  unsigned n = LLVMGetMDNodeNumOperands(v);
  if (i >= n) return NULL;
  LLVMValueRef *ops = malloc(sizeof(LLVMValueRef) * n);
  LLVMGetMDNodeOperands(v, ops);
  LLVMValueRef r = ops[i];
  free(ops);
  return r;
}

static LLVMMetadataRef md_op_md(LLVMContextRef ctx, LLVMMetadataRef md, unsigned i) {
  LLVMValueRef v = md_op(ctx, md, i);
  return v ? LLVMValueAsMetadata(v) : NULL;
}

static char *md_op_str(LLVMContextRef ctx, LLVMMetadataRef md, unsigned i) {
  LLVMValueRef v = md_op(ctx, md, i);
  unsigned len;
  const char *s = v ? LLVMGetMDString(v, &len) : NULL;
  return s ? strndup(s, len) : NULL;
}

/* The dimensions of array type t from its subranges ("[4][4]"); 0 when a
 * count is not a constant. */
static int array_dims(LLVMContextRef ctx, LLVMMetadataRef t, char *buf, size_t len) {
  LLVMMetadataRef els = md_op_md(ctx, t, 4);
  LLVMValueRef ev = els ? LLVMMetadataAsValue(ctx, els) : NULL;
  unsigned n = ev ? LLVMGetMDNodeNumOperands(ev) : 0;
  LLVMValueRef ops[8];
  if (!n || n > 8) return 0;
  LLVMGetMDNodeOperands(ev, ops);
  size_t at = 0;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef c = ops[i] ? md_op(ctx, LLVMValueAsMetadata(ops[i]), 0) : NULL;
    if (!c || !LLVMIsAConstantInt(c) || LLVMConstIntGetSExtValue(c) < 0) return 0;
    int w = snprintf(buf + at, len - at, "[%lld]", LLVMConstIntGetSExtValue(c));
    if (w < 0 || (size_t)w >= len - at) return 0;
    at += (size_t)w;
  }
  return 1;
}

static unsigned tag_of(LLVMMetadataRef md) {
  LLVMMetadataKind k = LLVMGetMetadataKind(md);
  if (k == LLVMDIBasicTypeMetadataKind || k == LLVMDIDerivedTypeMetadataKind ||
      k == LLVMDICompositeTypeMetadataKind || k == LLVMDILexicalBlockMetadataKind ||
      k == LLVMDISubprogramMetadataKind || k == LLVMDILexicalBlockFileMetadataKind)
    return LLVMGetDINodeTag(md);
  return 0;
}

/* The address space qualifier (with a space after it) of what pointer type
 * t points to, as spir64 numbers them: "" for private and generic pointers.
 * The C API has no getter for it: the printed node says "dwarfAddressSpace: N". */
static const char *pointee_space(LLVMContextRef ctx, LLVMMetadataRef t) {
  char *txt = LLVMPrintValueToString(LLVMMetadataAsValue(ctx, t));
  const char *a = txt ? strstr(txt, "dwarfAddressSpace: ") : NULL;
  unsigned n = a ? (unsigned)strtoul(a + 19, NULL, 10) : 0;
  LLVMDisposeMessage(txt);
  return n == 1 ? "__global " : n == 2 ? "__constant " : n == 3 ? "__local " : "";
}

static void type_name(LLVMContextRef ctx, LLVMMetadataRef t, char *buf, size_t len, int depth) {
  if (!t || depth > 8) {
    snprintf(buf, len, "void");
    return;
  }
  size_t nl;
  const char *n = LLVMDITypeGetName(t, &nl);
  unsigned tag = tag_of(t);
  char base[160];
  switch (tag) {
  case DW_TAG_pointer_type:
    type_name(ctx, md_op_md(ctx, t, 3), base, sizeof(base), depth + 1);
    snprintf(buf, len, "%s%s *", pointee_space(ctx, t), base);
    return;
  case DW_TAG_const_type:
  case DW_TAG_volatile_type:
    type_name(ctx, md_op_md(ctx, t, 3), base, sizeof(base), depth + 1);
    snprintf(buf, len, "%s %s", tag == DW_TAG_const_type ? "const" : "volatile", base);
    return;
  case DW_TAG_restrict_type:
    type_name(ctx, md_op_md(ctx, t, 3), base, sizeof(base), depth + 1);
    snprintf(buf, len, "%s restrict", base);
    return;
  case DW_TAG_array_type: {
    LLVMMetadataRef et = md_op_md(ctx, t, 3);
    type_name(ctx, et, base, sizeof(base), depth + 1);
    uint64_t esz = et ? LLVMDITypeGetSizeInBits(et) : 0, sz = LLVMDITypeGetSizeInBits(t);
    if (nl) {
      snprintf(buf, len, "%.*s", (int)nl, n);
      return;
    }
    char dims[64];
    if (array_dims(ctx, t, dims, sizeof(dims))) {
      /* an array of arrays: this one's dimensions come first (T[2] of T[3]
       * is T[2][3]) */
      char *inner = strchr(base, '[');
      if (inner)
        snprintf(buf, len, "%.*s%s%s", (int)(inner - base), base, dims, inner);
      else
        snprintf(buf, len, "%s%s", base, dims);
      return;
    }
    if (esz)
      snprintf(buf, len, "%s[%llu]", base, (unsigned long long)(sz / esz));
    else
      snprintf(buf, len, "%s[]", base);
    return;
  }
  case DW_TAG_structure_type:
  case DW_TAG_union_type:
    snprintf(buf, len, "%s %.*s", tag == DW_TAG_structure_type ? "struct" : "union", (int)nl, n);
    return;
  default: snprintf(buf, len, "%.*s", (int)nl, n ? n : "");
  }
}

static void kind_of(LLVMContextRef ctx, LLVMMetadataRef t, struct cc_symbol *s, int depth) {
  s->elem_kind = 3;
  if (!t || depth > 8) return;
  unsigned tag = tag_of(t);
  if (tag == DW_TAG_pointer_type) {
    s->elem_kind = 2;
    return;
  }
  if (tag == DW_TAG_typedef || tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
      tag == DW_TAG_restrict_type || (tag == DW_TAG_array_type && depth == 0 && 0)) {
    kind_of(ctx, md_op_md(ctx, t, 3), s, depth + 1);
    return;
  }
  if (tag == DW_TAG_array_type) {
    /* vectors (float4) and arrays: the element's kind */
    kind_of(ctx, md_op_md(ctx, t, 3), s, depth + 1);
    if (s->elem_kind == 2) s->elem_kind = 3;
    return;
  }
  if (tag == DW_TAG_base_type || tag == DW_TAG_enumeration_type) {
    size_t nl;
    const char *n = LLVMDITypeGetName(t, &nl);
    char nm[64];
    snprintf(nm, sizeof(nm), "%.*s", (int)nl, n ? n : "");
    if (strstr(nm, "float") || strstr(nm, "double") || strstr(nm, "half")) {
      s->elem_kind = 1;
      s->is_signed = 1;
    } else {
      s->elem_kind = 0;
      s->is_signed =
          !(strstr(nm, "unsigned") || nm[0] == 'u' || !strcmp(nm, "bool") || !strcmp(nm, "_Bool"));
    }
  }
}

static int has_type(const struct cc_debug *d, const char *name) {
  for (uint32_t i = 0; i < d->ntypes; i++)
    if (!strcmp(d->types[i].name, name)) return 1;
  return 0;
}

static void collect_types(LLVMContextRef ctx, struct cc_debug *d, LLVMMetadataRef t, int depth);

/* Records the layout of struct/union st under name, then the types its
 * fields reach (after the entry exists, so a self-referencing pointer ends
 * the walk). */
static void add_layout(LLVMContextRef ctx, struct cc_debug *d, const char *name, LLVMMetadataRef st,
                       int depth) {
  if (has_type(d, name)) return;
  struct cc_type c = {0};
  c.name = strdup(name);
  c.size = (uint32_t)(LLVMDITypeGetSizeInBits(st) / 8);
  LLVMMetadataRef els = md_op_md(ctx, st, 4);
  LLVMValueRef ev = els ? LLVMMetadataAsValue(ctx, els) : NULL;
  unsigned n = ev ? LLVMGetMDNodeNumOperands(ev) : 0;
  LLVMValueRef *ops = calloc(n + 1, sizeof(LLVMValueRef));
  if (n) LLVMGetMDNodeOperands(ev, ops);
  c.fields = calloc(n + 1, sizeof(struct cc_field));
  for (unsigned i = 0; i < n; i++) {
    LLVMMetadataRef m = ops[i] ? LLVMValueAsMetadata(ops[i]) : NULL;
    if (!m || tag_of(m) != DW_TAG_member) continue;
    size_t nl;
    const char *fname = LLVMDITypeGetName(m, &nl);
    struct cc_field *f = &c.fields[c.nfields++];
    f->name = strndup(fname ? fname : "", nl);
    f->offset = (uint32_t)(LLVMDITypeGetOffsetInBits(m) / 8);
    f->size = (uint32_t)(LLVMDITypeGetSizeInBits(m) / 8);
    char tn[256];
    type_name(ctx, md_op_md(ctx, m, 3), tn, sizeof(tn), 0);
    f->type_name = strdup(tn);
  }
  d->types = realloc(d->types, sizeof(struct cc_type) * (d->ntypes + 1));
  d->types[d->ntypes++] = c;
  for (unsigned i = 0; i < n; i++) {
    LLVMMetadataRef m = ops[i] ? LLVMValueAsMetadata(ops[i]) : NULL;
    if (m && tag_of(m) == DW_TAG_member) collect_types(ctx, d, md_op_md(ctx, m, 3), depth + 1);
  }
  free(ops);
}

/* Records the layouts of the struct and union types t reaches (through
 * typedefs, qualifiers, arrays, pointers and fields), under their own name
 * and the name of each typedef that names them. */
static void collect_types(LLVMContextRef ctx, struct cc_debug *d, LLVMMetadataRef t, int depth) {
  if (!t || depth > 12) return;
  unsigned tag = tag_of(t);
  char nm[256];
  if (tag == DW_TAG_typedef || tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
      tag == DW_TAG_restrict_type || tag == DW_TAG_array_type || tag == DW_TAG_pointer_type) {
    LLVMMetadataRef b = md_op_md(ctx, t, 3);
    collect_types(ctx, d, b, depth + 1);
    if (tag != DW_TAG_typedef) return;
    /* a typedef of a struct: the same layout under the typedef's name */
    LLVMMetadataRef r = b;
    for (int k = 0; r && k < 8; k++) {
      unsigned rt = tag_of(r);
      if (rt != DW_TAG_typedef && rt != DW_TAG_const_type && rt != DW_TAG_volatile_type) break;
      r = md_op_md(ctx, r, 3);
    }
    if (!r || (tag_of(r) != DW_TAG_structure_type && tag_of(r) != DW_TAG_union_type)) return;
    type_name(ctx, t, nm, sizeof(nm), 0);
    add_layout(ctx, d, nm, r, depth);
    return;
  }
  if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) return;
  size_t nl;
  LLVMDITypeGetName(t, &nl);
  if (!nl) return; /* anonymous: only reachable through a typedef's name */
  type_name(ctx, t, nm, sizeof(nm), 0);
  add_layout(ctx, d, nm, t, depth);
}

/* Does the scope chain of scope reach target? */
static int scope_within(LLVMContextRef ctx, LLVMMetadataRef scope, LLVMMetadataRef target) {
  for (int d = 0; scope && d < 64; d++) {
    if (scope == target) return 1;
    unsigned tag = tag_of(scope);
    if (tag != DW_TAG_lexical_block &&
        LLVMGetMetadataKind(scope) != LLVMDILexicalBlockFileMetadataKind)
      return 0;
    scope = md_op_md(ctx, scope, 1);
  }
  return 0;
}

/* The parameter number (1 for the first) of a local variable, 0 for one
 * that is not a parameter. The C API has no getter for it: the printed node
 * says "arg: N". */
static uint32_t param_number(LLVMContextRef ctx, LLVMMetadataRef var) {
  char *t = LLVMPrintValueToString(LLVMMetadataAsValue(ctx, var));
  const char *a = t ? strstr(t, ", arg: ") : NULL;
  uint32_t n = a ? (uint32_t)strtoul(a + 7, NULL, 10) : 0;
  LLVMDisposeMessage(t);
  return n;
}

/* A variable; at is the inlinedAt location of its llvm.dbg.declare and inl
 * the inlined call that is (both 0 for the kernel's own variables). Its
 * lines are those of its scope's code in that call only. */
static struct cc_symbol *add_symbol(struct xl *x, struct cc_debug *d, LLVMMetadataRef var,
                                    uint32_t space, uint32_t offset, uint32_t size,
                                    LLVMMetadataRef at, uint32_t inl) {
  LLVMContextRef ctx = LLVMGetModuleContext(x->mod);
  struct cc_symbol s = {0};
  s.name = md_op_str(ctx, var, 1);
  if (!s.name) return NULL;
  LLVMMetadataRef ty = md_op_md(ctx, var, 3);
  char tn[256];
  type_name(ctx, ty, tn, sizeof(tn), 0);
  s.type_name = strdup(tn);
  kind_of(ctx, ty, &s, 0);
  collect_types(ctx, d, ty, 0);
  s.space = space;
  s.offset = offset;
  s.size = size ? size : (ty ? (uint32_t)(LLVMDITypeGetSizeInBits(ty) / 8) : 0);
  s.line_decl = LLVMDIVariableGetLine(var);
  LLVMMetadataRef scope = md_op_md(ctx, var, 0);
  uint32_t lo = ~0u, hi = 0;
  if (space == CC_SYM_PRIVATE) {
    for (uint32_t i = 0; i < x->nipc; i++) {
      LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(x->ipc_inst[i]);
      if (!loc || LLVMDILocationGetInlinedAt(loc) != at) continue;
      if (!scope_within(ctx, LLVMDILocationGetScope(loc), scope)) continue;
      uint32_t ln = LLVMDILocationGetLine(loc);
      if (ln && ln < lo) lo = ln;
      if (ln > hi) hi = ln;
    }
  }
  if (lo == ~0u && inl) {
    lo = hi = s.line_decl;
  } else if (lo == ~0u) {
    lo = d->line_first;
    hi = d->line_last;
  }
  s.inl = inl;
  /* the node's "arg: N" (a kernel's parameters may span several lines) */
  s.arg_index = param_number(ctx, var);
  if (!inl && s.arg_index > x->k->nargs) s.arg_index = 0;
  /* a kernel's parameter is visible from its first line on, though it
   * may be declared on a later line of the signature */
  uint32_t from = !inl && s.arg_index ? lo : s.line_decl;
  s.scope_first = from > lo ? from : lo;
  s.scope_last = hi > s.scope_first ? hi : s.scope_first;
  d->syms = realloc(d->syms, sizeof(struct cc_symbol) * (d->nsyms + 1));
  d->syms[d->nsyms] = s;
  return &d->syms[d->nsyms++];
}

static LLVMMetadataRef global_var_md(struct xl *x, LLVMValueRef g) {
  LLVMContextRef ctx = LLVMGetModuleContext(x->mod);
  unsigned kid = LLVMGetMDKindIDInContext(ctx, "dbg", 3);
  size_t n;
  LLVMValueMetadataEntry *e = LLVMGlobalCopyAllMetadata(g, &n);
  LLVMMetadataRef r = NULL;
  for (size_t i = 0; i < n && !r; i++)
    if (LLVMValueMetadataEntriesGetKind(e, (unsigned)i) == kid)
      r = LLVMDIGlobalVariableExpressionGetVariable(
          LLVMValueMetadataEntriesGetMetadata(e, (unsigned)i));
  if (e) LLVMDisposeValueMetadataEntries(e);
  return r;
}

static uint32_t inline_of(struct xl *x, struct cc_debug *d, LLVMMetadataRef **keys,
                          LLVMMetadataRef scope, LLVMMetadataRef at, int depth);

/* The pc + 1 of the first instruction that stores into alloca a (a store,
 * or the copy of a by-value aggregate), or 0: where an inlined call passes
 * a parameter's value. */
static uint32_t store_pc(struct xl *x, LLVMValueRef a) {
  for (uint32_t i = 0; i < x->nipc; i++) {
    LLVMValueRef I = x->ipc_inst[i];
    if (LLVMIsAStoreInst(I) && LLVMGetOperand(I, 1) == a) return x->ipc_pc[i] + 1;
    if (!LLVMIsACallInst(I) || LLVMGetArgOperand(I, 0) != a) continue;
    LLVMValueRef callee = LLVMGetCalledValue(I);
    size_t len;
    const char *n = callee ? LLVMGetValueName2(callee, &len) : "";
    if (!strncmp(n, "llvm.memcpy", 11)) return x->ipc_pc[i] + 1;
  }
  return 0;
}

/* The by-value struct argument whose pointer parameter v is, or NULL. */
static const struct lsi_arg *byval_arg(struct xl *x, LLVMValueRef v) {
  for (uint32_t i = 0; i < x->k->nargs; i++)
    if (x->k->args[i].kind == LSI_ARG_BYVAL && LLVMGetParam(x->fn, i) == v) return &x->k->args[i];
  return NULL;
}

/* keys: the inlinedAt node of each inlined call (build_inlined). */
static void build_symbols(struct xl *x, struct cc_debug *d, LLVMMetadataRef **keys) {
  for (uint32_t i = 0; i < x->nipc; i++) {
    LLVMValueRef I = x->ipc_inst[i];
    if (!LLVMIsACallInst(I)) continue;
    LLVMValueRef callee = LLVMGetCalledValue(I);
    size_t len;
    const char *n = callee ? LLVMGetValueName2(callee, &len) : "";
    if (strcmp(n, "llvm.dbg.declare")) continue;
    /* a variable of an inlined function belongs to its call: every call
     * has its own copy of the function's allocas */
    LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(I);
    LLVMMetadataRef at = loc ? LLVMDILocationGetInlinedAt(loc) : NULL;
    uint32_t inl = at ? inline_of(x, d, keys, LLVMDILocationGetScope(loc), at, 0) : 0;
    LLVMValueRef a0 = LLVMGetArgOperand(I, 0), a1 = LLVMGetArgOperand(I, 1);
    if (!a0 || !a1 || LLVMGetMDNodeNumOperands(a0) < 1) continue;
    LLVMValueRef addr;
    LLVMGetMDNodeOperands(a0, &addr);
    if (!addr) continue;
    for (uint32_t k = 0; k < x->nallocas; k++)
      if (x->allocas[k] == addr) {
        uint32_t size = (uint32_t)LLVMABISizeOfType(x->td, LLVMGetAllocatedType(addr));
        struct cc_symbol *s = add_symbol(x, d, LLVMValueAsMetadata(a1), CC_SYM_PRIVATE,
                                         x->alloca_off[k], size, at, inl);
        if (s && s->inl && s->arg_index) s->pass_pc = store_pc(x, addr);
      }
    /* a struct passed by value: clang declares the variable at the byval
     * pointer itself, whose copy the launch puts in the private frame */
    const struct lsi_arg *bv = at ? NULL : byval_arg(x, addr);
    if (bv)
      add_symbol(x, d, LLVMValueAsMetadata(a1), CC_SYM_PRIVATE, bv->priv_offset, bv->size, NULL, 0);
  }
  for (uint32_t k = 0; k < x->nlglob; k++) {
    LLVMMetadataRef v = global_var_md(x, x->lglob[k]);
    if (v)
      add_symbol(x, d, v, CC_SYM_LOCAL, x->lglob_off[k],
                 (uint32_t)LLVMABISizeOfType(x->td, LLVMGlobalGetValueType(x->lglob[k])), NULL, 0);
  }
  for (uint32_t k = 0; k < x->prog->nglob; k++) {
    LLVMMetadataRef v = global_var_md(x, x->prog->glob[k]);
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(x->prog->glob[k]));
    if (v)
      add_symbol(x, d, v, as == 2 ? CC_SYM_CONSTANT : CC_SYM_GLOBAL, x->prog->glob_off[k],
                 (uint32_t)LLVMABISizeOfType(x->td, LLVMGlobalGetValueType(x->prog->glob[k])), NULL,
                 0);
  }
}

/* ---- inlined calls ---- */

/* The subprogram a scope belongs to. */
static LLVMMetadataRef subprogram_of(LLVMContextRef ctx, LLVMMetadataRef scope) {
  for (int k = 0; scope && k < 64; k++) {
    if (LLVMGetMetadataKind(scope) == LLVMDISubprogramMetadataKind) return scope;
    scope = md_op_md(ctx, scope, 1);
  }
  return NULL;
}

static uint32_t file_index(struct xl *x, LLVMMetadataRef scope) {
  LLVMMetadataRef file = scope ? LLVMDIScopeGetFile(scope) : NULL;
  unsigned len;
  const char *name = file ? LLVMDIFileGetFilename(file, &len) : NULL;
  const struct lsi_program *p = x->prog->p;
  for (uint32_t i = 0; name && i < p->nfiles; i++)
    if (strlen(p->files[i]) == len && !strncmp(p->files[i], name, len)) return i;
  return 0;
}

/* The inlined call (index + 1) a location of scope inlined at `at` belongs
 * to; 0 for the kernel body. keys holds the inlinedAt node of each call. */
static uint32_t inline_of(struct xl *x, struct cc_debug *d, LLVMMetadataRef **keys,
                          LLVMMetadataRef scope, LLVMMetadataRef at, int depth) {
  if (!at || depth > 32) return 0;
  for (uint32_t i = 0; i < d->ninl; i++)
    if ((*keys)[i] == at) return i + 1;
  LLVMContextRef ctx = LLVMGetModuleContext(x->mod);
  uint32_t parent =
      inline_of(x, d, keys, LLVMDILocationGetScope(at), LLVMDILocationGetInlinedAt(at), depth + 1);
  struct cc_inline c = {0};
  LLVMMetadataRef sp = subprogram_of(ctx, scope);
  c.func = sp ? md_op_str(ctx, sp, 2) : NULL;
  if (!c.func) c.func = strdup("<inlined function>");
  c.call_line = LLVMDILocationGetLine(at);
  c.call_file = file_index(x, LLVMDILocationGetScope(at));
  c.parent = parent;
  d->inl = realloc(d->inl, sizeof(struct cc_inline) * (d->ninl + 1));
  *keys = realloc(*keys, sizeof(LLVMMetadataRef) * (d->ninl + 1));
  (*keys)[d->ninl] = at;
  d->inl[d->ninl++] = c;
  return d->ninl;
}

static void build_inlined(struct xl *x, struct cc_debug *d, LLVMMetadataRef **keys) {
  struct lsi_kernel *k = x->k;
  uint32_t *of_ipc = calloc(x->nipc + 1, sizeof(uint32_t));
  uint32_t cur = 0;
  for (uint32_t i = 0; i < x->nipc; i++) {
    LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(x->ipc_inst[i]);
    if (loc)
      cur = inline_of(x, d, keys, LLVMDILocationGetScope(loc), LLVMDILocationGetInlinedAt(loc), 0);
    of_ipc[i] = cur;
  }
  d->pc_inl = calloc(k->ninsns + 1, sizeof(uint32_t));
  for (uint32_t i = 0; i < x->nipc; i++) {
    uint32_t end = i + 1 < x->nipc ? x->ipc_pc[i + 1] : k->ninsns;
    for (uint32_t pc = x->ipc_pc[i]; pc < end && pc < k->ninsns; pc++)
      d->pc_inl[pc] = of_ipc[i];
  }
  /* a block's leading code belongs with its first instruction */
  for (unsigned bi = 0; bi < x->cfg.nblocks; bi++) {
    uint32_t st = x->cfg.b[bi].start_pc;
    for (uint32_t i = 0; i < x->nipc; i++)
      if (x->ipc_pc[i] >= st) {
        for (uint32_t pc = st; pc < x->ipc_pc[i] && pc < k->ninsns; pc++)
          d->pc_inl[pc] = of_ipc[i];
        break;
      }
  }
  free(of_ipc);
}

static uint32_t inline_depth(const struct cc_debug *d, uint32_t c) {
  uint32_t n = 0;
  for (; c && c <= d->ninl && n < 64; n++)
    c = d->inl[c - 1].parent;
  return n;
}

/* A statement that runs into an inlined call (a caller's arguments and the
 * callee's first line) or out of one (its return and the rest of the
 * caller's line) shows the callee's line, as the debugger shows its frame:
 * the first line of the innermost call it is in, wherever the callee is
 * defined (not the smallest line, which is the caller's when the callee is
 * defined after it). */
static void mk_lines_of_callee(struct xl *x, struct cc_debug *d) {
  const struct lsi_kernel *k = x->k;
  for (uint32_t i = 0; i < d->nmk; i++) {
    struct cc_microkernel *mk = &d->mk[i];
    uint32_t fr = 0, depth = 0, any = 0;
    for (uint32_t pc = mk->pc_begin; pc < mk->pc_end; pc++) {
      if (!k->lines[pc].line) continue;
      uint32_t dp = inline_depth(d, d->pc_inl[pc]);
      if (!any || dp > depth) fr = d->pc_inl[pc], depth = dp;
      any = 1;
    }
    if (!any) continue;
    mk->line_first = ~0u;
    for (uint32_t pc = mk->pc_begin; pc < mk->pc_end; pc++) {
      uint32_t ln = k->lines[pc].line;
      if (ln && d->pc_inl[pc] == fr && ln < mk->line_first) {
        mk->line_first = ln;
        mk->file = k->lines[pc].file;
      }
    }
  }
}

void cc_debug_build(struct xl *x) {
  struct cc_debug *d = calloc(1, sizeof(*d));
  struct lsi_kernel *k = x->k;
  LLVMMetadataRef sp = LLVMGetSubprogram(x->fn);
  d->line_first = sp ? LLVMDISubprogramGetLine(sp) : 0;
  for (uint32_t pc = 0; pc < k->ninsns; pc++)
    if (k->lines[pc].line > d->line_last) d->line_last = k->lines[pc].line;
  if (d->line_last < d->line_first) d->line_last = d->line_first;
  build_microkernels(x, d);
  LLVMMetadataRef *keys = NULL;
  build_inlined(x, d, &keys);
  mk_lines_of_callee(x, d);
  build_symbols(x, d, &keys);
  free(keys);
  d->ncalls = x->ncalls;
  d->call_pc = x->call_pc;
  d->call_name = x->call_name;
  x->call_pc = NULL;
  x->call_name = NULL;
  x->ncalls = 0;
  k->debug = d;
}
