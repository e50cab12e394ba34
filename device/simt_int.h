/*
 * simt_int.h - the SIMT engine's internal structures, shared by its files
 * (simt.c: launches, work-groups and the warp scheduler; interp.c: the
 * interpreter; deque.c: the divergence token deque; builtins.c). Nothing
 * outside device/ includes this.
 */
#ifndef LOCKSTEP_DEVICE_SIMT_INT_H
#define LOCKSTEP_DEVICE_SIMT_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "device/check.h"
#include "device/dev.h"
#include "device/lsi.h"
#include "device/mem.h"

#define SIMT_MAX_W 64

/* Register bits as float/double and back (registers are 64-bit rows). */
static inline float f32(uint64_t v) {
  uint32_t u = (uint32_t)v;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint64_t uf32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline double f64(uint64_t v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}
static inline uint64_t uf64(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

/* Token types, which are also the reasons a lane can be disabled for. */
enum simt_tok {
  SIMT_TOK_SYNC = 0,
  SIMT_TOK_DIV = 1,
  SIMT_TOK_CALL = 2,
  SIMT_TOK_BRK = 3,
  SIMT_TOK_CONT = 4,
  SIMT_TOK_YIELD = 5,
  SIMT_REASON_BAR = 6,   /* a reason only: lanes waiting at a barrier */
  SIMT_REASON_SGBAR = 7, /* a reason only: lanes waiting at a sub-group barrier */
  SIMT_NREASONS = 8,
};

/*
 * A token: a lane mask (up to 64 lanes) and an info word:
 *   bits 0-3 type, bits 4-11 one bit per token type present below this token
 *   (the seed's summary bits), bits 32-63 target pc.
 * simt_token_pack/unpack give the seed's compact 64-bit form for W <= 32 and
 * pc < 2^22: type 0-3, mask 4-35, pc 36-57, summary 58-61.
 */
typedef struct simt_token {
  uint64_t mask;
  uint64_t info;
} simt_token;

static inline simt_token simt_token_make(unsigned type, uint64_t mask, uint32_t pc) {
  simt_token t = {mask, (uint64_t)(type & 15u) | ((uint64_t)pc << 32)};
  return t;
}
static inline unsigned simt_token_type(simt_token t) {
  return (unsigned)(t.info & 15u);
}
static inline uint32_t simt_token_pc(simt_token t) {
  return (uint32_t)(t.info >> 32);
}
static inline unsigned simt_token_below(simt_token t) {
  return (unsigned)(t.info >> 4) & 0xffu;
}
/* The type of the token SSY/SYNC, PBRK/BRK or PCONT/CONT push or join. */
static inline unsigned simt_token_of(unsigned op) {
  return op == LSI_SSY || op == LSI_SYNC   ? SIMT_TOK_SYNC
         : op == LSI_PBRK || op == LSI_BRK ? SIMT_TOK_BRK
                                           : SIMT_TOK_CONT;
}
uint64_t simt_token_pack(simt_token t);
simt_token simt_token_unpack(uint64_t v);

/* The per-warp double-sided token queue. Tokens live in buf[head, tail);
 * the front is head. Pushing past either end re-centres (growing when full). */
struct simt_deque {
  simt_token *buf;
  unsigned cap, head, tail;
  unsigned recentres; /* how many times an end overflowed */
};

bool simt_deque_init(struct simt_deque *q, unsigned cap);
void simt_deque_free(struct simt_deque *q);
static inline void simt_deque_clear(struct simt_deque *q) {
  q->head = q->tail = q->cap / 2;
}
bool simt_deque_push_front(struct simt_deque *q, simt_token t);
bool simt_deque_push_back(struct simt_deque *q, simt_token t);
static inline unsigned simt_deque_size(const struct simt_deque *q) {
  return q->tail - q->head;
}
static inline simt_token simt_deque_pop_front(struct simt_deque *q) {
  return q->buf[q->head++];
}

enum simt_warp_state {
  SIMT_WARP_RUN,
  SIMT_WARP_BARRIER, /* every live lane waits at a barrier */
  SIMT_WARP_DONE,
  SIMT_WARP_FAULT,
};

struct simt_warp {
  uint32_t pc;
  uint32_t state;
  uint64_t active;              /* lanes executing at pc */
  uint64_t live;                /* lanes that have not exited */
  uint64_t exist;               /* lanes that are work-items of the group */
  uint64_t dis[SIMT_NREASONS];  /* disabled lanes, by reason */
  uint32_t lane_pc[SIMT_MAX_W]; /* where a disabled lane resumes */
  /* Set where the lanes bar_lanes all came to a barrier at once (so all
   * resume at bar_at), cleared at its release: the release need not read
   * their resume pcs. */
  uint64_t bar_lanes;
  uint32_t bar_at;
  struct simt_deque dq;
  uint64_t *reg;               /* nregs rows of W lanes */
  uint8_t *priv;               /* W private frames */
  unsigned index;              /* warp number in its work-group */
  bool rows_set;               /* its constant and argument rows are this launch's */
  uint32_t lid[3][SIMT_MAX_W]; /* local id of each lane */
  uint64_t lid_shape[3];       /* the work-group size lid was made for (0: none) */
  uint64_t epoch, spins;       /* stack mode's forward-progress watchdog */
  /* Forward progress (default mode): the warp's own state at its last
   * SIMT_HANG_SAMPLE-th yield, and the work-group's round it was taken in
   * (simt_cu.hang_round + 1; 0: none yet). */
  uint64_t yields, hang_own, hang_round;
};

/* Every lane of a warp of width W. */
static inline uint64_t simt_lanes_mask(unsigned W) {
  return W >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << W) - 1;
}

/* The lanes disabled for any of the first n reasons (enum simt_tok). One
 * load per word: the native code writes them a word at a time just before,
 * and a wider load of two words still in the store buffer cannot take them
 * from it (it waits until both are written), which cost a barrier's wait
 * a third of its time. volatile keeps the compiler from merging the loads. */
static inline uint64_t simt_waiting(const struct simt_warp *w, unsigned n) {
  const volatile uint64_t *dis = w->dis;
  uint64_t m = 0;
  for (unsigned r = 0; r < n; r++)
    m |= dis[r];
  return m;
}

/* The lanes of m whose resume pc is pc: four lanes per compare where the
 * host has SSE2, up to m's last lane. */
static inline uint64_t simt_lanes_at(const struct simt_warp *w, uint64_t m, uint32_t pc) {
  if (!(m & (m - 1))) return m && w->lane_pc[__builtin_ctzll(m)] == pc ? m : 0;
#if defined(__SSE2__)
  unsigned n = 64 - (unsigned)__builtin_clzll(m);
  __m128i p = _mm_set1_epi32((int)pc);
  uint64_t r = 0;
  for (unsigned i = 0; i < n; i += 4) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(w->lane_pc + i));
    r |= (uint64_t)(unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, p))) << i;
  }
  return r & m;
