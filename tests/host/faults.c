/*
 * faults.c - one device exception of each kind through the real ICD loader:
 *   faults [misaligned | barrier | watchdog | hang | hang8 | spin]
 * With no argument it runs itself once per kind, in a fresh process with the
 * setting that kind needs (watchdog: a short LOCKSTEP_WATCHDOG_MS; hang: the
 * defaults, which have no watchdog; hang8: the same at warp width 8, two
 * warps per group, with an alarm as a backstop so that a loop the progress
 * check misses kills the case instead of hanging it; spin:
 * LOCKSTEP_RECONVERGENCE=stack).
 * (Integer division by zero is no exception: tests/host/divzero.c.) For each: the event
 * gets a negative status, stderr gets exactly one report naming the kernel,
 * file:line, work-item and work-group, pfn_notify gets the same text, another
 * buffer is intact and the next kernel runs normally. The memory fault
 * (misaligned) names its address, the others their instruction.
 */
#include "util/host_util.h"

#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK LSH_CHECK
const char *lsh_prog = "faults";

struct fault_case {
  const char *kind, *kernel, *line, *words;
  const char *src;
  const char *env, *env_value; /* what the device must be configured with */
  unsigned backstop_s;         /* 0, or seconds after which only a regression still runs */
};

static const struct fault_case cases[] = {
    {"misaligned", "misaligned", ".cl:3", "misaligned",
     "__kernel void misaligned(__global int *out, int d) {\n"
     "  __global char *p = (__global char *)out + d + 1;\n"
     "  *(__global int *)p = 7;\n"
     "}\n",
     NULL, NULL},
    /* An offset no allocation can have, folded into the instruction: the
     * native engine must not turn it into a host address. */
    {"huge_offset", "huge", ".cl:2", "not a device address",
     "__kernel void huge(__global int *out, int d) {\n"
     "  out[0x1fffffffffffffffL] = d;\n"
     "}\n",
     "LOCKSTEP_NATIVE_MIN", "0"},
    {"barrier", "halfbar", ".cl:", "barrier",
     "__kernel void halfbar(__global int *out, int d) {\n"
     "  int l = get_local_id(0);\n"
     "  if (l < 5)\n"
     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
     "  out[get_global_id(0)] = l + d;\n"
     "}\n",
     NULL, NULL},
    {"watchdog", "forever", ".cl:", "watchdog",
     "__kernel void forever(__global int *out, int d) {\n"
     "  int i = get_global_id(0);\n"
     "  while (out[i] != 12345 + d)\n"
     "    out[(i + 1) % 16] += 0;\n"
     "}\n",
     "LOCKSTEP_WATCHDOG_MS", "300"},
    /* The same loop with the default settings (no watchdog): its state
     * never changes, so it stops for lack of forward progress. */
    {"hang", "forever", ".cl:", "no forward progress",
     "__kernel void forever(__global int *out, int d) {\n"
     "  int i = get_global_id(0);\n"
     "  while (out[i] != 12345 + d)\n"
     "    out[(i + 1) % 16] += 0;\n"
     "}\n",
     NULL, NULL},
    /* The same hang with two warps per group: the progress check must not
     * take where the scheduler parked the other warp for a change. */
    {"hang8", "forever", ".cl:", "no forward progress",
     "__kernel void forever(__global int *out, int d) {\n"
     "  int i = get_global_id(0);\n"
     "  while (out[i] != 12345 + d)\n"
     "    out[(i + 1) % 16] += 0;\n"
     "}\n",
     "LOCKSTEP_WARP_WIDTH", "8", 120},
    {"spin", "spinlock", ".cl:", "no forward progress",
     "__kernel void spinlock(__global int *lock, int d) {\n"
     "  while (atomic_cmpxchg(&lock[63], 0, 1) != 0)\n"
     "    ;\n"
     "  lock[62] += 1 + d;\n"
     "  atomic_xchg(&lock[63], 0);\n"
     "}\n",
     "LOCKSTEP_RECONVERGENCE", "stack"},
};

static const char *ok_src = "__kernel void ok(__global int *out) { out[get_global_id(0)] = 7; }\n";

static char notified[2048];
static void CL_CALLBACK notify(const char *errinfo, const void *pi, size_t cb, void *user) {
  snprintf(notified, sizeof notified, "%s", errinfo);
}

