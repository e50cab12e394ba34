/*
 * test_dbg_launch.c - the engine's launch API (debugger/dbg_launch.c) with
 * several launches stopped at once, in one process: two launches of a small
 * kernel are opened and run on two threads of their own (each loops
 * dbg_launch_run and hands its stops to the prompt through a small queue), the test's thread
 * shows the stops with dbg_stopped and answers with scripted commands.
 * Both stop at a breakpoint, `info kernels` lists both, `kernel 2` switches
 * and `print` reads that launch's argument, `continue` resumes one while
 * the other stays stopped, and each launch ends with the bytes an
 * undebugged run (simt_launch) gives. A stop handed over after its launch
 * closed is ignored.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc.h"
#include "debugger/dbg.h"
#include "device/device.h"
#include "device/lsi.h"
#include "device/mem.h"
#include "device/simt.h"
#include "util/check_util.h"

#define N 8

static const char *const src = "kernel void sum(global int *out, int k) {\n"
                               "  int gid = get_global_id(0);\n"
                               "  int v = gid * k;\n"
                               "  out[gid] = v + 1;\n"
                               "}\n";

/* One launch and the thread that opens and runs it. */
struct runner {
  struct dbg_session *s;
  struct dev_device *d;
  const struct dev_launch *l;
  unsigned queue;
  struct dbg_launch *L;
  int opened, rc, resumed, done;
  struct dev_exception exc;
  pthread_t t;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static struct runner *stops[8]; /* stops waiting to be shown */
static int nstops;

/* The commands, one per read; "@wait N" waits until runner N (from 1) has
 * closed its launch and reads on. */
static const char *const *script;
static size_t next_line;
static struct runner *runners[2];

static char *read_line(void *ctx, const char *prompt) {
  (void)ctx;
  (void)prompt;
  for (;;) {
    const char *l = script[next_line];
    if (!l) return NULL;
    next_line++;
    if (strncmp(l, "@wait ", 6)) return strdup(l);
    struct runner *r = runners[atoi(l + 6) - 1];
    pthread_mutex_lock(&mu);
    while (!r->done)
      pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
  }
}

/* dbg_resume_fn: the launch's thread runs its next stretch. */
static void resume(void *ctx, struct dbg_launch *L) {
  (void)ctx;
  struct runner *r = dbg_launch_user(L);
  pthread_mutex_lock(&mu);
  r->resumed = 1;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&mu);
}

static void *run_launch(void *arg) {
  struct runner *r = arg;
  char why[200];
  struct dbg_launch *L =
      dbg_launch_open(r->s, r->d, r->l, src, "sum.cl", "", r->queue, why, sizeof(why));
  if (L) dbg_launch_set_user(L, r);
  pthread_mutex_lock(&mu);
  r->L = L;
  r->opened = 1;
  r->done = !L;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&mu);
  if (!L) return NULL;
  while (dbg_launch_run(r->L) == DBG_RUN_STOPPED) {
    pthread_mutex_lock(&mu);
    r->resumed = 0;
    stops[nstops++] = r;
    pthread_cond_broadcast(&cv);
    while (!r->resumed)
      pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
  }
  int rc = dbg_launch_close(r->L, &r->exc);
  pthread_mutex_lock(&mu);
  r->rc = rc;
  r->done = 1;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&mu);
  return NULL;
}

/* The prompt's side: shows stops as they come (the first time only once
 * `first` launches wait, lowest number first) until every runner is done. */
static void serve(struct dbg_session *s, int first) {
  for (;;) {
    pthread_mutex_lock(&mu);
    while (nstops < first && !(runners[0]->done && runners[1]->done))
      pthread_cond_wait(&cv, &mu);
    first = 1;
    if (!nstops) {
      pthread_mutex_unlock(&mu);
      return;
    }
    int k = 0;
    for (int i = 1; i < nstops; i++)
      if (stops[i] < stops[k]) k = i; /* runners[0] is launch 1 */
    struct runner *r = stops[k];
    memmove(stops + k, stops + k + 1, (size_t)(nstops - k - 1) * sizeof(stops[0]));
    nstops--;
    pthread_mutex_unlock(&mu);
    dbg_stopped(s, r->L, resume, NULL);
  }
}

