/*
 * faults_report.c - LOCKSTEP_FAULTS through the real ICD loader:
 *   faults_report [stop | report]
 * With no argument it runs itself once per setting in a fresh process (unset
 * for stop, the default). One kernel makes invalid accesses on three source
 * lines from every one of its 256 work-items (a store, a load, an atomic and
 * a vload past the end of their buffers), then valid stores.
 *   stop:   the event fails, stderr gets exactly one report.
 *   report: the event is CL_COMPLETE; stderr and pfn_notify get exactly one
 *           report per faulting line (not per work-item); dropped stores
 *           change nothing (the buffer behind them is intact), invalid loads
 *           give 0, and every valid store after them lands.
 */
#include "util/host_util.h"

#include <sys/wait.h>
#include <unistd.h>

#define CHECK LSH_CHECK
const char *lsh_prog = "faults_report";

#define N 256

static const char *kernel_src =
    "__kernel void oob(__global int *out, __global int *in, int n) {\n" /* 1 */
    "  int i = get_global_id(0);\n"                                     /* 2 */
    "  out[n + i] = -1;\n"                                              /* 3: store */
    "  int v = in[n + i] + atomic_add(&out[n + i], 5);\n"               /* 4: load, atomic */
    "  int4 w = vload4(0, in + n + 4 * i);\n"                           /* 5: vload */
    "  out[i] = v + w.x + w.y + w.z + w.w + 1000 + i;\n"                /* 6: valid */
    "}\n"
    "typedef struct { int a[24]; } S;\n"                              /* 8 */
    "__kernel void copy(__global S *dst, __global S *src, int n) {\n" /* 9 */
    "  int i = get_global_id(0);\n"                                   /* 10 */
    "  dst[i] = src[n + i];\n" /* 11: copy from past the end */
    "  dst[n + i] = src[i];\n" /* 12: copy to past the end */
    "}\n";

static int notified;
static void CL_CALLBACK notify(const char *errinfo, const void *pi, size_t cb, void *user) {
  (void)errinfo, (void)pi, (void)cb, (void)user;
  __atomic_add_fetch(&notified, 1, __ATOMIC_SEQ_CST);
}

static int run_all(const char *self) {
  static const char *const modes[] = {"stop", "report"};
  int failed = 0;
  for (size_t i = 0; i < 2; i++)
    failed |= lsh_run_self(self, modes[i], "LOCKSTEP_FAULTS", i ? "report" : NULL);
  printf("faults_report: %s\n", failed ? "FAILED" : "stop and report as expected");
  return failed;
}

/* Lines of report that name the kernel, and whether one names line. */
static int count_reports(const char *report, const char *line, int *has_line) {
  int n = 0;
  *has_line = 0;
  for (const char *p = report; (p = strstr(p, "device exception in kernel 'oob'")); p++) {
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char one[2048];
    snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one - 1 ? len : sizeof one - 1), p);
    if (strstr(one, line)) (*has_line)++;
    n++;
  }
  return n;
}

/* report: a struct copy (one memcpy) from past the end of its buffer gives
 * zeros, one to past the end is dropped; one report per line. */
static int struct_copies(cl_context ctx, cl_command_queue q, cl_program prog) {
  enum { M = 64, W = 24 }; /* M structs of W ints */
  static int dst_init[M * W], src_init[M * W];
  for (int i = 0; i < M * W; i++)
    dst_init[i] = 7, src_init[i] = i;
  cl_mem dst = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof dst_init, dst_init);
  cl_mem src = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof src_init, src_init);
  cl_kernel k = lsh_kernel(prog, "copy");
  int n = M;
  LSH_CHECK(clSetKernelArg(k, 0, sizeof dst, &dst));
  LSH_CHECK(clSetKernelArg(k, 1, sizeof src, &src));
  LSH_CHECK(clSetKernelArg(k, 2, sizeof n, &n));
  int before = notified;
  size_t g = M;
  cl_event ev;
  LSH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &ev));
  LSH_CHECK(clWaitForEvents(1, &ev));
  cl_int status = -1;
  LSH_CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  static int got[M * W], src_now[M * W];
  LSH_CHECK(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  LSH_CHECK(clEnqueueReadBuffer(q, src, CL_TRUE, 0, sizeof src_now, src_now, 0, NULL, NULL));
  int nonzero = 0;
  for (int i = 0; i < M * W; i++)
    nonzero += got[i] != 0;
  int failed = 0;
  if (status != CL_COMPLETE || nonzero || notified - before != 2 ||
      memcmp(src_now, src_init, sizeof src_now)) {
    fprintf(stderr,
            "faults_report report: struct copies: status %d, %d nonzero ints, %d reports "
            "(expected CL_COMPLETE, 0, 2 and src intact)\n",
            status, nonzero, notified - before);
    failed = 1;
  }
  clReleaseEvent(ev);
  clReleaseKernel(k);
  clReleaseMemObject(dst);
  clReleaseMemObject(src);
  return failed;
}

