"""The truth of each benchmark case under an arithmetic model: the benchmark's label (cases.tsv,
the paper's) unless corrected_labels.tsv corrects it for that model, with a JVM-confirmed
witness. `python3 -m pasda_study.truth --confirm [--benchmark DIR]` runs every witness in a JVM."""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PATH = os.path.join(HERE, "corrected_labels.tsv")
MODELS = ("math", "java")
COLUMNS = ("case", "model", "truth", "witness", "old_output", "new_output", "source")


class TruthError(Exception):
    pass


def load(path=DEFAULT_PATH):
    """The corrections: a list of dicts with the COLUMNS (comment lines start with '#')."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [l for l in f if l.strip() and not l.startswith("#")]
    except OSError as e:
        raise TruthError(f"{path}: {e.strerror}") from None
    reader = csv.DictReader(lines, delimiter="\t")
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise TruthError(f"{path}: missing columns {', '.join(missing)}")
    out, seen = [], set()
    for n, row in enumerate(reader, start=1):
        row = {k: (row.get(k) or "").strip() for k in COLUMNS}
        if row["model"] not in MODELS + ("both",):
            raise TruthError(f"{path}: {row['case']}: model must be math, java or both, not {row['model']!r}")
        if row["truth"] not in ("EQ", "NEQ"):
            raise TruthError(f"{path}: {row['case']}: truth must be EQ or NEQ, not {row['truth']!r}")
        if not re.fullmatch(r"[A-Za-z_$][\w$]*\(.*\)", row["witness"]):
            raise TruthError(f"{path}: {row['case']}: witness is not a call: {row['witness']!r}")
        if row["case"] in seen:
            raise TruthError(f"{path}: {row['case']} is listed twice")
        seen.add(row["case"])
        out.append(row)
    return out


def truth_map(labels, arith, corrections):
    """case -> truth under `arith`: labels (case -> paper label) with the corrections of that model."""
    if arith not in MODELS:
        raise TruthError(f"unknown arithmetic model {arith!r}")
    out = dict(labels)
    for c in corrections:
        if c["case"] in out and c["model"] in (arith, "both"):
            out[c["case"]] = c["truth"]
    return out


def corrected_cases(arith, corrections):
    return [c for c in corrections if c["model"] in (arith, "both")]


def confirm(benchmark, corrections, java="java", javac="javac"):
    """Runs every witness on both versions in a JVM; returns [(case, old, new, recorded_old, recorded_new)]."""
    from . import cases as casesm
    by_name = {c.name: c for c in casesm.load_cases(benchmark)}
    unknown = [c["case"] for c in corrections if c["case"] not in by_name]
    if unknown:
        raise TruthError("not benchmark cases: " + ", ".join(unknown))
    work = tempfile.mkdtemp(prefix="pasda-truth-")
    try:
        srcs = []
        body = []
        for k, c in enumerate(corrections):
            case = by_name[c["case"]]
            srcs += [case.source(benchmark, "oldV"), case.source(benchmark, "newV")]
            call = c["witness"][c["witness"].index("("):]
            for side, cls in (("old", case.old_class), ("new", case.new_class)):
                body.append(f'    try {{ System.out.println("{k} {side} " + String.valueOf({cls}.{case.method}{call})); }}'
                            f' catch (Throwable t) {{ System.out.println("{k} {side} throws " + t.getClass().getName()); }}')
        with open(os.path.join(work, "ConfirmTruth.java"), "w") as f:
            f.write("public class ConfirmTruth {\n  public static void main(String[] a) {\n" + "\n".join(body)
                    + "\n  }\n}\n")
        cls_dir = os.path.join(work, "classes")
        r = subprocess.run([javac, "-nowarn", "-d", cls_dir, os.path.join(work, "ConfirmTruth.java"), *srcs],
                           capture_output=True, text=True)
        if r.returncode:
            raise TruthError("javac failed: " + r.stderr.strip()[-500:])
        r = subprocess.run([java, "-cp", cls_dir, "ConfirmTruth"], capture_output=True, text=True, timeout=120)
        if r.returncode:
            raise TruthError("java failed: " + r.stderr.strip()[-500:])
        got = {}
        for line in r.stdout.splitlines():
            m = re.fullmatch(r"(\d+) (old|new) (.*)", line)
            if m:
                got[(int(m.group(1)), m.group(2))] = m.group(3)
        return [(c["case"], got.get((k, "old")), got.get((k, "new")), c["old_output"], c["new_output"])
                for k, c in enumerate(corrections)]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv=None):
    from .study import REPO
    p = argparse.ArgumentParser(prog="pasda_study.truth", description=__doc__)
    p.add_argument("--benchmark", default=os.path.normpath(os.path.join(REPO, "..", "shared", "ardiff-benchmark")))
    p.add_argument("--labels", default=DEFAULT_PATH)
    p.add_argument("--confirm", action="store_true", help="run every witness in a JVM")
    a = p.parse_args(argv)
    try:
        corr = load(a.labels)
        if not a.confirm:
            for c in corr:
                print("\t".join(c[k] for k in COLUMNS))
            return 0
        bad = 0
        for case, old, new, rold, rnew in confirm(a.benchmark, corr):
            ok = old == rold and new == rnew and old != new
            bad += not ok
            print(f"{'ok ' if ok else 'BAD'} {case}: JVM old {old}, new {new} (recorded {rold}, {rnew})")
        return 1 if bad else 0
    except TruthError as e:
        print(f"truth: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
