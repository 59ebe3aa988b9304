// Store tests: round trip of every field, transactional failure, typed errors on bad files.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "pasda/store/store.hpp"
#include "store/sample_run.hpp"
#include "store/temp_db.hpp"

namespace pasda::store {
namespace {

using analysis::PartitionResult;
using analysis::RunResult;
using testing::sampleRun;
using testing::TempDb;

void expectSameEffect(const analysis::Effect& a, const analysis::Effect& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.exception, b.exception);
  EXPECT_EQ(a.state, b.state);
}

void expectSamePartition(const PartitionResult& a, const PartitionResult& b) {
  SCOPED_TRACE("partition " + std::to_string(a.index));
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.path_condition, b.path_condition);
  EXPECT_EQ(a.constraint_count, b.constraint_count);
  expectSameEffect(a.old_effect, b.old_effect);
  expectSameEffect(a.new_effect, b.new_effect);
  EXPECT_EQ(a.lines_old, b.lines_old);
  EXPECT_EQ(a.lines_new, b.lines_new);
  EXPECT_EQ(a.pc_status, b.pc_status);
  EXPECT_EQ(a.neq_status, b.neq_status);
  EXPECT_EQ(a.eq_status, b.eq_status);
  EXPECT_EQ(a.reason_unknown, b.reason_unknown);
  EXPECT_EQ(a.neq_old, b.neq_old);
  EXPECT_EQ(a.neq_new, b.neq_new);
  EXPECT_EQ(a.uif_pc, b.uif_pc);
  EXPECT_EQ(a.uif_old, b.uif_old);
  EXPECT_EQ(a.uif_new, b.uif_new);
  EXPECT_EQ(a.depth_limited, b.depth_limited);
  EXPECT_EQ(a.timed_out, b.timed_out);
  EXPECT_EQ(a.reachability, b.reachability);
  EXPECT_EQ(a.output_class, b.output_class);
  EXPECT_EQ(a.result, b.result);
  ASSERT_EQ(a.witness.size(), b.witness.size());
  for (std::size_t i = 0; i < a.witness.size(); ++i) {
    EXPECT_EQ(a.witness[i].name, b.witness[i].name);
    EXPECT_EQ(a.witness[i].type, b.witness[i].type);
    EXPECT_EQ(a.witness[i].literal, b.witness[i].literal);
    EXPECT_EQ(a.witness[i].exact, b.witness[i].exact);
  }
  EXPECT_EQ(a.witness_call, b.witness_call);
  EXPECT_EQ(a.decided_by, b.decided_by);
  ASSERT_EQ(a.replays.size(), b.replays.size());
  for (std::size_t i = 0; i < a.replays.size(); ++i) {
    EXPECT_EQ(a.replays[i].engine, b.replays[i].engine);
    EXPECT_EQ(a.replays[i].old_out, b.replays[i].old_out);
    EXPECT_EQ(a.replays[i].new_out, b.replays[i].new_out);
    EXPECT_EQ(a.replays[i].differs, b.replays[i].differs);
    EXPECT_EQ(a.replays[i].note, b.replays[i].note);
  }
  ASSERT_EQ(a.causes.size(), b.causes.size());
  for (std::size_t i = 0; i < a.causes.size(); ++i) {
    ASSERT_EQ(a.causes[i].lines.size(), b.causes[i].lines.size());
    for (std::size_t k = 0; k < a.causes[i].lines.size(); ++k) {
      const auto &x = a.causes[i].lines[k], &y = b.causes[i].lines[k];
      EXPECT_EQ(std::tie(x.side, x.line, x.kind, x.method, x.old_code, x.new_code),
                std::tie(y.side, y.line, y.kind, y.method, y.old_code, y.new_code));
    }
  }
  EXPECT_EQ(a.time_s, b.time_s);
}