#else
  uint64_t r = 0;
  for (; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    if (w->lane_pc[i] == pc) r |= UINT64_C(1) << i;
  }
  return r;
#endif
}

/* Whether every lane of m resumes at pc: simt_lanes_at(w, m, pc) == m,
 * stopping at the first lane that does not. */
static inline bool simt_lanes_all_at(const struct simt_warp *w, uint64_t m, uint32_t pc) {
#if defined(__SSE2__)
  unsigned n = m ? 64 - (unsigned)__builtin_clzll(m) : 0;
  __m128i p = _mm_set1_epi32((int)pc);
  for (unsigned i = 0; i < n; i += 4) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(w->lane_pc + i));
    unsigned eq = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, p)));
    if (((m >> i) & 15u) & ~eq) return false;
  }
  return true;
#else
  return simt_lanes_at(w, m, pc) == m;
#endif
}

/* Yields between two samples of a warp's state: a multiple of every loop
 * period up to 16 (their least common multiple), so a loop repeating its
 * state every 1..16 iterations shows the same state at every sample. */
#define SIMT_HANG_SAMPLE 720720u

/* What a compute unit is doing, as the forward-progress checks of the
 * others see it: a loop is hung only while no other unit can move. */
enum simt_motion {
  SIMT_MOTION_IDLE, /* between passes, or out of groups */
  SIMT_MOTION_RUN,  /* running (or about to take) a group */
  SIMT_MOTION_SPIN, /* a warp of its group loops in an unchanged state */
};

struct simt_stats {
  uint64_t warp_insns, lane_insns, div_branches, yields, barrier_waits, recentres;
  uint64_t ld_bytes[8], st_bytes[8]; /* by enum lsi_space of the address */
  uint64_t native_slices;            /* warp slices the native engine ran */
};

struct native_ctx;
struct native_count;

