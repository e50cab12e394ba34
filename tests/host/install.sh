#!/usr/bin/env bash
# `cmake --install` puts the library and /etc/OpenCL/vendors/lockstep.icd in
# place, and the installed .icd names the installed library. Checked in a
# staging folder (DESTDIR), so no root is needed.
set -u
build=$1
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
DESTDIR="$stage" cmake --install "$build" >/dev/null || { echo "install: cmake --install failed"; exit 1; }
icd="$stage/etc/OpenCL/vendors/lockstep.icd"
[ -f "$icd" ] || { echo "install: FAIL: no $icd"; exit 1; }
lib=$(cat "$icd")
case "$lib" in
  /*) ;;
  *) echo "install: FAIL: the .icd names a relative path: $lib"; exit 1 ;;
esac
[ -e "$stage$lib" ] || { echo "install: FAIL: the .icd names $lib, which was not installed"; exit 1; }
# The kernel headers (assert.h) go where the installed compiler looks.
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
datadir=$(sed -n 's/^CMAKE_INSTALL_DATADIR:PATH=//p' "$build/CMakeCache.txt")
case "$datadir" in /*) ;; *) datadir="$prefix/${datadir:-share}" ;; esac
[ -f "$stage$datadir/lockstep/include/assert.h" ] ||
  { echo "install: FAIL: no $datadir/lockstep/include/assert.h"; exit 1; }
# The staged library loads through the loader when pointed at directly.
out=$(OCL_ICD_VENDORS="$stage$lib" LD_PRELOAD="${LOCKSTEP_ASAN_RUNTIME:-}" ASAN_OPTIONS=detect_leaks=0 clinfo -l 2>&1)
printf '%s\n' "$out" | grep -q 'Lockstep' || { echo "install: FAIL: installed library not found by clinfo: $out"; exit 1; }
echo "install: ok ($lib)"
