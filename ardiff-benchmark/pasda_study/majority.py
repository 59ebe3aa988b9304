"""Reduction of several runs of one configuration to one result, as the paper did."""
from collections import Counter

CLASSES = ("EQ", "NEQ", "MAYBE_EQ", "MAYBE_NEQ", "UNKNOWN", "DEPTH_LIMITED", "TIMEOUT", "ERROR")
UNDECIDED = ("MAYBE_EQ", "MAYBE_NEQ", "UNKNOWN")


def _rank(result):
    return CLASSES.index(result) if result in CLASSES else len(CLASSES)


def majority(results):
    """The most frequent result; ties go to EQ, then NEQ, then the order of CLASSES.

    Raises ValueError on an empty list."""
    results = list(results)
    if not results:
        raise ValueError("majority of no runs")
    counts = Counter(results)
    return min(counts, key=lambda r: (-counts[r], _rank(r), r))
