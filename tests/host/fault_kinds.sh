#!/usr/bin/env bash
# Runs tests/host/faults.c once per device exception kind, with the setting
# each kind needs; every run must end well.
set -u
bin="$1/tests/host/host_faults"
fail=0
run() { # kind [env...]
  local kind=$1
  shift
  if env "$@" "$bin" "$kind"; then :; else
    echo "fault_kinds.sh: $kind failed"
    fail=1
  fi
}
run divzero
run misaligned
run barrier
run watchdog LOCKSTEP_WATCHDOG_MS=300
run spin LOCKSTEP_RECONVERGENCE=stack
echo "fault_kinds.sh: $([ $fail -eq 0 ] && echo ok || echo FAILED)"
exit $fail
