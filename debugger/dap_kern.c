/*
 * dap_kern.c - the DAP adapter's view of the launches the engine stopped
 * (debugger/README.md, "Several launches"). Any number of launches can be
 * stopped at once; the engine reports their stops one at a time and works
 * on one of them, its focus. Here each stop becomes its own `stopped`
 * event, each work-item of every stopped launch a thread (the id names the
 * launch and the work-item), and a request for a thread first makes its
 * launch the engine's focus (`mi kernel N`). Stops the engine has not
 * shown yet while it prompts (it says `waiting`) are shown with `kernel N`.
 *
 * It talks to the engine only through dap_query and dap_resume; it must not
 * read or write file descriptors itself.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dap.h"

/* ---- thread ids ---- */

int64_t dap_tid(unsigned num, uint64_t item) {
  return (int64_t)((uint64_t)num * DAP_TID_ITEMS + item + 1);
}

int dap_tid_split(int64_t tid, unsigned *num, uint64_t *item) {
  if (tid < 1) return 0;
  uint64_t t = (uint64_t)tid - 1;
  *num = (unsigned)(t / DAP_TID_ITEMS);
  *item = t % DAP_TID_ITEMS;
  return *num > 0;
}

void dap_ids_text(char *buf, size_t n, const char *what, const json_t *ids) {
  uint64_t v[3] = {0, 0, 0};
  for (size_t i = 0; i < 3 && i < json_array_size(ids); i++) {
    int64_t x = 0;
    dj_as_int(json_array_get(ids, i), &x);
    v[i] = (uint64_t)x;
  }
  snprintf(buf, n, "%s (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")", what, v[0], v[1], v[2]);
}

/* ---- the launches the client knows ---- */

struct dap_kl *dap_kl_find(unsigned num) {
  for (size_t i = 0; i < D.nkls; i++)
    if (D.kls[i].num == num) return &D.kls[i];
  return NULL;
}

static struct dap_kl *kl_add(unsigned num) {
  if (D.nkls == D.cap_kls) {
    size_t nc = D.cap_kls ? D.cap_kls * 2 : 16;
    struct dap_kl *k = realloc(D.kls, nc * sizeof(*k));
    if (!k) return NULL;
    D.kls = k;
    D.cap_kls = nc;
  }
  struct dap_kl *k = &D.kls[D.nkls++];
  memset(k, 0, sizeof(*k));
  k->num = num;
  return k;
}

static void kl_remove(size_t i) {
  json_decref(D.kls[i].stop);
  free(D.kls[i].tids);
  memmove(&D.kls[i], &D.kls[i + 1], (D.nkls - i - 1) * sizeof(D.kls[0]));
  D.nkls--;
}

void dap_kls_clear(void) {
  while (D.nkls)
    kl_remove(D.nkls - 1);
}

size_t dap_nstopped(void) {
  size_t n = 0;
  for (size_t i = 0; i < D.nkls; i++)
    n += !D.kls[i].running;
  return n;
}

/* Remembers the thread ids the client was given for k. */
static void kl_tids(struct dap_kl *k, const int64_t *tids, size_t n) {
  free(k->tids);
  k->tids = n ? malloc(n * sizeof(*tids)) : NULL;
  k->ntids = k->tids ? n : 0;
  if (k->tids) memcpy(k->tids, tids, n * sizeof(*tids));
}

/* k's launch ended: its threads are gone. */
static void kl_exited(const struct dap_kl *k) {
  int64_t focus = dap_tid(k->num, k->item);
  int told = 0;
  for (size_t i = 0; i <= k->ntids; i++) {
    int64_t t = i < k->ntids ? k->tids[i] : focus;
    if (i == k->ntids && told) break;
    told |= t == focus;
    json_t *b = json_object();
    dj_sets(b, "reason", "exited");
    dj_seti(b, "threadId", t);
    dap_event("thread", b);
  }
}

/* ---- the engine's list of launches ---- */

struct kinfo {
  unsigned num;
  const char *kernel, *state, *reason;
  int shown, current;
};

static void kinfo(const json_t *k, struct kinfo *o) {
  int64_t n = 0, shown = 0, cur = 0;
  dj_int(k, "num", &n);
  dj_int(k, "shown", &shown);
  dj_int(k, "current", &cur);
  o->num = n > 0 && n <= UINT32_MAX ? (unsigned)n : 0;
  o->kernel = dj_str(k, "kernel") ? dj_str(k, "kernel") : "";
  o->state = dj_str(k, "state") ? dj_str(k, "state") : "";
  o->reason = dj_str(k, "reason") ? dj_str(k, "reason") : "";
  o->shown = shown != 0;
  o->current = cur != 0;
}

