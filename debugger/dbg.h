/*
 * dbg.h - the debug engine: runs one kernel launch under the debugger
 * (microkernels in flow-control order, breakpoints, stepping, focus,
 * variables by name) and answers text commands.
 *
 * The engine is part of the library; front ends (the `lockstep debug`
 * command, the DAP adapter) only pass command lines in and text out. It must
 * not read a terminal or parse program options itself.
 */
#ifndef LOCKSTEP_DEBUGGER_DBG_H
#define LOCKSTEP_DEBUGGER_DBG_H

#include <stdint.h>
#include <stdio.h>

#include "device/dev.h"

struct dbg_session;
struct dbg_launch;

/* Where commands come from while a launch is stopped: returns a malloc'd
 * line without newline, or NULL at end of input (which quits). */
typedef char *(*dbg_read_fn)(void *ctx, const char *prompt);

struct dbg_session *dbg_new(FILE *out, dbg_read_fn read, void *ctx);
void dbg_free(struct dbg_session *s);
/* Echo each command read (batch transcripts). */
void dbg_set_echo(struct dbg_session *s, int on);

/* Host-program mode: launches that never stop print nothing, `quit` while
 * a launch is stopped lets it finish undebugged, and programs are named by
 * the source file they match. */
void dbg_set_host_mode(struct dbg_session *s, int on);
/* The program the session's launches run, known before the first one
 * (`lockstep debug --kernel`): `break` checks its breakpoints against it
 * when they are set. p and source must outlive the session. */
struct lsi_program;
void dbg_set_program(struct dbg_session *s, const struct lsi_program *p, const char *file,
                     const char *source);
/* The file of a program the front end will launch (standalone mode's
 * kernel file), known before its first launch: Tab completes `FILE:`. */
void dbg_note_file(struct dbg_session *s, const char *file);
/* Folders searched for a file whose contents match a program's source
 * (`directory DIR`, --source-dir); the current directory comes first. */
void dbg_add_source_dir(struct dbg_session *s, const char *dir);
/* Copies folder i (from 0) of them into buf: 1, or 0 past the last one.
 * Safe while another thread adds folders. */
int dbg_source_dir(struct dbg_session *s, int i, char *buf, size_t len);
/* Asked now and then while work-items of launch L run (from L's thread or
 * the device's workers, under the session's lock): a non-zero answer stops
 * L at the next statement of the item running (a pause). Each launch asks
 * for itself, so a pause can reach every launch that runs, however many
 * run and whenever each one asks. */
typedef int (*dbg_poll_fn)(void *ctx, struct dbg_launch *L);
void dbg_set_interrupt(struct dbg_session *s, dbg_poll_fn poll, void *ctx);
/* Told the id of each temporary breakpoint a hit deleted (a front end that
 * runs the program again replays the breakpoint commands: it deletes it). */
typedef void (*dbg_gone_fn)(int id);
void dbg_set_temp_gone(struct dbg_session *s, dbg_gone_fn gone);
/* The build options of the program the next launches come from (`edit`
 * rebuilds it with these and -g); NULL for none. */
void dbg_set_build_options(struct dbg_session *s, const char *options);
/* Writes what `info breakpoints` (what 1) or `info display` (what 0)
 * shows to f. */
void dbg_info_to(struct dbg_session *s, int what, FILE *f);
/* The command table (one table gives the commands, their help, their `mi`
 * records and the DAP capabilities): the commands' full names one by one
 * (i from 0), NULL past the last (Tab completion); the DAP capabilities
 * (initialize response keys such as "supportsConditionalBreakpoints") the
 * commands provide, one by one, NULL past the last. */
const char *dbg_command_name(unsigned i);
/* Whether a command line starts with a command the table has (the front
 * end answers `Undefined command` for one that does not while no program
 * runs). */
int dbg_command_known(const char *line);
const char *dbg_dap_capability(unsigned i);
/* Tab completion of a command line: line is the text before the cursor;
 * add(ctx, word) is called for each word that can replace its last word
 * (which starts where the return value says): command names, subcommand
 * words (`info wo` -> workitems), after an expression command (print,
 * display, watch, condition, `break ... if`, ...) the names in scope of the
 * focused work-item (and `NAME.`'s fields), after a location command
 * (break, tbreak, until, advance, list) FILE: of the programs launched,
 * FILE:LINE of lines with code, kernel and inlined function names. A word
 * may come more than once. s NULL: no program (command names only). Called
 * while the session prompts (from the read function), or with no launch. */
typedef void (*dbg_complete_fn)(void *ctx, const char *word);
/* A word whose value is a struct, union or vector (which takes `.field`,
 * `.x`) ends in this byte: the line editor drops it and puts no space
 * after the word, so `.` can follow. */