/* One launch, shared by every worker running it. */
struct simt_run {
  struct dev_device *dev;
  const struct dev_launch *l; /* == &lc */
  struct dev_launch lc;       /* the launch, dimensions past work_dim set to 1 */
  const struct lsi_kernel *k;
  struct dev_mem *mem;
  unsigned W;
  unsigned sg_W; /* sub-group width when it is not W (the debugger's one-lane warps), else 0 */
  bool stack_mode;
  uint64_t ngroups[3], total_groups;
  uint64_t local_total;    /* bytes of local memory per work-group */
  uint64_t *local_arg_off; /* per kernel arg: local offset (LOCAL args) */
  uint64_t deadline_ns;    /* 0 = no watchdog; set per pass */
  uint64_t watchdog_ns;    /* 0 = no watchdog; the budget of the whole launch */
  uint64_t hang_ns;        /* a warp whose sampled state stays the same this long
                              makes no forward progress (LOCKSTEP_PROGRESS_MS) */
  uint64_t ran_ns;         /* time spent in passes so far */
  unsigned passes;         /* passes that ran work-groups */
  bool print_stats;        /* LOCKSTEP_STATS: one line when the launch closes */
  struct simt_cu *cus;     /* one compute unit per pool worker, kept across passes */
  unsigned ncus;
  /* the device's open launches (dev_device_open_runs), this one's next */
  struct simt_run *next_open;
  _Atomic bool starting; /* no pass has begun (its code compiles, say) */
  /* written by every worker for every group it takes: no other field
   * shares its cache line, so the fields read beside it stay in every
   * core's cache */
  char line_before[56];
  _Atomic uint64_t next_group;
  char line_after[56];
  uint64_t end_group;           /* no group at or past this is handed out */
  const struct simt_pass *pass; /* NULL: the whole launch */
  _Atomic int stop;
  const uint8_t *dbg_stop_at; /* debugger: per-pc flags; a warp returns (state RUN) on
                                 reaching a flagged pc after running at least one insn,
                                 and before any instruction once stop is set */
  pthread_mutex_t mu;         /* exc, have_exc, rc, stats, printf output */
  bool have_exc;
  int rc;
  struct dev_exception exc;
  struct simt_stats stats;
  char *out; /* printf output, flushed when the launch completes */
  size_t out_len, out_cap;
  /* LOCKSTEP_FAULTS=report: invalid accesses are reported once per source
   * line (the lines so far, under mu) and the kernel goes on */
  bool report_faults;
  struct simt_reported *reported;
  unsigned nreported, cap_reported;
  /* LOCKSTEP_CHECK (check.h): the launch's checker bits (0: no checker code
   * runs) and each checker's launch state */
  unsigned check;
  struct simt_race_run *race;
  /* the native engine's warp function (native.h), or NULL: the interpreter;
   * native_ok: the launch may use it (its interpreted work is accounted) */
  bool native_ok;
  void *native_acct; /* where its interpreted work is accounted (native_code) */
  int (*native)(struct native_ctx *x, uint64_t *reg, struct native_count *n);
  /* the native engine's launch: no instruction writes a constant or
   * argument register (native_rows_fixed), so warps keep those rows */
  bool keep_rows;
  const struct simt_check_stop *check_stop; /* the debugger's, or NULL */
};

/* A source line (or, without line information, an instruction) whose
 * invalid access was reported. */
struct simt_reported {
  uint32_t file, line;
};

/* One worker thread's compute unit: the resident work-group and its warps. */
/* The work-group pipe reservation a compute unit's group is making
 * (device/builtins_pipe.c). */
struct simt_pipe_wg {
  const struct simt_run *run;
  uint64_t group[3];
  uint64_t arrived; /* work-items that reached the call so far */
  uint64_t rid;     /* the group's reserve id */
};

/* What the native engine's code counts (native.h), in its own memory
 * (never given to a call, so LLVM keeps it in registers); added to the
 * unit's statistics when its pass ends (simt_native_fold). */
struct native_count {
  int64_t budget;      /* branch points left in the slice */
  uint64_t epoch;      /* stores made (cu->epoch grows by it after each native_warp_run) */
  uint64_t warp_insns; /* statistics */
  uint64_t lane_insns;
  uint64_t ld_bytes[8], st_bytes[8];
  uint64_t slices;
  uint64_t yields, div_branches; /* taken in line (the others count in interp.c) */
};

/* The native engine's cache of the allocations a pass's accesses
 * were checked against (by access kind, then allocation id & 3). */
struct simt_ncache {
  uint64_t key; /* address >> LSI_ADDR_ID_SHIFT; ~0: empty */
  uint8_t *host;
  uint64_t size;
};
#define SIMT_NCACHE 4

