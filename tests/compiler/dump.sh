#!/usr/bin/env bash
# `lockstep compile --dump` on a kernel with an `if` and a `for` loop: the
# listing interleaves source lines with LSI, shows the seed-004 control flow
# (SSY, SYNC, YIELD), the microkernels with their roles, and the symbols.
# A kernel with a syntax error fails with a file:line:col diagnostic.
set -u
build=$1
if [ -n "${LOCKSTEP_ASAN_RUNTIME:-}" ]; then export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"; fi
fail=0
bad() { echo "dump: FAIL: $*"; fail=1; }
out=$("$build/lockstep" compile --dump if_for.cl -cl-opt-disable 2>&1)
rc=$?
[ $rc -eq 0 ] || bad "compile exited $rc: $out"
want=(
  "kernel scale:"
  "    4 |   if (i < n)"
  "    6 |   for (int j = 0; j < 4; j++) {"
  "    7 |     acc += j;"
  "SSY"
  "SYNC"
  "YIELD"
  "BRA_P"
  "EXIT"
  "microkernels:"
  "cond"
  "loop-init"
  "loop-cond"
  "loop-body"
  "loop-inc"
  "symbols:"
)
for w in "${want[@]}"; do
  printf '%s\n' "$out" | grep -qF -- "$w" || bad "listing lacks '$w'"
done
printf '%s\n' "$out" | grep -qE '^ +j +int +private\+[0-9]+ size 4  lines 6-8' || bad "symbol j with scope 6-8 missing"
printf '%s\n' "$out" | grep -qE '^ +data +__global float \* +private' || bad "parameter data missing"
tmp=$(mktemp -d)
printf '__kernel void k(__global int *o) {\n  o[0] = 1\n}\n' > "$tmp/broken.cl"
err=$("$build/lockstep" compile --dump "$tmp/broken.cl" 2>&1)
[ $? -ne 0 ] || bad "a syntax error compiled"
printf '%s\n' "$err" | grep -q "broken.cl:2:11: error:" || bad "no file:line:col error: $err"
rm -rf "$tmp"
[ $fail -eq 0 ] && echo "dump: ok"
exit $fail
