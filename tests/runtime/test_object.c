/*
 * test_object.c - the object header every CL object shares: validation of
 * live and released handles, and the quarantine that keeps released
 * objects' headers allocated within its bounds.
 */
#include <stdlib.h>

#include "util/check_util.h"

struct big {
  struct rt_object obj;
  char payload[64 << 10];
};

static struct rt_object *new_object(size_t size) {
  struct rt_object *o = calloc(1, size);
  ck_assert_ptr_nonnull(o);
  rt_object_init(o, RT_TAG_KERNEL);
  return o;
}

START_TEST(test_released_header_stays_valid) {
  struct rt_object *o = new_object(sizeof *o);
  ck_assert(rt_valid(o, RT_TAG_KERNEL));
  ck_assert(!rt_valid(o, RT_TAG_PROGRAM));
  ck_assert_uint_eq(rt_release(o), 0);
  rt_object_kill(o);
  rt_object_free(o, sizeof *o);
  /* Still allocated (the sanitizer build checks the reads): the loader's
   * dispatch pointer is intact and validation fails. */
  ck_assert_ptr_eq(o->dispatch, rt_dispatch());
  ck_assert_uint_eq(o->tag, RT_TAG_DEAD);
  ck_assert(!rt_valid(o, RT_TAG_KERNEL));
}
END_TEST

START_TEST(test_quarantine_bounded_by_count) {
  for (int i = 0; i < RT_QUARANTINE_OBJECTS + 100; i++)
    rt_object_free(new_object(sizeof(struct rt_object)), sizeof(struct rt_object));
  size_t count, bytes;
  rt_quarantine_usage(&count, &bytes);
  ck_assert_uint_eq(count, RT_QUARANTINE_OBJECTS);
  ck_assert_uint_le(bytes, RT_QUARANTINE_BYTES);
}
END_TEST

START_TEST(test_quarantine_bounded_by_bytes) {
  for (int i = 0; i < 200; i++)
    rt_object_free(new_object(sizeof(struct big)), sizeof(struct big));
  size_t count, bytes;
  rt_quarantine_usage(&count, &bytes);
  ck_assert_uint_le(bytes, RT_QUARANTINE_BYTES);
  ck_assert_uint_ge(bytes, RT_QUARANTINE_BYTES - sizeof(struct big));
  ck_assert_uint_lt(count, 200);
}
END_TEST

/* The newest object is kept; the oldest ones go first. */
START_TEST(test_quarantine_keeps_newest) {
  struct rt_object *last = NULL;
  for (int i = 0; i < RT_QUARANTINE_OBJECTS * 2; i++) {
    last = new_object(sizeof *last);
    rt_object_free(last, sizeof *last);
  }
  ck_assert_ptr_eq(last->dispatch, rt_dispatch());
  ck_assert_uint_eq(last->tag, RT_TAG_DEAD);
}
END_TEST

/* Objects carry the table the exporting layer installed; validation takes
 * only objects that carry the one in force, never zeroed memory. */
START_TEST(test_dispatch_installed) {
  static const cl_icd_dispatch table;
  struct rt_object *before = new_object(sizeof *before);
  ck_assert_ptr_nonnull(before->dispatch);
  rt_set_dispatch(&table);
  ck_assert_ptr_eq(rt_dispatch(), &table);
  struct rt_object *o = new_object(sizeof *o);
  ck_assert_ptr_eq(o->dispatch, &table);
  ck_assert(rt_valid(o, RT_TAG_KERNEL));
  ck_assert(!rt_valid(before, RT_TAG_KERNEL)); /* made with another table */
  struct rt_object zero = {0};
  zero.tag = RT_TAG_KERNEL;
  atomic_init(&zero.refcount, 1);
  ck_assert(!rt_valid(&zero, RT_TAG_KERNEL));
  rt_set_dispatch(NULL); /* back to the runtime's own: still not NULL */
  ck_assert_ptr_nonnull(rt_dispatch());
  ck_assert(!rt_valid(&zero, RT_TAG_KERNEL));
  ck_assert(rt_valid(before, RT_TAG_KERNEL));
  free(o);
  free(before);
}
END_TEST

int main(void) {
  Suite *s = suite_create("runtime_object");
  CU_ADD(s, test_released_header_stays_valid);
  CU_ADD(s, test_quarantine_bounded_by_count);
  CU_ADD(s, test_quarantine_bounded_by_bytes);
  CU_ADD(s, test_quarantine_keeps_newest);
  CU_ADD(s, test_dispatch_installed);
  return cu_run(s);
}
