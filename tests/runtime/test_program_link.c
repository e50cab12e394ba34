/*
 * test_program_link.c - program corners real programs and external suites
 * hit: a link that defines a symbol twice (an error in the log, never the
 * end of the host process), C99 inline helpers across clCompileProgram and
 * clLinkProgram, relative -I folders, kernel argument info only when asked
 * for, compiled objects through a binary, and a rebuild while a launch of a
 * released kernel is still in flight.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/check_util.h"

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;

static void setup(void) {
  cu_cl_setup(&dev, &ctx, &q);
}

static void teardown(void) {
  cu_cl_teardown(q, ctx);
}

static cl_program source_program(const char *src) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  return p;
}

static cl_program compiled(const char *src, const char *options) {
  cl_program p = source_program(src);
  ck_assert_int_eq(clCompileProgram(p, 0, NULL, options, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
  return p;
}

static char *build_log(cl_program p) {
  size_t n = 0;
  ck_assert_int_eq(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n), CL_SUCCESS);
  char *log = malloc(n + 1);
  ck_assert_int_eq(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL), CL_SUCCESS);
  return log;
}

/* Runs kernel `name` (one int* argument) on 4 work-items; returns out[0]. */
static int run_one(cl_program p, const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  int out[4] = {0};
  cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  size_t g = 4;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  return out[0];
}

/* A function defined in two objects: the link fails with the symbol named in
 * the log, and the host process goes on (LLVM's own handler would exit). */
START_TEST(test_link_duplicate_symbol_is_an_error) {
  cl_program fn = compiled("int get_number(void) { return 42; }", "");
  cl_program kp = compiled("int get_number(void);\n"
                           "kernel void k(global int *o) { o[0] = get_number(); }\n"
                           "int get_number(void) { return 0; }\n",
                           "");
  cl_program objs[2] = {fn, kp};
  cl_int err;
  cl_program bad = clLinkProgram(ctx, 0, NULL, "", 2, objs, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_LINK_PROGRAM_FAILURE);
  ck_assert_ptr_nonnull(bad);
  cl_build_status st;
  ck_assert_int_eq(clGetProgramBuildInfo(bad, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(st, CL_BUILD_ERROR);
  char *log = build_log(bad);
  ck_assert_ptr_nonnull(strstr(log, "get_number"));
  ck_assert_ptr_nonnull(strstr(log, "multiply defined"));
  free(log);
  clReleaseProgram(bad);
  /* the same objects as a library fail too; each alone links */
  ck_assert_ptr_nonnull(
      bad = clLinkProgram(ctx, 0, NULL, "-create-library", 2, objs, NULL, NULL, &err));
  ck_assert_int_eq(err, CL_LINK_PROGRAM_FAILURE);
  clReleaseProgram(bad);
  cl_program good = clLinkProgram(ctx, 0, NULL, "", 1, &kp, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(run_one(good, "k"), 0);
  clReleaseProgram(good);
  clReleaseProgram(fn);
  clReleaseProgram(kp);
}
END_TEST

static cl_int arg_name(cl_program p, char *s, size_t n) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_kernel_arg_address_qualifier aq;
  cl_int e = clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, n, s, NULL);
  /* every query answers alike */
  ck_assert_int_eq(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL),
                   e);
  ck_assert_int_eq(clGetKernelArgInfo(k, 0, 0x1234, sizeof aq, &aq, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, n, s, NULL), CL_INVALID_ARG_INDEX);
  clReleaseKernel(k);
  return e;
}

/* Argument information exists only for a program built from source with
 * -cl-kernel-arg-info (directly, or compiled so and linked). */
