#!/usr/bin/env bash
# The data-race checker through `lockstep check` and the real ICD loader:
# each kernel of races/races.cl (two work-groups of 64) at warp widths 8
# and 32 must give exactly the reports of races/expected_w$W.txt (the
# records LOCKSTEP_CHECK_LOG gets: kind, kernel, both lines, count, text
# naming both work-items, the space, buffer and offset), and `lockstep
# check` must exit 1 exactly for the racy ones. Then the correct kernels on
# 2^20 work-items: no report. $1 is the build folder.
set -u
build=$1
here=$(cd "$(dirname "$0")" && pwd)
prog="$build/tests/host/host_racekern"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
racy="reduce_nobar global_ww warp_ww warp_rw benign wrong_fence byte_word plain_atomic plain_bar_atomic"
racy+=" async_ww global_rows global_byte_word global_bytes_rows global_settled static_local shared_word"
serial="global_settled" # on one compute unit: work-groups in order, a fixed count
clean="reduce_ok atomics_ok global_bar_ok bytes_ok async_ok cas_ok global_rows_ok"

# One host thread: work-groups run in order, so the count of a race between
# them (plain_bar_atomic's) is the same every run.
run() { # W kernel global local -> appends the log to $tmp/w$W.txt, returns check's status
  local cus=
  case " $serial " in *" $2 "*) cus=LOCKSTEP_COMPUTE_UNITS=1 ;; esac
  (cd "$here" && env $cus LOCKSTEP_WARP_WIDTH=$1 LOCKSTEP_HOST_THREADS=${threads:-1} "$build/lockstep" check --races --keep-log "$tmp/one" \
    -- "$prog" races/races.cl "$2" "$3" "$4" >"$tmp/out" 2>&1)
  local rc=$?
  cat "$tmp/one" >>"$tmp/w$1.txt"
  return $rc
}

for W in 8 32; do
  : >"$tmp/w$W.txt"
  for k in $racy $clean; do
    run $W $k 128 64
    rc=$?
    want=0
    case " $racy " in *" $k "*) want=1 ;; esac
    if [ $rc -ne $want ]; then
      echo "races: FAIL: W=$W $k: lockstep check exited $rc, want $want"
      cat "$tmp/out"
      fail=1
    fi
  done
  if diff -u "$here/races/expected_w$W.txt" "$tmp/w$W.txt"; then
    echo "races: ok: W=$W, every report as expected"
  else
    echo "races: FAIL: W=$W reports differ (above)"
    fail=1
  fi
done

# Correct kernels on 2^20 work-items (groups of 256): nothing reported.
for k in $clean; do
  : >"$tmp/w32.txt"
  if ! threads=0 run 32 $k 1048576 256 || [ -s "$tmp/w32.txt" ]; then
    echo "races: FAIL: $k on 2^20 work-items reported:"
    cat "$tmp/out"
    fail=1
  else
    echo "races: ok: $k on 2^20 work-items, no report"
  fi
done
# The front end's error paths and exit statuses.
expect() { # want-status want-text command...
  local want=$1 text=$2
  shift 2
  out=$("$@" 2>&1)
  local rc=$?
  if [ $rc -ne "$want" ] || ! grep -qF -- "$text" <<<"$out"; then
    echo "races: FAIL: $* exited $rc (want $want) saying:"
    echo "$out"
    fail=1
  else
    echo "races: ok: lockstep ${*:2} exits $want"
  fi
}
expect 2 "no program to run" "$build/lockstep" check --races
expect 2 "unknown option --bogus" "$build/lockstep" check --bogus -- true
expect 0 "no reports" "$build/lockstep" check --uninit -- true
expect 3 "exited with status 3" "$build/lockstep" check -- sh -c 'exit 3'
expect 0 "no reports" "$build/lockstep" check -- true
expect 127 "cannot run" "$build/lockstep" check -- /nonexistent/program
expect 137 "killed by signal 9" "$build/lockstep" check -- sh -c 'kill -9 $$'
# --keep-log takes a FILE: an option word after it is refused, not used as the log's name.
expect 2 "--keep-log needs a FILE, not \"--\"" env -C "$tmp" "$build/lockstep" check --keep-log -- true
if [ -e "$tmp/--" ]; then
  echo "races: FAIL: lockstep check --keep-log -- wrote a log named --"
  fail=1
fi
expect 2 "--keep-log needs a FILE" "$build/lockstep" check --keep-log= -- true
exit $fail
