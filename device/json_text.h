/*
 * json_text.h - JSON strings (jansson values) from bytes that need not be
 * UTF-8: the trace writer, the debugger's records and the DAP adapter
 * write names, source text and program output they do not control.
 *
 * Only converts; it must not write anything or know what the text is.
 */
#ifndef LOCKSTEP_DEVICE_JSON_TEXT_H
#define LOCKSTEP_DEVICE_JSON_TEXT_H

#include <jansson.h>
#include <stddef.h>

/* A JSON string of n bytes: valid UTF-8 is kept as it is (NUL and control
 * characters too; the writer escapes them), and each maximal ill-formed
 * part (a stray byte, a truncated sequence, an overlong form, a surrogate
 * or a code point past U+10FFFF) becomes one U+FFFD. NULL only when out
 * of memory. */
json_t *dev_json_text(const char *s, size_t n);
/* The same for a NUL-terminated string; NULL gives "". */
json_t *dev_json_textz(const char *s);
/* How many bytes at the end of s[0, n) start a UTF-8 sequence that more
 * bytes could complete (0 to 3): what to keep for the next read when text
 * arrives in pieces. */
size_t dev_utf8_partial_tail(const char *s, size_t n);

#endif
