/*
 * dbg_mi.c - the engine's machine-readable answers: `mi ...` commands and,
 * after `mi on`, one record per stop and per launch. Each record is one
 * output line "^mi " followed by a JSON object, so a program (the DAP
 * adapter) can read positions, work-items, variables and memory without
 * parsing the text meant for people.
 *
 * It only reads and formats the session's state and evaluates expressions;
 * it must not run work-items, change breakpoints or print text for people.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dbg_image.h"
#include "debugger/dbg_int.h"
#include "device/simt.h"

#define MI_MAX_BYTES 1024 /* per mi read/write: a record must fit one protocol line */

static void jstr(FILE *f, const char *t) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(t ? t : ""); *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

static void jids(FILE *f, const char *key, const uint64_t v[3]) {
  fprintf(f, ",\"%s\":[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", key, v[0], v[1], v[2]);
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
static void item_fields(struct dbg_session *s, uint64_t item) {
  FILE *f = s->out;
  uint64_t g[3], l[3], w[3];
  simt_dbg_ids(s->L->sd, item, g, l, w);
  int st = simt_dbg_state(s->L->sd, item, NULL);
  fprintf(f, "\"item\":%" PRIu64, item);
  jids(f, "gid", g);
  jids(f, "lid", l);
  jids(f, "group", w);
  fprintf(f, ",\"state\":\"%s\",\"line\":%u,\"kernel\":", state_name(st), dbg_item_line(s, item));
  jstr(f, s->L->k->name);
  fprintf(f, ",\"kernel_line\":%u,\"file\":", s->L->dbg->line_first);
  jstr(f, s->L->file);
  /* the inlined calls it is in, innermost first: the callee's line, then
   * each call site in its caller */
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int n = dbg_frames(s, item, fr, DBG_MAX_FRAMES);
  if (n > 1) {
    fprintf(f, ",\"inlined\":");
    jstr(f, s->L->dbg->inl[fr[0].inl - 1].func);
    fprintf(f, ",\"frames\":[");
    for (int d = 0; d < n; d++) {
      fprintf(f, "%s{\"func\":", d ? "," : "");
      jstr(f, fr[d].inl ? s->L->dbg->inl[fr[d].inl - 1].func : s->L->k->name);
      fprintf(f, ",\"line\":%u}", fr[d].line);
    }
    fprintf(f, "]");
  }
}

void dbg_mi_stop(struct dbg_session *s, const char *reason, int bp_id) {
  FILE *f = s->out;
  fprintf(f, "^mi {\"stop\":\"%s\",\"bp\":%d,", reason, bp_id);
  item_fields(s, s->L->focus);
  if (s->L->have_exc || s->L->asserted) {
    fprintf(f, ",\"exception\":");
    jstr(f, s->L->exc.message);
  }
  fprintf(f, "}\n");
}

static void bp_records(struct dbg_session *s) {
  for (int i = 0; i < s->nbp; i++) {
    const struct bp *b = &s->bps[i];
    int fn = !b->line && b->kernel[0] && !b->watch[0];
    fprintf(s->out, "^mi {\"bp\":%d,\"enabled\":%d,\"requested\":%u,\"bound\":%u,\"hits\":%d",
            b->id, b->enabled, b->line, fn ? dbg_fn_bp_line(s, b) : dbg_bp_line(s, b), b->hits);
    if (fn) {
      fprintf(s->out, ",\"func\":");
      jstr(s->out, b->kernel);
    }
    fprintf(s->out, "}\n");
  }
}

void dbg_mi_launch(struct dbg_session *s) {
  FILE *f = s->out;
  const struct dev_launch *l = s->L->l;
  uint64_t g[3], lo[3];
  for (int k = 0; k < 3; k++) {
    g[k] = k < (int)l->work_dim ? l->global[k] : 1;
    lo[k] = k < (int)l->work_dim ? l->local[k] : 1;
  }
  fprintf(f, "^mi {\"launch\":");
  jstr(f, s->L->k->name);
  fprintf(f, ",\"file\":");
  jstr(f, s->L->file);
  fprintf(f, ",\"dim\":%u", l->work_dim);
  jids(f, "global", g);
  jids(f, "local", lo);
  fprintf(f, ",\"line_first\":%u,\"line_last\":%u}\n", s->L->dbg->line_first, s->L->dbg->line_last);
  bp_records(s);
}

static void val_fields(struct dbg_session *s, const struct dbg_val *v) {
  FILE *f = s->out;
  struct dbg_env env;
  dbg_session_env(s, &env);
  static char buf[3072];
  dbg_format(&env, v, 0, buf, sizeof(buf));
  static const char *const kinds[] = {"int", "float", "pointer", "array", "vector", "struct"};
  fprintf(f, "\"value\":");
  jstr(f, buf);
  char tn[96]; /* as whatis shows it */
  dbg_type_name(v, tn, sizeof(tn));
  fprintf(f, ",\"type\":");
  jstr(f, tn);
  const struct cc_type *t = v->kind == DBG_STRUCT ? env.type(env.ctx, v->type) : NULL;
  /* an image, a sampler or a texel: a struct of its members (dbg_image.c) */
  const char *const *members;
  unsigned nm = dbg_image_members(v, &members);
  fprintf(f, ",\"kind\":\"%s\",\"count\":%u",
          nm                             ? "struct"
          : v->kind >= 0 && v->kind <= 5 ? kinds[v->kind]
                                         : "?",
          nm                                         ? nm
          : v->kind == DBG_ARR || v->kind == DBG_VEC ? v->count
          : t                                        ? t->nfields
                                                     : 0);
  if (t || nm) {
    fprintf(f, ",\"fields\":[");
    for (uint32_t i = 0; i < (nm ? nm : t->nfields); i++) {
      if (i) fputc(',', f);
      jstr(f, nm ? members[i] : t->fields[i].name);
    }
    fputc(']', f);
  }
  if (v->addr) fprintf(f, ",\"addr\":\"0x%" PRIx64 "\"", v->addr);
  if (v->kind == DBG_PTR) fprintf(f, ",\"ptr\":\"0x%" PRIx64 "\"", (uint64_t)v->i);
}

static void eval_record(struct dbg_session *s, const char *name, const char *expr,
                        const struct cc_symbol *sym) {
  FILE *f = s->out;
  struct dbg_env env;
  dbg_session_env(s, &env);
  struct dbg_val v;
  char err[200];
  fprintf(f, "^mi {\"name\":");
  jstr(f, name);
  if (dbg_eval(&env, expr, &v, err, sizeof(err))) {
    fprintf(f, ",\"error\":");
    jstr(f, err);
    if (sym) {
      char tn[96];
      struct dbg_val t;
      if (dbg_type_resolve(&env, sym->type_name, &t))
        dbg_type_name(&t, tn, sizeof(tn));
      else
        snprintf(tn, sizeof(tn), "%s", sym->type_name);
      fprintf(f, ",\"type\":");
      jstr(f, tn);
    }
  } else {
    fprintf(f, ",");
    val_fields(s, &v);
  }
  if (sym) fprintf(f, ",\"space\":%u", sym->space);
  fprintf(f, "}\n");
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
      if (!global && !dbg_frame_lists(y, f, 1)) continue;
    } else {
      if (y->arg_index || global) continue;
      if ((y->space == CC_SYM_LOCAL) != local) continue;
      if (!dbg_frame_lists(y, local ? &fr[n - 1] : f, 0)) continue;
    }
    eval_record(s, y->name, y->name, y);
  }
}

