/*
 * test_cp_json.c - the device trace file (device/cp_json.c): whatever the
 * names and details hold (quotes, backslashes, control characters, bytes
 * that are no UTF-8, a surrogate pair's character, long text), the file is
 * one valid JSON array that a strict parser reads back to the same text,
 * with each ill-formed UTF-8 part as one U+FFFD; times are microseconds
 * with three exact decimals; each track is named once.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/cp_json.h"
#include "util/check_util.h"

#define FFFD "\xef\xbf\xbd"

/* The text of the last trace read. */
static char *text;

/* Writes a trace with fn, then reads it back strictly (an array). */
static json_t *trace_of(void (*fn)(struct cp_json *)) {
  char path[] = "/tmp/lockstep-cp-json-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  struct cp_json *j = cp_json_open(path);
  ck_assert_ptr_nonnull(j);
  fn(j);
  cp_json_close(j);
  size_t n;
  free(text);
  text = cu_read_file(path, &n);
  unlink(path);
  ck_assert_ptr_nonnull(text);
  json_error_t e;
  json_t *v = json_loadb(text, n, 0, &e);
  ck_assert_msg(v != NULL, "the trace is no valid JSON (%s, line %d): %.400s", e.text, e.line,
                text);
  ck_assert(json_is_array(v));
  return v;
}

/* The events that are not track names (nor the closing {}). */
static json_t *event(const json_t *all, size_t k) {
  size_t seen = 0;
  for (size_t i = 0; i < json_array_size(all); i++) {
    json_t *e = json_array_get(all, i);
    const char *ph = json_string_value(json_object_get(e, "ph"));
    if (!ph || !strcmp(ph, "M")) continue;
    if (seen++ == k) return e;
  }
  ck_abort_msg("no event %zu in the trace", k);
  return NULL;
}

static const char *str(const json_t *e, const char *key) {
  const char *s = json_string_value(json_object_get(e, key));
  ck_assert_msg(s != NULL, "no string '%s'", key);
  return s;
}

static const char *detail(const json_t *e) {
  return str(json_object_get(e, "args"), "detail");
}

static void odd_names(struct cp_json *j) {
  cp_json_span(j, CP_JSON_CP_TRACK, "k\"quoted\"", "a \\ back\\slash", 1000, 2500);
  cp_json_span(j, 1, "ctl\x01\t\n\x7f", "detail\x1f", 1234567, 2345678);
  cp_json_instant(j, CP_JSON_CP_TRACK, "bad\xff\xc0\x80 \xed\xa0\x80!", "cut \xe2\x82", 7);
  cp_json_instant(j, 2, "smile \xf0\x9f\x98\x80", NULL, 0);
}

START_TEST(names_and_details_are_escaped) {
  json_t *t = trace_of(odd_names);
  json_t *e = event(t, 0);
  ck_assert_str_eq(str(e, "name"), "k\"quoted\"");
  ck_assert_str_eq(detail(e), "a \\ back\\slash");
  e = event(t, 1);
  ck_assert_str_eq(str(e, "name"), "ctl\x01\t\n\x7f");
  ck_assert_str_eq(detail(e), "detail\x1f");
  e = event(t, 2);
  ck_assert_str_eq(str(e, "name"), "bad" FFFD FFFD FFFD " " FFFD FFFD FFFD "!");
  ck_assert_str_eq(detail(e), "cut " FFFD);
  e = event(t, 3);
  ck_assert_str_eq(str(e, "name"), "smile \xf0\x9f\x98\x80");
  ck_assert_ptr_null(json_object_get(e, "args"));
  json_decref(t);
}
END_TEST

START_TEST(times_are_exact_microseconds) {
  json_t *t = trace_of(odd_names);
  json_t *e = event(t, 1);
  ck_assert_str_eq(str(e, "ph"), "X");
  ck_assert_double_eq(json_number_value(json_object_get(e, "ts")), 1234.567);
  ck_assert_double_eq(json_number_value(json_object_get(e, "dur")), 1111.111);
  e = event(t, 2);
  ck_assert_str_eq(str(e, "ph"), "i");
  ck_assert_str_eq(str(e, "s"), "t");
  ck_assert_double_eq(json_number_value(json_object_get(e, "ts")), 0.007);
  /* and as text: three decimals, nothing a rounding adds */
  ck_assert_ptr_nonnull(strstr(text, "\"ts\":1234.567,\"dur\":1111.111"));
  json_decref(t);
}
END_TEST

START_TEST(each_track_is_named_once) {
  json_t *t = trace_of(odd_names);
  int named[3] = {0, 0, 0};
  for (size_t i = 0; i < json_array_size(t); i++) {
    json_t *e = json_array_get(t, i);
    if (strcmp(json_string_value(json_object_get(e, "ph")) ?: "", "M")) continue;
    json_int_t tid = json_integer_value(json_object_get(e, "tid"));
    ck_assert_int_lt(tid, 3);
    named[tid]++;
    ck_assert_str_eq(str(json_object_get(e, "args"), "name"), tid == 0   ? "command processor"
                                                              : tid == 1 ? "compute unit 0"
                                                                         : "compute unit 1");
  }
  ck_assert_int_eq(named[0], 1);
  ck_assert_int_eq(named[1], 1);
  ck_assert_int_eq(named[2], 1);
  json_decref(t);
}
END_TEST

static void long_name(struct cp_json *j) {
  char *n = malloc(100001);
  for (int i = 0; i < 100000; i++)
    n[i] = i % 1000 == 999 ? '"' : (char)('a' + i % 26);
  n[100000] = 0;
  cp_json_span(j, 3, n, n, 1, 2);
  free(n);
}

START_TEST(a_long_name_is_kept_whole) {
  json_t *t = trace_of(long_name);
  const char *n = str(event(t, 0), "name");
  ck_assert_uint_eq(strlen(n), 100000);
  ck_assert_int_eq(n[999], '"');
  ck_assert_int_eq(n[99999], '"');
  json_decref(t);
}
END_TEST

int main(void) {
  Suite *s = suite_create("cp_json");
  CU_ADD(s, names_and_details_are_escaped);
  CU_ADD(s, times_are_exact_microseconds);
  CU_ADD(s, each_track_is_named_once);
  CU_ADD(s, a_long_name_is_kept_whole);
  return cu_run(s);
}
