#!/usr/bin/env python3
"""Drives host_stops under the debugger over the line protocol (see
debugger/README.md), as a front end would, through the edge cases of
stopped launches: quitting, the front end going away, the program calling
exit(), a device exception beside a stop, interrupts, `continue -a`, and a
kernel object launched on two queues at once.

usage: stops_drive.py HOST_PROGRAM SCENARIO
Exit status 0 when everything held; the reason otherwise."""
import os
import re
import select
import socket
import subprocess
import sys
import time

DEADLINE = 240  # seconds: only to end a run that is stuck, never a measure
SETTLE = 30  # seconds a launch may take to pause or stop: the same


class Fail(Exception):
    pass


class Session:
    def __init__(self, prog, args, stdin=None):
        ours, theirs = socket.socketpair()
        fd = theirs.fileno()

        def child_env():  # runs in the child, so getpid() is the program's pid
            os.environ["LOCKSTEP_DEBUG_FD"] = "%d:%d" % (fd, os.getpid())

        self.host = subprocess.Popen([prog] + args, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, stdin=stdin,
                                     pass_fds=(fd,), preexec_fn=child_env)
        theirs.close()
        self.sock = ours
        self.buf = b""
        self.log = []
        self.host_out = b""
        self.start = time.time()
        self.epoch = None  # of the last `running N`
        self.state = "host"

    def fail(self, msg):
        e = Fail(msg)
        self.drain_host()
        e.log = self.log[-80:] + ["-- program output:\n", self.out()]
        if self.host.poll() is None:
            self.host.kill()
        raise e

    def drain_host(self):
        while select.select([self.host.stdout], [], [], 0)[0]:
            b = os.read(self.host.stdout.fileno(), 65536)
            if not b:
                break
            self.host_out += b

    def line(self, timeout=None):
        """The next protocol line, None at its end ('' on timeout)."""
        while b"\n" not in self.buf:
            if time.time() - self.start > DEADLINE:
                self.host.kill()
                self.fail("stuck")
            self.drain_host()
            wait = 0.2 if timeout is None else min(timeout, 0.2)
            r = select.select([self.sock], [], [], wait)[0]
            if not r:
                if timeout is not None:
                    timeout -= wait
                    if timeout <= 0:
                        return ""
                continue
            b = self.sock.recv(65536)
            if not b:
                return None
            self.buf += b
        l, self.buf = self.buf.split(b"\n", 1)
        l = l.decode(errors="replace")
        self.log.append(l + "\n")
        if l.startswith("running "):
            self.epoch = int(l[8:])
            self.state = "running"
        elif l == "host":
            self.state = "host"
        elif l == "sync":  # what was sent is shown: acknowledged at once
            try:
                self.send("ack")
            except OSError:
                pass
        return l

    def send(self, text):
        self.log.append("> %s\n" % text)
        self.sock.sendall(text.encode() + b"\n")

    def prompt(self):
        """The "out" text up to the next prompt, or None when the program
        ended first."""
        out = []
        while True:
            l = self.line()
            if l is None:
                return None
            if l.startswith("out"):
                out.append(l[4:])
            elif l == "prompt":
                self.state = "prompt"
                return out

    def cmd(self, text):
        self.send("cmd " + text)
        return self.prompt()

    def wait_state(self, state):
        while self.state != state:
            l = self.line()
            if l is None:
                self.fail("the program ended waiting for %s" % state)
            if l == "prompt":
                self.fail("a prompt came waiting for %s" % state)

    def finish(self):
        """Waits for the program's end: its exit status."""
        while self.line() is not None:
            pass
        self.host.wait()
        self.drain_host()
        self.host_out += self.host.stdout.read() or b""
        return self.host.returncode

    def out(self):
        return self.host_out.decode(errors="replace")


def stopped_launches(text, kernel="count"):
    nums = []
    for t in text:
        m = re.match(r"[ *] +(\d+) +%s +\d+ +stopped" % kernel, t)
        if m:
            nums.append(int(m.group(1)))
    return nums


