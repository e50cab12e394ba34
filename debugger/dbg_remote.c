/*
 * dbg_remote.c - host-program mode, library side. When LOCKSTEP_DEBUG_FD
 * names a socket inherited from `lockstep debug` (or the DAP adapter) for
 * this very process, the library connects back at its first use, builds
 * programs with -g, and runs every kernel launch under the debug engine.
 * The engine's text and the commands travel over the line protocol
 * described in debugger/README.md.
 *
 * A stop is a command-processor switch (seeds 000 and 001): the launch hook
 * runs one stretch of its launch on the processor thread that runs it;
 * when the launch stops, the hook hands it to the debugger thread and
 * returns DEV_LAUNCH_SWITCHED, so that processor thread goes on with other
 * streams while the user thinks. The debugger thread, the one thread that
 * talks to the front end, reports the stops one by one and prompts; each
 * launch a command resumes is re-issued on its stream, whose replay calls
 * the hook again with the launch's saved state. Any number of launches, from
 * any queue or host thread, can be stopped at once.
 *
 * Everything lives in one object, `R`: what several threads read is atomic
 * or under its locks, the rest belongs to the debugger thread. It changes
 * nothing when the variable is unset, never edits the host's environment,
 * and never writes to the host program's stdout or stderr.
 */
#define _GNU_SOURCE /* fopencookie */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debugger/dbg.h"
#include "device/device.h"
#include "device/lsi.h"
#include "device/simt.h"
#include "runtime/hooks.h"

#define MAX_SOURCE_FILE (4u << 20)

/* What this side keeps for each launch under the engine (its user
 * pointer), from its open to its close: the token of its latest issue (a
 * re-issue names it) and the interrupts taken when it was last set
 * running, so an interrupt pauses exactly the launches running when it
 * came, each one whenever its work-items next ask. */
struct rlaunch {
  _Atomic uint64_t token;
  _Atomic unsigned igen;
};

/* A stopped launch waiting to be reported. */
struct stop_ev {
  struct stop_ev *next;
  struct dbg_launch *L;
};

/* What the debugger thread tells the front end about the program. */
enum { FE_HOST, FE_RUNNING };

static struct remote {
  pthread_once_t once;
  struct dbg_session *sess; /* set once, before any other thread uses it */
  int sock;
  _Atomic int detached; /* the front end quit or went away: launches run normally */
  /* Sending: the engine's text as "out TEXT" lines and protocol lines, from
   * any thread, one line at a time. */
  pthread_mutex_t send_mu;
  FILE *out;
  char *line_buf; /* the output line being written (an `mi` record may be long) */
  size_t line_len, line_cap;
  int sent_out; /* output went out since the last sync */
  /* Receiving: only the debugger thread (and, before it starts, the host
   * thread that connects). */
  char rbuf[4096];
  size_t rlen, rpos;
  /* Stops to report and what wakes the debugger thread. */
  pthread_mutex_t mu;
  struct stop_ev *head, *tail;
  int wake[2];            /* a byte on wake[1]: look at the queue and the counters */
  struct dev_device *dev; /* where launches are re-issued */
  unsigned nqueued;       /* stops queued so far (`waiting` tells the front end) */
  /* launches that run now: from a launch's start or re-issue to its next
   * stop or its end */
  _Atomic unsigned nrunning;
  _Atomic unsigned igen; /* interrupts taken so far */
  /* What the front end was told runs (`running N`, `host`): a launch's
   * thread says `running N` itself before its work-items run, unless the
   * debugger thread is reporting a stop or prompting (it says it then). */
  pthread_mutex_t state_mu;
  int fe_state;   /* FE_* as last told */
  unsigned epoch; /* of the last `running N` */
  int serving;    /* the debugger thread reports a stop or prompts */
  /* The debugger thread's own. */
  pthread_t thread;
  unsigned announced; /* R.nqueued when `waiting` was last sent */
  int hist_sent;      /* values of the history the front end has (`hist`) */
} R = {
    .once = PTHREAD_ONCE_INIT,
    .sock = -1,
    .send_mu = PTHREAD_MUTEX_INITIALIZER,
    .mu = PTHREAD_MUTEX_INITIALIZER,
    .wake = {-1, -1},
    .state_mu = PTHREAD_MUTEX_INITIALIZER,
};

