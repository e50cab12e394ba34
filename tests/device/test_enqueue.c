/*
 * test_enqueue.c - device-side enqueue end to end (kernels/enqueue.cl): a
 * recursive tree of launches, a breadth-first search that enqueues its next
 * frontier, a thousand children of one parent, a full queue, captured
 * variables and local pointer arguments, device events, markers and user
 * events, misuse codes, a queue_t argument; each checked against a host
 * reference. Run once more under forced command-processor switches, so a
 * preempted parent's ring is replayed. It must not look inside the device.
 */
#include "kharness.h"

#define CLK_DEVICE_QUEUE_FULL (-161)

static cl_command_queue dq;

/* The context's default on-device queue, of size bytes (0: preferred). */
static cl_command_queue make_dq(cl_uint size, cl_bool dflt) {
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                                     (dflt ? CL_QUEUE_ON_DEVICE_DEFAULT : 0),
                                 size ? CL_QUEUE_SIZE : 0, size, 0};
  cl_int err;
  cl_command_queue d = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  return d;
}
static void setup(void) {
  kh_setup();
  dq = make_dq(0, CL_TRUE);
}
static void teardown(void) {
  if (dq) clReleaseCommandQueue(dq);
  kh_teardown();
}
static cl_kernel k20(const char *name) {
  return load_opts("enqueue", name, "-cl-std=CL3.0");
}
static cl_mem zeros(size_t n) {
  void *z = calloc(1, n);
  cl_mem m = buf(n, z);
  free(z);
  return m;
}
/* Kernel `many` over n work-items: each enqueues a child that writes
 * out[i] = 3 * i + 1 and stores the enqueue's code in rc[i]. */
static cl_kernel many(size_t n, cl_mem *out, cl_mem *rc) {
  cl_kernel k = k20("many");
  *out = zeros(sizeof(int) * n);
  *rc = zeros(sizeof(int) * n);
  ARGS(k, KA(*out), KA(*rc));
  return k;
}
/* Every child of `many` over n work-items wrote its value. */
static void check_many(cl_mem out, size_t n) {
  int *got = malloc(sizeof(int) * n);
  rd(out, got, sizeof(int) * n);
  for (size_t i = 0; i < n; i++)
    ck_assert_int_eq(got[i], 3 * (int)i + 1);
  free(got);
}

START_TEST(recursive_tree) {
  enum { D = 6 };
  cl_kernel k = k20("tree");
  cl_mem out = zeros(sizeof(int) * (D + 1)), sum = zeros(sizeof(int));
  int maxd = D;
  ARGS(k, KA(out), KA(sum), KA(maxd));
  ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
  int got[D + 1], s;
  rd(out, got, sizeof got);
  rd(sum, &s, sizeof s);
  /* node ids 0 .. 2^(D+1) - 2, level d holds 2^d of them */
  int want_sum = 0;
  for (int d = 0; d <= D; d++)
    ck_assert_int_eq(got[d], 1 << d);
  for (int id = 0; id < (1 << (D + 1)) - 1; id++)
    want_sum += id;
  ck_assert_int_eq(s, want_sum);
  clReleaseMemObject(out);
  clReleaseMemObject(sum);
  clReleaseKernel(k);
}
END_TEST

START_TEST(bfs_frontiers) {
  enum { V = 60 };
  int rowp[V + 1], cols[V * 3], ne = 0;
  for (int v = 0; v < V; v++) { /* a ring with chords: several levels, shortcuts */
    rowp[v] = ne;
    cols[ne++] = (v + 1) % V;
    cols[ne++] = (v + V - 1) % V;
    if (v % 7 == 0) cols[ne++] = (v * 5 + 3) % V;
  }
  rowp[V] = ne;
  int dist[V], want[V], queue[V], head = 0, tail = 0;
  for (int v = 0; v < V; v++)
    dist[v] = want[v] = INT32_MAX;
  want[0] = 0;
  queue[tail++] = 0;
  while (head < tail) { /* host reference */
    int v = queue[head++];
    for (int e = rowp[v]; e < rowp[v + 1]; e++)
      if (want[cols[e]] == INT32_MAX) {
        want[cols[e]] = want[v] + 1;
        queue[tail++] = cols[e];
      }
  }
  cl_kernel k = k20("bfs");
  cl_mem r = buf(sizeof rowp, rowp), c = buf(sizeof(int) * ne, cols), d = buf(sizeof dist, dist);
  ARGS(k, KA(r), KA(c), KA(d));
  ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
  rd(d, dist, sizeof dist);
  for (int v = 0; v < V; v++)
    ck_assert_msg(dist[v] == want[v], "vertex %d: %d, want %d", v, dist[v], want[v]);
  clReleaseMemObject(r);
  clReleaseMemObject(c);
  clReleaseMemObject(d);
  clReleaseKernel(k);
}
END_TEST

