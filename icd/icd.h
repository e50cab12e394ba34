/*
 * icd.h - the exported ICD surface: the dispatch table every object carries
 * (installed into the runtime, which only declares rt_dispatch) and
 * extension function lookup. The ICD layer sits above the runtime: it may
 * include runtime headers, never the other way round.
 */
#ifndef LOCKSTEP_ICD_ICD_H
#define LOCKSTEP_ICD_ICD_H

#include "runtime/interop.h"
#include "runtime/rt.h"

/* The one dispatch table (designated initialisers, every slot filled). */
extern const cl_icd_dispatch icd_dispatch;

/* Looks up an extension function by name; NULL when unknown. */
void *icd_extension_function(const char *name);

#endif
