/*
 * dap_json.h - the small JSON reader and writer of the DAP adapter: parses
 * one message into a tree and builds replies into a growing buffer.
 *
 * Plain data only: it must not know DAP messages or do any I/O.
 */
#ifndef LOCKSTEP_DEBUGGER_DAP_JSON_H
#define LOCKSTEP_DEBUGGER_DAP_JSON_H

#include <stddef.h>
#include <stdint.h>

enum { JS_NULL, JS_BOOL, JS_NUM, JS_STR, JS_ARR, JS_OBJ };

struct js {
  int type;
  int b;           /* JS_BOOL */
  double num;      /* JS_NUM */
  char *str;       /* JS_STR (NUL-terminated, may hold NULs before) */
  size_t n;        /* JS_ARR/JS_OBJ: members */
  struct js *kids; /* members */
  char **keys;     /* JS_OBJ: member names */
};

/* Parses text; NULL with a message in err on bad JSON. */
struct js *js_parse(const char *text, size_t len, char *err, size_t errlen);
void js_free(struct js *v);
/* A member of an object (NULL when v is no object or has no such member). */
const struct js *js_get(const struct js *v, const char *key);
/* Typed members: NULL / 0 when missing or of another type. */
const char *js_str(const struct js *v, const char *key);
int js_num(const struct js *v, const char *key, double *out);
int js_int(const struct js *v, const char *key, int64_t *out);
int js_bool(const struct js *v, const char *key, int *out);

/* A JSON text being written. Members and elements get their commas. */
struct jw {
  char *buf;
  size_t len, cap;
  int depth;
  unsigned char first[64]; /* per open container: nothing written yet */
  char close[64];          /* per open container: its closing bracket */
  int failed;              /* out of memory */
};

void jw_init(struct jw *w);
void jw_free(struct jw *w);
void jw_obj(struct jw *w); /* { */
void jw_arr(struct jw *w); /* [ */
void jw_end(struct jw *w); /* } or ] */
void jw_key(struct jw *w, const char *key);
void jw_str(struct jw *w, const char *s);
void jw_strn(struct jw *w, const char *s, size_t n);
void jw_int(struct jw *w, int64_t v);
void jw_bool(struct jw *w, int v);
void jw_null(struct jw *w);
/* A value already in JSON (copied as is). */
void jw_raw(struct jw *w, const char *json);
/* key + value shortcuts */
void jw_kstr(struct jw *w, const char *key, const char *s);
void jw_kint(struct jw *w, const char *key, int64_t v);
void jw_kbool(struct jw *w, const char *key, int v);

#endif
