/*
 * test_dbg_image.c - images, samplers and texels in the debugger's
 * expressions (debugger/dbg_image.c through dbg_eval, dbg_format and
 * dbg_whatis) on a made-up memory: descriptors and texels written here, the
 * expected texts and values worked out by hand. Covers what the transcript
 * tests cannot reach on a real device: every channel order's names, sRGB,
 * padding channels, a 1D array's layer pitch, broken descriptors, samplers
 * with bits no CLK_* constant has.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

#include "debugger/dbg.h"
#include "debugger/dbg_image.h"
#include "device/image.h"
#include "util/check_util.h"

/* The made-up memory: BASE.. BASE + sizeof(mem). */
#define BASE   0x10000u
#define SLOTS  (BASE + 0x000u) /* the variables (8 bytes each) */
#define DESC   (BASE + 0x100u) /* descriptors, 0x80 apart */
#define TEXELS (BASE + 0x600u)
static uint8_t mem[0x900];

static void *mem_at(void *ctx, uint64_t addr, uint64_t size) {
  (void)ctx;
  if (addr < BASE || addr - BASE > sizeof(mem) || size > sizeof(mem) - (addr - BASE)) return NULL;
  return mem + (addr - BASE);
}

static const struct {
  const char *name, *type; /* as the debug tables spell it */
} vars[] = {
    {"img", "struct opencl_image2d_ro_t *"},       /* 3 x 2 CL_BGRA UNORM_INT8 */
    {"arr", "struct opencl_image1d_array_rw_t *"}, /* 2 x 3 layers CL_Rx SIGNED_INT16 */
    {"lum", "struct opencl_image3d_wo_t *"},       /* 1 x 1 x 1 CL_INTENSITY FLOAT */
    {"srgb", "struct opencl_image2d_ro_t *"},      /* 1 x 1 CL_sRGBA UNORM_INT8 */
    {"bad", "struct opencl_image2d_ro_t *"},       /* wrong magic */
    {"gone", "struct opencl_image2d_ro_t *"},      /* unmapped address */
    {"smp", "sampler_t"},
    {"odd", "const sampler_t"},
    {"flat", "struct opencl_image2d_ro_t *"}, /* a height of 0 */
};

static const char *lookup(void *ctx, const char *name, struct dbg_val *v) {
  (void)ctx;
  if (!strcmp(name, "later")) return "parameter 'later' has no value yet";
  for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
    if (!strcmp(vars[i].name, name)) {
      if (!dbg_type_resolve(NULL, vars[i].type, v)) return "cannot resolve";
      v->addr = SLOTS + 8 * i;
      return NULL;
    }
  return "No symbol";
}

static int sreg(void *ctx, const char *fn, unsigned dim, uint64_t *out) {
  (void)ctx, (void)fn, (void)dim, (void)out;
  return 0;
}

static const struct dbg_env env = {NULL, lookup, mem_at, sreg, NULL, NULL, NULL, NULL, NULL};

static void put64(uint64_t addr, uint64_t v) {
  memcpy(mem + (addr - BASE), &v, 8);
}

static void desc(int i, uint32_t type, uint32_t order, uint32_t dtype, uint32_t es, uint64_t w,
                 uint64_t h, uint64_t d, uint64_t pitch0, uint64_t pitch1, uint64_t data) {
  /* what get_image_* report: a 1D array's layer count is no height */
  int layered = type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  struct dev_image x = {.magic = DEV_IMAGE_MAGIC,
                        .type = type,
                        .order = order,
                        .dtype = dtype,
                        .elem_size = es,
                        .mem_flags = CL_MEM_READ_WRITE};
  x.dims[0] = w, x.dims[1] = h, x.dims[2] = d;
  x.pitch[0] = pitch0, x.pitch[1] = pitch1;
  x.data = data;
  x.width = w;
  x.height = layered ? 0 : h;
  x.depth = type == CL_MEM_OBJECT_IMAGE3D ? d : 0;
  x.array_size = layered ? h : 0;
  uint64_t at = DESC + 0x80u * (unsigned)i;
  memcpy(mem + (at - BASE), &x, sizeof x);
  put64(SLOTS + 8u * (unsigned)i, at);
}

