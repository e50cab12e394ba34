/*
 * cli_debug.c - `lockstep debug`: the standalone front end that compiles a
 * kernel file with -g, sets up its arguments from a spec file, runs the
 * launch under the debug engine with commands from the terminal or a batch
 * file (-x), and dumps the requested buffers at the end. Ctrl-C while the
 * kernel runs pauses it.
 *
 * Only option parsing, argument set-up and I/O live here; it must not
 * implement debugger commands (the engine does).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/cc.h"
#include "debugger/cli_line.h"
#include "debugger/dbg.h"
#include "device/check.h"
#include "device/device.h"
#include "device/mem.h"

int cmd_debug(int argc, char **argv);

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *s = malloc(cap + 1);
  for (size_t r; (r = fread(s + n, 1, cap - n, f)) > 0;) {
    n += r;
    if (n == cap) s = realloc(s, (cap *= 2) + 1);
  }
  s[n] = 0;
  fclose(f);
  return s;
}

static char *read_line(void *ctx, const char *prompt) {
  return cli_readline(ctx, prompt);
}

/* cli_complete_fn: the session's names. */
static size_t complete(void *ctx, const char *line, dbg_complete_fn add, void *actx) {
  return dbg_complete(ctx, line, add, actx);
}

/* dbg_poll_fn: Ctrl-C while the kernel runs pauses it (at the prompt it
 * drops the line being typed: cli_readline). */
static int ctrl_c(void *ctx, struct dbg_launch *L) {
  (void)ctx;
  (void)L; /* one launch at a time here */
  if (!cli_sigint_seen() || !cli_sigint_take()) return 0;
  if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
    printf("\n"); /* after the ^C the terminal showed */
    fflush(stdout);
  }
  return 1;
}

struct buf {
  void *host;
  uint64_t size, addr;
  char type[32];
  unsigned esize;
  int flt, dump;
  const char *name;
};

static int elem(const char *t, unsigned *size, int *flt) {
  static const struct {
    const char *n;
    unsigned s;
    int f;
  } T[] = {{"char", 1, 0}, {"uchar", 1, 0}, {"short", 2, 0}, {"ushort", 2, 0}, {"int", 4, 0},
           {"uint", 4, 0}, {"long", 8, 0},  {"ulong", 8, 0}, {"float", 4, 1},  {"double", 8, 1}};
  for (size_t i = 0; i < sizeof(T) / sizeof(T[0]); i++)
    if (!strcmp(t, T[i].n)) {
      *size = T[i].s;
      *flt = T[i].f;
      return 1;
    }
  return 0;
}

static void put(struct buf *b, uint64_t i, double v) {
  uint8_t *p = (uint8_t *)b->host + i * b->esize;
  if (b->flt && b->esize == 4) {
    float f = (float)v;
    memcpy(p, &f, 4);
  } else if (b->flt) {
    memcpy(p, &v, 8);
  } else {
    /* past INT64_MAX only a ulong can hold it; past the range, the end */
    uint64_t x = v >= 0x1p64   ? UINT64_MAX
                 : v >= 0x1p63 ? (uint64_t)v
                 : v < -0x1p63 ? (uint64_t)INT64_MIN
                               : (uint64_t)(int64_t)v;
    memcpy(p, &x, b->esize);
  }
}

static void dump(const struct buf *b, unsigned idx) {
  uint64_t n = b->size / b->esize;
  printf("%s (arg %u) = {", b->name, idx);
  for (uint64_t i = 0; i < n; i++) {
    const uint8_t *p = (const uint8_t *)b->host + i * b->esize;
    if (b->flt && b->esize == 4) {
      float f;
      memcpy(&f, p, 4);
      printf("%s%g", i ? ", " : "", f);
    } else if (b->flt) {
      double f;
      memcpy(&f, p, 8);
      printf("%s%g", i ? ", " : "", f);
    } else {
      int64_t x = 0;
      memcpy(&x, p, b->esize);
      if (b->esize < 8) x = (int64_t)((uint64_t)x << (64 - 8 * b->esize)) >> (64 - 8 * b->esize);
      printf("%s%" PRId64, i ? ", " : "", x);
    }
  }
  printf("}\n");
}

/* Element i from the number at w (*end after it; *end == w: none there):
 * an integer type reads it as an integer, so a long keeps every digit. */
