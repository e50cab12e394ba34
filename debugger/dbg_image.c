/*
 * dbg_image.c - images, samplers and texels in the debugger's expressions:
 * the types OpenCL C spells ("read_only image2d_t", "sampler_t"), what
 * `print` shows of them, img(x, y) (one texel, decoded by the device's
 * texel codec) and their members (img.width, samp.filter_mode, texel.r).
 *
 * It reads an image's descriptor (struct dev_image, device/image.h) and
 * texels through struct dbg_env only, and never writes either: it must not
 * know about sessions or the device's state.
 */
#include "debugger/dbg_image.h"

#include <CL/cl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "device/image.h"

/* The image types, as OpenCL C names them (image2d_t) and as the debug
 * tables do (struct opencl_image2d_ro_t *), with the names of their
 * coordinates and which get_image_* members they have. */
enum { M_HEIGHT = 1, M_DEPTH = 2, M_ARRAY = 4 };
static const struct image_kind {
  const char *name; /* without _t */
  uint32_t type;    /* CL_MEM_OBJECT_IMAGE* */
  const char *coords[3];
  unsigned members;
} kinds[] = {
    {"image1d", CL_MEM_OBJECT_IMAGE1D, {"x"}, 0},
    {"image1d_buffer", CL_MEM_OBJECT_IMAGE1D_BUFFER, {"x"}, 0},
    {"image1d_array", CL_MEM_OBJECT_IMAGE1D_ARRAY, {"x", "layer"}, M_ARRAY},
    {"image2d", CL_MEM_OBJECT_IMAGE2D, {"x", "y"}, M_HEIGHT},
    {"image2d_depth", CL_MEM_OBJECT_IMAGE2D, {"x", "y"}, M_HEIGHT},
    {"image2d_array", CL_MEM_OBJECT_IMAGE2D_ARRAY, {"x", "y", "layer"}, M_HEIGHT | M_ARRAY},
    {"image2d_array_depth", CL_MEM_OBJECT_IMAGE2D_ARRAY, {"x", "y", "layer"}, M_HEIGHT | M_ARRAY},
    {"image3d", CL_MEM_OBJECT_IMAGE3D, {"x", "y", "z"}, M_HEIGHT | M_DEPTH},
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* Access qualifiers: OpenCL C's word and the debug tables' suffix. */
static const char *const access[][2] = {
    {"read_only", "ro"}, {"write_only", "wo"}, {"read_write", "rw"}};

/* The channel orders: the channels a texel shows (as the order
 * stores them, padding left out) with the (R, G, B, A) component each one
 * decodes into. */
static const struct order_name {
  uint32_t order;
  const char *ch[4];
  uint8_t comp[4];
} orders[] = {
    {CL_R, {"r"}, {0}},
    {CL_A, {"a"}, {3}},
    {CL_RG, {"r", "g"}, {0, 1}},
    {CL_RA, {"r", "a"}, {0, 3}},
    {CL_RGB, {"r", "g", "b"}, {0, 1, 2}},
    {CL_RGBA, {"r", "g", "b", "a"}, {0, 1, 2, 3}},
    {CL_BGRA, {"b", "g", "r", "a"}, {2, 1, 0, 3}},
    {CL_ARGB, {"a", "r", "g", "b"}, {3, 0, 1, 2}},
    {CL_ABGR, {"a", "b", "g", "r"}, {3, 2, 1, 0}},
    {CL_INTENSITY, {"i"}, {0}},
    {CL_LUMINANCE, {"l"}, {0}},
    {CL_Rx, {"r"}, {0}},
    {CL_RGx, {"r", "g"}, {0, 1}},
    {CL_RGBx, {"r", "g", "b"}, {0, 1, 2}},
    {CL_DEPTH, {"depth"}, {0}},
    {CL_sRGB, {"r", "g", "b"}, {0, 1, 2}},
    {CL_sRGBx, {"r", "g", "b"}, {0, 1, 2}},
    {CL_sRGBA, {"r", "g", "b", "a"}, {0, 1, 2, 3}},
    {CL_sBGRA, {"b", "g", "r", "a"}, {2, 1, 0, 3}},
};

/* Named ints: what each DBG_NAME_* table holds (value, name). */
struct named {
  uint32_t v;
  const char *name;
};
static const struct named normalized[] = {{0, "CLK_NORMALIZED_COORDS_FALSE"},
                                          {DEV_SAMPLER_NORMALIZED, "CLK_NORMALIZED_COORDS_TRUE"},
                                          {0, NULL}};
static const struct named addressing[] = {
    {DEV_SAMPLER_NONE, "CLK_ADDRESS_NONE"},
    {DEV_SAMPLER_CLAMP_EDGE, "CLK_ADDRESS_CLAMP_TO_EDGE"},
    {DEV_SAMPLER_CLAMP, "CLK_ADDRESS_CLAMP"},
    {DEV_SAMPLER_REPEAT, "CLK_ADDRESS_REPEAT"},
    {DEV_SAMPLER_MIRROR, "CLK_ADDRESS_MIRRORED_REPEAT"},
    {0, NULL},
};
static const struct named filters[] = {{DEV_SAMPLER_NEAREST, "CLK_FILTER_NEAREST"},
                                       {DEV_SAMPLER_LINEAR, "CLK_FILTER_LINEAR"},
                                       {0, NULL}};

/* A sampler's members: name, the bits of the CLK_* field, how its value
 * shows. */
static const struct sampler_field {
  const char *name;
  uint32_t mask;
  int names;
} sampler_fields[] = {
    {"normalized_coords", DEV_SAMPLER_NORMALIZED, DBG_NAME_NORMALIZED},
    {"addressing_mode", DEV_SAMPLER_ADDR_MASK, DBG_NAME_ADDRESS},
    {"filter_mode", DEV_SAMPLER_NEAREST | DEV_SAMPLER_LINEAR, DBG_NAME_FILTER},
};
#define NSAMPLER_FIELDS (sizeof(sampler_fields) / sizeof(sampler_fields[0]))

static const struct order_name *order_of(uint32_t order) {
  for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++)
    if (orders[i].order == order) return &orders[i];
  return NULL;
}

