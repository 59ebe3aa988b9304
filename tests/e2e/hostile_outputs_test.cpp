// The hostile-input suite, output targets (issue 16): a database that is not pasda's or not
// usable, a locked database, --emit-tests/--emit-product on a file or an unwritable place, and
// standard output that cannot be written. Each is found before the analysis where it can be,
// or reported after it with the result still printed; always one error line and exit 2.
#include <sqlite3.h>
#include <sys/stat.h>

#include "e2e/hostile_support.hpp"

namespace e2e::hostile {
namespace {

const std::string kOld = cliClass("eqmax", "old", "MaxSum");
const std::string kNew = cliClass("eqmax", "new", "MaxSum");

/// A raw SQLite connection of the test: the "other application" or "other process".
class Sql {
 public:
  explicit Sql(const std::string& path) { EXPECT_EQ(sqlite3_open(path.c_str(), &db_), SQLITE_OK); }
  ~Sql() { sqlite3_close(db_); }
  void exec(const std::string& sql) {
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << sql << ": " << (err ? err : "");
    sqlite3_free(err);
  }
  std::string one(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    std::string out;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
    if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
  }

 private:
  sqlite3* db_ = nullptr;
};

std::vector<std::string> withDb(const std::string& db, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"-q", "--timeout", "20", "--db", db};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {kOld, kNew});
  return args;
}

/// A run refused before its analysis: at once (the analysis of this pair alone takes longer
/// than the margin only on a machine far slower than any CI).
void expectRefusedUpFront(const Measured& r, const std::vector<std::string>& mentions) {
  expectOneErrorLine(r, mentions);
  EXPECT_LT(r.seconds, 2.0) << describe(r);
}

TEST(HostileOutput, ForeignDatabaseIsRefusedAndLeftUnchanged) {
  fs::path d = scratch("foreign");
  const std::string db = (d / "app.db").string();
  Sql(db).exec("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT)");
  expectRefusedUpFront(runMeasured(withDb(db)), {db + ": is an SQLite database but not a pasda results database"});
  EXPECT_EQ(Sql(db).one("SELECT group_concat(name) FROM sqlite_master"), "customers") << "no table added";

  const std::string other = (d / "other.db").string();
  Sql(other).exec("PRAGMA application_id = 42");
  expectRefusedUpFront(runMeasured(withDb(other)), {other + ": is an SQLite database of another application"});
  fs::remove_all(d);
}

TEST(HostileOutput, IncompatiblePasdaDatabaseIsRefusedUpFront) {
  fs::path d = scratch("incompat");
  const std::string db = (d / "results.db").string();
  Measured first = runMeasured(withDb(db));
  ASSERT_EQ(first.code, 0) << describe(first);
  Sql(db).exec("UPDATE schema_version SET version = 1");
  expectRefusedUpFront(runMeasured(withDb(db)), {db + ": is a pasda results database of schema version 1"});
  Sql(db).exec("UPDATE schema_version SET version = 2; ALTER TABLE run ADD COLUMN extra TEXT");
  expectRefusedUpFront(runMeasured(withDb(db)), {db + ": is not a database of this pasda-jvm's schema: table run has columns"});
  EXPECT_EQ(Sql(db).one("SELECT count(*) FROM run"), "1");
  fs::remove_all(d);
}

TEST(HostileOutput, UnusableDatabasePathsAreRefusedUpFront) {
  fs::path d = scratch("dbpaths");
  const std::string garbage = (d / "garbage.db").string();
  std::ofstream(garbage) << "garbage, not a database " << std::string(5000, 'g');
  expectRefusedUpFront(runMeasured(withDb(garbage)), {garbage + ": is not an SQLite database"});
  expectRefusedUpFront(runMeasured(withDb(d.string())), {d.string() + ": is a directory, not a results database"});
  const std::string missing = (d / "no" / "such" / "r.db").string();
  expectRefusedUpFront(runMeasured(withDb(missing)), {missing + ": directory " + (d / "no" / "such").string() + " does not exist"});
  fs::remove_all(d);
}

