/*
 * uninitmem.c - the uninitialised-value checker and the commands that
 * define a buffer's bytes: each case creates a buffer of 256 ints without
 * host data, defines part of it with one kind of command (or through a
 * sub-buffer, or a write map), then copies every int with a kernel; the
 * checker must report exactly the ints nobody defined (the count of the
 * record LOCKSTEP_CHECK_LOG gets). Runs itself with LOCKSTEP_CHECK=uninit.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
#define N     256
const char *lsh_prog = "uninitmem";

static const char *src = "__kernel void copy(__global int *out, __global const int *in) {\n"
                         "  int i = get_global_id(0);\n"
                         "  out[i] = in[i];\n"
                         "}\n"
                         "__kernel void texels(__global int *out, __read_only image2d_t im) {\n"
                         "  int i = get_global_id(0);\n"
                         "  out[i] = read_imagei(im, (int2)(i % 16, i / 16)).x;\n"
                         "}\n";

struct ctx {
  cl_context c;
  cl_command_queue q;
  cl_kernel k;
  cl_mem out;
  const char *log;
  long seen; /* bytes of the log read */
};

/* The count of the reports the launches since the last call made (0 with
 * no record). */
static unsigned long new_reports(struct ctx *x) {
  FILE *f = fopen(x->log, "r");
  unsigned long total = 0;
  if (!f) return 0;
  fseek(f, x->seen, SEEK_SET);
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    const char *p = line;
    for (int t = 0; t < 4 && p; t++) /* kind, kernel, line, line: then the count */
      if ((p = strchr(p, '\t'))) p++;
    if (p) total += strtoul(p, NULL, 10);
  }
  x->seen = ftell(f);
  fclose(f);
  return total;
}

/* Copies n ints of in with the kernel; the reports it made. */
static unsigned long copy_count(struct ctx *x, cl_mem in, size_t n) {
  CHECK(clSetKernelArg(x->k, 0, sizeof x->out, &x->out));
  CHECK(clSetKernelArg(x->k, 1, sizeof in, &in));
  CHECK(clEnqueueNDRangeKernel(x->q, x->k, 1, NULL, &n, NULL, 0, NULL, NULL));
  CHECK(clFinish(x->q));
  return new_reports(x);
}

