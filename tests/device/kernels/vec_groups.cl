/* vec_groups.cl - vector loads and stores of each component size and
 * several widths, each lane's vector consecutive with the next lane's or
 * not (a gather or scatter), under divergence or not, and loads from one
 * of two buffers by lane (the lanes' addresses in two allocations). */
#define GROUPS(T)                                                                                  \
  __kernel void groups_##T(__global const T *in, __global const T *in2, __global T *out,           \
                           __global T *out2, __global T *out3, uint n) {                           \
    uint g = get_global_id(0), lid = get_local_id(0);                                             \
    __global const T *p = lid & 1 ? in2 : in;                                                      \
    out[5 * g] = in[g];                                                                            \
    out[5 * g + 1] = in[(g * 7 + 3) % n];                                                          \
    out[5 * g + 2] = lid % 3 ? in[g] : (T)0;                                                       \
    out[5 * g + 3] = lid % 3 ? in[(g * 5 + 1) % n] : (T)0;                                         \
    out2[g] = in[(g * 7 + 3) % n];                                                                 \
    if (lid % 3)                                                                                   \
      out3[g] = in[g];                                                                             \
    out[5 * g + 4] = p[g]; /* last: the interpreter may run what follows */                        \
  }
GROUPS(char2)
GROUPS(char16)
GROUPS(short8)
GROUPS(int3)
GROUPS(int4)
GROUPS(int16)
GROUPS(long2)
GROUPS(long16)


/* Vectors whose lanes are one component apart (a sliding window, read
 * through a pointer aligned to a component only: each component's load
 * is aligned) and vectors every lane reads at one address, under
 * divergence and not. */
#define WAYS(T, S)                                                                                 \
  __kernel void ways_##T(__global const S *in, __global const T *c, __global T *out) {            \
    uint g = get_global_id(0), lid = get_local_id(0);                                             \
    out[4 * g] = *(__global const T *)(in + g);                                                    \
    out[4 * g + 1] = c[1];                                                                         \
    out[4 * g + 2] = lid % 3 ? *(__global const T *)(in + g + 1) : (T)0;                           \
    out[4 * g + 3] = lid % 3 ? c[2] : (T)0;                                                        \
  }
WAYS(char16, char)
WAYS(int4, int)
WAYS(long2, long)
