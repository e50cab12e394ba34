/*
 * test_engines.c - the differential test of the two execution engines:
 * random OpenCL C kernels (kgen.c), straight-line and branchy, each built
 * once by the compiler and run on two devices whose configurations differ
 * only in the engine (native and interpreter), at warp widths 32 and 8, on
 * 1 and 2 host threads, over several global and local sizes (a local size
 * that is no multiple of the warp width, a partial last work-group). Every
 * result buffer must be equal bit for bit, the native device must really
 * have run native code, and kernels with a deliberate fault must give the
 * same device exception on both. It must not reach into the engines.
 *
 * Floating-point results are compared bit for bit too: the basic arithmetic
 * (+ - * /, mad, fma, sqrt, conversions) must be identical between the
 * engines, not merely within the specification's limits, and the other
 * builtins are the same code on both. The one exception is a NaN's sign and
 * payload, which neither IEEE 754 nor OpenCL specifies (which operand's NaN
 * an addition passes on is the compiler's and the hardware's choice): any
 * NaN matches any NaN, and the generator writes no kernel whose other
 * results depend on them.
 *
 * The native engine compiles every kernel at both widths, seconds each (a
 * faulting kernel up to ten), so `make check` runs 2 seeds of each kind and
 * one of each fault; LOCKSTEP_CHECK_ENGINES=all (`make check-engines`) runs
 * 16 and 3. LOCKSTEP_DIFF_SEED=N runs only seed N (of each kind);
 * LOCKSTEP_DIFF_COUNT=N runs N seeds of each kind. A difference prints the
 * seed, the configuration, the kernel's source and the first differing
 * element, so that LOCKSTEP_DIFF_SEED reproduces it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc.h"
#include "device/device.h"
#include "device/lsi.h"
#include "device/mem.h"
#include "device/simt_int.h"
#include "kgen.h"
#include "util/check_util.h"

enum { NATIVE, INTERP, NENGINES };
static const unsigned engine_of[NENGINES] = {DEV_ENGINE_NATIVE, DEV_ENGINE_INTERP};
static const char *const engine_name[NENGINES] = {"native", "interp"};

/* warp width, host threads */
static const unsigned configs[][2] = {{32, 1}, {8, 1}, {32, 2}, {8, 2}};
#define NCONFIGS (sizeof configs / sizeof configs[0])

/* global and local size: whole groups of whole warps; a local size that is
 * no multiple of 8 or 32 with a partial last group; one of 40 (a multiple of
 * 8 only) with a partial last group */
static const struct geom { unsigned global, local; } geoms[] = {{64, 64}, {77, 13}, {150, 40}};
#define NGEOMS (sizeof geoms / sizeof geoms[0])

static struct dev_device *devs[NCONFIGS][NENGINES];

static void devs_open(void) {
  for (unsigned c = 0; c < NCONFIGS; c++)
    for (unsigned e = 0; e < NENGINES; e++) {
      struct dev_config cfg;
      dev_config_defaults(&cfg);
      cfg.compute_units = 2;
      cfg.warp_width = configs[c][0];
      cfg.host_threads = configs[c][1];
      cfg.engine = engine_of[e];
      cfg.native_min = 0; /* compile every kernel, however small its launch */
      devs[c][e] = dev_device_new(&cfg);
      ck_assert_ptr_nonnull(devs[c][e]);
    }
}
static void devs_close(void) {
  for (unsigned c = 0; c < NCONFIGS; c++)
    for (unsigned e = 0; e < NENGINES; e++)
      dev_device_free(devs[c][e]);
}

/* ---- the seeds ---- */

static unsigned env_unsigned(const char *name, unsigned dflt) {
  const char *s = getenv(name);
  return s && *s ? (unsigned)strtoul(s, NULL, 10) : dflt;
}
/* Seeds first .. first + count - 1, or the one LOCKSTEP_DIFF_SEED names;
 * the default count is `quick` or, for the whole engine matrix, `all`. */
static void seed_range(unsigned quick, unsigned all, unsigned *first, unsigned *count) {
  const char *matrix = getenv("LOCKSTEP_CHECK_ENGINES");
  unsigned dflt_count = matrix && !strcmp(matrix, "all") ? all : quick;
  const char *one = getenv("LOCKSTEP_DIFF_SEED");
  if (one && *one) {
    *first = (unsigned)strtoul(one, NULL, 10);
    *count = 1;
  } else {
    *first = 1;
    *count = env_unsigned("LOCKSTEP_DIFF_COUNT", dflt_count);
  }
}

