/*
 * wgcollect.c - the work-group collective functions through the real ICD
 * loader:
 *   wgcollect [values | partial]
 * With no argument it runs itself once per case and warp width (4, 8, 32
 * and 64 lanes, LOCKSTEP_WARP_WIDTH) in a fresh process.
 *   values: work_group_reduce/scan_{inclusive,exclusive}_{add,min,max},
 *     work_group_broadcast (the 1-, 2- and 3-D forms) on int, uint, long,
 *     ulong, float and double, and work_group_all/any, at work-group sizes
 *     1, 7, 64, 256 and non-uniform ones in one to three dimensions, each
 *     compared with a host reference. The device combines in local linear
 *     order, so float sums are compared exactly with the host's sums in
 *     that order.
 *   partial: a collective reached by only part of a work-group, or by part
 *     while the rest wait at a barrier, is a device exception naming the
 *     barrier divergence; broadcast local ids that differ between
 *     work-items or lie outside the group are device exceptions too.
 */
#include "util/host_util.h"

#include <math.h>
#include <stdint.h>

#define CHECK LSH_CHECK
const char *lsh_prog = "wgcollect";

static const char *kernel_src =
    "kernel void coll(global const T *in, global const int *pred, global T *out,\n"
    "                 global int *vote) {\n"
    "  size_t n = get_global_size(0) * get_global_size(1) * get_global_size(2);\n"
    "  size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) +\n"
    "             get_global_size(1) * get_global_id(2));\n"
    "  T x = in[i];\n"
    "  out[0 * n + i] = work_group_reduce_add(x);\n"
    "  out[1 * n + i] = work_group_reduce_min(x);\n"
    "  out[2 * n + i] = work_group_reduce_max(x);\n"
    "  out[3 * n + i] = work_group_scan_inclusive_add(x);\n"
    "  out[4 * n + i] = work_group_scan_inclusive_min(x);\n"
    "  out[5 * n + i] = work_group_scan_inclusive_max(x);\n"
    "  out[6 * n + i] = work_group_scan_exclusive_add(x);\n"
    "  out[7 * n + i] = work_group_scan_exclusive_min(x);\n"
    "  out[8 * n + i] = work_group_scan_exclusive_max(x);\n"
    "  size_t g = get_group_id(0) + get_num_groups(0) * (get_group_id(1) +\n"
    "             get_num_groups(1) * get_group_id(2));\n"
    "  size_t bx = (g * 5 + 3) % get_local_size(0), by = (g * 3 + 1) % get_local_size(1),\n"
    "         bz = (g + 2) % get_local_size(2);\n"
    "  if (get_work_dim() == 1) out[9 * n + i] = work_group_broadcast(x, bx);\n"
    "  else if (get_work_dim() == 2) out[9 * n + i] = work_group_broadcast(x, bx, by);\n"
    "  else out[9 * n + i] = work_group_broadcast(x, bx, by, bz);\n"
    "  vote[i] = work_group_all(pred[i]);\n"
    "  vote[n + i] = work_group_any(pred[i]);\n"
    "}\n";

enum ty { I32, U32, I64, U64, F32, F64, NTY };
static const struct {
  const char *name;
  size_t size;
} types[NTY] = {{"int", 4}, {"uint", 4}, {"long", 8}, {"ulong", 8}, {"float", 4}, {"double", 8}};

