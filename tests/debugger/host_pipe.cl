/* host_pipe.cl - one work-item's read_pipe and write_pipe */
__kernel void produce(write_only pipe int p) {
  int v = (int)get_global_id(0) + 1;
  v = v * v;
  int r = write_pipe(p, &v);
  v = r;
}
__kernel void consume(read_only pipe int p, __global int *out) {
  int v = -1;
  int r = read_pipe(p, &v);
  out[get_global_id(0)] = r ? -1 : v;
}
__kernel void left(read_only pipe int p, __global int *out) {
  out[8] = get_pipe_num_packets(p);
}