/* ---- sending ---- */

/* Under send_mu. */
static void send_locked(const char *p, size_t n) {
  while (n && R.sock >= 0 && !atomic_load(&R.detached)) {
    ssize_t w = send(R.sock, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      atomic_store(&R.detached, 1);
      return;
    }
    p += w;
    n -= (size_t)w;
  }
}

/* Under send_mu: the partial output line, if any, as an "out" line. */
static void flush_out_line(void) {
  R.sent_out = 1;
  send_locked("out ", 4);
  send_locked(R.line_buf, R.line_len);
  send_locked("\n", 1);
  R.line_len = 0;
}

/* One protocol line (text without its newline). */
static void send_line(const char *text) {
  pthread_mutex_lock(&R.send_mu);
  if (R.line_len) flush_out_line();
  send_locked(text, strlen(text));
  send_locked("\n", 1);
  pthread_mutex_unlock(&R.send_mu);
}

static ssize_t out_write(void *cookie, const char *buf, size_t n) {
  (void)cookie;
  pthread_mutex_lock(&R.send_mu);
  for (size_t i = 0; i < n; i++) {
    if (buf[i] == '\n') {
      flush_out_line();
      continue;
    }
    if (R.line_len == R.line_cap) {
      size_t cap = R.line_cap ? R.line_cap * 2 : 4096;
      char *b = realloc(R.line_buf, cap);
      if (b) {
        R.line_buf = b;
        R.line_cap = cap;
      } else { /* out of memory: the line goes out in pieces */
        flush_out_line();
        if (!R.line_cap) continue;
      }
    }
    R.line_buf[R.line_len++] = buf[i] == '\r' ? ' ' : buf[i];
  }
  pthread_mutex_unlock(&R.send_mu);
  return (ssize_t)n;
}

/* Everything the engine wrote, out as whole lines. */
static void flush_out(void) {
  fflush(R.out);
  pthread_mutex_lock(&R.send_mu);
  if (R.line_len) flush_out_line();
  pthread_mutex_unlock(&R.send_mu);
}

/* ---- receiving (the debugger thread, or the host thread before it) ---- */

/* Whether a whole line is buffered. */
static int line_ready(void) {
  return R.rpos < R.rlen && memchr(R.rbuf + R.rpos, '\n', R.rlen - R.rpos) != NULL;
}

/* One protocol line from the front end (malloc'd, no newline), or NULL at
 * its end (the front end went away: detached). */
static char *recv_line(void) {
  size_t cap = 256, n = 0;
  char *l = malloc(cap);
  if (!l) return NULL;
  for (;;) {
    if (R.rpos == R.rlen) {
      ssize_t r = R.sock >= 0 ? recv(R.sock, R.rbuf, sizeof(R.rbuf), 0) : 0;
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        free(l);
        atomic_store(&R.detached, 1);
        return NULL;
      }
      R.rlen = (size_t)r;
      R.rpos = 0;
    }
    char c = R.rbuf[R.rpos++];
    if (c == '\n') break;
    if (n + 1 == cap) {
      char *m = realloc(l, cap *= 2);
      if (!m) {
        free(l);
        return NULL;
      }
      l = m;
    }
    l[n++] = c;
  }
  l[n] = 0;
  return l;
}

/* ---- what the front end is told between prompts ---- */

/* Under state_mu: `running N` once work-items run again, `host` once none
 * do and no stop waits to be reported: what Ctrl-C means at the front end.
 * A pause asked for in one period never reaches the next: a launch set
 * running since counts the interrupts taken by then (struct rlaunch). */
static void tell_locked(int state) {
  if (state == R.fe_state || atomic_load(&R.detached)) return;
  R.fe_state = state;
  if (state == FE_RUNNING) {
    char msg[32];
    snprintf(msg, sizeof(msg), "running %u", ++R.epoch);
    send_line(msg);
  } else {
    send_line("host");
  }
}

