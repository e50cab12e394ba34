/*
 * lsi.h - the Lockstep ISA (LSI) as data: instructions, kernels, programs.
 *
 * This is the contract between compiler/ (which produces it) and device/
 * (which runs it). It holds no behaviour beyond tiny accessors.
 *
 * Instruction layout (32 bytes, one per PC):
 *
 *    0      16     24     32             64             96            128   192
 *   +------+------+------+--------------+--------------+--------------+-----+------+
 *   |  op  | aux  | pad  |      d       |      a       |      b       |  c  | imm  |
 *   +------+------+------+--------------+--------------+--------------+-----+------+
 *
 * d, a, b, c are register numbers (or, for CALLB, a is an index into the
 * kernel's arglist and b a count); imm is a 64-bit immediate, a branch target
 * PC, a memory offset or a builtin id, by format. aux carries the address space
 * of a memory op.
 *
 * Device address layout (every pointer a kernel sees):
 *
 *   63    60 59              40 39                              0
 *  +--------+------------------+--------------------------------+
 *  | space  |  allocation id   |           offset               |
 *  +--------+------------------+--------------------------------+
 *
 * space 0 is never valid, so NULL faults. Global and constant allocations are
 * found by id in the device memory table; local addresses are offsets into the
 * work-group's local block; private addresses are offsets into the work-item's
 * private frame. The generic address space needs nothing more.
 */
#ifndef LOCKSTEP_DEVICE_LSI_H
#define LOCKSTEP_DEVICE_LSI_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum lsi_format {
  FMT_NONE, /* -            */
  FMT_RR,   /* d, a         */
  FMT_RRR,  /* d, a, b      */
  FMT_RRRR, /* d, a, b, c   */
  FMT_RI,   /* d, imm       */
  FMT_RRI,  /* d, a, imm    */
  FMT_RRRI, /* d, a, b, imm */
  FMT_LD,   /* d, [a + imm] */
  FMT_ST,   /* [a + imm], b */
  FMT_ATOM, /* d, [a], b, c */
  FMT_BR,   /* imm (pc)     */
  FMT_BRP,  /* a, imm (pc)  */
  FMT_CALL, /* d, builtin imm (arglist a, count b) */
};

enum lsi_flags {
  F_WRITES_D = 1u << 0,
  F_MEM = 1u << 1,
  F_ATOMIC = 1u << 2,
  F_BRANCH = 1u << 3,
  F_MAY_FAULT = 1u << 4,
};

enum lsi_op {
#define LSI_OP(name, fmt, flags, sem) LSI_##name,
#include "device/isa.def"
#undef LSI_OP
  LSI_NUM_OPS
};

extern const char *const lsi_op_name[LSI_NUM_OPS];
extern const uint8_t lsi_op_format[LSI_NUM_OPS];
extern const uint8_t lsi_op_flags[LSI_NUM_OPS];

typedef struct lsi_insn {
  uint16_t op;
  uint8_t aux;
  uint8_t pad;
  uint32_t d, a, b, c;
  int64_t imm;
} lsi_insn;

/* Address spaces: the top 4 bits of a device address. */
enum lsi_space {
  LSI_SPACE_NONE = 0,
  LSI_SPACE_GLOBAL = 1,
  LSI_SPACE_CONSTANT = 2,
  LSI_SPACE_LOCAL = 3,
  LSI_SPACE_PRIVATE = 4,
  LSI_SPACE_GENERIC = 5, /* only as a memory op's aux: resolved by the address */
};

#define LSI_ADDR_SPACE_SHIFT 60
#define LSI_ADDR_ID_SHIFT    40
#define LSI_ADDR_ID_BITS     20
#define LSI_ADDR_OFFSET_MASK ((UINT64_C(1) << LSI_ADDR_ID_SHIFT) - 1)
#define LSI_ADDR(space, id, off)                                                                   \
  (((uint64_t)(space) << LSI_ADDR_SPACE_SHIFT) | ((uint64_t)(id) << LSI_ADDR_ID_SHIFT) |           \
   ((uint64_t)(off)&LSI_ADDR_OFFSET_MASK))
#define LSI_ADDR_SPACE(a) ((unsigned)((uint64_t)(a) >> LSI_ADDR_SPACE_SHIFT))
#define LSI_ADDR_ID(a)                                                                             \
  ((unsigned)(((uint64_t)(a) >> LSI_ADDR_ID_SHIFT) & ((1u << LSI_ADDR_ID_BITS) - 1)))
#define LSI_ADDR_OFFSET(a) ((uint64_t)(a)&LSI_ADDR_OFFSET_MASK)