START_TEST(thousand_children) {
  enum { N = 1000 };
  cl_mem out, rc;
  cl_kernel k = many(N, &out, &rc);
  ck_assert_int_eq(run(k, N, 8), CL_COMPLETE);
  static int codes[N];
  rd(rc, codes, sizeof codes);
  for (int i = 0; i < N; i++)
    ck_assert_int_eq(codes[i], 0);
  check_many(out, N);
  clReleaseMemObject(out);
  clReleaseMemObject(rc);
  clReleaseKernel(k);
}
END_TEST

START_TEST(queue_full) {
  enum { N = 64 };
  clReleaseCommandQueue(dq);
  dq = make_dq(4096, CL_TRUE); /* room for a few children only */
  cl_kernel k = k20("fill");
  for (int round = 0; round < 3; round++) {
    cl_mem ran = zeros(sizeof(int) * N), rc = zeros(sizeof(int) * N);
    int n = N;
    ARGS(k, KA(ran), KA(rc), KA(n));
    ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
    int r[N], c[N], ok = 0, full = 0;
    rd(ran, r, sizeof r);
    rd(rc, c, sizeof c);
    for (int i = 0; i < N; i++) {
      ck_assert_msg(c[i] == 0 || c[i] == CLK_DEVICE_QUEUE_FULL, "child %d: code %d", i, c[i]);
      ck_assert_int_eq(r[i], c[i] == 0); /* accepted ones ran once, refused ones never */
      ok += c[i] == 0;
      full += c[i] != 0;
    }
    ck_assert_int_gt(ok, 0);
    ck_assert_int_gt(full, 0);
    clReleaseMemObject(ran);
    clReleaseMemObject(rc);
  }
  clReleaseKernel(k);
}
END_TEST

START_TEST(captured_and_local_args) {
  enum { P = 3 };
  cl_kernel k = k20("captures");
  cl_mem out = zeros(sizeof(float) * 100 * P), out2 = zeros(sizeof(int) * 8 * P);
  float scale = 1.5f;
  cl_long big = 5ll << 40;
  cl_char c = 7;
  ARGS(k, KA(out), KA(out2), KA(scale), KA(big), KA(c));
  ck_assert_int_eq(run(k, P, 1), CL_COMPLETE);
  static float f[100 * P];
  int g[8 * P];
  rd(out, f, sizeof f);
  rd(out2, g, sizeof g);
  for (int p = 0; p < P; p++) {
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 4; x++)
        ck_assert_float_eq(f[p * 100 + y * 4 + x], scale * x + 2 * scale * y + 5 + 7);
    for (int l = 0; l < 8; l++)
      ck_assert_int_eq(g[p * 8 + l], ((7 - l) + p * 100) * 10 + (7 - l));
  }
  clReleaseMemObject(out);
  clReleaseMemObject(out2);
  clReleaseKernel(k);
}
END_TEST

START_TEST(device_events) {
  cl_kernel k = k20("events");
  cl_mem b = zeros(sizeof(int) * 10), st = zeros(sizeof(int) * 9), pr = zeros(16);
  ARGS(k, KA(b), KA(st), KA(pr));
  ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
  int v[10], s[9];
  rd(b, v, sizeof v);
  rd(st, s, sizeof s);
  int want_s[9] = {0, 0, 0, 1, 0, 0, 0, 1, 1};
  for (int i = 0; i < 9; i++)
    ck_assert_msg(s[i] == want_s[i], "status %d: %d", i, s[i]);
  ck_assert_int_eq(v[0], 11);
  ck_assert_int_eq(v[1], 12);
  ck_assert_int_eq(v[2], 24);
  ck_assert_int_eq(v[3], 25);
  clReleaseMemObject(b);
  clReleaseMemObject(st);
  clReleaseMemObject(pr);
  clReleaseKernel(k);
}
END_TEST

