/*
 * interp.c - the LSI interpreter: runs one warp, one instruction at a time,
 * each instruction a loop over the warp's active lanes. Registers are rows of
 * W 64-bit lanes. Every memory access goes through simt_mem(). Divergence
 * uses the token deque (deque.c).
 *
 * Opcode bodies stay a few lines each; anything longer belongs in a helper.
 * The code was validated at launch (simt.c), so no operand is checked here.
 * Dispatch is computed goto by default; -DLOCKSTEP_COMPUTED_GOTO=0 selects a switch.
 */
#include <math.h>
#include <string.h>

#include "device/builtins.h"
#include "device/device.h"
#include "device/simt_int.h"

#define YIELD_SPIN_LIMIT 20000 /* stack mode: yields without progress before faulting */

/* FNV-1a over n bytes, continuing from h. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* Progress the other compute units of the launch have published: a loop
 * that waits for another work-group is not hung while that group moves. */
static uint64_t others_beat(const struct simt_cu *cu) {
  const struct simt_run *run = cu->run;
  uint64_t sum = 0;
  for (unsigned c = 0; c < run->ncus; c++)
    if (&run->cus[c] != cu) sum += atomic_load_explicit(&run->cus[c].beat, memory_order_relaxed);
  return sum;
}

/* Whether another compute unit may still move: one running a group whose
 * loops change state (or that the host has not scheduled lately), an idle
 * one that can still take a group of this pass, or one of another launch
 * that may still move (simt_other_launch_moves). */
static bool others_may_move(struct simt_cu *cu) {
  struct simt_run *run = cu->run;
  bool groups_left = !simt_pass_stopped(run);
  for (unsigned c = 0; c < run->ncus; c++) {
    if (&run->cus[c] == cu) continue;
    int m = atomic_load_explicit(&run->cus[c].motion, memory_order_relaxed);
    if (m == SIMT_MOTION_RUN || (m == SIMT_MOTION_IDLE && groups_left)) return true;
  }
  return simt_other_launch_moves(run);
}

/* The warp's own state at a yield: where it is, which lanes run, its
 * registers and private memory. Taken at the warp's own yield, so a loop
 * repeating its state every 1..16 iterations shows the same value at every
 * sample (SIMT_HANG_SAMPLE). */
static uint64_t warp_state_hash(const struct simt_run *run, const struct simt_warp *w, uint32_t pc,
                                uint64_t act) {
  uint64_t h = hash_bytes(0xcbf29ce484222325ull, &pc, sizeof pc);
  h = hash_bytes(h, &act, sizeof act);
  h = hash_bytes(h, w->reg, (size_t)run->k->nregs * run->W * sizeof *w->reg);
  if (w->priv) h = hash_bytes(h, w->priv, (size_t)run->k->private_size * run->W);
  return h;
}

/* The work-group's state once every running warp has sampled itself: each
 * running warp's state at its last sample, where every other warp waits
 * (barrier or exit), the local memory, and the progress the other compute
 * units published. A warp's live state between yields is never read: it
 * depends on where the scheduler's last slice happened to stop it, so with
 * several warps it would differ from sample to sample of a loop that never
 * changes. */
static uint64_t group_state_hash(const struct simt_cu *cu) {
  const struct simt_run *run = cu->run;
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned i = 0; i < cu->nwarps; i++) {
    const struct simt_warp *o = &cu->warps[i];
    h = hash_bytes(h, &o->state, sizeof o->state);
    if (o->state == SIMT_WARP_RUN) {
      h = hash_bytes(h, &o->hang_own, sizeof o->hang_own);
    } else {
      h = hash_bytes(h, &o->pc, sizeof o->pc);
      h = hash_bytes(h, &o->live, sizeof o->live);
    }
  }
  if (cu->local) h = hash_bytes(h, cu->local, run->local_total);
  uint64_t beat = others_beat(cu);
  return hash_bytes(h, &beat, sizeof beat);
}

/* Called at each yield of a warp (a loop that is not counted): whether the
 * warp makes no forward progress. Every SIMT_HANG_SAMPLE-th yield the warp
 * samples its own state; once every running warp of the work-group has
 * sampled (a warp that runs without yielding leaves the round open: it
 * moves), the round's group state is compared with the last round's. The
 * same state for run->hang_ns means the loops read nothing that changes (a
 * changed global value would show in the register it was loaded into) and
 * nothing else moves that could change it, so they would spin forever -
 * unless another compute unit may still move (the host may simply not have
 * scheduled it). A loop that is merely long changes its state and is never
 * stopped by this; a changed state counts as progress for the loops of
 * other work-groups that wait on this one. */
static bool no_progress(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act) {
  if (++w->yields % SIMT_HANG_SAMPLE) return false;
  const struct simt_run *run = cu->run;
  w->hang_own = warp_state_hash(run, w, pc, act);
  w->hang_round = cu->hang_round + 1; /* sampled in this round */
  for (unsigned i = 0; i < cu->nwarps; i++)
    if (cu->warps[i].state == SIMT_WARP_RUN && cu->warps[i].hang_round != cu->hang_round + 1)
      return false;
  uint64_t h = group_state_hash(cu), now = dev_device_now_ns(run->dev);
  bool first = cu->hang_round++ == 0; /* the next round starts */
  if (first || h != cu->hang_hash) {
    cu->epoch++;
    atomic_store_explicit(&cu->motion, SIMT_MOTION_RUN, memory_order_relaxed);
    cu->hang_hash = h;
    cu->hang_since_ns = now;
    return false;
  }
  atomic_store_explicit(&cu->motion, SIMT_MOTION_SPIN, memory_order_relaxed);
  return now - cu->hang_since_ns >= run->hang_ns && !others_may_move(cu);
}

/* Float to integer conversions saturate (NaN gives 0), never UB. */
static inline uint64_t d2i(double x, double lo, double hi, int64_t ilo, int64_t ihi) {
  if (x != x) return 0;
  if (x <= lo) return (uint64_t)ilo;
  if (x >= hi) return (uint64_t)ihi;
  return (uint64_t)(int64_t)x;
}
static inline uint64_t d2u(double x, double hi, uint64_t uhi) {
  if (x != x || x <= 0) return 0;
  if (x >= hi) return uhi;
  return (uint64_t)x;
}
#define FPTOSI32(x) ((uint32_t)d2i((x), -2147483648.0, 2147483647.0, INT32_MIN, INT32_MAX))
#define FPTOSI64(x) d2i((x), -9223372036854775808.0, 9223372036854775807.0, INT64_MIN, INT64_MAX)
#define FPTOUI32(x) d2u((x), 4294967295.0, UINT32_MAX)
#define FPTOUI64(x) d2u((x), 18446744073709551615.0, UINT64_MAX)