static void tell_state(int state) {
  pthread_mutex_lock(&R.state_mu);
  tell_locked(state);
  pthread_mutex_unlock(&R.state_mu);
}

/* The debugger thread starts (1) or ends (0) reporting a stop and
 * prompting; at the end it says `running N` when launches run. */
static void set_serving(int on) {
  pthread_mutex_lock(&R.state_mu);
  R.serving = on;
  if (!on && atomic_load(&R.nrunning)) tell_locked(FE_RUNNING);
  pthread_mutex_unlock(&R.state_mu);
}

/* A launch's thread, before its work-items first run: the front end hears
 * `running N` before anything they print (unless a prompt is under way:
 * the debugger thread says it when the prompt ends). */
static void announce_running(void) {
  pthread_mutex_lock(&R.state_mu);
  if (!R.serving) tell_locked(FE_RUNNING);
  pthread_mutex_unlock(&R.state_mu);
}

/* A line that came while no prompt waits: `interrupt N` (or a bare
 * `interrupt`, the DAP adapter's) pauses the launches running now when N
 * is the current period; anything else is dropped. */
static void take_async_line(char *l) {
  char *end;
  pthread_mutex_lock(&R.state_mu);
  int hit = !strcmp(l, "interrupt") ||
            (!strncmp(l, "interrupt ", 10) && strtoul(l + 10, &end, 10) == R.epoch && !*end);
  if (hit && R.fe_state == FE_RUNNING) atomic_fetch_add(&R.igen, 1);
  pthread_mutex_unlock(&R.state_mu);
  free(l);
}

/* Sends what `info breakpoints` and `info display` show (`info b TEXT`,
 * `info d TEXT`, after `info begin`), so the front end can show them once
 * the program has exited. */
static void send_info(void) {
  send_line("info begin");
  for (int what = 1; what >= 0; what--) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return;
    dbg_info_to(R.sess, what, f);
    fclose(f);
    for (char *l = buf, *e; l && *l; l = e ? e + 1 : NULL) {
      e = strchr(l, '\n');
      if (e) *e = 0;
      char *msg;
      if (asprintf(&msg, "info %c %s", what ? 'b' : 'd', l) >= 0) {
        send_line(msg);
        free(msg);
      }
      if (!e) break;
    }
    free(buf);
  }
}

/* `waiting` once a launch stopped (or a new one waits at its start) since
 * the last one, while the front end holds the prompt or a command runs:
 * its stop is reported after the next resuming command, but a front end
 * that serves several stopped launches at once shows it now (`kernel N`). */
static void announce_waiting(void) {
  pthread_mutex_lock(&R.mu);
  int news = R.head && R.nqueued != R.announced;
  R.announced = R.nqueued;
  pthread_mutex_unlock(&R.mu);
  if (news) send_line("waiting");
}

/* Waits for a line from the front end; stops that come meanwhile are
 * announced. */