/* retain_event under clang's name for it (_Z12retain_event12ocl_clkevent). */
START_TEST(retain_release) {
  cl_kernel k = k20("retain");
  cl_mem st = zeros(sizeof(int) * 2);
  ARGS(k, KA(st));
  ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
  int s[2];
  rd(st, s, sizeof s);
  ck_assert_int_eq(s[0], 1);
  ck_assert_int_eq(s[1], 1);
  clReleaseMemObject(st);
  clReleaseKernel(k);
}
END_TEST

/* get_kernel_sub_group_count_for_ndrange and
 * get_kernel_max_sub_group_size_for_ndrange: warps of W work-items. */
START_TEST(subgroup_queries) {
  cl_kernel k = k20("sgq");
  cl_mem st = zeros(sizeof(int) * 10);
  ARGS(k, KA(st));
  ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
  int s[10];
  rd(st, s, sizeof s);
  int w = (int)W;
  int want[6] = {(40 + w - 1) / w, 40 < w ? 40 : w,  (64 + w - 1) / w,
                 64 < w ? 64 : w,  (48 + w - 1) / w, 3};
  for (int i = 0; i < 6; i++)
    ck_assert_msg(s[i] == want[i], "query %d: %d, want %d (W %d)", i, s[i], want[i], w);
  ck_assert_int_eq(s[9], 0); /* nothing was enqueued */
  clReleaseMemObject(st);
  clReleaseKernel(k);
}
END_TEST

START_TEST(misuse_codes) {
  cl_kernel k = k20("misuse");
  cl_mem st = zeros(sizeof(int) * 7), ran = zeros(sizeof(int) * 7);
  ARGS(k, KA(st), KA(ran));
  ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
  int s[7], r[7];
  rd(st, s, sizeof s);
  rd(ran, r, sizeof r);
  const int want[7] = {-102, -57, -160, -51, -57, -57, -160};
  for (int i = 0; i < 7; i++) {
    ck_assert_msg(s[i] == want[i], "case %d: %d, want %d", i, s[i], want[i]);
    ck_assert_int_eq(r[i], 0);
  }
  clReleaseMemObject(st);
  clReleaseMemObject(ran);
  clReleaseKernel(k);
}
END_TEST

START_TEST(queue_argument) {
  cl_command_queue other = make_dq(0, CL_FALSE);
  cl_kernel k = k20("onqueue");
  cl_mem out = zeros(sizeof(int) * 17);
  ARGS(k, KA(other), KA(out));
  ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
  int v[17];
  rd(out, v, sizeof v);
  ck_assert_int_eq(v[0], 0);
  for (int i = 0; i < 16; i++)
    ck_assert_int_eq(v[1 + i], 7 * i);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseCommandQueue(other);
}
END_TEST

