/*
 * dap.c - `lockstep dap`: the Debug Adapter Protocol over stdin/stdout.
 * This file frames messages, starts the host program (Lockstep's .icd,
 * LOCKSTEP_DEBUG_FD, pipes for its stdout/stderr), relays the engine's line
 * protocol and turns what the engine and the program print into events.
 *
 * Request handling lives in dap_req.c. Nothing but DAP messages may reach
 * stdout, and bad input must never end the adapter: it answers with an
 * error response and reads on.
 */
#define _GNU_SOURCE
#include "debugger/dap.h"

#include <errno.h>
#include <getopt.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "debugger/cli_line.h"
#include "device/json_text.h"

#define MAX_BODY   (16u << 20)
#define MAX_HEADER 8192

struct dap D;
static int seq = 1;
static char *in_buf;
static size_t in_len, in_cap;

int cmd_dap(int argc, char **argv);

/* ---- writing messages ---- */

static void write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      D.quit = 1; /* the client went away */
      return;
    }
    p += w;
    n -= (size_t)w;
  }
}

void dap_send(json_t *msg) {
  const size_t flags = JSON_COMPACT;
  size_t n = msg ? json_dumpb(msg, NULL, 0, flags) : 0;
  char *buf = n ? malloc(n) : NULL;
  if (buf && json_dumpb(msg, buf, n, flags) == n) {
    char hdr[64];
    int h = snprintf(hdr, sizeof(hdr), "Content-Length: %zu\r\n\r\n", n);
    write_all(1, hdr, (size_t)h);
    write_all(1, buf, n);
  }
  free(buf);
  json_decref(msg);
}

void dap_event(const char *event, json_t *body) {
  json_t *m = json_object();
  dj_seti(m, "seq", seq++);
  dj_sets(m, "type", "event");
  dj_sets(m, "event", event);
  dj_set(m, "body", body ? body : json_object());
  dap_send(m);
}

void dap_output(const char *category, const char *text, size_t n) {
  json_t *b = json_object();
  dj_sets(b, "category", category);
  dj_setn(b, "output", text, n);
  dap_event("output", b);
}

void dap_respond(const json_t *req, int ok, const char *message, json_t *body) {
  json_t *m = json_object();
  dj_seti(m, "seq", seq++);
  dj_sets(m, "type", "response");
  int64_t rs = 0;
  dj_int(req, "seq", &rs);
  dj_seti(m, "request_seq", rs);
  dj_setb(m, "success", ok);
  dj_sets(m, "command", dj_str(req, "command"));
  if (!ok) {
    json_t *e = json_object(), *eb = json_object();
    dj_sets(m, "message", message);
    dj_seti(e, "id", 1);
    dj_sets(e, "format", message);
    dj_setb(e, "showUser", 1);
    dj_set(eb, "error", e);
    dj_set(m, "body", eb);
    json_decref(body);
  } else if (body) {
    dj_set(m, "body", body);
  }
  dap_send(m);
}

/* An error response to input that is no request (bad framing or JSON). */
static void bad_input(const char *what, const char *detail) {
  char msg[300];
  snprintf(msg, sizeof(msg), "%s: %s", what, detail);
  dap_respond(NULL, 0, msg, NULL);
}

/* ---- the host program ---- */

/* 1 when program names something we can execute (relative to cwd). */
static int runnable(const char *program, const char *cwd) {
  char path[4096];
  if (strchr(program, '/')) {
    if (program[0] == '/' || !cwd[0])
      snprintf(path, sizeof(path), "%s", program);
    else
      snprintf(path, sizeof(path), "%s/%s", cwd, program);
    return access(path, X_OK) == 0;
  }
  const char *p = getenv("PATH");
  if (!p) p = "/usr/bin:/bin";
  while (*p) {
    size_t n = strcspn(p, ":");
    snprintf(path, sizeof(path), "%.*s/%s", (int)n, p, program);
    if (!access(path, X_OK)) return 1;
    p += n + (p[n] == ':');
  }
  return 0;
}

