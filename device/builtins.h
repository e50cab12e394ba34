/*
 * builtins.h - OpenCL C builtins implemented in C on the device, resolved at
 * translation time through one table (device/builtins.def). The table is
 * never searched by name while a kernel runs.
 *
 * Calling convention (the contract between the translator and the device):
 *
 *  - The translator asks lsi_builtin_lookup() for the Itanium-mangled name
 *    clang emits for spir64 (e.g. "_Z3sinf", "_Z3maxii", "_Z13get_global_idj",
 *    "printf"), and when that is absent for the same name with the address
 *    spaces of its pointers dropped: the table lists a builtin that works
 *    on any address space once, with unqualified pointers ("_Z6vload4mPKf",
 *    "_Z7vstore4Dv4_fmPf", "_Z5fractfPf"), and spells the spaces out only
 *    where they change the behaviour (the async copies). -1 means the
 *    table has no such builtin. Names are those of the scalar forms; for a
 *    call on vectors the translator scalarises and calls the scalar form once
 *    per element, except where the table lists the vector form itself
 *    (geometric functions, vstoreN, vector async copies).
 *
 *  - It emits  CALLB d, a, b, imm=id.  kernel->arglist[a .. a+b) names the
 *    argument registers in source order; b == lsi_builtin_nargs(id), or
 *    b >= lsi_builtin_nargs(id) for a variadic builtin (LSI_BI_VARIADIC).
 *
 *  - Each scalar argument is one register in the canonical representation of
 *    device/isa.def (integers zero-extended from their width, whatever their
 *    signedness; f32 in the low 32 bits; f64 in all 64; pointers are device
 *    addresses in any address space). A vector argument of N elements is N
 *    consecutive arglist entries, element 0 first (a 3-vector is 3 entries).
 *
 *  - Results go to registers d, d+1, ... d+nres-1 (one element per register
 *    for a vector result, e.g. vload4 or normalize on a float4), canonical as
 *    above. A builtin with no result ignores d.
 *
 *  - Relational builtins on scalars return int 0 or 1; the translator applies
 *    the vector -1 convention itself.
 *
 *  - LSI_BI_BARRIER (wait_group_events): the call is also a work-group
 *    barrier; the device makes the work-group wait there as at BAR, so the
 *    translator emits nothing more. All work-items of the group must reach it.
 *
 *  - LSI_BI_GROUP (work_group_all/any/broadcast/reduce/scan): a barrier
 *    too; the results are computed when the barrier is released, from the
 *    arguments of every work-item of the group (gfn below), in local linear
 *    order, so a float reduction adds in that order on every warp width.
 *    Reached by only part of the group it is barrier divergence.
 *
 *  - async_work_group_copy and friends: every work-item of the group calls
 *    them with the same arguments (as OpenCL requires); each copies its share
 *    and the copy is complete for everybody after wait_group_events. The
 *    returned event is an opaque non-zero value.
 *
 *  - printf (LSI_BI_VARIADIC, result int): argument 0 is the format string's
 *    device address (constant address space). Then one register per scalar
 *    conversion, in order: integers canonical as above, %c an int, %s the
 *    device address of a NUL-terminated string, %p an address, and floating
 *    conversions (%f %e %g %a, upper case too) a *double* (f64), i.e. after
 *    C's default argument promotion. A vector conversion %vN<len><conv>
 *    takes N registers, one per element, whose type the length modifier
 *    gives: hh 8-bit, h 16-bit (a half, for floating conversions: f16 bits
 *    in the low 16), hl 32-bit (a float in the low 32 bits for floating
 *    conversions), l 64-bit (double for floating conversions). The output of
 *    a launch reaches the host's stdout when the launch completes, in order
 *    per work-item.
 *
 *  - A builtin that faults (e.g. vload out of bounds) raises a device
 *    exception like a load or store instruction does.
 */
#ifndef LOCKSTEP_DEVICE_BUILTINS_H
#define LOCKSTEP_DEVICE_BUILTINS_H

#include <stdbool.h>
#include <stdint.h>