static void setup(void) {
  memset(mem, 0, sizeof mem);
  /* img: 3 x 2 BGRA, row pitch 16; texel (x, y) = B 51x, G 255, R 0, A 17y */
  desc(0, CL_MEM_OBJECT_IMAGE2D, CL_BGRA, CL_UNORM_INT8, 4, 3, 2, 1, 16, 32, TEXELS);
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 3; x++) {
      uint8_t t[4] = {(uint8_t)(51 * x), 255, 0, (uint8_t)(17 * y)};
      memcpy(mem + (TEXELS - BASE) + 16 * y + 4 * x, t, 4);
    }
  /* arr: 2 texels x 3 layers of (short r, short padding), layer pitch 24 */
  desc(1, CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_Rx, CL_SIGNED_INT16, 4, 2, 3, 1, 24, 72, TEXELS + 0x100);
  for (int l = 0; l < 3; l++)
    for (int x = 0; x < 2; x++) {
      int16_t t[2] = {(int16_t)(-10 * l - x), 7};
      memcpy(mem + (TEXELS + 0x100 - BASE) + 24 * l + 4 * x, t, 4);
    }
  /* lum: one CL_INTENSITY float 0.25 */
  desc(2, CL_MEM_OBJECT_IMAGE3D, CL_INTENSITY, CL_FLOAT, 4, 1, 1, 1, 4, 4, TEXELS + 0x200);
  float q = 0.25f;
  memcpy(mem + (TEXELS + 0x200 - BASE), &q, 4);
  /* srgb: (255, 0, 255, 51) */
  desc(3, CL_MEM_OBJECT_IMAGE2D, CL_sRGBA, CL_UNORM_INT8, 4, 1, 1, 1, 4, 4, TEXELS + 0x280);
  uint8_t s[4] = {255, 0, 255, 51};
  memcpy(mem + (TEXELS + 0x280 - BASE), s, 4);
  /* bad: a descriptor with another magic; gone: an address nothing maps */
  desc(4, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 16, 1, 1, 1, 16, 16, TEXELS);
  memset(mem + (DESC + 4 * 0x80 - BASE), 0x5a, 4);
  put64(SLOTS + 40, 0x900000);
  /* smp: normalized, REPEAT, LINEAR; odd: address bits 0xa, no filter,
   * and a bit no CLK_* constant has */
  put64(SLOTS + 48, DEV_SAMPLER_NORMALIZED | DEV_SAMPLER_REPEAT | DEV_SAMPLER_LINEAR);
  put64(SLOTS + 56, 0x0a | 0x40);
  desc(8, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 16, 3, 0, 1, 48, 48, TEXELS);
}

/* Evaluates and formats text (fmt a print letter or 0): "ERR: message"
 * when it fails. */
static const char *show(const char *text, int fmt) {
  static char buf[512];
  struct dbg_val v;
  char err[300];
  if (dbg_eval(&env, text, &v, err, sizeof err)) {
    snprintf(buf, sizeof buf, "ERR: %s", err);
    return buf;
  }
  dbg_format(&env, &v, fmt, buf, sizeof buf);
  return buf;
}

static const char *whatis(const char *text) {
  static char buf[512];
  dbg_whatis(&env, text, 1, buf, sizeof buf);
  return buf;
}

