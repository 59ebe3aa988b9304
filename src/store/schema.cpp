// Store stage: the results schema, close to the reference's create-tables.sql (§13).
// Booleans are 0/1 integers; statuses are 1 SAT, 0 UNKNOWN, -1 UNSAT, NULL = query not run.
#include "schema.hpp"

#include <string>
#include <vector>

#include "pasda/store/store.hpp"

namespace pasda::store {

namespace detail {

const char* const kSchemaSql = R"SQL(
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
CREATE TABLE IF NOT EXISTS decision(
  run_id INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
  decided_by TEXT NOT NULL,
  induction_note TEXT);
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
)SQL";

}  // namespace detail

const std::vector<std::string>& tableNames() {
  static const std::vector<std::string> names{
      "schema_version", "benchmark", "run",   "settings",  "deepening", "decision", "warning", "iteration", "partition",
      "partition_state", "witness", "replay", "cause", "runtime"};
  return names;
}

const std::vector<std::string>& releaseTableNames() {
  static const std::vector<std::string> names{"release_diff", "release_class", "release_method"};
  return names;
}

}  // namespace pasda::store
