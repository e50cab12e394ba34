/*
 * divzero.c - integer division by zero through the real ICD loader:
 *   divzero [quiet | check]
 * With no argument it runs itself once per setting in a fresh process
 * (LOCKSTEP_CHECK_DIVZERO unset, then 1). Every one of 256 work-items
 * divides by zero on two source lines (a / and a %), and by nonzero on a
 * third. Either way the kernel completes (OpenCL C gives such a division an
 * unspecified value and raises nothing) with x / 0 = 0 and x % 0 = x:
 *   quiet: no report at all;
 *   check: exactly one report per dividing line, none for the third line.
 */
#include "util/host_util.h"

#include <sys/wait.h>
#include <unistd.h>

#define CHECK LSH_CHECK
const char *lsh_prog = "divzero";

#define N 256

static const char *kernel_src = "__kernel void dz(__global int *out, int zero) {\n"          /* 1 */
                                "  int i = get_global_id(0);\n"                              /* 2 */
                                "  int q = (i + 7) / zero;\n"                                /* 3 */
                                "  int r = (i + 7) % zero;\n"                                /* 4 */
                                "  out[i] = q * 1000 + r + (i + 7) / (zero + 1) * 100000;\n" /* 5 */
                                "}\n";

static int notified;
static char notes[4096];
static void CL_CALLBACK notify(const char *errinfo, const void *pi, size_t cb, void *user) {
  (void)pi, (void)cb, (void)user;
  if (__atomic_add_fetch(&notified, 1, __ATOMIC_SEQ_CST) < 4)
    strncat(notes, errinfo, sizeof notes - strlen(notes) - 2), strcat(notes, "\n");
}

static int run_all(const char *self) {
  static const char *const modes[] = {"quiet", "check"};
  int failed = 0;
  for (size_t i = 0; i < 2; i++)
    failed |= lsh_run_self(self, modes[i], "LOCKSTEP_CHECK_DIVZERO", i ? "1" : NULL);
  printf("divzero: %s\n", failed ? "FAILED" : "values given, reported only when asked");
  return failed;
}

int main(int argc, char **argv) {
  if (argc < 2) return run_all(argv[0]);
  int check = !strcmp(argv[1], "check");
  cl_device_id d = lsh_device();
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &d, notify, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
  CHECK(err);
  static int got[N];
  cl_mem out = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof got, got);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kernel_src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(prog, 1, &d, "", NULL, NULL));
  cl_kernel k = lsh_kernel(prog, "dz");
  int zero = 0;
  CHECK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK(clSetKernelArg(k, 1, sizeof zero, &zero));
  size_t g = N, l = 64;
  cl_event ev;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev));
  CHECK(clWaitForEvents(1, &ev));
  cl_int status = -1;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += got[i] != 0 * 1000 + (i + 7) + (i + 7) * 100000;
  int failed = 0;
  if (status != CL_COMPLETE || wrong) {
    fprintf(stderr, "divzero %s: status %d, %d wrong values (want CL_COMPLETE, 0)\n", argv[1],
            status, wrong);
    failed = 1;
  }
  int want = check ? 2 : 0;
  if (notified != want || (check && (!strstr(notes, ".cl:3") || !strstr(notes, ".cl:4") ||
                                     !strstr(notes, "division by zero")))) {
    fprintf(stderr, "divzero %s: %d reports, want %d, one for line 3 and one for line 4:\n%s",
            argv[1], notified, want, notes);
    failed = 1;
  }
  clReleaseEvent(ev);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseMemObject(out);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return failed;
}
