/*
 * check.h - the device's checkers beyond bounds checking (LOCKSTEP_CHECK):
 * the setting, the per-launch report table and the report path that every
 * checker shares. The data-race checker (race.c) is the first; the
 * uninitialised-value checker plugs into the same contract:
 *
 *  1. Setting. It owns a bit of enum dev_check; dev_check_parse() knows its
 *     name. A bit in DEV_CHECK_RESERVED is accepted by the parser and said to
 *     be not yet available; move it to DEV_CHECK_AVAILABLE when it works.
 *     run->check holds the launch's bits (simt_open); with none set no
 *     checker code runs: the interpreter tests run->check once per memory
 *     instruction (one predictable branch).
 *  2. State. A checker keeps its per-launch state behind its own pointer in
 *     struct simt_run and its per-compute-unit state (shadow of local and
 *     private memory, of registers) behind its own pointer in struct simt_cu,
 *     created lazily (simt_check_group() on each new work-group) and freed by
 *     simt_check_close(). Global shadow lives with the launch, per buffer,
 *     allocated on first touch only when the checker is on.
 *  3. Reports. A checker counts every instance it finds with
 *     simt_check_count(kind, pc of one access, pc of the other): instances on
 *     the same pair of source lines are one report per launch with a count.
 *     When it returns a record the caller writes the report's text into it
 *     (the instance kept is the one with the smallest order key, so the text
 *     is the same whatever the threads' interleaving). No lock is needed:
 *     records are per compute unit and merged when the launch closes.
 *  4. Output. simt_check_close() prints each report once on stderr with its
 *     count ("lockstep: <text> (N times)") and appends one record a line to
 *     the file LOCKSTEP_CHECK_LOG names, for `lockstep check`:
 *       kind TAB kernel TAB file:line TAB file:line TAB count TAB text
 *     (kind is the checker's name in LOCKSTEP_CHECK; a line without a file
 *     is "?:LINE", without line information "pc:N").
 *  5. Debugger. Under the debugger (simt_dbg_pass.c) a report stops the
 *     launch like a device exception: run->check_stop is offered each
 *     record new to a compute unit, and when it takes one every warp stops
 *     at its next instruction boundary, the reporting warp before the
 *     instruction whose check reported (a builtin's access: after it). The
 *     pass then takes the records (simt_check_take) for the launch's end.
 */
#ifndef LOCKSTEP_DEVICE_CHECK_H
#define LOCKSTEP_DEVICE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The checkers, as bits of LOCKSTEP_CHECK (struct dev_config.check). */
enum dev_check {
  DEV_CHECK_RACES = 1u << 0,  /* data races on local and global memory (race.c) */
  DEV_CHECK_UNINIT = 1u << 1, /* uninitialised values (uninit.c) */
};
#define DEV_CHECK_AVAILABLE (DEV_CHECK_RACES | DEV_CHECK_UNINIT)
#define DEV_CHECK_RESERVED  0u

/* Parses a comma list of checker names ("races", "uninit"; "none" or empty
 * for none) into *mask. Returns 0, or -1 with why filled (an unknown name).
 * A reserved checker is kept out of *mask and named in note (empty when
 * none): the caller says it is not available yet. */
int dev_check_parse(const char *s, unsigned *mask, char *why, size_t nwhy, char *note,
                    size_t nnote);
/* The name of one checker bit ("races"), as LOCKSTEP_CHECK spells it. */
const char *dev_check_name(unsigned bit);

/* A barrier's fence flags, as OpenCL C's CLK_LOCAL_MEM_FENCE and
 * CLK_GLOBAL_MEM_FENCE (the BAR instruction's imm). */
#define SIMT_FENCE_LOCAL  1u
#define SIMT_FENCE_GLOBAL 2u

/* Kinds of memory access a checker sees (0-2 as simt_mem's kind). */
enum simt_access {
  SIMT_ACC_READ = 0,
  SIMT_ACC_WRITE = 1,
  SIMT_ACC_ATOMIC = 2,      /* an atomic read-modify-write or store */
  SIMT_ACC_ATOMIC_READ = 3, /* an atomic load */
  SIMT_ACC_KIND = 3,        /* the kind, without the flags below */
  SIMT_ACC_GROUP = 4,       /* flag: made for the whole work-group (an async copy's share) */
  SIMT_ACC_AFTER = 8,       /* flag: an atomic's write, announced before as its load */
};

struct simt_run;
struct simt_cu;
struct simt_warp;