#define NCASES (sizeof cases / sizeof cases[0])

/* Runs every kind in its own process; 0 when all of them end well. */
static int run_all(const char *self) {
  int failed = 0;
  for (size_t i = 0; i < NCASES; i++)
    failed |= lsh_run_self(self, cases[i].kind, cases[i].env, cases[i].env_value);
  printf("faults: %zu kinds, %s\n", NCASES, failed ? "FAILED" : "all as expected");
  return failed;
}

int main(int argc, char **argv) {
  if (argc < 2) return run_all(argv[0]);
  const struct fault_case *c = NULL;
  for (size_t i = 0; i < NCASES; i++)
    if (strcmp(argv[1], cases[i].kind) == 0) c = &cases[i];
  if (!c) {
    fprintf(stderr, "usage: faults misaligned|barrier|watchdog|hang|hang8|spin\n");
    return 2;
  }
  if (c->backstop_s) alarm(c->backstop_s); /* SIGALRM ends the process: the case fails */
  int failed = 0;
#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "faults %s: expected %s (line %d)\n", c->kind, #cond, __LINE__);             \
      failed = 1;                                                                                  \
    }                                                                                              \
  } while (0)
  cl_device_id d = lsh_device();
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &d, notify, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
  CHECK(err);
  int init[64] = {0}, keep_init[64];
  for (int i = 0; i < 64; i++)
    keep_init[i] = 1000 + i;
  cl_mem out =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
  CHECK(err);
  cl_mem keep = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof keep_init,
                               keep_init, &err);
  CHECK(err);
  const char *srcs[2] = {c->src, ok_src};
  cl_program prog = clCreateProgramWithSource(ctx, 2, srcs, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(prog, 1, &d, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prog, c->kernel, &err);
  CHECK(err);
  int zero = 0;
  CHECK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK(clSetKernelArg(k, 1, sizeof zero, &zero));

  fflush(stderr);
  int saved = dup(2);
  FILE *tmp = tmpfile();
  dup2(fileno(tmp), 2);
  size_t g = 16, l = 16;
  cl_event ev;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev));
  clWaitForEvents(1, &ev);
  clFinish(q);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char report[4096] = "";
  rewind(tmp);
  size_t n = fread(report, 1, sizeof report - 1, tmp);
  report[n] = '\0';
  fclose(tmp);

  cl_int status = 0;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  EXPECT(status < 0);
  int lines = 0;
  for (char *p = report; *p; p++)
    lines += *p == '\n';
  EXPECT(lines == 1);
  char want[128];
  snprintf(want, sizeof want, "kernel '%s'", c->kernel);
  EXPECT(strstr(report, want) != NULL);
  EXPECT(strstr(report, c->line) != NULL);
  EXPECT(strstr(report, "work-item (") != NULL);
  EXPECT(strstr(report, "work-group (") != NULL);
  EXPECT(strstr(report, c->words) != NULL);
  /* the bad stores name their address, the other kinds their instruction */
  bool addressed = !strcmp(c->kind, "misaligned") || !strcmp(c->kind, "huge_offset");
  EXPECT((strstr(report, "(address 0x") != NULL) == addressed);
  EXPECT((strstr(report, "(instruction ") != NULL) == !addressed);
  EXPECT(notified[0] != '\0' && strstr(report, notified) != NULL);
  fprintf(stderr, "faults %s: stderr said: %s", c->kind, report);

  int got[64];
  CHECK(clEnqueueReadBuffer(q, keep, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  EXPECT(memcmp(got, keep_init, sizeof got) == 0);
  cl_kernel k2 = clCreateKernel(prog, "ok", &err);
  CHECK(err);
  CHECK(clSetKernelArg(k2, 0, sizeof keep, &keep));
  g = 64;
  CHECK(clEnqueueNDRangeKernel(q, k2, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, keep, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  for (int i = 0; i < 64; i++)
    EXPECT(got[i] == 7);

  clReleaseEvent(ev);
  clReleaseKernel(k);
  clReleaseKernel(k2);
  clReleaseProgram(prog);
  clReleaseMemObject(out);
  clReleaseMemObject(keep);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  printf("faults %s: %s\n", c->kind, failed ? "FAILED" : "report, status and buffers as expected");
  return failed;
}
