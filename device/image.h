/*
 * image.h - images on the device: the descriptor an image kernel argument
 * points to, the one table of image formats the device supports, and the
 * texel codec (device/texel.c) shared by the image builtins (device/image.c),
 * the runtime (clEnqueueFillImage, clGetSupportedImageFormats) and the
 * debugger (printing a texel).
 *
 * Layout of an image in device memory: texel (x, y, z) of an image whose
 * descriptor is d starts at  d.data + x * d.elem_size + y * d.pitch[0]
 * + z * d.pitch[1],  where the coordinates are the image's own, arrays
 * included:
 *
 *   IMAGE1D, IMAGE1D_BUFFER  (x)
 *   IMAGE1D_ARRAY            (x, layer)      pitch[0] = image slice pitch
 *   IMAGE2D                  (x, y)
 *   IMAGE2D_ARRAY            (x, y, layer)
 *   IMAGE3D                  (x, y, z)
 *
 * so dims[] holds (width, height or layers, depth or layers) with unused
 * dimensions 1, and every command and builtin addresses texels the same way.
 */
#ifndef LOCKSTEP_DEVICE_IMAGE_H
#define LOCKSTEP_DEVICE_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#define DEV_IMAGE_MAGIC 0x4c53494du /* "LSIM" */

/* The descriptor an image kernel argument holds the device address of. The
 * runtime owns it and maps it read-only for the image's lifetime; the
 * device only reads it. */
struct dev_image {
  uint32_t magic;      /* DEV_IMAGE_MAGIC */
  uint32_t type;       /* CL_MEM_OBJECT_IMAGE* */
  uint32_t order;      /* cl_channel_order */
  uint32_t dtype;      /* cl_channel_type */
  uint32_t elem_size;  /* bytes per texel */
  uint32_t mem_flags;  /* CL_MEM_READ_WRITE / _WRITE_ONLY / _READ_ONLY of the image */
  uint64_t dims[3];    /* size in texels of each coordinate (unused ones 1) */
  uint64_t pitch[2];   /* bytes between successive coordinates 1 and 2 */
  uint64_t data;       /* device address of texel (0, 0, 0) */
  uint64_t width;      /* what the get_image_* builtins report */
  uint64_t height;     /* 0 where the image type has none */
  uint64_t depth;      /* 0 where the image type has none */
  uint64_t array_size; /* 0 unless an array */
};

/* What a format may be used for, as in clGetSupportedImageFormats. */
enum dev_image_use {
  DEV_IMAGE_READ = 1u << 0,       /* read_only kernel argument */
  DEV_IMAGE_WRITE = 1u << 1,      /* write_only kernel argument */
  DEV_IMAGE_READ_WRITE = 1u << 2, /* read_write kernel argument */
};

/* One supported (order, data type) pair. */
struct dev_image_format {
  uint32_t order, dtype;
  uint8_t uses; /* enum dev_image_use */
};

/* The table of every format the device supports (the one source of truth
 * for clGetSupportedImageFormats and for clCreateImage's format check). */
extern const struct dev_image_format dev_image_formats[];
extern const unsigned dev_image_nformats;

/* The entry for (order, dtype), or NULL when the device does not support
 * it. */
const struct dev_image_format *dev_image_format_find(uint32_t order, uint32_t dtype);

/* Bytes per texel of (order, dtype), 0 when the pair is not a valid OpenCL
 * format at all. Number of channels of an order (0 unknown). */
unsigned dev_image_elem_size(uint32_t order, uint32_t dtype);
unsigned dev_image_channels(uint32_t order);

/* The names of a channel order and a data type ("CL_RGBA",
 * "CL_UNORM_INT8"), NULL for a value that is neither. */
const char *dev_image_order_name(uint32_t order);
const char *dev_image_dtype_name(uint32_t dtype);

/* How a kernel reads a data type: 'f' (read_imagef: normalized, half and
 * float types), 'i' (read_imagei: signed integers), 'u' (read_imageui). */
