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
source "$(dirname "$0")/host_env.bash"
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
