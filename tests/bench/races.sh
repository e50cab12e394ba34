#!/usr/bin/env bash
# The data-race checker's cost: tests/bench/bench.c's kernels (vecadd 2^22,
# matmul 256, reduce 2^22, mandelbrot 512) on Lockstep with the checker off
# and with LOCKSTEP_CHECK=races, and on Oclgrind with --data-races (its
# OCLGRIND_DATA_RACES=1), in one run. Prints each kernel's seconds and the
# ratios checker-on/off and Oclgrind/Lockstep-checker-on. On demand (run.sh
# runs it too), never by the test command.
#   tests/bench/races.sh [build-dir]   (a Release build of bench_kernels)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/l" "$tmp/o"
cp "$build/vendors/lockstep.icd" "$tmp/l/"
oclgrind_icd=$(dpkg -L oclgrind 2>/dev/null | grep 'liboclgrind-rt-icd.so$' | head -n 1 || true)
[ -n "$oclgrind_icd" ] && echo "$oclgrind_icd" >"$tmp/o/oclgrind.icd"

times() { # label env... -> "label kernel seconds" lines
  local label=$1
  shift
  env "$@" LOCKSTEP_CACHE=0 "$build/tests/bench/bench_kernels" 2>&1 >/dev/null |
    sed -n "s/^bench: [a-z]* \(.*\) \([0-9.]*\) s$/$label\t\1\t\2/p" || true
}
{
  times off OCL_ICD_VENDORS="$tmp/l"
  times races OCL_ICD_VENDORS="$tmp/l" LOCKSTEP_CHECK=races
  [ -n "$oclgrind_icd" ] && times oclgrind OCL_ICD_VENDORS="$tmp/o" OCLGRIND_DATA_RACES=1
} >"$tmp/t"
awk -F'\t' '
  { t[$1 "," $2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
  END {
    printf "%-16s %10s %10s %8s %14s %16s\n", "kernel", "off s", "races s", "on/off",
           "oclgrind -dr s", "oclgrind/races"
    for (i = 0; i < n; i++) {
      k = order[i]; off = t["off," k]; on = t["races," k]; o = t["oclgrind," k]
      r1 = (off > 0 && on > 0) ? sprintf("%.1fx", on / off) : "-"
      r2 = (on > 0 && o > 0) ? sprintf("%.0fx", o / on) : "-"
      printf "%-16s %10s %10s %8s %14s %16s\n", k, off, on, r1, (o == "" ? "-" : o), r2
    }
  }' "$tmp/t"
