/*
 * test_cp_switch.c - launches that switch themselves out on the real
 * command processor (device/cp.c): a launch_fn returning
 * DEV_LAUNCH_SWITCHED parks its stream until cp_reissue, with the word it
 * left handed back; eight parked launches hold no processor thread, so
 * other queues run to completion meanwhile; a re-issue that comes before
 * the stream parked is not lost, a stale one changes nothing; done() comes
 * once, with the last call's status and exception. The launch functions
 * are the test's own: no kernel, no debugger.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "device/cp.h"
#include "device/device.h"
#include "device/mem.h"
#include "util/check_util.h"

#include "kconfig.h"
#include "kern_asm.h"

#define NJOBS       8
#define SWITCHES    3   /* each job switches out this often, then completes */
#define CP_NTHREADS 4   /* the processor's threads (CP_THREADS in device/cp.c) */
#define DEADLINE_S  100 /* only ever reached when something is wrong */

static uint64_t mono_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec;
}

/* Polls cond until it holds; fails the test at the deadline. */
#define WAIT_FOR(cond, what)                                                                       \
  do {                                                                                             \
    uint64_t until_ = mono_s() + DEADLINE_S;                                                       \
    while (!(cond)) {                                                                              \
      ck_assert_msg(mono_s() < until_, "timed out waiting for %s", what);                          \
      usleep(200);                                                                                 \
    }                                                                                              \
  } while (0)

/* A launch run through job_fn. */
struct job {
  struct dev_cmd cmd;
  struct cp *cp;
  unsigned stream;
  unsigned switches;       /* calls that switch out before the last one */
  int result;              /* what the last call returns */
  bool early;              /* call 0 re-issues itself before returning */
  _Atomic unsigned calls;  /* launch_fn calls */
  _Atomic uint64_t token;  /* the last switched-out call's, until re-issued */
  _Atomic unsigned dones;  /* done() calls */
  _Atomic bool bad_saved;  /* a call saw a word other than its index */
  _Atomic bool bad_stream; /* a call was told another stream */
  uint64_t first_token;
  uint64_t t_first, t_last; /* device clock at the first and last call */
  int status;
};

/* An atomic counter's value (plain, so a failed check reads well). */
static unsigned ld(_Atomic unsigned *p) {
  return atomic_load(p);
}

static int job_fn(void *arg, struct dev_device *d, const struct dev_launch *l,
                  struct dev_exception *exc, struct dev_switch *sw) {
  struct job *j = arg;
  (void)l;
  unsigned k = atomic_fetch_add(&j->calls, 1);
  uint64_t now = dev_device_now_ns(d);
  if (k == 0) {
    j->t_first = now;
    j->first_token = sw->token;
  }
  j->t_last = now;
  if (sw->saved != k) atomic_store(&j->bad_saved, true); /* the word counts the calls */
  if (sw->stream != j->stream) atomic_store(&j->bad_stream, true);
  if (k < j->switches) {
    sw->saved = k + 1;
    if (j->early && k == 0)
      cp_reissue(j->cp, sw->token); /* before the processor parked the stream */
    else
      atomic_store(&j->token, sw->token);
    return DEV_LAUNCH_SWITCHED;
  }
  if (j->result) snprintf(exc->message, sizeof exc->message, "job failed after %u switches", k);
  return j->result;
}

static void job_done(struct dev_cmd *cmd, int status) {
  struct job *j = cmd->user;
  j->status = status;
  atomic_fetch_add(&j->dones, 1);
}

static void job_init(struct job *j, struct cp *cp, unsigned stream, unsigned switches, int result) {
  memset(j, 0, sizeof *j);
  j->cp = cp;
  j->stream = stream;
  j->switches = switches;
  j->result = result;
  j->cmd.kind = DEV_CMD_LAUNCH;
  j->cmd.launch_fn = job_fn;
  j->cmd.launch_arg = j;
  j->cmd.done = job_done;
  j->cmd.user = j;
}

/* Re-issues every job that switched out since; returns how many are done. */
static unsigned reissue_all(struct cp *cp, struct job *jobs, unsigned n) {
  unsigned done = 0;
  for (unsigned i = 0; i < n; i++) {
    uint64_t t = atomic_exchange(&jobs[i].token, 0);
    if (t) cp_reissue(cp, t);
    done += atomic_load(&jobs[i].dones) > 0;
  }
  return done;
}

