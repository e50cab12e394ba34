/*
 * dap_json.c - the DAP adapter's use of jansson: json_loadb with U+0000
 * allowed so that it can be refused by name instead of cutting a string
 * short, a walk that refuses deep nesting (jansson stops at its own, much
 * deeper limit, before the stack is at risk), typed members, and strings
 * made from any bytes (device/json_text.h).
 *
 * It must not know DAP messages or do any I/O.
 */
#include "debugger/dap_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "device/json_text.h"

/* The first thing wrong with a parsed value: too deep, or a string with
 * U+0000. NULL when nothing is. */
static const char *check(const json_t *v, int depth, const char *key, char *err, size_t errlen) {
  if (depth > DJ_MAX_DEPTH) {
    snprintf(err, errlen, "nesting deeper than %d levels", DJ_MAX_DEPTH);
    return err;
  }
  if (json_is_string(v)) {
    if (memchr(json_string_value(v), 0, json_string_length(v))) {
      snprintf(err, errlen, "a string%s%.60s%s holds U+0000 (NUL), which no request can use",
               key ? " in '" : "", key ? key : "", key ? "'" : "");
      return err;
    }
  } else if (json_is_object(v)) {
    const char *k;
    json_t *m;
    json_object_foreach((json_t *)v, k, m) {
      if (check(m, depth + 1, k, err, errlen)) return err;
    }
  } else if (json_is_array(v)) {
    for (size_t i = 0; i < json_array_size(v); i++)
      if (check(json_array_get(v, i), depth + 1, key, err, errlen)) return err;
  }
  return NULL;
}

json_t *dj_parse(const char *text, size_t len, char *err, size_t errlen) {
  json_error_t e;
  json_t *v = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, &e);
  if (!v) {
    snprintf(err, errlen, "%s at offset %d", e.text, e.position);
    return NULL;
  }
  if (check(v, 0, NULL, err, errlen)) {
    json_decref(v);
    return NULL;
  }
  return v;
}

json_t *dj_get(const json_t *v, const char *key) {
  return json_is_object(v) ? json_object_get(v, key) : NULL;
}

const char *dj_str(const json_t *v, const char *key) {
  return json_string_value(dj_get(v, key)); /* NULL for no string */
}

int dj_as_int(const json_t *m, int64_t *out) {
  if (json_is_integer(m)) {
    json_int_t i = json_integer_value(m);
    if (i < -DJ_MAX_INT || i > DJ_MAX_INT) return 0;
    *out = (int64_t)i;
    return 1;
  }
  if (!json_is_real(m)) return 0;
  double d = json_real_value(m);
  if (d != floor(d) || fabs(d) > (double)DJ_MAX_INT) return 0;
  *out = (int64_t)d;
  return 1;
}

int dj_int(const json_t *v, const char *key, int64_t *out) {
  return dj_as_int(dj_get(v, key), out);
}

int dj_bool(const json_t *v, const char *key, int *out) {
  const json_t *m = dj_get(v, key);
  if (!json_is_boolean(m)) return 0;
  *out = json_is_true(m);
  return 1;
}

void dj_set(json_t *o, const char *key, json_t *v) {
  json_object_set_new(o, key, v); /* takes v over, even when it fails */
}

void dj_sets(json_t *o, const char *key, const char *text) {
  dj_set(o, key, dev_json_textz(text));
}

void dj_setn(json_t *o, const char *key, const char *text, size_t n) {
  dj_set(o, key, dev_json_text(text, n));
}

void dj_seti(json_t *o, const char *key, int64_t v) {
  dj_set(o, key, json_integer((json_int_t)v));
}

void dj_setb(json_t *o, const char *key, int v) {
  dj_set(o, key, json_boolean(v));
}

void dj_push(json_t *a, json_t *v) {
  json_array_append_new(a, v);
}