TEST(HostileOutput, ReadOnlyDatabaseAndDirectoryAreRefusedUpFront) {
  // Run as an unprivileged user (root ignores permissions): a file and a directory it cannot write.
  fs::path d = scratch("readonly");
  const fs::path ro = d / "ro";
  fs::create_directories(ro);
  const std::string db = (ro / "results.db").string();
  ASSERT_EQ(runMeasured(withDb(db)).code, 0);
  ::chmod(db.c_str(), 0444);
  ::chmod(ro.c_str(), 0555);
  expectRefusedUpFront(runMeasured(withDb(db), {.unprivileged = true}), {db + ": cannot write to the database"});
  const std::string fresh = (ro / "new.db").string();
  expectRefusedUpFront(runMeasured(withDb(fresh), {.unprivileged = true}),
                       {fresh + ": cannot create the database: directory " + ro.string() + " is not writable"});
  EXPECT_FALSE(fs::exists(fresh));
  ::chmod(ro.c_str(), 0755);
  fs::remove_all(d);
}

TEST(HostileOutput, LockedDatabaseCostsAtMostTheTimeoutPlusGraceAndTheResultIsPrinted) {
  fs::path d = scratch("locked");
  const std::string db = (d / "results.db").string();
  ASSERT_EQ(runMeasured(withDb(db)).code, 0);
  Sql other(db);
  other.exec("BEGIN IMMEDIATE; INSERT INTO benchmark(benchmark) VALUES('held by another process')");
  Measured r = runMeasured({"-q", "--timeout", "2", "--db", db, kOld, kNew}, {.kill_after_s = 30});
  expectOneErrorLine(r, {db + ": the run was not stored: the database stayed locked"}, true);
  EXPECT_EQ(r.out, "Result: EQ (arithmetic: math)\n") << "the result is printed all the same";
  EXPECT_LT(r.seconds, 2.0 + 2.0 + 1.0) << "--timeout, the store's 2 s grace, and a margin";
  EXPECT_GT(r.seconds, 2.0) << "the busy wait lasts until the deadline";
  other.exec("COMMIT");
  EXPECT_EQ(Sql(db).one("SELECT count(*) FROM run"), "1");
  EXPECT_EQ(runMeasured(withDb(db)).code, 0) << "stored once the lock is gone";
  EXPECT_EQ(Sql(db).one("SELECT count(*) FROM run"), "2");
  fs::remove_all(d);
}

TEST(HostileOutput, EmitDirectoriesThatCannotBeWrittenAreRefusedUpFront) {
  fs::path d = scratch("emit");
  const std::string file = (d / "file.txt").string();
  std::ofstream(file) << "a regular file";
  for (const char* option : {"--emit-tests", "--emit-product"}) {
    SCOPED_TRACE(option);
    expectRefusedUpFront(runMeasured({option, file, kOld, kNew}), {file + ": is not a directory"});
    const std::string below = file + "/sub";
    expectRefusedUpFront(runMeasured({option, below, kOld, kNew}), {below + ": cannot create the directory"});
    const fs::path locked = d / "locked";
    fs::create_directories(locked);
    ::chmod(locked.c_str(), 0555);
    expectRefusedUpFront(runMeasured({option, locked.string(), kOld, kNew}, {.unprivileged = true}),
                         {locked.string() + ": cannot write in the directory"});
    const std::string inLocked = (locked / "new").string();
    expectRefusedUpFront(runMeasured({option, inLocked, kOld, kNew}, {.unprivileged = true}),
                         {inLocked + ": cannot create the directory"});
  }
  fs::remove_all(d);
}

TEST(HostileOutput, FullStandardOutputIsAnError) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"-q", kOld, kNew},
                                               std::vector<std::string>{"--format", "json", kOld, kNew},
                                               std::vector<std::string>{"--help"},
                                               std::vector<std::string>{"--dump", kOld}}) {
    SCOPED_TRACE(args.front());
    Measured r = runMeasured(args, {.out = Stdout::DevFull});
    expectOneErrorLine(r, {"cannot write the result to standard output: No space left on device"});
  }
}

TEST(HostileOutput, ClosedStandardOutputIsAnErrorAndNothingRuns) {
  fs::path d = scratch("closed");
  const std::string db = (d / "results.db").string();
  Measured r = runMeasured({"-q", "--db", db, kOld, kNew}, {.out = Stdout::Closed});
  expectOneErrorLine(r, {"standard output is closed"});
  EXPECT_FALSE(fs::exists(db)) << "the database did not take descriptor 1";
  fs::remove_all(d);
}

}  // namespace
}  // namespace e2e::hostile
