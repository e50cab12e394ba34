/*
 * frontend.c - build options, the clang front end and the build cache.
 *
 * Parses the clBuildProgram/clCompileProgram/clLinkProgram option strings,
 * runs the clang driver as a child process (source -> spir64 bitcode, line
 * tables always on) and caches whole builds by a content hash. It does not
 * look inside the IR: that is ir.c and the translator.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/blake3.h>

#include "compiler/cc.h"
#include "compiler/cc_int.h"

extern char **environ;

const char *cc_version(void) {
  return CC_VERSION;
}

/* ---- option strings ---- */

static void add_arg(struct cc_options *o, const char *a) {
  o->args = realloc(o->args, sizeof(char *) * (size_t)(o->nargs + 2));
  o->args[o->nargs++] = strdup(a);
  o->args[o->nargs] = NULL;
}

/* Splits s into words (whitespace separated, "..." and '...' quoting). */
static char **split_words(const char *s, int *n) {
  char **w = NULL;
  int cnt = 0;
  size_t len = s ? strlen(s) : 0;
  char *buf = malloc(len + 1);
  size_t i = 0;
  while (s && i < len) {
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
      i++;
    if (i >= len) break;
    size_t k = 0;
    while (i < len && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) {
      if (s[i] == '"' || s[i] == '\'') {
        char q = s[i++];
        while (i < len && s[i] != q) {
          if (q == '"' && s[i] == '\\' && i + 1 < len) i++;
          buf[k++] = s[i++];
        }
        if (i < len) i++;
      } else {
        buf[k++] = s[i++];
      }
    }
    buf[k] = 0;
    w = realloc(w, sizeof(char *) * (size_t)(cnt + 1));
    w[cnt++] = strdup(buf);
  }
  free(buf);
  *n = cnt;
  return w;
}

/* -cl-* options passed through to clang unchanged. */
static const char *const passthrough[] = {
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-cl-single-precision-constant",
    "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-uniform-work-group-size",
    "-cl-strict-aliasing",
    NULL,
};
/* Accepted and without effect on this device. */
static const char *const ignored[] = {
    "-cl-no-subgroup-ifp",
    "-enable-link-options",
    NULL,
};
/* The options clLinkProgram accepts. */
static const char *const link_ok[] = {
    "-create-library",       "-enable-link-options",          "-cl-denorms-are-zero",
    "-cl-no-signed-zeros",   "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
    "-cl-fast-relaxed-math", "-cl-no-subgroup-ifp",           NULL,
};

static int in_list(const char *const *l, const char *s) {
  for (; *l; l++)
    if (!strcmp(*l, s)) return 1;
  return 0;
}

static int opt_error(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (err && errlen) vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return CC_INVALID_OPTIONS;
}

int cc_options_parse(const char *options, int link, struct cc_options *o, char *err,
                     size_t errlen) {
  memset(o, 0, sizeof(*o));
  o->cl_std = 120;
  int n, rc = CC_OK;
  char **w = split_words(options, &n);
  for (int i = 0; i < n && rc == CC_OK; i++) {
    const char *a = w[i];
    if (link) {
      if (!in_list(link_ok, a))
        rc = opt_error(err, errlen, "invalid link option '%s'", a);
      else if (!strcmp(a, "-create-library"))
        o->create_library = 1;
      else if (!strcmp(a, "-cl-denorms-are-zero"))
        o->denorms_are_zero = 1;
      continue;
    }
    if (!strncmp(a, "-D", 2) || !strncmp(a, "-I", 2)) {
      char flag[3] = {a[0], a[1], 0};
      const char *val = a + 2;
      if (!*val) {
        if (i + 1 >= n) {
          rc = opt_error(err, errlen, "option '%s' needs an argument", a);
          break;
        }
        val = w[++i];
      }
      if (!*val) {
        rc = opt_error(err, errlen, "option '%s' needs an argument", flag);
        break;
      }
      add_arg(o, flag);
      add_arg(o, val);
    } else if (!strncmp(a, "-cl-std=", 8)) {
      const char *v = a + 8;
      if (!strcmp(v, "CL1.0") || !strcmp(v, "CL1.1") || !strcmp(v, "CL1.2"))
        o->cl_std = 120;
      else if (!strcmp(v, "CL2.0"))
        o->cl_std = 200;
      else if (!strcmp(v, "CL3.0"))
        o->cl_std = 300;
      else
        rc = opt_error(err, errlen, "unsupported OpenCL C version in '%s'", a);
      if (rc == CC_OK && strcmp(v, "CL1.2") && (o->cl_std == 120))
        o->cl_std = (v[4] == '0') ? 100 : 110;
    } else if (!strcmp(a, "-cl-opt-disable")) {
      o->opt_disable = 1;
    } else if (!strcmp(a, "-g")) {
      o->debug = 1;
    } else if (!strcmp(a, "-cl-kernel-arg-info")) {
      o->kernel_arg_info = 1;
    } else if (!strcmp(a, "-w")) {
      add_arg(o, "-w");
    } else if (!strcmp(a, "-Werror")) {
      o->werror = 1;
      add_arg(o, "-Werror");
    } else if (!strcmp(a, "-cl-denorms-are-zero")) {
      /* clang's driver drops it for spir64: ask its front end directly; the
       * translator reads the function attribute it sets */
      add_arg(o, "-Xclang");
      add_arg(o, "-fdenormal-fp-math-f32=preserve-sign");
    } else if (in_list(passthrough, a)) {
      add_arg(o, a);
    } else if (in_list(ignored, a)) {
      /* nothing */
    } else {
      rc = opt_error(err, errlen, "invalid build option '%s'", a);
    }
  }
  for (int i = 0; i < n; i++)
    free(w[i]);
  free(w);
  if (rc != CC_OK) cc_options_free(o);
  return rc;
}

