/*
 * frontend.c - build options, the clang front end and the build cache.
 *
 * Parses the clBuildProgram/clCompileProgram/clLinkProgram option strings,
 * runs the clang driver as a child process (source -> spir64 bitcode, line
 * tables always on) and caches whole builds by a content hash. It does not
 * look inside the IR: that is ir.c and the translator.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
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
#include "device/claims.h"

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

/* Options naming a folder or a file, relative to the host program's working
 * directory: -I as the specification has it, and clang's -include family,
 * which programs written for clang-based drivers pass. Exact flags come
 * before their prefixes ("-include" before "-I"). */
struct path_opt {
  const char *flag;
  int is_file; /* a file, searched in the include path when not found */
};
static const struct path_opt path_opts[] = {
    {"-include", 1}, {"-imacros", 1}, {"-isystem", 0}, {"-iquote", 0}, {"-idirafter", 0}, {"-I", 0},
};

static const struct path_opt *path_opt(const char *a) {
  for (unsigned i = 0; i < sizeof(path_opts) / sizeof(path_opts[0]); i++) {
    size_t n = strlen(path_opts[i].flag);
    /* "-I" takes its value attached or apart; the long ones only apart */
    if (!strncmp(a, path_opts[i].flag, n) && (a[n] == 0 || n == 2)) return &path_opts[i];
  }
  return NULL;
}

/* A relative path made absolute against the host's working directory, so
 * it means the same to the front end whatever folder that runs in, and the
 * build cache can check what it read. A relative file that does not exist
 * there is left to the include path. NULL: keep the path as it is. */
