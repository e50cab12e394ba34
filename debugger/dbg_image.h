/*
 * dbg_image.h - images, samplers and texels in the debugger's expressions
 * (dbg_image.c): the hooks the evaluator (dbg_expr.c) and the records for
 * programs (dbg_mi.c) call. Like the evaluator, it reaches memory only
 * through struct dbg_env.
 *
 * An image value is the device address of its struct dev_image
 * (device/image.h), typed as OpenCL C spells it ("read_only image2d_t"); a
 * sampler is the CLK_* bit field ("sampler_t"). img(x, y) is one texel of
 * an image, a value not in memory whose members are its channels; an image
 * and a sampler have members too (img.width, samp.filter_mode).
 */
#ifndef LOCKSTEP_DEBUGGER_DBG_IMAGE_H
#define LOCKSTEP_DEBUGGER_DBG_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "debugger/dbg.h"

/* What dbg_val.names shows an int as. */
enum {
  DBG_NAME_NONE,
  DBG_NAME_ORDER,      /* a channel order: CL_RGBA */
  DBG_NAME_DTYPE,      /* a channel data type: CL_UNORM_INT8 */
  DBG_NAME_NORMALIZED, /* CLK_NORMALIZED_COORDS_TRUE / _FALSE */
  DBG_NAME_ADDRESS,    /* CLK_ADDRESS_CLAMP_TO_EDGE ... */
  DBG_NAME_FILTER,     /* CLK_FILTER_NEAREST / _LINEAR */
};

/* Resolves the name of an image or sampler type (t without qualifiers):
 * "struct opencl_image2d_ro_t *" (as the debug tables spell an image),
 * "read_only image2d_t", "image2d_t" (read_only), "sampler_t". 1 with *v
 * filled, 0 when t is none of them. */
int dbg_image_resolve(const char *t, struct dbg_val *v);

/* Whether v is an image (its type is one). */
int dbg_image_is(const struct dbg_val *v);

/* Formats an image (its type, size and format), a sampler (its fields), a
 * texel (its channels in the image's channel order) or an int shown by
 * name; fmt (a print format letter) shows an image, a sampler or a named
 * int as the number it is. 1 when buf holds the text, 0 when v is none of
 * these (the caller formats it). */
int dbg_image_format(const struct dbg_env *env, const struct dbg_val *v, int fmt, char *buf,
                     size_t len);

/* The texel NAME(c[0], ...) of image img (a loaded value), n coordinates
 * in the image's own order (a layer last); typeonly: only its type (the
 * texel is not read). 0 with *out filled, else an error message in err. */
int dbg_image_texel(const struct dbg_env *env, const char *name, const struct dbg_val *img,
                    const int64_t *c, unsigned n, int typeonly, struct dbg_val *out, char *err,
                    size_t errlen);

/* The member NAME of an image or a sampler (a loaded value) or a texel:
 * 1 with *out filled, -1 with an error message in err, 0 when v is none of
 * them (no member to look for). */
int dbg_image_member(const struct dbg_env *env, const struct dbg_val *v, const char *name,
                     struct dbg_val *out, char *err, size_t errlen);

/* The names of v's members, for front ends that expand a value; returns
 * how many (0 when v is not an image, a sampler or a texel). */
unsigned dbg_image_members(const struct dbg_val *v, const char *const **names);

#endif