void expectSameRun(const RunResult& a, const RunResult& b) {
  const auto &s = a.settings, &t = b.settings;
  EXPECT_EQ(s.tool, t.tool);
  EXPECT_EQ(s.old_path, t.old_path);
  EXPECT_EQ(s.new_path, t.new_path);
  EXPECT_EQ(s.class_old, t.class_old);
  EXPECT_EQ(s.class_new, t.class_new);
  EXPECT_EQ(s.method, t.method);
  EXPECT_EQ(s.timeout_s, t.timeout_s);
  EXPECT_EQ(s.depth_limit, t.depth_limit);
  EXPECT_EQ(s.deepen, t.deepen);
  EXPECT_EQ(a.depth_limit_used, b.depth_limit_used);
  EXPECT_EQ(a.deepening_rounds, b.deepening_rounds);
  EXPECT_EQ(a.deepening_note, b.deepening_note);
  EXPECT_EQ(a.decided_by, b.decided_by);
  EXPECT_EQ(a.induction_note, b.induction_note);
  EXPECT_EQ(s.arith, t.arith);
  EXPECT_EQ(s.solver_timeout_ms, t.solver_timeout_ms);
  EXPECT_EQ(s.heap_bound, t.heap_bound);
  EXPECT_EQ(s.benchmark, t.benchmark);
  EXPECT_EQ(s.expected, t.expected);
  EXPECT_EQ(s.version, t.version);
  ASSERT_EQ(a.iterations.size(), b.iterations.size());
  for (std::size_t i = 0; i < a.iterations.size(); ++i) {
    const auto &x = a.iterations[i], &y = b.iterations[i];
    SCOPED_TRACE("iteration " + std::to_string(x.index));
    EXPECT_EQ(x.index, y.index);
    EXPECT_EQ(x.uifs, y.uifs);
    EXPECT_EQ(x.result, y.result);
    EXPECT_EQ(x.timed_out, y.timed_out);
    EXPECT_EQ(x.depth_limited, y.depth_limited);
    EXPECT_EQ(x.has_uif, y.has_uif);
    EXPECT_EQ(x.error, y.error);
    EXPECT_EQ(x.runtime_s, y.runtime_s);
    ASSERT_EQ(x.partitions.size(), y.partitions.size());
    for (std::size_t j = 0; j < x.partitions.size(); ++j) expectSamePartition(x.partitions[j], y.partitions[j]);
  }
  EXPECT_EQ(a.reported_iteration, b.reported_iteration);
  EXPECT_EQ(a.result, b.result);
  EXPECT_EQ(a.timed_out, b.timed_out);
  EXPECT_EQ(a.depth_limited, b.depth_limited);
  EXPECT_EQ(a.has_uif, b.has_uif);
  EXPECT_EQ(a.precheck, b.precheck);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.warnings, b.warnings);
  EXPECT_EQ(a.runtime_s, b.runtime_s);
  EXPECT_EQ(a.steps.initialization, b.steps.initialization);
  EXPECT_EQ(a.steps.instrumentation, b.steps.instrumentation);
  EXPECT_EQ(a.steps.symbolic_execution, b.steps.symbolic_execution);
  EXPECT_EQ(a.steps.partition_classification, b.steps.partition_classification);
  EXPECT_EQ(a.steps.program_classification, b.steps.program_classification);
  EXPECT_EQ(a.steps.refinement, b.steps.refinement);
  EXPECT_EQ(a.steps.finalization, b.steps.finalization);
  EXPECT_EQ(a.started_at, b.started_at);
}

TEST(Store, RoundTripPopulatesEveryTable) {
  TempDb tmp("roundtrip");
  Store store(tmp.path());
  const RunResult run = sampleRun();
  const auto id = store.appendRun(run);
  for (const auto& table : tableNames()) EXPECT_GT(store.countRows(table), 0) << table;
  EXPECT_EQ(store.countRows("run"), 1);
  EXPECT_EQ(store.countRows("iteration"), 2);
  EXPECT_EQ(store.countRows("partition"), 3);
  EXPECT_EQ(store.countRows("witness"), 3);
  EXPECT_EQ(store.countRows("replay"), 2);
  EXPECT_EQ(store.countRows("cause"), 3);
  EXPECT_EQ(store.countRows("runtime"), 8);
  auto loaded = store.loadRun(id);
  ASSERT_TRUE(loaded.has_value());
  expectSameRun(run, *loaded);
  EXPECT_FALSE(store.loadRun(id + 100).has_value());
}

