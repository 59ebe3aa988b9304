// Store stage: appends the results of runs to a SQLite database whose schema follows the
// reference's (docs/schema.md). All sqlite3 calls stay inside src/store.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pasda/analysis/result.hpp"

namespace pasda::store {

/// Any failure to open, create, read or write the database.
class StoreError : public std::runtime_error {
 public:
  StoreError(std::string path, std::string reason);
  const std::string& path() const { return path_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string path_, reason_;
};

struct StoreOptions {
  /// How long one statement waits for a lock held by another connection (SQLite busy timeout).
  int busy_timeout_ms = 30000;
  /// Overall time appendRun keeps retrying to start its write transaction when the database
  /// stays busy beyond the busy timeout.
  int begin_retry_ms = 120000;
  /// No wait for another connection's lock goes past this point (opening and appending): a
  /// locked database then fails with StoreError instead of holding the caller.
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

/// SQLite application_id of a results database created by pasda-jvm ("pasd"). Databases
/// created before it was set (0) are recognised by their tables.
inline constexpr std::int32_t kApplicationId = 0x70617364;

/// Schema version written to table `schema_version`; opening a database with another
/// version is a StoreError.
inline constexpr int kSchemaVersion = 6;  // 2: covered lines as partition.lines_v1/v2; 3: release diffs; 4: cause;
                                          // 5: deepening; 6: decision

/// One connection to a results database. Not thread-safe; use one Store per thread or process.
/// Several Stores (in any processes) may append to the same file at once.
class Store {
 public:
  /// Opens `path`, creating the file and the schema when missing. Turns on foreign keys,
  /// WAL journal mode and the busy timeout. Throws StoreError, before changing anything in
  /// the file, when the path is unusable (a directory, a missing or unwritable directory, a
  /// read-only file), the file is not an SQLite database, is another application's database
  /// (its application_id or tables), or is a pasda database of another schema version or shape.
  explicit Store(const std::string& path, StoreOptions options = {});
  ~Store();
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  /// Writes one run (benchmark, run, settings, warnings, iterations, partitions with their
  /// lines, witnesses, effects and replays, and the step times) in one transaction and
  /// returns the new run id. On any failure nothing of the run is left and StoreError is thrown.
  std::int64_t appendRun(const analysis::RunResult& run);

  /// Replaces StoreOptions::deadline for what follows (e.g. appendRun at the end of a run).
  void setDeadline(std::optional<std::chrono::steady_clock::time_point> deadline);

  /// Reads a run back (the inverse of appendRun for every field it stores); nullopt if absent.
  std::optional<analysis::RunResult> loadRun(std::int64_t runId) const;

  /// Ids of all runs, ascending.
  std::vector<std::int64_t> runIds() const;

  /// Number of rows of one of the schema's tables, release tables included (StoreError for any
  /// other name).
  std::int64_t countRows(const std::string& table) const;

  const std::string& path() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The schema's table names of runs (what appendRun writes), in creation order.
const std::vector<std::string>& tableNames();
/// The tables of release diffs (schema 3, written by ReleaseStore).
const std::vector<std::string>& releaseTableNames();

}  // namespace pasda::store
