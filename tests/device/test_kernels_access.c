/*
 * test_kernels_access.c - end-to-end kernels for shapes of memory access
 * and control an engine may run in other ways than one lane at a time:
 * lanes within a window of twice the warp's width (bitonic pairs,
 * butterflies, reversed blocks, under divergence and not), a spread wider
 * than that, reversed reads that end at the last element of a buffer
 * followed by an unmapped page, an if without an else in a long loop,
 * vector loads and stores of each component size (consecutive, spread,
 * under divergence; loads from two buffers, sliding windows and vectors
 * every lane reads at one address), private arrays read after barriers
 * the group's other warps run to, and values that only some of a warp's
 * lanes write, each alike. Each is checked against a host reference.
 */
#include <sys/mman.h>

#include "kharness.h"

enum { LSZ = 64, GROUPS = 4, NIN = 2 * LSZ * GROUPS, NWI = LSZ * GROUPS };

/* What lane lid of group gr reads in each of window.cl's six shapes. */
static long long want(const long long *in, unsigned gr, unsigned lid, unsigned j, int shape) {
  unsigned base = gr * 2 * LSZ, i = ((lid & ~(j - 1)) << 1) | (lid & (j - 1));
  switch (shape) {
  case 0: return in[base + i];
  case 1: return in[base + i + j];
  case 2: return in[base + (lid ^ j)];
  case 3: return in[base + 2 * LSZ - 1 - lid];
  case 4: return lid % 3 ? in[base + (lid ^ (2 * j))] : -1;
  default: return in[base + lid * 5 % (2 * LSZ)];
  }
}

/* window_int or window_long (size bytes per element) for each distance
 * of a bitonic stage within the work-group. */
static void check_window(const char *name, size_t size) {
  static long long in[NIN], out[6 * NWI];
  static int in32[NIN], out32[6 * NWI];
  for (int i = 0; i < NIN; i++)
    in[i] = in32[i] = (int)(i * 2654435761u >> 7) - (1 << 23);
  if (size == 8)
    for (int i = 0; i < NIN; i++)
      in[i] = in[i] * 1000003 + i; /* the high half matters */
  cl_kernel k = load_opts("window", name, "-cl-std=CL3.0");
  cl_mem a = buf(NIN * size, size == 8 ? (void *)in : (void *)in32), o = buf(6 * NWI * size, NULL);
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof o, &o);
  arg(k, 2, 2 * LSZ * size, NULL);
  for (unsigned j = 1; j <= LSZ / 2; j *= 2) {
    arg(k, 3, sizeof j, &j);
    ck_assert_int_eq(run(k, NWI, LSZ), CL_COMPLETE);
    rd(o, size == 8 ? (void *)out : (void *)out32, 6 * NWI * size);
    for (unsigned g = 0; g < NWI; g++)
      for (int s = 0; s < 6; s++) {
        long long got = size == 8 ? out[6 * g + s] : out32[6 * g + s];
        long long w = want(in, g / LSZ, g % LSZ, j, s);
        ck_assert_msg(got == w, "%s j %u work-item %u shape %d: got %lld want %lld", name, j, g, s,
                      got, w);
      }
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}

START_TEST(k_window_int) {
  check_window("window_int", 4);
}
END_TEST

START_TEST(k_window_long) {
  check_window("window_long", 8);
}
END_TEST

/* Reversed reads of a buffer whose last element ends a page with no page
 * after it: a warp reading the last elements must read nothing past
 * them. */
START_TEST(k_window_buffer_end) {
  long pg = sysconf(_SC_PAGESIZE);
  char *map =
      mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(map, MAP_FAILED);
  ck_assert_int_eq(mprotect(map + pg, (size_t)pg, PROT_NONE), 0);
  cl_uint n = (cl_uint)(pg / 4);
  int *in = (int *)map, *out = malloc((size_t)pg);
  ck_assert_ptr_nonnull(out);
  for (cl_uint i = 0; i < n; i++)
    in[i] = (int)(i * 7 + 1);
  cl_int err;
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, (size_t)pg, in, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_mem o = buf((size_t)pg, NULL);
  cl_kernel k = load_opts("window", "window_end", "-cl-std=CL3.0");
  arg(k, 0, sizeof a, &a);
  arg(k, 1, sizeof o, &o);
  arg(k, 2, sizeof n, &n);
  ck_assert_int_eq(run(k, n, LSZ), CL_COMPLETE);
  rd(o, out, (size_t)pg);
  for (cl_uint g = 0; g < n; g++)
    ck_assert_msg(out[g] == in[n - 1 - g], "window_end %u: got %d want %d", g, out[g],
                  in[n - 1 - g]);
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
  free(out);
  munmap(map, 2 * (size_t)pg);
}
END_TEST

