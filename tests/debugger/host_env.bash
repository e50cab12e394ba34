# Sourced by the debugger's script tests that run a host program: $1 is the
# build folder. Sets build and here, and loads the sanitizer runtime first
# when the library is sanitized and the host program is not.
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
if [ -n "${LOCKSTEP_ASAN_RUNTIME:-}" ] && [ -f "${LOCKSTEP_ASAN_RUNTIME}" ]; then
  export LD_PRELOAD="$LOCKSTEP_ASAN_RUNTIME"
  export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
fi
