"""merge-db: append the runs of other results databases (e.g. one per host) to one database.

Ids of each source are shifted past the target's; a run already present in the target (same
case, settings, start time, paths, result and runtime) is skipped with all its rows, so merging
the same file twice adds nothing. Release diffs (schema 3) follow the same rule: a diff already
present (same fingerprint, shard and start time) is skipped with its classes and methods, and
the runs its methods refer to are kept with it. Each source is merged in one transaction.
"""
import argparse
import os
import sqlite3
import sys

from . import db as dbm
from .study import ENGINE

# table, own id column (or None), {foreign key column: referenced table}
TABLES = (
    ("run", "id", {}),
    ("settings", None, {"run_id": "run"}),
    ("deepening", None, {"run_id": "run"}),
    ("decision", None, {"run_id": "run"}),
    ("warning", None, {"run_id": "run"}),
    ("iteration", "id", {"run_id": "run"}),
    ("partition", "id", {"iteration_id": "iteration"}),
    ("partition_state", None, {"partition_id": "partition"}),
    ("witness", None, {"partition_id": "partition"}),
    ("replay", None, {"partition_id": "partition"}),
    ("cause", None, {"partition_id": "partition"}),
    ("runtime", "id", {"run_id": "run"}),
    ("release_diff", "id", {}),
    ("release_class", None, {"diff_id": "release_diff"}),
    ("release_method", None, {"diff_id": "release_diff", "run_id": "run"}),
)
KEEP = {
    "run": "id IN (SELECT id FROM temp.keep)",
    "release_diff": "id IN (SELECT id FROM temp.keep_diff)",
    "release_method": "diff_id IN (SELECT id FROM temp.keep_diff)",
    "iteration": "run_id IN (SELECT id FROM temp.keep)",
    "partition": "iteration_id IN (SELECT id FROM h.iteration WHERE run_id IN (SELECT id FROM temp.keep))",
}
DIFF_FINGERPRINT = "SELECT id, fingerprint, shard, started_at FROM {db}.release_diff"
FINGERPRINT = ("SELECT r.id, r.benchmark, r.started_at, r.runtime, r.old_path, r.new_path, r.result, s.tool, "
               "s.run_timeout, s.depth_limit, s.arith FROM {db}.run r LEFT JOIN {db}.settings s ON s.run_id = r.id")


def _filter(table, fks):
    if table in KEEP:
        return KEEP[table]
    (col, parent), = fks.items()
    return f"{col} IN (SELECT id FROM h.{parent} WHERE {KEEP[parent]})"


def _check_source(con, source):
    """The attached source `h` is a results database of the target's schema version."""
    try:
        if not dbm.has_schema(con, "h"):
            raise dbm.DbError(f"{source}: not a results database")
    except sqlite3.DatabaseError as e:
        raise dbm.DbError(f"{source}: not a results database: {e}") from e
    have, want = dbm.schema_version(con, "h"), dbm.schema_version(con)
    if have != want:
        raise dbm.DbError(f"{source}: schema version {have}, the target's is {want} "
                          f"(pasda-jvm --db {source} --init-db migrates versions 2 to 4)")


def _new_ids(con, fingerprint):
    """Ids of the source's rows whose fingerprint (the query's other columns) the target lacks."""
    have = {tuple(r[1:]) for r in con.execute(fingerprint.format(db="main"))}
    return [r[0] for r in con.execute(fingerprint.format(db="h")) if tuple(r[1:]) not in have]


def _selection(con):
    """(run ids, release-diff ids) of the source to copy: those the target lacks; a release diff
    that is copied brings the runs of its methods."""
    keep_diff = _new_ids(con, DIFF_FINGERPRINT)
    ids = ",".join(str(i) for i in keep_diff) or "NULL"
    diff_runs = {r[0] for r in con.execute(
        f"SELECT run_id FROM h.release_method WHERE run_id IS NOT NULL AND diff_id IN ({ids})")}
    return sorted(set(_new_ids(con, FINGERPRINT)) | diff_runs), keep_diff


def _copy_table(con, table, idcol, fks, off):
    """The selected rows of one table, own and foreign ids shifted past the target's."""
    cols = [r[1] for r in con.execute(f"PRAGMA main.table_info({table})")]
    shift = {idcol: table, **fks}
    exprs = [f"{c} + {off[shift[c]]}" if c in shift else c for c in cols]
    con.execute(f"INSERT INTO main.{table}({', '.join(cols)}) SELECT {', '.join(exprs)} "
                f"FROM h.{table} WHERE {_filter(table, fks)}")


def _copy(con, keep, keep_diff):
    for name, ids in (("keep", keep), ("keep_diff", keep_diff)):
        con.execute(f"CREATE TEMP TABLE {name}(id INTEGER PRIMARY KEY)")
        con.executemany(f"INSERT INTO temp.{name} VALUES(?)", [(i,) for i in ids])
    off = {t: con.execute(f"SELECT coalesce(max({c}), 0) FROM main.{t}").fetchone()[0] for t, c, _ in TABLES if c}
    con.execute("INSERT OR IGNORE INTO main.benchmark SELECT * FROM h.benchmark")
    for table, idcol, fks in TABLES:
        _copy_table(con, table, idcol, fks, off)
    con.execute("DROP TABLE temp.keep")
    con.execute("DROP TABLE temp.keep_diff")


def merge(target, source, engine):
    """Merges `source` into `target`, which the engine creates or checks first (pasda-jvm
    --init-db); returns (runs added, runs skipped as already present)."""
    if not os.path.isfile(source):
        raise dbm.DbError(f"{source}: no such file")
    dbm.init_db(engine, target)
    con = dbm.connect(target)
    con.execute("ATTACH ? AS h", (source,))
    try:
        _check_source(con, source)
        with dbm.transaction(con):
            keep, keep_diff = _selection(con)
            _copy(con, keep, keep_diff)
            total = con.execute("SELECT count(*) FROM h.run").fetchone()[0]
        return len(keep), total - len(keep)
    finally:
        con.execute("DETACH h")
        con.close()


def main(argv=None):
    p = argparse.ArgumentParser(prog="merge-db", description="Merge results databases (one per host) into one.")
    p.add_argument("--pasda-jvm", default=ENGINE,
                   help="engine binary that creates or checks the target (pasda-jvm --init-db; default: %(default)s)")
    p.add_argument("target", help="database to merge into (created when missing)")
    p.add_argument("sources", nargs="+", help="databases to merge from")
    a = p.parse_args(argv)
    rc = 0
    for s in a.sources:
        try:
            added, skipped = merge(a.target, s, a.pasda_jvm)
            print(f"merge-db: {s}: {added} runs added, {skipped} already present")
        except dbm.DbError as e:  # names its file
            print(f"merge-db: error: {e}", file=sys.stderr)
            rc = 2
        except sqlite3.Error as e:
            print(f"merge-db: error: {s}: {e}", file=sys.stderr)
            rc = 2
    return rc