START_TEST(image_types_resolve) {
  static const struct {
    const char *in, *type;
  } cases[] = {
      {"struct opencl_image2d_ro_t *", "read_only image2d_t"},
      {"__global struct opencl_image2d_array_wo_t *", "write_only image2d_array_t"},
      {"struct opencl_image1d_buffer_rw_t*", "read_write image1d_buffer_t"},
      {"struct opencl_image2d_array_depth_ro_t *", "read_only image2d_array_depth_t"},
      {"image3d_t", "read_only image3d_t"},
      {"__write_only image1d_t", "write_only image1d_t"},
      {"read_write image1d_array_t", "read_write image1d_array_t"},
      {"sampler_t", "sampler_t"},
      {"const sampler_t", "sampler_t"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct dbg_val v;
    ck_assert_msg(dbg_type_resolve(NULL, cases[i].in, &v), "%s", cases[i].in);
    ck_assert_str_eq(v.type, cases[i].type);
  }
  /* not images: a made-up access suffix is an ordinary struct pointer */
  struct dbg_val v;
  ck_assert(dbg_type_resolve(NULL, "struct opencl_image2d_xx_t *", &v));
  ck_assert_str_eq(v.type, "struct opencl_image2d_xx_t *");
  ck_assert(!dbg_type_resolve(NULL, "image4d_t", &v));
}
END_TEST

START_TEST(image_summaries) {
  setup();
  ck_assert_str_eq(show("img", 0), "(read_only image2d_t) 3 x 2, CL_BGRA CL_UNORM_INT8");
  ck_assert_str_eq(show("arr", 0),
                   "(read_write image1d_array_t) 2 x 3 layers, CL_Rx CL_SIGNED_INT16");
  ck_assert_str_eq(show("lum", 0), "(write_only image3d_t) 1 x 1 x 1, CL_INTENSITY CL_FLOAT");
  ck_assert_str_eq(show("img", 'x'), "(read_only image2d_t) 0x10100");
  ck_assert_str_eq(show("bad", 0),
                   "(read_only image2d_t) 0x10300 <0x10300 is not an image descriptor>");
  ck_assert_str_eq(show("gone", 0),
                   "(read_only image2d_t) 0x900000 <Cannot access memory at address 0x900000>");
  ck_assert_str_eq(show("(image2d_t)0", 0), "(read_only image2d_t) 0x0");
  ck_assert_str_eq(whatis("img"), "type = read_only image2d_t");
  ck_assert_str_eq(whatis("write_only image3d_t"), "type = write_only image3d_t");
}
END_TEST

START_TEST(texels) {
  setup();
  /* B 102/255, G 1, R 0, A 17/255 */
  ck_assert_str_eq(show("img(2, 1)", 0), "{b = 0.400000006, g = 1, r = 0, a = 0.0666666701}");
  ck_assert_str_eq(show("img(2, 1).b", 0), "0.400000006");
  ck_assert_str_eq(show("img(1, 0).a", 0), "0");
  ck_assert_str_eq(show("img(1, 0)", 'x'), "{b = 0x3e4ccccd, g = 0x3f800000, r = 0x0, a = 0x0}");
  /* layer 2 of a 1D array: its texel 1 is 24 * 2 + 6 bytes in; padding not shown */
  ck_assert_str_eq(show("arr(1, 2)", 0), "{r = -21}");
  ck_assert_str_eq(show("arr(0, 1).r * 2", 0), "-20");
  ck_assert_str_eq(show("lum(0, 0, 0)", 0), "{i = 0.25}");
  /* sRGB 255 -> 1, 0 -> 0; alpha is linear: 51/255 */
  ck_assert_str_eq(show("srgb(0, 0)", 0), "{r = 1, g = 0, b = 1, a = 0.200000003}");
  ck_assert_str_eq(whatis("arr(0, 0)"), "type = int4");
  ck_assert_str_eq(whatis("img(9, 9)"), "type = float4"); /* whatis reads no texel */
}
END_TEST

START_TEST(texel_errors) {
  setup();
  ck_assert_str_eq(show("img(3, 0)", 0),
                   "ERR: img(3, 0) is outside the image (3 x 2): x must be 0 to 2");
  ck_assert_str_eq(show("img(0, -1)", 0),
                   "ERR: img(0, -1) is outside the image (3 x 2): y must be 0 to 1");
  ck_assert_str_eq(show("arr(0, 3)", 0),
                   "ERR: arr(0, 3) is outside the image (2 x 3 layers): layer must be 0 to 2");
  ck_assert_str_eq(show("img(1)", 0),
                   "ERR: img is an image2d_t: a texel has 2 coordinates, img(x, y)");
  ck_assert_str_eq(show("arr()", 0),
                   "ERR: arr is an image1d_array_t: a texel has 2 coordinates, arr(x, layer)");
  ck_assert_str_eq(show("img(0.5, 1)", 0), "ERR: texel coordinates must be integers");
  ck_assert_str_eq(show("bad(0, 0)", 0), "ERR: bad: 0x10300 is not an image descriptor");
  ck_assert_str_eq(show("gone(0, 0)", 0), "ERR: gone: Cannot access memory at address 0x900000");
  /* a variable that cannot be read here says why; a name nothing knows
   * is an unknown function, as before */
  ck_assert_str_eq(show("later(0, 0)", 0), "ERR: parameter 'later' has no value yet");
  ck_assert_str_eq(show("dot(1, 2)", 0), "ERR: unknown function 'dot'");
  ck_assert_str_eq(show("flat(0, 0)", 0), "ERR: flat: 0x10500 is not an image descriptor");
  ck_assert_str_eq(show("img(0, 0) + 1", 0),
                   "ERR: a texel cannot be used as a number here: select a channel (.r)");
  ck_assert_str_eq(show("arr(0, 0).g", 0),
                   "ERR: a texel of a CL_Rx image has no channel 'g' (it has .r)");
  ck_assert_str_eq(show("img(0, 0) = 1", 0),
                   "ERR: left operand of assignment is not a scalar variable");
  ck_assert_str_eq(show("*img", 0),
                   "ERR: an image cannot be dereferenced: IMG(x, y) is a texel, IMG.width a size");
}
END_TEST

START_TEST(image_members) {
  setup();
  ck_assert_str_eq(show("img.width * 10 + img.height", 0), "32");
  ck_assert_str_eq(show("img.channel_order", 0), "CL_BGRA");
  ck_assert_str_eq(show("img.channel_order", 'x'), "0x10b6");
  ck_assert_str_eq(show("arr.channel_data_type", 0), "CL_SIGNED_INT16");
  ck_assert_str_eq(show("arr.array_size", 0), "3");
  ck_assert_str_eq(show("lum.depth", 0), "1");
  ck_assert_str_eq(show("img.depth", 0),
                   "ERR: an image2d_t has no member 'depth' (it has width, height, channel_order, "
                   "channel_data_type)");
  ck_assert_str_eq(show("bad.width", 0), "ERR: 0x10300 is not an image descriptor");
  ck_assert_str_eq(whatis("img.channel_order"), "type = int");
  /* what front ends expand: the members of each kind of value */
  static const struct {
    const char *expr, *members;
  } cases[] = {
      {"arr", "width array_size channel_order channel_data_type"},
      {"lum", "width height depth channel_order channel_data_type"},
      {"img(0, 0)", "b g r a"},
      {"arr(0, 0)", "r"},
      {"smp", "normalized_coords addressing_mode filter_mode"},
      {"img.width", ""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct dbg_val v;
    char err[200], got[200] = "";
    const char *const *names;
    ck_assert_msg(!dbg_eval(&env, cases[i].expr, &v, err, sizeof err), "%s", err);
    unsigned n = dbg_image_members(&v, &names);
    for (unsigned k = 0; k < n; k++)
      snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", k ? " " : "", names[k]);
    ck_assert_str_eq(got, cases[i].members);
  }
}
END_TEST

START_TEST(samplers) {
  setup();
  ck_assert_str_eq(show("smp", 0),
                   "{normalized_coords = CLK_NORMALIZED_COORDS_TRUE, addressing_mode "
                   "= CLK_ADDRESS_REPEAT, filter_mode = CLK_FILTER_LINEAR}");
  ck_assert_str_eq(show("smp", 'x'), "0x27");
  ck_assert_str_eq(show("smp.addressing_mode", 0), "CLK_ADDRESS_REPEAT");
  ck_assert_str_eq(show("smp.addressing_mode", 'd'), "6");
  ck_assert_str_eq(show("smp.filter_mode == 32", 0), "1");
  /* bits no CLK_* constant has are shown, not dropped */
  ck_assert_str_eq(show("odd", 0), "{normalized_coords = CLK_NORMALIZED_COORDS_FALSE, "
                                   "addressing_mode = <unknown 0xa>, filter_mode = <unknown 0x0>, "
                                   "<other bits 0x40>}");
  ck_assert_str_eq(show("smp.mode", 0), "ERR: a sampler_t has no member 'mode' (it has "
                                        "normalized_coords, addressing_mode, filter_mode)");
  ck_assert_str_eq(whatis("odd"), "type = sampler_t");
}
END_TEST

START_TEST(conditions_parse) {
  /* before any work-item can evaluate it, a texel condition is well formed */
  char err[200];
  ck_assert_msg(dbg_cond_parses("img(x, y).r > 0.5 && smp.filter_mode", err, sizeof err), "%s",
                err);
  ck_assert(!dbg_cond_parses("img(x, y", err, sizeof err));
}
END_TEST

int main(void) {
  Suite *s = suite_create("dbg_image");
  CU_ADD(s, image_types_resolve);
  CU_ADD(s, image_summaries);
  CU_ADD(s, texels);
  CU_ADD(s, texel_errors);
  CU_ADD(s, image_members);
  CU_ADD(s, samplers);
  CU_ADD(s, conditions_parse);
  return cu_run(s);
}