int dap_spawn(const char *program, const json_t *args, const json_t *env, char *err,
              size_t errlen) {
  if (!runnable(program, D.cwd)) {
    snprintf(err, errlen, "cannot run '%s': no such executable file%s%s", program,
             D.cwd[0] ? " (relative to " : "", D.cwd[0] ? D.cwd : "");
    if (D.cwd[0]) strncat(err, ")", errlen - strlen(err) - 1);
    return -1;
  }
  size_t nargs = json_array_size(args);
  char **argv = calloc(nargs + 2, sizeof(char *));
  if (!argv) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  argv[0] = (char *)program;
  for (size_t i = 0; i < nargs; i++)
    argv[i + 1] = (char *)json_string_value(json_array_get(args, i));
  int sv[2], po[2], pe[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
    snprintf(err, errlen, "socketpair: %s", strerror(errno));
    free(argv);
    return -1;
  }
  if (pipe(po) || pipe(pe)) {
    snprintf(err, errlen, "pipe: %s", strerror(errno));
    free(argv);
    return -1;
  }
  char dirs[4096] = "";
  for (int i = 0; i < D.ndirs; i++) {
    size_t l = strlen(dirs);
    snprintf(dirs + l, sizeof(dirs) - l, "%s%s", l ? ":" : "", D.dirs[i]);
  }
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(err, errlen, "fork: %s", strerror(errno));
    free(argv);
    return -1;
  }
  if (pid == 0) {
    close(sv[0]);
    close(po[0]);
    close(pe[0]);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(po[1], 1);
    dup2(pe[1], 2);
    if (D.cwd[0] && chdir(D.cwd)) {
      fprintf(stderr, "lockstep dap: cannot enter %s: %s\n", D.cwd, strerror(errno));
      _exit(127);
    }
    const char *name;
    json_t *val;
    json_object_foreach((json_t *)env, name, val) {
      if (json_is_string(val))
        setenv(name, json_string_value(val), 1);
      else
        unsetenv(name); /* null (the request allows nothing else) */
    }
    char fd[48]; /* the socket, and the process it is for */
    snprintf(fd, sizeof(fd), "%d:%ld", sv[1], (long)getpid());
    setenv("LOCKSTEP_DEBUG_FD", fd, 1);
    if (dirs[0]) setenv("LOCKSTEP_DEBUG_DIRS", dirs, 1);
    cli_set_vendors();
    execvp(program, argv);
    fprintf(stderr, "lockstep dap: cannot run %s: %s\n", program, strerror(errno));
    _exit(127);
  }
  free(argv);
  close(sv[1]);
  close(po[1]);
  close(pe[1]);
  D.pid = pid;
  D.sock = sv[0];
  D.hout = po[0];
  D.herr = pe[0];
  fcntl(D.sock, F_SETFD, FD_CLOEXEC);
  fcntl(D.hout, F_SETFD, FD_CLOEXEC);
  fcntl(D.herr, F_SETFD, FD_CLOEXEC);
  return 0;
}

void dap_kill(int sig) {
  if (D.pid > 0) kill(D.pid, sig);
}

/* ---- variables references and frame ids ---- */

int dap_vref_new(uint64_t item, int frame, int kind, int vkind, unsigned count, const char *expr) {
  if (D.nvrefs == D.cap_vrefs) {
    size_t nc = D.cap_vrefs ? D.cap_vrefs * 2 : 64;
    struct dap_vref *v = realloc(D.vrefs, nc * sizeof(*v));
    if (!v) return 0;
    D.vrefs = v;
    D.cap_vrefs = nc;
  }
  struct dap_vref *v = &D.vrefs[D.nvrefs++];
  v->num = D.cur;
  v->item = item;
  v->frame = frame;
  v->kind = kind;
  v->vkind = vkind;
  v->count = count;
  snprintf(v->expr, sizeof(v->expr), "%s", expr ? expr : "");
  return (int)D.nvrefs;
}

