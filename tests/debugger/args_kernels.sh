#!/bin/bash
# Struct arguments of two launches stopped at once (args_drive.py): host_args
# runs byval.cl on two queues with p.n = 5 and 9; `kernel K` then `print p`
# and `info args` show each launch's own struct. $1 is the build folder.
set -u
export LOCKSTEP_HOST_THREADS=${LOCKSTEP_HOST_THREADS:-2}
source "$(dirname "$0")/host_env.bash"
cd "$here" && exec timeout 300 python3 "$here/args_drive.py" "$build/tests/debugger/host_args" byval.cl