/* Stopped, its stop shown, and not waiting at its start: its work-items
 * are threads. */
static int is_stopped(const struct kinfo *k) {
  return k->num && k->shown && !strcmp(k->state, "stopped") && strcmp(k->reason, "launch");
}

json_t *dap_kernels(void) {
  struct dap_reply r;
  dap_query(&r, "mi kernels");
  json_t *ks = NULL;
  for (size_t i = 0; i < r.nrecs && !ks; i++)
    if (json_is_array(dj_get(r.recs[i], "kernels"))) ks = json_incref(dj_get(r.recs[i], "kernels"));
  dap_reply_free(&r);
  D.cur = 0;
  size_t i;
  json_t *k;
  json_array_foreach(ks, i, k) {
    struct kinfo ki;
    kinfo(k, &ki);
    if (ki.current && is_stopped(&ki)) D.cur = ki.num;
  }
  return ks;
}

int dap_focus(unsigned num) {
  if (!num) return -1;
  if (D.cur == num) return 0;
  struct dap_reply r;
  dap_query(&r, "mi kernel %u", num);
  int64_t k = 0;
  int ok = r.nrecs && dj_int(r.recs[0], "kernel", &k) && k == (int64_t)num;
  dap_reply_free(&r);
  if (ok) D.cur = num; /* else the engine's focus did not change */
  return ok ? 0 : -1;
}

/* ---- stops ---- */

/* Whether the breakpoint a stop names lets it stop (its hit condition,
 * which the adapter counts). */
static int hit_says_stop(const json_t *stop) {
  const char *reason = dj_str(stop, "stop");
  int64_t bp = 0;
  dj_int(stop, "bp", &bp);
  if (!reason || strcmp(reason, "breakpoint") || !bp) return 1;
  for (int i = 0; i < D.nbps; i++) {
    struct dap_bp *b = &D.bps[i];
    if (b->engine_id != bp) continue;
    b->hits++;
    if (!b->hit[0]) continue;
    const char *h = b->hit;
    while (*h == ' ')
      h++;
    char op[3] = "";
    int k = 0;
    while (k < 2 && strchr("<>=%", h[k]))
      op[k] = h[k], k++;
    op[k] = 0;
    long n = strtol(h + k, NULL, 10);
    int go = !strcmp(op, "%")                        ? n > 0 && b->hits % n == 0
             : !strcmp(op, ">")                      ? b->hits > n
             : !strcmp(op, "<")                      ? b->hits < n
             : !strcmp(op, "<=")                     ? b->hits <= n
             : !strcmp(op, "==") || !strcmp(op, "=") ? b->hits == n
                                                     : b->hits >= n;
    if (!go) return 0;
  }
  return 1;
}

/* The `stopped` event of k's stop. preserve: the client is looking at
 * another stopped launch and need not move to this one (which it did not
 * run itself). */
static void report_stop(const struct dap_kl *k, int preserve) {
  const json_t *stop = k->stop;
  const char *why = dj_str(stop, "stop");
  const char *exc = dj_str(stop, "exception"), *chk = dj_str(stop, "check");
  const char *reason = !why                         ? "step"
                       : !strcmp(why, "breakpoint") ? "breakpoint"
                       : !strcmp(why, "exception")  ? "exception"
                       : !strcmp(why, "watch")      ? "data breakpoint"
                       : !strcmp(why, "pause")      ? "pause"
                       : !strcmp(why, "entry")      ? (D.pause_pending ? "pause" : "entry")
                                                    : "step";
  D.pause_pending = 0;
  char g[64], l[64], desc[300];
  dap_ids_text(g, sizeof(g), "work-item", dj_get(stop, "gid"));
  dap_ids_text(l, sizeof(l), "local", dj_get(stop, "lid"));
  int64_t lanes = 0;
  dj_int(stop, "warp_items", &lanes);
  snprintf(desc, sizeof(desc), "%s #%u %s %s", k->kernel, k->num, g, l);
  if (lanes > 1) /* one stop for the lanes of a warp that stopped together */
    snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
             " (with %lld work-items of its warp)", (long long)lanes - 1);
  json_t *ev = json_object();
  dj_sets(ev, "reason", reason);
  dj_seti(ev, "threadId", dap_tid(k->num, k->item));
  dj_setb(ev, "allThreadsStopped", 0); /* other launches go on */
  if (preserve) dj_setb(ev, "preserveFocusHint", 1);
  dj_sets(ev, "description",
          !exc                              ? desc
          : chk && !strcmp(chk, "races")    ? "Paused on a data race"
          : chk                             ? "Paused on an uninitialised value"
          : !strncmp(exc, "Assertion ", 10) ? "Paused on a failed assertion"
                                            : "Paused on a device exception");
  if (exc) dj_sets(ev, "text", exc);
  int64_t bp = 0;
  if (dj_int(stop, "bp", &bp) && bp) {
    json_t *ids = json_array();
    int watch = why && !strcmp(why, "watch");
    for (int i = 0; !watch && i < D.nbps; i++)
      if (D.bps[i].engine_id == bp) dj_push(ids, json_integer(D.bps[i].id));
    for (int i = 0; watch && i < D.ndbps; i++)
      if (D.dbps[i].engine_id == bp) dj_push(ids, json_integer(D.dbps[i].id));
    dj_set(ev, "hitBreakpointIds", ids);
  }
  dap_event("stopped", ev);
}

