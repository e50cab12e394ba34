/*
 * dbg_mi.c - the engine's machine-readable answers: `mi ...` commands and,
 * after `mi on`, one record per stop and per launch. Each record is one
 * output line "^mi " followed by a JSON object, so a program (the DAP
 * adapter) can read positions, work-items, variables and memory without
 * parsing the text meant for people. Records are jansson objects: names,
 * paths and values that are no UTF-8 are written with U+FFFD
 * (device/json_text.h), so every record is valid JSON.
 *
 * It only reads and formats the session's state and evaluates expressions;
 * it must not run work-items, change breakpoints or print text for people.
 */
#include <ctype.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dbg_image.h"
#include "debugger/dbg_int.h"
#include "device/check.h"
#include "device/json_text.h"
#include "device/simt.h"

#define MI_MAX_BYTES 1024 /* per mi read/write: a record must fit one protocol line */

/* Writes "^mi " and the record on one line, and frees the record. */
static void mi_put(struct dbg_session *s, json_t *rec) {
  fputs("^mi ", s->out);
  if (rec) json_dumpf(rec, s->out, JSON_COMPACT);
  fputc('\n', s->out);
  json_decref(rec);
}

/* Members of a record (the value is taken over). */
static void jset(json_t *o, const char *key, json_t *v) {
  json_object_set_new(o, key, v);
}

static void jstr(json_t *o, const char *key, const char *t) {
  jset(o, key, dev_json_textz(t));
}

static void jint(json_t *o, const char *key, int64_t v) {
  jset(o, key, json_integer((json_int_t)v));
}

static void jids(json_t *o, const char *key, const uint64_t v[3]) {
  json_t *a = json_array();
  for (int k = 0; k < 3; k++)
    json_array_append_new(a, json_integer((json_int_t)v[k]));
  jset(o, key, a);
}

/* A record with one member, as the protocol's short answers are. */
static json_t *rec1(const char *key, int64_t v) {
  json_t *o = json_object();
  jint(o, key, v);
  return o;
}

static const char *state_name(int st) {
  switch (st) {
  case SIMT_DBG_FRESH: return "fresh";
  case SIMT_DBG_RUN: return "run";
  case SIMT_DBG_BARRIER: return "barrier";
  case SIMT_DBG_DONE: return "done";
  default: return "fault";
  }
}

/* Fields shared by stop and frame records: ids, state, position. */
static void item_fields(struct dbg_session *s, json_t *o, uint64_t item) {
  uint64_t g[3], l[3], w[3];
  simt_dbg_ids(s->L->sd, item, g, l, w);
  int st = simt_dbg_state(s->L->sd, item, NULL);
  jint(o, "item", (int64_t)item);
  jids(o, "gid", g);
  jids(o, "lid", l);
  jids(o, "group", w);
  jstr(o, "state", state_name(st));
  /* a stop at a call's line shows it there, in the caller (dbg_frames) */
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int n = dbg_frames(s, item, fr, DBG_MAX_FRAMES);
  uint32_t line = dbg_item_line(s, item);
  jint(o, "line", line && fr[0].line ? fr[0].line : line);
  jstr(o, "kernel", s->L->k->name);
  jint(o, "kernel_line", s->L->dbg->line_first);
  jstr(o, "file", s->L->file);
  /* the inlined calls it is in, innermost first: the callee's line, then
   * each call site in its caller */
  if (n > 1) {
    jstr(o, "inlined", s->L->dbg->inl[fr[0].inl - 1].func);
    json_t *frames = json_array();
    for (int d = 0; d < n; d++) {
      json_t *f = json_object();
      jstr(f, "func", fr[d].inl ? s->L->dbg->inl[fr[d].inl - 1].func : s->L->k->name);
      jint(f, "line", fr[d].line);
      json_array_append_new(frames, f);
    }
    jset(o, "frames", frames);
  }
}

