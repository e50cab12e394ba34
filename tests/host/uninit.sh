#!/usr/bin/env bash
# The uninitialised-value checker through `lockstep check` and the real ICD
# loader: each kernel of uninit/uninit.cl (two work-groups of 64), built
# with -g and optimised, at warp widths 8 and 32, must give exactly the
# reports of uninit/expected.txt (the records LOCKSTEP_CHECK_LOG gets:
# kind, kernel, line of the use, line the undefined memory was read at,
# count, text naming the first work-item), and `lockstep check` must exit 1
# exactly for the buggy ones. Then the correct kernel on 2^20 work-items:
# no report. $1 is the build folder.
# padding: a struct copied whole with its undefined padding, and a float3
# stored (its fourth element is padding), are not reported - a copy is no
# use of the value; `oclgrind --uninitialized` reports the float3 store 64
# times in the optimised build ("uninitialized value written to global
# memory", a <4 x float> with an undef lane). padding_used, which reads a
# padding byte, is reported.
set -u
build=$1
here=$(cd "$(dirname "$0")" && pwd)
prog="$build/tests/host/host_uninitkern"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
buggy="tile_half acc_path undef_addr undef_bound vload_in vstore_in async_in bcast_in reduce_in atomic_undef padding_used"
clean="padding clean lanes_clean"

run() { # W kernel global local options -> appends the log to $tmp/log.txt, returns check's status
  (cd "$here" && LOCKSTEP_WARP_WIDTH=$1 "$build/lockstep" check --uninit --keep-log "$tmp/one" \
    -- "$prog" uninit/uninit.cl "$2" "$3" "$4" "$5" >"$tmp/out" 2>&1)
  local rc=$?
  sed "s/^/$6	/" "$tmp/one" >>"$tmp/log.txt"
  return $rc
}

for W in 8 32; do
  : >"$tmp/log.txt"
  for opt in -g O2; do
    for k in $buggy $clean; do
      run $W $k 128 64 "$([ $opt = -g ] && echo -g)" $opt
      rc=$?
      want=0
      case " $buggy " in *" $k "*) want=1 ;; esac
      if [ $rc -ne $want ]; then
        echo "uninit: FAIL: W=$W $opt $k: lockstep check exited $rc, want $want"
        cat "$tmp/out"
        fail=1
      fi
    done
  done
  if diff -u "$here/uninit/expected.txt" "$tmp/log.txt"; then
    echo "uninit: ok: W=$W, every report as expected"
  else
    echo "uninit: FAIL: W=$W reports differ (above)"
    fail=1
  fi
done

# The correct kernel on 2^20 work-items (groups of 256): nothing reported.
: >"$tmp/log.txt"
if ! run 32 clean 1048576 256 "" O2 || [ -s "$tmp/log.txt" ]; then
  echo "uninit: FAIL: clean on 2^20 work-items reported:"
  cat "$tmp/out"
  fail=1
else
  echo "uninit: ok: clean on 2^20 work-items, no report"
fi
exit $fail
