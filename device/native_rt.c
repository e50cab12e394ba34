/*
 * native_rt.c - the native engine's runtime: the JIT (one LLJIT for the
 * process), each kernel's compiled code, the functions the generated code
 * calls, and the warp slice that runs it (native.h).
 */
#include <inttypes.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device/builtins.h"
#include "device/native.h"

/* ---- what the generated code calls ---- */

/* The host base and size of the memory an access at addr is checked
 * against (the allocation, the local block, the private frames), or NULL:
 * the interpreter makes the access. kind: 0 load, 1 store. */
static uint8_t *lsn_base(struct native_ctx *x, uint64_t addr, uint32_t kind, uint64_t *limit) {
  const struct simt_run *run = x->cu->run;
  switch (LSI_ADDR_SPACE(addr)) {
  case LSI_SPACE_GLOBAL:
  case LSI_SPACE_CONSTANT: {
    struct dev_mem_entry *e = dev_mem_entry(run->mem, addr);
    if (!e || atomic_load_explicit(&e->state, memory_order_acquire) != DEV_MEM_LIVE ||
        (kind && e->read_only))
      return NULL;
    *limit = e->size;
    return e->host;
  }
  case LSI_SPACE_LOCAL:
    if (LSI_ADDR_ID(addr) != 0 || !x->cu->local) return NULL;
    *limit = run->local_total;
    return x->cu->local;
  case LSI_SPACE_PRIVATE:
    if (LSI_ADDR_ID(addr) != 0 || !x->priv) return NULL;
    *limit = run->k->private_size;
    return x->priv;
  default: return NULL; /* SVM and invalid addresses */
  }
}

static void fault_at(struct native_ctx *x, uint32_t pc, uint64_t act) {
  x->w->pc = pc;
  x->w->active = act;
  x->w->state = SIMT_WARP_FAULT;
}

static int32_t lsn_diverge(struct native_ctx *x, uint32_t pc, uint64_t nt) {
  uint64_t act = x->w->active;
  if (simt_diverge(x->cu, x->w, pc, nt)) return 1;
  fault_at(x, pc, act);
  return 0;
}

static int32_t lsn_push(struct native_ctx *x, uint32_t pc, uint32_t op, uint64_t act,
                        uint32_t target) {
  if (simt_push_token(x->cu, x->w, pc, op, act, target)) return 1;
  fault_at(x, pc, act);
  return 0;
}

/* After a deque operation: 1 when the warp runs on at pc (its active
 * lanes in w->active), 0 when it is elsewhere or stopped. */
static int32_t goes_on_at(const struct simt_warp *w, uint32_t pc) {
  return w->state == SIMT_WARP_RUN && w->pc == pc;
}

static int32_t lsn_join(struct native_ctx *x, uint32_t op, uint64_t act, uint32_t target) {
  struct simt_warp *w = x->w;
  if (!simt_join(x->cu, w, op, act, target)) { /* no token: a plain branch */
    w->pc = target;
    w->active = act;
  }
  return goes_on_at(w, target);
}

static int32_t lsn_yield(struct native_ctx *x, uint32_t pc, uint64_t act) {
  if (!simt_yield(x->cu, x->w, pc, act)) {
    fault_at(x, pc, act);
    return 0;
  }
  return goes_on_at(x->w, pc + 1);
}

static void lsn_bar(struct native_ctx *x, uint32_t pc, uint64_t act) {
  simt_barrier_wait(x->cu, x->w, pc, act);
}

static void lsn_exit(struct native_ctx *x, uint32_t pc, uint64_t act) {
  (void)pc;
  simt_exit_lanes(x->cu, x->w, act);
}

/* CALLB at pc of a builtin that is not a work-group function, on lanes
 * act: argument j of lane i at args[j * W + i], result j to res[j * W + i].
 * Returns 0 after a fault. */
static int32_t lsn_callb(struct native_ctx *x, uint32_t pc, uint64_t act, const uint64_t *args,
                         uint64_t *res) {
  struct simt_cu *cu = x->cu;
  const struct lsi_kernel *k = cu->run->k;
  const lsi_insn *ip = &k->code[pc];
  const struct lsi_builtin *bi = &lsi_builtins[ip->imm];
  const unsigned W = cu->run->W, n = ip->b;
  if (bi->flags & LSI_BI_WARP) { /* the whole warp at once */
    const uint64_t *argr[64];
    uint64_t *resr[16];
    for (unsigned j = 0; j < n && j < 64; j++)
      argr[j] = args + (size_t)j * W;
    for (unsigned j = 0; j < bi->nres && j < 16; j++)
      resr[j] = res + (size_t)j * W;
    struct simt_lane ln = {cu, x->w, (unsigned)__builtin_ctzll(act), pc, x->w->live};
    bi->wfn(&ln, act, W, resr, argr, bi->data);
  } else {
    for (uint64_t m = act; m && !cu->faulted; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      uint64_t a[64], r[16];
      for (unsigned j = 0; j < n && j < 64; j++)
        a[j] = args[(size_t)j * W + i];
      struct simt_lane ln = {cu, x->w, i, pc, 0};
      bi->fn(&ln, r, a, n, bi->data);
      for (unsigned j = 0; j < bi->nres && j < 16; j++)
        res[(size_t)j * W + i] = r[j];
    }
  }
  if (!cu->faulted) return 1;
  fault_at(x, pc, act);
  return 0;
}

