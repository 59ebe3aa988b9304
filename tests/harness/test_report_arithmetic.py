"""The report's figures on a small database written by hand."""
import contextlib
import csv
import io
import os
import sqlite3
import unittest

import _common
from pasda_study import db as dbm
from pasda_study import report, tables
from pasda_study.analysis import ReportError

# The expected verdicts of _common.CASES_TSV.
EXPECTED = {"A/Eq": "EQ", "A/NEq": "NEQ", "B/Eq": "EQ", "B/NEq": "NEQ", "C/NEq": "NEQ"}


def add_run(con, case, tool, timeout, result, runtime, *, steps=None, iterations=None, result_iteration=None,
            harness=False, depth=10, arith="math", decided_by=None):
    """iterations: list of lists of partition classes (iteration 1, 2, ...)."""
    con.execute("INSERT OR IGNORE INTO benchmark VALUES(?, ?)", (case, EXPECTED[case]))
    errors = (dbm.HARNESS_MARK + " killed by harness") if harness else None
    its = iterations or []
    cur = con.execute(
        "INSERT INTO run(benchmark, result, has_timed_out, is_depth_limited, has_uif, iteration_count, "
        "result_iteration, runtime, errors) VALUES(?,?,0,0,0,?,?,?,?)",
        (case, result, len(its), result_iteration, runtime, errors))
    rid = cur.lastrowid
    con.execute("INSERT INTO settings VALUES(?,?,?,1000,?,?,2)", (rid, tool, timeout, depth, arith))
    for n, parts in enumerate(its, start=1):
        iid = con.execute("INSERT INTO iteration(run_id, iteration, result, has_timed_out, is_depth_limited, "
                          "has_uif, partition_count, runtime) VALUES(?,?,?,0,0,0,?,0)",
                          (rid, n, result, len(parts))).lastrowid
        for k, cls in enumerate(parts, start=1):
            cls, by = cls if isinstance(cls, tuple) else (cls, None)  # (class, decided_by)
            con.execute("INSERT INTO partition(iteration_id, partition, result, has_uif, has_uif_pc, has_uif_v1, "
                        "has_uif_v2, constraint_count, path_condition, output_v1, output_v2, is_depth_limited, "
                        "has_timed_out, runtime, kind_v1, kind_v2, decided_by, lines_v1, lines_v2) VALUES(?,?,?,0,0,0,0,0,"
                        "'true','void','void',0,0,0,'VOID','VOID',?,'','')", (iid, k, cls, by))
    if decided_by:  # what an engine of schema 6 records
        con.execute("INSERT INTO decision(run_id, decided_by) VALUES(?, ?)", (rid, decided_by))
    con.execute("INSERT INTO runtime(run_id, topic, task, runtime, step) VALUES(?, 'run', '', ?, 0)", (rid, runtime))
    for step, secs in (steps or {}).items():
        con.execute("INSERT INTO runtime(run_id, topic, task, runtime, step) VALUES(?, 'run', 's', ?, ?)",
                    (rid, secs, step))
    return rid


def build(path):
    con = _common.create_db(path)
    con.execute("BEGIN")
    # pasda at 10 s, three runs of most cases
    add_run(con, "A/Eq", "pasda", 10, "EQ", 1.0, steps={3: 1.0, 4: 0.5},
            iterations=[["EQ", "EQ", "UNREACHABLE"], ["NEQ"]], result_iteration=1)
    add_run(con, "A/Eq", "pasda", 10, "EQ", 2.0, steps={3: 3.0})
    add_run(con, "A/Eq", "pasda", 10, "TIMEOUT", 10.0, harness=True)
    add_run(con, "A/NEq", "pasda", 10, "NEQ", 3.0, iterations=[["NEQ", "DEPTH_LIMITED"]], result_iteration=1)
    add_run(con, "A/NEq", "pasda", 10, "MAYBE_NEQ", 4.0)
    add_run(con, "A/NEq", "pasda", 10, "MAYBE_NEQ", 5.0)
    add_run(con, "B/Eq", "pasda", 10, "NEQ", 6.0)        # tie NEQ/EQ -> EQ
    add_run(con, "B/Eq", "pasda", 10, "EQ", 7.0)
    add_run(con, "B/NEq", "pasda", 10, "MAYBE_EQ", 8.0)
    add_run(con, "B/NEq", "pasda", 10, "MAYBE_EQ", 9.0)
    add_run(con, "B/NEq", "pasda", 10, "NEQ", 0.5)
    for _ in range(3):
        add_run(con, "C/NEq", "pasda", 10, "EQ", 100.0)  # a false proof, outside the paper's cases
    # prv at 30 s, one run each
    add_run(con, "A/Eq", "prv", 30, "EQ", 1.0)
    add_run(con, "A/NEq", "prv", 30, "NEQ", 1.0)
    add_run(con, "B/Eq", "prv", 30, "UNKNOWN", 1.0)
    add_run(con, "B/NEq", "prv", 30, "TIMEOUT", 36.0, harness=True)
    con.execute("COMMIT")
    con.close()


