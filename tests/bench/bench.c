/*
 * bench.c - runs the same kernels on every OpenCL platform it is given
 * (Lockstep, pocl, Oclgrind), checks each result against a host reference,
 * and prints a table of times with the ratios Lockstep/pocl and
 * Oclgrind/Lockstep. Not part of the test command: run tests/bench/run.sh
 * (which runs it once per engine and thread count and combines the numbers
 * with tests/bench/kernels.sh). It measures, and never fails on a time.
 *
 *   vecadd     c = a + b on 2^22 floats
 *   matmul     naive 256x256 float matrix product
 *   reduce     sum of 2^22 floats, local-memory tree with barriers
 *   mandelbrot 512x512, up to 256 iterations (divergent)
 *   scan       prefix sum of 2^22 ints: a work-efficient local-memory scan
 *              per work-group, a scan of the block sums, an add pass (the
 *              first launch exclusive, the timed ones inclusive)
 *   sort       2^20 uint keys: bitonic, local-memory stages where the
 *              distance fits a work-group, global ones beyond (78 launches)
 *
 * Each kernel launches once untimed (pocl compiles a kernel at its first
 * enqueue), then BENCH_RUNS times (5), each timed from the first enqueue to
 * clFinish; the median is reported. The result is read back and checked
 * after the warm-up and after the last run, outside the timed part.
 * Oclgrind builds in clBuildProgram and takes minutes a launch: it runs
 * BENCH_OCLGRIND_RUNS times (1) with no warm-up.
 * clBuildProgram is timed twice: the program, then a second program from
 * the same source (on Lockstep, with LOCKSTEP_CACHE on, a build cache hit).
 *
 * BENCH_PLATFORMS=lockstep,pocl,oclgrind picks platforms (all by default);
 * BENCH_ONLY=WORD[,WORD...] runs only the kernels whose name has one of
 * the words (for a profiler). Per-kernel lines on stderr:
 *   bench: LABEL build|rebuild MS ms
 *   bench: LABEL first KERNEL MS ms      (the warm-up launch)
 *   bench: LABEL KERNEL SECONDS s        (the median)
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *source =
    "__kernel void vecadd(__global const float *a, __global const float *b,\n"
    "                     __global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void matmul(__global const float *a, __global const float *b,\n"
    "                     __global float *c, int n) {\n"
    "  int row = get_global_id(1), col = get_global_id(0);\n"
    "  float acc = 0.0f;\n"
    "  for (int k = 0; k < n; k++)\n"
    "    acc += a[row * n + k] * b[k * n + col];\n"
    "  c[row * n + col] = acc;\n"
    "}\n"
    "__kernel void reduce(__global const float *in, __global float *out,\n"
    "                     __local float *tmp) {\n"
    "  size_t lid = get_local_id(0), lsz = get_local_size(0);\n"
    "  tmp[lid] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = lsz / 2; s > 0; s >>= 1) {\n"
    "    if (lid < s)\n"
    "      tmp[lid] += tmp[lid + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0)\n"
    "    out[get_group_id(0)] = tmp[0];\n"
    "}\n"
    "__kernel void mandelbrot(__global int *out, int w, int h, int maxit) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h;\n"
    "  float zr = 0.0f, zi = 0.0f;\n"
    "  int it = 0;\n"
    "  while (it < maxit && zr * zr + zi * zi < 4.0f) {\n"
    "    float t = zr * zr - zi * zi + cr;\n"
    "    zi = 2.0f * zr * zi + ci;\n"
    "    zr = t;\n"
    "    it++;\n"
    "  }\n"
    "  out[y * w + x] = it;\n"
    "}\n"
    /* Blelloch's scan of a block of 2 * local size ints in local memory */
    "__kernel void scan_blocks(__global const int *in, __global int *out,\n"
    "                          __global int *sums, __local int *t, int inclusive) {\n"
    "  uint lid = get_local_id(0), lsz = get_local_size(0), n = 2 * lsz;\n"
    "  uint base = get_group_id(0) * n;\n"
    "  int a = in[base + lid], b = in[base + lid + lsz];\n"
    "  t[lid] = a;\n"
    "  t[lid + lsz] = b;\n"
    "  uint off = 1;\n"
    "  for (uint d = n >> 1; d > 0; d >>= 1) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid < d)\n"
    "      t[off * (2 * lid + 2) - 1] += t[off * (2 * lid + 1) - 1];\n"
    "    off <<= 1;\n"
    "  }\n"
    "  if (lid == 0) {\n"
    "    sums[get_group_id(0)] = t[n - 1];\n"
    "    t[n - 1] = 0;\n"
    "  }\n"
    "  for (uint d = 1; d < n; d <<= 1) {\n"
    "    off >>= 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid < d) {\n"
    "      uint ai = off * (2 * lid + 1) - 1, bi = off * (2 * lid + 2) - 1;\n"
    "      int v = t[ai];\n"
    "      t[ai] = t[bi];\n"
    "      t[bi] += v;\n"
    "    }\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[base + lid] = t[lid] + (inclusive ? a : 0);\n"
    "  out[base + lid + lsz] = t[lid + lsz] + (inclusive ? b : 0);\n"
    "}\n"
    /* one work-group: each work-item a run of sums, then a scan of the runs */
    "__kernel void scan_sums(__global int *sums, uint n, __local int *t) {\n"
    "  uint lid = get_local_id(0), lsz = get_local_size(0);\n"
    "  uint per = (n + lsz - 1) / lsz, lo = min(lid * per, n), hi = min(lo + per, n);\n"
    "  int acc = 0;\n"
    "  for (uint i = lo; i < hi; i++)\n"
    "    acc += sums[i];\n"
    "  t[lid] = acc;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint d = 1; d < lsz; d <<= 1) {\n"
    "    int v = lid >= d ? t[lid - d] : 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    t[lid] += v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  int run = t[lid] - acc;\n"
    "  for (uint i = lo; i < hi; i++) {\n"
    "    int s = sums[i];\n"
    "    sums[i] = run;\n"
    "    run += s;\n"
    "  }\n"
    "}\n"
    "__kernel void scan_add(__global int *out, __global const int *sums) {\n"
    "  uint lid = get_local_id(0), lsz = get_local_size(0);\n"
    "  uint base = get_group_id(0) * 2 * lsz;\n"
    "  int s = sums[get_group_id(0)];\n"
    "  out[base + lid] += s;\n"
    "  out[base + lid + lsz] += s;\n"
    "}\n"
    /* bitonic: keys i and i + j swap into ascending order where bit k of
     * i is clear, descending where it is set */
    "__kernel void sort_global(__global uint *keys, uint k, uint j) {\n"
    "  uint t = get_global_id(0), i = ((t & ~(j - 1)) << 1) | (t & (j - 1));\n"
    "  uint a = keys[i], b = keys[i + j];\n"
    "  if ((a > b) == ((i & k) == 0)) {\n"
    "    keys[i] = b;\n"
    "    keys[i + j] = a;\n"
    "  }\n"
    "}\n"
    /* every stage k0..k1 whose distance fits a block of 2 * local size */
    "__kernel void sort_local(__global uint *keys, __local uint *t, uint k0, uint k1) {\n"
    "  uint lid = get_local_id(0), lsz = get_local_size(0);\n"
    "  uint base = get_group_id(0) * 2 * lsz;\n"
    "  t[lid] = keys[base + lid];\n"
    "  t[lid + lsz] = keys[base + lid + lsz];\n"
    "  for (uint k = k0; k <= k1; k <<= 1)\n"
    "    for (uint j = min(k >> 1, lsz); j > 0; j >>= 1) {\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      uint i = ((lid & ~(j - 1)) << 1) | (lid & (j - 1));\n"
    "      uint a = t[i], b = t[i + j];\n"
    "      if ((a > b) == (((base + i) & k) == 0)) {\n"
    "        t[i] = b;\n"
    "        t[i + j] = a;\n"
    "      }\n"
    "    }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  keys[base + lid] = t[lid];\n"
    "  keys[base + lid + lsz] = t[lid + lsz];\n"
    "}\n";

