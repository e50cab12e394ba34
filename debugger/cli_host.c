/*
 * cli_host.c - `lockstep debug [options] [--] PROGRAM ARGS...`: runs an
 * unmodified host program with the Lockstep ICD and a socket back to this
 * process, and relays the line protocol (debugger/README.md): the engine's
 * output to stdout, commands from the prompt or the -x file to the engine.
 *
 * Ctrl-C while a kernel runs sends `interrupt` (the engine pauses it); the
 * program starts with SIGINT ignored, so the terminal's Ctrl-C, which
 * reaches the whole process group, never ends it.
 *
 * The debugger itself runs inside the host process; this file must not
 * interpret debugger commands beyond the local ones (`shell`, `quit`) and
 * must not touch the host program's own stdin, stdout or stderr.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "debugger/cli_line.h"
#include "debugger/dbg.h"

#define PROMPT "(lockstep) "

/* The .icd of the build tree this binary belongs to, else the installed one. */
void cli_set_vendors(void) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 64);
  if (n > 0) {
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) {
      strcpy(slash, "/vendors/lockstep.icd");
      if (!access(exe, R_OK)) {
        setenv("OCL_ICD_VENDORS", exe, 1);
        return;
      }
    }
  }
  if (!access("/etc/OpenCL/vendors/lockstep.icd", R_OK))
    setenv("OCL_ICD_VENDORS", "/etc/OpenCL/vendors/lockstep.icd", 1);
}

static int send_line(int fd, const char *tag, const char *text) {
  size_t n = strlen(tag) + strlen(text) + 3;
  char *buf = malloc(n);
  if (!buf) return -1;
  snprintf(buf, n, "%s%s%s\n", tag, *text ? " " : "", text);
  size_t off = 0, len = strlen(buf);
  while (off < len) {
    ssize_t w = send(fd, buf + off, len - off, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      free(buf);
      return -1;
    }
    off += (size_t)w;
  }
  free(buf);
  return 0;
}

/* What the program does, as the library's lines tell it: what Ctrl-C means
 * depends on it. */
enum { IN_HOST, IN_ENGINE, IN_KERNEL };

struct relay {
  int fd;
  char *buf; /* bytes received not yet taken as lines: [pos, len) */
  size_t pos, len, cap;
  int state;      /* IN_* */
  unsigned epoch; /* of the last `running N` */
  int want_pause; /* Ctrl-C while the engine worked on a command */
  int pause_sent; /* an `interrupt` went out since the kernel ran */
};

static void ctrl_c(struct relay *r) {
  if (r->state == IN_KERNEL) {
    if (r->pause_sent) return; /* a pause is on its way: once is enough */
    char n[16];
    snprintf(n, sizeof(n), "%u", r->epoch);
    send_line(r->fd, "interrupt", n);
    r->pause_sent = 1;
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
      printf("\n"); /* after the ^C the terminal showed */
      fflush(stdout);
    }
  } else if (r->state == IN_ENGINE) {
    r->want_pause = 1; /* sent when the kernel runs, dropped at a prompt */
  } else {
    printf("The program is running host code; only kernels can be paused.\n");
    fflush(stdout);
  }
}

/* Room for more bytes in r->buf: 0, or -1 when out of memory or past
 * RELAY_MAX (what the library says is then read only as it is shown). */
#define RELAY_MAX (256u << 20)
static int relay_room(struct relay *r) {
  if (r->pos) { /* the lines taken make room first */
    memmove(r->buf, r->buf + r->pos, r->len - r->pos);
    r->len -= r->pos;
    r->pos = 0;
  }
  if (r->len < r->cap) return 0;
  size_t cap = r->cap ? r->cap * 2 : 4096;
  char *b = cap <= RELAY_MAX ? realloc(r->buf, cap) : NULL;
  if (!b) return -1;
  r->buf = b;
  r->cap = cap;
  return 0;
}

/* cli_readline_watch: while the user types, what the library says (the
 * output of launches that run meanwhile) is read and kept, to be shown
 * after the command, so the library never waits on a full socket (it
 * would hold up every launch meanwhile). Non-zero: stop watching. */
static int relay_fill(void *ctx) {
  struct relay *r = ctx;
  if (r->fd < 0 || relay_room(r)) return 1;
  ssize_t got = recv(r->fd, r->buf + r->len, r->cap - r->len, MSG_DONTWAIT);
  if (got > 0) {
    r->len += (size_t)got;
    return 0;
  }
  if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
  r->fd = -1; /* end of file: what is kept makes the last lines */
  return 1;
}

