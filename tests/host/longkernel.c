/*
 * longkernel.c - a kernel that is long but keeps making progress (an
 * uncounted loop whose state changes every iteration, sampled many times
 * by the forward-progress check) runs to completion with the default
 * settings, which have no watchdog, and even when the progress check stops
 * a loop after 1 ms in the same state (LOCKSTEP_PROGRESS_MS=1); the same
 * kernel under an explicit LOCKSTEP_WATCHDOG_MS stops with a watchdog
 * device exception. With no argument it runs itself once per mode in a
 * fresh process:
 *   longkernel [default | watchdog]
 */
#include <sys/wait.h>
#include <unistd.h>

#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "longkernel";

/* Iterations of the loop: several samples of the progress check (one per
 * 720720 yields) for the single warp. */
#define STEPS 3000000u

static const char *source = "__kernel void walk(__global uint *out, uint target) {\n"
                            "  uint x = 1u, n = 0u;\n"
                            "  while (x != target) {\n"
                            "    x = x * 1664525u + 1013904223u;\n"
                            "    n++;\n"
                            "  }\n"
                            "  out[0] = n;\n"
                            "}\n";

static int run_mode(const char *self, const char *mode, const char *watchdog) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    if (watchdog) {
      setenv("LOCKSTEP_WATCHDOG_MS", watchdog, 1);
    } else {
      unsetenv("LOCKSTEP_WATCHDOG_MS");
      setenv("LOCKSTEP_PROGRESS_MS", "1", 1);
    }
    execl(self, self, mode, (char *)NULL);
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "longkernel: the %s mode failed\n", mode);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    int failed = run_mode(argv[0], "default", NULL) | run_mode(argv[0], "watchdog", "20");
    printf("longkernel: %s\n", failed ? "FAILED" : "completed by default, stopped by a watchdog");
    return failed;
  }
  int watchdog = strcmp(argv[1], "watchdog") == 0;
  cl_uint target = 1u;
  for (cl_uint i = 0; i < STEPS; i++)
    target = target * 1664525u + 1013904223u;
  cl_context ctx;
  cl_command_queue q;
  cl_program p = lsh_build(source, "", &ctx, &q);
  cl_kernel k = lsh_kernel(p, "walk");
  cl_uint zero = 0, n = 0;
  cl_mem out = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero);
  CHECK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK(clSetKernelArg(k, 1, sizeof target, &target));
  size_t g = 1;
  cl_event ev;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, &ev));
  clWaitForEvents(1, &ev);
  cl_int status = 1;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof n, &n, 0, NULL, NULL));
  int failed = 0;
  if (watchdog && status != CL_OUT_OF_RESOURCES) {
    fprintf(stderr, "longkernel: FAIL: under a 20 ms watchdog the kernel ended with %d\n", status);
    failed = 1;
  }
  if (!watchdog && (status != CL_COMPLETE || n != STEPS)) {
    fprintf(stderr,
            "longkernel: FAIL: by default the kernel ended with %d after %u steps, want %u\n",
            status, n, STEPS);
    failed = 1;
  }
  clReleaseEvent(ev);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return failed;
}
