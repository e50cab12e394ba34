#!/bin/bash
# Transcript tests of `lockstep debug`: each NAME.inp is a command file run in
# batch mode against NAME.cl (and NAME.spec, NAME.args for the launch;
# NAME.env, when present, holds VAR=VALUE words on one line for the run, e.g.
# LOCKSTEP_WARP_WIDTH=4); the output must equal NAME.ref.
set -u
# One worker thread: a full-speed pass then runs work-groups one after the
# other, so where it stops (and the lists `info workitems` shows) is the
# same on every run. A test that wants parallel passes sets it itself.
export LOCKSTEP_HOST_THREADS=${LOCKSTEP_HOST_THREADS:-1}
build=$1
here=$(cd "$(dirname "$0")" && pwd)
fail=0
for inp in "$here"/*.inp; do
  name=$(basename "$inp" .inp)
  args="--global 8 --local 4"
  [ -f "$here/$name.args" ] && args=$(cat "$here/$name.args")
  spec=()
  [ -f "$here/$name.spec" ] && spec=(--spec "$name.spec")
  # NAME.env: VAR=value words the test runs with (a warp width, say)
  envs=()
  [ -f "$here/$name.env" ] && read -r -a envs <"$here/$name.env"
  out=$(cd "$here" && timeout 120 env ${envs[@]+"${envs[@]}"} "$build/lockstep" debug --kernel "$name.cl" $args "${spec[@]}" -x "$name.inp" 2>&1)
  if ! diff -u "$here/$name.ref" <(printf '%s\n' "$out"); then
    echo "FAIL: transcript $name differs from $name.ref"
    fail=1
  else
    echo "ok: $name"
  fi
done
exit $fail