static void threads(struct dbg_session *s) {
  uint64_t n = simt_dbg_items(s->L->sd);
  uint64_t fg = simt_dbg_group_of(s->L->sd, s->L->focus);
  fprintf(s->out, "^mi {\"focus\":%" PRIu64 "}\n", s->L->focus);
  uint64_t last_group = UINT64_MAX;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t g = simt_dbg_group_of(s->L->sd, i);
    int st = simt_dbg_state(s->L->sd, i, NULL);
    if (g != fg) {
      /* other groups: the first in-progress item stands for its group */
      if (g == last_group || st == SIMT_DBG_FRESH || st == SIMT_DBG_DONE) continue;
      last_group = g;
    }
    fprintf(s->out, "^mi {\"thread\":1,");
    item_fields(s, i);
    fprintf(s->out, ",\"focus_group\":%d}\n", g == fg);
  }
}

static void mem_read(struct dbg_session *s, uint64_t addr, uint64_t count) {
  if (count > MI_MAX_BYTES) count = MI_MAX_BYTES;
  fprintf(s->out, "^mi {\"addr\":\"0x%" PRIx64 "\",\"hex\":\"", addr);
  uint64_t i = 0;
  for (; i < count; i++) {
    const uint8_t *p = simt_dbg_mem(s->L->sd, s->L->focus, addr + i, 1);
    if (!p) break;
    fprintf(s->out, "%02x", *p);
  }
  fprintf(s->out, "\",\"count\":%" PRIu64 "}\n", i);
}

