/*
 * check.c - what every checker of LOCKSTEP_CHECK shares (device/check.h):
 * the setting's parser, the per-launch report table (per compute unit while
 * the launch runs, merged at its end) and the report path (stderr and the
 * LOCKSTEP_CHECK_LOG file that `lockstep check` reads). It dispatches the
 * launch's events to the checkers that are on; it must not decide what a
 * report is (that is each checker's).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/check.h"
#include "device/simt_int.h"

/* ---- the setting ---- */

static const struct {
  const char *name;
  unsigned bit;
} checkers[] = {
    {"races", DEV_CHECK_RACES},
    {"uninit", DEV_CHECK_UNINIT},
};

const char *dev_check_name(unsigned bit) {
  for (size_t i = 0; i < sizeof checkers / sizeof checkers[0]; i++)
    if (checkers[i].bit == bit) return checkers[i].name;
  return "?";
}

int dev_check_parse(const char *s, unsigned *mask, char *why, size_t nwhy, char *note,
                    size_t nnote) {
  unsigned m = 0, reserved = 0;
  note[0] = 0;
  while (*s) {
    size_t n = strcspn(s, ",");
    bool known = n == 0 || (n == 4 && !strncmp(s, "none", 4));
    for (size_t i = 0; !known && i < sizeof checkers / sizeof checkers[0]; i++)
      if (strlen(checkers[i].name) == n && !strncmp(s, checkers[i].name, n)) {
        known = true;
        if (checkers[i].bit & DEV_CHECK_RESERVED)
          reserved |= checkers[i].bit;
        else
          m |= checkers[i].bit;
      }
    if (!known) {
      snprintf(why, nwhy, "unknown checker \"%.*s\" (expected a comma list of races, uninit)",
               (int)(n > 40 ? 40 : n), s);
      return -1;
    }
    s += n + (s[n] == ',');
  }
  for (unsigned b = 1; reserved; b <<= 1)
    if (reserved & b) {
      snprintf(note, nnote, "%s", dev_check_name(b));
      reserved &= ~b;
    }
  *mask = m;
  return 0;
}

/* ---- the report table ---- */

/* A pc's source line (file UINT32_MAX and the pc without a line table). */
static void pc_line(const struct lsi_kernel *k, uint32_t pc, uint32_t *file, uint32_t *line) {
  if (k->lines && pc < k->ninsns) {
    *file = k->lines[pc].file;
    *line = k->lines[pc].line;
  } else {
    *file = UINT32_MAX;
    *line = pc;
  }
}

static bool rec_is(const struct simt_check_rec *r, unsigned kind, const uint32_t f[2],
                   const uint32_t l[2]) {
  return r->kind == kind && r->file[0] == f[0] && r->line[0] == l[0] && r->file[1] == f[1] &&
         r->line[1] == l[1];
}

/* A table of records: cu's while a launch runs, or a caller's. */
struct rec_tab {
  struct simt_check_rec **recs;
  unsigned *n, *cap, *last;
};

/* The record for (kind, lines) in table t, appended when new (*fresh set);
 * NULL when out of memory. */
static struct simt_check_rec *tab_find(struct rec_tab t, unsigned kind, const uint32_t f[2],
                                       const uint32_t l[2], bool *fresh) {
  *fresh = false;
  struct simt_check_rec *recs = *t.recs;
  if (*t.last < *t.n && rec_is(&recs[*t.last], kind, f, l)) return &recs[*t.last];
  for (unsigned i = 0; i < *t.n; i++)
    if (rec_is(&recs[i], kind, f, l)) {
      *t.last = i;
      return &recs[i];
    }
  if (*t.n == *t.cap) {
    unsigned cap = *t.cap ? 2 * *t.cap : 4;
    struct simt_check_rec *r = realloc(recs, cap * sizeof(*r));
    if (!r) return NULL;
    *t.recs = recs = r;
    *t.cap = cap;
  }
  struct simt_check_rec *r = &recs[*t.n];
  memset(r, 0, sizeof(*r));
  r->kind = kind;
  memcpy(r->file, f, sizeof r->file);
  memcpy(r->line, l, sizeof r->line);
  *t.last = (*t.n)++;
  *fresh = true;
  return r;
}

static struct simt_check_rec *rec_find(struct simt_cu *cu, unsigned kind, const uint32_t f[2],
                                       const uint32_t l[2], bool *fresh) {
  struct rec_tab t = {&cu->recs, &cu->nrecs, &cu->cap_recs, &cu->last_rec};
  return tab_find(t, kind, f, l, fresh);
}