struct simt_cu {
  struct simt_run *run;
  struct simt_ncache ncache[2][SIMT_NCACHE];
  struct native_count nc;
  uint64_t nsreg[LSI_NUM_SREGS];
  uint64_t group_id[3];
  uint64_t group_size[3]; /* this group's (non-uniform aware) local size */
  uint64_t nitems;
  unsigned nwarps, cap_warps;
  struct simt_warp *warps;
  uint8_t *local;
  uint64_t epoch;        /* bumped by stores, exits, barriers, new groups and changed
                            sampled states (progress) */
  _Atomic uint64_t beat; /* epoch as other compute units see it, published after
                            every slice of a warp (or the native engine's run of
                            several warps' slices) and every barrier the native
                            engine releases in such a run */
  _Atomic int motion;    /* enum simt_motion, for the forward-progress check */
  /* Forward progress (default mode): rounds completed since the group began
   * (a round ends when every running warp has sampled itself), the group's
   * state at the last one, and since when it has been the same. */
  uint64_t hang_round, hang_hash, hang_since_ns;
  /* work-groups taken at a time, and when the last batch began
   * (cu_pass_stopped) */
  uint64_t batch, batch_at;
  bool faulted;
  struct dev_exception exc; /* its first fault (the launch keeps the first of all) */
  uint8_t *sink; /* LOCKSTEP_FAULTS=report: where a dropped access goes (zeroed for loads) */
  uint64_t sink_cap;
  struct simt_stats st;
  struct simt_pipe_wg pipe_wg;
  /* LOCKSTEP_CHECK (check.h): each checker's state for this unit, and the
   * unit's reports (merged when the launch closes) */
  struct simt_race_cu *race;
  struct simt_uninit_cu *uninit;
  struct simt_check_rec *recs;
  unsigned nrecs, cap_recs, last_rec;
};

/* One lane of a warp, as the builtins see it. */
struct simt_lane {
  struct simt_cu *cu;
  struct simt_warp *w;
  unsigned lane;
  uint32_t pc;
  /* whole-warp builtins only: the live work-items of the sub-group, as
   * bits numbered like act's (the debugger runs each work-item as a warp
   * of its own, so this is not always w->live) */
  uint64_t live;
};

/* Records a device exception for that lane (first one of the launch wins)
 * and stops the launch. fmt gives the message. */
