#!/bin/bash
# The command line of `lockstep` follows getopt_long's conventions: --help
# on every command (usage on stdout, exit 0), --opt=VALUE and --opt VALUE
# alike, -x FILE, `--` ends the options, an unknown option or a missing
# value is an error that names it (exit 2). $1 is the build folder.
set -u
source "$(dirname "$0")/host_env.bash"
cd "$here" || exit 1
ls="$build/lockstep"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
  echo "FAIL: $*"
  fail=1
}

# --help everywhere: the usage on stdout, nothing on stderr, exit 0
for cmd in "" compile debug dap version; do
  out=$("$ls" $cmd --help 2>"$tmp/err")
  rc=$?
  [ $rc -eq 0 ] || bad "lockstep $cmd --help exited with $rc"
  grep -q "^usage: lockstep" <<<"$out" || bad "lockstep $cmd --help printed no usage: $out"
  [ -s "$tmp/err" ] && bad "lockstep $cmd --help wrote to stderr: $(cat "$tmp/err")"
done
"$ls" debug -h | grep -q -- "--source-dir=DIR" || bad "lockstep debug -h does not list --source-dir"
# version names the engines LOCKSTEP_ENGINE can choose: the interpreter always
"$ls" version | grep -qE '^engines:( native)? interp$' || bad "lockstep version: $("$ls" version)"

# unknown options and missing values: a message naming them, exit 2
expect2() { # WANT-IN-STDERR ARGS...
  local want=$1
  shift
  "$ls" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local rc=$?
  [ $rc -eq 2 ] || bad "lockstep $* exited with $rc, want 2"
  grep -qF -- "$want" "$tmp/err" || bad "lockstep $*: stderr lacks '$want': $(cat "$tmp/err")"
  grep -qF -- "--help' for more information" "$tmp/err" || bad "lockstep $*: no pointer to --help"
}
expect2 "unrecognized option '--bogus'" --bogus
expect2 "unrecognized option '--bogus'" debug --bogus --kernel=complete.cl
expect2 "unrecognized option '--bogus'" dap --bogus
expect2 "unrecognized option '--bogus'" compile --bogus complete.cl
expect2 "unrecognized option '--bogus'" version --bogus
expect2 "invalid option -- 'q'" debug -q
expect2 "option '--kernel' requires an argument" debug --kernel
expect2 "option requires an argument -- 'x'" debug -x
expect2 "unknown command 'frobnicate'" frobnicate
expect2 "unexpected argument 'extra'" dap extra
expect2 "bad size '12q' for --global" debug --kernel=complete.cl --global=12q
expect2 "give --kernel=FILE.cl or a host program" debug -x "$tmp/none"
expect2 "not a host program" debug --kernel=complete.cl -- /bin/true

# --opt=VALUE and --opt VALUE (and -x FILE, --command=FILE) mean the same:
# the same launch of 2^20 work-items, the same transcript
printf 'break complete.cl:17\nrun\nprint get_global_size(0) * 1000 + get_local_size(0)\nprint pr.second\nquit\n' >"$tmp/cmds"
a=$("$ls" debug --kernel=complete.cl --global=1048576 --local=256 --spec=complete.spec \
  --command="$tmp/cmds" 2>&1)
b=$("$ls" debug --kernel complete.cl --global 1048576 --local 256 --spec complete.spec \
  -x "$tmp/cmds" 2>&1)
c=$("$ls" debug -k complete.cl -g1048576 -l 256 -s complete.spec -x"$tmp/cmds" 2>&1)
grep -qF '$1 = 1048576256' <<<"$a" || bad "--opt=VALUE: no launch of 1048576 in groups of 256: $a"
[ "$a" = "$b" ] || bad "--opt VALUE differs from --opt=VALUE: $(diff <(echo "$a") <(echo "$b"))"
[ "$a" = "$c" ] || bad "short options differ from long ones: $(diff <(echo "$a") <(echo "$c"))"

# `--` ends the options: what follows is the program and its own options
printf 'run\n' >"$tmp/run"
out=$("$ls" debug -x "$tmp/run" -- /bin/echo --help -x 2>&1)
rc=$?
[ $rc -eq 0 ] || bad "debug -- /bin/echo --help exited with $rc"
grep -qx -- "--help -x" <<<"$out" || bad "debug -- PROGRAM did not pass --help -x to it: $out"
grep -q "usage: lockstep" <<<"$out" && bad "debug -- PROGRAM --help took --help as its own"
# the program's options may follow it without `--` too (options end at it)
out=$("$ls" debug --source-dir="$tmp" -x "$tmp/run" /bin/echo -n --global 2>&1)
grep -q -- "--global" <<<"$out" || bad "debug PROGRAM --global did not pass --global on: $out"
# compile: the build options follow the file
out=$("$ls" compile --dump complete.cl -cl-opt-disable 2>&1)
rc=$?
[ $rc -eq 0 ] || bad "compile --dump FILE -cl-opt-disable exited with $rc: $out"

[ $fail -eq 0 ] && echo "ok: lockstep's options follow getopt_long's conventions"
exit $fail
