/* window.cl - loads whose lanes read within twice a warp's width of
 * elements, in shapes that are neither consecutive nor rows: the pair of
 * a bitonic stage, a butterfly, a reversed block, a load under divergence,
 * and a spread over 128 elements (too wide for such a window at warp
 * widths up to 32); and reversed reads at the very end of a buffer. */
#define WINDOW(T, name)                                                                            \
  __kernel void name(__global const T *in, __global T *out, __local T *t, uint j) {                \
    uint lid = get_local_id(0), lsz = get_local_size(0);                                          \
    uint base = get_group_id(0) * 2 * lsz, o = 6 * get_global_id(0);                              \
    t[lid] = in[base + lid];                                                                       \
    t[lid + lsz] = in[base + lid + lsz];                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    uint i = ((lid & ~(j - 1)) << 1) | (lid & (j - 1));                                            \
    out[o] = t[i];                                                                                 \
    out[o + 1] = t[i + j];                                                                         \
    out[o + 2] = t[lid ^ j];                                                                       \
    out[o + 3] = in[base + 2 * lsz - 1 - lid];                                                     \
    out[o + 4] = lid % 3 ? t[lid ^ (2 * j)] : (T)-1;                                               \
    out[o + 5] = t[lid * 5 % (2 * lsz)];                                                           \
  }
WINDOW(int, window_int)
WINDOW(long, window_long)

__kernel void window_end(__global const int *in, __global int *out, uint n) {
  uint g = get_global_id(0);
  out[g] = in[n - 1 - g];
}
