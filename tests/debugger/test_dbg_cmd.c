/*
 * test_dbg_cmd.c - the engine's command table (debugger/dbg_cmd.c): the
 * names Tab completion offers, the DAP capabilities the adapter announces,
 * and how command words, abbreviations, aliases and subcommands dispatch
 * (with no launch, so each command answers what it needs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dbg.h"
#include "util/check_util.h"

/* where test_gdb_rows saves breakpoints */
#define BPS_FILE "test_dbg_cmd.bps"

START_TEST(test_names) {
  static const char *const want[] = {"break", "tbreak",    "delete", "continue", "kernel",
                                     "set",   "backtrace", "info",   "help",     "mi"};
  unsigned n = 0;
  for (const char *c; (c = dbg_command_name(n)); n++) {
    for (unsigned j = 0; j < n; j++)
      ck_assert_str_ne(c, dbg_command_name(j)); /* each name once */
    ck_assert_ptr_null(strchr(c, '*'));
    ck_assert_ptr_null(strchr(c, ' '));
  }
  ck_assert_str_eq(dbg_command_name(0), "break");
  ck_assert_uint_ge(n, 30);
  ck_assert_ptr_null(dbg_command_name(n + 1));
  for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
    int found = 0;
    for (unsigned j = 0; j < n; j++)
      found |= !strcmp(dbg_command_name(j), want[i]);
    ck_assert_msg(found, "no command named %s", want[i]);
  }
  for (unsigned j = 0; j < n; j++) /* aliases are not names */
    ck_assert(strcmp(dbg_command_name(j), "bt") && strcmp(dbg_command_name(j), "where"));
}
END_TEST

/* What the adapter's initialize response says it supports (its own
 * supportsSteppingGranularity false aside). */
START_TEST(test_capabilities) {
  static const char *const want[] = {
      "supportsConfigurationDoneRequest",
      "supportsConditionalBreakpoints",
      "supportsHitConditionalBreakpoints",
      "supportsEvaluateForHovers",
      "supportsSetVariable",
      "supportsReadMemoryRequest",
      "supportsWriteMemoryRequest",
      "supportsTerminateRequest",
      "supportsExceptionInfoRequest",
      "supportsDataBreakpoints",
      "supportsFunctionBreakpoints",
      "supportTerminateDebuggee",
  };
  size_t nw = sizeof(want) / sizeof(want[0]);
  unsigned seen[sizeof(want) / sizeof(want[0])] = {0}, n = 0;
  for (const char *c; (c = dbg_dap_capability(n)); n++) {
    size_t i = 0;
    while (i < nw && strcmp(want[i], c))
      i++;
    ck_assert_msg(i < nw, "unexpected capability %s", c);
    seen[i]++;
  }
  for (size_t i = 0; i < nw; i++)
    ck_assert_msg(seen[i] == 1, "%s given %u times", want[i], seen[i]);
  ck_assert_ptr_null(dbg_dap_capability(n + 3));
}
END_TEST

static const char *const *script;
static size_t next_line;

static char *read_line(void *ctx, const char *prompt) {
  (void)ctx;
  (void)prompt;
  return script[next_line] ? strdup(script[next_line++]) : NULL;
}

/* Runs a script of command lines at the prompt of a fresh session (each
 * echoed) and returns everything it printed (malloc'd); *len its length. */
static char *run_script(const char *const *lines, size_t *len) {
  char *text = NULL;
  FILE *out = open_memstream(&text, len);
  ck_assert_ptr_nonnull(out);
  struct dbg_session *s = dbg_new(out, read_line, NULL);
  dbg_set_echo(s, 1);
  script = lines;
  next_line = 0;
  ck_assert_int_eq(dbg_prompt(s), 1);
  dbg_free(s);
  fclose(out);
  return text;
}

/* Runs a script (run_script()) and checks everything it printed is ref. */
static void check_script(const char *const *lines, const char *ref) {
  size_t len = 0;
  char *text = run_script(lines, &len);
  ck_assert_str_eq(text, ref);
  free(text);
}

static const char *const spellings[] = {
    "bt",        "whe",    "wh",     "ba",      "f",      "fi",           "fin",
    "p 1",       "pt",     "st",     "sta",     "u",      "un",           "und",
    "info",      "info b", "info k", "info lo", "info l", "set pass all", "set x = 1",
    "d display", "ker 3",  "k",      "he",      "h",      "quit",         NULL,
};