struct simt_check_rec *simt_check_count(struct simt_cu *cu, unsigned kind, uint32_t pc_a,
                                        uint32_t pc_b, uint64_t order) {
  uint32_t f[2], l[2];
  pc_line(cu->run->k, pc_a, &f[0], &l[0]);
  pc_line(cu->run->k, pc_b, &f[1], &l[1]);
  if (f[1] < f[0] || (f[1] == f[0] && l[1] < l[0])) { /* the pair, sorted */
    uint32_t t = f[0];
    f[0] = f[1], f[1] = t;
    t = l[0], l[0] = l[1], l[1] = t;
  }
  bool fresh;
  struct simt_check_rec *r = rec_find(cu, kind, f, l, &fresh);
  if (!r) return NULL;
  r->count++;
  const struct simt_check_stop *st = cu->run->check_stop;
  if (fresh && st && st->take(st->arg, cu, r)) atomic_store(&cu->run->stop, 1);
  if (!fresh && order >= r->order) return NULL;
  r->order = order;
  return r;
}

/* Merges the records of compute units [from, ncus) into table t. */
static void merge_into(struct simt_run *run, unsigned from, struct rec_tab t) {
  for (unsigned c = from; c < run->ncus; c++) {
    struct simt_cu *cu = &run->cus[c];
    for (unsigned i = 0; i < cu->nrecs; i++) {
      const struct simt_check_rec *s = &cu->recs[i];
      bool fresh;
      struct simt_check_rec *r = tab_find(t, s->kind, s->file, s->line, &fresh);
      if (!r) continue;
      uint64_t count = fresh ? 0 : r->count;
      if (fresh || s->order < r->order) *r = *s;
      r->count = count + s->count;
    }
  }
}

/* Merges every compute unit's records into the first's, in order. */
static void merge(struct simt_run *run) {
  struct simt_cu *to = &run->cus[0];
  struct rec_tab t = {&to->recs, &to->nrecs, &to->cap_recs, &to->last_rec};
  merge_into(run, 1, t);
}

void simt_check_take(struct simt_run *run, struct simt_check_rec **recs, unsigned *n,
                     unsigned *cap) {
  unsigned last = 0;
  struct rec_tab t = {recs, n, cap, &last};
  if (!run->cus) return;
  merge_into(run, 0, t);
  for (unsigned c = 0; c < run->ncus; c++)
    run->cus[c].nrecs = run->cus[c].last_rec = 0;
}

static void where(const struct simt_run *run, uint32_t file, uint32_t line, char *buf, size_t n) {
  const struct lsi_program *p = run->l->prog;
  if (file == UINT32_MAX)
    snprintf(buf, n, "pc:%" PRIu32, line);
  else if (p && file < p->nfiles)
    snprintf(buf, n, "%s:%" PRIu32, p->files[file], line);
  else
    snprintf(buf, n, "?:%" PRIu32, line);
}

/* LOCKSTEP_CHECK_LOG, opened to append (so several processes may share
 * it), or -1. */
static int log_open(void) {
  const char *path = getenv("LOCKSTEP_CHECK_LOG");
  if (!path || !*path) return -1;
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    fprintf(stderr, "lockstep: cannot open LOCKSTEP_CHECK_LOG=%s: %s\n", path, strerror(errno));
  return fd;
}

/* One record of the log, in one write. */
static void log_line(int fd, const struct simt_run *run, const char *kind, const uint32_t f[2],
                     const uint32_t l[2], uint64_t count, const char *text) {
  char a[300], b[300], line[1500];
  where(run, f[0], l[0], a, sizeof a);
  where(run, f[1], l[1], b, sizeof b);
  int n = snprintf(line, sizeof line, "%s\t%s\t%s\t%s\t%" PRIu64 "\t%s", kind,
                   run->k->name ? run->k->name : "?", a, b, count, text);
  if (n < 0) return;
  if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
  line[n++] = '\n';
  if (write(fd, line, (size_t)n) != n) return;
}

/* Appends the launch's reports to LOCKSTEP_CHECK_LOG, one write each. */
static void log_records(const struct simt_run *run, const struct simt_check_rec *recs, unsigned n) {
  int fd = log_open();
  if (fd < 0) return;
  for (unsigned i = 0; i < n; i++) {
    const struct simt_check_rec *r = &recs[i];
    log_line(fd, run, dev_check_name(r->kind), r->file, r->line, r->count, r->text);
  }
  close(fd);
}

