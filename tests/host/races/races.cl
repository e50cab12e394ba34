/* Kernels for the data-race checker (races.sh): each takes a global int
 * buffer and a __local int buffer of one int per work-item. */

/* A tree reduction whose barrier inside the loop was removed: local race. */
__kernel void reduce_nobar(__global int *out, __local int *tmp) {
  int l = get_local_id(0), n = get_local_size(0);
  tmp[l] = l + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}

/* The same reduction, correct. */
__kernel void reduce_ok(__global int *out, __local int *tmp) {
  int l = get_local_id(0), n = get_local_size(0);
  tmp[l] = l + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}

/* The first work-item of every work-group writes the same global element. */
__kernel void global_ww(__global int *out, __local int *tmp) {
  if (get_local_id(0) == 0) out[0] = (int)get_group_id(0);
}

/* Lanes 2k and 2k+1 of one warp write the same element in one instruction. */
__kernel void warp_ww(__global int *out, __local int *tmp) {
  int l = get_local_id(0);
  tmp[l / 2] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[l / 2];
}

/* Lane 0 writes what lane 1 of the same warp reads, with no barrier. */
__kernel void warp_rw(__global int *out, __local int *tmp) {
  int l = get_local_id(0);
  if (l == 0) tmp[1] = 7;
  if (l == 1) out[get_global_id(0)] = tmp[1];
}

/* Atomics on local and global memory, and barrier-ordered accesses: no
 * race. */
__kernel void atomics_ok(__global int *out, __local int *tmp) {
  int l = get_local_id(0);
  if (l == 0) tmp[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&tmp[0], 1);
  atomic_inc(&out[0]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) out[1 + get_group_id(0)] = tmp[0];
}

/* Each work-item writes its element, then after a global barrier reads its
 * neighbour's (same work-group): ordered, no race. */
__kernel void global_bar_ok(__global int *out, __local int *tmp) {
  int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  out[g] = g;
  barrier(CLK_GLOBAL_MEM_FENCE);
  int v = out[g - l + (l + 1) % n];
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] = v;
}

/* Every work-item writes the same value to one local element: still a race. */
__kernel void benign(__global int *out, __local int *tmp) {
  tmp[0] = 42;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[0];
}

/* A barrier fencing only global memory does not order local accesses. */
__kernel void wrong_fence(__global int *out, __local int *tmp) {
  int l = get_local_id(0), n = get_local_size(0);
  tmp[l] = l;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(l + 1) % n];
}

/* Work-items write neighbouring bytes of the same words, and after a
 * barrier one reads a whole word: no race. */
__kernel void bytes_ok(__global int *out, __local int *tmp) {
  __local uchar *b = (__local uchar *)tmp;
  int l = get_local_id(0);
  b[l] = (uchar)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) out[get_group_id(0)] = tmp[1];
}

/* Work-item 1 reads a byte of the word work-item 0 writes whole: a race. */
__kernel void byte_word(__global int *out, __local int *tmp) {
  int l = get_local_id(0);
  if (l == 0) tmp[0] = 0x01020304;
  if (l == 1) out[get_global_id(0)] = ((__local uchar *)tmp)[2];
}

/* Every work-group writes elements 0 to 63 whole warps at a time: the
 * work-items of one local id in different work-groups race (global memory
 * at the same epoch). */
__kernel void global_rows(__global int *out, __local int *tmp) {
  out[get_local_id(0)] = (int)get_group_id(0);
}

/* Each work-item writes its element, then reads one byte of its
 * neighbour's with no barrier: a race between a whole-word write and a
 * byte read on global memory (the neighbour in the same warp, and across
 * warps). */
__kernel void global_byte_word(__global int *out, __local int *tmp) {
  int g = get_global_id(0), n = get_global_size(0);
  out[g] = g;
  tmp[get_local_id(0)] = ((__global uchar *)out)[4 * ((g + 1) % n) + 1];
}

/* Work-items write bytes of their own element, then whole warps read the
 * elements, one work-group after another: each byte's write races with the
 * reads of the other work-groups. */
__kernel void global_bytes_rows(__global int *out, __local int *tmp) {
  int l = get_local_id(0);
  if (get_group_id(0) == 0) ((__global uchar *)out)[4 * l + 3] = 1;
  tmp[l] = out[l];
}

