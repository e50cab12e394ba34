/*
 * test_kernels.c - end-to-end kernels (the .cl files in kernels/) for
 * work-item functions, control flow, local and global memory, barriers,
 * atomics, structs, vectors, program-scope data, generic pointers,
 * sub-groups and printf, each checked against a host reference in C and run
 * with warp widths 32 and 8 and 1 and 2 host threads (kharness.h). It must
 * not reach into the device's internals.
 */
#include "kharness.h"

START_TEST(k_divergence) {
  enum { N = 300 };
  cl_kernel k = load("divergence");
  cl_mem o = buf(N * 4, NULL);
  clSetKernelArg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, N, 60), CL_COMPLETE);
  int got[N];
  rd(o, got, sizeof got);
  for (int g = 0; g < N; g++) {
    int want;
    if (g % 5 == 0) {
      want = -1;
    } else {
      int acc = 0;
      for (int i = 0; i < g % 13; i++) {
        if (i == 9) break;
        if (i % 3 == 1) continue;
        if (g & 1)
          acc += (i & 2) ? i * 3 : -1;
        else
          acc += 7;
      }
      switch (g % 4) {
      case 0: acc *= 2; break;
      case 1: acc += 100; break;
      case 2: acc ^= 0x55; break;
      default: break;
      }
      want = acc;
    }
    ck_assert_msg(got[g] == want, "divergence gid %d: got %d want %d", g, got[g], want);
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_local_reduce) {
  enum { N = 4096, L = 128 };
  static int in[N], got[N / L];
  for (int i = 0; i < N; i++)
    in[i] = (i * 37) % 101 - 50;
  cl_kernel k = load("local_reduce");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof got, NULL);
  clSetKernelArg(k, 0, sizeof a, &a);
  clSetKernelArg(k, 1, sizeof o, &o);
  clSetKernelArg(k, 2, L * sizeof(int), NULL);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, got, sizeof got);
  for (int gr = 0; gr < N / L; gr++) {
    int want = 0;
    for (int i = 0; i < L; i++)
      want += in[gr * L + i];
    ck_assert_msg(got[gr] == want, "local_reduce group %d: got %d want %d", gr, got[gr], want);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

/* rows_2d.cl at work-group shapes whose rows are a half, a quarter and
 * an eighth of a 32-lane warp, and as wide as one. */
START_TEST(k_rows_2d) {
  enum { N = 64, GX = 32, GY = 16 };
  static int a[N * GY + N], got[GX * GY];
  static long b[GX + 3];
  static short c[N * GY];
  for (int i = 0; i < N * GY + N; i++)
    a[i] = (i * 2654435761u) >> 20;
  for (int i = 0; i < GX + 3; i++)
    b[i] = 1000 + i * 7;
  for (int i = 0; i < N * GY; i++)
    c[i] = (short)(i * 31 - 500);
  cl_kernel k = load("rows_2d");
  cl_mem ma = buf(sizeof a, a), mb = buf(sizeof b, b), mc = buf(sizeof c, c);
  cl_mem o = buf(sizeof got, NULL);
  int n = N;
  ARGS(k, KA(ma), KA(mb), KA(mc), KA(o), KA(n));
  static const size_t shapes[][2] = {{16, 2}, {8, 4}, {4, 8}, {32, 1}};
  for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
    size_t g[2] = {GX, GY};
    memset(got, 0, sizeof got);
    ck_assert_int_eq(clEnqueueWriteBuffer(q, o, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
                     CL_SUCCESS);
    ck_assert_int_eq(run_nd(k, 2, NULL, g, shapes[sh]), CL_COMPLETE);
    rd(o, got, sizeof got);
    for (int y = 0; y < GY; y++)
      for (int x = 0; x < GX; x++) {
        int z = a[(x & 7) == 5 ? y : x + y * N], r = a[(y & 1) ? y * N + x : x + 1];
        int want = a[y * N] + (int)b[x + 3] * 3 + c[y * N + x] * 5 + a[(x * 7) % N + y] * 7 +
                   z * 11 + r * 13;
        ck_assert_msg(got[y * GX + x] == want, "rows_2d local %zux%zu (%d,%d): got %d want %d",
                      shapes[sh][0], shapes[sh][1], x, y, got[y * GX + x], want);
      }
  }
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  clReleaseMemObject(mc);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

/* rows_edge.cl over rows of 32 work-items in work-groups of two rows of
 * half a warp, each warp two segments of a row: a read one past the end
 * in the launch's last row must fault, not read; where a warp's segments
 * read different buffers, each row's values must come from its own. */
START_TEST(k_rows_edge) {
  enum { GX = 32, GY = 4 };
  static int a[GX * GY], b[GX * GY], got[GX * GY];
  for (int i = 0; i < GX * GY; i++)
    a[i] = i * 7 - 100, b[i] = 5000 - i * 3;
  cl_kernel k = load("rows_edge"), k2 = load_opts("rows_edge", "rows_two", "-cl-std=CL3.0");
  cl_mem ma = buf(sizeof a, a), mb = buf(sizeof b, b), o = buf(sizeof got, NULL);
  size_t wm = 0, g[2] = {GX, GY};
  ck_assert_int_eq(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                            sizeof wm, &wm, NULL),
                   CL_SUCCESS);
  size_t l[2] = {wm / 2 < GX ? wm / 2 : GX, 2}; /* the warp width's half */
  for (int past = 0; past < 2; past++) {
    ARGS(k, KA(ma), KA(o), KA(past));
    cl_int want = past ? CL_OUT_OF_RESOURCES : CL_COMPLETE; /* a device exception */
    ck_assert_msg(run_nd(k, 2, NULL, g, l) == want, "rows_edge past %d: not status %d", past, want);
    if (past) break;
    rd(o, got, sizeof got);
    for (int i = 0; i < GX * GY; i++)
      ck_assert_msg(got[i] == a[i], "rows_edge %d: got %d want %d", i, got[i], a[i]);
  }
  ARGS(k2, KA(ma), KA(mb), KA(o));
  ck_assert_int_eq(run_nd(k2, 2, NULL, g, l), CL_COMPLETE);
  rd(o, got, sizeof got);
  for (int i = 0; i < GX * GY; i++) {
    int want = (i / GX) & 1 ? b[i] : a[i];
    ck_assert_msg(got[i] == want, "rows_two %d: got %d want %d", i, got[i], want);
  }
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  clReleaseMemObject(o);
  clReleaseKernel(k);
  clReleaseKernel(k2);
}
END_TEST

/* partial_warps.cl: every third work-item from the first writes nothing,
 * in work-groups of 87 (at W=32 each group's last warp has 23 work-items,
 * and the launch's last one ends at the buffers' end). */
START_TEST(k_partial_warps) {
  enum { N = 957 };
  static int in[N], got[N];
  for (int i = 0; i < N; i++)
    in[i] = i * 13 - 4000;
  for (int i = 0; i < N; i++)
    got[i] = -7 - i;
  cl_kernel k = load("partial_warps");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof got, got);
  ARGS(k, KA(a), KA(o));
  ck_assert_int_eq(run(k, N, 87), CL_COMPLETE);
  rd(o, got, sizeof got);
  for (int i = 0; i < N; i++) {
    int want = i % 3 ? -7 - i + in[i] * 3 : -7 - i;
    ck_assert_msg(got[i] == want, "partial_warps %d: got %d want %d", i, got[i], want);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_atomics) {
  enum { N = 2048, L = 64 };
  int init[4] = {0, -1, 0, 0}, got[4];
  cl_kernel k = load("atomics");
  cl_mem o = buf(sizeof init, init);
  clSetKernelArg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, got, sizeof got);
  ck_assert_int_eq(got[0], N);
  ck_assert_int_eq(got[1], N - 1);
  ck_assert_int_eq(got[2], -(N - 1));
  ck_assert_int_eq(got[3], N);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

typedef struct {
  cl_int a;
  cl_float b;
  cl_int4 v;
} item;

START_TEST(k_constant_struct) {
  enum { N = 100 };
  static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  static item items[N];
  for (int i = 0; i < N; i++)
    items[i] = (item){i, 0.5f * i, {{i, -i, 2 * i, 7}}};
  item kv = {3, 4.0f, {{1, 2, 3, 4}}};
  cl_kernel k = load("constant_struct");
  cl_mem a = buf(sizeof items, items), o = buf(N * 4, NULL);
  clSetKernelArg(k, 0, sizeof a, &a);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof kv, &kv), CL_SUCCESS);
  clSetKernelArg(k, 2, sizeof o, &o);
  ck_assert_int_eq(run(k, N, 0), CL_COMPLETE);
  int got[N];
  rd(o, got, sizeof got);
  for (int g = 0; g < N; g++) {
    const item *it = &items[g];
    int s[4];
    for (int j = 0; j < 4; j++)
      s[j] = it->v.s[j] + kv.v.s[j];
    int want =
        table[g % 8] + it->a * kv.a + (int)(it->b * kv.b) + s[0] + s[1] * 2 + s[2] * 3 + s[3] * 4;
    ck_assert_msg(got[g] == want, "constant_struct gid %d: got %d want %d", g, got[g], want);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_subgroup) {
  enum { N = 256 };
  cl_kernel k = load("subgroup");
  cl_mem o = buf(3 * N * 4, NULL);
  clSetKernelArg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, N, 64), CL_COMPLETE);
  static cl_uint got[3 * N];
  rd(o, got, sizeof got);
  for (unsigned g = 0; g < N; g++) {
    unsigned w0 = g / W * W;
    cl_uint r = 0, s = 0;
    for (unsigned j = w0; j < w0 + W; j++) {
      r += j * 3 + 1;
      if (j <= g) s += j * 3 + 1;
    }
    ck_assert_msg(got[3 * g] == r && got[3 * g + 1] == s && got[3 * g + 2] == w0 * 3 + 1,
                  "subgroup W=%u gid %u: got %u %u %u want %u %u %u", W, g, got[3 * g],
                  got[3 * g + 1], got[3 * g + 2], r, s, w0 * 3 + 1);
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

static int sat(double x, double lo, double hi) {
  return x != x ? 0 : x < lo ? (int)lo : x > hi ? (int)hi : (int)x;
}
START_TEST(k_convert_sat) {
  static const float in[8] = {-300.5f, -2.5f, -0.5f, 0.5f, 1.5f, 2.5f, 254.5f, 70000.25f};
  cl_kernel k = load("convert_sat");
  cl_mem a = buf(sizeof in, in), o = buf(4 * 8 * 4, NULL);
  clSetKernelArg(k, 0, sizeof a, &a);
  clSetKernelArg(k, 1, sizeof o, &o);
  ck_assert_int_eq(run(k, 8, 0), CL_COMPLETE);
  int got[32];
  rd(o, got, sizeof got);
  for (int g = 0; g < 8; g++) {
    double x = in[g];
    int want[4] = {sat(trunc(x), -128, 127), sat(nearbyint(x), 0, 255), (int)floor(x),
                   sat(ceil(x), -32768, 32767)};
    for (int j = 0; j < 4; j++)
      ck_assert_msg(got[4 * g + j] == want[j], "convert_sat x=%g form %d: got %d want %d", x, j,
                    got[4 * g + j], want[j]);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

/* An out-of-bounds store: negative event status, the process lives on, and
 * another buffer is intact. (The stderr report is checked by eye for now.) */
START_TEST(k_fault_oob) {
  enum { N = 64 };
  int other_init[4] = {11, 22, 33, 44}, other[4];
  cl_mem keep = buf(sizeof other_init, other_init);
  cl_kernel k = load("fault_oob");
  cl_mem o = buf(N * 4, NULL);
  int n = N;
  clSetKernelArg(k, 0, sizeof o, &o);
  clSetKernelArg(k, 1, sizeof n, &n);
  ck_assert_int_lt(run(k, N, 32), 0);
  rd(keep, other, sizeof other);
  ck_assert_mem_eq(other, other_init, sizeof other);
  clReleaseMemObject(o);
  clReleaseMemObject(keep);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_workitem_offset) {
  enum { N = 200, L = 40, OFF = 1000 };
  static cl_uint out[10 * N];
  cl_kernel k = load("workitem_offset");
  cl_mem o = buf(sizeof out, NULL);
  arg(k, 0, sizeof o, &o);
  size_t off = OFF, gl = N, lo = L;
  ck_assert_int_eq(run_nd(k, 1, &off, &gl, &lo), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (cl_uint g = 0; g < N; g++) {
    cl_uint w[10] = {OFF + g, g % L, g / L, N, L, N / L, OFF, 1, g, g % L + 100000};
    for (int j = 0; j < 10; j++)
      ck_assert_msg(out[10 * g + j] == w[j], "workitem_offset g %u query %d: %u want %u", g, j,
                    out[10 * g + j], w[j]);
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_workitem_3d) {
  static const size_t off[3] = {3, 5, 7}, gl[3] = {12, 6, 4}, lo[3] = {4, 3, 2};
  enum { T = 12 * 6 * 4 };
  static cl_uint out[8 * T];
  cl_kernel k = load("workitem_3d");
  cl_mem o = buf(sizeof out, NULL);
  arg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run_nd(k, 3, off, gl, lo), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (cl_uint z = 0; z < 4; z++)
    for (cl_uint y = 0; y < 6; y++)
      for (cl_uint x = 0; x < 12; x++) {
        cl_uint lin = x + 12 * (y + 6 * z);
        const cl_uint *r = out + 8 * lin;
        cl_uint w[8] = {(x + 3) | (y + 5) << 8 | (z + 7) << 16,
                        x % 4 | (y % 3) << 8 | (z % 2) << 16,
                        x / 4 | y / 3 << 8 | z / 2 << 16,
                        3 | 2 << 8 | 2 << 16,
                        4 | 3 << 8 | 2 << 16,
                        x % 4 + 4 * (y % 3 + 3 * (z % 2)),
                        3,
                        3 | 5 << 8 | 7 << 16};
        for (int j = 0; j < 8; j++)
          ck_assert_msg(r[j] == w[j], "workitem_3d (%u,%u,%u) query %d: %x want %x", x, y, z, j,
                        r[j], w[j]);
      }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_nonuniform) {
  enum { N = 100, L = 32, G = 4 };
  static cl_uint out[3 * N], sums[G];
  cl_kernel k = load("nonuniform");
  cl_mem o = buf(sizeof out, NULL), s = buf(sizeof sums, NULL);
  arg(k, 0, sizeof o, &o);
  arg(k, 1, sizeof s, &s);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, out, sizeof out);
  rd(s, sums, sizeof sums);
  for (cl_uint g = 0; g < N; g++) {
    ck_assert_uint_eq(out[3 * g], g < 96 ? L : 4);
    ck_assert_uint_eq(out[3 * g + 1], L);
    ck_assert_uint_eq(out[3 * g + 2], G);
  }
  for (cl_uint gr = 0; gr < G; gr++) {
    cl_uint want = 0;
    for (cl_uint g = gr * L; g < N && g < (gr + 1) * L; g++)
      want += g;
    ck_assert_uint_eq(sums[gr], want);
  }
  clReleaseMemObject(o);
  clReleaseMemObject(s);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_reqd_wgs) {
  enum { N = 64 };
  static cl_uint out[N];
  cl_kernel k = load("reqd_wgs");
  size_t cwgs[3];
  ck_assert_int_eq(
      clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwgs, cwgs, NULL),
      CL_SUCCESS);
  ck_assert(cwgs[0] == 16 && cwgs[1] == 1 && cwgs[2] == 1);
  cl_mem o = buf(sizeof out, NULL);
  arg(k, 0, sizeof o, &o);
  size_t gl = N, bad = 32;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &gl, &bad, 0, NULL, NULL),
                   CL_INVALID_WORK_GROUP_SIZE);
  ck_assert_int_eq(run(k, N, 0), CL_COMPLETE); /* local size taken from the attribute */
  rd(o, out, sizeof out);
  for (cl_uint g = 0; g < N; g++)
    ck_assert_uint_eq(out[g], (g / 16) * 16 + 15 - g % 16 + 16000);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

/* Runs an out-only kernel of N ints and compares with ref(g). */
static void check_out(const char *name, int n, size_t local, int (*ref)(int g), int init) {
  static int out[4096], ini[4096];
  for (int i = 0; i < n; i++)
    ini[i] = init;
  cl_kernel k = load(name);
  cl_mem o = buf((size_t)n * 4, ini);
  arg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, (size_t)n, local), CL_COMPLETE);
  rd(o, out, (size_t)n * 4);
  for (int g = 0; g < n; g++)
    ck_assert_msg(out[g] == ref(g), "%s gid %d: got %d want %d", name, g, out[g], ref(g));
  clReleaseMemObject(o);
  clReleaseKernel(k);
}