/* The name of value x of a DBG_NAME_* kind, or NULL. */
static const char *name_of(int names, uint32_t x) {
  if (names == DBG_NAME_DTYPE) return dev_image_dtype_name(x);
  const struct named *t = names == DBG_NAME_NORMALIZED ? normalized
                          : names == DBG_NAME_ADDRESS  ? addressing
                          : names == DBG_NAME_FILTER   ? filters
                                                       : NULL;
  if (names == DBG_NAME_ORDER) {
    return dev_image_order_name(x);
  }
  for (; t && t->name; t++)
    if (t->v == x) return t->name;
  return NULL;
}

/* The image kind and access (index into access[]) a type spells, or NULL:
 * "read_only image2d_t" (the evaluator's spelling), "image2d_t",
 * "__read_only image2d_t" or "struct opencl_image2d_ro_t *". */
static const struct image_kind *parse_image(const char *t, int *acc) {
  char word[48];
  size_t n;
  *acc = 0;
  if (!strncmp(t, "struct opencl_", 14)) {
    t += 14;
    n = strcspn(t, " *");
    const char *rest = t + n;
    while (*rest == ' ')
      rest++;
    if (strcmp(rest, "*") || n < 6 || n >= sizeof(word) || strncmp(t + n - 2, "_t", 2)) return NULL;
    snprintf(word, sizeof(word), "%.*s", (int)(n - 5), t); /* without _ro_t */
    for (*acc = 0; *acc < 3 && strncmp(t + n - 4, access[*acc][1], 2); ++*acc)
      ;
    if (*acc == 3 || t[n - 5] != '_') return NULL;
  } else {
    if (!strncmp(t, "__", 2)) t += 2;
    for (int a = 0; a < 3; a++) {
      size_t al = strlen(access[a][0]);
      if (!strncmp(t, access[a][0], al) && t[al] == ' ') {
        *acc = a;
        for (t += al; *t == ' ';)
          t++;
      }
    }
    n = strlen(t);
    if (n < 3 || n >= sizeof(word) || strcmp(t + n - 2, "_t")) return NULL;
    snprintf(word, sizeof(word), "%.*s", (int)(n - 2), t);
  }
  for (size_t k = 0; k < NKINDS; k++)
    if (!strcmp(kinds[k].name, word)) return &kinds[k];
  return NULL;
}

int dbg_image_resolve(const char *t, struct dbg_val *v) {
  int acc;
  const struct image_kind *k = parse_image(t, &acc);
  if (!k && strcmp(t, "sampler_t")) return 0;
  memset(v, 0, sizeof(*v));
  if (!k) { /* the CLK_* bit field, in the low half of its 64-bit slot */
    v->kind = DBG_INT;
    v->size = 4;
    snprintf(v->type, sizeof(v->type), "sampler_t");
    return 1;
  }
  v->kind = DBG_PTR; /* the descriptor's address; nothing to dereference */
  v->size = 8;
  v->ekind = -1;
  snprintf(v->type, sizeof(v->type), "%s %s_t", access[acc][0], k->name);
  return 1;
}

