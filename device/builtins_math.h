/*
 * builtins_math.h - the math builtins of device/builtins_math.c whose
 * special cases (OpenCL C specification, "Edge Case Behavior") or accuracy
 * the host's libm does not give, for the table in device/builtins.c. The
 * float forms take and return float, the double forms double.
 */
#ifndef LOCKSTEP_DEVICE_BUILTINS_MATH_H
#define LOCKSTEP_DEVICE_BUILTINS_MATH_H

#include <stdint.h>

/* fmax/fmin/maxmag/minmag: a NaN operand (quiet or signalling) gives the
 * other operand; -0 counts as less than +0. */
float bm_fmax_f(float x, float y);
double bm_fmax_d(double x, double y);
float bm_fmin_f(float x, float y);
double bm_fmin_d(double x, double y);
float bm_maxmag_f(float x, float y);
double bm_maxmag_d(double x, double y);
float bm_minmag_f(float x, float y);
double bm_minmag_d(double x, double y);

/* pow(x, +-0), pow(1, y), pown(x, 0) are 1 and hypot(+-inf, y) is +inf
 * even for a signalling NaN. */
double bm_pow_d(double x, double y);
double bm_pown_d(double x, int n);
double bm_hypot_d(double x, double y);

/* powr (x^y for x >= 0 only), rootn. */
float bm_powr_f(float x, float y);
double bm_powr_d(double x, double y);
float bm_rootn_f(float x, int n);
double bm_rootn_d(double x, int n);

/* ilogb with FP_ILOGB0 = INT_MIN and FP_ILOGBNAN = INT_MAX. */
int bm_ilogb_f(float x);
int bm_ilogb_d(double x);

/* sinpi, cospi, tanpi with the argument reduced exactly; cbrt. */
float bm_sinpi_f(float x);
double bm_sinpi_d(double x);
float bm_cospi_f(float x);
double bm_cospi_d(double x);
float bm_tanpi_f(float x);
double bm_tanpi_d(double x);
double bm_cbrt_d(double x);

/* lgamma, without writing libm's global signgam. */
float bm_lgamma_f(float x);
double bm_lgamma_d(double x);

/* length and normalize of n components (each as the bits of a float or a
 * double, as the builtins receive them): no overflow or underflow in the
 * middle, a NaN component gives NaN, infinite components as the
 * specification says for normalize. */
float bm_length_f(const uint64_t *v, unsigned n);
double bm_length_d(const uint64_t *v, unsigned n);
void bm_normalize_f(uint64_t *res, const uint64_t *v, unsigned n);
void bm_normalize_d(uint64_t *res, const uint64_t *v, unsigned n);

#endif