@_common.requires_engine
class ReportArithmeticTest(_common.TempBenchmark, unittest.TestCase):
    def setUp(self):
        self.set_up_benchmark("r.db")
        build(self.db)
        self.st = report.load_study(self.db, self.bench)

    def test_majority_results_per_case(self):
        res = self.st.case_results(("pasda", 10.0))
        self.assertEqual({c: r for c, (_e, r, _n) in res.items()},
                         {"A/Eq": "EQ", "A/NEq": "MAYBE_NEQ", "B/Eq": "EQ", "B/NEq": "MAYBE_EQ"})
        self.assertEqual(res["B/Eq"][2], 2)

    def test_proofs_and_classes(self):
        pr = self.st.proofs(("pasda", 10.0))
        self.assertEqual((pr["cases"], pr["correct"], pr["false"], pr["correct_eq"], pr["correct_neq"]), (4, 2, 0, 2, 0))
        c = self.st.class_counts(("pasda", 10.0))
        self.assertEqual((c[("EQ", "EQ")], c[("NEQ", "undecided")], c[("NEQ", "MAYBE_EQ")]), (2, 2, 1))
        prv = self.st.proofs(("prv", 30.0))
        self.assertEqual((prv["correct"], prv["false"]), (2, 0))
        c = self.st.class_counts(("prv", 30.0))
        self.assertEqual((c[("EQ", "UNKNOWN")], c[("NEQ", "TIMEOUT")], c[("EQ", "undecided")]), (1, 1, 1))

    def test_all_cases_includes_the_false_proof(self):
        st = report.load_study(self.db, self.bench, include_all=True)
        pr = st.proofs(("pasda", 10.0))
        self.assertEqual((pr["cases"], pr["correct"], pr["false"]), (5, 2, 1))

    def test_best_effort(self):
        be = self.st.best_effort(("pasda", 10.0))
        self.assertEqual(be, {"MAYBE_EQ": (0, 1), "MAYBE_NEQ": (1, 1)})

    def test_runtime_over_all_runs(self):
        rs = self.st.runtime_stats(("pasda", 10.0))
        self.assertEqual(rs["runs"], 11)
        self.assertAlmostEqual(rs["median"], 5.0)
        self.assertAlmostEqual(rs["mean"], 55.5 / 11)
        self.assertEqual(rs["killed"], 1)
        self.assertEqual(self.st.runtime_stats(("prv", 30.0))["killed"], 1)

    def test_step_means_over_runs_with_steps(self):
        means, n = self.st.step_means(("pasda", 10.0))
        self.assertEqual(n, 2)
        self.assertAlmostEqual(means[3], 2.0)
        self.assertAlmostEqual(means[4], 0.25)

    def test_partitions_of_reported_iteration_only(self):
        counts = self.st.partitions(("pasda", 10.0))
        self.assertEqual(dict(counts), {"EQ": 2, "NEQ": 1, "DEPTH_LIMITED": 1})
        t9 = tables.table9(self.st)
        row = dict(zip(t9.headers, t9.rows[0]))
        self.assertEqual((row["tool"], row["partitions"], row["EQ_pct"], row["NEQ_pct"], row["DEPTH_LIMITED_pct"]),
                         ("PASDA", 4, 50.0, 25.0, 25.0))
        self.assertEqual((row["partitions_paper"], row["EQ_pct_paper"]), (3298, 52.5))

    def test_tables_put_paper_numbers_beside_ours(self):
        pt = tables.proofs_table(self.st)
        rows = {r[0]: dict(zip(pt.headers, r)) for r in pt.rows}
        self.assertEqual((rows["PASDA"]["correct"], rows["PASDA"]["correct_paper"]), (2, 86))
        self.assertEqual((rows["PRV"]["correct"], rows["PRV"]["correct_paper"]), (2, 87))
        t5 = tables.table5(self.st)
        r = [dict(zip(t5.headers, x)) for x in t5.rows if x[0] == "PASDA" and x[1] == "NEQ"][0]
        self.assertEqual((r["NEQ"], r["NEQ_paper"], r["undecided"], r["undecided_paper"]), (0, 48, 2, 17))
        t10 = tables.table10(self.st)
        r = [dict(zip(t10.headers, x)) for x in t10.rows if x[0] == "PASDA"][0]
        self.assertEqual((r["symbolic-execution"], r["symbolic-execution_paper"]), (2.0, 4.5))

    def test_cli_markdown_csv_and_plots(self):
        out = os.path.join(self.tmp.name, "out")
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
            rc = report.main(["--db", self.db, "--benchmark", self.bench, "--out", out])
        self.assertEqual(rc, 0)
        text = buf.getvalue()
        self.assertIn("| PASDA | 10 | 4 | 2 | 86 | 50.0 | 0 | 0 | 2 | 0 |", text)
        with open(os.path.join(out, "proofs.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([(r["tool"], r["correct"]) for r in rows], [("PASDA", "2"), ("PRV", "2")])
        for name in ("table5", "table6", "table7", "table9", "table10", "runtime", "best_effort"):
            self.assertTrue(os.path.isfile(os.path.join(out, name + ".csv")), name)
            self.assertTrue(os.path.isfile(os.path.join(out, name + ".md")), name)
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return
        for png in ("correct_proofs.png", "runtime.png"):
            with open(os.path.join(out, png), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_mixed_settings_need_a_choice(self):
        con = sqlite3.connect(self.db)
        add_run(con, "A/Eq", "pasda", 10, "EQ", 1.0, depth=5)
        con.commit()
        con.close()
        with self.assertRaises(ReportError):
            report.load_study(self.db, self.bench)
        st = report.load_study(self.db, self.bench, depth=5)
        self.assertEqual(st.proofs(("pasda", 10.0))["correct"], 1)

    def test_missing_db_is_a_clear_error(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = report.main(["--db", os.path.join(self.tmp.name, "none.db"), "--benchmark", self.bench])
        self.assertEqual(rc, 2)
        self.assertIn("no such file", err.getvalue())



@_common.requires_engine
class MechanismTest(_common.TempBenchmark, unittest.TestCase):
    """Pairs decided per mechanism (solver, replay, search) and proofs with and without them."""

    def setUp(self):
        self.set_up_benchmark("m.db")
        con = _common.create_db(self.db)
        con.execute("BEGIN")
        add_run(con, "A/Eq", "pasda", 10, "EQ", 1.0, iterations=[["EQ", "EQ"]], result_iteration=1)
        # NEQ proved by the solver in the reported iteration, though a replay also found one
        add_run(con, "A/NEq", "pasda", 10, "NEQ", 1.0, iterations=[[("NEQ", "replay")], [("NEQ", "solver"),
                ("NEQ", "replay")]], result_iteration=2)
        # only replay and search: replay wins; the iteration that is not reported does not count
        add_run(con, "B/NEq", "pasda", 10, "NEQ", 1.0, iterations=[[("NEQ", "solver")], [("NEQ", "search"),
                ("NEQ", "replay"), "MAYBE_EQ"]], result_iteration=2)
        # a (made-up) false NEQ by search
        add_run(con, "B/Eq", "pasda", 10, "NEQ", 1.0, iterations=[[("NEQ", "search"), "EQ"]], result_iteration=1)
        # majority over three runs: NEQ twice (search both times), MAYBE_NEQ once
        for res, parts in (("NEQ", [("NEQ", "search")]), ("NEQ", [("NEQ", "search")]), ("MAYBE_NEQ", ["MAYBE_NEQ"])):
            add_run(con, "A/NEq", "dse", 10, res, 1.0, iterations=[parts], result_iteration=1)
        add_run(con, "A/Eq", "dse", 10, "MAYBE_NEQ", 1.0, iterations=[["MAYBE_NEQ"]], result_iteration=1)
        # The engine's own record (table decision) wins over the partitions: induction and
        # deepening are proofs; 'identical' counts as the solver's.
        add_run(con, "A/Eq", "ardiff", 10, "EQ", 1.0, iterations=[["EQ"]], result_iteration=1, decided_by="induction")
        add_run(con, "A/NEq", "ardiff", 10, "NEQ", 1.0, iterations=[[("NEQ", "replay")]], result_iteration=1,
                decided_by="deepening")
        add_run(con, "B/Eq", "ardiff", 10, "EQ", 1.0, decided_by="identical")
        con.execute("COMMIT")
        con.close()
        self.st = report.load_study(self.db, self.bench)

    def test_run_mechanisms(self):
        by_case = {}
        for rid, case, *_ in self.st.runs[("pasda", 10.0)]:
            by_case[case] = self.st.run_mechanisms(("pasda", 10.0)).get(rid)
        self.assertEqual(by_case, {"A/Eq": "solver", "A/NEq": "solver", "B/NEq": "replay", "B/Eq": "search"})
        told = {case: self.st.run_mechanisms(("ardiff", 10.0)).get(rid) for rid, case, *_ in self.st.runs[("ardiff", 10.0)]}
        self.assertEqual(told, {"A/Eq": "induction", "A/NEq": "deepening", "B/Eq": "solver"})

    def test_counts_with_and_without(self):
        m = self.st.mechanisms(("pasda", 10.0))
        self.assertEqual(m["by"]["solver"], {"decided": 2, "correct": 2, "false": 0})
        self.assertEqual(m["by"]["replay"], {"decided": 1, "correct": 1, "false": 0})
        self.assertEqual(m["by"]["search"], {"decided": 1, "correct": 0, "false": 1})
        self.assertEqual((m["correct_with"], m["correct_without"]), (3, 2))
        # The engine's own record (table decision): induction and deepening are proofs.
        a = self.st.mechanisms(("ardiff", 10.0))
        self.assertEqual([a["by"][k]["decided"] for k in ("solver", "induction", "deepening")], [1, 1, 1])
        self.assertEqual((a["correct_with"], a["correct_without"]), (3, 3))
        self.assertEqual(m["correct_with"], self.st.proofs(("pasda", 10.0))["correct"])
        d = self.st.mechanisms(("dse", 10.0))
        self.assertEqual(d["by"]["search"], {"decided": 1, "correct": 1, "false": 0})
        self.assertEqual((d["correct_with"], d["correct_without"]), (1, 0))

    def test_table_and_bench_lines(self):
        t = tables.mechanisms_table(self.st)
        rows = {(r[0], r[1]): dict(zip(t.headers, r)) for r in t.rows}
        r = rows[("PASDA", 10)]
        self.assertEqual((r["solver"], r["replay"], r["search"], r["correct_with"], r["correct_without"],
                          r["false_search"]), (2, 1, 1, 3, 2, 1))
        self.assertEqual((rows[("ARDiff", 10)]["induction"], rows[("ARDiff", 10)]["deepening"]), (1, 1))
        self.assertIn(t.name, [x.name for x in tables.all_tables(self.st)])
        from pasda_study import bench
        lines, false = bench.summary(self.st, "pasda", 10.0)
        text = "\n".join(lines)
        self.assertIn("| pairs decided by replay (correct / false) | 1 (1 / 0) | - |", text)
        self.assertIn("| correct proofs without replay and search | 2 | - |", text)
        self.assertEqual(false, 1)


if __name__ == "__main__":
    unittest.main()