int dbg_image_is(const struct dbg_val *v) {
  int acc;
  return v->kind == DBG_PTR && parse_image(v->type, &acc);
}

static int is_sampler(const struct dbg_val *v) {
  return v->kind == DBG_INT && !strcmp(v->type, "sampler_t");
}

/* Reads and checks the descriptor of image value v into *d; NULL, else
 * why not (in err). */
static const char *read_desc(const struct dbg_env *env, const struct dbg_val *v,
                             struct dev_image *d, char *err, size_t errlen) {
  uint64_t addr = (uint64_t)v->i;
  const void *m = addr ? env->mem(env->ctx, addr, sizeof(*d)) : NULL;
  if (!m) {
    snprintf(err, errlen, "Cannot access memory at address 0x%" PRIx64, addr);
    return err;
  }
  memcpy(d, m, sizeof(*d));
  unsigned nc = dev_image_ncoords(d->type);
  int ok = d->magic == DEV_IMAGE_MAGIC && nc && d->elem_size &&
           d->elem_size == dev_image_elem_size(d->order, d->dtype);
  for (unsigned i = 0; ok && i < 3; i++)
    ok = d->dims[i] >= 1 && (i < nc || d->dims[i] == 1);
  if (!ok) {
    snprintf(err, errlen, "0x%" PRIx64 " is not an image descriptor", addr);
    return err;
  }
  return NULL;
}

