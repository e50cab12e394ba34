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
#include <unistd.h>

#include "compiler/cc.h"
#include "device/builtins.h"
#include "device/native.h"

/* ---- what the generated code calls ---- */

/* Keeps what an access of kind at addr was checked against for the rest
 * of the pass (the generated code looks there first). */
static uint8_t *remember(struct native_ctx *x, uint64_t addr, uint32_t kind, uint8_t *host,
                         uint64_t size, uint64_t *limit) {
  struct simt_ncache *c =
      &x->ncache[(kind ? SIMT_NCACHE : 0) + ((addr >> LSI_ADDR_ID_SHIFT) & (SIMT_NCACHE - 1))];
  c->key = addr >> LSI_ADDR_ID_SHIFT;
  c->host = host;
  c->size = size;
  *limit = size;
  return host;
}

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
    return remember(x, addr, kind, e->host, e->size, limit);
  }
  case LSI_SPACE_LOCAL:
    if (LSI_ADDR_ID(addr) != 0 || !x->cu->local) return NULL;
    return remember(x, addr, kind, x->cu->local, run->local_total, limit);
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

static int32_t lsn_diverge(struct native_ctx *x, uint32_t pc, uint64_t act, uint64_t nt) {
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

static int32_t next_is(struct native_ctx *x, struct simt_warp *w) {
  x->w = w;
  x->priv = w->priv;
  return 1;
}

/* Where x->w no longer runs (it waits at a barrier, or is done): 1 when
 * the work-group has a next warp still to run in this round, which
 * becomes x->w, or when x->w was the round's last and every warp waits at
 * a barrier, which is released as run_group would release it (the next
 * round's first warp becomes x->w); else 0 (x->chain false, a fault, the
 * launch stopped, a warp done). Warps run in the order run_group runs
 * them; the code counts the slice and starts its budget. */
static int32_t lsn_next(struct native_ctx *x) {
  struct simt_cu *cu = x->cu;
  if (!x->chain || cu->faulted || x->w->state == SIMT_WARP_RUN) return 0;
  for (struct simt_warp *w = x->w + 1; w < cu->warps + cu->nwarps; w++)
    if (w->state == SIMT_WARP_RUN) return next_is(x, w);
  for (unsigned i = 0; i < cu->nwarps; i++)
    if (cu->warps[i].state != SIMT_WARP_BARRIER) return 0;
  if (!simt_round_goes_on(cu) || !simt_barrier_release(cu)) return 0;
  atomic_store_explicit(&cu->beat, cu->epoch, memory_order_relaxed);
  return next_is(x, &cu->warps[0]);
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

void native_group_sregs(struct simt_cu *cu) {
  const struct simt_run *run = cu->run;
  const struct dev_launch *l = run->l;
  uint64_t *r = cu->nsreg;
  for (unsigned k = 0; k < 3; k++) {
    r[LSI_SREG_GLOBAL_ID_X + k] = l->offset[k] + cu->group_id[k] * l->local[k];
    r[LSI_SREG_LOCAL_ID_X + k] = 0; /* what is added to the lane's local id */
    r[LSI_SREG_GROUP_ID_X + k] = cu->group_id[k];
    r[LSI_SREG_GLOBAL_SIZE_X + k] = l->global[k];
    r[LSI_SREG_LOCAL_SIZE_X + k] = cu->group_size[k];
    r[LSI_SREG_ENQ_LOCAL_SIZE_X + k] = l->local[k];
    r[LSI_SREG_NUM_GROUPS_X + k] = run->ngroups[k];
    r[LSI_SREG_GLOBAL_OFFSET_X + k] = l->offset[k];
  }
  r[LSI_SREG_WORK_DIM] = l->work_dim;
  r[LSI_SREG_PRIVATE_BASE] = LSI_ADDR(LSI_SPACE_PRIVATE, 0, 0);
  /* the per-lane linear ids and the sub-group registers are not read here */
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
/* The functions the generated code calls, by name. */
static const struct {
  const char *name;
  uintptr_t addr;
} native_syms[] = {
    SYM(lsn_base),
    SYM(lsn_callb),
    SYM(lsn_diverge),
    SYM(lsn_push),
    SYM(lsn_join),
    SYM(lsn_yield),
    SYM(lsn_bar),
    SYM(lsn_exit),
    SYM(lsn_next),
    SYM(lsn_sreg),
    /* what LLVM lowers vector frem and block moves to */
    SYM(fmodf),
    SYM(fmod),
    SYM(memcpy),
    SYM(memset),
    SYM(memmove),
};
static const unsigned native_nsyms = sizeof native_syms / sizeof native_syms[0];

/* ---- the JIT ---- */

#define NATIVE_BUCKETS 1024 /* J.table: entries by key */

static struct {
  pthread_once_t once;
  pthread_mutex_t mu;
  /* one compile at a time (the target machine is shared), and how many
   * background compiles are under way (the process waits for them at
   * exit, before LLVM's own destructors run) */
  pthread_mutex_t emit_mu;
  pthread_cond_t idle;
  unsigned pending;
  bool compiled; /* a compile finished in this process */
  bool exiting;  /* the process exits (drain): no compile in the background begins */
  LLVMOrcLLJITRef jit;
  LLVMOrcJITDylibRef jd;
  LLVMTargetMachineRef tm;
  char *triple, *cpu, *features;
  char err[256];
  struct native_obj *table[NATIVE_BUCKETS];
} J = {PTHREAD_ONCE_INIT, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
       PTHREAD_COND_INITIALIZER};

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
  char *msg = NULL;
  J.cpu = LLVMGetHostCPUName();
  J.features = LLVMGetHostCPUFeatures();
  if (LLVMGetTargetFromTriple(J.triple, &t, &msg) == 0)
    J.tm = LLVMCreateTargetMachine(t, J.triple, J.cpu, J.features, LLVMCodeGenLevelDefault,
                                   LLVMRelocDefault, LLVMCodeModelJITDefault);
  else
    snprintf(J.err, sizeof J.err, "%s", msg ? msg : "no target");
  LLVMDisposeMessage(msg);
  if (!J.tm || !define_syms()) J.jit = NULL; /* the interpreter runs everything */
}

/* A kernel's code at one warp width, by content (identical kernels of
 * programs built again share it), kept for the process in J.table: the
 * lane instructions the interpreter ran for it so far, and its function
 * once there is one. */
struct native_obj {
  struct native_obj *next;
  char key[48];
  uint64_t work;
  bool probed;    /* the build cache was looked in */
  bool tried;     /* loaded or compiled (fn NULL: it failed, why) */
  bool compiling; /* in the background */
  bool fixed;     /* native_rows_fixed */
  native_fn fn;
  char why[160];
};

/* What the code of k at width W is made from: this build, the host CPU,
 * the width and every part of the kernel the generator reads (the rows
 * it knows: native_uniform_rows, and the constants' values), and whether
 * its rows stay fixed (native_rows_fixed); false when out of memory. */
static bool obj_key(const struct lsi_kernel *k, unsigned W, char *hex, bool *fixed) {
  uint32_t shape[5] = {W, k->ninsns, k->nregs, k->nconst, k->private_size};
  uint8_t *uni = native_uniform_rows(k);
  uint64_t *val = calloc(k->nconst + 1, sizeof *val);
  if (!uni || !val) {
    free(uni), free(val);
    return false;
  }
  for (uint32_t r = 0; r < k->nconst; r++)
    val[r] = uni[r] == NATIVE_ROW_CONST ? k->consts[r].value : 0;
  const void *p[] = {cc_build_stamp(), J.cpu, J.features, shape, k->code, k->arglist, uni, val};
  size_t lens[] = {strlen(cc_build_stamp()),
                   strlen(J.cpu),
                   strlen(J.features),
                   sizeof shape,
                   (size_t)k->ninsns * sizeof *k->code,
                   (size_t)k->narglist * sizeof *k->arglist,
                   k->nregs,
                   (size_t)k->nconst * sizeof *val};
  cc_hash_hex(p, lens, sizeof lens / sizeof lens[0], hex);
  *fixed = native_rows_fixed(k, uni);
  free(uni), free(val);
  return true;
}

/* Generates, checks and optimises k's code and emits it as an object
 * file, or NULL (with o->why): also for a compile in the background
 * that has not begun when the process exits (no launch will use it). */
static LLVMMemoryBufferRef emit(const struct lsi_kernel *k, unsigned W, const char *name,
                                struct native_obj *o, bool background) {
  pthread_mutex_lock(&J.emit_mu);
  if (background && __atomic_load_n(&J.exiting, __ATOMIC_RELAXED)) {
    pthread_mutex_unlock(&J.emit_mu);
    snprintf(o->why, sizeof o->why, "not compiled: the process exits");
    return NULL;
  }
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext(name, ctx);
  LLVMSetTarget(m, J.triple);
  LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(J.tm);
  LLVMSetModuleDataLayout(m, dl);
  LLVMDisposeTargetData(dl);
  char *msg = NULL;
  LLVMMemoryBufferRef buf = NULL;
  bool ok = native_gen(ctx, m, name, k, W, J.features, o->why, sizeof o->why);
  if (ok && LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
    snprintf(o->why, sizeof o->why, "generated code does not verify: %.100s", msg);
    ok = false;
  }
  LLVMDisposeMessage(msg);
  msg = NULL;
  if (ok) {
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    ok = !llvm_failed(LLVMRunPasses(m, "default<O2>", J.tm, po), o->why, sizeof o->why);
    LLVMDisposePassBuilderOptions(po);
  }
  const char *dump = getenv("LOCKSTEP_NATIVE_DUMP"); /* the optimised IR, appended */
  if (ok && dump && *dump) {
    FILE *f = fopen(dump, "a");
    char *ir = LLVMPrintModuleToString(m);
    if (f) fputs(ir, f), fclose(f);
    LLVMDisposeMessage(ir);
  }
  if (ok && LLVMTargetMachineEmitToMemoryBuffer(J.tm, m, LLVMObjectFile, &msg, &buf)) {
    snprintf(o->why, sizeof o->why, "code generation failed: %.100s", msg ? msg : "");
    buf = NULL;
  }
  LLVMDisposeMessage(msg);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  pthread_mutex_unlock(&J.emit_mu);
  return buf;
}

/* The cached object file of key, or NULL. */
static LLVMMemoryBufferRef cache_read(const char *key) {
  char name[96], path[4200];
  snprintf(name, sizeof name, "native-%s.o", key);
  if (cc_cache_path(name, path, sizeof path) != 0) return NULL;
  LLVMMemoryBufferRef buf = NULL;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) buf = NULL;
  LLVMDisposeMessage(msg);
  return buf;
}

/* Keeps an object file for later processes (written aside, then renamed
 * into place, so a reader never sees part of one). */
static void cache_write(const char *key, LLVMMemoryBufferRef buf) {
  char name[96], path[4200], tmp[4300];
  snprintf(name, sizeof name, "native-%s.o", key);
  if (cc_cache_path(name, path, sizeof path) != 0) return;
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) return;
  size_t n = LLVMGetBufferSize(buf);
  bool ok = fwrite(LLVMGetBufferStart(buf), 1, n, f) == n;
  ok = fclose(f) == 0 && ok;
  if (!ok || rename(tmp, path) != 0) remove(tmp);
}

