/*
 * dbg_items.c - listings of a launch's work-items at any scale: `info
 * workitems` (and its alias `info threads`) groups them by state and
 * location into (x,y,z) ranges per work-group, with filters; `thread N`
 * focuses a work-item by its linear id; the short summary a pause (Ctrl-C)
 * prints. Whatever the launch's size, a listing is a few lines: ranges of
 * one location beyond the first few are counted, and work-groups that are
 * logically complete or not yet launched take one line each.
 *
 * It only reads the launch's state; it must not run work-items.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debugger/dbg_int.h"
#include "device/simt.h"

/* The launch's shape: global and local sizes, offsets and the number of
 * work-groups in each dimension (unused dimensions 1). */
struct geom {
  uint64_t glob[3], loc[3], off[3], ng[3], ngroups;
};

static void geom_of(struct dbg_session *s, struct geom *g) {
  const struct dev_launch *l = s->L->l;
  g->ngroups = 1;
  for (int k = 0; k < 3; k++) {
    int on = k < (int)l->work_dim;
    g->glob[k] = on ? l->global[k] : 1;
    g->loc[k] = on && l->local[k] ? l->local[k] : 1;
    g->off[k] = on ? l->offset[k] : 0;
    g->ng[k] = (g->glob[k] + g->loc[k] - 1) / g->loc[k];
    g->ngroups *= g->ng[k];
  }
}

/* Classes of work-items, in the order a listing shows them. */
enum { C_RUN, C_BARRIER, C_FAULT, C_DONE, C_FRESH, NCLASS };
static const char *const class_word[NCLASS] = {"running", "barrier", "fault", "complete",
                                               "not-launched"};

static int class_of(int st) {
  switch (st) {
  case SIMT_DBG_RUN: return C_RUN;
  case SIMT_DBG_BARRIER: return C_BARRIER;
  case SIMT_DBG_DONE: return C_DONE;
  case SIMT_DBG_FRESH: return C_FRESH;
  default: return C_FAULT;
  }
}

/* What a listing keeps: a filter (a group's linear index, a line, a
 * class; -1 or 0 for any). */
struct filter {
  int64_t group;
  uint32_t line;
  int cls;
};

/* A run: work-items a..b (local linear ids) of work-groups g0..g1 (linear
 * ids), all at one location. */
struct run {
  uint64_t a, b, g0, g1;
};

#define MAX_SHOWN 4 /* ranges shown per location; the rest are counted */
#define MAX_KEYS  64

/* One location (class and line) and its work-items. */
struct key {
  int cls;
  uint32_t line;
  uint64_t items, groups, last_group, more_runs, more_items;
  unsigned nshown;
  struct run shown[MAX_SHOWN], cur;
  int have_cur;
};

/* The items of a listing, by location, and the work-groups that are
 * complete or not launched as a whole. */
struct tally {
  struct geom g;
  struct key keys[MAX_KEYS];
  unsigned nkeys;
  uint64_t other;                    /* items at locations past MAX_KEYS */
  uint64_t whole[2], whole_items[2]; /* [0] complete, [1] not launched */
  uint64_t wfirst[2], wlast[2], wruns[2];
};

/* Linear index of n in a box of dims d (x fastest), and back. */
static void unlinear(uint64_t i, const uint64_t d[3], uint64_t c[3]) {
  c[0] = i % d[0];
  c[1] = i / d[0] % d[1];
  c[2] = i / (d[0] * d[1]);
}

/* "(x0..x1,y0..y1,z0..z1)" when linear ids a..b of a box of dims d (plus
 * base[k] + scale[k] * c) form a box, else "(x,y,z)..(x,y,z)". */
static void range_str(uint64_t a, uint64_t b, const uint64_t d[3], const uint64_t base[3],
                      char *buf, size_t n) {
  uint64_t ca[3], cb[3];
  unlinear(a, d, ca);
  unlinear(b, d, cb);
  /* a box: every dimension below the highest one that differs is full */
  int hi = cb[2] != ca[2] ? 2 : cb[1] != ca[1] ? 1 : 0, box = 1;
  for (int k = 0; k < hi; k++)
    box &= ca[k] == 0 && cb[k] == d[k] - 1;
  if (!box) {
    snprintf(buf, n, "(%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")..(%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")",
             base[0] + ca[0], base[1] + ca[1], base[2] + ca[2], base[0] + cb[0], base[1] + cb[1],
             base[2] + cb[2]);
    return;
  }
  size_t o = 0;
  for (int k = 0; k < 3 && o < n; k++) {
    if (ca[k] == cb[k])
      o += (size_t)snprintf(buf + o, n - o, "%s%" PRIu64, k ? "," : "(", base[k] + ca[k]);
    else
      o += (size_t)snprintf(buf + o, n - o, "%s%" PRIu64 "..%" PRIu64, k ? "," : "(",
                            base[k] + ca[k], base[k] + cb[k]);
  }
  if (o < n) snprintf(buf + o, n - o, ")");
}