static int ref_nested(int g) {
  int r = 0;
  if (g & 1) {
    if (g & 2)
      r = (g & 4) ? 1 : 2;
    else {
      r = 3;
      if (g % 3 == 0) r += g % 9 == 0 ? 110 : 9;
    }
  } else if (g & 8)
    r = g % 5 ? 4 : 5;
  else
    r = g % 7 == 0 ? 6 : g % 7 == 1 ? 7 : 8 + (g & 16 ? 1 : 0);
  return r;
}
START_TEST(k_div_nested) {
  check_out("div_nested", 1000, 50, ref_nested, 0);
}
END_TEST

static int ref_loops(int g) {
  int a = 0, n = g % 17;
  while (n > 0) {
    a += n;
    n -= 1 + (g & 3);
  }
  int b = 0, m = g;
  do {
    b++;
    m >>= 1;
  } while (m);
  int c = 0, done = 0;
  for (int i = 0; i < 8 && !done; i++)
    for (int j = 0; j < g % 11; j++) {
      if (j == i + 3) {
        if ((g + i) % 4 == 0) {
          done = 1;
          break;
        }
        continue;
      }
      c += i * j + 1;
    }
  return a + 1000 * b + 100000 * c;
}
START_TEST(k_div_loops) {
  check_out("div_loops", 777, 0, ref_loops, 0);
}
END_TEST