static void cache_drop(const char *key) {
  char name[96], path[4200];
  snprintf(name, sizeof name, "native-%s.o", key);
  if (cc_cache_path(name, path, sizeof path) == 0) remove(path);
}

/* Loads an object file (taking buf) and finds its function. */
static native_fn load(LLVMMemoryBufferRef buf, const char *name, struct native_obj *o) {
  if (llvm_failed(LLVMOrcLLJITAddObjectFile(J.jit, J.jd, buf), o->why, sizeof o->why)) return NULL;
  LLVMOrcExecutorAddress addr = 0;
  if (llvm_failed(LLVMOrcLLJITLookup(J.jit, &addr, name), o->why, sizeof o->why)) return NULL;
  return (native_fn)(uintptr_t)addr;
}

/* The entry of key, made when missing (NULL: out of memory). */
static struct native_obj *entry(const char *key) {
  unsigned b = 0;
  for (const char *c = key; *c; c++)
    b = b * 31 + (unsigned char)*c;
  b %= NATIVE_BUCKETS;
  struct native_obj *o = J.table[b];
  while (o && strcmp(o->key, key) != 0)
    o = o->next;
  if (!o && (o = calloc(1, sizeof *o)) != NULL) {
    snprintf(o->key, sizeof o->key, "%s", key);
    o->next = J.table[b];
    J.table[b] = o;
  }
  return o;
}