/* The size of work-group gi (the last ones of a non-uniform range are
 * smaller) and its first global id (without the offset). */
static void group_box(const struct geom *g, uint64_t gi, uint64_t size[3], uint64_t first[3]) {
  uint64_t c[3];
  unlinear(gi, g->ng, c);
  for (int k = 0; k < 3; k++) {
    first[k] = c[k] * g->loc[k];
    uint64_t rest = g->glob[k] - first[k];
    size[k] = rest < g->loc[k] ? rest : g->loc[k];
  }
}

/* Global linear id of local linear id j of work-group gi. */
static uint64_t item_of(const struct geom *g, uint64_t gi, uint64_t j) {
  uint64_t size[3], first[3], c[3];
  group_box(g, gi, size, first);
  unlinear(j, size, c);
  return (first[0] + c[0]) + (first[1] + c[1]) * g->glob[0] +
         (first[2] + c[2]) * g->glob[0] * g->glob[1];
}

static struct key *key_for(struct tally *t, int cls, uint32_t line) {
  for (unsigned i = 0; i < t->nkeys; i++)
    if (t->keys[i].cls == cls && t->keys[i].line == line) return &t->keys[i];
  if (t->nkeys == MAX_KEYS) return NULL;
  struct key *k = &t->keys[t->nkeys++];
  memset(k, 0, sizeof(*k));
  k->cls = cls;
  k->line = line;
  k->last_group = UINT64_MAX;
  return k;
}

/* A finished run of key k: shown, or counted past the first few. */
static void key_close(struct key *k) {
  if (!k->have_cur) return;
  if (k->nshown < MAX_SHOWN)
    k->shown[k->nshown++] = k->cur;
  else
    k->more_runs++, k->more_items += (k->cur.b - k->cur.a + 1) * (k->cur.g1 - k->cur.g0 + 1);
  k->have_cur = 0;
}

/* Adds local items a..b of group gi at a location: it extends the run of
 * the same items of the group before, else starts a run. */
static void key_add(struct tally *t, int cls, uint32_t line, uint64_t gi, uint64_t a, uint64_t b) {
  struct key *k = key_for(t, cls, line);
  if (!k) {
    t->other += b - a + 1;
    return;
  }
  k->items += b - a + 1;
  if (k->last_group != gi) k->groups++, k->last_group = gi;
  if (k->have_cur && k->cur.a == a && k->cur.b == b && k->cur.g1 + 1 == gi) {
    k->cur.g1 = gi;
    return;
  }
  key_close(k);
  k->cur = (struct run){a, b, gi, gi};
  k->have_cur = 1;
}

/* A work-group complete (w 0) or not launched (1) as a whole. */
static void whole_add(struct tally *t, int w, uint64_t gi, uint64_t n) {
  if (!t->whole[w] || t->wlast[w] + 1 != gi) t->wruns[w]++;
  if (!t->whole[w]) t->wfirst[w] = gi;
  t->wlast[w] = gi;
  t->whole[w]++;
  t->whole_items[w] += n;
}

/* The location of an item as a listing groups it: its class and line. */
static void locate(struct dbg_session *s, uint64_t item, int *cls, uint32_t *line) {
  uint32_t pc = 0;
  int st = simt_dbg_state(s->L->sd, item, &pc);
  *cls = class_of(st);
  *line = *cls <= C_FAULT ? dbg_item_line(s, item) : 0;
}

static int wanted(const struct filter *f, int cls, uint32_t line) {
  return (f->cls < 0 || f->cls == cls) && (!f->line || f->line == line);
}