static void put_word(struct buf *b, uint64_t i, const char *w, char **end) {
  w += strspn(w, " \t");
  if (!b->flt) {
    uint64_t x = *w == '-' ? (uint64_t)strtoll(w, end, 10) : strtoull(w, end, 10);
    if (*end != w && (!**end || strchr(" \t", **end))) {
      memcpy((uint8_t *)b->host + i * b->esize, &x, b->esize);
      return;
    }
  }
  double v = strtod(w, end);
  if (*end != w) put(b, i, v);
}

/* `scalar TYPE V...`: one value for every element of a vector, or one each
 * (the last one repeats); no line: zero. */
static void scalar_values(const char *line, struct buf *b, uint32_t n) {
  const char *p = line;
  for (int w = 0; p && w < 2; w++) { /* past "scalar TYPE" */
    p += strspn(p, " \t");
    p += strcspn(p, " \t");
  }
  memset(b->host, 0, (size_t)n * b->esize);
  for (uint32_t e = 0; e < n; e++) {
    char *end = (char *)p;
    if (p) put_word(b, e, p, &end);
    if (p && end != p)
      p = end;
    else if (e) /* the last value repeats */
      memcpy((uint8_t *)b->host + e * b->esize, (uint8_t *)b->host + (e - 1) * b->esize, b->esize);
  }
}

/*
 * A struct by value, `bytes WORD...`, laid out by hand as the host program
 * lays out its C struct: a TYPE word (int, float, ...) sets the type of the
 * values after it, each value is stored at the cursor and moves it on,
 * `pad N` skips N bytes (left zero). Bytes past the last value are zero.
 */
static int put_bytes(const char *line, uint8_t *dst, uint32_t size, const char *name, uint32_t j) {
  char *copy = strdup(line), *save = NULL;
  struct buf b = {.host = dst, .esize = 4};
  uint64_t at = 0;
  int pad = 0, ok = 1;
  memset(dst, 0, size);
  strtok_r(copy, " \t", &save); /* "bytes" */
  for (char *w = strtok_r(NULL, " \t", &save); w && ok; w = strtok_r(NULL, " \t", &save)) {
    char *end;
    double v = strtod(w, &end);
    if (!strcmp(w, "pad")) {
      pad = 1;
    } else if (elem(w, &b.esize, &b.flt)) {
      pad = 0;
    } else if (*end || end == w || (pad && v < 0)) {
      fprintf(stderr, "lockstep: argument %u (%s): '%s' is neither a type nor a value\n", j, name,
              w);
      ok = 0;
    } else if (pad ? v > (double)(size - at) : at + b.esize > size) {
      fprintf(stderr, "lockstep: argument %u (%s): the bytes spec overruns its %u bytes\n", j, name,
              size);
      ok = 0;
    } else if (pad) {
      at += (uint64_t)v;
      pad = 0;
    } else {
      b.host = dst + at;
      put_word(&b, 0, w, &end);
      at += b.esize;
    }
  }
  free(copy);
  return ok;
}

/*
 * Spec lines, one per kernel argument in order ('#' starts a comment):
 *   buffer TYPE COUNT [fill V | range START STEP] [dump]
 *   scalar TYPE VALUE...  (a vector takes one value for all its elements or one each)
 *   local BYTES
 *   bytes [TYPE] VALUE... [pad N] ...  (a struct by value: put_bytes)
 */