/* An ordinary command and its completion. */
struct plain {
  struct dev_cmd cmd;
  _Atomic unsigned dones;
  int status;
};

static void plain_done(struct dev_cmd *cmd, int status) {
  struct plain *p = cmd->user;
  p->status = status;
  atomic_fetch_add(&p->dones, 1);
}

static void plain_init(struct plain *p, enum dev_cmd_kind kind) {
  memset(p, 0, sizeof *p);
  p->cmd.kind = kind;
  p->cmd.done = plain_done;
  p->cmd.user = p;
}

/* Host commands that return only once CP_NTHREADS of them run at once, so
 * only when every processor thread is free (or at the deadline). */
static struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unsigned arrived, met;
} meet = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};

static void meet_fn(void *arg) {
  (void)arg;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += DEADLINE_S;
  pthread_mutex_lock(&meet.mu);
  meet.arrived++;
  pthread_cond_broadcast(&meet.cv);
  while (meet.arrived < CP_NTHREADS && pthread_cond_timedwait(&meet.cv, &meet.mu, &until) == 0)
    ;
  meet.met += meet.arrived >= CP_NTHREADS;
  pthread_mutex_unlock(&meet.mu);
}

static struct dev_device *mkdev(void) {
  struct dev_config c;
  dev_config_defaults(&c);
  c.host_threads = 2;
  c.warp_width = 8;
  c.engine = kc_engine();
  struct dev_device *d = dev_device_new(&c);
  ck_assert_ptr_nonnull(d);
  return d;
}

/* out[gid] := (gid * 3 + 7) ^ (gid % 5) */
static void build_arith(struct kern *kk, uint64_t out) {
  kern_init(kk, 1, &out);
  emit(kk, OP(SREG, 20, 0, 0, 0, LSI_SREG_GLOBAL_ID_X));
  emit(kk, OP(MADI, 22, 0, 20, 0, 4));
  emit(kk, OP(MOVI, 1, 0, 0, 0, 3));
  emit(kk, OP(MUL_I32, 2, 20, 1, 0, 0));
  emit(kk, OP(ADDI, 2, 2, 0, 0, 7));
  emit(kk, OP(MOVI, 3, 0, 0, 0, 5));
  emit(kk, OP(UREM_I32, 4, 20, 3, 0, 0));
  emit(kk, OP(XOR_I32, 2, 2, 4, 0, 0));
  emit(kk, OP(ST32, 0, 22, 2, 0, 0));
  emit(kk, OP(EXIT, 0, 0, 0, 0, 0));
  kk->k.ninsns = kk->n;
  for (unsigned i = 0; i < kk->n; i++)
    kk->lines[i] = (struct lsi_line){0, 100 + i};
}

#define NPLAIN 5
#define NOUT   1000

/* The ninth queue: write, fill, a kernel, a read back, a host command. */
static void submit_plain(struct cp *cp, struct dev_device *d, struct plain *p, struct kern *kk,
                         uint32_t *out, uint32_t *back, uint32_t *src) {
  uint64_t dout = dev_mem_map(dev_device_mem(d), out, NOUT * 4, false);
  ck_assert_uint_ne(dout, 0);
  for (unsigned i = 0; i < NOUT; i++)
    src[i] = 0x5000 + i;
  plain_init(&p[0], DEV_CMD_WRITE);
  p[0].cmd.dst = dout;
  p[0].cmd.host = src;
  p[0].cmd.size = NOUT * 4;
  plain_init(&p[1], DEV_CMD_FILL);
  p[1].cmd.dst = dout + 4 * (NOUT / 2);
  p[1].cmd.size = 4 * (NOUT / 2);
  p[1].cmd.pattern_size = 4;
  memset(p[1].cmd.pattern, 0xab, 4);
  plain_init(&p[2], DEV_CMD_READ);
  p[2].cmd.src = dout;
  p[2].cmd.host = back;
  p[2].cmd.size = NOUT * 4;
  build_arith(kk, dout);
  plain_init(&p[3], DEV_CMD_LAUNCH);
  p[3].cmd.launch.prog = &kk->p;
  p[3].cmd.launch.kernel = &kk->k;
  p[3].cmd.launch.work_dim = 1;
  p[3].cmd.launch.global[0] = NOUT;
  p[3].cmd.launch.local[0] = 8;
  p[3].cmd.launch.global[1] = p[3].cmd.launch.global[2] = 1;
  p[3].cmd.launch.local[1] = p[3].cmd.launch.local[2] = 1;
  p[3].cmd.launch.argbuf = kk->argbuf;
  plain_init(&p[4], DEV_CMD_HOST);
  for (unsigned i = 0; i < NPLAIN; i++)
    cp_submit(cp, 9, &p[i].cmd);
}