static int ref_switch(int g) {
  int r = g;
  switch (g % 11) {
  case 0: r += 1; /* fall through */
  case 1: r *= 2; break;
  case 2:
  case 3: r -= 7; break;
  case 5: r = -r;    /* fall through */
  case 6: r ^= 0xff; /* fall through */
  case 7: r += 3; break;
  case 9: return 12345;
  default: r = 42;
  }
  return (r & 3) == 0 ? r : r * 10;
}
START_TEST(k_div_switch) {
  check_out("div_switch", 500, 20, ref_switch, 12345);
}
END_TEST

static int ref_early(int g) {
  if (g % 6 == 0) return -1;
  int acc = 0;
  for (int i = 0; i < 20; i++) {
    acc += i ^ g;
    if (acc > 40 + g) return acc;
    if (i == g % 13 && (g & 1)) return -acc;
  }
  return acc * 2;
}
START_TEST(k_div_early_return) {
  check_out("div_early_return", 640, 64, ref_early, 0);
}
END_TEST

static int ref_collatz(int g) {
  unsigned long long n = (unsigned long long)g + 1;
  int s = 0;
  while (n != 1) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    s++;
  }
  return s;
}
START_TEST(k_div_collatz) {
  check_out("div_collatz", 2000, 0, ref_collatz, 0);
}
END_TEST

