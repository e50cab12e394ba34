/* host_gdbhab.cl - 2^20 work-items under host_run: breakpoint commands and kill */
__kernel void k(__global int *out, __global int *in) {
  int gid = get_global_id(0);
  int acc = in[gid * 8];
  acc = acc + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = acc;
}