#define DBG_COMPLETE_GLUE '\x1f'
size_t dbg_complete(struct dbg_session *s, const char *line, dbg_complete_fn add, void *ctx);
/* Runs one command line while no launch is open (a front end whose host
 * program has exited): print evaluates literals, arithmetic, the value
 * history and convenience variables, set $name = EXPR sets one, whatis and
 * ptype give types, help lists the commands; a command that would resume
 * or quit does nothing. */
void dbg_command_run(struct dbg_session *s, const char *line);
/* The value history as text, for a front end that outlives the process
 * the values were printed in (host mode: the program's library holds them
 * while it runs, the front end once it exited, each new run takes them on):
 * the text $(i+1) printed, or NULL past the last; adding a value printed
 * elsewhere as the next $N (a scalar text is read back as its value, any
 * other is kept as its text). Returns the new N, 0 when out of memory. */
const char *dbg_hist_text(struct dbg_session *s, int i);
int dbg_hist_add_text(struct dbg_session *s, const char *text);
/* The same for convenience variables ($name = EXPR): variable i's name and
 * value as `print` shows it (1, or 0 past the last); setting one from
 * "NAME TEXT" (0, or -1 when the text is no scalar). */
int dbg_conv_text(struct dbg_session *s, int i, char *name, size_t nlen, char *text, size_t tlen);
int dbg_conv_set_text(struct dbg_session *s, const char *name_text);
/* Reads and runs commands until `run`/`start` (returns 0) or `quit`/end of
 * input (returns 1). */
int dbg_prompt(struct dbg_session *s);

/* ---- launches (seed 000 on seed 001) ----
 * Each launch under the engine is a struct dbg_launch (its passes, saved
 * work-items, focus and stepping state), opened when it reaches the device
 * and closed when it ends. Any number may be open at once, from any
 * threads: dbg_launch_run runs on the processor thread that runs the
 * launch, dbg_stopped on the one thread that talks to the user. The
 * session's lock serialises the engine's own work (never a device pass,
 * never the wait for a command line). */
struct dbg_launch;
enum { DBG_RUN_ENDED = 0, DBG_RUN_STOPPED = 1 };
/* Opens launch l for the session: source is the program's text (NULL:
 * none), file the name its lines are shown under, options the host's build
 * options (what `edit` rebuilds with), queue the command stream it came
 * from (`info kernels` shows it). An edit of l's program still in force
 * runs instead (dbg_keep.c). NULL when it cannot be debugged, with why
 * (the caller runs it normally). */
struct dbg_launch *dbg_launch_open(struct dbg_session *s, struct dev_device *d,
                                   const struct dev_launch *l, const char *source, const char *file,
                                   const char *options, unsigned queue, char *why, size_t whylen);
/* Runs L's next stretch on the calling thread, without waiting for the
 * user: the first time from its start, after a resume what the resuming
 * command asked (continue, step, ...), after the user quit to its end
 * undebugged. DBG_RUN_STOPPED: L stopped (a breakpoint, a step's end, an
 * exception, a pause, or its end once it had stopped before); its state is
 * saved in L and dbg_stopped reports it. DBG_RUN_ENDED: L is over and
 * nothing is left to report; dbg_launch_close gives its result. */
int dbg_launch_run(struct dbg_launch *L);
/* Frees L (which must not be running). Returns 0 when it completed, else a
 * negative CL error with *exc filled (a device exception). */
int dbg_launch_close(struct dbg_launch *L, struct dev_exception *exc);
/* A front end's own pointer kept with L (the remote side's switch token). */
void dbg_launch_set_user(struct dbg_launch *L, void *user);
void *dbg_launch_user(const struct dbg_launch *L);
/* Called for each launch a command resumes: its next dbg_launch_run does
 * what the command asked. */
typedef void (*dbg_resume_fn)(void *ctx, struct dbg_launch *L);
/* Reports L's stop (what its stretch printed first), makes it the focus and
 * reads commands until one resumes a launch; calls resume for every launch
 * resumed (the focused one; every stopped one for `continue -a`; a launch
 * whose end was reported; all of them on quit). Returns 0, or 1 when the
 * user quit (every open launch then runs to its end undebugged). A launch
 * that ended and was reported while others are still stopped is resumed
 * at once and the prompt goes on for the others. A caller hands a stop
 * over after dbg_launch_run returned, so by then `kernel N` may have shown
 * it, and a resume may even have closed L: a stop shown already shows
 * nothing, and a closed L is never read. */
int dbg_stopped(struct dbg_session *s, struct dbg_launch *L, dbg_resume_fn resume, void *ctx);

