"""merge-db: append the runs of other results databases (e.g. one per host) to one database.

Ids of each source are shifted past the target's; a run already present in the target (same
case, settings, start time, paths, result and runtime) is skipped with all its rows, so merging
the same file twice adds nothing. Release diffs (schema 3) follow the same rule: a diff already
present (same fingerprint, shard and start time) is skipped with its classes and methods, and
the runs its methods refer to are kept with it. Each source is merged in one transaction.
"""
import argparse
import os
import sys

from . import db as dbm

# table, own id column (or None), {foreign key column: referenced table}
TABLES = (
    ("run", "id", {}),
    ("settings", None, {"run_id": "run"}),
    ("deepening", None, {"run_id": "run"}),
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


def _has_table(con, db, name):
    return con.execute(f"SELECT count(*) FROM {db}.sqlite_master WHERE type = 'table' AND name = ?",
                       (name,)).fetchone()[0] == 1


def merge(target, source):
    """Merges `source` into `target`; returns (runs added, runs skipped as already present)."""
    if not os.path.isfile(source):
        raise dbm.DbError(f"{source}: no such file")
    con = dbm.connect(target)
    dbm.check_version(con, target)
    dbm.ensure_schema(con)
    con.execute("ATTACH ? AS h", (source,))
    try:
        row = con.execute("SELECT count(*) FROM h.sqlite_master WHERE name = 'run'").fetchone()
        if row[0] == 0:
            raise dbm.DbError(f"{source}: not a results database")
        ver = con.execute("SELECT version FROM h.schema_version").fetchone()
        if ver and ver[0] != dbm.SCHEMA_VERSION:
            raise dbm.DbError(f"{source}: schema version {ver[0]}, expected {dbm.SCHEMA_VERSION}")
        con.execute("BEGIN IMMEDIATE")
        try:
            have = {tuple(r[1:]) for r in con.execute(FINGERPRINT.format(db="main"))}
            keep = [r[0] for r in con.execute(FINGERPRINT.format(db="h")) if tuple(r[1:]) not in have]
            total = con.execute("SELECT count(*) FROM h.run").fetchone()[0]
            keep_diff = []
            if _has_table(con, "h", "release_diff"):
                have_diff = {tuple(r[1:]) for r in con.execute(DIFF_FINGERPRINT.format(db="main"))}
                keep_diff = [r[0] for r in con.execute(DIFF_FINGERPRINT.format(db="h")) if tuple(r[1:]) not in have_diff]
                # The runs of a release diff that is merged come with it.
                ids = ",".join(str(i) for i in keep_diff) or "NULL"
                keep = sorted(set(keep) | {r[0] for r in con.execute(
                    f"SELECT run_id FROM h.release_method WHERE run_id IS NOT NULL AND diff_id IN ({ids})")})
            con.execute("CREATE TEMP TABLE keep(id INTEGER PRIMARY KEY)")
            con.executemany("INSERT INTO temp.keep VALUES(?)", [(i,) for i in keep])
            con.execute("CREATE TEMP TABLE keep_diff(id INTEGER PRIMARY KEY)")
            con.executemany("INSERT INTO temp.keep_diff VALUES(?)", [(i,) for i in keep_diff])
            off = {t: con.execute(f"SELECT coalesce(max({c}), 0) FROM main.{t}").fetchone()[0]
                   for t, c, _ in TABLES if c}
            con.execute("INSERT OR IGNORE INTO main.benchmark SELECT * FROM h.benchmark")
            for table, idcol, fks in TABLES:
                if not _has_table(con, "h", table):
                    continue
                cols = [r[1] for r in con.execute(f"PRAGMA main.table_info({table})")]
                exprs = []
                for c in cols:
                    if c == idcol:
                        exprs.append(f"{c} + {off[table]}")
                    elif c in fks:
                        exprs.append(f"{c} + {off[fks[c]]}")
                    else:
                        exprs.append(c)
                con.execute(f"INSERT INTO main.{table}({', '.join(cols)}) SELECT {', '.join(exprs)} "
                            f"FROM h.{table} WHERE {_filter(table, fks)}")
            con.execute("DROP TABLE temp.keep")
            con.execute("DROP TABLE temp.keep_diff")
            con.execute("COMMIT")
        except Exception:
            con.execute("ROLLBACK")
            raise
        return len(keep), total - len(keep)
    finally:
        con.execute("DETACH h")
        con.close()


def main(argv=None):
    p = argparse.ArgumentParser(prog="merge-db", description="Merge results databases (one per host) into one.")
    p.add_argument("target", help="database to merge into (created when missing)")
    p.add_argument("sources", nargs="+", help="databases to merge from")
    a = p.parse_args(argv)
    rc = 0
    for s in a.sources:
        try:
            added, skipped = merge(a.target, s)
            print(f"merge-db: {s}: {added} runs added, {skipped} already present")
        except Exception as e:  # noqa: BLE001
            print(f"merge-db: error: {s}: {e}", file=sys.stderr)
            rc = 2
    return rc