START_TEST(k_local_static) {
  enum { S = 32 };
  static int in[S * S], out[S * S];
  for (int i = 0; i < S * S; i++)
    in[i] = i * 7 - 300;
  cl_kernel k = load("local_static");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof out, NULL);
  int n = S;
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof o, &o);
  arg(k, 2, sizeof n, &n);
  size_t gl[2] = {S, S}, lo[2] = {8, 8};
  ck_assert_int_eq(run_nd(k, 2, NULL, gl, lo), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int y = 0; y < S; y++)
    for (int x = 0; x < S; x++)
      ck_assert_msg(out[y * S + x] == in[x * S + y], "local_static (%d,%d)", x, y);
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_local_args) {
  enum { N = 480, L = 48 };
  static int in[N];
  static long long out[N];
  for (int i = 0; i < N; i++)
    in[i] = i * 1237 % 50001 - 25000;
  cl_kernel k = load("local_args");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof out, NULL);
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof o, &o);
  arg(k, 2, L * 4, NULL);
  arg(k, 3, L * 8, NULL);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int g = 0; g < N; g++) {
    int base = g - g % L, l = g % L;
    long long nb = in[base + (l + 1) % L];
    long long want = nb * nb - in[base + L - 1 - l] + L;
    ck_assert_msg(out[g] == want, "local_args %d: %lld want %lld", g, out[g], want);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_local_scan) {
  enum { N = 1024, L = 128 };
  static int in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (i * 31) % 17 - 8;
  cl_kernel k = load("local_scan");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof out, NULL);
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof o, &o);
  arg(k, 2, L * 4, NULL);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, out, sizeof out);
  int acc = 0;
  for (int g = 0; g < N; g++) {
    if (g % L == 0) acc = 0;
    acc += in[g];
    ck_assert_msg(out[g] == acc, "local_scan %d: %d want %d", g, out[g], acc);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_barrier_global) {
  enum { N = 512, L = 64 };
  static int out[N];
  cl_kernel k = load("barrier_global");
  cl_mem b = buf(sizeof out, NULL), o = buf(sizeof out, NULL);
  arg(k, 0, sizeof b, &b);
  arg(k, 1, sizeof o, &o);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int g = 0; g < N; g++) {
    int base = g - g % L, l = g % L;
    int v = (base + (l + 1) % L) * 3, pl = (l + L - 1) % L;
    int vp = (base + (pl + 1) % L) * 3;
    ck_assert_msg(out[g] == vp + 1 + v, "barrier_global %d: %d want %d", g, out[g], vp + 1 + v);
  }
  clReleaseMemObject(b);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_atomic_ops) {
  enum { N = 1024 };
  int s0[9] = {0, 0, 0, 0, 1000, -1000, -1, 0, 0};
  cl_uint u0[6] = {0xffffffffu, 0, 0, 0xffffffffu, 0, 0};
  static int old[2 * N];
  float f = -1.0f;
  memcpy(&s0[8], &f, 4);
  cl_kernel k = load("atomic_ops");
  cl_mem s = buf(sizeof s0, s0), u = buf(sizeof u0, u0), o = buf(sizeof old, NULL);
  arg(k, 0, sizeof s, &s);
  arg(k, 1, sizeof u, &u);
  arg(k, 2, sizeof o, &o);
  ck_assert_int_eq(run(k, N, 64), CL_COMPLETE);
  int sg[9];
  cl_uint ug[6];
  rd(s, sg, sizeof sg);
  rd(u, ug, sizeof ug);
  rd(o, old, sizeof old);
  int mn = 1000, mx = -1000;
  cl_uint x = 0, orv = 0;
  for (int g = 0; g < N; g++) {
    int v = g * 7 % 1001 - 500;
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
    x ^= (cl_uint)g;
    orv |= 1u << (g % 29);
  }
  ck_assert_int_eq(sg[0], N * (N - 1) / 2);
  ck_assert_int_eq(sg[1], -N * (N - 1) / 2);
  ck_assert_int_eq(sg[2], N);
  ck_assert_int_eq(sg[3], -N);
  ck_assert_int_eq(sg[4], mn);
  ck_assert_int_eq(sg[5], mx);
  ck_assert_uint_eq(ug[0], 0);
  ck_assert_uint_eq(ug[1], orv);
  ck_assert_uint_eq(ug[2], x);
  ck_assert_uint_eq(ug[3], 5);
  ck_assert_uint_eq(ug[4], 3 * (N - 1));
  ck_assert_uint_eq(ug[5], 2 * N);
  ck_assert_int_eq(sg[7], N);
  /* xchg: the old values and the final value form a permutation of -1..N-1 */
  static char seen[N + 1];
  memset(seen, 0, sizeof seen);
  seen[sg[6] + 1]++;
  for (int g = 0; g < N; g++) {
    ck_assert(old[g] >= -1 && old[g] < N);
    seen[old[g] + 1]++;
  }
  for (int i = 0; i <= N; i++)
    ck_assert_msg(seen[i] == 1, "atomic_xchg value %d seen %d times", i - 1, seen[i]);
  memset(seen, 0, sizeof seen);
  memcpy(&f, &sg[8], 4);
  seen[(int)f + 1]++;
  for (int g = 0; g < N; g++)
    seen[old[N + g] + 1]++;
  for (int i = 0; i <= N; i++)
    ck_assert_msg(seen[i] == 1, "float atomic_xchg value %d seen %d times", i - 1, seen[i]);
  clReleaseMemObject(s);
  clReleaseMemObject(u);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_atom_64) {
  enum { N = 512 };
  long long s0[8] = {0, 0, 0, 0, 0, 0, -1, 0};
  unsigned long long u0[4] = {0, ~0ULL, 0, 0};
  static long long old[N];
  cl_kernel k = load("atom_64");
  cl_mem s = buf(sizeof s0, s0), u = buf(sizeof u0, u0), o = buf(sizeof old, NULL);
  arg(k, 0, sizeof s, &s);
  arg(k, 1, sizeof u, &u);
  arg(k, 2, sizeof o, &o);
  ck_assert_int_eq(run(k, N, 64), CL_COMPLETE);
  long long sg[8];
  unsigned long long ug[4], x = 0;
  rd(s, sg, sizeof sg);
  rd(u, ug, sizeof ug);
  rd(o, old, sizeof old);
  long long sum = (long long)N * (N - 1) / 2;
  for (int g = 0; g < N; g++)
    x ^= (unsigned long long)g << 40;
  ck_assert(sg[0] == sum << 33);
  ck_assert(sg[1] == -(sum << 20));
  ck_assert(sg[2] == N && sg[3] == -N);
  ck_assert(sg[4] == -((long long)(N - 1) << 34));
  ck_assert(sg[5] == (long long)(N - 1) << 35);
  ck_assert(ug[0] == ~0ULL && ug[1] == 0 && ug[2] == x);
  ck_assert(ug[3] == (unsigned long long)(N - 1) << 40);
  ck_assert(sg[7] == (long long)N << 32);
  static char seen[N + 1];
  memset(seen, 0, sizeof seen);
  seen[sg[6] + 1]++;
  for (int g = 0; g < N; g++)
    seen[old[g] + 1]++;
  for (int i = 0; i <= N; i++)
    ck_assert_msg(seen[i] == 1, "atom_xchg value %d seen %d times", i - 1, seen[i]);
  clReleaseMemObject(s);
  clReleaseMemObject(u);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_atomic_local) {
  enum { L = 96, G = 5 };
  static long long out[8 * G];
  cl_kernel k = load("atomic_local");
  cl_mem o = buf(sizeof out, NULL);
  arg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, L * G, L), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int gr = 0; gr < G; gr++) {
    long long *r = out + 8 * gr, gsum = 0;
    int orv = 0;
    for (int l = 0; l < L; l++)
      gsum += (long long)(gr * L + l) << 32, orv |= 1 << (l % 31);
    ck_assert_int_eq(r[0], L * (L - 1) / 2);
    ck_assert_int_eq(r[1], L);
    ck_assert_int_eq(r[2], gr * L + L - 1);
    ck_assert_int_eq(r[3], gr * L);
    ck_assert_int_eq(r[4], orv);
    ck_assert_int_eq(r[5], L);
    ck_assert(r[6] == gsum);
    ck_assert(r[7] == (long long)(L - 1) << 40);
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_atomic_c11) {
  enum { N = 256, L = 64 };
  static int a0[5 + N], out[N];
  long long b0 = 0, bg;
  memset(a0, 0, sizeof a0);
  cl_kernel k = load("atomic_c11");
  cl_mem a = buf(sizeof a0, a0), b = buf(sizeof b0, &b0), o = buf(sizeof out, NULL);
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof b, &b);
  arg(k, 2, sizeof o, &o);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  static int ag[5 + N];
  rd(a, ag, sizeof ag);
  rd(b, &bg, sizeof bg);
  rd(o, out, sizeof out);
  int orv = 0;
  for (int g = 0; g < N; g++)
    orv |= 1 << (g % 31);
  ck_assert_int_eq(ag[0], N * (N - 1) / 2);
  ck_assert_int_eq(ag[1], -N);
  ck_assert_int_eq(ag[2], N - 1);
  ck_assert_int_eq(ag[3], orv);
  ck_assert(bg == (long long)N * (N - 1) / 2 << 32);
  for (int g = 0; g < N; g++) {
    ck_assert_int_eq(out[g], g * 2 + 10000 * L);
    ck_assert_int_eq(ag[5 + g], 0);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

/* The spin lock of the SIMT issue: one work-group per warp, default mode. */
START_TEST(k_atomic_cas) {
  enum { N = 256, L = 64 };
  int a0[3] = {0, 0, -1}, ag[3];
  long long b0 = 0, bg;
  static int out[2 * N];
  cl_kernel k = load("atomic_cas");
  cl_mem a = buf(sizeof a0, a0), b = buf(sizeof b0, &b0), o = buf(sizeof out, NULL);
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof b, &b);
  arg(k, 2, sizeof o, &o);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(a, ag, sizeof ag);
  rd(b, &bg, sizeof bg);
  rd(o, out, sizeof out);
  int mx = 0, winners = 0;
  for (int g = 0; g < N; g++)
    mx = g * 7 % 101 > mx ? g * 7 % 101 : mx;
  ck_assert_int_eq(ag[0], mx);
  ck_assert_int_eq(ag[1], N * (N - 1) / 2);
  ck_assert(bg == (long long)N * (N - 1) / 2 << 33);
  ck_assert(ag[2] >= 0 && ag[2] < N);
  for (int g = 0; g < N; g++) {
    ck_assert_int_eq(out[2 * g], L);
    if (out[2 * g + 1] == -2)
      winners++;
    else
      ck_assert_msg(out[2 * g + 1] == ag[2], "atomic_cas %d saw %d, winner %d", g, out[2 * g + 1],
                    ag[2]);
  }
  ck_assert_int_eq(winners, 1);
  ck_assert_int_eq(out[2 * ag[2] + 1], -2);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_spinlock) {
  enum { G = 4 };
  int zero[G] = {0}, cnt[G];
  cl_kernel k = load("spinlock");
  cl_mem l = buf(sizeof zero, zero), c = buf(sizeof zero, zero);
  arg(k, 0, sizeof l, &l);
  arg(k, 1, sizeof c, &c);
  ck_assert_int_eq(run(k, G * W, W), CL_COMPLETE);
  rd(c, cnt, sizeof cnt);
  for (int gr = 0; gr < G; gr++)
    ck_assert_int_eq(cnt[gr], (int)W);
  clReleaseMemObject(l);
  clReleaseMemObject(c);
  clReleaseKernel(k);
}
END_TEST

