/*
 * cli_check.c - `lockstep check [--races] [--uninit] -- PROGRAM [ARGS...]`:
 * runs an unmodified host program with the device's checkers on
 * (LOCKSTEP_CHECK, device/check.h) and invalid accesses reported and gone
 * past (LOCKSTEP_FAULTS=report, unless set), then sums up what the device
 * reported: each report (kind, kernel, the pair of lines, how many times)
 * and the program's exit status. Exits non-zero when anything was reported.
 *
 * The device appends its reports to the file LOCKSTEP_CHECK_LOG names (one
 * record a line, every process of the program alike); this file only runs
 * the program and reads that file back. It must not parse the program's
 * stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/check.h"

int cmd_check(int argc, char **argv);

static void check_usage(FILE *f) {
  fprintf(f, "usage: lockstep check [--races] [--uninit] [--keep-log FILE] -- PROGRAM [ARGS...]\n"
             "  Runs PROGRAM with the device's checkers on (all available ones when none is\n"
             "  named) and invalid accesses reported, then sums up the reports. Exits with\n"
             "  PROGRAM's status when it failed (128+N when signal N killed it), else 1\n"
             "  when anything was reported, else 0.\n");
}

/* One report line of the log, split in place. */
struct rec {
  char *kind, *kernel, *a, *b, *text;
  uint64_t count;
};

static bool split(char *line, struct rec *r) {
  char *f[6];
  for (int i = 0; i < 6; i++) {
    f[i] = line;
    char *t = i < 5 ? strchr(line, '\t') : strchr(line, '\n');
    if (!t && i < 5) return false;
    if (t) *t = 0, line = t + 1;
  }
  char *end;
  errno = 0;
  unsigned long long n = strtoull(f[4], &end, 10);
  if (errno || *end) return false;
  *r = (struct rec){f[0], f[1], f[2], f[3], f[5], n};
  return true;
}

/* Prints the summary of the log at path; returns the number of reports. */
static unsigned summarise(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  struct rec *recs = NULL;
  size_t n = 0, cap = 0;
  char *line = NULL;
  size_t lcap = 0;
  while (getline(&line, &lcap, f) > 0) {
    struct rec r;
    char *copy = strdup(line);
    if (!copy || !split(copy, &r)) {
      free(copy);
      continue;
    }
    if (n == cap) {
      cap = cap ? 2 * cap : 16;
      struct rec *nr = realloc(recs, cap * sizeof(*nr));
      if (!nr) {
        free(copy);
        break;
      }
      recs = nr;
    }
    recs[n++] = r;
  }
  free(line);
  fclose(f);
  /* by kind: how many reports, then each one */
  const char *kinds[] = {"races", "uninit", "fault"};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    unsigned nk = 0;
    uint64_t times = 0;
    for (size_t i = 0; i < n; i++)
      if (!strcmp(recs[i].kind, kinds[k])) nk++, times += recs[i].count;
    if (!nk) continue;
    fprintf(stderr, "lockstep check: %s: %u report%s (%" PRIu64 " time%s)\n", kinds[k], nk,
            nk == 1 ? "" : "s", times, times == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++)
      if (!strcmp(recs[i].kind, kinds[k])) {
        bool one = !strcmp(recs[i].a, recs[i].b);
        fprintf(stderr, "  kernel '%s' %s%s%s: %" PRIu64 " time%s\n", recs[i].kernel, recs[i].a,
                one ? "" : " / ", one ? "" : recs[i].b, recs[i].count,
                recs[i].count == 1 ? "" : "s");
      }
  }
  unsigned total = (unsigned)n;
  for (size_t i = 0; i < n; i++)
    free(recs[i].kind);
  free(recs);
  return total;
}