int64_t dap_fref_id(unsigned num, uint64_t item, int depth) {
  for (size_t i = 0; i < D.nfrefs; i++)
    if (D.frefs[i].num == num && D.frefs[i].item == item && D.frefs[i].depth == depth)
      return (int64_t)i + 1;
  if (D.nfrefs == D.cap_frefs) {
    size_t nc = D.cap_frefs ? D.cap_frefs * 2 : 64;
    struct dap_fref *f = realloc(D.frefs, nc * sizeof(*f));
    if (!f) return 0;
    D.frefs = f;
    D.cap_frefs = nc;
  }
  D.frefs[D.nfrefs] = (struct dap_fref){num, item, depth};
  return (int64_t)++D.nfrefs;
}

const struct dap_fref *dap_fref_get(int64_t id) {
  if (id < 1 || (uint64_t)id > D.nfrefs || !D.frefs[id - 1].num) return NULL;
  return &D.frefs[id - 1];
}

/* References of a launch that runs again go; once none is stopped the
 * numbering starts over. */
void dap_refs_drop(unsigned num) {
  if (!num || !dap_nstopped()) {
    D.nvrefs = D.nfrefs = 0;
    return;
  }
  for (size_t i = 0; i < D.nvrefs; i++)
    if (D.vrefs[i].num == num) D.vrefs[i].kind = VR_GONE;
  for (size_t i = 0; i < D.nfrefs; i++)
    if (D.frefs[i].num == num) D.frefs[i].num = 0;
}

/* ---- requests that wait for the engine ---- */

int dap_defer(const json_t *req) {
  static const char *const need[] = {
      "threads",  "stackTrace", "scopes",        "variables",          "setVariable",
      "evaluate", "readMemory", "writeMemory",   "continue",           "next",
      "stepIn",   "stepOut",    "exceptionInfo", "setDataBreakpoints", "dataBreakpointInfo"};
  const char *c = dj_str(req, "command");
  if (D.prompting || D.sock < 0 || D.pid <= 0 || !dap_nstopped() || !c) return 0;
  size_t i = 0;
  while (i < sizeof(need) / sizeof(need[0]) && strcmp(need[i], c))
    i++;
  if (i == sizeof(need) / sizeof(need[0])) return 0;
  if (D.ndeferred == D.cap_deferred) {
    size_t nc = D.cap_deferred ? D.cap_deferred * 2 : 16;
    json_t **d = realloc(D.deferred, nc * sizeof(*d));
    if (!d) return 0;
    D.deferred = d;
    D.cap_deferred = nc;
  }
  D.deferred[D.ndeferred++] = json_incref((json_t *)req);
  return 1;
}

/* Handles the oldest request that waited, once the engine prompts (or can
 * no longer: then it gets its error). 1 if there was one. */
static int run_deferred(void) {
  if (!D.ndeferred || (!D.prompting && D.sock >= 0 && D.pid > 0 && dap_nstopped())) return 0;
  json_t *req = D.deferred[0];
  memmove(D.deferred, D.deferred + 1, --D.ndeferred * sizeof(*D.deferred));
  dap_request(req);
  json_decref(req);
  return 1;
}

/* ---- the engine link ---- */