void cc_options_free(struct cc_options *o) {
  for (int i = 0; i < o->nargs; i++)
    free(o->args[i]);
  free(o->args);
  o->args = NULL;
  o->nargs = 0;
}

/* ---- small file helpers ---- */

int cc_write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = fwrite(data, 1, len, f);
  int rc = fclose(f);
  return (w == len && rc == 0) ? 0 : -1;
}

void *cc_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  for (;;) {
    if (n == cap) buf = realloc(buf, (cap *= 2) + 1);
    size_t r = fread(buf + n, 1, cap - n, f);
    if (!r) break;
    n += r;
  }
  fclose(f);
  buf[n] = 0;
  *len = n;
  return buf;
}

static void rm_tree(const char *dir, const char *const *names, unsigned n) {
  char p[4096];
  for (unsigned i = 0; i < n; i++) {
    snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(dir);
}

char *cc_strdupf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0) s = NULL;
  va_end(ap);
  return s;
}

/* Appends to a malloc'd log string. */
void cc_log_append(char **log, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0) s = NULL;
  va_end(ap);
  if (!s) return;
  size_t a = *log ? strlen(*log) : 0, b = strlen(s);
  char *n = realloc(*log, a + b + 1);
  if (n) {
    memcpy(n + a, s, b + 1);
    *log = n;
  }
  free(s);
}

/* ---- clang ---- */

/* Header names may contain directories ("inc/a.h"); creates them. */
static int write_header(const char *dir, const char *name, const char *src) {
  char p[8448];
  snprintf(p, sizeof(p), "%s/%s", dir, name);
  for (char *s = p + strlen(dir) + 1; *s; s++) {
    if (*s == '/') {
      *s = 0;
      mkdir(p, 0700);
      *s = '/';
    }
  }
  return cc_write_file(p, src, strlen(src));
}

static int run_clang(char *const argv[], const char *errpath) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int st;
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return (WIFEXITED(st) && WEXITSTATUS(st) == 0) ? 0 : 1;
}

/* The folder of the headers every kernel may include (compiler/include:
 * assert.h): the source tree's while it exists, else the installed one. */
static const char *cl_include_dir(void) {
  static const char *const dirs[] = {LOCKSTEP_SOURCE_DIR "/compiler/include",
                                     LOCKSTEP_CL_INCLUDE_DIR};
  for (unsigned i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
    char p[4200];
    snprintf(p, sizeof(p), "%s/assert.h", dirs[i]);
    if (access(p, R_OK) == 0) return dirs[i];
  }
  return LOCKSTEP_CL_INCLUDE_DIR;
}

static const char *clang_path(void) {
  const char *p = getenv("LOCKSTEP_CLANG");
  return (p && *p) ? p : LOCKSTEP_CLANG;
}

