/*
 * host_args.c - an ordinary OpenCL host program for the debugger's kernel
 * argument tests: it builds the kernel file named on the command line
 * (byval.cl) and runs its kernel `k` over 2^20 work-items in groups of 256
 * with every kind of argument: a buffer, structs by value laid out as C
 * structs (params_t p, nest_t q with p nested in it), a __constant buffer,
 * __local memory, a vector and scalars. With LAUNCHES = 2 a second launch,
 * with p.n = 9, runs on a second queue at the same time. Each launch's
 * result is compared with the host's own computation; it prints a[4] and
 * a[5] and how many elements differ.
 *
 * It knows nothing about the debugger and must stay that way.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_args";

enum { ITEMS = 1 << 20, LOCAL = 256, MAX_LAUNCHES = 2 };

typedef struct {
  cl_int n;
  cl_float scale;
  cl_float4 off;
} params_t;

typedef struct {
  cl_short id;
  params_t in;
  cl_int taps[3];
  cl_char tag[4];
} nest_t;

static const cl_int tab[4] = {10, 11, 12, 13};
static const cl_int4 iv = {{7, 8, 9, 10}};
static const cl_float s = 0.5f;
static const cl_uchar u = 200;
static const cl_long big = -40000;

/* What the kernel computes for a[i], over one work-group at a time. */
static unsigned wrong(const float *in, const float *out, const params_t *p, const nest_t *q) {
  static float tmp[LOCAL];
  unsigned bad = 0;
  for (size_t g = 0; g < ITEMS; g += LOCAL) {
    for (size_t l = 0; l < LOCAL; l++) {
      size_t i = g + l;
      float v = in[i] * p->scale + p->off.s[1] + (float)tab[i % 4];
      for (int j = 0; j < p->n; j++)
        v += (float)q->taps[j % 3];
      tmp[l] = v + s + (float)iv.s[2] + q->in.off.s[3];
    }
    for (size_t l = 0; l < LOCAL; l++)
      bad += out[g + l] != tmp[(l + 1) % LOCAL] + (float)p->n + (float)u + (float)big;
  }
  return bad;
}

int main(int argc, char **argv) {
  int launches = argc > 2 ? atoi(argv[2]) : 1;
  if (argc < 2 || launches < 1 || launches > MAX_LAUNCHES) {
    fprintf(stderr, "usage: %s BYVAL.cl [LAUNCHES (1 or 2)]\n", lsh_prog);
    return 2;
  }
  char *src = lsh_read_file(argv[1], 0, NULL);
  cl_context ctx;
  cl_command_queue qs[MAX_LAUNCHES];
  cl_program prog = lsh_build(src, "", &ctx, &qs[0]);
  free(src);
  cl_int err;
  qs[1] = clCreateCommandQueueWithProperties(ctx, lsh_context_device(ctx), NULL, &err);
  CHECK(err);
  float *in = malloc(ITEMS * sizeof(float)), *out = malloc(ITEMS * sizeof(float));
  for (size_t i = 0; i < ITEMS; i++)
    in[i] = (float)(i % 1000);
  cl_mem dtab = lsh_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof tab, (void *)tab);
  params_t p[MAX_LAUNCHES];
  nest_t q = {
      .id = -3, .in = {6, 0.25f, {{10, 20, 30, 40}}}, .taps = {100, 200, 300}, .tag = "ABC"};
  cl_mem da[MAX_LAUNCHES];
  cl_kernel ks[MAX_LAUNCHES];
  for (int n = 0; n < launches; n++) {
    p[n] = (params_t){n ? 9 : 5, 2.5f, {{1, 2, 3, 4}}};
    da[n] = lsh_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, ITEMS * sizeof(float), in);
    cl_kernel k = ks[n] = lsh_kernel(prog, "k");
    CHECK(clSetKernelArg(k, 0, sizeof da[n], &da[n]));
    CHECK(clSetKernelArg(k, 1, sizeof p[n], &p[n]));
    CHECK(clSetKernelArg(k, 2, sizeof dtab, &dtab));
    CHECK(clSetKernelArg(k, 3, LOCAL * sizeof(float), NULL));
    CHECK(clSetKernelArg(k, 4, sizeof iv, &iv));
    CHECK(clSetKernelArg(k, 5, sizeof s, &s));
    CHECK(clSetKernelArg(k, 6, sizeof q, &q));
    CHECK(clSetKernelArg(k, 7, sizeof u, &u));
    CHECK(clSetKernelArg(k, 8, sizeof big, &big));
    size_t gs = ITEMS, ls = LOCAL;
    CHECK(clEnqueueNDRangeKernel(qs[n], k, 1, NULL, &gs, &ls, 0, NULL, NULL));
    CHECK(clFlush(qs[n]));
  }
  int ok = 1;
  for (int n = 0; n < launches; n++) {
    CHECK(clEnqueueReadBuffer(qs[n], da[n], CL_TRUE, 0, ITEMS * sizeof(float), out, 0, NULL, NULL));
    unsigned bad = wrong(in, out, &p[n], &q);
    printf("launch %d (p.n = %d): a[4] = %g, a[5] = %g, %u wrong\n", n + 1, p[n].n, out[4], out[5],
           bad);
    ok &= bad == 0;
    clReleaseKernel(ks[n]);
    clReleaseMemObject(da[n]);
  }
  fflush(stdout);
  clReleaseMemObject(dtab);
  clReleaseCommandQueue(qs[0]);
  clReleaseCommandQueue(qs[1]);
  clReleaseProgram(prog);
  clReleaseContext(ctx);
  free(in);
  free(out);
  return ok ? 0 : 1;
}
