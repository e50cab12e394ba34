#!/usr/bin/env python3
"""Drives host_queues under the debugger over the line protocol (see
debugger/README.md), as a front end would: a breakpoint in kernel `count`,
then `run`; it asks `info kernels` at each prompt until all N launches are
stopped at once and the program's own kernel `other`, which stops nowhere,
has completed on its queue meanwhile. It then switches between the stopped
launches (`kernel K`, `print`), continues with the breakpoint kept (the
launches stop again), deletes it and continues each launch to its end. The program checks its results and counters itself.

usage: queues_drive.py HOST_PROGRAM N
Exit status 0 when everything held; the reason otherwise."""
import os
import re
import select
import sys
import time

from lineproto import DEADLINE, fail, next_line, start


def main():
    prog, n = sys.argv[1], int(sys.argv[2])
    host, f = start([prog, str(n)])
    log, out, host_out = [], [], b""
    phase, stops_seen, switched, conts, seeds, nums, more = "setup", 0, 0, 0, [], [], 0
    began = time.time()

    def send(cmd):
        log.append("> %s\n" % cmd)
        f.write(b"cmd " + cmd.encode() + b"\n")

    def drain_host():
        nonlocal host_out
        while select.select([host.stdout], [], [], 0)[0]:
            b = os.read(host.stdout.fileno(), 65536)
            if not b:
                break
            host_out += b

    setup = ["break count:6", "run"]
    while True:
        if time.time() - began > DEADLINE:
            host.kill()
            fail("no progress in phase %s" % phase, log)
        drain_host()
        line = next_line(f, log)
        if line is None:
            break  # the program ended
        if line.startswith("out"):
            out.append(line[4:])
            if re.match(r"Breakpoint 1, ", line[4:]):
                stops_seen += 1
            continue
        if line != "prompt":
            continue
        text, out = out, []
        if phase == "setup":
            send(setup.pop(0))
            if not setup:
                phase = "gather"
            continue
        if phase == "gather":
            stopped = [re.match(r"[ *] +(\d+) +count +\d+ +stopped", t) for t in text]
            nums = [int(m.group(1)) for m in stopped if m]
            if len(nums) == n and b"other: ok" in host_out:
                phase = "switch"
            else:
                time.sleep(0.05)
                send("info kernels")
                continue
        if phase == "switch":
            # `kernel K` then `print seed` for each K: every launch once
            if switched and switched % 2 == 1:
                k = nums[(switched - 1) // 2]
                if not any(t.startswith("[Switching to kernel %d " % k) for t in text):
                    fail("`kernel %d` did not switch" % k, log)
            if switched and switched % 2 == 0:
                m = [re.match(r"\$\d+ = (\d+)$", t) for t in text]
                seeds.extend(int(x.group(1)) for x in m if x)
            if switched < 2 * n:
                switched += 1
                send("kernel %d" % nums[(switched - 1) // 2] if switched % 2 else "print seed")
                continue
            if sorted(seeds) != list(range(1, n + 1)):
                fail("the stopped launches show seeds %s" % sorted(seeds), log)
            phase = "more"
        if phase == "more":
            # continues with the breakpoint kept: launches stop again and
            # again, each re-issued from its saved state
            if more < 3 * n:
                more += 1
                send("continue")
                continue
            phase = "finish"
            send("delete 1")
            continue
        if phase == "finish":
            conts += 1
            if conts > 50 * n:
                fail("the launches do not end", log)
            send("continue")
    host.wait()
    drain_host()
    rest = host.stdout.read()
    host_out += rest or b""
    sys.stdout.write(host_out.decode(errors="replace"))
    if phase != "finish":
        fail("the program ended in phase %s" % phase, log)
    if host.returncode != 0:
        fail("the program exited with %d" % host.returncode, log)
    oks = host_out.decode().count(": ok")
    if oks != n + 1:
        fail("%d results ok, want %d" % (oks, n + 1), log)
    print("ok: %d launches stopped at once, `other` completed meanwhile, %d stops reported, "
          "%d continues" % (n, stops_seen, conts + more))
    if stops_seen < 2 * n:
        fail("only %d breakpoint stops were reported" % stops_seen, log)


main()
