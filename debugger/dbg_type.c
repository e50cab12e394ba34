/*
 * dbg_type.c - the debugger's types as C spells them: a value's type name
 * ("int [16]", "float (*)[3]"), `whatis` and `ptype` (a struct with its
 * fields), and the type of an element (of an array, a vector, or what a
 * pointer points to), from the evaluator's spelling of types (dbg_expr.c).
 *
 * Like the evaluator, it reaches names and layouts only through struct
 * dbg_env; it must not know about sessions or the device.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "compiler/cc_debug.h"
#include "debugger/dbg.h"

/* A type as C spells it, from the evaluator's spelling t: "int[16]" is
 * "int [16]", "float[3] *" "float (*)[3]", "float * *" "float **". */
static void c_spelling(const char *t, char *buf, size_t len) {
  const char *br = strchr(t, '['), *end = strrchr(t, ']');
  char base[96];
  size_t k = 0;
  /* the part before any dimensions, with "* *" as "**" */
  for (const char *c = t; *c && c != br && k + 1 < sizeof(base); c++)
    if (!(*c == ' ' && c[1] == '*' && k && base[k - 1] == '*')) base[k++] = *c;
  while (k && base[k - 1] == ' ')
    k--;
  base[k] = 0;
  if (!br || !end || end < br) {
    snprintf(buf, len, "%s", base);
    return;
  }
  int stars = 0;
  for (const char *c = end + 1; *c; c++)
    stars += *c == '*';
  if (stars)
    snprintf(buf, len, "%s (%.*s)%.*s", base, stars, "****************", (int)(end + 1 - br), br);
  else
    snprintf(buf, len, "%s%s%.*s", base, k && base[k - 1] == '*' ? "" : " ", (int)(end + 1 - br),
             br);
}

void dbg_type_name(const struct dbg_val *v, char *buf, size_t len) {
  c_spelling(v->type, buf, len);
}

/* A declaration of name with type t (a field of ptype's struct). */
static void c_decl(const char *t, const char *name, char *buf, size_t len) {
  char sp[160];
  c_spelling(t, sp, sizeof(sp));
  const char *br = strchr(sp, '['), *ptr = strstr(sp, "(*");
  if (ptr) /* a pointer to an array: int (*name)[3] */
    snprintf(buf, len, "%.*s%s%s", (int)(ptr - sp + 2), sp, name, strchr(ptr, ')'));
  else if (br)
    snprintf(buf, len, "%.*s%s%s", (int)(br - sp), sp, name, br);
  else
    snprintf(buf, len, "%s%s%s", sp, sp[0] && sp[strlen(sp) - 1] == '*' ? "" : " ", name);
}

/* Whether struct layouts a and b are the same (a typedef of a struct). */
static int same_layout(const struct cc_type *a, const struct cc_type *b) {
  if (a->size != b->size || a->nfields != b->nfields) return 0;
  for (uint32_t i = 0; i < a->nfields; i++)
    if (strcmp(a->fields[i].name, b->fields[i].name) ||
        a->fields[i].offset != b->fields[i].offset ||
        strcmp(a->fields[i].type_name, b->fields[i].type_name))
      return 0;
  return 1;
}

/* ptype's struct t (named name): "struct box {\n    int x;\n}", a typedef
 * as the struct it names ("struct {" when that has no name). */
static void ptype_struct(const struct dbg_env *env, const struct cc_type *t, const char *name,
                         char *buf, size_t len) {
  char head[80];
  if (!strncmp(name, "struct ", 7) || !strncmp(name, "union ", 6)) {
    snprintf(head, sizeof(head), "%.70s", name);
  } else {
    const struct cc_type *o = NULL;
    for (unsigned i = 0; env->type_at && (o = env->type_at(env->ctx, i)); i++)
      if ((!strncmp(o->name, "struct ", 7) || !strncmp(o->name, "union ", 6)) && same_layout(o, t))
        break;
    int is_union = t->nfields > 1;
    for (uint32_t i = 0; i < t->nfields; i++)
      if (t->fields[i].offset) is_union = 0;
    snprintf(head, sizeof(head), "%.70s", o ? o->name : is_union ? "union" : "struct");
  }
  size_t n = (size_t)snprintf(buf, len, "%s {\n", head);
  for (uint32_t i = 0; i < t->nfields && n + 8 < len; i++) {
    char d[200];
    c_decl(t->fields[i].type_name, t->fields[i].name, d, sizeof(d));
    n += (size_t)snprintf(buf + n, len - n, "    %s;\n", d);
  }
  if (n + 2 < len) snprintf(buf + n, len - n, "}");
}