void dbg_mi_stop(struct dbg_session *s, const char *reason, int bp_id) {
  json_t *o = json_object();
  jstr(o, "stop", reason);
  jint(o, "bp", bp_id);
  item_fields(s, o, s->L->focus);
  /* a breakpoint stop of a whole warp: how many of its lanes stopped */
  if (!strcmp(reason, "breakpoint") && s->L->nstop > 1) jint(o, "warp_items", s->L->nstop);
  if (s->L->have_exc || s->L->asserted || s->L->checked) jstr(o, "exception", s->L->exc.message);
  /* a checker's report: which checker ("races", "uninit") */
  if (s->L->checked && !s->L->have_exc) jstr(o, "check", dev_check_name(s->L->checked));
  mi_put(s, o);
}

static void bp_records(struct dbg_session *s) {
  for (int i = 0; i < s->nbp; i++) {
    const struct bp *b = &s->bps[i];
    int fn = !b->line && b->kernel[0] && !b->watch[0];
    json_t *o = json_object();
    jint(o, "bp", b->id);
    jint(o, "enabled", b->enabled);
    jint(o, "requested", b->line);
    /* where it binds: in the launch worked on, else where its check
     * against the program (before any launch) bound it */
    uint32_t bound = fn ? dbg_fn_bp_line(s, b) : dbg_bp_line(s, b);
    if (!bound && !s->L && b->checked && b->line) bound = b->at;
    jint(o, "bound", bound);
    if (b->note[0]) jstr(o, "note", b->note);
    jint(o, "hits", b->hits);
    if (fn) jstr(o, "func", b->kernel);
    mi_put(s, o);
  }
}

void dbg_mi_launch(struct dbg_session *s) {
  const struct dev_launch *l = s->L->l;
  uint64_t g[3], lo[3];
  for (int k = 0; k < 3; k++) {
    g[k] = k < (int)l->work_dim ? l->global[k] : 1;
    lo[k] = k < (int)l->work_dim ? l->local[k] : 1;
  }
  json_t *o = json_object();
  jstr(o, "launch", s->L->k->name);
  jstr(o, "file", s->L->file);
  jint(o, "dim", l->work_dim);
  jids(o, "global", g);
  jids(o, "local", lo);
  jint(o, "line_first", s->L->dbg->line_first);
  jint(o, "line_last", s->L->dbg->line_last);
  mi_put(s, o);
  bp_records(s);
}

static void val_fields(struct dbg_session *s, json_t *o, const struct dbg_val *v) {
  struct dbg_env env;
  dbg_session_env(s, &env);
  static char buf[3072];
  dbg_format(&env, v, 0, buf, sizeof(buf));
  static const char *const kinds[] = {"int", "float", "pointer", "array", "vector", "struct"};
  jstr(o, "value", buf);
  char tn[96]; /* as whatis shows it */
  dbg_type_name(v, tn, sizeof(tn));
  jstr(o, "type", tn);
  const struct cc_type *t = v->kind == DBG_STRUCT ? env.type(env.ctx, v->type) : NULL;
  /* an image, a sampler or a texel: a struct of its members (dbg_image.c) */
  const char *const *members;
  unsigned nm = dbg_image_members(v, &members);
  jstr(o, "kind", nm ? "struct" : v->kind >= 0 && v->kind <= 5 ? kinds[v->kind] : "?");
  jint(o, "count",
       nm                                         ? nm
       : v->kind == DBG_ARR || v->kind == DBG_VEC ? v->count
       : t                                        ? t->nfields
                                                  : 0);
  if (t || nm) {
    json_t *fields = json_array();
    for (uint32_t i = 0; i < (nm ? nm : t->nfields); i++)
      json_array_append_new(fields, dev_json_textz(nm ? members[i] : t->fields[i].name));
    jset(o, "fields", fields);
  }
  char a[32];
  if (v->addr) {
    snprintf(a, sizeof(a), "0x%" PRIx64, v->addr);
    jstr(o, "addr", a);
  }
  if (v->kind == DBG_PTR) {
    snprintf(a, sizeof(a), "0x%" PRIx64, (uint64_t)v->i);
    jstr(o, "ptr", a);
  }
}