/* The uniform part of special register s: the whole value, or for the
 * per-lane ids what is added to the warp's local id row. */
static uint64_t lsn_sreg(struct native_ctx *x, uint32_t s) {
  struct simt_warp *w = x->w;
  if (s <= LSI_SREG_GLOBAL_ID_Z) return simt_sreg(x->cu, w, 0, s) - w->lid[s % 3][0];
  if (s <= LSI_SREG_LOCAL_ID_Z) return 0;
  return simt_sreg(x->cu, w, 0, s);
}

#define SYM(f)                                                                                     \
  { #f, (uintptr_t)f }
const struct native_sym native_syms[] = {
    SYM(lsn_base),
    SYM(lsn_callb),
    SYM(lsn_diverge),
    SYM(lsn_push),
    SYM(lsn_join),
    SYM(lsn_yield),
    SYM(lsn_bar),
    SYM(lsn_exit),
    SYM(lsn_sreg),
    /* what LLVM lowers vector frem and block moves to */
    SYM(fmodf),
    SYM(fmod),
    SYM(memcpy),
    SYM(memset),
    SYM(memmove),
};
const unsigned native_nsyms = sizeof native_syms / sizeof native_syms[0];

/* ---- the JIT ---- */

static struct {
  pthread_once_t once;
  pthread_mutex_t mu;
  LLVMOrcLLJITRef jit;
  LLVMOrcJITDylibRef jd;
  LLVMTargetMachineRef tm;
  char *triple;
  char err[256];
  unsigned serial;
} J = {PTHREAD_ONCE_INIT, PTHREAD_MUTEX_INITIALIZER};

static bool llvm_failed(LLVMErrorRef e, char *buf, size_t n) {
  if (!e) return false;
  char *msg = LLVMGetErrorMessage(e);
  snprintf(buf, n, "%s", msg);
  LLVMDisposeErrorMessage(msg);
  return true;
}

static bool define_syms(void) {
  LLVMOrcCSymbolMapPair pairs[32];
  for (unsigned i = 0; i < native_nsyms; i++) {
    pairs[i].Name = LLVMOrcLLJITMangleAndIntern(J.jit, native_syms[i].name);
    pairs[i].Sym.Address = native_syms[i].addr;
    pairs[i].Sym.Flags.GenericFlags =
        LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    pairs[i].Sym.Flags.TargetFlags = 0;
  }
  LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, native_nsyms);
  return !llvm_failed(LLVMOrcJITDylibDefine(J.jd, mu), J.err, sizeof J.err);
}

static void jit_init(void) {
  if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter()) {
    snprintf(J.err, sizeof J.err, "LLVM has no target for this host");
    return;
  }
  LLVMOrcLLJITRef jit;
  if (llvm_failed(LLVMOrcCreateLLJIT(&jit, LLVMOrcCreateLLJITBuilder()), J.err, sizeof J.err))
    return;
  J.jit = jit;
  J.jd = LLVMOrcLLJITGetMainJITDylib(jit);
  J.triple = LLVMGetDefaultTargetTriple();
  LLVMTargetRef t;
  char *msg = NULL, *cpu = LLVMGetHostCPUName(), *feat = LLVMGetHostCPUFeatures();
  if (LLVMGetTargetFromTriple(J.triple, &t, &msg) == 0)
    J.tm = LLVMCreateTargetMachine(t, J.triple, cpu, feat, LLVMCodeGenLevelDefault,
                                   LLVMRelocDefault, LLVMCodeModelJITDefault);
  else
    snprintf(J.err, sizeof J.err, "%s", msg ? msg : "no target");
  LLVMDisposeMessage(msg);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(feat);
  if (!J.tm || !define_syms()) J.jit = NULL; /* the interpreter runs everything */
}

/* One kernel's code at one warp width; a list per kernel. */
struct native_code {
  struct native_code *next;
  unsigned W;
  bool tried;    /* compile() ran */
  uint64_t work; /* lane instructions the interpreter ran for it */
  double ms;     /* how long the compile took */
  native_fn fn;  /* NULL: not compiled (why) */
  LLVMOrcResourceTrackerRef rt;
  char why[160];
};

static void native_free(void *p) {
  for (struct native_code *c = p, *next; c; c = next) {
    next = c->next;
    if (c->rt) {
      LLVMErrorRef e = LLVMOrcResourceTrackerRemove(c->rt);
      if (e) LLVMConsumeError(e);
      LLVMOrcReleaseResourceTracker(c->rt);
    }
    free(c);
  }
}

