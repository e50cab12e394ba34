#!/bin/bash
# Ctrl-C in `lockstep debug`, standalone (--kernel) and with a host program
# (--): spin.cl spins until `stop` is set; once it printed `spinning` the
# test sends SIGINT to the debugger's process group, as a terminal does
# (twice: the second one, while the pause is pending, must change nothing).
# The kernel must stop in its loop ("Interrupted"), `set var stop = 3` and
# `continue` must finish it with 3 * 7 + 1, and the debugger must exit 0. In
# host mode the program, which shares the process group, must live on, and
# a Ctrl-C while it runs host code (host_run `wait` reads a line first) must
# only print a note. Then, at a terminal, the ^C byte does the same, and at
# the prompt it drops the line being typed. Every wait is bounded. $1 is the
# build folder.
set -u
export LOCKSTEP_HOST_THREADS=${LOCKSTEP_HOST_THREADS:-1}
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
# A sanitized library needs its runtime loaded first in an unsanitized host:
# only the debugger (and the program it starts) get it, not the tools the
# test runs (ps and script may hang with it preloaded).
asan=()
if [ -n "${LOCKSTEP_ASAN_RUNTIME:-}" ] && [ -f "${LOCKSTEP_ASAN_RUNTIME}" ]; then
  asan=(env "LD_PRELOAD=$LOCKSTEP_ASAN_RUNTIME" "ASAN_OPTIONS=detect_leaks=0:${ASAN_OPTIONS:-}")
fi
tmp=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -KILL -- "-$pid" 2>/dev/null
  exec 3>&- 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail=0

# waits (at most $2 tenths of a second) until the output holds $1
await() {
  for _ in $(seq "$2"); do
    grep -qF -- "$1" "$tmp/out" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  grep -qF -- "$1" "$tmp/out" 2>/dev/null
}

# Ctrl-C at the terminal: SIGINT to every process of the foreground group
ctrl_c() {
  kill -INT -- "-$pid"
}

# starts `lockstep debug ARGS...` in a session of its own, output to out
start() {
  : >"$tmp/out"
  (cd "$here" && exec setsid "${asan[@]}" "$build/lockstep" debug "$@" >"$tmp/out" 2>&1 <"$tmp/stdin" 3>&-) &
  pid=$!
  for _ in $(seq 50); do
    [ "$(ps -o pgid= -p "$pid" 2>/dev/null | tr -d ' ')" = "$pid" ] && return 0
    sleep 0.1
  done
  echo "FAIL: the debugger did not start in a process group of its own"
  return 1
}

# waits (at most 120 s) for the debugger to exit; its status in rc
finish() {
  rc=
  for _ in $(seq 1200); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "FAIL: $1: the debugger did not exit"
    fail=1
    kill -KILL -- "-$pid" 2>/dev/null
  fi
  wait "$pid"
  rc=$?
  pid=
}

# The stop can be at the loop's condition or its body: both are the loop.
norm() {
  sed -E '/^Interrupted, k work-item \(0,0,0\) local \(0,0,0\) group \(0,0,0\) at spin\.cl:[67]$/{
s/.*/Interrupted in the loop/
n
/^[67]\t/d
}' "$tmp/out"
}

check() { # name expected-file
  if ! diff -u "$2" <(norm); then
    echo "FAIL: $1: the transcript differs"
    fail=1
  elif [ "$rc" != 0 ]; then
    echo "FAIL: $1: the debugger exited with $rc"
    fail=1
  else
    echo "ok: $1"
  fi
}

printf 'run\nprint stop\nset var stop = 3\ncontinue\n' >"$tmp/cmds"

# ---- standalone: the engine runs in the debugger's own process ----
printf 'buffer int 1 dump\nbuffer int 8 fill 0\n' >"$tmp/spin.spec"
: >"$tmp/stdin"
if start --kernel spin.cl --global 1 --spec "$tmp/spin.spec" -x "$tmp/cmds"; then
  if await spinning 600; then
    ctrl_c
    ctrl_c
  else
    echo "FAIL: standalone: the kernel did not start spinning"
    fail=1
  fi
  finish standalone
  cat >"$tmp/expect" <<'EOF'
(lockstep) run
spinning
Interrupted in the loop
(lockstep) print stop
$1 = 0
(lockstep) set var stop = 3
(lockstep) continue
Kernel k finished.
out (arg 0) = {22}
EOF
  check standalone "$tmp/expect"
else
  fail=1
fi