typedef struct {
  cl_char tag;
  cl_short s;
  cl_int i;
} inner;
typedef struct {
  inner in[2];
  cl_long l;
  cl_float f[3];
  cl_uchar flags;
  cl_double d;
} outer;

START_TEST(k_struct_ptr) {
  enum { N = 100 };
  static outer p[N], want[N];
  inner lut[4] = {{1, -2, 300}, {-5, 7, -40000}, {127, 32767, 5}, {0, -32768, 1 << 20}};
  for (int i = 0; i < N; i++)
    p[i] = (outer){{{(cl_char)i, (cl_short)(i * 3), i * 1000}, {0, 0, 0}},
                   (cl_long)i << 40,
                   {i * 0.5f, -i * 1.0f, 2.0f},
                   (cl_uchar)(i * 9),
                   i * 0.25};
  memcpy(want, p, sizeof p);
  for (int g = 0; g < N; g++) {
    outer *o = &want[g];
    inner t = lut[g % 4];
    o->in[1] = o->in[0];
    o->in[0] = t;
    o->l += (cl_long)t.i * o->in[1].s;
    for (int k = 0; k < 3; k++)
      o->f[k] = o->f[k] * 2.0f + (float)k;
    o->flags ^= (cl_uchar)t.tag;
    o->d = o->d * 0.5 + (double)o->l;
  }
  cl_kernel k = load("struct_ptr");
  cl_mem a = buf(sizeof p, p), b = buf(sizeof lut, lut);
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof b, &b);
  ck_assert_int_eq(run(k, N, 0), CL_COMPLETE);
  rd(a, p, sizeof p);
  for (int g = 0; g < N; g++) {
    /* field by field: padding bytes are not part of the value */
    int same = 1;
    for (int j = 0; j < 2; j++)
      same &= p[g].in[j].tag == want[g].in[j].tag && p[g].in[j].s == want[g].in[j].s &&
              p[g].in[j].i == want[g].in[j].i;
    ck_assert_msg(same, "struct_ptr in %d: {%d,%d,%d},{%d,%d,%d} want {%d,%d,%d},{%d,%d,%d}", g,
                  p[g].in[0].tag, p[g].in[0].s, p[g].in[0].i, p[g].in[1].tag, p[g].in[1].s,
                  p[g].in[1].i, want[g].in[0].tag, want[g].in[0].s, want[g].in[0].i,
                  want[g].in[1].tag, want[g].in[1].s, want[g].in[1].i);
    ck_assert_msg(p[g].l == want[g].l && p[g].flags == want[g].flags && p[g].d == want[g].d &&
                      memcmp(p[g].f, want[g].f, sizeof p[g].f) == 0,
                  "struct_ptr %d", g);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(k);
}
END_TEST

