"""Helpers for the results database written by `pasda-jvm --db` (docs/schema.md).

The harness reads finished runs (to resume, to report), and writes a run itself only when
pasda-jvm could not: a run killed from outside (TIMEOUT) or a process that died without
recording (ERROR). Those rows use the same tables and are marked in `run.errors` (prefix
HARNESS_MARK). The harness keeps no copy of the schema: before it writes a row (or merges into
a database) it has the engine create the file, or check and migrate an existing one, with
`pasda-jvm --db FILE --init-db` (init_db).
"""
import contextlib
import sqlite3
import subprocess
import time

HARNESS_MARK = "harness:"
INIT_DB_TIMEOUT_S = 300  # the engine waits for other writers' locks (2 minutes at most)


class DbError(Exception):
    pass


def _engine_reason(stderr, path):
    """The engine's one error line without its `pasda-jvm: error: PATH: ` prefix."""
    line = (stderr.strip().splitlines() or [""])[-1]
    for prefix in ("pasda-jvm: error: ", path + ": "):
        if line.startswith(prefix):
            line = line[len(prefix):]
    return line


def init_db(engine, path):
    """Has the engine create `path` with its schema, or check (and migrate) an existing file:
    `ENGINE --db PATH --init-db`. Raises DbError, one line naming the file, when it cannot."""
    try:
        p = subprocess.run([engine, "--db", path, "--init-db"], capture_output=True, text=True,
                           timeout=INIT_DB_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise DbError(f"{path}: cannot run {engine} --init-db: {getattr(e, 'strerror', None) or e}") from e
    if p.returncode != 0:
        reason = _engine_reason(p.stderr, path) or f"exit status {p.returncode}"
        raise DbError(f"{path}: {reason} ({engine} --init-db)")


@contextlib.contextmanager
def transaction(con):
    """BEGIN IMMEDIATE ... COMMIT on a connection opened by connect(); rolled back on any error."""
    con.execute("BEGIN IMMEDIATE")
    try:
        yield con
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def connect(path, busy_timeout_s=60.0):
    """Opens the database with a busy timeout (several writers share one file, WAL)."""
    try:
        con = sqlite3.connect(path, timeout=busy_timeout_s, isolation_level=None)
        con.execute("PRAGMA foreign_keys = ON")
        con.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
        return con
    except sqlite3.Error as e:
        raise DbError(f"{path}: cannot open: {e}") from e


def has_schema(con, db="main"):
    return con.execute(f"SELECT count(*) FROM {db}.sqlite_master WHERE type = 'table' AND name = 'run'"
                       ).fetchone()[0] == 1


def check_readable(con, path):
    """Raises DbError when the file is not an SQLite database. A results database is read as it
    is: the tables the harness reads are the same in every schema version the engine migrates."""
    try:
        has_schema(con)
    except sqlite3.DatabaseError as e:
        raise DbError(f"{path}: not a results database: {e}") from e


def schema_version(con, db="main"):
    """The version in the database's schema_version table (None without one)."""
    if not has_schema(con, db):
        return None
    row = con.execute(f"SELECT version FROM {db}.schema_version").fetchone()
    return None if row is None else row[0]

def config_key(case, tool, timeout, depth, arith):
    return (case, tool, round(float(timeout), 6), int(depth), arith)


def done_counts(con):
    """Finished runs per (case, tool, timeout, depth limit, arith)."""
    counts = {}
    if not has_schema(con):
        return counts
    q = ("SELECT r.benchmark, s.tool, s.run_timeout, s.depth_limit, s.arith, count(*) "
         "FROM run r JOIN settings s ON s.run_id = r.id WHERE r.benchmark IS NOT NULL "
         "GROUP BY r.benchmark, s.tool, s.run_timeout, s.depth_limit, s.arith")
    for case, tool, t, d, a, n in con.execute(q):
        k = config_key(case, tool, t, d, a)
        counts[k] = counts.get(k, 0) + n
    return counts


def max_run_id(con):
    if not has_schema(con):
        return 0
    return con.execute("SELECT coalesce(max(id), 0) FROM run").fetchone()[0]


def find_new_run(con, after_id, job):
    """The result of a run of this job's configuration (jobs.Job) recorded after run id
    `after_id`, or None."""
    if not has_schema(con):
        return None
    row = con.execute(
        "SELECT r.result FROM run r JOIN settings s ON s.run_id = r.id WHERE r.id > ? AND r.benchmark = ? "
        "AND s.tool = ? AND abs(s.run_timeout - ?) < 1e-6 AND s.depth_limit = ? AND s.arith = ? "
        "ORDER BY r.id LIMIT 1", (after_id, job.case, job.tool, float(job.timeout), job.depth, job.arith)).fetchone()
    return None if row is None else row[0]


def iso_utc(epoch):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


def _engine_settings(con, job):
    """(solver_timeout_ms, heap_bound), which the harness does not pass: those of an engine-written
    run of the same tool and timeout when there is one (the engine's defaults), else (0, 2)."""
    row = con.execute(
        "SELECT s.solver_timeout_ms, s.heap_bound FROM settings s JOIN run r ON r.id = s.run_id "
        "WHERE s.tool = ? AND abs(s.run_timeout - ?) < 1e-6 AND (r.errors IS NULL OR r.errors NOT LIKE ?) "
        "LIMIT 1", (job.tool, float(job.timeout), HARNESS_MARK + "%")).fetchone()
    return row if row else (0, 2)


def record_harness_run(con, job, *, result, has_timed_out, runtime, errors, started_epoch, old_path, new_path,
                       version):
    """Writes one run of `job` (jobs.Job) that the engine could not record itself, in one
    transaction, into a database that has the engine's schema (init_db). Returns its id."""
    if not has_schema(con):
        raise DbError("the database has no results tables (create it with init_db: pasda-jvm --init-db)")
    with transaction(con):
        solver_ms, heap = _engine_settings(con, job)
        con.execute("INSERT OR IGNORE INTO benchmark(benchmark, expected) VALUES(?, ?)",
                    (job.case, job.expected or None))
        run_id = con.execute(
            "INSERT INTO run(benchmark, result, has_timed_out, is_depth_limited, has_uif, iteration_count, "
            "result_iteration, runtime, errors, precheck, started_at, old_path, new_path, class_old, class_new, "
            "method, version) VALUES(?,?,?,0,0,0,NULL,?,?,NULL,?,?,?,?,?,?,?)",
            (job.case, result, 1 if has_timed_out else 0, float(runtime), HARNESS_MARK + " " + errors,
             iso_utc(started_epoch), old_path, new_path, job.old_class, job.new_class, job.method, version)).lastrowid
        con.execute("INSERT INTO settings(run_id, tool, run_timeout, solver_timeout_ms, depth_limit, arith, "
                    "heap_bound) VALUES(?,?,?,?,?,?,?)",
                    (run_id, job.tool, float(job.timeout), solver_ms, job.depth, job.arith, heap))
        con.execute("INSERT INTO runtime(run_id, topic, task, runtime, step) VALUES(?, 'run', '', ?, 0)",
                    (run_id, float(runtime)))
    return run_id