/* "640 x 480", "64 x 5 layers": an image's size in its coordinates. */
static size_t size_text(const struct dev_image *d, char *buf, size_t len) {
  size_t n = 0;
  unsigned nc = dev_image_ncoords(d->type);
  for (unsigned i = 0; i < nc && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%" PRIu64, i ? " x " : "", d->dims[i]);
  if (n < len && (d->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || d->type == CL_MEM_OBJECT_IMAGE2D_ARRAY))
    n += (size_t)snprintf(buf + n, len - n, " layers");
  return n < len ? n : len - 1;
}

/* A number of a DBG_NAME_* kind as its name, else as hex. */
static void name_text(int names, uint32_t x, char *buf, size_t len) {
  const char *nm = name_of(names, x);
  if (nm)
    snprintf(buf, len, "%s", nm);
  else
    snprintf(buf, len, "<unknown 0x%" PRIx32 ">", x);
}

static void format_image(const struct dbg_env *env, const struct dbg_val *v, char *buf,
                         size_t len) {
  struct dev_image d;
  char err[120], sz[80], on[40], dn[40];
  size_t n = (size_t)snprintf(buf, len, "(%s) ", v->type);
  if (n >= len) return;
  if (!v->i) {
    snprintf(buf + n, len - n, "0x0");
    return;
  }
  if (read_desc(env, v, &d, err, sizeof(err))) {
    snprintf(buf + n, len - n, "0x%" PRIx64 " <%s>", (uint64_t)v->i, err);
    return;
  }
  size_text(&d, sz, sizeof(sz));
  name_text(DBG_NAME_ORDER, d.order, on, sizeof(on));
  name_text(DBG_NAME_DTYPE, d.dtype, dn, sizeof(dn));
  snprintf(buf + n, len - n, "%s, %s %s", sz, on, dn);
}

static void format_sampler(uint32_t bits, char *buf, size_t len) {
  size_t n = (size_t)snprintf(buf, len, "{");
  uint32_t known = 0;
  for (size_t i = 0; i < NSAMPLER_FIELDS && n < len; i++) {
    const struct sampler_field *f = &sampler_fields[i];
    char nm[48];
    name_text(f->names, bits & f->mask, nm, sizeof(nm));
    n += (size_t)snprintf(buf + n, len - n, "%s%s = %s", i ? ", " : "", f->name, nm);
    known |= f->mask;
  }
  if (n < len && (bits & ~known))
    n += (size_t)snprintf(buf + n, len - n, ", <other bits 0x%" PRIx32 ">", bits & ~known);
  if (n < len) snprintf(buf + n, len - n, "}");
}

/* Channel c (an R, G, B, A component) of texel t as a value. */
static struct dbg_val channel(const struct dbg_val *t, unsigned c) {
  struct dbg_val v;
  memset(&v, 0, sizeof(v));
  char kind = dev_image_kind(t->texel_dtype);
  v.size = 4;
  if (kind == 'f') {
    float f;
    memcpy(&f, &t->texel[c], 4);
    v.kind = DBG_FLT;
    v.f = f;
    snprintf(v.type, sizeof(v.type), "float");
  } else {
    v.kind = DBG_INT;
    v.is_signed = kind == 'i';
    v.i = kind == 'i' ? (int64_t)(int32_t)t->texel[c] : (int64_t)t->texel[c];
    snprintf(v.type, sizeof(v.type), "%s", kind == 'i' ? "int" : "uint");
  }
  return v;
}

static void format_texel(const struct dbg_env *env, const struct dbg_val *t, int fmt, char *buf,
                         size_t len) {
  const struct order_name *o = order_of(t->texel_order);
  size_t n = (size_t)snprintf(buf, len, "{");
  for (unsigned i = 0; o && i < 4 && o->ch[i] && n + 8 < len; i++) {
    struct dbg_val c = channel(t, o->comp[i]);
    n += (size_t)snprintf(buf + n, len - n, "%s%s = ", i ? ", " : "", o->ch[i]);
    dbg_format(env, &c, fmt, buf + n, len - n);
    n += strlen(buf + n);
  }
  if (n + 1 < len) snprintf(buf + n, len - n, "}");
}

int dbg_image_format(const struct dbg_env *env, const struct dbg_val *v, int fmt, char *buf,
                     size_t len) {
  if (v->texel_order) {
    format_texel(env, v, fmt, buf, len);
    return 1;
  }
  if (fmt) return 0;
  if (dbg_image_is(v)) {
    format_image(env, v, buf, len);
    return 1;
  }
  if (is_sampler(v)) {
    format_sampler((uint32_t)v->i, buf, len);
    return 1;
  }
  if (v->names && v->kind == DBG_INT) {
    name_text(v->names, (uint32_t)v->i, buf, len);
    return 1;
  }
  return 0;
}

/* The kind an image value's type names (every image value has one). */
static const struct image_kind *kind_of(const struct dbg_val *img) {
  int acc;
  return parse_image(img->type, &acc);
}

int dbg_image_texel(const struct dbg_env *env, const char *name, const struct dbg_val *img,
                    const int64_t *c, unsigned n, int typeonly, struct dbg_val *out, char *err,
                    size_t errlen) {
  const struct image_kind *k = kind_of(img);
  struct dev_image d;
  unsigned want = 0;
  while (want < 3 && k->coords[want])
    want++;
  if (n != want) {
    int at = snprintf(err, errlen, "%s is an %s_t: a texel has %u coordinate%s, %s(", name, k->name,
                      want, want == 1 ? "" : "s", name);
    for (unsigned i = 0; i < want && at > 0 && (size_t)at < errlen; i++)
      at += snprintf(err + at, errlen - (size_t)at, "%s%s", i ? ", " : "", k->coords[i]);
    if (at > 0 && (size_t)at < errlen) snprintf(err + at, errlen - (size_t)at, ")");
    return 1;
  }
  char why[120];
  if (read_desc(env, img, &d, why, sizeof(why))) {
    snprintf(err, errlen, "%s: %s", name, why);
    return 1;
  }
  memset(out, 0, sizeof(*out));
  out->kind = DBG_STRUCT;
  out->size = 16;
  out->texel_order = d.order;
  out->texel_dtype = d.dtype;
  char kind = dev_image_kind(d.dtype);
  snprintf(out->type, sizeof(out->type), "%s",
           kind == 'f'   ? "float4"
           : kind == 'i' ? "int4"
                         : "uint4");
  if (typeonly) return 0;
  uint64_t addr = d.data;
  for (unsigned i = 0; i < n; i++) {
    if (c[i] < 0 || (uint64_t)c[i] >= d.dims[i]) {
      char sz[80];
      size_text(&d, sz, sizeof(sz));
      int at = snprintf(err, errlen, "%s(", name);
      for (unsigned j = 0; j < n && at > 0 && (size_t)at < errlen; j++)
        at += snprintf(err + at, errlen - (size_t)at, "%s%" PRId64, j ? ", " : "", c[j]);
      if (at > 0 && (size_t)at < errlen)
        snprintf(err + at, errlen - (size_t)at,
                 ") is outside the image (%s): %s must be 0 to %" PRIu64, sz, k->coords[i],
                 d.dims[i] - 1);
      return 1;
    }
    addr += (uint64_t)c[i] * (i ? d.pitch[i - 1] : d.elem_size);
  }
  const void *m = env->mem(env->ctx, addr, d.elem_size);
  if (!m) {
    snprintf(err, errlen, "Cannot access memory at address 0x%" PRIx64 " (a texel of %s)", addr,
             name);
    return 1;
  }
  union dev_texel t;
  dev_texel_decode(d.order, d.dtype, m, &t);
  memcpy(out->texel, t.u, sizeof(out->texel));
  return 0;
}

static struct dbg_val int_member(int64_t x, const char *type, int names) {
  struct dbg_val v;
  memset(&v, 0, sizeof(v));
  v.kind = DBG_INT;
  v.is_signed = strcmp(type, "size_t") != 0;
  v.size = strcmp(type, "size_t") ? 4 : 8;
  v.i = x;
  v.names = names;
  snprintf(v.type, sizeof(v.type), "%s", type);
  return v;
}

/* The members an image of kind k has, in order; returns how many. */
static unsigned image_members(const struct image_kind *k, const char **out) {
  unsigned n = 0;
  out[n++] = "width";
  if (k->members & M_HEIGHT) out[n++] = "height";
  if (k->members & M_DEPTH) out[n++] = "depth";
  if (k->members & M_ARRAY) out[n++] = "array_size";
  out[n++] = "channel_order";
  out[n++] = "channel_data_type";
  return n;
}

static int image_member(const struct dbg_env *env, const struct dbg_val *v, const char *name,
                        struct dbg_val *out, char *err, size_t errlen) {
  const struct image_kind *k = kind_of(v);
  const char *names[8];
  unsigned n = image_members(k, names), i = 0;
  while (i < n && strcmp(names[i], name))
    i++;
  if (i == n) {
    snprintf(err, errlen,
             "an %s_t has no member '%s' (it has width%s%s%s, channel_order, "
             "channel_data_type)",
             k->name, name, k->members & M_HEIGHT ? ", height" : "",
             k->members & M_DEPTH ? ", depth" : "", k->members & M_ARRAY ? ", array_size" : "");
    return -1;
  }
  struct dev_image d;
  if (read_desc(env, v, &d, err, errlen)) return -1;
  if (!strcmp(name, "width")) *out = int_member((int64_t)d.width, "int", 0);
  if (!strcmp(name, "height")) *out = int_member((int64_t)d.height, "int", 0);
  if (!strcmp(name, "depth")) *out = int_member((int64_t)d.depth, "int", 0);
  if (!strcmp(name, "array_size")) *out = int_member((int64_t)d.array_size, "size_t", 0);
  if (!strcmp(name, "channel_order")) *out = int_member(d.order, "int", DBG_NAME_ORDER);
  if (!strcmp(name, "channel_data_type")) *out = int_member(d.dtype, "int", DBG_NAME_DTYPE);
  return 1;
}

int dbg_image_member(const struct dbg_env *env, const struct dbg_val *v, const char *name,
                     struct dbg_val *out, char *err, size_t errlen) {
  if (dbg_image_is(v)) return image_member(env, v, name, out, err, errlen);
  if (is_sampler(v)) {
    for (size_t i = 0; i < NSAMPLER_FIELDS; i++)
      if (!strcmp(sampler_fields[i].name, name)) {
        *out = int_member((uint32_t)v->i & sampler_fields[i].mask, "int", sampler_fields[i].names);
        return 1;
      }
    snprintf(err, errlen,
             "a sampler_t has no member '%s' (it has normalized_coords, addressing_mode, "
             "filter_mode)",
             name);
    return -1;
  }
  if (!v->texel_order) return 0;
  const struct order_name *o = order_of(v->texel_order);
  for (unsigned i = 0; o && i < 4 && o->ch[i]; i++)
    if (!strcmp(o->ch[i], name)) {
      *out = channel(v, o->comp[i]);
      return 1;
    }
  char have[40] = "";
  for (unsigned i = 0, at = 0; o && i < 4 && o->ch[i]; i++)
    at += (unsigned)snprintf(have + at, sizeof(have) - at, "%s.%s", i ? ", " : "", o->ch[i]);
  snprintf(err, errlen, "a texel of a %s image has no channel '%s' (it has %s)",
           o ? dev_image_order_name(o->order) : "?", name, have);
  return -1;
}

unsigned dbg_image_members(const struct dbg_val *v, const char *const **names) {
  static const char *img[8];
  static const char *smp[NSAMPLER_FIELDS];
  if (dbg_image_is(v)) {
    *names = img;
    return image_members(kind_of(v), img);
  }
  if (is_sampler(v)) {
    for (size_t i = 0; i < NSAMPLER_FIELDS; i++)
      smp[i] = sampler_fields[i].name;
    *names = smp;
    return NSAMPLER_FIELDS;
  }
  const struct order_name *o = v->texel_order ? order_of(v->texel_order) : NULL;
  unsigned n = 0;
  while (o && n < 4 && o->ch[n])
    n++;
  *names = o ? o->ch : NULL;
  return n;
}
