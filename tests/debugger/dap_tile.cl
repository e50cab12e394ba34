/* dap_tile.cl - local memory, a barrier, a vector, a struct and an inlined
 * helper (the DAP tests in dap/editor.test.mjs, run by host_run) */
typedef struct {
  int a;
  float b;
  int4 v;
} rec;
int helper(int x) {
  int y = x + 1;
  return y * 3;
}
__kernel void k(__global int *out, __global int *in) {
  __local int tile[4];
  int gid = get_global_id(0);
  int lid = get_local_id(0);
  tile[lid] = in[gid * 8];
  barrier(CLK_LOCAL_MEM_FENCE);
  int4 v = (int4)(tile[0], tile[1], tile[2], tile[3]);
  rec r;
  r.a = lid;
  r.b = 0.5f * gid;
  r.v = v * 2;
  int h = helper(r.a);
  out[gid] = h + v.x + v.w;
}
