/*
 * program.h - the internals of program and kernel objects, shared by
 * runtime/program.c and runtime/kernel.c (and read by the debugger).
 *
 * Only the runtime changes these structs. The compiled code itself
 * (struct lsi_program) is immutable once a build finished; a launch keeps
 * the program alive until it completes.
 */
#ifndef LOCKSTEP_RUNTIME_PROGRAM_H
#define LOCKSTEP_RUNTIME_PROGRAM_H

#include "compiler/cc.h"
#include "runtime/hooks.h"
#include "runtime/rt.h"

struct rt_retired {
  struct rt_retired *next;
  struct lsi_program *lsi;
  uint8_t *data;
  uint64_t data_addr;
};

struct rt_prog_cb {
  struct rt_prog_cb *next;
  void(CL_CALLBACK *fn)(cl_program program, void *user_data);
  void *user_data;
};

struct _cl_program {
  struct rt_object obj;
  cl_context context; /* retained */
  pthread_mutex_t lock;
  char *source;    /* from clCreateProgramWithSource, else NULL */
  int from_binary; /* created with clCreateProgramWithBinary */
  /* build state, under lock */
  cl_build_status status;
  bool building;
  char *options;
  char *log;
  cl_program_binary_type bintype;
  struct lsi_program *lsi; /* the executable */
  struct cc_bitcode bc;    /* a compiled object or library */
  bool uniform_wg;         /* work-groups must divide the NDRange (CL 1.x builds) */
  bool arg_info;           /* built from source with -cl-kernel-arg-info (clGetKernelArgInfo) */
  /* the program-scope data segment, mapped into the device */
  uint8_t *data;
  uint64_t data_addr;
  atomic_uint nkernels;     /* kernel objects attached (builds are refused) */
  atomic_uint live_kernels; /* kernel objects alive, launches' included */
  /* executables replaced while a launch still ran one, freed with the program */
  struct rt_retired *retired;
  struct rt_prog_cb *release_cbs;
  struct rt_program_text text; /* what a launch run by a layer above gets */
};

struct _cl_kernel {
  struct rt_object obj;
  cl_program program; /* retained */
  const struct lsi_kernel *k;
  pthread_mutex_t lock;
  uint8_t *argbuf; /* k->argbuf_size bytes */
  bool *arg_set;
  cl_mem *arg_mem;     /* buffer arguments (not retained, as the spec says) */
  uint64_t local_args; /* bytes of __local memory the arguments request */
  /* under lock: references launches in flight hold, and whether the
   * kernel still counts as attached to its program (the application holds
   * it; a kernel only launches hold does not stop a rebuild) */
  unsigned launches;
  bool attached;
};

/* program.c: the executable's kernel by name, or NULL. */
const struct lsi_kernel *rt_program_kernel(cl_program p, const char *name);
/* program.c: maps the program's data segment (once) and returns its device
 * address, 0 when there is none. */
uint64_t rt_program_data(cl_program p);
/* program.c: drops a reference, destroying the program at zero. */
void rt_program_unref(cl_program p);

#endif