/* ---- one kernel's buffers ---- */

struct bufs {
  uint64_t *in, *oi;
  double *of;
  uint32_t *scr, *cnt;
  size_t nin, noi, nof, nscr;
  int ka;
  float kf;
  uint32_t rounds;
};

static void *xdup(const void *p, size_t n) {
  void *q = malloc(n ? n : 1);
  ck_assert_ptr_nonnull(q);
  memcpy(q, p, n);
  return q;
}

/* The initial contents for seed and a global size, the same for both
 * engines and every configuration. */
static void bufs_init(struct bufs *b, const struct kgen_kernel *k, unsigned seed, unsigned global) {
  uint64_t rng = ((uint64_t)seed << 20) ^ global;
  b->nin = (size_t)global * KGEN_IN, b->noi = (size_t)global * k->ni;
  b->nof = (size_t)global * k->nf, b->nscr = (size_t)global * KGEN_SCR;
  b->in = malloc(b->nin * 8), b->oi = malloc(b->noi * 8);
  b->of = malloc(b->nof * 8), b->scr = malloc(b->nscr * 4);
  b->cnt = malloc(KGEN_CNT * 4);
  ck_assert(b->in && b->oi && b->of && b->scr && b->cnt);
  for (size_t i = 0; i < b->nin; i++)
    b->in[i] = kgen_input(&rng, (unsigned)(i % KGEN_IN));
  memset(b->oi, 0xa5, b->noi * 8); /* slots an early return leaves keep this */
  memset(b->of, 0xa5, b->nof * 8);
  for (size_t i = 0; i < b->nscr; i++)
    b->scr[i] = (uint32_t)kgen_rand(&rng);
  static const uint32_t cnt0[KGEN_CNT] = {0, 0, 0, 0xffffffffu, 0, 0xffffffffu, 0, 0};
  memcpy(b->cnt, cnt0, sizeof cnt0);
  b->ka = (int)(kgen_rand(&rng) % 201) - 100;
  b->kf = (float)((int)(kgen_rand(&rng) % 2001) - 1000) / 16.0f;
  b->rounds = 1 + (uint32_t)(kgen_rand(&rng) % 3);
}

static void bufs_copy(struct bufs *dst, const struct bufs *src) {
  *dst = *src;
  dst->in = xdup(src->in, src->nin * 8), dst->oi = xdup(src->oi, src->noi * 8);
  dst->of = xdup(src->of, src->nof * 8), dst->scr = xdup(src->scr, src->nscr * 4);
  dst->cnt = xdup(src->cnt, KGEN_CNT * 4);
}

static void bufs_free(struct bufs *b) {
  free(b->in), free(b->oi), free(b->of), free(b->scr), free(b->cnt);
}

/* ---- one launch ---- */

struct outcome {
  int rc;
  struct dev_exception exc;
  struct simt_stats st;
};