static void check_plain(struct plain *p, const uint32_t *out, const uint32_t *back) {
  for (unsigned i = 0; i < NPLAIN; i++) {
    ck_assert_uint_eq(ld(&p[i].dones), 1);
    ck_assert_int_eq(p[i].status, 0);
  }
  for (unsigned i = 0; i < NOUT; i++) {
    ck_assert_uint_eq(back[i], i < NOUT / 2 ? 0x5000 + i : 0xabababab);
    ck_assert_uint_eq(out[i], (i * 3 + 7) ^ (i % 5));
  }
}

static unsigned plain_done_count(struct plain *p, unsigned np) {
  unsigned n = 0;
  for (unsigned i = 0; i < np; i++)
    n += atomic_load(&p[i].dones) > 0;
  return n;
}

/* Eight queues' launches switch out SWITCHES times each; all eight are
 * parked at once while a ninth queue's commands, and host commands that
 * need every processor thread at once, run to completion; then each is
 * re-issued until it completes. Job 0 re-issues its first switch itself,
 * before the processor parked it. */
static void eight_parked(void) {
  struct dev_device *d = mkdev();
  struct cp *cp = cp_create(d);
  ck_assert_ptr_nonnull(cp);
  static struct job jobs[NJOBS];
  for (unsigned i = 0; i < NJOBS; i++) {
    job_init(&jobs[i], cp, 1 + i, SWITCHES, 0);
    jobs[i].early = i == 0;
    cp_submit(cp, jobs[i].stream, &jobs[i].cmd);
  }
  WAIT_FOR(cp_parked(cp) == NJOBS, "eight parked launches");
  ck_assert_uint_eq(ld(&jobs[0].calls), 2); /* its early re-issue was not lost */
  for (unsigned i = 1; i < NJOBS; i++)
    ck_assert_uint_eq(ld(&jobs[i].calls), 1);
  /* Stale tokens: a used one, one never given. */
  cp_reissue(cp, jobs[0].first_token);
  cp_reissue(cp, UINT64_MAX);
  ck_assert_uint_eq(cp_parked(cp), NJOBS);
  /* A released stream is freed only once its parked launch finished. */
  cp_release_stream(cp, jobs[NJOBS - 1].stream);

  static struct plain p[NPLAIN], m[CP_NTHREADS];
  static struct kern kk;
  static uint32_t out[NOUT], back[NOUT], src[NOUT];
  submit_plain(cp, d, p, &kk, out, back, src);
  WAIT_FOR(plain_done_count(p, NPLAIN) == NPLAIN, "the ninth queue");
  check_plain(p, out, back);
  meet.arrived = meet.met = 0;
  for (unsigned i = 0; i < CP_NTHREADS; i++) {
    plain_init(&m[i], DEV_CMD_HOST);
    m[i].cmd.host_fn = meet_fn;
    cp_submit(cp, 10 + i, &m[i].cmd);
  }
  WAIT_FOR(plain_done_count(m, CP_NTHREADS) == CP_NTHREADS,
           "host commands on every processor thread");
  ck_assert_uint_eq(meet.met, CP_NTHREADS);
  ck_assert_uint_eq(cp_parked(cp), NJOBS);
  for (unsigned i = 0; i < NJOBS; i++)
    ck_assert_uint_eq(ld(&jobs[i].dones), 0);

  WAIT_FOR(reissue_all(cp, jobs, NJOBS) == NJOBS, "every launch to complete");
  ck_assert_uint_eq(cp_parked(cp), 0);
  for (unsigned i = 0; i < NJOBS; i++) {
    struct job *j = &jobs[i];
    ck_assert_uint_eq(ld(&j->dones), 1);
    ck_assert_int_eq(j->status, 0);
    ck_assert_uint_eq(ld(&j->calls), SWITCHES + 1);
    ck_assert_msg(!atomic_load(&j->bad_saved), "job %u was handed a wrong word", i);
    ck_assert_msg(!atomic_load(&j->bad_stream), "job %u was told a wrong stream", i);
    ck_assert_uint_le(j->cmd.t_start, j->t_first);
    ck_assert_uint_ge(j->cmd.t_end, j->t_last);
    cp_reissue(cp, j->first_token); /* stale: nothing happens */
  }
  cp_destroy(cp);
  dev_device_free(d);
  for (unsigned i = 0; i < NJOBS; i++)
    ck_assert_uint_eq(ld(&jobs[i].calls), SWITCHES + 1);
}

