/*
 * host_image.c - an ordinary OpenCL host program for the debugger's image
 * tests: it builds the kernel file named on the command line (host_image.cl)
 * and runs shade over 4 x 3 work-items in groups of 2 x 3 with
 *   src    4 x 3 CL_BGRA CL_UNORM_INT8: texel (x, y) stores B = 85 x, G = 51 y,
 *          R = 255, A = 128
 *   dst    4 x 3 CL_RGBA CL_HALF_FLOAT, write_only, every channel 0.75 first
 *   smp    unnormalized, CLK_ADDRESS_CLAMP, CLK_FILTER_NEAREST
 *   vol    4 x 3 x 2 CL_RGBA CL_UNSIGNED_INT16: (x, y, z, 1000 + 100 x + 10 y + z)
 *   layers 4 x 3, 3 layers, CL_R CL_SIGNED_INT32: -(100 layer + 10 y + x)
 *   lut    an image1d_buffer of 4 CL_RGBA CL_FLOAT texels (i, i / 2, i / 4, 1)
 * then prints out and the first texel of dst.
 *
 * It knows nothing about the debugger and must stay that way.
 */
#include <stdint.h>

#include "util/host_util.h"

#define CHECK LSH_CHECK
const char *lsh_prog = "host_image";

enum { W = 4, H = 3, D = 2, L = 3 };

static cl_mem image(cl_context ctx, cl_mem_flags flags, cl_channel_order order,
                    cl_channel_type type, cl_mem_object_type mt, size_t w, size_t h, size_t d,
                    cl_mem buffer, void *host) {
  cl_image_format f = {order, type};
  cl_image_desc desc = {0};
  desc.image_type = mt;
  desc.image_width = w;
  desc.image_height = h;
  desc.image_depth = mt == CL_MEM_OBJECT_IMAGE3D ? d : 0;
  desc.image_array_size = mt == CL_MEM_OBJECT_IMAGE2D_ARRAY ? d : 0;
  desc.buffer = buffer;
  cl_int err;
  cl_mem m = clCreateImage(ctx, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), &f, &desc, host, &err);
  CHECK(err);
  return m;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "host_image.cl";
  char *src = lsh_read_file(path, 0, NULL);
  cl_context ctx;
  cl_command_queue q;
  cl_program p = lsh_build(src, "", &ctx, &q);
  free(src);

  uint8_t bgra[H][W][4];
  uint16_t half[H][W][4];
  uint16_t vol[D][H][W][4];
  int32_t layers[L][H][W];
  float lut[W][4];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      uint8_t t[4] = {(uint8_t)(85 * x), (uint8_t)(51 * y), 255, 128};
      memcpy(bgra[y][x], t, 4);
      for (int c = 0; c < 4; c++)
        half[y][x][c] = 0x3a00; /* 0.75 */
      for (int z = 0; z < D; z++) {
        uint16_t u[4] = {(uint16_t)x, (uint16_t)y, (uint16_t)z,
                         (uint16_t)(1000 + 100 * x + 10 * y + z)};
        memcpy(vol[z][y][x], u, sizeof u);
      }
      for (int l = 0; l < L; l++)
        layers[l][y][x] = -(100 * l + 10 * y + x);
    }
  for (int i = 0; i < W; i++) {
    float f[4] = {(float)i, i / 2.0f, i / 4.0f, 1.0f};
    memcpy(lut[i], f, sizeof f);
  }
  cl_mem isrc = image(ctx, CL_MEM_READ_ONLY, CL_BGRA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, W, H, 0,
                      NULL, bgra);
  cl_mem idst = image(ctx, CL_MEM_WRITE_ONLY, CL_RGBA, CL_HALF_FLOAT, CL_MEM_OBJECT_IMAGE2D, W, H,
                      0, NULL, half);
  cl_mem ivol = image(ctx, CL_MEM_READ_ONLY, CL_RGBA, CL_UNSIGNED_INT16, CL_MEM_OBJECT_IMAGE3D, W,
                      H, D, NULL, vol);
  cl_mem ilay = image(ctx, CL_MEM_READ_ONLY, CL_R, CL_SIGNED_INT32, CL_MEM_OBJECT_IMAGE2D_ARRAY, W,
                      H, L, NULL, layers);
  cl_mem blut = lsh_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof lut, lut);
  cl_mem ilut = image(ctx, CL_MEM_READ_ONLY, CL_RGBA, CL_FLOAT, CL_MEM_OBJECT_IMAGE1D_BUFFER, W, 0,
                      0, blut, NULL);
  cl_int err;
  cl_sampler_properties sp[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                CL_FALSE,
                                CL_SAMPLER_ADDRESSING_MODE,
                                CL_ADDRESS_CLAMP,
                                CL_SAMPLER_FILTER_MODE,
                                CL_FILTER_NEAREST,
                                0};
  cl_sampler smp = clCreateSamplerWithProperties(ctx, sp, &err);
  CHECK(err);
  cl_mem dout = lsh_buffer(ctx, CL_MEM_READ_WRITE, W * H * sizeof(float), NULL);

  cl_kernel k = lsh_kernel(p, "shade");
  cl_mem args[] = {isrc, idst, NULL, ivol, ilay, ilut, dout};
  for (cl_uint i = 0; i < 7; i++)
    CHECK(i == 2 ? clSetKernelArg(k, i, sizeof smp, &smp)
                 : clSetKernelArg(k, i, sizeof args[i], &args[i]));
  size_t gs[2] = {W, H}, ls[2] = {2, H};
  CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, gs, ls, 0, NULL, NULL));
  float out[W * H];
  CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  uint16_t first[4];
  size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
  CHECK(clEnqueueReadImage(q, idst, CL_TRUE, origin, region, 0, 0, first, 0, NULL, NULL));
  printf("out:");
  for (int i = 0; i < W * H; i++)
    printf(" %g", out[i]);
  printf("\ndst(0, 0): %04x %04x %04x %04x\n", first[0], first[1], first[2], first[3]);

  clReleaseKernel(k);
  cl_mem all[] = {isrc, idst, ivol, ilay, ilut, blut, dout};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    clReleaseMemObject(all[i]);
  clReleaseSampler(smp);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return 0;
}
