#!/usr/bin/env bash
# The engine matrix: one test program on both engines (LOCKSTEP_ENGINE=native
# and interp) in the same device configurations. tests/CMakeLists.txt
# registers one CTest test per program, labelled `engines`.
#
#   engines.sh BUILD suite NAME DIR PROGRAM [ARGS...]
#     (NAME names the program in messages, DIR is where it runs)
#     a Check suite: it must pass on each engine (its own assertions compare
#     the results with their references)
#   engines.sh BUILD api-suite NAME DIR PROGRAM [ARGS...]
#     a Check suite whose devices take every setting from the environment
#     (through the OpenCL API or tests/device/kharness.h): the same, and
#     see below
#   engines.sh BUILD host NAME DIR PROGRAM [ARGS...]
#     a host program or script: it must pass on each engine, and what it
#     prints (results, device-exception reports, stdout and stderr alike)
#     must be the same on both but for what differs from run to run on one
#     engine (normalise below); exit 77 on both is a skip
#   engines.sh BUILD native-ran NAME DIR PROGRAM [ARGS...]
#     with LOCKSTEP_STATS=1: on the interpreter no launch reports native warp
#     slices; where this build has the native engine (`lockstep version`
#     lists it), every launch on it reports some. LOCKSTEP_REQUIRE_NATIVE=1
#     requires that even when native is not listed, 0 never; skipped (77)
#     when native is neither listed nor required.
#
# Configurations (`make check`): a suite in the device's own (warp width
# 32, one host thread per core) on the interpreter (its plain CTest test is
# the native run; every run here compiles every kernel), and an api-suite,
# whose plain test compiles only launches worth a compile, also on the
# native engine at width 8 with 2 host threads; a host program at width 32 with one host
# thread, so that every report can be compared (its plain test runs it
# with one thread per core). With LOCKSTEP_CHECK_ENGINES=all
# (`make check-engines`) the product: warp widths 32 and 8 by 1 and 2 host
# threads, each on both engines. The kernel suites run their own four
# configurations (kharness.h) unless KH_CONFIGS names one, which the product
# does; suites that build their device from a dev_config choose the width
# and threads per test and take only the engine (tests/device/kconfig.h).
set -u
build=$(cd "$1" && pwd)
kind=$2
name=$3
dir=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
source "$here/run_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# What legitimately differs between two runs on the same engine, so also
# between engines; nothing else is rewritten:
#  - wall-clock times: host programs print how long a kernel took
#    ("... 0 wrong, 178.2 ms", "long kernel 1407.9 ms"); every number
#    before " ms" becomes "<t> ms" (a setting such as the watchdog's "300
#    ms" is the same on both sides and loses nothing);
#  - the instruction a watchdog report names: the watchdog stops a kernel
#    where its time runs out, so in a loop the reported instruction is any
#    of the loop's (the kernel, file:line, work-item and work-group it
#    names are still compared);
#  - temporary folders (mktemp's tmp.XXXXXXXXXX) that scripts name;
#  - the counts of a command-processor trace (cpswitch_forced.sh: "trace
#    has N events, N switches, N replays"): random switch points fall
#    between operations and work-groups whose timing the host decides;
#  - with more than one host thread (CONFIG not LOCKSTEP_HOST_THREADS=1),
#    the work-item, work-group and local ids a device exception names:
#    when several work-groups fault, the host thread that gets there first
#    decides which one the launch reports. With one host thread they are
#    compared too.
normalise() { # FILE CONFIG
  local ids='s/work-item \([0-9,]+\) of work-group \([0-9,]+\) \[local \([0-9,]+\)\]/work-item (<id>) of work-group (<id>) [local (<id>)]/g'
  [[ " $2 " == *" LOCKSTEP_HOST_THREADS=1 "* ]] && ids=
  sed -E -e "$ids" -e 's/[0-9]+(\.[0-9]+)? ms\b/<t> ms/g' \
    -e '/watchdog/s/\(instruction [0-9a-f]+\)/(instruction <pc>)/g' \
    -e 's/\btmp\.[A-Za-z0-9]{10}\b/tmp.<dir>/g' \
    -e 's/trace has [0-9]+ events, [0-9]+ switches, [0-9]+ replays/trace has <n> events, <n> switches, <n> replays/' \
    "$1"
}

# The configurations of KIND as settings, one per line ("" is the device's
# own).
configs() {
  if [ "${LOCKSTEP_CHECK_ENGINES:-}" = all ]; then
    for W in 32 8; do
      for T in 1 2; do
        echo "LOCKSTEP_WARP_WIDTH=$W LOCKSTEP_HOST_THREADS=$T KH_CONFIGS=$W/$T"
      done
    done
  elif [ "$1" = host ]; then
    echo "LOCKSTEP_HOST_THREADS=1"
  else
    echo ""
  fi
}

