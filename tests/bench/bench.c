/*
 * bench.c - runs the same four kernels on every OpenCL platform it is given
 * (Lockstep, pocl, Oclgrind), checks each result against a host reference,
 * and prints a table of times with the ratios Lockstep/pocl and
 * Oclgrind/Lockstep. Not part of the test command: run tests/bench/run.sh.
 * BENCH_ONLY=WORD runs only the kernels whose name has WORD (for a
 * profiler).
 *
 *   vecadd     c = a + b on 2^22 floats
 *   matmul     naive 256x256 float matrix product
 *   reduce     sum of 2^22 floats, local-memory tree with barriers
 *   mandelbrot 512x512, up to 256 iterations (divergent)
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <math.h>
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
    "}\n";

#define NVEC      (1u << 22)
#define NMAT      256
#define NRED      (1u << 22)
#define RED_LOCAL 256
#define MW        512
#define MH        512
#define MAXIT     256

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

/* Each kernel: returns seconds (launch to result read back), or -1 on a
 * failure or a wrong result. */
static double run_vecadd(struct run *r) {
  float *a = malloc(NVEC * 4), *b = malloc(NVEC * 4), *c = malloc(NVEC * 4);
  for (unsigned i = 0; i < NVEC; i++)
    a[i] = (float)(i % 1000), b[i] = (float)(i % 777) * 0.5f;
  cl_mem da = buffer(r, NVEC * 4, a), db = buffer(r, NVEC * 4, b), dc = buffer(r, NVEC * 4, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(r->prog, "vecadd", &err);
  double t = -1;
  if (check(err, "vecadd kernel") == 0) {
    clSetKernelArg(k, 0, sizeof da, &da);
    clSetKernelArg(k, 1, sizeof db, &db);
    clSetKernelArg(k, 2, sizeof dc, &dc);
    size_t g = NVEC, l = 256;
    double t0 = now_s();
    err = clEnqueueNDRangeKernel(r->q, k, 1, NULL, &g, &l, 0, NULL, NULL);
    if (!check(err, "vecadd launch") &&
        !check(clEnqueueReadBuffer(r->q, dc, CL_TRUE, 0, NVEC * 4, c, 0, NULL, NULL), "read")) {
      t = now_s() - t0;
      for (unsigned i = 0; i < NVEC; i++)
        if (c[i] != a[i] + b[i]) {
          fprintf(stderr, "bench: vecadd wrong at %u\n", i);
          t = -1;
          break;
        }
    }
    clReleaseKernel(k);
  }
  clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
  free(a), free(b), free(c);
  return t;
}

static double run_matmul(struct run *r) {
  size_t n = NMAT, bytes = n * n * 4;
  float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
  for (size_t i = 0; i < n * n; i++)
    a[i] = (float)(i % 7) - 3.0f, b[i] = (float)(i % 5) * 0.25f;
  cl_mem da = buffer(r, bytes, a), db = buffer(r, bytes, b), dc = buffer(r, bytes, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(r->prog, "matmul", &err);
  double t = -1;
  if (check(err, "matmul kernel") == 0) {
    int ni = (int)n;
    clSetKernelArg(k, 0, sizeof da, &da);
    clSetKernelArg(k, 1, sizeof db, &db);
    clSetKernelArg(k, 2, sizeof dc, &dc);
    clSetKernelArg(k, 3, sizeof ni, &ni);
    size_t g[2] = {n, n}, l[2] = {16, 16};
    double t0 = now_s();
    err = clEnqueueNDRangeKernel(r->q, k, 2, NULL, g, l, 0, NULL, NULL);
    if (!check(err, "matmul launch") &&
        !check(clEnqueueReadBuffer(r->q, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL), "read")) {
      t = now_s() - t0;
      for (size_t row = 0; row < n && t >= 0; row++)
        for (size_t col = 0; col < n; col++) {
          float acc = 0.0f;
          for (size_t kk = 0; kk < n; kk++)
            acc += a[row * n + kk] * b[kk * n + col];
          if (fabsf(acc - c[row * n + col]) > 1e-3f * (1.0f + fabsf(acc))) {
            fprintf(stderr, "bench: matmul wrong at %zu,%zu\n", row, col);
            t = -1;
            break;
          }
        }
    }
    clReleaseKernel(k);
  }
  clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
  free(a), free(b), free(c);
  return t;
}

static double run_reduce(struct run *r) {
  size_t groups = NRED / RED_LOCAL;
  float *in = malloc(NRED * 4), *out = malloc(groups * 4);
  for (unsigned i = 0; i < NRED; i++)
    in[i] = (float)(i % 16);
  cl_mem din = buffer(r, NRED * 4, in), dout = buffer(r, groups * 4, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(r->prog, "reduce", &err);
  double t = -1;
  if (check(err, "reduce kernel") == 0) {
    clSetKernelArg(k, 0, sizeof din, &din);
    clSetKernelArg(k, 1, sizeof dout, &dout);
    clSetKernelArg(k, 2, RED_LOCAL * 4, NULL);
    size_t g = NRED, l = RED_LOCAL;
    double t0 = now_s();
    err = clEnqueueNDRangeKernel(r->q, k, 1, NULL, &g, &l, 0, NULL, NULL);
    if (!check(err, "reduce launch") &&
        !check(clEnqueueReadBuffer(r->q, dout, CL_TRUE, 0, groups * 4, out, 0, NULL, NULL),
               "read")) {
      t = now_s() - t0;
      double sum = 0;
      for (size_t i = 0; i < groups; i++)
        sum += out[i];
      double want = 0;
      for (unsigned i = 0; i < NRED; i++)
        want += in[i];
      if (sum != want) {
        fprintf(stderr, "bench: reduce got %.0f, want %.0f\n", sum, want);
        t = -1;
      }
    }
    clReleaseKernel(k);
  }
  clReleaseMemObject(din), clReleaseMemObject(dout);
  free(in), free(out);
  return t;
}

static double run_mandelbrot(struct run *r) {
  size_t bytes = MW * MH * 4;
  int *out = malloc(bytes);
  cl_mem dout = buffer(r, bytes, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(r->prog, "mandelbrot", &err);
  double t = -1;
  if (check(err, "mandelbrot kernel") == 0) {
    int w = MW, h = MH, maxit = MAXIT;
    clSetKernelArg(k, 0, sizeof dout, &dout);
    clSetKernelArg(k, 1, sizeof w, &w);
    clSetKernelArg(k, 2, sizeof h, &h);
    clSetKernelArg(k, 3, sizeof maxit, &maxit);
    size_t g[2] = {MW, MH}, l[2] = {16, 16};
    double t0 = now_s();
    err = clEnqueueNDRangeKernel(r->q, k, 2, NULL, g, l, 0, NULL, NULL);
    if (!check(err, "mandelbrot launch") &&
        !check(clEnqueueReadBuffer(r->q, dout, CL_TRUE, 0, bytes, out, 0, NULL, NULL), "read")) {
      t = now_s() - t0;
      /* The reference runs the same float arithmetic on the host; allow a
       * few boundary pixels to differ by contraction or rounding. */
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
        t = -1;
      }
    }
    clReleaseKernel(k);
  }
  clReleaseMemObject(dout);
  free(out);
  return t;
}

#define NKERNELS 4
static const char *knames[NKERNELS] = {"vecadd 2^22", "matmul 256", "reduce 2^22",
                                       "mandelbrot 512"};
static double (*const kfns[NKERNELS])(struct run *) = {run_vecadd, run_matmul, run_reduce,
                                                       run_mandelbrot};

int main(void) {
  cl_platform_id ps[8];
  cl_uint np = 0;
  if (clGetPlatformIDs(8, ps, &np) != CL_SUCCESS || np == 0) {
    fprintf(stderr, "bench: no OpenCL platform\n");
    return 1;
  }
  const char *order[3] = {"Lockstep", "Portable Computing Language", "Oclgrind"};
  const char *label[3] = {"lockstep", "pocl", "oclgrind"};
  double times[3][NKERNELS];
  const char *only = getenv("BENCH_ONLY"); /* the kernels whose name has this */
  int have[3] = {0, 0, 0};
  for (int which = 0; which < 3; which++) {
    for (cl_uint i = 0; i < np; i++) {
      char name[128] = "";
      clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
      if (strcmp(name, order[which]) != 0) continue;
      struct run r;
      cl_int err;
      if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &r.dev, NULL) != CL_SUCCESS) continue;
      r.ctx = clCreateContext(NULL, 1, &r.dev, NULL, NULL, &err);
      /* The 1.2 entry point: peers that implement OpenCL 1.2 only have no
       * clCreateCommandQueueWithProperties. */
      r.q = clCreateCommandQueue(r.ctx, r.dev, 0, &err);
      r.prog = clCreateProgramWithSource(r.ctx, 1, &source, NULL, &err);
      double t0 = now_s();
      err = clBuildProgram(r.prog, 1, &r.dev, "", NULL, NULL);
      fprintf(stderr, "bench: %s build %.1f ms\n", label[which], (now_s() - t0) * 1e3);
      if (err != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(r.prog, r.dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "bench: %s build failed:\n%s\n", label[which], log);
        continue;
      }
      have[which] = 1;
      for (int k = 0; k < NKERNELS; k++) {
        if (only && !strstr(knames[k], only)) {
          times[which][k] = 0;
          continue;
        }
        times[which][k] = kfns[k](&r);
        fprintf(stderr, "bench: %s %s %.3f s\n", label[which], knames[k], times[which][k]);
      }
      clReleaseProgram(r.prog);
      clReleaseCommandQueue(r.q);
      clReleaseContext(r.ctx);
    }
  }
  printf("%-16s %12s %12s %12s %14s %16s\n", "kernel", "lockstep s", "pocl s", "oclgrind s",
         "lockstep/pocl", "oclgrind/lockstep");
  int failed = !have[0];
  for (int k = 0; k < NKERNELS; k++) {
    double l = have[0] ? times[0][k] : -1, p = have[1] ? times[1][k] : -1,
           o = have[2] ? times[2][k] : -1;
    char rp[32] = "-", ro[32] = "-";
    if (l > 0 && p > 0) snprintf(rp, sizeof rp, "%.1fx", l / p);
    if (l > 0 && o > 0) snprintf(ro, sizeof ro, "%.1fx", o / l);
    printf("%-16s %12.4f %12.4f %12.4f %14s %16s\n", knames[k], l, p, o, rp, ro);
    failed |= l < 0;
  }
  return failed;
}
