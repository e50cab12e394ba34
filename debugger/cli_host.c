/*
 * cli_host.c - `lockstep debug [options] -- PROGRAM ARGS...`: runs an
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

#define PROMPT "(lockstep) "

static void usage(void) {
  fprintf(stderr,
          "usage: lockstep debug [-x COMMANDS] [--source-dir DIR]... -- PROGRAM [ARGS...]\n");
}

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
  char *buf; /* bytes received that do not make a line yet */
  size_t len, cap;
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

/* The next line from the library (malloc'd, without its newline), or NULL
 * at end of file. Ctrl-C is handled while it waits. */
static char *relay_line(struct relay *r) {
  for (;;) {
    char *nl = r->len ? memchr(r->buf, '\n', r->len) : NULL;
    if (nl || (r->fd < 0 && r->len)) {
      size_t n = nl ? (size_t)(nl - r->buf) : r->len;
      char *l = malloc(n + 1);
      if (!l) return NULL;
      memcpy(l, r->buf, n);
      l[n] = 0;
      size_t used = nl ? n + 1 : n;
      memmove(r->buf, r->buf + used, r->len - used);
      r->len -= used;
      return l;
    }
    if (r->fd < 0) return NULL;
    if (r->len == r->cap) {
      size_t cap = r->cap ? r->cap * 2 : 4096;
      char *b = realloc(r->buf, cap);
      if (!b) return NULL;
      r->buf = b;
      r->cap = cap;
    }
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
    size_t n = strcspn(t, " \t");
    if (n && n <= 4 && !strncmp(t, "quit", n)) {
      free(l);
      return NULL;
    }
    return l;
  }
}

int cli_debug_host(int argc, char **argv) {
  const char *batch = NULL;
  size_t dirlen = 1;
  int i = 0;
  for (int j = 0; j < argc && strcmp(argv[j], "--"); j++)
    dirlen += strlen(argv[j]) + 1;
  char *dirs = calloc(dirlen, 1);
  for (; i < argc && strcmp(argv[i], "--"); i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if ((!strcmp(argv[i], "-x") || !strcmp(argv[i], "--source-dir")) && v && strcmp(v, "--")) {
      if (argv[i][1] == 'x') {
        batch = v;
      } else {
        if (*dirs) strcat(dirs, ":");
        strcat(dirs, v);
      }
      i++;
    } else {
      fprintf(stderr, "lockstep debug: unknown or incomplete option %s\n", argv[i]);
      usage();
      free(dirs);
      return 2;
    }
  }
  if (i + 1 >= argc) {
    usage();
    free(dirs);
    return 2;
  }
  char **prog = argv + i + 1;
  FILE *in = batch ? fopen(batch, "r") : stdin;
  if (!in) {
    fprintf(stderr, "lockstep debug: cannot open %s\n", batch);
    free(dirs);
    return 1;
  }
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
    perror("lockstep debug: socketpair");
    free(dirs);
    return 1;
  }
  fflush(stdout);
  cli_sigint_install();
  pid_t pid = fork();
  if (pid < 0) {
    perror("lockstep debug: fork");
    free(dirs);
    return 1;
  }
  if (pid == 0) {
    close(sv[0]);
    char fdstr[16];
    snprintf(fdstr, sizeof(fdstr), "%d", sv[1]);
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
  free(dirs);
  close(sv[1]);
  struct relay r = {.fd = sv[0], .state = IN_HOST};
  int killed = 0;
  for (char *line; (line = relay_line(&r)); free(line)) {
    size_t n = strlen(line);
    if (!strncmp(line, "out ", 4) || !strcmp(line, "out")) {
      printf("%s\n", line + (n > 3 ? 4 : 3));
      fflush(stdout);
    } else if (!strcmp(line, "prompt")) {
      r.state = IN_ENGINE; /* once the command is sent */
      r.want_pause = r.pause_sent = 0;
      char *cmd = next_command(in, batch != NULL);
      if (!cmd) {
        kill(pid, SIGKILL);
        killed = 1;
        free(line);
        break;
      }
      int bad = send_line(sv[0], "cmd", cmd);
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
    } /* "hello" and lines of later protocol versions need nothing here */
  }
  free(r.buf);
  close(sv[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  int ret = 0;
  if (!killed) {
    fflush(stdout);
    if (WIFEXITED(status)) {
      printf("[program exited with code %d]\n", WEXITSTATUS(status));
      ret = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      printf("[program killed by signal %d]\n", WTERMSIG(status));
      ret = 1;
    }
    /* what is left of a command file runs against no program */
    for (char *cmd; (cmd = next_command(in, batch != NULL));) {
      printf("The program is not being run.\n");
      free(cmd);
    }
  }
  fflush(stdout);
  if (batch) fclose(in);
  cli_history_free();
  return ret;
}
