/*
 * dbg_edit.c - edit and continue (seed 003): `edit LINE TEXT` replaces one
 * source line of the stopped launch's program, rebuilds it with -g, and moves
 * every in-progress work-item to the new code at the same boundary (same
 * line, same statement of the line), its variables copied by name, so the
 * rest of the launch runs the edited code (and later launches of the
 * program do too: dbg_keep.c keeps the build).
 *
 * It refuses, changing nothing, whenever the state cannot be mapped. It must
 * not run work-items or print stops; the engine (dbg_engine.c) rebinds
 * breakpoints afterwards.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc.h"
#include "compiler/cc_debug.h"
#include "debugger/dbg_int.h"
#include "device/simt.h"

struct edit_map {
  struct dbg_session *s;
  const struct cc_debug *od, *nd;
  const struct lsi_kernel *ok, *nk;
  uint32_t edited; /* the edited line */
  char why[300];   /* the first reason to refuse */
};

static uint32_t refuse(struct edit_map *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static uint32_t refuse(struct edit_map *m, const char *fmt, ...) {
  if (!m->why[0]) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->why, sizeof(m->why), fmt, ap);
    va_end(ap);
  }
  return UINT32_MAX;
}

/* Which statement of its line a microkernel is (0 for the first by pc). */
static uint32_t mk_index(const struct cc_debug *d, const struct cc_microkernel *m) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < d->nmk; i++)
    if (d->mk[i].file == m->file && d->mk[i].line_first == m->line_first &&
        d->mk[i].pc_begin < m->pc_begin)
      n++;
  return n;
}

/* The index-th statement of a line, or NULL. */
static const struct cc_microkernel *mk_find(const struct cc_debug *d, uint32_t file, uint32_t line,
                                            uint32_t index) {
  for (uint32_t i = 0; i < d->nmk; i++) {
    const struct cc_microkernel *m = &d->mk[i];
    if (m->file == file && m->line_first == line && mk_index(d, m) == index) return m;
  }
  return NULL;
}

static uint32_t map_pc(void *ctx, uint64_t item, uint32_t pc, int token) {
  struct edit_map *e = ctx;
  const struct cc_microkernel *m = cc_debug_mk_at(e->od, pc);
  if (!m)
    return refuse(e, "work-item %" PRIu64 " is at a point of the old code no statement covers",
                  item);
  uint32_t idx = mk_index(e->od, m), off = pc - m->pc_begin;
  const struct cc_microkernel *n = mk_find(e->nd, m->file, m->line_first, idx);
  if (!n) {
    if (token)
      return refuse(e,
                    "line %u, where work-item %" PRIu64 " goes on after a branch, no longer has "
                    "statement %u",
                    m->line_first, item, idx + 1);
    return refuse(e, "line %u, where work-item %" PRIu64 " is stopped, no longer has statement %u",
                  m->line_first, item, idx + 1);
  }
  if (n->role != m->role)
    return refuse(e, "statement %u of line %u, where work-item %" PRIu64 " %s, changed its kind",
                  idx + 1, m->line_first, item, token ? "goes on after a branch" : "is stopped");
  if (off == 0) return n->pc_begin;
  if (token && m->line_first != e->edited && n->pc_end - n->pc_begin == m->pc_end - m->pc_begin)
    return n->pc_begin + off;
  if (token)
    return refuse(e,
                  "work-item %" PRIu64 " goes on inside line %u after a branch, which the edit "
                  "changed",
                  item, m->line_first);
  return refuse(e,
                "work-item %" PRIu64 " is stopped inside the statement at line %u; step to the "
                "next line first",
                item, m->line_first);
}

/* A variable is live at line when it is visible there and already declared. */
static int live_at(const struct cc_symbol *y, uint32_t line) {
  return line >= y->scope_first && line <= y->scope_last && (y->arg_index || y->line_decl < line);
}

/* Which of the calls to the same function from the same line, by the same
 * caller, inlined call c (index + 1) is. */
static uint32_t call_rank(const struct cc_debug *d, uint32_t c) {
  const struct cc_inline *a = &d->inl[c - 1];
  uint32_t r = 0;
  for (uint32_t j = 0; j + 1 < c; j++)
    r += d->inl[j].parent == a->parent && d->inl[j].call_line == a->call_line &&
         !strcmp(d->inl[j].func, a->func);
  return r;
}

/* Are inlined call oc of the old program and nc of the new one the same
 * call (0 for the kernel body)? */
static int same_call(const struct cc_debug *od, uint32_t oc, const struct cc_debug *nd,
                     uint32_t nc) {
  for (int depth = 0; depth < DBG_MAX_FRAMES; depth++) {
    if (!oc || !nc) return !oc && !nc;
    if (oc > od->ninl || nc > nd->ninl) return 0;
    const struct cc_inline *a = &od->inl[oc - 1], *b = &nd->inl[nc - 1];
    if (strcmp(a->func, b->func) || a->call_line != b->call_line ||
        call_rank(od, oc) != call_rank(nd, nc))
      return 0;
    oc = a->parent;
    nc = b->parent;
  }
  return 0;
}