static void drain(void) {
  __atomic_store_n(&J.exiting, true, __ATOMIC_RELAXED); /* the compiles not begun end at once */
  pthread_mutex_lock(&J.mu);
  while (J.pending)
    pthread_cond_wait(&J.idle, &J.mu);
  pthread_mutex_unlock(&J.mu);
}
/* A child forked during a compile has no compile thread: nothing is
 * pending there, and a kernel left half made is compiled again. */
static void fork_prepare(void) { /* no compile is then in LLVM */
  pthread_mutex_lock(&J.mu);
  pthread_mutex_lock(&J.emit_mu);
}
static void fork_parent(void) {
  pthread_mutex_unlock(&J.emit_mu);
  pthread_mutex_unlock(&J.mu);
}
static void fork_child(void) {
  for (unsigned b = 0; b < NATIVE_BUCKETS; b++)
    for (struct native_obj *o = J.table[b]; o; o = o->next)
      o->compiling = false;
  J.pending = 0;
  pthread_cond_init(&J.idle, NULL);
  pthread_mutex_unlock(&J.emit_mu);
  pthread_mutex_unlock(&J.mu);
}
/* exit() runs its handlers last registered first, and LLVM registers
 * destructors for some of its tables when a compile first uses them: so
 * the first compile of the process runs before its launch (never in the
 * background), and the wait is registered after it and again after each
 * background compile, after whatever that compile registered (J.mu
 * held). A table a background compile is the first to use is destroyed
 * before the wait if the process exits during that compile. */