static void send_line(const char *tag, const char *text) {
  if (D.sock < 0) return;
  size_t n = strlen(tag) + strlen(text) + 2;
  char *b = malloc(n + 1);
  if (!b) return;
  snprintf(b, n + 1, "%s%s%s\n", tag, text[0] ? " " : "", text);
  size_t off = 0, len = strlen(b);
  while (off < len) {
    ssize_t w = send(D.sock, b + off, len - off, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    off += (size_t)w;
  }
  free(b);
}

/* Forwards what the host program wrote. 0 at end of file. A UTF-8
 * sequence cut by the end of a read waits for the rest, so a character
 * that straddles two reads is not shown as two replacement characters. */
static int pump_host(int *fd, const char *category) {
  static struct {
    char b[4];
    size_t n;
  } tail[2]; /* stdout's, stderr's */
  int k = fd == &D.herr;
  char buf[4096 + 4];
  memcpy(buf, tail[k].b, tail[k].n);
  ssize_t n = read(*fd, buf + tail[k].n, 4096);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 1;
  if (n <= 0) {
    if (tail[k].n) dap_output(category, buf, tail[k].n); /* never completed */
    tail[k].n = 0;
    close(*fd);
    *fd = -1;
    return 0;
  }
  size_t len = tail[k].n + (size_t)n;
  tail[k].n = dev_utf8_partial_tail(buf, len);
  memcpy(tail[k].b, buf + len - tail[k].n, tail[k].n);
  if (len > tail[k].n) dap_output(category, buf, len - tail[k].n);
  return 1;
}

/* Whether a whole line from the engine waits in the buffer. */
static int engine_line_ready(void) {
  return D.slen && memchr(D.sbuf, '\n', D.slen);
}

/* Room for at least 64 KiB more from the engine: a line is as long as it
 * is (an `mi` record of a long expression or value), never cut in pieces.
 * 0 out of memory. */
static int engine_room(void) {
  if (D.scap - D.slen >= 65536) return 1;
  size_t nc = D.scap ? D.scap * 2 : 131072;
  while (nc - D.slen < 65536)
    nc *= 2;
  char *b = realloc(D.sbuf, nc);
  if (!b) return 0;
  D.sbuf = b;
  D.scap = nc;
  return 1;
}

/* The engine is gone (its socket closed, or no memory for what it says). */
static void engine_gone(void) {
  if (D.sock >= 0) close(D.sock);
  D.sock = -1;
  D.connected = D.prompting = 0;
  D.slen = 0;
}

/* One protocol line from the engine (malloc'd) or NULL at end of file;
 * meanwhile the host's output keeps flowing. */
static char *engine_line(void) {
  for (;;) {
    char *nl = D.slen ? memchr(D.sbuf, '\n', D.slen) : NULL;
    if (nl) {
      size_t n = (size_t)(nl - D.sbuf);
      char *l = malloc(n + 1);
      if (l) {
        memcpy(l, D.sbuf, n);
        l[n] = 0;
      }
      memmove(D.sbuf, nl + 1, D.slen - n - 1);
      D.slen -= n + 1;
      if (l) return l;
      engine_gone(); /* a line lost would leave the two sides out of step */
      return NULL;
    }
    if (D.sock < 0) return NULL;
    struct pollfd p[3] = {{D.sock, POLLIN, 0}, {D.hout, POLLIN, 0}, {D.herr, POLLIN, 0}};
    if (poll(p, 3, -1) < 0) {
      if (errno == EINTR) continue;
      return NULL;
    }
    if (p[1].revents && D.hout >= 0) pump_host(&D.hout, "stdout");
    if (p[2].revents && D.herr >= 0) pump_host(&D.herr, "stderr");
    if (p[0].revents) {
      if (!engine_room()) {
        engine_gone();
        return NULL;
      }
      ssize_t r = recv(D.sock, D.sbuf + D.slen, D.scap - D.slen, 0);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        engine_gone();
        return NULL;
      }
      D.slen += (size_t)r;
    }
  }
}

static json_t *parse_record(const char *text) {
  if (strncmp(text, "^mi ", 4)) return NULL;
  char err[128];
  return dj_parse(text + 4, strlen(text + 4), err, sizeof(err));
}

void dap_reply_free(struct dap_reply *r) {
  for (size_t i = 0; i < r->nrecs; i++)
    json_decref(r->recs[i]);
  free(r->recs);
  free(r->text);
  memset(r, 0, sizeof(*r));
}

