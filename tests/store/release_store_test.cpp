// Release diffs in the database (schema 3): the rows ReleaseStore writes as a diff runs, and
// the migration of a version-2 database, which keeps its runs and adds the release tables.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "pasda/store/release_store.hpp"
#include "store/sample_run.hpp"
#include "store/temp_db.hpp"

namespace pasda::store {
namespace {

using release::Category;
using testing::sampleRun;
using testing::TempDb;

// Runs SQL on the file directly (outside the store), for the checks and the old-version set-up.
std::string sql(const std::string& path, const std::string& statement) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string out;
  char* err = nullptr;
  sqlite3_exec(db, statement.c_str(), [](void* acc, int n, char** values, char**) {
    auto* s = static_cast<std::string*>(acc);
    for (int i = 0; i < n; ++i) *s += std::string(i ? "|" : "") + (values[i] ? values[i] : "NULL");
    *s += "\n";
    return 0;
  }, &out, &err);
  EXPECT_EQ(err, nullptr) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
  return out;
}

release::ReleaseResult sampleDiff() {
  release::ReleaseResult r;
  r.settings.old_path = "a.jar";
  r.settings.new_path = "b.jar";
  r.settings.fingerprint = "00ff";
  r.settings.jobs = 2;
  r.started_at = "2025-01-01T00:00:00Z";
  r.classes.push_back({"demo.Gone", "removed", {"removed (public class)"}});
  release::MethodEntry same;
  same.cls = "demo.Demo";
  same.name = "id";
  same.descriptor = "(I)I";
  same.category = Category::Identical;
  same.verdict = classify::Verdict::EQ;
  release::MethodEntry changed = same;
  changed.name = "snippet";
  changed.descriptor = "(ID)D";
  changed.category = Category::Changed;
  changed.verdict.reset();
  r.methods = {same, changed};
  return r;
}

TEST(ReleaseStore, WritesTheDiffAsItRuns) {
  TempDb tmp("release");
  release::ReleaseResult r = sampleDiff();
  ReleaseStore st(tmp.path());
  const auto id = st.begin(r);
  // Before the analysed method finishes: the diff has no result, the method no row.
  EXPECT_EQ(sql(tmp.path(), "SELECT count(*), result IS NULL FROM release_diff"), "1|1\n");
  EXPECT_EQ(sql(tmp.path(), "SELECT method, category, result FROM release_method"), "id|identical|EQ\n");
  r.methods[1].run = sampleRun();
  r.methods[1].verdict = r.methods[1].run->result;
  r.methods[1].time_s = 1.5;
  st.method(r.methods[1]);
  r.runtime_s = 2.5;
  st.finish(r);
  EXPECT_EQ(st.diffId(), id);
  EXPECT_EQ(sql(tmp.path(), "SELECT m.method, m.result, r.method, m.runtime FROM release_method m JOIN run r "
                            "ON r.id = m.run_id"),
            "snippet|NEQ|snippet:(ID)D|1.5\n");
  EXPECT_EQ(sql(tmp.path(), "SELECT result, exit_code, runtime, fingerprint FROM release_diff"), "NEQ|1|2.5|00ff\n");
  EXPECT_EQ(sql(tmp.path(), "SELECT class, status FROM release_class"), "demo.Gone|removed\n");
  Store plain(tmp.path());
  for (const auto& t : releaseTableNames()) EXPECT_GT(plain.countRows(t), 0) << t;
}

TEST(ReleaseStore, Version2DatabasesAreMigrated) {
  TempDb tmp("migrate");
  {
    Store st(tmp.path());
    st.appendRun(sampleRun());
  }
  // Turn the file into what version 2 wrote: no release tables.
  sql(tmp.path(), "DROP TABLE release_method; DROP TABLE release_class; DROP TABLE release_diff; "
                  "UPDATE schema_version SET version = 2");
  {
    Store st(tmp.path());
    EXPECT_EQ(st.countRows("run"), 1);
    EXPECT_EQ(st.countRows("release_diff"), 0);
  }
  EXPECT_EQ(sql(tmp.path(), "SELECT version FROM schema_version"), "6\n");
  ReleaseStore rs(tmp.path());
  rs.begin(sampleDiff());
  EXPECT_EQ(sql(tmp.path(), "SELECT count(*) FROM release_diff"), "1\n");
  // Another version is still refused.
  sql(tmp.path(), "UPDATE schema_version SET version = 9");
  EXPECT_THROW(Store{tmp.path()}, StoreError);
}

TEST(ReleaseStore, Version3DatabasesGetTheCauseTable) {
  TempDb tmp("migrate3");
  {
    Store st(tmp.path());
    st.appendRun(sampleRun());
  }
  // What version 3 wrote: no table `cause`.
  sql(tmp.path(), "DROP TABLE cause; UPDATE schema_version SET version = 3");
  EXPECT_EQ(sql(tmp.path(), "SELECT count(*) FROM sqlite_master WHERE name = 'cause'"), "0\n");
  {
    Store st(tmp.path());
    EXPECT_EQ(st.countRows("run"), 1);
    EXPECT_EQ(st.countRows("cause"), 0);  // the old run has no explanations
    const auto id = st.appendRun(sampleRun("-v4"));
    EXPECT_EQ(st.countRows("cause"), 3);
    auto loaded = st.loadRun(id);
    ASSERT_TRUE(loaded.has_value());
    ASSERT_EQ(loaded->iterations.at(0).partitions.at(1).causes.size(), 2u);
    EXPECT_EQ(loaded->iterations[0].partitions[1].causes[0].lines.at(0).line, 42);
  }
  EXPECT_EQ(sql(tmp.path(), "SELECT version FROM schema_version"), "6\n");
}

TEST(ReleaseStore, Version4DatabasesGetTheDeepeningTable) {
  TempDb tmp("migrate4");
  {
    Store st(tmp.path());
    st.appendRun(sampleRun());
  }
  // What version 4 wrote: no table `deepening`.
  sql(tmp.path(), "DROP TABLE deepening; UPDATE schema_version SET version = 4");
  {
    Store st(tmp.path());
    EXPECT_EQ(st.countRows("run"), 1);
    EXPECT_EQ(st.countRows("deepening"), 0);
    auto old = st.loadRun(st.runIds().at(0));  // a run of the old file: no deepening row
    ASSERT_TRUE(old.has_value());
    EXPECT_EQ(old->deepening_rounds, 0);
    const auto id = st.appendRun(sampleRun("-v5"));
    EXPECT_EQ(st.countRows("deepening"), 1);
    auto loaded = st.loadRun(id);
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(loaded->depth_limit_used, 40);
    EXPECT_EQ(loaded->deepening_rounds, 4);
    EXPECT_TRUE(loaded->settings.deepen);
  }
  EXPECT_EQ(sql(tmp.path(), "SELECT version FROM schema_version"), "6\n");
  EXPECT_EQ(sql(tmp.path(), "SELECT enabled, depth_limit_used, rounds FROM deepening"), "1|40|4\n");
}

TEST(ReleaseStore, Version5DatabasesGetTheDecisionTable) {
  TempDb tmp("migrate5");
  {
    Store st(tmp.path());
    st.appendRun(sampleRun());
  }
  // What version 5 wrote: no table `decision`.
  sql(tmp.path(), "DROP TABLE decision; UPDATE schema_version SET version = 5");
  {
    Store st(tmp.path());
    EXPECT_EQ(st.countRows("run"), 1);
    EXPECT_EQ(st.countRows("decision"), 0);
    auto old = st.loadRun(st.runIds().at(0));  // a run of the old file: no decision row
    ASSERT_TRUE(old.has_value());
    EXPECT_EQ(old->decided_by, "");
    pasda::analysis::RunResult r = sampleRun("-v6");
    r.decided_by = "induction";
    r.induction_note = "proved: loop pair 1 (old pc 4, new pc 4): invariant i(old) == i(new)";
    const auto id = st.appendRun(r);
    EXPECT_EQ(st.countRows("decision"), 1);
    auto loaded = st.loadRun(id);
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(loaded->decided_by, "induction");
    EXPECT_EQ(loaded->induction_note, r.induction_note);
  }
  EXPECT_EQ(sql(tmp.path(), "SELECT version FROM schema_version"), "6\n");
}

}  // namespace
}  // namespace pasda::store
