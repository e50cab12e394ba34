#!/bin/bash
# lockstep debug's argument spec for a struct passed by value (`bytes`) and
# a vector's elements one by one: the values land where the kernel reads
# them (a ulong keeps every digit), and a line that does not fit the
# argument is refused with a message naming it. $1 is the build folder.
set -u
build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cat >"$tmp/s.cl" <<'CL'
typedef struct { char c; int n; float4 v; ulong u; } S;
__kernel void k(__global long *out, S s, int3 iv) {
  out[0] = s.c + s.n + (long)s.v.w + iv.x + iv.y + iv.z;
  out[1] = s.u % 1000;
}
CL
printf 'break 3\nrun\nprint s\nprint iv\nprint/x s.u\ncontinue\n' >"$tmp/cmds"
check() { # name spec-lines expected-output
  printf '%s\n' "buffer long 2 fill 0 dump" "$2" >"$tmp/$1.spec"
  out=$(cd "$tmp" && timeout 60 "$build/lockstep" debug --kernel s.cl --global 1 --spec "$1.spec" \
    -x cmds 2>&1)
  if diff -u <(printf '%s\n' "$3") <(printf '%s\n' "$out"); then
    echo "ok: $1"
  else
    echo "FAIL: $1"
    fail=1
  fi
}
check good $'bytes char -2 pad 3 int 40 pad 8 float 1 2 3 4.5 long 18446744073709550616\nscalar int3 1 2' \
  "$(cat <<'OUT'
(lockstep) break 3
Breakpoint 1 at line 3
(lockstep) run
Breakpoint 1, k work-item (0,0,0) local (0,0,0) group (0,0,0) at s.cl:3
3	  out[0] = s.c + s.n + (long)s.v.w + iv.x + iv.y + iv.z;
(lockstep) print s
$1 = {c = -2 '\376', n = 40, v = {1, 2, 3, 4.5}, u = 18446744073709550616}
(lockstep) print iv
$2 = {1, 2, 2}
(lockstep) print/x s.u
$3 = 0xfffffffffffffc18
(lockstep) continue
Kernel k finished.
out (arg 0) = {47, 616}
OUT
)"
check overrun $'bytes int 1 2 3 4 5 6 7 8 9 10 11 12 13\nscalar int3 1' \
  'lockstep: argument 1 (s): the bytes spec overruns its 48 bytes'
check padpast $'bytes int 1 pad 45\nscalar int3 1' \
  'lockstep: argument 1 (s): the bytes spec overruns its 48 bytes'
check word $'bytes int 1 two\nscalar int3 1' \
  "lockstep: argument 1 (s): 'two' is neither a type nor a value"
check scalar $'scalar int 1\nscalar int3 1' \
  "lockstep: spec line for argument 1 (s) must be 'bytes [TYPE] VALUE...'"
exit $fail