static int setup_args(const struct lsi_kernel *k, const char *spec, struct dev_mem *m,
                      uint64_t nglobal, uint8_t *argbuf, struct buf *bufs) {
  char *text = spec ? slurp(spec) : NULL;
  if (spec && !text) {
    fprintf(stderr, "lockstep: cannot open spec %s\n", spec);
    return 1;
  }
  char *save = NULL, *line = text ? strtok_r(text, "\n", &save) : NULL;
  for (uint32_t j = 0; j < k->nargs; j++) {
    const struct lsi_arg *a = &k->args[j];
    while (line && (line[strspn(line, " \t")] == '#' || !line[strspn(line, " \t")]))
      line = strtok_r(NULL, "\n", &save);
    char kind[16] = "", type[32] = "", w1[32] = "", w2[32] = "", w3[32] = "", w4[32] = "";
    long long count = 0;
    if (line)
      sscanf(line, "%15s %31s %lld %31s %31s %31s %31s", kind, type, &count, w1, w2, w3, w4);
    struct buf *b = &bufs[j];
    b->name = a->name && *a->name ? a->name : "arg";
    if (a->kind == LSI_ARG_GLOBAL || a->kind == LSI_ARG_CONSTANT) {
      if (!line) {
        snprintf(type, sizeof(type), "%s", a->type_name);
        char *star = strchr(type, '*');
        if (star) *star = 0;
        char *c = strrchr(type, ' ');
        if (c && !c[1]) *c = 0;
        c = strrchr(type, ' ');
        if (c) memmove(type, c + 1, strlen(c));
        count = (long long)nglobal;
      } else if (strcmp(kind, "buffer")) {
        fprintf(stderr,
                "lockstep: spec line for argument %u (%s) must be 'buffer TYPE COUNT ...'\n", j,
                b->name);
        free(text);
        return 1;
      }
      if (!elem(type, &b->esize, &b->flt) || count <= 0) {
        fprintf(stderr, "lockstep: argument %u (%s): bad buffer type '%s' or count\n", j, b->name,
                type);
        free(text);
        return 1;
      }
      b->size = (uint64_t)count * b->esize;
      b->host = calloc(b->size, 1);
      const char *ws[4] = {w1, w2, w3, w4};
      for (int q = 0; q < 4; q++) {
        if (!strcmp(ws[q], "fill") && q < 3)
          for (long long i = 0; i < count; i++)
            put(b, (uint64_t)i, strtod(ws[q + 1], NULL));
        if (!strcmp(ws[q], "range") && q < 2)
          for (long long i = 0; i < count; i++)
            put(b, (uint64_t)i, strtod(ws[q + 1], NULL) + (double)i * strtod(ws[q + 2], NULL));
        if (!strcmp(ws[q], "dump")) b->dump = 1;
      }
      b->addr = dev_mem_map(m, b->host, b->size, a->kind == LSI_ARG_CONSTANT);
      memcpy(argbuf + a->buf_offset, &b->addr, 8);
    } else if (a->kind == LSI_ARG_LOCAL) {
      uint64_t sz = line ? (uint64_t)strtoull(type, NULL, 10) : 256;
      memcpy(argbuf + a->buf_offset, &sz, 8);
    } else if (a->kind == LSI_ARG_VALUE) {
      struct buf tmp = {.host = argbuf + a->buf_offset, .esize = a->elem_size};
      tmp.flt = strstr(a->type_name, "float") || strstr(a->type_name, "double");
      scalar_values(line, &tmp, a->nregs);
    } else if (a->kind == LSI_ARG_BYVAL) {
      int given = line && !strcmp(kind, "bytes");
      if (!given)
        fprintf(stderr,
                "lockstep: spec line for argument %u (%s) must be 'bytes [TYPE] VALUE...'\n", j,
                b->name);
      if (!given || !put_bytes(line, argbuf + a->buf_offset, a->size, b->name, j)) {
        free(text);
        return 1;
      }
    } else {
      fprintf(stderr, "lockstep: argument %u (%s) of type %s is not supported standalone\n", j,
              b->name, a->type_name);
      free(text);
      return 1;
    }
    if (line) line = strtok_r(NULL, "\n", &save);
  }
  free(text);
  return 0;
}

static void debug_usage(void) {
  printf("usage: lockstep debug --kernel=FILE.cl [--name=K] [--global=N[xM[xK]]]\n"
         "                      [--local=N[xM[xK]]] [--spec=ARGS] [--check=LIST] [-x COMMANDS]\n"
         "       lockstep debug [-x COMMANDS] [--check=LIST] [--source-dir=DIR]... [--] PROGRAM\n"
         "                      [ARGS...]\n"
         "Debugs one kernel launch of FILE.cl (the first form) or every kernel an\n"
         "unmodified host program launches (the second form).\n"
         "  -k, --kernel=FILE.cl      the kernel's source file (built with -g)\n"
         "  -n, --name=K              the kernel of FILE.cl to launch (default: the last)\n"
         "  -g, --global=N[xM[xK]]    the global size (default 1)\n"
         "  -l, --local=N[xM[xK]]     the local size (default up to 16)\n"
         "  -s, --spec=ARGS           the kernel arguments, one line each\n"
         "  -x, --command=COMMANDS    run the debugger commands in this file, not the terminal's\n"
         "  -d, --source-dir=DIR      also look for program sources in DIR (repeatable;\n"
         "                            --directory=DIR too)\n"
         "  -c, --check=LIST          run the checkers of LIST (races,uninit; LOCKSTEP_CHECK):\n"
         "                            each report stops the kernel at its line\n"
         "  -h, --help                this text\n"
         "Options end at PROGRAM or at --; PROGRAM's own options follow it.\n");
}