START_TEST(eight_parked_launches_leave_every_thread_free) {
  eight_parked();
}
END_TEST

static unsigned count(const char *text, const char *what) {
  unsigned n = 0;
  for (const char *p = text; (p = strstr(p, what)); p++)
    n++;
  return n;
}

/* The same with a forced switch after every step (each replay must call
 * no launch_fn twice), and the device trace showing each switch and
 * re-issue once. */
START_TEST(eight_parked_launches_with_forced_switches) {
  char path[] = "/tmp/lockstep_cp_switch_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  setenv("LOCKSTEP_CP_SWITCH_EVERY", "1", 1);
  setenv("LOCKSTEP_TRACE", path, 1);
  eight_parked();
  unsetenv("LOCKSTEP_CP_SWITCH_EVERY");
  unsetenv("LOCKSTEP_TRACE");
  char *text = cu_read_file(path, NULL);
  unlink(path);
  ck_assert_ptr_nonnull(text);
  ck_assert_uint_eq(count(text, "\"switched out (launch_fn)\""), NJOBS * SWITCHES);
  ck_assert_uint_eq(count(text, "\"reissued\""), NJOBS * SWITCHES);
  ck_assert_uint_gt(count(text, "(forced)"), 0);
  free(text);
}
END_TEST

/* After a switch, an error from launch_fn is the command's status and
 * exception; so is a return outside the contract, as a failure. */
START_TEST(error_after_a_switch_fails_the_command) {
  struct dev_device *d = mkdev();
  struct cp *cp = cp_create(d);
  ck_assert_ptr_nonnull(cp);
  static struct job jobs[2];
  job_init(&jobs[0], cp, 1, 1, -54); /* CL_INVALID_WORK_GROUP_SIZE */
  job_init(&jobs[1], cp, 2, 2, 7);
  static struct plain after;
  plain_init(&after, DEV_CMD_NOP);
  for (unsigned i = 0; i < 2; i++)
    cp_submit(cp, jobs[i].stream, &jobs[i].cmd);
  cp_submit(cp, 1, &after.cmd); /* the stream goes on after the failure */
  WAIT_FOR(reissue_all(cp, jobs, 2) == 2, "both launches to end");
  WAIT_FOR(atomic_load(&after.dones) == 1, "the command after the failed one");
  ck_assert_uint_eq(ld(&jobs[0].dones), 1);
  ck_assert_int_eq(jobs[0].status, -54);
  ck_assert_str_eq(jobs[0].cmd.exc.message, "job failed after 1 switches");
  ck_assert_uint_eq(ld(&jobs[0].calls), 2);
  ck_assert_uint_eq(ld(&jobs[1].dones), 1);
  ck_assert_int_eq(jobs[1].status, -5);
  ck_assert_str_eq(jobs[1].cmd.exc.message, "device exception: the launch function returned 7");
  ck_assert_uint_eq(ld(&jobs[1].calls), 3);
  ck_assert_int_eq(after.status, 0);
  ck_assert_uint_eq(cp_parked(cp), 0);
  cp_destroy(cp);
  dev_device_free(d);
}
END_TEST

int main(void) {
  Suite *s = suite_create("cp_switch");
  CU_ADD(s, eight_parked_launches_leave_every_thread_free);
  CU_ADD(s, eight_parked_launches_with_forced_switches);
  CU_ADD(s, error_after_a_switch_fails_the_command);
  return cu_run(s);
}
