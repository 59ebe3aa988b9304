"""One job of the sweep (pasda_study/worker.py) against a fake engine: what gets recorded."""
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import _common
from pasda_study import db as dbm
from pasda_study.jobs import JobLine

WORKER = os.path.join(_common.HARNESS, "pasda_study", "worker.py")
FAKE = os.path.join(_common.HERE, "fake_engine.py")


@_common.requires_engine
class WorkerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.db = os.path.join(self.tmp.name, "w.db")

    def tearDown(self):
        self.tmp.cleanup()

    def start(self, mode, timeout="0.5", extra=()):
        env = dict(os.environ, FAKE_ENGINE_MODE=mode)
        cmd = [sys.executable, WORKER, "--db", self.db, "--pasda-jvm", FAKE, "--classes", self.tmp.name,
               "--grace", "0.3", "--grace-rel", "0", "--kill-after", "0.5", "--version-string", "9.9", *extra,
               "A/Eq", "EQ", "snippet", "a.Eq.oldV", "a.Eq.newV", "pasda", timeout, "1", "10", "math"]
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def run_worker(self, mode, timeout="0.5", extra=()):
        p = self.start(mode, timeout, extra)
        out, err = p.communicate(timeout=30)
        line = JobLine.parse(out)
        self.assertIsNotNone(line, out + err)
        return p.returncode, line

    def rows(self):
        con = dbm.connect(self.db)
        if not dbm.has_schema(con):
            return []
        return con.execute("SELECT r.result, r.errors, r.has_timed_out, s.tool, s.run_timeout, s.depth_limit, s.arith, "
                           "r.version FROM run r JOIN settings s ON s.run_id = r.id ORDER BY r.id").fetchall()

    def test_engine_records_its_run(self):
        rc, line = self.run_worker("ok")
        self.assertEqual((rc, line.result, line.status), (0, "EQ", "ok"))
        rows = self.rows()
        self.assertEqual(len(rows), 1)
        self.assertIsNone(rows[0][1])

    def test_deepening_is_off_unless_asked_for(self):
        # The paper's tables come from one depth limit: the engine gets --deepen off by default.
        self.run_worker("ok")
        self.run_worker("ok", extra=("--deepen", "on"))
        con = dbm.connect(self.db)
        self.assertEqual(con.execute("SELECT enabled FROM deepening ORDER BY run_id").fetchall(), [(0,), (1,)])

    def test_hung_run_is_killed_and_recorded_as_timeout(self):
        t0 = time.time()
        rc, line = self.run_worker("hang")
        self.assertLess(time.time() - t0, 10)
        self.assertEqual((rc, line.result, line.status), (0, "TIMEOUT", "killed"))
        (res, errors, timed_out, tool, t, d, ar, ver), = self.rows()
        self.assertEqual((res, timed_out, tool, t, d, ar, ver), ("TIMEOUT", 1, "pasda", 0.5, 10, "math", "9.9"))
        self.assertTrue(errors.startswith(dbm.HARNESS_MARK + " killed by harness after"), errors)

    def test_run_ignoring_sigterm_is_killed(self):
        _rc, line = self.run_worker("stubborn")
        self.assertEqual((line.result, line.status), ("TIMEOUT", "killed"))
        self.assertEqual(len(self.rows()), 1)

    def test_engine_dying_without_a_row_is_recorded_as_error(self):
        _rc, line = self.run_worker("die")
        self.assertEqual((line.result, line.status), ("ERROR", "died"))
        (res, errors, *_), = self.rows()
        self.assertEqual(res, "ERROR")
        self.assertIn("exit status 2", errors)
        self.assertIn("method snippet not found", errors)

    def test_crash_is_recorded_as_error(self):
        _rc, line = self.run_worker("crash")
        self.assertEqual((line.result, line.status), ("ERROR", "died"))
        self.assertIn("signal 11", self.rows()[0][1])

    def test_interrupted_job_records_nothing(self):
        p = self.start("hang", timeout="20")
        time.sleep(1.0)
        p.send_signal(signal.SIGTERM)
        out, _ = p.communicate(timeout=15)
        self.assertEqual(JobLine.parse(out).status, "interrupted", out)
        self.assertNotEqual(p.returncode, 0)
        self.assertEqual(self.rows(), [])

    def test_a_harness_row_goes_into_a_database_the_engine_made(self):
        # The worker writes the first row of a new file: the file has exactly the engine's schema.
        self.run_worker("die")
        reference = os.path.join(self.tmp.name, "reference.db")
        dbm.init_db(_common.PASDA_JVM, reference)
        self.assertEqual(_common.schema_of(self.db), _common.schema_of(reference))
        line = self.run_worker("die")[1]
        self.assertEqual(line.status, "died", "the worker checks the file again and appends")
        self.assertEqual(len(self.rows()), 2)

    def test_a_file_that_is_not_a_database_is_a_failed_job_naming_it(self):
        with open(self.db, "w") as f:
            f.write("not a database\n")
        rc, line = self.run_worker("die")
        self.assertEqual((rc, line.result, line.status), (1, "-", "failed"))
        self.assertIn(self.db, line.note)


if __name__ == "__main__":
    unittest.main()
