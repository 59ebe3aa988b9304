"""The benchmark's case list (cases.tsv) and case selection."""
import csv
import os
from dataclasses import dataclass


class CaseError(Exception):
    """Bad benchmark directory or unknown case name."""


@dataclass(frozen=True)
class Case:
    name: str          # e.g. Airy/MAX/Eq
    expected: str      # EQ or NEQ
    method: str        # method to compare (the benchmark's `snippet`)
    in_paper: bool     # one of the paper's 141
    old_class: str     # dotted class names
    new_class: str

    def source(self, benchmark_dir, version):
        """Path of oldV.java / newV.java of this case."""
        return os.path.join(benchmark_dir, "benchmarks", *self.name.split("/"), version + ".java")

    @staticmethod
    def class_file(classes_root, dotted):
        return os.path.join(classes_root, *dotted.split(".")) + ".class"


REQUIRED = ("case", "expected", "method", "in_paper", "old_class", "new_class")


def load_cases(benchmark_dir):
    """Read <benchmark_dir>/cases.tsv; raises CaseError with a clear message."""
    path = os.path.join(benchmark_dir, "cases.tsv")
    if not os.path.isfile(path):
        raise CaseError(f"{path}: no such file (is --benchmark the ARDiff benchmark directory?)")
    cases = []
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f, delimiter="\t")
        missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
        if missing:
            raise CaseError(f"{path}: missing columns {', '.join(missing)}")
        for lineno, row in enumerate(reader, start=2):
            exp = (row["expected"] or "").strip().upper()
            if exp not in ("EQ", "NEQ"):
                raise CaseError(f"{path}:{lineno}: expected must be EQ or NEQ, not {row['expected']!r}")
            cases.append(Case(row["case"].strip(), exp, row["method"].strip(),
                              row["in_paper"].strip().lower() in ("yes", "1", "true"),
                              row["old_class"].strip(), row["new_class"].strip()))
    return cases


def select_cases(cases, names=None, include_all=False):
    """The paper's cases (in_paper), all cases with include_all, or the named ones (in file order)."""
    if names:
        by_name = {c.name: c for c in cases}
        unknown = [n for n in names if n not in by_name]
        if unknown:
            raise CaseError("unknown case(s): " + ", ".join(unknown))
        wanted = set(names)
        return [c for c in cases if c.name in wanted]
    return [c for c in cases if include_all or c.in_paper]