struct fixture {
  struct dev_device *d;
  struct lsi_program *p;
  int out[2][N], ref[2][N];
  uint8_t argbuf[2][64], refbuf[2][64];
  struct dev_launch l[2], rl[2];
};

static void set_args(const struct lsi_kernel *k, uint8_t *argbuf, uint64_t addr, int mul) {
  memcpy(argbuf + k->args[0].buf_offset, &addr, 8);
  memcpy(argbuf + k->args[1].buf_offset, &mul, 4);
}

static void setup_launches(struct fixture *f) {
  struct dev_config cfg;
  dev_config_load(&cfg);
  cfg.host_threads = 2;
  f->d = dev_device_new(&cfg);
  ck_assert_ptr_nonnull(f->d);
  char *log = NULL;
  ck_assert_int_eq(cc_build(src, "sum.cl", "-g", &f->p, &log), CC_OK);
  free(log);
  const struct lsi_kernel *k = &f->p->kernels[0];
  ck_assert_uint_le(k->argbuf_size, sizeof(f->argbuf[0]));
  struct dev_mem *m = dev_device_mem(f->d);
  for (int i = 0; i < 2; i++) {
    memset(f->out[i], 0x5a, sizeof(f->out[i]));
    memset(f->ref[i], 0x5a, sizeof(f->ref[i]));
    set_args(k, f->argbuf[i], dev_mem_map(m, f->out[i], sizeof(f->out[i]), false), 10 * (i + 1));
    set_args(k, f->refbuf[i], dev_mem_map(m, f->ref[i], sizeof(f->ref[i]), false), 10 * (i + 1));
    struct dev_launch l = {.prog = f->p, .kernel = k, .work_dim = 1};
    l.global[0] = N;
    l.local[0] = 4;
    f->l[i] = f->rl[i] = l;
    f->l[i].argbuf = f->argbuf[i];
    f->rl[i].argbuf = f->refbuf[i];
  }
}

/* Both launches, each against its undebugged twin. */
static void check_results(struct fixture *f) {
  for (int i = 0; i < 2; i++) {
    struct dev_exception exc;
    ck_assert_int_eq(simt_launch(f->d, &f->rl[i], &exc), 0);
    ck_assert_int_eq(runners[i]->rc, 0);
    ck_assert_mem_eq(f->out[i], f->ref[i], sizeof(f->ref[i]));
    ck_assert_int_eq(f->out[i][N - 1], (N - 1) * 10 * (i + 1) + 1);
  }
}

static void free_fixture(struct fixture *f) {
  cc_program_free(f->p);
  dev_device_free(f->d);
}

static const char *const two_stopped[] = {
    "break sum.cl:4 if gid == 0",
    "print k",
    "continue",
    "kernel 1",
    "info kernels",
    "run",
    /* both launches stopped at the breakpoint; the first one is shown */
    "info kernels",
    "print k",
    "kernel 2",
    "print k",
    "kernel 9",
    "kernel two",
    "continue",
    /* launch 2 ran to its end, launch 1 is still stopped */
    "@wait 2",
    "info kernels",
    "kernel 2",
    "print k",
    "continue",
    /* nothing is stopped any more */
    "print k",
    "kernel 1",
    "continue",
    "info kernels",
    NULL,
};