static char *host_path(const char *path, int is_file) {
  if (path[0] == '/') return NULL;
  char cwd[4096];
  if (!getcwd(cwd, sizeof(cwd))) return NULL;
  char *abs = cc_strdupf("%s/%s", cwd, path);
  if (abs && is_file && access(abs, F_OK) != 0) {
    free(abs);
    return NULL;
  }
  return abs;
}

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
    const struct path_opt *po = path_opt(a);
    if (!strncmp(a, "-D", 2) || po) {
      char flag[16];
      size_t fl = po ? strlen(po->flag) : 2;
      snprintf(flag, sizeof(flag), "%.*s", (int)fl, a);
      const char *val = a + fl;
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
      if (po) {
        char *abs = host_path(val, po->is_file);
        add_arg(o, abs ? abs : val);
        free(abs);
      } else {
        add_arg(o, val);
      }
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
      /* only a version in CL_DEVICE_OPENCL_C_ALL_VERSIONS builds */
      if (rc == CC_OK && !dev_claims_c_version(o->cl_std))
        rc = opt_error(err, errlen,
                       "'%s': the device does not support OpenCL C %d.%d (it supports "
                       "OpenCL C 1.0, 1.1, 1.2 and 3.0 with the features it lists)",
                       a, o->cl_std / 100, (o->cl_std / 10) % 10);
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

/* ---- what kernels see of the device ---- */

/* Extension and feature macros clang's OpenCL headers define for every SPIR
 * device whatever -cl-ext says (opencl-c-base.h), and __IMAGE_SUPPORT__:
 * each is undefined unless the device claims it. */
static const char *const spir_macros[] = {
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_rotate",
    "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product",
    "cl_khr_kernel_clock",
    "cl_ext_float_atomics",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_ext_fp16_global_atomic_load_store",
    "__opencl_c_ext_fp16_local_atomic_load_store",
    "__opencl_c_ext_fp16_global_atomic_add",
    "__opencl_c_ext_fp16_local_atomic_add",
    "__opencl_c_ext_fp16_global_atomic_min_max",
    "__opencl_c_ext_fp16_local_atomic_min_max",
    "__opencl_c_ext_fp64_global_atomic_add",
    "__opencl_c_ext_fp64_local_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_min_max",
    "__opencl_c_ext_fp64_local_atomic_min_max",
    "__opencl_c_ext_fp32_global_atomic_add",
    "__opencl_c_ext_fp32_local_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_min_max",
    "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_ext_image_raw10_raw12",
    "__opencl_c_kernel_clock_scope_device",
    "__opencl_c_kernel_clock_scope_work_group",
    "__opencl_c_kernel_clock_scope_sub_group",
    "__opencl_c_pipes",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_read_write_images",
    "__opencl_c_images",
    "__opencl_c_3d_image_writes",
    "__IMAGE_SUPPORT__",
};

/* clang's -cl-ext: nothing but the claimed extensions and, for OpenCL C
 * 3.0, the claimed features (this also decides which builtins exist). */
static char *cl_ext_option(int cl_std) {
  char *s = strdup("-cl-ext=-all");
  const cl_name_version *l;
  for (int w = 0; w < 2; w++) {
    size_t n = dev_claims(w ? DEV_CLAIM_FEATURES : DEV_CLAIM_EXTENSIONS, &l);
    for (size_t i = 0; i < n && (w == 0 || cl_std >= 300); i++) {
      char *s2 = cc_strdupf("%s,+%s", s, l[i].name);
      free(s);
      s = s2;
    }
  }
  return s;
}

/* The header included before the source: the macros of exactly what the
 * device claims. */
static char *claims_header(int cl_std) {
  char *h = cc_strdupf("#ifndef __OPENCL_VERSION__\n#define __OPENCL_VERSION__ %d\n#endif\n",
                       DEV_OPENCL_VERSION);
  for (size_t i = 0; i < sizeof(spir_macros) / sizeof(spir_macros[0]); i++) {
    if (dev_claimed(spir_macros[i]) &&
        (cl_std >= 300 || strncmp(spir_macros[i], "__opencl_c_", 11)))
      continue;
    char *h2 = cc_strdupf("%s#undef %s\n", h, spir_macros[i]);
    free(h);
    h = h2;
  }
  /* clang offers the sub-group builtins below OpenCL C 2.0 only for this */
  if (dev_claimed("cl_khr_subgroups")) {
    char *h2 = cc_strdupf("%s#ifndef __opencl_subgroup_builtins\n"
                          "#define __opencl_subgroup_builtins 1\n#endif\n",
                          h);
    free(h);
    h = h2;
  }
  if (dev_claimed("__opencl_c_images")) {
    char *h2 = cc_strdupf("%s#define __IMAGE_SUPPORT__ 1\n", h);
    free(h);
    h = h2;
  }
  const cl_name_version *l;
  size_t n = dev_claims(DEV_CLAIM_EXTENSIONS, &l);
  for (size_t i = 0; i < n; i++) {
    char *h2 = cc_strdupf("%s#ifndef %s\n#define %s 1\n#endif\n", h, l[i].name, l[i].name);
    free(h);
    h = h2;
  }
  return h;
}

/* The files of one front-end run, in a private temporary folder. */
struct cc_run {
  char dir[4096];
  char src[4200], bc[4200], diag[4200], deps[4200], claims[4200];
  char *cl_ext;
};

static int run_setup(struct cc_run *r, int cl_std, const char *source, const char *filename,
                     const struct cc_header *headers, unsigned nheaders, char **log) {
  r->cl_ext = cl_ext_option(cl_std);
  const char *tmp = getenv("TMPDIR");
  snprintf(r->dir, sizeof(r->dir), "%s/lockstep-cc-XXXXXX", (tmp && *tmp) ? tmp : "/tmp");
  if (!mkdtemp(r->dir)) {
    cc_log_append(log, "error: cannot create a temporary directory: %s\n", strerror(errno));
    return -1;
  }
  snprintf(r->src, sizeof(r->src), "%s/input.cl", r->dir);
  snprintf(r->bc, sizeof(r->bc), "%s/out.bc", r->dir);
  snprintf(r->diag, sizeof(r->diag), "%s/diag.txt", r->dir);
  snprintf(r->deps, sizeof(r->deps), "%s/deps.d", r->dir);
  snprintf(r->claims, sizeof(r->claims), "%s/lockstep-claims.h", r->dir);
  /* The #line names the source in diagnostics and line tables. */
  const char *base = filename && *filename ? filename : "program.cl";
  char *text = cc_strdupf("#line 1 \"%s\"\n%s", base, source ? source : "");
  int rc = cc_write_file(r->src, text, strlen(text));
  free(text);
  char *claims = claims_header(cl_std);
  if (rc == 0) rc = cc_write_file(r->claims, claims, strlen(claims));
  free(claims);
  for (unsigned i = 0; rc == 0 && i < nheaders; i++)
    rc = write_header(r->dir, headers[i].name, headers[i].source ? headers[i].source : "");
  if (rc != 0) cc_log_append(log, "error: cannot write the temporary source\n");
  return rc;
}

static void run_cleanup(struct cc_run *r, const struct cc_header *headers, unsigned nheaders) {
  const char *files[] = {r->src, r->bc, r->diag, r->deps, r->claims};
  for (unsigned i = 0; i < 5; i++)
    unlink(files[i]);
  free(r->cl_ext);
  r->cl_ext = NULL;
  for (unsigned i = 0; i < nheaders; i++) {
    char p[8448];
    snprintf(p, sizeof(p), "%s/%s", r->dir, headers[i].name);
    unlink(p);
    /* remove the directories a nested header name created */
    for (char *s = strrchr(p, '/'); s && s > p + strlen(r->dir); s = strrchr(p, '/')) {
      *s = 0;
      rmdir(p);
    }
  }
  rmdir(r->dir);
}

/* The clang command line; *gnu_slot is the index of -f[no-]gnu89-inline.
 * The strings belong to o, r and the callee's statics. */
static char **clang_argv(const struct cc_options *o, const struct cc_run *r, char *std,
                         size_t stdlen, unsigned *gnu_slot) {
  snprintf(std, stdlen, "-cl-std=CL%d.%d", o->cl_std / 100, (o->cl_std / 10) % 10);
  const char *fixed[] = {clang_path(), "-x", "cl", "-target", "spir64", std, "-emit-llvm", "-c",
                         "-g", "-O0", "-cl-kernel-arg-info", "-fno-color-diagnostics",
                         /* the files read, for the build cache */
                         "-MD", "-MF", r->deps, "-I", r->dir,
                         /* kernels see what the device claims */
                         "-Xclang", r->cl_ext, "-include", r->claims};
  unsigned nfixed = sizeof(fixed) / sizeof(fixed[0]);
  char **argv = calloc(nfixed + (unsigned)o->nargs + 11, sizeof(char *));
  unsigned k = 0;
  for (unsigned i = 0; i < nfixed; i++)
    argv[k++] = (char *)fixed[i];
  *gnu_slot = k;
  argv[k++] = "-fno-gnu89-inline";
  /* Without optnone the module is optimised at link time; with it, the link
   * step sees a debug build. */
  if (!o->opt_disable && !o->debug) {
    argv[k++] = "-Xclang";
    argv[k++] = "-disable-O0-optnone";
  }
  for (int i = 0; i < o->nargs; i++)
    argv[k++] = o->args[i];
  /* after the caller's -I folders, so a header of theirs wins */
  argv[k++] = "-I";
  argv[k++] = (char *)cl_include_dir();
  argv[k++] = (char *)r->src;
  argv[k++] = "-o";
  argv[k++] = (char *)r->bc;
  argv[k] = NULL;
  return argv;
}

/* One clang run into *out; its diagnostics go to the log when asked. */
static int clang_once(char **argv, const struct cc_run *r, struct cc_bitcode *out, char **log) {
  int crc = run_clang(argv, r->diag);
  if (log) {
    size_t dlen = 0;
    char *diag = cc_read_file(r->diag, &dlen);
    if (diag && dlen) cc_log_append(log, "%s", diag);
    free(diag);
    if (crc < 0)
      cc_log_append(log, "error: cannot run the OpenCL C front end (%s)\n", clang_path());
  }
  if (crc != 0) return CC_BUILD_FAILURE;
  out->data = cc_read_file(r->bc, &out->size);
  return out->data ? CC_OK : CC_BUILD_FAILURE;
}

/* The files clang read that lie outside the run's own folder, from its
 * make-style dependency file: one absolute path a line (malloc'd). */
static char *read_deps(const struct cc_run *r) {
  size_t n;
  char *d = cc_read_file(r->deps, &n);
  if (!d) return NULL;
  char *colon = strstr(d, ": ");
  char *out = strdup(""), word[4096];
  size_t w = 0, dl = strlen(r->dir);
  for (char *s = colon ? colon + 2 : d + n;; s++) {
    if (*s == '\\' && (s[1] == ' ' || s[1] == '#')) {
      if (w < sizeof(word) - 1) word[w++] = *++s;
      continue;
    }
    if (*s == '\\' && s[1] == '\n') {
      s++;
      continue;
    }
    if (*s && *s != ' ' && *s != '\n' && *s != '\t') {
      if (w < sizeof(word) - 1) word[w++] = *s;
      continue;
    }
    word[w] = 0;
    if (w && !(strncmp(word, r->dir, dl) == 0 && word[dl] == '/')) {
      char *rp = realpath(word, NULL);
      char *o2 = cc_strdupf("%s%s\n", out, rp ? rp : word);
      free(rp);
      free(out);
      out = o2;
    }
    w = 0;
    if (!*s) break;
  }
  free(d);
  return out;
}

/* Source -> bitcode; *deps (when asked) gets the files read from disk. */
static int compile(const char *source, const char *filename, const char *options,
                   const struct cc_header *headers, unsigned nheaders, struct cc_bitcode *out,
                   char **log, char **deps) {
  struct cc_options o;
  char err[256], std[32];
  memset(out, 0, sizeof(*out));
  if (!*log) *log = strdup("");
  int rc = cc_options_parse(options, 0, &o, err, sizeof(err));
  if (rc != CC_OK) {
    cc_log_append(log, "error: %s\n", err);
    return rc;
  }
  struct cc_run r = {0};
  if (run_setup(&r, o.cl_std, source, filename, headers, nheaders, log) != 0) {
    cc_options_free(&o);
    run_cleanup(&r, headers, nheaders);
    return CC_BUILD_FAILURE;
  }
  unsigned gnu_slot;
  char **argv = clang_argv(&o, &r, std, sizeof(std), &gnu_slot);
  rc = clang_once(argv, &r, out, log);
  if (rc == CC_OK && deps) *deps = read_deps(&r);
  /* A plain `inline` function (not static, no extern declaration) is, as in
   * C99, only an inline definition: compiled without optimisation its calls
   * are left to an external definition, which programs written for other
   * drivers never give (pyopencl's own headers are full of such helpers).
   * When calls are left undefined, the source is compiled again with GNU
   * inline semantics, where such a function is defined, and the definitions
   * the first object lacks are taken from there as merged-at-link
   * (linkonce_odr) definitions: a definition in another object still wins,
   * and calls to functions defined elsewhere stay for clLinkProgram. */
  if (rc == CC_OK && cc_bitcode_undefined(out) > 0) {
    argv[gnu_slot] = "-fgnu89-inline";
    struct cc_bitcode gnu = {0};
    if (clang_once(argv, &r, &gnu, NULL) == CC_OK) cc_bitcode_add_inline(out, &gnu, log);
    free(gnu.data);
  }
  free(argv);
  run_cleanup(&r, headers, nheaders);
  cc_options_free(&o);
  return rc;
}

int cc_compile(const char *source, const char *filename, const char *options,
               const struct cc_header *headers, unsigned nheaders, struct cc_bitcode *out,
               char **log) {
  return compile(source, filename, options, headers, nheaders, out, log, NULL);
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

int cc_cache_path(const char *name, char *path, size_t len) {
  char dir[4096];
  if (!cache_enabled() || cache_dir(dir, sizeof dir) != 0) return -1;
  snprintf(path, len, "%s/%s", dir, name);
  return 0;
}

/* Which build of the compiler this is: its file's size and modification
 * time. A cached executable translated by an earlier build (before a fix
 * to the translator) must not be served, and the format version does not
 * change with every fix. */
static char build_stamp[64];
static void stamp_once(void) {
  Dl_info info;
  struct stat st;
  if (dladdr((void *)stamp_once, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0)
    snprintf(build_stamp, sizeof build_stamp, "%lld.%lld.%ld", (long long)st.st_size,
             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  else
    snprintf(build_stamp, sizeof build_stamp, "unknown");
}
const char *cc_build_stamp(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, stamp_once);
  return build_stamp;
}

void cc_hash_hex(const void *const *parts, const size_t *lens, unsigned n, char *hex) {
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init(&h);
  for (unsigned i = 0; i < n; i++)
    llvm_blake3_hasher_update(&h, parts[i], lens[i]);
  uint8_t out[20];
  llvm_blake3_hasher_finalize(&h, out, sizeof(out));
  for (unsigned i = 0; i < sizeof(out); i++)
    sprintf(hex + 2 * i, "%02x", out[i]);
}

static void cache_key(const char *source, const char *filename, const char *options, char *hex) {
  /* the clang arguments too: a relative -I folder means another folder
   * from another working directory */
  struct cc_options o;
  char err[64], *args = strdup("");
  if (cc_options_parse(options, 0, &o, err, sizeof(err)) == CC_OK) {
    for (int i = 0; i < o.nargs; i++) {
      char *a2 = cc_strdupf("%s%s%c", args, o.args[i], 1);
      free(args);
      args = a2;
    }
    cc_options_free(&o);
  }
  /* and what the device claims, which decides the macros kernels see */
  char *ext = cl_ext_option(300);
  const char *parts[] = {cc_version(),           cc_build_stamp(), filename ? filename : "",
                         options ? options : "", args ? args : "", ext ? ext : "",
                         source ? source : ""};
  enum { NPARTS = sizeof parts / sizeof parts[0] };
  const void *p[NPARTS];
  size_t lens[NPARTS];
  for (unsigned i = 0; i < NPARTS; i++) {
    p[i] = parts[i];
    lens[i] = strlen(parts[i]) + 1;
  }
  cc_hash_hex(p, lens, NPARTS, hex);
  free(ext);
  free(args);
}

/* A file's content hash; "-" when it cannot be read. */
static void file_hash(const char *path, char *hex) {
  size_t len;
  char *d = cc_read_file(path, &len);
  if (!d) {
    strcpy(hex, "-");
    return;
  }
  const void *p[1] = {d};
  cc_hash_hex(p, &len, 1, hex);
  free(d);
}

/* The files a build read (headers from -I folders, say), one
 * "<hash> <path>" line each: an entry is used only while they are unchanged. */
static char *deps_record(const char *deps) {
  char *rec = strdup(""), hex[64];
  for (const char *s = deps; s && *s;) {
    const char *e = strchr(s, '\n');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    char *path = strndup(s, n);
    file_hash(path, hex);
    char *r2 = cc_strdupf("%s%s %s\n", rec, hex, path);
    free(rec);
    free(path);
    rec = r2;
    s += n + (e ? 1 : 0);
  }
  return rec;
}

static int deps_fresh(const char *rec) {
  char hex[64];
  for (const char *s = rec; *s;) {
    const char *sp = strchr(s, ' '), *e = strchr(s, '\n');
    if (!sp || !e || sp > e) return 0;
    char *path = strndup(sp + 1, (size_t)(e - sp - 1));
    file_hash(path, hex);
    free(path);
    if (strlen(hex) != (size_t)(sp - s) || strncmp(hex, s, (size_t)(sp - s))) return 0;
    s = e + 1;
  }
  return 1;
}

/* The cached executable at path, when it and the files it was built from
 * are as they were. */
static int cache_lookup(const char *path, struct lsi_program **out, char **log) {
  char dpath[4500];
  snprintf(dpath, sizeof(dpath), "%s.deps", path);
  size_t len;
  char *rec = cc_read_file(dpath, &len);
  int fresh = rec && deps_fresh(rec);
  free(rec);
  uint8_t *buf = fresh ? cc_read_file(path, &len) : NULL;
  if (!buf) return 0;
  int kind;
  struct cc_bitcode bc = {0};
  char *clog = NULL;
  int rc = cc_binary_load(buf, len, &kind, out, &bc, &clog);
  free(buf);
  free(bc.data);
  if (rc == CC_OK && kind == CC_BIN_EXECUTABLE && *out) {
    free(*log);
    *log = clog ? clog : strdup("");
    return 1;
  }
  free(clog);
  if (*out) cc_program_free(*out);
  *out = NULL;
  return 0;
}

static void cache_store(const char *path, const struct lsi_program *p, const char *deps,
                        const char *log) {
  uint8_t *bin;
  size_t blen;
  if (cc_binary_save(p, NULL, CC_BIN_EXECUTABLE, log, &bin, &blen) != CC_OK) return;
  char tmp[4600], dpath[4500];
  char *rec = deps_record(deps);
  snprintf(dpath, sizeof(dpath), "%s.deps", path);
  snprintf(tmp, sizeof(tmp), "%s.%d.tmp", dpath, (int)getpid());
  int ok = rec && cc_write_file(tmp, rec, strlen(rec)) == 0 && rename(tmp, dpath) == 0;
  free(rec);
  snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
  if (ok && cc_write_file(tmp, bin, blen) == 0)
    rename(tmp, path);
  else
    unlink(tmp);
  free(bin);
}

int cc_build(const char *source, const char *filename, const char *options,
             struct lsi_program **out, char **log) {
  *out = NULL;
  char path[4400] = "", dir[4096], hex[64];
  int use_cache = cache_enabled() && cache_dir(dir, sizeof(dir)) == 0;
  if (use_cache) {
    cache_key(source, filename, options, hex);
    snprintf(path, sizeof(path), "%s/%s.lsb", dir, hex);
    if (cache_lookup(path, out, log)) return CC_OK;
  }
  struct cc_bitcode bc;
  char *deps = NULL;
  int rc = compile(source, filename, options, NULL, 0, &bc, log, &deps);
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
  if (rc == CC_OK && use_cache) cache_store(path, *out, deps, *log);
  free(deps);
  return rc;
}