/* Runs one launch under the debugger on the calling thread, prompting at
 * each stop (standalone mode); source is the program's text, file the name
 * its lines are shown under. Returns 0 or a negative CL error with *exc
 * filled; sets *quit when the user quit. */
int dbg_launch(struct dbg_session *s, struct dev_device *d, const struct dev_launch *l,
               const char *source, const char *file, struct dev_exception *exc, int *quit);

/* ---- host-program mode, library side (dbg_remote.c) ---- */
/* Connects to the front end named by LOCKSTEP_DEBUG_FD the first time it is
 * called (and runs the first prompt); 1 while this process is debugged. */
int dbg_remote_active(void);
/* A dev_cmd.launch_fn (installed as the runtime's launch hook): runs the
 * launch under the engine; arg is a struct rt_program_text. */
int dbg_remote_launch(void *arg, struct dev_device *d, const struct dev_launch *l,
                      struct dev_exception *exc, struct dev_switch *sw);

/* Edits outlast their launch (dbg_keep.c): later launches of the edited
 * program run the edited build. For a launch that runs undebugged while
 * another one is stopped: when an edit of l's program (built from source
 * with options) is in force, fills *kl to run instead and returns a hold on
 * the build, to give back with dbg_kept_put once the launch ended; else
 * NULL. dbg_kept_clear ends every edit (the front end left): later launches
 * run the programs as the host built them. */
void *dbg_kept_get(struct dbg_session *s, const struct dev_launch *l, const char *source,
                   const char *options, struct dev_launch *kl);
void dbg_kept_put(void *hold);
void dbg_kept_clear(struct dbg_session *s);

/* ---- where line breakpoints bind (dbg_bind.c) ---- */
/* How a breakpoint at a line of a program's file binds: at a statement of
 * its own, at the statement the line continues (a multi-line statement),
 * at the next line with code (the line has none); or it cannot: the file
 * has fewer lines (nlines, 0: unknown), or no code is at or after it. */
enum { DBG_LINE_EXACT, DBG_LINE_STMT, DBG_LINE_NOCODE, DBG_LINE_PAST, DBG_LINE_NONE };
struct lsi_program;
struct lsi_kernel;
/* Over every kernel of p (p NULL: kernel k only); *at is the line of the
 * statement it stops at (0 when it cannot bind). */
int dbg_line_resolve(const struct lsi_program *p, const struct lsi_kernel *k, uint32_t line,
                     uint32_t nlines, uint32_t *at);
/* What to tell the user about a resolution that moved or failed ("line 44
 * has no code", "No line 999 in file \"big.cl\"."); empty for DBG_LINE_EXACT. */
void dbg_line_note(int how, uint32_t line, uint32_t at, const char *file, char *msg, size_t n);

/* What a breakpoint names, checked against the program of its file
 * (called `file` in messages, nlines long; 0: unknown) before it binds: a
 * line (0 for a function breakpoint named func) and its condition (NULL or
 * empty: none), whose names must be the program's variables at the line
 * the breakpoint binds to. Returns how the line binds (DBG_LINE_EXACT for
 * a function) with that line in *at, -1 when the program refuses the
 * breakpoint, or -2 when the function is not the program's (a host program
 * may build another that has it); msg says why, in gdb's words ("No line 999 in file
 * \"big.cl\".", "Function \"f\" not defined.", "No symbol \"q\" in current
 * context."), or why the line moved. */
int dbg_bp_check(const struct lsi_program *p, const char *file, uint32_t nlines, uint32_t line,
                 const char *func, const char *cond, uint32_t *at, char *msg, size_t n);

/* ---- expressions (dbg_expr.c) ---- */
struct dbg_ctx; /* the focused work-item, as the evaluator sees it */
struct dbg_val {
  int kind;           /* DBG_INT, DBG_FLT, DBG_PTR, DBG_ARR, DBG_VEC, DBG_STRUCT */
  int is_signed;      /* ints */
  unsigned size;      /* bytes of a scalar or struct; element size of ptr/arr/vec */
  unsigned count;     /* arr/vec elements; bytes of a pointer's target */
  int ekind, esigned; /* element kind/sign of ptr/arr/vec */
  int64_t i;
  double f;
  uint64_t addr; /* lvalue address (0 = not an lvalue); ptr value in .i */
  /* an lvalue inside a variable: the end of that variable (obj), which an
   * artificial array (a[i]@n) must not pass; 0 when not known (memory
   * reached through a pointer: the memory's own end counts) */
  uint64_t lim;
  char obj[32];
  /* a vector whose components are not the count adjacent ones at addr (a
   * swizzle such as .zyx or .xx, or .hi of a 3-vector): component i is
   * component sel[i] of the vector at addr, DBG_UNDEF the undefined w of a
   * 3-component vector that .hi and .odd select */
  int swz;
  unsigned char sel[16];
  /* C's spelling without qualifiers, except a pointer's address space:
   * "int", "float4", "int[16]", "struct box", "__global float *" */
  char type[64];
  /* values dbg_image.c makes: an int shown by name (names: a DBG_NAME_*,
   * 0 for none; CL_RGBA, CLK_FILTER_LINEAR, ...), and a texel img(x, y),
   * which is not in memory: its image's channel order and data type
   * (texel_order 0: not a texel) and its channels decoded, in (R, G, B, A)
   * order as union dev_texel holds them */
  int names;
  uint32_t texel_order, texel_dtype;
  uint32_t texel[4];
};
#define DBG_UNDEF 0xff
enum { DBG_INT, DBG_FLT, DBG_PTR, DBG_ARR, DBG_VEC, DBG_STRUCT };
struct cc_type;

