#!/usr/bin/env bash
# Device-side enqueue with wait lists mixing a user event, kernel events
# and a marker (the userevents host program), looped: hundreds of parent
# launches whose work-items release their events while commands still wait
# for them, over one and several work-groups, with one and two compute
# units, under forced switches after every step and at random points. A
# hang ends the program by its alarm and fails the test.
set -u
build=$1
prog="$build/tests/host/host_userevents"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {
  local args=$1
  shift
  if ! env "$@" "$prog" $args >"$tmp/out" 2>&1; then
    echo "userevents_stress: FAIL with $* (runs, global, local: $args)"
    cat "$tmp/out"
    fail=1
  else
    echo "userevents_stress: ok with $* ($(head -1 "$tmp/out"))"
  fi
}

for threads in 1 2; do
  run "200 64 1" LOCKSTEP_HOST_THREADS=$threads
  run "100 128 64" LOCKSTEP_HOST_THREADS=$threads
  run "10 16 4" LOCKSTEP_HOST_THREADS=$threads LOCKSTEP_CP_SWITCH_EVERY=1
  run "10 16 1" LOCKSTEP_HOST_THREADS=$threads LOCKSTEP_CP_SWITCH_SEED=$((threads + 4))
done
exit $fail
