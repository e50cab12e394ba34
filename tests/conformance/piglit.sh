#!/usr/bin/env bash
# Runs piglit's OpenCL suite (Debian's `piglit` package) against the build
# tree through the ICD loader, prints pass / fail / crash / timeout / skip
# counts and every non-pass, and fails on a non-pass that
# tests/conformance/piglit-expected.txt does not list (with its reason and
# evidence). Listed entries that now pass are reported as stale.
#
#   tests/conformance/piglit.sh [BUILD_DIR] [RESULTS_DIR] [-- piglit run options]
#
# BUILD_DIR defaults to build/, RESULTS_DIR to BUILD_DIR/piglit-results.
# Environment: PIGLIT_JOBS (default: piglit's own concurrency), and, to run
# the same suite on another platform for comparison,
#   PIGLIT_VENDORS=/etc/OpenCL/vendors/pocl.icd PIGLIT_PLATFORM=Portable
# (the expected list is Lockstep's; the counts are what to compare).
# Takes a few minutes on two cores. Not part of `make check`.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$(cd "${1:-$root/build}" 2>/dev/null && pwd)" || {
  echo "piglit.sh: no build directory ${1:-$root/build}; build first (make run)" >&2
  exit 2
}
[ $# -gt 0 ] && shift
results="${1:-$build/piglit-results}"
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift

# piglit itself: install it when missing, as .ci/deps installs the rest.
if ! command -v piglit >/dev/null 2>&1; then
  echo "piglit.sh: installing piglit"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "piglit.sh: need root (or sudo) to install piglit" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq piglit
fi
command -v python3 >/dev/null 2>&1 || { echo "piglit.sh: needs python3 (.ci/deps)" >&2; exit 1; }

vendors="${PIGLIT_VENDORS:-$build/vendors}"
platform="${PIGLIT_PLATFORM:-Lockstep}"
if [ "$platform" = Lockstep ] && [ ! -e "$build/vendors/lockstep.icd" ]; then
  echo "piglit.sh: $build/vendors/lockstep.icd missing; build first (make run)" >&2
  exit 2
fi
jobs=()
[ -n "${PIGLIT_JOBS:-}" ] && jobs=(-j "$PIGLIT_JOBS")

echo "piglit.sh: piglit run cl on platform $platform (OCL_ICD_VENDORS=$vendors) into $results"
# The cache would make a second run test the cache; every kernel is compiled.
OCL_ICD_VENDORS="$vendors" PIGLIT_CL_PLATFORM="$platform" LOCKSTEP_CACHE=0 \
  piglit run -o -l dummy "${jobs[@]}" "$@" cl "$results" >"$results.log" 2>&1 || {
  echo "piglit.sh: piglit run failed:" >&2
  tail -20 "$results.log" >&2
  exit 1
}

expected="$here/piglit-expected.txt"
if [ "$platform" != Lockstep ]; then
  # another platform: counts and non-passes only
  python3 "$here/piglit_results.py" "$results" /dev/null || true
  exit 0
fi
python3 "$here/piglit_results.py" "$results" "$expected"
