/*
 * builtins_image.c - the OpenCL C image builtins (see device/builtins_image.h
 * and the calling convention in device/builtins.h): read_image{f,i,ui} with
 * and without a sampler, write_image{f,i,ui} and the get_image_* queries, for
 * every image type and access qualifier.
 *
 * An image argument is the device address of its descriptor (struct
 * dev_image); the descriptor and every texel are read and written through
 * the SIMT engine's checked accesses, like buffers. Addressing, filtering
 * and the texel formats belong to device/sample.c and device/texel.c: this
 * file only finds texels and checks what the specification leaves
 * undefined (a bad descriptor, a write outside the image, a read outside it
 * without a sampler or with CLK_ADDRESS_NONE, a sampler combination the
 * specification does not define, the wrong builtin for the channel data
 * type, writing a read-only image or reading a write-only one). Each is a
 * device exception naming the image argument and the coordinates, or, with
 * LOCKSTEP_FAULTS=report, a report once per source line after which the
 * read returns zeros and the write is dropped. Nothing here keeps state.
 */
#include "device/builtins_image.h"

#include <CL/cl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "device/image.h"
#include "device/simt_int.h"

/* The CL_MEM_OBJECT_* type of each enum bim_type. */
static const uint32_t cl_type[] = {
    [BIM_1D] = CL_MEM_OBJECT_IMAGE1D,
    [BIM_1D_BUFFER] = CL_MEM_OBJECT_IMAGE1D_BUFFER,
    [BIM_1D_ARRAY] = CL_MEM_OBJECT_IMAGE1D_ARRAY,
    [BIM_2D] = CL_MEM_OBJECT_IMAGE2D,
    [BIM_2D_ARRAY] = CL_MEM_OBJECT_IMAGE2D_ARRAY,
    [BIM_3D] = CL_MEM_OBJECT_IMAGE3D,
    [BIM_2D_DEPTH] = CL_MEM_OBJECT_IMAGE2D,
    [BIM_2D_ARRAY_DEPTH] = CL_MEM_OBJECT_IMAGE2D_ARRAY,
};

/* Whether a builtin's image type is a depth one (image2d_depth_t,
 * image2d_array_depth_t): those take CL_DEPTH images and only those. */
static bool bim_depth(uint32_t data) {
  return BIM_TY(data) == BIM_2D_DEPTH || BIM_TY(data) == BIM_2D_ARRAY_DEPTH;
}

static const char kind_char[3] = {'f', 'i', 'u'};
static const char *const read_name[3] = {"read_imagef", "read_imagei", "read_imageui"};
static const char *const write_name[3] = {"write_imagef", "write_imagei", "write_imageui"};

/* One call: the lane, its image argument and the descriptor it names. */
struct bim_call {
  struct simt_lane *ln;
  uint64_t addr; /* the descriptor's device address */
  struct dev_image img;
  unsigned ncoords;
};

/* Reports an undefined image access: a device exception, or with
 * LOCKSTEP_FAULTS=report a note once per source line (the caller then goes
 * on with zeros / a dropped write). */