static void eval_record(struct dbg_session *s, const char *name, const char *expr,
                        const struct cc_symbol *sym) {
  struct dbg_env env;
  dbg_session_env(s, &env);
  struct dbg_val v;
  char err[200];
  json_t *o = json_object();
  jstr(o, "name", name);
  if (dbg_eval(&env, expr, &v, err, sizeof(err))) {
    jstr(o, "error", err);
    if (sym) {
      char tn[96];
      struct dbg_val t;
      if (dbg_type_resolve(&env, sym->type_name, &t))
        dbg_type_name(&t, tn, sizeof(tn));
      else
        snprintf(tn, sizeof(tn), "%s", sym->type_name);
      jstr(o, "type", tn);
    }
  } else {
    val_fields(s, o, &v);
  }
  if (sym) jint(o, "space", sym->space);
  mi_put(s, o);
}

/* Variables of a scope of the selected frame: args (the frame's parameters
 * and program-scope data), private (visible at the frame's line) or local
 * (the kernel's __local data, which every frame sees). */
static void vars(struct dbg_session *s, const char *scope) {
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int n = dbg_frames(s, s->L->focus, fr, DBG_MAX_FRAMES);
  const struct dbg_frame *f = &fr[dbg_frame_selected(s)];
  int args = !strcmp(scope, "args"), local = !strcmp(scope, "local");
  for (uint32_t i = 0; s->L->dbg && i < s->L->dbg->nsyms; i++) {
    const struct cc_symbol *y = &s->L->dbg->syms[i];
    int global = y->space == CC_SYM_GLOBAL || y->space == CC_SYM_CONSTANT;
    if (args) {
      if (!global && !dbg_frame_lists(s->L->dbg, y, f, 1)) continue;
    } else {
      if (y->arg_index || global) continue;
      if ((y->space == CC_SYM_LOCAL) != local) continue;
      if (!dbg_frame_lists(s->L->dbg, y, local ? &fr[n - 1] : f, 0)) continue;
    }
    eval_record(s, y->name, y->name, y);
  }
}

static void threads(struct dbg_session *s) {
  uint64_t n = simt_dbg_items(s->L->sd);
  uint64_t fg = simt_dbg_group_of(s->L->sd, s->L->focus);
  mi_put(s, rec1("focus", (int64_t)s->L->focus));
  uint64_t last_group = UINT64_MAX;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t g = simt_dbg_group_of(s->L->sd, i);
    int st = simt_dbg_state(s->L->sd, i, NULL);
    if (g != fg) {
      /* other groups: the first in-progress item stands for its group */
      if (g == last_group || st == SIMT_DBG_FRESH || st == SIMT_DBG_DONE) continue;
      last_group = g;
    }
    json_t *o = rec1("thread", 1);
    item_fields(s, o, i);
    jint(o, "focus_group", g == fg);
    mi_put(s, o);
  }
}

static void mem_read(struct dbg_session *s, uint64_t addr, uint64_t count) {
  if (count > MI_MAX_BYTES) count = MI_MAX_BYTES;
  char a[32], hex[2 * MI_MAX_BYTES + 1] = "";
  snprintf(a, sizeof(a), "0x%" PRIx64, addr);
  uint64_t i = 0;
  for (; i < count; i++) {
    const uint8_t *p = simt_dbg_mem(s->L->sd, s->L->focus, addr + i, 1);
    if (!p) break;
    snprintf(hex + 2 * i, 3, "%02x", *p);
  }
  json_t *o = json_object();
  jstr(o, "addr", a);
  jstr(o, "hex", hex);
  jint(o, "count", (int64_t)i);
  mi_put(s, o);
}

