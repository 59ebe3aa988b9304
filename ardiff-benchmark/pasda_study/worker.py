"""One run of the sweep: pasda-jvm bounded from outside by `timeout`, recorded in the database.

Invoked by GNU parallel (one process per job). Prints exactly one line to stdout:
    JOB <TAB> case <TAB> tool <TAB> timeout <TAB> run <TAB> result <TAB> status <TAB> seconds <TAB> note
status is `ok` (the engine recorded the run), `killed` (the harness killed it and recorded
TIMEOUT), `died` (the engine exited without recording; the harness recorded ERROR) or
`failed` (nothing could be recorded; the job will run again on resume).
On SIGTERM/SIGINT (Ctrl-C of run-study) the run is stopped and nothing is recorded, so that
a resumed sweep runs it again.
"""
import argparse
import fcntl
import os
import signal
import subprocess
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from pasda_study import db as dbm  # noqa: E402
else:
    from . import db as dbm


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
    p.add_argument("--extra", action="append", default=[], help="extra pasda-jvm argument (repeatable)")
    p.add_argument("case")
    p.add_argument("expected")
    p.add_argument("method")
    p.add_argument("old_class")
    p.add_argument("new_class")
    p.add_argument("tool")
    p.add_argument("timeout", type=float)
    p.add_argument("run", type=int)
    p.add_argument("depth", type=int)
    p.add_argument("arith")
    return p.parse_args(argv)


def fmt_timeout(t):
    return str(int(t)) if float(t).is_integer() else repr(float(t))


def emit(a, result, status, seconds, note=""):
    note = " ".join(note.split())[:300]
    sys.stdout.write("\t".join(["JOB", a.case, a.tool, fmt_timeout(a.timeout), str(a.run), result, status,
                                f"{seconds:.3f}", note]) + "\n")
    sys.stdout.flush()


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


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if argv is None:  # a worker process (not a call from a test): stop with the job that started it
        _terminate_with_parent()
    old_path = os.path.join(a.classes, *a.old_class.split(".")) + ".class"
    new_path = os.path.join(a.classes, *a.new_class.split(".")) + ".class"
    limit = outer_limit(a.timeout, a.grace, a.grace_rel)
    cmd = ["timeout", f"--kill-after={a.kill_after:g}", f"{limit:g}", a.pasda_jvm,
           "--mode", a.tool, "--timeout", fmt_timeout(a.timeout), "--depth-limit", str(a.depth),
           "--arith", a.arith, "--deepen", a.deepen, "--method", a.method, "--db", a.db, "--benchmark", a.case,
           "--expected", a.expected, "-q", *a.extra, old_path, new_path]
    try:
        os.makedirs(os.path.dirname(os.path.abspath(a.db)), exist_ok=True)  # a host's first job
        con = dbm.connect(a.db)
        before = dbm.max_run_id(con)
    except Exception as e:  # noqa: BLE001 - reported as a failed job
        emit(a, "-", "failed", 0.0, f"database: {e}")
        return 1

    # The sweep's lock (run-study waits for it after an interrupt), held by this worker and, through
    # the inherited descriptor, by the engine until both are gone.
    lock_fds = ()
    if os.environ.get("PASDA_STUDY_LOCK"):
        try:
            fd = os.open(os.environ["PASDA_STUDY_LOCK"], os.O_RDWR | os.O_CREAT)
            fcntl.flock(fd, fcntl.LOCK_SH)
            lock_fds = (fd,)
        except OSError:
            pass
        if os.path.exists(os.environ["PASDA_STUDY_LOCK"] + ".stop"):  # the sweep is being stopped
            emit(a, "-", "interrupted", 0.0, "the sweep was stopped before this run started")
            return 1
    started = time.time()
    child = None
    interrupted = []

    def stop_child():
        # `timeout` leads its own process group (the engine is in it): kill the whole group at
        # once, so that the engine cannot finish and record its run after the sweep stopped.
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            try:
                child.kill()
            except ProcessLookupError:
                pass

    def on_signal(signum, _frame):
        interrupted.append(signum)
        if child is not None and child.poll() is None:
            stop_child()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    try:
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 preexec_fn=_own_group_terminated_with_parent, pass_fds=lock_fds)
        if interrupted:  # the signal came before the child existed: it must not run to the end
            stop_child()
        out, err = child.communicate()
    except OSError as e:
        emit(a, "-", "failed", 0.0, f"cannot start {cmd[0]}: {e}")
        return 1
    elapsed = time.time() - started
    rc = child.returncode
    # The engine ended by a termination signal before its limit that this worker did not send:
    # the sweep is being stopped (GNU parallel signalled the job's process group, or the job's
    # shell died first), so nothing is recorded, exactly as when the worker is signalled itself.
    if not interrupted and rc in (-signal.SIGTERM, -signal.SIGINT, -signal.SIGHUP) and elapsed < limit - 0.05:
        interrupted.append(-rc)
    if interrupted:
        emit(a, "-", "interrupted", elapsed, f"signal {interrupted[0]}")
        return 1

    try:
        recorded = dbm.find_new_run(con, before, a.case, a.tool, a.timeout, a.depth, a.arith)
        if recorded is not None:
            emit(a, recorded, "ok", elapsed)
            return 0
        common = dict(case=a.case, expected=a.expected, tool=a.tool, timeout=a.timeout, depth=a.depth,
                      arith=a.arith, runtime=elapsed, started_epoch=started, old_path=old_path,
                      new_path=new_path, class_old=a.old_class, class_new=a.new_class, method=a.method,
                      version=a.version_string or None)
        # timeout(1) exits 124 after SIGTERM; after --kill-after it kills itself too (-9 / 137).
        if rc == 124 or (rc in (137, -9) and elapsed >= limit - 0.05):
            dbm.record_harness_run(con, result="TIMEOUT", has_timed_out=True,
                                   errors=f"killed by harness after {elapsed:.1f} s (limit {limit:g} s)", **common)
            emit(a, "TIMEOUT", "killed", elapsed, f"limit {limit:g} s")
            return 0
        how = f"killed by signal {-rc}" if rc < 0 else f"exit status {rc}"
        msg = (err or "").strip()[-1000:]
        dbm.record_harness_run(con, result="ERROR", has_timed_out=False,
                               errors=f"pasda-jvm {how} without recording a run: {msg}", **common)
        emit(a, "ERROR", "died", elapsed, f"{how}: {msg}")
        return 0
    except Exception as e:  # noqa: BLE001
        emit(a, "-", "failed", elapsed, f"database: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
