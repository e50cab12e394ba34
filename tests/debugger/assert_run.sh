#!/bin/bash
# assert() outside the debugger: host_run runs assert.cl normally; the failed
# assertion ends the launch with a device exception that names the file, the
# line and the condition, the event status is negative and the host program
# goes on to its end. $1 is the build folder.
set -u
source "$(dirname "$0")/host_env.bash"
out=$(cd "$here" && timeout 120 "$build/tests/debugger/host_run" assert.cl 4 2 2>&1)
rc=$?
fail=0
expect() {
  if ! grep -qF -- "$1" <<<"$out"; then
    echo "FAIL: the output lacks: $1"
    fail=1
  fi
}
[ $rc -eq 0 ] || { echo "FAIL: host_run exited with $rc"; fail=1; }
expect "device exception in kernel 'k' at program.cl:6, work-item (2,0,0)"
expect "Assertion \`x != 0' failed"
expect "launch failed: status -5"
[ $fail -eq 0 ] && echo "ok: assert outside the debugger" || printf '%s\n' "$out"
exit $fail
