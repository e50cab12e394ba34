/*
 * object.c - what every CL object shares: the header (dispatch, tag,
 * refcount), handle validation, the clGetXxxInfo copy rule and diagnostics.
 * It must not know any object family's internals.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

void rt_object_init(struct rt_object *o, enum rt_tag tag) {
  o->dispatch = &icd_dispatch;
  o->tag = (uint32_t)tag;
  atomic_init(&o->refcount, 1);
}

bool rt_valid(const void *p, enum rt_tag tag) {
  const struct rt_object *o = p;
  return o && o->dispatch == &icd_dispatch && o->tag == (uint32_t)tag &&
         atomic_load(&((struct rt_object *)o)->refcount) > 0;
}

unsigned rt_retain(struct rt_object *o) {
  return atomic_fetch_add(&o->refcount, 1) + 1;
}

unsigned rt_release(struct rt_object *o) {
  return atomic_fetch_sub(&o->refcount, 1) - 1;
}

void rt_object_kill(struct rt_object *o) {
  o->tag = RT_TAG_DEAD;
  o->dispatch = NULL;
}

cl_int rt_info(size_t param_value_size, void *param_value, size_t *param_value_size_ret,
               const void *value, size_t size) {
  if (param_value) {
    if (param_value_size < size) return CL_INVALID_VALUE;
    if (size) memcpy(param_value, value, size);
  }
  if (param_value_size_ret) *param_value_size_ret = size;
  return CL_SUCCESS;
}

cl_int rt_info_str(size_t param_value_size, void *param_value, size_t *param_value_size_ret,
                   const char *s) {
  return rt_info(param_value_size, param_value, param_value_size_ret, s, strlen(s) + 1);
}

void rt_log_at(const char *file, int line, const char *fmt, ...) {
  static int enabled = -1;
  if (enabled < 0) {
    const char *e = getenv("LOCKSTEP_LOG");
    enabled = e && *e && strcmp(e, "0") != 0;
  }
  if (!enabled) return;
  const char *base = strrchr(file, '/');
  fprintf(stderr, "lockstep: %s:%d: ", base ? base + 1 : file, line);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}