/* Runs kernel "gen" of p over gm on d with b's buffers (which it updates). */
static void launch(struct dev_device *d, const struct lsi_program *p, struct bufs *b,
                   const struct geom *gm, struct outcome *o) {
  const struct lsi_kernel *k = &p->kernels[0];
  ck_assert_uint_eq(k->nargs, 8);
  struct dev_mem *m = dev_device_mem(d);
  uint64_t addr[5] = {
      dev_mem_map(m, b->in, b->nin * 8, false), dev_mem_map(m, b->oi, b->noi * 8, false),
      dev_mem_map(m, b->of, b->nof * 8, false), dev_mem_map(m, b->scr, b->nscr * 4, false),
      dev_mem_map(m, b->cnt, KGEN_CNT * 4, false)};
  for (unsigned j = 0; j < 5; j++)
    ck_assert_uint_ne(addr[j], 0);
  uint8_t *data = NULL;
  uint64_t data_base = 0;
  if (p->data_size) {
    data = malloc(p->data_size);
    ck_assert_ptr_nonnull(data);
    data_base = dev_mem_map(m, data, p->data_size, false);
    lsi_data_image(p, data, data_base);
  }
  uint8_t *argbuf = calloc(1, k->argbuf_size + 8);
  ck_assert_ptr_nonnull(argbuf);
  const void *vals[3] = {&b->ka, &b->kf, &b->rounds};
  for (uint32_t j = 0; j < k->nargs; j++) {
    const struct lsi_arg *a = &k->args[j];
    ck_assert_uint_eq(a->kind, j < 5 ? LSI_ARG_GLOBAL : LSI_ARG_VALUE);
    if (j < 5)
      memcpy(argbuf + a->buf_offset, &addr[j], 8);
    else
      memcpy(argbuf + a->buf_offset, vals[j - 5], 4);
  }
  struct dev_launch l;
  memset(&l, 0, sizeof l);
  l.prog = p;
  l.kernel = k;
  l.data_base = data_base;
  l.work_dim = 1;
  l.global[0] = gm->global;
  l.local[0] = gm->local;
  l.argbuf = argbuf;
  memset(o, 0, sizeof *o);
  o->rc = simt_launch_stats(d, &l, &o->exc, &o->st);
  for (unsigned j = 0; j < 5; j++)
    dev_mem_unmap(m, addr[j]);
  if (data) dev_mem_unmap(m, data_base);
  free(data);
  free(argbuf);
}

/* ---- reporting ---- */

static void print_source(const char *src) {
  unsigned line = 1;
  fprintf(stderr, "%4u  ", line);
  for (const char *s = src; *s; s++) {
    fputc(*s, stderr);
    if (*s == '\n' && s[1]) fprintf(stderr, "%4u  ", ++line);
  }
}

/* The generator's totals over everything this process ran. */
static struct kgen_stats total;
static unsigned kernels_run;

static void count(const struct kgen_kernel *k) {
  kernels_run++;
  total.lines += k->st.lines, total.branches += k->st.branches, total.loops += k->st.loops;
  total.barriers += k->st.barriers, total.atomics += k->st.atomics, total.calls += k->st.calls;
}

/* ---- comparing ---- */

static bool same_float(uint64_t a, uint64_t b) {
  double x, y;
  memcpy(&x, &a, 8), memcpy(&y, &b, 8);
  return a == b || (isnan(x) && isnan(y));
}

/* The first element in which the results a (named na) and b (nb) differ,
 * described in msg; false when all are equal. */
static bool first_difference(const struct bufs *a, const struct bufs *b,
                             const struct kgen_kernel *k, const char *na, const char *nb, char *msg,
                             size_t n) {
  const struct {
    const char *name;
    const void *a, *b;
    size_t count, per, size;
    bool fl;
  } bs[] = {
      {"oi", a->oi, b->oi, a->noi, k->ni, 8, false},
      {"of", a->of, b->of, a->nof, k->nf, 8, true},
      {"scr", a->scr, b->scr, a->nscr, KGEN_SCR, 4, false},
      {"cnt", a->cnt, b->cnt, KGEN_CNT, KGEN_CNT, 4, false},
  };
  for (size_t j = 0; j < sizeof bs / sizeof bs[0]; j++)
    for (size_t i = 0; i < bs[j].count; i++) {
      uint64_t x = 0, y = 0;
      memcpy(&x, (const uint8_t *)bs[j].a + i * bs[j].size, bs[j].size);
      memcpy(&y, (const uint8_t *)bs[j].b + i * bs[j].size, bs[j].size);
      if (bs[j].fl ? same_float(x, y) : x == y) continue;
      double dx, dy;
      memcpy(&dx, &x, 8), memcpy(&dy, &y, 8);
      snprintf(msg, n,
               "first difference %s[%zu] (work-item %zu, slot %zu): %s 0x%016llx, %s 0x%016llx",
               bs[j].name, i, i / bs[j].per, i % bs[j].per, na, (unsigned long long)x, nb,
               (unsigned long long)y);
      if (bs[j].fl) {
        size_t l = strlen(msg);
        snprintf(msg + l, n - l, " (%a vs %a)", dx, dy);
      }
      return true;
    }
  return false;
}

/* Both engines ran the same warp and lane instructions, the same
 * divergent branches, yields and barrier waits, and re-centred their
 * deques as often (the native engine's in-line deque operations are the
 * interpreter's). A difference is written to diff. */
