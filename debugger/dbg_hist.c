/*
 * dbg_hist.c - the value history, as in gdb: each `print` records its value
 * as $1, $2, ...; expressions read them back as `$N`, `$` (the last), `$$`
 * (the one before) and `$$N` (N before the last). Scalars, pointers and
 * image texels are kept by value; a vector, array or struct is kept as the text it printed
 * (memory it was read from may change): `print $N` shows that text again,
 * and an expression cannot take it apart. The history lasts as long as the
 * session does. Convenience variables too: `$name = EXPR` keeps a scalar
 * under a name of the user's, `$name` reads it back.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dbg_int.h"

/* The history index (0-based) ref names, or -1 with the reason in msg.
 * ref is what follows the first '$': "" , "$", "$N" or "N". */
static int resolve(const struct dbg_session *s, const char *ref, char *msg, size_t n) {
  long k;
  char *end;
  if (!*ref) {
    k = s->nhist;
  } else if (ref[0] == '$') {
    long back = ref[1] ? strtol(ref + 1, &end, 10) : 1;
    if (ref[1] && (*end || !isdigit((unsigned char)ref[1]))) back = -1;
    k = back < 0 ? -1 : s->nhist - back;
  } else {
    k = strtol(ref, &end, 10);
    if (*end || !isdigit((unsigned char)ref[0])) k = -1;
  }
  if (!s->nhist) {
    snprintf(msg, n, "History is empty.");
    return -1;
  }
  if (k < 1 || k > s->nhist) {
    if (k > s->nhist)
      snprintf(msg, n, "History has not yet reached $%ld.", k);
    else
      snprintf(msg, n, "No history value $%s (the history holds $1 to $%d).", ref, s->nhist);
    return -1;
  }
  return (int)k - 1;
}

/* Kept by value: scalars, pointers and texels (which are not in memory). */
static int scalar(const struct dbg_val *v) {
  return v->kind == DBG_INT || v->kind == DBG_FLT || v->kind == DBG_PTR || v->texel_order;
}

const char *dbg_hist_get(void *ctx, const char *ref, struct dbg_val *v) {
  struct dbg_session *s = ctx;
  static char msg[160];
  int i = resolve(s, ref, msg, sizeof(msg));
  if (i < 0) return msg;
  if (!scalar(&s->hist[i].v)) {
    snprintf(msg, sizeof(msg), "$%d holds a %s, kept as its text: print it alone", i + 1,
             s->hist[i].v.kind == DBG_STRUCT ? "struct"
             : s->hist[i].v.kind == DBG_VEC  ? "vector"
                                             : "array");
    return msg;
  }
  *v = s->hist[i].v;
  return NULL;
}

int dbg_hist_kept(struct dbg_session *s, const char *expr) {
  if (*expr != '$') return -1;
  char msg[160];
  int i = resolve(s, expr + 1, msg, sizeof(msg));
  return i >= 0 && !scalar(&s->hist[i].v) ? i : -1;
}

int dbg_hist_push(struct dbg_session *s, const struct dbg_val *v, const char *text) {
  if (s->nhist == s->hcap) {
    int cap = s->hcap ? s->hcap * 2 : 64;
    struct dbg_hist *h = realloc(s->hist, (size_t)cap * sizeof(*h));
    if (!h) return 0;
    s->hist = h;
    s->hcap = cap;
  }
  struct dbg_hist *h = &s->hist[s->nhist];
  h->v = *v;
  h->v.addr = 0; /* a value, no longer the object it was read from */
  h->v.lim = 0;
  h->v.obj[0] = 0;
  h->text = strdup(text);
  if (!h->text) return 0;
  return ++s->nhist;
}

void dbg_hist_free(struct dbg_session *s) {
  for (int i = 0; i < s->nhist; i++)
    free(s->hist[i].text);
  free(s->hist);
  s->hist = NULL;
  s->nhist = s->hcap = 0;
  free(s->conv);
  s->conv = NULL;
  s->nconv = s->ccap = 0;
}

