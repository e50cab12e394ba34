#!/usr/bin/env bash
# A device checker's cost: tests/bench/bench.c's kernels (vecadd 2^22,
# matmul 256, reduce 2^22, mandelbrot 512) on Lockstep with the checker off
# and with LOCKSTEP_CHECK=CHECKER, and on Oclgrind with its own checker of
# that kind (races: --data-races, uninit: --uninitialized), in one run.
# Prints each kernel's seconds and the ratios checker-on/off and
# Oclgrind/Lockstep-checker-on. On demand (run.sh runs it for both
# checkers), never by the test command.
#   tests/bench/checker.sh races|uninit [build-dir]   (a Release build of bench_kernels)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# the checker: LOCKSTEP_CHECK's name, Oclgrind's variable and option
case ${1:-} in
races) ovar=OCLGRIND_DATA_RACES oopt=-dr ;;
uninit) ovar=OCLGRIND_UNINITIALIZED oopt=-u ;;
*)
  echo "usage: tests/bench/checker.sh races|uninit [build-dir]" >&2
  exit 2
  ;;
esac
check=$1
build=${2:-$top/build}
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
  times on OCL_ICD_VENDORS="$tmp/l" LOCKSTEP_CHECK="$check"
  [ -n "$oclgrind_icd" ] && times oclgrind OCL_ICD_VENDORS="$tmp/o" "$ovar=1"
} >"$tmp/t"
awk -F'\t' -v c="$check" -v oopt="$oopt" '
  { t[$1 "," $2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
  END {
    printf "%-16s %10s %10s %8s %14s %16s\n", "kernel", "off s", c " s", "on/off",
           "oclgrind " oopt " s", "oclgrind/" c
    for (i = 0; i < n; i++) {
      k = order[i]; off = t["off," k]; on = t["on," k]; o = t["oclgrind," k]
      r1 = (off > 0 && on > 0) ? sprintf("%.1fx", on / off) : "-"
      r2 = (on > 0 && o > 0) ? sprintf("%.0fx", o / on) : "-"
      printf "%-16s %10s %10s %8s %14s %16s\n", k, off, on, r1, (o == "" ? "-" : o), r2
    }
  }' "$tmp/t"
