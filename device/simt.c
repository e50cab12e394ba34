/*
 * simt.c - one NDRange launch on the simulated compute units: validates the
 * kernel, lays out local memory, hands work-groups to the worker threads,
 * splits each group into warps and interleaves them (the per-compute-unit
 * warp scheduler, which also implements work-group barriers), and turns
 * faults into one device exception. Statistics go to stderr when
 * LOCKSTEP_STATS=1.
 *
 * It must not execute instructions itself (interp.c) nor touch the host
 * process outside the launch's buffers; it never aborts.
 */
#include "device/simt.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "device/builtins.h"
#include "device/device.h"
#include "device/native.h"
#include "device/simt_int.h"

#define SIMT_SLICE     256 /* branch points a warp runs before the next warp's turn */
#define SIMT_DEQUE_CAP 32  /* initial tokens per warp */

static const char *const space_name[8] = {"invalid", "global",  "constant", "local",
                                          "private", "generic", "invalid",  "invalid"};

/* ---- faults ---- */

static void fill_ids(struct simt_cu *cu, struct simt_warp *w, unsigned lane,
                     struct dev_exception *e) {
  const struct dev_launch *l = cu->run->l;
  for (int k = 0; k < 3; k++) {
    e->group_id[k] = cu->group_id[k];
    e->local_id[k] = w ? w->lid[k][lane] : 0;
    e->global_id[k] = l->offset[k] + cu->group_id[k] * l->local[k] + e->local_id[k];
  }
}

/* Fills e for a fault of that lane at pc, all but the message. */
static void exc_fill(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc, int trap,
                     uint64_t addr, struct dev_exception *e) {
  struct simt_run *run = cu->run;
  const struct lsi_kernel *k = run->k;
  memset(e, 0, sizeof(*e));
  e->trap = trap;
  e->kernel = k->name;
  e->pc = pc;
  e->have_pc = pc < k->ninsns;
  if (k->lines && pc < k->ninsns) {
    e->line = k->lines[pc].line;
    if (run->l->prog && k->lines[pc].file < run->l->prog->nfiles)
      e->file = run->l->prog->files[k->lines[pc].file];
  }
  fill_ids(cu, w, lane, e);
  e->address = addr;
}

static void vfault(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc, int trap,
                   uint64_t addr, const char *fmt, va_list ap) {
  struct simt_run *run = cu->run;
  struct dev_exception *e = &cu->exc;
  if (!cu->faulted) { /* the compute unit's own first fault */
    exc_fill(cu, w, lane, pc, trap, addr, e);
    vsnprintf(e->message, sizeof(e->message), fmt, ap);
  }
  cu->faulted = true;
  pthread_mutex_lock(&run->mu);
  if (!run->have_exc) {
    run->exc = *e;
    run->have_exc = true;
    run->rc = CL_OUT_OF_RESOURCES;
  }
  atomic_store(&run->stop, 1);
  pthread_mutex_unlock(&run->mu);
}

void simt_fault(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc, int trap,
                uint64_t addr, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfault(cu, w, lane, pc, trap, addr, fmt, ap);
  va_end(ap);
}

/* Names the kernel argument that holds a pointer into allocation id. */
void simt_buffer_name(struct simt_run *run, uint64_t addr, char *buf, size_t n) {
  const struct lsi_kernel *k = run->k;
  struct dev_mem_entry *e = dev_mem_entry(run->mem, addr);
  if (e && e->svm && LSI_ADDR_SPACE(addr) == LSI_SPACE_GLOBAL) { /* dev_mem_canon()'s */
    snprintf(buf, n, "SVM allocation 0x%" PRIx64, (uint64_t)(uintptr_t)e->host);
    return;
  }
  for (uint32_t j = 0; j < k->nargs; j++) {
    const struct lsi_arg *a = &k->args[j];
    if (a->kind != LSI_ARG_GLOBAL && a->kind != LSI_ARG_CONSTANT) continue;
    uint64_t v;
    memcpy(&v, run->l->argbuf + a->buf_offset, 8);
    if (v && LSI_ADDR_SPACE(v) == LSI_ADDR_SPACE(addr) && LSI_ADDR_ID(v) == LSI_ADDR_ID(addr)) {
      snprintf(buf, n, "buffer '%s' (argument %u)", a->name && *a->name ? a->name : "?", j);
      return;
    }
  }
  if (run->l->data_base && LSI_ADDR_ID(run->l->data_base) == LSI_ADDR_ID(addr))
    snprintf(buf, n, "the program's global data");
  else
    snprintf(buf, n, "buffer #%u", LSI_ADDR_ID(addr));
}

/* ---- LOCKSTEP_FAULTS=report ---- */

#define SIMT_SINK_MIN 256
#define SIMT_SINK_MAX (UINT64_C(1) << 24) /* a larger dropped access stops the kernel */

/* Where a dropped access of size bytes goes (zeroed unless it is a store),
 * or NULL when faults stop the kernel or the memory is not to be had. */
static void *fault_sink(struct simt_cu *cu, uint64_t size, int kind) {
  if (!cu->run->report_faults || size > SIMT_SINK_MAX) return NULL;
  if (size > cu->sink_cap) {
    uint64_t cap = size < SIMT_SINK_MIN ? SIMT_SINK_MIN : size;
    uint8_t *p = realloc(cu->sink, cap);
    if (!p) return NULL;
    cu->sink = p;
    cu->sink_cap = cap;
  }
  if (kind != 1) memset(cu->sink, 0, size);
  return cu->sink;
}

/* True the first time an invalid access at pc's source line is seen in the
 * launch: the caller then reports it. */
static bool first_on_line(struct simt_run *run, uint32_t pc) {
  const struct lsi_kernel *k = run->k;
  struct simt_reported key = {UINT32_MAX, pc}; /* no line table: the instruction */
  if (k->lines && pc < k->ninsns)
    key = (struct simt_reported){k->lines[pc].file, k->lines[pc].line};
  bool first = true;
  pthread_mutex_lock(&run->mu);
  for (unsigned i = 0; i < run->nreported && first; i++)
    first = run->reported[i].file != key.file || run->reported[i].line != key.line;
  if (first && run->nreported == run->cap_reported) {
    unsigned cap = run->cap_reported ? 2 * run->cap_reported : 8;
    struct simt_reported *r = realloc(run->reported, cap * sizeof(*r));
    if (r) run->reported = r, run->cap_reported = cap;
  }
  if (first && run->nreported < run->cap_reported) run->reported[run->nreported++] = key;
  pthread_mutex_unlock(&run->mu);
  return first;
}

/* The one-line report of an access the kernel goes on past. */
static void report_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                          int trap, uint64_t addr, const char *msg) {
  struct dev_exception e;
  exc_fill(cu, w, lane, pc, trap, addr, &e);
  snprintf(e.message, sizeof(e.message), "%s", msg);
  const struct dev_launch *l = cu->run->l;
  char line[1400];
  dev_exception_format(&e, line, sizeof line);
  simt_check_log(cu->run, "fault", pc, line);
  if (l->report) {
    l->report(l->report_arg, &e);
    return;
  }
  fprintf(stderr, "lockstep: %s\n", line);
}

