/*
 * dbg_remote.c - host-program mode, library side. When LOCKSTEP_DEBUG_FD
 * names a socket inherited from `lockstep debug`, the library connects back
 * at its first use, builds programs with -g, and runs every kernel launch
 * under the debug engine on the device thread. The engine's text and the
 * commands travel over the line protocol described in debugger/README.md.
 *
 * It must change nothing when the variable is unset, and must never write
 * to the host program's stdout or stderr: everything goes to the socket.
 */
#define _GNU_SOURCE /* fopencookie */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debugger/dbg.h"
#include "device/lsi.h"
#include "device/simt.h"
#include "runtime/hooks.h"

#define MAX_SOURCE_FILE (4u << 20)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t busy = PTHREAD_MUTEX_INITIALIZER; /* one stopped launch at a time */
static int sock = -1;
static int detached; /* the front end quit or went away: launches run normally */
static FILE *out;    /* the engine's output, framed as "out TEXT" lines */
static struct dbg_session *sess;
static char line_buf[4096];
static size_t line_len;
static char rbuf[4096];
static size_t rlen, rpos;

static void send_all(const char *p, size_t n) {
  while (n && sock >= 0) {
    ssize_t w = send(sock, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      detached = 1;
      return;
    }
    p += w;
    n -= (size_t)w;
  }
}

static int sent_out; /* output went out since the last sync */

static void send_out_line(void) {
  sent_out = 1;
  send_all("out ", 4);
  send_all(line_buf, line_len);
  send_all("\n", 1);
  line_len = 0;
}

static ssize_t out_write(void *cookie, const char *buf, size_t n) {
  (void)cookie;
  for (size_t i = 0; i < n; i++) {
    if (buf[i] == '\n') {
      send_out_line();
      continue;
    }
    if (line_len == sizeof(line_buf)) send_out_line();
    line_buf[line_len++] = buf[i] == '\r' ? ' ' : buf[i];
  }
  return (ssize_t)n;
}

/* One protocol line from the front end (malloc'd, no newline) or NULL. */
static char *recv_line(void) {
  size_t cap = 256, n = 0;
  char *l = malloc(cap);
  if (!l) return NULL;
  for (;;) {
    if (rpos == rlen) {
      ssize_t r = sock >= 0 ? recv(sock, rbuf, sizeof(rbuf), 0) : 0;
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        free(l);
        detached = 1;
        return NULL;
      }
      rlen = (size_t)r;
      rpos = 0;
    }
    char c = rbuf[rpos++];
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

/* Has the front end been told that work-items run (`running N`) since
 * the last prompt or launch? N counts those periods: an `interrupt N` of
 * an earlier one, which crossed the prompt or the launch's end on the way,
 * pauses nothing. */
static int running;
static unsigned epoch;

/* The host program runs its own code again: no launch can be paused. */
static void say_host(void) {
  running = 0;
  if (!detached) send_all("host\n", 5);
}

/* Sends what `info breakpoints` and `info display` show (`info b TEXT`,
 * `info d TEXT`, after `info begin`), so the front end can show them once
 * the program has exited. */
static void send_info(void) {
  send_all("info begin\n", 11);
  for (int what = 1; what >= 0; what--) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return;
    dbg_info_to(sess, what, f);
    fclose(f);
    for (char *l = buf, *e; l && *l; l = e ? e + 1 : NULL) {
      e = strchr(l, '\n');
      if (e) *e = 0;
      char head[8];
      snprintf(head, sizeof(head), "info %c ", what ? 'b' : 'd');
      send_all(head, strlen(head));
      send_all(l, strlen(l));
      send_all("\n", 1);
      if (!e) break;
    }
    free(buf);
  }
}

/* dbg_read_fn: asks the front end for one command. */
static char *remote_read(void *ctx, const char *prompt) {
  (void)ctx;
  (void)prompt;
  fflush(out);
  if (line_len) send_out_line();
  running = 0;
  if (detached) return NULL;
  send_info();
  send_all("prompt\n", 7);
  for (;;) {
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
    free(l); /* unknown requests are ignored: newer front ends may send more */
  }
}

/* dbg_poll_fn: has the front end asked to pause the running launch? It
 * sends `interrupt` lines only then; anything else is dropped. The first
 * call after a prompt or a launch's start tells it that work-items run. */
