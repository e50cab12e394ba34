/*
 * kgen.h - a generator of random OpenCL C kernels for the differential test
 * of the execution engines (test_engines.c): from a seed, one kernel "gen"
 * that is either straight-line arithmetic over every scalar type or branchy
 * code (data-dependent if/else chains, bounded loops with break and
 * continue, switch, early return, private, __local and global arrays,
 * barriers in uniform control flow, order-independent atomics), optionally
 * with one deliberate fault. Every kernel it writes is free of undefined
 * behaviour, so any two correct engines give the same bits. It knows
 * nothing of devices; the same seed gives the same text on every machine.
 *
 * The kernel's signature:
 *   __kernel void gen(__global const ulong *in, __global ulong *oi,
 *                     __global double *of, __global uint *scr,
 *                     __global uint *cnt, int ka, float kf, uint rounds)
 * in: KGEN_IN values per work-item (kgen_input fills them); oi and of: the
 * results, ni integer and nf floating-point slots per work-item; scr:
 * KGEN_SCR words per work-item that only that work-item touches; cnt:
 * KGEN_CNT atomic counters; rounds: the trip count of the loops that hold
 * barriers (uniform). The local size must not exceed KGEN_LMAX.
 */
#ifndef LOCKSTEP_TESTS_KGEN_H
#define LOCKSTEP_TESTS_KGEN_H

#include <stdint.h>

#define KGEN_IN   8  /* input values per work-item */
#define KGEN_SCR  8  /* scratch words per work-item */
#define KGEN_CNT  8  /* global atomic counters */
#define KGEN_LMAX 64 /* the largest local size the __local arrays hold */

enum kgen_kind { KGEN_STRAIGHT, KGEN_BRANCHY };

/* The fault a kernel makes in work-item fault_gid (kgen_make). */
enum kgen_fault {
  KGEN_NO_FAULT,
  KGEN_GLOBAL_OOB,        /* a global load or store past the end of its buffer */
  KGEN_MISALIGNED,        /* a 4-byte global access at an odd address */
  KGEN_DIVERGENT_BARRIER, /* a barrier only one work-item of its group reaches */
  KGEN_PRIVATE_OOB,       /* a private array indexed far past its end */
  KGEN_WARP_OOB,          /* whole warps' consecutive accesses running past a buffer's end */
  KGEN_NFAULTS
};

/* What a kernel holds, counted while it is written. */
struct kgen_stats {
  unsigned lines, branches, loops, barriers, atomics, calls;
};

struct kgen_kernel {
  char *src;       /* malloc'd OpenCL C source */
  unsigned ni, nf; /* integer (ulong) and floating (double) result slots per work-item */
  struct kgen_stats st;
};

/* Writes the kernel for seed; fault_gid only matters with a fault. */
void kgen_make(struct kgen_kernel *k, uint64_t seed, enum kgen_kind kind, enum kgen_fault fault,
               unsigned fault_gid);
void kgen_free(struct kgen_kernel *k);

/* The generator's random numbers (splitmix64): the next value of *state. */
uint64_t kgen_rand(uint64_t *state);
/* An input value for slot j (0 .. KGEN_IN-1) of a work-item: the slot's
 * type decides the mix of ordinary and edge values (zeros, extremes,
 * infinities, NaNs, denormals). */
uint64_t kgen_input(uint64_t *state, unsigned j);

#endif
