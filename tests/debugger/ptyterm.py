"""A program on a pseudo-terminal of its own, typed at and read: what the
debugger's terminal tests (line_edit.py, drain.py, complete.py) drive
`lockstep debug` with. Every wait is bounded."""
import os
import pty
import select
import signal
import tempfile
import time

WAIT = 120  # seconds any one expected output may take (a sanitized build)
PROMPT = b"(lockstep) "


class Fail(Exception):
    pass


def term_env():
    """The environment for a test at a terminal: a known TERM and no
    ~/.editrc of whoever runs it (call within the HOME it gets)."""
    env = dict(os.environ)
    env.pop("EDITRC", None)
    env["TERM"] = "xterm"
    return env


def run_test(body):
    """Runs body(env) with term_env() in an empty HOME of its own (no
    ~/.editrc of whoever runs the test): the exit status, 0, or 1 having
    said why it failed."""
    with tempfile.TemporaryDirectory() as home:
        env = term_env()
        env["HOME"] = home
        try:
            body(env)
        except Fail as e:
            print("FAIL: %s" % e)
            return 1
    return 0


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

    def count(self, text):
        return self.out.count(text)

    def wait_for(self, text, n=1, what=None, wait=WAIT):
        """Waits until text was written n times."""
        end = time.monotonic() + wait
        while self.count(text) < n:
            if time.monotonic() > end or not self._read(0.1):
                raise Fail("%s: never saw %r %d time(s)" % (what or "output", text, n))

    def wait_from(self, text, start, what=None, wait=WAIT):
        """Waits until text was written at or after offset start: where."""
        end = time.monotonic() + wait
        while self.out.find(text, start) < 0:
            if time.monotonic() > end or not self._read(0.1):
                raise Fail("%s: never saw %r" % (what or "output", text))
        return self.out.find(text, start)

    def prompt(self, n, what):
        self.wait_for(PROMPT, n, what)

    def type(self, keys):
        os.write(self.fd, keys)

    def since(self, mark):
        return self.out[mark:].decode("utf-8", "replace")

    def command(self, line):
        """Types line; its output up to the next prompt."""
        n = self.count(PROMPT)
        self.mark = len(self.out)
        self.type(line.encode() + b"\r")
        self.wait_for(PROMPT, n + 1, line)
        return self.since(self.mark)

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
        except OSError:
            pass

    def finish(self, what="quit"):
        """Waits for the program to end: its exit status."""
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
        raise Fail("the debugger did not exit at %s" % what)
