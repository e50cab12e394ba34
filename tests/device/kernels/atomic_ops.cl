/* atomic_ops.cl - every OpenCL 1.2 atomic_* function on global int and
 * uint, and atom_* aliases, under contention from every work-item. */
__kernel void atomic_ops(__global int *s, __global uint *u, __global int *old) {
  int g = get_global_id(0);
  atomic_add(&s[0], g);
  atomic_sub(&s[1], g);
  atomic_inc(&s[2]);
  atomic_dec(&s[3]);
  atomic_min(&s[4], g * 7 % 1001 - 500);
  atomic_max(&s[5], g * 7 % 1001 - 500);
  atomic_and(&u[0], ~(1u << (g % 32)) | (g < 32 ? 0u : 0xffffffffu));
  atomic_or(&u[1], 1u << (g % 29));
  atomic_xor(&u[2], (uint)g);
  atomic_min(&u[3], (uint)g + 5);
  atomic_max(&u[4], (uint)g * 3);
  atom_add(&u[5], 2u);
  old[g] = atomic_xchg(&s[6], g);
  while (atomic_cmpxchg(&s[7], g, g + 1) != g) ;
  float f = atomic_xchg((__global float *)&s[8], (float)g);
  old[get_global_size(0) + g] = (int)f;
}