int cc_compile(const char *source, const char *filename, const char *options,
               const struct cc_header *headers, unsigned nheaders, struct cc_bitcode *out,
               char **log) {
  struct cc_options o;
  char err[256];
  memset(out, 0, sizeof(*out));
  if (!*log) *log = strdup("");
  int rc = cc_options_parse(options, 0, &o, err, sizeof(err));
  if (rc != CC_OK) {
    cc_log_append(log, "error: %s\n", err);
    return rc;
  }
  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof(dir), "%s/lockstep-cc-XXXXXX", (tmp && *tmp) ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    cc_log_append(log, "error: cannot create a temporary directory: %s\n", strerror(errno));
    cc_options_free(&o);
    return CC_BUILD_FAILURE;
  }
  const char *base = filename && *filename ? filename : "program.cl";
  char src_path[4200], bc_path[4200], err_path[4200], std[32];
  snprintf(src_path, sizeof(src_path), "%s/input.cl", dir);
  snprintf(bc_path, sizeof(bc_path), "%s/out.bc", dir);
  snprintf(err_path, sizeof(err_path), "%s/diag.txt", dir);
  /* The #line names the source in diagnostics and line tables. */
  char *text = cc_strdupf("#line 1 \"%s\"\n%s", base, source ? source : "");
  rc = cc_write_file(src_path, text, strlen(text));
  free(text);
  for (unsigned i = 0; rc == 0 && i < nheaders; i++)
    rc = write_header(dir, headers[i].name, headers[i].source ? headers[i].source : "");
  if (rc != 0) {
    cc_log_append(log, "error: cannot write the temporary source\n");
    cc_options_free(&o);
    rm_tree(dir, (const char *const[]){"input.cl"}, 1);
    return CC_BUILD_FAILURE;
  }
  snprintf(std, sizeof(std), "-cl-std=CL%d.%d", o.cl_std / 100, (o.cl_std / 10) % 10);
  const char *fixed[] = {clang_path(),
                         "-x",
                         "cl",
                         "-target",
                         "spir64",
                         std,
                         "-emit-llvm",
                         "-c",
                         "-g",
                         "-O0",
                         "-cl-kernel-arg-info",
                         "-fno-color-diagnostics",
                         "-I",
                         dir};
  unsigned nfixed = sizeof(fixed) / sizeof(fixed[0]);
  char **argv = calloc(nfixed + (unsigned)o.nargs + 11, sizeof(char *));
  unsigned k = 0;
  for (unsigned i = 0; i < nfixed; i++)
    argv[k++] = (char *)fixed[i];
  /* the slot of -fgnu89-inline, for the second try below */
  unsigned gnu_slot = k;
  argv[k++] = "-fno-gnu89-inline";
  /* Without optnone the module is optimised at link time; with it, the link
   * step sees a debug build. */
  if (!o.opt_disable && !o.debug) {
    argv[k++] = "-Xclang";
    argv[k++] = "-disable-O0-optnone";
  }
  for (int i = 0; i < o.nargs; i++)
    argv[k++] = o.args[i];
  /* after the caller's -I folders, so a header of theirs wins */
  argv[k++] = "-I";
  argv[k++] = (char *)cl_include_dir();
  argv[k++] = src_path;
  argv[k++] = "-o";
  argv[k++] = bc_path;
  argv[k] = NULL;
  int crc = run_clang(argv, err_path);
  size_t dlen = 0;
  char *diag = cc_read_file(err_path, &dlen);
  if (diag && dlen) cc_log_append(log, "%s", diag);
  free(diag);
  if (crc < 0) {
    cc_log_append(log, "error: cannot run the OpenCL C front end (%s)\n", clang_path());
    rc = CC_BUILD_FAILURE;
  } else if (crc > 0) {
    rc = CC_BUILD_FAILURE;
  } else {
    out->data = cc_read_file(bc_path, &out->size);
    rc = out->data ? CC_OK : CC_BUILD_FAILURE;
  }
  /* A plain `inline` function (not static, no extern declaration) is, as in
   * C99, only an inline definition: compiled without optimisation, its
   * calls are left to a definition no program gives. Drivers accept such
   * helpers (pyopencl's own headers are full of them), so when some are
   * left the source is compiled again with GNU inline semantics, where such
   * a function is defined too, and that object is kept if it leaves no call
   * undefined (an `extern inline` function, a C99 external definition, is
   * one GNU inline leaves undefined). */
  if (rc == CC_OK && cc_bitcode_undefined(out) > 0) {
    argv[gnu_slot] = "-fgnu89-inline";
    struct cc_bitcode gnu = {0};
    if (run_clang(argv, err_path) == 0 && (gnu.data = cc_read_file(bc_path, &gnu.size)) &&
        cc_bitcode_undefined(&gnu) == 0) {
      free(out->data);
      *out = gnu;
    } else {
      free(gnu.data);
    }
  }
  free(argv);
  unlink(src_path);
  unlink(bc_path);
  unlink(err_path);
  for (unsigned i = 0; i < nheaders; i++) {
    char p[8448];
    snprintf(p, sizeof(p), "%s/%s", dir, headers[i].name);
    unlink(p);
    /* remove the directories a nested header name created */
    for (char *s = strrchr(p, '/'); s && s > p + strlen(dir); s = strrchr(p, '/')) {
      *s = 0;
      rmdir(p);
    }
  }
  rmdir(dir);
  cc_options_free(&o);
  return rc;
}