void simt_note(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc, int trap,
               const char *msg) {
  if (first_on_line(cu->run, pc)) report_access(cu, w, lane, pc, trap, 0, msg);
}

/* describe_access() for an address in no space (not NULL): an SVM
 * address, misaligned, past a live SVM allocation, in a released one, or
 * outside all of them (the nearest one named). */
static int describe_svm(struct simt_cu *cu, uint64_t addr, uint64_t size, int kind, const char *op,
                        char *msg, size_t n) {
  struct dev_mem *m = cu->run->mem;
  struct dev_mem_entry *e = dev_mem_svm_entry(m, addr);
  uint64_t base = e ? (uint64_t)(uintptr_t)e->host : 0;
  bool inside = e && e->svm && addr >= base && addr - base < e->size;
  if (inside && atomic_load_explicit(&e->state, memory_order_acquire) == DEV_MEM_RELEASED) {
    snprintf(msg, n,
             "%" PRIu64 "-byte %s at 0x%016" PRIx64 ": access to released SVM allocation 0x%" PRIx64
             " (%" PRIu64 " bytes)",
             size, op, addr, base, e->size);
    return LSI_TRAP_RELEASED_BUFFER;
  }
  if (inside && kind && e->read_only) {
    snprintf(msg, n,
             "%" PRIu64 "-byte %s at offset %" PRIu64 " of read-only SVM allocation 0x%" PRIx64,
             size, op, addr - base, base);
    return LSI_TRAP_WRITE_READ_ONLY;
  }
  if (inside && size <= e->size - (addr - base)) {
    snprintf(msg, n,
             "misaligned %" PRIu64 "-byte SVM %s at offset %" PRIu64 " of SVM allocation 0x%" PRIx64
             " (address %% %" PRIu64 " = %" PRIu64 ")",
             size, op, addr - base, base, size, addr % size);
    return LSI_TRAP_MISALIGNED;
  }
  e = inside ? e : dev_mem_svm_nearest(m, addr, size);
  if (!e) {
    snprintf(msg, n,
             "%" PRIu64 "-byte %s at 0x%016" PRIx64
             ": not a device address (no SVM allocation is live)",
             size, op, addr);
    return LSI_TRAP_OUT_OF_BOUNDS;
  }
  base = (uint64_t)(uintptr_t)e->host;
  if (addr >= base) {
    uint64_t miss = addr + size - (base + e->size);
    snprintf(msg, n,
             "out-of-bounds %" PRIu64 "-byte SVM %s at 0x%016" PRIx64 ", offset %" PRIu64
             " of SVM allocation 0x%" PRIx64 " (%" PRIu64 " bytes): %" PRIu64
             " byte%s past the end",
             size, op, addr, addr - base, base, e->size, miss, miss == 1 ? "" : "s");
  } else {
    uint64_t miss = base - addr;
    snprintf(msg, n,
             "out-of-bounds %" PRIu64 "-byte SVM %s at 0x%016" PRIx64 ": %" PRIu64
             " byte%s before SVM allocation 0x%" PRIx64 " (%" PRIu64 " bytes)",
             size, op, addr, miss, miss == 1 ? "" : "s", base, e->size);
  }
  return LSI_TRAP_OUT_OF_BOUNDS;
}

/* Says what is wrong with an access simt_mem() refused: its trap and the
 * message into msg. */
static int describe_access(struct simt_cu *cu, uint64_t addr, uint64_t size, int kind, char *msg,
                           size_t n) {
  static const char *const what[3] = {"load", "store", "atomic"};
  unsigned sp = LSI_ADDR_SPACE(addr);
  uint64_t off = LSI_ADDR_OFFSET(addr);
  const char *op = what[kind < 0 || kind > 2 ? 0 : kind];
  char name[160];
  uint64_t limit = 0;
  switch (sp) {
  case LSI_SPACE_GLOBAL:
  case LSI_SPACE_CONSTANT: {
    struct dev_mem_entry *e = dev_mem_entry(cu->run->mem, addr);
    uint32_t st = e ? atomic_load_explicit(&e->state, memory_order_acquire) : DEV_MEM_FREE;
    simt_buffer_name(cu->run, addr, name, sizeof(name));
    if (st == DEV_MEM_FREE) {
      snprintf(msg, n,
               "%" PRIu64 "-byte %s at 0x%016" PRIx64 " hits no buffer (%s was never allocated)",
               size, op, addr, name);
      return LSI_TRAP_OUT_OF_BOUNDS;
    }
    if (st == DEV_MEM_RELEASED) {
      snprintf(msg, n, "%" PRIu64 "-byte %s at 0x%016" PRIx64 ": access to released %s", size, op,
               addr, name);
      return LSI_TRAP_RELEASED_BUFFER;
    }
    if (kind && e->read_only && off < e->size) {
      snprintf(msg, n, "%" PRIu64 "-byte %s at offset %" PRIu64 " of read-only %s", size, op, off,
               name);
      return LSI_TRAP_WRITE_READ_ONLY;
    }
    limit = e->size;
    break;
  }
  case LSI_SPACE_LOCAL:
    snprintf(name, sizeof(name), "local memory");
    limit = cu->run->local_total;
    break;
  case LSI_SPACE_PRIVATE:
    snprintf(name, sizeof(name), "the private frame");
    limit = cu->run->k->private_size;
    break;
  case LSI_SPACE_NONE:
    if (addr != 0) return describe_svm(cu, addr, size, kind, op, msg, n);
    /* fall through */
  default:
    snprintf(msg, n, "%" PRIu64 "-byte %s at 0x%016" PRIx64 ": %s", size, op, addr,
             addr == 0 ? "NULL pointer" : "not a device address");
    return LSI_TRAP_OUT_OF_BOUNDS;
  }
  if ((sp == LSI_SPACE_LOCAL || sp == LSI_SPACE_PRIVATE) && LSI_ADDR_ID(addr) != 0) {
    snprintf(msg, n, "%" PRIu64 "-byte %s at 0x%016" PRIx64 ": not a valid %s address", size, op,
             addr, space_name[sp]);
    return LSI_TRAP_OUT_OF_BOUNDS;
  }
  if (off >= limit || size > limit - off) {
    uint64_t miss = off + size - limit;
    snprintf(msg, n,
             "out-of-bounds %" PRIu64 "-byte %s %s at offset %" PRIu64 " of %s (%" PRIu64
             " bytes): %" PRIu64 " byte%s past the end",
             size, space_name[sp], op, off, name, limit, miss, miss == 1 ? "" : "s");
    return LSI_TRAP_OUT_OF_BOUNDS;
  }
  snprintf(msg, n,
           "misaligned %" PRIu64 "-byte %s %s at offset %" PRIu64 " of %s (offset %% %" PRIu64
           " = %" PRIu64 ")",
           size, space_name[sp], op, off, name, size, off % size);
  return LSI_TRAP_MISALIGNED;
}

