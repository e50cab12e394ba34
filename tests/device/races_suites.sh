#!/usr/bin/env bash
# The other direction of the data-race checker: the device's kernel suites
# and host programs, all correct kernels, run with LOCKSTEP_CHECK=races
# still pass and the checker reports nothing (no "races" record in
# LOCKSTEP_CHECK_LOG): all of them at warp width 32, the kernel suites that
# use sub-groups, atomics and barriers most at width 8 too (the whole set
# at 8 is `races_suites.sh BUILD all`; it costs minutes under the
# sanitizers). $1 is the build folder.
set -u
build=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
suites="device_test_kernels device_test_kernels_int device_test_kernels_builtins
        device_test_kernels_math device_test_kernels_claims device_test_simt"
hosts="vecadd buffers images ooo"
for W in 32 8; do
  if [ $W = 8 ] && [ "${2:-}" != all ]; then
    suites="device_test_kernels device_test_kernels_claims"
    hosts=""
  fi
  log="$tmp/w$W.log"
  : >"$log"
  for s in $suites; do
    if ! (cd "$here" && LOCKSTEP_WARP_WIDTH=$W LOCKSTEP_CHECK=races LOCKSTEP_CHECK_LOG="$log" \
      CK_VERBOSITY=silent "$build/tests/$s" >"$tmp/out" 2>&1); then
      echo "races_suites: FAIL: $s at W=$W fails with the checker on:"
      tail -20 "$tmp/out"
      fail=1
    fi
  done
  for h in $hosts; do
    if ! (cd "$here/../host" && LOCKSTEP_WARP_WIDTH=$W LOCKSTEP_CHECK=races \
      LOCKSTEP_CHECK_LOG="$log" "$build/tests/host/host_$h" >"$tmp/out" 2>&1); then
      echo "races_suites: FAIL: host $h at W=$W fails with the checker on:"
      tail -20 "$tmp/out"
      fail=1
    fi
  done
  if grep -q '^races' "$log"; then
    echo "races_suites: FAIL: W=$W: the checker reported races in correct kernels:"
    grep '^races' "$log" | cut -f2,6
    fail=1
  else
    echo "races_suites: ok: W=$W, $(echo $suites $hosts | wc -w) programs, no report"
  fi
done
exit $fail
