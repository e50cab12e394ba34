#!/bin/bash
# `lockstep debug` at a terminal reads what the library says while the user
# types (drain.py says what is checked). $1 is the build folder.
set -u
export LOCKSTEP_HOST_THREADS=${LOCKSTEP_HOST_THREADS:-2}
source "$(dirname "$0")/host_env.bash"
cd "$here" || exit 1
exec python3 drain.py "$build/lockstep" "$build/tests/debugger/host_stops"
