#!/bin/bash
# The runtime is a layer below the ICD surface and the debugger (DESIGN.md:
# icd -> runtime -> {compiler, device}; the debugger installs the runtime's
# hooks). Three checks, each naming what breaks it:
#  1. no file of runtime/, nor any project header it reaches through its
#     includes, includes anything from debugger/ or icd/;
#  2. no symbol the runtime's objects need is defined by the debugger's or
#     the ICD surface's objects (an extern declared by hand counts too);
#  3. the runtime's unit test programs hold no symbol of the debugger's
#     objects (they are linked without it).
# $1 is the build folder.
set -u
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# ---- 1. includes, followed through project headers ----
declare -A seen=()
queue=()
for f in "$root"/runtime/*.c "$root"/runtime/*.h; do
  rel=${f#"$root"/}
  queue+=("$rel")
  seen[$rel]=$rel
done
while [ ${#queue[@]} -gt 0 ]; do
  file=${queue[0]}
  queue=("${queue[@]:1}")
  dir=$(dirname "$file")
  while read -r inc; do
    case $inc in
    debugger/* | icd/*)
      echo "FAIL: ${seen[$file]} includes $inc"
      fail=1
      continue
      ;;
    esac
    # project headers: from the top of the tree, or next to the includer
    next=
    if [ -f "$root/$inc" ]; then
      next=$inc
    elif [ -f "$root/$dir/$inc" ]; then
      next=$dir/$inc
    fi
    if [ -n "$next" ] && [ -z "${seen[$next]+x}" ]; then
      seen[$next]="${seen[$file]} -> $next"
      queue+=("$next")
    fi
  done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^">]+)[">].*/\1/p' \
    "$root/$file")
done
[ $fail = 0 ] && echo "ok: runtime/ reaches no header of debugger/ or icd/ (${#seen[@]} files)"

# ---- 2. symbols the runtime's objects need ----
objs() { # the object files of layer $1
  find "$build/CMakeFiles/lockstep_$1.dir" -name '*.o' 2>/dev/null | sort
}
runtime_objs=$(objs runtime)
above_objs="$(objs debugger) $(objs icd)"
if [ -z "$runtime_objs" ] || [ -z "$(objs debugger)" ] || [ -z "$(objs icd)" ]; then
  echo "FAIL: no object files of the runtime, the debugger or the ICD surface in $build"
  exit 1
fi
# shellcheck disable=SC2086
comm -12 <(nm --undefined-only $runtime_objs | awk 'NF == 2 { print $2 }' | sort -u) \
  <(nm --defined-only $above_objs | awk 'NF == 3 && $2 ~ /[A-Z]/ { print $3 }' | sort -u) \
  >"$tmp/needs"
if [ -s "$tmp/needs" ]; then
  echo "FAIL: the runtime needs symbols of the debugger or the ICD surface:"
  sed 's/^/  /' "$tmp/needs"
  fail=1
else
  echo "ok: the runtime's objects need nothing of the debugger or the ICD surface"
fi

# ---- 3. the runtime's test programs ----
# shellcheck disable=SC2046
nm --defined-only $(objs debugger) | awk 'NF == 3 && $2 ~ /[A-Z]/ { print $3 }' | sort -u \
  >"$tmp/dbg"
tests=("$build"/tests/runtime_test_*)
if [ ! -x "${tests[0]}" ]; then
  echo "FAIL: no runtime test programs in $build/tests"
  exit 1
fi
for t in "${tests[@]}"; do
  held=$(comm -12 <(nm "$t" | awk 'NF == 3 { print $3 }' | sort -u) "$tmp/dbg")
  if [ -n "$held" ]; then
    echo "FAIL: $(basename "$t") holds symbols of the debugger: $(echo "$held" | head -3 | tr '\n' ' ')"
    fail=1
  fi
done
[ $fail = 0 ] && echo "ok: ${#tests[@]} runtime test programs hold nothing of the debugger"
exit $fail
