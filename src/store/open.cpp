// Store stage: opening a results database. The path is checked first, and a file that is not
// a database of this pasda-jvm's schema (another application's, an older version, another
// shape) is refused before anything in it is changed.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "pasda/store/store.hpp"
#include "schema.hpp"
#include "release_schema.hpp"
#include "store_impl.hpp"

namespace pasda::store {

using detail::Stmt;

namespace {

namespace fs = std::filesystem;
using Columns = std::map<std::string, std::vector<std::string>>;

std::string errnoText(int e) { return std::strerror(e); }

std::string joined(const std::vector<std::string>& items, std::size_t max = 8) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < max; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > max) out += ", ...";
  return out;
}

// The file system side: what SQLite would report late or vaguely ("unable to open database
// file") is named here, before the file is created or opened.
void checkPath(const std::string& path) {
  if (path.empty()) throw StoreError(path, "the database file name is empty");
  fs::path parent = fs::path(path).parent_path();
  const std::string dir = parent.empty() ? "." : parent.string();
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw StoreError(path, "is a directory, not a results database");
    if (!S_ISREG(st.st_mode)) throw StoreError(path, "is not a regular file, not a results database");
    if (::access(path.c_str(), R_OK | W_OK) != 0)
      throw StoreError(path, "cannot write to the database: " + errnoText(errno));
    if (::access(dir.c_str(), W_OK) != 0)
      throw StoreError(path, "directory " + dir + " is not writable (SQLite keeps its journal beside the database): " +
                                 errnoText(errno));
    return;
  }
  if (errno != ENOENT && errno != ENOTDIR) throw StoreError(path, "cannot open: " + errnoText(errno));
  if (::stat(dir.c_str(), &st) != 0)
    throw StoreError(path, errno == ENOENT ? "directory " + dir + " does not exist" : "cannot open directory " + dir +
                                                                                      ": " + errnoText(errno));
  if (!S_ISDIR(st.st_mode)) throw StoreError(path, dir + " is not a directory");
  if (::access(dir.c_str(), W_OK) != 0)
    throw StoreError(path, "cannot create the database: directory " + dir + " is not writable: " + errnoText(errno));
}

std::vector<std::string> userTables(detail::Db& db) {
  Stmt st(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
              "ORDER BY name");
  std::vector<std::string> out;
  st.start();
  while (st.step()) out.push_back(st.text(0));
  return out;
}

std::vector<std::string> columnsOf(detail::Db& db, const std::string& table) {
  // PRAGMA arguments cannot be bound; `table` is one of the schema's fixed names.
  Stmt st(db, "SELECT name FROM pragma_table_info('" + table + "')");
  std::vector<std::string> out;
  st.start();
  while (st.step()) out.push_back(st.text(0));
  return out;
}

// The columns of every table of the schema, read from the schema itself in a memory database
// (so that the check cannot drift from schema.cpp).
const Columns& referenceColumns() {
  static const Columns columns = [] {
    detail::Db mem(":memory:", 0);
    mem.exec(detail::kSchemaSql);
    mem.exec(detail::kReleaseSchemaSql);
    Columns c;
    for (const std::string& t : tableNames()) c[t] = columnsOf(mem, t);
    for (const std::string& t : releaseTableNames()) c[t] = columnsOf(mem, t);
    return c;
  }();
  return columns;
}

enum class SchemaState { Empty, Partial, Complete };

