/*
 * main.c - the `lockstep` command: dispatches to its subcommands.
 *
 * Keep this file a thin table: each subcommand lives in its own function (or
 * file) and owns its option parsing. It must not grow debugger logic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc.h"

static void usage(FILE *f) {
  fprintf(f, "usage: lockstep compile --dump FILE.cl [build options]\n"
             "       lockstep debug --kernel FILE.cl [--name K] [--global N] [--local N] [--spec "
             "F] [-x CMDS]\n"
             "       lockstep debug [-x CMDS] [--source-dir DIR] -- PROGRAM [ARGS...]\n"
             "       lockstep dap   (Debug Adapter Protocol on stdin/stdout)\n"
             "       lockstep check [--races] [--uninit] -- PROGRAM [ARGS...]\n"
             "       lockstep version\n");
}

/* lockstep compile [--dump] FILE.cl [build options...] */
static int cmd_compile(int argc, char **argv) {
  int dump = 0;
  const char *file = NULL;
  size_t optlen = 1;
  for (int i = 0; i < argc; i++)
    optlen += strlen(argv[i]) + 1;
  char *opts = calloc(optlen, 1);
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--dump")) {
      dump = 1;
    } else if (!file && argv[i][0] != '-') {
      file = argv[i];
    } else {
      if (*opts) strcat(opts, " ");
      strcat(opts, argv[i]);
    }
  }
  if (!file) {
    usage(stderr);
    free(opts);
    return 2;
  }
  FILE *f = fopen(file, "rb");
  if (!f) {
    fprintf(stderr, "lockstep: cannot open %s\n", file);
    free(opts);
    return 1;
  }
  size_t cap = 4096, n = 0;
  char *src = malloc(cap + 1);
  for (size_t r; (r = fread(src + n, 1, cap - n, f)) > 0;) {
    n += r;
    if (n == cap) src = realloc(src, (cap *= 2) + 1);
  }
  src[n] = 0;
  fclose(f);
  struct lsi_program *p = NULL;
  char *log = NULL;
  int rc = cc_build(src, file, opts, &p, &log);
  if (log && *log) fputs(log, stderr);
  if (rc == CC_OK && dump) cc_dump(stdout, p, src);
  cc_program_free(p);
  free(log);
  free(src);
  free(opts);
  return rc == CC_OK ? 0 : 1;
}

int cmd_debug(int argc, char **argv);
int cmd_dap(int argc, char **argv);
int cmd_check(int argc, char **argv);

static const struct {
  const char *name;
  int (*fn)(int argc, char **argv);
} commands[] = {
    {"compile", cmd_compile},
    {"debug", cmd_debug},
    {"dap", cmd_dap},
    {"check", cmd_check},
};

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
    printf("lockstep %s (%s)\n", LOCKSTEP_VERSION, cc_version());
    return 0;
  }
  for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].fn(argc - 2, argv + 2);
  fprintf(stderr, "lockstep: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
