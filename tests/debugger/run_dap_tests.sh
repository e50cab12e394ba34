#!/bin/bash
# End-to-end tests of `lockstep dap`: node's built-in test runner runs
# tests/debugger/dap/*.test.mjs, which drive the adapter with the DebugClient
# of @vscode/debugadapter-testsupport (installed by .ci/deps from the
# committed package-lock.json). $1 is the build folder.
set -u
# One worker thread: a full-speed pass then runs work-groups one after the
# other, so where it stops (and the lists `info workitems` shows) is the
# same on every run. A test that wants parallel passes sets it itself.
export LOCKSTEP_HOST_THREADS=${LOCKSTEP_HOST_THREADS:-1}
here=$(cd "$(dirname "$0")" && pwd)
export LOCKSTEP_BUILD=$(cd "$1" && pwd)
if ! command -v node >/dev/null 2>&1; then
  echo "FAIL: node is not installed (run .ci/deps)"
  exit 1
fi
if [ ! -d "$here/node_modules/@vscode/debugadapter-testsupport" ]; then
  echo "FAIL: the DAP client library is missing (run .ci/deps: npm ci in tests/debugger)"
  exit 1
fi
# A sanitized library needs its runtime loaded first in an unsanitized host.
if [ -n "${LOCKSTEP_ASAN_RUNTIME:-}" ] && [ -f "${LOCKSTEP_ASAN_RUNTIME}" ]; then
  export LD_PRELOAD="$LOCKSTEP_ASAN_RUNTIME"
  export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
fi
cd "$here" && exec timeout 600 node --test dap/
