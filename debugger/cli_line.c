/*
 * cli_line.c - the `lockstep debug` prompt: a small line editor with history
 * when stdin is a terminal (left/right, home/end, backspace/delete, up/down
 * through history, ^A ^E ^K ^U ^W ^L, ^D on an empty line ends input, ^C
 * drops the line), and plain fgets otherwise.
 *
 * It only reads lines; it must not interpret debugger commands.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "debugger/cli_line.h"

#define HIST_MAX 200

static char *hist[HIST_MAX];
static int nhist;

static void hist_add(const char *l) {
  if (!*l || (nhist && !strcmp(hist[nhist - 1], l))) return;
  if (nhist == HIST_MAX) {
    free(hist[0]);
    memmove(hist, hist + 1, sizeof(hist[0]) * (HIST_MAX - 1));
    nhist--;
  }
  hist[nhist++] = strdup(l);
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

static void redraw(const char *prompt, const char *buf, size_t len, size_t pos) {
  char tmp[32];
  fputs("\r", stdout);
  fputs(prompt, stdout);
  fwrite(buf, 1, len, stdout);
  fputs("\x1b[K", stdout);
  if (len > pos) {
    snprintf(tmp, sizeof(tmp), "\x1b[%zuD", len - pos);
    fputs(tmp, stdout);
  }
  fflush(stdout);
}

static char *edit(const char *prompt) {
  struct termios old, raw;
  if (tcgetattr(STDIN_FILENO, &old)) return plain(stdin, prompt);
  raw = old;
  raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw);
  size_t cap = 1024, len = 0, pos = 0;
  char *buf = calloc(cap, 1);
  int h = nhist, eof = 0;
  char *saved = NULL; /* the line being typed while browsing history */
  redraw(prompt, buf, len, pos);
  for (;;) {
    char c;
    struct pollfd pf[2] = {{STDIN_FILENO, POLLIN, 0}, {cli_sigint_fd(), POLLIN, 0}};
    if (pf[1].fd >= 0 && poll(pf, 2, -1) < 0 && errno != EINTR) pf[1].fd = -1;
    if (cli_sigint_take()) {
      c = 3; /* Ctrl-C: the terminal sent SIGINT rather than the byte */
    } else if (pf[1].fd >= 0 && !pf[0].revents) {
      continue;
    } else if (read(STDIN_FILENO, &c, 1) != 1) {
      eof = 1;
      break;
    }
    if (c == '\r' || c == '\n') break;
    if (c == 4) { /* ^D */
      if (len == 0) {
        eof = 1;
        break;
      }
      if (pos < len) memmove(buf + pos, buf + pos + 1, len-- - pos);
    } else if (c == 127 || c == 8) {
      if (pos > 0) {
        memmove(buf + pos - 1, buf + pos, len - pos);
        pos--;
        len--;
      }
    } else if (c == 1) {
      pos = 0;
    } else if (c == 5) {
      pos = len;
    } else if (c == 11) {
      len = pos;
    } else if (c == 21) {
      memmove(buf, buf + pos, len - pos);
      len -= pos;
      pos = 0;
    } else if (c == 23) {
      size_t p = pos;
      while (p > 0 && buf[p - 1] == ' ')
        p--;
      while (p > 0 && buf[p - 1] != ' ')
        p--;
      memmove(buf + p, buf + pos, len - pos);
      len -= pos - p;
      pos = p;
    } else if (c == 12) {
      fputs("\x1b[H\x1b[2J", stdout);
    } else if (c == 3) { /* ^C: drop the line */
      len = pos = 0;
      h = nhist;
      fputs("^C\n", stdout);
    } else if (c == 27) {
      char seq[3] = {0, 0, 0};
      if (read(STDIN_FILENO, &seq[0], 1) != 1 || read(STDIN_FILENO, &seq[1], 1) != 1) continue;
      if (seq[1] >= '0' && seq[1] <= '9' && read(STDIN_FILENO, &seq[2], 1) != 1) continue;
      if (seq[1] == 'A' || seq[1] == 'B') {
        int nh = seq[1] == 'A' ? h - 1 : h + 1;
        if (nh < 0 || nh > nhist) continue;
        if (h == nhist) {
          free(saved);
          buf[len] = 0;
          saved = strdup(buf);
        }
        h = nh;
        const char *src = h == nhist ? (saved ? saved : "") : hist[h];
        len = strlen(src);
        if (len >= cap) len = cap - 1;
        memcpy(buf, src, len);
        pos = len;
      } else if (seq[1] == 'C' && pos < len) {
        pos++;
      } else if (seq[1] == 'D' && pos > 0) {
        pos--;
      } else if (seq[1] == 'H' || (seq[1] == '1' && seq[2] == '~')) {
        pos = 0;
      } else if (seq[1] == 'F' || (seq[1] == '4' && seq[2] == '~')) {
        pos = len;
      } else if (seq[1] == '3' && seq[2] == '~' && pos < len) {
        memmove(buf + pos, buf + pos + 1, len-- - pos);
      }
    } else if ((unsigned char)c >= 32 && len + 1 < cap) {
      memmove(buf + pos + 1, buf + pos, len - pos);
      buf[pos++] = c;
      len++;
    }
    redraw(prompt, buf, len, pos);
  }
  tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
  fputs("\n", stdout);
  fflush(stdout);
  free(saved);
  if (eof && len == 0) {
    free(buf);
    return NULL;
  }
  buf[len] = 0;
  hist_add(buf);
  return buf;
}

char *cli_readline(FILE *in, const char *prompt) {
  cli_sigint_take(); /* a Ctrl-C before the prompt showed is spent */
  char *l = in == stdin && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) ? edit(prompt)
                                                                         : plain(in, prompt);
  /* one while a line was read plainly was the terminal's: it dropped the
   * line typed so far (or there is no line being typed); it pauses nothing */
  cli_sigint_take();
  return l;
}

void cli_history_free(void) {
  for (int i = 0; i < nhist; i++)
    free(hist[i]);
  nhist = 0;
}
