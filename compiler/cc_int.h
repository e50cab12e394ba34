/*
 * cc_int.h - what the compiler's own files share: the translation state of
 * one kernel, the CFG analysis results, and helpers.
 *
 * Nothing outside compiler/ includes this. The translator's state lives only
 * for the duration of one cc_translate_* call.
 */
#ifndef LOCKSTEP_COMPILER_CC_INT_H
#define LOCKSTEP_COMPILER_CC_INT_H

#include <setjmp.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "compiler/cc.h"
#include "compiler/cc_debug.h"

/* The compiler's identity: a binary loads only into the same one, and the
 * compile cache is keyed on it. Bump CC_FORMAT_VERSION when the translation
 * of the same source changes. */
#define CC_FORMAT_VERSION "7"
#define CC_VERSION                                                                                 \
  "lockstep-cc " LOCKSTEP_VERSION " llvm " LOCKSTEP_LLVM_VERSION " fmt " CC_FORMAT_VERSION

/* frontend.c */
int cc_write_file(const char *path, const void *data, size_t len);
void *cc_read_file(const char *path, size_t *len);
char *cc_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cc_log_append(char **log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ir.c: bitcode -> optimised module -> lsi_program */
/* How many functions the object calls that it neither defines nor gets
 * from the device (builtins, printf, the compiler's own helpers); -1 when
 * it does not parse. */
int cc_bitcode_undefined(const struct cc_bitcode *bc);
/* Adds to bc the definitions it calls but lacks that gnu (the same source
 * compiled with GNU inline semantics) has, as linkonce_odr: C99 inline
 * definitions. Returns how many, or -1 when the bitcode cannot be read. */
int cc_bitcode_add_inline(struct cc_bitcode *bc, const struct cc_bitcode *gnu, char **log);
int cc_translate_build(const struct cc_bitcode *bc, const char *options, struct lsi_program **out,
                       char **log);

/* Register operands while a kernel is being emitted: constant rows carry this
 * flag and are renumbered (with the value registers) when the kernel is done. */
#define XL_CONST 0x80000000u

/* One scalar piece of a first-class value (a register). */
enum cc_leaf_kind { LK_INT, LK_F16, LK_F32, LK_F64, LK_PTR };
struct cc_leaf {
  uint8_t kind;
  uint8_t bits; /* integer width; 16/32/64 for floats; 64 for pointers */
  uint32_t off; /* byte offset in memory layout */
};
#define XL_MAX_LEAVES 256

/* Per-block CFG facts (cfg.c). */
struct xl_block {
  LLVMBasicBlockRef bb;
  unsigned nsucc, *succ;
  unsigned npred, *pred;
  int idom, ipdom;      /* -1: none / the virtual exit */
  int loop;             /* innermost loop index, -1: none */
  int is_header;        /* index of the loop it heads, -1 */
  uint32_t body_label;  /* label of the block's first real instruction */
  uint32_t yield_label; /* loop headers: YIELD; BRA body */
  uint32_t first_site;  /* sites whose reconvergence point this block is (list) */
  int rpo;              /* reverse post-order number */
  uint32_t start_pc;    /* first pc of the block's code (its SYNC ladder) */
};

struct xl_loop {
  int header;
  int parent;       /* enclosing loop, -1 */
  uint64_t *blocks; /* bitset */
  int depth;
  int has_exit_cond;
  int counted; /* trip count known at compile time: no YIELD on its back edges */
};

/* A place where a sync token is pushed (SSY) for reconvergence at block
 * `post`: either before the conditional branch ending `block`, or on the
 * edges entering loop `loop` (hoisted out of it). */
struct xl_site {
  int block;           /* branch block, or -1 */
  int loop;            /* hoisted to this loop's entry edges, or -1 */
  int post;            /* reconvergence block */
  uint64_t *region;    /* blocks reachable from the site without passing post */
  int parent;          /* enclosing site with the same post, -1 */
  int back;            /* the region reaches post only over loop back edges */
  uint32_t sync_label; /* the SYNC instruction for this site at post */
  uint32_t next_site;  /* list link for sites with the same post (+1; 0 = end) */
};

struct xl_cfg {
  unsigned nblocks, words;
  struct xl_block *b;
  unsigned nloops;
  struct xl_loop *loops;
  unsigned nsites;
  struct xl_site *sites;
};

/* cfg.c */
int cc_cfg_build(struct xl_cfg *g, LLVMValueRef fn, char *err, size_t errlen);
void cc_cfg_free(struct xl_cfg *g);
int cc_cfg_block_index(const struct xl_cfg *g, LLVMBasicBlockRef bb);
static inline int cc_bit(const uint64_t *s, unsigned i) {
  return (int)((s[i / 64] >> (i % 64)) & 1);
}
/* The innermost site at block post whose region holds block from, or -1. */
int cc_cfg_site_for_edge(const struct xl_cfg *g, int from, int post);
/* True when from -> to is a loop back edge. */
int cc_cfg_is_back_edge(const struct xl_cfg *g, int from, int to);

/* Program-wide state shared by the kernels of one module. */
struct xl_prog {
  LLVMModuleRef mod;
  LLVMTargetDataRef td;
  LLVMContextRef ctx;
  struct lsi_program *p;
  unsigned nglob;
  LLVMValueRef *glob; /* program-scope globals placed in the data segment */
  uint32_t *glob_off;
  int debug_build;
};

struct xl_map_ent {
  LLVMValueRef v;
  uint32_t reg, n;
};

struct xl_fixup {
  uint32_t pc;
  uint32_t label;
};

/* The state of translating one kernel. */
struct xl {
  struct xl_prog *prog;
  LLVMModuleRef mod;
  LLVMTargetDataRef td;
  LLVMValueRef fn;
  struct lsi_kernel *k;
  struct xl_cfg cfg;
  jmp_buf fail;
  char err[512];
  /* code */
  lsi_insn *code;
  struct lsi_line *lines;
  uint32_t ncode, capcode;
  uint32_t cur_line, cur_file;
  LLVMValueRef cur_inst;
  /* labels */
  uint32_t *label_pc;
  uint32_t nlabels, caplabels;
  struct xl_fixup *fix;
  uint32_t nfix, capfix;
  /* registers */
  uint32_t nv;
  struct xl_map_ent *map;
  uint32_t mapcap, mapn;
  struct lsi_const *consts;
  uint32_t nconst, capconst;
  uint32_t *arglist;
  uint32_t narglist, caparglist;
  /* private frame and local block */
  uint32_t private_size;
  uint32_t local_size;
  LLVMValueRef *lglob;
  uint32_t *lglob_off;
  uint32_t nlglob;
  uint32_t priv_base_reg; /* value register holding SREG PRIVATE_BASE, or ~0 */
  int ftz_f32;            /* f32 subnormals flush to zero (-cl-denorms-are-zero) */
  /* per IR instruction: first pc (for the debug tables) */
  LLVMValueRef *ipc_inst;
  uint32_t *ipc_pc;
  uint32_t nipc, capipc;
  /* builtin calls: pc -> mangled name (for the binary) */
  uint32_t ncalls;
  uint32_t *call_pc;
  char **call_name;
  /* symbols from llvm.dbg.declare */
  struct cc_symbol *syms;
  uint32_t nsyms;
  LLVMValueRef *sym_alloca;
  /* allocas and their private frame offsets */
  LLVMValueRef *allocas;
  uint32_t *alloca_off;
  uint32_t nallocas;
};

/* xlate.c */
_Noreturn void xl_fail(struct xl *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint32_t xl_emit(struct xl *x, unsigned op, uint32_t d, uint32_t a, uint32_t b, uint32_t c,
                 int64_t imm, unsigned aux);
uint32_t xl_new_label(struct xl *x);
void xl_place_label(struct xl *x, uint32_t label);
uint32_t xl_emit_br(struct xl *x, unsigned op, uint32_t a, uint32_t label);
uint32_t xl_vreg(struct xl *x, unsigned n);
uint32_t xl_const(struct xl *x, uint64_t v, uint32_t reloc);
unsigned xl_leaves(struct xl *x, LLVMTypeRef t, struct cc_leaf *out);
/* Index of a kernel function in the program (module order), or -1. */
int64_t xl_kernel_index(struct xl *x, LLVMValueRef fn);
uint32_t xl_val(struct xl *x, LLVMValueRef v, unsigned i);
uint32_t xl_def(struct xl *x, LLVMValueRef v);
unsigned xl_space(unsigned llvm_as);
unsigned xl_int_bits(struct xl *x, LLVMTypeRef t);
uint32_t xl_sext(struct xl *x, uint32_t r, unsigned from, unsigned to);
uint32_t xl_trunc(struct xl *x, uint32_t r, unsigned bits);
uint32_t xl_arglist(struct xl *x, const uint32_t *regs, unsigned n);
/* align: the alignment known for addr + 0; wider leaves move in pieces. */
void xl_load_leaf(struct xl *x, uint32_t d, uint32_t addr, int64_t off, const struct cc_leaf *l,
                  unsigned space, unsigned align);
void xl_store_leaf(struct xl *x, uint32_t val, uint32_t addr, int64_t off, const struct cc_leaf *l,
                   unsigned space, unsigned align);
uint32_t xl_alloc_private(struct xl *x, uint32_t size, uint32_t align);
uint32_t xl_private_addr(struct xl *x, uint32_t off);
/* Under ftz_f32: an f32 operand flushed (a new register) / a result flushed
 * in place. Without it: the operand as is / nothing. */
uint32_t xl_ftz_in(struct xl *x, uint32_t r);
void xl_ftz_out(struct xl *x, uint32_t d);

/* mangle.c: Itanium names of builtins. A parameter type as its mangling
 * with every substitution expanded. */
#define CC_MTYPE_LEN 160
struct cc_mparam {
  char full[CC_MTYPE_LEN];   /* e.g. "PU3AS1KDv4_f" */
  char scalar[CC_MTYPE_LEN]; /* the same with vectors replaced by their element: "PU3AS1Kf" */
  unsigned vec;              /* vector width (of the pointee for pointers), 0 = scalar */
  int is_ptr;
  unsigned elem_size; /* bytes of the (element) type; 4 for named types (enums) */
};
/* Splits "_Z<len><name><params>" into name and at most max parameters;
 * returns their number, or -1 if the name does not parse. */
int cc_demangle(const char *mangled, char *name, size_t namelen, struct cc_mparam *ps,
                unsigned max);
/* The mangled name of name(types...), types expanded as in cc_mparam.full,
 * with substitutions as clang writes them. Returns 0, or -1 if out is too
 * small or a type does not parse. */
int cc_mangle(const char *name, const char *const *types, unsigned n, char *out, size_t outlen);
/* The same name with the address space of every pointer dropped
 * ("_Z5fractfPU3AS4f" -> "_Z5fractfPf"), substitutions renumbered: the
 * form the device's table lists builtins that take any address space in.
 * Returns 0, or -1 if the name does not parse or out is too small. */
int cc_mangle_flat(const char *mangled, char *out, size_t outlen);
/* Bytes of an Itanium builtin type code ('i' 4, 'h' 1, ...); 0 for void
 * and the codes builtins never use. */
unsigned cc_builtin_size(char c);

/* xcall.c: a call instruction */
void xl_call(struct xl *x, LLVMValueRef inst);
/* The device table's id of a builtin by clang's name: the name itself, else
 * the name with the address spaces of its pointers dropped; -1 if neither. */
int cc_builtin_id(const char *mangled);
/* ctz/popcount-like helpers look builtins up through the device table. */
int xl_builtin(struct xl *x, const char *mangled);
uint32_t xl_callb(struct xl *x, int id, const char *name, const uint32_t *args, unsigned nargs,
                  unsigned nres);

/* ximage.c: sampler initializers and image builtins the device lacks; 1
 * when it handled the call (or failed the build), 0 to go on. */
int xl_image_call(struct xl *x, LLVMValueRef I, const char *n);

/* debug.c: builds the kernel's cc_debug after emission */
void cc_debug_build(struct xl *x);

/* binary.c helpers shared with dump.c */
const char *cc_space_name(unsigned space);

#endif