static inline uint64_t sext(uint64_t v, unsigned from, unsigned to) {
  if (from == 0 || from > 64) from = 64;
  if (to == 0 || to > 64) to = 64;
  uint64_t s = from == 64 ? v : (uint64_t)((int64_t)(v << (64 - from)) >> (64 - from));
  return to == 64 ? s : s & ((UINT64_C(1) << to) - 1);
}

/* ---- dispatch: computed goto where the compiler has it (-DLOCKSTEP_COMPUTED_GOTO=0 to
 * use the switch) ---- */
#ifndef LOCKSTEP_COMPUTED_GOTO
#if defined(__GNUC__)
#define LOCKSTEP_COMPUTED_GOTO 1
#else
#define LOCKSTEP_COMPUTED_GOTO 0
#endif
#endif
#if LOCKSTEP_COMPUTED_GOTO
#define vmdispatch(o) goto *disp[o];
#define vmcase(name)  L_##name:
#define vmbreak       goto fetch
#define vmdefault
#else
#define vmdispatch(o) switch (o)
#define vmcase(name)  case LSI_##name:
#define vmbreak       break
#define vmdefault     default:
#endif

/* The one lane loop: body runs with i = each active lane. */
#define FOR_EACH_ACTIVE_LANE(...)                                                                  \
  do {                                                                                             \
    if (act == allw) {                                                                             \
      for (unsigned i = 0; i < W; i++) {                                                           \
        __VA_ARGS__;                                                                               \
      }                                                                                            \
    } else {                                                                                       \
      for (uint64_t m_ = act; m_; m_ &= m_ - 1) {                                                  \
        unsigned i = (unsigned)__builtin_ctzll(m_);                                                \
        __VA_ARGS__;                                                                               \
      }                                                                                            \
    }                                                                                              \
  } while (0)

#define R(r)   (reg + (size_t)(r)*W)
#define RD     R(ip->d)
#define RA     R(ip->a)
#define RB     R(ip->b)
#define RC     R(ip->c)
#define BIT(i) (UINT64_C(1) << (i))

/* Save the warp's registers-in-flight and leave. */
#define SAVE()                                                                                     \
  do {                                                                                             \
    w->pc = pc;                                                                                    \
    w->active = act;                                                                               \
    cu->st.warp_insns += nwarp;                                                                    \
    cu->st.lane_insns += nlane;                                                                    \
  } while (0)
/* After the deque changed the warp: reload pc/mask or leave. */
#define RELOAD()                                                                                   \
  do {                                                                                             \
    if (w->state != SIMT_WARP_RUN) {                                                               \
      cu->st.warp_insns += nwarp;                                                                  \
      cu->st.lane_insns += nlane;                                                                  \
      return (int)w->state;                                                                        \
    }                                                                                              \
    pc = w->pc;                                                                                    \
    act = w->active;                                                                               \
    nact = (unsigned)__builtin_popcountll(act);                                                    \
  } while (0)
#define FAULT()                                                                                    \
  do {                                                                                             \
    SAVE();                                                                                        \
    w->state = SIMT_WARP_FAULT;                                                                    \
    return SIMT_WARP_FAULT;                                                                        \
  } while (0)
/* A branch point: give the scheduler its turn now and then. */
#define TICK()                                                                                     \
  do {                                                                                             \
    if (--budget == 0) {                                                                           \
      SAVE();                                                                                      \
      return SIMT_WARP_RUN;                                                                        \
    }                                                                                              \
  } while (0)

/* Binary op on all active lanes. T is the operand type; expr uses a and b. */
#define BINOP(name, T, expr)                                                                       \
  vmcase(name) {                                                                                   \
    uint64_t *d_ = RD, *a_ = RA, *b_ = RB;                                                         \
    FOR_EACH_ACTIVE_LANE(T a = (T)a_[i]; T b = (T)b_[i]; d_[i] = (expr));                          \
    pc++;                                                                                          \
    vmbreak;                                                                                       \
  }
#define UNOP(name, expr)                                                                           \
  vmcase(name) {                                                                                   \
    uint64_t *d_ = RD, *a_ = RA;                                                                   \
    FOR_EACH_ACTIVE_LANE(uint64_t a = a_[i]; d_[i] = (expr));                                      \
    pc++;                                                                                          \
    vmbreak;                                                                                       \
  }
static inline bool divzero_reported(const struct simt_cu *cu) {
  return dev_device_config(cu->run->dev)->check_divzero != 0;
}

/* Division-like op. A zero divisor gives zexpr (x / 0 = 0, x % 0 = x: the
 * specification leaves the value unspecified and raises nothing); when
 * LOCKSTEP_CHECK_DIVZERO asks, one line per launch and source line says
 * so, and the kernel goes on. */
#define DIVOP(name, T, UT, expr, zexpr)                                                            \
  vmcase(name) {                                                                                   \
    uint64_t *d_ = RD, *a_ = RA, *b_ = RB;                                                         \
    FOR_EACH_ACTIVE_LANE(T a = (T)a_[i]; T b = (T)b_[i]; if (b == 0) {                             \
      if (divzero_reported(cu))                                                                    \
        simt_note(cu, w, i, pc, LSI_TRAP_DIV_ZERO,                                                 \
                  "integer division by zero (goes on: x / 0 = 0, x % 0 = x)");                     \
      d_[i] = (UT)(zexpr);                                                                         \
      continue;                                                                                    \
    } d_[i] = (UT)(expr));                                                                         \
    pc++;                                                                                          \
    vmbreak;                                                                                       \
  }