void simt_fault(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc, int trap,
                uint64_t addr, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Slow path of an access check: reports the fault and returns NULL. kind is
 * 0 load, 1 store, 2 atomic. With LOCKSTEP_FAULTS=report it reports the
 * access once per source line instead and returns cu->sink: size bytes that
 * read as 0 and swallow stores (NULL, after a fault, only when that much
 * host memory is not to be had). */
void *simt_mem_fault(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                     uint64_t addr, uint64_t size, int kind);

/* An SVM access may be made to e (NULL: outside every live allocation). */
static inline bool svm_ok(const struct dev_mem_entry *e, int kind) {
  return e && !(kind && e->read_only);
}

/* Host pointer for an access of size bytes at addr by that lane, or NULL
 * after reporting a device exception (or cu->sink, see simt_mem_fault). */
static inline __attribute__((always_inline)) void *simt_mem(struct simt_cu *cu, struct simt_warp *w,
                                                            unsigned lane, uint32_t pc,
                                                            uint64_t addr, uint64_t size,
                                                            int kind) {
  uint64_t off = LSI_ADDR_OFFSET(addr);
  switch (LSI_ADDR_SPACE(addr)) {
  case LSI_SPACE_GLOBAL:
  case LSI_SPACE_CONSTANT: {
    struct dev_mem_entry *e = dev_mem_entry(cu->run->mem, addr);
    if (e && atomic_load_explicit(&e->state, memory_order_acquire) == DEV_MEM_LIVE &&
        off + size <= e->size && off + size >= off && (off & (size - 1)) == 0 &&
        !(kind && e->read_only))
      return e->host + off;
    break;
  }
  case LSI_SPACE_LOCAL:
    if (LSI_ADDR_ID(addr) == 0 && off + size <= cu->run->local_total && off + size >= off &&
        (off & (size - 1)) == 0)
      return cu->local + off;
    break;
  case LSI_SPACE_PRIVATE:
    if (LSI_ADDR_ID(addr) == 0 && off + size <= cu->run->k->private_size && off + size >= off &&
        (off & (size - 1)) == 0)
      return w->priv + (uint64_t)lane * cu->run->k->private_size + off;
    break;
  case LSI_SPACE_NONE: /* an SVM address: the host address of its storage */
    if ((addr & (size - 1)) == 0 && svm_ok(dev_mem_svm_live(cu->run->mem, addr, size), kind))
      return (void *)(uintptr_t)addr;
    break;
  default: break;
  }
  return simt_mem_fault(cu, w, lane, pc, addr, size, kind);
}

/* Same, for a range of bytes with no alignment requirement (memcpy, vload
 * of bytes, printf strings). kind may carry SIMT_ACC_GROUP for the
 * checkers. */
void *simt_mem_range(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                     uint64_t addr, uint64_t size, int kind);

/* Names the buffer a global address points into ("buffer 'out' (argument
 * 1)") into buf. */
void simt_buffer_name(struct simt_run *run, uint64_t addr, char *buf, size_t n);

/* simt_launch(), also returning the launch's counters (stats may be NULL). */
int simt_launch_stats(struct dev_device *d, const struct dev_launch *l, struct dev_exception *exc,
                      struct simt_stats *stats);

/* simt.c, for the debugger's full-speed passes (simt_dbg_pass.c): sets cu
 * up for work-group g as at launch (ids, sizes, zeroed local memory, fresh
 * warps; false after reporting out of memory); releases cu's work-group
 * barrier once every warp waits at it or is done (false after reporting
 * barrier divergence). */
/* A one-line report of something the kernel goes on past (a checking
 * setting asked for it), once per launch and source line. */
void simt_note(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc, int trap,
               const char *msg);
/* Whether the pass hands out no more work-groups (its caller stopped it,
 * or its deadline passed after it handed out one). */
bool simt_pass_stopped(struct simt_run *run);
bool simt_group_begin(struct simt_cu *cu, uint64_t g);
/* Work-group g's coordinates (g runs along dimension 0 first). */
void simt_group_coords(const struct simt_run *run, uint64_t g, uint64_t gid[3]);
bool simt_barrier_release(struct simt_cu *cu);
/* At the end of a round of a work-group's warps: false where the group
 * stops there (the launch was stopped, or the watchdog's deadline passed:
 * a fault). */
bool simt_round_goes_on(struct simt_cu *cu);
/* Whether another launch open on the device may still move: one whose
 * first pass has not begun (being opened: its code compiles, say), or one
 * with a compute unit running a group. A launch whose loops wait for
 * another's results is then not stopped for making no forward progress
 * before the other starts; a launch switched out (by a higher priority,
 * say) does not count, nor one whose loops spin too. */
bool simt_other_launch_moves(const struct simt_run *run);
/* The barrier cu's warps wait at resumes at pc resume: when the call
 * before it is a work-group function (LSI_BI_GROUP), computes every
 * work-item's result from the whole group's arguments
 * (device/builtins_group.c). False after reporting a fault. */
bool simt_group_call(struct simt_cu *cu, uint32_t resume);

/* Runs warp w of cu until it exits, waits at a barrier, faults, or has run
 * about budget warp instructions. Returns its new state. */
int simt_warp_run(struct simt_cu *cu, struct simt_warp *w, uint64_t budget);

/* Adds what the native engine counted on cu to its statistics. */
void simt_native_fold(struct simt_cu *cu);

/* Runs exactly one instruction of w (the native engine's way to the
 * interpreter for what it does not compile). Returns its new state; *ticks
 * is the branch points it used (0 or 1), which the caller's slice counts
 * as the interpreter's would. */
int simt_warp_step(struct simt_cu *cu, struct simt_warp *w, unsigned *ticks);

/* The control flow both engines share (interp.c), act the active lanes at
 * pc. Each returns false after reporting a fault unless it says otherwise.
 * simt_diverge: lanes nt of a branch at pc fall through later (a token).
 * simt_push_token: SSY, PBRK or PCONT (op) pushes its token.
 * simt_join: SYNC, BRK or CONT (op); false when no token waits (the
 *   instruction is a plain branch to target), true after unwinding.
 * simt_yield: YIELD; unwinds. simt_barrier_wait: the lanes wait at a
 * barrier; simt_exit_lanes: they finish; both unwind. */
bool simt_diverge(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t nt);
bool simt_push_token(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, unsigned op,
                     uint64_t act, uint32_t target);
bool simt_join(struct simt_cu *cu, struct simt_warp *w, unsigned op, uint64_t act, uint32_t target);
bool simt_yield(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act);
void simt_barrier_wait(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act);
void simt_exit_lanes(struct simt_cu *cu, struct simt_warp *w, uint64_t act);

/* Disables the active lanes of w (their pc already in lane_pc) and unwinds
 * the deque (seed 004); sets w->pc/active or the warp's state. */
void simt_unwind(struct simt_cu *cu, struct simt_warp *w);

/* Special register value for one lane. */
uint64_t simt_sreg(struct simt_cu *cu, struct simt_warp *w, unsigned lane, unsigned sreg);

/* Appends printf output for the launch. */
void simt_output(struct simt_run *run, const char *s, size_t n);

#endif
