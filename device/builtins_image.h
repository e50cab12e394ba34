/*
 * builtins_image.h - the image builtins of device/builtins_image.c
 * (read_image{f,i,ui}, write_image{f,i,ui}, get_image_*) and the macros that
 * spell their mangled names for the table in device/builtins.c. Only
 * builtins.c and builtins_image.c include this.
 *
 * An image argument register holds the device address of its descriptor
 * (struct dev_image, device/image.h); a sampler register the CLK_* bit
 * field. The arguments of a read are (image, [sampler,] coordinates), of a
 * write (image, coordinates, four channel values), of a query (image);
 * coordinates are 1, 2 or 4 registers as the coordinate vector is.
 */
#ifndef LOCKSTEP_DEVICE_BUILTINS_IMAGE_H
#define LOCKSTEP_DEVICE_BUILTINS_IMAGE_H

#include "device/builtins.h"

/* The image types, as the builtins' mangled names spell them. */
enum bim_type {
  BIM_1D,
  BIM_1D_BUFFER,
  BIM_1D_ARRAY,
  BIM_2D,
  BIM_2D_ARRAY,
  BIM_3D,
  BIM_2D_DEPTH,      /* image2d_depth_t: a CL_DEPTH image2d */
  BIM_2D_ARRAY_DEPTH /* image2d_array_depth_t */
};
/* What a query returns. */
enum bim_query {
  BIM_Q_WIDTH,
  BIM_Q_HEIGHT,
  BIM_Q_DEPTH,
  BIM_Q_ARRAY_SIZE,
  BIM_Q_DIM,
  BIM_Q_DTYPE,
  BIM_Q_ORDER
};

/* A table entry's data: image type, access qualifier (0 read_only, 1
 * write_only, 2 read_write), kind (0 f, 1 i, 2 ui), whether a sampler is
 * passed, whether coordinates are floats, coordinate registers, query. */
#define BIM_D(ty, acc, kind, smp, fc, nc, q)                                                       \
  ((ty) | ((acc) << 4) | ((kind) << 6) | ((smp) << 8) | ((fc) << 9) | ((nc) << 12) | ((q) << 16))
#define BIM_TY(d)    ((d)&15u)
#define BIM_ACC(d)   (((d) >> 4) & 3u)
#define BIM_KIND(d)  (((d) >> 6) & 3u)
#define BIM_SMP(d)   (((d) >> 8) & 1u)
#define BIM_FLOAT(d) (((d) >> 9) & 1u)
#define BIM_NC(d)    (((d) >> 12) & 7u)
#define BIM_Q(d)     (((d) >> 16) & 15u)

#define BIM_ARGS                                                                                   \
  struct simt_lane *ln, uint64_t *res, const uint64_t *arg, unsigned nargs, uint32_t data
void bim_read(BIM_ARGS);
void bim_write(BIM_ARGS);
void bim_query(BIM_ARGS);

/*
 * Table rows, used by builtins.c's second pass over builtins.def (BI is the
 * table's row macro there). T is the type's mangling up to the access
 * qualifier ("14ocl_image2d_"), ic/fc the integer/float coordinate
 * manglings, nc their registers, vi write_imagei's value mangling (S0_ when
 * it repeats ic).
 */