/* One report of a launch: a checker and a pair of source lines (sorted, so
 * the pair is the same in either order). */
struct simt_check_rec {
  unsigned kind; /* one bit of enum dev_check */
  uint32_t file[2], line[2];
  uint64_t count;
  uint64_t order; /* of the instance whose text is kept */
  char text[720];
};

/* Counts one instance of kind between the accesses at pc_a and pc_b (the
 * same pc twice for a one-access report). Returns the record when the
 * caller is to write this instance's text (the first, or one of smaller
 * order), else NULL (also when out of memory: the instance is lost). */
struct simt_check_rec *simt_check_count(struct simt_cu *cu, unsigned kind, uint32_t pc_a,
                                        uint32_t pc_b, uint64_t order);

/* A debugger's stop on a report: take() is called on the worker, with no
 * lock held, for each record new to cu (its text is written after it
 * returns) and says whether the launch stops for it. */
struct simt_check_stop {
  bool (*take)(void *arg, struct simt_cu *cu, const struct simt_check_rec *r);
  void *arg;
};

/* Merges the reports of every compute unit of run into the table *recs (*n
 * of *cap; counts add up, the text of the smallest order stays) and
 * empties theirs, so the launch's end reports nothing of them. A record
 * that finds no memory is lost. */
void simt_check_take(struct simt_run *run, struct simt_check_rec **recs, unsigned *n,
                     unsigned *cap);
/* Sorts a table of reports by kind and lines; simt_check_end also appends
 * them to LOCKSTEP_CHECK_LOG (when set), as run's end would. */
void simt_check_sort(struct simt_check_rec *recs, unsigned n);
void simt_check_end(struct simt_run *run, struct simt_check_rec *recs, unsigned n);

/* Appends one report the kernel went on past that is not a checker's (an
 * invalid access under LOCKSTEP_FAULTS=report: kind "fault") to
 * LOCKSTEP_CHECK_LOG, when it is set. */
void simt_check_log(struct simt_run *run, const char *kind, uint32_t pc, const char *text);

/* Launch life cycle, called by simt.c: sets the checkers up for the launch
 * (false after filling why: out of host memory), at each new work-group of
 * a compute unit, at each work-group barrier release (flags: the
 * barrier's CLK_*_MEM_FENCE bits), and at the end (reports, then frees). */
bool simt_check_open(struct simt_run *run, char *why, size_t n);
void simt_check_group(struct simt_cu *cu);
void simt_check_barrier(struct simt_cu *cu, unsigned flags);
/* Every live lane of w passed the sub-group barrier before resume. */
void simt_check_sgbarrier(struct simt_cu *cu, struct simt_warp *w, uint32_t resume);
void simt_check_close(struct simt_run *run);

/* The accesses: one lane's access of size bytes at device address addr, and
 * a warp instruction's (each active lane at base[i] + imm). The address is
 * not yet checked: an invalid one is ignored here (the access path reports
 * it). */
void simt_check_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                       uint64_t addr, uint64_t size, int kind);
void simt_check_warp(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act,
                     const uint64_t *base, int64_t imm, unsigned size, int kind);
/* After the active lanes of w made an atomic operation (simt_check_warp saw
 * it before). */
void simt_check_atomic_done(struct simt_cu *cu, struct simt_warp *w, uint64_t act);

/* race.c, behind the calls above. */
bool simt_race_open(struct simt_run *run);
void simt_race_group(struct simt_cu *cu);
void simt_race_barrier(struct simt_cu *cu, unsigned flags);
void simt_race_sgbarrier(struct simt_cu *cu, struct simt_warp *w, unsigned flags);
void simt_race_warp(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act,
                    const uint64_t *base, int64_t imm, unsigned size, int kind);
void simt_race_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                      uint64_t addr, uint64_t size, int kind);
void simt_race_acquire(struct simt_cu *cu, struct simt_warp *w, uint64_t act);
void simt_race_free_cu(struct simt_cu *cu);
void simt_race_close(struct simt_run *run);

/* uninit.c, behind the calls above, and simt_uninit_step(), which the
 * interpreter calls before each instruction of a warp when the checker is
 * on (act: the lanes about to run it). */
void simt_uninit_group(struct simt_cu *cu);
void simt_uninit_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                        uint64_t addr, uint64_t size, int kind);
void simt_uninit_step(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act);
void simt_uninit_free_cu(struct simt_cu *cu);

#endif