/* N, NxM or NxMxK into d: how many sizes, 0 when it is none of them. */
static unsigned sizes(const char *v, uint64_t d[3]) {
  int used = 0;
  unsigned n = (unsigned)sscanf(v, "%" SCNu64 "%n", &d[0], &used);
  for (; n >= 1 && n < 3 && v[used] == 'x'; n++) {
    int more = 0;
    if (sscanf(v + used + 1, "%" SCNu64 "%n", &d[n], &more) != 1) return 0;
    used += 1 + more;
  }
  return n >= 1 && !v[used] && d[0] ? n : 0;
}

/* The command line of `lockstep debug`. */
struct debug_opts {
  const char *kfile, *kname, *spec, *batch;
  char *dirs; /* --source-dir folders joined by ':' */
  uint64_t global[3], local[3];
  unsigned dim;
};

/* Parses argv (argv[0] is "lockstep debug") with getopt_long: -1 when the
 * options are good (optind at PROGRAM, if any), else the exit status. */
static int parse_debug(int argc, char **argv, struct debug_opts *o) {
  static const struct option opts[] = {{"kernel", required_argument, NULL, 'k'},
                                       {"name", required_argument, NULL, 'n'},
                                       {"global", required_argument, NULL, 'g'},
                                       {"local", required_argument, NULL, 'l'},
                                       {"spec", required_argument, NULL, 's'},
                                       {"command", required_argument, NULL, 'x'},
                                       {"source-dir", required_argument, NULL, 'd'},
                                       {"directory", required_argument, NULL, 'd'},
                                       {"check", required_argument, NULL, 'c'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  size_t dirlen = 1;
  for (int i = 0; i < argc; i++)
    dirlen += strlen(argv[i]) + 1;
  o->dirs = calloc(dirlen, 1);
  if (!o->dirs) return 1;
  optind = 0;
  for (int c; (c = getopt_long(argc, argv, "+k:n:g:l:s:x:d:c:h", opts, NULL)) != -1;) {
    switch (c) {
    case 'c': { /* the device (here or in PROGRAM) reads LOCKSTEP_CHECK */
      unsigned m;
      char why[160], note[64];
      if (dev_check_parse(optarg, &m, why, sizeof why, note, sizeof note)) {
        fprintf(stderr, "%s: --check: %s\n", argv[0], why);
        return cli_bad_option(argv[0]);
      }
      setenv("LOCKSTEP_CHECK", optarg, 1);
      break;
    }
    case 'k': o->kfile = optarg; break;
    case 'n': o->kname = optarg; break;
    case 's': o->spec = optarg; break;
    case 'x': o->batch = optarg; break;
    case 'd':
      if (*o->dirs) strcat(o->dirs, ":");
      strcat(o->dirs, optarg);
      break;
    case 'g':
    case 'l': {
      uint64_t d[3] = {1, 1, 1};
      unsigned n = sizes(optarg, d);
      if (!n) {
        fprintf(stderr, "%s: bad size '%s' for --%s (use N, NxM or NxMxK)\n", argv[0], optarg,
                c == 'g' ? "global" : "local");
        return cli_bad_option(argv[0]);
      }
      memcpy(c == 'g' ? o->global : o->local, d, sizeof(d));
      if (c == 'g') o->dim = n;
      break;
    }
    case 'h': debug_usage(); return 0;
    default: return cli_bad_option(argv[0]);
    }
  }
  int prog = optind < argc;
  if (prog && (o->kfile || o->kname || o->spec || o->dim || o->local[0])) {
    fprintf(stderr,
            "%s: --kernel, --name, --global, --local and --spec are for a kernel file, "
            "not a host program\n",
            argv[0]);
    return cli_bad_option(argv[0]);
  }
  if (!prog && !o->kfile) {
    fprintf(stderr, "%s: give --kernel=FILE.cl or a host program to run\n", argv[0]);
    return cli_bad_option(argv[0]);
  }
  return -1;
}

int cmd_debug(int argc, char **argv) {
  struct debug_opts o = {.global = {1, 1, 1}};
  int status = parse_debug(argc, argv, &o);
  if (status < 0 && optind < argc) status = cli_debug_host(o.batch, o.dirs, argv + optind);
  if (status >= 0) {
    free(o.dirs);
    return status;
  }
  free(o.dirs);
  const char *kfile = o.kfile, *kname = o.kname, *spec = o.spec, *batch = o.batch;
  uint64_t *global = o.global, *local = o.local;
  unsigned dim = o.dim ? o.dim : 1;
  char *src = slurp(kfile);
  if (!src) {
    fprintf(stderr, "lockstep debug: cannot open %s\n", kfile);
    return 1;
  }
  struct lsi_program *p = NULL;
  char *log = NULL;
  int rc = cc_build(src, kfile, "-g", &p, &log);
  if (log && *log) fputs(log, stderr);
  free(log);
  if (rc != CC_OK) {
    free(src);
    return 1;
  }
  const struct lsi_kernel *k = NULL;
  for (uint32_t i = 0; i < p->nkernels; i++)
    if (!kname || !strcmp(p->kernels[i].name, kname)) k = &p->kernels[i];
  if (!k) {
    fprintf(stderr, "lockstep debug: no kernel named '%s' in %s\n", kname ? kname : "", kfile);
    cc_program_free(p);
    free(src);
    return 1;
  }
  struct dev_config cfg;
  dev_config_load(&cfg);
  struct dev_device *d = dev_device_new(&cfg);
  struct dev_mem *m = dev_device_mem(d);
  uint8_t *argbuf = calloc(k->argbuf_size + 8, 1);
  struct buf *bufs = calloc(k->nargs + 1, sizeof(*bufs));
  struct dev_launch l;
  memset(&l, 0, sizeof(l));
  l.prog = p;
  l.kernel = k;
  l.work_dim = dim;
  uint8_t *data = NULL;
  if (p->data_size) {
    data = malloc(p->data_size);
    l.data_base = dev_mem_map(m, data, p->data_size, false);
    lsi_data_image(p, data, l.data_base);
  }
  for (int j = 0; j < 3; j++) {
    l.global[j] = global[j];
    l.local[j] = local[j] ? local[j] : global[j] < 16 ? global[j] : 16;
  }
  l.argbuf = argbuf;
  int ret = setup_args(k, spec, m, global[0] * global[1] * global[2], argbuf, bufs);
  FILE *in = batch ? fopen(batch, "r") : stdin;
  if (!ret && !in) {
    fprintf(stderr, "lockstep debug: cannot open %s\n", batch);
    ret = 1;
  }
  if (!ret) {
    struct dbg_session *s = dbg_new(stdout, read_line, in);
    dbg_set_echo(s, batch != NULL);
    dbg_set_program(s, p, kfile, src); /* `break` checks its lines now */
    cli_sigint_install();
    dbg_set_interrupt(s, ctrl_c, NULL);
    cli_readline_complete(complete, s);
    dbg_note_file(s, kfile);
    /* `run` after the kernel ended runs it again on fresh arguments */
    for (int go = !dbg_prompt(s); go;) {
      struct dev_exception exc;
      int quit = 0;
      int r = dbg_launch(s, d, &l, src, kfile, &exc, &quit);
      if (r == 0 && !quit)
        for (uint32_t j = 0; j < k->nargs; j++)
          if (bufs[j].dump) dump(&bufs[j], j);
      ret = r < 0 ? 1 : 0;
      go = !quit && !dbg_prompt(s);
      if (!go) break;
      for (uint32_t j = 0; j < k->nargs; j++) {
        if (bufs[j].host) dev_mem_unmap(m, bufs[j].addr);
        free(bufs[j].host);
      }
      memset(bufs, 0, (k->nargs + 1) * sizeof(*bufs));
      if (data) lsi_data_image(p, data, l.data_base);
      if (setup_args(k, spec, m, global[0] * global[1] * global[2], argbuf, bufs)) {
        ret = 1;
        break;
      }
    }
    cli_readline_complete(NULL, NULL);
    dbg_free(s);
    cli_history_free();
    if (batch) fclose(in);
  }
  for (uint32_t j = 0; j < k->nargs; j++)
    free(bufs[j].host);
  free(bufs);
  free(argbuf);
  free(data);
  dev_device_free(d);
  cc_program_free(p);
  free(src);
  return ret;
}