void dap_stop_seen(unsigned num, json_t *rec, int asked) {
  if (!hit_says_stop(rec)) {
    json_decref(rec);
    dap_resume_launch(num, "continue");
    return;
  }
  struct dap_kl *k = dap_kl_find(num);
  if (!k) k = kl_add(num);
  if (!k) {
    json_decref(rec);
    return;
  }
  int preserve = !asked && num != D.user_num && dap_nstopped() > !k->running;
  json_decref(k->stop);
  k->stop = rec;
  k->running = 0;
  int64_t it = 0;
  dj_int(rec, "item", &it);
  k->item = (uint64_t)it;
  snprintf(k->kernel, sizeof(k->kernel), "%s", dj_str(rec, "kernel") ? dj_str(rec, "kernel") : "");
  if (!preserve || !D.focus_num) {
    D.focus_num = num;
    D.focus = k->item;
  }
  report_stop(k, preserve);
}

void dap_resume_launch(unsigned num, const char *cmd) {
  struct dap_kl *k = dap_kl_find(num);
  if (k) k->running = 1;
  dap_refs_drop(num);
  dap_resume(cmd);
}

const char *dap_launch_go(void) {
  int entry = D.pause_pending || (D.stop_on_entry && !D.first_launch_seen);
  D.first_launch_seen = 1;
  return entry ? "step" : "continue";
}

/* The state `mi kernels` gives launch num, NULL when it is not open. */
static const char *state_of(const json_t *ks, unsigned num) {
  size_t i;
  json_t *k;
  json_array_foreach(ks, i, k) {
    struct kinfo ki;
    kinfo(k, &ki);
    if (ki.num == num) return ki.state;
  }
  return NULL;
}

void dap_after_prompt(void) {
  json_t *ks = dap_kernels();
  if (!ks) return;
  for (size_t i = 0; i < D.nkls;) {
    const char *st = state_of(ks, D.kls[i].num);
    if (st && strcmp(st, "finished")) {
      i++;
      continue;
    }
    kl_exited(&D.kls[i]);
    kl_remove(i);
  }
  if (D.focus_num && !dap_kl_find(D.focus_num)) D.focus_num = D.cur;
  struct dap_kl *f = D.cur ? dap_kl_find(D.cur) : NULL;
  if (f && D.focus_num == D.cur) D.focus = f->item;
  json_decref(ks);
}

int dap_absorb_shown(struct dap_reply *r, unsigned num, int asked) {
  /* what the launch printed before its stop (the switch itself aside) */
  for (size_t p = 0; r->text && p < r->pre;) {
    char *e = strchr(r->text + p, '\n');
    size_t n = e ? (size_t)(e - r->text - p) : strlen(r->text + p);
    if (n && strncmp(r->text + p, "[Switching to kernel ", 21)) {
      char *t = strndup(r->text + p, n);
      if (t) dap_engine_text(t);
      free(t);
    }
    p += n + 1;
  }
  json_t *stop = NULL, *launch = NULL;
  for (size_t i = 0; i < r->nrecs; i++) {
    if (!stop && dj_get(r->recs[i], "stop")) stop = r->recs[i];
    if (!launch && dj_get(r->recs[i], "launch")) launch = r->recs[i];
  }
  dap_bps_from_records(r->recs, r->nrecs, 1);
  if (launch) { /* it waited at its start: it goes on */
    json_decref(D.launch);
    D.launch = json_incref(launch);
    D.cur = num;
    dap_resume(dap_launch_go());
    return 1;
  }
  if (!stop) return 0;
  D.cur = num;
  dap_stop_seen(num, json_incref(stop), asked);
  return !D.prompting;
}

