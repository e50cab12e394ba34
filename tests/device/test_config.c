/*
 * test_config.c - the device configuration: defaults, every LOCKSTEP_*
 * override, and bad values (a message and the default, never a stop).
 */
#include <stdio.h>
#include <stdlib.h>

#include "device/check.h"
#include "device/dev.h"
#include "util/check_util.h"

static void clear_env(void) {
  const char *vars[] = {"LOCKSTEP_COMPUTE_UNITS",       "LOCKSTEP_WARP_WIDTH",
                        "LOCKSTEP_HOST_THREADS",        "LOCKSTEP_GLOBAL_MEM_SIZE",
                        "LOCKSTEP_MAX_ALLOC_SIZE",      "LOCKSTEP_LOCAL_MEM_SIZE",
                        "LOCKSTEP_MAX_WORK_GROUP_SIZE", "LOCKSTEP_WATCHDOG_MS"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
    unsetenv(vars[i]);
}

/* The host's physical memory, read independently of the code under test. */
static uint64_t meminfo_total(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  unsigned long long kb = 0;
  char line[256];
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) break;
  if (f) fclose(f);
  return (uint64_t)kb << 10;
}

START_TEST(defaults_are_a_small_gpu) {
  clear_env();
  struct dev_config c;
  dev_config_load(&c);
  ck_assert_uint_eq(c.warp_width, 32);
  /* Memory as a CPU device reports it: three quarters of the host's. */
  uint64_t phys = meminfo_total();
  ck_assert_uint_gt(phys, 0);
  ck_assert_uint_le(c.global_mem_size, phys / 4 * 3);
  ck_assert_uint_gt(c.global_mem_size, phys / 4 * 3 - (UINT64_C(1) << 20) - phys / 100);
  ck_assert_uint_eq(c.max_alloc_size, c.global_mem_size / 4);
  ck_assert_uint_ge(c.max_alloc_size, UINT64_C(128) << 20);
  ck_assert_uint_eq(c.local_mem_size, 48u << 10);
  ck_assert_uint_eq(c.max_wg_size, 1024);
  ck_assert_uint_ge(c.compute_units, 1);
}
END_TEST

/* No watchdog unless asked for: a kernel that is merely slow on the
 * simulator is not a hang (one that makes no progress still stops). */
START_TEST(watchdog_off_by_default) {
  unsetenv("LOCKSTEP_WATCHDOG_MS");
  struct dev_config c;
  dev_config_load(&c);
  ck_assert_uint_eq(c.watchdog_ms, 0);
  setenv("LOCKSTEP_WATCHDOG_MS", "250", 1);
  dev_config_load(&c);
  ck_assert_uint_eq(c.watchdog_ms, 250);
  setenv("LOCKSTEP_WATCHDOG_MS", "0", 1);
  dev_config_load(&c);
  ck_assert_uint_eq(c.watchdog_ms, 0);
  unsetenv("LOCKSTEP_WATCHDOG_MS");
}
END_TEST

START_TEST(overrides) {
  clear_env();
  setenv("LOCKSTEP_COMPUTE_UNITS", "3", 1);
  setenv("LOCKSTEP_WARP_WIDTH", "8", 1);
  setenv("LOCKSTEP_GLOBAL_MEM_SIZE", "2G", 1);
  setenv("LOCKSTEP_LOCAL_MEM_SIZE", "64K", 1);
  setenv("LOCKSTEP_MAX_WORK_GROUP_SIZE", "256", 1);
  setenv("LOCKSTEP_HOST_THREADS", "1", 1);
  struct dev_config c;
  dev_config_load(&c);
  ck_assert_uint_eq(c.compute_units, 3);
  ck_assert_uint_eq(c.warp_width, 8);
  ck_assert_uint_eq(c.global_mem_size, 2ull << 30);
  ck_assert_uint_eq(c.max_alloc_size, 512u << 20); /* a quarter of global */
  ck_assert_uint_eq(c.local_mem_size, 64u << 10);
  ck_assert_uint_eq(c.max_wg_size, 256);
  ck_assert_uint_eq(c.host_threads, 1);
  setenv("LOCKSTEP_MAX_ALLOC_SIZE", "100M", 1);
  dev_config_load(&c);
  ck_assert_uint_eq(c.max_alloc_size, 100u << 20);
  clear_env();
}
END_TEST

