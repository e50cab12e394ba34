/* enqueue.cl - kernels that enqueue kernels (OpenCL C 2.0 device-side
 * enqueue), for tests/device/test_enqueue.c. Each result is checked there
 * against a host reference; nothing here may depend on execution order that
 * OpenCL leaves open. */

/* A binary tree of launches, depth levels deep: out[d] counts the nodes of
 * level d, sum[0] adds up their ids. */
void node(global int *out, global int *sum, int depth, int maxd, int id) {
  atomic_add(&out[depth], 1);
  atomic_add(&sum[0], id);
  if (depth < maxd)
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(2),
                   ^{ node(out, sum, depth + 1, maxd, id * 2 + 1 + (int)get_global_id(0)); });
}
kernel void tree(global int *out, global int *sum, int maxd) {
  node(out, sum, 0, maxd, 0);
}

/* Shortest hop counts from vertex 0 (CSR graph): a vertex whose distance
 * improves enqueues the work for its neighbours, the next frontier. */
void visit(global const int *rowp, global const int *cols, global int *dist, int v) {
  int d = dist[v];
  for (int e = rowp[v]; e < rowp[v + 1]; e++) {
    int u = cols[e];
    if (atomic_min(&dist[u], d + 1) > d + 1)
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                     ^{ visit(rowp, cols, dist, u); });
  }
}
kernel void bfs(global const int *rowp, global const int *cols, global int *dist) {
  dist[0] = 0;
  visit(rowp, cols, dist, 0);
}

/* One small child per work-item of the parent; rc[i] is its enqueue code. */
kernel void many(global int *out, global int *rc) {
  int i = get_global_id(0);
  rc[i] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                         ^{ out[i] = 3 * i + 1; });
}

/* One work-item enqueues n children into a small queue: rc[k] says which
 * were accepted; an accepted child k sets ran[k]. */
kernel void fill(global int *ran, global int *rc, int n) {
  queue_t q = get_default_queue();
  for (int k = 0; k < n; k++)
    rc[k] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ ran[k] += 1; });
}

/* Captured values of several types, a 2D range, and local pointer
 * arguments sized at the enqueue. */
kernel void captures(global float *out, global int *out2, float scale, long big, char c) {
  int base = get_global_id(0) * 100;
  float2 v = (float2)(scale, 2.0f * scale);
  const size_t g2[2] = {4, 3};
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_2D(g2),
                 ^{
                   int x = get_global_id(0), y = get_global_id(1);
                   out[base + y * 4 + x] = v.x * x + v.y * y + (float)(big >> 40) + c;
                 });
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(8, 8),
                 ^(local void *a, local void *b) {
                   local int *la = a, *lb = b;
                   int l = get_local_id(0);
                   la[l] = l + base;
                   lb[7 - l] = l;
                   work_group_barrier(CLK_LOCAL_MEM_FENCE);
                   out2[base / 100 * 8 + l] = la[7 - l] * 10 + lb[l];
                 },
                 32u, 32u);
}

/* Events: B waits for A, the marker for B, D for a user event the parent
 * completes; st collects the codes and validity checks. */
kernel void events(global int *buf, global int *st, global ulong *prof) {
  queue_t q = get_default_queue();
  clk_event_t a, b, m, d;
  st[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &a,
                         ^{ buf[0] = 11; });
  st[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &a, &b,
                         ^{ buf[1] = buf[0] + 1; });
  st[2] = enqueue_marker(q, 1, &b, &m);
  clk_event_t ue = create_user_event();
  st[3] = is_valid_event(ue);
  clk_event_t waits[2] = {m, ue};
  st[4] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 2, waits, &d,
                         ^{ buf[2] = buf[1] * 2; });
  set_user_event_status(ue, CL_COMPLETE);
  st[5] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &d, NULL,
                         ^{ capture_event_profiling_info(d, CLK_PROFILING_COMMAND_EXEC_TIME, prof);
                            buf[3] = buf[2] + 1; });
  st[6] = is_valid_event(CLK_NULL_EVENT);
  release_event(a);
  release_event(b);
  release_event(m);
  release_event(ue);
  release_event(d);
  st[7] = get_kernel_work_group_size(^{ buf[9] = 1; }) > 0;
  st[8] = get_kernel_preferred_work_group_size_multiple(^{ buf[9] = 1; }) > 0;
}

