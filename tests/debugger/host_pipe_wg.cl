/* host_pipe_wg.cl - work-group reservations in a group of two warps */
__kernel void produce(write_only pipe int p) {
  int v = (int)get_global_id(0) + 1, pad = 0;
  for (int i = 0; get_local_id(0) >= 4 && i < 2000; i++)
    pad += i;
  v = v * v;
  reserve_id_t g = work_group_reserve_write_pipe(p, 8);
  if (is_valid_reserve_id(g))
    write_pipe(p, g, get_local_id(0), &v);
  if (get_local_id(0) >= 4)
    pad = 2;
  work_group_commit_write_pipe(p, g);
}
__kernel void consume(read_only pipe int p, __global int *out) {
  int v = -1;
  reserve_id_t g = work_group_reserve_read_pipe(p, 8);
  int r = is_valid_reserve_id(g) ? read_pipe(p, g, get_local_id(0), &v) : -1;
  work_group_commit_read_pipe(p, g);
  out[get_global_id(0)] = r ? -1 : v;
}
__kernel void left(read_only pipe int p, __global int *out) {
  out[8] = get_pipe_num_packets(p);
}
