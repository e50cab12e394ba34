/*
 * cli_line.c - the `lockstep debug` prompt. When stdin and stdout are a
 * terminal, lines are read with libedit: emacs-style editing (or what
 * ~/.editrc asks for), history within the session, Tab completing the
 * last word from what the front end's completion offers (dbg_complete:
 * commands, subcommands, variables, locations), ^D on an
 * empty line ending input and Ctrl-C dropping the line being typed.
 * Otherwise lines are read plainly, byte for byte, and nothing but the
 * prompt (only when stdout is a terminal) is written: transcripts and pipes
 * see no escape sequences.
 *
 * It only reads lines; it must not interpret debugger commands.
 */
#include <errno.h>
#include <histedit.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "debugger/cli_line.h"
#include "debugger/dbg.h"

#define HIST_MAX 200

/* The editor of the session: made at the first prompt at a terminal. */
static struct {
  EditLine *el;
  History *hist;
  const char *prompt;
  int dropped; /* Ctrl-C dropped the line: end it, then read another */
  /* cli_readline_watch: what is read meanwhile */
  int watch_fd;
  int (*watch_fn)(void *ctx);
  void *watch_ctx;
  /* cli_readline_complete: where Tab's words come from */
  cli_complete_fn complete_fn;
  void *complete_ctx;
} ed = {.watch_fd = -1};

void cli_readline_watch(int fd, int (*fn)(void *ctx), void *ctx) {
  ed.watch_fd = fn ? fd : -1;
  ed.watch_fn = fn;
  ed.watch_ctx = ctx;
}

static char *plain(FILE *in, const char *prompt) {
  if (prompt && isatty(STDOUT_FILENO) && in == stdin) {
    fputs(prompt, stdout);
    fflush(stdout);
  }
  size_t cap = 256, n = 0;
  char *l = malloc(cap);
  int c;
  while (l && (c = fgetc(in)) != EOF && c != '\n') {
    if (n + 1 == cap) {
      char *m = realloc(l, cap *= 2);
      if (!m) break;
      l = m;
    }
    l[n++] = (char)c;
  }
  if (!l || (c == EOF && n == 0)) {
    free(l);
    return NULL;
  }
  if (n && l[n - 1] == '\r') n--;
  l[n] = 0;
  return l;
}

static char *prompt_of(EditLine *el) {
  (void)el;
  return (char *)ed.prompt;
}

/* libedit's source of characters: the terminal, and Ctrl-C (cli_sig.c).
 * The terminal turns the ^C byte into SIGINT, which only wakes a poll, so a
 * Ctrl-C comes in as that byte (bound to drop_line); once drop_line took
 * it, a newline ends the line. Returns 1 with a character, 0 at end of
 * input, -1 on error. */
static int next_char(EditLine *el, wchar_t *wc) {
  (void)el;
  mbstate_t st;
  memset(&st, 0, sizeof(st));
  if (ed.dropped) {
    *wc = L'\n';
    return 1;
  }
  for (;;) {
    struct pollfd pf[3] = {
        {STDIN_FILENO, POLLIN, 0}, {cli_sigint_fd(), POLLIN, 0}, {ed.watch_fd, POLLIN, 0}};
    int n = poll(pf, 3, -1);
    if (cli_sigint_take()) {
      *wc = 3;
      return 1;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (pf[2].revents && ed.watch_fn(ed.watch_ctx)) ed.watch_fd = -1;
    if (!pf[0].revents) continue;
    char c;
    ssize_t r = read(STDIN_FILENO, &c, 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return r == 0 ? 0 : -1;
    size_t k = mbrtowc(wc, &c, 1, &st);
    if (k == (size_t)-2) continue; /* a character of several bytes goes on */
    if (k == (size_t)-1) {         /* not one in this locale: the byte itself */
      memset(&st, 0, sizeof(st));
      *wc = (unsigned char)c;
    }
    return 1;
  }
}

/* ^C (from next_char): shows ^C after the line and ends it, to be dropped. */
static unsigned char drop_line(EditLine *el, int ch) {
  (void)ch;
  const LineInfo *li = el_line(el);
  el_cursor(el, (int)(li->lastchar - li->buffer));
  el_insertstr(el, "^C");
  ed.dropped = 1;
  return CC_REFRESH;
}

void cli_readline_complete(cli_complete_fn fn, void *ctx) {
  ed.complete_fn = fn;
  ed.complete_ctx = ctx;
}

/* The words completion offers, sorted, each once; glue: no space after
 * the word when it is whole (it ended in DBG_COMPLETE_GLUE). */
struct words {
  struct word {
    char *s;
    int glue;
  } * w;
  size_t n, cap;
};

static void words_add(void *ctx, const char *word) {
  struct words *ws = ctx;
  size_t len = strlen(word);
  int glue = len && word[len - 1] == DBG_COMPLETE_GLUE;
  len -= (size_t)glue;
  for (size_t i = 0; i < ws->n; i++)
    if (!strncmp(ws->w[i].s, word, len) && !ws->w[i].s[len]) return;
  if (ws->n == ws->cap) {
    size_t cap = ws->cap ? ws->cap * 2 : 32;
    struct word *w = realloc(ws->w, cap * sizeof(*w));
    if (!w) return;
    ws->w = w;
    ws->cap = cap;
  }
  if ((ws->w[ws->n].s = strndup(word, len))) ws->w[ws->n++].glue = glue;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const struct word *)a)->s, ((const struct word *)b)->s);
}