int dbg_whatis(const struct dbg_env *env, const char *text, int expand, char *buf, size_t len) {
  struct dbg_val v;
  char t[128], err[200];
  while (isspace((unsigned char)*text))
    text++;
  snprintf(t, sizeof(t), "%s", text);
  for (size_t n = strlen(t); n && isspace((unsigned char)t[n - 1]);)
    t[--n] = 0;
  /* a type name (int4, struct box, float *), else an expression */
  int is_type = t[0] && !strpbrk(t, "()+-/%&|^!~<>=?:.@'\"") && dbg_type_resolve(env, t, &v);
  if (!is_type && (!strncmp(t, "struct ", 7) || !strncmp(t, "union ", 6))) {
    snprintf(buf, len, "no type '%.100s' in this kernel's debug information", t);
    return 1;
  }
  if (!is_type && dbg_eval_type(env, t, &v, err, sizeof(err))) {
    snprintf(buf, len, "%s", err);
    return 1;
  }
  char name[96];
  dbg_type_name(&v, name, sizeof(name));
  /* ptype shows the struct a value is (or points to, or is an array of) */
  char base[96];
  dbg_type_strip(v.type, base, sizeof(base));
  base[strcspn(base, "[*")] = 0;
  for (size_t n = strlen(base); n && base[n - 1] == ' ';)
    base[--n] = 0;
  const struct cc_type *st = expand ? (env->type ? env->type(env->ctx, base) : NULL) : NULL;
  const char *at = st ? strstr(name, base) : NULL;
  if (!at) {
    snprintf(buf, len, "type = %s", name);
    return 0;
  }
  char body[2048];
  ptype_struct(env, st, base, body, sizeof(body));
  snprintf(buf, len, "type = %.*s%s%s", (int)(at - name), name, body, at + strlen(base));
  return 0;
}

void dbg_type_elem(const struct dbg_env *env, const struct dbg_val *c, struct dbg_val *e,
                   uint64_t addr) {
  char sub[128] = "";
  if (c->kind == DBG_ARR && c->ekind == DBG_VEC) {
    /* an element of an array of vectors: the type without its dimension */
    snprintf(sub, sizeof(sub), "%s", c->type);
    char *br = strchr(sub, '[');
    if (br) *br = 0;
  } else if (c->kind == DBG_PTR && (c->ekind == DBG_VEC || c->ekind == DBG_ARR)) {
    /* what a pointer to a vector or an array points to: its type without the '*' */
    snprintf(sub, sizeof(sub), "%s", c->type);
    char *star = strrchr(sub, '*');
    if (star) *star = 0;
  } else if (c->kind == DBG_ARR && (c->ekind == DBG_ARR || c->ekind == DBG_PTR)) {
    /* a row of an array of arrays: T[a][b]... drops its first dimension (an
     * element of an array of pointers T *[a] too) */
    const char *br = strchr(c->type, '['), *end = br ? strchr(br, ']') : NULL;
    snprintf(sub, sizeof(sub), "%.*s%s", br ? (int)(br - c->type) : 0, c->type, end ? end + 1 : "");
  }
  if (sub[0]) {
    if (!dbg_type_resolve(env, sub, e)) memset(e, 0, sizeof(*e));
    e->addr = addr;
    return;
  }
  memset(e, 0, sizeof(*e));
  e->kind = c->ekind;
  e->is_signed = c->esigned;
  e->size = c->kind == DBG_PTR ? c->count : c->size;
  e->addr = addr;
  /* what a pointer points to has no address space in its type */
  dbg_type_strip(c->type, e->type, sizeof(e->type));
  char *cut = strpbrk(e->type, "[*");
  if (cut) *cut = 0;
  for (char *x = e->type + strlen(e->type);
       x > e->type && (x[-1] == ' ' || isdigit((unsigned char)x[-1])) && c->kind == DBG_VEC; x--)
    x[-1] = 0;
  for (char *x = e->type + strlen(e->type); x > e->type && x[-1] == ' '; x--)
    x[-1] = 0;
}