#define NVEC       (1u << 22)
#define NMAT       256
#define NRED       (1u << 22)
#define RED_LOCAL  256
#define MW         512
#define MH         512
#define MAXIT      256
#define NSCAN      (1u << 22)
#define SCAN_LOCAL 256 /* a block of 512 ints; 8192 block sums */
#define NSORT      (1u << 20)
#define SORT_LOCAL 256 /* a block of 512 keys */
#define MAXRUNS    99

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct run {
  cl_context ctx;
  cl_command_queue q;
  cl_program prog;
  cl_device_id dev;
};

/* One kernel's objects while it is measured; released by bench_release. */
struct bench {
  struct run *r;
  cl_kernel k[3];
  cl_mem m[4];
  void *host[3];
  int pass; /* launches finished */
};

/* One row of the table. launch enqueues (the caller waits), check reads
 * the result back and compares it with the host's: 0 when right. */
struct kcase {
  const char *name; /* its first word starts its kernels' names */
  int (*setup)(struct bench *);
  int (*launch)(struct bench *);
  int (*check)(struct bench *);
};

static int check(cl_int err, const char *what) {
  if (err != CL_SUCCESS) {
    fprintf(stderr, "bench: %s failed: %d\n", what, err);
    return 1;
  }
  return 0;
}