START_TEST(test_arg_info_only_when_asked) {
  const char *src = "kernel void k(global int *out) { out[0] = 1; }";
  char s[32] = "";
  cl_program p = source_program(src);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "", NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(arg_name(p, s, sizeof s), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  /* a rebuild with the option has it */
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-cl-kernel-arg-info", NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(arg_name(p, s, sizeof s), CL_SUCCESS);
  ck_assert_str_eq(s, "out");
  /* a program from that program's binary was not built from source */
  size_t len;
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL),
                   CL_SUCCESS);
  unsigned char *bin = malloc(len);
  ck_assert_int_eq(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
  cl_int err;
  const unsigned char *b = bin;
  cl_program pb = clCreateProgramWithBinary(ctx, 1, &dev, &len, &b, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(clBuildProgram(pb, 0, NULL, "-cl-kernel-arg-info", NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(arg_name(pb, s, sizeof s), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  free(bin);
  clReleaseProgram(pb);
  clReleaseProgram(p);
  /* compiled with the option and linked: available; without: not */
  const char *opts[2] = {"-cl-kernel-arg-info", ""};
  cl_int want[2] = {CL_SUCCESS, CL_KERNEL_ARG_INFO_NOT_AVAILABLE};
  for (int i = 0; i < 2; i++) {
    cl_program o = compiled(src, opts[i]);
    cl_program l = clLinkProgram(ctx, 0, NULL, "", 1, &o, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_int_eq(arg_name(l, s, sizeof s), want[i]);
    clReleaseProgram(l);
    clReleaseProgram(o);
  }
}
END_TEST

static cl_program with_headers(const char *src, const char *options) {
  static const char *names[2] = {"twice.h", "pi.h"};
  cl_program h[2] = {source_program("inline float twice(float x) { return 2 * x; }\n"),
                     source_program("inline float pi(void) { return twice(1.5f) + 0.14f; }\n")};
  cl_program p = source_program(src);
  ck_assert_int_eq(clCompileProgram(p, 0, NULL, options, 2, h, names, NULL, NULL), CL_SUCCESS);
  clReleaseProgram(h[0]);
  clReleaseProgram(h[1]);
  return p;
}

/* C99 inline helpers from a header, in objects that each call a function
 * the other defines: each object gets the helpers it calls (pi, and
 * twice, which only pi's body calls), the link merges them. */
START_TEST(test_c99_inline_across_link) {
  const char *opts[] = {"", "-g", "-cl-opt-disable"};
  for (unsigned i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
    cl_program a =
        with_headers("#include \"twice.h\"\n#include \"pi.h\"\n"
                     "float ext(float);\n"
                     "float base(void) { return 0.0f; }\n"
                     "kernel void k(global int *o) { o[0] = (pi() + ext(1.0f)) * 100; }\n",
                     opts[i]);
    cl_program b = with_headers("#include \"twice.h\"\n#include \"pi.h\"\n"
                                "float base(void);\n"
                                "float ext(float x) { return x * pi() + base(); }\n",
                                opts[i]);
    cl_program objs[2] = {a, b};
    cl_int err;
    cl_program l = clLinkProgram(ctx, 0, NULL, "", 2, objs, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_int_eq(run_one(l, "k"), 628);
    clReleaseProgram(l);
    /* linked the other way round, and through a library */
    cl_program rev[2] = {b, a};
    l = clLinkProgram(ctx, 0, NULL, "-create-library", 2, rev, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    cl_program exe = clLinkProgram(ctx, 0, NULL, "", 1, &l, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_int_eq(run_one(exe, "k"), 628);
    clReleaseProgram(exe);
    clReleaseProgram(l);
    /* without the object defining ext() the link still fails, naming it */
    l = clLinkProgram(ctx, 0, NULL, "", 1, &a, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_LINK_PROGRAM_FAILURE);
    char *log = build_log(l);
    ck_assert_ptr_nonnull(strstr(log, "ext"));
    ck_assert_ptr_null(strstr(log, "'pi'"));
    free(log);
    clReleaseProgram(l);
    clReleaseProgram(a);
    clReleaseProgram(b);
  }
}
END_TEST

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

static int build_and_run(const char *src, const char *options) {
  cl_program p = source_program(src);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, options, NULL, NULL), CL_SUCCESS);
  int v = run_one(p, "k");
  clReleaseProgram(p);
  return v;
}

/* -I and -include name paths relative to the host's working directory; the
 * build cache (on here) notices a changed header and another folder. */
START_TEST(test_relative_include_and_cache) {
  char tmpl[] = "/tmp/lockstep-inc-XXXXXX", path[256];
  ck_assert_ptr_nonnull(mkdtemp(tmpl));
  setenv("LOCKSTEP_CACHE", "1", 1);
  setenv("XDG_CACHE_HOME", tmpl, 1);
  const char *dirs[] = {"a", "a/sub", "b", "b/sub"};
  for (unsigned i = 0; i < 4; i++) {
    snprintf(path, sizeof path, "%s/%s", tmpl, dirs[i]);
    ck_assert_int_eq(mkdir(path, 0700), 0);
  }
  snprintf(path, sizeof path, "%s/a", tmpl);
  ck_assert_int_eq(chdir(path), 0);
  const char *src = "#include \"v.h\"\nkernel void k(global int *o) { o[0] = V + W; }\n";
  const char *opts = "-I sub -include sub/w.h";
  write_text("sub/v.h", "#define V 5\n");
  write_text("sub/w.h", "#define W 100\n");
  ck_assert_int_eq(build_and_run(src, opts), 105);
  ck_assert_int_eq(build_and_run(src, opts), 105);
  write_text("sub/v.h", "#define V 6\n");
  ck_assert_int_eq(build_and_run(src, opts), 106);
  write_text("sub/w.h", "#define W 200\n");
  ck_assert_int_eq(build_and_run(src, opts), 206);
  snprintf(path, sizeof path, "%s/b", tmpl);
  ck_assert_int_eq(chdir(path), 0);
  write_text("sub/v.h", "#define V 7\n");
  write_text("sub/w.h", "#define W 300\n");
  ck_assert_int_eq(build_and_run(src, opts), 307);
  ck_assert_int_eq(build_and_run(src, "-Isub -include sub/w.h"), 307);
  /* a missing folder or file is a build error naming it */
  cl_program p = source_program(src);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-I nowhere", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  char *log = build_log(p);
  ck_assert_ptr_nonnull(strstr(log, "v.h"));
  free(log);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-I", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-I sub -include", NULL, NULL),
                   CL_INVALID_BUILD_OPTIONS);
  clReleaseProgram(p);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A kernel the application released while its launch waits: the program
 * can be rebuilt (the kernel no longer counts as attached), and the launch
 * still runs the code it was enqueued with. One the application holds
 * still stops a rebuild. */
START_TEST(test_rebuild_while_a_released_kernel_runs) {
  cl_program p = source_program("global int g = VAL;\n"
                                "kernel void k(global int *o) { o[0] = g; }\n");
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-cl-std=CL3.0 -DVAL=11", NULL, NULL), CL_SUCCESS);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-cl-std=CL3.0 -DVAL=22", NULL, NULL),
                   CL_INVALID_OPERATION);
  int out = 0;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof out, &out, &err);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  cl_event gate = clCreateUserEvent(ctx, &err), done;
  size_t g = 1;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 1, &gate, &done), CL_SUCCESS);
  /* a retained kernel still counts; once only the launch holds it, not */
  ck_assert_int_eq(clRetainKernel(k), CL_SUCCESS);
  ck_assert_int_eq(clReleaseKernel(k), CL_SUCCESS);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-cl-std=CL3.0 -DVAL=22", NULL, NULL),
                   CL_INVALID_OPERATION);
  ck_assert_int_eq(clReleaseKernel(k), CL_SUCCESS);
  ck_assert_int_eq(clBuildProgram(p, 0, NULL, "-cl-std=CL3.0 -DVAL=22", NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ck_assert_int_eq(clWaitForEvents(1, &done), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(out, 11); /* the code and data it was enqueued with */
  ck_assert_int_eq(run_one(p, "k"), 22);
  clReleaseEvent(done);
  clReleaseEvent(gate);
  clReleaseMemObject(m);
  clReleaseProgram(p);
}
END_TEST

/* A compiled object through CL_PROGRAM_BINARIES loads as a compiled object
 * and links, alone and with another object. */
START_TEST(test_compiled_object_binary_links) {
  cl_program o = compiled("int twice(int x);\n"
                          "kernel void k(global int *out) { out[0] = twice(21); }\n",
                          "");
  size_t len;
  ck_assert_int_eq(clGetProgramInfo(o, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL),
                   CL_SUCCESS);
  unsigned char *bin = malloc(len);
  ck_assert_int_eq(clGetProgramInfo(o, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
  cl_int err, st = 1;
  const unsigned char *b = bin;
  cl_program ob = clCreateProgramWithBinary(ctx, 1, &dev, &len, &b, &st, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(st, CL_SUCCESS);
  cl_program_binary_type bt;
  ck_assert_int_eq(clGetProgramBuildInfo(ob, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(bt, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program lib = compiled("int twice(int x) { return 2 * x; }", "");
  cl_program objs[2] = {ob, lib};
  cl_program l = clLinkProgram(ctx, 0, NULL, "", 2, objs, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(run_one(l, "k"), 42);
  clReleaseProgram(l);
  /* alone, twice() is missing: a link failure, not a crash */
  l = clLinkProgram(ctx, 0, NULL, "", 1, &ob, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_LINK_PROGRAM_FAILURE);
  clReleaseProgram(l);
  ck_assert_int_eq(clCompileProgram(ob, 0, NULL, "", 0, NULL, NULL, NULL, NULL),
                   CL_INVALID_OPERATION);
  free(bin);
  clReleaseProgram(lib);
  clReleaseProgram(ob);
  clReleaseProgram(o);
}
END_TEST

int main(void) {
  Suite *s = suite_create("program_link");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_link_duplicate_symbol_is_an_error);
  tcase_add_test(tc, test_arg_info_only_when_asked);
  tcase_add_test(tc, test_c99_inline_across_link);
  tcase_add_test(tc, test_relative_include_and_cache);
  tcase_add_test(tc, test_rebuild_while_a_released_kernel_runs);
  tcase_add_test(tc, test_compiled_object_binary_links);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
