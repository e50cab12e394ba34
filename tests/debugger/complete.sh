#!/bin/bash
# Tab completion at the prompt, standalone and in host mode (complete.py
# says what is checked). $1 is the build folder.
set -u
export LOCKSTEP_HOST_THREADS=${LOCKSTEP_HOST_THREADS:-2}
source "$(dirname "$0")/host_env.bash"
cd "$here" || exit 1
exec python3 complete.py "$build/lockstep" "$build/tests/debugger/host_run"
