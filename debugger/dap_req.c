/*
 * dap_req.c - the DAP adapter's request handlers: each request is checked,
 * turned into engine commands (`mi ...` queries, break, step, continue) and
 * answered; work-items of every stopped launch appear as threads (their
 * ids and stops are dap_kern.c's), scopes are Private, Local, Global
 * arguments (Arguments in an inlined call's frame) and Work-item ids. A
 * request about a thread, frame, value or memory first makes its launch
 * the engine's focus; every value of a frame is read in that frame (`mi
 * ... ITEM:FRAME`).
 *
 * Framing, processes and the engine link are dap.c's; this file must not
 * read or write file descriptors itself.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/cc.h"
#include "compiler/cc_debug.h"
#include "debugger/dap.h"
#include "debugger/dbg.h"
#include "device/check.h"
#include "device/lsi.h"

#define BAD(msg)                                                                                   \
  do {                                                                                             \
    dap_respond(req, 0, msg, NULL);                                                                \
    return;                                                                                        \
  } while (0)

static const char *cmd_of(const json_t *req) {
  return dj_str(req, "command");
}

static const json_t *args_of(const json_t *req) {
  const json_t *a = dj_get(req, "arguments");
  return json_is_object(a) ? a : NULL;
}

/* Sends a successful response with a body (taken over). */
static void ok_body(const json_t *req, json_t *body) {
  dap_respond(req, 1, NULL, body);
}

static int need_stop(const json_t *req) {
  if (dap_nstopped() && D.prompting) return 1;
  dap_respond(req, 0,
              D.pid ? "no kernel is stopped: this works while a kernel is stopped at a breakpoint, "
                      "a step or an exception"
                    : "the program is not running",
              NULL);
  return 0;
}

/* ---- source paths ---- */

void dap_resolve_path(const char *file, char *out, size_t n) {
  char p[PATH_MAX + 1024];
  if (file[0] == '/')
    snprintf(p, sizeof(p), "%s", file);
  else
    snprintf(p, sizeof(p), "%s/%s", D.cwd[0] ? D.cwd : ".", file);
  char real[PATH_MAX];
  if (realpath(p, real))
    snprintf(out, n, "%s", real);
  else
    out[0] = 0;
}

static void source_obj(json_t *o, const char *file) {
  char path[PATH_MAX];
  dap_resolve_path(file, path, sizeof(path));
  json_t *src = json_object();
  const char *b = strrchr(file, '/');
  dj_sets(src, "name", b ? b + 1 : file);
  if (path[0]) dj_sets(src, "path", path);
  dj_set(o, "source", src);
}

/* ---- breakpoints ---- */

static const char *base(const char *p) {
  const char *b = strrchr(p, '/');
  return b ? b + 1 : p;
}

/* The line a breakpoint binds to, found by compiling the file and
 * binding as the engine does (dbg_bp_check): 0 with msg saying why when
 * the program refuses it (*refused) or cannot be built on its own (it
 * binds when the program runs); msg also says why a line moved. */
static uint32_t bind_line(const char *path, uint32_t line, const char *cond, int *refused,
                          char *msg, size_t n) {
  *refused = 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, n, "cannot read %s", path);
    return 0;
  }
  size_t cap = 1 << 16, len = 0;
  char *src = malloc(cap + 1);
  for (size_t r; src && (r = fread(src + len, 1, cap - len, f)) > 0;) {
    len += r;
    if (len == cap) {
      char *s2 = realloc(src, (cap *= 2) + 1);
      if (!s2) break;
      src = s2;
    }
  }
  fclose(f);
  if (!src) return 0;
  src[len] = 0;
  struct lsi_program *p = NULL;
  char *log = NULL;
  uint32_t best = 0;
  if (cc_build(src, path, "-g", &p, &log) != CC_OK || !p) {
    snprintf(msg, n,
             "pending: binds when the program built from this file runs (it does not compile on "
             "its own)");
  } else {
    uint32_t nlines = 0;
    for (const char *c = src; *c; c++)
      nlines += *c == '\n' || !c[1];
    *refused = dbg_bp_check(p, base(path), nlines, line, NULL, cond, &best, msg, n) < 0;
    if (*refused) best = 0;
  }
  cc_program_free(p);
  free(log);
  free(src);
  return best;
}

static json_t *bp_json(const struct dap_bp *b) {
  json_t *o = json_object();
  dj_seti(o, "id", b->id);
  dj_setb(o, "verified", b->verified);
  if (b->func[0]) {
    /* where the function stops in the launch that bound it */
    const char *file = dj_str(D.launch, "file");
    if (b->verified && b->bound) {
      dj_seti(o, "line", b->bound);
      if (file) source_obj(o, file);
    }
  } else {
    dj_seti(o, "line", b->verified && b->bound ? b->bound : b->line);
    json_t *src = json_object();
    dj_sets(src, "name", base(b->path));
    dj_sets(src, "path", b->path);
    dj_set(o, "source", src);
  }
  /* why it is not verified, or why it moved to another line */
  if (b->msg[0] && (!b->verified || (!b->func[0] && b->bound && b->bound != b->line)))
    dj_sets(o, "message", b->msg);
  return o;
}

void dap_bps_from_records(json_t **recs, size_t n, int send_events) {
  for (size_t i = 0; i < n; i++) {
    int64_t id = 0, bound = 0;
    if (!dj_int(recs[i], "bp", &id) || !dj_int(recs[i], "bound", &bound) || !bound) continue;
    for (int k = 0; k < D.nbps; k++) {
      struct dap_bp *b = &D.bps[k];
      if (b->engine_id != id || (b->verified && b->bound == (uint32_t)bound)) continue;
      b->verified = 1;
      b->bound = (uint32_t)bound;
      if (!send_events) continue;
      json_t *ev = json_object();
      dj_sets(ev, "reason", "changed");
      dj_set(ev, "breakpoint", bp_json(b));
      dap_event("breakpoint", ev);
    }
  }
}

/* Brings the engine's breakpoints in line with ours (the engine prompts). */
void dap_sync_bps(void) {
  if (!D.prompting || !D.bps_dirty) return;
  D.bps_dirty = 0;
  struct dap_reply r;
  /* only the line breakpoints: data breakpoints stay */
  char del[8 + DAP_MAX_BPS * 12] = "delete";
  for (int i = 0; i < D.nline_eids; i++) {
    size_t l = strlen(del);
    snprintf(del + l, sizeof(del) - l, " %d", D.line_eids[i]);
  }
  D.nline_eids = 0;
  if (strcmp(del, "delete")) {
    dap_query(&r, "%s", del);
    dap_reply_free(&r);
  }
  for (int i = 0; i < D.nbps; i++) {
    struct dap_bp *b = &D.bps[i];
    b->engine_id = 0;
    if (b->invalid) continue;
    char cond[512] = "";
    if (b->cond[0]) snprintf(cond, sizeof(cond), "(%s)", b->cond);
    if (D.have_focus_item) {
      size_t l = strlen(cond);
      snprintf(cond + l, sizeof(cond) - l,
               "%sget_global_id(0) == %" PRIu64 " && get_global_id(1) == %" PRIu64
               " && get_global_id(2) == %" PRIu64,
               l ? " && " : "", D.focus_gid[0], D.focus_gid[1], D.focus_gid[2]);
    }
    if (b->func[0])
      dap_query(&r, "break %s%s%s", b->func, cond[0] ? " if " : "", cond);
    else
      dap_query(&r, "break %s:%u%s%s", b->path, b->line, cond[0] ? " if " : "", cond);
    b->engine_id = 0;
    if (r.text && !strncmp(r.text, "Breakpoint ", 11)) b->engine_id = atoi(r.text + 11);
    if (b->engine_id && D.nline_eids < DAP_MAX_BPS) D.line_eids[D.nline_eids++] = b->engine_id;
    dap_reply_free(&r);
  }
  if (D.launch || dap_nstopped()) {
    dap_query(&r, "mi breakpoints");
    dap_bps_from_records(r.recs, r.nrecs, 1);
    dap_reply_free(&r);
  }
}

