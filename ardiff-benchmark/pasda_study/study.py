"""run-study: the resumable, parallel sweep (case x tool x timeout x run) through GNU parallel."""
import argparse
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import time

from . import cases as casesm
from . import compile as compilem
from . import db as dbm
from .jobs import Job, JobLine, fmt_timeout

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENGINE = os.path.join(REPO, "build", "pasda-jvm")
TOOLS = ("pasda", "ardiff", "dse", "prv")
WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.py")


def csv_list(text):
    return [x.strip() for x in text.split(",") if x.strip()]


def build_parser(prog="run-study"):
    p = argparse.ArgumentParser(prog=prog, description="Run the ARDiff benchmark study with pasda-jvm "
                                "(resumable; parallel through GNU parallel).")
    p.add_argument("--benchmark", default=os.path.normpath(os.path.join(REPO, "..", "shared", "ardiff-benchmark")),
                   help="benchmark directory with cases.tsv and benchmarks/ (default: %(default)s)")
    p.add_argument("--cases", type=csv_list, help="comma-separated case names (default: the paper's 141)")
    p.add_argument("--all", action="store_true", help="all cases of cases.tsv (adds the 142nd)")
    p.add_argument("--tools", type=csv_list, default=["pasda"], help="comma-separated: pasda,ardiff,dse,prv")
    p.add_argument("--timeouts", type=csv_list, default=["10"], help="comma-separated seconds, e.g. 10,30,90")
    p.add_argument("--runs", type=int, default=1, help="runs per case, tool and timeout (paper: 5)")
    p.add_argument("--depth-limit", type=int, default=10)
    p.add_argument("--arith", choices=("math", "java"), default="math")
    p.add_argument("--deepen", choices=("on", "off"), default="off",
                   help="pasda-jvm --deepen: iterative deepening of the depth limit (default off: the paper's "
                        "single depth limit; keep one setting per database)")
    p.add_argument("--induction", choices=("on", "off"), default="off",
                   help="pasda-jvm --induction: coupled loops proved by inductive invariants before the "
                        "iterations (default off: the paper's)")
    p.add_argument("--deep-search", choices=("on", "off"), default="off",
                   help="pasda-jvm --deep-search: partitions cut by the depth limit searched past it by the "
                        "concrete product (default off: the paper's)")
    p.add_argument("--split-time", choices=("on", "off"), default="off",
                   help="pasda-jvm --split-time: the first iteration gets half the time when a whole loop is "
                        "abstracted later (default off: the paper's)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel runs (default: cores)")
    p.add_argument("--db", default=os.path.join(REPO, "build", "study.db"), help="results database (default: %(default)s)")
    p.add_argument("--pasda-jvm", default=ENGINE, help="engine binary (it runs the jobs and creates the "
                   "database: pasda-jvm --init-db)")
    p.add_argument("--work", default=os.path.join(REPO, "build", "study-work"), help="javac cache and job files")
    p.add_argument("--grace", type=float, default=5.0, help="outer limit = timeout + grace + 10%% of timeout")
    p.add_argument("--sshloginfile", help="GNU parallel --sshloginfile (distributed; see docs/distributed.md)")
    p.add_argument("--python", default=sys.executable or "python3", help="python3 used to run jobs")
    p.add_argument("--dry-run", action="store_true", help="print the pending jobs (lines of the job file) and exit")
    p.add_argument("--compile-only", action="store_true", help="compile the selected pairs into --work and exit")
    p.add_argument("--quiet", action="store_true", help="no per-run lines: only GNU parallel's progress bar "
                   "(on a terminal) and the summary")
    return p


def validate(a, parser):
    bad = [t for t in a.tools if t not in TOOLS]
    if bad or not a.tools:
        parser.error(f"--tools: unknown tool(s) {', '.join(bad) or '(none)'}; choose from {', '.join(TOOLS)}")
    try:
        a.timeouts = [float(t) for t in a.timeouts]
    except ValueError:
        parser.error("--timeouts: comma-separated numbers of seconds")
    if not a.timeouts or any(not (t > 0) for t in a.timeouts):
        parser.error("--timeouts: positive seconds")
    if a.runs < 1:
        parser.error("--runs: at least 1")
    if a.jobs < 1:
        parser.error("--jobs: at least 1")
    if a.depth_limit < 0:
        parser.error("--depth-limit: not negative")