# run ENGINE CONFIG PROGRAM...: PROGRAM on ENGINE with the settings CONFIG,
# its output into $tmp/ENGINE; returns its exit status
run() {
  local engine=$1 config
  read -ra config <<<"$2"
  shift 2
  # LOCKSTEP_NATIVE_MIN=0: the native engine compiles every kernel, however small
  lsr_run "$tmp/$engine" "$dir" LOCKSTEP_ENGINE="$engine" LOCKSTEP_NATIVE_MIN=0 "${config[@]}" -- "$@"
}

suite_on() { # ENGINE CONFIG PROGRAM...
  local engine=$1 config=$2
  shift 2
  if ! run "$engine" "$config" "$@"; then
    lsr_fail engines "$tmp/$engine" "$name on $engine ${config:-(default configuration)}"
    fail=1
  fi
}

one_suite() { # CONFIG PROGRAM...
  local config=$1
  shift
  if [ -n "$config" ]; then
    suite_on native "$config" "$@"
    suite_on interp "$config" "$@"
    return
  fi
  suite_on interp "" "$@"
  # An api-suite's plain test takes the native engine's default threshold,
  # under which its small launches are interpreted: here it runs compiling
  # every kernel too (in one of a kernel suite's four configurations).
  # At width 8: a compile at width 32 takes two to three times as long on a
  # host without 512-bit vectors (the plain test compiles at 32 the launches
  # worth it; `make check-engines` compiles everything at both).
  if [ "$kind" = api-suite ]; then suite_on native "LOCKSTEP_WARP_WIDTH=8 LOCKSTEP_HOST_THREADS=2 KH_CONFIGS=8/2" "$@"; fi
}

one_host() { # CONFIG PROGRAM...
  local config=$1 rn ri
  shift
  run native "$config" "$@"
  rn=$?
  run interp "$config" "$@"
  ri=$?
  local what="$name ${config:-(default configuration)}"
  if [ $rn = 77 ] && [ $ri = 77 ]; then
    echo "engines: $what: skipped"
    skipped=1
    return
  fi
  [ $rn = 0 ] || { lsr_fail engines "$tmp/native" "$what on native exits with $rn"; fail=1; }
  [ $ri = 0 ] || { lsr_fail engines "$tmp/interp" "$what on interp exits with $ri"; fail=1; }
  normalise "$tmp/native" "$config" >"$tmp/native.n"
  normalise "$tmp/interp" "$config" >"$tmp/interp.n"
  if ! diff -u --label native --label interp "$tmp/native.n" "$tmp/interp.n" >"$tmp/diff"; then
    echo "engines: FAIL: $what prints differently on the two engines:"
    head -40 "$tmp/diff"
    fail=1
  fi
}

# The launches' "N native warp slices" (LOCKSTEP_STATS) in $tmp/ENGINE:
# prints how many launches there were and how many of them ran no slice.
slices() {
  grep -oE '[0-9]+ native warp slices$' "$tmp/$1" | awk '{ n++; z += $1 == 0 } END { print n + 0, z + 0 }'
}

native_ran() { # PROGRAM...
  local require=${LOCKSTEP_REQUIRE_NATIVE:-} n z
  if [ -z "$require" ]; then
    require=0
    "$build/lockstep" version | grep -qE '^engines:.* native( |$)' && require=1
  fi
  if ! run interp LOCKSTEP_STATS=1 "$@"; then
    lsr_fail engines "$tmp/interp" "$name on interp with LOCKSTEP_STATS=1"
    fail=1
    return
  fi
  read -r n z < <(slices interp)
  if [ "$n" = 0 ] || [ "$n" != "$z" ]; then
    lsr_fail engines "$tmp/interp" "$name: $n launches on interp, $((n - z)) with native warp slices"
    fail=1
  fi
  if [ "$require" != 1 ]; then
    echo "engines: $name: skipped: this build has no native engine to require ($("$build/lockstep" version | grep '^engines:'))"
    skipped=1
    return
  fi
  if ! run native LOCKSTEP_STATS=1 "$@"; then
    lsr_fail engines "$tmp/native" "$name on native with LOCKSTEP_STATS=1"
    fail=1
    return
  fi
  read -r n z < <(slices native)
  if [ "$n" = 0 ] || [ "$z" != 0 ]; then
    lsr_fail engines "$tmp/native" "$name: $z of $n launches on native ran no native warp slice"
    fail=1
  fi
}

skipped=0
case $kind in
  suite | api-suite | host)
    mapfile -t all < <(configs "$kind")
    for config in "${all[@]}"; do
      "one_${kind/api-/}" "$config" "$@"
    done
    ;;
  native-ran) native_ran "$@" ;;
  *)
    echo "engines: unknown kind '$kind'"
    exit 2
    ;;
esac
[ $fail = 0 ] && [ $skipped = 1 ] && exit 77
[ $fail = 0 ] && echo "engines: ok: $name"
exit $fail
