"""One run of the sweep: pasda-jvm bounded from outside by `timeout`, recorded in the database.

Invoked by GNU parallel (one process per job, the job's columns as positional arguments:
jobs.Job). Prints exactly one line to stdout, a jobs.JobLine:
    JOB <TAB> case <TAB> tool <TAB> timeout <TAB> run <TAB> result <TAB> status <TAB> seconds <TAB> note
status is `ok` (the engine recorded the run), `killed` (the harness killed it and recorded
TIMEOUT), `died` (the engine exited without recording; the harness recorded ERROR) or
`failed` (nothing could be recorded; the job will run again on resume).
On SIGTERM/SIGINT (Ctrl-C of run-study) the run is stopped and nothing is recorded
(`interrupted`), so that a resumed sweep runs it again.
"""
import argparse
import fcntl
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from pasda_study import db as dbm  # noqa: E402
    from pasda_study.cases import Case  # noqa: E402
    from pasda_study.jobs import Job, JobLine, fmt_timeout  # noqa: E402
else:
    from . import db as dbm
    from .cases import Case
    from .jobs import Job, JobLine, fmt_timeout

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def outer_limit(timeout, grace_abs, grace_rel):
    """Seconds after which the harness stops a run: its timeout plus a grace."""
    return timeout + grace_abs + grace_rel * timeout


def parse_args(argv):
    p = argparse.ArgumentParser(prog="pasda_study.worker")
    p.add_argument("--db", required=True)
    p.add_argument("--pasda-jvm", required=True)
    p.add_argument("--classes", required=True, help="class-path root of the compiled pairs")
    p.add_argument("--grace", type=float, default=5.0)
    p.add_argument("--grace-rel", type=float, default=0.1)
    p.add_argument("--kill-after", type=float, default=5.0)
    p.add_argument("--version-string", default="")
    p.add_argument("--deepen", choices=("on", "off"), default="off", help="pasda-jvm --deepen (default off)")
    p.add_argument("--induction", choices=("on", "off"), default="off", help="pasda-jvm --induction (default off)")
    p.add_argument("--split-time", choices=("on", "off"), default="off", help="pasda-jvm --split-time (default off)")
    p.add_argument("--deep-search", choices=("on", "off"), default="off", help="pasda-jvm --deep-search (default off)")
    p.add_argument("--extra", action="append", default=[], help="extra pasda-jvm argument (repeatable)")
    Job.add_arguments(p)
    return p.parse_args(argv)


def emit(job, result, status, seconds, note=""):
    """Prints the job's line; returns the worker's exit status (1 when nothing was recorded)."""
    print(JobLine.of(job, result, status, seconds, note).format(), flush=True)
    return 0 if status in ("ok", "killed", "died") else 1


def engine_command(a, job, limit):
    return ["timeout", f"--kill-after={a.kill_after:g}", f"{limit:g}", a.pasda_jvm,
            "--mode", job.tool, "--timeout", fmt_timeout(job.timeout), "--depth-limit", str(job.depth),
            "--arith", job.arith, "--deepen", a.deepen, "--induction", a.induction, "--split-time", a.split_time, "--deep-search", a.deep_search,
            "--method", job.method, "--db", a.db,
            "--benchmark", job.case, "--expected", job.expected, "-q", *a.extra,
            Case.class_file(a.classes, job.old_class), Case.class_file(a.classes, job.new_class)]


def _terminate_with_parent():
    """preexec_fn: the engine's `timeout` gets SIGTERM (and forwards it) if this worker dies, e.g.
    killed by GNU parallel's termination sequence, so that no orphaned run writes afterwards."""
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001 - best effort, not available everywhere
        pass


def _own_group_terminated_with_parent():
    """preexec_fn of the engine's `timeout`: its own process group (killed as one on an
    interrupt), and SIGTERM if this worker dies."""
    os.setpgid(0, 0)
    _terminate_with_parent()


def hold_sweep_lock():
    """The sweep's lock (run-study waits for it after an interrupt), held shared by this worker
    and, through the inherited descriptor, by the engine until both are gone. Returns (the
    descriptors to pass on, whether the sweep is being stopped); ((), False) outside a sweep."""
    path = os.environ.get("PASDA_STUDY_LOCK")
    if not path:
        return (), False
    fds = ()
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT)
        fcntl.flock(fd, fcntl.LOCK_SH)
        fds = (fd,)
    except OSError:
        pass
    return fds, os.path.exists(path + ".stop")


