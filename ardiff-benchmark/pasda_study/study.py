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
from .worker import fmt_timeout

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel runs (default: cores)")
    p.add_argument("--db", default=os.path.join(REPO, "build", "study.db"), help="results database (default: %(default)s)")
    p.add_argument("--pasda-jvm", default=os.path.join(REPO, "build", "pasda-jvm"), help="engine binary")
    p.add_argument("--work", default=os.path.join(REPO, "build", "study-work"), help="javac cache and job files")
    p.add_argument("--grace", type=float, default=5.0, help="outer limit = timeout + grace + 10%% of timeout")
    p.add_argument("--sshloginfile", help="GNU parallel --sshloginfile (distributed; see docs/distributed.md)")
    p.add_argument("--python", default=sys.executable or "python3", help="python3 used to run jobs")
    p.add_argument("--dry-run", action="store_true", help="print the pending jobs and exit")
    p.add_argument("--compile-only", action="store_true", help="compile the selected pairs into --work and exit")
    p.add_argument("--quiet", action="store_true", help="no per-run lines, progress only")
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
    """Pending jobs, run-major (run 1 of everything first): a list of (case, tool, timeout, run)."""
    jobs = []
    for r in range(1, runs + 1):
        for t in timeouts:
            for tool in tools:
                for c in selected:
                    if done.get(dbm.config_key(c.name, tool, t, depth, arith), 0) < r:
                        jobs.append((c, tool, t, r))
    return jobs


def hms(s):
    s = int(max(0, s))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


class Progress:
    def __init__(self, total, already, stream=sys.stderr, quiet=False):
        self.total, self.already, self.done = total, already, 0
        self.errors = self.killed = self.failed = 0
        self.start = time.time()
        self.stream, self.quiet = stream, quiet
        self.tty = stream.isatty()
        self.last_print = 0.0

    def line(self):
        el = time.time() - self.start
        eta = "?" if self.done == 0 else hms(el / self.done * (self.total - self.done))
        pct = 100.0 * self.done / self.total if self.total else 100.0
        return (f"[run-study] {self.done}/{self.total} ({pct:.0f}%) | ERROR {self.errors} killed {self.killed} "
                f"failed {self.failed} | elapsed {hms(el)} | ETA {eta}")

    def update(self, fields):
        # fields: case tool timeout run result status seconds note
        self.done += 1
        _, case, tool, t, run, result, status, secs = fields[:8]
        note = fields[8] if len(fields) > 8 else ""
        if status == "killed":
            self.killed += 1
        elif status in ("failed", "interrupted"):
            self.failed += 1
        if result == "ERROR":
            self.errors += 1
        if not self.quiet:
            msg = f"  {case} {tool} {t}s #{run}: {result} ({status}, {float(secs):.1f} s){' ' + note if note and status != 'ok' else ''}"
            self.emit(msg, newline=True)
        self.show(force=self.done == self.total)

    def show(self, force=False):
        now = time.time()
        if self.tty:
            self.stream.write("\r\033[K" + self.line())
            if force:
                self.stream.write("\n")
        elif force or now - self.last_print >= 10:
            self.stream.write(self.line() + "\n")
            self.last_print = now
        self.stream.flush()

    def emit(self, msg, newline=True):
        if self.tty:
            self.stream.write("\r\033[K")
        self.stream.write(msg + ("\n" if newline else ""))


def _die_with_parent():
    """preexec_fn: GNU parallel gets SIGINT if run-study dies (Linux), and its own session."""
    os.setsid()
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


