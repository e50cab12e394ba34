/* pass_stress.cl - a 2-D launch with non-uniform work-groups (12x5 in 4x2:
 * the last row of groups is 4x1) for pass_stress.sh: a barrier over local
 * memory, a sub-group reduction (the whole sub-group, or 1000000 more), a
 * loop whose trip count differs per work-item, an if/else, and atomics
 * counted once per work-item visit */
__kernel void k(__global int *out, __global int *cnt) {
  __local int tmp[8];
  int x = get_global_id(0), y = get_global_id(1);
  int gid = y * 12 + x;
  int lid = get_local_id(1) * 4 + get_local_id(0);
  tmp[lid] = gid;
  barrier(CLK_LOCAL_MEM_FENCE);
  int n = (int)(get_local_size(0) * get_local_size(1));
  int acc = tmp[(lid + 1) % n];
  acc += sub_group_reduce_add(1) == (int)get_sub_group_size() ? 0 : 1000000;
  for (int i = 0; i < gid % 4; i++) {
    acc += i * 100;
    atomic_add(&cnt[0], 1);
  }
  if (gid % 3 == 0) {
    acc += 7;
  } else {
    acc -= 2;
  }
  atomic_inc(&cnt[1]);
  out[gid] = acc;
}
