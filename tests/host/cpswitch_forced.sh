#!/usr/bin/env bash
# The command processor under forced and random switch points: the
# cpswitch host program (atomic counts, priorities, profiling order, five
# queues over two contexts) must pass with a switch after every operation
# or work-group, every third, and at random points for several seeds; and
# LOCKSTEP_TRACE must write a trace-event file with a command-processor
# track showing switches and replays and a track per compute unit. A
# launch's time slice ends its pass: host_vecadd's launch, interpreted on
# one host thread, runs in more than 10 passes of 50 microseconds.
set -u
build=$1
prog="$build/tests/host/host_cpswitch"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {
  if ! env "$@" "$prog" >"$tmp/out" 2>&1; then
    echo "cpswitch_forced: FAIL with $*"
    cat "$tmp/out"
    fail=1
  else
    echo "cpswitch_forced: ok with $* ($(head -1 "$tmp/out"))"
  fi
}

run LOCKSTEP_CP_SWITCH_EVERY=1
run LOCKSTEP_CP_SWITCH_EVERY=3
for seed in 1 2 3 4; do
  run LOCKSTEP_CP_SWITCH_SEED=$seed
done
run LOCKSTEP_CP_SLICE_US=200

vlog=$tmp/vecadd
OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-$build/vendors}" LOCKSTEP_STATS=1 LOCKSTEP_CP_SLICE_US=50 \
  LOCKSTEP_HOST_THREADS=1 LOCKSTEP_ENGINE=interp "$build/tests/host/host_vecadd" >"$vlog" 2>&1
vrc=$?
passes=$(sed -n 's/.*, \([0-9]*\) pass\(es\)\?, .*/\1/p' "$vlog" | head -1)
if [ $vrc = 0 ] && [ "${passes:-0}" -gt 10 ]; then
  echo "cpswitch_forced: ok: 50-microsecond slices ran the launch in more than 10 passes"
else
  echo "cpswitch_forced: FAIL: 50-microsecond slices: host_vecadd exits with $vrc, ${passes:-no} passes"
  tail -5 "$vlog"
  fail=1
fi

run LOCKSTEP_CP_SWITCH_SEED=5 LOCKSTEP_TRACE="$tmp/trace.json"
if ! python3 - "$tmp/trace.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))
tracks = {e["args"]["name"] for e in ev if e.get("ph") == "M"}
names = [e.get("name") for e in ev]
assert "command processor" in tracks, tracks
assert any(t.startswith("compute unit") for t in tracks), tracks
assert names.count("switch") > 0 and names.count("replayed") > 0, "no switches or replays"
assert any(e.get("tid", 0) > 0 and e.get("name") == "count" for e in ev), "no work-group spans"
print("cpswitch_forced: trace has %d events, %d switches, %d replays"
      % (len(ev), names.count("switch"), names.count("replayed")))
PY
then
  echo "cpswitch_forced: FAIL: bad device trace"
  fail=1
fi
exit $fail