def run(a, log=lambda m: print(m, file=sys.stderr)):
    """Runs the sweep; returns an exit status (0 all recorded, 1 some failed, 130 interrupted)."""
    all_cases = casesm.load_cases(a.benchmark)
    selected = casesm.select_cases(all_cases, a.cases, a.all)
    if not selected:
        raise casesm.CaseError("no cases selected")
    if a.compile_only:
        root, n = compilem.compile_cases(a.benchmark, selected, os.path.abspath(a.work), log=log)
        log(f"[run-study] {len(selected)} pairs in {root} ({n} compiled now)")
        return 0
    if not (os.path.isfile(a.pasda_jvm) and os.access(a.pasda_jvm, os.X_OK)):
        raise FileNotFoundError(f"{a.pasda_jvm}: pasda-jvm binary not found (build it, or pass --pasda-jvm)")
    if shutil.which("parallel") is None:
        raise FileNotFoundError("GNU parallel is not installed (Debian: apt-get install parallel)")
    a.db = os.path.abspath(a.db)
    os.makedirs(os.path.dirname(a.db) or ".", exist_ok=True)
    os.makedirs(a.work, exist_ok=True)
    con = dbm.connect(a.db)
    dbm.check_version(con, a.db)
    dbm.ensure_schema(con)
    done = dbm.done_counts(con)
    con.close()

    jobs = plan(selected, a.tools, a.timeouts, a.runs, a.depth_limit, a.arith, done)
    total_all = len(selected) * len(a.tools) * len(a.timeouts) * a.runs
    log(f"[run-study] {len(selected)} cases x {len(a.tools)} tools x {len(a.timeouts)} timeouts x {a.runs} runs "
        f"= {total_all} runs; {total_all - len(jobs)} already in {a.db}; {len(jobs)} to run with {a.jobs} jobs")
    if a.dry_run:
        for c, tool, t, r in jobs:
            print(f"{c.name}\t{tool}\t{fmt_timeout(t)}\t{r}")
        return 0
    if not jobs:
        return 0
    classes, n = compilem.compile_cases(a.benchmark, sorted({c for c, *_ in jobs}, key=lambda c: c.name),
                                        os.path.abspath(a.work), log=log)
    version = subprocess.run([a.pasda_jvm, "--version"], capture_output=True, text=True).stdout.strip()
    version = version.split()[-1] if version else ""

    jobfile = os.path.join(a.work, f"jobs-{os.getpid()}.tsv")
    with open(jobfile, "w") as f:
        for c, tool, t, r in jobs:
            f.write("\t".join([c.name, c.expected, c.method, c.old_class, c.new_class, tool, fmt_timeout(t),
                               str(r), str(a.depth_limit), a.arith]) + "\n")
    cmd = ["parallel", "--jobs", str(a.jobs), "--colsep", "\t", "--line-buffer",
           "--joblog", os.path.join(a.work, "parallel-joblog.txt"), "--arg-file", jobfile]
    if a.sshloginfile:
        cmd += ["--sshloginfile", a.sshloginfile]
    cmd += [a.python, WORKER, "--db", a.db, "--pasda-jvm", os.path.abspath(a.pasda_jvm), "--classes", classes,
            "--grace", str(a.grace), "--version-string", version, "--deepen", a.deepen,
            "{1}", "{2}", "{3}", "{4}", "{5}", "{6}", "{7}", "{8}", "{9}", "{10}"]

    prog = Progress(len(jobs), total_all - len(jobs), quiet=a.quiet)
    # Every worker, and the engine it runs, holds a shared lock on this file while it lives: after
    # an interrupt the sweep returns only when none of them can still write a run.
    lock_path = os.path.join(a.work, "sweep.lock")
    env = dict(os.environ, PASDA_STUDY_LOCK=lock_path)
    open(lock_path, "a").close()
    # Made when the sweep is being stopped, before waiting for the lock: a worker that takes the
    # lock after that (started just before the interrupt) sees it and runs nothing.
    stop_path = lock_path + ".stop"
    if os.path.exists(stop_path):
        os.unlink(stop_path)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, preexec_fn=_die_with_parent, env=env)
    stopping = []

    def on_signal(signum, _frame):
        stopping.append(signum)
        open(stop_path, "a").close()
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # GNU parallel: TERM to every running job, start no more

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        prog.show()
        for raw in proc.stdout:
            fields = raw.rstrip("\n").split("\t")
            if len(fields) >= 8 and fields[0] == "JOB":
                if fields[6] == "interrupted":
                    continue
                prog.update(fields)
        proc.wait()
        if stopping:
            _wait_for_workers(lock_path)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        try:
            os.unlink(jobfile)
        except OSError:
            pass
    if stopping:
        prog.emit(f"\n[run-study] interrupted: {prog.done} runs recorded in this session; "
                  "start again with the same options to run the rest")
        return 130
    if prog.done < prog.total:
        prog.show(force=True)
    return 1 if prog.failed or prog.done < prog.total else 0


def main(argv=None):
    parser = build_parser()
    a = parser.parse_args(argv)
    validate(a, parser)
    try:
        return run(a)
    except (casesm.CaseError, compilem.CompileError, dbm.DbError, FileNotFoundError) as e:
        print(f"run-study: error: {e}", file=sys.stderr)
        return 2
