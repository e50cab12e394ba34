/*
 * test_sampler.c - sampler objects (creation from arguments and from
 * property lists, every query, retain/release, every error code) and
 * image and sampler kernel arguments (what clSetKernelArg stores, and each
 * CL_INVALID_* case of the specification).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/program.h"
#include "util/check_util.h"

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;

static void setup(void) {
  cu_cl_setup(&dev, &ctx, &q);
}

static void teardown(void) {
  cu_cl_teardown(q, ctx);
}

static const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                           CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                           CL_ADDRESS_MIRRORED_REPEAT};
/* CLK_ADDRESS_* of OpenCL C, in the order of modes[] */
static const uint32_t clk_modes[] = {0, 2, 4, 6, 8};

static void check_info(cl_sampler s, cl_bool norm, cl_addressing_mode a, cl_filter_mode f) {
  cl_bool b = 7;
  cl_addressing_mode am = 0;
  cl_filter_mode fm = 0;
  cl_context c = NULL;
  size_t n = 0;
  ck_assert_int_eq(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof b, &b, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, sizeof b);
  ck_assert_uint_eq(b, norm);
  ck_assert_int_eq(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(am, a);
  ck_assert_int_eq(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL), CL_SUCCESS);
  ck_assert_uint_eq(fm, f);
  ck_assert_int_eq(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(c, ctx);
}

START_TEST(test_create_and_info) {
  cl_int err;
  for (size_t m = 0; m < 5; m++)
    for (cl_bool norm = 0; norm <= 1; norm++)
      for (int lin = 0; lin < 2; lin++) {
        cl_filter_mode f = lin ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;
        cl_sampler s = clCreateSampler(ctx, norm, modes[m], f, &err);
        ck_assert_int_eq(err, CL_SUCCESS);
        check_info(s, norm, modes[m], f);
        size_t n = 99;
        ck_assert_int_eq(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &n), CL_SUCCESS);
        ck_assert_uint_eq(n, 0);
        clReleaseSampler(s);
      }
  /* the properties form: given values, defaults for the rest, and the list
   * itself back */
  cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                   CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_REPEAT, 0};
  cl_sampler s = clCreateSamplerWithProperties(ctx, props, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  check_info(s, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR);
  cl_sampler_properties got[8];
  size_t n = 0;
  ck_assert_int_eq(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof got, got, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, sizeof props);
  ck_assert_int_eq(memcmp(got, props, sizeof props), 0);
  clReleaseSampler(s);
  s = clCreateSamplerWithProperties(ctx, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  check_info(s, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
  ck_assert_int_eq(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof got, got, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, 0);
  clReleaseSampler(s);
  cl_sampler_properties empty[] = {0};
  s = clCreateSamplerWithProperties(ctx, empty, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof got, got, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, sizeof empty);
  cl_sampler_properties nprops[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
  cl_sampler s2 = clCreateSamplerWithProperties(ctx, nprops, &err);
  check_info(s2, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
  clReleaseSampler(s2);
  /* reference counts */
  cl_uint refs = 0;
  ck_assert_int_eq(clRetainSampler(s), CL_SUCCESS);
  ck_assert_int_eq(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(refs, 2);
  ck_assert_int_eq(clReleaseSampler(s), CL_SUCCESS);
  ck_assert_int_eq(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(refs, 1);
  /* the sampler keeps its context alive */
  cl_uint crefs = 0, crefs2 = 0;
  clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof crefs, &crefs, NULL);
  ck_assert_int_eq(clReleaseSampler(s), CL_SUCCESS);
  clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof crefs2, &crefs2, NULL);
  ck_assert_uint_eq(crefs2, crefs - 1);
  ck_assert_int_eq(clRetainSampler(s), CL_INVALID_SAMPLER);
}
END_TEST

START_TEST(test_errors) {
  cl_int err;
  ck_assert_ptr_null(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
  ck_assert_ptr_null(clCreateSampler(ctx, CL_TRUE, 0x1234, CL_FILTER_NEAREST, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x1234, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateSampler(ctx, 2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
  ck_assert_int_eq(err, CL_INVALID_VALUE);
  ck_assert_ptr_null(clCreateSamplerWithProperties(NULL, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
  static const cl_sampler_properties bad[][8] = {
      {0x1234, 1, 0},
      {CL_SAMPLER_FILTER_MODE, 0x1234, 0},
      {CL_SAMPLER_ADDRESSING_MODE, 0x1234, 0},
      {CL_SAMPLER_NORMALIZED_COORDS, 5, 0},
      {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0},
      {CL_SAMPLER_MIP_FILTER_MODE_KHR, CL_FILTER_LINEAR, 0},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err = 0;
    ck_assert_ptr_null(clCreateSamplerWithProperties(ctx, bad[i], &err));
    ck_assert_msg(err == CL_INVALID_VALUE, "list %zu: %d", i, err);
  }
  cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err);
  cl_bool b;
  ck_assert_int_eq(clGetSamplerInfo(s, 0x1234, sizeof b, &b, NULL), CL_INVALID_VALUE);
  ck_assert_int_eq(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, 1, &b, NULL),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clGetSamplerInfo(NULL, CL_SAMPLER_NORMALIZED_COORDS, sizeof b, &b, NULL),
                   CL_INVALID_SAMPLER);
  ck_assert_int_eq(
      clGetSamplerInfo((cl_sampler)ctx, CL_SAMPLER_NORMALIZED_COORDS, sizeof b, &b, NULL),
      CL_INVALID_SAMPLER);
  ck_assert_int_eq(clRetainSampler(NULL), CL_INVALID_SAMPLER);
  ck_assert_int_eq(clReleaseSampler(NULL), CL_INVALID_SAMPLER);
  clReleaseSampler(s);
}
END_TEST

/* ---- kernel arguments ---- */

static const char *arg_src =
    "kernel void k(read_only image2d_t a, write_only image2d_t b, sampler_t s,\n"
    "              read_only image3d_t c, global int *g, image1d_buffer_t d,\n"
    "              read_only image2d_array_t e) {\n"
    "  g[0] = 1;\n"
    "}\n";

static cl_kernel arg_kernel(cl_program *p) {
  cl_int err;
  *p = clCreateProgramWithSource(ctx, 1, &arg_src, NULL, &err);
  ck_assert_int_eq(clBuildProgram(*p, 1, &dev, "", NULL, NULL), CL_SUCCESS);
  cl_kernel k = clCreateKernel(*p, "k", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  return k;
}

static uint64_t slot(cl_kernel k, unsigned i) {
  uint64_t v;
  memcpy(&v, k->argbuf + k->k->args[i].buf_offset, 8);
  return v;
}

static cl_mem image(cl_mem_flags flags, cl_mem_object_type t, cl_mem buffer) {
  cl_image_format f = {CL_RGBA, CL_FLOAT};
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = t;
  d.image_width = d.image_height = d.image_depth = d.image_array_size = 4;
  d.mem_object = buffer;
  cl_int err;
  cl_mem m = clCreateImage(ctx, flags, &f, &d, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  return m;
}

START_TEST(test_image_args) {
  cl_program p;
  cl_kernel k = arg_kernel(&p);
  cl_int err;
  cl_mem rw = image(0, CL_MEM_OBJECT_IMAGE2D, NULL);
  cl_mem ro = image(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, NULL);
  cl_mem wo = image(CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, NULL);
  cl_mem i3 = image(0, CL_MEM_OBJECT_IMAGE3D, NULL);
  cl_mem arr = image(0, CL_MEM_OBJECT_IMAGE2D_ARRAY, NULL);
  cl_mem buf = clCreateBuffer(ctx, 0, 1024, NULL, &err);
  cl_mem ib = image(0, CL_MEM_OBJECT_IMAGE1D_BUFFER, buf);
  /* the slot holds the address of the image's descriptor */
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof rw, &rw), CL_SUCCESS);
  ck_assert_uint_eq(slot(k, 0), rw->image->dev_addr);
  ck_assert_uint_eq(rw->image->dev.magic, DEV_IMAGE_MAGIC);
  ck_assert_uint_eq(rw->image->dev.data, rw->addr);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof ro, &ro), CL_SUCCESS);
  ck_assert_uint_eq(slot(k, 0), ro->image->dev_addr);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof wo, &wo), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof rw, &rw), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 3, sizeof i3, &i3), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 5, sizeof ib, &ib), CL_SUCCESS);
  ck_assert_int_eq(clSetKernelArg(k, 6, sizeof arr, &arr), CL_SUCCESS);
  /* access: read_only takes no write-only image, write_only no read-only one */
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof wo, &wo), CL_INVALID_ARG_VALUE);
  ck_assert_int_eq(clSetKernelArg(k, 1, sizeof ro, &ro), CL_INVALID_ARG_VALUE);
  /* type: the declared image type, and images only */
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof i3, &i3), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clSetKernelArg(k, 3, sizeof rw, &rw), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clSetKernelArg(k, 6, sizeof rw, &rw), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clSetKernelArg(k, 5, sizeof rw, &rw), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof buf, &buf), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clSetKernelArg(k, 4, sizeof rw, &rw), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clSetKernelArg(k, 4, sizeof buf, &buf), CL_SUCCESS);
  cl_mem none = NULL;
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof none, &none), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof rw, NULL), CL_INVALID_ARG_VALUE);
  ck_assert_int_eq(clSetKernelArg(k, 0, 4, &rw), CL_INVALID_ARG_SIZE);
  /* an image of another context */
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_image_format f = {CL_RGBA, CL_FLOAT};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 2, .image_height = 2};
  cl_mem om = clCreateImage(other, 0, &f, &d, NULL, &err);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof om, &om), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(om);
  clReleaseContext(other);
  /* the failed calls left the slot as it was */
  ck_assert_uint_eq(slot(k, 0), ro->image->dev_addr);
  clReleaseKernel(k);
  clReleaseProgram(p);
  cl_mem all[] = {rw, ro, wo, i3, arr, ib, buf};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    clReleaseMemObject(all[i]);
}
END_TEST

