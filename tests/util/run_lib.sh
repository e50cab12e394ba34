# Sourced by the test scripts that run programs under settings and judge
# what they print (tests/device/check_suites.sh, tests/util/engines.sh).
#
#   lsr_run OUT DIR [VAR=VALUE...] -- PROGRAM [ARGS...]
#     runs PROGRAM in DIR with the settings added to its environment, its
#     stdout and stderr into the file OUT; returns its exit status
#   lsr_fail WHO OUT WHAT...
#     prints "WHO: FAIL: WHAT..." and the last lines of OUT

lsr_run() {
  local out=$1 dir=$2
  shift 2
  local vars=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    vars+=("$1")
    shift
  done
  shift
  (cd "$dir" && env "${vars[@]}" "$@" >"$out" 2>&1)
}

lsr_fail() {
  local who=$1 out=$2
  shift 2
  echo "$who: FAIL: $*"
  tail -20 "$out"
}
