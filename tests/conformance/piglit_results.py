#!/usr/bin/env python3
"""Summarises a piglit results folder against the expected non-passes.

    piglit_results.py RESULTS_DIR EXPECTED_FILE

Prints the pass / fail / crash / timeout / skip counts (per subtest where a
test has subtests), every non-pass with its output, the non-passes the
expected list does not name (new) and the listed ones that now pass (stale).
Exits 1 when there is a new non-pass, else 0.

The expected list has one entry per line, `test name<TAB>subtest` (subtest
empty for a whole test, `*` for every subtest of the test), followed by
indented lines giving the reason and the evidence; `#` starts a comment.
"""
import bz2
import collections
import json
import os
import sys

NONPASS = ("fail", "crash", "timeout", "warn", "dmesg-fail", "dmesg-warn", "incomplete")


def load(results_dir):
    path = os.path.join(results_dir, "results.json.bz2")
    if os.path.exists(path):
        with bz2.open(path, "rt") as f:
            return json.load(f)
    with open(os.path.join(results_dir, "results.json")) as f:
        return json.load(f)


def units(tests):
    """(test, subtest, result, test record) for every counted unit: each
    subtest, or the test itself when it has none; a test whose own result
    is a non-pass that no subtest explains (or a crash or timeout) counts
    once more as itself."""
    for name, t in sorted(tests.items()):
        subs = {k: v for k, v in (t.get("subtests") or {}).items() if k != "__type__"}
        for sub, res in sorted(subs.items()):
            yield name, sub, res, t
        if not subs:
            yield name, "", t["result"], t
        elif t["result"] in ("crash", "timeout", "incomplete") or (
                t["result"] in NONPASS and not any(r in NONPASS for r in subs.values())):
            yield name, "", t["result"], t


def read_expected(path):
    exp = {}
    with open(path) as f:
        for line in f:
            if not line.strip() or line.lstrip().startswith("#") or line[0] in " \t":
                continue
            test, _, sub = line.rstrip("\n").partition("\t")
            exp[(test.strip(), sub.strip())] = False
    return exp


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    res = load(sys.argv[1])
    expected = read_expected(sys.argv[2])
    counts = collections.Counter()
    nonpass, new = [], []
    seen_pass = set()
    for test, sub, result, rec in units(res["tests"]):
        counts[result] += 1
        if result in NONPASS:
            nonpass.append((test, sub, result, rec))
            key = (test, sub) if (test, sub) in expected else (test, "*")
            if key in expected:
                expected[key] = True
            else:
                new.append((test, sub, result))
        elif result == "pass":
            seen_pass.add((test, sub))
    total = sum(counts.values())
    print("piglit cl: %d units (subtests, or tests without subtests)" % total)
    for k in ("pass", "fail", "crash", "timeout", "skip"):
        print("  %-8s %d" % (k, counts.get(k, 0)))
    for k in sorted(set(counts) - {"pass", "fail", "crash", "timeout", "skip"}):
        print("  %-8s %d" % (k, counts[k]))
    print("\nnon-passes (%d):" % len(nonpass))
    for test, sub, result, rec in nonpass:
        mark = "expected" if not any((t, s) == (test, sub) for t, s, _ in new) else "NEW"
        print("  [%s] %s%s: %s" % (mark, test, " / " + sub if sub else "", result))
    # a listed test that ran and did not fail (tests left out of a partial
    # run with -t/-x are not stale)
    stale = [k for k, hit in expected.items() if not hit and k[0] in res["tests"]]
    if stale:
        print("\nstale: listed as expected non-passes but did not fail (remove them):")
        for test, sub in stale:
            state = "pass" if (test, sub) in seen_pass else "skipped, or the subtest did not run"
            print("  %s%s (%s)" % (test, " / " + sub if sub and sub != "*" else "", state))
    if new:
        print("\nNEW non-passes, not in %s (%d):" % (os.path.basename(sys.argv[2]), len(new)))
        shown = set()
        for test, sub, result in new:
            print("  %s%s: %s" % (test, " / " + sub if sub else "", result))
            if test in shown:
                continue
            shown.add(test)
            rec = res["tests"][test]
            out = ((rec.get("out") or "") + (rec.get("err") or "")).strip().splitlines()
            if rec.get("command"):
                print("      command: %s" % rec["command"])
            for line in [l for l in out if "fail" in l.lower() or "error" in l.lower()
                         or "exception" in l.lower() or "expect" in l.lower()][:8]:
                print("      | " + line[:300])
        return 1
    print("\nno non-pass outside the expected list")
    return 0


if __name__ == "__main__":
    sys.exit(main())
