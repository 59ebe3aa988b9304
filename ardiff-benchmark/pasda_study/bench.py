"""bench: the 141 pairs once at one timeout, summarised beside the paper (issue 4's benchmark)."""
import argparse
import os
import sys
import time

from . import paper, study
from . import truth as truthm
from .analysis import MECHANISMS, ReportError
from .majority import CLASSES
from .report import load_study


def build_parser():
    p = argparse.ArgumentParser(prog="bench", description="Run the paper's 141 pairs once with one tool and "
                                "timeout; print correct/false proofs, class counts and runtimes beside the paper.")
    p.add_argument("--timeout", type=float, default=10.0)
    p.add_argument("--mode", choices=study.TOOLS, default="pasda", help="tool (pasda-jvm --mode)")
    p.add_argument("--db", help="results database (default: a new file under --work; an existing file resumes)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--pasda-jvm", default=study.ENGINE)
    p.add_argument("--benchmark", default=os.path.normpath(os.path.join(study.REPO, "..", "shared", "ardiff-benchmark")))
    p.add_argument("--work", default=os.path.join(study.REPO, "build", "study-work"))
    p.add_argument("--cases", help="comma-separated subset (default: the paper's 141)")
    p.add_argument("--depth-limit", type=int, default=10)
    p.add_argument("--arith", choices=("math", "java"), default="math")
    p.add_argument("--deepen", choices=("on", "off"), default="on",
                   help="pasda-jvm --deepen: iterative deepening of the depth limit (default on, as pasda-jvm; "
                        "off with --paper)")
    p.add_argument("--induction", choices=("on", "off"), default="on",
                   help="pasda-jvm --induction: coupled loops proved by induction (default on, as pasda-jvm)")
    p.add_argument("--split-time", choices=("on", "off"), default="on",
                   help="pasda-jvm --split-time (default on, as pasda-jvm)")
    p.add_argument("--deep-search", choices=("on", "off"), default="on",
                   help="pasda-jvm --deep-search (default on, as pasda-jvm)")
    p.add_argument("--paper", action="store_true",
                   help="the paper's settings: --deepen, --induction, --split-time and --deep-search off "
                        "(the replication's figures)")
    p.add_argument("--beyond", action="store_true",
                   help="the engine beyond the paper (the default; kept for old command lines)")
    return p


def _fmt(v, nd=2):
    return "-" if v is None else (f"{v:.{nd}f}" if isinstance(v, float) else str(v))