enum lsi_builtin_flags {
  LSI_BI_VARIADIC = 1u << 0, /* takes nargs or more registers */
  LSI_BI_BARRIER = 1u << 1,  /* the call is a work-group barrier too */
  LSI_BI_MEM = 1u << 2,      /* reads or writes memory (may fault) */
  LSI_BI_WARP = 1u << 3,     /* runs once for the whole warp (sub-group collectives) */
  LSI_BI_ENQUEUE = 1u << 4,  /* adds work to an on-device queue (enqueue_kernel, marker) */
  LSI_BI_GROUP = 1u << 5, /* a work-group function: a barrier whose results the release computes */
};

/* Id of the builtin with that mangled name, or -1. Thread-safe. */
int lsi_builtin_lookup(const char *mangled_name);
/* Number of builtins; ids are 0 .. lsi_builtin_count()-1. */
int lsi_builtin_count(void);
/* Per id: its mangled name, result and argument register counts, flags. */
const char *lsi_builtin_name(int id);
unsigned lsi_builtin_nres(int id);
unsigned lsi_builtin_nargs(int id);
unsigned lsi_builtin_flags(int id);

/*
 * Device side (device/ only): one lane's call. res has room for nres
 * registers, arg holds nargs registers; data is the table entry's constant
 * (element size, vector width ...). A faulting builtin reports through
 * simt_fault() (device/simt_int.h) and returns.
 */
struct simt_lane;
typedef void (*lsi_builtin_fn)(struct simt_lane *ln, uint64_t *res, const uint64_t *arg,
                               unsigned nargs, uint32_t data);

/* A whole-warp builtin (LSI_BI_WARP): called once per CALLB with the active
 * mask; ln names the first active lane; arg[j] and res[j] are register rows
 * of W lanes (res may alias arg: read everything before writing). Only the
 * active lanes' results may be written. */
typedef void (*lsi_warp_fn)(struct simt_lane *ln, uint64_t act, unsigned W, uint64_t *const *res,
                            const uint64_t *const *arg, uint32_t data);

/* A work-group function (LSI_BI_GROUP, always with LSI_BI_BARRIER): the
 * call is a work-group barrier, and when the whole group has reached it the
 * release calls gfn once with the n work-items' arguments in local linear
 * order (arg[j][i]: argument j of item i); it writes res[i] for every item.
 * It returns false after reporting a fault through ln (item 0 of the
 * group). The lanes resume after the call with their results. */
typedef bool (*lsi_group_fn)(struct simt_lane *ln, uint64_t n, uint64_t *res,
                             const uint64_t *const *arg, uint32_t data);

struct lsi_builtin {
  const char *name;
  uint8_t nres;
  uint8_t nargs;
  uint8_t flags;
  uint32_t data;
  lsi_builtin_fn fn; /* one lane's call (NULL for LSI_BI_WARP) */
  lsi_warp_fn wfn;   /* LSI_BI_WARP: the whole warp's call */
  lsi_group_fn gfn;  /* LSI_BI_GROUP: the whole work-group's call */
};

/* The table, indexed by id. */
extern const struct lsi_builtin lsi_builtins[];

/* What a builtin does with memory and lanes, for the checkers that follow
 * values through it (device/uninit.c). */
enum lsi_builtin_role {
  LSI_ROLE_OTHER = 0,
  LSI_ROLE_VLOAD,       /* vloadN: result j is the j-th element it reads */
  LSI_ROLE_VLOAD_HALF,  /* vload(a)_half(N): the same, each element a half */
  LSI_ROLE_VSTORE,      /* vstoreN: it writes argument j as the j-th element */
  LSI_ROLE_VSTORE_HALF, /* vstore(a)_half(N): the same, argument j converted to a half */
  LSI_ROLE_ASYNC,       /* async (strided) copies: each element written, then read from */
  LSI_ROLE_SHUFFLE,     /* shuffle / shuffle2: result j is the argument its mask selects */
  LSI_ROLE_BCAST,       /* sub_group_broadcast: every lane gets one lane's argument */
  LSI_ROLE_SG_ALL,      /* sub-group reduce / any / all: every active lane's argument counts */
  LSI_ROLE_SG_SCAN,     /* sub-group scans: the arguments of the lanes up to this one count */
  LSI_ROLE_QUEUE,       /* device-side enqueue, events, ndrange: the memory is the device's own */
};
enum lsi_builtin_role lsi_builtin_role(const struct lsi_builtin *bi);

#endif
