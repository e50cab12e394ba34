/*
 * hooks.h - the one registration point for a layer above the runtime (the
 * debugger). The runtime includes nothing of such a layer: when one is
 * linked in, it installs its hooks before the first OpenCL call (from a
 * constructor); without one, or while it says it is not active, builds
 * and launches run as they always do.
 */
#ifndef LOCKSTEP_RUNTIME_HOOKS_H
#define LOCKSTEP_RUNTIME_HOOKS_H

#include "device/dev.h"

/* What a launch run through rt_hooks.launch_fn gets as its argument: the
 * program's source (NULL when built from a binary without one) and the
 * options the host built it with. Lives as long as the launch's kernel. */
struct rt_program_text {
  const char *source;
  const char *options;
};

struct rt_hooks {
  /* Whether the layer intercepts builds and launches now. The first call
   * (when the platform is first asked for) may connect it to its front
   * end and take its first commands. */
  int (*active)(void);
  /* The options a program is compiled with, given the caller's: malloc'd,
   * NULL when out of memory. The program keeps reporting the caller's. */
  char *(*build_options)(const char *options);
  /* Runs a launch instead of the SIMT engine (struct dev_cmd.launch_fn);
   * its argument is a struct rt_program_text. */
  int (*launch_fn)(void *arg, struct dev_device *d, const struct dev_launch *l,
                   struct dev_exception *exc, struct dev_switch *sw);
};

/* Installs h (NULL removes the hooks); h must outlive the process's use of
 * OpenCL. */
void rt_hooks_install(const struct rt_hooks *h);
/* The installed hooks while their layer is active, else NULL. */
const struct rt_hooks *rt_hooks_active(void);

#endif
