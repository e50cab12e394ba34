#!/bin/bash
# A host program that ships its kernel as a program binary (host_bin):
# the binary carries the source and options, so under `lockstep debug` the
# program still shows its lines, takes line breakpoints and can be edited;
# built without -g it is rebuilt from them with -g (every variable can be
# printed). A program linked from a compiled object has no source to show.
# Then `run` after the program exited.
# The program runs from a folder without the kernel file, so the program is
# named after its kernel. $1 is the build folder.
set -u
export LOCKSTEP_HOST_THREADS=1
source "$(dirname "$0")/host_env.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
prog=$build/tests/debugger/host_bin
"$prog" save "$here/edit.cl" "$tmp/g.bin" -g || fail=1
"$prog" save "$here/edit.cl" "$tmp/nog.bin" "" || fail=1

check() { # name commands expected binary-or-kernel-file
  printf '%s' "$2" >"$tmp/$1.cmds"
  local mode=load
  [ "${4%.cl}" != "$4" ] && mode=link
  out=$(cd "$tmp" && timeout 120 "$build/lockstep" debug -x "$1.cmds" -- "$prog" $mode "$4" 2>&1)
  if diff -u <(printf '%s' "$3") <(printf '%s\n' "$out"); then
    echo "ok: $1"
  else
    echo "FAIL: $1"
    fail=1
  fi
}

# in[i] = i; k sums in[8*gid .. 8*gid+3] = 32*gid + 6. Stopped at line 7
# with i == 2, group 1's items have added two inputs (16*gid + 1; 81 for
# gid 5); after the edit the last two count ten times: 176*gid + 51.
check with_g 'break k
run
list 5,7
break 7 if gid == 5 && i == 2
continue
print acc
edit 7     acc += 10 * in[gid * 8 + i];
delete
continue
' '(lockstep) break k
Breakpoint 1 at kernel k
(lockstep) run
Breakpoint 1, k work-item (0,0,0) local (0,0,0) group (0,0,0) at k:3
3	  int gid = get_global_id(0);
(lockstep) list 5,7
5	  int acc = 0;
6	  for (int i = 0; i < 4; i++) {
7	    acc += in[gid * 8 + i];
(lockstep) break 7 if gid == 5 && i == 2
Breakpoint 2 at line 7 if gid == 5 && i == 2
(lockstep) continue
Breakpoint 2, k work-item (5,0,0) local (1,0,0) group (1,0,0) at k:7
7	    acc += in[gid * 8 + i];
(lockstep) print acc
$1 = 81
(lockstep) edit 7     acc += 10 * in[gid * 8 + i];
Line 7 is now:
7	    acc += 10 * in[gid * 8 + i];
Rebuilt; the stopped work-items go on in the new code.
(lockstep) delete
(lockstep) continue
Kernel k finished.
out: 6 38 70 102 755 931 1107 1283
[program exited with code 0]
' g.bin

# Group 0's items stop together at line 7 with i == 1 (one warp); after the
# edit every item ends with acc = 1.
check without_g 'break 7 if gid == 3 && i == 1
run
list 7,7
print acc
info locals
delete
edit 7 acc = 1;
continue
' '(lockstep) break 7 if gid == 3 && i == 1
Breakpoint 1 at line 7 if gid == 3 && i == 1
(lockstep) run
Breakpoint 1, k work-item (3,0,0) local (3,0,0) group (0,0,0) at k:7
7	    acc += in[gid * 8 + i];
(lockstep) list 7,7
7	    acc += in[gid * 8 + i];
(lockstep) print acc
$1 = 24
(lockstep) info locals
gid = 3
spare = 1
acc = 24
i = 1
(lockstep) delete
(lockstep) edit 7 acc = 1;
Line 7 is now:
7	acc = 1;
Rebuilt; the stopped work-items go on in the new code.
(lockstep) continue
Kernel k finished.
out: 1 1 1 1 1 1 1 1
[program exited with code 0]
' nog.bin

# Linked from a compiled object, the program has no one source to show; it
# still stops on its lines and prints its variables.
check linked 'break 7 if gid == 3 && i == 1
run
list 7,7
print acc
continue
' '(lockstep) break 7 if gid == 3 && i == 1
Breakpoint 1 at line 7 if gid == 3 && i == 1
(lockstep) run
Breakpoint 1, k work-item (3,0,0) local (3,0,0) group (0,0,0) at k:7
(lockstep) list 7,7
No source for k: its program was linked from compiled objects.
(lockstep) print acc
$1 = 24
(lockstep) continue
Kernel k finished.
out: 6 38 70 102 134 166 198 230
[program exited with code 0]
' "$here/edit.cl"

# After the program exits, `run` runs it again; the breakpoint commands
# given so far are replayed (2 keeps its number, tbreak 3, deleted by its
# hit, stays deleted). acc at line 7 for gid 1 before i == 3: 8+9+10 = 27.
check rerun 'break 9 if gid == 6
run
print acc
continue
break 7 if gid == 1 && i == 3
tbreak k
run
continue
print acc
delete 1
info breakpoints
continue
run
info breakpoints
quit
' '(lockstep) break 9 if gid == 6
Breakpoint 1 at line 9 if gid == 6
(lockstep) run
Breakpoint 1, k work-item (6,0,0) local (2,0,0) group (1,0,0) at k:9
9	  out[gid] = acc;
(lockstep) print acc
$1 = 198
(lockstep) continue
Kernel k finished.
out: 6 38 70 102 134 166 198 230
[program exited with code 0]
(lockstep) break 7 if gid == 1 && i == 3
The program is not being run; this takes effect when it runs again.
(lockstep) tbreak k
The program is not being run; this takes effect when it runs again.
(lockstep) run
Temporary breakpoint 3, k work-item (0,0,0) local (0,0,0) group (0,0,0) at k:3
3	  int gid = get_global_id(0);
(lockstep) continue
Breakpoint 2, k work-item (1,0,0) local (1,0,0) group (0,0,0) at k:7
7	    acc += in[gid * 8 + i];
(lockstep) print acc
$2 = 27
(lockstep) delete 1
(lockstep) info breakpoints
Num  Type        Enb  Where
2    breakpoint  y    line 7 if gid == 1 && i == 3 (hit 1 time)
(lockstep) continue
Kernel k finished.
out: 6 38 70 102 134 166 198 230
[program exited with code 0]
(lockstep) run
Breakpoint 2, k work-item (1,0,0) local (1,0,0) group (0,0,0) at k:7
7	    acc += in[gid * 8 + i];
(lockstep) info breakpoints
Num  Type        Enb  Where
2    breakpoint  y    line 7 if gid == 1 && i == 3 (hit 1 time)
(lockstep) quit
' g.bin
exit $fail
