/*
 * stale.c - handles used after their last release, through the real ICD
 * loader (which dispatches through the object's first word): released
 * twice, queried, enqueued or waited for after release. Each call must
 * return its CL_INVALID_* code and print exactly one line on stderr naming
 * the call and the kind of object, and the process must survive (under the
 * sanitizer build the memory read must still be allocated). The first case
 * is what a binding does with the program a failed clLinkProgram returns.
 */
#include "util/host_util.h"

#include <unistd.h>

#define CHECK LSH_CHECK
const char *lsh_prog = "stale";

static cl_device_id dev;
static cl_context ctx;
static cl_command_queue queue;

static const char *lib_src = "int helper(int x);\n"
                             "__kernel void k(__global int *p) { p[0] = helper(p[0]); }\n";
static const char *k_src = "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }\n";

static cl_program built(const char *src) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
  return p;
}

/* Each case does one call with a stale handle and returns its result. */
static cl_int failed_link_released_twice(void) {
  cl_int err;
  cl_program obj = clCreateProgramWithSource(ctx, 1, &lib_src, NULL, &err);
  CHECK(err);
  CHECK(clCompileProgram(obj, 1, &dev, "", 0, NULL, NULL, NULL, NULL));
  cl_program linked = clLinkProgram(ctx, 1, &dev, "", 1, &obj, NULL, NULL, &err);
  if (err != CL_LINK_PROGRAM_FAILURE || !linked) {
    fprintf(stderr, "stale: the link was expected to fail (%d)\n", err);
    exit(1);
  }
  CHECK(clReleaseProgram(obj));
  CHECK(clReleaseProgram(linked));
  return clReleaseProgram(linked);
}

static cl_int program_info_after_release(void) {
  cl_program p = built(k_src);
  CHECK(clReleaseProgram(p));
  cl_uint n;
  return clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof n, &n, NULL);
}

static cl_int mem_released_twice(void) {
  cl_mem m = lsh_buffer(ctx, CL_MEM_READ_WRITE, 64, NULL);
  CHECK(clReleaseMemObject(m));
  return clReleaseMemObject(m);
}

static cl_int read_after_release(void) {
  cl_mem m = lsh_buffer(ctx, CL_MEM_READ_WRITE, 64, NULL);
  CHECK(clReleaseMemObject(m));
  int out[16];
  return clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
}

static cl_int kernel_arg_after_release(void) {
  cl_program p = built(k_src);
  cl_kernel k = lsh_kernel(p, "k");
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
  cl_mem m = NULL;
  return clSetKernelArg(k, 0, sizeof m, &m);
}

static cl_int launch_after_release(void) {
  cl_program p = built(k_src);
  cl_kernel k = lsh_kernel(p, "k");
  cl_mem m = lsh_buffer(ctx, CL_MEM_READ_WRITE, 64, NULL);
  CHECK(clSetKernelArg(k, 0, sizeof m, &m));
  CHECK(clReleaseKernel(k));
  size_t g = 16;
  cl_int err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL);
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseProgram(p));
  return err;
}

static cl_int event_released_twice(void) {
  cl_event e;
  CHECK(clEnqueueMarkerWithWaitList(queue, 0, NULL, &e));
  CHECK(clWaitForEvents(1, &e));
  CHECK(clReleaseEvent(e));
  return clReleaseEvent(e);
}

/* The command still waits for a user event, so the runtime holds the event:
 * the application's second release must not take the runtime's reference. */
static cl_int pending_event_released_twice(void) {
  cl_int err;
  cl_event ue = clCreateUserEvent(ctx, &err);
  CHECK(err);
  cl_event e;
  CHECK(clEnqueueMarkerWithWaitList(queue, 1, &ue, &e));
  CHECK(clReleaseEvent(e));
  err = clReleaseEvent(e);
  CHECK(clSetUserEventStatus(ue, CL_COMPLETE));
  CHECK(clFinish(queue));
  CHECK(clReleaseEvent(ue));
  return err;
}

static cl_int wait_list_after_release(void) {
  cl_event e;
  CHECK(clEnqueueMarkerWithWaitList(queue, 0, NULL, &e));
  CHECK(clWaitForEvents(1, &e));
  CHECK(clReleaseEvent(e));
  return clEnqueueBarrierWithWaitList(queue, 1, &e, NULL);
}

static cl_int wait_after_release(void) {
  cl_int err;
  cl_event ue = clCreateUserEvent(ctx, &err);
  CHECK(err);
  CHECK(clReleaseEvent(ue));
  return clWaitForEvents(1, &ue);
}

static cl_int finish_after_release(void) {
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);
  CHECK(clReleaseCommandQueue(q));
  return clFinish(q);
}

