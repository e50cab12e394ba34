/*
 * test_pipe.c - the pipe builtins of device/builtins_pipe.c called through
 * the table from many host threads at once, as compute-unit workers call
 * them: writers with single packets and with reservations committed out of
 * order, readers likewise, on a small pipe; every packet arrives exactly
 * once and the pipe ends empty. It must not depend on the compiler or the
 * runtime.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "device/builtins.h"
#include "device/mem.h"
#include "device/pipe.h"
#include "device/simt_int.h"
#include "util/check_util.h"

#define THREADS 4     /* writers, and as many readers */
#define PER     15000 /* packets per writer (a multiple of 3) */
#define SLOTS   256   /* the pipe's max_packets */

struct world {
  struct dev_mem *mem;
  struct simt_run run;
  uint64_t pipe;
  _Atomic uint32_t *seen; /* per packet value: times read */
};

struct worker {
  struct world *w;
  struct simt_cu cu;
  struct simt_warp warp;
  uint32_t *cell; /* the worker's own 12 bytes of global memory */
  uint64_t cell_addr;
  unsigned index;
  bool writer;
};

/* One lane's call of a pipe builtin on the world's pipe of int packets:
 * (pipe, a1, size, align) or (pipe, a1, a2, a3, size, align). */
static uint64_t call(struct worker *k, const char *name, uint64_t a1, uint64_t a2, uint64_t a3) {
  int id = lsi_builtin_lookup(name);
  ck_assert_msg(id >= 0, "missing %s", name);
  unsigned n = lsi_builtin_nargs(id);
  uint64_t args[6] = {k->w->pipe, a1, 4, 4, 0, 0}, res[1] = {0};
  if (n == 6) {
    args[2] = a2, args[3] = a3;
    args[4] = args[5] = 4;
  }
  struct simt_lane ln = {&k->cu, &k->warp, 0, 0, 0};
  lsi_builtins[id].fn(&ln, res, args, n, lsi_builtins[id].data);
  ck_assert_msg(!k->cu.faulted, "%s faulted: %s", name, k->cu.exc.message);
  return res[0];
}

static bool valid(uint64_t rid) {
  int id = lsi_builtin_lookup("_Z19is_valid_reserve_id13ocl_reserveid");
  uint64_t res[1] = {0};
  lsi_builtins[id].fn(NULL, res, &rid, 1, 0);
  return res[0] != 0;
}

/* Even workers move one packet at a time, odd ones reserve three and
 * access them last to first before the commit. */
static void *work(void *arg) {
  struct worker *k = arg;
  const char *rw2 = k->writer ? "__write_pipe_2" : "__read_pipe_2";
  const char *rw4 = k->writer ? "__write_pipe_4" : "__read_pipe_4";
  const char *res = k->writer ? "__reserve_write_pipe" : "__reserve_read_pipe";
  const char *com = k->writer ? "__commit_write_pipe" : "__commit_read_pipe";
  for (uint32_t i = 0; i < PER;) {
    if (k->index & 1) {
      uint64_t rid = call(k, res, 3, 0, 0);
      if (!valid(rid)) continue;
      for (uint32_t j = 3; j-- > 0;) {
        k->cell[j] = k->index * PER + i + j;
        ck_assert_uint_eq(call(k, rw4, rid, j, k->cell_addr + 4 * j), 0);
      }
      call(k, com, rid, 0, 0);
      if (!k->writer)
        for (uint32_t j = 0; j < 3; j++)
          k->w->seen[k->cell[j]]++;
      i += 3;
    } else {
      k->cell[0] = k->index * PER + i;
      if ((uint32_t)call(k, rw2, k->cell_addr, 0, 0) != 0) continue;
      if (!k->writer) k->w->seen[k->cell[0]]++;
      i++;
    }
  }
  return NULL;
}

START_TEST(test_many_threads) {
  struct world w;
  memset(&w, 0, sizeof w);
  w.mem = dev_mem_create();
  w.run.mem = w.mem;
  uint64_t bytes = pipe_bytes(4, SLOTS);
  void *store = NULL;
  ck_assert_int_eq(posix_memalign(&store, 128, bytes), 0);
  pipe_init(store, 4, SLOTS);
  w.pipe = dev_mem_map(w.mem, store, bytes, true);
  w.seen = calloc(THREADS * PER, sizeof *w.seen);
  struct worker ks[2 * THREADS];
  uint32_t cells[2 * THREADS][4];
  pthread_t t[2 * THREADS];
  for (unsigned i = 0; i < 2 * THREADS; i++) {
    memset(&ks[i], 0, sizeof ks[i]);
    ks[i].w = &w;
    ks[i].cu.run = &w.run;
    ks[i].cell = cells[i];
    ks[i].cell_addr = dev_mem_map(w.mem, cells[i], sizeof cells[i], false);
    ks[i].index = i % THREADS;
    ks[i].writer = i < THREADS;
  }
  for (unsigned i = 0; i < 2 * THREADS; i++)
    pthread_create(&t[i], NULL, work, &ks[i]);
  for (unsigned i = 0; i < 2 * THREADS; i++)
    pthread_join(t[i], NULL);
  unsigned lost = 0, dup = 0;
  for (unsigned i = 0; i < THREADS * PER; i++) {
    lost += w.seen[i] == 0;
    dup += w.seen[i] > 1;
  }
  ck_assert_msg(!lost && !dup, "%u packets lost, %u duplicated", lost, dup);
  const uint64_t *h = store;
  ck_assert_uint_eq(h[PIPE_H_W_COM], (uint64_t)THREADS * PER);
  ck_assert_uint_eq(h[PIPE_H_R_COM], (uint64_t)THREADS * PER);
  ck_assert_uint_eq(h[PIPE_H_W_RES], (uint64_t)THREADS * PER);
  ck_assert_uint_eq(h[PIPE_H_R_RES], (uint64_t)THREADS * PER);
  dev_mem_destroy(w.mem);
  free(store);
  free(w.seen);
}
END_TEST

int main(void) {
  Suite *s = suite_create("pipe");
  CU_ADD(s, test_many_threads);
  return cu_run(s);
}
