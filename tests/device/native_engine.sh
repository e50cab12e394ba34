#!/usr/bin/env bash
# The native engine's settings and its code cache, seen through
# LOCKSTEP_STATS=1 on a real host program (tests/host/vecadd.c):
# - a kernel is compiled at its first launch with LOCKSTEP_NATIVE_MIN=0,
#   and its object file kept in the build cache; a second process loads it;
# - a damaged cache file is dropped and the kernel compiled again, with the
#   right result; the process after that writes a good file again;
# - below LOCKSTEP_NATIVE_MIN's threshold, or below what the kernel's
#   compile costs, nothing is compiled, and the interpreter runs it (no
#   native warp slice); cached code is used anyway;
# - LOCKSTEP_ENGINE=interp, a checker or a bad LOCKSTEP_ENGINE value: the
#   interpreter (the last with a message).
#   native_engine.sh BUILD
set -u
build=$1
prog=$build/tests/host/host_vecadd
if ! "$build/lockstep" version | grep -qE '^engines:.* native( |$)'; then
  echo "native_engine: skipped: this build has no native engine"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# run NAME SETTINGS...: host_vecadd with a fresh stats log in $tmp/NAME
run() {
  local name=$1
  shift
  if ! env OCL_ICD_VENDORS="$build/vendors" LOCKSTEP_STATS=1 LOCKSTEP_CACHE=1 \
    XDG_CACHE_HOME="$tmp/cache" "$@" "$prog" >"$tmp/$name" 2>&1; then
    echo "native_engine: FAIL: $name: host_vecadd failed:"
    tail -5 "$tmp/$name"
    fail=1
  fi
}
# expect NAME PATTERN WHAT: the log of NAME has a line matching PATTERN
expect() {
  if ! grep -qE "$2" "$tmp/$1"; then
    echo "native_engine: FAIL: $1: $3; its engine and slice lines:"
    grep -E "engine|slices|LOCKSTEP_ENGINE" "$tmp/$1" | head -5
    fail=1
  fi
}
slices() { # NAME: the native warp slices of its launch
  sed -n 's/.*, \([0-9]*\) native warp slices$/\1/p' "$tmp/$1" | head -1
}

run first LOCKSTEP_NATIVE_MIN=0
expect first 'vecadd: native engine \(compiled in' "the first launch is not compiled"
[ "$(slices first)" -gt 0 ] 2>/dev/null || { echo "native_engine: FAIL: first ran no native slice"; fail=1; }
objs=$(find "$tmp/cache" -name 'native-*.o' | wc -l)
[ "$objs" -ge 1 ] || { echo "native_engine: FAIL: no object file in the cache"; fail=1; }

run second LOCKSTEP_NATIVE_MIN=0
expect second 'vecadd: native engine \(loaded from the cache in' "a second process does not load the cache"

for f in "$tmp"/cache/lockstep/native-*.o; do head -c 200 "$f" >"$f.cut" && mv "$f.cut" "$f"; done
run damaged LOCKSTEP_NATIVE_MIN=0
expect damaged 'vecadd: native engine \(compiled in' "a damaged cache file is not compiled again"
[ "$(find "$tmp/cache" -name 'native-*.o' | wc -l)" = 0 ] ||
  { echo "native_engine: FAIL: the damaged file was kept"; fail=1; }
run rewrite LOCKSTEP_NATIVE_MIN=0
run reload LOCKSTEP_NATIVE_MIN=0
expect reload 'vecadd: native engine \(loaded from the cache in' "the cache is not written again"

rm -rf "$tmp/cache"
run below LOCKSTEP_NATIVE_MIN=1G
expect below 'vecadd: interpreter engine \([0-9]+ lane instructions so far, below the 1073741824 a compile of its [0-9]+ instructions is worth \(LOCKSTEP_NATIVE_MIN\)\)' \
  "a kernel below the threshold is compiled"
[ "$(slices below)" = 0 ] || { echo "native_engine: FAIL: below ran native slices"; fail=1; }
# a threshold below what the compile costs: the compile's cost counts
# (host_vecadd's 20 instructions are worth 20 x 4Mi lane instructions,
# more than its launch of about 20M)
run cost LOCKSTEP_NATIVE_MIN=1
expect cost 'vecadd: interpreter engine \([0-9]+ lane instructions so far, below the 83886080 a compile of its 20 instructions is worth' \
  "a kernel worth less than its compile is compiled"
[ "$(slices cost)" = 0 ] || { echo "native_engine: FAIL: cost ran native slices"; fail=1; }
run compiled LOCKSTEP_NATIVE_MIN=0
run cached_below LOCKSTEP_NATIVE_MIN=1G
expect cached_below 'vecadd: native engine \(loaded from the cache' "cached code is not used below the threshold"

run interp LOCKSTEP_ENGINE=interp LOCKSTEP_NATIVE_MIN=0
[ "$(slices interp)" = 0 ] || { echo "native_engine: FAIL: interp ran native slices"; fail=1; }
run checked LOCKSTEP_CHECK=races LOCKSTEP_NATIVE_MIN=0
[ "$(slices checked)" = 0 ] || { echo "native_engine: FAIL: the race checker ran native code"; fail=1; }
run bad LOCKSTEP_ENGINE=fast LOCKSTEP_NATIVE_MIN=0
expect bad 'ignoring LOCKSTEP_ENGINE="fast": expected native or interp' "a bad value is not reported"
expect bad 'vecadd: native engine' "a bad value does not keep the default"

[ $fail = 0 ] && echo "native_engine: ok"
exit $fail
