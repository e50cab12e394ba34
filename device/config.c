/*
 * config.c - the one device configuration: defaults like a small real GPU,
 * overridable by LOCKSTEP_* environment variables. Every limit the device
 * reports and enforces is read from here. A bad value gets one clear message
 * on stderr and the default; it never stops the host program.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/dev.h"

void dev_config_defaults(struct dev_config *cfg) {
  *cfg = (struct dev_config){
      .compute_units = 8,
      .warp_width = 32,
      .host_threads = 0,
      .global_mem_size = UINT64_C(1) << 30,
      .max_alloc_size = UINT64_C(256) << 20,
      .local_mem_size = UINT64_C(48) << 10,
      .constant_buf_size = UINT64_C(64) << 10,
      .private_mem_size = UINT64_C(64) << 10,
      .max_wg_size = 1024,
      .clock_mhz = 1000,
      .watchdog_ms = 60000,
  };
}

/* Parses a byte size with an optional K, M or G suffix (powers of 1024). */
static int parse_size(const char *s, uint64_t *out) {
  errno = 0;
  char *end;
  if (!isdigit((unsigned char)*s)) return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s) return -1;
  unsigned shift = 0;
  switch (toupper((unsigned char)*end)) {
  case 'K': shift = 10, end++; break;
  case 'M': shift = 20, end++; break;
  case 'G': shift = 30, end++; break;
  default: break;
  }
  if (toupper((unsigned char)*end) == 'B' || toupper((unsigned char)*end) == 'I') end++;
  if (*end != '\0' || v > (UINT64_MAX >> shift)) return -1;
  *out = (uint64_t)v << shift;
  return 0;
}

static void bad(const char *name, const char *value, const char *want) {
  fprintf(stderr, "lockstep: ignoring %s=\"%s\": %s; using the default\n", name, value, want);
}

static void env_uint(const char *name, unsigned *field, uint64_t lo, uint64_t hi, bool pow2) {
  const char *s = getenv(name);
  if (!s || !*s) return;
  uint64_t v;
  if (parse_size(s, &v) != 0 || v < lo || v > hi || (pow2 && (v & (v - 1)))) {
    char want[128];
    snprintf(want, sizeof want, "expected %s%s from %" PRIu64 " to %" PRIu64,
             pow2 ? "a power of two" : "a whole number", "", lo, hi);
    bad(name, s, want);
    return;
  }
  *field = (unsigned)v;
}

static void env_size(const char *name, uint64_t *field, uint64_t lo, uint64_t hi) {
  const char *s = getenv(name);
  if (!s || !*s) return;
  uint64_t v;
  if (parse_size(s, &v) != 0 || v < lo || v > hi) {
    char want[160];
    snprintf(want, sizeof want,
             "expected a byte count (optionally with K, M or G) from %" PRIu64 " to %" PRIu64, lo,
             hi);
    bad(name, s, want);
    return;
  }
  *field = v;
}

void dev_config_load(struct dev_config *cfg) {
  dev_config_defaults(cfg);
  env_uint("LOCKSTEP_COMPUTE_UNITS", &cfg->compute_units, 1, 1024, false);
  env_uint("LOCKSTEP_WARP_WIDTH", &cfg->warp_width, 4, 64, true);
  env_uint("LOCKSTEP_HOST_THREADS", &cfg->host_threads, 0, 256, false);
  env_size("LOCKSTEP_GLOBAL_MEM_SIZE", &cfg->global_mem_size, UINT64_C(1) << 20,
           UINT64_C(64) << 30);
  /* The specification's minimum: max(1/4 of global memory, 128 MiB). */
  cfg->max_alloc_size = cfg->global_mem_size / 4;
  if (cfg->max_alloc_size < (UINT64_C(128) << 20)) cfg->max_alloc_size = UINT64_C(128) << 20;
  env_size("LOCKSTEP_MAX_ALLOC_SIZE", &cfg->max_alloc_size, UINT64_C(1) << 20, UINT64_C(64) << 30);
  env_size("LOCKSTEP_LOCAL_MEM_SIZE", &cfg->local_mem_size, UINT64_C(16) << 10, UINT64_C(1) << 30);
  env_uint("LOCKSTEP_MAX_WORK_GROUP_SIZE", &cfg->max_wg_size, 64, 4096, true);
  env_uint("LOCKSTEP_WATCHDOG_MS", &cfg->watchdog_ms, 10, 86400000, false);
  env_uint("LOCKSTEP_CHECK_DIVZERO", &cfg->check_divzero, 0, 1, false);
  /* Keep the limits consistent with each other. */
  if (cfg->max_alloc_size > cfg->global_mem_size) {
    fprintf(stderr, "lockstep: LOCKSTEP_MAX_ALLOC_SIZE exceeds the global memory size; "
                    "using the global memory size\n");
    cfg->max_alloc_size = cfg->global_mem_size;
  }
  if (cfg->max_wg_size < cfg->warp_width) cfg->max_wg_size = cfg->warp_width;
}
