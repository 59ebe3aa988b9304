"""Helpers for the results database written by `pasda-jvm --db` (docs/schema.md).

The harness reads finished runs (to resume), and writes a run itself only when pasda-jvm
could not: a run killed from outside (TIMEOUT) or a process that died without recording
(ERROR). Those rows use the same tables and are marked in `run.errors` (prefix
HARNESS_MARK). When the database has no tables yet, the harness creates them with
SCHEMA_V1, a mirror of the engine's schema version 1 (tests/harness checks it matches).
"""
import sqlite3
import time

SCHEMA_VERSION = 5
HARNESS_MARK = "harness:"

# Mirror of the engine's schema (src/store/schema.cpp and, since version 3, the release-diff
# tables of src/store/release_schema.cpp); only the tables the
# harness writes need to exist before pasda-jvm's own CREATE TABLE IF NOT EXISTS runs, but the
# whole schema is kept identical so that either side may create the file.
SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS schema_version(
  version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS benchmark(
  benchmark TEXT PRIMARY KEY,
  expected TEXT);
CREATE TABLE IF NOT EXISTS run(
  id INTEGER PRIMARY KEY,
  benchmark TEXT REFERENCES benchmark(benchmark),
  result TEXT,
  has_timed_out INTEGER NOT NULL,
  is_depth_limited INTEGER NOT NULL,
  has_uif INTEGER NOT NULL,
  iteration_count INTEGER NOT NULL,
  result_iteration INTEGER,
  runtime REAL NOT NULL,
  errors TEXT,
  precheck TEXT,
  started_at TEXT,
  old_path TEXT,
  new_path TEXT,
  class_old TEXT,
  class_new TEXT,
  method TEXT,
  version TEXT);
CREATE INDEX IF NOT EXISTS run_benchmark ON run(benchmark);
CREATE TABLE IF NOT EXISTS settings(
  run_id INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
  tool TEXT NOT NULL,
  run_timeout REAL NOT NULL,
  solver_timeout_ms INTEGER NOT NULL,
  depth_limit INTEGER NOT NULL,
  arith TEXT NOT NULL,
  heap_bound INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS deepening(
  run_id INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
  enabled INTEGER NOT NULL,
  depth_limit_used INTEGER NOT NULL,
  rounds INTEGER NOT NULL,
  note TEXT);
CREATE TABLE IF NOT EXISTS warning(
  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY(run_id, position));
CREATE TABLE IF NOT EXISTS iteration(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  iteration INTEGER NOT NULL,
  result TEXT,
  has_timed_out INTEGER NOT NULL,
  is_depth_limited INTEGER NOT NULL,
  has_uif INTEGER NOT NULL,
  partition_count INTEGER NOT NULL,
  runtime REAL NOT NULL,
  errors TEXT,
  uifs TEXT,
  UNIQUE(run_id, iteration));
CREATE TABLE IF NOT EXISTS partition(
  id INTEGER PRIMARY KEY,
  iteration_id INTEGER NOT NULL REFERENCES iteration(id) ON DELETE CASCADE,
  partition INTEGER NOT NULL,
  result TEXT,
  reachability TEXT,
  output_class TEXT,
  pc_status INTEGER CHECK(pc_status IN (-1, 0, 1)),
  neq_status INTEGER CHECK(neq_status IN (-1, 0, 1)),
  eq_status INTEGER CHECK(eq_status IN (-1, 0, 1)),
  reason_unknown TEXT,
  neq_result_v1 TEXT,
  neq_result_v2 TEXT,
  has_uif INTEGER NOT NULL,
  has_uif_pc INTEGER NOT NULL,
  has_uif_v1 INTEGER NOT NULL,
  has_uif_v2 INTEGER NOT NULL,
  constraint_count INTEGER NOT NULL,
  path_condition TEXT NOT NULL,
  output_v1 TEXT NOT NULL,
  output_v2 TEXT NOT NULL,
  is_depth_limited INTEGER NOT NULL,
  has_timed_out INTEGER NOT NULL,
  decided_by TEXT,
  runtime REAL NOT NULL,
  witness_call TEXT,
  kind_v1 TEXT NOT NULL,
  value_v1 TEXT,
  exception_v1 TEXT,
  kind_v2 TEXT NOT NULL,
  value_v2 TEXT,
  exception_v2 TEXT,
  lines_v1 TEXT NOT NULL,
  lines_v2 TEXT NOT NULL,
  UNIQUE(iteration_id, partition));
CREATE TABLE IF NOT EXISTS partition_state(
  partition_id INTEGER NOT NULL REFERENCES partition(id) ON DELETE CASCADE,
  version INTEGER NOT NULL CHECK(version IN (1, 2)),
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY(partition_id, version, position));
CREATE TABLE IF NOT EXISTS witness(
  partition_id INTEGER NOT NULL REFERENCES partition(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  literal TEXT NOT NULL,
  exact TEXT,
  PRIMARY KEY(partition_id, position));
CREATE TABLE IF NOT EXISTS replay(
  partition_id INTEGER NOT NULL REFERENCES partition(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  engine TEXT NOT NULL,
  output_v1 TEXT NOT NULL,
  output_v2 TEXT NOT NULL,
  differs INTEGER NOT NULL,
  note TEXT,
  PRIMARY KEY(partition_id, position));
CREATE TABLE IF NOT EXISTS cause(
  partition_id INTEGER NOT NULL REFERENCES partition(id) ON DELETE CASCADE,
  alternative INTEGER NOT NULL,
  position INTEGER NOT NULL,
  side TEXT NOT NULL CHECK(side IN ('old', 'new')),
  line INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK(kind IN ('changed', 'inserted', 'deleted')),
  method TEXT NOT NULL,
  old_code TEXT,
  new_code TEXT,
  PRIMARY KEY(partition_id, alternative, position));
CREATE TABLE IF NOT EXISTS runtime(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  topic TEXT NOT NULL,
  task TEXT NOT NULL,
  runtime REAL NOT NULL,
  step INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS iteration_run ON iteration(run_id);
CREATE INDEX IF NOT EXISTS partition_iteration ON partition(iteration_id);
CREATE INDEX IF NOT EXISTS runtime_run ON runtime(run_id);
CREATE TABLE IF NOT EXISTS release_diff(
  id INTEGER PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  shard INTEGER NOT NULL,
  shard_count INTEGER NOT NULL,
  old_path TEXT NOT NULL,
  new_path TEXT NOT NULL,
  class_filter TEXT,
  tool TEXT NOT NULL,
  arith TEXT NOT NULL,
  depth_limit INTEGER NOT NULL,
  method_timeout REAL NOT NULL,
  run_timeout REAL,
  jobs INTEGER NOT NULL,
  result TEXT,
  exit_code INTEGER,
  method_count INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  runtime REAL,
  version TEXT);
CREATE INDEX IF NOT EXISTS release_diff_fingerprint ON release_diff(fingerprint);
CREATE TABLE IF NOT EXISTS release_class(
  diff_id INTEGER NOT NULL REFERENCES release_diff(id) ON DELETE CASCADE,
  class TEXT NOT NULL,
  status TEXT NOT NULL CHECK(status IN ('added', 'removed', 'changed')),
  api_changes TEXT NOT NULL,
  PRIMARY KEY(diff_id, class));
CREATE TABLE IF NOT EXISTS release_method(
  diff_id INTEGER NOT NULL REFERENCES release_diff(id) ON DELETE CASCADE,
  class TEXT NOT NULL,
  method TEXT NOT NULL,
  descriptor TEXT NOT NULL,
  category TEXT NOT NULL CHECK(category IN ('added', 'removed', 'identical', 'affected', 'changed')),
  result TEXT,
  run_id INTEGER REFERENCES run(id) ON DELETE SET NULL,
  reason TEXT,
  api_changes TEXT,
  note TEXT,
  runtime REAL NOT NULL,
  PRIMARY KEY(diff_id, class, method, descriptor));
CREATE INDEX IF NOT EXISTS release_method_run ON release_method(run_id);
"""


class DbError(Exception):
    pass


def connect(path, busy_timeout_s=60.0):
    """Opens the database with a busy timeout (several writers share one file, WAL)."""
    try:
        con = sqlite3.connect(path, timeout=busy_timeout_s, isolation_level=None)
        con.execute("PRAGMA foreign_keys = ON")
        con.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
        return con
    except sqlite3.Error as e:
        raise DbError(f"{path}: cannot open: {e}") from e


def has_schema(con):
    return con.execute("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='run'").fetchone()[0] == 1


def check_version(con, path):
    """Raises DbError when the file holds another schema version."""
    try:
        if not has_schema(con):
            return
        row = con.execute("SELECT version FROM schema_version").fetchone()
    except sqlite3.DatabaseError as e:
        raise DbError(f"{path}: not a results database: {e}") from e
    if row is not None and row[0] in (2, 3, 4):
        _migrate(con)
    elif row is not None and row[0] != SCHEMA_VERSION:
        raise DbError(f"{path}: schema version {row[0]}, the harness supports {SCHEMA_VERSION}")


def _migrate(con):
    """Versions 2 to 4 lack tables only (3: the release-diff tables; 4: the explanations'
    `cause`; 5: `deepening`): they are created, as the engine's own migration does."""
    con.execute("BEGIN IMMEDIATE")
    try:
        for stmt in (s.strip() for s in SCHEMA_V1.split(";")):
            if stmt:
                con.execute(stmt)
        con.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise


def ensure_schema(con):
    """Creates the tables when missing (same DDL as the engine)."""
    if has_schema(con):
        return
    try:
        con.execute("PRAGMA journal_mode=WAL")
    except sqlite3.Error:
        pass
    con.execute("BEGIN IMMEDIATE")
    try:
        for stmt in (s.strip() for s in SCHEMA_V1.split(";")):
            if stmt:
                con.execute(stmt)
        if con.execute("SELECT count(*) FROM schema_version").fetchone()[0] == 0:
            con.execute("INSERT INTO schema_version(version) VALUES(?)", (SCHEMA_VERSION,))
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise


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


def find_new_run(con, after_id, case, tool, timeout, depth, arith):
    """The result of a run of this configuration recorded after run id `after_id`, or None."""
    if not has_schema(con):
        return None
    row = con.execute(
        "SELECT r.result FROM run r JOIN settings s ON s.run_id = r.id WHERE r.id > ? AND r.benchmark = ? "
        "AND s.tool = ? AND abs(s.run_timeout - ?) < 1e-6 AND s.depth_limit = ? AND s.arith = ? "
        "ORDER BY r.id LIMIT 1", (after_id, case, tool, float(timeout), int(depth), arith)).fetchone()
    return None if row is None else row[0]


def iso_utc(epoch):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


def record_harness_run(con, *, case, expected, tool, timeout, depth, arith, result, runtime,
                       errors, started_epoch, old_path, new_path, class_old, class_new, method,
                       version, has_timed_out):
    """Writes one run the engine could not record itself, in one transaction. Returns its id."""
    ensure_schema(con)
    con.execute("BEGIN IMMEDIATE")
    try:
        # Settings the harness does not pass are taken from an engine-written run of the same
        # tool and timeout when there is one (the engine's defaults), else 0 / 2.
        row = con.execute(
            "SELECT s.solver_timeout_ms, s.heap_bound FROM settings s JOIN run r ON r.id = s.run_id "
            "WHERE s.tool = ? AND abs(s.run_timeout - ?) < 1e-6 AND (r.errors IS NULL OR r.errors NOT LIKE ?) "
            "LIMIT 1", (tool, float(timeout), HARNESS_MARK + "%")).fetchone()
        solver_ms, heap = row if row else (0, 2)
        con.execute("INSERT OR IGNORE INTO benchmark(benchmark, expected) VALUES(?, ?)", (case, expected or None))
        cur = con.execute(
            "INSERT INTO run(benchmark, result, has_timed_out, is_depth_limited, has_uif, iteration_count, "
            "result_iteration, runtime, errors, precheck, started_at, old_path, new_path, class_old, class_new, "
            "method, version) VALUES(?,?,?,0,0,0,NULL,?,?,NULL,?,?,?,?,?,?,?)",
            (case, result, 1 if has_timed_out else 0, float(runtime), HARNESS_MARK + " " + errors,
             iso_utc(started_epoch), old_path, new_path, class_old, class_new, method, version))
        run_id = cur.lastrowid
        con.execute("INSERT INTO settings(run_id, tool, run_timeout, solver_timeout_ms, depth_limit, arith, heap_bound) "
                    "VALUES(?,?,?,?,?,?,?)", (run_id, tool, float(timeout), solver_ms, int(depth), arith, heap))
        con.execute("INSERT INTO runtime(run_id, topic, task, runtime, step) VALUES(?, 'run', '', ?, 0)",
                    (run_id, float(runtime)))
        con.execute("COMMIT")
        return run_id
    except Exception:
        con.execute("ROLLBACK")
        raise