static const char *const two_stopped_ref =
    "(lockstep) break sum.cl:4 if gid == 0\n"
    "Breakpoint 1 at sum.cl:4 if gid == 0 (pending)\n"
    "(lockstep) print k\n"
    "No symbol \"k\" in current context.\n"
    "(lockstep) continue\n"
    "The kernel is not being run; use 'run' or 'start'.\n"
    "(lockstep) kernel 1\n"
    "No kernel 1; 'info kernels' lists the launches.\n"
    "(lockstep) info kernels\n"
    "No kernels.\n"
    "(lockstep) run\n"
    "Breakpoint 1, sum work-item (0,0,0) local (0,0,0) group (0,0,0) at sum.cl:4\n"
    "4\t  out[gid] = v + 1;\n"
    "(lockstep) info kernels\n"
    "  Num  Kernel Queue State\n"
    "* 1    sum    3     stopped at sum.cl:4 (breakpoint 1)\n"
    "  2    sum    4     stopped at sum.cl:4 (breakpoint 1)\n"
    "(lockstep) print k\n"
    "$1 = 10\n"
    "(lockstep) kernel 2\n"
    "[Switching to kernel 2 (sum, queue 4)]\n"
    "Breakpoint 1, sum work-item (0,0,0) local (0,0,0) group (0,0,0) at sum.cl:4\n"
    "4\t  out[gid] = v + 1;\n"
    "(lockstep) print k\n"
    "$2 = 20\n"
    "(lockstep) kernel 9\n"
    "No kernel 9; 'info kernels' lists the launches.\n"
    "(lockstep) kernel two\n"
    "usage: kernel N (a launch's number, as 'info kernels' shows it)\n"
    "(lockstep) continue\n"
    "Kernel sum finished.\n"
    "[Switching to kernel 1 (sum, queue 3)]\n"
    "sum work-item (0,0,0) local (0,0,0) group (0,0,0) at sum.cl:4\n"
    "4\t  out[gid] = v + 1;\n"
    "(lockstep) info kernels\n"
    "  Num  Kernel Queue State\n"
    "* 1    sum    3     stopped at sum.cl:4 (breakpoint 1)\n"
    "(lockstep) kernel 2\n"
    "No kernel 2; 'info kernels' lists the launches.\n"
    "(lockstep) print k\n"
    "$3 = 10\n"
    "(lockstep) continue\n"
    "Kernel sum finished.\n"
    "(lockstep) print k\n"
    "No symbol \"k\" in current context.\n"
    "(lockstep) kernel 1\n"
    "No kernel 1; 'info kernels' lists the launches.\n"
    "(lockstep) continue\n"
    "The kernel is not being run; use 'run' or 'start'.\n"
    "(lockstep) info kernels\n"
    "No kernels.\n";

/* Runs two launches under one session with the commands of lines, and
 * checks what the session printed against ref and the launches' results
 * against undebugged runs. */
static void run_two(const char *const *lines, const char *ref) {
  struct fixture f;
  setup_launches(&f);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  ck_assert_ptr_nonnull(out);
  struct dbg_session *s = dbg_new(out, read_line, NULL);
  dbg_set_echo(s, 1);
  dbg_set_host_mode(s, 1);
  script = lines;
  next_line = 0;
  nstops = 0;
  ck_assert_int_eq(dbg_prompt(s), 0);
  struct runner r[2];
  memset(r, 0, sizeof(r));
  for (int i = 0; i < 2; i++) { /* each thread opens its launch: 1 first, then 2 */
    runners[i] = &r[i];
    r[i].s = s;
    r[i].d = f.d;
    r[i].l = &f.l[i];
    r[i].queue = 3 + (unsigned)i;
    ck_assert_int_eq(pthread_create(&r[i].t, NULL, run_launch, &r[i]), 0);
    pthread_mutex_lock(&mu);
    while (!r[i].opened)
      pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    ck_assert_ptr_nonnull(r[i].L);
  }
  serve(s, 2);
  for (int i = 0; i < 2; i++)
    pthread_join(r[i].t, NULL);
  ck_assert_int_eq(dbg_prompt(s), 1); /* the end of the commands quits */
  dbg_free(s);
  fclose(out);
  ck_assert_str_eq(text, ref);
  free(text);
  check_results(&f);
  free_fixture(&f);
}

START_TEST(test_two_stopped) {
  run_two(two_stopped, two_stopped_ref);
}
END_TEST

/* The records a front end reads (`mi kernels`, `mi kernel N`) and
 * `continue -a`, which resumes every stopped launch. */
static const char *const all_stopped[] = {
    "break sum.cl:4 if gid == 0",
    "run",
    "mi kernels",
    "mi kernel 2",
    "kernel 2",
    "kernel 1",
    "mi kernel 2",
    "print k",
    "mi kernel 9",
    "mi kernel x",
    "continue -a",
    NULL,
};