/* The next line from the library (malloc'd, without its newline), or NULL
 * at end of file. Ctrl-C is handled while it waits. */
static char *relay_line(struct relay *r) {
  for (;;) {
    const char *start = r->buf + r->pos;
    size_t left = r->len - r->pos;
    char *nl = left ? memchr(start, '\n', left) : NULL;
    if (nl || (r->fd < 0 && left)) {
      size_t n = nl ? (size_t)(nl - start) : left;
      char *l = malloc(n + 1);
      if (!l) return NULL;
      memcpy(l, start, n);
      l[n] = 0;
      r->pos += nl ? n + 1 : n;
      if (r->pos == r->len) r->pos = r->len = 0;
      return l;
    }
    if (r->fd < 0) return NULL;
    if (relay_room(r)) return NULL;
    struct pollfd p[2] = {{r->fd, POLLIN, 0}, {cli_sigint_fd(), POLLIN, 0}};
    int k = poll(p, 2, -1), err = k < 0 ? errno : 0;
    if (cli_sigint_take()) ctrl_c(r);
    if (k < 0 && err == EINTR) continue;
    if (k < 0) return NULL;
    if (!p[0].revents) continue;
    ssize_t got = recv(r->fd, r->buf + r->len, r->cap - r->len, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      r->fd = -1; /* end of file: what is left makes the last line */
    else
      r->len += (size_t)got;
  }
}

/* Takes the first line of r's buffer that starts with `completions` out
 * of it (malloc'd, without its newline), or NULL when none came yet; the
 * lines around it stay, in order. */
static char *take_completions(struct relay *r) {
  for (size_t i = r->pos; i < r->len;) {
    char *nl = memchr(r->buf + i, '\n', r->len - i);
    if (!nl) return NULL;
    size_t n = (size_t)(nl - (r->buf + i));
    if (n >= 11 && !memcmp(r->buf + i, "completions", 11) && (n == 11 || r->buf[i + 11] == ' ')) {
      char *l = strndup(r->buf + i, n);
      memmove(r->buf + i, nl + 1, r->len - i - n - 1);
      r->len -= n + 1;
      return l;
    }
    i += n + 1;
  }
  return NULL;
}

/* cli_complete_fn while the program's library prompts: `complete LINE`
 * over the protocol; the reply, `completions AT` and a tab before each
 * word, comes among whatever else the library says meanwhile (kept for
 * later). Command names only when the library does not answer. */
static size_t remote_complete(void *ctx, const char *line, dbg_complete_fn add, void *actx) {
  struct relay *r = ctx;
  char *reply = NULL;
  if (r->fd >= 0 && !send_line(r->fd, "complete", line))
    for (int tries = 0; !(reply = take_completions(r)) && r->fd >= 0 && tries < 100; tries++) {
      struct pollfd p = {r->fd, POLLIN, 0};
      if (poll(&p, 1, 100) > 0) relay_fill(r);
    }
  if (!reply) return dbg_complete(NULL, line, add, actx);
  char *save = NULL, *w = strtok_r(reply + 11, "\t", &save);
  size_t at = w ? strtoul(w, NULL, 10) : 0;
  while ((w = strtok_r(NULL, "\t", &save)))
    add(actx, w);
  free(reply);
  return at;
}

/* Is the first word of t a form of verb (at least min letters)? */
static int is_verb(const char *t, const char *verb, size_t min) {
  size_t n = strcspn(t, " \t/");
  return n >= min && n <= strlen(verb) && !strncmp(t, verb, n);
}

/* The next command for the engine, with local commands handled here.
 * NULL at end of input or on quit. */
static char *next_command(FILE *in, int batch) {
  for (;;) {
    char *l = cli_readline(in, PROMPT);
    if (!l) return NULL;
    if (batch) {
      printf(PROMPT "%s\n", l);
      fflush(stdout);
    }
    const char *t = l + strspn(l, " \t");
    if (!strncmp(t, "shell ", 6) || !strcmp(t, "shell")) {
      fflush(stdout);
      int rc = system(t + 5);
      if (rc != 0) printf("shell command exited with status %d\n", rc);
      fflush(stdout);
      free(l);
      continue;
    }
    if (is_verb(t, "quit", 1)) {
      free(l);
      return NULL;
    }
    return l;
  }
}

/* Whether t sets a convenience variable (`set $x = 1`, `set var $x = 1`):
 * no program needed. */
static int conv_set(const char *t) {
  if (!is_verb(t, "set", 3)) return 0;
  const char *a = t + strcspn(t, " \t");
  a += strspn(a, " \t");
  if (!strncmp(a, "var ", 4)) a += 4 + strspn(a + 4, " \t");
  return *a == '$';
}

/* Commands that outlive a run of the program: the breakpoints and settings
 * a `run` after the program exited replays, in order, before it runs. */
struct sticky {
  char **cmds;
  int n, cap;
  /* what `info breakpoints` and `info display` showed at the program's
   * last prompt (the library sends it), shown once the program exited;
   * n_exit: how many of cmds there were then */
  char *info[2];
  int n_exit;
  int block; /* the lines of a `commands` block are being given, up to `end` */
};

/* Adds a line of the library's `info b`/`info d` text. */
static void info_add(struct sticky *k, int which, const char *text) {
  size_t old = k->info[which] ? strlen(k->info[which]) : 0, n = strlen(text);
  char *p = realloc(k->info[which], old + n + 2);
  if (!p) return;
  memcpy(p + old, text, n);
  p[old + n] = '\n';
  p[old + n + 1] = 0;
  k->info[which] = p;
}

/* Keeps t when it outlives the run: 1, or 2 for a line of a `commands`
 * block (kept whatever it says, up to its `end`); 0 when it does not. */
static int sticky_add(struct sticky *k, const char *t) {
  const char *arg = t + strcspn(t, " \t");
  arg += strspn(arg, " \t");
  int in_block = k->block;
  if (in_block) k->block = strcmp(t, "end") != 0;
  if (!in_block && is_verb(t, "commands", 4)) k->block = 1;
  if (!(in_block || is_verb(t, "commands", 4) || is_verb(t, "source", 2) ||
        is_verb(t, "break", 1) || is_verb(t, "tbreak", 2) || is_verb(t, "delete", 1) ||
        is_verb(t, "enable", 2) || is_verb(t, "disable", 3) || is_verb(t, "directory", 3) ||
        is_verb(t, "condition", 4) || is_verb(t, "ignore", 2) ||
        (is_verb(t, "display", 4) && *arg) || is_verb(t, "undisplay", 3) ||
        (is_verb(t, "set", 3) && (!strncmp(arg, "pass", 4) || !strncmp(arg, "watchdog", 8)))))
    return 0;
  if (k->n == k->cap) {
    int cap = k->cap ? k->cap * 2 : 16;
    char **c = realloc(k->cmds, (size_t)cap * sizeof(char *));
    if (!c) return 1;
    k->cmds = c;
    k->cap = cap;
  }
  k->cmds[k->n] = strdup(t);
  if (k->cmds[k->n]) k->n++;
  return in_block ? 2 : 1;
}

/* `save breakpoints FILE` once the program exited: the kept breakpoint
 * commands replayed into a session of their own, which writes the file as
 * the engine does (dbg_save_breakpoints). */
static void save_kept(const struct sticky *k, const char *line) {
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  struct dbg_session *s = out ? dbg_new(out, NULL, NULL) : NULL;
  if (!s) {
    if (out) fclose(out);
    free(text);
    printf("Cannot save breakpoints (out of memory).\n");
    return;
  }
  for (int i = 0; i < k->n; i++) {
    const char *t = k->cmds[i];
    if (is_verb(t, "break", 1) || is_verb(t, "tbreak", 2) || is_verb(t, "delete", 1) ||
        is_verb(t, "enable", 2) || is_verb(t, "disable", 3) || is_verb(t, "condition", 4) ||
        is_verb(t, "ignore", 2))
      dbg_command_run(s, t);
  }
  fflush(out);
  size_t said = len;
  dbg_command_run(s, line);
  fflush(out);
  printf("%.*s", (int)(len - said), text + said);
  dbg_free(s);
  fclose(out);
  free(text);
}

/* Gives a new run of the program the value history and the convenience
 * variables the runs before left (`hist`, `conv`). */
static void seed(int fd, struct dbg_session *alone) {
  for (int i = 0; dbg_hist_text(alone, i); i++)
    send_line(fd, "hist", dbg_hist_text(alone, i));
  char name[32], text[200], both[240];
  for (int i = 0; dbg_conv_text(alone, i, name, sizeof(name), text, sizeof(text)); i++) {
    snprintf(both, sizeof(both), "%s %s", name, text);
    send_line(fd, "conv", both);
  }
}

/*
 * Runs the program once, relaying until its library hangs up. again: NULL
 * for the first run; else the command (`run` or `start`) that follows the
 * replay of keep's commands, whose output is not shown. Sticky commands the
 * user gives are added to keep. alone holds the value history and the
 * convenience variables: the library gets them at its first prompt and
 * tells what it adds. Returns 1 when the user quit (the program was
 * killed), 0 when it ended (*status), -1 when it could not start.
 */
static int run_program(char **prog, const char *dirs, FILE *in, int batch, struct sticky *keep,
                       struct dbg_session *alone, const char *again, int *status) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
    perror("lockstep debug: socketpair");
    return -1;
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    perror("lockstep debug: fork");
    close(sv[0]);
    close(sv[1]);
    return -1;
  }
  if (pid == 0) {
    close(sv[0]);
    char fdstr[48]; /* the socket, and the process it is for */
    snprintf(fdstr, sizeof(fdstr), "%d:%ld", sv[1], (long)getpid());
    setenv("LOCKSTEP_DEBUG_FD", fdstr, 1);
    if (*dirs) setenv("LOCKSTEP_DEBUG_DIRS", dirs, 1);
    cli_set_vendors();
    if (batch) fclose(in);
    /* Ctrl-C at the terminal reaches the whole process group: it is the
     * debugger's (it pauses a kernel), so the program ignores it */
    signal(SIGINT, SIG_IGN);
    execvp(prog[0], prog);
    fprintf(stderr, "lockstep debug: cannot run %s: %s\n", prog[0], strerror(errno));
    _exit(127);
  }
  close(sv[1]);
  struct relay r = {.fd = sv[0], .state = IN_HOST};
  cli_readline_watch(sv[0], relay_fill, &r);
  cli_readline_complete(remote_complete, &r);
  int killed = 0, replay = again ? 0 : -1; /* the next of keep's commands to replay */
  int seeded = 0; /* the library has the value history of the runs before */
  for (char *line; (line = relay_line(&r)); free(line)) {
    size_t n = strlen(line);
    if (!strncmp(line, "out ", 4) || !strcmp(line, "out")) {
      if (replay >= 0) continue; /* what the replayed commands say */
      printf("%s\n", line + (n > 3 ? 4 : 3));
      fflush(stdout);
    } else if (!strcmp(line, "prompt")) {
      r.state = IN_ENGINE; /* once the command is sent */
      r.want_pause = r.pause_sent = 0;
      if (!seeded) seed(sv[0], alone); /* what the runs before left */
      seeded = 1;
      char *cmd;
      if (replay >= 0 && replay < keep->n) {
        cmd = strdup(keep->cmds[replay++]);
      } else if (replay >= 0) {
        cmd = strdup(again);
        replay = -1;
      } else {
        cmd = next_command(in, batch);
        if (!cmd) {
          kill(pid, SIGKILL);
          killed = 1;
          free(line);
          break;
        }
        sticky_add(keep, cmd + strspn(cmd, " \t"));
      }
      int bad = !cmd || send_line(sv[0], "cmd", cmd);
      free(cmd);
      if (bad) {
        free(line);
        break;
      }
    } else if (!strcmp(line, "sync")) {
      fflush(stdout);
      if (send_line(sv[0], "ack", "")) {
        free(line);
        break;
      }
    } else if (!strncmp(line, "running ", 8)) {
      r.state = IN_KERNEL;
      r.epoch = (unsigned)strtoul(line + 8, NULL, 10);
      r.pause_sent = 0;
      if (r.want_pause) ctrl_c(&r);
      r.want_pause = 0;
    } else if (!strcmp(line, "host")) {
      int noted = r.want_pause;
      r.state = IN_HOST;
      r.want_pause = r.pause_sent = 0;
      if (noted) ctrl_c(&r);
    } else if (!strncmp(line, "hist ", 5)) {
      dbg_hist_add_text(alone, line + 5); /* kept for after the program exits */
    } else if (!strncmp(line, "conv ", 5)) {
      dbg_conv_set_text(alone, line + 5);
    } else if (!strncmp(line, "gone ", 5)) {
      /* a hit deleted a temporary breakpoint: a replay deletes it too */
      char del[32];
      snprintf(del, sizeof(del), "delete %d", atoi(line + 5));
      sticky_add(keep, del);
    } else if (!strcmp(line, "info begin")) {
      for (int w = 0; w < 2; w++) {
        free(keep->info[w]);
        keep->info[w] = NULL;
      }
    } else if (!strncmp(line, "info b ", 7) || !strncmp(line, "info d ", 7)) {
      info_add(keep, line[5] == 'b', line + 7);
    } /* "hello" and lines of later protocol versions need nothing here */
  }
  cli_readline_watch(-1, NULL, NULL);
  cli_readline_complete(NULL, NULL);
  free(r.buf);
  close(sv[0]);
  *status = 0;
  while (waitpid(pid, status, 0) < 0 && errno == EINTR)
    ;
  return killed;
}