static cl_int context_released_twice(void) {
  cl_int err;
  cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  CHECK(clReleaseContext(c));
  return clReleaseContext(c);
}

static cl_int buffer_in_released_context(void) {
  cl_int err;
  cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  CHECK(clReleaseContext(c));
  cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &err);
  if (m) return CL_SUCCESS;
  return err;
}

static const struct stale_case {
  const char *name;
  cl_int (*run)(void);
  cl_int want;
  const char *call, *kind;
} cases[] = {
    {"failed link released twice", failed_link_released_twice, CL_INVALID_PROGRAM,
     "clReleaseProgram", "program"},
    {"program info after release", program_info_after_release, CL_INVALID_PROGRAM,
     "clGetProgramInfo", "program"},
    {"buffer released twice", mem_released_twice, CL_INVALID_MEM_OBJECT, "clReleaseMemObject",
     "memory object"},
    {"read after release", read_after_release, CL_INVALID_MEM_OBJECT, "clEnqueueReadBuffer",
     "memory object"},
    {"kernel arg after release", kernel_arg_after_release, CL_INVALID_KERNEL, "clSetKernelArg",
     "kernel"},
    {"launch after release", launch_after_release, CL_INVALID_KERNEL, "clEnqueueNDRangeKernel",
     "kernel"},
    {"event released twice", event_released_twice, CL_INVALID_EVENT, "clReleaseEvent", "event"},
    {"pending event released twice", pending_event_released_twice, CL_INVALID_EVENT,
     "clReleaseEvent", "event"},
    {"wait list after release", wait_list_after_release, CL_INVALID_EVENT_WAIT_LIST,
     "clEnqueueBarrierWithWaitList", "event"},
    {"wait after release", wait_after_release, CL_INVALID_EVENT, "clWaitForEvents", "event"},
    {"finish after release", finish_after_release, CL_INVALID_COMMAND_QUEUE, "clFinish",
     "command queue"},
    {"context released twice", context_released_twice, CL_INVALID_CONTEXT, "clReleaseContext",
     "context"},
    {"buffer in released context", buffer_in_released_context, CL_INVALID_CONTEXT, "clCreateBuffer",
     "context"},
};

/* In a child process (argv[1] is the case's index): sets up, runs the case
 * and prints its result on stdout; stderr is the parent's capture file. */
static int child(size_t i) {
  dev = lsh_device();
  cl_int err;
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);
  cl_int got = cases[i].run();
  CHECK(clFinish(queue));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(ctx));
  printf("%d\n", got);
  return 0;
}

/* Runs case i in a fresh process (a crash must not hide the other cases);
 * checks that it exits normally with the code wanted and one line. */
static int run_case(const char *self, size_t i) {
  const struct stale_case *c = &cases[i];
  char cmd[4200], err_path[] = "/tmp/stale-XXXXXX";
  int fd = mkstemp(err_path);
  if (fd < 0) return fprintf(stderr, "stale: mkstemp\n"), 1;
  close(fd);
  snprintf(cmd, sizeof cmd, "'%s' %zu 2>%s", self, i, err_path);
  FILE *p = popen(cmd, "r");
  int got = 0;
  int parsed = p && fscanf(p, "%d", &got) == 1;
  int st = p ? pclose(p) : -1;
  char text[4096] = "";
  FILE *f = fopen(err_path, "r");
  size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
  text[n] = 0;
  if (f) fclose(f);
  unlink(err_path);
  if (st != 0 || !parsed) {
    fprintf(stderr, "stale: %s: the process failed (status %d):\n%s", c->name, st, text);
    return 1;
  }
  if (got != c->want) {
    fprintf(stderr, "stale: %s: got %d, want %d\n", c->name, got, c->want);
    return 1;
  }
  int lines = 0;
  for (const char *s = text; *s; s++)
    lines += *s == '\n';
  char want[160];
  snprintf(want, sizeof want, "lockstep: %s: %s 0x", c->call, c->kind);
  if (lines != 1 || !strstr(text, want) || !strstr(text, "after its last release")) {
    fprintf(stderr, "stale: %s: want one line \"%s... after its last release\", got:\n%s", c->name,
            want, text);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  size_t ncases = sizeof cases / sizeof cases[0];
  if (argc > 1) return child((size_t)strtoul(argv[1], NULL, 10) % ncases);
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return fprintf(stderr, "stale: cannot find itself\n"), 1;
  self[len] = 0;
  int failed = 0;
  for (size_t i = 0; i < ncases; i++)
    failed += run_case(self, i);
  if (failed) return fprintf(stderr, "stale: %d of %zu cases failed\n", failed, ncases), 1;
  printf("stale: %zu cases passed\n", ncases);
  return 0;
}