void simt_check_log(struct simt_run *run, const char *kind, uint32_t pc, const char *text) {
  int fd = log_open();
  if (fd < 0) return;
  uint32_t f[2], l[2];
  pc_line(run->k, pc, &f[0], &l[0]);
  f[1] = f[0], l[1] = l[0];
  log_line(fd, run, kind, f, l, 1, text);
  close(fd);
}

static int rec_cmp(const void *x, const void *y) {
  const struct simt_check_rec *a = x, *b = y;
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  for (int j = 0; j < 2; j++) {
    if (a->file[j] != b->file[j]) return a->file[j] < b->file[j] ? -1 : 1;
    if (a->line[j] != b->line[j]) return a->line[j] < b->line[j] ? -1 : 1;
  }
  return 0;
}

static void report_all(struct simt_run *run) {
  if (!run->cus || !run->ncus) return;
  merge(run);
  struct simt_cu *cu = &run->cus[0];
  if (!cu->nrecs) return;
  qsort(cu->recs, cu->nrecs, sizeof(*cu->recs), rec_cmp);
  for (unsigned i = 0; i < cu->nrecs; i++)
    fprintf(stderr, "lockstep: %s (%" PRIu64 " time%s)\n", cu->recs[i].text, cu->recs[i].count,
            cu->recs[i].count == 1 ? "" : "s");
  log_records(run, cu->recs, cu->nrecs);
}

void simt_check_sort(struct simt_check_rec *recs, unsigned n) {
  if (n) qsort(recs, n, sizeof(*recs), rec_cmp);
}

void simt_check_end(struct simt_run *run, struct simt_check_rec *recs, unsigned n) {
  if (!n) return;
  simt_check_sort(recs, n);
  log_records(run, recs, n);
}

/* ---- the launch's events, to the checkers that are on ---- */

bool simt_check_open(struct simt_run *run, char *why, size_t n) {
  if ((run->check & DEV_CHECK_RACES) && !simt_race_open(run)) {
    snprintf(why, n, "out of host memory for the data-race checker");
    return false;
  }
  return true;
}

void simt_check_group(struct simt_cu *cu) {
  if (cu->run->check & DEV_CHECK_RACES) simt_race_group(cu);
  if (cu->run->check & DEV_CHECK_UNINIT) simt_uninit_group(cu);
}

void simt_check_barrier(struct simt_cu *cu, unsigned flags) {
  if (cu->run->check & DEV_CHECK_RACES) simt_race_barrier(cu, flags);
}

void simt_check_sgbarrier(struct simt_cu *cu, struct simt_warp *w, uint32_t resume) {
  const struct lsi_kernel *k = cu->run->k;
  unsigned flags = SIMT_FENCE_LOCAL | SIMT_FENCE_GLOBAL;
  if (resume > 0 && resume <= k->ninsns && k->code[resume - 1].op == LSI_SGBAR)
    flags = (unsigned)k->code[resume - 1].imm;
  if (cu->run->check & DEV_CHECK_RACES) simt_race_sgbarrier(cu, w, flags);
}

void simt_check_access(struct simt_cu *cu, struct simt_warp *w, unsigned lane, uint32_t pc,
                       uint64_t addr, uint64_t size, int kind) {
  if (cu->run->check & DEV_CHECK_RACES) simt_race_access(cu, w, lane, pc, addr, size, kind);
  if (cu->run->check & DEV_CHECK_UNINIT)
    simt_uninit_access(cu, w, lane, pc, addr, size, kind & SIMT_ACC_KIND);
}

void simt_check_warp(struct simt_cu *cu, struct simt_warp *w, uint32_t pc, uint64_t act,
                     const uint64_t *base, int64_t imm, unsigned size, int kind) {
  if (cu->run->check & DEV_CHECK_RACES) simt_race_warp(cu, w, pc, act, base, imm, size, kind);
}

void simt_check_atomic_done(struct simt_cu *cu, struct simt_warp *w, uint64_t act) {
  if (cu->run->check & DEV_CHECK_RACES) simt_race_acquire(cu, w, act);
}

void simt_check_close(struct simt_run *run) {
  if (!run->check) return;
  report_all(run);
  for (unsigned c = 0; c < run->ncus; c++) {
    simt_race_free_cu(&run->cus[c]);
    simt_uninit_free_cu(&run->cus[c]);
    free(run->cus[c].recs);
    run->cus[c].recs = NULL;
    run->cus[c].nrecs = run->cus[c].cap_recs = 0;
  }
  simt_race_close(run);
}
