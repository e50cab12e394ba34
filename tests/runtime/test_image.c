/*
 * test_image.c - image objects on the real device: the minimum format list
 * of OpenCL 3.0, creation of every image type with every error code,
 * clGetImageInfo and clGetMemObjectInfo on images, host pointers with
 * pitches, and images that share a buffer's memory.
 */
#include <stdlib.h>
#include <string.h>

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

static const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};
static const cl_image_format rgbaf = {CL_RGBA, CL_FLOAT};

/* clCreateImage expecting expect; returns the image (NULL on error). */
static cl_mem make_in(int line, cl_mem_flags flags, const cl_image_format *f,
                      const cl_image_desc *d, void *host, cl_int expect) {
  cl_int err = 12345;
  cl_mem m = clCreateImage(ctx, flags, f, d, host, &err);
  ck_assert_msg(err == expect, "line %d: got %d, expected %d", line, err, expect);
  if (expect != CL_SUCCESS)
    ck_assert_ptr_null(m);
  else
    ck_assert_ptr_nonnull(m);
  return m;
}
#define make(...) make_in(__LINE__, __VA_ARGS__)

static cl_image_desc desc(cl_mem_object_type t, size_t w, size_t h, size_t d, size_t layers) {
  cl_image_desc x;
  memset(&x, 0, sizeof x);
  x.image_type = t;
  x.image_width = w;
  x.image_height = h;
  x.image_depth = d;
  x.image_array_size = layers;
  return x;
}

/* ---- formats ---- */

static const cl_channel_type all_types[] = {CL_UNORM_INT8,     CL_UNORM_INT16,   CL_SNORM_INT8,
                                            CL_SNORM_INT16,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                            CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                            CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
static const cl_channel_type rw_types[] = {CL_UNORM_INT8,     CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                           CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                           CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};

static bool listed(const cl_image_format *l, cl_uint n, cl_channel_order o, cl_channel_type t) {
  for (cl_uint i = 0; i < n; i++)
    if (l[i].image_channel_order == o && l[i].image_channel_data_type == t) return true;
  return false;
}

static cl_uint formats(cl_mem_flags flags, cl_mem_object_type type, cl_image_format *l) {
  cl_uint n = 0, n2 = 0;
  ck_assert_int_eq(clGetSupportedImageFormats(ctx, flags, type, 0, NULL, &n), CL_SUCCESS);
  ck_assert_uint_le(n, 512);
  ck_assert_int_eq(clGetSupportedImageFormats(ctx, flags, type, n, l, &n2), CL_SUCCESS);
  ck_assert_uint_eq(n, n2);
  return n;
}

/* The minimum lists of the OpenCL 3.0 specification (section 5.3.2.1). */
START_TEST(test_minimum_formats) {
  static const cl_mem_object_type types[] = {
      CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
      CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D};
  static const cl_mem_flags rflags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, 0};
  static cl_image_format l[512];
  for (size_t t = 0; t < 6; t++) {
    for (size_t f = 0; f < 4; f++) {
      cl_uint n = formats(rflags[f], types[t], l);
      const cl_channel_order orders[] = {CL_R, CL_RG, CL_RGBA};
      for (size_t o = 0; o < 3; o++)
        for (size_t i = 0; i < sizeof all_types / sizeof all_types[0]; i++)
          ck_assert_msg(listed(l, n, orders[o], all_types[i]),
                        "type %#x flags %#x: order %#x type %#x missing", types[t],
                        (unsigned)rflags[f], orders[o], all_types[i]);
      ck_assert(listed(l, n, CL_BGRA, CL_UNORM_INT8));
      if (rflags[f] == CL_MEM_READ_ONLY) ck_assert(listed(l, n, CL_sRGBA, CL_UNORM_INT8));
    }
    cl_uint n = formats(CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE, types[t], l);
    for (size_t i = 0; i < sizeof rw_types / sizeof rw_types[0]; i++) {
      ck_assert(listed(l, n, CL_R, rw_types[i]));
      ck_assert(listed(l, n, CL_RGBA, rw_types[i]));
    }
    /* every listed format can be created */
    for (cl_uint i = 0; i < n; i++) {
      cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
      cl_mem m = make(CL_MEM_READ_WRITE, &l[i], &d, NULL, CL_SUCCESS);
      clReleaseMemObject(m);
    }
  }
  /* only num_entries are written; the count is the whole list's */
  cl_uint all = 0, got = 0;
  ck_assert_int_eq(clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &all),
                   CL_SUCCESS);
  memset(l, 0xab, sizeof l);
  ck_assert_int_eq(clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_IMAGE2D, 2, l, &got),
                   CL_SUCCESS);
  ck_assert_uint_eq(got, all);
  ck_assert_uint_eq(l[2].image_channel_order, 0xabababab);
  /* errors */
  ck_assert_int_eq(clGetSupportedImageFormats(NULL, 0, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &got),
                   CL_INVALID_CONTEXT);
  ck_assert_int_eq(
      clGetSupportedImageFormats(ctx, (cl_mem_flags)1 << 40, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &got),
      CL_INVALID_VALUE);
  ck_assert_int_eq(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                              CL_MEM_OBJECT_IMAGE2D, 0, NULL, &got),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_BUFFER, 0, NULL, &got),
                   CL_INVALID_VALUE);
  ck_assert_int_eq(clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_IMAGE2D, 0, l, &got),
                   CL_INVALID_VALUE);
}
END_TEST

