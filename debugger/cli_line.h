/*
 * cli_line.h - line input for the `lockstep debug` prompt (cli_line.c) and
 * the host-program front ends (cli_host.c, dap.c). Nothing here knows debugger
 * commands or the protocol.
 */
#ifndef LOCKSTEP_DEBUGGER_CLI_LINE_H
#define LOCKSTEP_DEBUGGER_CLI_LINE_H

#include <stdio.h>

#include "debugger/dbg.h"

/* One line without its newline (malloc'd), or NULL at end of input. With a
 * terminal on stdin and stdout it edits the line with libedit (history
 * within the session, Tab completes: cli_readline_complete); otherwise it reads the
 * line plainly. */
char *cli_readline(FILE *in, const char *prompt);
/* While cli_readline waits for the user at a terminal, fn(ctx) is called
 * each time fd has something to read (fd -1: nothing to watch); when fn
 * returns non-zero, fd is left alone until the next call of this. The host
 * front end drains the library's socket so: what launches print while the
 * user types never fills it, so they run on. */
void cli_readline_watch(int fd, int (*fn)(void *ctx), void *ctx);
/* Where Tab completion's words come from (dbg_complete's contract: add
 * each word that can replace the last word of line, the text before the
 * cursor; return where that word starts): the engine of the session in
 * this process, or the program's library over the line protocol. NULL:
 * command names only. */
typedef size_t (*cli_complete_fn)(void *ctx, const char *line, dbg_complete_fn add, void *actx);
void cli_readline_complete(cli_complete_fn fn, void *ctx);
/* Ends the line editor and forgets the history. */
void cli_history_free(void);

/* Ctrl-C (cli_sig.c): SIGINT only counts and wakes a poll() on
 * cli_sigint_fd(); system calls restart. cli_sigint_seen() is a cheap test;
 * cli_sigint_take() says whether one came since the last take and forgets
 * it. cli_readline forgets those that come while it reads (at a terminal,
 * one drops the line being typed). */
int cli_sigint_install(void);
int cli_sigint_fd(void);
int cli_sigint_seen(void);
int cli_sigint_take(void);

/* `lockstep debug [options] [--] PROGRAM ARGS...` (cli_host.c), once
 * cmd_debug has parsed the options: batch is the -x file (NULL: the
 * terminal), dirs the --source-dir folders joined by ':' ("" for none),
 * prog the program and its arguments (NULL-terminated). */
int cli_debug_host(const char *batch, const char *dirs, char **prog);
/* After getopt_long said what is wrong with an option of command cmd
 * ("lockstep debug"): says where the usage is and returns 2, the exit
 * status of a bad command line. */
int cli_bad_option(const char *cmd);
/* Points OCL_ICD_VENDORS at the .icd of the build tree this binary belongs
 * to, else the installed one (the host programs the debugger and the DAP
 * adapter start). */
void cli_set_vendors(void);

#endif