START_TEST(bad_values_keep_defaults) {
  clear_env();
  struct dev_config def, c;
  dev_config_defaults(&def);
  const char *bad[][2] = {
      {"LOCKSTEP_WARP_WIDTH", "12"},  /* not a power of two */
      {"LOCKSTEP_WARP_WIDTH", "128"}, /* too wide */
      {"LOCKSTEP_WARP_WIDTH", "2"},   /* too narrow */
      {"LOCKSTEP_COMPUTE_UNITS", "0"},    {"LOCKSTEP_COMPUTE_UNITS", "many"},
      {"LOCKSTEP_GLOBAL_MEM_SIZE", "1T"}, {"LOCKSTEP_GLOBAL_MEM_SIZE", "-5"},
      {"LOCKSTEP_LOCAL_MEM_SIZE", "12x"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    setenv(bad[i][0], bad[i][1], 1);
    dev_config_load(&c);
    ck_assert_uint_eq(c.warp_width, def.warp_width);
    ck_assert_uint_eq(c.compute_units, def.compute_units);
    ck_assert_uint_eq(c.global_mem_size, def.global_mem_size);
    ck_assert_uint_eq(c.local_mem_size, def.local_mem_size);
    unsetenv(bad[i][0]);
  }
  /* A max allocation above global memory is clamped to it. */
  setenv("LOCKSTEP_GLOBAL_MEM_SIZE", "64M", 1);
  setenv("LOCKSTEP_MAX_ALLOC_SIZE", "128M", 1);
  dev_config_load(&c);
  ck_assert_uint_eq(c.max_alloc_size, 64u << 20);
  clear_env();
}
END_TEST

/* LOCKSTEP_FAULTS: stop by default, report when asked, a bad value keeps
 * the default. */
START_TEST(faults_setting) {
  clear_env();
  struct dev_config c;
  unsetenv("LOCKSTEP_FAULTS");
  dev_config_load(&c);
  ck_assert(!c.faults_report);
  setenv("LOCKSTEP_FAULTS", "report", 1);
  dev_config_load(&c);
  ck_assert(c.faults_report);
  setenv("LOCKSTEP_FAULTS", "stop", 1);
  dev_config_load(&c);
  ck_assert(!c.faults_report);
  setenv("LOCKSTEP_FAULTS", "continue", 1);
  dev_config_load(&c);
  ck_assert(!c.faults_report);
  unsetenv("LOCKSTEP_FAULTS");
}
END_TEST

START_TEST(memory_defaults_from_physical) {
  const uint64_t M = UINT64_C(1) << 20, G = UINT64_C(1) << 30;
  const struct {
    uint64_t physical, global, max_alloc;
  } rows[] = {
      {0, 1 * G, 256 * M},           /* unknown: the old fixed default */
      {16 * G, 12 * G, 3 * G},       /* three quarters; a quarter of that */
      {4 * G + 3, 3 * G, 768 * M},   /* whole MiB */
      {256 * M, 256 * M, 128 * M},   /* at least 256 MiB and 128 MiB */
      {4096 * G, 1024 * G, 256 * G}, /* at most the device's 1 TiB */
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    ck_assert_uint_eq(dev_default_global_mem(rows[i].physical), rows[i].global);
    ck_assert_uint_eq(dev_default_max_alloc(rows[i].global), rows[i].max_alloc);
  }
  /* Never more than the global size. */
  ck_assert_uint_eq(dev_default_max_alloc(64 * M), 64 * M);
}
END_TEST

/* LOCKSTEP_CHECK_DIVZERO: off by default, 1 turns it on, anything else is
 * reported and ignored. */
START_TEST(check_divzero) {
  struct dev_config c;
  unsetenv("LOCKSTEP_CHECK_DIVZERO");
  dev_config_load(&c);
  ck_assert_uint_eq(c.check_divzero, 0);
  setenv("LOCKSTEP_CHECK_DIVZERO", "1", 1);
  dev_config_load(&c);
  ck_assert_uint_eq(c.check_divzero, 1);
  setenv("LOCKSTEP_CHECK_DIVZERO", "0", 1);
  dev_config_load(&c);
  ck_assert_uint_eq(c.check_divzero, 0);
  const char *bad[] = {"2", "yes", "-1"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    setenv("LOCKSTEP_CHECK_DIVZERO", bad[i], 1);
    dev_config_load(&c);
    ck_assert_uint_eq(c.check_divzero, 0);
  }
  unsetenv("LOCKSTEP_CHECK_DIVZERO");
}
END_TEST

/* LOCKSTEP_CHECK: a comma list of checkers; an unknown name is refused
 * (no checker on); both races and uninit are on when named. */
START_TEST(check_setting) {
  struct dev_config c;
  unsetenv("LOCKSTEP_CHECK");
  dev_config_load(&c);
  ck_assert_uint_eq(c.check, 0);
  setenv("LOCKSTEP_CHECK", "races", 1);
  dev_config_load(&c);
  ck_assert_uint_eq(c.check, DEV_CHECK_RACES);
  setenv("LOCKSTEP_CHECK", "uninit,races", 1);
  dev_config_load(&c);
  ck_assert_uint_eq(c.check, DEV_CHECK_RACES | DEV_CHECK_UNINIT);
  setenv("LOCKSTEP_CHECK", "races,bogus", 1);
  dev_config_load(&c);
  ck_assert_uint_eq(c.check, 0);
  unsetenv("LOCKSTEP_CHECK");
  char why[160], note[80];
  unsigned m = 99;
  ck_assert_int_eq(dev_check_parse("none", &m, why, sizeof why, note, sizeof note), 0);
  ck_assert_uint_eq(m, 0);
  ck_assert_str_eq(note, "");
  ck_assert_int_eq(dev_check_parse("races,,races", &m, why, sizeof why, note, sizeof note), 0);
  ck_assert_uint_eq(m, DEV_CHECK_RACES);
  ck_assert_int_eq(dev_check_parse("uninit", &m, why, sizeof why, note, sizeof note), 0);
  ck_assert_uint_eq(m, DEV_CHECK_UNINIT);
  ck_assert_str_eq(note, "");
  ck_assert_int_eq(dev_check_parse("race", &m, why, sizeof why, note, sizeof note), -1);
  ck_assert_str_eq(why, "unknown checker \"race\" (expected a comma list of races, uninit)");
  ck_assert_str_eq(dev_check_name(DEV_CHECK_RACES), "races");
}
END_TEST

int main(void) {
  Suite *s = suite_create("config");
  CU_ADD(s, defaults_are_a_small_gpu);
  CU_ADD(s, memory_defaults_from_physical);
  CU_ADD(s, watchdog_off_by_default);
  CU_ADD(s, overrides);
  CU_ADD(s, bad_values_keep_defaults);
  CU_ADD(s, faults_setting);
  CU_ADD(s, check_divzero);
  CU_ADD(s, check_setting);
  return cu_run(s);
}