# ---- a large launch (2^20 work-items): the pause says where the focus is
# and sums up every work-item's state in one line, not thousands of ids ----
printf 'buffer int 1048576\nbuffer int 8 fill 0\n' >"$tmp/spinbig.spec"
printf 'run\nkill\n' >"$tmp/bigcmds"
: >"$tmp/stdin"
if start --kernel spinbig.cl --global 1048576 --local 256 --spec "$tmp/spinbig.spec" \
  -x "$tmp/bigcmds"; then
  if await spinning 600; then
    ctrl_c
  else
    echo "FAIL: large: the kernel did not start spinning"
    fail=1
  fi
  finish large
  lines=$(wc -l <"$tmp/out")
  if ! grep -qE '^Interrupted, k work-item \(0,0,0\) .* at spinbig\.cl:[89]$' "$tmp/out" ||
    ! grep -qxF "1048576 work-items: 256 running, 0 at a barrier, 0 complete, 1048320 not yet launched; 'info workitems' lists them." "$tmp/out" ||
    ! grep -qxF "[Kernel k killed]" "$tmp/out" || [ "$lines" -gt 8 ] || [ "$rc" != 0 ]; then
    echo "FAIL: large: no one-line summary, or $lines lines (at most 8), or exit $rc"
    cat "$tmp/out"
    fail=1
  else
    echo "ok: large"
  fi
else
  fail=1
fi

# ---- host program: the front end sends `interrupt` to the library ----
mkfifo "$tmp/stdin.fifo"
exec 3<>"$tmp/stdin.fifo" # the host program's stdin: a line starts its launch
rm -f "$tmp/stdin"
ln -s "$tmp/stdin.fifo" "$tmp/stdin"
if start -x "$tmp/cmds" -- "$build/tests/debugger/host_run" spin.cl 1 1 1 wait; then
  if await "waiting for a line on stdin" 600; then
    ctrl_c
    if ! await "only kernels can be paused" 100; then
      echo "FAIL: host: no note for Ctrl-C in host code"
      fail=1
    fi
  else
    echo "FAIL: host: the program did not start"
    fail=1
  fi
  echo go >&3
  if await spinning 600; then
    ctrl_c
    ctrl_c
  else
    echo "FAIL: host: the kernel did not start spinning"
    fail=1
  fi
  finish host
  cat >"$tmp/expect" <<'EOF'
(lockstep) run
waiting for a line on stdin
The program is running host code; only kernels can be paused.
spinning
Interrupted in the loop
(lockstep) print stop
$1 = 0
(lockstep) set var stop = 3
(lockstep) continue
Kernel k finished.
out: 22
[program exited with code 0]
EOF
  check host "$tmp/expect"
else
  fail=1
fi
exec 3>&-

# ---- at a terminal (script(1) gives it one): the terminal turns the ^C
# byte into SIGINT for the whole foreground group; at the prompt the line
# being typed is dropped ----
type() { printf '%b' "$1" >&3; }
# waits until the line editor showed its Nth prompt (type only then: what
# is typed before a prompt shows is echoed by the terminal, not the editor).
# Without TERM the editor redraws a line by printing the prompt again, so
# the count can run ahead: the ^D that ends the session waits for the
# result too (typed while the program still runs, it would be its input)
prompts() {
  for _ in $(seq 600); do
    [ "$(grep -oF '(lockstep) ' "$tmp/out" | wc -l)" -ge "$1" ] && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
terminal() { # name result-line debug-arguments...
  local name=$1 result=$2 ok=0
  shift 2
  rm -f "$tmp/stdin"
  mkfifo "$tmp/stdin"
  exec 3<>"$tmp/stdin"
  : >"$tmp/out"
  # script(1) starts the command through $SHELL -c: exec, so that no shell
  # (which a ^C would kill) stands between script and the debugger
  (cd "$here" && exec setsid script -qfec "exec ${asan[*]} '$build/lockstep' debug $*" /dev/null \
    >"$tmp/out" 2>&1 <"$tmp/stdin") &
  pid=$!
  if prompts 1; then
    type 'print 12'
    if await "print 12" 100; then
      type '\003'
      prompts 2 && type 'info breakpoints\r' && prompts 3 && type 'run\r' &&
        await spinning 600 && type '\003' && prompts 4 && type 'set var stop = 3\r' &&
        prompts 5 && type 'continue\r' && await "$result" 600 && prompts 6 && type '\004' &&
        ok=1
    fi
  fi
  finish "$name"
  exec 3>&-
  # the dropped line never ran (it would have said "No kernel is stopped.")
  grep -qF "No breakpoints." "$tmp/out" || ok=0
  grep -qF "No kernel is stopped." "$tmp/out" && ok=0
  grep -qE "Interrupted, k work-item \(0,0,0\) .* at spin\.cl:[67]" "$tmp/out" || ok=0
  grep -qF -- "$result" "$tmp/out" || ok=0
  if [ $ok = 1 ] && [ "$rc" = 0 ]; then
    echo "ok: $name"
  else
    echo "FAIL: $name: ^C did not drop the line or pause the kernel, or the debugger failed ($rc)"
    cat -v "$tmp/out"
    fail=1
  fi
}
if command -v script >/dev/null 2>&1; then
  terminal "terminal, standalone" "out (arg 0) = {22}" \
    --kernel spin.cl --global 1 --spec "'$tmp/spin.spec'"
  terminal "terminal, host" "[program exited with code 0]" \
    -- "'$build/tests/debugger/host_run'" spin.cl 1 1
else
  echo "skipped: terminal (no script command)"
fi
exit $fail
