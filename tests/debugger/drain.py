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
import os
import pty
import re
import select
import signal
import sys
import tempfile
import time

WAIT = 120  # seconds any one expected output may take (a sanitized build)
CHATTY = 20000  # lines chatty prints (host_stops.c CHATTY_ITEMS)


class Fail(Exception):
    pass


class Term:
    """A program on a pseudo-terminal of its own, typed at and read."""

    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.out = b""
        self.mark = 0  # where the output of the last command starts

    def _read(self, timeout):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the program ended and closed the terminal
            return False
        self.out += data
        return bool(data)

    def wait_for(self, text, n, what, wait=WAIT):
        end = time.monotonic() + wait
        while self.out.count(text) < n:
            if time.monotonic() > end or not self._read(0.1):
                raise Fail("%s: never saw %r %d time(s)" % (what, text, n))

    def command(self, line):
        """Types line; its output up to the next prompt."""
        n = self.out.count(b"(lockstep) ")
        self.mark = len(self.out)
        os.write(self.fd, line.encode() + b"\r")
        self.wait_for(b"(lockstep) ", n + 1, line)
        return self.out[self.mark:].decode("utf-8", "replace")

    def finish(self):
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                while self._read(0.05):
                    pass
                return os.waitstatus_to_exitcode(status)
            self._read(0.1)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        raise Fail("the debugger did not exit at ^D")


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
        os.write(t.fd, b"\x04")
        rc = t.finish()
        if rc != 0:
            raise Fail("the debugger exited with %d" % rc)
    except Fail:
        tail = t.out[-6000:].decode("utf-8", "replace")
        sys.stdout.write(re.sub(r"(chatty +\d+: a line[^\n]*\n)+", "[chatty lines]\n", tail))
        try:
            os.kill(t.pid, signal.SIGKILL)
        except OSError:
            pass
        raise
    print("ok: chatty's output was taken while the prompt waited; %d lines shown" % lines)


def main():
    lockstep, prog = sys.argv[1], sys.argv[2]
    env = dict(os.environ)
    env.pop("EDITRC", None)
    env["TERM"] = "xterm"
    with tempfile.TemporaryDirectory() as home:
        env["HOME"] = home  # no ~/.editrc of whoever runs the test
        try:
            run([lockstep, "debug", "--", prog, "chatty"], env)
        except Fail as e:
            print("FAIL: %s" % e)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