START_TEST(test_sampler_args) {
  cl_program p;
  cl_kernel k = arg_kernel(&p);
  cl_int err;
  for (size_t m = 0; m < 5; m++)
    for (cl_bool norm = 0; norm <= 1; norm++)
      for (int lin = 0; lin < 2; lin++) {
        cl_sampler s =
            clCreateSampler(ctx, norm, modes[m], lin ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &err);
        ck_assert_int_eq(clSetKernelArg(k, 2, sizeof s, &s), CL_SUCCESS);
        /* CLK_NORMALIZED_COORDS_TRUE 1, CLK_FILTER_NEAREST 0x10, _LINEAR 0x20 */
        uint64_t want = (uint64_t)norm | clk_modes[m] | (lin ? 0x20u : 0x10u);
        ck_assert_uint_eq(slot(k, 2), want);
        clReleaseSampler(s);
      }
  cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  ck_assert_int_eq(clSetKernelArg(k, 2, 4, &s), CL_INVALID_ARG_SIZE);
  ck_assert_int_eq(clSetKernelArg(k, 2, sizeof s, NULL), CL_INVALID_SAMPLER);
  cl_sampler none = NULL;
  ck_assert_int_eq(clSetKernelArg(k, 2, sizeof none, &none), CL_INVALID_SAMPLER);
  cl_mem buf = clCreateBuffer(ctx, 0, 64, NULL, &err);
  ck_assert_int_eq(clSetKernelArg(k, 2, sizeof buf, &buf), CL_INVALID_SAMPLER);
  ck_assert_int_eq(clSetKernelArg(k, 0, sizeof s, &s), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clSetKernelArg(k, 4, sizeof s, &s), CL_INVALID_MEM_OBJECT);
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_sampler os = clCreateSampler(other, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  ck_assert_int_eq(clSetKernelArg(k, 2, sizeof os, &os), CL_INVALID_SAMPLER);
  clReleaseSampler(os);
  clReleaseContext(other);
  clReleaseSampler(s);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
END_TEST

/* A launch keeps its image arguments alive: released right after the
 * enqueue, the image stays valid until the launch completed. */
START_TEST(test_launch_keeps_images) {
  cl_program p;
  cl_kernel k = arg_kernel(&p);
  cl_int err;
  cl_mem a = image(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, NULL);
  cl_mem b = image(CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, NULL);
  cl_mem c = image(0, CL_MEM_OBJECT_IMAGE3D, NULL);
  cl_mem e = image(0, CL_MEM_OBJECT_IMAGE2D_ARRAY, NULL);
  cl_mem g = clCreateBuffer(ctx, 0, 1024, NULL, &err);
  cl_mem d = image(0, CL_MEM_OBJECT_IMAGE1D_BUFFER, g);
  cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  cl_mem args[] = {a, b, NULL, c, g, d, e};
  for (cl_uint i = 0; i < 7; i++)
    ck_assert_int_eq(i == 2 ? clSetKernelArg(k, i, sizeof s, &s)
                            : clSetKernelArg(k, i, sizeof args[i], &args[i]),
                     CL_SUCCESS);
  /* held by a user event, the launch is the only holder of the image */
  cl_event gate = clCreateUserEvent(ctx, &err);
  size_t one = 1;
  cl_event ev;
  ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 1, &gate, &ev), CL_SUCCESS);
  clReleaseMemObject(a);
  clSetKernelArg(k, 0, sizeof e, &e); /* fails (wrong type); the launch has its own copy */
  cl_uint refs = 0;
  ck_assert_int_eq(clGetMemObjectInfo(a, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                   CL_SUCCESS);
  ck_assert_uint_eq(refs, 1);
  clSetUserEventStatus(gate, CL_COMPLETE);
  ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
  clReleaseEvent(ev);
  clReleaseEvent(gate);
  int out = 0;
  ck_assert_int_eq(clEnqueueReadBuffer(q, g, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(out, 1);
  /* the kernel's own argument still names a: the launch dropped its
   * reference, the kernel never took one (as for buffers) */
  clReleaseSampler(s);
  cl_mem all[] = {b, c, e, d, g};
  for (size_t i = 0; i < 5; i++)
    clReleaseMemObject(all[i]);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("sampler");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_create_and_info);
  tcase_add_test(tc, test_errors);
  tcase_add_test(tc, test_image_args);
  tcase_add_test(tc, test_sampler_args);
  tcase_add_test(tc, test_launch_keeps_images);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