#define BIM_MEM LSI_BI_MEM
#define BIM_RD1(fn, k, T, acc, ty, nc, ic)                                                         \
  BI(fn T #acc ic, 4, 1 + nc, BIM_MEM, BIM_D(ty, ACC_##acc, k, 0, 0, nc, 0), bim_read)
#define BIM_RDS(fn, k, T, ty, nc, c, fl)                                                           \
  BI(fn T "ro11ocl_sampler" c, 4, 2 + nc, BIM_MEM, BIM_D(ty, 0, k, 1, fl, nc, 0), bim_read)
#define ACC_ro 0
#define ACC_wo 1
#define ACC_rw 2
/* reads without a sampler (read_only and read_write images) */
#define BIM_READS(T, ty, nc, ic)                                                                   \
  BIM_RD1("_Z11read_imagef", 0, T, ro, ty, nc, ic)                                                 \
  BIM_RD1("_Z11read_imagei", 1, T, ro, ty, nc, ic)                                                 \
  BIM_RD1("_Z12read_imageui", 2, T, ro, ty, nc, ic)                                                \
  BIM_RD1("_Z11read_imagef", 0, T, rw, ty, nc, ic)                                                 \
  BIM_RD1("_Z11read_imagei", 1, T, rw, ty, nc, ic)                                                 \
  BIM_RD1("_Z12read_imageui", 2, T, rw, ty, nc, ic)
/* reads through a sampler (read_only images), integer and float coordinates */
#define BIM_SAMPLED(T, ty, nc, ic, fc)                                                             \
  BIM_RDS("_Z11read_imagef", 0, T, ty, nc, ic, 0)                                                  \
  BIM_RDS("_Z11read_imagei", 1, T, ty, nc, ic, 0)                                                  \
  BIM_RDS("_Z12read_imageui", 2, T, ty, nc, ic, 0)                                                 \
  BIM_RDS("_Z11read_imagef", 0, T, ty, nc, fc, 1)                                                  \
  BIM_RDS("_Z11read_imagei", 1, T, ty, nc, fc, 1)                                                  \
  BIM_RDS("_Z12read_imageui", 2, T, ty, nc, fc, 1)
#define BIM_WR1(fn, k, T, acc, ty, nc, ic, v)                                                      \
  BI(fn T #acc ic v, 0, 5 + nc, BIM_MEM, BIM_D(ty, ACC_##acc, k, 0, 0, nc, 0), bim_write)
/* writes (write_only and read_write images) */
#define BIM_WRITES(T, ty, nc, ic, vi)                                                              \
  BIM_WR1("_Z12write_imagef", 0, T, wo, ty, nc, ic, "Dv4_f")                                       \
  BIM_WR1("_Z12write_imagei", 1, T, wo, ty, nc, ic, vi)                                            \
  BIM_WR1("_Z13write_imageui", 2, T, wo, ty, nc, ic, "Dv4_j")                                      \
  BIM_WR1("_Z12write_imagef", 0, T, rw, ty, nc, ic, "Dv4_f")                                       \
  BIM_WR1("_Z12write_imagei", 1, T, rw, ty, nc, ic, vi)                                            \
  BIM_WR1("_Z13write_imageui", 2, T, rw, ty, nc, ic, "Dv4_j")
#define BIM_DRS(T, ty, nc, c, fl)                                                                  \
  BI("_Z11read_imagef" T "ro11ocl_sampler" c, 1, 2 + nc, BIM_MEM, BIM_D(ty, 0, 0, 1, fl, nc, 0),   \
     bim_read)
/* a depth image's read_imagef (one float; _ro and _rw without a sampler,
 * _ro through one with integer and float coordinates) and write_imagef (one
 * float value; _wo and _rw) */
#define BIM_DEPTH(T, ty, nc, ic, fc)                                                               \
  BI("_Z11read_imagef" T "ro" ic, 1, 1 + nc, BIM_MEM, BIM_D(ty, 0, 0, 0, 0, nc, 0), bim_read)      \
  BI("_Z11read_imagef" T "rw" ic, 1, 1 + nc, BIM_MEM, BIM_D(ty, 2, 0, 0, 0, nc, 0), bim_read)      \
  BIM_DRS(T, ty, nc, ic, 0)                                                                        \
  BIM_DRS(T, ty, nc, fc, 1)                                                                        \
  BI("_Z12write_imagef" T "wo" ic "f", 0, 2 + nc, BIM_MEM, BIM_D(ty, 1, 0, 0, 0, nc, 0),           \
     bim_write)                                                                                    \
  BI("_Z12write_imagef" T "rw" ic "f", 0, 2 + nc, BIM_MEM, BIM_D(ty, 2, 0, 0, 0, nc, 0), bim_write)
/* one query on the three access qualifiers */
#define BIM_Q3(fn, T, ty, nres, q)                                                                 \
  BI(fn T "ro", nres, 1, BIM_MEM, BIM_D(ty, 0, 0, 0, 0, 0, q), bim_query)                          \
  BI(fn T "wo", nres, 1, BIM_MEM, BIM_D(ty, 1, 0, 0, 0, 0, q), bim_query)                          \
  BI(fn T "rw", nres, 1, BIM_MEM, BIM_D(ty, 2, 0, 0, 0, 0, q), bim_query)
/* the queries every image type has */
#define BIM_QUERIES(T, ty)                                                                         \
  BIM_Q3("_Z15get_image_width", T, ty, 1, BIM_Q_WIDTH)                                             \
  BIM_Q3("_Z27get_image_channel_data_type", T, ty, 1, BIM_Q_DTYPE)                                 \
  BIM_Q3("_Z23get_image_channel_order", T, ty, 1, BIM_Q_ORDER)

#endif