char dev_image_kind(uint32_t dtype);

/*
 * The texel codec. A texel value is four channels in (R, G, B, A) order,
 * each a float ('f' kind) or a 32-bit integer ('i', 'u'): union dev_texel.
 * Decoding fills the channels the order lacks as the specification says
 * (0 for missing R, G, B; 1 or 1.0 for a missing alpha; CL_INTENSITY and
 * CL_LUMINANCE replicate). Encoding converts with the specification's
 * rounding: round to nearest even for normalized types and half, saturation
 * for integer types, sRGB conversion for the sRGB orders.
 */
union dev_texel {
  float f[4];
  int32_t i[4];
  uint32_t u[4];
};

void dev_texel_decode(uint32_t order, uint32_t dtype, const void *src, union dev_texel *out);
void dev_texel_encode(uint32_t order, uint32_t dtype, const union dev_texel *in, void *dst);

/* The border color of CLK_ADDRESS_CLAMP for an order, in the kind of dtype. */
void dev_texel_border(uint32_t order, uint32_t dtype, union dev_texel *out);

/*
 * Sampling (device/sample.c): addressing and filtering as the OpenCL C
 * specification defines them, independent of where texels live. A sampler
 * value is the CLK_* bit field OpenCL C uses (what sampler_t holds on the
 * device and what the runtime passes for a cl_sampler argument).
 */
#define DEV_SAMPLER_NORMALIZED 0x01u /* CLK_NORMALIZED_COORDS_TRUE */
#define DEV_SAMPLER_ADDR_MASK  0x0eu /* CLK_ADDRESS_* */
#define DEV_SAMPLER_NONE       0x00u
#define DEV_SAMPLER_CLAMP_EDGE 0x02u
#define DEV_SAMPLER_CLAMP      0x04u
#define DEV_SAMPLER_REPEAT     0x06u
#define DEV_SAMPLER_MIRROR     0x08u
#define DEV_SAMPLER_NEAREST    0x10u /* CLK_FILTER_NEAREST */
#define DEV_SAMPLER_LINEAR     0x20u /* CLK_FILTER_LINEAR */
/* A read without a sampler behaves as this sampler does. */
#define DEV_SAMPLER_NONE_GIVEN (DEV_SAMPLER_NONE | DEV_SAMPLER_NEAREST)

/* Host pointer of texel (x, y, z), which is inside img->dims, or NULL after
 * the caller reported a fault (the read then stops). */
typedef const void *(*dev_image_fetch_fn)(void *ctx, uint64_t x, uint64_t y, uint64_t z);

enum dev_sample_status {
  DEV_SAMPLE_OK,
  DEV_SAMPLE_FAULT,     /* fetch returned NULL */
  DEV_SAMPLE_OUTSIDE,   /* a coordinate outside the image where the result is
                           undefined (no sampler, or CLK_ADDRESS_NONE) */
  DEV_SAMPLE_UNDEFINED, /* a combination the specification leaves undefined
                           (e.g. LINEAR on an integer image, REPEAT with
                           unnormalized coordinates); out still gets a value */
};

/* One read_image{f,i,ui} call: coordinates as the kernel passed them, in
 * the image's coordinate order (see the top of this file; a layer index is
 * the last coordinate); fc when float_coords, ic otherwise. out is decoded in
 * the kind of the image's data type. */
struct dev_sample_req {
  const struct dev_image *img;
  uint32_t sampler; /* DEV_SAMPLER_NONE_GIVEN when the call has none */
  bool float_coords;
  float fc[3];
  int32_t ic[3];
};
enum dev_sample_status dev_image_sample(const struct dev_sample_req *rq, dev_image_fetch_fn fetch,
                                        void *ctx, union dev_texel *out);

/* Number of coordinates (1..3) of an image type, 0 for a non-image type. */
unsigned dev_image_ncoords(uint32_t type);

#endif