static int remote_interrupt(void *ctx) {
  (void)ctx;
  if (!running && !detached) {
    char msg[32];
    running = 1;
    snprintf(msg, sizeof(msg), "running %u\n", ++epoch);
    send_all(msg, strlen(msg));
  }
  int hit = 0;
  for (;;) {
    if (rpos == rlen) {
      struct pollfd p = {.fd = sock, .events = POLLIN};
      if (detached || sock < 0 || poll(&p, 1, 0) <= 0) break;
    }
    char *l = recv_line();
    if (!l) break;
    char *end;
    if (!strcmp(l, "interrupt"))
      hit = 1;
    else if (!strncmp(l, "interrupt ", 10) && strtoul(l + 10, &end, 10) == epoch && !*end)
      hit = 1;
    free(l);
  }
  return hit;
}

/* dbg_gone_fn: `gone N` tells the front end a hit deleted temporary
 * breakpoint N. */
static void remote_temp_gone(int id) {
  char msg[32];
  if (detached) return;
  snprintf(msg, sizeof(msg), "gone %d\n", id);
  send_all(msg, strlen(msg));
}

static void connect_once(void) {
  const char *v = getenv("LOCKSTEP_DEBUG_FD");
  if (!v || !*v) return;
  char *end;
  long fd = strtol(v, &end, 10);
  if (*end || fd < 0 || fd > 1 << 20 || fcntl((int)fd, F_GETFD) < 0) return;
  sock = (int)fd;
  fcntl(sock, F_SETFD, FD_CLOEXEC);
  cookie_io_functions_t io = {.write = out_write};
  out = fopencookie(NULL, "w", io);
  if (!out) return;
  setvbuf(out, NULL, _IOLBF, 0);
  sess = dbg_new(out, remote_read, NULL);
  if (!sess) return;
  dbg_set_host_mode(sess, 1);
  dbg_set_interrupt(sess, remote_interrupt, NULL);
  dbg_set_temp_gone(sess, remote_temp_gone);
  const char *dirs = getenv("LOCKSTEP_DEBUG_DIRS");
  if (dirs) {
    char *copy = strdup(dirs), *save = NULL;
    for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save))
      dbg_add_source_dir(sess, d);
    free(copy);
  }
  /* a child process of the host program must not connect to the same socket */
  unsetenv("LOCKSTEP_DEBUG_FD");
  unsetenv("LOCKSTEP_DEBUG_DIRS");
  char hello[64];
  snprintf(hello, sizeof(hello), "hello 1 %ld\n", (long)getpid());
  send_all(hello, strlen(hello));
  if (dbg_prompt(sess)) detached = 1;
  say_host();
}

int dbg_remote_active(void) {
  pthread_once(&once, connect_once);
  return sess != NULL && !detached;
}

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
  const char *const *dirs;
  int ndirs = dbg_source_dirs(sess, &dirs);
  size_t best = 0; /* length of the longest first-lines match so far */
  for (int i = -1; i < ndirs; i++) {
    const char *dir = i < 0 ? "." : dirs[i];
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

/* Waits until the front end has shown everything sent so far, so the host
 * program's own output, which goes straight to the terminal, comes after. */
static void sync_output(void) {
  fflush(out);
  if (line_len) send_out_line();
  if (!sent_out || detached) return;
  sent_out = 0;
  send_all("sync\n", 5);
  for (char *l; (l = recv_line());) {
    int ack = !strcmp(l, "ack");
    free(l);
    if (ack) break;
  }
}

int dbg_remote_launch(void *arg, struct dev_device *d, const struct dev_launch *l,
                      struct dev_exception *exc, struct dev_switch *sw) {
  const struct rt_program_text *ps = arg;
  (void)sw;
  const char *src = ps ? ps->source : NULL;
  if (!dbg_remote_active()) return simt_launch(d, l, exc);
  if (pthread_mutex_trylock(&busy)) {
    /* another launch is stopped: this one runs undebugged, but an edit of
     * its program stays in force */
    struct dev_launch kl;
    void *hold = dbg_kept_get(sess, l, src, ps ? ps->options : NULL, &kl);
    int rc = simt_launch(d, hold ? &kl : l, exc);
    dbg_kept_put(hold);
    return rc;
  }
  char file[4096];
  if (!src || !find_source(src, file, sizeof(file)))
    snprintf(file, sizeof(file), "%s",
             l->prog && l->prog->nkernels ? l->prog->kernels[0].name : l->kernel->name);
  int quit = 0;
  dbg_set_build_options(sess, ps ? ps->options : NULL);
  running = 0;
  int rc = dbg_launch(sess, d, l, src, file, exc, &quit);
  if (quit) {
    detached = 1;
    dbg_kept_clear(sess); /* the session ended, and its edits with it */
  }
  sync_output();
  say_host();
  pthread_mutex_unlock(&busy);
  if (rc > 0) return simt_launch(d, l, exc); /* could not be debugged: run it normally */
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
