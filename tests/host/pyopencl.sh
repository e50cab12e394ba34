#!/usr/bin/env bash
# What the most common Python binding does, through the real ICD loader:
# pyopencl 2022.3 releases the program a failed clLinkProgram returns twice.
# The process must survive, the error reach Python, and the second release
# be reported in one line. .ci/deps installs pyopencl; where it is missing
# the test is skipped (exit 77, which CTest reports as skipped).
set -u
build=$1
py=/usr/bin/python3
if ! "$py" -c 'import pyopencl' 2>/dev/null; then
  echo "pyopencl: skipped: no pyopencl for $py"
  exit 77
fi
# A sanitized library needs its runtime loaded first in an unsanitized host
# (and the C++ runtime with it, so exceptions the binding throws are seen).
if [ -n "${LOCKSTEP_ASAN_RUNTIME:-}" ] && [ -f "${LOCKSTEP_ASAN_RUNTIME}" ]; then
  export LD_PRELOAD="$LOCKSTEP_ASAN_RUNTIME libstdc++.so.6"
  export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
fi
export OCL_ICD_VENDORS="$build/vendors"
fail=0
bad() { echo "pyopencl: FAIL: $*"; fail=1; }

err=$(mktemp)
out=$("$py" - 2>"$err" <<'PY'
import gc
import pyopencl as cl

plat = [p for p in cl.get_platforms() if p.name == "Lockstep"][0]
ctx = cl.Context(plat.get_devices())
obj = cl.Program(ctx, """
int helper(int x);
__kernel void k(__global int *p) { p[0] = helper(p[0]); }
""").compile()
try:
    cl.link_program(ctx, [obj])
    print("linked")
except cl.Error as e:
    print("link failed:", e.code)
gc.collect()
print("alive")
PY
)
rc=$?
[ $rc -eq 0 ] || bad "python exited $rc: $(cat "$err")"
printf '%s\n' "$out" | grep -q "^link failed: -17$" || bad "expected CL_LINK_PROGRAM_FAILURE, got: $out"
printf '%s\n' "$out" | grep -q "^alive$" || bad "python did not finish: $out"
n=$(grep -c "^lockstep: clReleaseProgram: program 0x[0-9a-f]* was used after its last release$" "$err")
[ "$n" -eq 1 ] || bad "expected one report of the second release, got $n in: $(cat "$err")"
rm -f "$err"
[ $fail -eq 0 ] && echo "pyopencl: ok"
exit $fail
