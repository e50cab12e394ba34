/*
 * builtins_ext.h - the builtins of device/builtins_ext.c (sub-group
 * collectives, integer select/bitselect, shuffle/shuffle2, prefetch,
 * convert_* with rounding modes and saturation, and the double forms of the
 * geometric functions and of fract/frexp/modf/sincos) and of
 * device/builtins_enq.c (device-side enqueue), declared for the table
 * in device/builtins.c. Only builtins.c and builtins_ext.c include this.
 */
#ifndef LOCKSTEP_DEVICE_BUILTINS_EXT_H
#define LOCKSTEP_DEVICE_BUILTINS_EXT_H

#include "device/builtins.h"

#define BX_ARGS                                                                                    \
  struct simt_lane *ln, uint64_t *res, const uint64_t *arg, unsigned nargs, uint32_t data
#define BW_ARGS                                                                                    \
  struct simt_lane *ln, uint64_t act, unsigned W, uint64_t *const *res,                            \
      const uint64_t *const *arg, uint32_t data

/* Sub-group collectives (whole-warp builtins). data: element type in bits
 * 0-3 (enum bx_elem), operation in bits 4-7 (0 add, 1 min, 2 max). */
enum bx_elem { BX_I32, BX_U32, BX_I64, BX_U64, BX_F32, BX_F64 };
void bw_broadcast(BW_ARGS);
void bw_reduce(BW_ARGS);
void bw_scan_incl(BW_ARGS);
void bw_scan_excl(BW_ARGS);
void bw_any(BW_ARGS);
void bw_all(BW_ARGS);
/* op (0 add, 1 min, 2 max) on two values of type ty, and its identity
 * (what an exclusive scan starts with). */
uint64_t bx_combine(unsigned ty, unsigned op, uint64_t a, uint64_t b);
uint64_t bx_identity(unsigned ty, unsigned op);

/* Work-group collectives (device/builtins_group.c; LSI_BI_GROUP, data as
 * for the sub-group ones; bg_broadcast: data = number of local ids). */
#define BG_ARGS                                                                                    \
  struct simt_lane *ln, uint64_t n, uint64_t *res, const uint64_t *const *arg, uint32_t data
bool bg_broadcast(BG_ARGS);
bool bg_reduce(BG_ARGS);
bool bg_scan_incl(BG_ARGS);
bool bg_scan_excl(BG_ARGS);
bool bg_any(BG_ARGS);
bool bg_all(BG_ARGS);

/* Integer select (data: bits) and bitselect (data: bits). */
void bx_select_i(BX_ARGS);
void bx_bitselect_i(BX_ARGS);
/* shuffle / shuffle2: data = n | m << 8 (n source elements, m results). */
void bx_shuffle(BX_ARGS);
void bx_shuffle2(BX_ARGS);
void bx_prefetch(BX_ARGS);
/* convert_<dst>[_sat][_<mode>](<src>): data = src | dst << 4 (0-9: c h s t
 * i j l m f d) | mode << 8 (0 default, 1 rte, 2 rtz, 3 rtp, 4 rtn) | sat << 12. */
void bx_convert(BX_ARGS);
/* Double forms: data = vector length. */
void bx_dot_d(BX_ARGS);
void bx_length_d(BX_ARGS);
void bx_distance_d(BX_ARGS);
void bx_normalize_d(BX_ARGS);
void bx_cross_d(BX_ARGS);
void bx_fract_d(BX_ARGS);
void bx_frexp_d(BX_ARGS);
void bx_modf_d(BX_ARGS);
void bx_sincos_d(BX_ARGS);
/* lgamma_r and remquo (float and double; the int result through the last
 * argument) and nan(uint), nan(ulong). */
void bx_lgamma_r_f(BX_ARGS);
void bx_lgamma_r_d(BX_ARGS);
void bx_remquo_f(BX_ARGS);
void bx_remquo_d(BX_ARGS);
void bx_nan_f(BX_ARGS);
void bx_nan_d(BX_ARGS);

/* Device-side enqueue (device/builtins_enq.c). bq_enqueue takes (queue,
 * flags, ndrange address, number of events, wait list, event_ret, kernel
 * index, block literal address, number of local sizes, their address). */
void bq_enqueue(BX_ARGS);
void bq_marker(BX_ARGS);
void bq_default_queue(BX_ARGS);
void bq_retain_event(BX_ARGS);
void bq_release_event(BX_ARGS);
void bq_create_user_event(BX_ARGS);
void bq_set_user_event_status(BX_ARGS);
void bq_is_valid_event(BX_ARGS);
void bq_capture_profiling(BX_ARGS);
void bq_kernel_query(BX_ARGS);
/* get_kernel_sub_group_count_for_ndrange (data 0) and
 * get_kernel_max_sub_group_size_for_ndrange (data 1): (kernel index, the
 * ndrange_t's address). */
void bq_subgroup_query(BX_ARGS);
/* ndrange_<dim>D: data = dim | values << 4; argument 0 is the result's address,
 * then values sizes (1D) or addresses of arrays of dim sizes. */
void bq_ndrange(BX_ARGS);

#endif
