/*
 * pipes.c - pipe kernels through the real ICD loader:
 *   pipes [fifo | group | stream | MISUSE]
 * fifo: one work-item checks a full and an empty pipe (write_pipe and
 * read_pipe fail, reservations are invalid, nothing changes), FIFO order,
 * the 4-argument forms, commits out of order (packets become readable in
 * reservation order), the packet counts and is_valid_reserve_id, and one
 * work-item holding 5000 reservations at once.
 * group: the work-group and sub-group reservation forms move every packet
 * once. stream: a producer and a consumer kernel on two queues, running at
 * once, move a million packets through a pipe of 1024; every packet
 * arrives exactly once. Each misuse case runs in a fresh process and must
 * end its kernel with a device exception whose report says why.
 */
#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "pipes";

static char notified[1024];

static void CL_CALLBACK notify(const char *errinfo, const void *pi, size_t cb, void *user) {
  (void)pi, (void)cb, (void)user;
  snprintf(notified, sizeof notified, "%s", errinfo);
}

struct env {
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue q, q2;
  cl_program prog;
};

static void setup(struct env *e, const char *src) {
  cl_int err;
  e->dev = lsh_device();
  e->ctx = clCreateContext(NULL, 1, &e->dev, notify, NULL, &err);
  CHECK(err);
  e->q = clCreateCommandQueueWithProperties(e->ctx, e->dev, NULL, &err);
  CHECK(err);
  e->q2 = clCreateCommandQueueWithProperties(e->ctx, e->dev, NULL, &err);
  CHECK(err);
  e->prog = clCreateProgramWithSource(e->ctx, 1, &src, NULL, &err);
  CHECK(err);
  lsh_build_program(e->prog, e->dev, "-cl-std=CL3.0");
}

static void teardown(struct env *e) {
  CHECK(clReleaseProgram(e->prog));
  CHECK(clReleaseCommandQueue(e->q));
  CHECK(clReleaseCommandQueue(e->q2));
  CHECK(clReleaseContext(e->ctx));
}

static cl_mem make_pipe(struct env *e, cl_uint size, cl_uint n) {
  cl_int err;
  cl_mem p = clCreatePipe(e->ctx, 0, size, n, NULL, &err);
  CHECK(err);
  return p;
}

/* Runs kernel `name` (args: the pipe, then the buffer) over global items
 * in groups of local; returns the event's final status. */
static cl_int run(struct env *e, const char *name, cl_mem p, cl_mem buf, size_t global,
                  size_t local) {
  cl_kernel k = lsh_kernel(e->prog, name);
  CHECK(clSetKernelArg(k, 0, sizeof p, &p));
  CHECK(clSetKernelArg(k, 1, sizeof buf, &buf));
  cl_event ev;
  CHECK(clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, &ev));
  clWaitForEvents(1, &ev);
  cl_int st = 0;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  CHECK(clReleaseEvent(ev));
  CHECK(clReleaseKernel(k));
  return st;
}

/* ---- fifo ---- */

