/*
 * cc_debug.h - the debug tables of one kernel (seed 003), hung off
 * lsi_kernel.debug: microkernels, the flow-control table and the symbols.
 *
 * The compiler fills them; the debugger reads them. Nothing here runs code or
 * knows about the device's state.
 */
#ifndef LOCKSTEP_COMPILER_CC_DEBUG_H
#define LOCKSTEP_COMPILER_CC_DEBUG_H

#include <stdint.h>

/* What a microkernel does in its statement's control flow. */
enum cc_mk_role {
  CC_MK_STMT = 0,  /* a plain statement */
  CC_MK_COND,      /* evaluates an if/switch condition and branches */
  CC_MK_LOOP_INIT, /* the statement before a loop is entered (for-init) */
  CC_MK_LOOP_COND, /* evaluates a loop's condition */
  CC_MK_LOOP_BODY, /* a statement in a loop body */
  CC_MK_LOOP_INC,  /* the loop's increment (the latch block) */
  CC_MK_BARRIER,   /* contains a work-group barrier */
  CC_MK_EXIT,      /* returns from the kernel */
};

/*
 * One microkernel: the code of one source statement, [pc_begin, pc_end).
 * At pc_begin no SSA value (register) is live except kernel-invariant ones
 * (constant rows, argument and frame-address registers), so a work-item's
 * state there is its PC plus memory.
 */
struct cc_microkernel {
  uint32_t id;
  uint32_t file;       /* lsi_program.files index */
  uint32_t line_first; /* source lines covered */
  uint32_t line_last;
  uint32_t pc_begin, pc_end;
  uint32_t role;      /* enum cc_mk_role */
  uint32_t loop;      /* loop id + 1 when inside a loop, else 0 */
  uint32_t nsucc;     /* flow control: microkernels that may run next */
  uint32_t succ[4];   /* ids; for a COND/LOOP_COND: [0] taken, [1] not taken */
  uint32_t more_succ; /* 1 when there were more than 4 (a switch) */
};

enum cc_sym_space {
  CC_SYM_PRIVATE = 0,
  CC_SYM_LOCAL,
  CC_SYM_GLOBAL,   /* program-scope data segment */
  CC_SYM_CONSTANT, /* program-scope constant data */
  CC_SYM_ARG,      /* a kernel argument's value (register), O2 builds */
};

/* One source variable. */
struct cc_symbol {
  char *name;
  char *type_name;    /* e.g. "int", "float4", "__global float *" */
  uint32_t space;     /* enum cc_sym_space */
  uint32_t offset;    /* private: frame offset; local: offset in the static block;
                         global/constant: offset in the data segment */
  uint32_t size;      /* bytes */
  uint32_t elem_kind; /* 0 int/unsigned by `is_signed`, 1 float, 2 pointer, 3 aggregate */
  uint32_t is_signed;
  uint32_t line_decl;   /* declaration line */
  uint32_t scope_first; /* scope line range (lines where the name is visible) */
  uint32_t scope_last;
  uint32_t arg_index; /* for parameters: index + 1, else 0 */
  uint32_t inl;       /* a variable of an inlined function: its call (index + 1 into
                         cc_debug.inl); 0 for the kernel's own and program-scope data */
  uint32_t pass_pc;   /* a parameter of an inlined call: pc + 1 of the store that passes
                         its value (before it, the parameter has none); else 0 */
};

/* One field of a struct or union type (from the DWARF composite type). */
struct cc_field {
  char *name;
  char *type_name; /* as symbols spell types: "int", "float4", "struct in", "int[3]" */
  uint32_t offset; /* bytes from the start of the struct */
  uint32_t size;
};

/* A struct or union layout, by the names a program may use for it: both
 * "struct s" and a typedef name get an entry. */
struct cc_type {
  char *name;
  uint32_t size;
  uint32_t nfields;
  struct cc_field *fields;
};

/* One inlined call (DILocation inlinedAt): the callee and where its caller
 * called it. */
struct cc_inline {
  char *func;         /* the inlined function's name */
  uint32_t call_file; /* lsi_program.files index of the call site */
  uint32_t call_line;
  uint32_t parent; /* the caller's inlined call: index + 1, or 0 for the kernel */
};

struct cc_debug {
  uint32_t nmk;
  struct cc_microkernel *mk;
  uint32_t *pc_to_mk; /* npc entries: the microkernel of each pc */
  uint32_t npc;       /* the kernel's ninsns (not stored in binaries) */
  uint32_t nsyms;
  struct cc_symbol *syms;
  uint32_t line_first, line_last; /* the kernel function's line range */
  uint32_t ncalls;                /* builtin calls: pc and mangled name (ids are re-resolved */
  uint32_t *call_pc;              /* when a binary is loaded) */
  char **call_name;
  uint32_t ntypes; /* struct layouts the symbols use */
  struct cc_type *types;
  uint32_t ninl; /* inlined calls */
  struct cc_inline *inl;
  uint32_t *pc_inl; /* ninsns entries: innermost inlined call + 1, 0 in the kernel body */
};

void cc_debug_free(struct cc_debug *d);
/* A struct layout by type name (qualifiers such as const are ignored), or NULL. */
const struct cc_type *cc_debug_find_type(const struct cc_debug *d, const char *name);
/* The microkernel containing pc, or NULL. */
const struct cc_microkernel *cc_debug_mk_at(const struct cc_debug *d, uint32_t pc);
/* A symbol of the kernel's own (not of an inlined function) visible at
 * (line) by name, innermost scope first, or NULL. */
const struct cc_symbol *cc_debug_find_symbol(const struct cc_debug *d, const char *name,
                                             uint32_t line);
/* The same for the variables of one inlined call (index + 1 into inl; 0 for
 * the kernel body): its own names only, never its caller's. */
const struct cc_symbol *cc_debug_find_symbol_in(const struct cc_debug *d, const char *name,
                                                uint32_t inl, uint32_t line);
/* The variable whose storage holds byte off of space (CC_SYM_PRIVATE: the
 * work-item's frame, CC_SYM_LOCAL: the static __local block) as the code
 * at pc sees it (its inlined call, its line's scopes), innermost first;
 * NULL when no variable's storage holds it. */
const struct cc_symbol *cc_debug_symbol_at(const struct cc_debug *d, uint32_t pc, uint32_t line,
                                           uint32_t space, uint64_t off);

#endif