void *simt_mem_fault(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                     uint64_t addr, uint64_t size, int kind) {
  char msg[sizeof(cu->exc.message)];
  void *sink = fault_sink(cu, size, kind);
  if (sink) { /* LOCKSTEP_FAULTS=report: drop it, say so once per line */
    if (first_on_line(cu->run, pc)) {
      int trap = describe_access(cu, addr, size, kind, msg, sizeof msg);
      report_access(cu, w, lane, pc, trap, addr, msg);
    }
    return sink;
  }
  int trap = describe_access(cu, addr, size, kind, msg, sizeof msg);
  simt_fault(cu, w, lane, pc, trap, addr, "%s", msg);
  return NULL;
}

/* simt_mem_range() before the checkers see the access. */
static void *mem_range(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                       uint64_t addr, uint64_t size, int kind) {
  if (size == 0) size = 1; /* an empty range still needs a valid address */
  uint64_t off = LSI_ADDR_OFFSET(addr);
  switch (LSI_ADDR_SPACE(addr)) {
  case LSI_SPACE_GLOBAL:
  case LSI_SPACE_CONSTANT: {
    struct dev_mem_entry *e = dev_mem_entry(cu->run->mem, addr);
    if (e && atomic_load_explicit(&e->state, memory_order_acquire) == DEV_MEM_LIVE &&
        off <= e->size && size <= e->size - off && !(kind && e->read_only))
      return e->host + off;
    break;
  }
  case LSI_SPACE_LOCAL:
    if (LSI_ADDR_ID(addr) == 0 && off <= cu->run->local_total && size <= cu->run->local_total - off)
      return cu->local + off;
    break;
  case LSI_SPACE_PRIVATE:
    if (LSI_ADDR_ID(addr) == 0 && off <= cu->run->k->private_size &&
        size <= cu->run->k->private_size - off)
      return w->priv + (uint64_t)lane * cu->run->k->private_size + off;
    break;
  case LSI_SPACE_NONE:
    if (svm_ok(dev_mem_svm_live(cu->run->mem, addr, size), kind)) return (void *)(uintptr_t)addr;
    break;
  default: break;
  }
  /* Report through the checker with the whole range (a struct copy, a
   * string), so the message names the buffer and the overrun. */
  return simt_mem_fault(cu, w, lane, pc, addr, size, kind);
}

void *simt_mem_range(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                     uint64_t addr, uint64_t size, int kind) {
  void *p = mem_range(cu, w, lane, pc, addr, size, kind & SIMT_ACC_KIND);
  if (__builtin_expect(cu->run->check != 0, 0) && p && p != cu->sink)
    simt_check_access(cu, w, lane, pc, addr, size, kind);
  return p;
}

/* ---- special registers ---- */

/* Sub-group ids: sub-groups are the work-group's local linear ids in runs
 * of the sub-group width, a warp each (the debugger's one-lane warps keep
 * the device's width). */
static uint64_t sub_group_sreg(struct simt_cu *cu, struct simt_warp *w, unsigned lane, unsigned s) {
  const struct dev_launch *l = cu->run->l;
  uint64_t sw = cu->run->sg_W ? cu->run->sg_W : cu->run->W;
  uint64_t llid = (uint64_t)w->index * cu->run->W + lane;
  uint64_t sg = cu->run->sg_W ? llid / sw : w->index, first = sg * sw; /* no division per lane */
  switch (s) {
  case LSI_SREG_SUB_GROUP_ID: return sg;
  case LSI_SREG_SUB_GROUP_LOCAL_ID: return llid - first;
  case LSI_SREG_SUB_GROUP_SIZE: return cu->nitems - first < sw ? cu->nitems - first : sw;
  case LSI_SREG_MAX_SUB_GROUP_SIZE: { /* the dispatch's: a smaller enqueued group fills one warp */
    uint64_t n = l->local[0] * l->local[1] * l->local[2];
    return n < sw ? n : sw;
  }
  default: return (cu->nitems + sw - 1) / sw; /* LSI_SREG_NUM_SUB_GROUPS */
  }
}

uint64_t simt_sreg(struct simt_cu *cu, struct simt_warp *w, unsigned lane, unsigned s) {
  const struct dev_launch *l = cu->run->l;
  unsigned k = s % 3;
  switch (s) {
  case LSI_SREG_GLOBAL_ID_X:
  case LSI_SREG_GLOBAL_ID_Y:
  case LSI_SREG_GLOBAL_ID_Z: return l->offset[k] + cu->group_id[k] * l->local[k] + w->lid[k][lane];
  case LSI_SREG_LOCAL_ID_X:
  case LSI_SREG_LOCAL_ID_Y:
  case LSI_SREG_LOCAL_ID_Z: return w->lid[k][lane];
  case LSI_SREG_GROUP_ID_X:
  case LSI_SREG_GROUP_ID_Y:
  case LSI_SREG_GROUP_ID_Z: return cu->group_id[k];
  case LSI_SREG_GLOBAL_SIZE_X:
  case LSI_SREG_GLOBAL_SIZE_Y:
  case LSI_SREG_GLOBAL_SIZE_Z: return l->global[k];
  case LSI_SREG_LOCAL_SIZE_X:
  case LSI_SREG_LOCAL_SIZE_Y:
  case LSI_SREG_LOCAL_SIZE_Z: return cu->group_size[k];
  case LSI_SREG_ENQ_LOCAL_SIZE_X:
  case LSI_SREG_ENQ_LOCAL_SIZE_Y:
  case LSI_SREG_ENQ_LOCAL_SIZE_Z: return l->local[k];
  case LSI_SREG_NUM_GROUPS_X:
  case LSI_SREG_NUM_GROUPS_Y:
  case LSI_SREG_NUM_GROUPS_Z: return cu->run->ngroups[k];
  case LSI_SREG_GLOBAL_OFFSET_X:
  case LSI_SREG_GLOBAL_OFFSET_Y:
  case LSI_SREG_GLOBAL_OFFSET_Z: return l->offset[k];
  case LSI_SREG_WORK_DIM: return l->work_dim;
  case LSI_SREG_LOCAL_LINEAR_ID: return (uint64_t)w->index * cu->run->W + lane;
  case LSI_SREG_GLOBAL_LINEAR_ID: {
    uint64_t g[3];
    for (int j = 0; j < 3; j++)
      g[j] = cu->group_id[j] * l->local[j] + w->lid[j][lane];
    return (g[2] * l->global[1] + g[1]) * l->global[0] + g[0];
  }
  case LSI_SREG_SUB_GROUP_ID:
  case LSI_SREG_SUB_GROUP_LOCAL_ID:
  case LSI_SREG_SUB_GROUP_SIZE:
  case LSI_SREG_MAX_SUB_GROUP_SIZE:
  case LSI_SREG_NUM_SUB_GROUPS: return sub_group_sreg(cu, w, lane, s);
  case LSI_SREG_PRIVATE_BASE: return LSI_ADDR(LSI_SPACE_PRIVATE, 0, 0);
  default: return 0;
  }
}