static const char *const spellings_ref =
    "(lockstep) bt\nNo stack.\n"
    "(lockstep) whe\nNo stack.\n"
    "(lockstep) wh\nUndefined command: \"wh\".\n"
    "(lockstep) ba\nNo stack.\n"
    "(lockstep) f\nNo stack.\n"
    "(lockstep) fi\nUndefined command: \"fi\".\n"
    "(lockstep) fin\nThe kernel is not being run; use 'run' or 'start'.\n"
    "(lockstep) p 1\n$1 = 1\n"
    "(lockstep) pt\nUndefined command: \"pt\".\n"
    "(lockstep) st\nThe kernel is not being run; use 'run' or 'start'.\n"
    "(lockstep) sta\nUndefined command: \"sta\".\n"
    "(lockstep) u\nThe kernel is not being run; use 'run' or 'start'.\n"
    "(lockstep) un\nThe kernel is not being run; use 'run' or 'start'.\n"
    "(lockstep) und\n"
    "(lockstep) info\nNo kernel is stopped.\n"
    "(lockstep) info b\nNo breakpoints.\n"
    "(lockstep) info k\nNo kernels.\n"
    "(lockstep) info lo\nNo kernel is stopped.\n"
    "(lockstep) info l\nNo kernel is stopped.\n"
    "(lockstep) set pass all\nPasses run every work-item not yet complete.\n"
    "(lockstep) set x = 1\nNo symbol \"x\" in current context.\n"
    "(lockstep) d display\n"
    "(lockstep) ker 3\nNo kernel 3; 'info kernels' lists the launches.\n"
    "(lockstep) k\nThe program is not being run.\n"
    "(lockstep) he\nUndefined command: \"he\".\n"
    "(lockstep) h\n"
    "break LOC [if EXPR], tbreak LOC            breakpoints at FILE:LINE, LINE, KERNEL, FUNCTION\n";

START_TEST(test_spellings) {
  size_t len = 0;
  char *text = run_script(spellings, &len);
  /* help's first line, then its others up to the quit */
  ck_assert_msg(!strncmp(text, spellings_ref, strlen(spellings_ref)), "got:\n%s", text);
  ck_assert_ptr_nonnull(strstr(text, "\nkernel [N], info kernels, continue -a "));
  ck_assert_ptr_nonnull(strstr(text, "\ndirectory [DIR], quit\nVector components: "));
  ck_assert_str_eq(text + len - 16, "(lockstep) quit\n");
  free(text);
}
END_TEST

/* `mi` subcommands are rows of the table: each answers its own record,
 * `kernel` is not `kernels`, and one no row has is named in an error
 * record listing the rows' subcommands. */
static const char *const mi_lines[] = {
    "mi on",      "mi kernels", "mi kernel 2", "mi kernel", "mi threads",
    "mi frame 0", "mi bogus",   "mi off",      NULL,
};

static const char *const mi_ref =
    "(lockstep) mi on\n^mi {\"machine\":1}\n"
    "(lockstep) mi kernels\n^mi {\"kernels\":[]}\n"
    "(lockstep) mi kernel 2\n^mi {\"error\":\"No kernel 2; mi kernels lists the launches.\"}\n"
    "(lockstep) mi kernel\n^mi {\"error\":\"No kernel ; mi kernels lists the launches.\"}\n"
    "(lockstep) mi threads\n^mi {\"error\":\"No kernel is stopped.\"}\n"
    "(lockstep) mi frame 0\n^mi {\"error\":\"No kernel is stopped.\"}\n"
    "(lockstep) mi bogus\n^mi {\"error\":\"unknown mi command (on, off, breakpoints, kernels, "
    "kernel, threads, focus, frame, vars, eval, read, write)\"}\n"
    "(lockstep) mi off\n^mi {\"machine\":0}\n";

START_TEST(test_mi_rows) {
  check_script(mi_lines, mi_ref);
}
END_TEST

/* gdb's habits with no launch: a commands block is read (and dropped when
 * its breakpoint does not exist), save breakpoints writes what source reads
 * back, and the commands that need a stopped kernel say so. */
static const char *const gdb_lines[] = {"commands 99",
                                        "print 1",
                                        "end",
                                        "commands",
                                        "end",
                                        "break 5 if x > 2",
                                        "commands",
                                        "  silent",
                                        "print x",
                                        "continue",
                                        "end",
                                        "ignore 1 3",
                                        "disable 1",
                                        "save breakpoints",
                                        "save breakpoints /nonexistent-dir/bps",
                                        "save breakpoints " BPS_FILE,
                                        "delete",
                                        "source " BPS_FILE,
                                        "info breakpoints",
                                        "source /nonexistent-dir/bps",
                                        "kill",
                                        "info frame",
                                        "info line 3",
                                        "info source",
                                        "info threads",
                                        "thread 3",
                                        "quit",
                                        NULL};

