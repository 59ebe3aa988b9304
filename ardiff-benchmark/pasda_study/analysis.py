"""Figures of the paper computed from a results database (per tool and timeout)."""
import statistics
from collections import defaultdict

from . import db as dbm
from . import truth as truthm
from .majority import CLASSES, UNDECIDED, majority


MECHANISMS = ("solver", "math", "induction", "deepening", "replay", "search")
# Mechanisms that are proofs (the others rest on a concrete witness, a best effort).
PROOF_MECHANISMS = ("solver", "math", "induction", "deepening")


class ReportError(Exception):
    pass


class Study:
    """Runs of one depth limit and arithmetic, grouped by (tool, timeout)."""

    def __init__(self, con, cases=None, depth=None, arith=None, corrections=None):
        """cases: set of case names to count (None: all in the db). corrections: the corrected labels
        (truth.load(); default: pasda_study/corrected_labels.tsv)."""
        if not dbm.has_schema(con):
            raise ReportError("the database has no results tables")
        rows = con.execute(
            "SELECT r.id, r.benchmark, b.expected, s.tool, s.run_timeout, s.depth_limit, s.arith, r.result, "
            "r.runtime, coalesce(r.errors, '') LIKE ? FROM run r JOIN settings s ON s.run_id = r.id "
            "LEFT JOIN benchmark b ON b.benchmark = r.benchmark WHERE r.benchmark IS NOT NULL",
            (dbm.HARNESS_MARK + "%",)).fetchall()
        rows = [r for r in rows if (cases is None or r[1] in cases)
                and (depth is None or r[5] == depth) and (arith is None or r[6] == arith)]
        combos = sorted({(r[5], r[6]) for r in rows})
        if len(combos) > 1:
            raise ReportError("the database mixes settings " + ", ".join(f"depth {d}/{a}" for d, a in combos)
                              + "; choose one with --depth-limit and --arith")
        self.depth, self.arith = combos[0] if combos else (depth, arith)
        self.runs = defaultdict(list)       # (tool, timeout) -> [(run_id, case, expected, result, runtime, harness)]
        for rid, case, exp, tool, t, _d, _a, res, rt, harness in rows:
            self.runs[(tool, float(t))].append((rid, case, exp, res or "ERROR", rt, bool(harness)))
        self.con = con
        self.corrections = truthm.load() if corrections is None else corrections

    def truth(self):
        """case -> the truth under this study's arithmetic model (the paper's label unless corrected)."""
        labels = {case: exp for runs in self.runs.values() for _rid, case, exp, *_ in runs}
        return truthm.truth_map(labels, self.arith or "math", self.corrections)

    def proofs_truth(self, key):
        """Correct and false proofs against the truth of the study's model, and the falsely proved cases."""
        truth = self.truth()
        correct, false = 0, []
        for case, (_e, res, _n) in self.case_results(key).items():
            if res in ("EQ", "NEQ"):
                if res == truth.get(case):
                    correct += 1
                else:
                    false.append(case)
        return {"correct": correct, "false": len(false), "false_cases": sorted(false),
                "model": self.arith or "math"}

    def configs(self):
        return sorted(self.runs, key=lambda k: (k[0], k[1]))

    def tools(self):
        return sorted({t for t, _ in self.runs})

    def timeouts(self, tool=None):
        return sorted({t for tl, t in self.runs if tool is None or tl == tool})

    def case_results(self, key):
        """case -> (expected, majority result, number of runs)."""
        per = defaultdict(list)
        exp = {}
        for _rid, case, e, res, _rt, _h in self.runs[key]:
            per[case].append(res)
            exp[case] = e
        return {c: (exp[c], majority(rs), len(rs)) for c, rs in per.items()}

    def class_counts(self, key):
        """{(expected, class): cases} over majority results, plus totals."""
        counts = defaultdict(int)
        for _c, (e, res, _n) in self.case_results(key).items():
            counts[(e, res)] += 1
            counts[(e, "cases")] += 1
            if res in UNDECIDED:
                counts[(e, "undecided")] += 1
        return counts

    def proofs(self, key):
        c = self.class_counts(key)
        correct = c[("EQ", "EQ")] + c[("NEQ", "NEQ")]
        false = c[("NEQ", "EQ")] + c[("EQ", "NEQ")]
        cases = sum(v for (_e, k), v in c.items() if k == "cases")
        return {"correct": correct, "false": false, "cases": cases,
                "correct_eq": c[("EQ", "EQ")], "correct_neq": c[("NEQ", "NEQ")]}

    def best_effort(self, key):
        """MAYBE_EQ on EQ cases / all MAYBE_EQ, and the same for MAYBE_NEQ."""
        c = self.class_counts(key)
        out = {}
        for cls, truth in (("MAYBE_EQ", "EQ"), ("MAYBE_NEQ", "NEQ")):
            total = c[("EQ", cls)] + c[("NEQ", cls)]
            out[cls] = (c[(truth, cls)], total)
        return out

    def runtimes(self, key):
        return [rt for _rid, _c, _e, _r, rt, _h in self.runs[key]]

    def runtime_stats(self, key):
        rts = self.runtimes(key)
        if not rts:
            return {"runs": 0, "median": None, "mean": None, "killed": 0}
        killed = sum(1 for *_x, h in self.runs[key] if h)
        return {"runs": len(rts), "median": statistics.median(rts), "mean": statistics.fmean(rts), "killed": killed}

    def step_means(self, key):
        """step -> mean seconds over the runs that recorded steps (engine-written runs)."""
        ids = [rid for rid, *_ in self.runs[key]]
        sums, runs_with_steps = defaultdict(float), set()
        for chunk in range(0, len(ids), 500):
            part = ids[chunk:chunk + 500]
            q = ("SELECT run_id, step, sum(runtime) FROM runtime WHERE step > 0 AND run_id IN (%s) "
                 "GROUP BY run_id, step" % ",".join("?" * len(part)))
            for rid, step, secs in self.con.execute(q, part):
                sums[step] += secs
                runs_with_steps.add(rid)
        n = len(runs_with_steps)
        return ({s: v / n for s, v in sums.items()} if n else {}), n

    def run_mechanisms(self, key):
        """run id -> what decided the run's EQ/NEQ result (one of MECHANISMS).

        Runs written by an engine of schema 6 or later say it themselves (table `decision`:
        'induction' for loops coupled by an inductive invariant, 'deepening' for a result of a
        deeper round, 'identical' and 'precheck' counted as the solver's). For other runs:

        An EQ result is always the solver's (every partition proved equivalent). A NEQ result is the
        solver's if some NEQ partition of the reported iteration was proved by the Neq-query without
        abstraction; 'math' if it was proved by the Java Neq-query with the inputs pinned to a model of
        the math-model query (--arith java, "math first", issue 17); otherwise it rests on a concrete witness: one the solver found for a MAYBE_NEQ
        partition and that replayed to a difference ('replay'), or one the witness search found for an
        undecided partition ('search'). Runs with any other result are absent."""
        runs = {rid: res for rid, _c, _e, res, _rt, _h in self.runs[key] if res in ("EQ", "NEQ")}
        told = self._decisions(list(runs))
        out = {rid: "solver" for rid, res in runs.items() if res == "EQ"}
        neq = [rid for rid, res in runs.items() if res == "NEQ"]
        seen = defaultdict(set)
        for rid, by in self._reported_partitions(neq, "r.id, coalesce(p.decided_by, 'solver')", "p.result = 'NEQ'"):
            seen[rid].add(by)
        for rid in neq:
            by = seen.get(rid, set())
            # A NEQ without a NEQ partition can only come from the signature pre-check: the solver's side.
            out[rid] = next((m for m in MECHANISMS if m in by), "solver")
        for rid, by in told.items():
            out[rid] = by if by in MECHANISMS else "solver"
        return out

    def _decisions(self, run_ids):
        """run id -> the engine's decided_by, for the runs that have a `decision` row."""
        if not self.con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'decision'").fetchone():
            return {}
        out = {}
        for chunk in range(0, len(run_ids), 500):
            part = run_ids[chunk:chunk + 500]
            q = "SELECT run_id, decided_by FROM decision WHERE run_id IN (%s)" % ",".join("?" * len(part))
            out.update({rid: by for rid, by in self.con.execute(q, part) if by})
        return out

    def mechanisms(self, key):
        """Per deciding mechanism, over the majority result of each case: how many cases it decided,
        correctly and falsely; plus the correct proofs with and without replay and search."""
        mech = self.run_mechanisms(key)
        by_case = defaultdict(list)
        for rid, case, _e, res, _rt, _h in self.runs[key]:
            by_case[case].append((res, mech.get(rid)))
        counts = {m: {"decided": 0, "correct": 0, "false": 0} for m in MECHANISMS}
        for case, (exp, res, _n) in self.case_results(key).items():
            if res not in ("EQ", "NEQ"):
                continue
            ms = [m for r, m in by_case[case] if r == res and m]
            m = min(ms, key=MECHANISMS.index) if ms else "solver"
            counts[m]["decided"] += 1
            counts[m]["correct" if res == exp else "false"] += 1
        correct = sum(c["correct"] for c in counts.values())
        return {"by": counts, "correct_with": correct,
                "correct_without": sum(counts[m]["correct"] for m in PROOF_MECHANISMS)}

    def identical_partitions(self, key):
        """EQ partitions of the reported iterations decided without a query (both outputs the same
        term) and all EQ partitions, pooled over the runs."""
        ids = [rid for rid, *_ in self.runs[key]]
        same = total = 0
        for ident, n in self._reported_partitions(ids, "coalesce(p.decided_by, '') = 'identical', count(*)",
                                                  "p.result = 'EQ'", "GROUP BY 1"):
            total += n
            same += n if ident else 0
        return same, total

    def partitions(self, key):
        """Partition classes of the reported iteration of every run (UNREACHABLE excluded), pooled."""
        ids = [rid for rid, *_ in self.runs[key]]
        counts = defaultdict(int)
        for res, n in self._reported_partitions(ids, "p.result, count(*)", "p.result <> 'UNREACHABLE'",
                                                "GROUP BY p.result"):
            counts[res or "ERROR"] += n
        return counts

    def _reported_partitions(self, run_ids, select, where, group=""):
        """Rows of `SELECT select` over the partitions of the reported iteration of the given runs
        (filtered by `where`), queried 500 runs at a time (SQLite's limit on parameters)."""
        for chunk in range(0, len(run_ids), 500):
            part = run_ids[chunk:chunk + 500]
            q = ("SELECT %s FROM run r JOIN iteration i ON i.run_id = r.id AND i.iteration = r.result_iteration "
                 "JOIN partition p ON p.iteration_id = i.id WHERE %s AND r.id IN (%s) %s"
                 % (select, where, ",".join("?" * len(part)), group))
            yield from self.con.execute(q, part).fetchall()


__all__ = ["Study", "ReportError", "CLASSES", "UNDECIDED"]
