/*
 * test_kernels_claims.c - each optional feature the device claims in its
 * queries (generic address space, program-scope global variables,
 * non-uniform work-groups, sub-groups with clGetKernelSubGroupInfo and
 * independent forward progress, acq_rel/seq_cst orders and device scope,
 * work-group collective functions),
 * checked end to end: the query says it, and a kernel that needs it runs
 * (kernels/claims.cl). It must not accept a claim the kernels do not back.
 */
#include "kharness.h"

static int has_feature(const char *name) {
  cl_name_version f[64];
  size_t size = 0;
  ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, sizeof f, f, &size),
                   CL_SUCCESS);
  for (size_t i = 0; i < size / sizeof f[0]; i++)
    if (!strcmp(f[i].name, name)) return f[i].version == CL_MAKE_VERSION(3, 0, 0);
  return 0;
}
static cl_bool bool_info(cl_device_info p) {
  cl_bool b = CL_FALSE;
  ck_assert_int_eq(clGetDeviceInfo(dev, p, sizeof b, &b, NULL), CL_SUCCESS);
  return b;
}
static size_t size_info(cl_device_info p) {
  size_t v = 0;
  ck_assert_int_eq(clGetDeviceInfo(dev, p, sizeof v, &v, NULL), CL_SUCCESS);
  return v;
}
static cl_kernel claims(const char *name) {
  char opts[64];
  snprintf(opts, sizeof opts, "-cl-std=CL3.0 -DBIG=%zu",
           size_info(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE));
  return load_opts("claims", name, opts);
}