/* Values are kept as their bits, zero-extended to 64. */
static float as_f(uint64_t v) {
  float f;
  uint32_t u = (uint32_t)v;
  memcpy(&f, &u, 4);
  return f;
}
static double as_d(uint64_t v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}
static uint64_t of_f(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static uint64_t of_d(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

/* op 0 add, 1 min, 2 max */
static uint64_t combine(enum ty t, int op, uint64_t a, uint64_t b) {
  switch (t) {
  case I32: {
    int32_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;
    if (op == 0) return (uint32_t)((uint32_t)a + (uint32_t)b);
    return (uint32_t)(op == 1 ? (x < y ? x : y) : (x > y ? x : y));
  }
  case U32: {
    uint32_t x = (uint32_t)a, y = (uint32_t)b;
    return op == 0 ? (uint32_t)(x + y) : op == 1 ? (x < y ? x : y) : (x > y ? x : y);
  }
  case I64: {
    int64_t x = (int64_t)a, y = (int64_t)b;
    return op == 0 ? a + b : (uint64_t)(op == 1 ? (x < y ? x : y) : (x > y ? x : y));
  }
  case U64: return op == 0 ? a + b : op == 1 ? (a < b ? a : b) : (a > b ? a : b);
  case F32: {
    float x = as_f(a), y = as_f(b);
    return of_f(op == 0 ? x + y : op == 1 ? (y < x ? y : x) : (y > x ? y : x));
  }
  default: {
    double x = as_d(a), y = as_d(b);
    return of_d(op == 0 ? x + y : op == 1 ? (y < x ? y : x) : (y > x ? y : x));
  }
  }
}

/* What an exclusive scan starts with. */
static uint64_t identity(enum ty t, int op) {
  if (op == 0) return 0;
  switch (t) {
  case I32: return op == 1 ? (uint32_t)INT32_MAX : (uint32_t)INT32_MIN;
  case U32: return op == 1 ? UINT32_MAX : 0;
  case I64: return op == 1 ? (uint64_t)INT64_MAX : (uint64_t)INT64_MIN;
  case U64: return op == 1 ? UINT64_MAX : 0;
  case F32: return of_f(op == 1 ? INFINITY : -INFINITY);
  default: return of_d(op == 1 ? INFINITY : -INFINITY);
  }
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* A random value of t: integers over their whole range, floats with
 * fractions and both signs. */
static uint64_t random_value(enum ty t) {
  uint64_t r = next_rand();
  switch (t) {
  case I32:
  case U32: return (uint32_t)r;
  case I64:
  case U64: return r;
  case F32: return of_f((float)((int64_t)(r % 200001) - 100000) / 64.0f);
  default: return of_d((double)((int64_t)(r % 2000001) - 1000000) / 1024.0);
  }
}

struct shape {
  unsigned dims;
  size_t global[3], local[3];
};

static void put(void *buf, size_t size, size_t i, uint64_t v) {
  memcpy((char *)buf + i * size, &v, size); /* little-endian */
}
static uint64_t get(const void *buf, size_t size, size_t i) {
  uint64_t v = 0;
  memcpy(&v, (const char *)buf + i * size, size);
  return v;
}

/* The host's results for one launch: out[op * n + i], vote[i], vote[n + i]. */
static void reference(enum ty t, const struct shape *s, const uint64_t *in, const int *pred,
                      uint64_t *out, int *vote) {
  size_t n = s->global[0] * s->global[1] * s->global[2], ng[3], *items = malloc(sizeof(size_t) * n);
  for (int d = 0; d < 3; d++)
    ng[d] = (s->global[d] + s->local[d] - 1) / s->local[d];
  for (size_t gz = 0; gz < ng[2]; gz++)
    for (size_t gy = 0; gy < ng[1]; gy++)
      for (size_t gx = 0; gx < ng[0]; gx++) {
        size_t gid[3] = {gx, gy, gz}, sz[3], m = 0;
        for (int d = 0; d < 3; d++) {
          size_t rest = s->global[d] - gid[d] * s->local[d];
          sz[d] = rest < s->local[d] ? rest : s->local[d];
        }
        for (size_t lz = 0; lz < sz[2]; lz++) /* the group's items in local linear order */
          for (size_t ly = 0; ly < sz[1]; ly++)
            for (size_t lx = 0; lx < sz[0]; lx++)
              items[m++] =
                  gx * s->local[0] + lx +
                  s->global[0] * (gy * s->local[1] + ly + s->global[1] * (gz * s->local[2] + lz));
        for (int op = 0; op < 3; op++) {
          uint64_t red = in[items[0]], incl = identity(t, op);
          for (size_t j = 1; j < m; j++)
            red = combine(t, op, red, in[items[j]]);
          for (size_t j = 0; j < m; j++) {
            out[(size_t)op * n + items[j]] = red;
            out[(size_t)(6 + op) * n + items[j]] = incl;
            incl = combine(t, op, incl, in[items[j]]);
            out[(size_t)(3 + op) * n + items[j]] = incl;
          }
        }
        size_t g = gx + ng[0] * (gy + ng[1] * gz);
        size_t b = (g * 5 + 3) % sz[0];
        if (s->dims >= 2) b += (g * 3 + 1) % sz[1] * sz[0];
        if (s->dims == 3) b += (g + 2) % sz[2] * sz[0] * sz[1];
        int all = 1, any = 0;
        for (size_t j = 0; j < m; j++) {
          out[9 * n + items[j]] = in[items[b]];
          all &= pred[items[j]] != 0;
          any |= pred[items[j]] != 0;
        }
        for (size_t j = 0; j < m; j++) {
          vote[items[j]] = all;
          vote[n + items[j]] = any;
        }
      }
  free(items);
}

static const char *const op_names[] = {
    "reduce_add",         "reduce_min",         "reduce_max",         "scan_inclusive_add",
    "scan_inclusive_min", "scan_inclusive_max", "scan_exclusive_add", "scan_exclusive_min",
    "scan_exclusive_max", "broadcast"};

/* Runs the kernel of type t on shape s; returns the number of wrong results
 * (the first few are printed). */
static int printed; /* wrong results printed so far: the first few are */

static int run_shape(cl_context ctx, cl_command_queue q, cl_kernel k, enum ty t,
                     const struct shape *s) {
  size_t n = s->global[0] * s->global[1] * s->global[2], sz = types[t].size;
  uint64_t *in = malloc(sizeof(uint64_t) * n), *want = malloc(sizeof(uint64_t) * n * 10);
  int *pred = malloc(sizeof(int) * n), *wvote = malloc(sizeof(int) * 2 * n);
  int *gvote = malloc(sizeof(int) * 2 * n);
  void *hin = malloc(sz * n), *hout = malloc(sz * n * 10);
  for (size_t i = 0; i < n; i++) {
    in[i] = random_value(t);
    put(hin, sz, i, in[i]);
    /* groups of three kinds by their x index: all true, all false, mixed */
    size_t kind = (i % s->global[0]) / s->local[0] % 3;
    uint64_t r = next_rand();
    pred[i] = kind == 0   ? (int)((uint32_t)(r | 1) << (r >> 32 & 15))
              : kind == 1 ? 0
                          : (r % 4 == 0 ? (int)(r >> 40) | 1 : 0);
  }
  reference(t, s, in, pred, want, wvote);
  cl_mem bin = lsh_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sz * n, hin);
  cl_mem bpred = lsh_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(int) * n, pred);
  cl_mem bout = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, sz * n * 10, NULL);
  cl_mem bvote = lsh_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof(int) * n * 2, NULL);
  CHECK(clSetKernelArg(k, 0, sizeof bin, &bin));
  CHECK(clSetKernelArg(k, 1, sizeof bpred, &bpred));
  CHECK(clSetKernelArg(k, 2, sizeof bout, &bout));
  CHECK(clSetKernelArg(k, 3, sizeof bvote, &bvote));
  CHECK(clEnqueueNDRangeKernel(q, k, s->dims, NULL, s->global, s->local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sz * n * 10, hout, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, bvote, CL_TRUE, 0, sizeof(int) * n * 2, gvote, 0, NULL, NULL));
  int wrong = 0;
  for (size_t op = 0; op < 10; op++)
    for (size_t i = 0; i < n; i++) {
      uint64_t got = get(hout, sz, op * n + i), w = want[op * n + i];
      if (got == w) continue;
      if (wrong++, printed++ < 6)
        fprintf(stderr,
                "wgcollect: %s work_group_%s, global (%zu,%zu,%zu) local (%zu,%zu,%zu): item "
                "%zu got 0x%llx, want 0x%llx\n",
                types[t].name, op_names[op], s->global[0], s->global[1], s->global[2], s->local[0],
                s->local[1], s->local[2], i, (unsigned long long)got, (unsigned long long)w);
    }
  for (size_t i = 0; i < 2 * n; i++)
    if (gvote[i] != wvote[i] && (wrong++, printed++ < 6))
      fprintf(stderr, "wgcollect: work_group_%s, local (%zu,%zu,%zu): item %zu got %d, want %d\n",
              i < n ? "all" : "any", s->local[0], s->local[1], s->local[2], i % n, gvote[i],
              wvote[i]);
  clReleaseMemObject(bin);
  clReleaseMemObject(bpred);
  clReleaseMemObject(bout);
  clReleaseMemObject(bvote);
  free(in), free(want), free(pred), free(wvote), free(gvote), free(hin), free(hout);
  return wrong;
}