/* Special registers read by SREG; X/Y/Z are consecutive. */
enum lsi_sreg {
  LSI_SREG_GLOBAL_ID_X,
  LSI_SREG_GLOBAL_ID_Y,
  LSI_SREG_GLOBAL_ID_Z,
  LSI_SREG_LOCAL_ID_X,
  LSI_SREG_LOCAL_ID_Y,
  LSI_SREG_LOCAL_ID_Z,
  LSI_SREG_GROUP_ID_X,
  LSI_SREG_GROUP_ID_Y,
  LSI_SREG_GROUP_ID_Z,
  LSI_SREG_GLOBAL_SIZE_X,
  LSI_SREG_GLOBAL_SIZE_Y,
  LSI_SREG_GLOBAL_SIZE_Z,
  LSI_SREG_LOCAL_SIZE_X, /* of this work-group (non-uniform aware) */
  LSI_SREG_LOCAL_SIZE_Y,
  LSI_SREG_LOCAL_SIZE_Z,
  LSI_SREG_ENQ_LOCAL_SIZE_X, /* get_enqueued_local_size */
  LSI_SREG_ENQ_LOCAL_SIZE_Y,
  LSI_SREG_ENQ_LOCAL_SIZE_Z,
  LSI_SREG_NUM_GROUPS_X,
  LSI_SREG_NUM_GROUPS_Y,
  LSI_SREG_NUM_GROUPS_Z,
  LSI_SREG_GLOBAL_OFFSET_X,
  LSI_SREG_GLOBAL_OFFSET_Y,
  LSI_SREG_GLOBAL_OFFSET_Z,
  LSI_SREG_WORK_DIM,
  LSI_SREG_LOCAL_LINEAR_ID,
  LSI_SREG_GLOBAL_LINEAR_ID,
  LSI_SREG_SUB_GROUP_ID,
  LSI_SREG_SUB_GROUP_LOCAL_ID,
  LSI_SREG_SUB_GROUP_SIZE,
  LSI_SREG_MAX_SUB_GROUP_SIZE,
  LSI_SREG_NUM_SUB_GROUPS,
  LSI_SREG_PRIVATE_BASE, /* private address of offset 0 of this work-item */
  LSI_NUM_SREGS
};

/* Reasons for TRAP (and device exceptions in general). */
enum lsi_trap {
  LSI_TRAP_NONE,
  LSI_TRAP_OUT_OF_BOUNDS,
  LSI_TRAP_MISALIGNED,
  LSI_TRAP_RELEASED_BUFFER,
  LSI_TRAP_WRITE_READ_ONLY,
  LSI_TRAP_DIV_ZERO,
  LSI_TRAP_BARRIER_DIVERGENCE,
  LSI_TRAP_NO_FORWARD_PROGRESS,
  LSI_TRAP_WATCHDOG,
  LSI_TRAP_ASSERT,
  LSI_TRAP_UNREACHABLE,
  LSI_TRAP_UNSUPPORTED,
  LSI_TRAP_IMAGE,      /* an image access the specification leaves undefined, or a bad image */
  LSI_TRAP_COLLECTIVE, /* work-group function arguments the specification leaves undefined */
  LSI_TRAP_PIPE,       /* a bad pipe, reserve id or packet index */
};

enum lsi_arg_kind {
  LSI_ARG_GLOBAL,   /* __global pointer: 8-byte device address (0 = NULL) */
  LSI_ARG_CONSTANT, /* __constant pointer: 8-byte device address */
  LSI_ARG_LOCAL,    /* __local pointer: host passes a size, device assigns local offset */
  LSI_ARG_VALUE,    /* scalar or vector by value: nregs registers of elem_size bytes */
  LSI_ARG_BYVAL,    /* struct by value: copied to the private frame at priv_offset */
  LSI_ARG_SAMPLER,
  LSI_ARG_IMAGE,
  LSI_ARG_QUEUE,
  LSI_ARG_PIPE, /* a pipe: the 8-byte device address of its storage (device/pipe.h) */
};

struct lsi_arg {
  char *name;                 /* source name (may be empty without -cl-kernel-arg-info data) */
  char *type_name;            /* e.g. "float*", "int4" */
  uint32_t kind;              /* enum lsi_arg_kind */
  uint32_t size;              /* bytes clSetKernelArg takes (pointers: sizeof(cl_mem)) */
  uint32_t align;             /* alignment the value needs in the private frame / local block */
  uint32_t reg;               /* first register receiving the value */
  uint32_t nregs;             /* VALUE: number of element registers (1 for scalars) */
  uint32_t elem_size;         /* VALUE: bytes per element register */
  uint32_t priv_offset;       /* BYVAL: offset of the copy in the private frame */
  uint32_t buf_offset;        /* where the runtime packs this argument in the launch's argbuf */
  uint32_t address_qualifier; /* CL_KERNEL_ARG_ADDRESS_* */
  uint32_t access_qualifier;  /* CL_KERNEL_ARG_ACCESS_* */
  uint32_t local_align;       /* LOCAL: alignment of the pointee (a power of two; 0: none known) */
  uint64_t type_qualifier;    /* CL_KERNEL_ARG_TYPE_* bits */
};