static const char *const gdb_ref =
    "(lockstep) commands 99\nNo breakpoint number 99.\n>print 1\n>end\n"
    "(lockstep) commands\nNo breakpoints specified.\n>end\n"
    "(lockstep) break 5 if x > 2\nBreakpoint 1 at line 5 if x > 2\n"
    "(lockstep) commands\n>  silent\n>print x\n>continue\n>end\n"
    "(lockstep) ignore 1 3\nWill ignore next 3 crossings of breakpoint 1.\n"
    "(lockstep) disable 1\n"
    "(lockstep) save breakpoints\nusage: save breakpoints FILE\n"
    "(lockstep) save breakpoints /nonexistent-dir/bps\n"
    "Unable to open file '/nonexistent-dir/bps' for saving (No such file or directory)\n"
    "(lockstep) save breakpoints " BPS_FILE "\nSaved to file '" BPS_FILE "'.\n"
    "(lockstep) delete\n"
    "(lockstep) source " BPS_FILE "\nBreakpoint 2 at line 5\n"
    "Will ignore next 3 crossings of breakpoint 2.\n"
    "(lockstep) info breakpoints\nNum  Type        Enb  Where\n"
    "2    breakpoint  n    line 5 if x > 2 (ignore next 3)\n"
    "(lockstep) source /nonexistent-dir/bps\n/nonexistent-dir/bps: No such file or directory.\n"
    "(lockstep) kill\nThe program is not being run.\n"
    "(lockstep) info frame\nNo stack.\n"
    "(lockstep) info line 3\nNo kernel is stopped.\n"
    "(lockstep) info source\nNo current source file.\n"
    "(lockstep) info threads\nNo kernel is stopped.\n"
    "(lockstep) thread 3\nNo kernel is stopped.\n"
    "(lockstep) quit\n";

static const char *const bps_text = "break 5\n  condition $bpnum x > 2\n  ignore $bpnum 3\n"
                                    "  disable $bpnum\n  commands $bpnum\n    silent\n"
                                    "    print x\n    continue\n  end\n";

START_TEST(test_gdb_rows) {
  check_script(gdb_lines, gdb_ref);
  FILE *f = fopen(BPS_FILE, "r");
  ck_assert_ptr_nonnull(f);
  char saved[512] = "";
  size_t n = fread(saved, 1, sizeof(saved) - 1, f);
  saved[n] = 0;
  fclose(f);
  remove(BPS_FILE);
  ck_assert_str_eq(saved, bps_text);
}
END_TEST

/* Expressions with no kernel stopped: literals, arithmetic, the value
 * history and convenience variables; a name is in no context. */
static const char *const noprog_lines[] = {
    "print 1+1", "print $1 * 3.5", "set $n = $ + 1", "print $n", "print $nosuch",
    "print gid", "print/x 255",    "print $$2",      "quit",     NULL,
};

static const char *const noprog_ref =
    "(lockstep) print 1+1\n$1 = 2\n"
    "(lockstep) print $1 * 3.5\n$2 = 7\n"
    "(lockstep) set $n = $ + 1\n"
    "(lockstep) print $n\n$3 = 8\n"
    "(lockstep) print $nosuch\nConvenience variable \"$nosuch\" has no value (set $nosuch = "
    "EXPR).\n"
    "(lockstep) print gid\nNo symbol \"gid\" in current context.\n"
    "(lockstep) print/x 255\n$4 = 0xff\n"
    "(lockstep) print $$2\n$5 = 7\n"
    "(lockstep) quit\n";

START_TEST(test_no_program) {
  check_script(noprog_lines, noprog_ref);
}
END_TEST

/* The words dbg_complete offers for line, joined by blanks, and where the
 * word they replace starts. */
static char words[512];

static void add_word(void *ctx, const char *w) {
  (void)ctx;
  size_t n = strlen(words);
  snprintf(words + n, sizeof(words) - n, "%s%s", n ? " " : "", w);
}

static size_t complete(struct dbg_session *s, const char *line) {
  words[0] = 0;
  return dbg_complete(s, line, add_word, NULL);
}

/* Tab completion from the command table: command names, subcommand words
 * (full spellings, whatever the abbreviation), nothing for an argument
 * with no program; with a session but no kernel stopped, no names. */
static const struct {
  int session; /* 0: no session, 1: a session with no kernel stopped */
  const char *line;
  size_t at; /* where the replaced word starts */
  const char *words;
} completions[] = {
    {0, "wat", 0, "watch"},    {0, "  workg", 2, "workgroup"},   {0, "info wo", 5, "workitems"},
    {0, "i  lo", 3, "locals"}, {0, "mi k", 3, "kernels kernel"}, {0, "zz", 0, ""},
    {0, "print/x fo", 8, ""},  {1, "print a + to", 10, ""},      {1, "break x.cl:1 if g", 16, ""},
    {1, "until comp", 6, ""},
};

START_TEST(test_complete) {
  struct dbg_session *s = dbg_new(stdout, NULL, NULL);
  for (size_t i = 0; i < sizeof(completions) / sizeof(completions[0]); i++) {
    size_t at = complete(completions[i].session ? s : NULL, completions[i].line);
    ck_assert_msg(at == completions[i].at && !strcmp(words, completions[i].words),
                  "'%s': %zu '%s', want %zu '%s'", completions[i].line, at, words,
                  completions[i].at, completions[i].words);
  }
  dbg_free(s);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dbg_cmd");
  CU_ADD(s, test_mi_rows);
  CU_ADD(s, test_names);
  CU_ADD(s, test_capabilities);
  CU_ADD(s, test_spellings);
  CU_ADD(s, test_gdb_rows);
  CU_ADD(s, test_no_program);
  CU_ADD(s, test_complete);
  return cu_run(s);
}