static cl_mem buffer(struct run *r, size_t bytes, void *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                            init, &err);
  return err == CL_SUCCESS ? m : NULL;
}

static int kernels(struct bench *b, unsigned n, const char *const *names) {
  for (unsigned i = 0; i < n; i++) {
    cl_int err;
    b->k[i] = clCreateKernel(b->r->prog, names[i], &err);
    if (check(err, names[i])) return 1;
  }
  return 0;
}

static int read_back(struct bench *b, int m, size_t bytes, int host) {
  return check(
      clEnqueueReadBuffer(b->r->q, b->m[m], CL_TRUE, 0, bytes, b->host[host], 0, NULL, NULL),
      "read");
}

static int launch1(struct bench *b, int k, cl_uint dims, const size_t *g, const size_t *l) {
  return check(clEnqueueNDRangeKernel(b->r->q, b->k[k], dims, NULL, g, l, 0, NULL, NULL), "launch");
}

static void bench_release(struct bench *b) {
  for (int i = 0; i < 3; i++)
    if (b->k[i]) clReleaseKernel(b->k[i]);
  for (int i = 0; i < 4; i++)
    if (b->m[i]) clReleaseMemObject(b->m[i]);
  for (int i = 0; i < 3; i++)
    free(b->host[i]);
}

/* ---- vecadd ---- */

static int vecadd_setup(struct bench *b) {
  float *a = b->host[0] = malloc(NVEC * 4), *bb = b->host[1] = malloc(NVEC * 4);
  b->host[2] = malloc(NVEC * 4);
  if (!a || !bb || !b->host[2]) return 1;
  for (unsigned i = 0; i < NVEC; i++)
    a[i] = (float)(i % 1000), bb[i] = (float)(i % 777) * 0.5f;
  b->m[0] = buffer(b->r, NVEC * 4, a), b->m[1] = buffer(b->r, NVEC * 4, bb);
  b->m[2] = buffer(b->r, NVEC * 4, NULL);
  if (!b->m[0] || !b->m[1] || !b->m[2] || kernels(b, 1, (const char *[]){"vecadd"})) return 1;
  for (cl_uint i = 0; i < 3; i++)
    clSetKernelArg(b->k[0], i, sizeof(cl_mem), &b->m[i]);
  return 0;
}

