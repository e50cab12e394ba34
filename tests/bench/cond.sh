#!/usr/bin/env bash
# The cost of a breakpoint condition: the same launch (2^20 work-items by
# default, each running the hot line 4 times) run to the end under
# `lockstep debug` with
#   (a) no breakpoint,
#   (b) an unconditional breakpoint on a line that never runs (inside
#       `if (never)`),
#   (c) a condition that is never true on the hot line (every work-item
#       evaluates it 4 times),
# each RUNS times; prints the median wall time of each and the ratio c/b.
# Not part of the test command: run by tests/bench/run.sh, or alone:
#   tests/bench/cond.sh [build-dir] [work-items] [runs]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
items=${2:-1048576}
runs=${3:-5}
lockstep=$build/lockstep
[ -x "$lockstep" ] || { echo "no $lockstep: build the lockstep command first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/hot.spec" <<SPEC
buffer int $items fill 0
buffer float $items range 0 1
scalar int 4
scalar int 0
SPEC
printf 'run\nquit\n' >"$tmp/a.inp"
printf 'break 10\nrun\nquit\n' >"$tmp/b.inp"
printf 'break 8 if acc == -7 && in[gid] < 0\nrun\nquit\n' >"$tmp/c.inp"

# One run's wall time in seconds; the run must end with the kernel finished.
one() {
  local t0 t1 out
  t0=$(date +%s.%N)
  out=$("$lockstep" debug --kernel "$here/cond/hot.cl" --name hot --global "$items" --local 256 \
    --spec "$tmp/hot.spec" -x "$tmp/$1.inp" 2>&1)
  t1=$(date +%s.%N)
  grep -q "Kernel hot finished" <<<"$out" || { echo "case $1 did not finish:" >&2; echo "$out" >&2; exit 1; }
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A med
for c in a b c; do
  one "$c" >/dev/null # warm-up
  for _ in $(seq "$runs"); do one "$c"; done >"$tmp/$c.times"
  med[$c]=$(median <"$tmp/$c.times")
done
echo "breakpoint condition cost: $items work-items x 4 iterations, median of $runs runs"
printf '  (a) no breakpoint                          %8.3f s\n' "${med[a]}"
printf '  (b) unconditional, never hit               %8.3f s\n' "${med[b]}"
printf '  (c) never-true condition on the hot line   %8.3f s\n' "${med[c]}"
awk -v b="${med[b]}" -v c="${med[c]}" 'BEGIN { printf "  c/b = %.2f\n", c / b }'
