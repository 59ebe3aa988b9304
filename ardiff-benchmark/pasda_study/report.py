"""report: the paper's tables regenerated from a results database, beside the published ones."""
import argparse
import csv
import os
import sqlite3
import sys

from . import cases as casesm
from . import db as dbm
from . import paper, tables
from .analysis import ReportError, Study
from .study import REPO


def build_parser():
    p = argparse.ArgumentParser(prog="report", description="Regenerate the PASDA paper's tables from a results db.")
    p.add_argument("--db", required=True, help="results database (pasda-jvm --db / run-study)")
    p.add_argument("--out", help="also write <table>.md, <table>.csv and PNG plots to this directory")
    p.add_argument("--benchmark", default=os.path.normpath(os.path.join(REPO, "..", "shared", "ardiff-benchmark")),
                   help="benchmark directory (for the paper's case list)")
    p.add_argument("--all", action="store_true", help="count every case in the db, not only the paper's 141")
    p.add_argument("--depth-limit", type=int, help="only runs with this depth limit")
    p.add_argument("--arith", choices=("math", "java"), help="only runs with this arithmetic")
    return p


def load_study(db_path, benchmark=None, include_all=False, depth=None, arith=None):
    if not os.path.isfile(db_path):
        raise ReportError(f"{db_path}: no such file")
    con = dbm.connect(db_path)
    dbm.check_readable(con, db_path)
    wanted = None
    if not include_all:
        wanted = {c.name for c in casesm.load_cases(benchmark) if c.in_paper}
    return Study(con, wanted, depth, arith)


def render(st, tabs, db_path, scope):
    head = [f"# pasda-jvm study report", "",
            f"Database: `{db_path}`; cases: {scope}; depth limit {st.depth}, arithmetic {st.arith}. "
            "Several runs of one configuration are reduced by majority (ties: EQ, then NEQ). "
            "`_paper` columns are the published figures (`-`: not published for that setting).", "", ""]
    return "\n".join(head) + "\n".join(tables.markdown(t) + "\n" for t in tabs)


def write_csv(t, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(t.headers)
        w.writerows(t.rows)


def plot(st, out_dir):
    """PNG plots; returns the written files (none without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report: matplotlib not available, no plots (use /usr/bin/python3)", file=sys.stderr)
        return []
    files = []
    colours = {"pasda": "tab:blue", "ardiff": "tab:orange", "dse": "tab:green", "prv": "tab:red"}
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for tool in paper.TOOLS:
        ax.plot(paper.TIMEOUTS, paper.CORRECT_PROOFS[tool], "--", color=colours[tool], alpha=0.6,
                label=f"{paper.TOOL_NAMES[tool]} (paper)")
    for tool in st.tools():
        ts = st.timeouts(tool)
        ys = [st.proofs((tool, t))["correct"] for t in ts]
        ax.plot(ts, ys, "o-", color=colours.get(tool, "black"), label=f"{paper.TOOL_NAMES.get(tool, tool)} (ours)")
    ax.set_xscale("log")
    ax.set_xlabel("timeout (s)")
    ax.set_ylabel("correct proofs (of 141)")
    ax.set_title("Correct proofs against timeout")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    path = os.path.join(out_dir, "correct_proofs.png")
    fig.savefig(path, dpi=120)
    plt.close(fig)
    files.append(path)

    keys = st.configs()
    if keys:
        fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(keys) + 2), 4.5))
        data = [st.runtimes(k) for k in keys]
        bp = ax.boxplot(data, patch_artist=True, showfliers=True)
        for patch, (tool, _t) in zip(bp["boxes"], keys):
            patch.set_facecolor(colours.get(tool, "grey"))
            patch.set_alpha(0.6)
        ax.set_xticks(range(1, len(keys) + 1))
        ax.set_xticklabels([f"{paper.TOOL_NAMES.get(t, t)}\n{tables._secs(to)} s" for t, to in keys], fontsize=8)
        ax.set_yscale("symlog", linthresh=1.0)
        ax.set_ylabel("runtime per run (s)")
        ax.set_title("Runtime distribution per tool and timeout")
        ax.grid(True, axis="y", alpha=0.3)
        fig.tight_layout()
        path = os.path.join(out_dir, "runtime.png")
        fig.savefig(path, dpi=120)
        plt.close(fig)
        files.append(path)
    return files


def main(argv=None):
    a = build_parser().parse_args(argv)
    try:
        st = load_study(a.db, a.benchmark, a.all, a.depth_limit, a.arith)
        tabs = tables.all_tables(st)
    except (ReportError, casesm.CaseError, dbm.DbError) as e:
        print(f"report: error: {e}", file=sys.stderr)
        return 2
    except sqlite3.Error as e:  # a database this harness cannot read (e.g. of a later schema)
        print(f"report: error: {a.db}: {e}", file=sys.stderr)
        return 2
    scope = "all cases in the database" if a.all else "the paper's 141"
    text = render(st, tabs, a.db, scope)
    sys.stdout.write(text)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "report.md"), "w") as f:
            f.write(text)
        for t in tabs:
            with open(os.path.join(a.out, t.name + ".md"), "w") as f:
                f.write(tables.markdown(t))
            write_csv(t, os.path.join(a.out, t.name + ".csv"))
        for p in plot(st, a.out):
            print(f"report: wrote {p}", file=sys.stderr)
    return 0