/* ---- printf output ---- */

void simt_output(struct simt_run *run, const char *s, size_t n) {
  pthread_mutex_lock(&run->mu);
  if (run->out_len + n + 1 > run->out_cap) {
    size_t cap = (run->out_len + n + 1) * 2;
    char *nb = realloc(run->out, cap);
    if (!nb) {
      pthread_mutex_unlock(&run->mu);
      return;
    }
    run->out = nb;
    run->out_cap = cap;
  }
  memcpy(run->out + run->out_len, s, n);
  run->out_len += n;
  pthread_mutex_unlock(&run->mu);
}

/* ---- validation: after this the interpreter trusts every operand ---- */

static const char *validate(const struct dev_launch *l, const struct dev_config *cfg, char *why,
                            size_t n) {
  const struct lsi_kernel *k = l->kernel;
  if (!k || !k->code || k->ninsns == 0) return "kernel has no code";
  if (k->nconst > k->nregs || (k->nconst && !k->consts)) return "bad constant table";
  if (l->work_dim < 1 || l->work_dim > 3) return "bad work_dim";
  for (uint32_t pc = 0; pc < k->ninsns; pc++) {
    const lsi_insn *ip = &k->code[pc];
    if (ip->op >= LSI_NUM_OPS) {
      snprintf(why, n, "unknown opcode %u at pc %u", ip->op, pc);
      return why;
    }
    unsigned f = lsi_op_format[ip->op];
    bool bad = false;
    switch (f) {
    case FMT_NONE: break;
    case FMT_RR: bad = ip->d >= k->nregs || ip->a >= k->nregs; break;
    case FMT_RRR:
    case FMT_RRRI: bad = ip->d >= k->nregs || ip->a >= k->nregs || ip->b >= k->nregs; break;
    case FMT_RRRR:
    case FMT_ATOM:
      bad = ip->d >= k->nregs || ip->a >= k->nregs || ip->b >= k->nregs || ip->c >= k->nregs;
      break;
    case FMT_RI: bad = ip->d >= k->nregs; break;
    case FMT_RRI:
    case FMT_LD: bad = ip->d >= k->nregs || ip->a >= k->nregs; break;
    case FMT_ST: bad = ip->a >= k->nregs || ip->b >= k->nregs; break;
    case FMT_BR: bad = ip->imm < 0 || ip->imm >= k->ninsns; break;
    case FMT_BRP: bad = ip->a >= k->nregs || ip->imm < 0 || ip->imm >= k->ninsns; break;
    case FMT_CALL: {
      if (ip->imm < 0 || ip->imm >= lsi_builtin_count()) {
        bad = true;
        break;
      }
      const struct lsi_builtin *bi = &lsi_builtins[ip->imm];
      bad = (uint64_t)ip->a + ip->b > k->narglist || ip->b > 64 ||
            (bi->nres && (uint64_t)ip->d + bi->nres > k->nregs) ||
            (ip->b != bi->nargs && !((bi->flags & LSI_BI_VARIADIC) && ip->b >= bi->nargs));
      for (uint32_t j = 0; !bad && j < ip->b; j++)
        bad = k->arglist[ip->a + j] >= k->nregs;
      break;
    }
    default: bad = true;
    }
    if (ip->op == LSI_SREG && (ip->imm < 0 || ip->imm >= LSI_NUM_SREGS)) bad = true;
    if (bad) {
      snprintf(why, n, "bad operands for %s at pc %u", lsi_op_name[ip->op], pc);
      return why;
    }
  }
  unsigned last = k->code[k->ninsns - 1].op;
  if (last != LSI_BRA && last != LSI_EXIT && last != LSI_TRAP && last != LSI_SYNC &&
      last != LSI_BRK && last != LSI_CONT)
    return "the last instruction can fall off the end of the code";
  for (uint32_t j = 0; j < k->nargs; j++) {
    const struct lsi_arg *a = &k->args[j];
    uint64_t sz = a->kind == LSI_ARG_VALUE   ? (uint64_t)a->nregs * a->elem_size
                  : a->kind == LSI_ARG_BYVAL ? a->size
                                             : 8;
    if ((uint64_t)a->buf_offset + sz > k->argbuf_size || !l->argbuf)
      return "argument outside the argument buffer";
    if (a->kind == LSI_ARG_VALUE && (a->elem_size > 8 || (uint64_t)a->reg + a->nregs > k->nregs))
      return "bad value argument";
    if (a->kind != LSI_ARG_VALUE && a->reg >= k->nregs) return "bad argument register";
    if (a->kind == LSI_ARG_BYVAL && (uint64_t)a->priv_offset + a->size > k->private_size)
      return "by-value argument outside the private frame";
  }
  (void)cfg;
  return NULL;
}

/* ---- work-groups and the warp scheduler ---- */

static bool cu_reserve(struct simt_cu *cu, unsigned nwarps) {
  struct simt_run *run = cu->run;
  if (nwarps <= cu->cap_warps) return true;
  struct simt_warp *nw = realloc(cu->warps, nwarps * sizeof(*nw));
  if (!nw) return false;
  cu->warps = nw;
  for (unsigned i = cu->cap_warps; i < nwarps; i++) {
    struct simt_warp *w = &nw[i];
    memset(w, 0, sizeof(*w));
    w->reg = calloc((size_t)run->k->nregs * run->W + 1, 8);
    w->priv = calloc((size_t)run->k->private_size * run->W + 1, 1);
    if (!w->reg || !w->priv || !simt_deque_init(&w->dq, SIMT_DEQUE_CAP)) {
      free(w->reg);
      free(w->priv);
      simt_deque_free(&w->dq);
      return false;
    }
    cu->cap_warps = i + 1;
  }
  return true;
}

static void cu_release(struct simt_cu *cu) {
  for (unsigned i = 0; i < cu->cap_warps; i++) {
    free(cu->warps[i].reg);
    free(cu->warps[i].priv);
    simt_deque_free(&cu->warps[i].dq);
  }
  free(cu->warps);
  free(cu->local);
  free(cu->sink);
}

/* Local ids of w's lanes from (lx, ly, lz), counted without dividing. */
static void warp_lids(struct simt_cu *cu, struct simt_warp *w, uint64_t lx, uint64_t ly,
                      uint64_t lz) {
  const unsigned W = cu->run->W;
  for (unsigned i = 0; i < W; i++) { /* local ids, counted without dividing */
    w->lid[0][i] = (uint32_t)lx;
    w->lid[1][i] = (uint32_t)ly;
    w->lid[2][i] = (uint32_t)lz;
    if (++lx == cu->group_size[0]) {
      lx = 0;
      if (++ly == cu->group_size[1]) {
        ly = 0;
        lz++;
      }
    }
  }
}

