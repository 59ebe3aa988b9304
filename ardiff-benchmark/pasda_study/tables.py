"""The report's tables: each a title, column headers and rows (ours beside the paper's)."""
from dataclasses import dataclass, field

from . import paper
from .analysis import MECHANISMS
from .majority import UNDECIDED


@dataclass
class Table:
    name: str          # file stem, e.g. table5
    title: str
    headers: list
    rows: list = field(default_factory=list)
    note: str = ""


def _p(v):
    return "-" if v is None else v


def _tool(t):
    return paper.TOOL_NAMES.get(t, t)


def _secs(t):
    return int(t) if float(t).is_integer() else t


def _pct(n, d):
    return None if not d else round(100.0 * n / d, 1)


def proofs_table(st):
    t = Table("proofs", "Correct and false proofs (majority per case)",
              ["tool", "timeout_s", "cases", "correct", "correct_paper", "correct_pct", "false", "false_paper",
               "correct_EQ", "correct_NEQ", "correct_truth", "false_truth"])
    model = st.arith or "math"
    for tool, to in st.configs():
        pr = st.proofs((tool, to))
        tr = st.proofs_truth((tool, to))
        t.rows.append([_tool(tool), _secs(to), pr["cases"], pr["correct"],
                       _p(paper.at(paper.CORRECT_PROOFS.get(tool, (None,) * 6), to)),
                       _pct(pr["correct"], pr["cases"]), pr["false"],
                       _p(paper.at(paper.FALSE_PROOFS.get(tool, (None,) * 6), to)), pr["correct_eq"], pr["correct_neq"],
                       tr["correct"], tr["false"]])
    t.note = (f"Paper: 141 cases; no tool produced a false proof. correct/false count against the benchmark's "
              f"(the paper's) labels; correct_truth/false_truth against the truth of the {model} model, the labels "
              f"with pasda_study/corrected_labels.tsv applied (cases that differ in a JVM: witnesses there).")
    return t


def mechanisms_table(st):
    t = Table("mechanisms", "Pairs decided per mechanism (majority per case)",
              ["tool", "timeout_s", *MECHANISMS, "correct_with", "correct_without", *("false_" + m for m in MECHANISMS)])
    for tool, to in st.configs():
        m = st.mechanisms((tool, to))
        by = m["by"]
        t.rows.append([_tool(tool), _secs(to), *(by[k]["decided"] for k in MECHANISMS), m["correct_with"],
                       m["correct_without"], *(by[k]["false"] for k in MECHANISMS)])
    t.note = ("solver: EQ, or NEQ proved by the Neq-query without abstraction; math: NEQ proved by the Java "
              "Neq-query with the inputs pinned to a model of the math-model query (--arith java); induction: EQ "
              "with the loops of the two versions coupled by an inductive invariant (--induction); deepening: "
              "decided in a round deeper than the first (--deepen); replay: NEQ resting on a solver "
              "witness of a MAYBE_NEQ partition that replayed to a difference; search: NEQ resting on a witness "
              "the search found for an undecided partition. correct_without counts the proofs (solver, math, "
              "induction, deepening) only: the pairs replay and search decided would otherwise have stayed "
              "undecided in that run. Not in the paper (its future work).")
    return t


def _class_table(st, name, title, columns, published):
    headers = ["tool", "expected", "timeout_s", "cases"]
    for c in columns:
        headers += [c, c + "_paper"]
    t = Table(name, title, headers)
    for tool, to in st.configs():
        counts = st.class_counts((tool, to))
        for exp in ("EQ", "NEQ"):
            row = [_tool(tool), exp, _secs(to), counts[(exp, "cases")]]
            pub = published.get((tool, exp), {})
            for c in columns:
                row += [counts[(exp, c)], _p(paper.at(pub[c], to)) if c in pub else "-"]
            t.rows.append(row)
    return t


def table5(st):
    t = _class_table(st, "table5", "Table 5: program-level EQ / NEQ / undecided",
                     ["EQ", "NEQ", "undecided"], paper.TABLE5)
    t.note = "undecided = " + " + ".join(UNDECIDED) + "."
    return t


def table6(st):
    t = _class_table(st, "table6", "Table 6: DEPTH_LIMITED / TIMEOUT / ERROR",
                     ["DEPTH_LIMITED", "TIMEOUT", "ERROR"], paper.TABLE6)
    t.note = "The paper's ERRORs were all out-of-memory errors."
    return t