// What the file holds; throws StoreError when it is not (or not a compatible) pasda database.
SchemaState inspect(detail::Db& db) {
  const std::string& path = db.path();
  Stmt app(db, "PRAGMA application_id");
  app.start();
  const std::int64_t appId = app.step() ? app.integer(0) : 0;
  app.reset();
  if (appId != 0 && appId != kApplicationId) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08llx", static_cast<unsigned long long>(static_cast<std::uint32_t>(appId)));
    throw StoreError(path, std::string("is an SQLite database of another application (application_id ") + hex +
                               "), not a pasda results database");
  }
  const std::vector<std::string> tables = userTables(db);
  if (tables.empty()) return SchemaState::Empty;
  const std::set<std::string> present(tables.begin(), tables.end());
  const Columns& ref = referenceColumns();
  if (!present.count("schema_version") || columnsOf(db, "schema_version") != ref.at("schema_version"))
    throw StoreError(path, "is an SQLite database but not a pasda results database (its tables: " + joined(tables) +
                               "); refusing to add pasda's tables to it");
  Stmt version(db, "SELECT version FROM schema_version");
  version.start();
  const bool hasVersion = version.step();
  const std::int64_t found = hasVersion ? version.integer(0) : 0;
  version.reset();
  // Versions 2 to 5 lack only tables (the release-diff tables of version 3, the table `cause`
  // of version 4, the table `deepening` of version 5, the table `decision` of version 6): they
  // are migrated (Partial).
  const bool migratable = hasVersion && found >= 2 && found <= 5;
  if (hasVersion && found != kSchemaVersion && !migratable)
    throw StoreError(path, "is a pasda results database of schema version " + std::to_string(found) +
                               "; this pasda-jvm writes version " + std::to_string(kSchemaVersion) +
                               " (use a new file, see docs/schema.md)");
  bool complete = hasVersion && !migratable;
  for (const auto& [table, cols] : ref) {
    if (!present.count(table)) {
      complete = false;
      continue;
    }
    const std::vector<std::string> have = columnsOf(db, table);
    if (have != cols)
      throw StoreError(path, "is not a database of this pasda-jvm's schema: table " + table + " has columns (" +
                                 joined(have, 40) + "), expected (" + joined(cols, 40) + ")");
  }
  return complete ? SchemaState::Complete : SchemaState::Partial;
}

}  // namespace

Store::Store(const std::string& path, StoreOptions options) {
  checkPath(path);
  impl_ = std::make_unique<Impl>(path, options);
  detail::Db& db = impl_->db;
  db.setDeadline(options.deadline);
  if (sqlite3_db_readonly(db.handle(), "main") == 1) throw StoreError(path, "cannot write to the database: it is read-only");
  // Read before anything is written: a foreign or incompatible file is left as it is.
  SchemaState state = inspect(db);
  db.exec("PRAGMA foreign_keys = ON");
  {
    Stmt mode(db, "PRAGMA journal_mode");
    mode.start();
    const std::string current = mode.step() ? mode.text(0) : "";
    mode.reset();
    // Switching to WAL needs a short exclusive lock; a concurrent opener may hold it (retried).
    if (current != "wal") db.exec("PRAGMA journal_mode = WAL", options.begin_retry_ms);
  }
  if (state == SchemaState::Complete) return;
  db.exec("BEGIN IMMEDIATE", options.begin_retry_ms);
  try {
    state = inspect(db);  // another process may have created the schema meanwhile
    if (state == SchemaState::Empty) db.exec(("PRAGMA application_id = " + std::to_string(kApplicationId)).c_str());
    if (state != SchemaState::Complete) {
      db.exec(detail::kSchemaSql);
      db.exec(detail::kReleaseSchemaSql);
      Stmt version(db, "SELECT version FROM schema_version");
      version.start();
      const bool hasVersion = version.step();
      const std::int64_t found = hasVersion ? version.integer(0) : 0;
      version.reset();
      if (!hasVersion) {
        Stmt insert(db, "INSERT INTO schema_version(version) VALUES(?)");
        insert.run(kSchemaVersion);
      } else if (found != kSchemaVersion && !detail::migrate(db, found)) {
        throw StoreError(path, "schema version " + std::to_string(found) + " cannot be migrated to " +
                                   std::to_string(kSchemaVersion));
      }
    }
    db.exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void Store::setDeadline(std::optional<std::chrono::steady_clock::time_point> deadline) {
  impl_->db.setDeadline(deadline);
}

}  // namespace pasda::store