static void warp_init(struct simt_cu *cu, struct simt_warp *w, unsigned index) {
  struct simt_run *run = cu->run;
  const struct lsi_kernel *k = run->k;
  const struct dev_launch *l = run->l;
  const unsigned W = run->W;
  uint64_t first = (uint64_t)index * W;
  uint64_t n = cu->nitems - first < W ? cu->nitems - first : W;
  w->index = index;
  w->pc = 0;
  w->exist = n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
  w->live = w->active = w->exist;
  memset(w->dis, 0, sizeof(w->dis));
  w->bar_lanes = 0;
  simt_deque_clear(&w->dq);
  w->state = SIMT_WARP_RUN;
  w->epoch = w->spins = 0;
  w->yields = w->hang_own = w->hang_round = 0;
  /* local ids: the same as in the warp's last work-group of this shape */
  if (w->lid_shape[0] != cu->group_size[0] || w->lid_shape[1] != cu->group_size[1] ||
      w->lid_shape[2] != cu->group_size[2]) {
    memcpy(w->lid_shape, cu->group_size, sizeof w->lid_shape);
    uint64_t lx = first % cu->group_size[0], yz = first / cu->group_size[0];
    uint64_t ly = yz % cu->group_size[1], lz = yz / cu->group_size[1];
    if (lx + W <= cu->group_size[0]) { /* the common case: no lane wraps to the next row */
      for (unsigned i = 0; i < W; i++) {
        w->lid[0][i] = (uint32_t)(lx + i);
        w->lid[1][i] = (uint32_t)ly;
        w->lid[2][i] = (uint32_t)lz;
      }
    } else {
      warp_lids(cu, w, lx, ly, lz);
    }
  }
  /* constants and arguments: a row no instruction writes keeps its value
   * from the warp's last work-group of the launch (run->keep_rows) */
  bool keep = run->keep_rows && w->rows_set;
  w->rows_set = true;
  /* constants, with relocation against the program's data segment */
  for (uint32_t r = 0; r < k->nconst && !keep; r++) {
    uint64_t v = k->consts[r].value + (k->consts[r].reloc == LSI_CONST_DATA ? l->data_base : 0);
    uint64_t *row = w->reg + (size_t)r * W;
    for (unsigned i = 0; i < W; i++)
      row[i] = v;
  }
  if (k->private_size) memset(w->priv, 0, (size_t)k->private_size * W);
  /* with the rows kept, only a by-value argument (in the private frames,
   * so never without them) is written again */
  for (uint32_t j = 0; j < k->nargs && (!keep || k->private_size); j++) {
    const struct lsi_arg *a = &k->args[j];
    const uint8_t *src = l->argbuf + a->buf_offset;
    uint64_t v = 0;
    switch (a->kind) {
    case LSI_ARG_LOCAL: v = LSI_ADDR(LSI_SPACE_LOCAL, 0, run->local_arg_off[j]); break;
    case LSI_ARG_BYVAL:
      for (unsigned i = 0; i < W; i++)
        memcpy(w->priv + (size_t)i * k->private_size + a->priv_offset, src, a->size);
      v = LSI_ADDR(LSI_SPACE_PRIVATE, 0, a->priv_offset);
      break;
    case LSI_ARG_VALUE:
      for (uint32_t e = 0; e < a->nregs && !keep; e++) {
        uint64_t x = 0;
        memcpy(&x, src + (size_t)e * a->elem_size, a->elem_size);
        uint64_t *row = w->reg + (size_t)(a->reg + e) * W;
        for (unsigned i = 0; i < W; i++)
          row[i] = x;
      }
      continue;
    default: memcpy(&v, src, 8); break;
    }
    if (keep) continue;
    uint64_t *row = w->reg + (size_t)a->reg * W;
    for (unsigned i = 0; i < W; i++)
      row[i] = v;
  }
}

/* The CLK_*_MEM_FENCE flags of the barrier the lanes resume after: a
 * barrier instruction's own, both for a work-group function's. */
static unsigned barrier_flags(const struct lsi_kernel *k, uint32_t resume) {
  if (resume == 0 || resume > k->ninsns) return SIMT_FENCE_LOCAL | SIMT_FENCE_GLOBAL;
  const lsi_insn *ip = &k->code[resume - 1];
  return ip->op == LSI_BAR ? (unsigned)ip->imm : SIMT_FENCE_LOCAL | SIMT_FENCE_GLOBAL;
}

/* Every warp waits at a barrier or is done: release the barrier, or report
 * the work-items that cannot reach it. */
bool simt_barrier_release(struct simt_cu *cu) {
  struct simt_warp *bad = NULL;
  uint32_t bar_pc = UINT32_MAX;
  uint64_t at = 0;
  const char *why = NULL;
  for (unsigned i = 0; i < cu->nwarps && !why; i++) {
    struct simt_warp *w = &cu->warps[i];
    if (w->state != SIMT_WARP_BARRIER || w->live != w->exist) {
      bad = w;
      why = "others finished the kernel without reaching it";
      continue;
    }
    uint64_t m = w->dis[SIMT_REASON_BAR];
    bool at_once = m && m == w->bar_lanes; /* all resume at w->bar_at */
    if (m && bar_pc == UINT32_MAX) bar_pc = at_once ? w->bar_at : w->lane_pc[__builtin_ctzll(m)];
    if (!(at_once && w->bar_at == bar_pc) && !simt_lanes_all_at(w, m, bar_pc)) {
      bad = w;
      why = "others wait at a different barrier";
    }
  }
  if (why) {
    for (unsigned i = 0; i < cu->nwarps; i++)
      at += (uint64_t)__builtin_popcountll(cu->warps[i].dis[SIMT_REASON_BAR]);
    struct simt_warp *w = bad;
    uint64_t lanes = w->dis[SIMT_REASON_BAR] ? w->dis[SIMT_REASON_BAR] : w->exist;
    for (unsigned i = 0; i < cu->nwarps; i++)
      if (cu->warps[i].dis[SIMT_REASON_BAR]) {
        w = &cu->warps[i];
        lanes = w->dis[SIMT_REASON_BAR];
        break;
      }
    unsigned lane = (unsigned)__builtin_ctzll(lanes);
    uint32_t pc = w->dis[SIMT_REASON_BAR] ? w->lane_pc[lane] - 1 : 0;
    simt_fault(cu, w, lane, pc, LSI_TRAP_BARRIER_DIVERGENCE, 0,
               "barrier reached by %" PRIu64 " of %" PRIu64 " work-items of the work-group; %s", at,
               cu->nitems, why);
    return false;
  }
  if (!simt_group_call(cu, bar_pc)) return false;
  for (unsigned i = 0; i < cu->nwarps; i++) {
    struct simt_warp *w = &cu->warps[i];
    w->active = w->dis[SIMT_REASON_BAR];
    w->dis[SIMT_REASON_BAR] = 0;
    w->bar_lanes = 0;
    w->pc = bar_pc;
    w->state = SIMT_WARP_RUN;
  }
  unsigned flags = barrier_flags(cu->run->k, bar_pc);
  if (cu->run->check) simt_check_barrier(cu, flags);
  cu->st.barrier_waits += cu->nwarps;
  cu->epoch++;
  /* The group's work-items run on this host thread, and its local memory
   * is its own: only a barrier that fences global or image memory orders
   * what other threads see. */
  if (flags & ~SIMT_FENCE_LOCAL) __atomic_thread_fence(__ATOMIC_SEQ_CST);
  return true;
}