int dap_query(struct dap_reply *r, const char *fmt, ...) {
  memset(r, 0, sizeof(*r));
  if (!D.prompting) {
    r->dead = 1;
    return -1;
  }
  char cmd[8192];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(cmd, sizeof(cmd), fmt, ap);
  va_end(ap);
  if (len < 0 || (size_t)len >= sizeof(cmd)) { /* never a command cut short */
    r->text = strdup("the command is too long for the engine\n");
    return -1;
  }
  for (char *c = cmd; *c; c++)
    if (*c == '\n' || *c == '\r') *c = ' ';
  /* an mi command prints records only: other text is what a kernel that
   * runs meanwhile printed */
  int mi = !strncmp(cmd, "mi ", 3);
  D.prompting = 0;
  send_line("cmd", cmd);
  size_t tlen = 0;
  r->pre = SIZE_MAX;
  for (char *l; (l = engine_line());) {
    if (!strcmp(l, "prompt")) {
      D.prompting = 1;
      free(l);
      if (r->pre == SIZE_MAX) r->pre = tlen;
      return 0;
    }
    if (!strncmp(l, "out", 3) && (l[3] == ' ' || !l[3])) {
      const char *t = l[3] ? l + 4 : "";
      json_t *rec = parse_record(t);
      if (rec) {
        if (r->pre == SIZE_MAX && dj_get(rec, "stop")) r->pre = tlen;
        json_t **n = realloc(r->recs, (r->nrecs + 1) * sizeof(*n));
        if (n) {
          r->recs = n;
          r->recs[r->nrecs++] = rec;
        } else {
          json_decref(rec);
        }
      } else if (mi) {
        dap_engine_text(t);
      } else {
        size_t k = strlen(t);
        char *n = realloc(r->text, tlen + k + 2);
        if (n) {
          r->text = n;
          memcpy(r->text + tlen, t, k);
          tlen += k;
          r->text[tlen++] = '\n';
          r->text[tlen] = 0;
        }
      }
    } else if (!strcmp(l, "sync")) {
      send_line("ack", "");
    } else if (!strcmp(l, "waiting")) {
      D.waiting = 1;
    }
    free(l);
  }
  r->dead = 1;
  if (r->pre == SIZE_MAX) r->pre = tlen;
  return -1;
}

void dap_interrupt(void) {
  send_line("interrupt", "");
}

int dap_resume(const char *cmd) {
  if (!D.prompting) return -1;
  D.prompting = 0;
  D.cur = 0; /* the engine may focus another launch at its next prompt */
  send_line("cmd", cmd);
  return 0;
}

/* The first prompt: records on, folders, breakpoints, then run. */
void dap_engine_setup(void) {
  struct dap_reply r;
  dap_query(&r, "mi on");
  dap_reply_free(&r);
  for (int i = 0; i < D.ndirs; i++) {
    dap_query(&r, "directory %s", D.dirs[i]);
    dap_reply_free(&r);
  }
  D.bps_dirty = 1;
  dap_sync_bps();
  D.started = 1;
  dap_resume("run");
}

/* Text the engine printed outside a query: kernel printf output, and its
 * own messages (launch finished, device exceptions, the prompt going on
 * for another stopped launch). */
void dap_engine_text(const char *t) {
  static const char *const engine_msgs[] = {
      "Kernel ", "Device exception: ", "Error in breakpoint ",  "The launch stopped ",
      "kernel ", "cannot debug ",      "[Switching to kernel ", "Breakpoint "};
  const char *cat = "stdout";
  for (size_t i = 0; i < sizeof(engine_msgs) / sizeof(engine_msgs[0]); i++)
    if (!strncmp(t, engine_msgs[i], strlen(engine_msgs[i]))) cat = "console";
  size_t n = strlen(t);
  char *b = malloc(n + 2);
  if (!b) return;
  memcpy(b, t, n);
  b[n] = '\n';
  dap_output(cat, b, n + 1);
  free(b);
}

/* A prompt after a launch or stop record, after a launch ended while
 * others stay stopped, or the first one. */
static void engine_prompt(void) {
  if (!D.started) {
    if (D.configured) dap_engine_setup();
    return;
  }
  if (D.bps_dirty) dap_sync_bps();
  if (D.pending == 'l') { /* the launch's first prompt: it is the focus */
    D.pending = 0;
    dap_resume(dap_launch_go());
    return;
  }
  json_t *stop = D.pending == 's' ? D.stop : NULL;
  D.pending = 0;
  D.stop = NULL;
  dap_after_prompt(); /* which launch is the focus now, which ended */
  if (stop && D.cur) {
    dap_stop_seen(D.cur, stop, 0);
  } else {
    json_decref(stop);
  }
  if (D.prompting && D.waiting) dap_serve_waiting();
}

