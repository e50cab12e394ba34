#!/usr/bin/env python3
"""Drives host_args with two launches (host_args BYVAL.cl 2: p.n = 5 on one
queue, 9 on another) under the debugger over the line protocol (see
debugger/README.md): a breakpoint on byval.cl:19 for work-item 5, `run`,
`info kernels` until both launches are stopped at once; then `kernel K`
and `print p`, `print q.in.off.w`, `info args` for each, and back to the
first: each launch shows its own struct argument, whichever was selected
last. The breakpoint is deleted and both run to the end; the program checks
its results itself.

usage: args_drive.py HOST_PROGRAM BYVAL.cl
Exit status 0 when everything held; the reason otherwise."""
import os
import re
import sys
import time

from lineproto import DEADLINE, fail, next_line, start


def main():
    prog, cl = sys.argv[1], sys.argv[2]
    host, f = start([prog, cl, "2"])
    log, out = [], []
    todo = ["break %s:19 if i == 5" % os.path.basename(cl), "run"]
    phase, nums, shown, sent = "setup", [], {}, None
    began = time.time()

    def send(cmd):
        nonlocal sent
        sent = cmd
        log.append("> %s\n" % cmd)
        f.write(b"cmd " + cmd.encode() + b"\n")

    while True:
        if time.time() - began > DEADLINE:
            host.kill()
            fail("no progress in phase %s" % phase, log)
        line = next_line(f, log)
        if line is None:
            break  # the program ended
        if line.startswith("out"):
            out.append(line[4:])
            continue
        if line != "prompt":
            continue
        text, out = out, []
        if phase == "gather":
            stopped = [re.match(r"[ *] +(\d+) +k +\d+ +stopped at byval.cl:19", t) for t in text]
            nums = [int(m.group(1)) for m in stopped if m]
            if len(nums) == 2:
                phase = "switch"
                k = nums + [nums[0]]
                todo = [c for K in k for c in ("kernel %d" % K, "print p", "print q.in.off.w",
                                               "info args")]
            else:
                time.sleep(0.05)
                todo = ["info kernels"]
        elif phase == "switch" and sent.startswith("kernel "):
            K = int(sent.split()[1])
            if not any(t.startswith("[Switching to kernel %d " % K) for t in text):
                fail("`%s` did not switch" % sent, log)
        elif phase == "switch" and sent == "print p":
            m = [re.match(r"\$\d+ = \{n = (\d+), scale = 2.5, off = \{1, 2, 3, 4\}\}$", t)
                 for t in text]
            n = [int(x.group(1)) for x in m if x]
            if len(n) != 1 or shown.setdefault(K, n[0]) != n[0]:
                fail("launch %d shows p as %s (before: %s)" % (K, text, shown.get(K)), log)
        elif phase == "switch" and sent == "print q.in.off.w":
            if not any(re.match(r"\$\d+ = 40$", t) for t in text):
                fail("launch %d shows q.in.off.w as %s" % (K, text), log)
        elif phase == "switch" and sent == "info args":
            if "p = {n = %d, scale = 2.5, off = {1, 2, 3, 4}}" % shown[K] not in text:
                fail("info args of launch %d: %s" % (K, text), log)
        if not todo and phase == "setup":
            phase = "gather"
            todo = ["info kernels"]
        if not todo and phase == "switch":
            if sorted(shown.values()) != [5, 9]:
                fail("the stopped launches show p.n %s" % sorted(shown.values()), log)
            phase = "finish"
            todo = ["delete 1"]
        if not todo and phase == "finish":
            todo = ["continue"]
        send(todo.pop(0))
    host.wait()
    rest = host.stdout.read().decode(errors="replace")
    sys.stdout.write(rest)
    if phase != "finish":
        fail("the program ended in phase %s" % phase, log)
    if host.returncode != 0 or rest.count(", 0 wrong") != 2:
        fail("the program exited with %d" % host.returncode, log)
    print("ok: two launches stopped at once, each showing its own struct argument (p.n %s)"
          % sorted(shown.values()))


main()
