#!/usr/bin/env bash
# A device checker's cost: tests/bench/bench.c's kernels (vecadd 2^22,
# matmul 256, reduce 2^22, mandelbrot 512) on Lockstep with the checker off
# and with LOCKSTEP_CHECK=CHECKER, and on Oclgrind with its own checker of
# that kind (races: --data-races, uninit: --uninitialized, both: the two
# and LOCKSTEP_CHECK=uninit,races), in one run. Lockstep runs RUNS times
# (default 3), off and on in turn, each a warm-up launch and BENCH_RUNS
# timed ones (1), and each kernel's median is kept (the machine may be
# shared); Oclgrind, minutes a run, once. BENCH_ONLY picks other kernels.
# Prints each kernel's seconds and the ratios checker-on/off and
# Oclgrind/Lockstep-checker-on. On demand (run.sh runs it for each
# checker and both), never by the test command.
#   [RUNS=N] [OCLGRIND=0] tests/bench/checker.sh races|uninit|both [build-dir]   (a Release build of bench_kernels)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# the checker: LOCKSTEP_CHECK's list, Oclgrind's variables and options
case ${1:-} in
races) check=races ovars="OCLGRIND_DATA_RACES=1" oopt=-dr ;;
uninit) check=uninit ovars="OCLGRIND_UNINITIALIZED=1" oopt=-u ;;
both) check=uninit,races ovars="OCLGRIND_DATA_RACES=1 OCLGRIND_UNINITIALIZED=1" oopt="-u -dr" ;;
*)
  echo "usage: tests/bench/checker.sh races|uninit|both [build-dir]" >&2
  exit 2
  ;;
esac
build=${2:-$top/build}
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/l" "$tmp/o"
cp "$build/vendors/lockstep.icd" "$tmp/l/"
oclgrind_icd=$(dpkg -L oclgrind 2>/dev/null | grep 'liboclgrind-rt-icd.so$' | head -n 1 || true)
[ "${OCLGRIND:-1}" = 0 ] && oclgrind_icd="" # Lockstep alone, for a quick look
[ -n "$oclgrind_icd" ] && echo "$oclgrind_icd" >"$tmp/o/oclgrind.icd"

times() { # label env... -> "label kernel seconds" lines
  local label=$1
  shift
  env BENCH_ONLY="${BENCH_ONLY:-vecadd,matmul,reduce,mandelbrot}" BENCH_RUNS="${BENCH_RUNS:-1}" \
    "$@" LOCKSTEP_CACHE=0 "$build/tests/bench/bench_kernels" 2>&1 >/dev/null |
    sed -n "s/^bench: [a-z]* \(.*\) \([0-9.]*\) s$/$label\t\1\t\2/p" || true
}
{
  for _ in $(seq "$runs"); do
    times off OCL_ICD_VENDORS="$tmp/l" LOCKSTEP_CHECK=none
    times on OCL_ICD_VENDORS="$tmp/l" LOCKSTEP_CHECK="$check"
  done
  # shellcheck disable=SC2086 # ovars is a list of NAME=VALUE words
  [ -n "$oclgrind_icd" ] && times oclgrind OCL_ICD_VENDORS="$tmp/o" $ovars
} >"$tmp/t"
sort -t"$(printf '\t')" -k1,1 -k2,2 -k3,3g "$tmp/t" | awk -F'\t' -v c="$check" -v oopt="$oopt" '
  { k = $1 "," $2; v[k, ++n[k]] = $3; if (!($2 in seen)) { seen[$2] = 1; order[nk++] = $2 } }
  function med(k) { return n[k] ? v[k, int((n[k] + 1) / 2)] : "" }
  END {
    printf "%-16s %10s %14s %8s %20s %22s\n", "kernel", "off s", c " s", "on/off",
           "oclgrind " oopt " s", "oclgrind/" c
    for (i = 0; i < nk; i++) {
      k = order[i]; off = med("off," k); on = med("on," k); o = med("oclgrind," k)
      r1 = (off > 0 && on > 0) ? sprintf("%.1fx", on / off) : "-"
      r2 = (on > 0 && o > 0) ? sprintf("%.0fx", o / on) : "-"
      printf "%-16s %10s %14s %8s %20s %22s\n", k, off, on, r1, (o == "" ? "-" : o), r2
    }
  }'
