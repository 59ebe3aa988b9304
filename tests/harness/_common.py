"""Shared helpers of the harness tests (import path, temp databases)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
HARNESS = os.path.join(REPO, "ardiff-benchmark")
if HARNESS not in sys.path:
    sys.path.insert(0, HARNESS)

BENCHMARK = os.environ.get("PASDA_BENCHMARK_DIR_SRC") or os.path.normpath(
    os.path.join(REPO, "..", "shared", "ardiff-benchmark"))