static void engine_event(void) {
  char *l = engine_line();
  if (!l) return;
  if (!strcmp(l, "prompt")) {
    D.prompting = 1;
    D.after_stop = 0;
    engine_prompt();
  } else if (!strcmp(l, "sync")) {
    send_line("ack", "");
  } else if (!strncmp(l, "hello", 5)) {
    D.connected = 1;
  } else if (!strncmp(l, "out", 3) && (l[3] == ' ' || !l[3])) {
    const char *t = l[3] ? l + 4 : "";
    json_t *rec = parse_record(t);
    if (rec && dj_get(rec, "stop")) {
      json_decref(D.stop);
      D.stop = rec;
      D.pending = 's';
      D.after_stop = 1;
      rec = NULL;
    } else if (rec && dj_get(rec, "launch")) {
      json_decref(D.launch);
      D.launch = rec;
      D.pending = 'l';
      rec = NULL;
    } else if (rec && dj_get(rec, "bp")) {
      dap_bps_from_records(&rec, 1, 1);
    } else if (!rec && !D.after_stop) {
      dap_engine_text(t);
      /* the prompt goes on for another stopped launch: where it is, as
       * its stop showed it, follows */
      if (!strncmp(t, "[Switching to kernel ", 21)) D.after_stop = 1;
    }
    json_decref(rec);
  } else if (!strcmp(l, "waiting")) {
    D.waiting = 1;
  }
  free(l);
}

/* ---- reading requests ---- */

static void handle_body(const char *body, size_t n) {
  char err[160];
  json_t *req = dj_parse(body, n, err, sizeof(err));
  if (!req) {
    bad_input("malformed JSON message", err);
    return;
  }
  const char *type = dj_str(req, "type");
  int64_t s;
  if (!json_is_object(req) || !type || strcmp(type, "request") || !dj_int(req, "seq", &s) ||
      !dj_str(req, "command")) {
    if (type && (!strcmp(type, "response") || !strcmp(type, "event"))) {
      json_decref(req); /* answers to reverse requests: nothing to do */
      return;
    }
    dap_respond(req, 0,
                "not a request: a request needs \"type\": \"request\", a numeric \"seq\" and a "
                "\"command\" string",
                NULL);
    json_decref(req);
    return;
  }
  dap_request(req);
  json_decref(req);
}

/* Takes whole messages out of the input buffer. */
static void parse_input(void) {
  for (;;) {
    char *end = NULL;
    for (size_t i = 0; i + 3 < in_len; i++)
      if (!memcmp(in_buf + i, "\r\n\r\n", 4)) {
        end = in_buf + i;
        break;
      }
    if (!end) {
      if (in_len > MAX_HEADER) {
        bad_input("bad message header", "no blank line after the header");
        in_len = 0;
      }
      return;
    }
    size_t hlen = (size_t)(end - in_buf);
    long long len = -1;
    const char *why = "no Content-Length field";
    for (char *p = in_buf; p < end;) {
      char *e = memmem(p, (size_t)(end - p), "\r\n", 2);
      if (!e) e = end;
      if ((size_t)(e - p) > 15 && !strncasecmp(p, "Content-Length:", 15)) {
        char v[32];
        const char *q = p + 15;
        while (q < e && *q == ' ')
          q++;
        size_t k = (size_t)(e - q);
        while (k && q[k - 1] == ' ')
          k--;
        if (k == 0 || k >= sizeof(v)) {
          why = "Content-Length is not a number";
        } else {
          memcpy(v, q, k);
          v[k] = 0;
          if (strspn(v, "0123456789") != k) {
            why = "Content-Length is not a number";
          } else {
            len = strtoll(v, NULL, 10);
            if (len > (long long)MAX_BODY) {
              why = "Content-Length is too large";
              len = -1;
            }
          }
        }
      }
      p = e + 2;
    }
    if (len < 0) {
      char d[200];
      snprintf(d, sizeof(d), "%s in '%.*s'", why, (int)(hlen > 80 ? 80 : hlen), in_buf);
      for (char *c = d; *c; c++)
        if ((unsigned char)*c < 0x20) *c = ' ';
      bad_input("bad message header", d);
      memmove(in_buf, end + 4, in_len - hlen - 4);
      in_len -= hlen + 4;
      continue;
    }
    if (in_len < hlen + 4 + (size_t)len) return;
    handle_body(end + 4, (size_t)len);
    size_t used = hlen + 4 + (size_t)len;
    memmove(in_buf, in_buf + used, in_len - used);
    in_len -= used;
    if (D.quit) return;
  }
}

