/* kbreak.cl - a kernel breakpoint with a condition stops the first
 * work-item it holds for at the kernel's entry */
__kernel void k(__global int *out, int base) {
  int gid = get_global_id(0);
  int acc = base;
  for (int i = 0; i < 3; i++)
    acc += gid * i;
  out[gid] = acc;
}
