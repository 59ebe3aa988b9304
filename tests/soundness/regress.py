#!/usr/bin/python3
"""Re-runs every soundness fixture (tests/fixtures/soundness/<id>/) and asserts that pasda-jvm
gives no false EQ or NEQ on it, except for the fixtures listed in known_unsound.txt, which must
still be unsound (so that the list cannot go stale: a listed fixture that passes fails the test
and must be removed from the list). Exit status 0 ok, 1 failure, 77 skipped (no java, not CI)."""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sfuzz import fixtures  # noqa: E402
from sfuzz.pipeline import REPO, Settings, evaluate  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(REPO, "tests", "fixtures", "soundness")
KNOWN = os.path.join(HERE, "known_unsound.txt")


def read_known(path):
    """fixture id -> reason, from lines `ID  reason` (# comments)."""
    out = {}
    if not os.path.isfile(path):
        return out
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            fid, _, reason = line.partition(" ")
            out[fid] = reason.strip()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pasda", help="the pasda-jvm binary (default: $PASDA_JVM, then build/pasda-jvm)")
    ap.add_argument("--fixtures", default=FIXTURES)
    ap.add_argument("--known", default=KNOWN)
    ap.add_argument("--timeout", type=float, default=20.0, help="pasda-jvm --timeout per fixture (default 20)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", help="comma list of fixture ids")
    ap.add_argument("--minimise", metavar="ID", help="minimise fixture ID further (in place) and exit")
    ap.add_argument("--minimise-seconds", type=float, default=300)
    ap.add_argument("--write-sources", action="store_true",
                    help="rewrite every fixture's old/new C.java from its case.json (after renaming a fixture) and exit")
    a = ap.parse_args(argv)
    if a.write_sources:
        from sfuzz.ast import render
        for fid, pair, _, _ in fixtures.load(a.fixtures):
            for v, prog in (("old", pair.old), ("new", pair.new)):
                os.makedirs(os.path.join(a.fixtures, fid, v), exist_ok=True)
                with open(os.path.join(a.fixtures, fid, v, "C.java"), "w") as f:
                    f.write(render(prog))
            print("wrote %s" % fid)
        return 0
    from fuzz import find_pasda
    ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    java, pasda = shutil.which("java"), find_pasda(a.pasda)
    if not java or not shutil.which("javac") or not pasda:
        print("soundness fixtures: java, javac or pasda-jvm not found" + (" (CI=true: failing)" if ci else ": skipped"))
        return 1 if ci else 77

    cases = fixtures.load(a.fixtures)
    if a.minimise:
        return minimise_fixture(a, pasda, java, cases)
    if a.only:
        keep = set(a.only.split(","))
        cases = [c for c in cases if c[0] in keep]
    known = read_known(a.known)
    failures = []
    for fid in sorted(known):
        if not any(c[0] == fid for c in cases) and not a.only:
            failures.append("%s: listed in known_unsound.txt but there is no such fixture" % fid)
    work = tempfile.mkdtemp(prefix="pasda-sfix-")
    groups = {}
    for fid, pair, case, problems in cases:
        for p in problems:
            failures.append("%s: %s (regenerate the sources from case.json)" % (fid, p))
        o = case.get("oracle", {})
        groups.setdefault((o.get("static_inputs", False), o.get("compare_output", False)), []).append((fid, pair, case))
    status = {}
    for (si, co), members in sorted(groups.items()):
        st = Settings(pasda, java=java, modes=("java", "math"), timeout=a.timeout, jobs=a.jobs, inputs=24,
                      static_inputs=si, compare_output=co)
        results, _ = evaluate([m[1] for m in members], st, os.path.join(work, "g%d%d" % (si, co)), seed=11)
        for r in results:
            status.setdefault(r.pair.pid, []).append(r)
    for fid, pair, case, _ in cases:
        rs = status.get(fid)
        if not rs:
            failures.append("%s: did not run (does it compile?)" % fid)
            continue
        bad = [r for r in rs if r.finding is not None]
        what = "%s: %s" % (fid, ", ".join("--arith %s %s%s" % (r.mode, r.verdict, " (%s)" % r.finding["type"]
                                                                if r.finding else "") for r in rs))
        if bad and fid in known:
            print("known unsound  %s  [%s]" % (what, known[fid]))
        elif bad:
            failures.append("%s: a false verdict, and the fixture is not in known_unsound.txt" % what)
        elif fid in known:
            failures.append("%s: no false verdict any more - remove it from known_unsound.txt" % what)
        else:
            print("sound          %s" % what)
    shutil.rmtree(work, ignore_errors=True)
    print("soundness fixtures: %d fixtures, %d listed as known unsound, %d failures" %
          (len(cases), len(known), len(failures)))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


def minimise_fixture(a, pasda, java, cases):
    """Reduce a kept fixture further (same finding, same model) and rewrite it in place."""
    import time
    from sfuzz.minimise import minimise, size
    fid, pair, case, _ = next(c for c in cases if c[0] == a.minimise)
    o = case.get("oracle", {})
    st = Settings(pasda, java=java, timeout=a.timeout, jobs=a.jobs, static_inputs=o.get("static_inputs", False),
                  compare_output=o.get("compare_output", False))
    work = tempfile.mkdtemp(prefix="pasda-sfmin-")
    results, _ = evaluate([pair], st, os.path.join(work, "first"), seed=11)
    bad = [r for r in results if r.finding]
    if not bad:
        print("%s gives no false verdict: nothing to minimise" % fid)
        return 1
    r = bad[0]
    print("minimising %s under --arith %s (%s, size %d)" % (fid, r.mode, r.finding["type"], size(pair)))
    if r.finding["type"] == "false_eq":
        pair.extra_inputs = [r.finding["input"]]

    def batch(pairs):
        out, _ = evaluate(pairs, st, os.path.join(work, "min"), seed=11)
        return [x for x in out if x.mode == r.mode]
    best = minimise(pair, r.mode, r.finding["type"], batch, time.time() + a.minimise_seconds)
    final = getattr(best, "last_result", r)
    fixtures.save(a.fixtures, fid, best, r.mode, final.finding, reason=case.get("reason", ""), oracle=o,
                  modes=case.get("modes"))
    shutil.rmtree(work, ignore_errors=True)
    print("%s: size %d -> %d" % (fid, size(pair), size(best)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
