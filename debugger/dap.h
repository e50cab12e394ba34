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
enum { VR_PRIVATE, VR_LOCAL, VR_ARGS, VR_IDS, VR_VALUE };
struct dap_vref {
  uint64_t item;
  int frame;      /* of the item's stack: 0 the innermost, each inlined call's caller above */
  int kind;       /* VR_* */
  int vkind;      /* for VR_VALUE: 'a' array, 'v' vector, 'p' pointer, 's' struct */
  unsigned count; /* elements of an array/vector */
  char expr[512]; /* for VR_VALUE: the expression of the value */
};

/* One answer of the engine to a command: its records and its text. */
struct dap_reply {
  json_t **recs;
  size_t nrecs;
  char *text; /* text lines for people, '\n'-separated */
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
  int stopped;    /* a kernel is stopped and the client knows */
  json_t *stop;   /* last stop record */
  json_t *launch; /* last launch record */
  uint64_t focus; /* item of the last stop */
  int bps_dirty;
  char sbuf[8192];
  size_t slen;
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
/* Runs one engine command while it prompts and collects its answer. */
int dap_query(struct dap_reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dap_reply_free(struct dap_reply *r);
/* Asks the engine to pause the launch running at full speed. */
void dap_interrupt(void);
/* Sends a command that lets the kernel run (answered by a later prompt). */
int dap_resume(const char *cmd);
int dap_spawn(const char *program, const json_t *args, const json_t *env, char *err, size_t errlen);
void dap_kill(int sig);
void dap_vrefs_clear(void);
int dap_vref_new(uint64_t item, int frame, int kind, int vkind, unsigned count, const char *expr);
/* At the first prompt once configured: records on, folders, breakpoints, run. */
void dap_engine_setup(void);
/* Engine breakpoints of sources whose list changed (the engine prompts). */
void dap_sync_bps(void);

/* dap_req.c */
/* Handles one request; writes the response (and maybe events). */
void dap_request(const json_t *req);
/* Sends a response; body (taken over) NULL for none. */
void dap_respond(const json_t *req, int ok, const char *message, json_t *body);
/* The stop's location resolved to a path the client can open. */
void dap_resolve_path(const char *file, char *out, size_t n);
/* Sends the stopped event for the last stop record. */
void dap_report_stop(void);
/* Marks breakpoints bound by a launch record's breakpoint records. */
void dap_bps_from_records(json_t **recs, size_t n, int send_events);

#endif
