/* callstop.cl - a call line as a warp's stop and as the end of a next
 * across a barrier: both show the call's line, not the callee's */
float twice_plus(float x,
                 int k) {
  float r = x * 2.0f + k;
  return r;
}

kernel void callstop(global float *out, local float *tmp, int k) {
  int gid = get_global_id(0);
  int lid = get_local_id(0);
  tmp[lid] = gid * 0.5f;
  barrier(CLK_LOCAL_MEM_FENCE);
  float h = twice_plus(tmp[(lid + 1) % 256], k);
  out[gid] = h;
}
