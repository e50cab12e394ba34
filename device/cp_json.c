/*
 * cp_json.c - writes the device trace as a JSON array of Chrome trace
 * events ("X" spans and "i" instants, times in microseconds), naming each
 * track the first time it is used. Thread-safe; buffered, completed at exit
 * (a trace cut short still loads: the closing bracket is optional). It must
 * not look at commands or kernels, only at the strings it is given.
 */
#include "device/cp_json.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define CP_JSON_TRACKS 257

struct cp_json {
  struct cp_json *next;
  FILE *f;
  pthread_mutex_t mu;
  bool named[CP_JSON_TRACKS];
};

static pthread_mutex_t open_mu = PTHREAD_MUTEX_INITIALIZER;
static struct cp_json *open_files;
static bool exit_hook;

static void close_all(void) {
  pthread_mutex_lock(&open_mu);
  for (struct cp_json *j = open_files; j; j = j->next) {
    pthread_mutex_lock(&j->mu);
    if (j->f) {
      fputs("{}]\n", j->f);
      fclose(j->f);
      j->f = NULL;
    }
    pthread_mutex_unlock(&j->mu);
  }
  pthread_mutex_unlock(&open_mu);
}

struct cp_json *cp_json_open(const char *path) {
  struct cp_json *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  j->f = fopen(path, "w");
  if (!j->f) {
    fprintf(stderr, "lockstep: cannot write the device trace to %s\n", path);
    free(j);
    return NULL;
  }
  pthread_mutex_init(&j->mu, NULL);
  fputs("[\n", j->f);
  pthread_mutex_lock(&open_mu);
  j->next = open_files;
  open_files = j;
  if (!exit_hook) exit_hook = atexit(close_all) == 0;
  pthread_mutex_unlock(&open_mu);
  return j;
}

void cp_json_close(struct cp_json *j) {
  if (!j) return;
  pthread_mutex_lock(&open_mu);
  for (struct cp_json **pp = &open_files; *pp; pp = &(*pp)->next)
    if (*pp == j) {
      *pp = j->next;
      break;
    }
  pthread_mutex_unlock(&open_mu);
  if (j->f) {
    fputs("{}]\n", j->f);
    fclose(j->f);
  }
  pthread_mutex_destroy(&j->mu);
  free(j);
}

/* Under j->mu: the metadata event naming a track, once. */
static void name_track(struct cp_json *j, unsigned track) {
  if (track >= CP_JSON_TRACKS || j->named[track]) return;
  j->named[track] = true;
  if (track == CP_JSON_CP_TRACK)
    fprintf(j->f, "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"thread_name\","
                  "\"args\":{\"name\":\"command processor\"}},\n");
  else
    fprintf(j->f,
            "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\","
            "\"args\":{\"name\":\"compute unit %u\"}},\n",
            track, track - 1);
}

static void event(struct cp_json *j, char ph, unsigned track, const char *name, const char *detail,
                  uint64_t t0, uint64_t t1) {
  if (!j) return;
  pthread_mutex_lock(&j->mu);
  if (j->f) {
    name_track(j, track);
    fprintf(j->f, "{\"ph\":\"%c\",\"pid\":1,\"tid\":%u,\"name\":\"%s\",\"ts\":%" PRIu64 ".%03u", ph,
            track, name, t0 / 1000, (unsigned)(t0 % 1000));
    if (ph == 'X')
      fprintf(j->f, ",\"dur\":%" PRIu64 ".%03u", (t1 - t0) / 1000, (unsigned)((t1 - t0) % 1000));
    else
      fputs(",\"s\":\"t\"", j->f);
    if (detail) fprintf(j->f, ",\"args\":{\"detail\":\"%s\"}", detail);
    fputs("},\n", j->f);
    if (track == CP_JSON_CP_TRACK) fflush(j->f);
  }
  pthread_mutex_unlock(&j->mu);
}

void cp_json_span(struct cp_json *j, unsigned track, const char *name, const char *detail,
                  uint64_t t0, uint64_t t1) {
  event(j, 'X', track, name, detail, t0, t1 < t0 ? t0 : t1);
}

void cp_json_instant(struct cp_json *j, unsigned track, const char *name, const char *detail,
                     uint64_t t) {
  event(j, 'i', track, name, detail, t, t);
}
