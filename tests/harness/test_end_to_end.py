"""run-study end to end with the real engine: run, interrupt, resume, report.

Needs PASDA_JVM (path to the pasda-jvm binary) and the benchmark (../shared/ardiff-benchmark,
or PASDA_BENCHMARK_DIR_SRC); skipped with a message otherwise.
"""
import contextlib
import io
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

import _common
from pasda_study import db as dbm
from pasda_study import report

PASDA_JVM = _common.PASDA_JVM
RUN_STUDY = os.path.join(_common.HARNESS, "run-study")
CASES = ["Airy/MAX/Eq", "Airy/MAX/NEq", "ModDiff/Eq/Add", "Bess/SQR/Eq"]
TOOLS = ["pasda", "prv"]
RUNS = 2


def skip_reason():
    if not PASDA_JVM:
        return "PASDA_JVM is not set (path to the pasda-jvm binary)"
    if not os.access(PASDA_JVM, os.X_OK):
        return f"PASDA_JVM={PASDA_JVM} is not an executable file"
    if not os.path.isfile(os.path.join(_common.BENCHMARK, "cases.tsv")):
        return f"benchmark not found at {_common.BENCHMARK}"
    for tool in ("parallel", "javac", "timeout"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    return None


@unittest.skipIf(skip_reason() is not None, skip_reason() or "")
class EndToEndTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.db = os.path.join(self.tmp.name, "study.db")
        self.work = os.path.join(self.tmp.name, "work")

    def tearDown(self):
        self.tmp.cleanup()

    def cmd(self, jobs="1"):
        return [sys.executable, RUN_STUDY, "--pasda-jvm", PASDA_JVM, "--benchmark", _common.BENCHMARK,
                "--db", self.db, "--work", self.work, "--cases", ",".join(CASES), "--tools", ",".join(TOOLS),
                "--timeouts", "5", "--runs", str(RUNS), "--jobs", jobs]

    def count_runs(self):
        if not os.path.exists(self.db):
            return 0
        con = sqlite3.connect(self.db, timeout=30)
        try:
            if not dbm.has_schema(con):
                return 0
            return con.execute("SELECT count(*) FROM run").fetchone()[0]
        finally:
            con.close()

    def interrupt_after(self, sig, at_least):
        p = subprocess.Popen(self.cmd(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while self.count_runs() < at_least and p.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        self.assertIsNone(p.poll(), "run-study finished before it could be interrupted")
        p.send_signal(sig)
        _out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 130, err)
        self.assertIn("interrupted", err)
        n = self.count_runs()
        time.sleep(1.5)  # nothing of the interrupted sweep may still be running and writing
        self.assertEqual(self.count_runs(), n)
        return n

    def test_run_interrupt_resume_report(self):
        total = len(CASES) * len(TOOLS) * RUNS
        n1 = self.interrupt_after(signal.SIGINT, 3)
        self.assertLess(n1, total)
        n2 = self.interrupt_after(signal.SIGTERM, n1 + 2)
        self.assertGreater(n2, n1)
        self.assertLess(n2, total)

        p = subprocess.run(self.cmd(jobs="2"), capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"{n2} already in", p.stderr)
        self.assertIn(f"{total - n2} to run", p.stderr)
        self.assertRegex(p.stderr, r"\] Airy/MAX/NEq (pasda|prv) 5s #[12]: NEQ \(ok, [0-9.]+ s\)")  # a line per run
        self.assertIn(f"[run-study] {total - n2}/{total - n2} runs done: ERROR 0", p.stderr)

        con = sqlite3.connect(self.db)
        per = con.execute("SELECT r.benchmark, s.tool, s.run_timeout, s.depth_limit, s.arith, count(*) FROM run r "
                          "JOIN settings s ON s.run_id = r.id GROUP BY 1, 2, 3, 4, 5").fetchall()
        self.assertEqual(sorted((b, t) for b, t, *_ in per), sorted((c, t) for c in CASES for t in TOOLS))
        for b, t, to, d, ar, n in per:
            self.assertEqual((to, d, ar, n), (5.0, 10, "math", RUNS), (b, t))
        self.assertEqual(con.execute("PRAGMA foreign_key_check").fetchall(), [])
        bad = con.execute("SELECT r.benchmark, s.tool, r.result, r.errors FROM run r JOIN settings s ON s.run_id = r.id "
                          "WHERE r.result IN ('ERROR') OR (r.result = 'EQ' AND r.benchmark LIKE '%/NEq%') "
                          "OR (r.result = 'NEQ' AND r.benchmark NOT LIKE '%NEq%')").fetchall()
        self.assertEqual(bad, [], "ERROR or false proof")
        con.close()

        again = subprocess.run(self.cmd(), capture_output=True, text=True, timeout=60)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("0 to run", again.stderr)
        self.assertEqual(self.count_runs(), total)

        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
            rc = report.main(["--db", self.db, "--benchmark", _common.BENCHMARK])
        self.assertEqual(rc, 0)
        self.assertIn("| PASDA | 5 | 4 |", buf.getvalue())


if __name__ == "__main__":
    unittest.main()