def gather(s, n):
    return gather_kernel(s, n, "count")


def gather_kernel(s, n, kernel):
    """Polls `info kernels` until n launches of kernel are stopped."""
    for _ in range(4000):
        text = s.cmd("info kernels")
        if text is None:
            s.fail("the program ended before %d launches stopped" % n)
        nums = stopped_launches(text, kernel)
        if len(nums) == n:
            return nums
        time.sleep(0.02)
    s.fail("the launches never all stopped")


def continue_all(s, limit):
    """Continues until the program ends; what the continues showed."""
    said = []
    for _ in range(limit):
        text = s.cmd("continue")
        if text is None:
            return said
        said += text
    s.fail("the launches do not end")


def expect_ok(s, rc, oks):
    if rc != 0:
        s.fail("the program exited with %d" % rc)
    got = s.out().count(": ok")
    if got != oks:
        s.fail("%d results ok, want %d" % (got, oks))


# ---- the scenarios ----

def sc_quit(prog):
    """`quit` with 4 launches stopped: each finishes undebugged, right."""
    s = Session(prog, ["count", "4"])
    s.prompt()
    s.cmd("break count:6")
    s.cmd("run")
    gather(s, 4)
    s.send("cmd quit")
    expect_ok(s, s.finish(), 4)


def sc_close(prog):
    """The front end's socket closes with 4 launches stopped."""
    s = Session(prog, ["count", "4"])
    s.prompt()
    s.cmd("break count:6")
    s.cmd("run")
    gather(s, 4)
    s.sock.shutdown(socket.SHUT_RDWR)
    s.sock.close()
    s.host.wait()
    s.host_out += s.host.stdout.read() or b""
    expect_ok(s, s.host.returncode, 4)


def sc_exit(prog):
    """The program calls exit() while 3 launches are stopped."""
    s = Session(prog, ["exit", "3"], stdin=subprocess.PIPE)
    s.prompt()
    s.cmd("break count:6")
    s.cmd("run")
    gather(s, 3)
    s.host.stdin.write(b"go\n")
    s.host.stdin.flush()
    rc = s.finish()
    if rc != 3:
        s.fail("the program exited with %d, want 3" % rc)


def sc_fault(prog):
    """A launch faults while another is stopped at a breakpoint: the fault
    is reported, its event fails, the other launch goes on right."""
    s = Session(prog, ["fault", "1"])
    s.prompt()
    s.cmd("break count:6")
    text = s.cmd("run")
    seen = "\n".join(text)
    for _ in range(4000):
        info = s.cmd("info kernels")
        seen += "\n".join(info)
        if stopped_launches(info) and re.search(r"bad .*device exception", "\n".join(info)):
            break
        time.sleep(0.02)
    s.cmd("delete 1")
    seen += "\n".join(continue_all(s, 20))
    if "Device exception: out-of-bounds" not in seen:
        s.fail("the device exception was never reported")
    rc = s.finish()
    if "bad: status error" not in s.out():
        s.fail("the faulting launch did not fail its event")
    expect_ok(s, rc, 1)


def sc_continue_all(prog):
    """`continue -a` with 4 launches stopped resumes all of them."""
    s = Session(prog, ["count", "4"])
    s.prompt()
    s.cmd("break count:6")
    s.cmd("run")
    gather(s, 4)
    s.cmd("delete 1")
    continue_all_a = s.cmd("continue -a")
    limit = 20
    while continue_all_a is not None and limit:
        continue_all_a = s.cmd("continue -a")
        limit -= 1
    expect_ok(s, s.finish(), 4)


def sc_shared(prog):
    """One kernel object launched on two queues at once, both stopped."""
    s = Session(prog, ["shared"])
    s.prompt()
    s.cmd("break count:6")
    s.cmd("run")
    gather(s, 2)
    s.cmd("delete 1")
    continue_all(s, 20)
    expect_ok(s, s.finish(), 1)


