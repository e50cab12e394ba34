/* Images and samplers for the debugger tests (host_image.c runs shade). */
__kernel void shade(read_only image2d_t src, write_only image2d_t dst, sampler_t smp,
                    read_only image3d_t vol, read_only image2d_array_t layers,
                    read_only image1d_buffer_t lut, __global float *out) {
  const sampler_t near = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
  int x = get_global_id(0), y = get_global_id(1);
  float4 c = read_imagef(src, smp, (int2)(x, y));
  uint4 v = read_imageui(vol, (int4)(x, y, 1, 0));
  int4 l = read_imagei(layers, (int4)(x, y, 2, 0));
  float4 w = read_imagef(src, near, (float2)(0.1f, 0.1f));
  write_imagef(dst, (int2)(x, y), c * 0.5f);
  out[y * get_global_size(0) + x] = c.x + v.w - l.x + read_imagef(lut, x).y + w.w;
}
