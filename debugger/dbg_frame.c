/*
 * dbg_frame.c - the frames of a stopped work-item and the variables each one
 * sees. The functions a kernel calls are always inlined, so a work-item's
 * frames are the inlined calls it is in (the compiler's cc_inline table,
 * innermost first) and then the kernel itself. `frame`, `up` and `down`
 * select one; names are looked up in the selected frame.
 *
 * It reads positions and debug tables only; it must not run work-items or
 * change their memory.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dbg_int.h"
#include "device/simt.h"

int dbg_frames(struct dbg_session *s, uint64_t item, struct dbg_frame *fr, int max) {
  int n = 0;
  uint32_t line = dbg_item_line(s, item);
  for (uint32_t c = dbg_item_inline(s, item); c && c <= s->L->dbg->ninl && n + 1 < max; n++) {
    fr[n].inl = c;
    fr[n].line = line;
    line = s->L->dbg->inl[c - 1].call_line;
    c = s->L->dbg->inl[c - 1].parent;
  }
  fr[n].inl = 0;
  fr[n].line = line;
  n++;
  /* stopped where a call starts, shown at the call's line (a step or a
   * breakpoint at that line): the callee's frames are not entered yet */
  uint32_t pc = 0;
  int hide = s->L->call_stop;
  if (hide > 0 && hide < n && s->L->call_item == item &&
      simt_dbg_state(s->L->sd, item, &pc) != SIMT_DBG_DONE && pc == s->L->call_pc) {
    memmove(fr, fr + hide, (size_t)(n - hide) * sizeof(*fr));
    n -= hide;
  }
  return n;
}

static uint32_t item_pc(struct dbg_session *s, uint64_t item) {
  uint32_t pc = 0;
  simt_dbg_state(s->L->sd, item, &pc);
  return pc;
}

int dbg_frame_selected(struct dbg_session *s) {
  if (!s->L->frame || s->L->frame_item != s->L->focus || s->L->frame_pc != item_pc(s, s->L->focus))
    return 0;
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int n = dbg_frames(s, s->L->focus, fr, DBG_MAX_FRAMES);
  return s->L->frame < n ? s->L->frame : n - 1;
}

void dbg_frame_select(struct dbg_session *s, int frame) {
  s->L->frame = frame;
  s->L->frame_item = s->L->focus;
  s->L->frame_pc = item_pc(s, s->L->focus);
}

struct dbg_frame dbg_frame_current(struct dbg_session *s) {
  struct dbg_frame fr[DBG_MAX_FRAMES];
  dbg_frames(s, s->L->focus, fr, DBG_MAX_FRAMES);
  return fr[dbg_frame_selected(s)];
}

int dbg_frame_unpassed(struct dbg_session *s, const struct cc_symbol *y) {
  if (!y->inl || !y->pass_pc) return 0;
  uint32_t pc;
  if (simt_dbg_state(s->L->sd, s->L->focus, &pc) == SIMT_DBG_DONE) return 0;
  const struct cc_microkernel *m = cc_debug_mk_at(s->L->dbg, y->pass_pc - 1);
  return m && pc >= m->pc_begin && pc < y->pass_pc;
}

int dbg_frame_lists(const struct cc_debug *d, const struct cc_symbol *y, const struct dbg_frame *f,
                    int args) {
  if (y->inl != f->inl || (y->arg_index != 0) != args) return 0;
  if (args) return 1;
  /* the names print finds at the frame's line: in scope from the line of
   * the declaration on (a for loop's variable lives on its line), and not
   * hidden there by an inner one of the same name */
  if (f->line < y->scope_first || f->line > y->scope_last) return 0;
  return cc_debug_find_symbol_in(d, y->name, f->inl, f->line) == y;
}

int dbg_frame_outer_names(struct dbg_session *s) {
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int n = dbg_frames(s, s->L->focus, fr, DBG_MAX_FRAMES);
  for (int i = dbg_frame_selected(s) + 1; i < n; i++)
    for (uint32_t k = 0; k < s->L->dbg->nsyms; k++)
      if (dbg_frame_lists(s->L->dbg, &s->L->dbg->syms[k], &fr[i], 0) ||
          dbg_frame_lists(s->L->dbg, &s->L->dbg->syms[k], &fr[i], 1))
        return 1;
  return 0;
}