TEST(Store, ReopenKeepsRunsAndAppendsMore) {
  TempDb tmp("reopen");
  RunResult second = sampleRun();
  second.settings.benchmark.clear();  // no benchmark row, NULL foreign key
  second.settings.expected.clear();
  second.iterations.clear();
  second.result = analysis::Verdict::ERROR;
  second.errors = "method snippet missing in new version";
  second.precheck = "return types differ: int vs long";
  {
    Store store(tmp.path());
    store.appendRun(sampleRun());
  }
  Store store(tmp.path());
  const auto id2 = store.appendRun(second);
  EXPECT_EQ(store.runIds().size(), 2u);
  EXPECT_EQ(store.countRows("benchmark"), 1);
  EXPECT_EQ(store.countRows("schema_version"), 1);
  auto loaded = store.loadRun(id2);
  ASSERT_TRUE(loaded.has_value());
  expectSameRun(second, *loaded);
}

TEST(Store, StatusesAreStoredAsReferenceIntegers) {
  TempDb tmp("statuses");
  {
    Store store(tmp.path());
    store.appendRun(sampleRun());
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(tmp.path().c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT partition, pc_status, neq_status, eq_status, has_uif, output_v1 "
                               "FROM partition ORDER BY partition",
                               -1, &st, nullptr),
            SQLITE_OK);
  std::vector<std::string> rows;
  while (sqlite3_step(st) == SQLITE_ROW) {
    std::string row;
    for (int c = 0; c < 6; ++c) {
      auto* t = sqlite3_column_text(st, c);
      row += (t ? reinterpret_cast<const char*>(t) : "NULL") + std::string("|");
    }
    rows.push_back(row);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], "1|1|-1|NULL|0|return x + 1; this.count = x|");
  EXPECT_EQ(rows[1], "2|1|1|-1|1|throw java.lang.ArithmeticException|");
  EXPECT_EQ(rows[2], "3|0|NULL|NULL|0|none|");
}

TEST(Store, FailureMidRunLeavesNoPartialRows) {
  TempDb tmp("partial");
  Store store(tmp.path());
  store.appendRun(sampleRun());
  std::vector<std::int64_t> before;
  for (const auto& t : tableNames()) before.push_back(store.countRows(t));

  // Two partitions with the same number in one iteration violate UNIQUE(iteration_id, partition)
  // only after the run, settings, warnings, the iteration and the first partitions were written.
  RunResult bad = sampleRun("-bad");
  bad.iterations[0].partitions[2].index = 1;
  EXPECT_THROW(store.appendRun(bad), StoreError);
  // The same for iterations: a duplicate iteration number in the last iteration.
  RunResult bad2 = sampleRun("-bad2");
  bad2.iterations[1].index = 1;
  try {
    store.appendRun(bad2);
    ADD_FAILURE() << "duplicate iteration accepted";
  } catch (const StoreError& e) {
    EXPECT_EQ(e.path(), tmp.path());
    EXPECT_NE(std::string(e.what()).find("UNIQUE"), std::string::npos) << e.what();
  }
  for (std::size_t i = 0; i < tableNames().size(); ++i) {
    EXPECT_EQ(store.countRows(tableNames()[i]), before[i]) << tableNames()[i];
  }
  // The connection is still usable afterwards.
  EXPECT_NO_THROW(store.appendRun(sampleRun()));
  EXPECT_EQ(store.countRows("run"), 2);
}

TEST(Store, NonDatabaseFileIsATypedError) {
  TempDb tmp("notadb");
  {
    std::ofstream out(tmp.path());
    out << "this is a plain text file, certainly not an SQLite database. " << std::string(4096, 'x');
  }
  try {
    Store store(tmp.path());
    FAIL() << "opened a text file as a database";
  } catch (const StoreError& e) {
    EXPECT_EQ(e.path(), tmp.path());
    EXPECT_NE(std::string(e.what()).find(tmp.path()), std::string::npos);
    EXPECT_FALSE(e.reason().empty());
  }
}