static const char *fifo_src =
    "#define T(c) out[n++] = (c) ? 1 : 0\n"
    "__kernel void fifo_w(__write_only pipe int p, __global int *out) {\n"
    "  int n = 0, v = 0;\n"
    "  T(get_pipe_max_packets(p) == 4);\n"
    "  T(get_pipe_num_packets(p) == 0);\n"
    "  for (int i = 0; i < 4; i++) { v = 10 + i; T(write_pipe(p, &v) == 0); }\n"
    "  v = 99;\n"
    "  T(write_pipe(p, &v) < 0);\n" /* full */
    "  T(!is_valid_reserve_id(reserve_write_pipe(p, 1)));\n"
    "  T(get_pipe_num_packets(p) == 4);\n"
    "  T(!is_valid_reserve_id(CLK_NULL_RESERVE_ID));\n"
    "  out[n] = -1;\n"
    "}\n"
    "__kernel void fifo_r(__read_only pipe int p, __global int *out) {\n"
    "  int n = 0, v = 0;\n"
    "  T(get_pipe_num_packets(p) == 4);\n"
    "  T(!is_valid_reserve_id(reserve_read_pipe(p, 5)));\n" /* more than max packets */
    "  T(!is_valid_reserve_id(reserve_read_pipe(p, 0)));\n"
    "  for (int i = 0; i < 4; i++) { v = -1; T(read_pipe(p, &v) == 0 && v == 10 + i); }\n"
    "  v = 7;\n"
    "  T(read_pipe(p, &v) < 0 && v == 7);\n" /* empty: nothing read */
    "  T(!is_valid_reserve_id(reserve_read_pipe(p, 1)));\n"
    "  T(get_pipe_num_packets(p) == 0);\n"
    "  out[n] = -1;\n"
    "}\n"
    /* two write reservations committed in the other order, read back with
     * one reservation and the 4-argument forms */
    "__kernel void fifo_res(__write_only pipe int p, __global int *out) {\n"
    "  int n = 0, v;\n"
    "  reserve_id_t a = reserve_write_pipe(p, 2), b = reserve_write_pipe(p, 2);\n"
    "  T(is_valid_reserve_id(a) && is_valid_reserve_id(b));\n"
    "  T(!is_valid_reserve_id(reserve_write_pipe(p, 1)));\n" /* all 4 slots reserved */
    "  v = 21; T(write_pipe(p, b, 1, &v) == 0);\n"
    "  v = 20; T(write_pipe(p, b, 0, &v) == 0);\n"
    "  commit_write_pipe(p, b);\n"
    "  T(get_pipe_num_packets(p) == 0);\n" /* b waits for a */
    "  v = 11; T(write_pipe(p, a, 1, &v) == 0);\n"
    "  v = 10; T(write_pipe(p, a, 0, &v) == 0);\n"
    "  commit_write_pipe(p, a);\n"
    "  T(get_pipe_num_packets(p) == 4);\n"
    "  out[n] = -1;\n"
    "}\n"
    "__kernel void fifo_res_r(__read_only pipe int p, __global int *out) {\n"
    "  int n = 0, v[4] = {0, 0, 0, 0};\n"
    "  reserve_id_t r = reserve_read_pipe(p, 4);\n"
    "  T(is_valid_reserve_id(r));\n"
    "  for (int i = 3; i >= 0; i--) T(read_pipe(p, r, i, &v[i]) == 0);\n"
    "  T(v[0] == 10 && v[1] == 11 && v[2] == 20 && v[3] == 21);\n"
    "  T(get_pipe_num_packets(p) == 0);\n"
    "  commit_read_pipe(p, r);\n"
    "  int w = 5;\n"
    "  T(read_pipe(p, &w) < 0 && w == 5);\n"
    "  out[n] = -1;\n"
    "}\n"
    /* one work-item holds 5000 reservations at once, commits them last to
     * first; the packets come out in reservation order */
    "__kernel void many_w(__write_only pipe int p, __global ulong *ids) {\n"
    "  __global reserve_id_t *r = (__global reserve_id_t *)ids;\n"
    "  for (int i = 0; i < 5000; i++) {\n"
    "    r[i] = reserve_write_pipe(p, 1);\n"
    "    if (!is_valid_reserve_id(r[i])) { ids[5000] = i + 1; return; }\n"
    "  }\n"
    "  for (int i = 4999; i >= 0; i--) {\n"
    "    int v = i;\n"
    "    write_pipe(p, r[i], 0, &v);\n"
    "    commit_write_pipe(p, r[i]);\n"
    "  }\n"
    "}\n"
    "__kernel void many_r(__read_only pipe int p, __global ulong *ids) {\n"
    "  for (int i = 0; i < 5000; i++) {\n"
    "    int v = -1;\n"
    "    if (read_pipe(p, &v) != 0 || v != i) { ids[5001] = i + 1; return; }\n"
    "  }\n"
    "}\n";

static int check_flags(const char *what, const cl_int *out) {
  int bad = 0;
  for (int i = 0; i < 64 && out[i] != -1; i++)
    if (out[i] != 1) {
      fprintf(stderr, "%s: %s: check %d failed\n", lsh_prog, what, i);
      bad = 1;
    }
  return bad;
}