static int read_client(void) {
  if (in_cap - in_len < 65536) {
    size_t nc = in_cap ? in_cap * 2 : 131072;
    char *b = realloc(in_buf, nc);
    if (!b) return 0;
    in_buf = b;
    in_cap = nc;
  }
  ssize_t n = read(0, in_buf + in_len, in_cap - in_len);
  if (n < 0 && errno == EINTR) return 1;
  if (n <= 0) return 0;
  in_len += (size_t)n;
  parse_input();
  return 1;
}

/* The program ended: its last output, then exited and terminated. */
static void finish_program(void) {
  while (D.hout >= 0 && pump_host(&D.hout, "stdout"))
    ;
  while (D.herr >= 0 && pump_host(&D.herr, "stderr"))
    ;
  int status = 0;
  while (waitpid(D.pid, &status, 0) < 0 && errno == EINTR)
    ;
  D.pid = 0;
  dap_kls_clear();
  dap_refs_drop(0);
  json_t *b = json_object();
  dj_seti(b, "exitCode",
          WIFEXITED(status) ? WEXITSTATUS(status)
                            : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0));
  dap_event("exited", b);
  D.exited = 1;
  if (!D.terminated_sent) {
    dap_event("terminated", NULL);
    D.terminated_sent = 1;
  }
}

int cmd_dap(int argc, char **argv) {
  static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  optind = 0;
  for (int c; (c = getopt_long(argc, argv, "+h", opts, NULL)) != -1;) {
    if (c != 'h') return cli_bad_option(argv[0]);
    printf("usage: lockstep dap\n"
           "The Debug Adapter Protocol on stdin and stdout: an editor starts it and\n"
           "launches a host program through it (debugger/README.md).\n");
    return 0;
  }
  if (optind < argc) {
    fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[optind]);
    return cli_bad_option(argv[0]);
  }
  signal(SIGPIPE, SIG_IGN);
  memset(&D, 0, sizeof(D));
  D.sock = D.hout = D.herr = -1;
  D.next_bp_id = 1;
  while (!D.quit) {
    if (D.sock >= 0 && engine_line_ready()) {
      engine_event(); /* lines already read while answering a request */
      continue;
    }
    if (D.waiting && D.prompting && D.started) {
      dap_serve_waiting(); /* a launch stopped while the engine prompted */
      continue;
    }
    if (run_deferred()) continue;
    struct pollfd p[4] = {
        {0, POLLIN, 0}, {D.sock, POLLIN, 0}, {D.hout, POLLIN, 0}, {D.herr, POLLIN, 0}};
    if (poll(p, 4, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (p[2].revents && D.hout >= 0) pump_host(&D.hout, "stdout");
    if (p[3].revents && D.herr >= 0) pump_host(&D.herr, "stderr");
    if (p[1].revents && D.sock >= 0) engine_event();
    /* the client went away without `disconnect`: nobody can go on with
     * the program (a stopped kernel would wait for a command for ever), so
     * the session ends as a disconnect would end it */
    if (p[0].revents && !read_client()) D.quit = 1;
    if (D.pid > 0 && D.sock < 0 && D.hout < 0 && D.herr < 0) finish_program();
  }
  if (D.pid > 0) { /* the program this adapter started ends with it */
    kill(D.pid, SIGKILL);
    while (waitpid(D.pid, NULL, 0) < 0 && errno == EINTR)
      ;
  }
  if (D.sock >= 0) close(D.sock);
  json_decref(D.stop);
  json_decref(D.launch);
  dap_kls_clear();
  for (size_t i = 0; i < D.ndeferred; i++)
    json_decref(D.deferred[i]);
  free(D.deferred);
  free(D.kls);
  free(D.frefs);
  free(D.sbuf);
  free(D.vrefs);
  for (int i = 0; i < D.ndirs; i++)
    free(D.dirs[i]);
  free(in_buf);
  return 0;
}
