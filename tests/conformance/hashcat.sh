#!/usr/bin/env bash
# hashcat.sh BUILD_DIR - runs hashcat on the build tree's device: its kernel
# self-test and the crack of one hash from a two-word list, for MD5 (-m 0)
# and SHA1 (-m 100), with the optimised (-O) and the pure kernels. Each run
# must pass the self-test and crack the hash. Exits 77 (a CTest skip) when
# hashcat is not installed; not part of `make check` (minutes per run): see
# `make hashcat` in the README.
set -u

build=$(cd "${1:?usage: hashcat.sh BUILD_DIR}" && pwd)
if ! command -v hashcat >/dev/null 2>&1; then
  echo "SKIP: hashcat is not installed"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# hashcat keeps compiled kernels, sessions and a potfile under these: a fresh
# tree per run, so every run compiles the kernels with this build.
export HOME="$work" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data"
export XDG_CONFIG_HOME="$work/config"
export OCL_ICD_VENDORS="$build/vendors" LOCKSTEP_CACHE=0
# The device's default memory sizes (from the host's memory) are what
# hashcat gets: it refuses a device with little allocatable memory.
printf 'password\nhashcat\n' >"$work/words"

fail=0
run() { # mode hash kernel-option
  local mode=$1 hash=$2 opt=$3 out="$work/out" rc
  echo "$hash" >"$work/hash"
  timeout 1800 hashcat -m "$mode" -a 0 -D 2 $opt --backend-ignore-cuda --force \
    --potfile-disable --quiet "$work/hash" "$work/words" >"$out" 2>&1
  rc=$?
  if grep -q "^$hash:hashcat\$" "$out"; then
    echo "PASS: hashcat -m $mode ${opt:-(pure kernels)}"
  else
    echo "FAIL: hashcat -m $mode ${opt:-(pure kernels)} (exit $rc):"
    sed 's/^/  | /' "$out" | tail -20
    fail=1
  fi
}
run 0 8743b52063cd84097a65d1633f5c74f5 -O
run 0 8743b52063cd84097a65d1633f5c74f5 ""
run 100 b89eaac7e61417341b710b727768294d0e6a277b -O
run 100 b89eaac7e61417341b710b727768294d0e6a277b ""
exit $fail
