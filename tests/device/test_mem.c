/*
 * test_mem.c - the device memory table's shared virtual memory: an SVM
 * allocation is a live entry reached by its host address, freed ones stay
 * "released" until their granules are handed out again, a granule whose
 * old entry went to a buffer no longer reaches it, and the nearest live
 * allocation is found for reports.
 */
#include <stdint.h>
#include <string.h>

#include "device/mem.h"
#include "util/check_util.h"

#define GRANULE (UINT64_C(1) << DEV_SVM_GRANULE_SHIFT)

static uint64_t u(const void *p) {
  return (uint64_t)(uintptr_t)p;
}

START_TEST(alloc_is_live_at_its_host_address) {
  struct dev_mem *m = dev_mem_create();
  uint8_t *p = dev_mem_svm_alloc(m, 100, false);
  ck_assert_ptr_nonnull(p);
  ck_assert_uint_eq(u(p) % GRANULE, 0);
  ck_assert_uint_eq(LSI_ADDR_SPACE(u(p)), LSI_SPACE_NONE);
  ck_assert_uint_eq(p[99], 0);
  p[99] = 7; /* the host may use it */
  struct dev_mem_entry *e = dev_mem_svm_live(m, u(p) + 96, 4);
  ck_assert_ptr_nonnull(e);
  ck_assert_uint_eq(e->svm, 1);
  ck_assert_uint_eq(e->size, 100);
  /* a range past the end or before the start is in no allocation */
  ck_assert_ptr_null(dev_mem_svm_live(m, u(p) + 97, 4));
  ck_assert_ptr_null(dev_mem_svm_live(m, u(p) - 1, 1));
  /* the host pointer is what commands use, and the canonical global
   * address names the same entry */
  ck_assert_ptr_eq(dev_mem_host(m, u(p) + 10, 90), p + 10);
  ck_assert_ptr_null(dev_mem_host(m, u(p) + 10, 91));
  uint64_t g = dev_mem_canon(m, u(p) + 10);
  ck_assert_uint_eq(LSI_ADDR_SPACE(g), LSI_SPACE_GLOBAL);
  ck_assert_ptr_eq(dev_mem_entry(m, g), e);
  ck_assert_uint_eq(LSI_ADDR_OFFSET(g), 10);
  ck_assert_ptr_eq(dev_mem_host(m, g, 90), p + 10);
  ck_assert_uint_eq(dev_mem_canon(m, u(p) + 100), u(p) + 100); /* outside: unchanged */
  dev_mem_svm_free(m, p);
  dev_mem_destroy(m);
}
END_TEST

START_TEST(freed_is_released_until_reused) {
  struct dev_mem *m = dev_mem_create();
  uint8_t *a = dev_mem_svm_alloc(m, 3 * GRANULE, false);
  uint8_t *b = dev_mem_svm_alloc(m, 16, false);
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_nonnull(b);
  ck_assert_ptr_eq(b, a + 3 * GRANULE);
  a[5] = 1;
  dev_mem_svm_free(m, a + 1); /* not an allocation's start: ignored */
  ck_assert_ptr_nonnull(dev_mem_svm_live(m, u(a), 1));
  dev_mem_svm_free(m, a);
  ck_assert_ptr_null(dev_mem_svm_live(m, u(a) + 5, 1));
  struct dev_mem_entry *e = dev_mem_svm_entry(m, u(a) + 2 * GRANULE);
  ck_assert_ptr_nonnull(e);
  ck_assert_uint_eq(atomic_load(&e->state), DEV_MEM_RELEASED);
  ck_assert_ptr_eq(e->host, a);
  /* the next allocation goes after b, not into a's granules */
  uint8_t *c = dev_mem_svm_alloc(m, 16, false);
  ck_assert_ptr_eq(c, b + GRANULE);
  /* a's entry id goes to a buffer (once every never-used id is taken): a's
   * granules no longer reach it */
  static uint8_t buf[64];
  bool reused = false;
  for (unsigned i = 0; i < DEV_MEM_CAPACITY && !reused; i++) {
    uint64_t addr = dev_mem_map(m, buf, sizeof buf, false);
    if (!addr) break;
    reused = dev_mem_entry(m, addr) == e;
  }
  ck_assert(reused);
  ck_assert_ptr_null(dev_mem_svm_live(m, u(a), 1));
  dev_mem_svm_free(m, b);
  dev_mem_svm_free(m, c);
  dev_mem_destroy(m);
}
END_TEST

START_TEST(nearest_live_allocation) {
  struct dev_mem *m = dev_mem_create();
  ck_assert_ptr_null(dev_mem_svm_nearest(m, 0x1000, 4));
  uint8_t *a = dev_mem_svm_alloc(m, 64, false);
  uint8_t *b = dev_mem_svm_alloc(m, 64, true);
  struct dev_mem_entry *ea = dev_mem_svm_live(m, u(a), 1), *eb = dev_mem_svm_live(m, u(b), 1);
  ck_assert_uint_eq(eb->read_only, 1);
  ck_assert_ptr_eq(dev_mem_svm_nearest(m, u(a) + 70, 4), ea);
  ck_assert_ptr_eq(dev_mem_svm_nearest(m, u(b) - 8, 4), eb);
  ck_assert_ptr_eq(dev_mem_svm_nearest(m, u(b) + 10 * GRANULE, 4), eb);
  dev_mem_svm_free(m, b);
  ck_assert_ptr_eq(dev_mem_svm_nearest(m, u(b), 4), ea);
  dev_mem_svm_free(m, a);
  dev_mem_destroy(m);
}
END_TEST

START_TEST(bad_sizes) {
  struct dev_mem *m = dev_mem_create();
  ck_assert_ptr_null(dev_mem_svm_alloc(m, 0, false));
  ck_assert_ptr_null(dev_mem_svm_alloc(m, LSI_ADDR_OFFSET_MASK + 1, false));
  ck_assert_ptr_null(dev_mem_svm_alloc(m, DEV_SVM_SPAN + 1, false));
  dev_mem_svm_free(m, NULL);
  dev_mem_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mem");
  CU_ADD(s, alloc_is_live_at_its_host_address);
  CU_ADD(s, freed_is_released_until_reused);
  CU_ADD(s, nearest_live_allocation);
  CU_ADD(s, bad_sizes);
  return cu_run(s);
}