TEST(Store, UnwritableLocationIsATypedError) {
  EXPECT_THROW(Store("/nonexistent-dir-pasda/sub/results.db"), StoreError);
}

TEST(Store, DirectoryIsATypedErrorWithoutWaiting) {
  TempDb tmp("dir");
  std::filesystem::create_directories(tmp.path());  // the "database" path is a directory
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(Store{tmp.path()}, StoreError);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(Store, OtherSchemaVersionIsATypedError) {
  TempDb tmp("version");
  { Store store(tmp.path()); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(tmp.path().c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE schema_version SET version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  try {
    Store store(tmp.path());
    FAIL() << "accepted schema version 99";
  } catch (const StoreError& e) {
    EXPECT_NE(e.reason().find("99"), std::string::npos) << e.what();
  }
}

TEST(Store, CountRowsRejectsUnknownTables) {
  TempDb tmp("count");
  Store store(tmp.path());
  EXPECT_THROW(store.countRows("run; DROP TABLE run"), StoreError);
  EXPECT_EQ(store.countRows("run"), 0);
}

TEST(Store, CoveredLinesAreCompactTextThatRoundTripsInOrder) {
  TempDb tmp("lines");
  Store store(tmp.path());
  RunResult run = sampleRun();
  auto& p = run.iterations[0].partitions[0];
  p.lines_old = {3, 4, 5, 9, 10, 2, 2, 40};  // ascending runs compress; order and repeats are kept
  p.lines_new = {};
  const auto id = store.appendRun(run);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(tmp.path().c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT lines_v1, lines_v2 FROM partition ORDER BY id LIMIT 1", -1, &st, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "3-5,9-10,2,2,40");
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 1)), "");
  sqlite3_finalize(st);
  auto loaded = store.loadRun(id);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->iterations[0].partitions[0].lines_old, p.lines_old);
  EXPECT_TRUE(loaded->iterations[0].partitions[0].lines_new.empty());
  // Corrupt text is a typed error on load, not a crash.
  for (const char* bad : {"3-", "x", "5-3", "1,,2", "1,"}) {
    std::string sql = std::string("UPDATE partition SET lines_v1 = '") + bad + "'";
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    EXPECT_THROW(store.loadRun(id), StoreError) << bad;
  }
  sqlite3_close(db);
}

TEST(Store, PathConditionsBeyondTheRunBudgetKeepAPrefix) {
  TempDb tmp("budget");
  Store store(tmp.path());
  RunResult run = sampleRun();
  // 10,000 partitions with a path condition of 4,000 characters and short outputs: 40 MB,
  // over the 32 MiB budget shared by five texts per partition; each text keeps
  // 32 MiB / 50,000 = 671 characters and says how many were left out.
  auto& parts = run.iterations[0].partitions;
  const PartitionResult proto = parts[0];
  parts.clear();
  for (int i = 0; i < 10000; ++i) {
    PartitionResult p = proto;
    p.index = i + 1;
    p.path_condition = std::string(4000, 'x');
    parts.push_back(std::move(p));
  }
  PartitionResult shortOne = proto;
  shortOne.index = 10001;
  shortOne.path_condition = "x > 0 && y < 3";
  parts.push_back(shortOne);
  const auto id = store.appendRun(run);
  auto loaded = store.loadRun(id);
  ASSERT_TRUE(loaded.has_value());
  const std::string& pc = loaded->iterations[0].partitions[123].path_condition;
  EXPECT_EQ(pc.substr(0, 671), std::string(671, 'x'));
  EXPECT_NE(pc.find("3329 more characters not stored"), std::string::npos) << pc.substr(671);
  EXPECT_EQ(loaded->iterations[0].partitions.back().path_condition, "x > 0 && y < 3");  // short ones are whole
  // A run within the budget is stored whole (RoundTripPopulatesEveryTable compares every field).
}

}  // namespace
}  // namespace pasda::store
