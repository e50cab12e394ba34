/*
 * builtins_enq.c - the device-side enqueue builtins of OpenCL C 2.0, one
 * lane's call each: enqueue_kernel (all forms, lowered by the translator to
 * one call), enqueue_marker, get_default_queue, the device events and the
 * kernel queries on blocks. A work-item claims a launch record and an event,
 * reserves ring positions with the work-queue protocol of device/wq.h and
 * fills them (layout in device/dq.h); any failure gives everything back and
 * returns a CLK_* code, so a full or misused queue never changes state.
 * This file must not run launches or touch the processor's streams.
 */
#include <stdatomic.h>
#include <string.h>

#include "device/builtins_ext.h"
#include "device/device.h"
#include "device/dq.h"
#include "device/simt_int.h"

/* ---- queue and event access ---- */

struct dq_view {
  uint64_t *w; /* the allocation's words */
  uint64_t handle;
  uint32_t n, nrec, nev;
};

static uint64_t ld(const uint64_t *p) {
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
static void st(uint64_t *p, uint64_t v) {
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
}
static bool cas(uint64_t *p, uint64_t old, uint64_t v) {
  return __atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* The queue behind a queue_t value, or false. */
static bool view(struct simt_lane *ln, uint64_t handle, struct dq_view *v) {
  if (!handle || (handle & 7)) return false;
  uint64_t *h = dev_mem_host(ln->cu->run->mem, handle, WQ_HDR * 8);
  if (!h || ld(&h[DQ_H_MAGIC]) != DQ_MAGIC) return false;
  uint32_t n = (uint32_t)ld(&h[WQ_NENT]);
  uint64_t *w = dev_mem_host(ln->cu->run->mem, handle, dq_words(n) * 8);
  if (!w) return false;
  *v = (struct dq_view){w, handle, n, dq_records(n), dq_events(n)};
  return true;
}

/* The words of a live event, or NULL. */
static uint64_t *event_words(struct simt_lane *ln, uint64_t ev) {
  if (!ev || ev == DQ_NULL_EVENT || (ev & 7)) return NULL;
  uint64_t *e = dev_mem_host(ln->cu->run->mem, ev, DQ_EV_WORDS * 8);
  if (!e || ld(&e[DQ_EV_MAGIC]) != DQ_EV_TAG || ld(&e[DQ_EV_REFS]) == 0) return NULL;
  return e;
}

/* Claims a free event slot with refs references; 0 when none is free. */
static uint64_t event_new(struct dq_view *q, uint64_t refs) {
  for (uint32_t i = 0; i < q->nev; i++) {
    uint64_t *e = &q->w[dq_ev_off(q->n, i)];
    if (ld(&e[DQ_EV_REFS]) == 0 && cas(&e[DQ_EV_REFS], 0, refs)) {
      st(&e[DQ_EV_DONE], 0);
      st(&e[DQ_EV_STATUS], 2); /* CL_SUBMITTED */
      st(&e[DQ_EV_START], 0);
      st(&e[DQ_EV_END], 0);
      st(&e[DQ_EV_CAPT], 0);
      st(&e[DQ_EV_MAGIC], DQ_EV_TAG);
      return q->handle + dq_ev_off(q->n, i) * 8;
    }
  }
  return 0;
}

/* Claims a free launch record; its index or -1. */
static int64_t record_new(struct dq_view *q) {
  for (uint32_t i = 0; i < q->nrec; i++) {
    uint64_t *r = &q->w[dq_rec_off(q->n, i)];
    if (ld(&r[DQ_R_BUSY]) == 0 && cas(&r[DQ_R_BUSY], 0, 1)) return i;
  }
  return -1;
}

/* Reads size bytes the lane addresses (any space) into dst; false after a
 * device exception. */
static bool read_mem(struct simt_lane *ln, uint64_t addr, void *dst, uint64_t size) {
  const void *p = simt_mem_range(ln->cu, ln->w, ln->lane, ln->pc, addr, size, 0);
  if (!p) return false;
  memcpy(dst, p, size);
  return true;
}
static bool write_mem(struct simt_lane *ln, uint64_t addr, const void *src, uint64_t size) {
  void *p = simt_mem_range(ln->cu, ln->w, ln->lane, ln->pc, addr, size, 1);
  if (!p) return false;
  memcpy(p, src, size);
  return true;
}

/* ---- enqueue ---- */

struct enq {
  uint64_t queue, flags, ndr, nev, wl, evret, kidx, block, nloc, sizes;
  bool marker;
};

/* Takes a reference on a live event (one whose count is not 0). */
static bool event_ref(uint64_t *e) {
  uint64_t r = ld(&e[DQ_EV_REFS]);
  while (r && !__atomic_compare_exchange_n(&e[DQ_EV_REFS], &r, r + 1, false, __ATOMIC_ACQ_REL,
                                           __ATOMIC_ACQUIRE)) {
  }
  return r != 0;
}

/* Drops the references a wait list took. */
static void unhold(struct simt_lane *ln, const uint64_t *held, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    uint64_t *e = dev_mem_host(ln->cu->run->mem, held[i], DQ_EV_WORDS * 8);
    if (e) dq_ev_unref(e);
  }
}

/* Checks the wait list, takes a reference on each event (into held, *nheld
 * of them; none on failure) and appends an acquire per event to cmds. */
static int wait_list(struct simt_lane *ln, const struct enq *a, struct cp_op *cmds, uint32_t *nc,
                     uint32_t max, uint64_t *held, uint32_t *nheld) {
  *nheld = 0;
  if ((a->nev == 0) != (a->wl == 0)) return DQ_CLK_INVALID_EVENT_WAIT_LIST;
  if (a->nev > max || a->nev > DQ_MAX_WAIT) return DQ_CLK_OUT_OF_RESOURCES;
  int rc = DQ_CLK_SUCCESS;
  for (uint64_t i = 0; i < a->nev && !rc; i++) {
    uint64_t ev, *e;
    if (!read_mem(ln, a->wl + i * 8, &ev, 8)) {
      rc = DQ_CLK_ENQUEUE_FAILURE;
    } else if (!(e = event_words(ln, ev)) || !event_ref(e)) {
      rc = DQ_CLK_INVALID_EVENT_WAIT_LIST;
    } else {
      held[(*nheld)++] = ev;
      cmds[(*nc)++] =
          (struct cp_op){.kind = CP_OP_SEM_ACQUIRE, .a = (ev >> 3) + DQ_EV_DONE, .value = 1};
    }
  }
  if (rc) {
    unhold(ln, held, *nheld);
    *nheld = 0;
  }
  return rc;
}

/* The NDRange into the record; the number of work-groups, or 0 when
 * invalid. */
static uint64_t ndrange(struct simt_lane *ln, uint64_t addr, uint64_t *rec, int *rc) {
  uint8_t nd[80];
  *rc = DQ_CLK_INVALID_NDRANGE;
  if (!read_mem(ln, addr, nd, sizeof nd)) {
    *rc = DQ_CLK_ENQUEUE_FAILURE;
    return 0;
  }
  uint32_t dim;
  uint64_t off[3], gl[3], lo[3];
  memcpy(&dim, nd, 4);
  memcpy(off, nd + 8, 24);
  memcpy(gl, nd + 32, 24);
  memcpy(lo, nd + 56, 24);
  if (dim < 1 || dim > 3) return 0;
  uint64_t maxwg = dev_device_config(ln->cu->run->dev)->max_wg_size, wg = 1, groups = 1;
  for (uint32_t d = 0; d < 3; d++) {
    if (d >= dim) {
      off[d] = 0;
      gl[d] = lo[d] = 1;
    }
    if (gl[d] == 0) return 0;
    if (lo[d] == 0) { /* the device picks: a divisor of the global size */
      lo[d] = 1;
      if (d == 0)
        for (uint64_t c = gl[0] < 64 ? gl[0] : 64; c > 1; c--)
          if (gl[0] % c == 0) {
            lo[0] = c;
            break;
          }
    }
    wg *= lo[d];
    if (wg > maxwg) return 0;
    groups *= (gl[d] + lo[d] - 1) / lo[d];
    if (groups > UINT32_MAX) {
      *rc = DQ_CLK_OUT_OF_RESOURCES;
      return 0;
    }
  }
  rec[DQ_R_DIM] = dim;
  for (uint32_t d = 0; d < 3; d++) {
    rec[DQ_R_OFFSET + d] = off[d];
    rec[DQ_R_GLOBAL + d] = gl[d];
    rec[DQ_R_LOCAL + d] = lo[d];
  }
  return groups;
}

/* The child kernel's argument buffer and block copy into the record. */
static int arguments(struct simt_lane *ln, const struct enq *a, const struct dq_view *q,
                     uint64_t ri, uint64_t *rec) {
  const struct lsi_program *p = ln->cu->run->l->prog;
  if (!p || a->kidx >= p->nkernels) return DQ_CLK_ENQUEUE_FAILURE;
  const struct lsi_kernel *k = &p->kernels[a->kidx];
  if (k->nargs < 1 || k->nargs - 1 != a->nloc) return DQ_CLK_INVALID_ARG_SIZE;
  if (k->argbuf_size > DQ_ARG_WORDS * 8) return DQ_CLK_OUT_OF_RESOURCES;
  uint32_t bsize = 0;
  if (!read_mem(ln, a->block, &bsize, 4)) return DQ_CLK_ENQUEUE_FAILURE;
  if (bsize < 4 || bsize > DQ_BLOCK_MAX) return DQ_CLK_OUT_OF_RESOURCES;
  if (!read_mem(ln, a->block, &rec[DQ_R_BLOCK], bsize)) return DQ_CLK_ENQUEUE_FAILURE;
  uint8_t *args = (uint8_t *)&rec[DQ_R_ARGS];
  memset(args, 0, DQ_ARG_WORDS * 8);
  uint64_t blk = q->handle + (dq_rec_off(q->n, (uint32_t)ri) + DQ_R_BLOCK) * 8;
  memcpy(args + k->args[0].buf_offset, &blk, 8);
  uint64_t local = 0;
  for (uint32_t j = 1; j < k->nargs; j++) {
    uint64_t sz;
    if (!read_mem(ln, a->sizes + (j - 1) * 8, &sz, 8)) return DQ_CLK_ENQUEUE_FAILURE;
    if (sz == 0 || k->args[j].kind != LSI_ARG_LOCAL) return DQ_CLK_INVALID_ARG_SIZE;
    memcpy(args + k->args[j].buf_offset, &sz, 8);
    local += (sz + 15) / 16 * 16;
  }
  uint64_t lmax = dev_device_config(ln->cu->run->dev)->local_mem_size;
  if (lmax && local + k->local_size > lmax) return DQ_CLK_OUT_OF_RESOURCES;
  rec[DQ_R_KERNEL] = a->kidx;
  return DQ_CLK_SUCCESS;
}

static int enqueue(struct simt_lane *ln, const struct enq *a) {
  struct dq_view q;
  if (!view(ln, a->queue, &q)) return DQ_CLK_INVALID_QUEUE;
  if (!a->marker && a->flags > 2) return DQ_CLK_ENQUEUE_FAILURE;
  if (a->marker && a->nev == 0) return DQ_CLK_INVALID_EVENT_WAIT_LIST;
  enum { MAXC = 4 * WQ_MAX_CMDS };
  struct cp_op cmds[MAXC];
  uint64_t held[DQ_MAX_WAIT];
  uint32_t nc = 0, nheld = 0;
  int rc = wait_list(ln, a, cmds, &nc, MAXC - 2, held, &nheld);
  if (rc) return rc;
  uint64_t evret_old = 0;
  int64_t ri = -1;
  if (a->evret && !read_mem(ln, a->evret, &evret_old, 8))
    rc = DQ_CLK_ENQUEUE_FAILURE;
  else if ((ri = record_new(&q)) < 0)
    rc = DQ_CLK_DEVICE_QUEUE_FULL;
  if (rc) {
    unhold(ln, held, nheld);
    return rc;
  }
  uint64_t *rec = &q.w[dq_rec_off(q.n, (uint32_t)ri)];
  uint64_t groups = 0, ev = 0;
  const struct dev_launch *l = ln->cu->run->l;
  if (a->marker) {
    rec[DQ_R_KERNEL] = DQ_NO_KERNEL;
  } else {
    groups = ndrange(ln, a->ndr, rec, &rc);
    if (groups) rc = arguments(ln, a, &q, (uint64_t)ri, rec);
    cmds[nc++] =
        (struct cp_op){.kind = CP_OP_LAUNCH, .n = (uint32_t)groups, .value = (uint64_t)ri, .id = 1};
  }
  if (!rc && a->evret && !(ev = event_new(&q, 2))) rc = DQ_CLK_EVENT_ALLOCATION_FAILURE;
  cmds[nc++] = (struct cp_op){.kind = CP_OP_SIGNAL, .id = (unsigned)ri};
  uint32_t nblocks = (nc + WQ_MAX_CMDS - 1) / WQ_MAX_CMDS;
  uint64_t first = 0;
  struct wq_ref ref = {q.w, q.handle >> 3, q.n};
  if (!rc && wq_reserve(ref, nblocks + 1, &first) != WQ_OK) rc = DQ_CLK_DEVICE_QUEUE_FULL;
  if (rc) { /* give everything back: nothing changed */
    if (ev) st(&q.w[(ev - q.handle) / 8 + DQ_EV_REFS], 0);
    unhold(ln, held, nheld);
    st(&rec[DQ_R_BUSY], 0);
    return rc;
  }
  rec[DQ_R_NWAIT] = nheld; /* the processor drops these references at the SIGNAL */
  for (uint32_t i = 0; i < nheld; i++)
    rec[DQ_R_WAIT + i] = held[i];
  rec[DQ_R_PROG] = (uint64_t)(uintptr_t)l->prog;
  rec[DQ_R_EVENT] = ev;
  rec[DQ_R_DATA] = l->data_base;
  rec[DQ_R_DEFQ] = l->default_queue;
  for (uint32_t b = 0; b < nblocks; b++) {
    uint32_t k = nc - b * WQ_MAX_CMDS < WQ_MAX_CMDS ? nc - b * WQ_MAX_CMDS : WQ_MAX_CMDS;
    wq_put_block(ref, first + b, &cmds[b * WQ_MAX_CMDS], k);
  }
  if (ev) write_mem(ln, a->evret, &ev, 8);
  wq_commit(ref, first, nblocks + 1);
  (void)evret_old;
  return DQ_CLK_SUCCESS;
}

void bq_enqueue(BX_ARGS) {
  (void)nargs, (void)data;
  struct enq a = {arg[0], (uint32_t)arg[1], arg[2],           (uint32_t)arg[3], arg[4], arg[5],
                  arg[6], arg[7],           (uint32_t)arg[8], arg[9],           false};
  res[0] = (uint32_t)enqueue(ln, &a);
}

void bq_marker(BX_ARGS) {
  (void)nargs, (void)data;
  struct enq a = {
      .queue = arg[0], .nev = (uint32_t)arg[1], .wl = arg[2], .evret = arg[3], .marker = true};
  res[0] = (uint32_t)enqueue(ln, &a);
}

void bq_default_queue(BX_ARGS) {
  (void)arg, (void)nargs, (void)data;
  res[0] = ln->cu->run->l->default_queue;
}

/* ---- events ---- */

void bq_retain_event(BX_ARGS) {
  (void)res, (void)nargs, (void)data;
  uint64_t *e = event_words(ln, arg[0]);
  if (e) __atomic_fetch_add(&e[DQ_EV_REFS], 1, __ATOMIC_ACQ_REL);
}

void bq_release_event(BX_ARGS) {
  (void)res, (void)nargs, (void)data;
  uint64_t *e = event_words(ln, arg[0]);
  if (e) dq_ev_unref(e);
}

void bq_create_user_event(BX_ARGS) {
  (void)arg, (void)nargs, (void)data;
  struct dq_view q;
  uint64_t ev = view(ln, ln->cu->run->l->default_queue, &q) ? event_new(&q, 1) : 0;
  res[0] = ev ? ev : DQ_NULL_EVENT;
}

void bq_set_user_event_status(BX_ARGS) {
  (void)res, (void)nargs, (void)data;
  uint64_t *e = event_words(ln, arg[0]);
  int32_t status = (int32_t)arg[1];
  if (!e || ld(&e[DQ_EV_DONE]) || status > 0) return;
  uint64_t now = dev_device_now_ns(ln->cu->run->dev);
  st(&e[DQ_EV_START], now);
  st(&e[DQ_EV_END], now);
  st(&e[DQ_EV_STATUS], (uint64_t)(int64_t)status);
  uint64_t dst = dq_ev_close(e), v[2];
  uint64_t *p = dst ? dev_mem_host(ln->cu->run->mem, dst, sizeof v) : NULL;
  if (p) { /* a capture parked before the event completed */
    dq_ev_exec_time(e, v);
    memcpy(p, v, sizeof v);
  }
  st(&e[DQ_EV_DONE], 1);
}

void bq_is_valid_event(BX_ARGS) {
  (void)nargs, (void)data;
  res[0] = event_words(ln, arg[0]) != NULL;
}

/* The values are written once the event completed: at once when it has,
 * else by whoever completes it (the capture word, device/dq.h). */
void bq_capture_profiling(BX_ARGS) {
  (void)res, (void)nargs, (void)data;
  uint64_t *e = event_words(ln, arg[0]), v[2], dst = arg[2], cur = 0;
  if (!e || (uint32_t)arg[1] != 1 /* CLK_PROFILING_COMMAND_EXEC_TIME */) return;
  /* The destination is checked now: a bad one faults here, in the kernel. */
  if (!simt_mem_range(ln->cu, ln->w, ln->lane, ln->pc, dst, sizeof v, 1)) return;
  if (dst == 0 || dst == DQ_EV_CLOSED) return;
  if (__atomic_compare_exchange_n(&e[DQ_EV_CAPT], &cur, dst, false, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE))
    return; /* parked: the completer writes it */
  if (cur == DQ_EV_CLOSED) {
    dq_ev_exec_time(e, v);
    write_mem(ln, dst, v, sizeof v);
    return;
  }
  simt_fault(ln->cu, ln->w, ln->lane, ln->pc, LSI_TRAP_UNSUPPORTED, dst,
             "capture_event_profiling_info: the event already has a capture waiting for it to "
             "complete (one at a time per event)");
}

/* ---- queries on blocks: data 0 work-group size, 1 preferred multiple ---- */

void bq_kernel_query(BX_ARGS) {
  (void)nargs;
  const struct simt_run *run = ln->cu->run;
  const struct lsi_program *p = run->l->prog;
  uint64_t v = data ? run->W : dev_device_config(run->dev)->max_wg_size;
  if (p && arg[0] < p->nkernels && p->kernels[arg[0]].reqd_wg_size[0] && !data) {
    const uint64_t *r = p->kernels[arg[0]].reqd_wg_size;
    v = r[0] * r[1] * r[2];
  }
  res[0] = (uint32_t)v;
}

void bq_ndrange(BX_ARGS) {
  (void)res, (void)nargs;
  uint32_t dim = data & 15, nv = data >> 4;
  uint64_t v[3][3] = {{0}}; /* offset, global, local */
  for (uint32_t k = 0; k < nv; k++) {
    uint32_t which = nv == 1 ? 1 : nv == 2 ? k + 1 : k;
    if (dim == 1)
      v[which][0] = arg[1 + k];
    else if (!read_mem(ln, arg[1 + k], v[which], dim * 8u))
      return;
  }
  uint8_t nd[80] = {0};
  memcpy(nd, &dim, 4);
  memcpy(nd + 8, v[0], 24);
  memcpy(nd + 32, v[1], 24);
  memcpy(nd + 56, v[2], 24);
  write_mem(ln, arg[0], nd, sizeof nd);
}