static const struct shape shapes[] = {
    {1, {64, 1, 1}, {1, 1, 1}},     {1, {49, 1, 1}, {7, 1, 1}},   {1, {256, 1, 1}, {64, 1, 1}},
    {1, {1024, 1, 1}, {256, 1, 1}}, {1, {100, 1, 1}, {64, 1, 1}}, {1, {300, 1, 1}, {256, 1, 1}},
    {1, {20, 1, 1}, {7, 1, 1}},     {2, {20, 6, 1}, {8, 4, 1}},   {2, {32, 16, 1}, {16, 16, 1}},
    {3, {6, 5, 3}, {4, 3, 2}},      {3, {8, 8, 4}, {4, 4, 4}},
};

static int values(void) {
  cl_device_id d = lsh_device();
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
  CHECK(err);
  int wrong = 0;
  for (int t = 0; t < NTY; t++) {
    cl_program p = clCreateProgramWithSource(ctx, 1, &kernel_src, NULL, &err);
    CHECK(err);
    char opts[64];
    snprintf(opts, sizeof opts, "-cl-std=CL3.0 -DT=%s", types[t].name);
    lsh_build_program(p, d, opts);
    cl_kernel k = lsh_kernel(p, "coll");
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
      wrong += run_shape(ctx, q, k, (enum ty)t, &shapes[s]);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  if (wrong) fprintf(stderr, "wgcollect: %d wrong results\n", wrong);
  return wrong != 0;
}

/* ---- part of a work-group ---- */

static const char *partial_src =
    "kernel void some(global int *o) {\n"
    "  int x = get_local_id(0);\n"
    "  if (x < 5) x = work_group_reduce_add(x);\n"
    "  o[get_global_id(0)] = x;\n"
    "}\n"
    "kernel void other_barrier(global int *o) {\n"
    "  int x = get_local_id(0);\n"
    "  if (x < 6) x = work_group_all(x); else barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  o[get_global_id(0)] = x;\n"
    "}\n"
    "kernel void ids_differ(global int *o) {\n"
    "  o[get_global_id(0)] = work_group_broadcast((int)get_local_id(0), get_local_id(0) / 8);\n"
    "}\n"
    "kernel void id_outside(global int *o) {\n"
    "  o[get_global_id(0)] = work_group_broadcast(1, get_local_size(0), 0);\n"
    "}\n"
    "kernel void whole(global int *o) {\n"
    "  int x = get_local_id(0);\n"
    "  if (x < 5) x = 100;\n"
    "  o[get_global_id(0)] = work_group_scan_exclusive_add(x);\n"
    "}\n";

static char notes[4096];
static int notified;
static void CL_CALLBACK notify(const char *errinfo, const void *pi, size_t cb, void *user) {
  (void)pi, (void)cb, (void)user;
  notified++;
  strncat(notes, errinfo, sizeof notes - strlen(notes) - 2);
  strcat(notes, "\n");
}

/* Runs kernel name on 24 work-items in groups of 12 (2-D: 12 x 1); returns
 * 0 when the event's status and the report are as expected. */
static int partial_case(cl_context ctx, cl_command_queue q, cl_program p, const char *name,
                        const char *want) {
  cl_kernel k = lsh_kernel(p, name);
  cl_mem o = lsh_buffer(ctx, CL_MEM_READ_WRITE, sizeof(int) * 24, NULL);
  CHECK(clSetKernelArg(k, 0, sizeof o, &o));
  size_t g[2] = {24, 1}, l[2] = {12, 1};
  cl_event ev;
  notes[0] = 0;
  notified = 0;
  CHECK(
      clEnqueueNDRangeKernel(q, k, !strcmp(name, "id_outside") ? 2 : 1, NULL, g, l, 0, NULL, &ev));
  clWaitForEvents(1, &ev);
  cl_int status = 0;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  int failed = 0;
  if (want) {
    if (status >= 0 || !notified || !strstr(notes, want) || !strstr(notes, name)) {
      fprintf(stderr,
              "wgcollect: kernel %s: status %d, report:\n%swant a device exception with '%s'\n",
              name, status, notes, want);
      failed = 1;
    }
  } else {
    int got[24];
    CHECK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int i = 0, acc = 0; i < 24; i++) {
      if (i % 12 == 0) acc = 0;
      failed |= got[i] != acc;
      acc += i % 12 < 5 ? 100 : i % 12;
    }
    if (status != CL_COMPLETE || notified || failed) {
      fprintf(stderr, "wgcollect: kernel %s: status %d, report:\n%s%s\n", name, status, notes,
              failed ? "wrong results" : "");
      failed = 1;
    }
  }
  clReleaseEvent(ev);
  clReleaseMemObject(o);
  clReleaseKernel(k);
  return failed;
}