static int vecadd_launch(struct bench *b) {
  size_t g = NVEC, l = 256;
  return launch1(b, 0, 1, &g, &l);
}

static int vecadd_check(struct bench *b) {
  const float *a = b->host[0], *bb = b->host[1], *c = b->host[2];
  if (read_back(b, 2, NVEC * 4, 2)) return 1;
  for (unsigned i = 0; i < NVEC; i++)
    if (c[i] != a[i] + bb[i]) {
      fprintf(stderr, "bench: vecadd wrong at %u\n", i);
      return 1;
    }
  return 0;
}

/* ---- matmul ---- */

static int matmul_setup(struct bench *b) {
  size_t n = NMAT, bytes = n * n * 4;
  float *a = b->host[0] = malloc(bytes), *bb = b->host[1] = malloc(bytes);
  b->host[2] = malloc(bytes);
  if (!a || !bb || !b->host[2]) return 1;
  for (size_t i = 0; i < n * n; i++)
    a[i] = (float)(i % 7) - 3.0f, bb[i] = (float)(i % 5) * 0.25f;
  b->m[0] = buffer(b->r, bytes, a), b->m[1] = buffer(b->r, bytes, bb);
  b->m[2] = buffer(b->r, bytes, NULL);
  if (!b->m[0] || !b->m[1] || !b->m[2] || kernels(b, 1, (const char *[]){"matmul"})) return 1;
  int ni = NMAT;
  for (cl_uint i = 0; i < 3; i++)
    clSetKernelArg(b->k[0], i, sizeof(cl_mem), &b->m[i]);
  clSetKernelArg(b->k[0], 3, sizeof ni, &ni);
  return 0;
}

static int matmul_launch(struct bench *b) {
  size_t g[2] = {NMAT, NMAT}, l[2] = {16, 16};
  return launch1(b, 0, 2, g, l);
}

static int matmul_check(struct bench *b) {
  const size_t n = NMAT;
  const float *a = b->host[0], *bb = b->host[1], *c = b->host[2];
  if (read_back(b, 2, n * n * 4, 2)) return 1;
  for (size_t row = 0; row < n; row++)
    for (size_t col = 0; col < n; col++) {
      float acc = 0.0f;
      for (size_t kk = 0; kk < n; kk++)
        acc += a[row * n + kk] * bb[kk * n + col];
      if (fabsf(acc - c[row * n + col]) > 1e-3f * (1.0f + fabsf(acc))) {
        fprintf(stderr, "bench: matmul wrong at %zu,%zu\n", row, col);
        return 1;
      }
    }
  return 0;
}

/* ---- reduce ---- */

static int reduce_setup(struct bench *b) {
  float *in = b->host[0] = malloc(NRED * 4);
  b->host[1] = malloc(NRED / RED_LOCAL * 4);
  if (!in || !b->host[1]) return 1;
  for (unsigned i = 0; i < NRED; i++)
    in[i] = (float)(i % 16);
  b->m[0] = buffer(b->r, NRED * 4, in), b->m[1] = buffer(b->r, NRED / RED_LOCAL * 4, NULL);
  if (!b->m[0] || !b->m[1] || kernels(b, 1, (const char *[]){"reduce"})) return 1;
  clSetKernelArg(b->k[0], 0, sizeof(cl_mem), &b->m[0]);
  clSetKernelArg(b->k[0], 1, sizeof(cl_mem), &b->m[1]);
  clSetKernelArg(b->k[0], 2, RED_LOCAL * 4, NULL);
  return 0;
}

static int reduce_launch(struct bench *b) {
  size_t g = NRED, l = RED_LOCAL;
  return launch1(b, 0, 1, &g, &l);
}

static int reduce_check(struct bench *b) {
  const float *in = b->host[0], *out = b->host[1];
  if (read_back(b, 1, NRED / RED_LOCAL * 4, 1)) return 1;
  double sum = 0, want = 0;
  for (size_t i = 0; i < NRED / RED_LOCAL; i++)
    sum += out[i];
  for (unsigned i = 0; i < NRED; i++)
    want += in[i];
  if (sum != want) {
    fprintf(stderr, "bench: reduce got %.0f, want %.0f\n", sum, want);
    return 1;
  }
  return 0;
}

