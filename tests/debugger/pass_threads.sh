#!/bin/bash
# Full-speed passes on several device workers: work-groups run in parallel
# when a breakpoint stops the pass, yet every work-item whose condition holds
# stops exactly once, the atomic counter reads exactly 16 and the program's
# output equals an undebugged run's.
set -u
source "$(dirname "$0")/host_env.bash"
export OCL_ICD_VENDORS="$build/vendors/lockstep.icd"
export LOCKSTEP_HOST_THREADS=4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here" || exit 1
timeout 120 "$build/tests/debugger/host_prog" host_kernel.cl > "$tmp/plain" 2>&1 || {
  echo "FAIL: the undebugged run failed"; cat "$tmp/plain"; exit 1; }
{ echo 'break host_kernel.cl:15 if gid % 4 == 0'; echo run
  for i in $(seq 4); do echo 'print gid'; echo 'info workitems'; echo continue; done
  echo quit; } > "$tmp/cmds"
timeout 300 "$build/lockstep" debug -x "$tmp/cmds" -- "$build/tests/debugger/host_prog" host_kernel.cl \
  > "$tmp/debugged" 2>&1
fail=0
stops=$(grep -c '^Breakpoint 1, count work-item' "$tmp/debugged")
items=$(grep '^Breakpoint 1, count work-item' "$tmp/debugged" | sed 's/.*work-item (\([0-9]*\),.*/\1/' | sort -n | tr '\n' ' ')
if [ "$stops" != 4 ] || [ "$items" != "0 4 8 12 " ]; then
  echo "FAIL: expected one stop each for work-items 0 4 8 12, got $stops: $items"; fail=1
fi
# at every stop the printed gid is the stopped item's
printed=$(grep -A1 '^(lockstep) print gid' "$tmp/debugged" | grep '^\$[0-9]* = ' | sed 's/^\$[0-9]* = //' | sort -n | tr '\n' ' ')
if [ "$printed" != "0 4 8 12 " ]; then
  echo "FAIL: print gid at the stops gave $printed"; fail=1
fi
if ! grep -q '^counter = 16, distinct tickets = yes$' "$tmp/debugged"; then
  echo "FAIL: the counter is not exactly 16 after the stops"; fail=1
fi
if ! grep -q '^\[program exited with code 0\]$' "$tmp/debugged"; then
  echo "FAIL: the program did not exit with code 0"; fail=1
fi
for line in "$(grep '^scale:' "$tmp/plain")" "$(grep '^fill:' "$tmp/plain")"; do
  grep -qxF "$line" "$tmp/debugged" || { echo "FAIL: missing '$line'"; fail=1; }
done
if [ $fail != 0 ]; then cat "$tmp/debugged"; exit 1; fi
echo "ok: pass_threads ($stops stops on 4 workers: $items)"