/* The new home of an old variable: the same declaration in the same call,
 * else the name as seen from line of that call. */
static const struct cc_symbol *new_home(const struct cc_debug *od, const struct cc_debug *nd,
                                        const struct cc_symbol *o, uint32_t line) {
  for (uint32_t i = 0; i < nd->nsyms; i++) {
    const struct cc_symbol *y = &nd->syms[i];
    if (y->space == o->space && y->line_decl == o->line_decl && !strcmp(y->name, o->name) &&
        same_call(od, o->inl, nd, y->inl))
      return y;
  }
  uint32_t nc = 0;
  if (o->inl) {
    while (nc < nd->ninl && !same_call(od, o->inl, nd, nc + 1))
      nc++;
    if (nc++ == nd->ninl) return NULL;
  }
  const struct cc_symbol *y = cc_debug_find_symbol_in(nd, o->name, nc, line);
  return y && y->space == o->space ? y : NULL;
}

static int map_mem(void *ctx, uint64_t item, const uint8_t *opriv, uint8_t *npriv,
                   const uint8_t *olocal, uint8_t *nlocal) {
  struct edit_map *e = ctx;
  /* a variable of an inlined call is live while the item is inside that
   * call; the line that counts is the item's line in that frame */
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int nf = dbg_frames(e->s, item, fr, DBG_MAX_FRAMES);
  for (uint32_t i = 0; i < e->od->nsyms; i++) {
    const struct cc_symbol *o = &e->od->syms[i];
    if (o->space != CC_SYM_PRIVATE && o->space != CC_SYM_LOCAL) continue;
    int f = 0;
    while (f < nf && fr[f].inl != o->inl)
      f++;
    if (o->space == CC_SYM_PRIVATE && (f == nf || !live_at(o, fr[f].line))) continue;
    uint32_t line = f < nf ? fr[f].line : fr[nf - 1].line;
    const struct cc_symbol *n = new_home(e->od, e->nd, o, line);
    if (!n)
      return refuse(e,
                    "variable '%s', live at line %u of work-item %" PRIu64 ", has no home in "
                    "the edited program",
                    o->name, line, item) != 0;
    if (strcmp(n->type_name, o->type_name) || n->size != o->size)
      return refuse(e, "variable '%s' changed type from '%s' to '%s'", o->name, o->type_name,
                    n->type_name) != 0;
    if (o->space == CC_SYM_PRIVATE) {
      if (o->offset + o->size > e->ok->private_size || n->offset + n->size > e->nk->private_size)
        return refuse(e, "variable '%s' lies outside the private frame", o->name) != 0;
      memcpy(npriv + n->offset, opriv + o->offset, o->size);
    } else {
      if (o->offset + o->size > e->ok->local_size || n->offset + n->size > e->nk->local_size)
        return refuse(e, "variable '%s' lies outside the local block", o->name) != 0;
      memcpy(nlocal + n->offset, olocal + o->offset, o->size);
    }
  }
  return 0;
}

/* The first statement after the kernel's own line: before it, the code
 * sets up frame addresses and stores the arguments. */
static uint32_t prologue_end(const struct cc_debug *d) {
  uint32_t end = UINT32_MAX;
  for (uint32_t i = 0; i < d->nmk; i++)
    if (d->mk[i].line_first > d->line_first && d->mk[i].pc_begin < end) end = d->mk[i].pc_begin;
  return end == UINT32_MAX ? 0 : end;
}

/* The program text with line `line` (1-based) replaced; malloc'd. */
static char *edited_source(struct dbg_session *s, uint32_t line, const char *text) {
  size_t n = 1;
  for (uint32_t i = 0; i < s->L->nlines; i++)
    n += strlen(i + 1 == line ? text : s->L->lines[i]) + 1;
  char *src = malloc(n), *p = src;
  if (!src) return NULL;
  for (uint32_t i = 0; i < s->L->nlines; i++) {
    const char *t = i + 1 == line ? text : s->L->lines[i];
    size_t k = strlen(t);
    memcpy(p, t, k);
    p += k;
    *p++ = '\n';
  }
  *p = 0;
  return src;
}

static const struct lsi_kernel *kernel_named(const struct lsi_program *p, const char *name) {
  for (uint32_t i = 0; p && i < p->nkernels; i++)
    if (!strcmp(p->kernels[i].name, name)) return &p->kernels[i];
  return NULL;
}

/* Same arguments, same program-scope data: the launch's buffers and data
 * segment serve the new kernel unchanged. */