/* ---- mandelbrot ---- */

static int mandelbrot_setup(struct bench *b) {
  b->host[0] = malloc(MW * MH * 4);
  if (!b->host[0]) return 1;
  b->m[0] = buffer(b->r, MW * MH * 4, NULL);
  if (!b->m[0] || kernels(b, 1, (const char *[]){"mandelbrot"})) return 1;
  int w = MW, h = MH, maxit = MAXIT;
  clSetKernelArg(b->k[0], 0, sizeof(cl_mem), &b->m[0]);
  clSetKernelArg(b->k[0], 1, sizeof w, &w);
  clSetKernelArg(b->k[0], 2, sizeof h, &h);
  clSetKernelArg(b->k[0], 3, sizeof maxit, &maxit);
  return 0;
}

static int mandelbrot_launch(struct bench *b) {
  size_t g[2] = {MW, MH}, l[2] = {16, 16};
  return launch1(b, 0, 2, g, l);
}

static int mandelbrot_check(struct bench *b) {
  const int *out = b->host[0];
  if (read_back(b, 0, MW * MH * 4, 0)) return 1;
  /* The reference runs the same float arithmetic on the host; allow a few
   * boundary pixels to differ by contraction or rounding. */
  long off = 0;
  for (int y = 0; y < MH; y++)
    for (int x = 0; x < MW; x++) {
      float cr = -2.0f + 3.0f * x / MW, ci = -1.5f + 3.0f * y / MH, zr = 0, zi = 0;
      int it = 0;
      while (it < MAXIT && zr * zr + zi * zi < 4.0f) {
        float tt = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = tt;
        it++;
      }
      off += out[y * MW + x] != it;
    }
  if (off > MW * MH / 100) {
    fprintf(stderr, "bench: mandelbrot differs in %ld pixels\n", off);
    return 1;
  }
  return 0;
}

/* ---- scan: m[0] in, m[1] out, m[2] block sums ---- */

static int scan_setup(struct bench *b) {
  int *in = b->host[0] = malloc(NSCAN * 4);
  b->host[1] = malloc(NSCAN * 4);
  if (!in || !b->host[1]) return 1;
  for (unsigned i = 0; i < NSCAN; i++)
    in[i] = (int)((i * 2654435761u) >> 28); /* 0..15 */
  unsigned blocks = NSCAN / (2 * SCAN_LOCAL), nb = blocks;
  b->m[0] = buffer(b->r, NSCAN * 4, in), b->m[1] = buffer(b->r, NSCAN * 4, NULL);
  b->m[2] = buffer(b->r, blocks * 4, NULL);
  if (!b->m[0] || !b->m[1] || !b->m[2] ||
      kernels(b, 3, (const char *[]){"scan_blocks", "scan_sums", "scan_add"}))
    return 1;
  for (cl_uint i = 0; i < 3; i++)
    clSetKernelArg(b->k[0], i, sizeof(cl_mem), &b->m[i]);
  clSetKernelArg(b->k[0], 3, 2 * SCAN_LOCAL * 4, NULL);
  clSetKernelArg(b->k[1], 0, sizeof(cl_mem), &b->m[2]);
  clSetKernelArg(b->k[1], 1, sizeof nb, &nb);
  clSetKernelArg(b->k[1], 2, SCAN_LOCAL * 4, NULL);
  clSetKernelArg(b->k[2], 0, sizeof(cl_mem), &b->m[1]);
  clSetKernelArg(b->k[2], 1, sizeof(cl_mem), &b->m[2]);
  return 0;
}

