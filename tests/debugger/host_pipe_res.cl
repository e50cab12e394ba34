/* host_pipe_res.cl - work-group and sub-group reservations */
__kernel void produce(write_only pipe int p) {
  int v = (int)get_global_id(0) + 1;
  v = v * v;
  reserve_id_t g = work_group_reserve_write_pipe(p, 2);
  if (get_local_id(0) < 2 && is_valid_reserve_id(g))
    write_pipe(p, g, get_local_id(0), &v);
  work_group_commit_write_pipe(p, g);
  uint mine = get_local_id(0) >= 2;
  uint n = sub_group_reduce_add(mine), at = sub_group_scan_exclusive_add(mine);
  if (n) {
    reserve_id_t s = sub_group_reserve_write_pipe(p, n);
    if (mine && is_valid_reserve_id(s))
      write_pipe(p, s, at, &v);
    sub_group_commit_write_pipe(p, s);
  }
}
__kernel void consume(read_only pipe int p, __global int *out) {
  int v = -1;
  reserve_id_t g = work_group_reserve_read_pipe(p, 4);
  int r = is_valid_reserve_id(g) ? read_pipe(p, g, get_local_id(0), &v) : -1;
  work_group_commit_read_pipe(p, g);
  out[get_global_id(0)] = r ? -1 : v;
}
__kernel void left(read_only pipe int p, __global int *out) {
  out[8] = get_pipe_num_packets(p);
}
