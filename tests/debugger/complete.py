#!/usr/bin/env python3
"""Tab completion at the `lockstep debug` prompt (debugger/cli_line.c with
dbg_complete), in a pseudo-terminal, on complete.cl over 2^20 work-items:
stopped at line 17 of work-item 0, Tab completes

  a command          `wat`          -> `watch `
  a subcommand       `info wo`      -> `info workitems `
  a variable         `whatis to`    -> `whatis total ` (type = int)
  a struct's fields  `print pr.`    lists pr.first pr.off pr.second pr.vec;
                     `pr.s` -> `pr.second `
  no space after a struct or vector `whatis p` -> `whatis pr`, `.o` -> `.off`,
                     `.` lists pr.off.x pr.off.y; `pr.ve` -> `pr.vec` (`.y` follows)
  a file:line        `break comp`   -> `break complete.cl:`, `1` lists the lines
                     with code from 10 to 19, `7` -> `complete.cl:17 `
  a function         `tbreak tw`    -> `tbreak twice ` (inlined into k)

in standalone mode (--kernel; its file completes before `run` too) and in
host mode (-- host_run), where the names come from the program's library
over the line protocol.

Usage: complete.py LOCKSTEP HOST_SUM (run in tests/debugger). Every wait is
bounded; exits 1 on the first failure, naming it.
"""
import sys

from ptyterm import Fail, Term, run_test

KILL_LINE = b"\x15"  # ^U: the line typed so far goes


def tab(t, keys, want, what):
    """Types keys (with Tabs in them): what the terminal shows next must
    hold want."""
    mark = len(t.out)
    t.type(keys)
    t.wait_from(want, mark, what)


def check(t, line_keys, want, what):
    """Types line_keys and Enter: the command's output, up to the next
    prompt, must hold want."""
    mark = len(t.out)
    t.type(line_keys + b"\r")
    at = t.wait_from(want.encode(), mark, what)
    t.wait_from(b"(lockstep) ", at, what)
    said = t.since(mark)
    if "Undefined command" in said or "No symbol" in said:
        raise Fail("%s: %r" % (what, said))


def session(name, argv, env, file_known):
    t = Term(argv, env)
    try:
        t.prompt(1, "first prompt")
        if file_known:  # the kernel file, before the first launch
            tab(t, b"break comp\t", b"lete.cl:", "'break comp' + Tab before run")
            t.type(KILL_LINE)
        said = t.command("break complete.cl:17")
        said = t.command("run")
        if "Breakpoint 1, k work-items (0..31,0,0)" not in said:
            raise Fail("no stop at line 17: %r" % said)
        # a command, a subcommand
        tab(t, b"wat\t", b"ch ", "'wat' + Tab")
        t.type(KILL_LINE)
        tab(t, b"info wo\t", b"rkitems ", "'info wo' + Tab")
        t.type(KILL_LINE)
        # a setting's values, not the names of variables
        tab(t, b"set scheduler-locking o\t\t", b"off on", "'set scheduler-locking o' + Tab")
        t.type(KILL_LINE)
        tab(t, b"set pass \t\t", b"all in-progress", "'set pass ' + Tab")
        t.type(KILL_LINE)
        tab(t, b"set var to\t", b"tal ", "'set var to' + Tab")
        t.type(KILL_LINE)
        # a variable in scope, a struct's fields
        tab(t, b"whatis to\t", b"tal ", "'whatis to' + Tab")
        check(t, b"", "type = int", "whatis total")
        tab(t, b"print pr.\t", b"pr.first pr.off pr.second pr.vec",
            "'print pr.' + Tab lists the fields")
        tab(t, b"s\t", b"econd ", "'print pr.s' + Tab")
        check(t, b"", "$1 = 0", "print pr.second")
        # no space after a struct or vector, so `.` can follow
        tab(t, b"whatis p\t", b"r", "'whatis p' + Tab")
        tab(t, b".o\t", b"ff", "'whatis pr.o' + Tab")
        tab(t, b".\t", b"pr.off.x pr.off.y", "'whatis pr.off.' + Tab lists the fields")
        check(t, b"y\t", "type = int", "whatis pr.off.y")
        tab(t, b"whatis pr.ve\t.y", b"c.y", "'whatis pr.ve' + Tab, then '.y' right after it")
        check(t, b"", "type = int", "whatis pr.vec.y")
        # file:line: the file, the lines with code, one line
        tab(t, b"break comp\t", b"lete.cl:", "'break comp' + Tab")
        tab(t, b"1\t", b"complete.cl:10 complete.cl:11 complete.cl:13", "'break complete.cl:1' + Tab")
        check(t, b"7\t", "Breakpoint 2 at complete.cl:17", "break complete.cl:17")
        # a function inlined into the kernel
        tab(t, b"tbreak tw\t", b"ice ", "'tbreak tw' + Tab")
        check(t, b"", "twice", "tbreak twice")
        t.type(b"quit\r")
        t.finish()
    except Fail as e:
        t.kill()
        sys.stdout.write(t.out.decode("utf-8", "replace")[-4000:])
        raise Fail("%s: %s" % (name, e))
    print("ok: %s: Tab completes a command, a subcommand, variables, fields, file:line, a function"
          % name)


def main():
    lockstep, host_run = sys.argv[1], sys.argv[2]

    def both(env):
        session("standalone", [lockstep, "debug", "--kernel=complete.cl", "--global=1048576",
                               "--local=256", "--spec=complete.spec"], env, True)
        session("host mode", [lockstep, "debug", "--", host_run, "complete.cl", "1048576",
                              "256"], env, False)

    return run_test(both)


if __name__ == "__main__":
    sys.exit(main())