const char *dbg_edit_compatible(const struct dev_launch *l, const struct lsi_program *np,
                                const struct lsi_kernel *nk) {
  const struct lsi_kernel *ok = l->kernel;
  if (nk->nargs != ok->nargs || nk->argbuf_size != ok->argbuf_size)
    return "the kernel's arguments changed";
  for (uint32_t j = 0; j < ok->nargs; j++)
    if (nk->args[j].kind != ok->args[j].kind || nk->args[j].size != ok->args[j].size ||
        nk->args[j].buf_offset != ok->args[j].buf_offset)
      return "the kernel's arguments changed";
  uint32_t od = l->prog ? l->prog->data_size : 0;
  uint32_t orl = l->prog ? l->prog->ndata_relocs : 0;
  if (np->data_size != od || (od && memcmp(np->data_init, l->prog->data_init, od)) ||
      np->ndata_relocs != orl ||
      (orl && memcmp(np->data_relocs, l->prog->data_relocs, orl * sizeof(uint32_t))))
    return "the program's __global or __constant data changed";
  if (!nk->debug) return "the edited kernel has no debug tables";
  return NULL;
}

int dbg_edit(struct dbg_session *s, const char *arg) {
  char *end;
  unsigned long line = strtoul(arg, &end, 10);
  if (end == arg || (*end && !isspace((unsigned char)*end))) {
    fprintf(s->out, "usage: edit LINE NEW-TEXT (replaces one line of the kernel source)\n");
    return -1;
  }
  if (*end) end++; /* one space separates the number; the rest is the line */
  if (!s->L->nlines) {
    fprintf(s->out, "Edit refused: the program's source is not known.\n");
    return -1;
  }
  if (line < 1 || line > s->L->nlines) {
    fprintf(s->out, "Edit refused: line %lu is outside %s, which has %u lines.\n", line, s->L->file,
            s->L->nlines);
    return -1;
  }
  if (s->L->have_exc) {
    fprintf(s->out, "Edit refused: the launch stopped on a device exception.\n");
    return -1;
  }
  uint64_t nitems = simt_dbg_items(s->L->sd);
  for (uint64_t it = 0; it < nitems; it++)
    if (simt_dbg_state(s->L->sd, it, NULL) == SIMT_DBG_BARRIER) {
      fprintf(s->out,
              "Edit refused: work-item %" PRIu64 " waits at a barrier; step its work-group past "
              "the barrier first.\n",
              it);
      return -1;
    }
  char *src = edited_source(s, (uint32_t)line, end);
  /* diagnostics and the new line tables name the file the user sees */
  const char *fname = strrchr(s->L->file, '/') ? strrchr(s->L->file, '/') + 1 : s->L->file;
  char opts[1024];
  snprintf(opts, sizeof(opts), "%s -g", s->L->options ? s->L->options : "");
  struct lsi_program *np = NULL;
  char *log = strdup("");
  int rc = src ? cc_build(src, fname, opts, &np, &log) : CC_OUT_OF_MEMORY;
  const struct lsi_kernel *nk = rc == CC_OK ? kernel_named(np, s->L->k->name) : NULL;
  const char *bad = rc != CC_OK ? "the edited program does not build"
                    : !nk       ? "the edited program has no kernel of this name"
                                : dbg_edit_compatible(s->L->l, np, nk);
  if (bad) {
    fprintf(s->out, "Edit refused: %s.\n", bad);
    if (rc != CC_OK && log && *log) fprintf(s->out, "%s", log);
    free(log);
    free(src);
    if (np) cc_program_free(np);
    return -1;
  }
  free(log);
  struct edit_map m = {s, s->L->dbg, nk->debug, s->L->k, nk, (uint32_t)line, ""};
  struct dev_launch nl = *s->L->l;
  nl.prog = np;
  nl.kernel = nk;
  struct simt_dbg_remap rm = {&m, prologue_end(nk->debug), map_pc, map_mem};
  if (simt_dbg_rekernel(s->L->sd, &nl, &rm)) {
    fprintf(s->out, "Edit refused: %s.\n", m.why[0] ? m.why : "the work-items cannot be moved");
    free(src);
    cc_program_free(np);
    return -1;
  }
  /* the launch runs the new program now, and so do later launches of the
   * program; the one an earlier edit made can go once nothing runs it */
  struct lsi_program *old = s->L->eprog;
  s->L->eprog = NULL;
  if (dbg_keep_edit(s, np, src)) {
    s->L->eprog = np; /* kept for this launch only */
    free(src);
  }
  s->L->elaunch = nl;
  s->L->l = &s->L->elaunch;
  s->L->k = nk;
  s->L->dbg = nk->debug;
  if (old) cc_program_free(old);
  char *t = strdup(end);
  if (t) {
    free(s->L->lines[line - 1]);
    s->L->lines[line - 1] = t;
  }
  s->L->edits++;
  fprintf(s->out,
          "Line %lu is now:\n%lu\t%s\nRebuilt; the stopped work-items go on in the new code.\n",
          line, line, end);
  return 0;
}

void dbg_edit_end(struct dbg_session *s) {
  if (s->L->eprog) cc_program_free(s->L->eprog);
  s->L->eprog = NULL;
  dbg_keep_end(s);
}
