#!/bin/bash
# The prompt's line editor, at a pseudo-terminal and with stdin a pipe
# (line_edit.py says what is checked), on basic.cl. $1 is the build folder.
set -u
export LOCKSTEP_HOST_THREADS=${LOCKSTEP_HOST_THREADS:-1}
build=$(cd "$1" && pwd)
cd "$(dirname "$0")" || exit 1
exec python3 line_edit.py "$build/lockstep" debug --kernel basic.cl $(cat basic.args) \
  --spec basic.spec