const struct cc_symbol *dbg_frame_symbol(struct dbg_session *s, const char *name,
                                         const char **why) {
  static char msg[160];
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int n = dbg_frames(s, s->L->focus, fr, DBG_MAX_FRAMES);
  int sel = dbg_frame_selected(s);
  /* the frame's own names first; then its callers', which the inlined code
   * runs inside of (and program-scope data, which the kernel's frame sees) */
  for (int i = sel; i < n; i++) {
    const struct cc_symbol *y = cc_debug_find_symbol_in(s->L->dbg, name, fr[i].inl, fr[i].line);
    if (y && dbg_frame_unpassed(s, y)) {
      snprintf(msg, sizeof(msg), "parameter '%s' has no value yet: the call at line %u passes it",
               name, s->L->dbg->inl[y->inl - 1].call_line);
      *why = msg;
      return NULL;
    }
    if (y) return y;
  }
  for (int i = sel; i < n; i++)
    for (uint32_t k = 0; k < s->L->dbg->nsyms; k++) {
      const struct cc_symbol *y = &s->L->dbg->syms[k];
      if (y->inl != fr[i].inl || strcmp(y->name, name)) continue;
      snprintf(msg, sizeof(msg), "variable '%s' is not in scope at line %u (lines %u-%u)", name,
               fr[i].line, y->scope_first, y->scope_last);
      *why = msg;
      return NULL;
    }
  snprintf(msg, sizeof(msg), "No symbol \"%s\" in current context.", name);
  *why = msg;
  return NULL;
}

/* "#N  func (inlined) at file:line", then the line's text. */
static void show_frame(struct dbg_session *s, const struct dbg_frame *fr, int i) {
  if (!fr[i].line) {
    fprintf(s->out, "#%d  %s (finished)\n", i, s->L->k->name);
    return;
  }
  if (fr[i].inl)
    fprintf(s->out, "#%d  %s (inlined) at %s:%u\n", i, s->L->dbg->inl[fr[i].inl - 1].func,
            dbg_where_file(s), fr[i].line);
  else
    fprintf(s->out, "#%d  %s at %s:%u\n", i, s->L->k->name, dbg_where_file(s), fr[i].line);
  if (fr[i].line <= s->L->nlines)
    fprintf(s->out, "%u\t%s\n", fr[i].line, s->L->lines[fr[i].line - 1]);
}

void dbg_frame_command(struct dbg_session *s, const char *cmd, const char *arg) {
  struct dbg_frame fr[DBG_MAX_FRAMES];
  int n = dbg_frames(s, s->L->focus, fr, DBG_MAX_FRAMES);
  int cur = dbg_frame_selected(s), to = cur;
  char *end;
  long k = strtol(arg, &end, 10);
  while (isspace((unsigned char)*end))
    end++;
  int given = end != arg;
  if (*end || k < 0 || (given && cmd[0] != 'f' && k == 0)) {
    fprintf(s->out, "usage: frame [N], up [N], down [N] (N frames; backtrace numbers them)\n");
    return;
  }
  if (!given) k = cmd[0] == 'f' ? cur : 1;
  if (cmd[0] == 'f') {
    if (k >= n) {
      fprintf(s->out, "No frame at level %ld.\n", k);
      return;
    }
    to = (int)k;
  } else if (cmd[0] == 'u') {
    if (cur + 1 >= n) {
      fprintf(s->out, "Initial frame selected; you cannot go up.\n");
      return;
    }
    to = k >= n - cur ? n - 1 : cur + (int)k;
  } else {
    if (cur == 0) {
      fprintf(s->out, "Bottom (innermost) frame selected; you cannot go down.\n");
      return;
    }
    to = k > cur ? 0 : cur - (int)k;
  }
  dbg_frame_select(s, to);
  show_frame(s, fr, to);
}
