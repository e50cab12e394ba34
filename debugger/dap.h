/*
 * dap.h - `lockstep dap`, the Debug Adapter Protocol adapter: state shared by
 * dap.c (stdio framing, the host program, the engine link, events) and
 * dap_req.c (the request handlers).
 *
 * The adapter speaks the line protocol of debugger/README.md to the engine in
 * the host process, like `lockstep debug --`; it must not link the engine's
 * state or run kernels itself.
 */
#ifndef LOCKSTEP_DEBUGGER_DAP_H
#define LOCKSTEP_DEBUGGER_DAP_H

#include <stdint.h>
#include <sys/types.h>

#include "debugger/dap_json.h"

#define DAP_MAX_BPS  256
#define DAP_MAX_DIRS 16
/* The longest expression or value a request may carry: with the rest of
 * its command it fits dap_query's line, so it is never cut short. */
#define DAP_MAX_EXPR 4096

struct dap_bp {
  int id;          /* DAP id */
  int engine_id;   /* the engine's number, 0 when not set there */
  char path[1024]; /* source path as the client gave it; empty for a function's */
  char func[128];  /* a function breakpoint: the kernel or inlined function */
  int invalid;     /* never sent to the engine (a name that is no identifier) */
  uint32_t line;   /* requested */
  uint32_t bound;  /* the line it binds to, 0 unknown */
  int verified;
  char cond[256];
  char hit[64]; /* hit condition ("5", ">= 5", "% 2") */
  int hits;
  char msg[200]; /* why it is not verified */
};

/* A data breakpoint (an engine watchpoint on one work-item's expression). */
#define DAP_MAX_DBPS 16
struct dap_dbp {
  int id, engine_id;
};

/* A variables reference: a scope or a structured value of one work-item. */
enum { VR_PRIVATE, VR_LOCAL, VR_ARGS, VR_IDS, VR_VALUE, VR_GONE };
struct dap_vref {
  unsigned num; /* the launch (its engine number) */
  uint64_t item;
  int frame;      /* of the item's stack: 0 the innermost, each inlined call's caller above */
  int kind;       /* VR_* */
  int vkind;      /* for VR_VALUE: 'a' array, 'v' vector, 'p' pointer, 's' struct */
  unsigned count; /* elements of an array/vector */
  char expr[512]; /* for VR_VALUE: the expression of the value */
};

/* A stack frame id: a frame of one work-item of one launch (num 0: gone). */
struct dap_fref {
  unsigned num;
  uint64_t item;
  int depth; /* 0 the innermost */
};

/* A launch the client was told stopped, by its engine number (`mi
 * kernels`); it stays while it runs again, until it ends. */
struct dap_kl {
  unsigned num;
  int running; /* resumed since its stop */
  char kernel[128];
  uint64_t item; /* its focused work-item at the stop */
  json_t *stop;  /* its stop record */
  int64_t *tids; /* the thread ids the client was last given for it */
  size_t ntids;
};

/* Thread ids: launch * 2^32 + work-item + 1, within 2^53 (what a JavaScript
 * client holds exactly) for the first 2^21 - 1 launches of a session;
 * work-items from 2^32 - 1 on get no thread. */
#define DAP_TID_ITEMS 4294967296ULL

/* One answer of the engine to a command: its records and its text. */
struct dap_reply {
  json_t **recs;
  size_t nrecs;
  char *text; /* text lines for people, '\n'-separated */
  size_t pre; /* how much of text came before the first stop record */
  int dead;   /* the engine went away */
};

struct dap {
  /* the host program */
  pid_t pid;
  int sock, hout, herr; /* engine socket; host stdout and stderr pipes */
  char cwd[1024];
  int launched, configured, stop_on_entry, first_launch_seen;
  int have_focus_item;
  uint64_t focus_gid[3];
  char *dirs[DAP_MAX_DIRS];
  int ndirs;
  /* the engine */
  int connected, prompting, started; /* started: `run` sent */
  int pending;                       /* what the next prompt answers: 'l'aunch, 's'top */
  int after_stop;                    /* hide text between a stop record and its prompt */
  int pause_pending;
  int waiting;        /* the engine said a launch stopped while it prompted */
  json_t *stop;       /* a stop record waiting for its prompt */
  json_t *launch;     /* last launch record */
  unsigned cur;       /* the engine's focused launch, 0 when not known */
  unsigned focus_num; /* launch and item of the last stop the client went to */
  uint64_t focus;
  unsigned user_num; /* the launch the client ran last (continue, step) */
  int bps_dirty;
  char *sbuf; /* what came from the engine and was not read as lines yet */
  size_t slen, scap;
  /* launches the client was told stopped */
  struct dap_kl *kls;
  size_t nkls, cap_kls;
  /* stack frame ids (index + 1) */
  struct dap_fref *frefs;
  size_t nfrefs, cap_frefs;
  /* requests that wait for the engine to prompt again */
  json_t **deferred;
  size_t ndeferred, cap_deferred;
  /* breakpoints */
  struct dap_bp bps[DAP_MAX_BPS];
  int nbps, next_bp_id;
  struct dap_dbp dbps[DAP_MAX_DBPS];
  int ndbps;
  int line_eids[DAP_MAX_BPS]; /* engine ids of the line breakpoints we made */
  int nline_eids;
  /* variables references of the current stop */
  struct dap_vref *vrefs;
  size_t nvrefs, cap_vrefs;
  int exited, terminated_sent, quit;
};

