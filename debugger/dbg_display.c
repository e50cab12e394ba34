/*
 * dbg_display.c - auto-display: `display[/F] EXPR` shows EXPR of the
 * focused work-item at every stop, as gdb does; `undisplay`/`delete display`
 * drop expressions, `info display` lists them. The list belongs to the
 * session, so it outlasts launches.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dbg_int.h"

/* Shows display d of the focused work-item: `N: EXPR = VALUE`, or the
 * reason it has no value in angle brackets. */
static void show(struct dbg_session *s, const struct dbg_display *d) {
  struct dbg_env env;
  dbg_session_env(s, &env);
  struct dbg_val v;
  char err[200], buf[4096];
  fprintf(s->out, "%d: ", d->id);
  if (d->fmt) fprintf(s->out, "/%c ", d->fmt);
  if (dbg_eval(&env, d->expr, &v, err, sizeof(err))) {
    fprintf(s->out, "%s = <%s>\n", d->expr, err);
    return;
  }
  dbg_format(&env, &v, d->fmt, buf, sizeof(buf));
  fprintf(s->out, "%s = %s\n", d->expr, buf);
}

void dbg_display_show(struct dbg_session *s) {
  for (int i = 0; i < s->ndisp; i++)
    show(s, &s->disp[i]);
}

int dbg_display_cmd(struct dbg_session *s, const char *arg, int live) {
  int fmt = dbg_format_letter(s, &arg, "display");
  if (fmt < 0) return -1;
  while (isspace((unsigned char)*arg))
    arg++;
  if (!*arg) {
    if (fmt) {
      fprintf(s->out, "display/%c needs an expression\n", fmt);
      return -1;
    }
    if (live) dbg_display_show(s);
    return 0;
  }
  if (strlen(arg) >= sizeof(s->disp[0].expr)) {
    fprintf(s->out, "display: the expression is too long\n");
    return -1;
  }
  if (s->ndisp == MAX_DISPLAYS) {
    fprintf(s->out, "display: at most %d expressions; drop one with 'undisplay N'\n", MAX_DISPLAYS);
    return -1;
  }
  struct dbg_display *d = &s->disp[s->ndisp++];
  d->id = ++s->last_disp;
  d->fmt = (char)fmt;
  snprintf(d->expr, sizeof(d->expr), "%s", arg);
  if (live) show(s, d);
  return 0;
}

void dbg_undisplay_cmd(struct dbg_session *s, const char *arg) {
  while (isspace((unsigned char)*arg))
    arg++;
  if (!*arg) {
    s->ndisp = 0;
    return;
  }
  while (*arg) {
    char *end;
    long id = strtol(arg, &end, 10);
    if (end == arg || (*end && !isspace((unsigned char)*end))) {
      fprintf(s->out, "invalid display number '%.*s'\n", (int)strcspn(arg, " \t"), arg);
      return;
    }
    int i = 0;
    while (i < s->ndisp && s->disp[i].id != id)
      i++;
    if (i == s->ndisp) {
      fprintf(s->out, "No display number %ld.\n", id);
    } else {
      memmove(&s->disp[i], &s->disp[i + 1], (size_t)(s->ndisp - i - 1) * sizeof(s->disp[0]));
      s->ndisp--;
    }
    arg = end;
    while (isspace((unsigned char)*arg))
      arg++;
  }
}

void dbg_display_info(struct dbg_session *s) {
  if (!s->ndisp) {
    fprintf(s->out, "There are no auto-display expressions now.\n");
    return;
  }
  fprintf(s->out, "Auto-display expressions now in effect:\nNum Expression\n");
  for (int i = 0; i < s->ndisp; i++) {
    fprintf(s->out, "%-3d ", s->disp[i].id);
    if (s->disp[i].fmt) fprintf(s->out, "/%c ", s->disp[i].fmt);
    fprintf(s->out, "%s\n", s->disp[i].expr);
  }
}
