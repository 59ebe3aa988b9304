// Iterative deepening of the depth limit (src/analysis/deepen.cpp, docs/depth-limit.md): a loop
// whose trip count the input range bounds becomes EQ, a difference beyond the first limits
// becomes NEQ and never EQ, an unbounded loop still ends within the timeout undecided; with
// deepening off every result is the one of the starting limit.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "pasda/analysis/analysis.hpp"

using namespace pasda;
using analysis::RunResult;
using classify::Verdict;

namespace {

std::string fixture(const std::string& kase, const std::string& side) {
  return std::string(PASDA_FIXTURE_CLASSES) + "/deepen/" + kase + "/" + side + "/deepen/" + kase + "/Loop.class";
}

struct Setting {
  std::string mode = "pasda";  // a tool name
  terms::Arith arith = terms::Arith::Math;
  bool deepen = true;
  double timeout_s = 60;
};

RunResult run(const std::string& kase, const Setting& s) {
  analysis::Version o = analysis::loadVersion(fixture(kase, "old"), "", "");
  analysis::Version n = analysis::loadVersion(fixture(kase, "new"), "", "");
  analysis::Options opt;
  opt.mode = *pasda::analysis::parseTool(s.mode);
  opt.arith = s.arith;
  opt.deepen = s.deepen;
  opt.timeout_s = s.timeout_s;
  opt.method = "twice";
  opt.replay = "interp";  // no JVM start-up in the time of these runs
  // Deepening alone: the concrete search past the depth limit (which finds "beyond"'s
  // difference in the first round) is tests/cli/search_test.cpp's.
  opt.deep_search = false;
  return analysis::analyze(o, n, opt);
}

std::string describe(const RunResult& r) {
  return std::string(classify::verdictName(r.result)) + " at depth " + std::to_string(r.depth_limit_used) + ", " +
         std::to_string(r.deepening_rounds) + " rounds, " + std::to_string(r.runtime_s) + " s; " + r.deepening_note;
}

class Deepening : public ::testing::TestWithParam<terms::Arith> {};

// (a) 0 <= x <= 30: the loop needs up to 30 counted decisions. Rounds at 10 and 20 cut it, the
// round at 40 completes every path: EQ, reported with the limit used and the three rounds.
TEST_P(Deepening, ABoundedTripCountBecomesEq) {
  Setting s;
  s.arith = GetParam();
  RunResult r = run("bounded", s);
  EXPECT_EQ(r.result, Verdict::EQ) << describe(r);
  EXPECT_EQ(r.depth_limit_used, 40) << describe(r);
  EXPECT_EQ(r.deepening_rounds, 3) << describe(r);
  EXPECT_EQ(r.settings.depth_limit, 10) << "the starting limit is recorded as given";
  EXPECT_FALSE(r.depth_limited);
  for (const auto& it : r.iterations)
    for (const auto& p : it.partitions) EXPECT_NE(p.result, Verdict::DEPTH_LIMITED) << p.path_condition;
}

TEST_P(Deepening, OffKeepsTheResultOfTheStartingLimit) {
  Setting s;
  s.arith = GetParam();
  s.deepen = false;
  RunResult r = run("bounded", s);
  EXPECT_EQ(r.result, Verdict::MAYBE_EQ) << describe(r);
  EXPECT_TRUE(r.depth_limited);
  EXPECT_EQ(r.depth_limit_used, 10);
  EXPECT_EQ(r.deepening_rounds, 1);
  EXPECT_TRUE(r.deepening_note.empty()) << r.deepening_note;
  EXPECT_FALSE(r.settings.deepen);
}

// (b) The versions differ only for trip counts 25 to 30: at limits 10 and 20 every complete
// partition is EQ (MAYBE_EQ overall); the round at 40 reaches the difference: NEQ, never EQ.
TEST_P(Deepening, ADifferenceBeyondTheLimitBecomesNeqNeverEq) {
  Setting s;
  s.arith = GetParam();
  RunResult r = run("beyond", s);
  EXPECT_EQ(r.result, Verdict::NEQ) << describe(r);
  EXPECT_EQ(r.depth_limit_used, 40) << describe(r);
  bool neqAt25 = false;
  for (const auto& p : r.iterations[r.reported_iteration].partitions)
    if (p.result == Verdict::NEQ && !p.witness.empty()) neqAt25 = neqAt25 || std::stoi(p.witness[0].literal) >= 25;
  EXPECT_TRUE(neqAt25) << "no NEQ partition with a witness x >= 25";

  s.deepen = false;
  RunResult off = run("beyond", s);
  EXPECT_EQ(off.result, Verdict::MAYBE_EQ) << describe(off);
}

// No starting limit makes it EQ: from 0 (no counted decision at all) to 30, deepening either
// reaches the difference or stays undecided.
TEST_P(Deepening, FromAnyStartingLimitTheDifferenceBecomesNeq) {
  for (int start : {0, 3, 25}) {
    SCOPED_TRACE(start);
    analysis::Version o = analysis::loadVersion(fixture("beyond", "old"), "", "");
    analysis::Version n = analysis::loadVersion(fixture("beyond", "new"), "", "");
    analysis::Options opt;
    opt.arith = GetParam();
    opt.depth_limit = start;
    opt.timeout_s = 60;
    opt.replay = "interp";
    opt.deep_search = false;  // (deepening alone)
    RunResult r = analysis::analyze(o, n, opt);
    EXPECT_EQ(r.result, Verdict::NEQ) << describe(r);
    EXPECT_GE(r.depth_limit_used, 25) << describe(r);
  }
}

// (c) An unconstrained trip count: every round is cut, the rounds grow until one does not finish
// before the deadline; the run still ends within its timeout and is not EQ.
TEST_P(Deepening, AnUnboundedLoopEndsWithinTheTimeoutUndecided) {
  Setting s;
  s.arith = GetParam();
  s.timeout_s = 4;
  const auto t0 = std::chrono::steady_clock::now();
  RunResult r = run("unbounded", s);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_NE(r.result, Verdict::EQ) << describe(r);
  EXPECT_NE(r.result, Verdict::NEQ) << describe(r);
  EXPECT_NE(r.result, Verdict::ERROR) << describe(r) << r.errors;
  EXPECT_LE(wall, s.timeout_s + 0.5) << describe(r);
  EXPECT_GE(r.deepening_rounds, 3) << describe(r);
  EXPECT_GE(r.depth_limit_used, 20) << describe(r);
  EXPECT_FALSE(r.deepening_note.empty()) << "why deepening stopped is reported";
}

INSTANTIATE_TEST_SUITE_P(Analysis, Deepening, ::testing::Values(terms::Arith::Math, terms::Arith::Java),
                         [](const ::testing::TestParamInfo<terms::Arith>& i) {
                           return std::string(terms::arithName(i.param));
                         });

// The other tools that use the depth limit deepen too.
TEST(DeepeningModes, PrvDseAndArdiffProveTheBoundedLoop) {
  for (const char* mode : {"prv", "dse", "ardiff"}) {
    SCOPED_TRACE(mode);
    Setting s;
    s.mode = mode;
    RunResult r = run("bounded", s);
    EXPECT_EQ(r.result, Verdict::EQ) << describe(r);
    EXPECT_GE(r.depth_limit_used, 40) << describe(r);
    s.deepen = false;
    RunResult off = run("bounded", s);
    EXPECT_NE(off.result, Verdict::EQ) << describe(off);
    EXPECT_NE(off.result, Verdict::NEQ) << describe(off);
    EXPECT_EQ(off.deepening_rounds, 1);
  }
}

// The guard's snapshot (a solver call that never returns) during a deeper round reports the
// last completed round, not the partial deeper one, unless the deeper one has a NEQ.
TEST(DeepeningMonitor, ASnapshotDuringADeeperRoundReportsTheCompletedRound) {
  analysis::RunMonitor m;
  RunResult head;
  head.settings.depth_limit = 10;
  m.header(head);
  RunResult done;
  done.result = Verdict::MAYBE_EQ;
  done.depth_limit_used = 10;
  done.deepening_rounds = 1;
  m.beginRound(done, 20);
  m.beginIteration(1, {});
  analysis::PartitionResult eq;
  eq.result = Verdict::EQ;
  m.partition(eq);  // an all-EQ partial round: never reported as EQ
  RunResult snap = m.snapshot();
  EXPECT_EQ(snap.result, Verdict::MAYBE_EQ);
  EXPECT_EQ(snap.depth_limit_used, 10);
  EXPECT_EQ(snap.deepening_rounds, 2);
  EXPECT_TRUE(snap.timed_out);
  EXPECT_FALSE(snap.deepening_note.empty());

  analysis::PartitionResult neq;
  neq.result = Verdict::NEQ;
  m.partition(neq);  // an established NEQ of the deeper round stands
  snap = m.snapshot();
  EXPECT_EQ(snap.result, Verdict::NEQ);
  EXPECT_EQ(snap.depth_limit_used, 20);
}

}  // namespace