/* ---- the build cache ---- */

static int cache_enabled(void) {
  const char *e = getenv("LOCKSTEP_CACHE");
  return !(e && (!strcmp(e, "0") || !strcmp(e, "off") || !strcmp(e, "no")));
}

static int cache_dir(char *buf, size_t len) {
  const char *x = getenv("XDG_CACHE_HOME");
  const char *h = getenv("HOME");
  if (x && *x)
    snprintf(buf, len, "%s/lockstep", x);
  else if (h && *h)
    snprintf(buf, len, "%s/.cache/lockstep", h);
  else
    return -1;
  char tmp[4096];
  snprintf(tmp, sizeof(tmp), "%s", buf);
  for (char *s = tmp + 1; *s; s++) {
    if (*s == '/') {
      *s = 0;
      mkdir(tmp, 0700);
      *s = '/';
    }
  }
  mkdir(tmp, 0700);
  return 0;
}

static void cache_key(const char *source, const char *filename, const char *options, char *hex) {
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init(&h);
  const char *parts[] = {cc_version(), filename ? filename : "", options ? options : "",
                         source ? source : ""};
  for (unsigned i = 0; i < 4; i++)
    llvm_blake3_hasher_update(&h, parts[i], strlen(parts[i]) + 1);
  uint8_t out[20];
  llvm_blake3_hasher_finalize(&h, out, sizeof(out));
  for (unsigned i = 0; i < sizeof(out); i++)
    sprintf(hex + 2 * i, "%02x", out[i]);
}

int cc_build(const char *source, const char *filename, const char *options,
             struct lsi_program **out, char **log) {
  *out = NULL;
  char path[4400] = "", dir[4096], hex[64];
  int use_cache = cache_enabled() && cache_dir(dir, sizeof(dir)) == 0;
  if (use_cache) {
    cache_key(source, filename, options, hex);
    snprintf(path, sizeof(path), "%s/%s.lsb", dir, hex);
    size_t len;
    uint8_t *buf = cc_read_file(path, &len);
    if (buf) {
      int kind;
      struct cc_bitcode bc = {0};
      char *clog = NULL;
      int rc = cc_binary_load(buf, len, &kind, out, &bc, &clog);
      free(buf);
      free(bc.data);
      if (rc == CC_OK && kind == CC_BIN_EXECUTABLE && *out) {
        free(*log);
        *log = clog ? clog : strdup("");
        return CC_OK;
      }
      free(clog);
      if (*out) cc_program_free(*out);
      *out = NULL;
    }
  }
  struct cc_bitcode bc;
  int rc = cc_compile(source, filename, options, NULL, 0, &bc, log);
  if (rc != CC_OK) return rc;
  /* The link step sees the build options that matter to it. */
  rc = cc_translate_build(&bc, options, out, log);
  free(bc.data);
  /* the program carries its source and options, so one made from its binary
   * can still be shown, rebuilt with -g and edited under the debugger */
  if (rc == CC_OK) {
    (*out)->source = strdup(source);
    (*out)->options = strdup(options ? options : "");
  }
  if (rc == CC_OK && use_cache) {
    uint8_t *bin;
    size_t blen;
    if (cc_binary_save(*out, NULL, CC_BIN_EXECUTABLE, *log, &bin, &blen) == CC_OK) {
      char tmp[4500];
      snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
      if (cc_write_file(tmp, bin, blen) == 0)
        rename(tmp, path);
      else
        unlink(tmp);
      free(bin);
    }
  }
  return rc;
}