/* Builds, checks, optimises and adds the module of k at width W. */
static void compile(const struct lsi_kernel *k, struct native_code *c) {
  char name[32];
  snprintf(name, sizeof name, "lsn_warp_%u", ++J.serial);
  LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
  LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(tsc);
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext(name, ctx);
  LLVMSetTarget(m, J.triple);
  LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(J.tm);
  LLVMSetModuleDataLayout(m, dl);
  LLVMDisposeTargetData(dl);
  char *msg = NULL;
  bool ok = native_gen(ctx, m, name, k, c->W, c->why, sizeof c->why);
  if (ok && LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
    snprintf(c->why, sizeof c->why, "generated code does not verify: %.100s", msg);
    ok = false;
  }
  LLVMDisposeMessage(msg);
  if (ok) {
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    ok = !llvm_failed(LLVMRunPasses(m, "default<O2>", J.tm, po), c->why, sizeof c->why);
    LLVMDisposePassBuilderOptions(po);
  }
  const char *dump = getenv("LOCKSTEP_NATIVE_DUMP"); /* the optimised IR, appended */
  if (ok && dump && *dump) {
    FILE *f = fopen(dump, "a");
    char *ir = LLVMPrintModuleToString(m);
    if (f) fputs(ir, f), fclose(f);
    LLVMDisposeMessage(ir);
  }
  if (!ok) {
    LLVMDisposeModule(m);
    LLVMOrcDisposeThreadSafeContext(tsc);
    return;
  }
  LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(m, tsc);
  LLVMOrcDisposeThreadSafeContext(tsc);
  c->rt = LLVMOrcJITDylibCreateResourceTracker(J.jd);
  LLVMOrcExecutorAddress addr = 0;
  if (llvm_failed(LLVMOrcLLJITAddLLVMIRModuleWithRT(J.jit, c->rt, tsm), c->why, sizeof c->why)) {
    LLVMOrcDisposeThreadSafeModule(tsm);
    return;
  }
  if (llvm_failed(LLVMOrcLLJITLookup(J.jit, &addr, name), c->why, sizeof c->why)) return;
  c->fn = (native_fn)(uintptr_t)addr;
}

/* k's entry for width W, made when missing (under J.mu). */
static struct native_code *entry_for(const struct lsi_kernel *k, unsigned W) {
  struct lsi_kernel *mk = (struct lsi_kernel *)k; /* the cache is the kernel's */
  struct native_code *c = mk->native;
  while (c && c->W != W)
    c = c->next;
  if (!c && (c = calloc(1, sizeof *c)) != NULL) {
    c->W = W;
    c->next = mk->native;
    mk->native = c;
    mk->native_free = native_free;
  }
  return c;
}

native_fn native_code(const struct lsi_kernel *k, unsigned W, uint64_t work, uint64_t min,
                      char *why, size_t n) {
  pthread_once(&J.once, jit_init);
  if (!J.jit) {
    snprintf(why, n, "%s", J.err);
    return NULL;
  }
  pthread_mutex_lock(&J.mu);
  struct native_code *c = entry_for(k, W);
  if (c && !c->tried && c->work + work >= min) {
    c->tried = true;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    compile(k, c);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    c->ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
  }
  native_fn fn = c ? c->fn : NULL;
  if (!c)
    snprintf(why, n, "out of host memory");
  else if (!c->tried)
    snprintf(why, n, "%" PRIu64 " lane instructions so far, below LOCKSTEP_NATIVE_MIN",
             c->work + work);
  else if (fn)
    snprintf(why, n, "compiled in %.1f ms", c->ms);
  else
    snprintf(why, n, "%s", c->why);
  pthread_mutex_unlock(&J.mu);
  return fn;
}

void native_account(const struct lsi_kernel *k, unsigned W, uint64_t lane_insns) {
  pthread_mutex_lock(&J.mu);
  struct native_code *c = entry_for(k, W);
  if (c) c->work = c->work + lane_insns < c->work ? UINT64_MAX : c->work + lane_insns;
  pthread_mutex_unlock(&J.mu);
}

/* ---- the warp slice ---- */

int native_warp_run(struct simt_cu *cu, struct simt_warp *w, native_fn fn, uint64_t budget) {
  struct native_ctx x = {.cu = cu, .w = w, .priv = w->priv};
  struct native_count n = {.budget = budget > INT64_MAX ? INT64_MAX : (int64_t)budget};
  while (w->state == SIMT_WARP_RUN && n.budget > 0) {
    int r = fn(&x, w->reg, &n);
    if (r == NATIVE_RET_BUDGET) break;
    if (r == NATIVE_RET_INTERP) {
      cu->epoch += n.epoch; /* the interpreter's stores count on */
      n.epoch = 0;
      simt_warp_step(cu, w);
    }
  }
  cu->epoch += n.epoch;
  cu->st.warp_insns += n.warp_insns;
  cu->st.lane_insns += n.lane_insns;
  for (int j = 0; j < 8; j++) {
    cu->st.ld_bytes[j] += n.ld_bytes[j];
    cu->st.st_bytes[j] += n.st_bytes[j];
  }
  cu->st.native_slices++;
  return (int)w->state;
}
