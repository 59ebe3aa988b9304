"""Shared helpers of the harness tests (import path, the engine, databases with its schema, a
temporary benchmark)."""
import os
import sqlite3
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
HARNESS = os.path.join(REPO, "ardiff-benchmark")
if HARNESS not in sys.path:
    sys.path.insert(0, HARNESS)

from pasda_study import db as dbm  # noqa: E402

# CTest passes the benchmark directory CMake was configured with (PASDA_BENCHMARK_DIR).
BENCHMARK = (os.environ.get("PASDA_BENCHMARK_DIR_SRC") or os.environ.get("PASDA_BENCHMARK_DIR")
             or os.path.normpath(os.path.join(REPO, "..", "shared", "ardiff-benchmark")))
# The engine (CTest sets it): it creates every database with its schema (pasda-jvm --init-db).
PASDA_JVM = os.environ.get("PASDA_JVM", "")
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def engine_missing():
    if PASDA_JVM and os.access(PASDA_JVM, os.X_OK):
        return None
    return (f"PASDA_JVM={PASDA_JVM!r} is not the pasda-jvm binary, which creates the databases "
            "(tests/CMakeLists.txt sets it; with CI=true the tests fail instead of being skipped)")


# CI must have the engine: there the tests run, and fail (create_db) without it.
requires_engine = unittest.skipIf(engine_missing() is not None and not CI, engine_missing() or "")


def create_db(path):
    """A new results database made by the engine (pasda-jvm --init-db), opened like the harness does."""
    if engine_missing():
        raise AssertionError(engine_missing())
    dbm.init_db(PASDA_JVM, path)
    return dbm.connect(path)


def schema_of(path):
    """Everything of a database's schema: its objects with their SQL, application_id and the
    schema_version rows."""
    con = sqlite3.connect(path)
    try:
        objects = con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()
        app = con.execute("PRAGMA application_id").fetchone()[0]
        versions = con.execute("SELECT version FROM schema_version").fetchall()
        return {"objects": objects, "application_id": app, "schema_version": versions}
    finally:
        con.close()


# A small benchmark: four cases of the paper's set (A, B) and one outside it (C).
CASES_TSV = """case\texpected\tmethod\tin_paper\told_class\tnew_class
A/Eq\tEQ\tsnippet\tyes\ta.Eq.oldV\ta.Eq.newV
A/NEq\tNEQ\tsnippet\tyes\ta.NEq.oldV\ta.NEq.newV
B/Eq\tEQ\tsnippet\tyes\tb.Eq.oldV\tb.Eq.newV
B/NEq\tNEQ\tsnippet\tyes\tb.NEq.oldV\tb.NEq.newV
C/NEq\tNEQ\tsnippet\tno\tc.NEq.oldV\tc.NEq.newV
"""


class TempBenchmark:
    """Mixin of the tests that run on a benchmark of their own. set_up_benchmark(db_name), called
    from setUp, makes a temporary directory (self.tmp, removed after the test) holding the
    benchmark directory `bench` (self.bench) with CASES_TSV as its cases.tsv, and names the
    database file `db_name` in it (self.db, not created)."""

    def set_up_benchmark(self, db_name):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.bench = os.path.join(self.tmp.name, "bench")
        os.makedirs(self.bench)
        with open(os.path.join(self.bench, "cases.tsv"), "w") as f:
            f.write(CASES_TSV)
        self.db = os.path.join(self.tmp.name, db_name)
