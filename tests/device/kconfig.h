/*
 * kconfig.h - the engine of the device suites that make their device from a
 * struct dev_config of their own (not through the OpenCL API, which reads
 * every LOCKSTEP_* setting). Each such test chooses the warp width, host
 * threads and limits it is about; the engine, like the runtime's device,
 * comes from LOCKSTEP_ENGINE, so the engine matrix
 * (tests/device/check_engines.sh) runs the same test on both engines.
 */
#ifndef LOCKSTEP_TESTS_DEVICE_KCONFIG_H
#define LOCKSTEP_TESTS_DEVICE_KCONFIG_H

#include "device/dev.h"

/* The engine LOCKSTEP_ENGINE selects (the device's default without it). */
static inline unsigned kc_engine(void) {
  struct dev_config env;
  dev_config_load(&env);
  return env.engine;
}

#endif