static int scan_launch(struct bench *b) {
  int inclusive = b->pass > 0;
  size_t g = NSCAN / 2, l = SCAN_LOCAL;
  return check(clSetKernelArg(b->k[0], 4, sizeof inclusive, &inclusive), "scan arg") ||
         launch1(b, 0, 1, &g, &l) || launch1(b, 1, 1, &l, &l) || launch1(b, 2, 1, &g, &l);
}

static int scan_check(struct bench *b) {
  const int *in = b->host[0], *out = b->host[1];
  int inclusive = b->pass > 1; /* the last launch's */
  if (read_back(b, 1, NSCAN * 4, 1)) return 1;
  int acc = 0;
  for (unsigned i = 0; i < NSCAN; i++) {
    acc += inclusive ? in[i] : 0;
    if (out[i] != acc) {
      fprintf(stderr, "bench: %s scan wrong at %u: %d, want %d\n",
              inclusive ? "inclusive" : "exclusive", i, out[i], acc);
      return 1;
    }
    acc += inclusive ? 0 : in[i];
  }
  return 0;
}

/* ---- sort: m[0] the unsorted keys, m[1] the keys sorted in place ---- */

static int sort_setup(struct bench *b) {
  uint32_t *in = b->host[0] = malloc(NSORT * 4);
  b->host[1] = malloc(NSORT * 4);
  if (!in || !b->host[1]) return 1;
  uint64_t x = 88172645463325252ull; /* xorshift64 */
  for (unsigned i = 0; i < NSORT; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    in[i] = (uint32_t)(x >> 32);
  }
  b->m[0] = buffer(b->r, NSORT * 4, in), b->m[1] = buffer(b->r, NSORT * 4, NULL);
  if (!b->m[0] || !b->m[1] || kernels(b, 2, (const char *[]){"sort_global", "sort_local"}))
    return 1;
  clSetKernelArg(b->k[0], 0, sizeof(cl_mem), &b->m[1]);
  clSetKernelArg(b->k[1], 0, sizeof(cl_mem), &b->m[1]);
  clSetKernelArg(b->k[1], 1, 2 * SORT_LOCAL * 4, NULL);
  return 0;
}

static int sort_local(struct bench *b, cl_uint k0, cl_uint k1) {
  size_t g = NSORT / 2, l = SORT_LOCAL;
  clSetKernelArg(b->k[1], 2, sizeof k0, &k0);
  clSetKernelArg(b->k[1], 3, sizeof k1, &k1);
  return launch1(b, 1, 1, &g, &l);
}

