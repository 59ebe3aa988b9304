// Store tests: opening refuses what is not a database of this schema (another application's,
// another version or shape) without changing it; waits for a locked database end at the
// deadline; every message is one line.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include "pasda/store/store.hpp"
#include "store/sample_run.hpp"
#include "store/temp_db.hpp"

namespace pasda::store {
namespace {

using testing::sampleRun;
using testing::TempDb;
using Clock = std::chrono::steady_clock;

/// A second, raw connection to the same file (the "other process").
class Raw {
 public:
  explicit Raw(const std::string& path) { EXPECT_EQ(sqlite3_open(path.c_str(), &db_), SQLITE_OK); }
  ~Raw() { sqlite3_close(db_); }
  void exec(const std::string& sql) {
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << sql << ": " << (err ? err : "");
    sqlite3_free(err);
  }
  /// The first column of every row of `sql`, joined with ','.
  std::string query(const std::string& sql) {
    std::string out;
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
    while (st && sqlite3_step(st) == SQLITE_ROW) {
      if (!out.empty()) out += ',';
      const auto* t = sqlite3_column_text(st, 0);
      out += t ? reinterpret_cast<const char*>(t) : "NULL";
    }
    sqlite3_finalize(st);
    return out;
  }

 private:
  sqlite3* db_ = nullptr;
};

/// The StoreError that opening `path` throws; fails the test if it opens.
StoreError openError(const std::string& path, StoreOptions o = {}) {
  try {
    Store s(path, o);
  } catch (const StoreError& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line: " << e.what();
    return e;
  }
  ADD_FAILURE() << "opened " << path;
  return StoreError(path, "");
}

std::string schemaOf(const std::string& path) {
  Raw raw(path);
  return raw.query("SELECT name || ':' || sql FROM sqlite_master ORDER BY name");
}

TEST(StoreOpen, ForeignDatabaseIsRefusedAndLeftAsItIs) {
  TempDb tmp("foreign");
  {
    Raw raw(tmp.path());
    raw.exec("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers(name) VALUES('x')");
  }
  const std::string before = schemaOf(tmp.path());
  StoreError e = openError(tmp.path());
  EXPECT_NE(e.reason().find("not a pasda results database"), std::string::npos) << e.reason();
  EXPECT_NE(e.reason().find("customers"), std::string::npos) << e.reason();
  EXPECT_EQ(schemaOf(tmp.path()), before) << "no table was added";
  Raw raw(tmp.path());
  EXPECT_EQ(raw.query("PRAGMA journal_mode"), "delete") << "the journal mode was not switched";
}

TEST(StoreOpen, OtherApplicationIdIsRefused) {
  TempDb tmp("appid");
  { Raw(tmp.path()).exec("PRAGMA application_id = 1234"); }
  StoreError e = openError(tmp.path());
  EXPECT_NE(e.reason().find("another application (application_id 0x000004d2)"), std::string::npos) << e.reason();
  EXPECT_EQ(schemaOf(tmp.path()), "");
}

TEST(StoreOpen, NewDatabaseCarriesPasdaApplicationId) {
  TempDb tmp("newid");
  { Store s(tmp.path()); }
  Raw raw(tmp.path());
  EXPECT_EQ(raw.query("PRAGMA application_id"), std::to_string(kApplicationId));
  EXPECT_EQ(raw.query("PRAGMA journal_mode"), "wal");
}

TEST(StoreOpen, DatabaseWithoutApplicationIdButPasdaTablesIsAccepted) {
  // What the study harness (or an earlier pasda-jvm) creates: the schema, application_id 0.
  TempDb tmp("noid");
  {
    Store s(tmp.path());
    s.appendRun(sampleRun());
  }
  Raw(tmp.path()).exec("PRAGMA application_id = 0");
  Store s(tmp.path());
  s.appendRun(sampleRun("-2"));
  EXPECT_EQ(s.countRows("run"), 2);
}

TEST(StoreOpen, OtherShapeOfAPasdaTableIsRefusedBeforeAnyRun) {
  TempDb tmp("shape");
  { Store s(tmp.path()); }
  {
    Raw raw(tmp.path());
    raw.exec("DROP TABLE runtime; CREATE TABLE runtime(\n  id INTEGER PRIMARY KEY,\n  what TEXT)");
  }
  StoreError e = openError(tmp.path());
  EXPECT_NE(e.reason().find("table runtime has columns (id, what)"), std::string::npos) << e.reason();
}

TEST(StoreOpen, OlderSchemaVersionIsNamed) {
  TempDb tmp("v1");
  { Store s(tmp.path()); }
  Raw(tmp.path()).exec("UPDATE schema_version SET version = 1");
  StoreError e = openError(tmp.path());
  EXPECT_NE(e.reason().find("schema version 1; this pasda-jvm writes version " + std::to_string(kSchemaVersion)),
            std::string::npos)
      << e.reason();
}

TEST(StoreOpen, EmptyFileBecomesADatabase) {
  TempDb tmp("empty");
  { std::ofstream(tmp.path()); }
  Store s(tmp.path());
  s.appendRun(sampleRun());
  EXPECT_EQ(s.countRows("run"), 1);
}

TEST(StoreOpen, PathProblemsAreNamed) {
  TempDb tmp("paths");
  EXPECT_NE(openError("/nonexistent-dir-pasda/results.db").reason().find("directory /nonexistent-dir-pasda does not exist"),
            std::string::npos);
  const std::string dir = tmp.path() + ".d";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(openError(dir).reason(), "is a directory, not a results database");
  { std::ofstream(tmp.path()) << "plain text " << std::string(2000, 'x'); }
  EXPECT_EQ(openError(tmp.path()).reason(), "is not an SQLite database");
  EXPECT_NE(openError(tmp.path() + "/sub.db").reason().find("is not a directory"), std::string::npos);
  EXPECT_EQ(openError("/dev/null").reason(), "is not a regular file, not a results database");
}

TEST(StoreOpen, ReadOnlyFileIsRefusedAtOpen) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes read-only files; tests/e2e covers this as an unprivileged user";
  TempDb tmp("ro");
  { Store s(tmp.path()); }
  ASSERT_EQ(::chmod(tmp.path().c_str(), 0444), 0);
  EXPECT_NE(openError(tmp.path()).reason().find("cannot write to the database"), std::string::npos);
}

TEST(StoreOpen, LockedDatabaseWaitsOnlyUntilTheDeadline) {
  TempDb tmp("locked");
  { Store s(tmp.path()); }
  Raw other(tmp.path());
  other.exec("BEGIN IMMEDIATE; INSERT INTO benchmark(benchmark) VALUES('held')");
  StoreOptions o;
  o.deadline = Clock::now() + std::chrono::milliseconds(600);
  Store s(tmp.path(), o);  // a complete WAL database is opened without taking the write lock
  const auto t0 = Clock::now();
  try {
    s.appendRun(sampleRun());
    FAIL() << "appended under another connection's write lock";
  } catch (const StoreError& e) {
    EXPECT_NE(e.reason().find("locked"), std::string::npos) << e.reason();
  }
  const double waited = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_LT(waited, 1.5) << "the 30 s busy timeout must not outlast the deadline";
  other.exec("COMMIT");
  // With a later deadline the same connection stores the run.
  s.setDeadline(Clock::now() + std::chrono::seconds(5));
  EXPECT_NO_THROW(s.appendRun(sampleRun()));
  EXPECT_EQ(s.countRows("run"), 1);
}

TEST(StoreOpen, SqliteMessagesAreOneLine) {
  TempDb tmp("oneline");
  { Store s(tmp.path()); }
  // A trigger that fails every insert into run: SQLite's message comes back through Db::fail.
  Raw(tmp.path()).exec("CREATE TRIGGER no_runs BEFORE INSERT ON run BEGIN SELECT RAISE(ABORT, 'no\nruns\there'); END");
  Store s(tmp.path());
  try {
    s.appendRun(sampleRun());
    FAIL() << "the trigger did not fire";
  } catch (const StoreError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find("no runs here"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace pasda::store
