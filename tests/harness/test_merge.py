"""merge-db: per-host databases into one; ids shifted, children follow, idempotent."""
import os
import sqlite3
import tempfile
import unittest

import _common  # noqa: F401
from pasda_study import merge
from test_report_arithmetic import add_run, build
from pasda_study import db as dbm


def counts(path):
    con = sqlite3.connect(path)
    out = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
           for t in ("run", "settings", "iteration", "partition", "runtime", "benchmark")}
    out["fk"] = con.execute("PRAGMA foreign_key_check").fetchall()
    con.close()
    return out


class MergeTest(unittest.TestCase):
    def test_two_hosts_merge_once(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b, target = (os.path.join(tmp, n) for n in ("a.db", "b.db", "all.db"))
            build(a)
            con = dbm.connect(b)
            dbm.ensure_schema(con)
            add_run(con, "A/Eq", "pasda", 30, "EQ", 1.5, steps={3: 1.0},
                    iterations=[["EQ", "NEQ"]], result_iteration=1)
            con.close()
            ca, cb = counts(a), counts(b)
            self.assertEqual(merge.merge(target, a), (ca["run"], 0))
            self.assertEqual(merge.merge(target, b), (1, 0))
            self.assertEqual(merge.merge(target, a), (0, ca["run"]))  # again: nothing new
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
                merge.merge(os.path.join(tmp, "t.db"), bad)
            with self.assertRaises(dbm.DbError):
                merge.merge(os.path.join(tmp, "t.db"), os.path.join(tmp, "missing.db"))


if __name__ == "__main__":
    unittest.main()