/* Hooks the evaluator needs from the engine. */
struct dbg_env {
  void *ctx;
  /* Looks a name up: 0 ok (fills *v as an lvalue), or an error message. */
  const char *(*lookup)(void *ctx, const char *name, struct dbg_val *v);
  void *(*mem)(void *ctx, uint64_t addr, uint64_t size);
  int (*sreg)(void *ctx, const char *fn, unsigned dim, uint64_t *out);
  /* A struct layout by type name, or NULL (may be NULL: no structs). */
  const struct cc_type *(*type)(void *ctx, const char *name);
  /* The struct layouts one by one (i from 0), NULL past the last (may be
   * NULL): ptype finds the struct a typedef names. */
  const struct cc_type *(*type_at)(void *ctx, unsigned i);
  /* The address-space qualifier of the memory at addr, with a space after
   * it ("__global ", "__local ", "__constant "; "" for private memory), and
   * a name for that memory ("buffer 'in' (argument 0)"); both may be NULL. */
  const char *(*space)(void *ctx, uint64_t addr);
  void (*region)(void *ctx, uint64_t addr, char *buf, size_t n);
  /* A value-history reference: ref follows the '$' ("", "$", "$N", "N");
   * 0 ok (fills *v, not an lvalue), or an error message. May be NULL. */
  const char *(*history)(void *ctx, const char *ref, struct dbg_val *v);
  /* A convenience variable, `$NAME` (NAME not a number): set 0 reads it
   * into *v, set 1 gives it *v (a scalar); 0 ok, else an error message.
   * May be NULL. */
  const char *(*conv)(void *ctx, const char *name, struct dbg_val *v, int set);
};
/* Whether text is an expression as far as its shape goes (a breakpoint
 * condition, before any work-item can evaluate it); else why not, in err
 * (dbg_bind.c). */
int dbg_cond_parses(const char *text, char *err, size_t errlen);
/* Evaluates text; 0 ok, else an error message in err. */
int dbg_eval(const struct dbg_env *env, const char *text, struct dbg_val *out, char *err,
             size_t errlen);
/* dbg_eval for the type only (whatis): no value is read. */
int dbg_eval_type(const struct dbg_env *env, const char *text, struct dbg_val *out, char *err,
                  size_t errlen);
/* Type t without its qualifiers (address spaces, const, volatile). */
void dbg_type_strip(const char *t, char *buf, size_t len);
/* Formats a value (hex when fmt == 'x'). */
void dbg_format(const struct dbg_env *env, const struct dbg_val *v, int fmt, char *buf, size_t len);
/* A value's type as C spells it: "int [16]", "float (*)[3]", "__global float *". */
void dbg_type_name(const struct dbg_val *v, char *buf, size_t len);
/* `whatis TEXT` (expand 0) and `ptype TEXT` (expand 1, structs with their
 * fields): TEXT is a type name or an expression, evaluated without reading
 * its value. 0 with "type = ..." in buf (lines separated by '\n'), else an
 * error message in buf. */
int dbg_whatis(const struct dbg_env *env, const char *text, int expand, char *buf, size_t len);
/* Parses a C type name into a value's type fields; 0 if unknown. Struct
 * types (and arrays of and pointers to them) need env's type hook (env may
 * be NULL: no structs). */
int dbg_type_resolve(const struct dbg_env *env, const char *type, struct dbg_val *v);
/* The type of an element of c (an array, a vector, or what a pointer
 * points to), into *e as an lvalue at addr. */
void dbg_type_elem(const struct dbg_env *env, const struct dbg_val *c, struct dbg_val *e,
                   uint64_t addr);
/* dst = src for structs (dbg_assign.c): NULL when done, else why not. */
const char *dbg_store_struct(const struct dbg_env *env, const struct dbg_val *dst,
                             const struct dbg_val *src);

#endif