static void bim_fault(struct simt_lane *ln, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void bim_fault(struct simt_lane *ln, const char *fmt, ...) {
  char msg[sizeof(((struct dev_exception *)0)->message)];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (ln->cu->run->report_faults)
    simt_note(ln->cu, ln->w, ln->lane, ln->pc, LSI_TRAP_IMAGE, msg);
  else
    simt_fault(ln->cu, ln->w, ln->lane, ln->pc, LSI_TRAP_IMAGE, 0, "%s", msg);
}

/* "image 'name' (argument j)": the kernel argument holding this descriptor. */
static void image_name(const struct simt_lane *ln, uint64_t addr, char *buf, size_t n) {
  const struct simt_run *run = ln->cu->run;
  const struct lsi_kernel *k = run->k;
  for (uint32_t j = 0; j < k->nargs; j++) {
    const struct lsi_arg *a = &k->args[j];
    if (a->kind != LSI_ARG_IMAGE) continue;
    uint64_t v;
    memcpy(&v, run->l->argbuf + a->buf_offset, 8);
    if (v == addr) {
      snprintf(buf, n, "image '%s' (argument %u)", a->name && *a->name ? a->name : "?", j);
      return;
    }
  }
  snprintf(buf, n, "the image at 0x%016" PRIx64, addr);
}

/* "(x, y)" of the first n coordinates, integer or float. */
static void coord_str(const uint64_t *c, unsigned n, bool fl, char *buf, size_t len) {
  size_t at = 0;
  for (unsigned i = 0; i < n && at < len; i++)
    at += (size_t)(fl ? snprintf(buf + at, len - at, "%s%g", i ? ", " : "(", (double)f32(c[i]))
                      : snprintf(buf + at, len - at, "%s%" PRId32, i ? ", " : "(",
                                 (int32_t)(uint32_t)c[i]));
  if (at < len) snprintf(buf + at, len - at, ")");
}

/* "64 x 32" (arrays: "64 x 5 layers"). */
static void size_str(const struct bim_call *c, char *buf, size_t len) {
  size_t at = 0;
  for (unsigned i = 0; i < c->ncoords && at < len; i++)
    at += (size_t)snprintf(buf + at, len - at, "%s%" PRIu64, i ? " x " : "", c->img.dims[i]);
  uint32_t t = c->img.type;
  if (at < len && (t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY))
    snprintf(buf + at, len - at, " layers");
}

static const char *dtype_name(uint32_t t) {
  const char *n = dev_image_dtype_name(t);
  return n ? n : "an unknown channel data type";
}

/* Reads and checks the descriptor arg names for a builtin of data's image
 * type; false after reporting a fault. */
static bool bim_open(struct bim_call *c, struct simt_lane *ln, uint64_t addr, uint32_t data,
                     const char *what) {
  c->ln = ln;
  c->addr = addr;
  char name[160];
  struct dev_mem_entry *e = dev_mem_entry(ln->cu->run->mem, addr);
  uint64_t off = LSI_ADDR_OFFSET(addr);
  unsigned sp = LSI_ADDR_SPACE(addr);
  if (!e || (sp != LSI_SPACE_GLOBAL && sp != LSI_SPACE_CONSTANT) ||
      atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE || off > e->size ||
      e->size - off < sizeof(struct dev_image)) {
    image_name(ln, addr, name, sizeof name);
    bim_fault(ln, "%s on %s: not a live image (descriptor address 0x%016" PRIx64 ")", what, name,
              addr);
    return false;
  }
  memcpy(&c->img, e->host + off, sizeof c->img);
  const struct dev_image *d = &c->img;
  c->ncoords = dev_image_ncoords(d->type);
  unsigned es = dev_image_elem_size(d->order, d->dtype);
  bool ok = d->magic == DEV_IMAGE_MAGIC && BIM_TY(data) < sizeof cl_type / sizeof cl_type[0] &&
            d->type == cl_type[BIM_TY(data)] && c->ncoords && es && es == d->elem_size &&
            dev_image_kind(d->dtype) != 0;
  for (unsigned i = 0; ok && i < 3; i++)
    ok = d->dims[i] >= 1 && (i < c->ncoords || d->dims[i] == 1);
  if (!ok) {
    image_name(ln, addr, name, sizeof name);
    bim_fault(ln, "%s on %s: bad image descriptor at 0x%016" PRIx64, what, name, addr);
    return false;
  }
  if (bim_depth(data) != (d->order == CL_DEPTH)) {
    image_name(ln, addr, name, sizeof name);
    const char *on = dev_image_order_name(d->order);
    bim_fault(ln, "%s of %s on %s of channel order %s: undefined", what,
              bim_depth(data) ? "a depth image type" : "a non-depth image type", name,
              on ? on : "?");
    return false;
  }
  return true;
}

/* The builtin's kind must be the one the channel data type is read and
 * written with; false after reporting. */
static bool bim_kind_ok(const struct bim_call *c, unsigned kind, const char *what) {
  char want = dev_image_kind(c->img.dtype);
  if (want == kind_char[kind]) return true;
  char name[160];
  image_name(c->ln, c->addr, name, sizeof name);
  unsigned k = want == 'i' ? 1 : want == 'u' ? 2 : 0;
  bim_fault(c->ln, "%s on %s of channel data type %s, which only %s and %s access: undefined", what,
            name, dtype_name(c->img.dtype), read_name[k], write_name[k]);
  return false;
}

struct fetch_ctx {
  struct simt_lane *ln;
  const struct dev_image *img;
};

/* Texel (x, y, z) through the engine's checked load. */
static const void *fetch(void *vctx, uint64_t x, uint64_t y, uint64_t z) {
  struct fetch_ctx *f = vctx;
  const struct dev_image *d = f->img;
  uint64_t addr = d->data + x * d->elem_size + y * d->pitch[0] + z * d->pitch[1];
  struct simt_lane *ln = f->ln;
  return simt_mem_range(ln->cu, ln->w, ln->lane, ln->pc, addr, d->elem_size, 0);
}

/* Why a sampler and call make an undefined read, for the report. */
static const char *undefined_why(uint32_t s, bool fl, unsigned kind) {
  unsigned am = s & DEV_SAMPLER_ADDR_MASK;
  if ((s & DEV_SAMPLER_LINEAR) && kind != 0) return "CLK_FILTER_LINEAR on an integer image";
  if (!(s & DEV_SAMPLER_NORMALIZED) && (am == DEV_SAMPLER_REPEAT || am == DEV_SAMPLER_MIRROR))
    return "CLK_ADDRESS_REPEAT or CLK_ADDRESS_MIRRORED_REPEAT with unnormalized coordinates";
  if (!fl && (s & DEV_SAMPLER_NORMALIZED)) return "integer coordinates with a normalized sampler";
  if (!fl && (s & DEV_SAMPLER_LINEAR)) return "integer coordinates with CLK_FILTER_LINEAR";
  if (!fl && (am == DEV_SAMPLER_REPEAT || am == DEV_SAMPLER_MIRROR))
    return "integer coordinates with a repeating addressing mode";
  return "a sampler the specification leaves undefined";
}

void bim_read(BIM_ARGS) {
  (void)nargs;
  unsigned kind = BIM_KIND(data), nc = BIM_NC(data);
  bool smp = BIM_SMP(data), fl = BIM_FLOAT(data);
  const uint64_t *coord = arg + 1 + smp;
  for (unsigned i = 0; i < (bim_depth(data) ? 1u : 4u); i++)
    res[i] = 0;
  struct bim_call c;
  const char *what = read_name[kind];
  if (!bim_open(&c, ln, arg[0], data, what) || !bim_kind_ok(&c, kind, what)) return;
  char name[160], at[160], size[80];
  if (c.img.mem_flags & CL_MEM_WRITE_ONLY) {
    image_name(ln, c.addr, name, sizeof name);
    bim_fault(ln, "%s on %s, which was created CL_MEM_WRITE_ONLY: undefined", what, name);
    return;
  }
  struct dev_sample_req rq = {.img = &c.img,
                              .sampler = smp ? (uint32_t)arg[1] : DEV_SAMPLER_NONE_GIVEN,
                              .float_coords = fl};
  for (unsigned i = 0; i < c.ncoords && i < nc; i++) {
    rq.fc[i] = f32(coord[i]);
    rq.ic[i] = (int32_t)(uint32_t)coord[i];
  }
  union dev_texel out;
  memset(&out, 0, sizeof out);
  struct fetch_ctx fc = {ln, &c.img};
  /* without a sampler the layer of an array must exist too (a sampler
   * clamps it) */
  uint32_t t = c.img.type;
  int32_t layer = rq.ic[c.ncoords - 1];
  bool layer_out = !smp && (t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY) &&
                   (layer < 0 || (uint64_t)layer >= c.img.dims[c.ncoords - 1]);
  enum dev_sample_status st =
      layer_out ? DEV_SAMPLE_OUTSIDE : dev_image_sample(&rq, fetch, &fc, &out);
  if (st == DEV_SAMPLE_FAULT) return;
  if (st == DEV_SAMPLE_OUTSIDE || st == DEV_SAMPLE_UNDEFINED) {
    image_name(ln, c.addr, name, sizeof name);
    coord_str(coord, c.ncoords, fl, at, sizeof at);
    size_str(&c, size, sizeof size);
    if (st == DEV_SAMPLE_OUTSIDE)
      bim_fault(ln, "%s %s at %s outside %s of %s: undefined", what,
                smp ? "with CLK_ADDRESS_NONE" : "without a sampler", at, name, size);
    else
      bim_fault(ln, "%s on %s at %s with sampler 0x%" PRIx32 ": %s is undefined", what, name, at,
                rq.sampler, undefined_why(rq.sampler, fl, kind));
    return;
  }
  if (bim_depth(data)) { /* a depth read returns one float */
    res[0] = uf32(out.f[0]);
    return;
  }
  for (unsigned i = 0; i < 4; i++)
    res[i] = kind == 0 ? uf32(out.f[i]) : out.u[i];
}

void bim_write(BIM_ARGS) {
  (void)nargs, (void)res;
  unsigned kind = BIM_KIND(data), nc = BIM_NC(data);
  const uint64_t *coord = arg + 1, *val = arg + 1 + nc;
  struct bim_call c;
  const char *what = write_name[kind];
  if (!bim_open(&c, ln, arg[0], data, what) || !bim_kind_ok(&c, kind, what)) return;
  char name[160], at[160], size[80];
  if (c.img.mem_flags & CL_MEM_READ_ONLY) {
    image_name(ln, c.addr, name, sizeof name);
    bim_fault(ln, "%s on %s, which was created CL_MEM_READ_ONLY: undefined", what, name);
    return;
  }
  uint64_t x[3] = {0, 0, 0};
  for (unsigned i = 0; i < c.ncoords; i++) {
    int32_t v = (int32_t)(uint32_t)coord[i];
    if (v < 0 || (uint64_t)v >= c.img.dims[i]) {
      image_name(ln, c.addr, name, sizeof name);
      coord_str(coord, c.ncoords, false, at, sizeof at);
      size_str(&c, size, sizeof size);
      bim_fault(ln, "%s at %s outside %s of %s", what, at, name, size);
      return;
    }
    x[i] = (uint64_t)v;
  }
  union dev_texel in;
  unsigned nval = bim_depth(data) ? 1 : 4; /* a depth write takes one float */
  for (unsigned i = 0; i < 4; i++)
    in.u[i] = i < nval ? (uint32_t)val[i] : 0;
  uint8_t texel[16];
  dev_texel_encode(c.img.order, c.img.dtype, &in, texel);
  const struct dev_image *d = &c.img;
  uint64_t addr = d->data + x[0] * d->elem_size + x[1] * d->pitch[0] + x[2] * d->pitch[1];
  void *p = simt_mem_range(ln->cu, ln->w, ln->lane, ln->pc, addr, d->elem_size, 1);
  if (p) memcpy(p, texel, d->elem_size);
}

void bim_query(BIM_ARGS) {
  (void)nargs;
  struct bim_call c;
  static const char *const qname[] = {"get_image_width",        "get_image_height",
                                      "get_image_depth",        "get_image_array_size",
                                      "get_image_dim",          "get_image_channel_data_type",
                                      "get_image_channel_order"};
  unsigned q = BIM_Q(data);
  unsigned nres = q != BIM_Q_DIM ? 1 : BIM_TY(data) == BIM_3D ? 4 : 2;
  for (unsigned i = 0; i < nres; i++)
    res[i] = 0;
  if (!bim_open(&c, ln, arg[0], data, qname[q % 7])) return;
  const struct dev_image *d = &c.img;
  switch (q) {
  case BIM_Q_WIDTH: res[0] = (uint32_t)d->width; break;
  case BIM_Q_HEIGHT: res[0] = (uint32_t)d->height; break;
  case BIM_Q_DEPTH: res[0] = (uint32_t)d->depth; break;
  case BIM_Q_ARRAY_SIZE: res[0] = d->array_size; break;
  case BIM_Q_DIM:
    res[0] = (uint32_t)d->width;
    res[1] = (uint32_t)d->height;
    if (nres == 4) res[2] = (uint32_t)d->depth;
    break;
  case BIM_Q_DTYPE: res[0] = d->dtype; break;
  default: res[0] = d->order; break;
  }
}