static void mem_write(struct dbg_session *s, uint64_t addr, const char *hex) {
  uint64_t i = 0;
  for (; isxdigit((unsigned char)hex[0]) && isxdigit((unsigned char)hex[1]); hex += 2, i++) {
    uint8_t *p = simt_dbg_mem(s->L->sd, s->L->focus, addr + i, 1);
    if (!p) break;
    char b[3] = {hex[0], hex[1], 0};
    *p = (uint8_t)strtoul(b, NULL, 16);
  }
  char a[32];
  snprintf(a, sizeof(a), "0x%" PRIx64, addr);
  json_t *o = json_object();
  jstr(o, "addr", a);
  jint(o, "written", (int64_t)i);
  mi_put(s, o);
}

static void mi_error(struct dbg_session *s, const char *msg) {
  json_t *o = json_object();
  jstr(o, "error", msg);
  mi_put(s, o);
}

/* The open launches: number, kernel, queue, state ("stopped", "running",
 * "finished"), whether it is the focused one, and for a stopped one its
 * focused item, that item's line, why it stopped and whether that stop was
 * shown (one not shown yet is shown when the current prompt ends). */
static void kernels(struct dbg_session *s) {
  json_t *arr = json_array();
  for (struct dbg_launch *L = s->launches; L; L = L->next) {
    const char *st = dbg_launch_state(L);
    json_t *o = json_object();
    jint(o, "num", L->num);
    jstr(o, "kernel", L->k->name);
    jint(o, "queue", L->queue);
    jstr(o, "state", st);
    jint(o, "current", L == s->current);
    if (!strcmp(st, "stopped")) {
      jint(o, "item", (int64_t)L->focus);
      jint(o, "line", dbg_launch_line(s, L));
      jstr(o, "reason", L->why);
      jint(o, "shown", L->state == LS_STOPPED);
    }
    json_array_append_new(arr, o);
  }
  json_t *o = json_object();
  jset(o, "kernels", arr);
  mi_put(s, o);
}

/* mi kernel N: launch N (stopped, its stop shown) becomes the focus. */
static void kernel_select(struct dbg_session *s, const char *arg) {
  char *end, msg[160];
  unsigned long n = strtoul(arg, &end, 10);
  struct dbg_launch *L = end != arg && !*end && *arg != '-' ? dbg_launch_find(s, n) : NULL;
  if (!L) {
    snprintf(msg, sizeof(msg), "No kernel %s; mi kernels lists the launches.", arg);
    mi_error(s, msg);
    return;
  }
  const char *why = dbg_launch_select(s, L);
  if (why) {
    snprintf(msg, sizeof(msg), "Kernel %lu (%s) %s.", n, L->k->name, why);
    mi_error(s, msg);
    return;
  }
  json_t *o = json_object();
  jint(o, "kernel", L->num);
  jint(o, "item", (int64_t)L->focus);
  mi_put(s, o);
}

/* The `mi` subcommands; rows of the command table (dbg_cmd.c) call them
 * with the subcommand word and what follows it. */

/* mi on|off: records at stops and launches. */
void dbg_mi_switch(struct dbg_session *s, const char *sub, const char *rest) {
  (void)rest;
  s->machine = sub[1] == 'n';
  mi_put(s, rec1("machine", s->machine));
}

/* mi breakpoints: the breakpoints and the lines they bind to. */
void dbg_mi_breakpoints(struct dbg_session *s, const char *sub, const char *rest) {
  (void)sub;
  (void)rest;
  bp_records(s);
  mi_put(s, rec1("done", 1));
}

/* mi kernels: the open launches and their states. */
void dbg_mi_kernels(struct dbg_session *s, const char *sub, const char *rest) {
  (void)sub;
  (void)rest;
  kernels(s);
}

/* mi kernel N: makes launch N (stopped) the focused one. */
void dbg_mi_kernel(struct dbg_session *s, const char *sub, const char *rest) {
  (void)sub;
  kernel_select(s, rest);
}