static void watchdog_fault(struct simt_cu *cu) {
  struct simt_warp *w = &cu->warps[0];
  for (unsigned i = 0; i < cu->nwarps; i++)
    if (cu->warps[i].state == SIMT_WARP_RUN) {
      w = &cu->warps[i];
      break;
    }
  unsigned lane = w->active ? (unsigned)__builtin_ctzll(w->active) : 0;
  simt_fault(cu, w, lane, w->pc, LSI_TRAP_WATCHDOG, 0, "watchdog: the kernel ran longer than %u ms",
             dev_device_config(cu->run->dev)->watchdog_ms);
}

/* q = a / b and the remainder, in 32 bits where both fit (a 64-bit
 * division costs several times as much on some hosts). */
static uint64_t div_rem(uint64_t a, uint64_t b, uint64_t *rem) {
  uint64_t q = (a | b) <= UINT32_MAX ? (uint32_t)a / (uint32_t)b : a / b;
  *rem = a - q * b;
  return q;
}

void simt_group_coords(const struct simt_run *run, uint64_t g, uint64_t gid[3]) {
  gid[1] = gid[2] = 0;
  if (run->ngroups[1] == 1 && run->ngroups[2] == 1) {
    gid[0] = g; /* one dimension: no division */
    return;
  }
  uint64_t q = div_rem(g, run->ngroups[0], &gid[0]);
  gid[2] = div_rem(q, run->ngroups[1], &gid[1]);
}

bool simt_group_begin(struct simt_cu *cu, uint64_t g) {
  struct simt_run *run = cu->run;
  const struct dev_launch *l = run->l;
  uint64_t gid[3];
  simt_group_coords(run, g, gid);
  cu->nitems = 1;
  for (int k = 0; k < 3; k++) {
    cu->group_id[k] = gid[k];
    uint64_t rest = l->global[k] - gid[k] * l->local[k];
    cu->group_size[k] = rest < l->local[k] ? rest : l->local[k];
    cu->nitems *= cu->group_size[k];
  }
  uint64_t spare;
  cu->nwarps = (unsigned)div_rem(cu->nitems + run->W - 1, run->W, &spare);
  if (!cu_reserve(cu, cu->nwarps)) {
    simt_fault(cu, NULL, 0, 0, LSI_TRAP_UNSUPPORTED, 0, "out of host memory for warps");
    return false;
  }
  if (run->local_total) memset(cu->local, 0, run->local_total);
  if (run->native) native_group_sregs(cu);
  for (unsigned i = 0; i < cu->nwarps; i++)
    warp_init(cu, &cu->warps[i], i);
  if (run->check) simt_check_group(cu);
  cu->epoch++;        /* a new group is progress */
  cu->hang_round = 0; /* its progress is sampled afresh */
  atomic_store_explicit(&cu->motion, SIMT_MOTION_RUN, memory_order_relaxed);
  return true;
}

bool simt_round_goes_on(struct simt_cu *cu) {
  struct simt_run *run = cu->run;
  if (atomic_load_explicit(&run->stop, memory_order_relaxed)) return false;
  if (run->deadline_ns && dev_device_now_ns(run->dev) > run->deadline_ns) {
    watchdog_fault(cu);
    return false;
  }
  return true;
}

static void run_group(struct simt_cu *cu, uint64_t g) {
  struct simt_run *run = cu->run;
  if (!simt_group_begin(cu, g)) return;
  const struct simt_pass *p = run->pass;
  bool spans = p && p->warp_span;
  for (;;) {
    for (unsigned i = 0; i < cu->nwarps; i++) {
      struct simt_warp *w = &cu->warps[i];
      if (w->state != SIMT_WARP_RUN) continue;
      uint64_t t0 = spans ? dev_device_now_ns(run->dev) : 0;
      uint64_t budget = cu->nwarps == 1 ? SIMT_SLICE * 64 : SIMT_SLICE;
      unsigned last = i;
      /* the native code may go on with the next warps, and into the next
       * rounds (unless spans time each): the round goes on after the last
       * warp it ran */
      if (run->native)
        last = (unsigned)(native_warp_run(cu, w, run->native, budget, !spans) - cu->warps);
      else
        simt_warp_run(cu, w, budget);
      atomic_store_explicit(&cu->beat, cu->epoch, memory_order_relaxed);
      if (spans)
        p->warp_span(p->arg, (unsigned)(cu - run->cus), g, i, t0, dev_device_now_ns(run->dev));
      if (cu->faulted) return;
      i = last;
    }
    unsigned nrun = 0, nbar = 0;
    for (unsigned i = 0; i < cu->nwarps; i++) {
      nrun += cu->warps[i].state == SIMT_WARP_RUN;
      nbar += cu->warps[i].state == SIMT_WARP_BARRIER;
    }
    if (!simt_round_goes_on(cu)) return;
    if (nrun) continue;
    if (nbar == 0) return; /* every warp done */
    if (!simt_barrier_release(cu)) return;
  }
}

/* Whether the pass asks for no more work-groups to be handed out. A pass
 * whose deadline passed before it handed out any group still runs one, so
 * that every pass not stopped by its caller makes progress. */
bool simt_pass_stopped(struct simt_run *run) {
  const struct simt_pass *p = run->pass;
  if (!p) return false;
  if (p->stop && atomic_load_explicit(p->stop, memory_order_acquire)) return true;
  return p->deadline_ns && atomic_load(&run->next_group) > p->first &&
         dev_device_now_ns(run->dev) >= p->deadline_ns;
}

/* simt_pass_stopped for a compute unit between its batches of
 * work-groups. A pass with a deadline reads the clock once per batch, and
 * the batch grows (to SIMT_BATCH_MAX groups) while batches take less than
 * SIMT_BATCH_NS and shrinks while they take more than twice that: short
 * groups then share one clock read and one claim on the pass's next group,
 * which every unit writes. A pass ends after its deadline, or its
 * pre-emption, once each unit's batch is done: while groups take as long as
 * the ones before, about 2 * SIMT_BATCH_NS at most. */
#define SIMT_BATCH_NS  50000u
#define SIMT_BATCH_MAX 16u
static bool cu_pass_stopped(struct simt_cu *cu) {
  struct simt_run *run = cu->run;
  const struct simt_pass *p = run->pass;
  if (!p || !p->deadline_ns || (p->stop && atomic_load_explicit(p->stop, memory_order_acquire)))
    return simt_pass_stopped(run);
  uint64_t now = dev_device_now_ns(run->dev);
  if (now - cu->batch_at < SIMT_BATCH_NS)
    cu->batch = cu->batch < SIMT_BATCH_MAX ? cu->batch * 2 : cu->batch;
  else if (now - cu->batch_at > 2 * SIMT_BATCH_NS && cu->batch > 1)
    cu->batch /= 2;
  cu->batch_at = now;
  return atomic_load(&run->next_group) > p->first && now >= p->deadline_ns;
}

