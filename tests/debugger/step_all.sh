#!/bin/bash
# Stepping every work-item to the end with `scope all` gives the host program
# byte-identical output to an undebugged run of the same program.
set -u
source "$(dirname "$0")/host_env.bash"
export OCL_ICD_VENDORS="$build/vendors/lockstep.icd"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here" || exit 1
timeout 120 "$build/tests/debugger/host_run" step_all.cl 8 4 > "$tmp/plain" 2>&1 || {
  echo "FAIL: the undebugged run failed"; cat "$tmp/plain"; exit 1; }
{ echo start; echo scope all; for i in $(seq 80); do echo step; done; } > "$tmp/cmds"
timeout 300 "$build/lockstep" debug -x "$tmp/cmds" -- "$build/tests/debugger/host_run" step_all.cl 8 4 \
  > "$tmp/debugged" 2>&1
if ! grep -q '^Kernel k finished\.$' "$tmp/debugged"; then
  echo "FAIL: stepping with scope all did not finish the kernel"
  tail -20 "$tmp/debugged"
  exit 1
fi
if grep -q 'Device exception' "$tmp/debugged"; then
  echo "FAIL: a device exception while stepping"; exit 1
fi
# the program's own output: every line that is not the debugger's
grep -v -e '^(lockstep)' -e '^k work-item' -e '^[0-9][0-9]*	' -e '^Kernel ' -e '^Work-item ' \
  -e '^work-item ' -e '^The ' -e '^\[program exited' -e '^Every work-item' -e '^Stepping ' "$tmp/debugged" > "$tmp/prog"
if ! cmp -s "$tmp/plain" "$tmp/prog"; then
  echo "FAIL: output under stepping differs from the undebugged run"
  diff -u "$tmp/plain" "$tmp/prog"
  exit 1
fi
echo "ok: step_all ($(grep -c '^(lockstep) step' "$tmp/debugged") steps, output identical)"