static bool stats_differ(const struct outcome *o, char *diff, size_t n) {
  static const struct {
    const char *name;
    size_t off;
  } fields[] = {
      {"warp instructions", offsetof(struct simt_stats, warp_insns)},
      {"lane instructions", offsetof(struct simt_stats, lane_insns)},
      {"divergent branches", offsetof(struct simt_stats, div_branches)},
      {"yields", offsetof(struct simt_stats, yields)},
      {"barrier waits", offsetof(struct simt_stats, barrier_waits)},
      {"deque re-centrings", offsetof(struct simt_stats, recentres)},
  };
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    uint64_t a, b;
    memcpy(&a, (const char *)&o[NATIVE].st + fields[i].off, 8);
    memcpy(&b, (const char *)&o[INTERP].st + fields[i].off, 8);
    if (a != b) {
      snprintf(diff, n, "%s: native %llu, interp %llu", fields[i].name, (unsigned long long)a,
               (unsigned long long)b);
      return true;
    }
  }
  return false;
}

/* The native device ran native code, the interpreting one none. */
static void check_engines_ran(const struct outcome *o, const char *what) {
  ck_assert_msg(o[NATIVE].st.native_slices > 0,
                "%s: the native device ran no native warp slice (it interpreted)", what);
  ck_assert_msg(o[INTERP].st.native_slices == 0,
                "%s: the interpreting device ran %llu native warp slices", what,
                (unsigned long long)o[INTERP].st.native_slices);
}

static struct lsi_program *build(const struct kgen_kernel *k, unsigned seed) {
  struct lsi_program *p = NULL;
  char *log = NULL;
  int rc = cc_build(k->src, "gen.cl", "-cl-std=CL3.0", &p, &log);
  if (rc != CC_OK || !p) {
    print_source(k->src);
    ck_abort_msg("seed %u: the generated kernel does not build (%d):\n%s", seed, rc,
                 log ? log : "");
  }
  free(log);
  ck_assert_uint_eq(p->nkernels, 1);
  return p;
}

static void differ(const struct kgen_kernel *k, unsigned seed, const char *title, const char *what,
                   const char *diff) {
  fprintf(stderr, "%s: %s\n", title, what);
  print_source(k->src);
  fprintf(stderr, "%s\nrerun with LOCKSTEP_DIFF_SEED=%u\n", diff, seed);
  ck_abort_msg("%s: %s: %s", title, what, diff);
}

/* Whether any result slot was written (the kernel computed something). */
static bool wrote(const struct bufs *b) {
  for (size_t i = 0; i < b->noi; i++)
    if (b->oi[i] != UINT64_C(0xa5a5a5a5a5a5a5a5)) return true;
  return false;
}

/* Builds the kernel of seed and kind once and runs it in every
 * configuration and geometry on both engines. As a check of the generator
 * the results must not depend on the configuration either: they are also
 * compared with the first configuration's (a race or undefined behaviour
 * in a generated kernel would show there, not as an engine difference). */
static void differential(unsigned seed, enum kgen_kind kind) {
  struct kgen_kernel k;
  kgen_make(&k, seed, kind, KGEN_NO_FAULT, 0);
  count(&k);
  struct lsi_program *p = build(&k, seed);
  bool computed = false;
  for (unsigned gi = 0; gi < NGEOMS; gi++) {
    const struct geom *gm = &geoms[gi];
    struct bufs init, ref;
    bufs_init(&init, &k, seed, gm->global);
    for (unsigned c = 0; c < NCONFIGS; c++) {
      struct bufs b[NENGINES];
      struct outcome o[NENGINES];
      for (unsigned e = 0; e < NENGINES; e++) {
        bufs_copy(&b[e], &init);
        launch(devs[c][e], p, &b[e], gm, &o[e]);
      }
      char what[160], diff[1200] = "";
      snprintf(what, sizeof what, "seed %u (%s) at W=%u, %u host thread(s), global %u local %u",
               seed, kind == KGEN_STRAIGHT ? "straight-line" : "branchy", configs[c][0],
               configs[c][1], gm->global, gm->local);
      if (o[NATIVE].rc != 0 || o[INTERP].rc != 0) {
        snprintf(diff, sizeof diff, "launch failed: native %d (%s), interp %d (%s)", o[NATIVE].rc,
                 o[NATIVE].exc.message, o[INTERP].rc, o[INTERP].exc.message);
        differ(&k, seed, "a generated kernel faults", what, diff);
      }
      if (first_difference(&b[NATIVE], &b[INTERP], &k, "native", "interp", diff, sizeof diff))
        differ(&k, seed, "engines differ", what, diff);
      check_engines_ran(o, what);
      if (stats_differ(o, diff, sizeof diff))
        differ(&k, seed, "engines count differently", what, diff);
      computed |= wrote(&b[INTERP]);
      if (c == 0)
        bufs_copy(&ref, &b[INTERP]);
      else if (first_difference(&b[INTERP], &ref, &k, "this", "first", diff, sizeof diff))
        differ(&k, seed, "the interpreter's results depend on the configuration", what, diff);
      for (unsigned e = 0; e < NENGINES; e++)
        bufs_free(&b[e]);
    }
    bufs_free(&ref);
    bufs_free(&init);
  }
  ck_assert_msg(computed, "seed %u: the kernel wrote no result anywhere", seed);
  cc_program_free(p);
  kgen_free(&k);
}

