#!/usr/bin/env bash
# Benchmarks Lockstep beside pocl and Oclgrind on this machine, in one run.
# Installs the two peers (Debian's pocl-opencl-icd and oclgrind) when missing,
# builds Lockstep without sanitizers, and runs tests/bench/bench.c's kernels
# on Lockstep (native engine, interpreter, 1 and 2 host threads), pocl and
# Oclgrind (kernels.sh; BENCH_OCLGRIND=0 leaves Oclgrind out, it takes
# minutes), then clpeak on Lockstep and pocl (clpeak.sh; BENCH_CLPEAK=0 leaves
# it out), then the stream-switch cost benchmark (tests/bench/switch.c) on Lockstep,
# then the cost of a breakpoint condition under `lockstep debug` (cond.sh)
# and of each device checker, and both, beside Oclgrind's (checker.sh races,
# uninit, both).
#   [BENCH_OCLGRIND=0] [BENCH_CLPEAK=0] [BENCH_RUNS=N] tests/bench/run.sh [build-dir]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build}
bash "$top/.ci/deps"
need=()
for p in pocl-opencl-icd oclgrind; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target lockstep lockstep_cli bench_kernels bench_switch >/dev/null
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
cp "$build/vendors/lockstep.icd" "$vendors/"
[ -f /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd "$vendors/"
# Debian's oclgrind ships its ICD library without an .icd file.
oclgrind_icd=$(dpkg -L oclgrind 2>/dev/null | grep 'liboclgrind-rt-icd.so$' | head -n 1)
[ -n "$oclgrind_icd" ] && echo "$oclgrind_icd" > "$vendors/oclgrind.icd"
bash "$top/tests/bench/kernels.sh" "$build"
[ "${BENCH_CLPEAK:-1}" = 0 ] || bash "$top/tests/bench/clpeak.sh" "$build"
OCL_ICD_VENDORS="$vendors" LOCKSTEP_CACHE=0 "$build/tests/bench/bench_switch"
LOCKSTEP_CACHE=0 bash "$top/tests/bench/cond.sh" "$build"
bash "$top/tests/bench/checker.sh" races "$build"
bash "$top/tests/bench/checker.sh" uninit "$build"
bash "$top/tests/bench/checker.sh" both "$build"
