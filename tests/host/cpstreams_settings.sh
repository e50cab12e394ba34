#!/usr/bin/env bash
# More command streams than processor threads (the cpstreams host program:
# 16 host threads, own queues, exact atomic counts) under the default
# settings, a forced switch after every step, a 1 us time
# slice (every pass still runs a work-group), each with one and two compute
# units (host threads).
set -u
build=$1
prog="$build/tests/host/host_cpstreams"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {
  if ! env "$@" "$prog" >"$tmp/out" 2>&1; then
    echo "cpstreams: FAIL with $*"
    cat "$tmp/out"
    fail=1
  else
    echo "cpstreams: ok with $*"
  fi
}

for threads in 1 2; do
  run LOCKSTEP_HOST_THREADS=$threads
  run LOCKSTEP_HOST_THREADS=$threads LOCKSTEP_CP_SWITCH_EVERY=1
  run LOCKSTEP_HOST_THREADS=$threads LOCKSTEP_CP_SLICE_US=1
done
exit $fail