START_TEST(queue_api) {
  cl_device_device_enqueue_capabilities caps = 0;
  cl_uint pref = 0, max = 0, nq = 0, nev = 0, size = 0;
  ck_assert_int_eq(
      clGetDeviceInfo(dev, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof caps, &caps, NULL),
      CL_SUCCESS);
  ck_assert(caps & CL_DEVICE_QUEUE_SUPPORTED);
  clGetDeviceInfo(dev, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof pref, &pref, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof max, &max, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof nq, &nq, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_ON_DEVICE_EVENTS, sizeof nev, &nev, NULL);
  ck_assert(pref > 0 && pref <= max && nq >= 1 && nev >= 1);
  ck_assert_int_eq(clGetCommandQueueInfo(dq, CL_QUEUE_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
  ck_assert_uint_eq(size, pref);
  cl_command_queue d = NULL;
  clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof d, &d, NULL);
  ck_assert_ptr_eq(d, dq);
  /* too big, not out of order, and host commands on a device queue */
  cl_queue_properties big[] = {CL_QUEUE_PROPERTIES,
                               CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE,
                               CL_QUEUE_SIZE, (cl_queue_properties)max + 1, 0};
  cl_int err;
  ck_assert_ptr_null(clCreateCommandQueueWithProperties(ctx, dev, big, &err));
  ck_assert_int_eq(err, CL_INVALID_QUEUE_PROPERTIES);
  cl_queue_properties ino[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
  ck_assert_ptr_null(clCreateCommandQueueWithProperties(ctx, dev, ino, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  cl_mem m = zeros(16);
  ck_assert_int_eq(clEnqueueFillBuffer(dq, m, &size, 4, 0, 16, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  /* a second default request returns the default queue; another can replace it */
  cl_command_queue again = make_dq(0, CL_TRUE), other = make_dq(0, CL_FALSE);
  ck_assert_ptr_eq(again, dq);
  clReleaseCommandQueue(again);
  ck_assert_int_eq(clSetDefaultDeviceCommandQueue(ctx, dev, other), CL_SUCCESS);
  clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof d, &d, NULL);
  ck_assert_ptr_eq(d, other);
  ck_assert_int_eq(clSetDefaultDeviceCommandQueue(ctx, dev, q), CL_INVALID_COMMAND_QUEUE);
  /* children go to the new default queue */
  cl_mem out, rc;
  cl_kernel k = many(4, &out, &rc);
  ck_assert_int_eq(run(k, 4, 4), CL_COMPLETE);
  check_many(out, 4);
  clReleaseKernel(k);
  clReleaseMemObject(out);
  clReleaseMemObject(rc);
  clReleaseMemObject(m);
  clReleaseCommandQueue(other);
}
END_TEST

START_TEST(queue_released_while_busy) {
  enum { N = 200 };
  cl_mem out, rc;
  cl_kernel k = many(N, &out, &rc);
  size_t g = N, l = 8;
  cl_event ev;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev), CL_SUCCESS);
  clReleaseCommandQueue(dq); /* the children still run, then the queue goes */
  dq = NULL;
  ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
  clReleaseEvent(ev);
  check_many(out, N);
  clReleaseMemObject(out);
  clReleaseMemObject(rc);
  clReleaseKernel(k);
}
END_TEST

START_TEST(four_device_queues) {
  /* A launch gating four rings needs 4 + 3 * 4 operations. */
  cl_command_queue o[3] = {make_dq(0, CL_FALSE), make_dq(0, CL_FALSE), make_dq(0, CL_FALSE)};
  cl_kernel k = k20("fourq");
  cl_mem out = zeros(sizeof(int) * 36);
  ARGS(k, KA(o[0]), KA(o[1]), KA(o[2]), KA(out));
  ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
  int v[36];
  rd(out, v, sizeof v);
  for (int i = 0; i < 4; i++) {
    ck_assert_msg(v[i] == 0, "enqueue on queue %d: %d", i, v[i]);
    for (int j = 0; j < 8; j++)
      ck_assert_msg(v[4 + i * 8 + j] == 100 * i + j, "queue %d child %d: %d", i, j,
                    v[4 + i * 8 + j]);
  }
  clReleaseMemObject(out);
  clReleaseKernel(k);
  for (int i = 0; i < 3; i++)
    clReleaseCommandQueue(o[i]);
}
END_TEST

START_TEST(more_queue_args_than_queues) {
  cl_command_queue other = make_dq(0, CL_FALSE);
  cl_kernel k = k20("fiveq");
  cl_mem out = zeros(sizeof(int) * 2);
  ARGS(k, KA(dq), KA(dq), KA(dq), KA(dq), KA(other), KA(out));
  ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
  int v[2];
  rd(out, v, sizeof v);
  ck_assert_int_eq(v[0], 0);
  ck_assert_msg(v[1] == 77, "the child on the last queue argument had not run: %d", v[1]);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseCommandQueue(other);
}
END_TEST

START_TEST(capture_profiling_when_complete) {
  cl_kernel k = k20("capture_later");
  cl_mem prof = zeros(sizeof(cl_ulong) * 6), sink = zeros(sizeof(cl_uint) * 64);
  ARGS(k, KA(prof), KA(sink));
  ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
  cl_ulong v[6];
  rd(prof, v, sizeof v);
  ck_assert_msg(v[0] != 12345 && v[1] != 12345,
                "the capture of a kernel event was written when called, not once complete");
  ck_assert_msg(v[0] > 0 && v[1] == v[0], "kernel event: exec time %llu, %llu",
                (unsigned long long)v[0], (unsigned long long)v[1]);
  ck_assert_msg(v[2] == v[0] && v[3] == v[0], "capture after completion: %llu, %llu, want %llu",
                (unsigned long long)v[2], (unsigned long long)v[3], (unsigned long long)v[0]);
  ck_assert_msg(v[4] == 0 && v[5] == 0, "user event: %llu, %llu, want 0 written at its status",
                (unsigned long long)v[4], (unsigned long long)v[5]);
  clReleaseMemObject(prof);
  clReleaseMemObject(sink);
  clReleaseKernel(k);
}
END_TEST

START_TEST(capture_twice_is_a_device_exception) {
  cl_kernel k = k20("capture_twice");
  cl_mem prof = zeros(sizeof(cl_ulong) * 4), after = zeros(sizeof(int));
  ARGS(k, KA(prof), KA(after));
  ck_assert_int_eq(run(k, 1, 1), CL_OUT_OF_RESOURCES);
  int a = -1;
  rd(after, &a, sizeof a);
  ck_assert_int_eq(a, 0);
  clReleaseMemObject(prof);
  clReleaseMemObject(after);
  clReleaseKernel(k);
}
END_TEST

START_TEST(claimed_for_opencl_c_3_0) {
  cl_name_version f[64];
  size_t size = 0;
  int seen = 0;
  ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, sizeof f, f, &size),
                   CL_SUCCESS);
  for (size_t i = 0; i < size / sizeof f[0]; i++)
    seen |= !strcmp(f[i].name, "__opencl_c_device_enqueue");
  ck_assert(seen);
  cl_kernel k = load_opts("enqueue", "tree", "-cl-std=CL3.0");
  cl_mem out = zeros(sizeof(int) * 4), sum = zeros(sizeof(int));
  int maxd = 3, got[4];
  ARGS(k, KA(out), KA(sum), KA(maxd));
  ck_assert_int_eq(run(k, 1, 1), CL_COMPLETE);
  rd(out, got, sizeof got);
  for (int d = 0; d < 4; d++)
    ck_assert_int_eq(got[d], 1 << d);
  clReleaseMemObject(out);
  clReleaseMemObject(sum);
  clReleaseKernel(k);
}
END_TEST

static Suite *make(void) {
  Suite *s = suite_create("enqueue");
  TCase *tc = tcase_create("device-side enqueue");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  KH_ADD(tc, recursive_tree);
  KH_ADD(tc, bfs_frontiers);
  KH_ADD(tc, thousand_children);
  KH_ADD(tc, queue_full);
  KH_ADD(tc, captured_and_local_args);
  KH_ADD(tc, device_events);
  KH_ADD(tc, misuse_codes);
  KH_ADD(tc, retain_release);
  KH_ADD(tc, subgroup_queries);
  KH_ADD(tc, queue_argument);
  KH_ADD(tc, queue_api);
  KH_ADD(tc, queue_released_while_busy);
  KH_ADD(tc, claimed_for_opencl_c_3_0);
  KH_ADD(tc, four_device_queues);
  KH_ADD(tc, more_queue_args_than_queues);
  KH_ADD(tc, capture_profiling_when_complete);
  KH_ADD(tc, capture_twice_is_a_device_exception);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  int rc = kh_main(make);
  /* A preempted parent: its stream switches out every few steps and
   * replays its ring from the trace. */
  setenv("LOCKSTEP_CP_SWITCH_EVERY", "2", 1);
  rc |= kh_run_config(make, 32, 2);
  unsetenv("LOCKSTEP_CP_SWITCH_EVERY");
  setenv("LOCKSTEP_CP_SWITCH_SEED", "7", 1);
  rc |= kh_run_config(make, 8, 2);
  return rc;
}