static void report_totals(const char *what) {
  printf("%s: %u kernels, %u lines, %u branches, %u loops, %u barriers, %u atomics, "
         "%u builtin calls\n",
         what, kernels_run, total.lines, total.branches, total.loops, total.barriers, total.atomics,
         total.calls);
  fflush(stdout);
}

static void run_kind(enum kgen_kind kind, const char *what) {
  unsigned first, n;
  seed_range(2, 16, &first, &n);
  devs_open();
  for (unsigned s = first; s < first + n; s++)
    differential(s, kind);
  devs_close();
  report_totals(what);
}

START_TEST(straight_line) {
  run_kind(KGEN_STRAIGHT, "straight-line");
}
END_TEST

START_TEST(branchy) {
  run_kind(KGEN_BRANCHY, "branchy");
}
END_TEST

/* ---- device exceptions ---- */

static const int fault_trap[KGEN_NFAULTS] = {
    [KGEN_GLOBAL_OOB] = LSI_TRAP_OUT_OF_BOUNDS,
    [KGEN_MISALIGNED] = LSI_TRAP_MISALIGNED,
    [KGEN_DIVERGENT_BARRIER] = LSI_TRAP_BARRIER_DIVERGENCE,
    [KGEN_PRIVATE_OOB] = LSI_TRAP_OUT_OF_BOUNDS,
    [KGEN_WARP_OOB] = LSI_TRAP_OUT_OF_BOUNDS,
};

static bool same_str(const char *a, const char *b) {
  return a == b || (a && b && !strcmp(a, b));
}

/* The two reports differ in: NULL when they are the same. */
static const char *exception_difference(const struct dev_exception *a,
                                        const struct dev_exception *b) {
  if (a->trap != b->trap) return "trap";
  if (strcmp(a->message, b->message)) return "message";
  if (!same_str(a->kernel, b->kernel)) return "kernel";
  if (!same_str(a->file, b->file) || a->line != b->line) return "file:line";
  if (memcmp(a->global_id, b->global_id, sizeof a->global_id)) return "global id";
  if (memcmp(a->group_id, b->group_id, sizeof a->group_id)) return "group id";
  if (memcmp(a->local_id, b->local_id, sizeof a->local_id)) return "local id";
  if (a->address != b->address) return "address";
  if (a->have_pc != b->have_pc || (a->have_pc && a->pc != b->pc)) return "instruction";
  return NULL;
}