#define INT_OPS(W_, T, S)                                                                          \
  BINOP(ADD_I##W_, T, (T)(a + b))                                                                  \
  BINOP(SUB_I##W_, T, (T)(a - b))                                                                  \
  BINOP(MUL_I##W_, T, (T)(a * b))                                                                  \
  DIVOP(UDIV_I##W_, T, T, a / b, 0)                                                                \
  DIVOP(UREM_I##W_, T, T, a % b, a)                                                                \
  DIVOP(SDIV_I##W_, S, T, (a == (S)((T)1 << (W_ - 1)) && b == -1) ? a : a / b, 0)                  \
  DIVOP(SREM_I##W_, S, T, (b == -1) ? 0 : a % b, a)                                                \
  BINOP(AND_I##W_, T, a &b)                                                                        \
  BINOP(OR_I##W_, T, a | b)                                                                        \
  BINOP(XOR_I##W_, T, a ^ b)                                                                       \
  BINOP(SHL_I##W_, T, (T)(a << (b % W_)))                                                          \
  BINOP(LSHR_I##W_, T, (T)(a >> (b % W_)))                                                         \
  BINOP(ASHR_I##W_, T, (T)((S)a >> (b % W_)))                                                      \
  BINOP(SMIN_I##W_, T, (S)a < (S)b ? a : b)                                                        \
  BINOP(SMAX_I##W_, T, (S)a > (S)b ? a : b)                                                        \
  BINOP(UMIN_I##W_, T, a < b ? a : b)                                                              \
  BINOP(UMAX_I##W_, T, a > b ? a : b)                                                              \
  BINOP(EQ_I##W_, T, a == b)                                                                       \
  BINOP(NE_I##W_, T, a != b)                                                                       \
  BINOP(ULT_I##W_, T, a < b)                                                                       \
  BINOP(ULE_I##W_, T, a <= b)                                                                      \
  BINOP(UGT_I##W_, T, a > b)                                                                       \
  BINOP(UGE_I##W_, T, a >= b)                                                                      \
  BINOP(SLT_I##W_, T, (S)a < (S)b)                                                                 \
  BINOP(SLE_I##W_, T, (S)a <= (S)b)                                                                \
  BINOP(SGT_I##W_, T, (S)a > (S)b)                                                                 \
  BINOP(SGE_I##W_, T, (S)a >= (S)b)

/* fma over a whole row. Where the build does not assume the host has an FMA
 * unit but it has one, use it (a library call per lane otherwise); returns
 * false when the caller must do it lane by lane. Results are identical. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__FMA__)
__attribute__((target("fma"))) static bool
fma_rows_hw32(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, unsigned W) {
  for (unsigned i = 0; i < W; i++)
    d[i] = uf32(__builtin_fmaf(f32(a[i]), f32(b[i]), f32(c[i])));
  return true;
}
__attribute__((target("fma"))) static bool
fma_rows_hw64(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, unsigned W) {
  for (unsigned i = 0; i < W; i++)
    d[i] = uf64(__builtin_fma(f64(a[i]), f64(b[i]), f64(c[i])));
  return true;
}
static inline bool fma_rows_f32(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                const uint64_t *c, unsigned W) {
  return __builtin_cpu_supports("fma") && fma_rows_hw32(d, a, b, c, W);
}
static inline bool fma_rows_f64(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                const uint64_t *c, unsigned W) {
  return __builtin_cpu_supports("fma") && fma_rows_hw64(d, a, b, c, W);
}
#else
#define fma_rows_f32(d, a, b, c, W) false
#define fma_rows_f64(d, a, b, c, W) false
#endif

/* Floating point: F converts a register to the type, U back. */
#define FBIN(name, F, U, expr)                                                                     \
  vmcase(name) {                                                                                   \
    uint64_t *d_ = RD, *a_ = RA, *b_ = RB;                                                         \
    FOR_EACH_ACTIVE_LANE(__typeof__(F(0)) a = F(a_[i]); __typeof__(F(0)) b = F(b_[i]);             \
                         d_[i] = U(expr));                                                         \
    pc++;                                                                                          \
    vmbreak;                                                                                       \
  }
#define FCMP(name, F, expr)                                                                        \
  vmcase(name) {                                                                                   \
    uint64_t *d_ = RD, *a_ = RA, *b_ = RB;                                                         \
    FOR_EACH_ACTIVE_LANE(__typeof__(F(0)) a = F(a_[i]); __typeof__(F(0)) b = F(b_[i]);             \
                         d_[i] = (expr) ? 1 : 0);                                                  \
    pc++;                                                                                          \
    vmbreak;                                                                                       \
  }
#define FCVT(name, expr)                                                                           \
  vmcase(name) {                                                                                   \
    uint64_t *d_ = RD, *a_ = RA;                                                                   \
    FOR_EACH_ACTIVE_LANE(uint64_t a = a_[i]; d_[i] = (expr));                                      \
    pc++;                                                                                          \
    vmbreak;                                                                                       \
  }
#define ID(x) (x)
#define FP_OPS(W_, F, U, FMA, FMOD)                                                                \
  FBIN(FADD_F##W_, F, U, a + b)                                                                    \
  FBIN(FSUB_F##W_, F, U, a - b)                                                                    \
  FBIN(FMUL_F##W_, F, U, a *b)                                                                     \
  FBIN(FDIV_F##W_, F, U, a / b)                                                                    \
  FBIN(FREM_F##W_, F, U, FMOD(a, b))                                                               \
  vmcase(FMA_F##W_) {                                                                              \
    uint64_t *d_ = RD, *a_ = RA, *b_ = RB, *c_ = RC;                                               \
    if (act == allw && fma_rows_f##W_(d_, a_, b_, c_, W)) {                                        \
      pc++;                                                                                        \
      vmbreak;                                                                                     \
    }                                                                                              \
    FOR_EACH_ACTIVE_LANE(d_[i] = U(FMA(F(a_[i]), F(b_[i]), F(c_[i]))));                            \
    pc++;                                                                                          \
    vmbreak;                                                                                       \
  }                                                                                                \
  FCVT(FNEG_F##W_, U(-F(a)))                                                                       \
  FCMP(FOEQ_F##W_, F, a == b)                                                                      \
  FCMP(FONE_F##W_, F, a<b || a> b)                                                                 \
  FCMP(FOLT_F##W_, F, a < b)                                                                       \
  FCMP(FOLE_F##W_, F, a <= b)                                                                      \
  FCMP(FOGT_F##W_, F, a > b)                                                                       \
  FCMP(FOGE_F##W_, F, a >= b)                                                                      \
  FCMP(FORD_F##W_, F, a == a && b == b)                                                            \
  FCMP(FUEQ_F##W_, F, !(a < b || a > b))                                                           \
  FCMP(FUNE_F##W_, F, !(a == b))                                                                   \
  FCMP(FULT_F##W_, F, !(a >= b))                                                                   \
  FCMP(FULE_F##W_, F, !(a > b))                                                                    \
  FCMP(FUGT_F##W_, F, !(a <= b))                                                                   \
  FCMP(FUGE_F##W_, F, !(a < b))                                                                    \
  FCMP(FUNO_F##W_, F, a != a || b != b)                                                            \
  FCVT(FPTOSI32_F##W_, FPTOSI32((double)F(a)))                                                     \
  FCVT(FPTOSI64_F##W_, FPTOSI64((double)F(a)))                                                     \
  FCVT(FPTOUI32_F##W_, FPTOUI32((double)F(a)))                                                     \
  FCVT(FPTOUI64_F##W_, FPTOUI64((double)F(a)))                                                     \
  FCVT(SI32TOFP_F##W_, U((__typeof__(F(0)))(int32_t)(uint32_t)a))                                  \
  FCVT(SI64TOFP_F##W_, U((__typeof__(F(0)))(int64_t)a))                                            \
  FCVT(UI32TOFP_F##W_, U((__typeof__(F(0)))(uint32_t)a))                                           \
  FCVT(UI64TOFP_F##W_, U((__typeof__(F(0)))a))

/* Loads and stores: address = a + imm. The allocation a warp instruction
 * touched last is cached, so lanes hitting the same buffer skip the table. */
struct mcache {
  uint64_t key; /* address >> LSI_ADDR_ID_SHIFT (space and id); ~0 = empty */
  uint8_t *host;
  uint64_t size;
};
static inline __attribute__((always_inline)) void *mem_cached(struct simt_cu *cu,
                                                              struct simt_warp *w, unsigned lane,
                                                              uint32_t pc, uint64_t ad, unsigned n,
                                                              int kind, struct mcache *mc) {
  uint64_t off = LSI_ADDR_OFFSET(ad);
  if ((ad >> LSI_ADDR_ID_SHIFT) == mc->key && off + n <= mc->size && !(off & (n - 1)))
    return mc->host + off;
  void *p = simt_mem(cu, w, lane, pc, ad, n, kind);
  if (p == cu->sink) return p; /* a dropped access (LOCKSTEP_FAULTS=report) */
  unsigned sp = LSI_ADDR_SPACE(ad);
  if (p && (sp == LSI_SPACE_GLOBAL || sp == LSI_SPACE_CONSTANT)) {
    struct dev_mem_entry *e = dev_mem_entry(cu->run->mem, ad);
    mc->key = ad >> LSI_ADDR_ID_SHIFT;
    mc->host = e->host;
    mc->size = e->size;
  } else if (p && sp == LSI_SPACE_LOCAL) {
    mc->key = ad >> LSI_ADDR_ID_SHIFT;
    mc->host = cu->local;
    mc->size = cu->run->local_total;
  }
  return p;
}
/* A debugger pass stopped (a checker's report, check.h): the warp stops
 * before the instruction whose check reported, uncounted. */
#define CHECK_STOP(uncount)                                                                        \
  do {                                                                                             \
    if (stop_at && atomic_load_explicit(&run->stop, memory_order_relaxed)) {                       \
      uncount;                                                                                     \
      SAVE();                                                                                      \
      return SIMT_WARP_RUN;                                                                        \
    }                                                                                              \
  } while (0)
/* LOCKSTEP_CHECK: the checkers see a warp's access before it is made (one
 * predictable branch when no checker is on). */
#define CHECK_ACCESS_AT(base, imm, N, kind)                                                        \
  do {                                                                                             \
    if (__builtin_expect(run->check != 0, 0)) {                                                    \
      simt_check_warp(cu, w, pc, act, (base), (imm), (N), (kind));                                 \
      CHECK_STOP(nwarp--; nlane -= nact);                                                          \
    }                                                                                              \
  } while (0)
#define CHECK_ACCESS(base, N, kind) CHECK_ACCESS_AT(base, ip->imm, N, kind)
/* A compare-exchange is announced as an atomic load (it may not write);
 * the lanes whose exchange was made are then checked as atomic writes. */
#define ATOMIC_KIND(op)                                                                            \
  ((op) == LSI_ATOM_LD_I32 || (op) == LSI_ATOM_LD_I64 || (op) == LSI_ATOM_CMPXCHG_I32 ||           \
           (op) == LSI_ATOM_CMPXCHG_I64                                                            \
       ? SIMT_ACC_ATOMIC_READ                                                                      \
       : SIMT_ACC_ATOMIC)
#define LOAD(name, T, N)                                                                           \
  vmcase(name) {                                                                                   \
    uint64_t *d_ = RD, *a_ = RA;                                                                   \
    struct mcache mc = {~UINT64_C(0), NULL, 0};                                                    \
    uint64_t ad = 0;                                                                               \
    CHECK_ACCESS(a_, N, SIMT_ACC_READ);                                                            \
    FOR_EACH_ACTIVE_LANE(ad = a_[i] + (uint64_t)ip->imm;                                           \
                         void *p = mem_cached(cu, w, i, pc, ad, N, 0, &mc); if (!p) FAULT(); T v;  \
                         memcpy(&v, p, N); d_[i] = v);                                             \
    cu->st.ld_bytes[LSI_ADDR_SPACE(ad) & 7] += (uint64_t)N * nact;                                 \
    pc++;                                                                                          \
    vmbreak;                                                                                       \
  }
#define STORE(name, T, N)                                                                          \
  vmcase(name) {                                                                                   \
    uint64_t *a_ = RA, *b_ = RB;                                                                   \
    struct mcache mc = {~UINT64_C(0), NULL, 0};                                                    \
    uint64_t ad = 0;                                                                               \
    CHECK_ACCESS(a_, N, SIMT_ACC_WRITE);                                                           \
    FOR_EACH_ACTIVE_LANE(ad = a_[i] + (uint64_t)ip->imm;                                           \
                         void *p = mem_cached(cu, w, i, pc, ad, N, 1, &mc); if (!p) FAULT();       \
                         T v = (T)b_[i]; memcpy(p, &v, N));                                        \
    cu->st.st_bytes[LSI_ADDR_SPACE(ad) & 7] += (uint64_t)N * nact;                                 \
    cu->epoch++;                                                                                   \
    pc++;                                                                                          \
    vmbreak;                                                                                       \
  }

/* Atomics: p is the checked host pointer, b/c the operands, old the result. */
#define ATOMIC(name, T, N, body)                                                                   \
  vmcase(name) {                                                                                   \
    uint64_t *d_ = RD, *a_ = RA, *b_ = RB, *c_ = RC;                                               \
    int changed = 0;                                                                               \
    uint64_t wrote = 0;                                                                            \
    CHECK_ACCESS_AT(a_, 0, N, ATOMIC_KIND(ip->op));                                                \
    FOR_EACH_ACTIVE_LANE(T *p = simt_mem(cu, w, i, pc, a_[i], N, 2); if (!p) FAULT();              \
                         T b = (T)b_[i]; T c = (T)c_[i]; T old; int chg = 1; (void)b; (void)c;     \
                         body; changed |= chg; wrote |= (uint64_t)(chg != 0) << i;                 \
                         if (lsi_op_flags[ip->op] & F_WRITES_D) d_[i] = (uint64_t)old;             \
                         cu->st.st_bytes[LSI_ADDR_SPACE(a_[i]) & 7] += N);                         \
    if (__builtin_expect(run->check != 0, 0)) {                                                    \
      if (ATOMIC_KIND(ip->op) == SIMT_ACC_ATOMIC_READ && (wrote & act))                            \
        simt_check_warp(cu, w, pc, wrote &act, a_, 0, N, SIMT_ACC_ATOMIC | SIMT_ACC_AFTER);        \
      simt_check_atomic_done(cu, w, act);                                                          \
    }                                                                                              \
    cu->epoch += (uint64_t)changed; /* progress: memory changed */                                 \
    pc++;                                                                                          \
    vmbreak;                                                                                       \
  }
#define SEQ __ATOMIC_SEQ_CST
#define CAS_LOOP(T, expr)                                                                          \
  do {                                                                                             \
    old = __atomic_load_n(p, SEQ);                                                                 \
    T nv_;                                                                                         \
    do {                                                                                           \
      T a = old;                                                                                   \
      nv_ = (expr);                                                                                \
    } while (!__atomic_compare_exchange_n(p, &old, nv_, false, SEQ, SEQ));                         \
  } while (0)
#define ATOM_OPS(W_, T, S)                                                                         \
  ATOMIC(ATOM_ADD_I##W_, T, W_ / 8, old = __atomic_fetch_add(p, b, SEQ))                           \
  ATOMIC(ATOM_SUB_I##W_, T, W_ / 8, old = __atomic_fetch_sub(p, b, SEQ))                           \
  ATOMIC(ATOM_XCHG_I##W_, T, W_ / 8, old = __atomic_exchange_n(p, b, SEQ))                         \
  ATOMIC(ATOM_AND_I##W_, T, W_ / 8, old = __atomic_fetch_and(p, b, SEQ))                           \
  ATOMIC(ATOM_OR_I##W_, T, W_ / 8, old = __atomic_fetch_or(p, b, SEQ))                             \
  ATOMIC(ATOM_XOR_I##W_, T, W_ / 8, old = __atomic_fetch_xor(p, b, SEQ))                           \
  ATOMIC(ATOM_SMIN_I##W_, T, W_ / 8, CAS_LOOP(T, (S)a < (S)b ? a : b))                             \
  ATOMIC(ATOM_SMAX_I##W_, T, W_ / 8, CAS_LOOP(T, (S)a > (S)b ? a : b))                             \
  ATOMIC(ATOM_UMIN_I##W_, T, W_ / 8, CAS_LOOP(T, a < b ? a : b))                                   \
  ATOMIC(ATOM_UMAX_I##W_, T, W_ / 8, CAS_LOOP(T, a > b ? a : b))                                   \
  ATOMIC(ATOM_INC_I##W_, T, W_ / 8, old = __atomic_fetch_add(p, 1, SEQ))                           \
  ATOMIC(ATOM_DEC_I##W_, T, W_ / 8, old = __atomic_fetch_sub(p, 1, SEQ))                           \
  ATOMIC(ATOM_CMPXCHG_I##W_, T, W_ / 8, old = c;                                                   \
         chg = __atomic_compare_exchange_n(p, &old, b, false, SEQ, SEQ))                           \
  ATOMIC(ATOM_LD_I##W_, T, W_ / 8, old = __atomic_load_n(p, SEQ); chg = 0)                         \
  ATOMIC(ATOM_ST_I##W_, T, W_ / 8, old = 0; __atomic_store_n(p, b, SEQ))

/* Disable the active lanes for reason, remembering where they resume. */
static inline void disable(struct simt_warp *w, uint64_t act, unsigned reason, uint32_t resume,
                           uint64_t allw, unsigned W) {
  if (act == allw) {
    for (unsigned i = 0; i < W; i++)
      w->lane_pc[i] = resume;
  } else {
    for (uint64_t m = act; m; m &= m - 1)
      w->lane_pc[__builtin_ctzll(m)] = resume;
  }
  w->dis[reason] |= act;
}

/* Mask of the lanes (of all W) whose register is non-zero: a byte per lane
 * (a loop the compiler vectorises), then eight bytes to eight bits at once. */
static inline uint64_t nonzero_mask(const uint64_t *a, unsigned W) {
  uint8_t nz[SIMT_MAX_W + 8];
  for (unsigned i = 0; i < W; i++)
    nz[i] = a[i] != 0;
  memset(nz + W, 0, 8);
  uint64_t t = 0;
  for (unsigned i = 0; i < W; i += 8) {
    uint64_t x;
    memcpy(&x, nz + i, 8);
    t |= ((x * UINT64_C(0x0102040810204080)) >> 56) << i;
  }
  return t;
}

/* Does the deque hold a token of that type and target covering any of act? */
static bool has_token(const struct simt_warp *w, unsigned type, uint32_t pc, uint64_t act) {
  const struct simt_deque *q = &w->dq;
  for (unsigned j = q->head; j < q->tail; j++) {
    simt_token t = q->buf[j];
    if (simt_token_type(t) == type && simt_token_pc(t) == pc && (t.mask & act)) return true;
  }
  return false;
}

static void push_front(struct simt_cu *cu, struct simt_warp *w, simt_token t) {
  unsigned before = w->dq.recentres;
  if (!simt_deque_push_front(&w->dq, t))
    simt_fault(cu, w, (unsigned)__builtin_ctzll(t.mask | BIT(63)), w->pc, LSI_TRAP_UNSUPPORTED, 0,
               "divergence queue exhausted host memory");
  cu->st.recentres += w->dq.recentres - before;
}

/* YIELD: push or merge a yield token at the back. */
static void yield_token(struct simt_cu *cu, struct simt_warp *w, uint64_t act, uint32_t resume) {
  struct simt_deque *q = &w->dq;
  for (unsigned j = q->head; j < q->tail; j++) {
    simt_token *t = &q->buf[j];
    if (simt_token_type(*t) == SIMT_TOK_YIELD && simt_token_pc(*t) == resume) {
      t->mask |= act;
      return;
    }
  }
  unsigned before = q->recentres;
  if (!simt_deque_push_back(q, simt_token_make(SIMT_TOK_YIELD, act, resume)))
    simt_fault(cu, w, (unsigned)__builtin_ctzll(act), resume - 1, LSI_TRAP_UNSUPPORTED, 0,
               "divergence queue exhausted host memory");
  cu->st.recentres += q->recentres - before;
}

/* ---- control flow, shared with the native engine (device/native_rt.c) ---- */

bool simt_diverge(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t nt) {
  const unsigned W = cu->run->W;
  disable(w, nt, SIMT_TOK_DIV, pc + 1, simt_lanes_mask(W), W);
  w->pc = pc;
  push_front(cu, w, simt_token_make(SIMT_TOK_DIV, nt, pc + 1));
  if (cu->faulted) return false;
  cu->st.div_branches++;
  return true;
}

bool simt_push_token(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, unsigned op,
                     uint64_t act, uint32_t target) {
  unsigned ty = simt_token_of(op);
  w->pc = pc;
  push_front(cu, w, simt_token_make(ty, act, target));
  return !cu->faulted;
}

bool simt_join(struct simt_cu *cu, struct simt_warp *w, unsigned op, uint64_t act,
               uint32_t target) {
  unsigned ty = simt_token_of(op);
  struct simt_deque *q = &w->dq;
  if (simt_deque_size(q) && !w->dis[ty]) {
    /* The token in front is this one and no other lane waits for it:
     * unwinding would pop it and resume these lanes at target. */
    simt_token t = q->buf[q->head];
    if (simt_token_type(t) == ty && simt_token_pc(t) == target && (t.mask & act)) {
      q->head++;
      w->pc = target;
      w->active = act;
      return true;
    }
  }
  if (!has_token(w, ty, target, act)) return false; /* the fallback: a plain branch (seed 004) */
  const unsigned W = cu->run->W;
  disable(w, act, ty, target, simt_lanes_mask(W), W);
  simt_unwind(cu, w);
  return true;
}

bool simt_yield(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act) {
  struct simt_run *run = cu->run;
  const unsigned W = run->W;
  if (no_progress(cu, w, pc, act)) {
    simt_fault(cu, w, (unsigned)__builtin_ctzll(act), pc, LSI_TRAP_NO_FORWARD_PROGRESS, 0,
               "no forward progress: lanes loop through the same state (registers, "
               "private and local memory) for %llu ms, so nothing they read changes",
               (unsigned long long)(run->hang_ns / 1000000u));
    return false;
  }
  cu->st.yields++;
  if (!simt_waiting(w, SIMT_NREASONS)) {
    /* No other lane can run: unwinding would pop every token as stale
     * and resume these lanes at pc + 1. Do just that. */
    w->dq.head = w->dq.tail;
    w->pc = pc + 1;
    w->active = act;
    return true;
  }
  disable(w, act, SIMT_TOK_YIELD, pc + 1, simt_lanes_mask(W), W);
  yield_token(cu, w, act, pc + 1);
  if (cu->faulted) return false;
  simt_unwind(cu, w);
  return true;
}

void simt_barrier_wait(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act) {
  const unsigned W = cu->run->W;
  disable(w, act, SIMT_REASON_BAR, pc + 1, simt_lanes_mask(W), W);
  if (simt_waiting(w, SIMT_REASON_BAR) || w->dis[SIMT_REASON_SGBAR]) {
    simt_unwind(cu, w);
    return;
  }
  /* No other lane can run: unwinding would pop every token as stale and
   * leave the warp at the barrier. */
  w->dq.head = w->dq.tail;
  w->active = 0;
  w->state = SIMT_WARP_BARRIER;
  w->bar_lanes = act, w->bar_at = pc + 1;
}

void simt_exit_lanes(struct simt_cu *cu, struct simt_warp *w, uint64_t act) {
  w->live &= ~act;
  cu->epoch++;
  if (w->live) {
    simt_unwind(cu, w);
    return;
  }
  /* The whole warp is done. Only live lanes are ever disabled, so none
   * waits, and every token left is stale: what unwinding would find,
   * popping them one by one. */
  w->dq.head = w->dq.tail;
  w->active = w->bar_lanes = 0;
  w->state = SIMT_WARP_DONE;
}

/* One lane of CALLB. Returns false when the builtin faulted. */
static inline bool call_builtin(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                                const lsi_insn *ip, uint64_t *reg, unsigned W) {
  const struct lsi_builtin *bi = &lsi_builtins[ip->imm];
  const uint32_t *al = cu->run->k->arglist + ip->a;
  uint64_t args[64], res[16];
  unsigned n = ip->b;
  for (unsigned j = 0; j < n; j++)
    args[j] = R(al[j])[lane];
  struct simt_lane ln = {cu, w, lane, pc, 0};
  bi->fn(&ln, res, args, n, bi->data);
  if (cu->faulted) return false;
  for (unsigned j = 0; j < bi->nres; j++)
    R(ip->d + j)[lane] = res[j];
  return true;
}

/* Runs w from its pc: until about budget branch points, or (left not
 * NULL) for exactly one instruction, then the budget left in *left. */
static int warp_run(struct simt_cu *cu, struct simt_warp *w, uint64_t budget, uint64_t *left) {
#if LOCKSTEP_COMPUTED_GOTO
  static const void *const disp[LSI_NUM_OPS] = {
#define LSI_OP(name, fmt, flags, sem) [LSI_##name] = &&L_##name,
#include "device/isa.def"
#undef LSI_OP
  };
#endif
  struct simt_run *run = cu->run;
  const unsigned W = run->W;
  const uint64_t allw = simt_lanes_mask(W);
  const lsi_insn *const code = run->k->code;
  const uint8_t *const stop_at = run->dbg_stop_at;
  /* the one test per instruction: a debugger pass, or the uninitialised-value
   * checker's shadow step before each instruction */
  const bool slow = left || stop_at != NULL || (run->check & DEV_CHECK_UNINIT);
  uint64_t *const reg = w->reg;
  uint32_t pc = w->pc;
  uint64_t act = w->active;
  unsigned nact = (unsigned)__builtin_popcountll(act);
  uint64_t nwarp = 0, nlane = 0;
  const lsi_insn *ip;
  if (w->state != SIMT_WARP_RUN) return (int)w->state;

  for (;;) {
#if LOCKSTEP_COMPUTED_GOTO
  fetch:
#endif
    if (__builtin_expect(slow, 0)) {
      if (left && nwarp) {
        SAVE();
        *left = budget;
        return SIMT_WARP_RUN;
      }
      if (stop_at &&
          ((stop_at[pc] && nwarp) || atomic_load_explicit(&run->stop, memory_order_relaxed))) {
        SAVE(); /* a flagged pc, or a debugger pass stops every warp at its next instruction */
        return SIMT_WARP_RUN;
      }
      if (run->check & DEV_CHECK_UNINIT) {
        simt_uninit_step(cu, w, pc, act);
        CHECK_STOP((void)0);
      }
    }
    ip = &code[pc];
    nwarp++;
    nlane += nact;
    vmdispatch(ip->op) {
      vmcase(NOP) {
        pc++;
        vmbreak;
      }
      UNOP(MOV, a)
      vmcase(MOVI) {
        uint64_t *d_ = RD, v = (uint64_t)ip->imm;
        FOR_EACH_ACTIVE_LANE(d_[i] = v);
        pc++;
        vmbreak;
      }
      vmcase(SELECT) {
        uint64_t *d_ = RD, *a_ = RA, *b_ = RB, *c_ = RC;
        FOR_EACH_ACTIVE_LANE(d_[i] = a_[i] ? b_[i] : c_[i]);
        pc++;
        vmbreak;
      }
      vmcase(TRUNC) {
        uint64_t *d_ = RD, *a_ = RA;
        uint64_t m = ip->imm >= 64 || ip->imm <= 0 ? ~UINT64_C(0) : BIT(ip->imm) - 1;
        FOR_EACH_ACTIVE_LANE(d_[i] = a_[i] & m);
        pc++;
        vmbreak;
      }
      vmcase(SEXT) {
        uint64_t *d_ = RD, *a_ = RA;
        unsigned from = (unsigned)(ip->imm & 0xff), to = (unsigned)((ip->imm >> 8) & 0xff);
        FOR_EACH_ACTIVE_LANE(d_[i] = sext(a_[i], from, to));
        pc++;
        vmbreak;
      }
      UNOP(ADDI, a + (uint64_t)ip->imm)
      vmcase(MADI) {
        uint64_t *d_ = RD, *a_ = RA, *b_ = RB, k = (uint64_t)ip->imm;
        FOR_EACH_ACTIVE_LANE(d_[i] = a_[i] + b_[i] * k);
        pc++;
        vmbreak;
      }
      vmcase(SREG) {
        uint64_t *d_ = RD;
        unsigned s = (unsigned)ip->imm;
        if (s <= LSI_SREG_LOCAL_ID_Z) { /* per-lane ids: base + local id */
          const uint32_t *lid = w->lid[s % 3];
          uint64_t base = s <= LSI_SREG_GLOBAL_ID_Z ? simt_sreg(cu, w, 0, s) - lid[0] : 0;
          FOR_EACH_ACTIVE_LANE(d_[i] = base + lid[i]);
        } else if (s == LSI_SREG_LOCAL_LINEAR_ID || s == LSI_SREG_GLOBAL_LINEAR_ID ||
                   s == LSI_SREG_SUB_GROUP_LOCAL_ID) {
          FOR_EACH_ACTIVE_LANE(d_[i] = simt_sreg(cu, w, i, s));
        } else { /* the same for every lane of the warp */
          uint64_t v = simt_sreg(cu, w, 0, s);
          FOR_EACH_ACTIVE_LANE(d_[i] = v);
        }
        pc++;
        vmbreak;
      }

      INT_OPS(32, uint32_t, int32_t)
      INT_OPS(64, uint64_t, int64_t)
      FP_OPS(32, f32, uf32, fmaf, fmodf)
      FP_OPS(64, f64, uf64, fma, fmod)
      FCVT(FPEXT, uf64((double)f32(a)))
      FCVT(FPTRUNC, uf32((float)f64(a)))
      FCVT(FTZ_F32, (a & 0x7f800000u) ? a : a & 0x80000000u)

      LOAD(LD8, uint8_t, 1)
      LOAD(LD16, uint16_t, 2)
      LOAD(LD32, uint32_t, 4)
      LOAD(LD64, uint64_t, 8)
      STORE(ST8, uint8_t, 1)
      STORE(ST16, uint16_t, 2)
      STORE(ST32, uint32_t, 4)
      STORE(ST64, uint64_t, 8)
      vmcase(MEMCPY) {
        uint64_t *d_ = RD, *a_ = RA, *b_ = RB;
        FOR_EACH_ACTIVE_LANE(void *dst = simt_mem_range(cu, w, i, pc, d_[i], b_[i], 1);
                             if (!dst) FAULT();
                             void *src = simt_mem_range(cu, w, i, pc, a_[i], b_[i], 0);
                             if (!src) FAULT(); memmove(dst, src, b_[i]));
        cu->epoch++;
        pc++;
        vmbreak;
      }
      vmcase(MEMSET) {
        uint64_t *d_ = RD, *a_ = RA, *b_ = RB;
        FOR_EACH_ACTIVE_LANE(void *dst = simt_mem_range(cu, w, i, pc, d_[i], b_[i], 1);
                             if (!dst) FAULT(); memset(dst, (int)(a_[i] & 0xff), b_[i]));
        cu->epoch++;
        pc++;
        vmbreak;
      }

      ATOM_OPS(32, uint32_t, int32_t)
      ATOM_OPS(64, uint64_t, int64_t)
      ATOMIC(ATOM_FADD_F32, uint32_t, 4, CAS_LOOP(uint32_t, (uint32_t)uf32(f32(a) + f32(b))))
      ATOMIC(ATOM_FADD_F64, uint64_t, 8, CAS_LOOP(uint64_t, uf64(f64(a) + f64(b))))
      vmcase(FENCE) {
        __atomic_thread_fence(SEQ);
        pc++;
        vmbreak;
      }

      /* ---- control flow ---- */
      vmcase(BRA) {
        pc = (uint32_t)ip->imm;
        TICK();
        vmbreak;
      }
      vmcase(BRA_P) vmcase(BRA_Z) {
        uint64_t t = nonzero_mask(RA, W) & act;
        if (ip->op == LSI_BRA_Z) t = act & ~t;
        if (t == act) {
          pc = (uint32_t)ip->imm;
        } else if (t == 0) {
          pc++;
        } else {
          if (!simt_diverge(cu, w, pc, act & ~t)) FAULT();
          act = t;
          nact = (unsigned)__builtin_popcountll(act);
          pc = (uint32_t)ip->imm;
        }
        TICK();
        vmbreak;
      }
      vmcase(SSY) vmcase(PBRK) vmcase(PCONT) {
        if (!simt_push_token(cu, w, pc, ip->op, act, (uint32_t)ip->imm)) FAULT();
        pc++;
        vmbreak;
      }
      vmcase(SYNC) vmcase(BRK) vmcase(CONT) {
        if (!simt_join(cu, w, ip->op, act, (uint32_t)ip->imm))
          pc = (uint32_t)ip->imm; /* no token: a plain branch */
        else
          RELOAD();
        TICK();
        vmbreak;
      }
      vmcase(YIELD) {
        if (run->stack_mode) {
          /* Classic stack: no yield; watch for a warp spinning without progress. */
          if (w->epoch != cu->epoch) {
            w->epoch = cu->epoch;
            w->spins = 0;
          } else if (++w->spins > YIELD_SPIN_LIMIT) {
            simt_fault(cu, w, (unsigned)__builtin_ctzll(act), pc, LSI_TRAP_NO_FORWARD_PROGRESS, 0,
                       "no forward progress: lanes spin at a yield point without any store "
                       "(stack reconvergence cannot schedule the lanes they wait for)");
            FAULT();
          }
          pc++;
        } else {
          if (!simt_yield(cu, w, pc, act)) FAULT();
          RELOAD();
        }
        TICK();
        vmbreak;
      }
      vmcase(BAR) {
        simt_barrier_wait(cu, w, pc, act);
        RELOAD();
        vmbreak;
      }
      vmcase(SGBAR) {
        if (act != w->live) { /* wait for the rest of the warp (simt_unwind releases) */
          disable(w, act, SIMT_REASON_SGBAR, pc + 1, allw, W);
          simt_unwind(cu, w);
          if (cu->faulted) FAULT();
          RELOAD();
          vmbreak;
        }
        __atomic_thread_fence(SEQ);
        if (run->check) simt_check_sgbarrier(cu, w, pc + 1);
        pc++;
        vmbreak;
      }
      vmcase(EXIT) {
        simt_exit_lanes(cu, w, act);
        RELOAD();
        vmbreak;
      }
      vmcase(TRAP) {
        simt_fault(cu, w, (unsigned)__builtin_ctzll(act), pc, (int)ip->imm, 0,
                   ip->imm == LSI_TRAP_UNREACHABLE ? "unreachable code reached"
                   : ip->imm == LSI_TRAP_ASSERT    ? "assertion failed"
                                                   : "trap instruction");
        FAULT();
      }
      vmcase(CALLB) {
        const struct lsi_builtin *bi = &lsi_builtins[ip->imm];
        if (bi->flags & LSI_BI_WARP) { /* the whole warp at once */
          const uint32_t *al = run->k->arglist + ip->a;
          const uint64_t *argr[64];
          uint64_t *resr[16];
          for (unsigned j = 0; j < ip->b && j < 64; j++)
            argr[j] = R(al[j]);
          for (unsigned j = 0; j < bi->nres && j < 16; j++)
            resr[j] = R(ip->d + j);
          struct simt_lane ln = {cu, w, (unsigned)__builtin_ctzll(act), pc, w->live};
          bi->wfn(&ln, act, W, resr, argr, bi->data);
          if (cu->faulted) FAULT();
          pc++;
          vmbreak;
        }
        if (!(bi->flags & LSI_BI_GROUP)) /* a group's: computed at the barrier's release */
          FOR_EACH_ACTIVE_LANE(if (!call_builtin(cu, w, i, pc, ip, reg, W)) FAULT());
        if (bi->flags & LSI_BI_BARRIER) {
          disable(w, act, SIMT_REASON_BAR, pc + 1, allw, W);
          simt_unwind(cu, w);
          RELOAD();
        } else {
          pc++;
        }
        vmbreak;
      }
      vmdefault {
        simt_fault(cu, w, (unsigned)__builtin_ctzll(act), pc, LSI_TRAP_UNSUPPORTED, 0,
                   "unknown opcode %u", ip->op);
        FAULT();
      }
    }
  }
}

int simt_warp_run(struct simt_cu *cu, struct simt_warp *w, uint64_t budget) {
  return warp_run(cu, w, budget, NULL);
}

int simt_warp_step(struct simt_cu *cu, struct simt_warp *w, unsigned *ticks) {
  uint64_t left = 2; /* one branch point leaves 1, and the step ends before the next */
  int st = warp_run(cu, w, 2, &left);
  *ticks = (unsigned)(2 - left);
  return st;
}
