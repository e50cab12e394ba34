#!/usr/bin/env bash
# Every kernel of the device's kernel suites (and the compiler's execution
# tests) under LOCKSTEP_CHECK=uninit: each suite passes and the checker
# reports nothing. First a kernel with a known bug shows the checker is on.
# $1 is the build folder.
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
(cd "$(dirname "$0")/../host" && LOCKSTEP_CHECK=uninit LOCKSTEP_CHECK_LOG="$tmp/probe" \
  "$build/tests/host/host_uninitkern" uninit/uninit.cl tile_half 128 64 >/dev/null 2>&1)
if ! grep -q "^uninit	tile_half	" "$tmp/probe" 2>/dev/null; then
  echo "uninit_suites: FAIL: the checker reported nothing on a half-written tile"
  exit 1
fi
for t in device_test_kernels device_test_kernels_builtins device_test_kernels_int \
  device_test_kernels_math device_test_simt compiler_test_exec; do
  : >"$tmp/log"
  if ! (cd "$(dirname "$0")" && LOCKSTEP_CHECK=uninit LOCKSTEP_CHECK_LOG="$tmp/log" \
    "$build/tests/$t" >"$tmp/out" 2>&1); then
    echo "uninit_suites: FAIL: $t failed under LOCKSTEP_CHECK=uninit"
    tail -20 "$tmp/out"
    fail=1
  elif grep -q "^uninit" "$tmp/log"; then
    echo "uninit_suites: FAIL: $t: reports on correct kernels:"
    grep "^uninit" "$tmp/log" | head -20
    fail=1
  else
    echo "uninit_suites: ok: $t, no report"
  fi
done
exit $fail