/* ---- creation and queries ---- */

static size_t image_size(cl_mem m, cl_image_info what) {
  size_t v = 777;
  size_t n = 0;
  ck_assert_int_eq(clGetImageInfo(m, what, sizeof v, &v, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, sizeof v);
  return v;
}

START_TEST(test_each_type_and_info) {
  static const struct {
    cl_mem_object_type type;
    size_t w, h, d, layers;
    size_t height, depth, array, row, slice, size; /* expected */
  } cases[] = {
      {CL_MEM_OBJECT_IMAGE1D, 7, 0, 0, 0, 0, 0, 0, 7 * 16, 0, 7 * 16},
      {CL_MEM_OBJECT_IMAGE1D_ARRAY, 7, 0, 0, 3, 0, 0, 3, 7 * 16, 7 * 16, 7 * 16 * 3},
      {CL_MEM_OBJECT_IMAGE2D, 7, 5, 0, 0, 5, 0, 0, 7 * 16, 0, 7 * 16 * 5},
      {CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 0, 3, 5, 0, 3, 7 * 16, 7 * 16 * 5, 7 * 16 * 5 * 3},
      {CL_MEM_OBJECT_IMAGE3D, 7, 5, 4, 0, 5, 4, 0, 7 * 16, 7 * 16 * 5, 7 * 16 * 5 * 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cl_image_desc d = desc(cases[i].type, cases[i].w, cases[i].h, cases[i].d, cases[i].layers);
    cl_mem m = make(CL_MEM_READ_ONLY, &rgbaf, &d, NULL, CL_SUCCESS);
    cl_image_format f;
    ck_assert_int_eq(clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, NULL), CL_SUCCESS);
    ck_assert_uint_eq(f.image_channel_order, CL_RGBA);
    ck_assert_uint_eq(f.image_channel_data_type, CL_FLOAT);
    ck_assert_uint_eq(image_size(m, CL_IMAGE_ELEMENT_SIZE), 16);
    ck_assert_uint_eq(image_size(m, CL_IMAGE_WIDTH), 7);
    ck_assert_uint_eq(image_size(m, CL_IMAGE_HEIGHT), cases[i].height);
    ck_assert_uint_eq(image_size(m, CL_IMAGE_DEPTH), cases[i].depth);
    ck_assert_uint_eq(image_size(m, CL_IMAGE_ARRAY_SIZE), cases[i].array);
    ck_assert_uint_eq(image_size(m, CL_IMAGE_ROW_PITCH), cases[i].row);
    ck_assert_uint_eq(image_size(m, CL_IMAGE_SLICE_PITCH), cases[i].slice);
    cl_mem buf = (cl_mem)1;
    ck_assert_int_eq(clGetImageInfo(m, CL_IMAGE_BUFFER, sizeof buf, &buf, NULL), CL_SUCCESS);
    ck_assert_ptr_null(buf);
    cl_uint u = 9;
    ck_assert_int_eq(clGetImageInfo(m, CL_IMAGE_NUM_MIP_LEVELS, sizeof u, &u, NULL), CL_SUCCESS);
    ck_assert_uint_eq(u, 0);
    u = 9;
    ck_assert_int_eq(clGetImageInfo(m, CL_IMAGE_NUM_SAMPLES, sizeof u, &u, NULL), CL_SUCCESS);
    ck_assert_uint_eq(u, 0);
    cl_mem_object_type t;
    ck_assert_int_eq(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    ck_assert_uint_eq(t, cases[i].type);
    size_t size;
    ck_assert_int_eq(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
    ck_assert_uint_eq(size, cases[i].size);
    cl_mem_flags mf;
    ck_assert_int_eq(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof mf, &mf, NULL), CL_SUCCESS);
    ck_assert_uint_eq(mf, CL_MEM_READ_ONLY);
    cl_mem assoc = (cl_mem)1;
    ck_assert_int_eq(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL),
                     CL_SUCCESS);
    ck_assert_ptr_null(assoc);
    /* query errors */
    ck_assert_int_eq(clGetImageInfo(m, CL_IMAGE_WIDTH, 1, &size, NULL), CL_INVALID_VALUE);
    ck_assert_int_eq(clGetImageInfo(m, 0x1234, sizeof size, &size, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(m);
  }
  cl_int err;
  cl_mem b = clCreateBuffer(ctx, 0, 64, NULL, &err);
  size_t w;
  ck_assert_int_eq(clGetImageInfo(b, CL_IMAGE_WIDTH, sizeof w, &w, NULL), CL_INVALID_MEM_OBJECT);
  ck_assert_int_eq(clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof w, &w, NULL), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(b);
  /* the 1.1 entry points and the properties form */
  cl_mem m = clCreateImage2D(ctx, 0, &rgba8, 9, 4, 0, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_uint_eq(image_size(m, CL_IMAGE_HEIGHT), 4);
  clReleaseMemObject(m);
  m = clCreateImage3D(ctx, 0, &rgba8, 9, 4, 3, 0, 0, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_uint_eq(image_size(m, CL_IMAGE_DEPTH), 3);
  clReleaseMemObject(m);
  cl_mem_properties none[] = {0};
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 3, 3, 0, 0);
  m = clCreateImageWithProperties(ctx, none, 0, &rgba8, &d, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_mem_properties got[4];
  size_t n = 99;
  ck_assert_int_eq(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof got, got, &n), CL_SUCCESS);
  ck_assert_uint_eq(n, sizeof(cl_mem_properties));
  clReleaseMemObject(m);
}
END_TEST

START_TEST(test_create_errors) {
  char host[4096];
  cl_int err;
  cl_image_desc d2 = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
  /* context, properties, flags */
  ck_assert_ptr_null(clCreateImage(NULL, 0, &rgba8, &d2, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_CONTEXT);
  cl_mem_properties bad_props[] = {0x4321, 1, 0};
  ck_assert_ptr_null(clCreateImageWithProperties(ctx, bad_props, 0, &rgba8, &d2, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_PROPERTY);
  make(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, &rgba8, &d2, NULL, CL_INVALID_VALUE);
  make(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, &rgba8, &d2, NULL, CL_INVALID_VALUE);
  make(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, &rgba8, &d2, host, CL_INVALID_VALUE);
  make((cl_mem_flags)1 << 40, &rgba8, &d2, NULL, CL_INVALID_VALUE);
  /* formats */
  make(0, NULL, &d2, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_image_format f = {0x1234, CL_UNORM_INT8};
  make(0, &f, &d2, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  f = (cl_image_format){CL_RGBA, 0x1234};
  make(0, &f, &d2, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  f = (cl_image_format){CL_RGBA, CL_UNORM_SHORT_565}; /* 565 is RGB only */
  make(0, &f, &d2, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  /* a valid format the device does not have */
  static const cl_image_format maybe[] = {
      {CL_RGB, CL_UNORM_SHORT_565},  {CL_RGB, CL_UNORM_SHORT_555}, {CL_RGB, CL_UNORM_INT_101010},
      {CL_RGBx, CL_UNORM_SHORT_565}, {CL_ABGR, CL_UNORM_INT8},     {CL_LUMINANCE, CL_SNORM_INT16}};
  bool found = false;
  for (size_t i = 0; i < sizeof maybe / sizeof maybe[0] && !found; i++) {
    if (dev_image_elem_size(maybe[i].image_channel_order, maybe[i].image_channel_data_type) &&
        !dev_image_format_find(maybe[i].image_channel_order, maybe[i].image_channel_data_type)) {
      make(0, &maybe[i], &d2, NULL, CL_IMAGE_FORMAT_NOT_SUPPORTED);
      found = true;
    }
  }
  ck_assert_msg(found, "every candidate format is supported: pick another");
  /* descriptors */
  make(0, &rgba8, NULL, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc d = desc(CL_MEM_OBJECT_BUFFER, 4, 4, 0, 0);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d = desc(CL_MEM_OBJECT_IMAGE2D, 0, 4, 0, 0);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d = desc(CL_MEM_OBJECT_IMAGE2D, 4, 0, 0, 0);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d = desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 0, 0);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d = desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 0);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d = desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, 0);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d = d2;
  d.num_mip_levels = 1;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d = d2;
  d.num_samples = 1;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  /* pitches: only with a host pointer; a row pitch holds a row of whole
   * texels, a slice pitch a slice of whole rows */
  d = d2;
  d.image_row_pitch = 64;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_row_pitch = 12;
  make(CL_MEM_COPY_HOST_PTR, &rgba8, &d, host, CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_row_pitch = 18;
  make(CL_MEM_COPY_HOST_PTR, &rgba8, &d, host, CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc d3 = desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2, 0);
  d = d3;
  d.image_slice_pitch = 256;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_slice_pitch = 48; /* less than 4 rows of 16 bytes */
  make(CL_MEM_COPY_HOST_PTR, &rgba8, &d, host, CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_slice_pitch = 72; /* not a multiple of the row pitch */
  make(CL_MEM_COPY_HOST_PTR, &rgba8, &d, host, CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_slice_pitch = 80;
  clReleaseMemObject(make(CL_MEM_COPY_HOST_PTR, &rgba8, &d, host, CL_SUCCESS));
  /* mem_object: only a buffer, only for 1D buffer and 2D images */
  cl_mem buf = clCreateBuffer(ctx, 0, 1024, NULL, &err);
  d = d3;
  d.mem_object = buf;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 4, 0, 0, 0);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  cl_mem img = make(0, &rgba8, &d2, NULL, CL_SUCCESS);
  d.mem_object = img;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  clReleaseMemObject(img);
  /* sizes */
  cl_ulong max2d = 0, max3d = 0, maxarr = 0, maxbuf = 0;
  size_t s;
  clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof s, &s, NULL);
  max2d = s;
  clGetDeviceInfo(dev, CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof s, &s, NULL);
  max3d = s;
  clGetDeviceInfo(dev, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof s, &s, NULL);
  maxarr = s;
  clGetDeviceInfo(dev, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof s, &s, NULL);
  maxbuf = s;
  d = desc(CL_MEM_OBJECT_IMAGE2D, (size_t)max2d + 1, 1, 0, 0);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_SIZE);
  d = desc(CL_MEM_OBJECT_IMAGE2D, 1, (size_t)max2d + 1, 0, 0);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_SIZE);
  d = desc(CL_MEM_OBJECT_IMAGE1D, (size_t)max2d + 1, 0, 0, 0);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_SIZE);
  d = desc(CL_MEM_OBJECT_IMAGE3D, 1, 1, (size_t)max3d + 1, 0);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_SIZE);
  d = desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 1, 1, 0, (size_t)maxarr + 1);
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_SIZE);
  d = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, (size_t)maxbuf + 1, 0, 0, 0);
  d.mem_object = buf;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_SIZE);
  d = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 257, 0, 0, 0); /* 1028 bytes of a 1024-byte buffer */
  d.mem_object = buf;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_SIZE);
  d = desc(CL_MEM_OBJECT_IMAGE2D, 16, 17, 0, 0); /* 1088 bytes */
  d.mem_object = buf;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_SIZE);
  ck_assert_ptr_null(clCreateImage2D(ctx, 0, &rgba8, 0, 4, 0, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_IMAGE_SIZE);
  ck_assert_ptr_null(clCreateImage3D(ctx, 0, &rgba8, 4, 4, 1, 0, 0, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_IMAGE_SIZE);
  /* host pointers */
  make(CL_MEM_USE_HOST_PTR, &rgba8, &d2, NULL, CL_INVALID_HOST_PTR);
  make(CL_MEM_COPY_HOST_PTR, &rgba8, &d2, NULL, CL_INVALID_HOST_PTR);
  make(0, &rgba8, &d2, host, CL_INVALID_HOST_PTR);
  make(CL_MEM_ALLOC_HOST_PTR, &rgba8, &d2, host, CL_INVALID_HOST_PTR);
  d = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 4, 0, 0, 0);
  d.mem_object = buf;
  make(0, &rgba8, &d, host, CL_INVALID_HOST_PTR);
  clReleaseMemObject(buf);
}
END_TEST

