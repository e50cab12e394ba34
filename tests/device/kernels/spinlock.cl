/* spinlock.cl - a per-lane spin lock inside one warp: every lane of the
 * work-group takes the lock in turn (needs independent forward progress). */
__kernel void spinlock(__global int *lock, __global int *counter) {
  int grp = get_group_id(0);
  while (atomic_cmpxchg(&lock[grp], 0, 1) != 0) ;
  counter[grp]++;
  atomic_xchg(&lock[grp], 0);
}
