#!/usr/bin/env python3
"""The `lockstep debug` prompt's line editor (debugger/cli_line.c).

At a terminal (a pseudo-terminal here): Tab completes a command name the
engine would not take abbreviated (`hel` -> `help`, `wo` lists `workgroup` and
`workitem`, `worki` -> `workitem`), the completed command runs, Ctrl-C drops the
line being typed (it neither runs nor enters the history), and Up recalls
the lines of the session, one step further back each time. With stdin not a
terminal the lines are read plainly: a Tab stays a Tab, and nothing but the
prompt (stdout a terminal) or nothing at all (stdout a pipe) is written
besides the commands' own output: no escape sequences.

Usage: line_edit.py LOCKSTEP ARGS... (run in tests/debugger). Every wait is
bounded; exits 1 on the first failure, naming it.
"""
import os
import pty
import select
import subprocess
import sys
import time

from ptyterm import WAIT, Fail, Term, run_test

UP = b"\x1b[A"


def terminal(argv, env):
    t = Term(argv, env)
    try:
        t.prompt(1, "first prompt")
        # a prefix only completion makes a command of
        t.type(b"hel\t\r")
        t.prompt(2, "help completed from 'hel'")
        if b'Undefined command: "hel"' in t.out or t.count(b"breakpoints by number") != 1:
            raise Fail("'hel' + Tab did not run help")
        t.type(b"start\r")
        t.prompt(3, "start")
        # two names fit: Tab lists them; one more letter and Tab completes
        t.type(b"wo\t\t")  # the first Tab completes what they share: "work"
        t.wait_for(b"workgroup workitem", 1, "the names 'wo' + Tab lists, sorted")
        t.type(b"i\t0\r")
        t.prompt(5, "workitem completed from 'worki'")  # the list redrew the prompt
        if t.count(b"Switching to k work-item (0,0,0)") != 1:
            raise Fail("'worki' + Tab + '0' did not run 'workitem 0'")
        # Ctrl-C drops the line being typed: it neither runs nor is kept
        t.type(b"garbage")
        t.wait_for(b"garbage", 1, "the line typed")
        t.type(b"\x03")
        t.prompt(6, "the prompt after ^C")
        if b"Undefined command" in t.out:
            raise Fail("the line ^C dropped ran")
        # history: Up recalls the last line, three Ups the one three back
        t.type(UP + b"\r")
        t.prompt(7, "the last line recalled")
        if t.count(b"Switching to k work-item (0,0,0)") != 2:
            raise Fail("Up did not recall 'workitem 0'")
        t.type(UP * 3 + b"\r")
        t.prompt(8, "the line three back recalled")
        if t.count(b"breakpoints by number") != 2:
            raise Fail("three Ups did not recall 'help' (history: help, start, workitem 0)")
        # `quit`, not ^D: a ^D that reaches the terminal before the editor
        # has it in raw mode is the line discipline's end-of-file, which
        # the switch to raw mode drops
        t.type(b"quit\r")
        rc = t.finish()
        if rc != 0:
            raise Fail("the debugger exited with %d after quit" % rc)
    except Fail as e:
        sys.stdout.write(t.out.decode("utf-8", "replace"))
        raise Fail("terminal: %s" % e)
    print("ok: terminal: Tab completes command names, ^C drops the line, Up recalls the session's lines")


def plain(argv, env, stdout_tty):
    keys = b"hel\t\nhelp\n"
    if stdout_tty:
        master, slave = pty.openpty()
        p = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=slave,
                             stderr=subprocess.STDOUT, start_new_session=True)
        os.close(slave)
        p.stdin.write(keys)
        p.stdin.close()
        out = b""
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            r, _, _ = select.select([master], [], [], 0.1)
            try:
                data = os.read(master, 65536) if r else b""
            except OSError:
                break
            if r and not data:
                break
            out += data
        os.close(master)
        rc = p.wait(timeout=WAIT)
    else:
        p = subprocess.run(argv, env=env, input=keys, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=WAIT)
        out, rc = p.stdout, p.returncode
    name = "stdin a pipe, stdout a %s" % ("terminal" if stdout_tty else "pipe")
    problems = []
    if b"\x1b" in out:
        problems.append("an escape sequence was written")
    if b'Undefined command: "hel"' not in out:
        problems.append("the Tab was completed, not read as it came")
    if out.count(b"breakpoints by number") != 1:
        problems.append("'help' did not run once")
    prompts = out.count(b"(lockstep) ")
    if stdout_tty and prompts < 2:
        problems.append("no prompt at a terminal")
    if not stdout_tty and prompts:
        problems.append("a prompt was written to a pipe")
    if rc != 0:
        problems.append("exit status %d" % rc)
    if problems:
        sys.stdout.write(out.decode("utf-8", "replace"))
        raise Fail("%s: %s" % (name, "; ".join(problems)))
    print("ok: %s: lines read plainly" % name)


def main():
    argv = sys.argv[1:]

    def all_three(env):
        terminal(argv, env)
        plain(argv, env, True)
        plain(argv, env, False)

    return run_test(all_three)


if __name__ == "__main__":
    sys.exit(main())