/* Misuse: every call must fail with its CLK_* code and enqueue nothing. */
kernel void misuse(global int *st, global int *ran) {
  queue_t q = get_default_queue();
  clk_event_t ev;
  queue_t none = CLK_NULL_QUEUE;
  st[0] = enqueue_kernel(none, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ ran[0] = 1; });
  st[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, NULL, NULL,
                         ^{ ran[1] = 1; });
  st[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(0), ^{ ran[2] = 1; });
  st[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), ^(local void *p) {
    ran[3] = 1; }, 0u);
  st[4] = enqueue_marker(q, 0, NULL, &ev);
  clk_event_t bad = CLK_NULL_EVENT;
  st[5] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &bad, NULL,
                         ^{ ran[5] = 1; });
  st[6] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4, 4096), ^{ ran[6] = 1; });
}

/* A queue passed as an argument instead of the default one. */
kernel void onqueue(queue_t q, global int *out) {
  out[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(16),
                          ^{ out[1 + get_global_id(0)] = get_global_id(0) * 7; });
}

/* Children on four device queues at once: the default one and three
 * arguments; each child writes its own slot. */
kernel void fourq(queue_t a, queue_t b, queue_t c, global int *out) {
  queue_t qs[4] = {get_default_queue(), a, b, c};
  for (int i = 0; i < 4; i++)
    out[i] = enqueue_kernel(qs[i], CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8),
                            ^{ out[4 + i * 8 + get_global_id(0)] = 100 * i + get_global_id(0); });
}

/* More queue_t arguments than device queues: the one queue named only by
 * the last argument runs its child before the parent completes. */
kernel void fiveq(queue_t a, queue_t b, queue_t c, queue_t d, queue_t e, global int *out) {
  out[0] = enqueue_kernel(e, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[1] = 77; });
}

/* capture_event_profiling_info before its event completed: the values are
 * written once it completes, over what the parent stored after the call
 * (prof[0..1] a kernel event, prof[4..5] a user event); prof[2..3] is a
 * capture by a child that waits for the event, written at once. */
kernel void capture_later(global ulong *prof, global uint *sink) {
  queue_t q = get_default_queue();
  clk_event_t a, ue = create_user_event();
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64), 0, NULL, &a, ^{
    uint x = get_global_id(0);
    for (int k = 0; k < 2000; k++) x = x * 1664525u + 1013904223u;
    sink[get_global_id(0)] = x;
  });
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &a, NULL,
                 ^{ capture_event_profiling_info(a, CLK_PROFILING_COMMAND_EXEC_TIME, prof + 2); });
  capture_event_profiling_info(a, CLK_PROFILING_COMMAND_EXEC_TIME, prof);
  capture_event_profiling_info(ue, CLK_PROFILING_COMMAND_EXEC_TIME, prof + 4);
  prof[0] = prof[1] = prof[4] = prof[5] = 12345;
  set_user_event_status(ue, CL_COMPLETE);
  release_event(ue);
  release_event(a);
}

/* A second capture while one waits for the same event stops the kernel. */
kernel void capture_twice(global ulong *prof, global int *after) {
  clk_event_t ue = create_user_event();
  capture_event_profiling_info(ue, CLK_PROFILING_COMMAND_EXEC_TIME, prof);
  capture_event_profiling_info(ue, CLK_PROFILING_COMMAND_EXEC_TIME, prof + 2);
  after[0] = 1;
  set_user_event_status(ue, CL_COMPLETE);
  release_event(ue);
}