static int fifo(void) {
  struct env e;
  setup(&e, fifo_src);
  cl_mem p = make_pipe(&e, sizeof(cl_int), 4);
  cl_mem buf = lsh_buffer(e.ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), NULL);
  const char *names[] = {"fifo_w", "fifo_r", "fifo_res", "fifo_res_r"};
  int bad = 0;
  for (int i = 0; i < 4; i++) {
    cl_int out[64];
    memset(out, 0, sizeof out);
    CHECK(clEnqueueWriteBuffer(e.q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(run(&e, names[i], p, buf, 1, 1));
    CHECK(clEnqueueReadBuffer(e.q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    bad |= check_flags(names[i], out);
  }
  CHECK(clReleaseMemObject(p));
  CHECK(clReleaseMemObject(buf));
  p = make_pipe(&e, sizeof(cl_int), 6000);
  cl_ulong ids[5002] = {0};
  buf = lsh_buffer(e.ctx, CL_MEM_COPY_HOST_PTR, sizeof ids, ids);
  CHECK(run(&e, "many_w", p, buf, 1, 1));
  CHECK(run(&e, "many_r", p, buf, 1, 1));
  CHECK(clEnqueueReadBuffer(e.q, buf, CL_TRUE, 0, sizeof ids, ids, 0, NULL, NULL));
  if (ids[5000] || ids[5001]) {
    fprintf(stderr, "%s: many: reservation %llu invalid, packet %llu out of order\n", lsh_prog,
            (unsigned long long)ids[5000], (unsigned long long)ids[5001]);
    bad = 1;
  }
  CHECK(clReleaseMemObject(p));
  CHECK(clReleaseMemObject(buf));
  teardown(&e);
  return bad;
}

/* ---- group: work-group and sub-group reservations ---- */

static const char *group_src =
    "__kernel void wg_w(__write_only pipe uint p, __global uint *out) {\n"
    "  reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    uint v = get_global_id(0);\n"
    "    write_pipe(p, r, get_local_id(0), &v);\n"
    "    work_group_commit_write_pipe(p, r);\n"
    "  }\n"
    "}\n"
    "__kernel void wg_r(__read_only pipe uint p, __global uint *out) {\n"
    "  reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    uint v;\n"
    "    read_pipe(p, r, get_local_id(0), &v);\n"
    "    atomic_inc(&out[v]);\n"
    "    work_group_commit_read_pipe(p, r);\n"
    "  }\n"
    "}\n"
    "__kernel void sg_w(__write_only pipe uint p, __global uint *out) {\n"
    "  reserve_id_t r = sub_group_reserve_write_pipe(p, get_sub_group_size());\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    uint v = get_global_id(0);\n"
    "    write_pipe(p, r, get_sub_group_local_id(), &v);\n"
    "    sub_group_commit_write_pipe(p, r);\n"
    "  }\n"
    "}\n"
    "__kernel void sg_r(__read_only pipe uint p, __global uint *out) {\n"
    "  reserve_id_t r = sub_group_reserve_read_pipe(p, get_sub_group_size());\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    uint v;\n"
    "    read_pipe(p, r, get_sub_group_local_id(), &v);\n"
    "    atomic_inc(&out[v]);\n"
    "    sub_group_commit_read_pipe(p, r);\n"
    "  }\n"
    "}\n";

static int group_pair(struct env *e, const char *w, const char *r, size_t n, size_t local) {
  cl_mem p = make_pipe(e, sizeof(cl_uint), (cl_uint)n);
  cl_mem buf = lsh_buffer(e->ctx, CL_MEM_READ_WRITE, n * sizeof(cl_uint), NULL);
  cl_uint zero = 0;
  CHECK(clEnqueueFillBuffer(e->q, buf, &zero, sizeof zero, 0, n * sizeof(cl_uint), 0, NULL, NULL));
  CHECK(run(e, w, p, buf, n, local));
  CHECK(run(e, r, p, buf, n, local));
  cl_uint *seen = malloc(n * sizeof *seen);
  CHECK(clEnqueueReadBuffer(e->q, buf, CL_TRUE, 0, n * sizeof *seen, seen, 0, NULL, NULL));
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (seen[i] != 1) {
      if (!bad)
        fprintf(stderr, "%s: %s/%s: packet %zu seen %u times\n", lsh_prog, w, r, i, seen[i]);
      bad = 1;
    }
  free(seen);
  CHECK(clReleaseMemObject(p));
  CHECK(clReleaseMemObject(buf));
  return bad;
}

static int group(void) {
  struct env e;
  setup(&e, group_src);
  int bad = group_pair(&e, "wg_w", "wg_r", 4096, 64);
  bad |= group_pair(&e, "wg_w", "wg_r", 7 * 13, 7);
  bad |= group_pair(&e, "wg_w", "wg_r", 7 * 13, 8); /* non-uniform: a last group of 3 */
  bad |= group_pair(&e, "sg_w", "sg_r", 4096, 128);
  teardown(&e);
  return bad;
}

/* ---- stream: producer and consumer at once on two queues ---- */

#define ITEMS   64    /* four work-groups of 16 on each side, on several compute units */
#define PER     15625 /* packets per work-item: a million in all */
#define PACKETS (ITEMS * PER)

static const char *stream_src =
    "#define PER 15625\n"
    /* odd items write with reservations of 5, the others one by one */
    "__kernel void producer(__write_only pipe uint p, __global uint *out) {\n"
    "  uint g = get_global_id(0), base = g * PER;\n"
    "  for (uint i = 0; i < PER;) {\n"
    "    if (g & 1) {\n"
    "      reserve_id_t r = reserve_write_pipe(p, 5);\n"
    "      if (!is_valid_reserve_id(r)) continue;\n"
    "      for (uint j = 0; j < 5; j++) { uint v = base + i + j; write_pipe(p, r, j, &v); }\n"
    "      commit_write_pipe(p, r);\n"
    "      i += 5;\n"
    "    } else {\n"
    "      uint v = base + i;\n"
    "      if (write_pipe(p, &v) == 0) i++;\n"
    "    }\n"
    "  }\n"
    "}\n"
    "__kernel void consumer(__read_only pipe uint p, __global uint *seen) {\n"
    "  uint g = get_global_id(0);\n"
    "  for (uint i = 0; i < PER;) {\n"
    "    uint v[5];\n"
    "    if (g & 2) {\n"
    "      reserve_id_t r = reserve_read_pipe(p, 5);\n"
    "      if (!is_valid_reserve_id(r)) continue;\n"
    "      for (uint j = 0; j < 5; j++) read_pipe(p, r, j, &v[j]);\n"
    "      commit_read_pipe(p, r);\n"
    "      for (uint j = 0; j < 5; j++) if (v[j] < PER * 64) atomic_inc(&seen[v[j]]);\n"
    "      i += 5;\n"
    "    } else if (read_pipe(p, &v[0]) == 0) {\n"
    "      if (v[0] < PER * 64) atomic_inc(&seen[v[0]]);\n"
    "      i++;\n"
    "    }\n"
    "  }\n"
    "}\n";

static int stream(void) {
  struct env e;
  setup(&e, stream_src);
  cl_mem p = make_pipe(&e, sizeof(cl_uint), 1024);
  cl_mem seen = lsh_buffer(e.ctx, CL_MEM_READ_WRITE, PACKETS * sizeof(cl_uint), NULL);
  cl_uint zero = 0;
  CHECK(clEnqueueFillBuffer(e.q, seen, &zero, sizeof zero, 0, PACKETS * sizeof(cl_uint), 0, NULL,
                            NULL));
  CHECK(clFinish(e.q));
  cl_kernel kp = lsh_kernel(e.prog, "producer"), kc = lsh_kernel(e.prog, "consumer");
  CHECK(clSetKernelArg(kp, 0, sizeof p, &p));
  CHECK(clSetKernelArg(kp, 1, sizeof seen, &seen));
  CHECK(clSetKernelArg(kc, 0, sizeof p, &p));
  CHECK(clSetKernelArg(kc, 1, sizeof seen, &seen));
  size_t global = ITEMS, local = 16;
  cl_event ev[2];
  /* the consumer first: it waits for a producer that has not started */
  CHECK(clEnqueueNDRangeKernel(e.q2, kc, 1, NULL, &global, &local, 0, NULL, &ev[1]));
  CHECK(clFlush(e.q2));
  CHECK(clEnqueueNDRangeKernel(e.q, kp, 1, NULL, &global, &local, 0, NULL, &ev[0]));
  CHECK(clFlush(e.q));
  clWaitForEvents(2, ev);
  int bad = 0;
  for (int i = 0; i < 2; i++) {
    cl_int st = 0;
    CHECK(clGetEventInfo(ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    if (st != CL_COMPLETE) {
      fprintf(stderr, "%s: stream: %s ended with %d\n", lsh_prog, i ? "consumer" : "producer", st);
      bad = 1;
    }
    CHECK(clReleaseEvent(ev[i]));
  }
  cl_uint *s = malloc(PACKETS * sizeof *s);
  CHECK(clEnqueueReadBuffer(e.q, seen, CL_TRUE, 0, PACKETS * sizeof *s, s, 0, NULL, NULL));
  size_t lost = 0, dup = 0;
  for (size_t i = 0; i < PACKETS; i++) {
    lost += s[i] == 0;
    dup += s[i] > 1;
  }
  if (lost || dup) {
    fprintf(stderr, "%s: stream: %zu packets lost, %zu duplicated\n", lsh_prog, lost, dup);
    bad = 1;
  }
  free(s);
  CHECK(clReleaseKernel(kp));
  CHECK(clReleaseKernel(kc));
  CHECK(clReleaseMemObject(p));
  CHECK(clReleaseMemObject(seen));
  teardown(&e);
  return bad;
}

/* ---- misuse: each a device exception ---- */

struct misuse {
  const char *mode;
  const char *words; /* the report has them; "%zu": the launch's sub-group size */
  size_t global, local;
  const char *src; /* kernel `bad`, args (pipe, buffer) */
};

static const struct misuse misuses[] = {
    /* commit of the invalid id a reservation on a full pipe returned */
    {"commit-invalid", "not an active write reservation", 1, 1,
     "__kernel void bad(__write_only pipe int p, __global int *out) {\n"
     "  reserve_id_t r = reserve_write_pipe(p, 5);\n"
     "  out[0] = is_valid_reserve_id(r);\n"
     "  commit_write_pipe(p, r);\n"
     "}\n"},
    {"commit-twice", "not an active write reservation", 1, 1,
     "__kernel void bad(__write_only pipe int p, __global int *out) {\n"
     "  reserve_id_t r = reserve_write_pipe(p, 1);\n"
     "  int v = 1;\n"
     "  write_pipe(p, r, 0, &v);\n"
     "  commit_write_pipe(p, r);\n"
     "  commit_write_pipe(p, r);\n"
     "}\n"},
    {"index", "packet index 2 of a reservation of 2", 1, 1,
     "__kernel void bad(__write_only pipe int p, __global int *out) {\n"
     "  reserve_id_t r = reserve_write_pipe(p, 2);\n"
     "  int v = 1;\n"
     "  write_pipe(p, r, out[1] + 2, &v);\n"
     "}\n"},
    {"null-id", "not an active read reservation", 1, 1,
     "__kernel void bad(__read_only pipe int p, __global int *out) {\n"
     "  int v;\n"
     "  out[0] = read_pipe(p, CLK_NULL_RESERVE_ID, 0, &v);\n"
     "}\n"},
    /* a read reservation on an empty pipe is invalid: committing it */
    {"commit-empty", "not an active read reservation", 1, 1,
     "__kernel void bad(__read_only pipe int p, __global int *out) {\n"
     "  reserve_id_t r = reserve_read_pipe(p, 1);\n"
     "  out[0] = is_valid_reserve_id(r);\n"
     "  commit_read_pipe(p, r);\n"
     "}\n"},
    {"wg-partial", "barrier reached by", 64, 64,
     "__kernel void bad(__write_only pipe int p, __global int *out) {\n"
     "  if (get_local_id(0) < 10) {\n"
     "    reserve_id_t r = work_group_reserve_write_pipe(p, 1);\n"
     "    out[get_local_id(0)] = is_valid_reserve_id(r);\n"
     "  }\n"
     "}\n"},
    {"sg-partial", "reached by 3 of %zu live", 32, 32,
     "__kernel void bad(__write_only pipe int p, __global int *out) {\n"
     "  if (get_sub_group_local_id() < 3) {\n"
     "    reserve_id_t r = sub_group_reserve_write_pipe(p, 1);\n"
     "    out[get_local_id(0)] = is_valid_reserve_id(r);\n"
     "  }\n"
     "}\n"},
    {"packet-size", "pipe packets are 4 bytes", 1, 1,
     "__kernel void bad(__write_only pipe long p, __global int *out) {\n"
     "  long v = 1;\n"
     "  out[0] = write_pipe(p, &v);\n"
     "}\n"},
    /* a consumer whose producer never comes: its retries change nothing,
     * so it stops for lack of forward progress instead of spinning on */
    {"starved", "no forward progress", 16, 16,
     "__kernel void bad(__read_only pipe int p, __global int *out) {\n"
     "  int v;\n"
     "  while (read_pipe(p, &v) != 0)\n"
     "    ;\n"
     "  out[0] = v;\n"
     "}\n"},
};
#define NMISUSE (sizeof misuses / sizeof misuses[0])

/* The sub-group size of kernel `bad` in work-groups of local (the warp
 * width, LOCKSTEP_WARP_WIDTH, when local is larger). */
static size_t subgroup_size(struct env *e, size_t local) {
  cl_kernel k = lsh_kernel(e->prog, "bad");
  size_t sg = 0;
  CHECK(clGetKernelSubGroupInfo(k, e->dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
                                &local, sizeof sg, &sg, NULL));
  CHECK(clReleaseKernel(k));
  return sg;
}

static int misuse(const struct misuse *m) {
  struct env e;
  setup(&e, m->src);
  char words[128];
  snprintf(words, sizeof words, m->words, subgroup_size(&e, m->local));
  cl_mem p = make_pipe(&e, sizeof(cl_int), 4);
  cl_mem buf = lsh_buffer(e.ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), NULL);
  cl_int zero = 0;
  CHECK(clEnqueueFillBuffer(e.q, buf, &zero, sizeof zero, 0, 64 * sizeof(cl_int), 0, NULL, NULL));
  cl_int st = run(&e, "bad", p, buf, m->global, m->local);
  int bad = 0;
  if (st >= 0) {
    fprintf(stderr, "%s: %s: the kernel ended with %d, not a device exception\n", lsh_prog, m->mode,
            st);
    bad = 1;
  } else if (!strstr(notified, words) || !strstr(notified, "bad")) {
    fprintf(stderr, "%s: %s: the report lacks '%s': %s\n", lsh_prog, m->mode, words, notified);
    bad = 1;
  }
  CHECK(clReleaseMemObject(p));
  CHECK(clReleaseMemObject(buf));
  teardown(&e);
  return bad;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    if (!strcmp(argv[1], "fifo")) return fifo();
    if (!strcmp(argv[1], "group")) return group();
    if (!strcmp(argv[1], "stream")) return stream();
    for (size_t i = 0; i < NMISUSE; i++)
      if (!strcmp(argv[1], misuses[i].mode)) return misuse(&misuses[i]);
    fprintf(stderr, "%s: unknown case %s\n", lsh_prog, argv[1]);
    return 2;
  }
  int bad = lsh_run_self(argv[0], "fifo", NULL, NULL);
  bad |= lsh_run_self(argv[0], "group", NULL, NULL);
  bad |= lsh_run_self(argv[0], "stream", NULL, NULL);
  for (size_t i = 0; i < NMISUSE; i++)
    bad |= lsh_run_self(argv[0], misuses[i].mode, NULL, NULL);
  return bad;
}