/* A constant register: rows [0, nconst) of every warp's register file. */
struct lsi_const {
  uint64_t value;
  uint32_t reloc; /* enum lsi_const_reloc */
};
enum lsi_const_reloc {
  LSI_CONST_PLAIN = 0, /* value as is */
  LSI_CONST_DATA = 1,  /* program data segment address + value */
  LSI_CONST_UNDEF = 2, /* an undefined value (value 0), for the uninitialised-value checker */
};

/* Debug tables: the compiler fills them, the debugger reads them. */
struct lsi_line {
  uint32_t file; /* index into lsi_program.files */
  uint32_t line; /* 0 = no line */
};

struct lsi_kernel {
  char *name;
  char *attributes; /* CL_KERNEL_ATTRIBUTES string */
  uint32_t nregs;   /* total registers per lane, including the constant rows */
  uint32_t nconst;
  struct lsi_const *consts;
  uint32_t nargs;
  struct lsi_arg *args;
  uint32_t argbuf_size; /* bytes of the packed argument buffer */
  uint32_t ninsns;
  lsi_insn *code;
  uint32_t narglist; /* CALLB operand registers */
  uint32_t *arglist;
  uint32_t private_size;    /* bytes of private frame per work-item (allocas + byval) */
  uint32_t local_size;      /* bytes of static __local data per work-group */
  uint64_t reqd_wg_size[3]; /* 0 = none */
  uint64_t wg_size_hint[3]; /* 0 = none */
  struct lsi_line *lines;   /* ninsns entries: source position of each PC */
  void *debug;              /* compiler-owned debug tables (cc_debug), may be NULL */
};

struct lsi_program {
  uint32_t nkernels;
  struct lsi_kernel *kernels;
  uint32_t data_size; /* program-scope __global/__constant data segment */
  uint8_t *data_init; /* data_size bytes of initial contents */
  /* Offsets of the 8-byte pointers in the segment that hold a segment
   * offset (`global int *p = &a[1];`): the segment's device address is
   * added when the segment is instantiated (lsi_data_image). */
  uint32_t ndata_relocs;
  uint32_t *data_relocs;
  uint32_t nfiles;
  char **files; /* source file names for lsi_line.file */
  /* built from source: its text and the build options (the debugger shows
   * the one and rebuilds with -g from both); NULL when linked */
  char *source, *options;
};

/* Bytes a load or store (LD8..LD64, ST8..ST64) accesses. */
static inline unsigned lsi_mem_size(unsigned op) {
  switch (op) {
  case LSI_LD8:
  case LSI_ST8: return 1;
  case LSI_LD16:
  case LSI_ST16: return 2;
  case LSI_LD32:
  case LSI_ST32: return 4;
  default: return 8;
  }
}

/* Alignment of a __local pointer argument's block in the work-group's local
 * memory: its pointee's, at least 16; 128 (the widest OpenCL type, long16)
 * when the pointee is unknown (void). */
static inline uint64_t lsi_local_arg_align(const struct lsi_arg *a) {
  return !a->local_align ? 128 : a->local_align < 16 ? 16 : a->local_align;
}

/* The work-group's local memory: the kernel's static __local data, then the
 * block of each __local argument (its size in argbuf), each aligned. Puts
 * argument j's offset in offs[j] (offs may be NULL); returns the total. */
static inline uint64_t lsi_local_layout(const struct lsi_kernel *k, const uint8_t *argbuf,
                                        uint64_t *offs) {
  uint64_t off = k->local_size;
  for (uint32_t j = 0; j < k->nargs; j++) {
    const struct lsi_arg *a = &k->args[j];
    if (a->kind != LSI_ARG_LOCAL) continue;
    uint64_t sz, al = lsi_local_arg_align(a);
    memcpy(&sz, argbuf + a->buf_offset, 8);
    off = (off + al - 1) & ~(al - 1);
    if (offs) offs[j] = off;
    off += sz;
  }
  return off;
}

/* The program's data segment as a device mapped at base sees it: the
 * initial contents with every pointer in it relocated. dst has data_size
 * bytes. */
static inline void lsi_data_image(const struct lsi_program *p, uint8_t *dst, uint64_t base) {
  memcpy(dst, p->data_init, p->data_size);
  for (uint32_t i = 0; i < p->ndata_relocs; i++) {
    uint64_t v;
    memcpy(&v, dst + p->data_relocs[i], 8);
    v += base;
    memcpy(dst + p->data_relocs[i], &v, 8);
  }
}

#endif