/* Lists the words below the line, for redisplay. */
static void list_words(const struct words *ws) {
  fputc('\n', stdout);
  for (size_t i = 0, col = 0; i < ws->n; i++) {
    size_t len = strlen(ws->w[i].s);
    if (col && col + 1 + len > 79) {
      fputc('\n', stdout);
      col = 0;
    }
    fprintf(stdout, "%s%s", col ? " " : "", ws->w[i].s);
    col += len + (col ? 1 : 0);
  }
  fputc('\n', stdout);
  fflush(stdout);
}

/* Tab: completes the line's last word (up to the cursor) with what the
 * front end's completion offers (dbg_complete: command names,
 * subcommands, names in scope, locations) as far as the words agree, with
 * a space after a whole word (not after `FILE:`, nor after a struct,
 * union or vector, which `.` may follow); lists them when it
 * cannot go further. */
static unsigned char complete(EditLine *el, int ch) {
  (void)ch;
  const LineInfo *li = el_line(el);
  char *line = strndup(li->buffer, (size_t)(li->cursor - li->buffer));
  if (!line) return CC_ERROR;
  struct words ws = {0};
  size_t at = ed.complete_fn ? ed.complete_fn(ed.complete_ctx, line, words_add, &ws)
                             : dbg_complete(NULL, line, words_add, &ws);
  size_t n = strlen(line) - (at <= strlen(line) ? at : strlen(line));
  unsigned char rc = CC_REFRESH_BEEP;
  if (ws.n) {
    qsort(ws.w, ws.n, sizeof(*ws.w), by_name);
    size_t common = strlen(ws.w[0].s);
    for (size_t i = 1; i < ws.n; i++) {
      size_t k = 0;
      while (k < common && ws.w[i].s[k] == ws.w[0].s[k])
        k++;
      common = k;
    }
    const char *last = ws.w[0].s;
    int whole = ws.n == 1 && li->cursor == li->lastchar && last[strlen(last) - 1] != ':';
    int space = whole && !ws.w[0].glue;
    if (common <= n && !whole) {
      list_words(&ws);
      rc = CC_REDISPLAY;
    } else {
      size_t len = common > n ? common - n : 0;
      char *add = malloc(len + 2);
      if (add) {
        snprintf(add, len + 2, "%.*s%s", (int)len, last + n, space ? " " : "");
        rc = el_insertstr(el, add) ? CC_ERROR : CC_REFRESH;
        free(add);
      }
    }
  }
  for (size_t i = 0; i < ws.n; i++)
    free(ws.w[i].s);
  free(ws.w);
  free(line);
  return rc;
}

/* Makes the editor at the first prompt at a terminal; 0 when it could. */
static int ed_open(void) {
  if (ed.el) return 0;
  setlocale(LC_CTYPE, ""); /* the terminal's characters, for the editor */
  ed.hist = history_init();
  ed.el = el_init("lockstep", stdin, stdout, stderr);
  if (!ed.hist || !ed.el) {
    cli_history_free();
    return -1;
  }
  HistEvent ev;
  history(ed.hist, &ev, H_SETSIZE, HIST_MAX);
  history(ed.hist, &ev, H_SETUNIQUE, 1);
  el_set(ed.el, EL_EDITOR, "emacs");
  el_set(ed.el, EL_HIST, history, ed.hist);
  el_set(ed.el, EL_PROMPT, prompt_of);
  el_set(ed.el, EL_GETCFN, next_char);
  el_source(ed.el, NULL); /* ~/.editrc, as every libedit program */
  /* the wide call keeps these names; the narrow one leaks copies of them */
  el_wset(ed.el, EL_ADDFN, L"lockstep-complete", L"Complete a debugger command", complete);
  el_wset(ed.el, EL_ADDFN, L"lockstep-drop-line", L"Drop the line (Ctrl-C)", drop_line);
  el_set(ed.el, EL_BIND, "^I", "lockstep-complete", NULL);
  el_set(ed.el, EL_BIND, "^C", "lockstep-drop-line", NULL);
  el_set(ed.el, EL_BIND, "^W", "ed-delete-prev-word", NULL);
  return 0;
}

/* A line from the editor (malloc'd, no newline), NULL at end of input. */
static char *edit(const char *prompt) {
  ed.prompt = prompt ? prompt : "";
  for (;;) {
    int n = 0;
    ed.dropped = 0;
    const char *l = el_gets(ed.el, &n);
    if (!l || n <= 0) {
      fputc('\n', stdout); /* after the prompt ^D ended */
      fflush(stdout);
      return NULL;
    }
    if (ed.dropped) continue;
    size_t len = (size_t)n;
    while (len && (l[len - 1] == '\n' || l[len - 1] == '\r'))
      len--;
    char *line = strndup(l, len);
    if (line && *line) {
      HistEvent ev;
      history(ed.hist, &ev, H_ENTER, line);
    }
    return line;
  }
}

char *cli_readline(FILE *in, const char *prompt) {
  cli_sigint_take(); /* a Ctrl-C before the prompt showed is spent */
  int tty = in == stdin && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  char *l = tty && ed_open() == 0 ? edit(prompt) : plain(in, prompt);
  /* one while a line was read plainly was the terminal's: it dropped the
   * line typed so far (or there is no line being typed); it pauses nothing */
  cli_sigint_take();
  return l;
}

void cli_history_free(void) {
  if (ed.el) el_end(ed.el);
  if (ed.hist) history_end(ed.hist);
  ed.el = NULL;
  ed.hist = NULL;
}