static const char *const all_stopped_ref =
    "(lockstep) break sum.cl:4 if gid == 0\n"
    "Breakpoint 1 at sum.cl:4 if gid == 0 (pending)\n"
    "(lockstep) run\n"
    "Breakpoint 1, sum work-item (0,0,0) local (0,0,0) group (0,0,0) at sum.cl:4\n"
    "4\t  out[gid] = v + 1;\n"
    "(lockstep) mi kernels\n"
    "^mi {\"kernels\":[{\"num\":1,\"kernel\":\"sum\",\"queue\":3,\"state\":\"stopped\","
    "\"current\":1,\"item\":0,\"line\":4,\"reason\":\"breakpoint 1\",\"shown\":1},"
    "{\"num\":2,\"kernel\":\"sum\",\"queue\":4,\"state\":\"stopped\",\"current\":0,"
    "\"item\":0,\"line\":4,\"reason\":\"breakpoint 1\",\"shown\":0}]}\n"
    "(lockstep) mi kernel 2\n"
    "^mi {\"error\":\"Kernel 2 (sum) stopped; its stop is shown next.\"}\n"
    "(lockstep) kernel 2\n"
    "[Switching to kernel 2 (sum, queue 4)]\n"
    "Breakpoint 1, sum work-item (0,0,0) local (0,0,0) group (0,0,0) at sum.cl:4\n"
    "4\t  out[gid] = v + 1;\n"
    "(lockstep) kernel 1\n"
    "[Switching to kernel 1 (sum, queue 3)]\n"
    "sum work-item (0,0,0) local (0,0,0) group (0,0,0) at sum.cl:4\n"
    "4\t  out[gid] = v + 1;\n"
    "(lockstep) mi kernel 2\n"
    "^mi {\"kernel\":2,\"item\":0}\n"
    "(lockstep) print k\n"
    "$1 = 20\n"
    "(lockstep) mi kernel 9\n"
    "^mi {\"error\":\"No kernel 9; mi kernels lists the launches.\"}\n"
    "(lockstep) mi kernel x\n"
    "^mi {\"error\":\"No kernel x; mi kernels lists the launches.\"}\n"
    "(lockstep) continue -a\n"
    "Kernel sum finished.\n"
    "Kernel sum finished.\n";

START_TEST(test_continue_all) {
  run_two(all_stopped, all_stopped_ref);
}
END_TEST

/* A stop handed over after its launch closed: the remote side queues each
 * stop for its debugger thread after dbg_launch_run returned, so a launch
 * that `kernel N` showed at another launch's prompt and `continue` ended
 * (one stopped on a device exception ends at once) may be closed by the
 * time its stop is read. dbg_stopped must ignore such a launch: it reads
 * nothing, resumes nothing, prints nothing and does not touch it. */
static int resumes;
static void count_resume(void *ctx, struct dbg_launch *L) {
  (void)ctx;
  (void)L;
  resumes++;
}

static const char *const late_stop[] = {
    "break sum.cl:4 if gid == 0", "run", "delete 1", "continue", NULL,
};

START_TEST(test_stop_after_close) {
  struct fixture f;
  setup_launches(&f);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  ck_assert_ptr_nonnull(out);
  struct dbg_session *s = dbg_new(out, read_line, NULL);
  dbg_set_host_mode(s, 1);
  script = late_stop;
  next_line = 0;
  ck_assert_int_eq(dbg_prompt(s), 0);
  char why[200];
  struct dbg_launch *L = dbg_launch_open(s, f.d, &f.l[0], src, "sum.cl", "", 3, why, sizeof(why));
  ck_assert_ptr_nonnull(L);
  ck_assert_int_eq(dbg_launch_run(L), DBG_RUN_STOPPED); /* the breakpoint */
  ck_assert_int_eq(dbg_stopped(s, L, count_resume, NULL), 0);
  ck_assert_int_eq(dbg_launch_run(L), DBG_RUN_STOPPED); /* its end, to show */
  ck_assert_int_eq(dbg_stopped(s, L, count_resume, NULL), 0);
  ck_assert_int_eq(resumes, 2);
  ck_assert_int_eq(dbg_launch_run(L), DBG_RUN_ENDED);
  ck_assert_int_eq(dbg_launch_close(L, NULL), 0);
  fflush(out);
  size_t shown = len;
  ck_assert_int_eq(dbg_stopped(s, L, count_resume, NULL), 0); /* L is gone */
  fflush(out);
  ck_assert_int_eq(resumes, 2);
  ck_assert_uint_eq(len, shown);
  ck_assert_ptr_null(script[next_line]); /* and nothing was read */
  dbg_free(s);
  fclose(out);
  free(text);
  free_fixture(&f);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dbg_launch");
  CU_ADD(s, test_two_stopped);
  CU_ADD(s, test_continue_all);
  CU_ADD(s, test_stop_after_close);
  return cu_run(s);
}