static cl_mem undefined(struct ctx *x) {
  cl_int err;
  cl_mem m = clCreateBuffer(x->c, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  CHECK(err);
  return m;
}

static int expect(const char *what, unsigned long got, unsigned long want) {
  if (got == want) return 0;
  fprintf(stderr, "uninitmem: %s: %lu ints reported undefined, want %lu\n", what, got, want);
  return 1;
}

int main(void) {
  char log[] = "/tmp/uninitmem-XXXXXX";
  int fd = mkstemp(log);
  if (fd < 0) return 1;
  close(fd);
  setenv("LOCKSTEP_CHECK", "uninit", 1);
  setenv("LOCKSTEP_CHECK_LOG", log, 1);
  struct ctx x = {.log = log};
  cl_device_id d = lsh_device();
  cl_int err;
  x.c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  CHECK(err);
  x.q = clCreateCommandQueueWithProperties(x.c, d, NULL, &err);
  CHECK(err);
  int host[N];
  for (int i = 0; i < N; i++)
    host[i] = i;
  x.out = clCreateBuffer(x.c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
  CHECK(err);
  cl_program p = clCreateProgramWithSource(x.c, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &d, "", NULL, NULL));
  x.k = clCreateKernel(p, "copy", &err);
  CHECK(err);
  int bad = 0;

  /* nothing defined: every int */
  cl_mem m = undefined(&x);
  bad |= expect("no command", copy_count(&x, m, N), N);
  clReleaseMemObject(m);

  /* a 4 x 4 int rectangle of a 16 x 16 int buffer written */
  size_t zero[3] = {0, 0, 0}, org[3] = {4 * sizeof(int), 2, 0}, reg[3] = {4 * sizeof(int), 4, 1};
  m = undefined(&x);
  CHECK(clEnqueueWriteBufferRect(x.q, m, CL_TRUE, org, zero, reg, 16 * sizeof(int), 0,
                                 4 * sizeof(int), 0, host, 0, NULL, NULL));
  bad |= expect("write rect", copy_count(&x, m, N), N - 16);
  clReleaseMemObject(m);

  /* the same rectangle copied from a defined buffer */
  m = undefined(&x);
  CHECK(clEnqueueCopyBufferRect(x.q, x.out, m, org, org, reg, 16 * sizeof(int), 0, 16 * sizeof(int),
                                0, 0, NULL, NULL));
  bad |= expect("copy rect", copy_count(&x, m, N), N - 16);
  clReleaseMemObject(m);

  /* 32 ints filled from int 16 on */
  m = undefined(&x);
  int pat = 7;
  CHECK(clEnqueueFillBuffer(x.q, m, &pat, sizeof pat, 16 * sizeof(int), 32 * sizeof(int), 0, NULL,
                            NULL));
  bad |= expect("fill", copy_count(&x, m, N), N - 32);
  clReleaseMemObject(m);

  /* a sub-buffer of an undefined parent is undefined; writing it defines
   * the parent's bytes it views */
  cl_uint align_bits = 0;
  CHECK(clGetDeviceInfo(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
  size_t origin = align_bits / 8 > 64 * sizeof(int) ? align_bits / 8 : 64 * sizeof(int);
  m = undefined(&x);
  cl_buffer_region r = {origin, 64 * sizeof(int)};
  cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK(err);
  bad |= expect("sub-buffer of an undefined parent", copy_count(&x, sub, 64), 64);
  CHECK(clEnqueueWriteBuffer(x.q, sub, CL_TRUE, 0, 64 * sizeof(int), host, 0, NULL, NULL));
  bad |= expect("parent of a written sub-buffer", copy_count(&x, m, N), N - 64);
  clReleaseMemObject(sub);
  clReleaseMemObject(m);

  /* ints 0..63 written through a write map */
  m = undefined(&x);
  int *mp = clEnqueueMapBuffer(x.q, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 64 * sizeof(int),
                               0, NULL, NULL, &err);
  CHECK(err);
  for (int i = 0; i < 64; i++)
    mp[i] = i;
  CHECK(clEnqueueUnmapMemObject(x.q, m, mp, 0, NULL, NULL));
  bad |= expect("write map", copy_count(&x, m, N), N - 64);
  /* a read map defines nothing */
  mp = clEnqueueMapBuffer(x.q, m, CL_TRUE, CL_MAP_READ, 64 * sizeof(int), 64 * sizeof(int), 0, NULL,
                          NULL, &err);
  CHECK(err);
  CHECK(clEnqueueUnmapMemObject(x.q, m, mp, 0, NULL, NULL));
  bad |= expect("read map", copy_count(&x, m, N), N - 64);
  clReleaseMemObject(m);

  /* an image of 16 x 16 ints without host data, rows 0..7 written: a
   * kernel reading every texel reads 128 undefined ones */
  cl_image_format fmt = {CL_R, CL_SIGNED_INT32};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16, .image_height = 16};
  cl_mem img = clCreateImage(x.c, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &err);
  CHECK(err);
  size_t iorg[3] = {0, 0, 0}, ireg[3] = {16, 8, 1};
  CHECK(clEnqueueWriteImage(x.q, img, CL_TRUE, iorg, ireg, 0, 0, host, 0, NULL, NULL));
  cl_kernel ki = clCreateKernel(p, "texels", &err);
  CHECK(err);
  size_t n = N;
  CHECK(clSetKernelArg(ki, 0, sizeof x.out, &x.out));
  CHECK(clSetKernelArg(ki, 1, sizeof img, &img));
  CHECK(clEnqueueNDRangeKernel(x.q, ki, 1, NULL, &n, NULL, 0, NULL, NULL));
  CHECK(clFinish(x.q));
  bad |= expect("image half written", new_reports(&x), N / 2);
  clReleaseKernel(ki);
  clReleaseMemObject(img);

  clReleaseKernel(x.k);
  clReleaseProgram(p);
  clReleaseMemObject(x.out);
  clReleaseCommandQueue(x.q);
  clReleaseContext(x.c);
  unlink(log);
  if (!bad) printf("uninitmem: ok\n");
  return bad;
}
