#!/usr/bin/env python3
"""`lockstep debug` at a terminal keeps reading what the program's library
says while the user types, so launches that print go on meanwhile.

host_stops chatty: kernel `opener` stops at a breakpoint while kernel
`chatty` waits for a word; at opener's prompt `set var go[0] = 1` sets it,
and chatty prints over a megabyte while the next prompt waits. The user
types nothing until the program says `chatty: done`: that needs the front
end to take chatty's output while it waits at the prompt (else the
library's socket fills, and the launch waits for the next command, holding
the engine's lock, so every other debugged launch waits too). Then the
rest runs to the end, and all of chatty's lines are shown.

Usage: drain.py LOCKSTEP HOST_STOPS (run in tests/debugger). Every wait is
bounded; exits 1 on the first failure, naming it.
"""
import re
import sys

from ptyterm import Fail, Term, run_test

CHATTY = 20000  # lines chatty prints (host_stops.c CHATTY_ITEMS)


def run(argv, env):
    t = Term(argv, env)
    try:
        t.wait_for(b"(lockstep) ", 1, "first prompt")
        t.command("break opener:27")
        said = t.command("run")
        if "Breakpoint 1, opener" not in said:
            raise Fail("opener did not stop: %r" % said)
        # chatty prints once the word is set; the prompt then waits
        t.command("set var go[0] = 1")
        t.wait_for(b"chatty: done", 1, "chatty, while the prompt waits", 60)
        t.command("continue")
        t.wait_for(b"[program exited with code 0]", 1, "the program's end")
        lines = len(re.findall(rb"chatty +\d+: a line", t.out))
        if lines != CHATTY:
            raise Fail("%d lines of chatty's output shown, want %d" % (lines, CHATTY))
        t.type(b"\x04")
        rc = t.finish("^D")
        if rc != 0:
            raise Fail("the debugger exited with %d" % rc)
    except Fail:
        tail = t.out[-6000:].decode("utf-8", "replace")
        sys.stdout.write(re.sub(r"(chatty +\d+: a line[^\n]*\n)+", "[chatty lines]\n", tail))
        t.kill()
        raise
    print("ok: chatty's output was taken while the prompt waited; %d lines shown" % lines)


def main():
    lockstep, prog = sys.argv[1], sys.argv[2]
    return run_test(lambda env: run([lockstep, "debug", "--", prog, "chatty"], env))


if __name__ == "__main__":
    sys.exit(main())
