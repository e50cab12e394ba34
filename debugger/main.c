/*
 * main.c - the `lockstep` command: dispatches to its subcommands.
 *
 * Keep this file a thin table: each subcommand lives in its own function (or
 * file) and owns its option parsing. It must not grow debugger logic.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc.h"
#include "debugger/cli_line.h"
#include "device/dev.h"

static void usage(FILE *f) {
  fprintf(f, "usage: lockstep COMMAND [OPTIONS] [ARGS]\n"
             "       lockstep compile [--dump] FILE.cl [BUILD OPTIONS...]\n"
             "       lockstep debug --kernel=FILE.cl [--name=K] [--global=N] [--local=N] "
             "[--spec=F] [-x CMDS]\n"
             "       lockstep debug [-x CMDS] [--check=LIST] [--source-dir=DIR]... [--] PROGRAM "
             "[ARGS...]\n"
             "       lockstep dap      (the Debug Adapter Protocol on stdin/stdout)\n"
             "       lockstep check [--races] [--uninit] [--] PROGRAM [ARGS...]\n"
             "       lockstep version\n"
             "Every command takes --help; options take their value as --opt=VALUE or\n"
             "--opt VALUE, and -- ends them.\n");
}

int cli_bad_option(const char *cmd) {
  fprintf(stderr, "Try '%s --help' for more information.\n", cmd);
  return 2;
}

/* lockstep compile [--dump] FILE.cl [build options...]: options end at the
 * file; what follows it is the build options. */
static int cmd_compile(int argc, char **argv) {
  static const struct option opts[] = {
      {"dump", no_argument, NULL, 'D'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  int dump = 0;
  optind = 0;
  for (int c; (c = getopt_long(argc, argv, "+h", opts, NULL)) != -1;) {
    if (c == 'D') {
      dump = 1;
    } else if (c == 'h') {
      printf("usage: lockstep compile [--dump] FILE.cl [BUILD OPTIONS...]\n"
             "Builds FILE.cl; --dump prints the ISA listing with the source lines, the\n"
             "microkernels, the flow-control table and the symbols of every kernel.\n");
      return 0;
    } else {
      return cli_bad_option(argv[0]);
    }
  }
  if (optind >= argc) {
    fprintf(stderr, "%s: no kernel file given\n", argv[0]);
    return cli_bad_option(argv[0]);
  }
  const char *file = argv[optind++];
  size_t optlen = 1;
  for (int i = optind; i < argc; i++)
    optlen += strlen(argv[i]) + 1;
  char *opts_text = calloc(optlen, 1);
  if (!opts_text) return 1;
  for (int i = optind; i < argc; i++) {
    if (*opts_text) strcat(opts_text, " ");
    strcat(opts_text, argv[i]);
  }
  FILE *f = fopen(file, "rb");
  if (!f) {
    fprintf(stderr, "lockstep: cannot open %s\n", file);
    free(opts_text);
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
  int rc = cc_build(src, file, opts_text, &p, &log);
  if (log && *log) fputs(log, stderr);
  if (rc == CC_OK && dump) cc_dump(stdout, p, src);
  cc_program_free(p);
  free(log);
  free(src);
  free(opts_text);
  return rc == CC_OK ? 0 : 1;
}

static int cmd_version(int argc, char **argv) {
  static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  optind = 0;
  for (int c; (c = getopt_long(argc, argv, "+h", opts, NULL)) != -1;) {
    if (c != 'h') return cli_bad_option(argv[0]);
    printf("usage: lockstep version\n"
           "Prints the version of Lockstep and of its compiler, and the engines\n"
           "LOCKSTEP_ENGINE can choose in this build.\n");
    return 0;
  }
  if (optind < argc) {
    fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[optind]);
    return cli_bad_option(argv[0]);
  }
  printf("lockstep %s (%s)\nengines:", LOCKSTEP_VERSION, cc_version());
  static const struct {
    unsigned engine;
    const char *name; /* as LOCKSTEP_ENGINE spells it */
  } engines[] = {{DEV_ENGINE_NATIVE, "native"}, {DEV_ENGINE_INTERP, "interp"}};
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
    if (dev_engine_available(engines[i].engine)) printf(" %s", engines[i].name);
  printf("\n");
  return 0;
}

int cmd_debug(int argc, char **argv);
int cmd_dap(int argc, char **argv);
int cmd_check(int argc, char **argv);

/* Each command's argv[0] is "lockstep NAME" (getopt's messages name it). */
static const struct {
  const char *name, *argv0;
  int (*fn)(int argc, char **argv);
} commands[] = {
    {"compile", "lockstep compile", cmd_compile},
    {"debug", "lockstep debug", cmd_debug},
    {"dap", "lockstep dap", cmd_dap},
    {"check", "lockstep check", cmd_check},
    {"version", "lockstep version", cmd_version},
};

int main(int argc, char **argv) {
  static const struct option opts[] = {
      {"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {NULL, 0, NULL, 0}};
  argv[0] = (char *)"lockstep";
  optind = 0;
  for (int c; (c = getopt_long(argc, argv, "+h", opts, NULL)) != -1;) {
    if (c == 'h') {
      usage(stdout);
      return 0;
    }
    if (c == 'V') return cmd_version(1, (char *[]){(char *)"lockstep version", NULL});
    return cli_bad_option("lockstep");
  }
  if (optind >= argc) {
    usage(stderr);
    return 2;
  }
  const char *name = argv[optind];
  if (!strcmp(name, "help")) {
    usage(stdout);
    return 0;
  }
  for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
    if (!strcmp(name, commands[i].name)) {
      argv[optind] = (char *)commands[i].argv0;
      return commands[i].fn(argc - optind, argv + optind);
    }
  fprintf(stderr, "lockstep: unknown command '%s'\n", name);
  return cli_bad_option("lockstep");
}
