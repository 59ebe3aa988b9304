"""merge-db: per-host databases into one; ids shifted, children follow, idempotent."""
import contextlib
import io
import os
import sqlite3
import tempfile
import unittest

import _common
from pasda_study import db as dbm
from pasda_study import merge
from test_report_arithmetic import add_run, build

ENGINE = _common.PASDA_JVM


def counts(path):
    con = sqlite3.connect(path)
    out = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
           for t in ("run", "settings", "iteration", "partition", "runtime", "benchmark")}
    out["fk"] = con.execute("PRAGMA foreign_key_check").fetchall()
    con.close()
    return out


@_common.requires_engine
class MergeTest(unittest.TestCase):
    def test_two_hosts_merge_once(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b, target = (os.path.join(tmp, n) for n in ("a.db", "b.db", "all.db"))
            build(a)
            con = _common.create_db(b)
            add_run(con, "A/Eq", "pasda", 30, "EQ", 1.5, steps={3: 1.0},
                    iterations=[["EQ", "NEQ"]], result_iteration=1)
            con.close()
            ca, cb = counts(a), counts(b)
            self.assertEqual(merge.merge(target, a, ENGINE), (ca["run"], 0))
            self.assertEqual(merge.merge(target, b, ENGINE), (1, 0))
            self.assertEqual(merge.merge(target, a, ENGINE), (0, ca["run"]))  # again: nothing new
            ct = counts(target)
            for t in ("run", "settings", "iteration", "partition", "runtime"):
                self.assertEqual(ct[t], ca[t] + cb[t], t)
            self.assertEqual(ct["fk"], [])
            con = sqlite3.connect(target)
            # b's run keeps its own children after the id shift
            row = con.execute("SELECT r.runtime, s.run_timeout, group_concat(p.result) FROM run r "
                              "JOIN settings s ON s.run_id = r.id JOIN iteration i ON i.run_id = r.id "
                              "JOIN partition p ON p.iteration_id = i.id WHERE s.run_timeout = 30 AND s.tool = 'pasda' "
                              "GROUP BY r.id").fetchall()
            self.assertEqual(len(row), 1)
            self.assertEqual(row[0][:2], (1.5, 30.0))
            self.assertEqual(sorted(row[0][2].split(",")), ["EQ", "NEQ"])
            con.close()

    def test_not_a_database(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.db")
            with open(bad, "w") as f:
                f.write("not sqlite")
            with self.assertRaises(Exception):
                merge.merge(os.path.join(tmp, "t.db"), bad, ENGINE)
            with self.assertRaises(dbm.DbError):
                merge.merge(os.path.join(tmp, "t.db"), os.path.join(tmp, "missing.db"), ENGINE)

    def test_the_target_is_made_by_the_engine(self):
        with tempfile.TemporaryDirectory() as tmp:
            source, target, reference = (os.path.join(tmp, n) for n in ("s.db", "t.db", "r.db"))
            build(source)
            self.assertEqual(merge.merge(target, source, ENGINE)[1], 0)
            dbm.init_db(ENGINE, reference)
            self.assertEqual(_common.schema_of(target), _common.schema_of(reference))

    def test_a_target_that_is_not_a_database_is_one_error_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            source, target = os.path.join(tmp, "s.db"), os.path.join(tmp, "notes.txt")
            build(source)
            with open(target, "w") as f:
                f.write("not a database\n")
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                rc = merge.main(["--pasda-jvm", ENGINE, target, source])
            self.assertEqual(rc, 2)
            self.assertEqual(len(err.getvalue().strip().splitlines()), 1, err.getvalue())
            self.assertIn(target, err.getvalue())
            with open(target) as f:
                self.assertEqual(f.read(), "not a database\n", "the file is left as it was")

    def test_a_source_of_another_schema_version_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            source, target = os.path.join(tmp, "s.db"), os.path.join(tmp, "t.db")
            build(source)
            con = sqlite3.connect(source)
            con.execute("UPDATE schema_version SET version = version + 1")
            con.commit()
            con.close()
            with self.assertRaises(dbm.DbError) as e:
                merge.merge(target, source, ENGINE)
            self.assertIn("schema version", str(e.exception))


if __name__ == "__main__":
    unittest.main()
