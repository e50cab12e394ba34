/*
 * dbg_cond.h - breakpoint conditions compiled for one statement: the text
 * is parsed once, its names resolved to addresses and types as the
 * statement sees them, and the result evaluated per work-item without the
 * session, its lock or any parsing (a pass runs it on the device's workers).
 *
 * The compiled form decides only what the interpreter (dbg_expr.c) would
 * decide the same way: any text it does not handle is refused when
 * compiled, and any evaluation it cannot finish (memory it cannot read, a
 * division by zero, an index out of range) is "unknown", for the
 * interpreter to evaluate and report.
 */
#ifndef LOCKSTEP_DEBUGGER_DBG_COND_H
#define LOCKSTEP_DEBUGGER_DBG_COND_H

#include <stdint.h>

#include "debugger/dbg.h"

struct dbg_cond;

/* How an evaluation reads the work-items of a warp's lanes (lanes 0-63):
 * memory as lane sees it (NULL when size bytes at addr are not all
 * readable), a special register (enum lsi_sreg); and, when priv is not
 * NULL, the lanes' private frames, read directly: lane's priv_size bytes
 * at priv + lane * priv_stride. */
struct dbg_cond_io {
  void *ctx;
  void *(*mem)(void *ctx, unsigned lane, uint64_t addr, uint64_t size);
  uint64_t (*sreg)(void *ctx, unsigned lane, unsigned sreg);
  const uint8_t *priv;
  uint64_t priv_stride, priv_size;
};

/* Compiles text with env's names and struct layouts (lookup, type): NULL
 * when it uses what the compiled form does not handle (assignment, calls
 * other than the work-item functions, value history, ?:, @, sizeof,
 * address-of, swizzles of several components, images), when env's
 * interpreter refuses its types, or out of memory. */
struct dbg_cond *dbg_cond_compile(const struct dbg_env *env, const char *text);
/* For the lanes in a mask, all at once: the lanes for which it holds;
 * *unknown the lanes it could not decide (the interpreter says why).
 * Thread-safe. */
uint64_t dbg_cond_eval_lanes(const struct dbg_cond *c, const struct dbg_cond_io *io, uint64_t lanes,
                             uint64_t *unknown);
/* For lane 0 alone: 0 false, 1 true, -1 unknown. */
int dbg_cond_eval(const struct dbg_cond *c, const struct dbg_cond_io *io);
void dbg_cond_free(struct dbg_cond *c);

/* A work-item function as an expression calls it with dimension dim: 1
 * with *sreg the special register it reads, or with *sreg UINT32_MAX and
 * *value its result (a dimension past 2); 0 for no such function. */
int dbg_item_fn(const char *name, unsigned dim, unsigned *sreg, uint64_t *value);

#endif