START_TEST(claim_generic_address_space) {
  enum { N = 128, L = 64 };
  ck_assert(bool_info(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT));
  ck_assert(has_feature("__opencl_c_generic_address_space"));
  static int out[3 * N];
  cl_kernel k = claims("generic_space");
  cl_mem o = buf(sizeof out, NULL);
  arg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (int p = 0; p < N; p++) {
    ck_assert_int_eq(out[3 * p], 2 * p + 1);
    ck_assert_int_eq(out[3 * p + 1], 2 * p + 2);
    ck_assert_int_eq(out[3 * p + 2], 2 * p + 3);
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(claim_program_scope_globals) {
  enum { N = 256 };
  ck_assert(has_feature("__opencl_c_program_scope_global_variables"));
  size_t big = size_info(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
  ck_assert_uint_eq(big, 64u << 10);
  ck_assert_uint_eq(size_info(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE), 1u << 20);
  static unsigned out[N + 1];
  cl_kernel k = claims("global_vars");
  cl_mem o = buf(sizeof out, NULL);
  arg(k, 0, sizeof o, &o);
  for (unsigned launch = 0; launch < 2; launch++) {
    ck_assert_int_eq(run(k, N, 64), CL_COMPLETE);
    rd(o, out, sizeof out);
    for (unsigned g = 0; g < N; g++) {
      unsigned want = 0;
      for (size_t i = g; i < big; i += N) {
        unsigned char v = (unsigned char)(i < 3 ? i + 1 : 0);
        want += launch ? (unsigned char)(v + i) : v;
      }
      ck_assert_msg(out[g] == want, "global_vars launch %u item %u: %u want %u", launch, g, out[g],
                    want);
    }
    ck_assert_uint_eq(out[N], launch); /* the variable kept its value */
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

/* Shape of sub-groups as work-items see them, for a 1-D launch. */
static void check_shape(const unsigned *out, size_t global, size_t local) {
  for (size_t g = 0; g < global; g++) {
    size_t grp = g / local, lid = g % local;
    size_t size = global - grp * local < local ? global - grp * local : local;
    size_t sg = lid / W, rest = size - sg * W;
    ck_assert_msg(out[3 * g] == (rest < W ? rest : W), "item %zu: sub-group size %u", g,
                  out[3 * g]);
    ck_assert_msg(out[3 * g + 1] == (size + W - 1) / W, "item %zu: %u sub-groups", g,
                  out[3 * g + 1]);
    ck_assert_msg(out[3 * g + 2] == (local < W ? local : W), "item %zu: max sub-group size %u", g,
                  out[3 * g + 2]);
  }
}

START_TEST(claim_non_uniform_work_groups) {
  enum { N = 100, L = 48 };
  ck_assert(bool_info(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT));
  static unsigned out[3 * N];
  cl_kernel k = claims("subgroup_shape");
  cl_mem o = buf(sizeof out, NULL);
  arg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(o, out, sizeof out);
  check_shape(out, N, L);
  clReleaseMemObject(o);
  clReleaseKernel(k);
  /* OpenCL C 1.2 programs and -cl-uniform-work-group-size keep uniform groups */
  const char *opts[] = {"-cl-std=CL1.2", "-cl-std=CL3.0 -cl-uniform-work-group-size"};
  for (int i = 0; i < 2; i++) {
    cl_kernel u = load_opts("divergence", "divergence", opts[i]);
    cl_mem a = buf(N * 4, NULL);
    arg(u, 0, sizeof a, &a);
    size_t gs = N, ls = L;
    ck_assert_int_eq(clEnqueueNDRangeKernel(q, u, 1, NULL, &gs, &ls, 0, NULL, NULL),
                     CL_INVALID_WORK_GROUP_SIZE);
    gs = 2 * L; /* a uniform range still runs */
    ck_assert_int_eq(run(u, gs, ls), CL_COMPLETE);
    clReleaseMemObject(a);
    clReleaseKernel(u);
  }
}
END_TEST

typedef cl_int(CL_API_CALL *sg_info_fn)(cl_kernel, cl_device_id, cl_kernel_sub_group_info, size_t,
                                        const void *, size_t, void *, size_t *);

static size_t sg_query(sg_info_fn f, cl_kernel k, cl_kernel_sub_group_info p, size_t in_size,
                       const void *in) {
  size_t v = 12345;
  ck_assert_int_eq(f(k, dev, p, in_size, in, sizeof v, &v, NULL), CL_SUCCESS);
  return v;
}

START_TEST(claim_subgroups) {
  ck_assert(has_feature("__opencl_c_subgroups"));
  char ext[4096];
  ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
  ck_assert_ptr_nonnull(strstr(ext, "cl_khr_subgroups"));
  size_t wg = size_info(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  cl_uint nsg = 0;
  ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof nsg, &nsg, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(nsg, (wg + W - 1) / W);
  cl_platform_id plat;
  clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL);
  sg_info_fn khr = (sg_info_fn)(uintptr_t)clGetExtensionFunctionAddressForPlatform(
      plat, "clGetKernelSubGroupInfoKHR");
  ck_assert_ptr_nonnull((void *)(uintptr_t)khr);
  cl_kernel k = claims("subgroup_shape");
  for (int fi = 0; fi < 2; fi++) {
    sg_info_fn f = fi ? khr : clGetKernelSubGroupInfo;
    /* the answers for a local size match what its work-items see */
    const size_t locals[] = {1, W - 1, W, W + 3, 3 * W, 100};
    for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++) {
      size_t l = locals[i], global = 2 * l;
      size_t mx = sg_query(f, k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof l, &l);
      size_t cnt = sg_query(f, k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof l, &l);
      unsigned *out = calloc(3 * global, sizeof *out);
      cl_mem o = buf(3 * global * sizeof *out, NULL);
      arg(k, 0, sizeof o, &o);
      ck_assert_int_eq(run(k, global, l), CL_COMPLETE);
      rd(o, out, 3 * global * sizeof *out);
      check_shape(out, global, l);
      ck_assert_uint_eq(mx, out[2]);
      ck_assert_uint_eq(cnt, out[1]);
      free(out);
      clReleaseMemObject(o);
    }
    /* two dimensions: the group is linearised into warps */
    size_t l2[2] = {8, 5};
    ck_assert_uint_eq(sg_query(f, k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof l2, l2),
                      (40 + W - 1) / W);
    ck_assert_uint_eq(sg_query(f, k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof l2, l2),
                      40 < W ? 40 : W);
    /* a local size for a sub-group count, which launches that many */
    for (size_t want = 1; want <= 3; want++) {
      size_t ls[3] = {7, 7, 7};
      ck_assert_int_eq(f(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof want, &want,
                         sizeof ls, ls, NULL),
                       CL_SUCCESS);
      ck_assert_uint_eq(ls[0] * ls[1] * ls[2], want * W);
      unsigned out[3 * 3 * 64];
      cl_mem o = buf(sizeof out, NULL);
      arg(k, 0, sizeof o, &o);
      ck_assert_int_eq(run_nd(k, 3, NULL, ls, ls), CL_COMPLETE);
      rd(o, out, sizeof out);
      ck_assert_uint_eq(out[1], want);
      clReleaseMemObject(o);
    }
    size_t too_many = nsg + 1, ls[3] = {7, 7, 7};
    ck_assert_int_eq(f(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof too_many, &too_many,
                       sizeof ls, ls, NULL),
                     CL_SUCCESS);
    ck_assert(ls[0] == 0 && ls[1] == 0 && ls[2] == 0);
    ck_assert_uint_eq(sg_query(f, k, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL), nsg);
    ck_assert_uint_eq(sg_query(f, k, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL), 0);
    /* errors */
    size_t v, l4[4] = {1, 1, 1, 1}, l1 = W;
    ck_assert_int_eq(
        f(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 0, NULL, sizeof v, &v, NULL),
        CL_INVALID_VALUE);
    ck_assert_int_eq(
        f(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof l4, l4, sizeof v, &v, NULL),
        CL_INVALID_VALUE);
    ck_assert_int_eq(
        f(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof l1, &l1, 1, &v, NULL),
        CL_INVALID_VALUE);
    ck_assert_int_eq(f(NULL, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL),
                     CL_INVALID_KERNEL);
    ck_assert_int_eq(f(k, dev, 0x7fff, 0, NULL, sizeof v, &v, NULL), CL_INVALID_VALUE);
  }
  clReleaseKernel(k);
}
END_TEST

START_TEST(claim_independent_forward_progress) {
  ck_assert(bool_info(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS));
  enum { G = 2 };
  size_t L = 4 * W, n = L / W;
  int out[G * 4];
  cl_kernel k = claims("subgroup_progress");
  cl_mem o = buf(sizeof out, NULL);
  arg(k, 0, sizeof o, &o);
  ck_assert_int_eq(run(k, G * L, L), CL_COMPLETE);
  rd(o, out, sizeof out);
  for (size_t g = 0; g < G; g++)
    for (size_t s = 0; s < n; s++)
      ck_assert_int_eq(out[g * n + s], (int)(n - 1 - s));
  clReleaseMemObject(o);
  clReleaseKernel(k);
}
END_TEST

START_TEST(claim_atomic_orders_and_device_scope) {
  enum { N = 1024, L = 64, NG = N / L };
  ck_assert(has_feature("__opencl_c_atomic_order_acq_rel"));
  ck_assert(has_feature("__opencl_c_atomic_order_seq_cst"));
  ck_assert(has_feature("__opencl_c_atomic_scope_device"));
  const cl_device_atomic_capabilities want =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
      CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
      CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
  cl_device_atomic_capabilities caps = 0;
  ck_assert_int_eq(
      clGetDeviceInfo(dev, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof caps, &caps, NULL),
      CL_SUCCESS);
  ck_assert_uint_eq(caps, want);
  ck_assert_int_eq(
      clGetDeviceInfo(dev, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof caps, &caps, NULL),
      CL_SUCCESS);
  ck_assert_uint_eq(caps, want);
  int ctr0[2] = {0, 0}, ctr[2], total = -1;
  static int tickets[N], partial[NG], seen[N];
  cl_kernel k = claims("atomic_device");
  cl_mem c = buf(sizeof ctr0, ctr0), t = buf(sizeof tickets, NULL), p = buf(sizeof partial, NULL),
         s = buf(sizeof total, &total);
  arg(k, 0, sizeof c, &c);
  arg(k, 1, sizeof t, &t);
  arg(k, 2, sizeof p, &p);
  arg(k, 3, sizeof s, &s);
  ck_assert_int_eq(run(k, N, L), CL_COMPLETE);
  rd(c, ctr, sizeof ctr);
  rd(t, tickets, sizeof tickets);
  rd(p, partial, sizeof partial);
  rd(s, &total, sizeof total);
  ck_assert_int_eq(ctr[0], N);
  ck_assert_int_eq(ctr[1], NG);
  memset(seen, 0, sizeof seen);
  for (int g = 0; g < N; g++) {
    ck_assert(tickets[g] >= 0 && tickets[g] < N);
    ck_assert_msg(!seen[tickets[g]]++, "ticket %d handed out twice", tickets[g]);
  }
  for (int grp = 0; grp < NG; grp++)
    ck_assert_int_eq(partial[grp], L * grp * L + L * (L - 1) / 2);
  ck_assert_int_eq(total, N * (N - 1) / 2);
  clReleaseMemObject(c);
  clReleaseMemObject(t);
  clReleaseMemObject(p);
  clReleaseMemObject(s);
  clReleaseKernel(k);
}
END_TEST

START_TEST(claim_work_group_collectives) {
  ck_assert(has_feature("__opencl_c_work_group_collective_functions"));
  cl_kernel k = claims("wg_compact");
  /* one item, a group short of a warp, a warp and a bit, several warps;
   * each launch ends with a smaller (non-uniform) group */
  const size_t locals[] = {1, W - 1, W + 3, 100};
  for (size_t li = 0; li < sizeof locals / sizeof locals[0]; li++) {
    size_t l = locals[li], n = 2 * l + (l + 1) / 2;
    int *in = malloc(n * sizeof *in), *out = malloc(4 * n * sizeof *out);
    for (size_t i = 0; i < n; i++)
      in[i] = (int)((i * 7919u) % 101u) | (i / l == 1 ? 1 : 0); /* group 1: all odd */
    for (size_t i = 0; i < 4 * n; i++)
      out[i] = -1;
    cl_mem bi = buf(n * sizeof *in, in), bo = buf(4 * n * sizeof *out, out);
    arg(k, 0, sizeof bi, &bi);
    arg(k, 1, sizeof bo, &bo);
    ck_assert_int_eq(run(k, n, l), CL_COMPLETE);
    rd(bo, out, 4 * n * sizeof *out);
    for (size_t g0 = 0; g0 < n; g0 += l) {
      size_t end = g0 + l < n ? g0 + l : n, kept = 0;
      for (size_t i = g0; i < end; i++)
        if (in[i] & 1) {
          ck_assert_msg(out[g0 + kept] == in[i], "local %zu: slot %zu holds %d, want %d", l,
                        g0 + kept, out[g0 + kept], in[i]);
          kept++;
        }
      int odd = kept == end - g0 ? 3 : kept ? 2 : 0;
      for (size_t i = g0; i < end; i++) {
        ck_assert_int_eq(out[n + i], (int)kept);
        ck_assert_int_eq(out[2 * n + i], in[g0]);
        ck_assert_int_eq(out[3 * n + i], odd);
      }
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(in);
    free(out);
  }
  clReleaseKernel(k);
}
END_TEST

START_TEST(claim_atomic_scope_all_devices) {
  enum { N = 512 };
  ck_assert(has_feature("__opencl_c_atomic_scope_all_devices"));
  int ctr = 0, macro = 0;
  static int tickets[N], seen[N];
  cl_kernel k = claims("atomic_all_devices");
  cl_mem c = buf(sizeof ctr, &ctr), t = buf(sizeof tickets, NULL), m = buf(sizeof macro, &macro);
  arg(k, 0, sizeof c, &c);
  arg(k, 1, sizeof t, &t);
  arg(k, 2, sizeof m, &m);
  ck_assert_int_eq(run(k, N, 64), CL_COMPLETE);
  rd(c, &ctr, sizeof ctr);
  rd(t, tickets, sizeof tickets);
  rd(m, &macro, sizeof macro);
  ck_assert_int_eq(macro, 1);
  ck_assert_int_eq(ctr, N);
  memset(seen, 0, sizeof seen);
  for (int g = 0; g < N; g++) {
    ck_assert(tickets[g] >= 0 && tickets[g] < N);
    ck_assert_msg(!seen[tickets[g]]++, "ticket %d handed out twice", tickets[g]);
  }
  clReleaseMemObject(c);
  clReleaseMemObject(t);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}
END_TEST

static Suite *make(void) {
  Suite *s = suite_create("device_kernels_claims");
  TCase *tc = tcase_create("claims");
  tcase_add_checked_fixture(tc, kh_setup, kh_teardown);
  tcase_set_timeout(tc, 120);
  KH_ADD(tc, claim_generic_address_space);
  KH_ADD(tc, claim_program_scope_globals);
  KH_ADD(tc, claim_non_uniform_work_groups);
  KH_ADD(tc, claim_subgroups);
  KH_ADD(tc, claim_independent_forward_progress);
  KH_ADD(tc, claim_atomic_orders_and_device_scope);
  KH_ADD(tc, claim_work_group_collectives);
  KH_ADD(tc, claim_atomic_scope_all_devices);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return kh_main(make);
}