int main(int argc, char **argv) {
  if (argc < 2) return run_all(argv[0]);
  int report = !strcmp(argv[1], "report");
  if (!report && strcmp(argv[1], "stop")) {
    fprintf(stderr, "usage: faults_report [stop|report]\n");
    return 2;
  }
  int failed = 0;
#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "faults_report %s: expected %s (line %d)\n", argv[1], #cond, __LINE__);      \
      failed = 1;                                                                                  \
    }                                                                                              \
  } while (0)
  cl_device_id d = lsh_device();
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &d, notify, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
  CHECK(err);
  static int out_init[N], in_init[N], keep_init[N];
  for (int i = 0; i < N; i++)
    out_init[i] = 7, in_init[i] = 3 * i + 1, keep_init[i] = 5000 + i;
  cl_mem out = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out_init, out_init);
  cl_mem keep =
      lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof keep_init, keep_init);
  cl_mem in = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof in_init, in_init);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kernel_src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(prog, 1, &d, "", NULL, NULL));
  cl_kernel k = lsh_kernel(prog, "oob");
  int n = N;
  CHECK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK(clSetKernelArg(k, 1, sizeof in, &in));
  CHECK(clSetKernelArg(k, 2, sizeof n, &n));

  fflush(stderr);
  int saved = dup(2);
  FILE *tmp = tmpfile();
  dup2(fileno(tmp), 2);
  size_t g = N, l = 64;
  cl_event ev;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev));
  clWaitForEvents(1, &ev);
  clFinish(q);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  static char text[65536];
  rewind(tmp);
  size_t got_len = fread(text, 1, sizeof text - 1, tmp);
  text[got_len] = '\0';
  fclose(tmp);

  cl_int status = 0;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  int l3, l4, l5;
  int reports = count_reports(text, ".cl:3,", &l3);
  count_reports(text, ".cl:4,", &l4);
  count_reports(text, ".cl:5,", &l5);
  int out_now[N], keep_now[N];
  CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof out_now, out_now, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, keep, CL_TRUE, 0, sizeof keep_now, keep_now, 0, NULL, NULL));
  EXPECT(memcmp(keep_now, keep_init, sizeof keep_now) == 0);
  if (report) {
    EXPECT(status == CL_COMPLETE);
    /* once per line: three lines fault, in every work-item */
    EXPECT(reports == 3);
    EXPECT(l3 == 1 && l4 == 1 && l5 == 1);
    EXPECT(notified == 3);
    EXPECT(strstr(text, "out-of-bounds 4-byte global store") != NULL);
    EXPECT(strstr(text, "out-of-bounds 4-byte global load") != NULL);
    /* invalid loads and atomics gave 0, so each item stored 1000 + i */
    int wrong = 0;
    for (int i = 0; i < N; i++)
      wrong += out_now[i] != 1000 + i;
    EXPECT(wrong == 0);
  } else {
    EXPECT(status < 0);
    EXPECT(reports == 1 && l3 == 1);
    EXPECT(notified == 1);
    int untouched = 0; /* the kernel stopped before its valid stores */
    for (int i = 0; i < N; i++)
      untouched += out_now[i] == 7;
    EXPECT(untouched > 0);
  }
  fprintf(stderr, "faults_report %s: stderr said:\n%s", argv[1], text);

  if (report) failed |= struct_copies(ctx, q, prog);

  /* the next launch on the same queue runs normally */
  n = 0;
  CHECK(clSetKernelArg(k, 2, sizeof n, &n));
  CHECK(clSetKernelArg(k, 0, sizeof keep, &keep));
  g = 32;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));

  clReleaseEvent(ev);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseMemObject(out);
  clReleaseMemObject(keep);
  clReleaseMemObject(in);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  printf("faults_report %s: %s\n", argv[1],
         failed ? "FAILED" : "status, reports and buffers as expected");
  return failed;
}
