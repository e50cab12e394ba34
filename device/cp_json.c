/*
 * cp_json.c - writes the device trace as a JSON array of Chrome trace
 * events ("X" spans and "i" instants, times in microseconds), naming each
 * track the first time it is used. Each event is one jansson object on a
 * line of its own, so any name or detail (a quote, a control character,
 * bytes that are no UTF-8) gives valid JSON. Thread-safe; buffered,
 * completed at exit (a trace cut short still loads: the closing bracket is
 * optional). It must not look at commands or kernels, only at the strings
 * it is given.
 */
#include "device/cp_json.h"

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "device/json_text.h"

#define CP_JSON_TRACKS 257
/* Times are nanoseconds written as microseconds with three decimals: 15
 * significant digits print them exactly (up to 10^12 us, 11 days). */
#define CP_JSON_DUMP (JSON_COMPACT | JSON_REAL_PRECISION(15))

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

/* Under j->mu: writes one event and its separator; frees it. */
static void put(struct cp_json *j, json_t *ev) {
  if (ev && json_dumpf(ev, j->f, CP_JSON_DUMP) == 0) fputs(",\n", j->f);
  json_decref(ev);
}

static void set(json_t *o, const char *key, json_t *v) {
  json_object_set_new(o, key, v); /* takes v over; nothing when o is NULL */
}

/* {"ph":ph,"pid":1,"tid":track,"name":name}, the start of every event. */
static json_t *event_head(const char *ph, unsigned track, const char *name) {
  json_t *ev = json_object();
  set(ev, "ph", json_string(ph));
  set(ev, "pid", json_integer(1));
  set(ev, "tid", json_integer(track));
  set(ev, "name", dev_json_textz(name));
  return ev;
}

/* Under j->mu: the metadata event naming a track, once. */
static void name_track(struct cp_json *j, unsigned track) {
  if (track >= CP_JSON_TRACKS || j->named[track]) return;
  j->named[track] = true;
  char name[32];
  if (track == CP_JSON_CP_TRACK)
    snprintf(name, sizeof name, "command processor");
  else
    snprintf(name, sizeof name, "compute unit %u", track - 1);
  json_t *ev = event_head("M", track, "thread_name"), *args = json_object();
  set(args, "name", json_string(name));
  set(ev, "args", args);
  put(j, ev);
}

/* Nanoseconds as microseconds. */
static json_t *usec(uint64_t ns) {
  return json_real((double)ns / 1000.0);
}

static void event(struct cp_json *j, char ph, unsigned track, const char *name, const char *detail,
                  uint64_t t0, uint64_t t1) {
  if (!j) return;
  char phs[2] = {ph, 0};
  json_t *ev = event_head(phs, track, name);
  set(ev, "ts", usec(t0));
  if (ph == 'X')
    set(ev, "dur", usec(t1 - t0));
  else
    set(ev, "s", json_string("t"));
  if (detail) {
    json_t *args = json_object();
    set(args, "detail", dev_json_textz(detail));
    set(ev, "args", args);
  }
  pthread_mutex_lock(&j->mu);
  if (j->f) {
    name_track(j, track);
    put(j, ev);
    ev = NULL;
    if (track == CP_JSON_CP_TRACK) fflush(j->f);
  }
  pthread_mutex_unlock(&j->mu);
  json_decref(ev);
}

void cp_json_span(struct cp_json *j, unsigned track, const char *name, const char *detail,
                  uint64_t t0, uint64_t t1) {
  event(j, 'X', track, name, detail, t0, t1 < t0 ? t0 : t1);
}

void cp_json_instant(struct cp_json *j, unsigned track, const char *name, const char *detail,
                     uint64_t t) {
  event(j, 'i', track, name, detail, t, t);
}