/* Host mirror of kernels/struct_byval.cl. */
typedef struct {
  float x, y;
} sb_f2;
typedef struct {
  float a;
  sb_f2 p, q;
  float c;
} sb_body;
static sb_f2 sb_rot(sb_f2 v, float s) {
  return (sb_f2){v.y * s, v.x + s};
}
static sb_body sb_step(sb_body b, float dt) {
  b.p = sb_rot(b.q, dt);
  b.q = sb_rot(b.p, b.a);
  b.c += b.p.x;
  return b;
}

START_TEST(k_struct_byval) {
  enum { N = 192, L = 64 };
  static sb_body in[N], out[3 * N], want[3 * N], arr[N][4];
  for (int g = 0; g < N; g++)
    in[g] = (sb_body){g * 0.25f, {g + 1.0f, g + 2.0f}, {g * 0.5f, 3.0f - g}, g * 2.0f};
  for (int g = 0; g < N; g++) {
    sb_body b = in[g];
    for (int k = 0; k < 4; k++) {
      arr[g][k] = b;
      b = sb_step(b, (float)k);
    }
    int j = g % 4;
    arr[g][j].p = sb_rot(arr[g][(j + 1) & 3].q, 0.5f);
    arr[g][(j + 2) & 3].q = arr[g][j].p;
    want[3 * g] = b;
    want[3 * g + 1] = arr[g][j];
    want[3 * g + 1].q = in[(g + 1) % N].p;
  }
  for (int g = 0; g < N; g++) {
    int l = g % L, nx = g - l + (l + 1) % L, j = g % 4;
    want[3 * g + 2] = sb_step(arr[nx][nx % 4], arr[g][(j + 2) & 3].q.x);
  }
  cl_kernel k = load("struct_byval");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof out, NULL);
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof o, &o);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int i = 0; i < 3 * N; i++)
    ck_assert_msg(!memcmp(&out[i], &want[i], sizeof out[i]),
                  "struct_byval out[%d]: {%g {%g %g} {%g %g} %g} want {%g {%g %g} {%g %g} %g}", i,
                  out[i].a, out[i].p.x, out[i].p.y, out[i].q.x, out[i].q.y, out[i].c, want[i].a,
                  want[i].p.x, want[i].p.y, want[i].q.x, want[i].q.y, want[i].c);
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_constant_tables) {
  enum { N = 77 };
  static const short sq[10] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81};
  static const float wt[4] = {0.5f, 0.25f, 0.125f, 2.0f}, cw[2] = {1.5f, -2.0f};
  static const char msg[] = "lockstep";
  int carg[3] = {100, -200, 300};
  static float out[N];
  cl_kernel k = load("constant_tables");
  cl_int err;
  cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof carg, carg, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_mem o = buf(sizeof out, NULL);
  arg(k, 0, sizeof c, &c);
  arg(k, 1, sizeof o, &o);
  ck_assert_int_eq(run(k, N, 0), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int g = 0; g < N; g++) {
    float want = sq[g % 10] * wt[g % 4] + 7 * cw[g & 1] + msg[g % 8] + carg[g % 3];
    ck_assert_msg(out[g] == want, "constant_tables %d: %g want %g", g, out[g], want);
  }
  clReleaseMemObject(c);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_program_global) {
  enum { N = 300 };
  static int out[N];
  cl_kernel k = load("program_global");
  cl_program p;
  clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof p, &p, NULL);
  cl_int err;
  cl_kernel k2 = clCreateKernel(p, "program_global_read", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  size_t total = 0;
  ck_assert_int_eq(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                         sizeof total, &total, NULL),
                   CL_SUCCESS);
  ck_assert_uint_ge(total, 4 + 12);
  cl_mem o = buf(sizeof out, NULL);
  arg(k, 0, sizeof o, &o);
  arg(k2, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, N, 0), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int g = 0; g < N; g++)
    ck_assert_int_eq(out[g], (int)((g % 3 == 0 ? 1 : g % 3 == 1 ? 2 : 4) * 10));
  ck_assert_int_eq(run(k, N, 0), CL_COMPLETE); /* the counter keeps counting */
  ck_assert_int_eq(run(k2, 1, 1), CL_COMPLETE);
  rd(o, out, 8);
  ck_assert_int_eq(out[0], 5 + 2 * N);
  ck_assert_int_eq(out[1], 3);
  clReleaseMemObject(o);
  clReleaseKernel(k2);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_generic_ptr) {
  enum { N = 256, L = 64 };
  static int b0[N + 3], bg[N + 3], out[2 * N];
  for (int i = 0; i < N + 3; i++)
    b0[i] = i * 5 - 7;
  cl_kernel k = load("generic_ptr");
  cl_mem b = buf(sizeof b0, b0), o = buf(sizeof out, NULL);
  arg(k, 0, sizeof b, &b);
  arg(k, 1, sizeof o, &o);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(b, bg, sizeof bg);
  rd(o, out, sizeof out);
  for (int g = 0; g < N; g++) {
    int l = g % L, base = g - l;
    int p = (g & 1) ? b0[g] + b0[g + 1] + b0[g + 2] : g + 3;
    int lc = 0;
    for (int j = 0; j < 3; j++)
      lc += l + j < L ? (base + l + j) * 2 : 0;
    ck_assert_msg(out[2 * g] == p + lc * 1000, "generic_ptr sum %d: %d want %d", g, out[2 * g],
                  p + lc * 1000);
    ck_assert_int_eq(out[2 * g + 1], (g % 3 == 0 ? g * 2 : g % 3 == 1 ? b0[g] : 1) + 1);
  }
  for (int i = 0; i < N + 3; i++)
    ck_assert_int_eq(bg[i], b0[i]);
  clReleaseMemObject(b);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_to_space) {
  enum { N = 128, L = 64 };
  static int b0[N], bg[N], out[3 * N];
  for (int i = 0; i < N; i++)
    b0[i] = i * 3 - 50;
  cl_kernel k = load("to_space");
  cl_mem b = buf(sizeof b0, b0), o = buf(sizeof out, NULL);
  arg(k, 0, sizeof b, &b);
  arg(k, 1, sizeof o, &o);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(b, bg, sizeof bg);
  rd(o, out, sizeof out);
  for (int g = 0; g < N; g++) {
    static const int kinds[4] = {1, 2, 4, 0};
    int want_k = g == 3 ? 1 : kinds[g % 4];
    int want_v = g % 4 == 0 ? b0[g] + 1 : g % 4 == 1 ? g + 10 : g % 4 == 2 ? 107 : g == 3 ? 101 : 0;
    ck_assert_msg(out[3 * g] == want_k, "to_space %d: spaces %d want %d", g, out[3 * g], want_k);
    ck_assert_msg(out[3 * g + 1] == want_v, "to_space %d: value %d want %d", g, out[3 * g + 1],
                  want_v);
    ck_assert_msg(out[3 * g + 2] == 15, "to_space %d: NULL checks %d want 15", g, out[3 * g + 2]);
    ck_assert_int_eq(bg[g], b0[g] + (g % 4 == 0));
  }
  clReleaseMemObject(b);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_vec_types) {
  enum { G = 40 };
  static int in[16 * G], out[24 * G];
  for (int i = 0; i < 16 * G; i++)
    in[i] = (i * 7919) % 2001 - 1000;
  run_io("vec_types", G, 0, in, sizeof in, out, sizeof out);
  for (int g = 0; g < G; g++) {
    const int *v = in + 16 * g, *o = out + 24 * g;
    int w[24];
    w[0] = (signed char)v[0] + (signed char)v[1] * 256;
    w[1] = (short)((short)v[2] * 3) + (short)((short)v[3] * 3) + (short)((short)v[4] * 3);
    int i4[4];
    for (int j = 0; j < 4; j++)
      i4[j] = v[j] + v[15 - j];
    int sw1[4] = {i4[0], i4[0], i4[1], i4[2]}, sw2[4] = {i4[3], i4[2], i4[1], i4[0]};
    for (int j = 0; j < 4; j++)
      w[2 + j] = sw1[j] + sw2[j];
    long long l8[8];
    for (int j = 0; j < 8; j++)
      l8[j] = (long long)v[2 * j] * v[2 * j + 1];
    w[6] = (int)(l8[0] + l8[7] - l8[3]);
    float f[16];
    for (int j = 0; j < 16; j++)
      f[j] = (float)v[j] * 0.5f;
    float dt = f[0] * f[12] + f[1] * f[13] + f[2] * f[14] + f[3] * f[15];
    w[7] = (int)(f[0] + f[15] + dt);
    memcpy(&w[8], &f[3], 4);
    memcpy(&w[9], &f[12], 4);
    static const int lit[4] = {1, 2, 3, 4};
    int e[8];
    for (int j = 0; j < 8; j++)
      e[j] = (j < 4 ? i4[j] : lit[j - 4]) + v[2 * j + 1];
    for (int j = 0; j < 8; j++)
      w[10 + j] = e[7 - j];
    w[18] = -(v[1] > v[4]) + -(v[2] > v[5]) * 2 + -(v[3] > v[6]) * 4;
    unsigned short us[4];
    memcpy(us, v, 8);
    w[19] = us[0] + us[3];
    long long m0 = (long long)v[0] * 8, m1 = (long long)((unsigned long long)(long long)v[1] << 40);
    w[20] = (int)(m0 ^ (m1 >> 32));
    w[21] = v[10] ? v[11] : v[12];
    w[22] = (int)((double)v[8] / 3.0 * 1000.0);
    w[23] = (int)((double)v[9] / 3.0 * 1000.0);
    for (int j = 0; j < 24; j++)
      ck_assert_msg(o[j] == w[j], "vec_types g %d word %d: %d want %d", g, j, o[j], w[j]);
  }
}
END_TEST