/* A hit condition the adapter cannot count leaves the breakpoint unverified. */
static void check_hit(struct dap_bp *b) {
  if (!b->hit[0]) return;
  const char *q = b->hit + strspn(b->hit, " <>=%");
  if (!*q || strspn(q, "0123456789 ") != strlen(q)) {
    b->verified = 0;
    snprintf(b->msg, sizeof(b->msg), "hit condition must be N, >= N, > N, == N, < N, <= N or %% N");
  }
}

static int is_ident(const char *n) {
  if (!n || !(isalpha((unsigned char)n[0]) || n[0] == '_')) return 0;
  for (const char *p = n; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_') return 0;
  return 1;
}

/* A breakpoint's condition and hit condition: one longer than its field
 * leaves the breakpoint unverified and away from the engine, never cut
 * short into another condition. */
static void bp_conds(struct dap_bp *b, const json_t *e) {
  const char *c = dj_str(e, "condition"), *h = dj_str(e, "hitCondition");
  if ((c && strlen(c) >= sizeof(b->cond)) || (h && strlen(h) >= sizeof(b->hit))) {
    snprintf(b->msg, sizeof(b->msg), "the %s is too long (at most %zu bytes)",
             c && strlen(c) >= sizeof(b->cond) ? "condition" : "hit condition",
             c && strlen(c) >= sizeof(b->cond) ? sizeof(b->cond) - 1 : sizeof(b->hit) - 1);
    b->invalid = 1;
    b->verified = 0;
    return;
  }
  if (c) snprintf(b->cond, sizeof(b->cond), "%s", c);
  if (h) snprintf(b->hit, sizeof(b->hit), "%s", h);
  check_hit(b);
}

/* Replaces the function breakpoints: `break NAME` stops at a kernel's entry
 * or where each call of a function inlined into the kernel starts; they
 * bind (and are verified) when a launch has that function. */
static void req_set_function_bps(const json_t *req, const json_t *a) {
  const json_t *list = dj_get(a, "breakpoints");
  if (!json_is_array(list)) BAD("setFunctionBreakpoints needs a 'breakpoints' array");
  for (size_t i = 0; i < json_array_size(list); i++) {
    const char *name = dj_str(json_array_get(list, i), "name");
    if (!name || !*name) BAD("setFunctionBreakpoints: each breakpoint needs a 'name'");
  }
  int k = 0;
  for (int i = 0; i < D.nbps; i++)
    if (!D.bps[i].func[0]) D.bps[k++] = D.bps[i];
  D.nbps = k;
  int first = D.nbps;
  for (size_t i = 0; i < json_array_size(list); i++) {
    const json_t *e = json_array_get(list, i);
    const char *name = dj_str(e, "name");
    if (D.nbps == DAP_MAX_BPS) BAD("too many breakpoints");
    struct dap_bp *b = &D.bps[D.nbps++];
    memset(b, 0, sizeof(*b));
    b->id = D.next_bp_id++;
    snprintf(b->func, sizeof(b->func), "%s", name);
    if (!is_ident(name) || strlen(name) >= sizeof(b->func)) {
      snprintf(b->msg, sizeof(b->msg), "'%.120s' is not a function name", name);
      b->invalid = 1;
    } else {
      snprintf(b->msg, sizeof(b->msg),
               "binds when a kernel that is, or calls, the function '%s' runs", name);
    }
    bp_conds(b, e);
  }
  D.bps_dirty = 1;
  dap_sync_bps();
  json_t *list_out = json_array(), *body = json_object();
  for (int i = first; i < D.nbps; i++)
    dj_push(list_out, bp_json(&D.bps[i]));
  dj_set(body, "breakpoints", list_out);
  ok_body(req, body);
}

static void req_set_breakpoints(const json_t *req, const json_t *a) {
  const json_t *src = dj_get(a, "source");
  const char *path = dj_str(src, "path");
  if (!path || !*path) BAD("setBreakpoints needs source.path");
  if (strlen(path) >= sizeof(D.bps[0].path)) BAD("setBreakpoints: source.path is too long");
  const json_t *list = dj_get(a, "breakpoints");
  if (list && !json_is_array(list)) BAD("setBreakpoints: 'breakpoints' must be an array");
  /* every breakpoint checked before any changes */
  size_t n = json_array_size(list);
  for (size_t i = 0; i < n; i++) {
    int64_t line = 0;
    if (!dj_int(json_array_get(list, i), "line", &line) || line < 1 || line > INT32_MAX)
      BAD("setBreakpoints: each breakpoint needs a positive 'line'");
  }
  int k = 0;
  for (int i = 0; i < D.nbps; i++)
    k += strcmp(D.bps[i].path, path) != 0;
  if ((size_t)(DAP_MAX_BPS - k) < n) BAD("too many breakpoints");
  /* drop this source's old ones */
  k = 0;
  for (int i = 0; i < D.nbps; i++)
    if (strcmp(D.bps[i].path, path)) D.bps[k++] = D.bps[i];
  D.nbps = k;
  /* the folder of the file is searched for the program's source */
  char dir[1024];
  snprintf(dir, sizeof(dir), "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash) {
    *slash = 0;
    int known = 0;
    for (int i = 0; i < D.ndirs; i++)
      known |= !strcmp(D.dirs[i], dir);
    if (!known && D.ndirs < DAP_MAX_DIRS && dir[0]) {
      D.dirs[D.ndirs++] = strdup(dir);
      if (D.prompting) {
        struct dap_reply r;
        dap_query(&r, "directory %s", dir);
        dap_reply_free(&r);
      }
    }
  }
  int first = D.nbps;
  for (size_t i = 0; i < n; i++) {
    const json_t *e = json_array_get(list, i);
    int64_t line = 0;
    dj_int(e, "line", &line);
    struct dap_bp *b = &D.bps[D.nbps++];
    memset(b, 0, sizeof(*b));
    b->id = D.next_bp_id++;
    snprintf(b->path, sizeof(b->path), "%s", path);
    b->line = (uint32_t)line;
    bp_conds(b, e);
    if (b->invalid) continue;
    int refused;
    b->bound = bind_line(path, b->line, b->cond, &refused, b->msg, sizeof(b->msg));
    b->verified = b->bound != 0;
    b->invalid = refused; /* the engine would refuse it too */
    check_hit(b);
  }
  D.bps_dirty = 1;
  dap_sync_bps();
  json_t *list_out = json_array(), *body = json_object();
  for (int i = first; i < D.nbps; i++)
    dj_push(list_out, bp_json(&D.bps[i]));
  dj_set(body, "breakpoints", list_out);
  ok_body(req, body);
}

/* ---- threads and frames ---- */

static void req_threads(const json_t *req) {
  json_t *threads = json_array();
  if (dap_nstopped() && D.prompting) dap_threads(threads);
  if (!json_array_size(threads)) {
    json_t *t = json_object();
    dj_seti(t, "id", 1);
    dj_sets(t, "name", D.pid ? "host program (no kernel stopped)" : "no program");
    dj_push(threads, t);
  }
  json_t *body = json_object();
  dj_set(body, "threads", threads);
  ok_body(req, body);
}

/* Whether the focused launch has the work-item and its stack that frame. */
static int frame_exists(uint64_t item, int frame) {
  struct dap_reply r;
  dap_query(&r, "mi frame %" PRIu64, item);
  const json_t *f = r.nrecs ? r.recs[0] : NULL;
  int ok = f && !dj_get(f, "error");
  const json_t *frames = ok ? dj_get(f, "frames") : NULL;
  size_t n = json_is_array(frames) ? json_array_size(frames) : 1;
  ok = ok && (size_t)frame < n;
  dap_reply_free(&r);
  return ok;
}

/* A thread id names a work-item of a stopped launch, which becomes the
 * engine's focus. */
static int item_of_thread(const json_t *req, const json_t *a, unsigned *num, uint64_t *item) {
  int64_t t;
  if (!dj_int(a, "threadId", &t) || t < 1) {
    dap_respond(req, 0, "missing or bad 'threadId'", NULL);
    return 0;
  }
  const struct dap_kl *k = dap_tid_split(t, num, item) ? dap_kl_find(*num) : NULL;
  if (k && !k->running && !dap_focus(*num) && frame_exists(*item, 0)) return 1;
  dap_respond(req, 0, "no such thread (work-item) in the stopped launches", NULL);
  return 0;
}

static void req_stack(const json_t *req, const json_t *a) {
  uint64_t item;
  unsigned num;
  if (!need_stop(req) || !item_of_thread(req, a, &num, &item)) return;
  struct dap_reply r;
  dap_query(&r, "mi frame %" PRIu64, item);
  const json_t *f = r.nrecs ? r.recs[0] : NULL;
  const char *file = dj_str(f, "file"), *kernel = dj_str(f, "kernel"), *inl = dj_str(f, "inlined");
  const char *st = dj_str(f, "state");
  int64_t line = 0, kline = 0;
  dj_int(f, "line", &line);
  dj_int(f, "kernel_line", &kline);
  json_t *list = json_array();
  int depth = 0;
  const json_t *frames = inl ? dj_get(f, "frames") : NULL;
  size_t nf = json_array_size(frames);
  if (nf > 1) {
    /* inlined callees first, each at its own line; the last is the kernel
     * at the call site */
    for (size_t i = 0; i < nf; i++) {
      const json_t *fr = json_array_get(frames, i);
      const char *fn = dj_str(fr, "func");
      int64_t fl = 0;
      dj_int(fr, "line", &fl);
      char name[200];
      snprintf(name, sizeof(name), "%s%s", fn ? fn : "?", i + 1 < nf ? " (inlined)" : "");
      json_t *o = json_object();
      dj_seti(o, "id", dap_fref_id(num, item, (int)i));
      dj_sets(o, "name", name);
      source_obj(o, file ? file : "");
      dj_seti(o, "line", fl);
      dj_seti(o, "column", 1);
      dj_push(list, o);
    }
    depth = (int)nf - 1;
  } else {
    json_t *o = json_object();
    dj_seti(o, "id", dap_fref_id(num, item, 0));
    char name[200];
    snprintf(name, sizeof(name), "%s%s", kernel ? kernel : "kernel",
             st && !strcmp(st, "done") ? " (finished)" : "");
    dj_sets(o, "name", name);
    source_obj(o, file ? file : "");
    dj_seti(o, "line", !line ? kline : line);
    dj_seti(o, "column", 1);
    if (!line) dj_sets(o, "presentationHint", "subtle");
    dj_push(list, o);
  }
  json_t *body = json_object();
  dj_set(body, "stackFrames", list);
  dj_seti(body, "totalFrames", depth + 1);
  dap_reply_free(&r);
  ok_body(req, body);
}

/* A frame id names a frame of a work-item of a stopped launch, which
 * becomes the engine's focus. */
static int frame_item(const json_t *req, const json_t *a, uint64_t *item, int *frame) {
  int64_t f;
  if (!dj_int(a, "frameId", &f) || f < 1) {
    dap_respond(req, 0, "missing or bad 'frameId'", NULL);
    return 0;
  }
  const struct dap_fref *fr = dap_fref_get(f);
  if (fr) {
    *item = fr->item;
    *frame = fr->depth;
  }
  if (fr && !dap_focus(fr->num) && frame_exists(*item, *frame)) return 1;
  dap_respond(req, 0, "no such stack frame (frame ids last only until the program runs on)", NULL);
  return 0;
}

static void req_scopes(const json_t *req, const json_t *a) {
  uint64_t item;
  int frame;
  if (!need_stop(req) || !frame_item(req, a, &item, &frame)) return;
  static const struct {
    const char *name, *hint;
    int kind;
  } S[] = {{"Private", "locals", VR_PRIVATE},
           {"Local", NULL, VR_LOCAL},
           {"Global arguments", "arguments", VR_ARGS},
           {"Work-item ids", NULL, VR_IDS}};
  /* an inlined call's frame (every frame but the last): its arguments are
   * the function's parameters */
  struct dap_reply r;
  dap_query(&r, "mi frame %" PRIu64, item);
  const json_t *frames = r.nrecs ? dj_get(r.recs[0], "frames") : NULL;
  int inlined = (size_t)frame + 1 < json_array_size(frames);
  dap_reply_free(&r);
  json_t *scopes = json_array();
  for (size_t i = 0; i < 4; i++) {
    json_t *o = json_object();
    dj_sets(o, "name", inlined && S[i].kind == VR_ARGS ? "Arguments" : S[i].name);
    if (S[i].hint) dj_sets(o, "presentationHint", S[i].hint);
    dj_seti(o, "variablesReference", dap_vref_new(item, frame, S[i].kind, 0, 0, NULL));
    dj_setb(o, "expensive", 0);
    dj_push(scopes, o);
  }
  json_t *body = json_object();
  dj_set(body, "scopes", scopes);
  ok_body(req, body);
}

/* Sets value, type, evaluateName, reference and memory reference of one
 * engine value record in o; name NULL for evaluate (result instead of value). */
static void value_fields(json_t *o, uint64_t item, int frame, const json_t *rec, const char *expr,
                         int result) {
  const char *err = dj_str(rec, "error"), *kind = dj_str(rec, "kind");
  const char *val = dj_str(rec, "value"), *type = dj_str(rec, "type");
  char e[300];
  if (err) snprintf(e, sizeof(e), "<%s>", err);
  dj_sets(o, result ? "result" : "value", err ? e : val ? val : "");
  if (type && *type) dj_sets(o, "type", type);
  if (!result) dj_sets(o, "evaluateName", expr);
  int64_t count = 0;
  dj_int(rec, "count", &count);
  int ref = 0;
  if (!err && kind && (!strcmp(kind, "array") || !strcmp(kind, "vector")) && count > 0) {
    ref = dap_vref_new(item, frame, VR_VALUE, kind[0], (unsigned)count, expr);
    if (kind[0] == 'a') dj_seti(o, "indexedVariables", count);
  } else if (!err && kind && !strcmp(kind, "struct") && count > 0) {
    ref = dap_vref_new(item, frame, VR_VALUE, 's', (unsigned)count, expr);
    dj_seti(o, "namedVariables", count);
  } else if (!err && kind && !strcmp(kind, "pointer")) {
    ref = dap_vref_new(item, frame, VR_VALUE, 'p', 0, expr);
  }
  dj_seti(o, "variablesReference", ref);
  const char *mem = !err && kind && !strcmp(kind, "pointer") ? dj_str(rec, "ptr") : NULL;
  if (!mem && !err) mem = dj_str(rec, "addr");
  if (mem) { /* ADDR@LAUNCH:ITEM: memory as that work-item sees it */
    char m[80];
    snprintf(m, sizeof(m), "%s@%u:%" PRIu64, mem, D.cur, item);
    dj_sets(o, "memoryReference", m);
  }
}

static void var_json(json_t *list, uint64_t item, int frame, const char *name, const json_t *rec,
                     const char *expr) {
  json_t *o = json_object();
  dj_sets(o, "name", name);
  value_fields(o, item, frame, rec, expr, 0);
  dj_push(list, o);
}

static void id_var(json_t *list, const char *name, const json_t *ids) {
  char v[64];
  dap_ids_text(v, sizeof(v), "", ids);
  json_t *o = json_object();
  dj_sets(o, "name", name);
  dj_sets(o, "value", v + 1);
  dj_seti(o, "variablesReference", 0);
  dj_push(list, o);
}

/* The expression of a child of a structured value. */
static void child_expr(const struct dap_vref *v, const char *name, char *out, size_t n) {
  if (v->vkind == 'v' || v->vkind == 's')
    snprintf(out, n, "(%s).%s", v->expr, name);
  else if (name[0] == '*')
    snprintf(out, n, "*(%s)", v->expr);
  else
    snprintf(out, n, "(%s)%s", v->expr, name); /* name is "[i]" */
}

/* A variables reference of a stopped launch, which becomes the engine's
 * focus; NULL (after an error response) when there is none. */
static const struct dap_vref *vref_of(const json_t *req, int64_t ref) {
  if (ref >= 1 && (size_t)ref <= D.nvrefs && D.vrefs[ref - 1].kind != VR_GONE &&
      !dap_focus(D.vrefs[ref - 1].num))
    return &D.vrefs[ref - 1];
  dap_respond(req, 0, "unknown variablesReference (references last only until the program runs on)",
              NULL);
  return NULL;
}

/* "(x,y,z)" of get_global_size or get_local_size of a work-item. */
static void size_var(json_t *list, const char *name, uint64_t item, const char *fn) {
  char v[3][32];
  for (int d = 0; d < 3; d++) {
    struct dap_reply r;
    dap_query(&r, "mi eval %" PRIu64 " %s(%d)", item, fn, d);
    const char *val = r.nrecs ? dj_str(r.recs[0], "value") : NULL;
    snprintf(v[d], sizeof(v[d]), "%s", val ? val : "?");
    dap_reply_free(&r);
  }
  char b[100];
  snprintf(b, sizeof(b), "(%s,%s,%s)", v[0], v[1], v[2]);
  json_t *o = json_object();
  dj_sets(o, "name", name);
  dj_sets(o, "value", b);
  dj_seti(o, "variablesReference", 0);
  dj_push(list, o);
}

static void req_variables(const json_t *req, const json_t *a) {
  int64_t ref;
  if (!dj_int(a, "variablesReference", &ref)) BAD("missing 'variablesReference'");
  if (!need_stop(req)) return;
  const struct dap_vref *vp = vref_of(req, ref);
  if (!vp) return;
  struct dap_vref v = *vp;
  json_t *w = json_array();
  struct dap_reply r;
  if (v.kind == VR_PRIVATE || v.kind == VR_LOCAL || v.kind == VR_ARGS) {
    dap_query(&r, "mi vars %" PRIu64 ":%d %s", v.item, v.frame,
              v.kind == VR_PRIVATE ? "private"
              : v.kind == VR_LOCAL ? "local"
                                   : "args");
    for (size_t i = 0; i < r.nrecs; i++) {
      const char *name = dj_str(r.recs[i], "name");
      if (name) var_json(w, v.item, v.frame, name, r.recs[i], name);
    }
    dap_reply_free(&r);
  } else if (v.kind == VR_IDS) {
    dap_query(&r, "mi frame %" PRIu64, v.item);
    const json_t *f = r.nrecs ? r.recs[0] : NULL;
    id_var(w, "global id", dj_get(f, "gid"));
    id_var(w, "local id", dj_get(f, "lid"));
    id_var(w, "group id", dj_get(f, "group"));
    dap_reply_free(&r);
    size_var(w, "global size", v.item, "get_global_size");
    size_var(w, "local size", v.item, "get_local_size");
    json_t *o = json_object();
    dj_sets(o, "name", "linear index");
    char b[32];
    snprintf(b, sizeof(b), "%" PRIu64, v.item);
    dj_sets(o, "value", b);
    dj_seti(o, "variablesReference", 0);
    dj_push(w, o);
  } else if (v.vkind == 's') {
    /* a struct: its fields, by the names the engine lists */
    dap_query(&r, "mi eval %" PRIu64 ":%d %s", v.item, v.frame, v.expr);
    const json_t *fl = r.nrecs ? dj_get(r.recs[0], "fields") : NULL;
    size_t nf = json_array_size(fl);
    char(*names)[128] = calloc(nf + 1, sizeof(*names));
    if (!names) nf = 0;
    for (size_t i = 0; i < nf; i++)
      snprintf(names[i], sizeof(names[i]), "%s", json_string_value(json_array_get(fl, i)) ?: "");
    dap_reply_free(&r);
    for (size_t i = 0; i < nf; i++) {
      char expr[1300];
      child_expr(&v, names[i], expr, sizeof(expr));
      dap_query(&r, "mi eval %" PRIu64 ":%d %s", v.item, v.frame, expr);
      if (r.nrecs) var_json(w, v.item, v.frame, names[i], r.recs[0], expr);
      dap_reply_free(&r);
    }
    free(names);
  } else {
    int64_t start = 0, count = 0;
    dj_int(a, "start", &start);
    dj_int(a, "count", &count);
    if (start < 0) start = 0;
    unsigned total = v.vkind == 'p' ? 16 : v.count;
    if (count <= 0 || start + count > total) count = (int64_t)total - start;
    if (count < 0) count = 0;
    static const char *const xyzw[] = {"x", "y", "z", "w"};
    for (int64_t i = start; i < start + count; i++) {
      char name[600], expr[1300];
      if (v.vkind == 'v' && v.count <= 4)
        snprintf(name, sizeof(name), "%s", xyzw[i]);
      else if (v.vkind == 'v')
        snprintf(name, sizeof(name), "s%" PRIx64, i);
      else if (v.vkind == 'p' && i == 0)
        snprintf(name, sizeof(name), "*%s", v.expr);
      else
        snprintf(name, sizeof(name), "[%" PRId64 "]", i);
      child_expr(&v, name, expr, sizeof(expr));
      dap_query(&r, "mi eval %" PRIu64 ":%d %s", v.item, v.frame, expr);
      int bad = !r.nrecs || dj_get(r.recs[0], "error");
      if (v.vkind == 'p' && i > 0 && bad) { /* past what the pointer reaches */
        dap_reply_free(&r);
        break;
      }
      if (r.nrecs) var_json(w, v.item, v.frame, name, r.recs[0], expr);
      dap_reply_free(&r);
    }
  }
  json_t *body = json_object();
  dj_set(body, "variables", w);
  ok_body(req, body);
}

static void req_set_variable(const json_t *req, const json_t *a) {
  int64_t ref;
  const char *name = dj_str(a, "name"), *value = dj_str(a, "value");
  if (!dj_int(a, "variablesReference", &ref) || !name || !value)
    BAD("setVariable needs 'variablesReference', 'name' and 'value'");
  if (!need_stop(req)) return;
  const struct dap_vref *vp = vref_of(req, ref);
  if (!vp) return;
  struct dap_vref v = *vp;
  if (v.kind == VR_IDS) BAD("work-item ids cannot be changed");
  if (strlen(name) > DAP_MAX_EXPR / 4 || strlen(value) > DAP_MAX_EXPR)
    BAD("setVariable: the name or the value is too long");
  char lhs[DAP_MAX_EXPR / 4 + 700];
  if (v.kind == VR_VALUE)
    child_expr(&v, name[0] == '*' ? "*" : name, lhs, sizeof(lhs));
  else
    snprintf(lhs, sizeof(lhs), "%s", name);
  struct dap_reply r;
  dap_query(&r, "mi eval %" PRIu64 ":%d %s = (%s)", v.item, v.frame, lhs, value);
  const char *err = r.nrecs ? dj_str(r.recs[0], "error") : "no answer from the engine";
  if (err) {
    char m[300];
    snprintf(m, sizeof(m), "cannot set %s: %s", name, err);
    dap_reply_free(&r);
    BAD(m);
  }
  dap_reply_free(&r);
  dap_query(&r, "mi eval %" PRIu64 ":%d %s", v.item, v.frame, lhs);
  json_t *body = json_object();
  if (r.nrecs) value_fields(body, v.item, v.frame, r.recs[0], lhs, 0);
  dap_reply_free(&r);
  ok_body(req, body);
}

/* Without a frame: the work-item of the last stop, or of another stopped
 * launch when that one runs again; its launch becomes the focus. */
static int focus_default(uint64_t *item) {
  const struct dap_kl *k = dap_kl_find(D.focus_num);
  for (size_t i = 0; (!k || k->running) && i < D.nkls; i++)
    k = &D.kls[i];
  if (!k || k->running || dap_focus(k->num)) return -1;
  if (k->num != D.focus_num) {
    D.focus_num = k->num;
    D.focus = k->item;
  }
  *item = D.focus;
  return 0;
}

/* After a command of `lockstep debug`, which may have moved the focus
 * (`kernel N`, `workitem ...`) and so shown a stop or a launch's start:
 * that stop reported, and the focus is what an evaluate without a frame
 * works on from now on. */
static void exec_done(struct dap_reply *r) {
  int shows = 0;
  for (size_t i = 0; i < r->nrecs; i++)
    shows |= dj_get(r->recs[i], "stop") || dj_get(r->recs[i], "launch");
  json_t *ks = dap_kernels(); /* sets D.cur */
  unsigned cur = 0;
  int64_t item = 0;
  for (size_t i = 0; !cur && i < json_array_size(ks); i++) {
    const json_t *k = json_array_get(ks, i);
    int64_t c = 0, n = 0;
    if (dj_int(k, "current", &c) && c && dj_int(k, "num", &n) && n > 0 && n <= UINT32_MAX) {
      cur = (unsigned)n; /* maybe a launch at its start, no stopped one */
      dj_int(k, "item", &item);
    }
  }
  json_decref(ks);
  r->pre = 0; /* its text is the evaluate's result */
  if (cur && shows) dap_absorb_shown(r, cur, 1);
  const struct dap_kl *k = cur && cur == D.cur ? dap_kl_find(cur) : NULL;
  if (k && !k->running && D.prompting) {
    D.focus_num = cur;
    D.focus = (uint64_t)item;
  }
}

static void req_evaluate(const json_t *req, const json_t *a) {
  const char *expr = dj_str(a, "expression"), *ctx = dj_str(a, "context");
  if (!expr) BAD("evaluate needs an 'expression'");
  if (strlen(expr) > DAP_MAX_EXPR) BAD("evaluate: the expression is too long");
  if (!need_stop(req)) return;
  uint64_t item;
  int frame = 0;
  int64_t f;
  if (dj_int(a, "frameId", &f) && f >= 1) {
    if (!frame_item(req, a, &item, &frame)) return;
  } else if (focus_default(&item)) {
    BAD("no kernel is stopped");
  }
  struct dap_reply r;
  json_t *body;
  if (!strncmp(expr, "-exec ", 6) && (!ctx || !strcmp(ctx, "repl"))) {
    /* a command of `lockstep debug`, shown as its text; not one that runs */
    const char *c = expr + 6;
    static const struct {
      const char *full;
      size_t min;
    } runs[] = {{"continue", 1}, {"step", 1},  {"next", 1},  {"finish", 3},
                {"until", 1},    {"run", 1},   {"start", 5}, {"quit", 1},
                {"tbreak", 2},   {"break", 1}, {"delete", 1}};
    size_t n = strcspn(c, " /");
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
      if (n >= runs[i].min && n <= strlen(runs[i].full) && !strncmp(c, runs[i].full, n))
        BAD("-exec runs commands that inspect or edit; use the debugger's own buttons and "
            "breakpoints to run, step and break");
    dap_query(&r, "%s", c);
    body = json_object();
    dj_sets(body, "result", r.text);
    dj_seti(body, "variablesReference", 0);
    ok_body(req, body);
    exec_done(&r);
    dap_reply_free(&r);
    return;
  }
  /* hovering or watching must not change the program: an assignment runs
   * only from the debug console */
  int sets = 0;
  for (const char *p = expr; *p && !sets; p++)
    sets = *p == '=' && p[1] != '=' && (p == expr || !strchr("=!<>", p[-1]));
  if (sets && ctx && (!strcmp(ctx, "hover") || !strcmp(ctx, "watch")))
    BAD("an assignment is evaluated only in the debug console (a hover or a watch does not "
        "change the program)");
  dap_query(&r, "mi eval %" PRIu64 ":%d %s", item, frame, expr);
  const char *err = r.nrecs ? dj_str(r.recs[0], "error") : "no answer from the engine";
  if (err) {
    char m[300];
    snprintf(m, sizeof(m), "%s", err);
    dap_reply_free(&r);
    BAD(m);
  }
  body = json_object();
  value_fields(body, item, frame, r.recs[0], expr, 1);
  dap_reply_free(&r);
  ok_body(req, body);
}

/* ---- memory ---- */

/* ADDR@LAUNCH:ITEM (as variables give it), ADDR@ITEM of the launch of the
 * last stop, or ADDR alone (its work-item too); 0 when it is none. */
static int mem_ref(const char *ref, uint64_t *addr, unsigned *num, uint64_t *item) {
  if (!ref) return 0;
  char *end;
  *addr = strtoull(ref, &end, 0);
  if (end == ref) return 0;
  *num = D.focus_num;
  *item = D.focus;
  if (*end == '@') {
    const char *p = end + 1;
    uint64_t v = strtoull(p, &end, 10);
    if (end == p) return 0;
    if (*end == ':') {
      p = end + 1;
      *num = v > UINT32_MAX ? 0 : (unsigned)v;
      v = strtoull(p, &end, 10);
      if (end == p) return 0;
    }
    *item = v;
  }
  return *end == 0;
}

/* Makes the launch of a memory reference the focus (after need_stop);
 * else answers that it is not stopped. */
static int mem_focus(const json_t *req, unsigned num) {
  const struct dap_kl *k = dap_kl_find(num);
  if (k && !k->running && !dap_focus(num)) return 1;
  dap_respond(req, 0, "the launch of that memory reference is not stopped", NULL);
  return 0;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void req_read_memory(const json_t *req, const json_t *a) {
  uint64_t addr, item;
  unsigned num;
  int64_t off = 0, count;
  if (!mem_ref(dj_str(a, "memoryReference"), &addr, &num, &item) || !dj_int(a, "count", &count) ||
      count < 0)
    BAD("readMemory needs a 'memoryReference' (as variables give) and a 'count'");
  dj_int(a, "offset", &off);
  if (!need_stop(req) || !mem_focus(req, num)) return;
  if (count > 65536) count = 65536;
  uint8_t *data = malloc((size_t)count + 1);
  if (!data) BAD("out of memory");
  int64_t got = 0;
  while (got < count) {
    struct dap_reply r;
    int64_t chunk = count - got > 1024 ? 1024 : count - got;
    dap_query(&r, "mi read %" PRIu64 " 0x%" PRIx64 " %" PRId64, item, addr + (uint64_t)(off + got),
              chunk);
    const char *hex = r.nrecs ? dj_str(r.recs[0], "hex") : NULL;
    int64_t n = hex ? (int64_t)strlen(hex) / 2 : 0;
    for (int64_t i = 0; i < n; i++) {
      char b[3] = {hex[2 * i], hex[2 * i + 1], 0};
      data[got + i] = (uint8_t)strtoul(b, NULL, 16);
    }
    dap_reply_free(&r);
    got += n;
    if (n < chunk) break;
  }
  size_t elen = ((size_t)got + 2) / 3 * 4;
  char *enc = malloc(elen + 1);
  size_t e = 0;
  for (int64_t i = 0; enc && i < got; i += 3) {
    uint32_t v = (uint32_t)data[i] << 16;
    if (i + 1 < got) v |= (uint32_t)data[i + 1] << 8;
    if (i + 2 < got) v |= data[i + 2];
    enc[e++] = b64[(v >> 18) & 63];
    enc[e++] = b64[(v >> 12) & 63];
    enc[e++] = i + 1 < got ? b64[(v >> 6) & 63] : '=';
    enc[e++] = i + 2 < got ? b64[v & 63] : '=';
  }
  if (enc) enc[e] = 0;
  json_t *body = json_object();
  char at[32];
  snprintf(at, sizeof(at), "0x%" PRIx64, addr + (uint64_t)off);
  dj_sets(body, "address", at);
  dj_sets(body, "data", enc);
  if (got < count) dj_seti(body, "unreadableBytes", count - got);
  free(enc);
  free(data);
  ok_body(req, body);
}

static void req_write_memory(const json_t *req, const json_t *a) {
  uint64_t addr, item;
  unsigned num;
  int64_t off = 0;
  const char *data = dj_str(a, "data");
  if (!mem_ref(dj_str(a, "memoryReference"), &addr, &num, &item) || !data)
    BAD("writeMemory needs a 'memoryReference' and base64 'data'");
  dj_int(a, "offset", &off);
  if (!need_stop(req) || !mem_focus(req, num)) return;
  size_t n = strlen(data);
  uint8_t *bytes = malloc(n + 1);
  size_t nb = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; bytes && i < n && data[i] != '='; i++) {
    const char *p = strchr(b64, data[i]);
    if (!p || !data[i]) {
      free(bytes);
      BAD("writeMemory: 'data' is not base64");
    }
    acc = (acc << 6) | (uint32_t)(p - b64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[nb++] = (uint8_t)(acc >> bits);
    }
  }
  if (!bytes) BAD("out of memory");
  size_t done = 0;
  while (done < nb) {
    size_t chunk = nb - done > 1024 ? 1024 : nb - done;
    char *hex = malloc(chunk * 2 + 1);
    if (!hex) break;
    for (size_t i = 0; i < chunk; i++)
      snprintf(hex + 2 * i, 3, "%02x", bytes[done + i]);
    struct dap_reply r;
    dap_query(&r, "mi write %" PRIu64 " 0x%" PRIx64 " %s", item,
              addr + (uint64_t)off + (uint64_t)done, hex);
    free(hex);
    int64_t wr = 0;
    if (r.nrecs) dj_int(r.recs[0], "written", &wr);
    dap_reply_free(&r);
    done += (size_t)wr;
    if ((size_t)wr < chunk) break;
  }
  free(bytes);
  if (done < nb && done == 0) BAD("cannot write memory at that address");
  json_t *body = json_object();
  dj_seti(body, "bytesWritten", (int64_t)done);
  ok_body(req, body);
}

/* ---- data breakpoints (engine watchpoints) ---- */

/* dataId "LAUNCH:ITEM:EXPR": an expression of one work-item. */
static void req_data_bp_info(const json_t *req, const json_t *a) {
  const char *name = dj_str(a, "name");
  int64_t ref = 0;
  if (!name) BAD("dataBreakpointInfo needs 'name'");
  json_t *body = json_object();
  char expr[600] = "";
  uint64_t item = D.focus;
  unsigned num = D.focus_num;
  const char *why = NULL;
  if (!dap_nstopped()) {
    why = "data breakpoints can be set while a kernel is stopped";
  } else if (dj_int(a, "variablesReference", &ref) && ref) {
    if (ref < 1 || (size_t)ref > D.nvrefs || D.vrefs[ref - 1].kind == VR_GONE) {
      why = "unknown variablesReference";
    } else {
      struct dap_vref v = D.vrefs[ref - 1];
      item = v.item;
      num = v.num;
      if (v.kind == VR_IDS)
        why = "work-item ids do not change";
      else if (v.kind == VR_VALUE)
        child_expr(&v, name, expr, sizeof(expr));
      else
        snprintf(expr, sizeof(expr), "%s", name);
    }
  } else {
    snprintf(expr, sizeof(expr), "%s", name);
  }
  if (!why && strlen(expr) + 1 >= sizeof(expr)) why = "the expression is too long to watch";
  if (why) {
    dj_set(body, "dataId", json_null());
    dj_sets(body, "description", why);
  } else {
    char id[660], desc[720];
    snprintf(id, sizeof(id), "%u:%" PRIu64 ":%s", num, item, expr);
    snprintf(desc, sizeof(desc), "%s (kernel #%u, work-item %" PRIu64 ")", expr, num, item);
    dj_sets(body, "dataId", id);
    dj_sets(body, "description", desc);
    json_t *types = json_array();
    dj_push(types, json_string("write"));
    dj_set(body, "accessTypes", types);
    dj_setb(body, "canPersist", 0);
  }
  ok_body(req, body);
}

/* Replaces every data breakpoint: the engine watches each expression for
 * its work-item until the item finishes or the launch ends. */
static void req_set_data_bps(const json_t *req, const json_t *a) {
  const json_t *list = dj_get(a, "breakpoints");
  if (!json_is_array(list)) BAD("setDataBreakpoints needs a 'breakpoints' array");
  struct dap_reply r;
  for (int i = 0; dap_nstopped() && D.prompting && i < D.ndbps; i++) {
    dap_query(&r, "delete %d", D.dbps[i].engine_id);
    dap_reply_free(&r);
  }
  D.ndbps = 0;
  json_t *out = json_array();
  for (size_t i = 0; i < json_array_size(list); i++) {
    const json_t *b = json_array_get(list, i);
    const char *id = dj_str(b, "dataId"), *acc = dj_str(b, "accessType");
    unsigned num = 0;
    uint64_t item = 0;
    int at = 0;
    if (!id || sscanf(id, "%u:%" SCNu64 ":%n", &num, &item, &at) != 2 || !at || !id[at]) at = 0;
    char msg[300] = "";
    int eid = 0;
    const struct dap_kl *k = dap_kl_find(num);
    if (!at)
      snprintf(msg, sizeof(msg), "bad dataId: use the one dataBreakpointInfo gives");
    else if (acc && strcmp(acc, "write"))
      snprintf(msg, sizeof(msg), "only writes can be watched");
    else if (dj_str(b, "condition") || dj_str(b, "hitCondition"))
      snprintf(msg, sizeof(msg), "data breakpoints take no condition");
    else if (!k || k->running || !D.prompting || dap_focus(num))
      snprintf(msg, sizeof(msg), "data breakpoints can be set while their kernel is stopped");
    else if (D.ndbps == DAP_MAX_DBPS)
      snprintf(msg, sizeof(msg), "too many data breakpoints");
    if (!msg[0]) {
      dap_query(&r, "mi focus %" PRIu64, item);
      dap_reply_free(&r);
      dap_query(&r, "watch %s", id + at);
      if (!r.text || sscanf(r.text, "Watchpoint %d:", &eid) != 1 || eid <= 0)
        snprintf(msg, sizeof(msg), "%.*s", r.text ? (int)strcspn(r.text, "\n") : 0,
                 r.text ? r.text : "");
      dap_reply_free(&r);
      dap_query(&r, "mi focus %" PRIu64, k->item); /* as its stop left it */
      dap_reply_free(&r);
    }
    json_t *o = json_object();
    if (eid > 0) {
      D.dbps[D.ndbps].engine_id = eid;
      D.dbps[D.ndbps].id = D.next_bp_id++;
      dj_seti(o, "id", D.dbps[D.ndbps].id);
      D.ndbps++;
      dj_setb(o, "verified", 1);
    } else {
      dj_setb(o, "verified", 0);
      dj_sets(o, "message", msg[0] ? msg : "cannot watch that expression");
    }
    dj_push(out, o);
  }
  json_t *body = json_object();
  dj_set(body, "breakpoints", out);
  ok_body(req, body);
}

/* ---- running ---- */

/* Runs the thread's launch on (only that one: the others stay stopped),
 * its work-item the focus. */
static void req_step(const json_t *req, const json_t *a, const char *engine_cmd) {
  if (!need_stop(req)) return;
  uint64_t item;
  unsigned num;
  if (!item_of_thread(req, a, &num, &item)) return;
  struct dap_reply r;
  dap_query(&r, "mi focus %" PRIu64, item);
  dap_reply_free(&r);
  json_t *body = NULL;
  if (!strcmp(engine_cmd, "continue")) {
    body = json_object();
    dj_setb(body, "allThreadsContinued", 0);
  }
  dap_respond(req, 1, NULL, body);
  D.user_num = num;
  dap_resume_launch(num, engine_cmd);
}

static void req_launch(const json_t *req, const json_t *a) {
  if (D.launched) BAD("a program is already launched");
  const char *program = dj_str(a, "program");
  if (!program || !*program) BAD("launch needs 'program': the host program to run");
  const json_t *args = dj_get(a, "args"), *env = dj_get(a, "env");
  if (args && !json_is_array(args)) BAD("launch: 'args' must be an array of strings");
  for (size_t i = 0; i < json_array_size(args); i++)
    if (!json_is_string(json_array_get(args, i))) BAD("launch: 'args' must be an array of strings");
  if (env && !json_is_object(env) && !json_is_null(env))
    BAD("launch: 'env' must be an object of strings");
  const char *name;
  json_t *val;
  json_object_foreach((json_t *)env, name, val) {
    if (!json_is_string(val) && !json_is_null(val))
      BAD("launch: each value of 'env' must be a string (or null to unset the variable)");
    if (!name[0] || strchr(name, '='))
      BAD("launch: an 'env' name must be non-empty and hold no '='");
  }
  const char *cwd = dj_str(a, "cwd");
  if (dj_get(a, "cwd") && !cwd) BAD("launch: 'cwd' must be a string");
  if (cwd && strlen(cwd) >= sizeof(D.cwd)) BAD("launch: 'cwd' is too long");
  if (cwd && access(cwd, X_OK)) BAD("launch: 'cwd' is not a folder that can be entered");
  if (cwd)
    snprintf(D.cwd, sizeof(D.cwd), "%s", cwd);
  else if (!getcwd(D.cwd, sizeof(D.cwd)))
    D.cwd[0] = 0;
  int soe = 0;
  if (dj_bool(a, "stopOnEntry", &soe)) D.stop_on_entry = soe;
  const json_t *wi = dj_get(a, "workItem");
  if (wi) {
    if (json_array_size(wi) < 1 || json_array_size(wi) > 3)
      BAD("launch: 'workItem' must be [x], [x, y] or [x, y, z] global ids");
    int64_t g[3] = {0, 0, 0};
    for (size_t i = 0; i < json_array_size(wi); i++)
      if (!dj_as_int(json_array_get(wi, i), &g[i]) || g[i] < 0)
        BAD("launch: 'workItem' must hold non-negative integers");
    for (size_t i = 0; i < 3; i++)
      D.focus_gid[i] = (uint64_t)g[i];
    D.have_focus_item = 1;
  }
  const json_t *dirs = dj_get(a, "sourceDirs");
  if (dirs && !json_is_array(dirs)) BAD("launch: 'sourceDirs' must be an array of folders");
  for (size_t i = 0; i < json_array_size(dirs); i++)
    if (!json_is_string(json_array_get(dirs, i)))
      BAD("launch: 'sourceDirs' must be an array of folders");
  for (size_t i = 0; i < json_array_size(dirs) && D.ndirs < DAP_MAX_DIRS; i++)
    D.dirs[D.ndirs++] = strdup(json_string_value(json_array_get(dirs, i)));
  /* 'check': the checkers of LOCKSTEP_CHECK, each report a stop */
  const char *check = dj_str(a, "check");
  if (dj_get(a, "check") && !check) BAD("launch: 'check' must be a string (races,uninit)");
  char err[512], note[64];
  unsigned mask;
  if (check && dev_check_parse(check, &mask, err, sizeof(err), note, sizeof(note))) BAD(err);
  json_t *envc = env && json_is_object(env) ? json_deep_copy(env) : json_object();
  if (check) json_object_set_new(envc, "LOCKSTEP_CHECK", json_string(check));
  int bad = dap_spawn(program, args, envc, err, sizeof(err));
  json_decref(envc);
  if (bad) BAD(err);
  D.launched = 1;
  dap_respond(req, 1, NULL, NULL);
}

/* The capabilities are the engine's command table's (dbg_dap_capability),
 * and what the adapter itself must say: it steps by statement only. */
static void req_initialize(const json_t *req) {
  json_t *body = json_object();
  for (unsigned i = 0; dbg_dap_capability(i); i++)
    dj_setb(body, dbg_dap_capability(i), 1);
  dj_setb(body, "supportsSteppingGranularity", 0);
  dap_respond(req, 1, NULL, body);
  dap_event("initialized", NULL);
}

void dap_request(const json_t *req) {
  const char *c = cmd_of(req);
  const json_t *a = args_of(req);
  const json_t *raw = dj_get(req, "arguments");
  if (raw && !a) BAD("'arguments' must be an object");
  if (dap_defer(req)) return; /* the engine runs a launch; it prompts again soon */
  if (!strcmp(c, "initialize")) {
    req_initialize(req);
  } else if (!strcmp(c, "launch")) {
    req_launch(req, a);
  } else if (!strcmp(c, "attach")) {
    BAD("attach is not supported: use launch with the host program");
  } else if (!strcmp(c, "setBreakpoints")) {
    req_set_breakpoints(req, a);
  } else if (!strcmp(c, "setFunctionBreakpoints")) {
    req_set_function_bps(req, a);
  } else if (!strcmp(c, "setExceptionBreakpoints")) {
    json_t *body = json_object();
    dj_set(body, "breakpoints", json_array());
    dap_respond(req, 1, NULL, body);
  } else if (!strcmp(c, "configurationDone")) {
    D.configured = 1;
    dap_respond(req, 1, NULL, NULL);
    if (D.prompting && !D.started) dap_engine_setup();
  } else if (!strcmp(c, "threads")) {
    req_threads(req);
  } else if (!strcmp(c, "stackTrace")) {
    req_stack(req, a);
  } else if (!strcmp(c, "scopes")) {
    req_scopes(req, a);
  } else if (!strcmp(c, "variables")) {
    req_variables(req, a);
  } else if (!strcmp(c, "setVariable")) {
    req_set_variable(req, a);
  } else if (!strcmp(c, "evaluate")) {
    req_evaluate(req, a);
  } else if (!strcmp(c, "readMemory")) {
    req_read_memory(req, a);
  } else if (!strcmp(c, "writeMemory")) {
    req_write_memory(req, a);
  } else if (!strcmp(c, "continue")) {
    req_step(req, a, "continue");
  } else if (!strcmp(c, "next")) {
    req_step(req, a, "next");
  } else if (!strcmp(c, "stepIn")) {
    req_step(req, a, "step");
  } else if (!strcmp(c, "stepOut")) {
    req_step(req, a, "finish");
  } else if (!strcmp(c, "dataBreakpointInfo")) {
    req_data_bp_info(req, a);
  } else if (!strcmp(c, "setDataBreakpoints")) {
    req_set_data_bps(req, a);
  } else if (!strcmp(c, "pause")) {
    if (!dap_nstopped() || !D.prompting) {
      /* the next launch stops at entry; one running stops where it is
       * (while the engine prompts for a stop, none runs) */
      D.pause_pending = 1;
      if (D.started && !D.prompting) dap_interrupt();
    }
    dap_respond(req, 1, NULL, NULL);
  } else if (!strcmp(c, "exceptionInfo")) {
    int64_t t = 0;
    unsigned num = D.focus_num;
    uint64_t item;
    if (dj_int(a, "threadId", &t) && !dap_tid_split(t, &num, &item)) num = 0;
    const struct dap_kl *k = dap_kl_find(num);
    const char *exc = k && !k->running ? dj_str(k->stop, "exception") : NULL;
    if (!exc) BAD("not stopped on a device exception");
    json_t *body = json_object();
    const char *chk = dj_str(k->stop, "check");
    dj_sets(body, "exceptionId",
            chk && !strcmp(chk, "races")     ? "data race"
            : chk && !strcmp(chk, "uninit")  ? "uninitialised value"
            : strncmp(exc, "Assertion ", 10) ? "device exception"
                                             : "assertion");
    dj_sets(body, "description", exc);
    dj_sets(body, "breakMode", "always");
    ok_body(req, body);
  } else if (!strcmp(c, "terminate")) {
    dap_respond(req, 1, NULL, NULL);
    dap_kill(SIGTERM);
  } else if (!strcmp(c, "disconnect")) {
    int term = 1;
    dj_bool(a, "terminateDebuggee", &term);
    dap_respond(req, 1, NULL, NULL);
    if (term) dap_kill(SIGKILL);
    D.quit = 1;
  } else {
    char m[200];
    snprintf(m, sizeof(m), "unknown or unsupported request '%.100s'", c);
    BAD(m);
  }
}