/* Long enough for slices to end at every branch point of the loop, with
 * blocks of inputs where whole warps take the if and blocks where they
 * split. */
START_TEST(k_if_then_loop) {
  enum { NI = 1024 };
  static int in[NI], out[NI];
  for (int i = 0; i < NI; i++)
    in[i] = (i / 96) % 2 ? 7 + i % 3 : i % 4 - 1;
  cl_kernel k = load_opts("if_then", "if_then_loop", "-cl-std=CL3.0");
  cl_mem a = buf(sizeof in, in), o = buf(sizeof out, NULL);
  int n = NI;
  ARGS(k, KA(a), KA(o), KA(n));
  ck_assert_int_eq(run(k, NI, 64), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int g = 0; g < NI; g++) {
    int prev = g, want = 0;
    for (int i = 0; i < 600; i++) {
      int v = in[(g + i) % NI];
      if (v > 0) want += prev + i;
      prev = v;
    }
    ck_assert_msg(out[g] == want, "if_then_loop %d: got %d want %d", g, out[g], want);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

/* Each vector type of vec_groups.cl: its size in memory and the bytes a
 * load of it reads (a 3-component vector is 4 components in memory). */
static const struct {
  const char *kernel;
  size_t size, used;
} group_types[] = {
    {"groups_char2", 2, 2},   {"groups_char16", 16, 16},   {"groups_short8", 16, 16},
    {"groups_int3", 16, 12},  {"groups_int4", 16, 16},     {"groups_int16", 64, 64},
    {"groups_long2", 16, 16}, {"groups_long16", 128, 128},
};

/* What work-item g (lane lid) of vec_groups.cl stores in shape s: an
 * element of in or in2, or NULL for zero. */
static const unsigned char *group_want(const unsigned char *in, const unsigned char *in2, size_t sz,
                                       unsigned g, unsigned lid, int s, unsigned n) {
  switch (s) {
  case 0: return in + g * sz;
  case 1: return in + (g * 7 + 3) % n * sz;
  case 2: return lid % 3 ? in + g * sz : NULL;
  case 3: return lid % 3 ? in + (g * 5 + 1) % n * sz : NULL;
  default: return (lid & 1 ? in2 : in) + g * sz;
  }
}

/* Whether out's element (size sz) holds w's first used bytes (past them,
 * a 3-component vector's store may write anything); w NULL: the fill
 * (0xa5) as it was. */
static bool group_elem(const unsigned char *out, const unsigned char *w, size_t sz, size_t used) {
  if (w) return !memcmp(out, w, used);
  for (size_t i = 0; i < sz; i++)
    if (out[i] != 0xa5) return false;
  return true;
}

START_TEST(k_vec_groups) {
  enum { NG = 256, L = 64 };
  static unsigned char in[NG * 128], in2[NG * 128], out[5 * NG * 128], out2[NG * 128],
      out3[NG * 128], fill[NG * 128], zero[128];
  for (size_t i = 0; i < sizeof in; i++)
    in[i] = (unsigned char)(i * 131 + (i >> 7)), in2[i] = (unsigned char)(i * 29 + 5);
  memset(fill, 0xa5, sizeof fill);
  for (size_t t = 0; t < sizeof group_types / sizeof group_types[0]; t++) {
    const char *name = group_types[t].kernel;
    size_t sz = group_types[t].size, used = group_types[t].used;
    cl_uint n = NG;
    cl_kernel k = load_opts("vec_groups", name, "-cl-std=CL3.0");
    cl_mem a = buf(NG * sz, in), b = buf(NG * sz, in2), o = buf(5 * NG * sz, NULL),
           o2 = buf(NG * sz, fill), o3 = buf(NG * sz, fill);
    ARGS(k, KA(a), KA(b), KA(o), KA(o2), KA(o3), KA(n));
    ck_assert_int_eq(run(k, NG, L), CL_COMPLETE);
    rd(o, out, 5 * NG * sz);
    rd(o2, out2, NG * sz);
    rd(o3, out3, NG * sz);
    for (unsigned g = 0; g < NG; g++) {
      for (int s = 0; s < 5; s++) {
        const unsigned char *w = group_want(in, in2, sz, g, g % L, s, n);
        ck_assert_msg(!memcmp(out + (5 * g + s) * sz, w ? w : zero, used),
                      "%s work-item %u shape %d: got %02x.. want %02x..", name, g, s,
                      out[(5 * g + s) * sz], w ? w[0] : 0);
      }
      ck_assert_msg(group_elem(out2 + g * sz, in + (g * 7 + 3) % NG * sz, sz, used),
                    "%s work-item %u consecutive store: got %02x..", name, g, out2[g * sz]);
      ck_assert_msg(group_elem(out3 + g * sz, g % L % 3 ? in + g * sz : NULL, sz, used),
                    "%s work-item %u store under divergence: got %02x..", name, g, out3[g * sz]);
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(o);
    clReleaseMemObject(o2);
    clReleaseMemObject(o3);
    clReleaseKernel(k);
  }
}
END_TEST

/* ways_T of vec_groups.cl: lanes one component apart and lanes at one
 * address, for vectors of 16 chars, 4 ints and 2 longs. */
START_TEST(k_vec_ways) {
  enum { NG = 256, L = 64 };
  static const struct {
    const char *kernel;
    size_t comp, size;
  } types[] = {{"ways_char16", 1, 16}, {"ways_int4", 4, 16}, {"ways_long2", 8, 16}};
  static unsigned char in[NG * 8 + 128], c[3 * 16], out[4 * NG * 16], zero[16];
  for (size_t i = 0; i < sizeof in; i++)
    in[i] = (unsigned char)(i * 37 + 11);
  for (size_t i = 0; i < sizeof c; i++)
    c[i] = (unsigned char)(i * 53 + 7);
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    size_t cs = types[t].comp, sz = types[t].size;
    cl_kernel k = load_opts("vec_groups", types[t].kernel, "-cl-std=CL3.0");
    cl_mem a = buf(sizeof in, in), b = buf(sizeof c, c), o = buf(4 * NG * sz, NULL);
    ARGS(k, KA(a), KA(b), KA(o));
    ck_assert_int_eq(run(k, NG, L), CL_COMPLETE);
    rd(o, out, 4 * NG * sz);
    for (unsigned g = 0; g < NG; g++) {
      bool on = g % L % 3;
      const unsigned char *w[4] = {in + g * cs, c + sz, on ? in + (g + 1) * cs : zero,
                                   on ? c + 2 * sz : zero};
      for (int s = 0; s < 4; s++)
        ck_assert_msg(!memcmp(out + (4 * g + s) * sz, w[s], sz),
                      "%s work-item %u shape %d: got %02x.. want %02x..", types[t].kernel, g, s,
                      out[(4 * g + s) * sz], w[s][0]);
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(o);
    clReleaseKernel(k);
  }
}
END_TEST

/* private_barrier.cl: each work-item's private array keeps its values
 * across barriers while the group's other warps run, in groups of
 * several warps (or one at the widest). */
START_TEST(k_private_barrier) {
  enum { L = 64, NG = 4 };
  static int got[L * NG];
  cl_kernel k = load("private_barrier");
  cl_mem o = buf(sizeof got, NULL);
  for (int n = 0; n < 3; n += 2) {
    ARGS(k, KA(o), ((struct kh_arg){L * sizeof(int), NULL}), KA(n));
    ck_assert_int_eq(run(k, L * NG, L), CL_COMPLETE);
    rd(o, got, sizeof got);
    for (int g = 0; g < L * NG; g++) {
      int lid = g % L, p[16], r = L - 1 - lid; /* the work-item whose value it reads */
      for (int i = 0; i < 16; i++)
        p[(i + n) & 15] = lid * 100 + i;
      int pr[16];
      for (int i = 0; i < 16; i++)
        pr[(i + n) & 15] = r * 100 + i;
      p[(lid * 3) & 15] += pr[(r + n) & 15];
      int want = p[(lid * 7 + n) & 15] * 2 + p[(lid * 3) & 15];
      ck_assert_msg(got[g] == want, "private_barrier n %d work-item %d: got %d want %d", n, g,
                    got[g], want);
    }
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

/* warp_uniform.cl: a value written alike by only some lanes differs
 * between the lanes once they run together again; one every lane writes
 * alike does not. */
START_TEST(k_warp_uniform) {
  enum { L = 64, NG = 4 };
  static uint32_t got[3 * L * NG], mark[L * NG], zero[L * NG];
  static const char *const what[3] = {"if", "loop", "barrier loop"};
  cl_kernel k = load("warp_uniform");
  cl_mem o = buf(sizeof got, NULL);
  for (uint32_t n = 5; n < 100; n += 90) {
    cl_mem m = buf(sizeof zero, zero);
    ARGS(k, KA(o), KA(m), KA(n));
    ck_assert_int_eq(run(k, L * NG, L), CL_COMPLETE);
    rd(o, got, sizeof got);
    rd(m, mark, sizeof mark);
    for (uint32_t g = 0; g < L * NG; g++) {
      uint32_t lid = g % L, want[3] = {lid & 1 ? n * 3 + 1 : n, n, g / L * n};
      for (uint32_t i = 0; i < lid % 5; i++)
        want[1] = want[1] * 2 + 1;
      for (uint32_t kk = 1; kk <= n; kk <<= 1)
        want[2] = want[2] * 3 + kk;
      for (int v = 0; v < 3; v++)
        ck_assert_msg(got[3 * g + v] == want[v],
                      "warp_uniform n %u work-item %u, %s: got %u want %u", n, g, what[v],
                      got[3 * g + v], want[v]);
      ck_assert_uint_eq(mark[g], lid & 1 ? n * 3 + 1 : 0);
    }
    clReleaseMemObject(m);
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

/* warp_uniform.cl's yield_turns: lanes a yield let run ahead meet the
 * others again in another turn of the outer loop, each lane with its own
 * turn's values. */
START_TEST(k_yield_turns) {
  enum { L = 64, NG = 2, N = 6, M = 3 };
  static uint32_t got[L * NG * N], zero[L * NG * N];
  uint32_t n = N, m = M;
  cl_kernel k = load_opts("warp_uniform", "yield_turns", "-cl-std=CL3.0");
  cl_mem o = buf(sizeof zero, zero);
  ARGS(k, KA(o), KA(n), KA(m));
  ck_assert_int_eq(run(k, L * NG, L), CL_COMPLETE);
  rd(o, got, sizeof got);
  for (uint32_t g = 0; g < L * NG; g++)
    for (uint32_t i = 0; i < N; i++) {
      uint32_t lid = g % L, x = i * 64 + N, want = (lid & 16 ? M * (M + 1) / 2 : 0) + 2 * x + lid;
      ck_assert_msg(got[g * N + i] == want, "yield_turns work-item %u turn %u: got %u want %u", g,
                    i, got[g * N + i], want);
    }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

static Suite *make(void) {
  Suite *s = suite_create("device_kernels_access");
  TCase *tc = tcase_create("access");
  tcase_add_checked_fixture(tc, kh_setup, kh_teardown);
  tcase_set_timeout(tc, 120);
  KH_ADD(tc, k_window_int);
  KH_ADD(tc, k_window_long);
  KH_ADD(tc, k_window_buffer_end);
  KH_ADD(tc, k_if_then_loop);
  KH_ADD(tc, k_vec_groups);
  KH_ADD(tc, k_vec_ways);
  KH_ADD(tc, k_private_barrier);
  KH_ADD(tc, k_warp_uniform);
  KH_ADD(tc, k_yield_turns);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return kh_main(make);
}
