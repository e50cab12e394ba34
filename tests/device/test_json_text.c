/*
 * test_json_text.c - JSON strings from bytes (device/json_text.c): the
 * edges of well-formed UTF-8 (the Unicode standard's table 3-7), one
 * U+FFFD per maximal ill-formed part, NUL and control characters kept (and
 * escaped by the writer), and how much of a text's end waits for more.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "device/json_text.h"
#include "util/check_util.h"

#define FFFD "\xef\xbf\xbd"

static const struct {
  const char *in, *out;
  size_t nin, nout; /* 0: strlen */
} cases[] = {
    {"plain ascii \"\\/", "plain ascii \"\\/", 0, 0},
    {"\xc2\x80 \xdf\xbf", "\xc2\x80 \xdf\xbf", 0, 0},                 /* 2 bytes */
    {"\xe0\xa0\x80 \xef\xbf\xbf", "\xe0\xa0\x80 \xef\xbf\xbf", 0, 0}, /* 3 bytes */
    {"\xed\x9f\xbf \xee\x80\x80", "\xed\x9f\xbf \xee\x80\x80", 0, 0}, /* around surrogates */
    {"\xf0\x90\x80\x80 \xf4\x8f\xbf\xbf", "\xf0\x90\x80\x80 \xf4\x8f\xbf\xbf", 0, 0},
    {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", 0, 0}, /* a surrogate pair's character */
    {"\xc0\x80", FFFD FFFD, 0, 0},                  /* overlong NUL */
    {"\xc1\xbf", FFFD FFFD, 0, 0},
    {"\xe0\x9f\x80", FFFD FFFD FFFD, 0, 0},          /* overlong 3 bytes */
    {"\xed\xa0\x80", FFFD FFFD FFFD, 0, 0},          /* a high surrogate */
    {"\xed\xbf\xbf", FFFD FFFD FFFD, 0, 0},          /* a low surrogate */
    {"\xf0\x8f\xbf\xbf", FFFD FFFD FFFD FFFD, 0, 0}, /* overlong 4 bytes */
    {"\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD, 0, 0}, /* past U+10FFFF */
    {"\xf5\x80\x80\x80", FFFD FFFD FFFD FFFD, 0, 0},
    {"\xff\xfe", FFFD FFFD, 0, 0},
    {"\x80 \xbf", FFFD " " FFFD, 0, 0},                              /* stray continuations */
    {"\xe2\x82x", FFFD "x", 0, 0},                                   /* cut: one part */
    {"\xf0\x9f\x98", FFFD, 0, 0},                                    /* cut at the end */
    {"\xf0\x9f\x98\xf0\x9f\x98\x80", FFFD "\xf0\x9f\x98\x80", 0, 0}, /* then a good one */
    {"a\0b\x01\x1f\x7f", "a\0b\x01\x1f\x7f", 6, 6},                  /* kept; the writer escapes */
};

START_TEST(bytes_become_well_formed_text) {
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    size_t nin = cases[i].nin ? cases[i].nin : strlen(cases[i].in);
    size_t nout = cases[i].nout ? cases[i].nout : strlen(cases[i].out);
    json_t *v = dev_json_text(cases[i].in, nin);
    ck_assert_ptr_nonnull(v);
    ck_assert_msg(json_string_length(v) == nout &&
                      !memcmp(json_string_value(v), cases[i].out, nout),
                  "case %zu", i);
    /* what the writer makes of it reads back the same, strictly */
    char *text = json_dumps(v, JSON_ENCODE_ANY);
    json_error_t e;
    json_t *back = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
    ck_assert_msg(back != NULL, "case %zu: %s", i, e.text);
    ck_assert(json_equal(v, back));
    json_decref(back);
    free(text);
    json_decref(v);
  }
}
END_TEST

START_TEST(null_is_empty) {
  json_t *v = dev_json_textz(NULL);
  ck_assert_str_eq(json_string_value(v), "");
  json_decref(v);
}
END_TEST

START_TEST(partial_tail_waits_only_for_a_sequence_that_can_complete) {
  static const struct {
    const char *s;
    size_t tail;
  } t[] = {
      {"abc", 0},
      {"ab\xc3", 1},
      {"ab\xe2\x82", 2},
      {"a\xf0\x9f\x98", 3},
      {"\xf0\x9f\x98\x80", 0},
      {"ab\xe2\x82\xac", 0},
      {"ab\xc0", 0},
      {"ab\x80", 0},
      {"ab\xed\xa0", 0},
      {"ab\xf4\x90", 0},
      {"ab\xf5", 0},
      {"\xe2", 1},
      {"", 0},
  };
  for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
    ck_assert_msg(dev_utf8_partial_tail(t[i].s, strlen(t[i].s)) == t[i].tail, "case %zu", i);
}
END_TEST

int main(void) {
  Suite *s = suite_create("json_text");
  CU_ADD(s, bytes_become_well_formed_text);
  CU_ADD(s, null_is_empty);
  CU_ADD(s, partial_tail_waits_only_for_a_sequence_that_can_complete);
  return cu_run(s);
}
