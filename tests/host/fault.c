/*
 * fault.c - a kernel that writes out of bounds through the real ICD loader:
 * the event gets a negative status, stderr and the context's pfn_notify get
 * one report naming the kernel, file:line, work-item, work-group and the
 * buffer missed, the other buffers are intact, and the process goes on to run
 * the next kernel normally.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "fault";
#include <unistd.h>

#define EXPECT LSH_EXPECT

static const char *src = "__kernel void oob(__global int *out, __global int *keep) {\n"
                         "  size_t i = get_global_id(0);\n"
                         "  out[i + 60] = (int)i;\n"
                         "}\n"
                         "__kernel void ok(__global int *out) { out[get_global_id(0)] = 7; }\n";

static char notified[2048];
static void CL_CALLBACK notify(const char *errinfo, const void *pi, size_t cb, void *user) {
  snprintf(notified, sizeof notified, "%s", errinfo);
}

int main(void) {
  int failed = 0;
  cl_device_id d = lsh_device();
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &d, notify, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
  CHECK(err);
  int init[64];
  for (int i = 0; i < 64; i++)
    init[i] = 1000 + i;
  cl_mem out =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
  CHECK(err);
  cl_mem keep =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
  CHECK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(prog, 1, &d, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prog, "oob", &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK(clSetKernelArg(k, 1, sizeof keep, &keep));

  /* Capture stderr while the faulting kernel runs. */
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
  /* One report on stderr, the same text to pfn_notify. */
  int lines = 0;
  for (char *c = report; *c; c++)
    lines += *c == '\n';
  EXPECT(lines == 1);
  EXPECT(strstr(report, "kernel 'oob'") != NULL);
  EXPECT(strstr(report, ".cl:3") != NULL);
  EXPECT(strstr(report, "work-item (4,0,0)") != NULL);
  EXPECT(strstr(report, "work-group (0,0,0)") != NULL);
  EXPECT(strstr(report, "'out'") != NULL);
  EXPECT(strstr(report, "past the end") != NULL);
  EXPECT(strstr(report, notified) != NULL && notified[0] != '\0');
  fprintf(stderr, "fault: stderr said: %s", report);

  /* The other buffer is intact; in-bounds stores before the fault may have
   * happened, the rest of out is as it was. */
  int got[64];
  CHECK(clEnqueueReadBuffer(q, keep, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  EXPECT(memcmp(got, init, sizeof got) == 0);
  CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  for (int i = 0; i < 60; i++)
    EXPECT(got[i] == init[i]);

  /* The process and the device go on. */
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
  printf("fault: %s\n", failed ? "FAILED" : "report, status and buffers as expected");
  return failed;
}