def table7(st):
    return _class_table(st, "table7", "Table 7: best-effort classes of the undecided cases",
                        ["MAYBE_EQ", "MAYBE_NEQ", "UNKNOWN"], paper.TABLE7)


def best_effort_table(st):
    t = Table("best_effort", "Best-effort accuracy (a MAYBE class that agrees with the ground truth)",
              ["tool", "timeout_s", "MAYBE_EQ_correct", "MAYBE_EQ_total", "MAYBE_EQ_pct",
               "MAYBE_NEQ_correct", "MAYBE_NEQ_total", "MAYBE_NEQ_pct"])
    for tool, to in st.configs():
        be = st.best_effort((tool, to))
        (ec, et), (nc, nt) = be["MAYBE_EQ"], be["MAYBE_NEQ"]
        t.rows.append([_tool(tool), _secs(to), ec, et, _p(_pct(ec, et)), nc, nt, _p(_pct(nc, nt))])
    t.note = "Paper: " + paper.BEST_EFFORT_TEXT + "."
    return t


def table9(st):
    headers = ["tool", "timeout_s", "runs", "partitions", "per_run", "partitions_paper", "per_run_paper"]
    for c in paper.TABLE9_COLUMNS:
        headers += [c + "_pct", c + "_pct_paper"]
    headers += ["other_pct"]
    t = Table("table9", "Table 9: partition-level results (reported iteration of every run, pooled)", headers)
    for tool, to in st.configs():
        counts = st.partitions((tool, to))
        total = sum(counts.values())
        runs = len(st.runtimes((tool, to)))
        pub = None
        for (pt, pto), v in paper.TABLE9.items():
            if pt == tool and abs(pto - to) < 1e-9:
                pub = v
        row = [_tool(tool), _secs(to), runs, total, round(total / runs, 2) if runs else "-",
               pub[0] if pub else "-", round(pub[0] / (141 * paper.RUNS), 2) if pub else "-"]
        for i, c in enumerate(paper.TABLE9_COLUMNS):
            row += [_p(_pct(counts.get(c, 0), total)), _p(pub[1][i]) if pub else "-"]
        other = total - sum(counts.get(c, 0) for c in paper.TABLE9_COLUMNS)
        row.append(_p(_pct(other, total)))
        t.rows.append(row)
    t.note = ("UNREACHABLE partitions excluded as in the paper; other = partitions of any other class "
              "(e.g. TIMEOUT, ERROR). Paper: 5 runs x 141 cases pooled; per_run_paper = partitions / 705.")
    return t


def table10(st):
    headers = ["tool", "timeout_s", "runs_with_steps"]
    for _n, name in paper.STEPS:
        headers += [name, name + "_paper"]
    headers += ["sum"]
    t = Table("table10", "Table 10: mean runtime per processing step (s)", headers)
    for tool, to in st.configs():
        means, n = st.step_means((tool, to))
        row = [_tool(tool), _secs(to), n]
        for num, _name in paper.STEPS:
            v = means.get(num)
            row += [round(v, 3) if v is not None else "-",
                    _p(paper.at(paper.TABLE10[num], to)) if tool == "pasda" else "-"]
        row.append(round(sum(means.values()), 3) if means else "-")
        t.rows.append(row)
    t.note = "The paper reports steps for PASDA only. Runs killed by the harness have no step times."
    return t


def runtime_table(st):
    t = Table("runtime", "Runtime per run (s)",
              ["tool", "timeout_s", "runs", "median", "mean", "max", "killed_by_harness"])
    for tool, to in st.configs():
        rs = st.runtime_stats((tool, to))
        rts = st.runtimes((tool, to))
        t.rows.append([_tool(tool), _secs(to), rs["runs"], round(rs["median"], 3), round(rs["mean"], 3),
                       round(max(rts), 3), rs["killed"]])
    t.note = "Paper: " + paper.RUNTIME_TEXT + "."
    return t


def all_tables(st):
    return [proofs_table(st), mechanisms_table(st), table5(st), table6(st), table7(st), best_effort_table(st), table9(st),
            table10(st), runtime_table(st)]


def markdown(t):
    lines = [f"### {t.title}", "", "| " + " | ".join(t.headers) + " |",
             "|" + "|".join("---" for _ in t.headers) + "|"]
    for r in t.rows:
        lines.append("| " + " | ".join(str(v) for v in r) + " |")
    if not t.rows:
        lines.append("| " + " | ".join("" for _ in t.headers) + " |")
    if t.note:
        lines += ["", t.note]
    return "\n".join(lines) + "\n"