@dataclass
class EngineRun:
    returncode: int
    stderr: str
    started: float     # epoch seconds
    elapsed: float
    signals: list      # stop signals this worker received while the engine ran


def run_engine(cmd, lock_fds):
    """Runs cmd (timeout and the engine) to its end. A stop signal to this worker kills the whole
    process group of `timeout` at once, so that the engine cannot record a run after the sweep
    stopped."""
    child, received = None, []

    def stop_child():
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            try:
                child.kill()
            except ProcessLookupError:
                pass

    def on_signal(signum, _frame):
        received.append(signum)
        if child is not None and child.poll() is None:
            stop_child()

    for s in STOP_SIGNALS:
        signal.signal(s, on_signal)
    started = time.time()
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=_own_group_terminated_with_parent, pass_fds=lock_fds)
    if received:  # the signal came before the child existed: it must not run to the end
        stop_child()
    _out, err = child.communicate()
    return EngineRun(child.returncode, err or "", started, time.time() - started, received)


def stopped_from_outside(run, limit):
    """The signal that stopped the sweep, or None. Besides a signal to this worker, an engine that
    ended by a stop signal before its limit that this worker did not send means that the sweep is
    being stopped (GNU parallel signalled the job's process group, or the job's shell died first)."""
    if run.signals:
        return run.signals[0]
    if -run.returncode in STOP_SIGNALS and run.elapsed < limit - 0.05:
        return -run.returncode
    return None


def record_missing_run(a, job, con, run, limit):
    """Records the run the engine did not: TIMEOUT when `timeout` killed it at the limit, else ERROR.
    The database gets the engine's schema first (pasda-jvm --init-db) when it has none yet."""
    dbm.init_db(a.pasda_jvm, a.db)
    common = dict(runtime=run.elapsed, started_epoch=run.started, version=a.version_string or None,
                  old_path=Case.class_file(a.classes, job.old_class),
                  new_path=Case.class_file(a.classes, job.new_class))
    # timeout(1) exits 124 after SIGTERM; after --kill-after it kills itself too (-9 / 137).
    rc = run.returncode
    if rc == 124 or (rc in (137, -9) and run.elapsed >= limit - 0.05):
        dbm.record_harness_run(con, job, result="TIMEOUT", has_timed_out=True,
                               errors=f"killed by harness after {run.elapsed:.1f} s (limit {limit:g} s)", **common)
        return emit(job, "TIMEOUT", "killed", run.elapsed, f"limit {limit:g} s")
    how = f"killed by signal {-rc}" if rc < 0 else f"exit status {rc}"
    msg = run.stderr.strip()[-1000:]
    dbm.record_harness_run(con, job, result="ERROR", has_timed_out=False,
                           errors=f"pasda-jvm {how} without recording a run: {msg}", **common)
    return emit(job, "ERROR", "died", run.elapsed, f"{how}: {msg}")


def record(a, job, con, before, run, limit):
    """The run's line, after recording it when the engine did not."""
    stop = stopped_from_outside(run, limit)
    if stop is not None:
        return emit(job, "-", "interrupted", run.elapsed, f"signal {stop}")
    try:
        recorded = dbm.find_new_run(con, before, job)
        if recorded is not None:
            return emit(job, recorded, "ok", run.elapsed)
        return record_missing_run(a, job, con, run, limit)
    except Exception as e:  # noqa: BLE001 - reported as a failed job
        return emit(job, "-", "failed", run.elapsed, f"database: {e}")


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if argv is None:  # a worker process (not a call from a test): stop with the job that started it
        _terminate_with_parent()
    job = Job.from_args(a)
    limit = outer_limit(job.timeout, a.grace, a.grace_rel)
    try:
        os.makedirs(os.path.dirname(os.path.abspath(a.db)), exist_ok=True)  # a host's first job
        con = dbm.connect(a.db)
        dbm.check_readable(con, a.db)
        before = dbm.max_run_id(con)
    except Exception as e:  # noqa: BLE001 - reported as a failed job
        return emit(job, "-", "failed", 0.0, f"database: {e}")
    lock_fds, stopping = hold_sweep_lock()
    if stopping:
        return emit(job, "-", "interrupted", 0.0, "the sweep was stopped before this run started")
    cmd = engine_command(a, job, limit)
    try:
        run = run_engine(cmd, lock_fds)
    except OSError as e:
        return emit(job, "-", "failed", 0.0, f"cannot start {cmd[0]}: {e}")
    return record(a, job, con, before, run, limit)


if __name__ == "__main__":
    sys.exit(main())
