/*
 * cp_json.h - the device trace file (LOCKSTEP_TRACE=out.json): Chrome /
 * Perfetto trace events, one track for the command processor and one per
 * compute unit. Only writes what it is told; it must not decide anything
 * about scheduling.
 */
#ifndef LOCKSTEP_DEVICE_CP_JSON_H
#define LOCKSTEP_DEVICE_CP_JSON_H

#include <stdint.h>

struct cp_json;

/* Track 0 is the command processor, track 1 + k compute unit k. */
#define CP_JSON_CP_TRACK 0

/* NULL when the file cannot be created (a message goes to stderr). The
 * file is completed at exit or by cp_json_close. */
struct cp_json *cp_json_open(const char *path);
void cp_json_close(struct cp_json *j);
/* A span [t0, t1] (device nanoseconds) on a track; detail may be NULL. */
void cp_json_span(struct cp_json *j, unsigned track, const char *name, const char *detail,
                  uint64_t t0, uint64_t t1);
/* A point event on a track. */
void cp_json_instant(struct cp_json *j, unsigned track, const char *name, const char *detail,
                     uint64_t t);

#endif
