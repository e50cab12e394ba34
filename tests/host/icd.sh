#!/usr/bin/env bash
# The platform through the real ICD loader: clinfo finds "Lockstep" with one
# GPU device and reports no error, whether OCL_ICD_VENDORS names the vendors
# folder, the .icd file or the library itself; and the library exports only
# the ICD entry points.
set -u
build=$1
lib=$(cat "$build/vendors/lockstep.icd")
fail=0
say() { echo "icd: $*"; }
bad() { echo "icd: FAIL: $*"; fail=1; }

# A sanitized library needs its runtime loaded first in an unsanitized host.
if [ -n "${LOCKSTEP_ASAN_RUNTIME:-}" ] && [ -f "${LOCKSTEP_ASAN_RUNTIME}" ]; then
  export LD_PRELOAD="$LOCKSTEP_ASAN_RUNTIME"
  export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
fi

for target in "$build/vendors" "$build/vendors/lockstep.icd" "$lib"; do
  out=$(OCL_ICD_VENDORS="$target" clinfo 2>&1)
  rc=$?
  [ $rc -eq 0 ] || bad "clinfo exited $rc with OCL_ICD_VENDORS=$target"
  n=$(printf '%s\n' "$out" | grep -c '^Number of platforms *1$')
  [ "$n" -eq 1 ] || bad "expected exactly one platform with OCL_ICD_VENDORS=$target"
  printf '%s\n' "$out" | grep -q '^  Platform Name *Lockstep$' || bad "platform Lockstep not listed ($target)"
  printf '%s\n' "$out" | grep -q '^Number of devices *1$' || bad "expected one device ($target)"
  printf '%s\n' "$out" | grep -q '^  Device Type *GPU$' || bad "device is not a GPU ($target)"
  errs=$(printf '%s\n' "$out" | grep -E 'CL_INVALID|<error|Error|error:|CL_OUT_OF|invalid' | grep -v 'Error Correction')
  [ -z "$errs" ] || bad "clinfo reported errors ($target):"$'\n'"$errs"
  say "clinfo via $target: $(printf '%s\n' "$out" | wc -l) lines"
done

# Only the ICD entry points are exported.
syms=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep '^cl' | sort | tr '\n' ' ')
want="clGetExtensionFunctionAddress clGetExtensionFunctionAddressForPlatform clGetPlatformInfo clIcdGetPlatformIDsKHR "
[ "$syms" = "$want" ] || bad "exported cl symbols are [$syms], want [$want]"

[ $fail -eq 0 ] && say "ok" 
exit $fail