START_TEST(k_vec3_mem) {
  enum { N = 50 };
  typedef struct {
    cl_float3 p;
    cl_int id;
  } rec;
  static cl_float3 v[N], vg[N];
  static rec r[N], rg[N];
  static float pk[3 * N], pg[3 * N];
  ck_assert_uint_eq(sizeof(rec), 32);
  for (int i = 0; i < N; i++) {
    v[i] = (cl_float3){{i * 1.0f, i * 2.0f, i * 3.0f, 99.0f}};
    r[i].p = (cl_float3){{-1.0f, -2.0f, -3.0f, 77.0f}};
    r[i].id = i + 1;
    for (int j = 0; j < 3; j++)
      pk[3 * i + j] = (float)(i * 10 + j);
  }
  cl_kernel k = load("vec3_mem");
  cl_mem a = buf(sizeof v, v), b = buf(sizeof r, r), c = buf(sizeof pk, pk);
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof b, &b);
  arg(k, 2, sizeof c, &c);
  ck_assert_int_eq(run(k, N, 0), CL_COMPLETE);
  rd(a, vg, sizeof vg);
  rd(b, rg, sizeof rg);
  rd(c, pg, sizeof pg);
  for (int i = 0; i < N; i++) {
    float x = i * 1.0f, y = i * 2.0f, z = i * 3.0f;
    ck_assert(vg[i].s[0] == z * 2 && vg[i].s[1] == x * 2 && vg[i].s[2] == y * 2);
    ck_assert(rg[i].p.s[0] == x + (float)(i + 1) && rg[i].p.s[2] == z + (float)(i + 1));
    ck_assert_int_eq(rg[i].id, i * 10);
    ck_assert(pg[3 * i] == pk[3 * i] + x && pg[3 * i + 1] == pk[3 * i + 1] + y &&
              pg[3 * i + 2] == pk[3 * i + 2] + z);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(c);
  clReleaseKernel(k);
}
END_TEST