static void worker(void *arg, unsigned k) {
  struct simt_run *run = arg;
  /* The compute unit (its warps and local memory) outlives the pass: the
   * next pass of the launch finds it ready. */
  struct simt_cu *cu = &run->cus[k];
  if (run->local_total && !cu->local && !(cu->local = calloc(1, run->local_total))) {
    simt_fault(cu, NULL, 0, 0, LSI_TRAP_UNSUPPORTED, 0, "out of host memory for local memory");
    return;
  }
  const struct simt_pass *p = run->pass;
  atomic_store_explicit(&cu->motion, SIMT_MOTION_RUN, memory_order_relaxed);
  cu->batch = 1, cu->batch_at = 0; /* the first batch is one group */
  /* the allocations accesses were checked against, checked afresh for each
   * pass (other commands may run between two) */
  if (run->native) memset(cu->ncache, 0xff, sizeof cu->ncache);
  while (!atomic_load_explicit(&run->stop, memory_order_relaxed) && !cu_pass_stopped(cu)) {
    /* Groups are handed out in order, a batch at a time, and every one
     * handed out runs to completion (unless the launch faults), in order,
     * so a stopped pass has completed exactly [first, next_group) (a
     * pre-emption waits for the batch), and the lowest group not done
     * always runs. */
    uint64_t g0 = atomic_fetch_add(&run->next_group, cu->batch);
    for (uint64_t g = g0; g < g0 + cu->batch && g < run->end_group && !cu->faulted &&
                          !atomic_load_explicit(&run->stop, memory_order_relaxed);
         g++) {
      uint64_t t0 = p && p->group_done ? dev_device_now_ns(run->dev) : 0;
      run_group(cu, g);
      if (p && p->group_done && !cu->faulted)
        p->group_done(p->arg, k, g, t0, dev_device_now_ns(run->dev));
    }
    if (g0 + cu->batch >= run->end_group) break;
  }
  atomic_store_explicit(&cu->motion, SIMT_MOTION_IDLE, memory_order_relaxed);
  simt_native_fold(cu);
  pthread_mutex_lock(&run->mu);
  struct simt_stats *s = &run->stats;
  s->warp_insns += cu->st.warp_insns;
  s->lane_insns += cu->st.lane_insns;
  s->div_branches += cu->st.div_branches;
  s->yields += cu->st.yields;
  s->barrier_waits += cu->st.barrier_waits;
  s->recentres += cu->st.recentres;
  s->native_slices += cu->st.native_slices;
  for (int j = 0; j < 8; j++) {
    s->ld_bytes[j] += cu->st.ld_bytes[j];
    s->st_bytes[j] += cu->st.st_bytes[j];
  }
  pthread_mutex_unlock(&run->mu);
  memset(&cu->st, 0, sizeof(cu->st));
}

static void print_stats(const struct simt_run *run) {
  const struct simt_stats *s = &run->stats;
  fprintf(stderr,
          "lockstep stats: kernel %s: %" PRIu64 " warp instructions, %" PRIu64
          " lane instructions, %.2f active lanes per warp instruction (W=%u), %" PRIu64
          " divergent branches, %" PRIu64 " yields, %" PRIu64 " barrier waits, %" PRIu64
          " deque re-centrings, %u pass%s, %" PRIu64 " native warp slices\n",
          run->k->name ? run->k->name : "?", s->warp_insns, s->lane_insns,
          s->warp_insns ? (double)s->lane_insns / (double)s->warp_insns : 0.0, run->W,
          s->div_branches, s->yields, s->barrier_waits, s->recentres, run->passes,
          run->passes == 1 ? "" : "es", s->native_slices);
  for (int sp = LSI_SPACE_GLOBAL; sp <= LSI_SPACE_PRIVATE; sp++) { /* SVM (space 0) is global */
    int svm = sp == LSI_SPACE_GLOBAL;
    fprintf(stderr, "lockstep stats:   %-8s loaded %" PRIu64 " bytes, stored %" PRIu64 " bytes\n",
            space_name[sp], s->ld_bytes[sp] + (svm ? s->ld_bytes[0] : 0),
            s->st_bytes[sp] + (svm ? s->st_bytes[0] : 0));
  }
}

static int launch_error(struct dev_exception *exc, const struct lsi_kernel *k, int trap,
                        const char *msg) {
  if (exc) {
    memset(exc, 0, sizeof(*exc));
    exc->trap = trap;
    exc->kernel = k ? k->name : NULL;
    snprintf(exc->message, sizeof(exc->message), "%s", msg);
  }
  return CL_OUT_OF_RESOURCES;
}

int simt_launch(struct dev_device *d, const struct dev_launch *l, struct dev_exception *exc) {
  return simt_launch_stats(d, l, exc, NULL);
}

int simt_launch_stats(struct dev_device *d, const struct dev_launch *l, struct dev_exception *exc,
                      struct simt_stats *stats) {
  int rc;
  struct simt_run *run = simt_open(d, l, exc, &rc);
  if (!run) return rc;
  rc = simt_run_pass(run, exc, NULL);
  if (stats) *stats = run->stats;
  simt_close(run);
  return rc;
}

int simt_launch_pass(struct dev_device *d, const struct dev_launch *l, struct dev_exception *exc,
                     struct simt_pass *pass) {
  int rc;
  struct simt_run *run = simt_open(d, l, exc, &rc);
  if (!run) return rc;
  rc = simt_run_pass(run, exc, pass);
  simt_close(run);
  return rc;
}

uint64_t simt_launch_groups(const struct dev_launch *l) {
  uint64_t n = 1;
  for (uint32_t j = 0; j < 3; j++) {
    uint64_t g = j < l->work_dim ? l->global[j] : 1, loc = j < l->work_dim ? l->local[j] : 1;
    if (loc == 0) loc = 1;
    n *= (g + loc - 1) / loc;
  }
  return n;
}

/* Links run into its device's open launches (in), starting, or unlinks it. */
static void open_link(struct simt_run *run, bool in) {
  struct simt_run **p = dev_device_open_runs(run->dev);
  if (in) {
    atomic_store_explicit(&run->starting, true, memory_order_relaxed);
    run->next_open = *p;
    *p = run;
  } else { /* every run simt_close is given came from simt_open */
    while (*p != run)
      p = &(*p)->next_open;
    *p = run->next_open;
  }
  dev_device_open_done(run->dev);
}

bool simt_other_launch_moves(const struct simt_run *run) {
  bool moves = false;
  for (struct simt_run *r = *dev_device_open_runs(run->dev); r && !moves; r = r->next_open) {
    if (r == run) continue;
    moves = atomic_load_explicit(&r->starting, memory_order_relaxed);
    for (unsigned c = 0; c < r->ncus && !moves; c++)
      moves = atomic_load_explicit(&r->cus[c].motion, memory_order_relaxed) == SIMT_MOTION_RUN;
  }
  dev_device_open_done(run->dev);
  return moves;
}

