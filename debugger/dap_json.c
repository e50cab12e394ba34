/*
 * dap_json.c - JSON for the DAP adapter: a recursive-descent reader into a
 * tree (depth-limited, so hostile input cannot exhaust the stack) and a
 * writer into a growing buffer.
 *
 * It must not know DAP messages or do any I/O.
 */
#include "debugger/dap_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

struct rd {
  const char *p, *end;
  char *err;
  size_t errlen;
  int failed;
};

static void rd_fail(struct rd *r, const char *what) {
  if (!r->failed) snprintf(r->err, r->errlen, "%s at offset %zu", what, (size_t)0);
  r->failed = 1;
}

static void skip_ws(struct rd *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
    r->p++;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void put_utf8(char *o, size_t *n, uint32_t cp) {
  if (cp < 0x80) {
    o[(*n)++] = (char)cp;
  } else if (cp < 0x800) {
    o[(*n)++] = (char)(0xc0 | (cp >> 6));
    o[(*n)++] = (char)(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    o[(*n)++] = (char)(0xe0 | (cp >> 12));
    o[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[(*n)++] = (char)(0x80 | (cp & 0x3f));
  } else {
    o[(*n)++] = (char)(0xf0 | (cp >> 18));
    o[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[(*n)++] = (char)(0x80 | (cp & 0x3f));
  }
}

static int read_u4(struct rd *r, uint32_t *cp) {
  if (r->end - r->p < 4) return 0;
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) {
    int h = hexval(r->p[i]);
    if (h < 0) return 0;
    v = v * 16 + (uint32_t)h;
  }
  r->p += 4;
  *cp = v;
  return 1;
}

/* A string after its opening quote; malloc'd. */
static char *read_string(struct rd *r) {
  size_t cap = (size_t)(r->end - r->p) + 1, n = 0;
  char *o = malloc(cap);
  if (!o) {
    rd_fail(r, "out of memory");
    return NULL;
  }
  while (r->p < r->end && *r->p != '"') {
    unsigned char c = (unsigned char)*r->p++;
    if (c < 0x20) {
      rd_fail(r, "control character in a string");
      free(o);
      return NULL;
    }
    if (c != '\\') {
      o[n++] = (char)c;
      continue;
    }
    if (r->p == r->end) break;
    char e = *r->p++;
    uint32_t cp;
    switch (e) {
    case '"': o[n++] = '"'; break;
    case '\\': o[n++] = '\\'; break;
    case '/': o[n++] = '/'; break;
    case 'b': o[n++] = '\b'; break;
    case 'f': o[n++] = '\f'; break;
    case 'n': o[n++] = '\n'; break;
    case 'r': o[n++] = '\r'; break;
    case 't': o[n++] = '\t'; break;
    case 'u':
      if (!read_u4(r, &cp)) {
        rd_fail(r, "bad \\u escape");
        free(o);
        return NULL;
      }
      if (cp >= 0xd800 && cp < 0xdc00 && r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
        uint32_t lo;
        r->p += 2;
        if (read_u4(r, &lo) && lo >= 0xdc00 && lo < 0xe000)
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      }
      put_utf8(o, &n, cp);
      break;
    default:
      rd_fail(r, "bad escape in a string");
      free(o);
      return NULL;
    }
  }
  if (r->p == r->end) {
    rd_fail(r, "unterminated string");
    free(o);
    return NULL;
  }
  r->p++;
  o[n] = 0;
  return o;
}

static void free_members(struct js *v) {
  for (size_t i = 0; i < v->n; i++) {
    free_members(&v->kids[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->kids);
  free(v->keys);
  free(v->str);
}

static int read_value(struct rd *r, struct js *v, int depth);

static int add_member(struct rd *r, struct js *v, size_t *cap, char *key) {
  if (v->n == *cap) {
    size_t nc = *cap ? *cap * 2 : 4;
    struct js *k = realloc(v->kids, nc * sizeof(*k));
    if (!k) goto oom;
    v->kids = k;
    if (v->type == JS_OBJ) {
      char **ks = realloc(v->keys, nc * sizeof(*ks));
      if (!ks) goto oom;
      v->keys = ks;
    }
    *cap = nc;
  }
  memset(&v->kids[v->n], 0, sizeof(v->kids[0]));
  if (v->type == JS_OBJ) v->keys[v->n] = key;
  v->n++;
  return 1;
oom:
  free(key);
  rd_fail(r, "out of memory");
  return 0;
}

static int read_container(struct rd *r, struct js *v, int depth) {
  char close = v->type == JS_OBJ ? '}' : ']';
  size_t cap = 0;
  skip_ws(r);
  if (r->p < r->end && *r->p == close) {
    r->p++;
    return 1;
  }
  for (;;) {
    char *key = NULL;
    skip_ws(r);
    if (v->type == JS_OBJ) {
      if (r->p == r->end || *r->p != '"') {
        rd_fail(r, "expected a member name");
        return 0;
      }
      r->p++;
      key = read_string(r);
      if (!key) return 0;
      skip_ws(r);
      if (r->p == r->end || *r->p != ':') {
        free(key);
        rd_fail(r, "expected ':'");
        return 0;
      }
      r->p++;
    }
    if (!add_member(r, v, &cap, key)) return 0;
    if (!read_value(r, &v->kids[v->n - 1], depth + 1)) return 0;
    skip_ws(r);
    if (r->p < r->end && *r->p == ',') {
      r->p++;
      continue;
    }
    if (r->p < r->end && *r->p == close) {
      r->p++;
      return 1;
    }
    rd_fail(r, v->type == JS_OBJ ? "expected ',' or '}'" : "expected ',' or ']'");
    return 0;
  }
}

static int read_value(struct rd *r, struct js *v, int depth) {
  if (depth > MAX_DEPTH) {
    rd_fail(r, "nesting too deep");
    return 0;
  }
  skip_ws(r);
  if (r->p == r->end) {
    rd_fail(r, "unexpected end of input");
    return 0;
  }
  char c = *r->p;
  if (c == '{' || c == '[') {
    r->p++;
    v->type = c == '{' ? JS_OBJ : JS_ARR;
    return read_container(r, v, depth);
  }
  if (c == '"') {
    r->p++;
    v->type = JS_STR;
    v->str = read_string(r);
    return v->str != NULL;
  }
  static const struct {
    const char *word;
    int type, b;
  } words[] = {{"true", JS_BOOL, 1}, {"false", JS_BOOL, 0}, {"null", JS_NULL, 0}};
  for (size_t i = 0; i < 3; i++) {
    size_t n = strlen(words[i].word);
    if ((size_t)(r->end - r->p) >= n && !memcmp(r->p, words[i].word, n)) {
      r->p += n;
      v->type = words[i].type;
      v->b = words[i].b;
      return 1;
    }
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    char num[64];
    size_t n = 0;
    while (r->p < r->end && n < sizeof(num) - 1 && strchr("+-0123456789.eE", *r->p))
      num[n++] = *r->p++;
    num[n] = 0;
    char *e;
    v->type = JS_NUM;
    v->num = strtod(num, &e);
    if (*e || !isfinite(v->num)) {
      rd_fail(r, "bad number");
      return 0;
    }
    return 1;
  }
  rd_fail(r, "unexpected character");
  return 0;
}

struct js *js_parse(const char *text, size_t len, char *err, size_t errlen) {
  struct rd r = {text, text + len, err, errlen, 0};
  struct js *v = calloc(1, sizeof(*v));
  if (!v) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  if (read_value(&r, v, 0)) {
    skip_ws(&r);
    if (r.p != r.end) rd_fail(&r, "text after the JSON value");
  }
  if (r.failed) {
    /* say where it went wrong */
    char what[96];
    snprintf(what, sizeof(what), "%s", err);
    char *at = strstr(what, " at offset");
    if (at) *at = 0;
    snprintf(err, errlen, "%s at offset %zu", what, (size_t)(r.p - text));
    js_free(v);
    return NULL;
  }
  return v;
}

void js_free(struct js *v) {
  if (!v) return;
  free_members(v);
  free(v);
}

const struct js *js_get(const struct js *v, const char *key) {
  if (!v || v->type != JS_OBJ) return NULL;
  for (size_t i = 0; i < v->n; i++)
    if (!strcmp(v->keys[i], key)) return &v->kids[i];
  return NULL;
}

const char *js_str(const struct js *v, const char *key) {
  const struct js *m = js_get(v, key);
  return m && m->type == JS_STR ? m->str : NULL;
}

int js_num(const struct js *v, const char *key, double *out) {
  const struct js *m = js_get(v, key);
  if (!m || m->type != JS_NUM) return 0;
  *out = m->num;
  return 1;
}

int js_int(const struct js *v, const char *key, int64_t *out) {
  double d;
  if (!js_num(v, key, &d) || d != floor(d) || d < -9.0e15 || d > 9.0e15) return 0;
  *out = (int64_t)d;
  return 1;
}

int js_bool(const struct js *v, const char *key, int *out) {
  const struct js *m = js_get(v, key);
  if (!m || m->type != JS_BOOL) return 0;
  *out = m->b;
  return 1;
}

/* ---- writer ---- */

static void put(struct jw *w, const char *s, size_t n) {
  if (w->failed) return;
  if (w->len + n + 1 > w->cap) {
    size_t nc = w->cap ? w->cap : 256;
    while (nc < w->len + n + 1)
      nc *= 2;
    char *b = realloc(w->buf, nc);
    if (!b) {
      w->failed = 1;
      return;
    }
    w->buf = b;
    w->cap = nc;
  }
  memcpy(w->buf + w->len, s, n);
  w->len += n;
  w->buf[w->len] = 0;
}

static void puts_(struct jw *w, const char *s) {
  put(w, s, strlen(s));
}

static void quoted(struct jw *w, const char *s, size_t n);

/* A comma before a value unless it is the first or follows a key. */
static void sep(struct jw *w) {
  if (w->depth > 0 && w->depth <= 64) {
    if (w->first[w->depth - 1] == 2) {
      w->first[w->depth - 1] = 0; /* value after its key */
      return;
    }
    if (!w->first[w->depth - 1]) puts_(w, ",");
    w->first[w->depth - 1] = 0;
  }
}

void jw_init(struct jw *w) {
  memset(w, 0, sizeof(*w));
}

void jw_free(struct jw *w) {
  free(w->buf);
  memset(w, 0, sizeof(*w));
}

static void open_(struct jw *w, const char *c) {
  sep(w);
  puts_(w, c);
  if (w->depth < 64) {
    w->first[w->depth] = 1;
    w->close[w->depth] = c[0] == '{' ? '}' : ']';
  }
  w->depth++;
}

void jw_obj(struct jw *w) {
  open_(w, "{");
}

void jw_arr(struct jw *w) {
  open_(w, "[");
}

void jw_end(struct jw *w) {
  if (w->depth <= 0) return;
  w->depth--;
  put(w, w->depth < 64 ? &w->close[w->depth] : "}", 1);
}

void jw_key(struct jw *w, const char *key) {
  sep(w);
  quoted(w, key, strlen(key));
  puts_(w, ":");
  if (w->depth > 0 && w->depth <= 64) w->first[w->depth - 1] = 2;
}

void jw_strn(struct jw *w, const char *s, size_t n) {
  sep(w);
  quoted(w, s, n);
}

static void quoted(struct jw *w, const char *s, size_t n) {
  puts_(w, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char esc[8];
    if (c == '"' || c == '\\') {
      esc[0] = '\\';
      esc[1] = (char)c;
      put(w, esc, 2);
    } else if (c == '\n') {
      puts_(w, "\\n");
    } else if (c == '\t') {
      puts_(w, "\\t");
    } else if (c == '\r') {
      puts_(w, "\\r");
    } else if (c < 0x20 || c == 0x7f) {
      snprintf(esc, sizeof(esc), "\\u%04x", c);
      puts_(w, esc);
    } else if (c >= 0x80) {
      /* keep valid UTF-8 sequences, replace stray bytes */
      size_t len = c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
      int ok = len && i + len <= n;
      for (size_t k = 1; ok && k < len; k++)
        ok = ((unsigned char)s[i + k] & 0xc0) == 0x80;
      if (ok) {
        put(w, s + i, len);
        i += len - 1;
      } else {
        puts_(w, "\\ufffd");
      }
    } else {
      put(w, (const char *)&s[i], 1);
    }
  }
  puts_(w, "\"");
}

void jw_str(struct jw *w, const char *s) {
  jw_strn(w, s ? s : "", s ? strlen(s) : 0);
}

void jw_int(struct jw *w, int64_t v) {
  char b[32];
  snprintf(b, sizeof(b), "%" PRId64, v);
  sep(w);
  puts_(w, b);
}

void jw_bool(struct jw *w, int v) {
  sep(w);
  puts_(w, v ? "true" : "false");
}

void jw_null(struct jw *w) {
  sep(w);
  puts_(w, "null");
}

void jw_raw(struct jw *w, const char *json) {
  sep(w);
  puts_(w, json);
}

void jw_kstr(struct jw *w, const char *key, const char *s) {
  jw_key(w, key);
  jw_str(w, s);
}

void jw_kint(struct jw *w, const char *key, int64_t v) {
  jw_key(w, key);
  jw_int(w, v);
}

void jw_kbool(struct jw *w, const char *key, int v) {
  jw_key(w, key);
  jw_bool(w, v);
}
