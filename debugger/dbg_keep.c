/*
 * dbg_keep.c - edits that outlast their launch: the program an `edit`
 * rebuilt stays in force for the rest of the debug session, so later
 * launches of kernels of the same program run the edited build (breakpoints
 * bind to it, `list` shows its text). One entry per program the host built,
 * keyed by its executable (struct lsi_program) and the text and options it
 * was built from; the edited build is made once and shared by the launches.
 *
 * It must not build programs or move work-items (dbg_edit.c does). Launches
 * that run undebugged while another one is stopped look builds up from
 * other device threads, so the table and the builds' counts are under a
 * lock, and a build is freed when its last user lets go of it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc.h"
#include "debugger/dbg_int.h"

/* An edited build: the program and the text it was built from. */
struct kept_build {
  struct lsi_program *prog;
  char *source;
  unsigned refs; /* the table's entry and each launch that runs it */
};

/* A program the host built, and the edited build that replaces it. */
struct kept {
  const struct lsi_program *orig; /* compared, never read: it may be gone */
  char *orig_source, *options;
  struct kept_build *b;
};

struct dbg_keep {
  struct kept *v;
  unsigned n, cap;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void build_put(struct kept_build *b) {
  if (!b || --b->refs) return;
  cc_program_free(b->prog);
  free(b->source);
  free(b);
}

static int same_text(const char *a, const char *b) {
  return !strcmp(a ? a : "", b ? b : "");
}

static struct kept *find(struct dbg_keep *k, const struct lsi_program *orig, const char *source,
                         const char *options) {
  for (unsigned i = 0; k && orig && source && i < k->n; i++)
    if (k->v[i].orig == orig && same_text(k->v[i].orig_source, source) &&
        same_text(k->v[i].options, options))
      return &k->v[i];
  return NULL;
}

/* The edited build's kernel that can stand in for l's: of the same name,
 * with the same arguments (the launch's buffers and data segment serve it
 * unchanged). NULL with a reason when there is none. */
static const struct lsi_kernel *stand_in(const struct kept_build *b, const struct dev_launch *l,
                                         const char **why) {
  const struct lsi_kernel *nk = NULL;
  for (uint32_t i = 0; i < b->prog->nkernels; i++)
    if (!strcmp(b->prog->kernels[i].name, l->kernel->name)) nk = &b->prog->kernels[i];
  if (!nk) {
    *why = "the edited program has no kernel of this name";
    return NULL;
  }
  *why = dbg_edit_compatible(l, b->prog, nk);
  return *why ? NULL : nk;
}

/* Looks l's program up; on a match fills *kl from the edited build and
 * returns the build with a reference for the caller. Under the lock. */
static struct kept_build *lookup(struct dbg_session *s, const struct dev_launch *l,
                                 const char *source, const char *options, struct dev_launch *kl,
                                 const char **why) {
  *why = NULL;
  struct kept *e = find(s->keep, l->prog, source, options);
  if (!e) return NULL;
  const struct lsi_kernel *nk = stand_in(e->b, l, why);
  if (!nk) return NULL;
  *kl = *l;
  kl->prog = e->b->prog;
  kl->kernel = nk;
  e->b->refs++;
  return e->b;
}

const struct dev_launch *dbg_keep_begin(struct dbg_session *s, const struct dev_launch *l,
                                        const char **source, struct dev_launch *kl) {
  struct dbg_launch *L = s->L;
  pthread_mutex_lock(&lock);
  if (!s->keep) s->keep = calloc(1, sizeof(*s->keep));
  const char *why = NULL;
  struct kept_build *b = s->keep ? lookup(s, l, *source, L->options, kl, &why) : NULL;
  L->korig = l->prog;
  L->ksource = *source;
  L->kcur = b;
  pthread_mutex_unlock(&lock);
  if (why)
    fprintf(s->out, "Kernel %s runs the program as the host built it: %s.\n", l->kernel->name, why);
  if (!b) return l;
  *source = b->source;
  return kl;
}

int dbg_keep_edit(struct dbg_session *s, struct lsi_program *np, char *source) {
  struct dbg_launch *L = s->L;
  pthread_mutex_lock(&lock);
  struct dbg_keep *k = s->keep;
  struct kept_build *b = k ? calloc(1, sizeof(*b)) : NULL;
  if (!b) {
    pthread_mutex_unlock(&lock);
    return -1;
  }
  struct kept *e = find(k, L->korig, L->ksource, L->options);
  if (!e && L->korig && L->ksource) {
    if (k->n == k->cap) {
      unsigned cap = k->cap ? k->cap * 2 : 8;
      struct kept *v = realloc(k->v, cap * sizeof(*v));
      if (v) {
        k->v = v;
        k->cap = cap;
      }
    }
    char *os = strdup(L->ksource), *oo = L->options ? strdup(L->options) : NULL;
    if (k->n < k->cap && os && (oo || !L->options)) {
      e = &k->v[k->n++];
      e->orig = L->korig;
      e->orig_source = os;
      e->options = oo;
      e->b = NULL;
    } else {
      free(os); /* not kept: the edit lasts for this launch only */
      free(oo);
    }
  }
  b->prog = np;
  b->source = source;
  b->refs = 1; /* the launch's */
  if (e) {
    build_put(e->b);
    e->b = b;
    b->refs++;
  }
  build_put(L->kcur);
  L->kcur = b;
  pthread_mutex_unlock(&lock);
  return 0;
}

void dbg_keep_end(struct dbg_session *s) {
  struct dbg_launch *L = s->L;
  pthread_mutex_lock(&lock);
  build_put(L->kcur);
  L->kcur = NULL;
  L->korig = NULL;
  L->ksource = NULL;
  pthread_mutex_unlock(&lock);
}

void *dbg_kept_get(struct dbg_session *s, const struct dev_launch *l, const char *source,
                   const char *options, struct dev_launch *kl) {
  const char *why;
  pthread_mutex_lock(&lock);
  struct kept_build *b = s ? lookup(s, l, source, options, kl, &why) : NULL;
  pthread_mutex_unlock(&lock);
  return b;
}

void dbg_kept_put(void *hold) {
  if (!hold) return;
  pthread_mutex_lock(&lock);
  build_put(hold);
  pthread_mutex_unlock(&lock);
}

void dbg_kept_clear(struct dbg_session *s) {
  pthread_mutex_lock(&lock);
  struct dbg_keep *k = s ? s->keep : NULL;
  for (unsigned i = 0; k && i < k->n; i++) {
    build_put(k->v[i].b);
    free(k->v[i].orig_source);
    free(k->v[i].options);
  }
  if (k) k->n = 0;
  pthread_mutex_unlock(&lock);
}

void dbg_keep_free(struct dbg_session *s) {
  dbg_kept_clear(s);
  pthread_mutex_lock(&lock);
  struct dbg_keep *k = s->keep;
  s->keep = NULL;
  if (k) {
    free(k->v);
    free(k);
  }
  pthread_mutex_unlock(&lock);
}
