/* fault_oob.cl - one work-item stores past the end of its buffer. */
__kernel void fault_oob(__global int *out, int n) {
  int g = get_global_id(0);
  out[g == 37 ? n + 3 : g] = g;
}