extern struct dap D;

/* dap.c */
/* Frames and writes one message and frees it (nothing when msg is NULL). */
void dap_send(json_t *msg);
/* Sends {"type":"event","event":event,"body":body}; body (taken over) NULL
 * for an empty one. */
void dap_event(const char *event, json_t *body);
/* An output event; text is any bytes (what is no UTF-8 shows as U+FFFD). */
void dap_output(const char *category, const char *text, size_t n);
/* Runs one engine command while it prompts and collects its answer (an
 * `mi` command's answer is its records: other text is the program's). */
int dap_query(struct dap_reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text the engine printed outside an answer, as an output event. */
void dap_engine_text(const char *t);
void dap_reply_free(struct dap_reply *r);
/* Asks the engine to pause the launch running at full speed. */
void dap_interrupt(void);
/* Sends a command that lets the kernel run (answered by a later prompt). */
int dap_resume(const char *cmd);
int dap_spawn(const char *program, const json_t *args, const json_t *env, char *err, size_t errlen);
void dap_kill(int sig);
/* A variables reference of the focused launch (D.cur); 0 out of memory. */
int dap_vref_new(uint64_t item, int frame, int kind, int vkind, unsigned count, const char *expr);
/* The id of a frame of a work-item of launch num (the same id while it
 * stays stopped), and the frame an id names (NULL: none, or gone). */
int64_t dap_fref_id(unsigned num, uint64_t item, int depth);
const struct dap_fref *dap_fref_get(int64_t id);
/* The references and frame ids of launch num (0: of every launch) go. */
void dap_refs_drop(unsigned num);
/* Keeps a request that needs the engine while the engine runs a launch
 * but others are stopped: it is handled at the next prompt. 1 if kept. */
int dap_defer(const json_t *req);
/* At the first prompt once configured: records on, folders, breakpoints, run. */
void dap_engine_setup(void);
/* Engine breakpoints of sources whose list changed (the engine prompts). */
void dap_sync_bps(void);

/* dap_kern.c: the stopped launches */
int64_t dap_tid(unsigned num, uint64_t item);
/* Splits a thread id; 0 when it names no launch's work-item. */
int dap_tid_split(int64_t tid, unsigned *num, uint64_t *item);
struct dap_kl *dap_kl_find(unsigned num);
/* How many launches are stopped (reported and not resumed). */
size_t dap_nstopped(void);
/* Makes launch num the engine's focus (`mi kernel N`); 0 ok. */
int dap_focus(unsigned num);
/* `mi kernels`: the open launches (a new reference; NULL when the engine
 * does not answer); sets D.cur. */
json_t *dap_kernels(void);
/* A stop record of launch num (taken over): counted against hit
 * conditions, then reported as a `stopped` event, or the launch goes on.
 * asked: the user asked to see it (`kernel N`). */
void dap_stop_seen(unsigned num, json_t *rec, int asked);
/* Resumes launch num (the engine's focus) with an engine command. */
void dap_resume_launch(unsigned num, const char *cmd);
/* What a launch's first prompt answers: `step` (stop at entry) or `continue`. */
const char *dap_launch_go(void);
/* At a prompt that is no launch's first: which launches ended, and the
 * stops that wait. */
void dap_after_prompt(void);
/* Shows the stops the engine has not shown yet (`kernel N`), each a
 * `stopped` event, and lets launches waiting at their start go on. */
void dap_serve_waiting(void);
/* Records and text a command printed that showed a launch's stop or start
 * (`kernel N`; asked: the user's); 1 when that launch was resumed. */
int dap_absorb_shown(struct dap_reply *r, unsigned num, int asked);
void dap_kls_clear(void);
/* The threads of every stopped launch, by kernel name and launch number
 * (the engine's focus is restored). */
void dap_threads(json_t *threads);
/* "what (x,y,z)" of an ids array. */
void dap_ids_text(char *buf, size_t n, const char *what, const json_t *ids);

/* dap_req.c */
/* Handles one request; writes the response (and maybe events). */
void dap_request(const json_t *req);
/* Sends a response; body (taken over) NULL for none. */
void dap_respond(const json_t *req, int ok, const char *message, json_t *body);
/* The stop's location resolved to a path the client can open. */
void dap_resolve_path(const char *file, char *out, size_t n);
/* Marks breakpoints bound by a launch record's breakpoint records. */
void dap_bps_from_records(json_t **recs, size_t n, int send_events);

#endif