def summary(st, tool, timeout):
    """Markdown lines for one tool and timeout; returns (lines, false proofs against the truth of the
    runs' arithmetic model: the paper's labels with pasda_study/corrected_labels.tsv)."""
    key = (tool, float(timeout))
    if key not in st.runs:
        raise ReportError(f"no runs of {tool} at {timeout:g} s in the database")
    pr = st.proofs(key)
    counts = st.class_counts(key)
    rs = st.runtime_stats(key)
    steps, n_steps = st.step_means(key)
    name = paper.TOOL_NAMES[tool]
    pc = paper.at(paper.CORRECT_PROOFS[tool], timeout)
    out = [f"## bench: {name}, timeout {timeout:g} s, {pr['cases']} cases", "",
           "| figure | ours | paper |", "|---|---|---|",
           f"| correct proofs | {pr['correct']} ({100.0 * pr['correct'] / max(1, pr['cases']):.0f}%) | {_fmt(pc)} |",
           f"| false proofs | {pr['false']} | {_fmt(paper.at(paper.FALSE_PROOFS[tool], timeout))} |"]
    mech = st.mechanisms(key)
    for m in MECHANISMS:
        c = mech["by"][m]
        out.append(f"| pairs decided by {m} (correct / false) | {c['decided']} ({c['correct']} / {c['false']}) | - |")
    out.append(f"| correct proofs without replay and search | {mech['correct_without']} | - |")
    same, eq_parts = st.identical_partitions(key)
    out.append(f"| EQ partitions without a query (identical outputs) | {same} of {eq_parts} | - |")
    tr = st.proofs_truth(key)
    fixed = len(truthm.corrected_cases(tr["model"], st.corrections))
    out.append(f"| correct proofs against the {tr['model']} truth ({fixed} labels corrected) | {tr['correct']} "
               f"({100.0 * tr['correct'] / max(1, pr['cases']):.0f}%) | - |")
    out.append(f"| false proofs against the {tr['model']} truth | {tr['false']}"
               f"{' (' + ', '.join(tr['false_cases']) + ')' if tr['false_cases'] else ''} | - |")
    for exp in ("EQ", "NEQ"):
        pub = {**paper.TABLE5[(tool, exp)], **paper.TABLE6[(tool, exp)], **paper.TABLE7[(tool, exp)]}
        for cls in CLASSES:
            ours = counts[(exp, cls)]
            theirs = paper.at(pub[cls], timeout) if cls in pub else None
            if ours or theirs:
                out.append(f"| {cls} on {exp} cases | {ours} | {_fmt(theirs)} |")
    out.append(f"| median runtime (s) | {_fmt(rs['median'])} | {paper.MEDIAN_RANGE_S[0]}-{paper.MEDIAN_RANGE_S[1]} (all tools/timeouts) |")
    mean_paper = paper.MEAN_AT_10_S if abs(timeout - 10) < 1e-9 else None
    out.append(f"| mean runtime (s) | {_fmt(rs['mean'])} | {_fmt(mean_paper, 1) if mean_paper else '-'} |")
    out.append(f"| runs killed by the harness | {rs['killed']} | - |")
    for num, sname in paper.STEPS:
        theirs = paper.at(paper.TABLE10[num], timeout) if tool == "pasda" else None
        out.append(f"| mean {sname} (s) | {_fmt(steps.get(num), 3)} | {_fmt(theirs, 1)} |")
    out.append("")
    out.append(f"(step means over {n_steps} runs that recorded steps; paper step times are PASDA's only)")
    return out, tr["false"]


def parse_args(argv=None):
    """The command line, with --paper applied: the four switches of the mechanisms beyond the
    paper are "on" (pasda-jvm's defaults) unless --paper or their own option turns them off."""
    a = build_parser().parse_args(argv)
    if a.paper and a.beyond:
        raise SystemExit("bench: --paper and --beyond contradict each other")
    if a.paper:
        a.deepen = a.induction = a.split_time = a.deep_search = "off"
    return a


def main(argv=None):
    a = parse_args(argv)
    if not a.db:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        tag = "".join(f"-{n}" for n, v in (("deepen", a.deepen), ("induction", a.induction), ("split", a.split_time),
                                          ("deep", a.deep_search)) if v == "on")
        a.db = os.path.join(a.work, "bench", f"{a.mode}-{a.timeout:g}s{tag}-{stamp}.db")
    run_args = ["--benchmark", a.benchmark, "--tools", a.mode, "--timeouts", f"{a.timeout:g}", "--runs", "1",
                "--depth-limit", str(a.depth_limit), "--arith", a.arith, "--deepen", a.deepen,
                "--induction", a.induction, "--split-time", a.split_time, "--deep-search", a.deep_search,
                "--jobs", str(a.jobs), "--db", a.db,
                "--pasda-jvm", a.pasda_jvm, "--work", a.work, "--quiet"]
    if a.cases:
        run_args += ["--cases", a.cases]
    rc = study.main(run_args)
    if rc not in (0, 1):
        return rc
    try:
        st = load_study(a.db, a.benchmark, include_all=bool(a.cases), depth=a.depth_limit, arith=a.arith)
        lines, false = summary(st, a.mode, a.timeout)
    except Exception as e:  # noqa: BLE001
        print(f"bench: error: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    print(f"\nresults: {a.db}")
    return 1 if false else rc