const char *dbg_hist_text(struct dbg_session *s, int i) {
  if (dbg_lock_briefly(s, NULL)) return NULL;
  const char *t = i >= 0 && i < s->nhist ? s->hist[i].text : NULL;
  dbg_unlock(s);
  return t;
}

/* Under the lock, with no launch: the scalar a printed text shows (a
 * char prints as 65 'A': its number), 0; else -1. */
static int read_back(struct dbg_session *s, const char *text, struct dbg_val *v) {
  struct dbg_env env;
  dbg_session_env(s, &env);
  char err[200], first[64];
  snprintf(first, sizeof(first), "%.*s", (int)strcspn(text, " "), text);
  if (!dbg_eval(&env, text, v, err, sizeof(err)) && scalar(v)) return 0;
  return !dbg_eval(&env, first, v, err, sizeof(err)) && v->kind == DBG_INT ? 0 : -1;
}

int dbg_hist_add_text(struct dbg_session *s, const char *text) {
  if (dbg_lock_briefly(s, NULL)) return 0;
  struct dbg_val v;
  if (read_back(s, text, &v)) {
    memset(&v, 0, sizeof(v)); /* kept as its text */
    v.kind = text[0] == '(' ? DBG_VEC : strstr(text, " = ") ? DBG_STRUCT : DBG_ARR;
  }
  int n = dbg_hist_push(s, &v, text);
  dbg_unlock(s);
  return n;
}

int dbg_conv_text(struct dbg_session *s, int i, char *name, size_t nlen, char *text, size_t tlen) {
  if (dbg_lock_briefly(s, NULL)) return 0;
  int ok = i >= 0 && i < s->nconv;
  if (ok) {
    struct dbg_env env;
    dbg_session_env(s, &env);
    snprintf(name, nlen, "%s", s->conv[i].name);
    dbg_format(&env, &s->conv[i].v, 0, text, tlen);
  }
  dbg_unlock(s);
  return ok;
}

int dbg_conv_set_text(struct dbg_session *s, const char *name_text) {
  char name[32];
  size_t n = strcspn(name_text, " ");
  if (!n || n >= sizeof(name) || !name_text[n]) return -1;
  snprintf(name, sizeof(name), "%.*s", (int)n, name_text);
  const char *text = name_text + n + 1;
  if (dbg_lock_briefly(s, NULL)) return -1;
  struct dbg_val v;
  int rc = read_back(s, text, &v) || dbg_conv_var(s, name, &v, 1) ? -1 : 0;
  dbg_unlock(s);
  return rc;
}

const char *dbg_conv_var(void *ctx, const char *name, struct dbg_val *v, int set) {
  struct dbg_session *s = ctx;
  static char msg[160];
  int i = 0;
  while (i < s->nconv && strcmp(s->conv[i].name, name))
    i++;
  if (!set) {
    if (i < s->nconv) {
      *v = s->conv[i].v;
      return NULL;
    }
    snprintf(msg, sizeof(msg), "Convenience variable \"$%s\" has no value (set $%s = EXPR).", name,
             name);
    return msg;
  }
  if (!scalar(v)) {
    snprintf(msg, sizeof(msg), "$%s can hold a number or a pointer, not a %s", name,
             v->kind == DBG_STRUCT ? "struct"
             : v->kind == DBG_VEC  ? "vector"
                                   : "array");
    return msg;
  }
  if (i == s->nconv) {
    if (s->nconv == s->ccap) {
      int cap = s->ccap ? s->ccap * 2 : 16;
      struct dbg_conv *c = realloc(s->conv, (size_t)cap * sizeof(*c));
      if (!c) return "out of memory for a convenience variable";
      s->conv = c;
      s->ccap = cap;
    }
    snprintf(s->conv[i].name, sizeof(s->conv[i].name), "%s", name);
    s->nconv++;
  }
  s->conv[i].v = *v;
  s->conv[i].v.addr = 0; /* a value, not the object it was read from */
  s->conv[i].v.lim = 0;
  s->conv[i].v.obj[0] = 0;
  return NULL;
}
