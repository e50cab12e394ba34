/* bi_async.cl - async_work_group_copy and async_work_group_strided_copy
 * (gather and scatter), wait_group_events and prefetch for every element
 * type at every vector width: one kernel per type, 32 elements a group. */
#define AC(T, name)                                                                                \
  __kernel void name(__global const T *in, __global T *out, __global T *out2) {                    \
    __local T tmp[32];                                                                             \
    size_t grp = get_group_id(0);                                                                  \
    prefetch(in + 64 * grp, 64);                                                                   \
    event_t e = async_work_group_copy(tmp, in + 64 * grp, 32, 0);                                  \
    wait_group_events(1, &e);                                                                      \
    e = async_work_group_strided_copy(out + 64 * grp, tmp, 32, 2, 0);                              \
    wait_group_events(1, &e);                                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    e = async_work_group_strided_copy(tmp, in + 64 * grp, 32, 2, 0);                               \
    wait_group_events(1, &e);                                                                      \
    e = async_work_group_copy(out2 + 32 * grp, tmp, 32, 0);                                        \
    wait_group_events(1, &e);                                                                      \
  }
#define WIDTHS(T)                                                                                  \
  AC(T, ac_##T)                                                                                    \
  AC(T##2, ac_##T##2)                                                                              \
  AC(T##3, ac_##T##3) AC(T##4, ac_##T##4) AC(T##8, ac_##T##8) AC(T##16, ac_##T##16)
WIDTHS(char)
WIDTHS(uchar)
WIDTHS(short)
WIDTHS(ushort)
WIDTHS(int)
WIDTHS(uint)
WIDTHS(long)
WIDTHS(ulong)
WIDTHS(float)
WIDTHS(double)
