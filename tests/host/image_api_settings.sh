#!/usr/bin/env bash
# The image_api host program (image commands through the ICD loader) under
# forced command-stream switches after every step and at random, a 1 us
# time slice, and one and two host threads: the image commands are device
# commands like any other and replay from the trace the same way. With
# LOCKSTEP_TRACE the command processor's trace names the rect fill a
# clEnqueueFillImage becomes.
set -u
build=$1
prog="$build/tests/host/host_image_api"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {
  if ! env "$@" "$prog" >"$tmp/out" 2>&1; then
    echo "image_api_settings: FAIL with $*"
    cat "$tmp/out"
    fail=1
  else
    echo "image_api_settings: ok with $*"
  fi
}

for threads in 1 2; do
  run LOCKSTEP_HOST_THREADS=$threads LOCKSTEP_CP_SWITCH_EVERY=1
  run LOCKSTEP_HOST_THREADS=$threads LOCKSTEP_CP_SWITCH_SEED=7
  run LOCKSTEP_HOST_THREADS=$threads LOCKSTEP_CP_SLICE_US=1
done
run LOCKSTEP_TRACE="$tmp/trace.json"
if ! grep -q '"fill rect"' "$tmp/trace.json" 2>/dev/null; then
  echo "image_api_settings: FAIL: no fill rect command in the trace"
  fail=1
fi
exit $fail