/* Whole warps write their elements, then after a global barrier read them
 * back and write them again shifted by one warp within the work-group:
 * ordered, no race. */
__kernel void global_rows_ok(__global int *out, __local int *tmp) {
  int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  out[g] = l;
  barrier(CLK_GLOBAL_MEM_FENCE);
  int v = out[g];
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[g - l + (l + 8) % n] = v + 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  tmp[l] = out[g];
}

/* Every work-item reads element 64, and after a barrier the first of each
 * work-group writes it: each read races with the other work-group's write
 * (run on one compute unit, work-group 0 then 1, so the count is fixed:
 * work-group 1's reads each find work-group 0's write, though work-groups
 * 0 and 1 both read the element before, as a table every work-group reads). */
__kernel void global_settled(__global int *out, __local int *tmp) {
  int l = get_local_id(0);
  tmp[l] = out[64];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (l == 0) out[64] = (int)get_group_id(0);
  tmp[l] = out[65 + l % 2];
}

/* Work-item 0 stores, then every work-item adds atomically with no barrier
 * between: the store races with the other work-items' atomics (its own
 * atomic after it does not hide it). */
__kernel void plain_atomic(__global int *out, __local int *tmp) {
  int l = get_local_id(0);
  if (l == 0) tmp[0] = 5;
  atomic_inc(&tmp[0]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) out[get_group_id(0)] = tmp[0];
}

/* The launch's first work-item stores a global counter, and after a
 * barrier every work-item adds to it atomically: the barrier orders its
 * work-group, not the other one. */
__kernel void plain_bar_atomic(__global int *out, __local int *tmp) {
  if (get_global_id(0) == 0) out[0] = 0;
  barrier(CLK_GLOBAL_MEM_FENCE);
  atomic_inc(&out[0]);
}

/* Each work-item stores its element, then an async copy overwrites the
 * same elements with no barrier between, in local and in global memory:
 * the copy is the work-group's (any work-item may copy any element), so
 * it races with every store. */
__kernel void async_ww(__global int *out, __local int *tmp) {
  int l = get_local_id(0), n = get_local_size(0);
  __global int *mine = out + get_group_id(0) * n;
  tmp[l] = l;
  event_t e = async_work_group_copy(tmp, mine, n, 0);
  wait_group_events(1, &e);
  mine[l] = tmp[l] + 1;
  e = async_work_group_copy(mine, tmp, n, 0);
  wait_group_events(1, &e);
}

/* The same copies ordered by a wait and a barrier: no race. */
__kernel void async_ok(__global int *out, __local int *tmp) {
  int l = get_local_id(0), n = get_local_size(0);
  __global int *mine = out + get_group_id(0) * n;
  event_t e = async_work_group_copy(tmp, mine, n, 0);
  wait_group_events(1, &e);
  mine[l] = tmp[(l + 1) % n] + 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  e = async_work_group_copy(mine, tmp, n, 0);
  wait_group_events(1, &e);
}

/* Work-items race through a compare-exchange: one wins and reads the word
 * plainly; the others' failed exchanges only read it: no race. */
__kernel void cas_ok(__global int *out, __local int *tmp) {
  int l = get_local_id(0);
  if (l == 0) tmp[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (atomic_cmpxchg(&tmp[0], 0, l + 1) == 0) out[get_group_id(0)] = tmp[0];
}

/* A race on a kernel-scope __local array after another one: the report
 * names the variable and the offset in it. */
__kernel void static_local(__global int *out, __local int *tmp) {
  __local int flag[4];
  __local int tile[64];
  int l = get_local_id(0);
  if (l < 4) flag[l] = l;
  tile[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[l] += tile[(l + 1) % 64] + flag[l % 4];
  out[get_global_id(0)] = tile[l];
}

/* Every work-item stores its work-group's id to one local word and reads it
 * back with no barrier: each read races with the other work-items' stores.
 * The word's record names its first writer, work-item 0, so work-item 0's
 * own read races with the others it stands for ("other work-items"), never
 * with itself. */
__kernel void shared_word(__global int *out, __local int *tmp) {
  volatile __local int *v = tmp; /* the read is not folded into the store */
  v[0] = (int)get_group_id(0);
  out[get_global_id(0)] = v[0];
}