/* Runs argv with the environment set; returns its wait status, or -1. */
static int run(char **argv) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "lockstep check: cannot start %s: %s\n", argv[0], strerror(errno));
    return -1;
  }
  if (pid == 0) {
    execvp(argv[0], argv);
    fprintf(stderr, "lockstep check: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  /* the program's interrupts are its own: wait for it to end */
  void (*old_int)(int) = signal(SIGINT, SIG_IGN);
  void (*old_quit)(int) = signal(SIGQUIT, SIG_IGN);
  int st = -1;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  signal(SIGINT, old_int);
  signal(SIGQUIT, old_quit);
  return st;
}

/* The checkers the options name, as LOCKSTEP_CHECK spells them; 0 after
 * an error message. */
static unsigned options(int argc, char **argv, int *first, const char **keep) {
  enum { OPT_KEEP = 256 };
  static const struct option longopts[] = {
      {"races", no_argument, NULL, 'r'},
      {"uninit", no_argument, NULL, 'u'},
      {"keep-log", required_argument, NULL, OPT_KEEP},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  unsigned want = 0;
  int c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
    switch (c) {
    case 'r': want |= DEV_CHECK_RACES; break;
    case 'u': want |= DEV_CHECK_UNINIT; break;
    case OPT_KEEP:
      /* getopt takes the next word whatever it is: `--keep-log -- ./prog`
       * would log to a file named "--" and run the program without it. */
      if (!optarg[0] || optarg[0] == '-') {
        if (optarg[0])
          fprintf(stderr,
                  "lockstep check: --keep-log needs a FILE, not \"%s\" (./%s names a file)\n",
                  optarg, optarg);
        else
          fprintf(stderr, "lockstep check: --keep-log needs a FILE\n");
        check_usage(stderr);
        return 0;
      }
      *keep = optarg;
      break;
    case 'h': check_usage(stdout); return UINT32_MAX;
    default:
      fprintf(stderr, "lockstep check: unknown option %s\n", argv[optind - 1]);
      check_usage(stderr);
      return 0;
    }
  }
  *first = optind;
  if (optind >= argc) {
    fprintf(stderr, "lockstep check: no program to run\n");
    check_usage(stderr);
    return 0;
  }
  if (!want) want = DEV_CHECK_AVAILABLE;
  if (want & DEV_CHECK_RESERVED) {
    fprintf(stderr, "lockstep check: --uninit: the uninitialised-value checker is not available "
                    "yet\n");
    want &= ~(unsigned)DEV_CHECK_RESERVED;
    if (!want) return 0;
  }
  return want;
}

int cmd_check(int argc, char **argv) {
  int first = 0;
  const char *keep = NULL;
  unsigned want = options(argc, argv, &first, &keep); /* argv[0]: "lockstep check" */
  if (want == UINT32_MAX) return 0;
  if (!want) return 2;
  char list[64] = "";
  for (unsigned b = 1; b <= want; b <<= 1)
    if (want & b)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? "," : "",
               dev_check_name(b));
  char path[4096];
  if (keep) {
    snprintf(path, sizeof path, "%s", keep);
    FILE *f = fopen(path, "w"); /* start empty */
    if (!f) {
      fprintf(stderr, "lockstep check: cannot write %s: %s\n", path, strerror(errno));
      return 2;
    }
    fclose(f);
  } else {
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/lockstep-check-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
      fprintf(stderr, "lockstep check: cannot create a log in %s: %s\n", tmp && *tmp ? tmp : "/tmp",
              strerror(errno));
      return 2;
    }
    close(fd);
  }
  setenv("LOCKSTEP_CHECK", list, 1);
  setenv("LOCKSTEP_CHECK_LOG", path, 1);
  setenv("LOCKSTEP_FAULTS", "report", 0);
  int st = run(argv + first);
  unsigned n = summarise(path);
  if (!keep) unlink(path);
  int code;
  if (st == -1) {
    code = 127;
  } else if (WIFEXITED(st)) {
    code = WEXITSTATUS(st);
    fprintf(stderr, "lockstep check: %s exited with status %d\n", argv[first], code);
  } else {
    code = WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
    fprintf(stderr, "lockstep check: %s was killed by signal %d\n", argv[first],
            WIFSIGNALED(st) ? WTERMSIG(st) : 0);
  }
  if (!n) fprintf(stderr, "lockstep check: no reports\n");
  return n && code == 0 ? 1 : code;
}