/* Tallies work-group gi. */
static void tally_group(struct dbg_session *s, struct tally *t, const struct filter *f,
                        uint64_t gi) {
  uint64_t size[3], first[3];
  group_box(&t->g, gi, size, first);
  uint64_t n = size[0] * size[1] * size[2];
  int c0 = 0, c = 0;
  uint32_t l0 = 0, l = 0;
  locate(s, item_of(&t->g, gi, 0), &c0, &l0);
  if (c0 == C_DONE || c0 == C_FRESH) { /* the whole group alike? */
    uint64_t j = 1;
    for (; j < n; j++) {
      locate(s, item_of(&t->g, gi, j), &c, &l);
      if (c != c0) break;
    }
    if (j == n) {
      if (wanted(f, c0, 0) && !f->line) whole_add(t, c0 == C_FRESH, gi, n);
      return;
    }
  }
  uint64_t a = 0;
  for (uint64_t j = 1; j <= n; j++) {
    if (j < n) {
      locate(s, item_of(&t->g, gi, j), &c, &l);
      if (c == c0 && l == l0) continue;
    }
    if (wanted(f, c0, l0)) key_add(t, c0, l0, gi, a, j - 1);
    a = j;
    c0 = c;
    l0 = l;
  }
}

/* Work-group gi's ids "(x,y,z)" into buf. */
static void group_str(const struct geom *g, uint64_t gi, char *buf, size_t n) {
  uint64_t c[3];
  unlinear(gi, g->ng, c);
  snprintf(buf, n, "(%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")", c[0], c[1], c[2]);
}

static const uint64_t zero3[3] = {0, 0, 0};

/* One run: global ids and the group(s) they are in. */
static void show_run(struct dbg_session *s, const struct geom *g, const struct run *r) {
  char ids[96], grp[96];
  uint64_t size[3], first[3], base[3];
  group_box(g, r->g0, size, first);
  for (int k = 0; k < 3; k++)
    base[k] = first[k] + g->off[k];
  if (r->g0 == r->g1) {
    range_str(r->a, r->b, size, base, ids, sizeof(ids));
    group_str(g, r->g0, grp, sizeof(grp));
    uint64_t i0 = item_of(g, r->g0, r->a), i1 = item_of(g, r->g0, r->b);
    if (i0 == i1)
      fprintf(s->out, "%s in group %s, id %" PRIu64 "\n", ids, grp, i0);
    else if (i1 - i0 == r->b - r->a)
      fprintf(s->out, "%s in group %s, ids %" PRIu64 "..%" PRIu64 "\n", ids, grp, i0, i1);
    else
      fprintf(s->out, "%s in group %s\n", ids, grp);
    return;
  }
  range_str(r->g0, r->g1, g->ng, zero3, grp, sizeof(grp));
  range_str(r->a, r->b, g->loc, zero3, ids, sizeof(ids));
  fprintf(s->out, "local %s in each of groups %s\n", ids, grp);
}

static void show_key(struct dbg_session *s, struct tally *t, struct key *k) {
  key_close(k);
  char where[48];
  if (k->cls == C_RUN)
    snprintf(where, sizeof(where), "line %u", k->line);
  else if (k->cls == C_BARRIER)
    snprintf(where, sizeof(where), "barrier, line %u", k->line);
  else if (k->cls == C_FAULT)
    snprintf(where, sizeof(where), "device exception, line %u", k->line);
  else
    snprintf(where, sizeof(where), "%s", k->cls == C_DONE ? "finished" : "not started");
  if (k->nshown == 1 && !k->more_runs) {
    fprintf(s->out, "  %s: ", where);
    show_run(s, &t->g, &k->shown[0]);
    return;
  }
  fprintf(s->out, "  %s: %" PRIu64 " work-item%s in %" PRIu64 " work-group%s\n", where, k->items,
          k->items == 1 ? "" : "s", k->groups, k->groups == 1 ? "" : "s");
  for (unsigned i = 0; i < k->nshown; i++) {
    fprintf(s->out, "    ");
    show_run(s, &t->g, &k->shown[i]);
  }
  if (k->more_runs)
    fprintf(s->out, "    and %" PRIu64 " more range%s (%" PRIu64 " work-item%s)\n", k->more_runs,
            k->more_runs == 1 ? "" : "s", k->more_items, k->more_items == 1 ? "" : "s");
}

static void show_whole(struct dbg_session *s, struct tally *t, int w) {
  const char *title = w ? "not yet launched" : "logically complete";
  if (!t->whole[w]) return;
  char a[96], b[96];
  if (t->wruns[w] == 1) {
    range_str(t->wfirst[w], t->wlast[w], t->g.ng, zero3, a, sizeof(a));
    if (strstr(a, ")..(") && t->whole[w] <= 4) { /* not a box: each one */
      size_t o = 0;
      for (uint64_t gi = t->wfirst[w]; gi <= t->wlast[w] && o < sizeof(a); gi++) {
        group_str(&t->g, gi, b, sizeof(b));
        o += (size_t)snprintf(a + o, sizeof(a) - o, "%s%s", o ? " " : "", b);
      }
    }
    fprintf(s->out, "%s: %" PRIu64 " work-group%s %s, %" PRIu64 " work-item%s\n", title,
            t->whole[w], t->whole[w] == 1 ? "" : "s", a, t->whole_items[w],
            t->whole_items[w] == 1 ? "" : "s");
    return;
  }
  group_str(&t->g, t->wfirst[w], a, sizeof(a));
  group_str(&t->g, t->wlast[w], b, sizeof(b));
  fprintf(s->out,
          "%s: %" PRIu64 " work-groups in %" PRIu64 " ranges from %s to %s, %" PRIu64
          " work-items\n",
          title, t->whole[w], t->wruns[w], a, b, t->whole_items[w]);
}