static void mem_write(struct dbg_session *s, uint64_t addr, const char *hex) {
  uint64_t i = 0;
  for (; isxdigit((unsigned char)hex[0]) && isxdigit((unsigned char)hex[1]); hex += 2, i++) {
    uint8_t *p = simt_dbg_mem(s->L->sd, s->L->focus, addr + i, 1);
    if (!p) break;
    char b[3] = {hex[0], hex[1], 0};
    *p = (uint8_t)strtoul(b, NULL, 16);
  }
  fprintf(s->out, "^mi {\"addr\":\"0x%" PRIx64 "\",\"written\":%" PRIu64 "}\n", addr, i);
}

static void mi_error(struct dbg_session *s, const char *msg) {
  fprintf(s->out, "^mi {\"error\":");
  jstr(s->out, msg);
  fprintf(s->out, "}\n");
}

/* The open launches: number, kernel, queue, state ("stopped", "running",
 * "finished"), whether it is the focused one, and for a stopped one its
 * focused item, that item's line, why it stopped and whether that stop was
 * shown (one not shown yet is shown when the current prompt ends). */
static void kernels(struct dbg_session *s) {
  FILE *f = s->out;
  fprintf(f, "^mi {\"kernels\":[");
  for (struct dbg_launch *L = s->launches; L; L = L->next) {
    const char *st = dbg_launch_state(L);
    fprintf(f, "%s{\"num\":%u,\"kernel\":", L == s->launches ? "" : ",", L->num);
    jstr(f, L->k->name);
    fprintf(f, ",\"queue\":%u,\"state\":\"%s\",\"current\":%d", L->queue, st, L == s->current);
    if (!strcmp(st, "stopped")) {
      fprintf(f, ",\"item\":%" PRIu64 ",\"line\":%u,\"reason\":", L->focus, dbg_launch_line(s, L));
      jstr(f, L->why);
      fprintf(f, ",\"shown\":%d", L->state == LS_STOPPED);
    }
    fputc('}', f);
  }
  fprintf(f, "]}\n");
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
  fprintf(s->out, "^mi {\"kernel\":%u,\"item\":%" PRIu64 "}\n", L->num, L->focus);
}

/*
 * mi on|off                   records at stops and launches
 * mi breakpoints              the breakpoints and the lines they bind to
 * mi kernels                  the open launches and their states
 * mi kernel N                 makes launch N (stopped) the focused one
 * mi threads                  focused group's items + one per other group
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
void dbg_mi_command(struct dbg_session *s, const char *arg) {
  char sub[16] = "";
  int n = 0;
  sscanf(arg, "%15s %n", sub, &n);
  const char *rest = arg + n;
  if (!strcmp(sub, "on") || !strcmp(sub, "off")) {
    s->machine = sub[1] == 'n';
    fprintf(s->out, "^mi {\"machine\":%d}\n", s->machine);
    return;
  }
  if (!strcmp(sub, "breakpoints")) {
    bp_records(s);
    fprintf(s->out, "^mi {\"done\":1}\n");
    return;
  }
  if (!strcmp(sub, "kernels")) {
    kernels(s);
    return;
  }
  if (!strcmp(sub, "kernel")) {
    kernel_select(s, rest);
    return;
  }
  if (!s->L || !s->L->sd) {
    mi_error(s, "No kernel is stopped.");
    return;
  }
  if (!strcmp(sub, "threads")) {
    threads(s);
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
    fprintf(s->out, "^mi {\"focus\":%" PRIu64 "}\n", item);
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
    fprintf(s->out, "^mi {");
    item_fields(s, item);
    fprintf(s->out, "}\n");
  } else if (!strcmp(sub, "vars")) {
    vars(s, rest);
    fprintf(s->out, "^mi {\"done\":1}\n");
  } else if (!strcmp(sub, "eval")) {
    eval_record(s, rest, rest, NULL);
  } else if (!strcmp(sub, "read") || !strcmp(sub, "write")) {
    uint64_t addr = strtoull(rest, &end, 0);
    if (end == rest) {
      mi_error(s, "usage: mi read ITEM ADDR COUNT | mi write ITEM ADDR HEX");
    } else {
      while (isspace((unsigned char)*end))
        end++;
      if (sub[0] == 'r')
        mem_read(s, addr, strtoull(end, NULL, 10));
      else
        mem_write(s, addr, end);
    }
  } else {
    mi_error(s, "unknown mi command (on, off, breakpoints, kernels, kernel, threads, focus, "
                "frame, vars, eval, read, write)");
  }
  if (fresh_args) dbg_item_fresh_args(s, item, 1);
  s->L->focus = save;
  s->L->frame = save_frame;
  s->L->frame_item = save_item;
  s->L->frame_pc = save_pc;
}