static void wait_command(void) {
  while (!line_ready() && R.sock >= 0 && !atomic_load(&R.detached)) {
    struct pollfd p[2] = {{R.sock, POLLIN, 0}, {R.wake[0], POLLIN, 0}};
    if (poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (p[1].revents & POLLIN) {
      char buf[64]; /* the debugger thread looks at the queue again after the prompt */
      while (read(R.wake[0], buf, sizeof(buf)) > 0)
        ;
      announce_waiting();
    }
    if (p[0].revents) return;
  }
}

/* `hist TEXT` for each value printed since the last prompt, `conv NAME
 * TEXT` for each convenience variable: the front end keeps them once the
 * program has exited. */
static void send_history(void) {
  for (const char *t; (t = dbg_hist_text(R.sess, R.hist_sent)); R.hist_sent++) {
    char *msg;
    if (asprintf(&msg, "hist %s", t) < 0) return;
    for (char *c = msg; *c; c++)
      if (*c == '\n') *c = ' ';
    send_line(msg);
    free(msg);
  }
  char name[32], text[200], msg[256];
  for (int i = 0; dbg_conv_text(R.sess, i, name, sizeof(name), text, sizeof(text)); i++) {
    snprintf(msg, sizeof(msg), "conv %s %s", name, text);
    send_line(msg);
  }
}

/* dbg_complete_fn: a word of the `completions` reply. */
static void add_word(void *ctx, const char *word) {
  FILE *f = ctx;
  fprintf(f, "\t%s", word);
}

/* `complete TEXT` (Tab at the front end's prompt): `completions AT`, then
 * a tab and a word for each word that can replace TEXT's last word, which
 * starts AT bytes in (dbg_complete), all on one line. */
static void answer_complete(const char *text) {
  char *words = NULL, *line = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&words, &len);
  if (!f) return;
  size_t at = dbg_complete(R.sess, text, add_word, f);
  fclose(f);
  if (asprintf(&line, "completions %zu%s", at, words) >= 0) {
    send_line(line);
    free(line);
  }
  free(words);
}

/* dbg_read_fn: asks the front end for one command. */
static char *remote_read(void *ctx, const char *prompt) {
  (void)ctx;
  (void)prompt;
  flush_out();
  if (atomic_load(&R.detached)) return NULL;
  pthread_mutex_lock(&R.state_mu);
  R.fe_state = FE_HOST; /* a prompt ends the period: the next `running` is a new one */
  pthread_mutex_unlock(&R.state_mu);
  send_info();
  send_history();
  announce_waiting();
  send_line("prompt");
  for (;;) {
    wait_command();
    char *l = recv_line();
    if (!l) return NULL;
    if (!strncmp(l, "cmd ", 4)) {
      memmove(l, l + 4, strlen(l + 4) + 1);
      return l;
    }
    if (!strcmp(l, "cmd")) {
      l[0] = 0;
      return l;
    }
    if (!strncmp(l, "complete ", 9) || !strcmp(l, "complete")) answer_complete(l[8] ? l + 9 : "");
    if (!strncmp(l, "hist ", 5) && dbg_hist_add_text(R.sess, l + 5))
      R.hist_sent++; /* a value of an earlier run: the front end has it */
    if (!strncmp(l, "conv ", 5)) dbg_conv_set_text(R.sess, l + 5);
    free(l); /* unknown requests are ignored: newer front ends may send more */
  }
}

/* dbg_poll_fn, asked by L's running work-items: has an interrupt come
 * since L was set running? (Once the user quit, nothing pauses.) */
static int remote_interrupt(void *ctx, struct dbg_launch *L) {
  (void)ctx;
  struct rlaunch *r = dbg_launch_user(L);
  return r && !atomic_load(&R.detached) && atomic_load(&r->igen) != atomic_load(&R.igen);
}

/* dbg_gone_fn: `gone N` tells the front end a hit deleted temporary
 * breakpoint N. */
static void remote_temp_gone(int id) {
  char msg[32];
  snprintf(msg, sizeof(msg), "gone %d", id);
  send_line(msg);
}

/* Waits until the front end has shown everything sent so far, so the host
 * program's own output, which goes straight to the terminal, comes after. */
static void sync_output(void) {
  flush_out();
  pthread_mutex_lock(&R.send_mu);
  int sent = R.sent_out;
  R.sent_out = 0;
  pthread_mutex_unlock(&R.send_mu);
  if (!sent || atomic_load(&R.detached)) return;
  send_line("sync");
  for (char *l; (l = recv_line());) {
    if (!strcmp(l, "ack")) {
      free(l);
      break;
    }
    take_async_line(l);
  }
}

/* ---- the debugger thread ---- */

static void wake_debugger(void) {
  char b = 1;
  while (write(R.wake[1], &b, 1) < 0 && errno == EINTR)
    ;
}

/* The next stopped launch to report, or NULL. */
static struct dbg_launch *pop_stop(void) {
  pthread_mutex_lock(&R.mu);
  struct stop_ev *e = R.head;
  if (e) {
    R.head = e->next;
    if (!R.head) R.tail = NULL;
  }
  pthread_mutex_unlock(&R.mu);
  struct dbg_launch *L = e ? e->L : NULL;
  free(e);
  return L;
}

