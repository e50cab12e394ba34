#!/usr/bin/env bash
# Debian's clpeak on Lockstep and on pocl in one run: --compute-sp,
# --compute-dp, --global-bandwidth and --kernel-latency (CLPEAK_TESTS
# overrides the list), each on one platform at a time (OCL_ICD_VENDORS
# names one .icd), and one table of every figure on both with the ratio
# pocl/Lockstep (Lockstep/pocl for the latency: above 1 means Lockstep is
# behind either way), then each test's wall time. Installs clpeak when it
# is missing (it is no part of make check). Measures only; run by run.sh.
#
# clpeak 1.1.2 has no option for its iteration counts or sizes: it sizes
# its problems from the device's compute units, work-group size and largest
# allocation (on a GPU: compute units x 2048 work-groups x the work-group
# size work-items for --compute-sp, 30 launches of each of 5 vector widths).
# On Lockstep's defaults (8 units of 1024) that is 68 GFLOP a launch, hours
# on an interpreter, so Lockstep reports 1 unit, a largest work-group of 64
# and a largest allocation of 64 MiB here (CLPEAK_LOCKSTEP_ENV replaces
# these settings); the figures are rates, and the host threads running
# work-groups do not depend on the units reported. LOCKSTEP_NATIVE_MIN=0
# compiles each kernel before its first (untimed) launch, as pocl does,
# rather than after the interpreter ran enough of it. pocl runs as it is.
#   [CLPEAK_TESTS="--compute-sp ..."] tests/bench/clpeak.sh [build-dir]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build}
if ! command -v clpeak >/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clpeak
fi
read -r -a tests <<<"${CLPEAK_TESTS:---compute-sp --compute-dp --global-bandwidth --kernel-latency}"
read -r -a lsenv <<<"${CLPEAK_LOCKSTEP_ENV:-LOCKSTEP_COMPUTE_UNITS=1 LOCKSTEP_MAX_WORK_GROUP_SIZE=64 LOCKSTEP_MAX_ALLOC_SIZE=64M LOCKSTEP_NATIVE_MIN=0}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/l" "$tmp/p"
cp "$build/vendors/lockstep.icd" "$tmp/l/"
[ -f /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd "$tmp/p/"

# figures PLATFORM TEST: clpeak's output as "PLATFORM<TAB>figure<TAB>value"
# lines, the figure being its section and vector width ("Single-precision
# compute (GFLOPS) float4"), and "PLATFORM<TAB>time TEST<TAB>seconds".
figures() {
  local plat=$1 test=$2 vendors=$tmp/l t0
  local -a envs=("${lsenv[@]}")
  [ "$plat" = pocl ] && vendors=$tmp/p envs=()
  t0=$(date +%s.%N)
  env OCL_ICD_VENDORS="$vendors" "${envs[@]}" clpeak "$test" >"$tmp/out" 2>&1 || true
  awk -v p="$plat" -v t="$test" -v s="$(echo "$(date +%s.%N) - $t0" | bc)" '
    /\((GBPS|GFLOPS)\)$/ { sub(/^ +/, ""); sec = $0; next }
    /^ +Kernel launch latency : / { printf "%s\tKernel launch latency (us)\t%s\n", p, $5; next }
    sec != "" && /^ +[a-z0-9]+ +: +[0-9.]+$/ { printf "%s\t%s %s\t%s\n", p, sec, $1, $3 }
    END { printf "%s\ttime %s\t%.1f\n", p, t, s }' "$tmp/out" >>"$tmp/t"
  grep -i 'error\|skipped' "$tmp/out" >&2 || true
}
: >"$tmp/t"
load0=$(cut -d" " -f1-3 /proc/loadavg)
for test in "${tests[@]}"; do
  echo "clpeak.sh: $test on Lockstep" >&2
  figures lockstep "$test"
  [ -f "$tmp/p/pocl.icd" ] && {
    echo "clpeak.sh: $test on pocl" >&2
    figures pocl "$test"
  }
done
awk -F'\t' '
  { v[$1, $2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
  END {
    printf "%-44s %10s %10s %14s\n", "clpeak figure", "Lockstep", "pocl", "pocl/Lockstep"
    for (i = 0; i < n; i++) {
      f = order[i]; l = v["lockstep", f]; p = v["pocl", f]
      if (f ~ /^time /) continue
      lower = f ~ /latency/ # a time: Lockstep/pocl
      r = (l > 0 && p > 0) ? sprintf("%.1fx", lower ? l / p : p / l) : "-"
      printf "%-44s %10s %10s %14s\n", f, l == "" ? "-" : l, p == "" ? "-" : p, r
    }
    printf "(the latency row: Lockstep/pocl; above 1 means Lockstep is behind in every row)\n"
    printf "\nwall time, s\n"
    for (i = 0; i < n; i++)
      if (order[i] ~ /^time /)
        printf "  clpeak %-20s Lockstep %8s   pocl %8s\n", substr(order[i], 6),
               v["lockstep", order[i]], v["pocl", order[i]] == "" ? "-" : v["pocl", order[i]]
  }' "$tmp/t"
# a shared machine's other work shows in the times
echo "$(nproc) cores; load average $load0 at the start, $(cut -d" " -f1-3 /proc/loadavg) at the end"
