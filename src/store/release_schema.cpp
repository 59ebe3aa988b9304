// Store stage: the tables of release diffs (schema version 3) and the migration of version-2
// databases, which only adds them (docs/schema.md, "Release diffs").
#include "release_schema.hpp"

#include <string>

#include "pasda/store/store.hpp"

namespace pasda::store::detail {

const char* const kReleaseSchemaSql = R"SQL(
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
)SQL";

bool migrate(Db& db, std::int64_t found) {
  if (found < 2 || found > 5) return false;
  // Version 2 -> 3 adds the release tables, 3 -> 4 the table `cause`, 4 -> 5 the table
  // `deepening`, 5 -> 6 the table `decision`; the caller has just created them (CREATE TABLE
  // IF NOT EXISTS): only the version is left to set.
  db.exec("UPDATE schema_version SET version = 6");
  return true;
}

}  // namespace pasda::store::detail
