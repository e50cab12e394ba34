/* atom_64.cl - 64-bit atom_* (cl_khr_int64_base/extended_atomics) on
 * global long and ulong under contention. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atom_64(__global long *s, __global ulong *u, __global long *old) {
  long g = get_global_id(0);
  atom_add(&s[0], g << 33);
  atom_sub(&s[1], g << 20);
  atom_inc(&s[2]);
  atom_dec(&s[3]);
  atom_min(&s[4], -(g << 34));
  atom_max(&s[5], g << 35);
  atom_or(&u[0], 1UL << (g % 64));
  atom_and(&u[1], ~(1UL << (g % 64)));
  atom_xor(&u[2], (ulong)g << 40);
  atom_max(&u[3], (ulong)g << 40);
  old[g] = atom_xchg(&s[6], g);
  while (atom_cmpxchg(&s[7], g << 32, (g + 1) << 32) != g << 32) ;
}