def plan(selected, tools, timeouts, runs, depth, arith, done):
    """Pending jobs, run-major (run 1 of everything first)."""
    jobs = []
    for r in range(1, runs + 1):
        for t in timeouts:
            for tool in tools:
                for c in selected:
                    if done.get(dbm.config_key(c.name, tool, t, depth, arith), 0) < r:
                        jobs.append(Job(c.name, c.expected, c.method, c.old_class, c.new_class, tool, t, r, depth,
                                        arith))
    return jobs


class Results:
    """The job lines of the session as they come: a line per run on the stream (unless quiet),
    and the counts. On a terminal GNU parallel draws its progress bar (--bar) on the last line,
    which each of these lines clears first."""

    def __init__(self, total, stream=sys.stderr, quiet=False):
        self.total, self.lines = total, []
        self.stream, self.quiet = stream, quiet
        self.bar = stream.isatty()

    def add(self, line):
        self.lines.append(line)
        if not self.quiet:
            note = f" {line.note}" if line.note and line.status != "ok" else ""
            self.write(f"  [{len(self.lines)}/{self.total}] {line.case} {line.tool} {fmt_timeout(line.timeout)}s "
                       f"#{line.run}: {line.result} ({line.status}, {line.seconds:.1f} s){note}")

    def count(self, status=None, result=None):
        return sum(1 for x in self.lines if status in (None, x.status) and result in (None, x.result))

    def summary(self):
        return (f"[run-study] {len(self.lines)}/{self.total} runs done: ERROR {self.count(result='ERROR')}, "
                f"killed by the harness {self.count(status='killed')}, failed {self.count(status='failed')}")

    def write(self, msg):
        self.stream.write(("\r\033[K" if self.bar else "") + msg + "\n")
        self.stream.flush()


def _own_group_dying_with_parent():
    """preexec_fn of GNU parallel: its own process group, so that a Ctrl-C at the terminal reaches
    run-study only (which stops the sweep with one SIGINT to parallel), yet in the terminal's
    session, whose size its --bar reads from /dev/tty; it writes its bar from the background
    (SIGTTOU ignored, also under `stty tostop`), and gets SIGINT if run-study dies (Linux)."""
    os.setpgid(0, 0)
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGINT)  # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001 - best effort, not available everywhere
        pass


def _wait_for_workers(lock_path, limit_s=60.0):
    """Until no worker or engine of the sweep holds its shared lock (at most limit_s)."""
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT)
    try:
        deadline = time.time() + limit_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(fd, fcntl.LOCK_UN)
                return
            except OSError:
                if time.time() > deadline:
                    return
                time.sleep(0.02)
    finally:
        os.close(fd)


def check_tools(a):
    if not (os.path.isfile(a.pasda_jvm) and os.access(a.pasda_jvm, os.X_OK)):
        raise FileNotFoundError(f"{a.pasda_jvm}: pasda-jvm binary not found (build it, or pass --pasda-jvm)")
    if shutil.which("parallel") is None:
        raise FileNotFoundError("GNU parallel is not installed (Debian: apt-get install parallel)")


def pending(a, selected, log):
    """The jobs whose runs the database lacks; the engine creates (or checks) the database first."""
    a.db = os.path.abspath(a.db)
    os.makedirs(os.path.dirname(a.db) or ".", exist_ok=True)
    dbm.init_db(a.pasda_jvm, a.db)
    con = dbm.connect(a.db)
    try:
        done = dbm.done_counts(con)
    finally:
        con.close()
    jobs = plan(selected, a.tools, a.timeouts, a.runs, a.depth_limit, a.arith, done)
    total = len(selected) * len(a.tools) * len(a.timeouts) * a.runs
    log(f"[run-study] {len(selected)} cases x {len(a.tools)} tools x {len(a.timeouts)} timeouts x {a.runs} runs "
        f"= {total} runs; {total - len(jobs)} already in {a.db}; {len(jobs)} to run with {a.jobs} jobs")
    return jobs


def engine_version(engine):
    words = subprocess.run([engine, "--version"], capture_output=True, text=True).stdout.split()
    return words[-1] if words else ""