START_TEST(k_subgroup_ops) {
  enum { N = 256, L = 128 };
  static int out[10 * N];
  cl_kernel k = load("subgroup_ops");
  cl_mem o = buf(sizeof out, NULL);
  arg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, out, sizeof out);
  int ns = (int)(L / W);
  for (int g = 0; g < N; g++) {
    int lid = g % L, sg = lid / (int)W, sl = lid % (int)W, w0 = g - sl;
    int any = 0, all = 1, mn = 1 << 30, mx = -(1 << 30), ex = 0, imx = -(1 << 30);
    for (int j = w0; j < w0 + (int)W; j++) {
      int y = (j * 37) % 101 - 50;
      any |= y > 45;
      all &= y > -51;
      mn = y < mn ? y : mn;
      mx = y > mx ? y : mx;
      if (j < g) ex += y;
      if (j <= g) imx = y > imx ? y : imx;
    }
    int nb = w0 + (sl + 1) % (int)W;
    int w[10] = {(int)W | (int)W << 8 | ns << 16,
                 sg | sl << 8 | ns << 16,
                 any,
                 all,
                 mn,
                 mx,
                 ex,
                 imx,
                 (nb * 37) % 101 - 50,
                 ((w0 + 3) * 37) % 101 - 50};
    for (int j = 0; j < 10; j++)
      ck_assert_msg(out[10 * g + j] == w[j], "subgroup_ops W=%u gid %d form %d: %d want %d", W, g,
                    j, out[10 * g + j], w[j]);
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

struct pf {
  cl_kernel k;
};
static void printf_run(void *ud) {
  struct pf *p = ud;
  ck_assert_int_eq(run(p->k, 8, 4), CL_COMPLETE);
  clFinish(q);
}
static int cmp_lines(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}
/* Splits text into lines, sorts them (work-items may interleave), joins. */
static void sort_lines(char *text) {
  char *lines[64];
  int n = 0;
  for (char *t = strtok(text, "\n"); t && n < 64; t = strtok(NULL, "\n"))
    lines[n++] = strdup(t);
  qsort(lines, (size_t)n, sizeof *lines, cmp_lines);
  text[0] = 0;
  for (int i = 0; i < n; i++) {
    strcat(text, lines[i]);
    strcat(text, "\n");
    free(lines[i]);
  }
}
START_TEST(k_printf) {
  float in[8];
  for (int i = 0; i < 8; i++)
    in[i] = (float)i * 1.25f - 3.0f;
  struct pf p = {load_opts("printf_k", "printf_k", "-cl-std=CL3.0")};
  cl_mem a = buf(sizeof in, in);
  arg(p.k, 0, sizeof a, &a);
  static char got[8192], want[8192];
  capture_stdout(printf_run, &p, got, sizeof got);
  size_t n = 0;
  for (int g = 0; g < 8; g++) {
    n +=
        (size_t)snprintf(want + n, sizeof want - n, "item %d: %5.2f %e %x %u %s %c|%-4d|%04d %ld\n",
                         g, (double)in[g], (double)(in[g] * 1000.0f), g * 255, (unsigned)g,
                         g & 1 ? "odd" : "even", 'A' + g, g, g, (long)g << 33);
    n += (size_t)snprintf(want + n, sizeof want - n, "v %d,%d,%d,%d %f,%f %#o %%\n", g, -g, 2 * g,
                          7, (double)in[g], 0.5, g);
  }
  sort_lines(got);
  sort_lines(want);
  ck_assert_str_eq(got, want);
  clReleaseMemObject(a);
  clReleaseKernel(p.k);
}
END_TEST

static Suite *make(void) {
  Suite *s = suite_create("device_kernels");
  TCase *tc = tcase_create("kernels");
  tcase_add_checked_fixture(tc, kh_setup, kh_teardown);
  tcase_set_timeout(tc, 120);
  KH_ADD(tc, k_divergence);
  KH_ADD(tc, k_local_reduce);
  KH_ADD(tc, k_rows_2d);
  KH_ADD(tc, k_rows_edge);
  KH_ADD(tc, k_partial_warps);
  KH_ADD(tc, k_atomics);
  KH_ADD(tc, k_constant_struct);
  KH_ADD(tc, k_subgroup);
  KH_ADD(tc, k_convert_sat);
  KH_ADD(tc, k_fault_oob);
  KH_ADD(tc, k_workitem_offset);
  KH_ADD(tc, k_workitem_3d);
  KH_ADD(tc, k_nonuniform);
  KH_ADD(tc, k_reqd_wgs);
  KH_ADD(tc, k_div_nested);
  KH_ADD(tc, k_div_loops);
  KH_ADD(tc, k_div_switch);
  KH_ADD(tc, k_div_early_return);
  KH_ADD(tc, k_div_collatz);
  KH_ADD(tc, k_local_static);
  KH_ADD(tc, k_local_args);
  KH_ADD(tc, k_local_scan);
  KH_ADD(tc, k_barrier_global);
  KH_ADD(tc, k_atomic_ops);
  KH_ADD(tc, k_atom_64);
  KH_ADD(tc, k_atomic_local);
  KH_ADD(tc, k_atomic_c11);
  KH_ADD(tc, k_atomic_cas);
  KH_ADD(tc, k_spinlock);
  KH_ADD(tc, k_struct_ptr);
  KH_ADD(tc, k_struct_byval);
  KH_ADD(tc, k_constant_tables);
  KH_ADD(tc, k_program_global);
  KH_ADD(tc, k_generic_ptr);
  KH_ADD(tc, k_to_space);
  KH_ADD(tc, k_vec_types);
  KH_ADD(tc, k_vec3_mem);
  KH_ADD(tc, k_subgroup_ops);
  KH_ADD(tc, k_printf);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return kh_main(make);
}
