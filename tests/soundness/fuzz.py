#!/usr/bin/python3
"""The soundness fuzzer of pasda-jvm (docs/soundness-fuzzer.md).

Generates seeded pairs of small Java classes (a program and a mutated or rewritten version),
runs pasda-jvm on each pair and both versions in a real JVM, and fails on a false EQ or NEQ.
  tests/soundness/fuzz.py --ci                       # the CTest run: fixed seeds, sound features
  tests/soundness/fuzz.py --seeds 1:500 --features all --minimise   # a longer exploration
Exit status: 0 no finding, 1 findings or fuzzer errors, 77 skipped (no java, not under CI)."""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sfuzz import features as feats  # noqa: E402
from sfuzz.campaign import Campaign  # noqa: E402
from sfuzz.pipeline import REPO, Settings  # noqa: E402

CI_SEEDS = "1:81"
CI_BUDGET = 130


def seeds_of(spec):
    out = []
    for part in spec.split(","):
        if ":" in part:
            a, b = part.split(":")
            out += list(range(int(a), int(b)))
        elif part:
            out.append(int(part))
    return out


def find_pasda(arg):
    for c in (arg, os.environ.get("PASDA_JVM"), os.path.join(REPO, "build", "pasda-jvm")):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pasda", help="the pasda-jvm binary (default: $PASDA_JVM, then build/pasda-jvm)")
    ap.add_argument("--ci", action="store_true", help="the CTest run: seeds %s, CI features, %d s budget" %
                    (CI_SEEDS, CI_BUDGET))
    ap.add_argument("--seeds", help="seeds as A:B (B excluded) or a comma list (default 1:41)")
    ap.add_argument("--features", default=None, help="all, ci, or a comma list; -x removes x (default ci)")
    ap.add_argument("--modes", default="java,math", help="arithmetic models to check (default java,math)")
    ap.add_argument("--size", type=int, default=7, help="statements in the target method's body (default 7)")
    ap.add_argument("--timeout", type=float, default=5.0, help="pasda-jvm --timeout per run (default 5)")
    ap.add_argument("--jobs", type=int, default=2, help="pasda-jvm processes at a time (default 2)")
    ap.add_argument("--inputs", type=int, default=24, help="random/boundary inputs per pair (default 24)")
    ap.add_argument("--batch", type=int, default=40, help="pairs per javac/JVM batch (default 40)")
    ap.add_argument("--budget", type=float, help="stop starting batches after this many seconds")
    ap.add_argument("--static-inputs", choices=("on", "off"), default="on",
                    help="on (pasda-jvm's default): non-final static fields get arbitrary values at entry; "
                         "off: the values <clinit> gives them")
    ap.add_argument("--compare-output", choices=("on", "off"), default="on",
                    help="on (pasda-jvm's default): console output is part of the behaviour")
    ap.add_argument("--minimise", action="store_true", help="minimise one finding per class and model")
    ap.add_argument("--minimise-seconds", type=float, default=300, help="time per minimisation (default 300)")
    ap.add_argument("--save-fixtures", metavar="DIR", help="write minimised findings as fixtures to DIR")
    ap.add_argument("--work", help="work directory (default: a temporary one, removed unless --keep)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--report", metavar="FILE", help="also write the summary as JSON")
    a = ap.parse_args(argv)

    if a.ci:
        a.seeds = a.seeds or CI_SEEDS
        a.budget = a.budget or CI_BUDGET
        a.features = a.features or "ci"
        a.minimise = True
        a.minimise_seconds = min(a.minimise_seconds, 90)
    ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    java = shutil.which("java")
    pasda = find_pasda(a.pasda)
    missing = [n for n, v in (("java", java), ("javac", shutil.which("javac")), ("pasda-jvm", pasda)) if not v]
    if missing:
        msg = "soundness fuzz: %s not found" % ", ".join(missing)
        if ci:
            print(msg + " (CI=true: failing)")
            return 1
        print(msg + ": skipped")
        return 77
    features = feats.parse(a.features or "ci")
    settings = Settings(pasda, java=java, modes=a.modes.split(","), timeout=a.timeout, jobs=a.jobs, inputs=a.inputs,
                        static_inputs=a.static_inputs == "on", compare_output=a.compare_output == "on")
    work = a.work or tempfile.mkdtemp(prefix="pasda-sfuzz-")
    print("soundness fuzz: features %s; models %s; pasda-jvm --timeout %g; work %s" %
          (",".join(features), a.modes, a.timeout, work))
    off = [f for f in feats.ALL if f not in features]
    if off:
        print("  features off: %s" % ", ".join(off))
    c = Campaign(settings, features, a.size, work)
    c.run(seeds_of(a.seeds or "1:41"), a.batch, a.budget)
    if a.minimise and c.findings():
        out_dir = a.save_fixtures or (os.path.join(work, "fixtures") if a.ci else None)
        saved = c.minimise_findings(seconds=a.minimise_seconds, fixture_dir=out_dir, limit=2 if a.ci else None)
        for d in saved:
            print("fixture written: %s (copy it under tests/fixtures/soundness/ to keep it)" % d)
    print()
    sm = c.report()
    if a.report:
        import json
        with open(a.report, "w") as f:
            json.dump(sm, f, indent=1)
    bad = c.findings() or sm["checked_mismatch"] or sm["compile_failed"]
    if not a.keep and not a.work and not bad:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
