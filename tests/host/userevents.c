/*
 * userevents.c - device-side enqueue with wait lists that mix a user event
 * (create_user_event) with the events of kernels and of a marker, the user
 * event completed by set_user_event_status after the enqueue, run many
 * times over. Every run must finish with every child's value in place; an
 * alarm turns a run that does not finish into a failure. Arguments: runs
 * (default 200), global and local size (default 1 and 1). Run by
 * userevents_stress.sh under forced switches too.
 */
#include <signal.h>
#include <unistd.h>

#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "userevents";

#define NBUF    5
#define NST     6
#define ALARM_S 120

/* The user event is created after the kernel events and released as soon
 * as it is set, so later work-items' kernel events may take its slot while
 * the commands waiting for it are still queued. */
static const char *source =
    "kernel void events(global int *buf0, global int *st0) {\n"
    "  global int *buf = buf0 + 5 * get_global_id(0), *st = st0 + 6 * get_global_id(0);\n"
    "  queue_t q = get_default_queue();\n"
    "  clk_event_t a, b, m, d;\n"
    "  st[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &a,\n"
    "                         ^{ buf[0] = 11; });\n"
    "  st[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(2), 1, &a, &b,\n"
    "                         ^{ if (get_global_id(0) == 0) buf[1] = buf[0] + 1; });\n"
    "  st[2] = enqueue_marker(q, 1, &b, &m);\n"
    "  clk_event_t ue = create_user_event();\n"
    "  clk_event_t waits[3] = {a, ue, m};\n"
    "  st[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 3, waits, &d,\n"
    "                         ^{ buf[2] = buf[1] * 2; });\n"
    "  clk_event_t last[2] = {ue, d};\n"
    "  st[4] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 2, last, NULL,\n"
    "                         ^{ buf[3] = buf[2] + 1; });\n"
    "  st[5] = is_valid_event(ue);\n"
    "  set_user_event_status(ue, CL_COMPLETE);\n"
    "  release_event(ue);\n"
    "  release_event(a);\n"
    "  release_event(b);\n"
    "  release_event(m);\n"
    "  release_event(d);\n"
    "  buf[4] = 1;\n"
    "}\n";

static void hang(int sig) {
  (void)sig;
  static const char msg[] = "userevents: FAIL: not finished when the alarm rang (a hang)\n";
  if (write(2, msg, sizeof msg - 1) < 0) _exit(2);
  _exit(1);
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 200;
  size_t global = argc > 2 ? (size_t)atoi(argv[2]) : 1,
         local = argc > 3 ? (size_t)atoi(argv[3]) : 1;
  signal(SIGALRM, hang);
  alarm(ALARM_S);
  cl_context ctx;
  cl_command_queue q;
  cl_program p = lsh_build(source, "-cl-std=CL3.0", &ctx, &q);
  cl_device_id dev = lsh_context_device(ctx);
  cl_queue_properties dp[] = {
      CL_QUEUE_PROPERTIES,
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT, 0};
  cl_int err;
  cl_command_queue dq = clCreateCommandQueueWithProperties(ctx, dev, dp, &err);
  CHECK(err);
  cl_kernel k = lsh_kernel(p, "events");
  size_t nb = global * NBUF * sizeof(cl_int), ns = global * NST * sizeof(cl_int);
  cl_int *got = malloc(nb), *st = malloc(ns);
  cl_mem b = lsh_buffer(ctx, CL_MEM_READ_WRITE, nb, NULL);
  cl_mem s = lsh_buffer(ctx, CL_MEM_READ_WRITE, ns, NULL);
  CHECK(clSetKernelArg(k, 0, sizeof b, &b));
  CHECK(clSetKernelArg(k, 1, sizeof s, &s));
  int failed = 0;
  for (int r = 0; r < runs && !failed; r++) {
    alarm(ALARM_S); /* a hang is one run that does not finish */
    cl_int zero = 0;
    CHECK(clEnqueueFillBuffer(q, b, &zero, sizeof zero, 0, nb, 0, NULL, NULL));
    CHECK(clEnqueueFillBuffer(q, s, &zero, sizeof zero, 0, ns, 0, NULL, NULL));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, nb, got, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, s, CL_TRUE, 0, ns, st, 0, NULL, NULL));
    for (size_t i = 0; i < global && !failed; i++) {
      const cl_int *v = got + i * NBUF, *c = st + i * NST;
      if (v[0] != 11 || v[1] != 12 || v[2] != 24 || v[3] != 25 || v[4] != 1 || c[0] || c[1] ||
          c[2] || c[3] || c[4] || c[5] != 1) {
        fprintf(stderr,
                "userevents: FAIL: run %d item %zu: values %d %d %d %d %d, codes %d %d %d %d %d "
                "%d\n",
                r, i, v[0], v[1], v[2], v[3], v[4], c[0], c[1], c[2], c[3], c[4], c[5]);
        failed = 1;
      }
    }
  }
  if (!failed) printf("userevents: %d runs of %zu work-items\n", runs, global);
  free(got);
  free(st);
  clReleaseMemObject(b);
  clReleaseMemObject(s);
  clReleaseKernel(k);
  clReleaseCommandQueue(dq);
  clReleaseCommandQueue(q);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  return failed;
}