/* The flags of an image made from a buffer: inherited, or compatible. */
/* Rules of the specification the first version broke: the query-only
 * flag, formats the flags do not list, order/type pairs the channel order
 * table forbids, a bad row pitch on a 1D buffer image, and the 1.1 entry
 * points' error for a bad pitch. */
START_TEST(test_create_rules) {
  cl_image_desc d2 = desc(CL_MEM_OBJECT_IMAGE2D, 8, 4, 0, 0);
  make(CL_MEM_KERNEL_READ_AND_WRITE, &rgba8, &d2, NULL, CL_INVALID_VALUE);
  make(CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE, &rgba8, &d2, NULL, CL_INVALID_VALUE);
  /* sRGBA is listed for reading only: creatable read-only, not otherwise. */
  const cl_image_format srgba = {CL_sRGBA, CL_UNORM_INT8};
  clReleaseMemObject(make(CL_MEM_READ_ONLY, &srgba, &d2, NULL, CL_SUCCESS));
  make(CL_MEM_WRITE_ONLY, &srgba, &d2, NULL, CL_IMAGE_FORMAT_NOT_SUPPORTED);
  make(CL_MEM_READ_WRITE, &srgba, &d2, NULL, CL_IMAGE_FORMAT_NOT_SUPPORTED);
  static const cl_image_format bad[] = {
      {CL_BGRA, CL_FLOAT},
      {CL_ARGB, CL_UNORM_INT16},
      {CL_ABGR, CL_SIGNED_INT32},
      {CL_INTENSITY, CL_SIGNED_INT8},
      {CL_LUMINANCE, CL_UNSIGNED_INT16},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    make(CL_MEM_READ_ONLY, &bad[i], &d2, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_image_desc d1 = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 0, 0, 0);
  d1.buffer = buf;
  d1.image_row_pitch = 62; /* not a multiple of the element size */
  make(CL_MEM_READ_ONLY, &rgba8, &d1, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d1.image_row_pitch = 64;
  clReleaseMemObject(make(CL_MEM_READ_ONLY, &rgba8, &d1, NULL, CL_SUCCESS));
  clReleaseMemObject(buf);
  err = 12345;
  ck_assert_ptr_null(clCreateImage2D(ctx, CL_MEM_READ_ONLY, &rgba8, 8, 4, 64, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_IMAGE_SIZE);
  err = 12345;
  ck_assert_ptr_null(clCreateImage3D(ctx, CL_MEM_READ_ONLY, &rgba8, 8, 4, 2, 0, 512, NULL, &err));
  ck_assert_int_eq(err, CL_INVALID_IMAGE_SIZE);
}
END_TEST

START_TEST(test_buffer_flag_rules) {
  cl_int err;
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 0, 0, 0);
  static const struct {
    cl_mem_flags buf, img;
    cl_int expect;
  } cases[] = {
      {CL_MEM_READ_ONLY, CL_MEM_READ_WRITE, CL_INVALID_VALUE},
      {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_INVALID_VALUE},
      {CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, CL_INVALID_VALUE},
      {CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY, CL_INVALID_VALUE},
      {CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_INVALID_VALUE},
      {CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY, CL_INVALID_VALUE},
      {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY, CL_INVALID_VALUE},
      {0, CL_MEM_USE_HOST_PTR, CL_INVALID_VALUE},
      {0, CL_MEM_ALLOC_HOST_PTR, CL_INVALID_VALUE},
      {0, CL_MEM_COPY_HOST_PTR, CL_INVALID_VALUE},
      {CL_MEM_READ_ONLY, 0, CL_SUCCESS},
      {CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_SUCCESS},
      {CL_MEM_HOST_READ_ONLY, 0, CL_SUCCESS},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cl_mem buf = clCreateBuffer(ctx, cases[i].buf, 1024, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    d.mem_object = buf;
    char host[64];
    bool ptr = cases[i].img & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    cl_mem m = make_in(__LINE__ * 1000 + (int)i, cases[i].img, &rgba8, &d, ptr ? host : NULL,
                       cases[i].expect);
    if (m) {
      cl_mem_flags f, bf;
      clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof f, &f, NULL);
      clGetMemObjectInfo(buf, CL_MEM_FLAGS, sizeof bf, &bf, NULL);
      cl_mem_flags acc = CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
      ck_assert_uint_eq(f & acc, cases[i].img & acc ? cases[i].img & acc : bf & acc);
      ck_assert_uint_eq(f & CL_MEM_HOST_READ_ONLY, bf & CL_MEM_HOST_READ_ONLY);
      clReleaseMemObject(m);
    }
    clReleaseMemObject(buf);
  }
}
END_TEST

/* CL_MEM_USE_HOST_PTR keeps the application's memory and pitches;
 * CL_MEM_COPY_HOST_PTR packs a copy. */
START_TEST(test_host_pointers) {
  enum { W = 5, H = 3, PITCH = 32 };
  unsigned char host[PITCH * H];
  for (size_t i = 0; i < sizeof host; i++)
    host[i] = (unsigned char)i;
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  d.image_row_pitch = PITCH;
  cl_mem use = make(CL_MEM_USE_HOST_PTR, &rgba8, &d, host, CL_SUCCESS);
  cl_mem copy = make(CL_MEM_COPY_HOST_PTR, &rgba8, &d, host, CL_SUCCESS);
  ck_assert_uint_eq(image_size(use, CL_IMAGE_ROW_PITCH), PITCH);
  ck_assert_uint_eq(image_size(copy, CL_IMAGE_ROW_PITCH), W * 4);
  void *hp = NULL;
  ck_assert_int_eq(clGetMemObjectInfo(use, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(hp, host);
  ck_assert_int_eq(clGetMemObjectInfo(copy, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
  ck_assert_ptr_null(hp);
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  unsigned char a[W * 4 * H], b[W * 4 * H];
  ck_assert_int_eq(clEnqueueReadImage(q, use, CL_TRUE, origin, region, 0, 0, a, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadImage(q, copy, CL_TRUE, origin, region, 0, 0, b, 0, NULL, NULL),
                   CL_SUCCESS);
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W * 4; x++) {
      ck_assert_uint_eq(a[y * W * 4 + x], host[y * PITCH + x]);
      ck_assert_uint_eq(b[y * W * 4 + x], host[y * PITCH + x]);
    }
  /* a write lands in the application's memory, with its pitch */
  unsigned char px[4] = {1, 2, 3, 4};
  size_t o2[3] = {2, 1, 0}, one[3] = {1, 1, 1};
  ck_assert_int_eq(clEnqueueWriteImage(q, use, CL_TRUE, o2, one, 0, 0, px, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(memcmp(host + PITCH + 8, px, 4), 0);
  clReleaseMemObject(use);
  clReleaseMemObject(copy);
  /* a 1D array and a 3D image copied with the application's slice pitch */
  float src[2 * 8 * 4];
  for (size_t i = 0; i < sizeof src / sizeof src[0]; i++)
    src[i] = (float)i;
  d = desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 1, 0, 0, 2);
  d.image_row_pitch = 16;
  d.image_slice_pitch = 8 * 16; /* layer 1 starts 8 texels in */
  cl_mem arr = make(CL_MEM_COPY_HOST_PTR, &rgbaf, &d, src, CL_SUCCESS);
  ck_assert_uint_eq(image_size(arr, CL_IMAGE_SLICE_PITCH), 16);
  float got[8];
  size_t reg[3] = {1, 2, 1};
  ck_assert_int_eq(clEnqueueReadImage(q, arr, CL_TRUE, origin, reg, 0, 0, got, 0, NULL, NULL),
                   CL_SUCCESS);
  for (int c = 0; c < 4; c++) {
    ck_assert_float_eq(got[c], src[c]);
    ck_assert_float_eq(got[4 + c], src[32 + c]);
  }
  clReleaseMemObject(arr);
  /* the same memory used in place: its slice pitch stays */
  arr = make(CL_MEM_USE_HOST_PTR, &rgbaf, &d, src, CL_SUCCESS);
  ck_assert_uint_eq(image_size(arr, CL_IMAGE_SLICE_PITCH), 8 * 16);
  memset(got, 0, sizeof got);
  ck_assert_int_eq(clEnqueueReadImage(q, arr, CL_TRUE, origin, reg, 0, 0, got, 0, NULL, NULL),
                   CL_SUCCESS);
  for (int c = 0; c < 4; c++)
    ck_assert_float_eq(got[4 + c], src[32 + c]);
  clReleaseMemObject(arr);
}
END_TEST

/* An image made from a buffer uses the buffer's memory. */
START_TEST(test_image_from_buffer) {
  enum { W = 16, H = 8 };
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, W * H * 4, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  unsigned char data[W * H * 4];
  for (size_t i = 0; i < sizeof data; i++)
    data[i] = (unsigned char)(i * 7);
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  d.mem_object = buf;
  cl_mem img = make(0, &rgba8, &d, NULL, CL_SUCCESS);
  d = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, W * H, 0, 0, 0);
  d.mem_object = buf;
  cl_mem img1 = make(0, &rgba8, &d, NULL, CL_SUCCESS);
  /* Counted before any command uses buf: a finished command's own
   * reference may still be on its way out. */
  cl_uint refs;
  clGetMemObjectInfo(buf, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
  ck_assert_uint_eq(refs, 3);
  ck_assert_int_eq(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL),
                   CL_SUCCESS);
  cl_mem assoc = NULL;
  ck_assert_int_eq(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL),
                   CL_SUCCESS);
  ck_assert_ptr_eq(assoc, buf);
  ck_assert_int_eq(clGetImageInfo(img1, CL_IMAGE_BUFFER, sizeof assoc, &assoc, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(assoc, buf);
  /* written through the buffer, read through the images */
  unsigned char got[W * H * 4];
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1}, region1[3] = {W * H, 1, 1};
  ck_assert_int_eq(clEnqueueReadImage(q, img, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(memcmp(got, data, sizeof data), 0);
  memset(got, 0, sizeof got);
  ck_assert_int_eq(clEnqueueReadImage(q, img1, CL_TRUE, origin, region1, 0, 0, got, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(memcmp(got, data, sizeof data), 0);
  /* written through the image, read through the buffer */
  unsigned char px[4] = {9, 8, 7, 6};
  size_t o[3] = {3, 2, 0}, one[3] = {1, 1, 1};
  ck_assert_int_eq(clEnqueueWriteImage(q, img, CL_TRUE, o, one, 0, 0, px, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(memcmp(got + (2 * W + 3) * 4, px, 4), 0);
  /* the images keep the buffer alive */
  clReleaseMemObject(buf);
  ck_assert_int_eq(clEnqueueReadImage(q, img, CL_TRUE, o, one, 0, 0, got, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(memcmp(got, px, 4), 0);
  clReleaseMemObject(img1);
  clReleaseMemObject(img);
}
END_TEST

/* A 2D image from a buffer: its row pitch and base address follow the
 * device's alignments (cl_khr_image2d_from_buffer). */
START_TEST(test_from_buffer_alignment) {
  cl_uint pitch_align = 0, base_align = 0;
  clGetDeviceInfo(dev, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof pitch_align, &pitch_align, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof base_align, &base_align,
                  NULL);
  ck_assert_uint_gt(pitch_align, 1);
  ck_assert_uint_gt(base_align, 1);
  cl_int err;
  size_t elem = 16, w = pitch_align + 1, pitch = 2 * pitch_align * elem;
  cl_mem buf = clCreateBuffer(ctx, 0, pitch * 4, NULL, &err);
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, w, 4, 0, 0);
  d.mem_object = buf;
  /* the packed pitch, w texels, is not a multiple of the alignment */
  make(0, &rgbaf, &d, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  d.image_row_pitch = pitch - elem;
  make(0, &rgbaf, &d, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  d.image_row_pitch = pitch;
  cl_mem img = make(0, &rgbaf, &d, NULL, CL_SUCCESS);
  ck_assert_uint_eq(image_size(img, CL_IMAGE_ROW_PITCH), pitch);
  clReleaseMemObject(img);
  clReleaseMemObject(buf);
  /* the buffer's memory at a misaligned address */
  size_t bytes = pitch * 4 + base_align * elem;
  void *raw = NULL;
  ck_assert_int_eq(posix_memalign(&raw, 4096, bytes), 0);
  char *mem = raw;
  buf = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, pitch * 4, mem + elem, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  d.mem_object = buf;
  make(0, &rgbaf, &d, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  clReleaseMemObject(buf);
  buf = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, pitch * 4, mem + base_align * elem, &err);
  d.mem_object = buf;
  img = make(0, &rgbaf, &d, NULL, CL_SUCCESS);
  void *hp = NULL;
  clGetMemObjectInfo(img, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL);
  ck_assert_ptr_eq(hp, mem + base_align * elem);
  clReleaseMemObject(img);
  clReleaseMemObject(buf);
  clFinish(q);
  free(mem);
}
END_TEST

/* A 2D image made from another 2D image views the same texels through a
 * compatible channel order (cl_khr_image2d_from_image). */
START_TEST(test_image_from_image) {
  enum { W = 5, H = 3 };
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  cl_mem src = make(0, &rgba8, &d, NULL, CL_SUCCESS);
  unsigned char data[H][W][4], got[H][W][4];
  for (size_t i = 0; i < sizeof data; i++)
    ((unsigned char *)data)[i] = (unsigned char)(i * 5 + 1);
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  ck_assert_int_eq(clEnqueueWriteImage(q, src, CL_TRUE, origin, region, 0, 0, data, 0, NULL, NULL),
                   CL_SUCCESS);
  d.mem_object = src;
  cl_image_format srgba = {CL_sRGBA, CL_UNORM_INT8};
  cl_mem view = make(CL_MEM_READ_ONLY, &srgba, &d, NULL, CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadImage(q, view, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(memcmp(data, got, sizeof data), 0);
  cl_mem assoc = NULL;
  ck_assert_int_eq(
      clGetMemObjectInfo(view, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL),
      CL_SUCCESS);
  ck_assert_ptr_eq(assoc, src);
  ck_assert_int_eq(clGetImageInfo(view, CL_IMAGE_BUFFER, sizeof assoc, &assoc, NULL), CL_SUCCESS);
  ck_assert_ptr_null(assoc);
  ck_assert_uint_eq(image_size(view, CL_IMAGE_ROW_PITCH), W * 4);
  /* the same order is a view too; the given row pitch must be the image's */
  d.image_row_pitch = W * 4;
  clReleaseMemObject(make(0, &rgba8, &d, NULL, CL_SUCCESS));
  d.image_row_pitch = W * 8;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  d.image_row_pitch = 0;
  /* a different data type, an incompatible order, another size */
  cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
  make(0, &f, &d, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  f = (cl_image_format){CL_BGRA, CL_UNORM_INT8};
  make(0, &f, &d, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  d.image_width = W - 1;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  d.image_width = W;
  /* access flags as from a buffer */
  make(CL_MEM_USE_HOST_PTR, &rgba8, &d, got, CL_INVALID_VALUE);
  cl_mem ro = make(
      CL_MEM_READ_ONLY, &rgba8,
      &(cl_image_desc){.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H},
      NULL, CL_SUCCESS);
  d.mem_object = ro;
  make(CL_MEM_READ_WRITE, &rgba8, &d, NULL, CL_INVALID_VALUE);
  /* only a 2D image comes from an image */
  cl_image_desc d3 = desc(CL_MEM_OBJECT_IMAGE3D, W, H, 2, 0);
  cl_mem img3 = make(0, &rgba8, &d3, NULL, CL_SUCCESS);
  d.mem_object = img3;
  make(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  /* the view keeps its image alive */
  clReleaseMemObject(src);
  memset(got, 0, sizeof got);
  ck_assert_int_eq(clEnqueueReadImage(q, view, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(memcmp(data, got, sizeof data), 0);
  clReleaseMemObject(view);
  clReleaseMemObject(ro);
  clReleaseMemObject(img3);
}
END_TEST

/* Released images fail validation; a release drops the descriptor too. */
START_TEST(test_release) {
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
  cl_mem m = make(0, &rgba8, &d, NULL, CL_SUCCESS);
  ck_assert_int_eq(clRetainMemObject(m), CL_SUCCESS);
  ck_assert_int_eq(clReleaseMemObject(m), CL_SUCCESS);
  size_t w = 0;
  ck_assert_int_eq(clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof w, &w, NULL), CL_SUCCESS);
  ck_assert_int_eq(clReleaseMemObject(m), CL_SUCCESS);
  ck_assert_int_eq(clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof w, &w, NULL), CL_INVALID_MEM_OBJECT);
}
END_TEST

/* An image of more than one huge page (its storage is a mapping of its
 * own): zero-filled, its last row written and the whole read back, and
 * released. */
START_TEST(test_large_image) {
  const size_t w = 1024, h = 600, n = w * h * 4; /* 2.3 MiB of RGBA8 */
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, w, h, 0, 0);
  cl_mem m = make(0, &rgba8, &d, NULL, CL_SUCCESS);
  unsigned char *row = malloc(w * 4), *back = malloc(n);
  ck_assert(row && back);
  for (size_t i = 0; i < w * 4; i++)
    row[i] = (unsigned char)(i * 7 + 1);
  size_t origin[3] = {0, h - 1, 0}, region[3] = {w, 1, 1}, all[3] = {w, h, 1}, zero[3] = {0};
  ck_assert_int_eq(clEnqueueWriteImage(q, m, CL_TRUE, origin, region, 0, 0, row, 0, NULL, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadImage(q, m, CL_TRUE, zero, all, 0, 0, back, 0, NULL, NULL),
                   CL_SUCCESS);
  for (size_t i = 0; i < n - w * 4; i++)
    ck_assert_msg(back[i] == 0, "byte %zu of the image is %u", i, back[i]);
  ck_assert_int_eq(memcmp(back + n - w * 4, row, w * 4), 0);
  free(row), free(back);
  ck_assert_int_eq(clReleaseMemObject(m), CL_SUCCESS);
}
END_TEST

/* cl_khr_depth_images: CL_DEPTH with CL_UNORM_INT16 and CL_FLOAT for
 * read-only and write-only 2D images and 2D arrays, and for no other type
 * or kernel read-write access. */
START_TEST(test_depth_formats) {
  static const cl_mem_object_type types[] = {
      CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
      CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D};
  static const cl_mem_flags flags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                                       CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE};
  static cl_image_format l[512];
  for (size_t t = 0; t < 6; t++)
    for (size_t f = 0; f < 3; f++) {
      cl_uint n = formats(flags[f], types[t], l);
      bool want =
          f < 2 && (types[t] == CL_MEM_OBJECT_IMAGE2D || types[t] == CL_MEM_OBJECT_IMAGE2D_ARRAY);
      ck_assert_msg(listed(l, n, CL_DEPTH, CL_UNORM_INT16) == want &&
                        listed(l, n, CL_DEPTH, CL_FLOAT) == want,
                    "type %#x flags %#x", types[t], (unsigned)flags[f]);
      ck_assert(!listed(l, n, CL_DEPTH, CL_UNORM_INT8));
    }
  const cl_image_format fl = {CL_DEPTH, CL_FLOAT}, u8 = {CL_DEPTH, CL_UNORM_INT8};
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 3);
  cl_mem m = make(CL_MEM_READ_WRITE, &fl, &d, NULL, CL_SUCCESS);
  size_t es = 0;
  ck_assert_int_eq(clGetImageInfo(m, CL_IMAGE_ELEMENT_SIZE, sizeof es, &es, NULL), CL_SUCCESS);
  ck_assert_uint_eq(es, 4);
  clReleaseMemObject(m);
  d = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
  make(CL_MEM_READ_WRITE, &u8, &d, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  d = desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, 0);
  make(CL_MEM_READ_WRITE, &fl, &d, NULL, CL_IMAGE_FORMAT_NOT_SUPPORTED);
}
END_TEST

int main(void) {
  Suite *s = suite_create("image");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_minimum_formats);
  tcase_add_test(tc, test_depth_formats);
  tcase_add_test(tc, test_each_type_and_info);
  tcase_add_test(tc, test_create_errors);
  tcase_add_test(tc, test_create_rules);
  tcase_add_test(tc, test_buffer_flag_rules);
  tcase_add_test(tc, test_host_pointers);
  tcase_add_test(tc, test_image_from_buffer);
  tcase_add_test(tc, test_from_buffer_alignment);
  tcase_add_test(tc, test_image_from_image);
  tcase_add_test(tc, test_release);
  tcase_add_test(tc, test_large_image);
  suite_add_tcase(s, tc);
  return cu_run(s);
}