static int sort_launch(struct bench *b) {
  const cl_uint block = 2 * SORT_LOCAL;
  size_t g = NSORT / 2, l = SORT_LOCAL;
  int rc = check(clEnqueueCopyBuffer(b->r->q, b->m[0], b->m[1], 0, 0, NSORT * 4, 0, NULL, NULL),
                 "copy") ||
           sort_local(b, 2, block);
  for (cl_uint k = 2 * block; k <= NSORT && !rc; k <<= 1) {
    for (cl_uint j = k / 2; j >= block && !rc; j >>= 1) {
      clSetKernelArg(b->k[0], 1, sizeof k, &k);
      clSetKernelArg(b->k[0], 2, sizeof j, &j);
      rc = launch1(b, 0, 1, &g, &l);
    }
    rc = rc || sort_local(b, k, k);
  }
  return rc;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static int sort_check(struct bench *b) {
  uint32_t *out = b->host[1], *want = malloc(NSORT * 4);
  if (!want || read_back(b, 1, NSORT * 4, 1)) {
    free(want);
    return 1;
  }
  memcpy(want, b->host[0], NSORT * 4);
  qsort(want, NSORT, 4, cmp_u32);
  unsigned i = 0;
  while (i < NSORT && out[i] == want[i])
    i++;
  if (i < NSORT) fprintf(stderr, "bench: sort wrong at %u: %u, want %u\n", i, out[i], want[i]);
  free(want);
  return i < NSORT;
}

/* ---- timing ---- */

static const struct kcase cases[] = {
    {"vecadd 2^22", vecadd_setup, vecadd_launch, vecadd_check},
    {"matmul 256", matmul_setup, matmul_launch, matmul_check},
    {"reduce 2^22", reduce_setup, reduce_launch, reduce_check},
    {"mandelbrot 512", mandelbrot_setup, mandelbrot_launch, mandelbrot_check},
    {"scan 2^22", scan_setup, scan_launch, scan_check},
    {"sort 2^20", sort_setup, sort_launch, sort_check},
};
#define NKERNELS (int)(sizeof cases / sizeof cases[0])

/* Launches once and waits: seconds, or -1. */
static double launch_wait(struct bench *b, const struct kcase *c) {
  double t0 = now_s();
  int rc = c->launch(b) || check(clFinish(b->r->q), "finish");
  b->pass++;
  return rc ? -1 : now_s() - t0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of runs timed launches after warm untimed ones (0 or 1), or
 * -1 on a failure or a wrong result. */
static double measure(struct bench *b, const struct kcase *c, int runs, int warm,
                      const char *label) {
  if (warm) {
    double t = launch_wait(b, c);
    if (t < 0 || c->check(b)) return -1;
    fprintf(stderr, "bench: %s first %s %.1f ms\n", label, c->name, t * 1e3);
  }
  double ts[MAXRUNS];
  for (int i = 0; i < runs; i++)
    if ((ts[i] = launch_wait(b, c)) < 0) return -1;
  if (c->check(b)) return -1;
  qsort(ts, (size_t)runs, sizeof ts[0], cmp_double);
  return runs % 2 ? ts[runs / 2] : (ts[runs / 2 - 1] + ts[runs / 2]) / 2;
}

static double run_case(struct run *r, const struct kcase *c, int runs, int warm,
                       const char *label) {
  struct bench b = {.r = r};
  double t = c->setup(&b) == 0 ? measure(&b, c, runs, warm, label) : -1;
  bench_release(&b);
  return t;
}

/* ---- platforms ---- */

static int env_runs(const char *name, int dflt) {
  const char *s = getenv(name);
  int n = s ? atoi(s) : dflt;
  return n < 1 ? 1 : n > MAXRUNS ? MAXRUNS : n;
}

/* clBuildProgram's milliseconds, or -1 with the log printed. */
static double build_ms(struct run *r, cl_program p, const char *label) {
  double t0 = now_s();
  cl_int err = clBuildProgram(p, 1, &r->dev, "", NULL, NULL);
  if (err == CL_SUCCESS) return (now_s() - t0) * 1e3;
  char log[8192] = "";
  clGetProgramBuildInfo(p, r->dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  fprintf(stderr, "bench: %s build failed: %d\n%s\n", label, err, log);
  return -1;
}

/* The program built, and built again from the same source (a cache hit
 * where the platform caches builds). */
static int open_platform(cl_platform_id p, struct run *r, const char *label) {
  cl_int err;
  if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &r->dev, NULL) != CL_SUCCESS) return 1;
  r->ctx = clCreateContext(NULL, 1, &r->dev, NULL, NULL, &err);
  if (check(err, "context")) return 1;
  /* The 1.2 entry point: peers that implement OpenCL 1.2 only have no
   * clCreateCommandQueueWithProperties. */
  r->q = clCreateCommandQueue(r->ctx, r->dev, 0, &err);
  r->prog = clCreateProgramWithSource(r->ctx, 1, &source, NULL, &err);
  double t = build_ms(r, r->prog, label);
  if (t < 0) return 1;
  fprintf(stderr, "bench: %s build %.1f ms\n", label, t);
  cl_program again = clCreateProgramWithSource(r->ctx, 1, &source, NULL, &err);
  t = build_ms(r, again, label);
  clReleaseProgram(again);
  if (t >= 0) fprintf(stderr, "bench: %s rebuild %.1f ms\n", label, t);
  return t < 0;
}

static const char *const pnames[3] = {"Lockstep", "Portable Computing Language", "Oclgrind"};
static const char *const plabels[3] = {"lockstep", "pocl", "oclgrind"};

static int wanted(const char *label) {
  const char *list = getenv("BENCH_PLATFORMS");
  return !list || strstr(list, label) != NULL;
}

/* BENCH_ONLY=WORD[,WORD...]: the kernels whose name has one of the words */
static int selected(const char *name) {
  const char *only = getenv("BENCH_ONLY");
  if (!only || !*only) return 1;
  char words[256];
  snprintf(words, sizeof words, "%s", only);
  for (char *save = NULL, *w = strtok_r(words, ",", &save); w; w = strtok_r(NULL, ",", &save))
    if (strstr(name, w)) return 1;
  return 0;
}

/* Every kernel on platform which; 1 when it could not run at all. */
static int run_platform(cl_platform_id p, int which, double *times) {
  const char *label = plabels[which];
  int oclgrind = which == 2;
  int runs = oclgrind ? env_runs("BENCH_OCLGRIND_RUNS", 1) : env_runs("BENCH_RUNS", 5);
  struct run r = {0};
  int failed = open_platform(p, &r, label);
  for (int k = 0; k < NKERNELS && !failed; k++) {
    times[k] = 0;
    if (!selected(cases[k].name)) continue;
    times[k] = run_case(&r, &cases[k], runs, !oclgrind, label);
    fprintf(stderr, "bench: %s %s %.4f s\n", label, cases[k].name, times[k]);
  }
  if (r.prog) clReleaseProgram(r.prog);
  if (r.q) clReleaseCommandQueue(r.q);
  if (r.ctx) clReleaseContext(r.ctx);
  return failed;
}

/* seconds, "-" where not run, FAIL where wrong */
static const char *cell(char *buf, size_t len, int have, double t) {
  if (!have || t == 0) return "-";
  if (t < 0) return "FAIL";
  snprintf(buf, len, "%.4f", t);
  return buf;
}

static void print_table(const double times[3][NKERNELS], const int *have) {
  printf("%-16s %12s %12s %12s %14s %18s\n", "kernel", "lockstep s", "pocl s", "oclgrind s",
         "lockstep/pocl", "oclgrind/lockstep");
  for (int k = 0; k < NKERNELS; k++) {
    double l = have[0] ? times[0][k] : -1, p = have[1] ? times[1][k] : -1,
           o = have[2] ? times[2][k] : -1;
    char rp[32] = "-", ro[32] = "-", c[3][32];
    if (l > 0 && p > 0) snprintf(rp, sizeof rp, "%.2fx", l / p);
    if (l > 0 && o > 0) snprintf(ro, sizeof ro, "%.0fx", o / l);
    printf("%-16s %12s %12s %12s %14s %18s\n", cases[k].name, cell(c[0], 32, have[0], l),
           cell(c[1], 32, have[1], p), cell(c[2], 32, have[2], o), rp, ro);
  }
}

int main(void) {
  cl_platform_id ps[8];
  cl_uint np = 0;
  if (clGetPlatformIDs(8, ps, &np) != CL_SUCCESS || np == 0) {
    fprintf(stderr, "bench: no OpenCL platform\n");
    return 1;
  }
  double times[3][NKERNELS];
  int have[3] = {0, 0, 0}, failed = 0;
  for (int which = 0; which < 3; which++) {
    if (!wanted(plabels[which])) continue;
    for (cl_uint i = 0; i < np; i++) {
      char name[128] = "";
      clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
      if (strcmp(name, pnames[which]) != 0 || have[which]) continue;
      have[which] = !run_platform(ps[i], which, times[which]);
      for (int k = 0; k < NKERNELS && have[which]; k++)
        failed |= times[which][k] < 0;
    }
  }
  print_table(times, have);
  /* a wrong result anywhere, or Lockstep asked for and missing */
  return failed || (wanted("lockstep") && !have[0]);
}