void dap_serve_waiting(void) {
  D.waiting = 0;
  unsigned back = 0, last = 0;
  int showed = 0;
  while (D.prompting) {
    json_t *ks = dap_kernels();
    if (!ks) return;
    if (!showed) back = D.cur;
    unsigned n = 0;
    size_t i;
    json_t *k;
    json_array_foreach(ks, i, k) {
      struct kinfo ki;
      kinfo(k, &ki);
      if (!n && ki.num && !ki.shown && !strcmp(ki.state, "stopped")) n = ki.num;
    }
    json_decref(ks);
    if (!n || n == last) break; /* none, or `kernel N` did not show it */
    last = n;
    struct dap_reply r;
    dap_query(&r, "kernel %u", n);
    D.cur = 0;
    showed = 1;
    int resumed = dap_absorb_shown(&r, n, 0);
    dap_reply_free(&r);
    if (resumed) return;
  }
  if (showed && back && D.prompting) dap_focus(back);
}

/* ---- threads ---- */

struct tl {
  unsigned num;
  char kernel[128];
};

static int tl_order(const void *a, const void *b) {
  const struct tl *x = a, *y = b;
  int c = strcmp(x->kernel, y->kernel);
  return c ? c : (x->num > y->num) - (x->num < y->num);
}

/* The threads of one stopped launch (the engine's focus): its focused
 * work-group's work-items and one in-progress work-item per other group. */
static void launch_threads(json_t *threads, const struct tl *t) {
  struct dap_reply r;
  dap_query(&r, "mi threads");
  int64_t *tids = calloc(r.nrecs + 1, sizeof(*tids));
  size_t n = 0;
  for (size_t i = 0; i < r.nrecs; i++) {
    int64_t item, fg = 0;
    if (!dj_get(r.recs[i], "thread") || !dj_int(r.recs[i], "item", &item) || item < 0 ||
        (uint64_t)item >= DAP_TID_ITEMS - 1)
      continue;
    dj_int(r.recs[i], "focus_group", &fg);
    char g[64], l[64], wg[64], name[400];
    dap_ids_text(g, sizeof(g), "work-item", dj_get(r.recs[i], "gid"));
    dap_ids_text(l, sizeof(l), "local", dj_get(r.recs[i], "lid"));
    dap_ids_text(wg, sizeof(wg), "group", dj_get(r.recs[i], "group"));
    const char *st = dj_str(r.recs[i], "state");
    int show_st = st && strcmp(st, "run");
    if (fg)
      snprintf(name, sizeof(name), "%s #%u: %s %s%s%s", t->kernel, t->num, g, l, show_st ? " " : "",
               show_st ? st : "");
    else
      snprintf(name, sizeof(name), "%s #%u: %s: %s %s", t->kernel, t->num, wg, g, l);
    json_t *o = json_object();
    int64_t id = dap_tid(t->num, (uint64_t)item);
    dj_seti(o, "id", id);
    dj_sets(o, "name", name);
    dj_push(threads, o);
    if (tids) tids[n++] = id;
  }
  dap_reply_free(&r);
  struct dap_kl *k = dap_kl_find(t->num);
  if (k && tids) kl_tids(k, tids, n);
  free(tids);
}

void dap_threads(json_t *threads) {
  json_t *ks = dap_kernels();
  unsigned back = D.cur;
  size_t nk = json_array_size(ks), n = 0;
  struct tl *list = calloc(nk + 1, sizeof(*list));
  size_t i;
  json_t *k;
  json_array_foreach(ks, i, k) {
    struct kinfo ki;
    kinfo(k, &ki);
    const struct dap_kl *kl = dap_kl_find(ki.num); /* the client was told it stopped */
    if (!list || !is_stopped(&ki) || !kl || kl->running) continue;
    list[n].num = ki.num;
    snprintf(list[n].kernel, sizeof(list[n].kernel), "%s", ki.kernel);
    n++;
  }
  json_decref(ks);
  if (n) qsort(list, n, sizeof(*list), tl_order);
  for (size_t j = 0; j < n && D.prompting; j++)
    if (!dap_focus(list[j].num)) launch_threads(threads, &list[j]);
  free(list);
  if (back && D.prompting) dap_focus(back);
}