static void fault_case(unsigned seed, enum kgen_fault f) {
  const struct geom gm = {150, 40};
  unsigned fg = 1 + seed * 7 % 38; /* in the first group, which has 40 work-items */
  struct kgen_kernel k;
  kgen_make(&k, seed, KGEN_BRANCHY, f, fg);
  count(&k);
  struct lsi_program *p = build(&k, seed);
  for (unsigned c = 0; c < NCONFIGS; c++) {
    struct bufs init, b[NENGINES];
    struct outcome o[NENGINES];
    bufs_init(&init, &k, seed, gm.global);
    for (unsigned e = 0; e < NENGINES; e++) {
      bufs_copy(&b[e], &init);
      launch(devs[c][e], p, &b[e], &gm, &o[e]);
    }
    char what[160], rep[NENGINES][700];
    snprintf(what, sizeof what, "fault %d, seed %u (work-item %u) at W=%u, %u host thread(s)", f,
             seed, fg, configs[c][0], configs[c][1]);
    for (unsigned e = 0; e < NENGINES; e++)
      dev_exception_format(&o[e].exc, rep[e], sizeof rep[e]);
    const char *d = exception_difference(&o[NATIVE].exc, &o[INTERP].exc);
    bool bad =
        o[INTERP].rc == 0 || o[NATIVE].rc != o[INTERP].rc || d ||
        o[INTERP].exc.trap != fault_trap[f] || o[INTERP].exc.line == 0 ||
        (f != KGEN_DIVERGENT_BARRIER && f != KGEN_WARP_OOB && o[INTERP].exc.global_id[0] != fg) ||
        (f == KGEN_WARP_OOB &&
         (o[INTERP].exc.global_id[0] < fg || o[INTERP].exc.global_id[0] >= gm.local));
    if (bad) {
      fprintf(stderr, "device exceptions differ or are not the one made: %s\n", what);
      print_source(k.src);
      for (unsigned e = 0; e < NENGINES; e++)
        fprintf(stderr, "%s (%d): %s\n", engine_name[e], o[e].rc, rep[e]);
      fprintf(stderr, "rerun with LOCKSTEP_DIFF_SEED=%u\n", seed);
      ck_abort_msg("%s: %s", what, d ? d : "not the expected exception");
    }
    for (unsigned e = 0; e < NENGINES; e++)
      bufs_free(&b[e]);
    bufs_free(&init);
  }
  cc_program_free(p);
  kgen_free(&k);
}

START_TEST(exceptions) {
  unsigned first, n;
  seed_range(1, 3, &first, &n);
  devs_open();
  for (unsigned s = first; s < first + n; s++)
    for (int f = KGEN_NO_FAULT + 1; f < KGEN_NFAULTS; f++)
      fault_case(s, (enum kgen_fault)f);
  devs_close();
  report_totals("faulting");
}
END_TEST

/* The generator itself: deterministic, and its kernels are not trivial:
 * over a few seeds every construct appears. */
START_TEST(generator) {
  struct kgen_kernel a, b;
  kgen_make(&a, 7, KGEN_BRANCHY, KGEN_NO_FAULT, 0);
  kgen_make(&b, 7, KGEN_BRANCHY, KGEN_NO_FAULT, 0);
  ck_assert_str_eq(a.src, b.src);
  kgen_free(&b);
  kgen_make(&b, 8, KGEN_BRANCHY, KGEN_NO_FAULT, 0);
  ck_assert_str_ne(a.src, b.src);
  kgen_free(&a), kgen_free(&b);
  static const char *const words[] = {
      "} else if (", "} else {", "for (uint i", "do {", "switch (", "break;",   "continue;",
      "return;",     "pa[",      "scr[sb",      "lmu[", "barrier(", "atomic_",  "lcnt",
      "in[",         "select(",  " ? ",         "_sat", "mad(",     "fma(",     " >> ",
      " << ",        " / ",      " % ",         "min(", "sqrt(",    "(double)", "(float)"};
  unsigned seen[sizeof words / sizeof words[0]] = {0};
  for (unsigned seed = 1; seed <= 24; seed++) {
    kgen_make(&a, seed, KGEN_BRANCHY, KGEN_NO_FAULT, 0);
    ck_assert(a.ni > 0 && a.nf > 0 && a.st.lines > 20);
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
      seen[w] += strstr(a.src, words[w]) != NULL;
    kgen_free(&a);
  }
  for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
    ck_assert_msg(seen[w] > 0, "no branchy kernel of 24 has '%s'", words[w]);
}
END_TEST

int main(void) {
  Suite *s = suite_create("device_engines");
  CU_ADD(s, generator);
  /* every kernel is compiled by the JIT at two widths: minutes under the
   * sanitizers on a busy machine, more than CU_ADD's 120 s */
  const TTest *slow[] = {straight_line, branchy, exceptions};
  const char *names[] = {"straight_line", "branchy", "exceptions"};
  for (int i = 0; i < 3; i++) {
    TCase *tc = tcase_create(names[i]);
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, slow[i]);
    suite_add_tcase(s, tc);
  }
  return cu_run(s);
}