struct simt_run *simt_open(struct dev_device *d, const struct dev_launch *l,
                           struct dev_exception *exc, int *rcp) {
  const struct dev_config *cfg = dev_device_config(d);
  char why[160];
  const char *bad = validate(l, cfg, why, sizeof(why));
  if (bad) {
    *rcp = launch_error(exc, l->kernel, LSI_TRAP_UNSUPPORTED, bad);
    return NULL;
  }
  const struct lsi_kernel *k = l->kernel;
  struct simt_run *run = calloc(1, sizeof(*run));
  unsigned nworkers = dev_device_workers(d);
  if (run) run->cus = calloc(nworkers ? nworkers : 1, sizeof(*run->cus));
  if (run) run->local_arg_off = calloc(k->nargs + 1, sizeof(uint64_t));
  if (!run || !run->cus || !run->local_arg_off) {
    if (run) free(run->cus), free(run->local_arg_off);
    free(run);
    *rcp = launch_error(exc, k, LSI_TRAP_UNSUPPORTED, "out of host memory");
    return NULL;
  }
  run->ncus = nworkers;
  for (unsigned i = 0; i < nworkers; i++)
    run->cus[i].run = run;
  run->dev = d;
  open_link(run, true);
  /* a normalised copy: dimensions past work_dim are 1 */
  run->lc = *l;
  for (int j = 0; j < 3; j++) {
    if (j >= (int)l->work_dim) {
      run->lc.global[j] = run->lc.local[j] = 1;
      run->lc.offset[j] = 0;
    } else if (run->lc.local[j] == 0) {
      run->lc.local[j] = 1;
    }
  }
  l = run->l = &run->lc;
  run->k = k;
  run->mem = dev_device_mem(d);
  run->W = cfg->warp_width < 1 ? 32 : cfg->warp_width > SIMT_MAX_W ? SIMT_MAX_W : cfg->warp_width;
  const char *mode = getenv("LOCKSTEP_RECONVERGENCE");
  run->stack_mode = mode && strcmp(mode, "stack") == 0;
  const char *st = getenv("LOCKSTEP_STATS");
  run->print_stats = st && *st && strcmp(st, "0") != 0;
  run->watchdog_ns = (uint64_t)cfg->watchdog_ms * 1000000u;
  run->report_faults = cfg->faults_report;
  run->hang_ns = (uint64_t)(cfg->progress_ms ? cfg->progress_ms : 2000) * 1000000u;
  pthread_mutex_init(&run->mu, NULL);
  run->total_groups = 1;
  for (int j = 0; j < 3; j++) {
    run->ngroups[j] = (l->global[j] + l->local[j] - 1) / l->local[j];
    run->total_groups *= run->ngroups[j];
  }
  /* local memory: static data, then each __local argument, aligned */
  uint64_t off = lsi_local_layout(k, l->argbuf, run->local_arg_off);
  run->local_total = off;
  if (cfg->local_mem_size && off > cfg->local_mem_size) {
    snprintf(why, sizeof(why),
             "kernel needs %" PRIu64 " bytes of local memory, device has %" PRIu64, off,
             cfg->local_mem_size);
    *rcp = launch_error(exc, k, LSI_TRAP_UNSUPPORTED, why);
    simt_close(run);
    return NULL;
  }
  run->check = cfg->check;
  if (run->check && !simt_check_open(run, why, sizeof why)) {
    *rcp = launch_error(exc, k, LSI_TRAP_UNSUPPORTED, why);
    simt_close(run);
    return NULL;
  }
  /* the native engine, unless a checker or the stack reconvergence mode
   * needs the interpreter (or the kernel cannot be compiled) */
  run->native_ok = cfg->engine == DEV_ENGINE_NATIVE && !run->check && !run->stack_mode;
  if (run->native_ok) {
    uint64_t items = l->global[0] * l->global[1] * l->global[2];
    uint64_t work = k->ninsns && items > UINT64_MAX / k->ninsns ? UINT64_MAX : items * k->ninsns;
    run->native = native_code(k, run->W, work, cfg->native_min, &run->native_acct, why, sizeof why);
    run->keep_rows = run->native && native_keeps_rows(run->native_acct);
    if (run->print_stats)
      fprintf(stderr, "lockstep stats: kernel %s: %s engine (%s)\n", k->name,
              run->native ? "native" : "interpreter", why);
  }
  *rcp = 0;
  return run;
}

int simt_run_pass(struct simt_run *run, struct dev_exception *exc, struct simt_pass *pass) {
  struct dev_device *d = run->dev;
  if (run->have_exc) {
    if (exc) *exc = run->exc;
    return run->rc;
  }
  /* A pass runs groups [first, end_group) at most. */
  run->pass = pass;
  run->end_group = run->total_groups;
  uint64_t first = 0;
  if (pass) {
    first = pass->first < run->total_groups ? pass->first : run->total_groups;
    if (pass->limit && pass->limit < run->end_group - first) run->end_group = first + pass->limit;
    pass->total = run->total_groups;
    pass->done = first;
  }
  atomic_store(&run->next_group, first);
  if (run->end_group <= first) return 0;
  /* The watchdog times the launch's running time over all its passes, not
   * the time it spent switched out. */
  uint64_t t0 = dev_device_now_ns(d);
  if (run->watchdog_ns)
    run->deadline_ns = t0 + (run->ran_ns < run->watchdog_ns ? run->watchdog_ns - run->ran_ns : 0);
  uint64_t n = run->ncus, left = run->end_group - first;
  if (n > left) n = left;
  /* the compute units about to run move from now on, for other launches'
   * hang detectors (simt_other_launch_moves) */
  for (unsigned i = 0; i < n; i++)
    atomic_store_explicit(&run->cus[i].motion, SIMT_MOTION_RUN, memory_order_relaxed);
  atomic_store_explicit(&run->starting, false, memory_order_relaxed);
  dev_device_run(d, worker, run, (unsigned)n);
  run->ran_ns += dev_device_now_ns(d) - t0;
  run->passes++;
  if (pass) {
    uint64_t next = atomic_load(&run->next_group);
    pass->done = next < run->end_group ? next : run->end_group;
  }
  if (run->out_len) {
    fwrite(run->out, 1, run->out_len, stdout);
    fflush(stdout);
    run->out_len = 0;
  }
  if (run->have_exc) {
    if (exc) *exc = run->exc;
    return run->rc;
  }
  return 0;
}

void simt_close(struct simt_run *run) {
  if (!run) return;
  open_link(run, false);
  if (run->print_stats && run->passes) print_stats(run);
  if (run->native_ok && !run->native) native_account(run->native_acct, run->stats.lane_insns);
  simt_check_close(run);
  for (unsigned i = 0; i < run->ncus; i++)
    cu_release(&run->cus[i]);
  pthread_mutex_destroy(&run->mu);
  free(run->cus);
  free(run->local_arg_off);
  free(run->out);
  free(run->reported);
  free(run);
}
