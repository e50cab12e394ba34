#!/bin/bash
# Stopped launches at their edges (stops_drive.py, host_stops.c): `quit`
# or the front end going away with four launches stopped, the program
# calling exit() with launches stopped, a device exception beside a stop,
# `continue -a`, one kernel object launched on two queues at once, an
# interrupt while two launches run (it pauses both), and a breakpoint set
# at one launch's prompt while another runs (it stops that one too), and
# launches whose output must follow the `running N` of their period. Each
# program checks its own results; every launch must end right.
set -u
source "$(dirname "$0")/host_env.bash"
prog=$build/tests/debugger/host_stops
fail=0
run() {
  env "${@:2}" python3 "$here/stops_drive.py" "$prog" "$1" || fail=1
}
for sc in quit close exit fault continue_all shared interrupt bp_running running_first; do
  run $sc LOCKSTEP_HOST_THREADS=2
done
for sc in quit interrupt bp_running; do
  run $sc LOCKSTEP_CP_SWITCH_EVERY=1
done
exit $fail