/* dbg_resume_fn: the launch goes on. Its stream is re-issued once the front
 * end has shown what was said about it. */
static void resume_launch(void *ctx, struct dbg_launch *L) {
  (void)ctx;
  sync_output();
  pthread_mutex_lock(&R.mu);
  /* a stop not reported yet (`continue -a`, quit) is not reported now */
  for (struct stop_ev **pp = &R.head; *pp;) {
    struct stop_ev *e = *pp;
    if (e->L == L) {
      *pp = e->next;
      free(e);
    } else {
      pp = &e->next;
    }
  }
  R.tail = NULL;
  for (struct stop_ev *e = R.head; e; e = e->next)
    R.tail = e;
  struct dev_device *d = R.dev;
  pthread_mutex_unlock(&R.mu);
  struct rlaunch *r = dbg_launch_user(L);
  atomic_store(&r->igen, atomic_load(&R.igen)); /* it runs in the next period */
  atomic_fetch_add(&R.nrunning, 1);
  tell_state(FE_RUNNING); /* before its work-items run and print */
  dev_device_reissue(d, atomic_load(&r->token));
}

/* Reports a stopped launch and prompts until something resumes. */
static void serve_stop(struct dbg_launch *L) {
  set_serving(1);
  if (dbg_stopped(R.sess, L, resume_launch, NULL)) {
    atomic_store(&R.detached, 1); /* the user quit: every launch finishes undebugged */
    dbg_kept_clear(R.sess);
  }
  flush_out();
  set_serving(0);
}

/* Waits for a stop to report, a change in what runs, or a line from the
 * front end (an interrupt), and tells the front end what runs. */
static void wait_event(void) {
  struct pollfd p[2] = {{R.wake[0], POLLIN, 0}, {R.sock, POLLIN, 0}};
  int nfd = atomic_load(&R.detached) ? 1 : 2;
  if (line_ready()) {
    char *l = recv_line();
    if (l) take_async_line(l);
    return;
  }
  if (poll(p, (nfds_t)nfd, -1) < 0) return;
  if (p[0].revents & POLLIN) {
    char buf[64];
    if (read(R.wake[0], buf, sizeof(buf)) < 0 && errno != EINTR && errno != EAGAIN) return;
  }
  if (nfd == 2 && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
    char *l = recv_line();
    if (l) take_async_line(l);
  }
}

static void *debugger_thread(void *arg) {
  (void)arg;
  for (;;) {
    struct dbg_launch *L = pop_stop();
    if (L) {
      serve_stop(L);
      continue;
    }
    pthread_mutex_lock(&R.state_mu); /* nrunning read under it: see announce_running */
    tell_locked(atomic_load(&R.nrunning) ? FE_RUNNING : FE_HOST);
    pthread_mutex_unlock(&R.state_mu);
    wait_event();
  }
  return NULL;
}

/* ---- connecting ---- */

/* The socket LOCKSTEP_DEBUG_FD names as "FD:PID", when PID is this process
 * (a program the host program starts inherits the variable, not the
 * socket: it is closed on exec), else -1. */
static int debug_fd(void) {
  const char *v = getenv("LOCKSTEP_DEBUG_FD");
  if (!v || !*v) return -1;
  char *end;
  long fd = strtol(v, &end, 10);
  if (*end != ':' || fd < 0 || fd > 1 << 20) return -1;
  long pid = strtol(end + 1, &end, 10);
  if (*end || pid != (long)getpid() || fcntl((int)fd, F_GETFD) < 0) return -1;
  return (int)fd;
}

static void add_source_dirs(void) {
  const char *dirs = getenv("LOCKSTEP_DEBUG_DIRS");
  if (!dirs) return;
  char *copy = strdup(dirs), *save = NULL;
  for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save))
    dbg_add_source_dir(R.sess, d);
  free(copy);
}