def write_jobfile(a, jobs):
    path = os.path.join(a.work, f"jobs-{os.getpid()}.tsv")
    with open(path, "w") as f:
        f.writelines(j.format() + "\n" for j in jobs)
    return path


def parallel_command(a, jobfile, classes, bar):
    """GNU parallel running the worker once per line of the job file (its columns: {1} ... {10})."""
    cmd = ["parallel", "--jobs", str(a.jobs), "--colsep", "\t", "--line-buffer",
           "--joblog", os.path.join(a.work, "parallel-joblog.txt"), "--arg-file", jobfile]
    if bar:
        cmd.append("--bar")
    if a.sshloginfile:
        cmd += ["--sshloginfile", a.sshloginfile]
    return cmd + [a.python, WORKER, "--db", a.db, "--pasda-jvm", os.path.abspath(a.pasda_jvm), "--classes", classes,
                  "--grace", str(a.grace), "--version-string", engine_version(a.pasda_jvm), "--deepen", a.deepen,
                  "--induction", a.induction, "--split-time", a.split_time, "--deep-search", a.deep_search,
                  *Job.placeholders()]


def sweep(cmd, results, lock_path):
    """Runs GNU parallel, its job lines into `results`; returns whether a signal stopped the sweep.

    Every worker, and the engine it runs, holds a shared lock on lock_path while it lives: after
    an interrupt the sweep returns only when none of them can still write a run. lock_path.stop is
    made when the sweep is being stopped, before waiting for the lock: a worker that takes the
    lock after that (started just before the interrupt) sees it and runs nothing."""
    open(lock_path, "a").close()
    stop_path = lock_path + ".stop"
    if os.path.exists(stop_path):
        os.unlink(stop_path)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, preexec_fn=_own_group_dying_with_parent,
                            env=dict(os.environ, PASDA_STUDY_LOCK=lock_path))
    stopping = []

    def on_signal(signum, _frame):
        stopping.append(signum)
        open(stop_path, "a").close()
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # GNU parallel: TERM to every running job, start no more

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        for raw in proc.stdout:
            line = JobLine.parse(raw)
            if line is not None and line.status != "interrupted":
                results.add(line)
        proc.wait()
        if stopping:
            _wait_for_workers(lock_path)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    return bool(stopping)


def run(a, log=lambda m: print(m, file=sys.stderr)):
    """Runs the sweep; returns an exit status (0 all recorded, 1 some failed, 130 interrupted)."""
    selected = casesm.select_cases(casesm.load_cases(a.benchmark), a.cases, a.all)
    if not selected:
        raise casesm.CaseError("no cases selected")
    if a.compile_only:
        root, n = compilem.compile_cases(a.benchmark, selected, os.path.abspath(a.work), log=log)
        log(f"[run-study] {len(selected)} pairs in {root} ({n} compiled now)")
        return 0
    check_tools(a)
    os.makedirs(a.work, exist_ok=True)
    jobs = pending(a, selected, log)
    if a.dry_run:
        for j in jobs:
            print(j.format())
        return 0
    if not jobs:
        return 0
    names = {j.case for j in jobs}
    classes, _ = compilem.compile_cases(a.benchmark, [c for c in selected if c.name in names],
                                        os.path.abspath(a.work), log=log)
    results = Results(len(jobs), quiet=a.quiet)
    jobfile = write_jobfile(a, jobs)
    try:
        stopped = sweep(parallel_command(a, jobfile, classes, results.bar), results,
                        os.path.join(a.work, "sweep.lock"))
    finally:
        os.unlink(jobfile)
    results.write(results.summary())
    if stopped:
        results.write(f"[run-study] interrupted: {len(results.lines)} runs recorded in this session; "
                      "start again with the same options to run the rest")
        return 130
    return 1 if results.count(status="failed") or len(results.lines) < results.total else 0


def main(argv=None):
    parser = build_parser()
    a = parser.parse_args(argv)
    validate(a, parser)
    try:
        return run(a)
    except (casesm.CaseError, compilem.CompileError, dbm.DbError, FileNotFoundError) as e:
        print(f"run-study: error: {e}", file=sys.stderr)
        return 2
