#!/usr/bin/env bash
# The other direction of the checkers: every kernel of the device's kernel
# suites, of the compiler's execution tests and of the host programs in
# tests/host - all correct kernels - runs with both checkers on
# (LOCKSTEP_CHECK=uninit,races), still passes, and neither checker reports
# anything (no races or uninit record in LOCKSTEP_CHECK_LOG; the faults
# some host programs make on purpose are logged there too).
#   check_suites.sh BUILD [all]
# The kernel suites run themselves at warp widths 32 and 8 (kharness.h);
# the other programs run at width 32, and at 8 too with `all` (or
# LOCKSTEP_CHECK_SUITES=all), which also adds the device-side enqueue
# suite: minutes more under the sanitizers, so `make check-suites` runs it
# and `make check` does not. First a buggy kernel of each kind shows both
# checkers are on.
set -u
build=$1
mode=${2:-${LOCKSTEP_CHECK_SUITES:-}}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../util/run_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LOCKSTEP_CHECK=uninit,races CK_VERBOSITY=silent
fail=0

probe() { # kind program args... : the checker of kind must report
  local kind=$1
  shift
  : >"$tmp/probe"
  lsr_run "$tmp/out" "$here/../host" LOCKSTEP_CHECK_LOG="$tmp/probe" -- "$@"
  if ! grep -q "^$kind	" "$tmp/probe"; then
    lsr_fail check_suites "$tmp/out" "no $kind report on a buggy kernel"
    fail=1
  fi
}
probe uninit "$build/tests/host/host_uninitkern" uninit/uninit.cl tile_half 128 64
probe races "$build/tests/host/host_racekern" races/races.cl reduce_nobar 128 64
[ $fail = 0 ] || exit 1

run() { # name width dir program... : passes and reports nothing
  local name=$1 W=$2 dir=$3
  shift 3
  : >"$tmp/log"
  if ! lsr_run "$tmp/out" "$dir" LOCKSTEP_WARP_WIDTH=$W LOCKSTEP_CHECK_LOG="$tmp/log" -- "$@"; then
    lsr_fail check_suites "$tmp/out" "$name fails with the checkers on:"
    fail=1
  elif grep -qE '^(races|uninit)	' "$tmp/log"; then
    echo "check_suites: FAIL: $name: reports on correct kernels:"
    grep -E '^(races|uninit)	' "$tmp/log" | cut -f1-5 | head -20
    fail=1
  else
    echo "check_suites: ok: $name, no report"
  fi
}

suites="device_test_kernels device_test_kernels_int device_test_kernels_builtins
        device_test_kernels_math device_test_kernels_claims device_test_builtins_math"
[ "$mode" = all ] && suites="$suites device_test_enqueue"
for s in $suites; do
  run "$s (W=32 and 8)" 32 "$here" "$build/tests/$s"
done

widths=32
[ "$mode" = all ] && widths="32 8"
for W in $widths; do
  for t in compiler_test_exec compiler_test_exec_ir; do
    run "$t (W=$W)" $W "$here/../compiler" "$build/tests/$t"
  done
  for h in "$build"/tests/host/host_*; do
    n=${h##*/host_}
    run "host_$n (W=$W)" $W "$here/../host" "$h"
  done
done
exit $fail