static int key_order(const void *x, const void *y) {
  const struct key *a = x, *b = y;
  if (a->cls != b->cls) return a->cls - b->cls;
  return a->line < b->line ? -1 : a->line > b->line;
}

enum { PENDING_RANGES_SHOWN = 8 }; /* a line, however scattered the items are */

/* The last pass's breakpoint stops still to be reported (of items still
 * at a breakpoint), one per warp: their items as ranges. */
static void pending_stops(struct dbg_session *s) {
  struct dbg_launch *L = s->L;
  unsigned np = 0, nw = 0, nr = 0; /* nr: the ranges, of which the first few are shown */
  uint64_t first = 0, last = 0, warp = UINT64_MAX;
  for (unsigned i = 0; i <= L->npending; i++) {
    uint32_t pc = 0;
    uint64_t it = i < L->npending ? L->pending[i] : UINT64_MAX;
    int st = it != UINT64_MAX ? simt_dbg_state(L->sd, it, &pc) : SIMT_DBG_RUN;
    if (it != UINT64_MAX && ((st != SIMT_DBG_RUN && st != SIMT_DBG_FRESH) || !L->bpset[pc]))
      continue;
    if (np && it != last + 1) { /* the range first..last ends */
      if (nr++ < PENDING_RANGES_SHOWN) {
        fprintf(s->out, " %" PRIu64, first);
        if (last > first) fprintf(s->out, "-%" PRIu64, last);
      }
      first = it;
    }
    if (it == UINT64_MAX) break;
    if (!np++) {
      fprintf(s->out, "breakpoint stops to report:");
      first = it;
    }
    last = it;
    uint64_t w = simt_dbg_warp_of(L->sd, it);
    nw += w != warp;
    warp = w;
  }
  if (nr > PENDING_RANGES_SHOWN)
    fprintf(s->out, " and %u more range%s", nr - PENDING_RANGES_SHOWN,
            nr - PENDING_RANGES_SHOWN == 1 ? "" : "s");
  if (np)
    fprintf(s->out, " (%u work-item%s, %u warp%s)\n", np, np == 1 ? "" : "s", nw,
            nw == 1 ? "" : "s");
}

/* Parses `[group X [Y Z]] [line N] [STATE]` into f; -1 when it is not one
 * (said so). */
static int parse_filter(struct dbg_session *s, const struct geom *g, const char *arg,
                        struct filter *f, const char *cmd) {
  f->group = -1;
  f->line = 0;
  f->cls = -1;
  char buf[256];
  snprintf(buf, sizeof(buf), "%s", arg);
  char *save = NULL, *w = strtok_r(buf, " \t", &save);
  while (w) {
    char *end;
    if (!strcmp(w, "group")) {
      uint64_t v[3] = {0, 0, 0};
      int n = 0;
      char *p;
      while ((p = strtok_r(NULL, " \t", &save)) && isdigit((unsigned char)*p)) {
        if (n == 3) goto bad;
        v[n++] = strtoull(p, &end, 10);
        if (*end) goto bad;
      }
      if (n < 1) goto bad;
      for (int k = 0; k < 3; k++)
        if (v[k] >= g->ng[k]) {
          fprintf(s->out,
                  "invalid work-group (%" PRIu64 ",%" PRIu64 ",%" PRIu64
                  "): the launch has (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") work-groups\n",
                  v[0], v[1], v[2], g->ng[0], g->ng[1], g->ng[2]);
          return -1;
        }
      f->group = (int64_t)(v[0] + v[1] * g->ng[0] + v[2] * g->ng[0] * g->ng[1]);
      w = p;
      continue;
    }
    if (!strcmp(w, "line")) {
      char *p = strtok_r(NULL, " \t", &save);
      unsigned long v = p ? strtoul(p, &end, 10) : 0;
      if (!p || *end || !v || v > UINT32_MAX) goto bad;
      f->line = (uint32_t)v;
    } else {
      int c = 0;
      while (c < NCLASS && strcmp(w, class_word[c]))
        c++;
      if (c == NCLASS) goto bad;
      f->cls = c;
    }
    w = strtok_r(NULL, " \t", &save);
  }
  return 0;
