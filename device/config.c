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

#include <unistd.h>

#include "device/check.h"
#include "device/dev.h"
#include "device/native.h"

/* The largest global memory and allocation the device can address (an
 * allocation's offset has 40 bits). */
#define MEM_SIZE_MAX (UINT64_C(1) << 40)

uint64_t dev_default_global_mem(uint64_t physical) {
  if (physical == 0) return UINT64_C(1) << 30; /* unknown: 1 GiB */
  /* Buffers live in host memory, as on a CPU device: report most of it
   * (pocl reports a similar share) and leave a quarter to the host program,
   * its own copies of the data and the compiler. Whole MiB. */
  uint64_t g = physical / 4 * 3;
  g &= ~((UINT64_C(1) << 20) - 1);
  if (g < (UINT64_C(256) << 20)) g = UINT64_C(256) << 20;
  return g < MEM_SIZE_MAX ? g : MEM_SIZE_MAX;
}

uint64_t dev_default_max_alloc(uint64_t global) {
  /* The specification's minimum, max(global/4, 128 MiB): one buffer is
   * zero-filled host memory, so a larger share lets a single allocation
   * take what the rest of the program needs. */
  uint64_t a = global / 4;
  if (a < (UINT64_C(128) << 20)) a = UINT64_C(128) << 20;
  return a < global ? a : global;
}

/* Physical memory of the host in bytes (0 when unknown). */
static uint64_t host_physical_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return (uint64_t)pages * (uint64_t)page;
}

void dev_config_defaults(struct dev_config *cfg) {
  uint64_t global = dev_default_global_mem(host_physical_memory());
  *cfg = (struct dev_config){
      .compute_units = 8,
      .warp_width = 32,
      .host_threads = 0,
      .global_mem_size = global,
      .max_alloc_size = dev_default_max_alloc(global),
      .local_mem_size = UINT64_C(48) << 10,
      .constant_buf_size = UINT64_C(64) << 10,
      .private_mem_size = UINT64_C(64) << 10,
      .max_wg_size = 1024,
      .clock_mhz = 1000,
      .watchdog_ms = 0, /* off: a long kernel is not a hang; no progress still faults */
      .progress_ms = 2000,
      .native_min = UINT64_C(1) << 26, /* about 60 ms interpreted: more than a compile */
      /* images: the OpenCL 3.0 minimums, which a small GPU reports */
      .image2d_max = 16384,
      .image3d_max = 2048,
      .image_buffer_max = UINT64_C(1) << 27,
      .image_array_max = 2048,
      .image_pitch_align = 4,
      .image_base_align = 4,
      .max_samplers = 16,
      .max_read_images = 128,
      .max_write_images = 64,
      .max_rw_images = 64,
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

/* LOCKSTEP_FAULTS: what an invalid memory access does (README, Device
 * exceptions). */
static void env_faults(struct dev_config *cfg) {
  const char *s = getenv("LOCKSTEP_FAULTS");
  if (!s || !*s) return;
  if (strcmp(s, "stop") == 0 || strcmp(s, "report") == 0)
    cfg->faults_report = strcmp(s, "report") == 0;
  else
    bad("LOCKSTEP_FAULTS", s, "expected stop or report");
}

/* LOCKSTEP_ENGINE: native or interp (enum dev_engine). */
static void env_engine(struct dev_config *cfg) {
  const char *s = getenv("LOCKSTEP_ENGINE");
  if (!s || !*s) return;
  if (strcmp(s, "native") == 0 || strcmp(s, "interp") == 0)
    cfg->engine = strcmp(s, "native") == 0 ? DEV_ENGINE_NATIVE : DEV_ENGINE_INTERP;
  else
    bad("LOCKSTEP_ENGINE", s, "expected native or interp");
}

bool dev_engine_available(unsigned e) {
  return e == DEV_ENGINE_INTERP || (e == DEV_ENGINE_NATIVE && native_available());
}

/* LOCKSTEP_CHECK: the checkers (device/check.h). */
static void env_check(struct dev_config *cfg) {
  const char *s = getenv("LOCKSTEP_CHECK");
  if (!s) return;
  char why[160], note[80];
  unsigned mask = 0;
  if (dev_check_parse(s, &mask, why, sizeof why, note, sizeof note) != 0) {
    fprintf(stderr, "lockstep: ignoring LOCKSTEP_CHECK=\"%s\": %s; no checker is on\n", s, why);
    return;
  }
  if (note[0])
    fprintf(stderr,
            "lockstep: LOCKSTEP_CHECK: the %s checker is not available yet; running without it\n",
            note);
  cfg->check = mask;
}

void dev_config_load(struct dev_config *cfg) {
  dev_config_defaults(cfg);
  env_uint("LOCKSTEP_COMPUTE_UNITS", &cfg->compute_units, 1, 1024, false);
  env_uint("LOCKSTEP_WARP_WIDTH", &cfg->warp_width, 4, 64, true);
  env_uint("LOCKSTEP_HOST_THREADS", &cfg->host_threads, 0, 256, false);
  env_size("LOCKSTEP_GLOBAL_MEM_SIZE", &cfg->global_mem_size, UINT64_C(1) << 20, MEM_SIZE_MAX);
  cfg->max_alloc_size = dev_default_max_alloc(cfg->global_mem_size);
  env_size("LOCKSTEP_MAX_ALLOC_SIZE", &cfg->max_alloc_size, UINT64_C(1) << 20, MEM_SIZE_MAX);
  env_size("LOCKSTEP_LOCAL_MEM_SIZE", &cfg->local_mem_size, UINT64_C(16) << 10, UINT64_C(1) << 30);
  env_uint("LOCKSTEP_MAX_WORK_GROUP_SIZE", &cfg->max_wg_size, 64, 4096, true);
  env_faults(cfg);
  env_uint("LOCKSTEP_WATCHDOG_MS", &cfg->watchdog_ms, 0, 86400000, false);
  env_uint("LOCKSTEP_PROGRESS_MS", &cfg->progress_ms, 1, 86400000, false);
  env_uint("LOCKSTEP_CHECK_DIVZERO", &cfg->check_divzero, 0, 1, false);
  env_check(cfg);
  env_engine(cfg);
  env_size("LOCKSTEP_NATIVE_MIN", &cfg->native_min, 0, UINT64_MAX);
  /* Keep the limits consistent with each other. */
  if (cfg->max_alloc_size > cfg->global_mem_size) {
    fprintf(stderr, "lockstep: LOCKSTEP_MAX_ALLOC_SIZE exceeds the global memory size; "
                    "using the global memory size\n");
    cfg->max_alloc_size = cfg->global_mem_size;
  }
  if (cfg->max_wg_size < cfg->warp_width) cfg->max_wg_size = cfg->warp_width;
}