static int partial(void) {
  cl_device_id d = lsh_device();
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &d, notify, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
  CHECK(err);
  cl_program p = clCreateProgramWithSource(ctx, 1, &partial_src, NULL, &err);
  CHECK(err);
  lsh_build_program(p, d, "-cl-std=CL3.0");
  int failed = 0;
  failed |= partial_case(ctx, q, p, "some",
                         "barrier reached by 5 of 12 work-items of the work-group; others "
                         "finished the kernel without reaching it");
  failed |= partial_case(ctx, q, p, "other_barrier", "others wait at a different barrier");
  failed |= partial_case(ctx, q, p, "ids_differ", "work-items name different local ids");
  failed |=
      partial_case(ctx, q, p, "id_outside", "local id (12,0,0) is outside the work-group (12,1,1)");
  failed |= partial_case(ctx, q, p, "whole", NULL); /* diverged before, reconverged at it */
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return failed;
}

int main(int argc, char **argv) {
  if (argc >= 2) return !strcmp(argv[1], "values") ? values() : partial();
  static const char *const widths[] = {"4", "8", "32", "64"};
  int failed = 0;
  for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
    failed |= lsh_run_self(argv[0], "values", "LOCKSTEP_WARP_WIDTH", widths[i]);
    failed |= lsh_run_self(argv[0], "partial", "LOCKSTEP_WARP_WIDTH", widths[i]);
  }
  printf("wgcollect: %s\n", failed ? "FAILED" : "every collective as the host computes it");
  return failed;
}
