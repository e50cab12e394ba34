#!/usr/bin/env python3
"""Checks piglit_results.py on made-up piglit results (no piglit needed):
counts per subtest, a listed failure passes, an unlisted one fails the run,
a crash of a test with subtests counts, a listed entry that passes is stale,
and a listed test left out of a partial run is not."""
import bz2
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(tests, expected):
    with tempfile.TemporaryDirectory() as d:
        with bz2.open(os.path.join(d, "results.json.bz2"), "wt") as f:
            json.dump({"tests": tests}, f)
        exp = os.path.join(d, "expected.txt")
        with open(exp, "w") as f:
            f.write(expected)
        p = subprocess.run([sys.executable, os.path.join(HERE, "piglit_results.py"), d, exp],
                           capture_output=True, text=True)
        return p.returncode, p.stdout


def t(result, subs=None, out=""):
    rec = {"result": result, "out": out, "err": "", "command": "cl-program-tester x.cl"}
    if subs is not None:
        rec["subtests"] = dict(subs, __type__="Subtests")
    return rec


def check(cond, what, out):
    if not cond:
        print("test_piglit_results: FAILED: " + what + "\n" + out)
        sys.exit(1)


EXPECTED = """# comment
api@a\t
    reason and evidence
program@b\tsub bad
    reason
program@gone\t
    a test a partial run left out
"""

base = {
    "api@a": t("fail"),
    "program@b": t("fail", {"sub ok": "pass", "sub bad": "fail"}),
    "program@c": t("pass", {"x": "pass", "y": "skip"}),
}
rc, out = run(base, EXPECTED)
check(rc == 0, "only listed failures should pass the run", out)
check("  pass     2" in out and "  fail     2" in out and "  skip     1" in out,
      "counts per subtest", out)
check("stale" not in out, "program@gone was not run: not stale", out)

new = dict(base, **{"program@d": t("fail", {"only": "fail"}, out="Error at int[0]")})
rc, out = run(new, EXPECTED)
check(rc == 1, "an unlisted failure must fail the run", out)
check("program@d / only: fail" in out and "Error at int[0]" in out,
      "the new failure is named with its output", out)

crash = dict(base, **{"program@e": t("crash", {"first": "pass"})})
rc, out = run(crash, EXPECTED)
check(rc == 1 and "program@e: crash" in out and "  crash    1" in out,
      "a crash after passing subtests counts", out)

fixed = dict(base, **{"api@a": t("pass"), "program@gone": t("pass")})
rc, out = run(fixed, EXPECTED)
check(rc == 0, "a stale entry alone does not fail the run", out)
check("stale" in out and "api@a (pass)" in out and "program@gone (pass)" in out,
      "listed entries that pass are reported stale", out)
print("test_piglit_results: counts, new failures, crashes and stale entries as expected")