static void wait_at_exit(bool background) {
  if (J.compiled && !background) return;
  if (!J.compiled) pthread_atfork(fork_prepare, fork_parent, fork_child);
  J.compiled = true;
  atexit(drain);
}

/* Gives o its function: from the build cache, or (when compile says so)
 * compiled. */
static void make(struct native_obj *o, const struct lsi_kernel *k, unsigned W, bool compile) {
  LLVMMemoryBufferRef buf = o->probed ? NULL : cache_read(o->key);
  o->probed = true;
  if (!buf && !compile) return;
  o->tried = true;
  char name[64];
  snprintf(name, sizeof name, "lsn_%.24s", o->key);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  bool cached = buf != NULL, dropped = false;
  if (cached && !(o->fn = load(buf, name, o))) {
    /* a cached file that does not load (damaged): dropped, and the code
     * compiled again under another name (the first may be half defined);
     * the next process writes the cache */
    cache_drop(o->key);
    snprintf(name, sizeof name, "lsn_%.24s_again", o->key);
    cached = false;
    dropped = true;
  }
  if (!cached) {
    buf = emit(k, W, name, o, false);
    if (buf && !dropped) cache_write(o->key, buf);
    if (buf) o->fn = load(buf, name, o);
    wait_at_exit(false);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (o->fn)
    snprintf(o->why, sizeof o->why, "%s in %.1f ms", cached ? "loaded from the cache" : "compiled",
             (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
}

/* ---- compiling in the background ---- */

/* A compile's own copy of what it reads of the kernel (the program may
 * be released meanwhile). */
struct job {
  struct native_obj *o;
  struct lsi_kernel k;
  unsigned W;
};

static void job_free(struct job *j) {
  free(j->k.code), free(j->k.arglist), free(j->k.consts), free(j->k.args), free(j);
}

static void *compile_job(void *arg) {
  struct job *j = arg;
  struct native_obj *o = j->o;
  char name[64], why[sizeof o->why] = "";
  snprintf(name, sizeof name, "lsn_%.24s", o->key);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  struct native_obj scratch = {0}; /* emit's reasons, until o is locked */
  LLVMMemoryBufferRef buf = emit(&j->k, j->W, name, &scratch, true);
  if (buf) cache_write(o->key, buf);
  pthread_mutex_lock(&J.mu);
  snprintf(o->why, sizeof o->why, "%s", scratch.why);
  if (buf) o->fn = load(buf, name, o);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (o->fn)
    snprintf(why, sizeof why, "compiled in the background in %.1f ms",
             (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
  if (*why) snprintf(o->why, sizeof o->why, "%s", why);
  o->tried = true;
  o->compiling = false;
  wait_at_exit(true);
  J.pending--;
  pthread_cond_broadcast(&J.idle); /* drain, and min 0 launches waiting for it */
  pthread_mutex_unlock(&J.mu);
  job_free(j);
  return NULL;
}

/* Starts compiling k on a thread of its own (J.mu held); false when it
 * cannot (out of memory or threads). */
static bool start_job(struct native_obj *o, const struct lsi_kernel *k, unsigned W) {
  struct job *j = calloc(1, sizeof *j);
  if (!j) return false;
  j->o = o, j->W = W;
  j->k.ninsns = k->ninsns, j->k.nregs = k->nregs, j->k.nconst = k->nconst;
  j->k.private_size = k->private_size, j->k.narglist = k->narglist;
  j->k.nargs = k->nargs;
  j->k.code = malloc((size_t)k->ninsns * sizeof *k->code + 1);
  j->k.arglist = malloc((size_t)k->narglist * sizeof *k->arglist + 1);
  j->k.consts = malloc((size_t)k->nconst * sizeof *k->consts + 1);
  j->k.args = calloc(k->nargs + 1, sizeof *k->args);
  pthread_attr_t at;
  pthread_t t;
  bool ok = j->k.code && j->k.arglist && j->k.consts && j->k.args && pthread_attr_init(&at) == 0;
  if (ok) {
    memcpy(j->k.code, k->code, (size_t)k->ninsns * sizeof *k->code);
    if (k->narglist) memcpy(j->k.arglist, k->arglist, (size_t)k->narglist * sizeof *k->arglist);
    if (k->nconst) memcpy(j->k.consts, k->consts, (size_t)k->nconst * sizeof *k->consts);
    for (uint32_t i = 0; i < k->nargs; i++) { /* where each goes, not its names */
      j->k.args[i].kind = k->args[i].kind;
      j->k.args[i].reg = k->args[i].reg;
      j->k.args[i].nregs = k->args[i].nregs;
    }
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    ok = pthread_create(&t, &at, compile_job, j) == 0;
    pthread_attr_destroy(&at);
  }
  if (!ok) {
    job_free(j);
    return false;
  }
  o->compiling = true;
  J.pending++;
  return true;
}

bool native_available(void) {
  pthread_once(&J.once, jit_init);
  return J.jit != NULL;
}

native_fn native_code(const struct lsi_kernel *k, unsigned W, uint64_t work, uint64_t min,
                      void **acct, char *why, size_t n) {
  *acct = NULL;
  if (!native_available()) {
    snprintf(why, n, "%s", J.err);
    return NULL;
  }
  char key[48];
  bool fixed;
  if (!obj_key(k, W, key, &fixed)) {
    snprintf(why, n, "out of host memory");
    return NULL;
  }
  uint64_t cost = (uint64_t)k->ninsns * NATIVE_INSN_WORK, need = min && cost > min ? cost : min;
  bool fits = k->ninsns <= NATIVE_MAX_INSNS;
  pthread_mutex_lock(&J.mu);
  struct native_obj *o = entry(key);
  if (o) o->fixed = fixed;                          /* the same for every kernel of that key */
  bool worth = o && fits && o->work + work >= need; /* else only what is already compiled */
  while (o && !min && o->compiling)                 /* min 0: never a launch before the code */
    pthread_cond_wait(&J.idle, &J.mu);
  if (o && !o->tried && !o->compiling) {
    /* min 0: compiled before this launch runs; else on a thread of its
     * own while the interpreter runs the launches */
    make(o, k, W, worth && (!min || !J.compiled));
    if (!o->tried && worth && !start_job(o, k, W)) make(o, k, W, true);
  }
  native_fn fn = o ? o->fn : NULL;
  if (!o)
    snprintf(why, n, "out of host memory");
  else if (o->compiling)
    snprintf(why, n, "being compiled in the background");
  else if (!o->tried && !fits)
    snprintf(why, n, "%u instructions: the native engine compiles at most %u", k->ninsns,
             NATIVE_MAX_INSNS);
  else if (!o->tried)
    snprintf(why, n,
             "%" PRIu64 " lane instructions so far, below the %" PRIu64
             " a compile of its %u instructions is worth (LOCKSTEP_NATIVE_MIN)",
             o->work + work, need, k->ninsns);
  else
    snprintf(why, n, "%s", o->why);
  *acct = o;
  pthread_mutex_unlock(&J.mu);
  return fn;
}

bool native_keeps_rows(const void *acct) {
  const struct native_obj *o = acct;
  pthread_mutex_lock(&J.mu); /* native_code sets it at every launch */
  bool fixed = o && o->fixed;
  pthread_mutex_unlock(&J.mu);
  return fixed;
}

void native_account(void *acct, uint64_t lane_insns) {
  struct native_obj *o = acct;
  if (!o) return;
  pthread_mutex_lock(&J.mu);
  o->work = o->work + lane_insns < o->work ? UINT64_MAX : o->work + lane_insns;
  pthread_mutex_unlock(&J.mu);
}

/* ---- the warp slice ---- */

struct simt_warp *native_warp_run(struct simt_cu *cu, struct simt_warp *w, native_fn fn,
                                  uint64_t budget, bool chain) {
  struct native_ctx x = {.cu = cu,
                         .w = w,
                         .priv = w->priv,
                         .ncache = &cu->ncache[0][0],
                         .sregs = cu->nsreg,
                         .budget = budget > INT64_MAX ? INT64_MAX : (int64_t)budget,
                         .chain = chain};
  struct native_count *n = &cu->nc;
  n->budget = x.budget;
  while (x.w->state == SIMT_WARP_RUN && n->budget > 0) {
    int r = fn(&x, x.w->reg, n);
    if (r == NATIVE_RET_BUDGET) break;
    if (r == NATIVE_RET_INTERP) {
      cu->epoch += n->epoch; /* the interpreter's stores count on */
      n->epoch = 0;
      unsigned ticks;
      simt_warp_step(cu, x.w, &ticks);
      n->budget -= ticks; /* a branch point there is one here */
    }
  }
  cu->epoch += n->epoch;
  n->epoch = 0;
  n->slices++;
  return x.w;
}

void simt_native_fold(struct simt_cu *cu) {
  struct native_count *n = &cu->nc;
  cu->st.warp_insns += n->warp_insns;
  cu->st.lane_insns += n->lane_insns;
  for (int j = 0; j < 8; j++) {
    cu->st.ld_bytes[j] += n->ld_bytes[j];
    cu->st.st_bytes[j] += n->st_bytes[j];
  }
  cu->st.native_slices += n->slices;
  cu->st.yields += n->yields;
  cu->st.div_branches += n->div_branches;
  memset(n, 0, sizeof *n);
}
