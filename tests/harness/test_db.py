"""The harness's databases have the engine's schema (pasda-jvm --init-db), and hold its own rows."""
import contextlib
import io
import os
import shutil
import unittest

import _common
from pasda_study import db as dbm
from pasda_study import report, study
from pasda_study.analysis import Study
from pasda_study.jobs import Job

NOT_A_DATABASE = "not a database\n"


def parallel_skip_reason():
    if shutil.which("parallel") or _common.CI:
        return None
    return "GNU parallel is not installed (run-study needs it; with CI=true the test fails instead)"


@_common.requires_engine
class HarnessDatabaseTest(_common.TempBenchmark, unittest.TestCase):
    def setUp(self):
        self.set_up_benchmark("study.db")

    def run_study(self, *extra):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = study.main(["--benchmark", self.bench, "--db", self.db, "--pasda-jvm", _common.PASDA_JVM,
                             "--work", os.path.join(self.tmp.name, "work"), "--tools", "pasda,prv", "--dry-run",
                             *extra])
        return rc, out.getvalue(), err.getvalue()

    def reference(self):
        path = os.path.join(self.tmp.name, "reference.db")
        dbm.init_db(_common.PASDA_JVM, path)
        return _common.schema_of(path)

    @unittest.skipIf(parallel_skip_reason() is not None, parallel_skip_reason() or "")
    def test_run_study_makes_the_database_that_init_db_makes(self):
        rc, out, err = self.run_study()
        self.assertEqual(rc, 0, err)
        self.assertEqual(_common.schema_of(self.db), self.reference())
        jobs = [Job.parse(line) for line in out.splitlines()]
        self.assertEqual(len(jobs), 8)  # the 4 paper cases of _common.CASES_TSV x 2 tools
        self.assertEqual({(j.tool, j.timeout, j.run, j.depth, j.arith) for j in jobs},
                         {(t, 10.0, 1, 10, "math") for t in ("pasda", "prv")})

    def test_a_harness_row_is_written_and_read_back(self):
        dbm.init_db(_common.PASDA_JVM, self.db)
        con = dbm.connect(self.db)
        job = Job("A/Eq", "EQ", "snippet", "a.Eq.oldV", "a.Eq.newV", "pasda", 10.0, 1, 10, "math")
        rid = dbm.record_harness_run(con, job, result="TIMEOUT", has_timed_out=True, runtime=16.5,
                                     errors="killed by harness after 16.5 s (limit 16 s)", started_epoch=0,
                                     old_path="/c/a/Eq/oldV.class", new_path="/c/a/Eq/newV.class", version="9.9")
        row = con.execute("SELECT r.benchmark, r.result, r.has_timed_out, r.errors, r.started_at, r.method, "
                          "s.tool, s.run_timeout, s.depth_limit, s.arith, b.expected FROM run r "
                          "JOIN settings s ON s.run_id = r.id JOIN benchmark b ON b.benchmark = r.benchmark "
                          "WHERE r.id = ?", (rid,)).fetchone()
        self.assertEqual(row, ("A/Eq", "TIMEOUT", 1, dbm.HARNESS_MARK + " killed by harness after 16.5 s (limit 16 s)",
                               "1970-01-01T00:00:00Z", "snippet", "pasda", 10.0, 10, "math", "EQ"))
        self.assertEqual(dbm.done_counts(con), {dbm.config_key("A/Eq", "pasda", 10, 10, "math"): 1})
        self.assertEqual(dbm.find_new_run(con, 0, job), "TIMEOUT")
        self.assertEqual(Study(con, corrections=[]).runtime_stats(("pasda", 10.0))["killed"], 1)
        self.assertEqual(con.execute("PRAGMA foreign_key_check").fetchall(), [])
        con.close()
        dbm.init_db(_common.PASDA_JVM, self.db)  # the engine still takes the file as its own
        self.assertEqual(_common.schema_of(self.db), self.reference())

    def test_a_harness_row_needs_the_schema(self):
        con = dbm.connect(self.db)
        job = Job("A/Eq", "EQ", "snippet", "a.Eq.oldV", "a.Eq.newV", "pasda", 10.0, 1, 10, "math")
        with self.assertRaises(dbm.DbError):
            dbm.record_harness_run(con, job, result="ERROR", has_timed_out=False, runtime=1.0, errors="x",
                                   started_epoch=0, old_path="o", new_path="n", version=None)

    def test_a_file_that_is_not_a_database_is_refused_in_one_line(self):
        with open(self.db, "w") as f:
            f.write(NOT_A_DATABASE)
        with self.assertRaises(dbm.DbError) as e:
            dbm.init_db(_common.PASDA_JVM, self.db)
        self.assertIn(self.db, str(e.exception))
        self.assertNotIn("\n", str(e.exception))
        rc, _out, err = self.run_study()
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertTrue(err.startswith("run-study: error: " + self.db), err)
        with open(self.db) as f:
            self.assertEqual(f.read(), NOT_A_DATABASE, "the file is left as it was")

    def test_an_engine_that_cannot_run_is_an_error_naming_the_file(self):
        with self.assertRaises(dbm.DbError) as e:
            dbm.init_db(os.path.join(self.tmp.name, "no-such-pasda-jvm"), self.db)
        self.assertIn(self.db, str(e.exception))

    def test_report_on_a_file_that_is_not_a_database(self):
        with open(self.db, "w") as f:
            f.write(NOT_A_DATABASE)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = report.main(["--db", self.db, "--benchmark", self.bench])
        self.assertEqual(rc, 2)
        self.assertIn(self.db, err.getvalue())


if __name__ == "__main__":
    unittest.main()