def release(s):
    """host_stops spin: the spinning kernels may end now."""
    s.host.stdin.write(b"go\n")
    s.host.stdin.flush()


def launch_states(s, kernel):
    """{launch number: its state} from `info kernels`."""
    states = {}
    for t in s.cmd("info kernels"):
        m = re.match(r"[ *] +(\d+) +%s +\d+ +(.*)$" % kernel, t)
        if m:
            states[int(m.group(1))] = m.group(2)
    return states


def settle(s, kernel):
    """Polls `info kernels` until no launch of kernel runs: their states (a
    launch still running after SETTLE seconds is stuck: not a measure)."""
    end = time.time() + SETTLE
    while True:
        states = launch_states(s, kernel)
        if not any("running" in st for st in states.values()) or time.time() > end:
            return states
        time.sleep(0.02)


def sc_interrupt(prog):
    """`interrupt N` with two launches running pauses both of them."""
    s = Session(prog, ["spin", "2"], stdin=subprocess.PIPE)
    s.prompt()
    s.cmd("break spin:13")
    s.cmd("run")
    for n in gather_kernel(s, 2, "spin"):
        s.cmd("kernel %d" % n)  # each stop shown: `continue -a` resumes both
    s.cmd("delete 1")
    s.send("cmd continue -a")
    s.wait_state("running")
    s.send("interrupt %d" % s.epoch)
    if s.prompt() is None:
        s.fail("the program ended instead of pausing")
    # the first pause is shown; the other launch pauses whenever its
    # work-items next ask (a stuck run ends at the deadline, not a measure)
    states = settle(s, "spin")
    paused = [n for n, st in states.items() if "interrupted" in st]
    if len(paused) != 2:
        s.fail("interrupt paused %d of 2 running launches: %s" % (len(paused), states))
    release(s)
    continue_all(s, 20)
    expect_ok(s, s.finish(), 2)


def sc_bp_running(prog):
    """A breakpoint added at one launch's prompt while another launch runs
    stops that one too."""
    s = Session(prog, ["spin", "2"], stdin=subprocess.PIPE)
    s.prompt()
    s.cmd("break spin:13")
    s.cmd("run")
    nums = gather_kernel(s, 2, "spin")
    s.cmd("delete 1")
    s.cmd("continue")  # the shown one runs; the other's stop is shown
    states = launch_states(s, "spin")
    runner = [n for n in nums if "running" in states.get(n, "")]
    if len(runner) != 1:
        s.fail("want one launch running, the other stopped: %s" % states)
    runner = runner[0]
    s.cmd("break spin:15")
    release(s)
    st = settle(s, "spin").get(runner, "finished")
    if "breakpoint 2" not in st:
        s.fail("launch %d, running when breakpoint 2 was set, ended up %s" % (runner, st))
    s.cmd("delete 2")
    continue_all(s, 20)
    expect_ok(s, s.finish(), 2)


def sc_running_first(prog):
    """What a launch prints reaches the front end after `running N`, never
    while it believes the host program runs its own code (where Ctrl-C only
    prints a note): 100 short launches, each printing a line."""
    s = Session(prog, ["hello", "100"])
    s.prompt()
    s.send("cmd run")
    lines, early = 0, []
    while True:
        l = s.line()
        if l is None:
            break
        if l.startswith("out hello "):
            lines += 1
            if s.state != "running":
                early.append(l[4:])
    rc = s.finish()
    if rc != 0 or lines != 100:
        s.fail("the program exited with %d after %d lines of 100" % (rc, lines))
    if early:
        s.fail("%d of 100 launches printed before `running`: %s" % (len(early), early[:5]))


SCENARIOS = {name[3:]: fn for name, fn in globals().items() if name.startswith("sc_")}


def main():
    prog, name = sys.argv[1], sys.argv[2]
    try:
        SCENARIOS[name](prog)
    except Fail as e:
        sys.stdout.write("".join(getattr(e, "log", [])))
        print("FAIL: %s: %s" % (name, e))
        return 1
    print("ok: %s" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
