/*
 * builtins_pipe.h - the pipe builtins of device/builtins_pipe.c, declared
 * for the table in device/builtins.c (data: 0 write, 1 read, unless said).
 * Only builtins.c and builtins_pipe.c include this.
 */
#ifndef LOCKSTEP_DEVICE_BUILTINS_PIPE_H
#define LOCKSTEP_DEVICE_BUILTINS_PIPE_H

#include "device/builtins.h"

#define BP_ARGS                                                                                    \
  struct simt_lane *ln, uint64_t *res, const uint64_t *arg, unsigned nargs, uint32_t data
#define BP_WARGS                                                                                   \
  struct simt_lane *ln, uint64_t act, unsigned W, uint64_t *const *res,                            \
      const uint64_t *const *arg, uint32_t data

void bp_rw2(BP_ARGS);        /* read_pipe/write_pipe (pipe, ptr) */
void bp_rw4(BP_ARGS);        /* read_pipe/write_pipe (pipe, rid, index, ptr) */
void bp_reserve(BP_ARGS);    /* reserve_{read,write}_pipe */
void bp_commit(BP_ARGS);     /* commit_{read,write}_pipe */
void bp_is_valid(BP_ARGS);   /* is_valid_reserve_id */
void bp_query(BP_ARGS);      /* data: 0 get_pipe_num_packets, 1 get_pipe_max_packets */
void bp_wg_reserve(BP_ARGS); /* work_group_ forms (LSI_BI_BARRIER) */
void bp_wg_commit(BP_ARGS);
void bp_sg_reserve(BP_WARGS); /* sub_group_ forms (LSI_BI_WARP) */
void bp_sg_commit(BP_WARGS);

#endif
