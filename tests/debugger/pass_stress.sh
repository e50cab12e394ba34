#!/bin/bash
# Random breakpoint/continue/step sequences over full-speed passes: with 1, 2
# and 4 device workers and warps of 4, 8 and 32 lanes, every conditional
# breakpoint is reported at most once per work-item visit where its
# condition holds, and exactly once when no step noted that work-items run
# on its behalf (to a barrier or sub-group function) passed it; the lanes of
# a warp that stop together are one stop; the buffers at the end equal what
# the kernel computes undebugged (atomics counted once per visit). $1 is the build folder; PASS_STRESS_RUNS sets the number of
# random sessions per configuration (default 3), PASS_STRESS_SEED the seed.
set -u
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
runs=${PASS_STRESS_RUNS:-3}
RANDOM=${PASS_STRESS_SEED:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here/stress" || exit 1

# the expected output, hits per (breakpoint, work-item), and counters
GX=12 GY=5 LX=4 LY=2
expect_out=() ; declare -A want
c0=0
for ((y = 0; y < GY; y++)); do
  for ((x = 0; x < GX; x++)); do
    gid=$((y * GX + x))
    gy=$((y / LY)); ly=$((GY - gy * LY < LY ? GY - gy * LY : LY))
    lid=$(((y % LY) * LX + x % LX)); n=$((LX * ly)); nl=$(((lid + 1) % n))
    acc=$(((gy * LY + nl / LX) * GX + (x / LX) * LX + nl % LX))
    for ((i = 0; i < gid % 4; i++)); do acc=$((acc + i * 100)); c0=$((c0 + 1)); done
    if ((gid % 3 == 0)); then acc=$((acc + 7)); else acc=$((acc - 2)); fi
    expect_out+=("$acc")
    id="$x,$y"
    ((gid % 2 == 0)) && want["1 $id"]=1
    ((x == 3 && gid % 4 > 0)) && want["2 $id"]=$((gid % 4))
    ((gid % 3 == 0 && y != 1)) && want["3 $id"]=1
    ((gid % 3 != 0 && gid % 5 == 1)) && want["4 $id"]=1
    ((y % 2 == 0 && x % 4 == 3)) && want["5 $id"]=1
    ((x == 1)) && want["6 $id"]=1
  done
done
want_out="out (arg 0) = {$(IFS=,; echo "${expect_out[*]}" | sed 's/,/, /g')}"
want_cnt="cnt (arg 1) = {$c0, 60}"

# The work-items each stop names ("B x,y" per item; a stop of several lanes
# names them as a box or a list), and "noted B" for each breakpoint a step
# noted other work-items passing.
stop_items() {
  python3 - "$1" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r"Breakpoint (\d+), k work-items? (.*) (?:local|of group)", line)
    if m:
        b, ids = m.group(1), m.group(2)
        if " in (" in ids:
            print(b, "unparsed")
        for t in re.findall(r"\(([0-9.,]+)\)", ids):
            r = [list(map(int, d.split(".."))) for d in t.split(",")]
            r = [(d[0], d[-1]) for d in r]
            for y in range(r[1][0], r[1][1] + 1):
                for x in range(r[0][0], r[0][1] + 1):
                    print(b, "%d,%d" % (x, y))
    m = re.match(r"\d+ other work-items? \(\d+ warps?\) reached breakpoint (\d+)", line)
    if m:
        print("noted", m.group(1))
PY
}

fail=0 sessions=0
for threads in 1 2 4; do
  for width in 4 8 32; do
    for ((r = 0; r < runs; r++)); do
      cmds="$tmp/cmds" out="$tmp/out"
      {
        echo 'break 25 if gid % 2 == 0'
        echo 'break 17 if x == 3'
        echo 'break 21 if y != 1'
        echo 'break 23 if gid % 5 == 1'
        # before the barrier and the sub-group function: items run to them
        # while another steps stop there too
        echo 'break 11 if lid == 3'
        echo 'break 14 if x == 1'
        if ((RANDOM % 2)); then
          # from kernel entry, item 0 steps alone across the barrier (and
          # maybe the sub-group function) first: the others are rebuilt
          echo 'break k'; echo run
          for ((i = RANDOM % 9; i >= 0; i--)); do echo next; done
          echo 'delete 7'
        else
          echo run
        fi
        for ((i = 0; i < 160; i++)); do
          case $((RANDOM % 20)) in
            0 | 1) echo step ;;
            2) echo next ;;
            *) echo continue ;;
          esac
        done
        echo quit
      } > "$cmds"
      LOCKSTEP_HOST_THREADS=$threads LOCKSTEP_WARP_WIDTH=$width timeout 60 "$build/lockstep" debug \
        --kernel pass_stress.cl --name k --global 12x5 --local 4x2 --spec pass_stress.spec \
        -x "$cmds" > "$out" 2>&1
      sessions=$((sessions + 1))
      what="threads $threads width $width session $r"
      bad=0
      grep -qF "$want_out" "$out" || { echo "FAIL ($what): out differs"; bad=1; }
      grep -qF "$want_cnt" "$out" || { echo "FAIL ($what): the atomic counters differ"; bad=1; }
      # `break k` (breakpoint 7) stops once, at work-item 0's entry
      entry=$(grep -c '^Breakpoint 7, k work-item (0,0,0) ' "$out")
      grep -qx 'break k' "$cmds" && wentry=1 || wentry=0
      [ "$entry" = "$wentry" ] || { echo "FAIL ($what): $entry kernel entry stops, want $wentry"; bad=1; }
      declare -A got=() noted=()
      while read -r b id; do
        [ "$b" = 7 ] && continue
        if [ "$b" = noted ]; then
          noted[$id]=1
          continue
        fi
        got["$b $id"]=$((${got["$b $id"]:-0} + 1))
      done < <(stop_items "$out")
      for key in $(printf "%s\n" "${!want[@]}" "${!got[@]}" | sort -u | tr " " _); do
        key=${key/_/ }
        # a visit a step noted and passed is not reported
        if [ "${want[$key]:-0}" != "${got[$key]:-0}" ] &&
          { [ -z "${noted[${key% *}]:-}" ] || [ "${got[$key]:-0}" -gt "${want[$key]:-0}" ]; }; then
          echo "FAIL ($what): breakpoint ${key% *} at work-item (${key#* }): ${got[$key]:-0} reports, want ${want[$key]:-0}"
          bad=1
        fi
      done
      unset got noted
      if ((bad)); then
        fail=1
        cp "$cmds" "/tmp/pass_stress.$threads.$width.$r.cmds"
        cp "$out" "/tmp/pass_stress.$threads.$width.$r.out"
        echo "  (commands and output kept in /tmp/pass_stress.$threads.$width.$r.*)"
      fi
    done
  done
done
[ $fail -eq 0 ] && echo "ok: $sessions random sessions of passes and steps"
exit $fail