bad:
  fprintf(s->out,
          "usage: %s [group X [Y Z]] [line N] [running | barrier | fault | complete | "
          "not-launched]\n",
          cmd);
  return -1;
}

void dbg_info_workitems(struct dbg_session *s, const char *arg, const char *cmd) {
  struct dbg_launch *L = s->L;
  struct tally *t = calloc(1, sizeof(*t));
  if (!t) {
    fprintf(s->out, "out of memory for the listing\n");
    return;
  }
  geom_of(s, &t->g);
  struct filter f;
  if (parse_filter(s, &t->g, arg, &f, cmd)) {
    free(t);
    return;
  }
  char ids[160];
  dbg_ids_str(s, L->focus, ids, sizeof(ids));
  fprintf(s->out,
          "Kernel %s: %" PRIu64 " work-items in %" PRIu64 " work-group%s of (%" PRIu64 ",%" PRIu64
          ",%" PRIu64 "); focus %" PRIu64 ", %s\n",
          L->k->name, simt_dbg_items(L->sd), t->g.ngroups, t->g.ngroups == 1 ? "" : "s",
          t->g.loc[0], t->g.loc[1], t->g.loc[2], L->focus, ids);
  if (L->last_run || L->last_skipped)
    fprintf(s->out, "pass %d: %u work-group%s issued, %u complete one%s skipped\n", L->passes,
            L->last_run, L->last_run == 1 ? "" : "s", L->last_skipped,
            L->last_skipped == 1 ? "" : "s");
  uint64_t g0 = f.group >= 0 ? (uint64_t)f.group : 0;
  uint64_t g1 = f.group >= 0 ? (uint64_t)f.group + 1 : t->g.ngroups;
  for (uint64_t gi = g0; gi < g1; gi++)
    tally_group(s, t, &f, gi);
  qsort(t->keys, t->nkeys, sizeof(t->keys[0]), key_order);
  uint64_t inprog = t->other;
  for (unsigned i = 0; i < t->nkeys; i++)
    inprog += t->keys[i].items;
  if (t->nkeys) fprintf(s->out, "in progress (work-groups started):\n");
  for (unsigned i = 0; i < t->nkeys; i++)
    show_key(s, t, &t->keys[i]);
  if (t->other) fprintf(s->out, "  %" PRIu64 " more work-items at other lines\n", t->other);
  show_whole(s, t, 0);
  show_whole(s, t, 1);
  if (!inprog && !t->whole[0] && !t->whole[1]) fprintf(s->out, "No work-items match.\n");
  pending_stops(s);
  free(t);
}

void dbg_items_summary(struct dbg_session *s) {
  uint64_t n = simt_dbg_items(s->L->sd), cnt[NCLASS] = {0};
  if (n < 2) return;
  for (uint64_t i = 0; i < n; i++)
    cnt[class_of(simt_dbg_state(s->L->sd, i, NULL))]++;
  fprintf(s->out,
          "%" PRIu64 " work-items: %" PRIu64 " running, %" PRIu64 " at a barrier, %" PRIu64
          " complete, %" PRIu64 " not yet launched; 'info workitems' lists them.\n",
          n, cnt[C_RUN] + cnt[C_FAULT], cnt[C_BARRIER], cnt[C_DONE], cnt[C_FRESH]);
}

void dbg_thread_cmd(struct dbg_session *s, const char *arg) {
  struct dbg_launch *L = s->L;
  if (!*arg) {
    char ids[160];
    dbg_ids_str(s, L->focus, ids, sizeof(ids));
    fprintf(s->out, "[Current work-item is %" PRIu64 ": %s]\n", L->focus, ids);
    return;
  }
  char *end;
  unsigned long long v = strtoull(arg, &end, 10);
  if (!isdigit((unsigned char)*arg) || *end) {
    fprintf(s->out, "usage: thread [N], N a work-item's linear id (0 to %" PRIu64 ")\n",
            simt_dbg_items(L->sd) - 1);
    return;
  }
  if (v >= simt_dbg_items(L->sd)) {
    fprintf(s->out, "Invalid thread ID: %llu; the launch has work-items 0 to %" PRIu64 ".\n", v,
            simt_dbg_items(L->sd) - 1);
    return;
  }
  L->focus = v;
  dbg_item_enter(s, L->focus);
  dbg_where(s, "Switching to");
}
