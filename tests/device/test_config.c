/*
 * test_config.c - the device configuration: defaults, every LOCKSTEP_*
 * override, and bad values (a message and the default, never a stop).
 */
#include <stdlib.h>

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

START_TEST(defaults_are_a_small_gpu) {
  clear_env();
  struct dev_config c;
  dev_config_load(&c);
  ck_assert_uint_eq(c.warp_width, 32);
  ck_assert_uint_eq(c.global_mem_size, 1u << 30);
  ck_assert_uint_eq(c.max_alloc_size, 256u << 20);
  ck_assert_uint_eq(c.local_mem_size, 48u << 10);
  ck_assert_uint_eq(c.max_wg_size, 1024);
  ck_assert_uint_ge(c.compute_units, 1);
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

int main(void) {
  Suite *s = suite_create("config");
  CU_ADD(s, defaults_are_a_small_gpu);
  CU_ADD(s, overrides);
  CU_ADD(s, bad_values_keep_defaults);
  CU_ADD(s, check_divzero);
  return cu_run(s);
}
