/*
 * json_text.c - JSON strings from arbitrary bytes. The UTF-8 check follows
 * the Unicode standard's table of well-formed byte sequences (3.9, table
 * 3-7) and replaces ill-formed parts the way it recommends ("maximal
 * subparts", as browsers decode), so the same bytes always give the same
 * text. It must not do I/O.
 */
#include "device/json_text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Length of the well-formed sequence at s[0, n); 0 when ill-formed, with
 * *bad the length of its maximal subpart (at least 1). */
static size_t utf8_seq(const unsigned char *s, size_t n, size_t *bad) {
  unsigned char c = s[0];
  size_t len;
  unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf)
    len = 2;
  else if (c >= 0xe0 && c <= 0xef) {
    len = 3;
    if (c == 0xe0) lo = 0xa0; /* no overlong forms */
    if (c == 0xed) hi = 0x9f; /* no surrogates */
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f; /* nothing past U+10FFFF */
  } else {
    *bad = 1;
    return 0;
  }
  for (size_t k = 1; k < len; k++) {
    unsigned char b = k < n ? s[k] : 0;
    if (k < n && (k == 1 ? b >= lo && b <= hi : b >= 0x80 && b <= 0xbf)) continue;
    *bad = k;
    return 0;
  }
  return len;
}

json_t *dev_json_text(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  if (!s) n = 0;
  size_t i = 0, bad = 0;
  while (i < n) { /* the common case: nothing to replace */
    size_t k = utf8_seq(p + i, n - i, &bad);
    if (!k) break;
    i += k;
  }
  if (i == n) return json_stringn_nocheck((const char *)p, n);
  /* each ill-formed part (at least one byte) becomes 3 bytes */
  char *o = malloc(n * 3 + 1);
  if (!o) return NULL;
  memcpy(o, p, i);
  size_t m = i;
  while (i < n) {
    size_t k = utf8_seq(p + i, n - i, &bad);
    if (k) {
      memcpy(o + m, p + i, k);
      m += k;
      i += k;
    } else {
      memcpy(o + m, "\xef\xbf\xbd", 3);
      m += 3;
      i += bad;
    }
  }
  json_t *v = json_stringn_nocheck(o, m);
  free(o);
  return v;
}

json_t *dev_json_textz(const char *s) {
  return dev_json_text(s, s ? strlen(s) : 0);
}

size_t dev_utf8_partial_tail(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  for (size_t t = n < 3 ? n : 3; t > 0; t--) {
    size_t bad = 0;
    /* a well-formed prefix that only ran out of bytes */
    if (p[n - t] >= 0xc2 && p[n - t] <= 0xf4 && !utf8_seq(p + n - t, t, &bad) && bad == t) return t;
  }
  return 0;
}
