"""Shared helpers of the harness tests (import path, the engine, databases with its schema)."""
import os
import sqlite3
import sys
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
