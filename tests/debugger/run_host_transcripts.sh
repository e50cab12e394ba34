#!/bin/bash
# Transcript tests of `lockstep debug -- PROGRAM`: each NAME.hinp is a command
# file run in batch mode; NAME.hcmd holds the rest of the command line
# (options, `--`, the host program and its arguments) with $BUILD and $HERE
# standing for the build and test folders. The output must equal NAME.href.
set -u
# One worker thread: a full-speed pass then runs work-groups one after the
# other, so where it stops (and the lists `info workitems` shows) is the
# same on every run. A test that wants parallel passes sets it itself.
export LOCKSTEP_HOST_THREADS=${LOCKSTEP_HOST_THREADS:-1}
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
# A sanitized library needs its runtime loaded first in an unsanitized host.
if [ -n "${LOCKSTEP_ASAN_RUNTIME:-}" ] && [ -f "${LOCKSTEP_ASAN_RUNTIME}" ]; then
  export LD_PRELOAD="$LOCKSTEP_ASAN_RUNTIME"
  export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
fi
fail=0
for inp in "$here"/*.hinp; do
  name=$(basename "$inp" .hinp)
  cmd=$(BUILD="$build" HERE="$here" envsubst '$BUILD $HERE' < "$here/$name.hcmd")
  dir=$here
  [ -f "$here/$name.hdir" ] && dir=$(BUILD="$build" envsubst '$BUILD' < "$here/$name.hdir")
  out=$(cd "$dir" && eval timeout 300 "\"$build/lockstep\"" debug -x "\"$inp\"" $cmd 2>&1)
  if ! diff -u "$here/$name.href" <(printf '%s\n' "$out"); then
    echo "FAIL: transcript $name differs from $name.href"
    fail=1
  else
    echo "ok: $name"
  fi
done
exit $fail