static void connect_once(void) {
  int fd = debug_fd();
  if (fd < 0) return;
  if (pipe2(R.wake, O_CLOEXEC | O_NONBLOCK)) return;
  R.sock = fd;
  fcntl(R.sock, F_SETFD, FD_CLOEXEC);
  cookie_io_functions_t io = {.write = out_write};
  R.out = fopencookie(NULL, "w", io);
  if (!R.out) return;
  setvbuf(R.out, NULL, _IOLBF, 0);
  struct dbg_session *s = dbg_new(R.out, remote_read, NULL);
  if (!s) return;
  R.sess = s;
  dbg_set_host_mode(s, 1);
  dbg_set_interrupt(s, remote_interrupt, NULL);
  dbg_set_temp_gone(s, remote_temp_gone);
  add_source_dirs();
  char hello[64];
  snprintf(hello, sizeof(hello), "hello 1 %ld", (long)getpid());
  send_line(hello);
  if (dbg_prompt(s)) atomic_store(&R.detached, 1);
  R.fe_state = FE_RUNNING; /* so that the thread says `host` first */
  if (pthread_create(&R.thread, NULL, debugger_thread, NULL)) {
    atomic_store(&R.detached, 1);
    return;
  }
  pthread_detach(R.thread);
}

int dbg_remote_active(void) {
  pthread_once(&R.once, connect_once);
  return R.sess != NULL && !atomic_load(&R.detached);
}

/* ---- naming a program by its file ---- */

/* How the file at path matches a program's text: 2 when it holds exactly
 * text (trailing white space aside), 1 when it holds the text's first lines
 * and the lines after them define no kernel (pyopencl's cache appends a
 * `__constant int pyopencl_defeat_cache_...` line to every source it
 * builds), else 0. *plen gets the length of the file's text. */
static int same_text(const char *path, const char *text, size_t tlen, size_t *plen) {
  struct stat st;
  if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > MAX_SOURCE_FILE) return 0;
  if (tlen + 64 < (size_t)st.st_size) return 0;
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char *buf = malloc((size_t)st.st_size + 1);
  size_t n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
  fclose(f);
  if (!buf) return 0;
  while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\n' || buf[n - 1] == '\t' || buf[n - 1] == '\r'))
    n--;
  int same = 0;
  if (n == tlen && !memcmp(buf, text, n))
    same = 2;
  else if (n && n < tlen && !memcmp(buf, text, n)) {
    /* the file ends at the end of one of the text's lines */
    size_t i = n;
    while (i < tlen && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
      i++;
    if (i < tlen && text[i] == '\n' && !memmem(text + i, tlen - i, "kernel", 6)) same = 1;
  }
  free(buf);
  *plen = n;
  return same;
}

/* Finds a file whose contents are the program's source, else the longest
 * file whose contents are its first lines (see same_text). */
static int find_source(const char *src, char *file, size_t len) {
  size_t tlen = strlen(src);
  while (tlen && (src[tlen - 1] == ' ' || src[tlen - 1] == '\n' || src[tlen - 1] == '\t' ||
                  src[tlen - 1] == '\r'))
    tlen--;
  size_t best = 0;      /* length of the longest first-lines match so far */
  char dir[3800] = "."; /* with a file name, a path fits 4096 bytes */
  for (int i = -1; i < 0 || dbg_source_dir(R.sess, i, dir, sizeof(dir)); i++) {
    DIR *d = opendir(dir);
    if (!d) continue;
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d));) {
      if (e->d_name[0] == '.') continue;
      char path[4096];
      if (i < 0)
        snprintf(path, sizeof(path), "%s", e->d_name);
      else
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
      size_t n = 0;
      int same = same_text(path, src, tlen, &n);
      if (same == 2 || (same == 1 && n > best)) {
        snprintf(file, len, "%s", path);
        found = same == 2;
        best = n;
      }
    }
    closedir(d);
    if (found) return 1;
  }
  return best > 0;
}

/* ---- the launch hook ---- */

/* Opens a launch under the engine with its struct rlaunch, or NULL to run
 * it normally. */