int cli_debug_host(const char *batch, const char *dirs, char **prog) {
  FILE *in = batch ? fopen(batch, "r") : stdin;
  if (!in) {
    fprintf(stderr, "lockstep debug: cannot open %s\n", batch);
    return 1;
  }
  cli_sigint_install();
  struct sticky keep = {0};
  /* what needs no program once it exited (print 1+1) */
  struct dbg_session *alone = dbg_new(stdout, NULL, NULL);
  if (!alone) {
    if (batch) fclose(in);
    return 1;
  }
  int ret = 0;
  for (const char *again = NULL;;) {
    int status, killed = run_program(prog, dirs, in, batch != NULL, &keep, alone, again, &status);
    if (killed < 0) {
      ret = 1;
      break;
    }
    if (killed) break;
    fflush(stdout);
    if (WIFEXITED(status)) {
      printf("[program exited with code %d]\n", WEXITSTATUS(status));
      ret = WEXITSTATUS(status);
      char code[32]; /* as gdb keeps it */
      snprintf(code, sizeof(code), "_exitcode %d", ret);
      dbg_conv_set_text(alone, code);
    } else if (WIFSIGNALED(status)) {
      printf("[program killed by signal %d]\n", WTERMSIG(status));
      ret = 1;
    }
    /* no program: `run` or `start` runs it again; breakpoint commands wait
     * for that run */
    again = NULL;
    keep.n_exit = keep.n;
    for (char *cmd; !again && (cmd = next_command(in, batch != NULL));) {
      const char *t = cmd + strspn(cmd, " \t");
      const char *arg = t + strcspn(t, " \t");
      arg += strspn(arg, " \t");
      int sk;
      int which = !is_verb(t, "info", 1) || !*arg  ? -1
                  : is_verb(arg, "breakpoints", 1) ? 1
                  : is_verb(arg, "display", 1)     ? 0
                                                   : -1;
      if (!*t || *t == '#') {
        /* nothing to do: an empty line or a comment */
      } else if (keep.block) {
        sticky_add(&keep, t); /* a line of a `commands` block: kept, not run */
      } else if (is_verb(t, "run", 1) || is_verb(t, "start", 5)) {
        again = t[0] == 's' ? "start" : "run";
      } else if (which >= 0) {
        /* as the program left them; later commands wait for the next run */
        printf("%s", keep.info[which] ? keep.info[which] : "");
        if (keep.n > keep.n_exit)
          printf("(%d command%s given since the program exited take%s effect when it runs "
                 "again)\n",
                 keep.n - keep.n_exit, keep.n - keep.n_exit == 1 ? "" : "s",
                 keep.n - keep.n_exit == 1 ? "s" : "");
      } else if (is_verb(t, "print", 1) || is_verb(t, "whatis", 6) || is_verb(t, "ptype", 5) ||
                 is_verb(t, "help", 1) || conv_set(t)) {
        dbg_command_run(alone, t); /* no program: literals, arithmetic, the history */
      } else if (is_verb(t, "save", 2) && is_verb(arg, "breakpoints", 1)) {
        save_kept(&keep, t);
      } else if ((sk = sticky_add(&keep, t))) {
        if (sk == 1)
          printf("The program is not being run; this takes effect when it runs again.\n");
      } else if (!dbg_command_known(t)) {
        printf("Undefined command: \"%.*s\".\n", (int)strcspn(t, " \t/"), t);
      } else {
        printf("The program is not being run.\n");
      }
      fflush(stdout);
      free(cmd);
    }
    if (!again) break;
  }
  for (int k = 0; k < keep.n; k++)
    free(keep.cmds[k]);
  free(keep.cmds);
  free(keep.info[0]);
  free(keep.info[1]);
  dbg_free(alone);
  fflush(stdout);
  if (batch) fclose(in);
  cli_history_free();
  return ret;
}
