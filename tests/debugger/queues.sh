#!/bin/bash
# Several launches stopped at once (debugger/README.md): host_queues's N
# launches on N queues and host threads all stop at a breakpoint while a
# queue of its own completes a kernel; each is switched to and continued to
# a byte-identical result, with every work-item's atomic increment done
# once. Four launches; four under forced command-processor switches;
# three under random ones; and
# eight, more than the processor has threads, so none may hold one.
set -u
source "$(dirname "$0")/host_env.bash"
prog=$build/tests/debugger/host_queues
fail=0
run() {
  echo "== $*"
  env "$@" python3 "$here/queues_drive.py" "$prog" "${N}" || fail=1
}
N=4 run LOCKSTEP_HOST_THREADS=2
N=4 run LOCKSTEP_CP_SWITCH_EVERY=1
N=3 run LOCKSTEP_CP_SWITCH_SEED=7
N=8 run LOCKSTEP_HOST_THREADS=2
exit $fail