static struct dbg_launch *open_launch(struct dev_device *d, const struct dev_launch *l,
                                      const struct rt_program_text *pt,
                                      const struct dev_switch *sw) {
  const char *src = pt ? pt->source : NULL;
  char file[4096], why[200];
  if (!src || !find_source(src, file, sizeof(file)))
    snprintf(file, sizeof(file), "%s",
             l->prog && l->prog->nkernels ? l->prog->kernels[0].name : l->kernel->name);
  pthread_mutex_lock(&R.mu);
  R.dev = d;
  pthread_mutex_unlock(&R.mu);
  struct rlaunch *r = calloc(1, sizeof(*r));
  struct dbg_launch *L = r ? dbg_launch_open(R.sess, d, l, src, file, pt ? pt->options : NULL,
                                             sw->stream, why, sizeof(why))
                           : NULL;
  if (!L) {
    fprintf(R.out, "%s\n", r ? why : "out of memory for the debugger's launch");
    flush_out();
    free(r);
    return NULL;
  }
  atomic_store(&r->igen, atomic_load(&R.igen));
  dbg_launch_set_user(L, r);
  return L;
}

/* Closes L (dbg_launch_close) and what this side kept for it. */
static int close_launch(struct dbg_launch *L, struct dev_exception *exc) {
  struct rlaunch *r = dbg_launch_user(L);
  int rc = dbg_launch_close(L, exc);
  free(r);
  return rc;
}

int dbg_remote_launch(void *arg, struct dev_device *d, const struct dev_launch *l,
                      struct dev_exception *exc, struct dev_switch *sw) {
  struct dbg_launch *L = (struct dbg_launch *)(uintptr_t)sw->saved;
  if (!L) {
    if (!dbg_remote_active() || !(L = open_launch(d, l, arg, sw))) return simt_launch(d, l, exc);
    atomic_fetch_add(&R.nrunning, 1);
    announce_running();
  }
  /* each issue has its own token: the one a re-issue of this stop names */
  atomic_store(&((struct rlaunch *)dbg_launch_user(L))->token, sw->token);
  int r = dbg_launch_run(L);
  if (r == DBG_RUN_STOPPED) {
    struct stop_ev *e = malloc(sizeof(*e));
    if (e) {
      sw->saved = (uint64_t)(uintptr_t)L;
      e->next = NULL;
      e->L = L;
      pthread_mutex_lock(&R.mu);
      if (R.tail)
        R.tail->next = e;
      else
        R.head = e;
      R.tail = e;
      R.nqueued++;
      pthread_mutex_unlock(&R.mu);
      atomic_fetch_sub(&R.nrunning, 1);
      wake_debugger();
      return DEV_LAUNCH_SWITCHED;
    }
    /* no memory to hand the stop over: nobody could resume it, so it
     * ends here with an exception rather than waiting forever */
    memset(exc, 0, sizeof(*exc));
    snprintf(exc->message, sizeof(exc->message),
             "device exception: out of host memory stopping kernel %s for the debugger",
             l->kernel->name);
    close_launch(L, NULL);
    atomic_fetch_sub(&R.nrunning, 1);
    wake_debugger();
    return -6; /* CL_OUT_OF_HOST_MEMORY */
  }
  int rc = close_launch(L, exc);
  atomic_fetch_sub(&R.nrunning, 1);
  wake_debugger();
  return rc;
}

/* Under `lockstep debug` every program is built with -g (which implies
 * -cl-opt-disable), so the debug tables are complete. */
static char *remote_build_options(const char *options) {
  size_t n = strlen(options) + 4;
  char *s = malloc(n);
  if (s) snprintf(s, n, "%s%s-g", options, *options ? " " : "");
  return s;
}

static const struct rt_hooks remote_hooks = {
    .active = dbg_remote_active,
    .build_options = remote_build_options,
    .launch_fn = dbg_remote_launch,
};

__attribute__((constructor)) static void remote_install(void) {
  rt_hooks_install(&remote_hooks);
}
