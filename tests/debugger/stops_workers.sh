#!/bin/bash
# One stop per warp on several device workers: the transcripts of launches
# of 2^20 work-items (stops_*.inp; their .ref files are made on one worker)
# give the same output, run after run, on 2 and 4 workers: a pass stops at
# the lowest work-group that reaches a breakpoint whichever worker gets
# there first. $1 is the build folder; STOPS_RUNS sets the runs per
# transcript and worker count (default 5).
set -u
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
runs=${STOPS_RUNS:-5}
cd "$here" || exit 1
fail=0 n=0
for name in stops_warp stops_follow stops_barrier stops_ignore; do
  for threads in 2 4; do
    for ((r = 0; r < runs; r++)); do
      out=$(LOCKSTEP_HOST_THREADS=$threads timeout 120 "$build/lockstep" debug --kernel "$name.cl" \
        $(cat "$name.args") --spec "$name.spec" -x "$name.inp" 2>&1)
      n=$((n + 1))
      if ! diff -u "$name.ref" <(printf '%s\n' "$out") > /dev/null; then
        echo "FAIL: $name on $threads workers (run $r) differs from $name.ref:"
        diff -u "$name.ref" <(printf '%s\n' "$out") | head -20
        fail=1
        break
      fi
    done
  done
done
[ $fail -eq 0 ] && echo "ok: $n runs of the per-warp stop transcripts on 2 and 4 workers"
exit $fail