/* mi threads: the focused group's items and one per other group. */
void dbg_mi_threads(struct dbg_session *s, const char *sub, const char *rest) {
  (void)sub;
  (void)rest;
  if (!s->L || !s->L->sd)
    mi_error(s, "No kernel is stopped.");
  else
    threads(s);
}

/* mi read|write ITEM ...: memory as the item sees it. */
static void mem_command(struct dbg_session *s, const char *sub, const char *rest) {
  char *end;
  uint64_t addr = strtoull(rest, &end, 0);
  if (end == rest) {
    mi_error(s, "usage: mi read ITEM ADDR COUNT | mi write ITEM ADDR HEX");
    return;
  }
  while (isspace((unsigned char)*end))
    end++;
  if (sub[0] == 'r')
    mem_read(s, addr, strtoull(end, NULL, 10));
  else
    mem_write(s, addr, end);
}

/*
 * mi focus ITEM               makes ITEM the focus (what steps and prints use)
 * mi frame ITEM               where ITEM is
 * mi vars ITEM args|private|local
 * mi eval ITEM EXPR           value of EXPR (an assignment sets it)
 * ITEM:FRAME in vars and eval: in that frame of the item (0 the innermost,
 *                             each inlined call's caller above it)
 * mi read ITEM ADDR COUNT     bytes as hex (at most 1024)
 * mi write ITEM ADDR HEX      bytes from hex
 * ITEM is a linear work-item index; the focus does not change.
 */
void dbg_mi_item(struct dbg_session *s, const char *sub, const char *rest) {
  if (!s->L || !s->L->sd) {
    mi_error(s, "No kernel is stopped.");
    return;
  }
  char *end;
  uint64_t item = strtoull(rest, &end, 10);
  long frame = 0;
  int bad = end == rest || item >= simt_dbg_items(s->L->sd);
  if (!bad && *end == ':') { /* ITEM:FRAME, a frame of backtrace's numbering */
    const char *f = end + 1;
    frame = strtol(f, &end, 10);
    bad = end == f || frame < 0 || frame >= DBG_MAX_FRAMES;
  }
  if (bad) {
    mi_error(s, "usage: mi focus|frame|vars|eval|read|write ITEM[:FRAME] ... (ITEM a work-item "
                "index, FRAME 0 for the innermost)");
    return;
  }
  rest = end;
  while (isspace((unsigned char)*rest))
    rest++;
  if (!strcmp(sub, "focus")) {
    s->L->focus = item;
    mi_put(s, rec1("focus", (int64_t)item));
    return;
  }
  uint64_t save = s->L->focus, save_item = s->L->frame_item;
  uint32_t save_pc = s->L->frame_pc;
  int save_frame = s->L->frame;
  s->L->focus = item;
  dbg_frame_select(s, (int)frame);
  /* a work-item not started yet: its arguments read with their values, and
   * what a command writes into them is what it starts with */
  int fresh_args = strcmp(sub, "frame") != 0;
  if (fresh_args) dbg_item_fresh_args(s, item, 0);
  if (!strcmp(sub, "frame")) {
    json_t *o = json_object();
    item_fields(s, o, item);
    mi_put(s, o);
  } else if (!strcmp(sub, "vars")) {
    vars(s, rest);
    mi_put(s, rec1("done", 1));
  } else if (!strcmp(sub, "eval")) {
    eval_record(s, rest, rest, NULL);
  } else {
    mem_command(s, sub, rest);
  }
  if (fresh_args) dbg_item_fresh_args(s, item, 1);
  s->L->focus = save;
  s->L->frame = save_frame;
  s->L->frame_item = save_item;
  s->L->frame_pc = save_pc;
}

/* mi with a subcommand no row has. */
void dbg_mi_unknown(struct dbg_session *s, const char *names) {
  char msg[256];
  snprintf(msg, sizeof(msg), "unknown mi command (%s)", names);
  mi_error(s, msg);
}
