/*
 * dap_json.h - DAP messages as jansson values: one message read with the
 * adapter's limits, typed members that say when they are missing or of
 * another type, and members set from text that need not be UTF-8.
 *
 * Plain data only: it must not know DAP messages or do any I/O.
 */
#ifndef LOCKSTEP_DEBUGGER_DAP_JSON_H
#define LOCKSTEP_DEBUGGER_DAP_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* No DAP message nests deeper; deeper input is refused. */
#define DJ_MAX_DEPTH 64
/* Integers beyond +-2^53 (what a JavaScript client can send exactly) are
 * no integers to the adapter. */
#define DJ_MAX_INT 9007199254740992LL

/* Parses one message (any JSON value). NULL with a message in err when the
 * text is no JSON or no UTF-8, holds a lone surrogate, nests deeper than
 * DJ_MAX_DEPTH, repeats a member name, or a string holds U+0000 (every
 * string the adapter uses ends up in a C string or a command line, where
 * it would cut the text short). */
json_t *dj_parse(const char *text, size_t len, char *err, size_t errlen);
/* A member of an object (NULL when v is no object or has no such member). */
json_t *dj_get(const json_t *v, const char *key);
/* Typed members: NULL / 0 when missing or of another type. */
const char *dj_str(const json_t *v, const char *key);
int dj_int(const json_t *v, const char *key, int64_t *out);
int dj_bool(const json_t *v, const char *key, int *out);
/* A value as an integer: a JSON integer, or a real with no fraction, within
 * +-DJ_MAX_INT. */
int dj_as_int(const json_t *m, int64_t *out);

/* Members of an object being built (the value is taken over; nothing
 * happens when o or the value is NULL, as after running out of memory). */
void dj_set(json_t *o, const char *key, json_t *v);
void dj_sets(json_t *o, const char *key, const char *text); /* any bytes, NULL as "" */
void dj_setn(json_t *o, const char *key, const char *text, size_t n);
void dj_seti(json_t *o, const char *key, int64_t v);
void dj_setb(json_t *o, const char *key, int v);
/* Appends to an array (the value is taken over). */
void dj_push(json_t *a, json_t *v);

#endif
