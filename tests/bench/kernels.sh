#!/usr/bin/env bash
# tests/bench/bench.c's kernels on Lockstep (native engine, interpreter, and
# the native engine on 1 and on 2 host threads), pocl and Oclgrind, one
# bench_kernels process per setting (the engine and the thread count are
# read from the environment when the platform loads; 1 and 2 threads run in
# turn, twice, and each kernel's faster time counts), combined into one
# table: each kernel's median seconds, the ratios native/pocl and
# Oclgrind/native, the native engine's speed-up from 1 to 2 host threads,
# and how many warp slices the native engine ran (LOCKSTEP_STATS; 0 means
# the native setting fell back to the interpreter). Then clBuildProgram's
# time: cold (LOCKSTEP_CACHE=0), a cache hit in the same process and in a
# new process, and the peers'. Measures only; run by run.sh, never by the
# test command.
#   [BENCH_RUNS=N] [BENCH_OCLGRIND=0] [BENCH_ONLY=WORD] tests/bench/kernels.sh [build-dir]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build}
bin=$build/tests/bench/bench_kernels
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/l" "$tmp/p" "$tmp/o" "$tmp/cache"
cp "$build/vendors/lockstep.icd" "$tmp/l/"
[ -f /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd "$tmp/p/"
# Debian's oclgrind ships its ICD library without an .icd file.
oclgrind_icd=$(dpkg -L oclgrind 2>/dev/null | grep 'liboclgrind-rt-icd.so$' | head -n 1 || true)
[ "${BENCH_OCLGRIND:-1}" = 0 ] && oclgrind_icd=""
[ -n "$oclgrind_icd" ] && echo "$oclgrind_icd" >"$tmp/o/oclgrind.icd"

status=0
# run LABEL NAME=VALUE... : bench_kernels' stderr as "LABEL<TAB>what<TAB>value"
# lines (what: a kernel, build, rebuild, or slices:KERNEL from the statistics)
run() {
  local label=$1
  shift
  echo "kernels.sh: $label ($*)" >&2
  env "$@" "$bin" 2>"$tmp/err" >/dev/null || status=1
  grep '^bench: .* failed\|wrong\|differs' "$tmp/err" >&2 || true
  sed -n -e "s/^bench: [a-z]* \(build\|rebuild\) \([0-9.]*\) ms$/$label\t\1\t\2/p" \
    -e "/ first /d" -e "s/^bench: [a-z]* \(.*\) \(-\?[0-9.]*\) s$/$label\t\1\t\2/p" \
    -e "s/^lockstep stats: kernel \([a-z]*\)[^:]*:.*, \([0-9]*\) native warp slices$/$label\tslices:\1\t\2/p" \
    "$tmp/err" >>"$tmp/t"
}
: >"$tmp/t"
load0=$(cut -d" " -f1-3 /proc/loadavg)
# the native engine's kernels compiled before their first launch (as pocl
# does), not after the interpreter ran enough of them
lockstep=(OCL_ICD_VENDORS="$tmp/l" BENCH_PLATFORMS=lockstep LOCKSTEP_NATIVE_MIN=0)
run native "${lockstep[@]}" LOCKSTEP_ENGINE=native LOCKSTEP_CACHE=0
# An empty build cache: the first build stores, the rebuild and every later
# process hit it.
run interp "${lockstep[@]}" LOCKSTEP_ENGINE=interp XDG_CACHE_HOME="$tmp/cache"
# 1 and 2 host threads in turn, twice, each kernel's faster time kept: other
# work on a shared machine comes and goes
for _ in 1 2; do
  for n in 1 2; do
    run "t$n" "${lockstep[@]}" LOCKSTEP_ENGINE=native LOCKSTEP_HOST_THREADS=$n \
      XDG_CACHE_HOME="$tmp/cache"
  done
done
# once more, untimed, for the statistics' native warp slice counts
run stats "${lockstep[@]}" LOCKSTEP_ENGINE=native LOCKSTEP_STATS=1 BENCH_RUNS=1 \
  XDG_CACHE_HOME="$tmp/cache"
[ -f "$tmp/p/pocl.icd" ] && run pocl OCL_ICD_VENDORS="$tmp/p" BENCH_PLATFORMS=pocl
[ -n "$oclgrind_icd" ] && run oclgrind OCL_ICD_VENDORS="$tmp/o" BENCH_PLATFORMS=oclgrind

awk -F'\t' -f "$top/tests/bench/kernels.awk" "$tmp/t"
# a shared machine's other work shows in the times (and in the speed-up)
echo "$(nproc) cores; load average $load0 at the start, $(cut -d" " -f1-3 /proc/loadavg) at the end"
exit $status
