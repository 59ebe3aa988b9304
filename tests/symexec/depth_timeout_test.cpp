// The depth budget (real two-way decisions inside loops or recursion, per path) with the
// paper's Listing 1 as the worked example, and the wall-clock deadline.
#include <chrono>
#include <filesystem>

#include "pasda/symexec/concrete.hpp"
#include "symexec/support.hpp"

namespace symtest {
namespace {

class Depth : public BothModels {
 protected:
  Harness h{GetParam()};
  TermManager& tm = h.tm();
  Term lit(int v) { return tm.intLit(v); }
};

// Listing 1 (the new version's loop): every loop-condition decision is inside the loop, so a
// path exits after j iterations having taken j+1 decisions. At limit 10: x <= 0 and x = 1..9
// complete (10 partitions); the path that took 10 "continue" decisions is cut at the 11th,
// with path condition x >= 10.
TEST_P(Depth, Listing1AtLimitTen) {
  ExecOptions opt;
  opt.depth_limit = 10;
  Explored e = h.explore("Calls", "count", "(I)I", opt);
  ASSERT_EQ(e.parts.size(), 11u);
  ASSERT_EQ(countCut(e), 1u);
  Term x = h.var(e, "x");
  std::set<std::int64_t> returned;
  for (const RawPartition& p : e.parts) {
    if (p.depth_limited) {
      EXPECT_FALSE(p.step_limited);
      EXPECT_EQ(p.entry.kind, ExecEffect::Kind::None);
      EXPECT_TRUE(h.equivalent(h.pc(p), tm.ge(x, lit(10))));
      continue;
    }
    ASSERT_EQ(p.entry.kind, ExecEffect::Kind::Return);
    auto v = tm.asInteger(p.entry.value);
    ASSERT_TRUE(v) << tm.toString(p.entry.value);
    returned.insert(*v);
    EXPECT_TRUE(h.equivalent(h.pc(p), *v == 0 ? tm.le(x, lit(0)) : tm.eq(x, lit(static_cast<int>(*v)))));
  }
  EXPECT_EQ(returned, (std::set<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST_P(Depth, LimitScalesTheCutPoint) {
  for (int limit : {0, 1, 3}) {
    SCOPED_TRACE(limit);
    ExecOptions opt;
    opt.depth_limit = limit;
    Explored e = h.explore("Calls", "count", "(I)I", opt);
    ASSERT_EQ(e.parts.size(), static_cast<std::size_t>(limit + 1));
    ASSERT_EQ(countCut(e), 1u);
    for (const RawPartition& p : e.parts)
      if (p.depth_limited) {
        EXPECT_TRUE(h.equivalent(h.pc(p), limit == 0 ? tm.boolLit(true) : tm.ge(h.var(e, "x"), lit(limit))));
      }
  }
}

// Two loops in sequence share one path's budget. A path exits the first loop after i
// iterations (i+1 decisions) and the second after j (j+1 more): complete iff i + j <= 8,
// i.e. 45 partitions; cut paths: x >= 10 in the first loop, and for each i = 0..9 the path
// x = i (or x <= 0) with y >= 9 - i in the second (y free for i = 9): 11. A budget that drifted with the
// exploration order would not give this set.
TEST_P(Depth, TwoLoopsShareThePathBudget) {
  ExecOptions opt;
  opt.depth_limit = 10;
  Explored e = h.explore("Calls", "twoLoops", "(II)I", opt);
  EXPECT_EQ(e.parts.size(), 56u);
  EXPECT_EQ(countCut(e), 11u);
  Term x = h.var(e, "x"), y = h.var(e, "y");
  auto exitAt = [&](Term v, int n) { return n == 0 ? tm.le(v, lit(0)) : tm.eq(v, lit(n)); };
  std::set<std::pair<int, int>> complete;
  int cutsMatched = 0;
  for (const RawPartition& p : e.parts) {
    Term pc = h.pc(p);
    if (p.depth_limited) {
      if (h.equivalent(pc, tm.ge(x, lit(10)))) { ++cutsMatched; continue; }
      // The cut happens before the decision it cannot afford: for i = 9 that is the second
      // loop's first decision, so y is unconstrained.
      for (int i = 0; i <= 9; ++i)
        if (h.equivalent(pc, i == 9 ? exitAt(x, i) : tm.land(exitAt(x, i), tm.ge(y, lit(9 - i))))) ++cutsMatched;
      continue;
    }
    auto v = tm.asInteger(p.entry.value);
    ASSERT_TRUE(v);
    int i = static_cast<int>(*v / 100), j = static_cast<int>(*v % 100);
    EXPECT_LE(i + j, 8);
    EXPECT_TRUE(h.equivalent(pc, tm.land(exitAt(x, i), exitAt(y, j))));
    complete.insert({i, j});
  }
  EXPECT_EQ(complete.size(), 45u);
  EXPECT_EQ(cutsMatched, 11);
}

TEST_P(Depth, DecisionsOutsideLoopsAndFixedLoopsAreFree) {
  ExecOptions opt;
  opt.depth_limit = 10;
  // Two decisions before the loop do not count: 4 x (10 complete + 1 cut).
  Explored e = h.explore("Calls", "beforeLoop", "(III)I", opt);
  EXPECT_EQ(e.parts.size(), 44u);
  EXPECT_EQ(countCut(e), 4u);
  // A loop with a constant trip count takes no symbolic decision at all.
  opt.depth_limit = 0;
  Explored f = h.explore("Calls", "fixedLoop", "(I)I", opt);
  ASSERT_EQ(f.parts.size(), 1u);
  EXPECT_FALSE(f.parts[0].depth_limited);
  EXPECT_TRUE(h.alwaysEqual(tm.boolLit(true), f.parts[0].entry.value, tm.mul(h.var(f, "x"), lit(50))));
}

// Recursion: the top-level call's decision is free, decisions inside recursive calls count.
TEST_P(Depth, RecursionSpendsTheBudget) {
  ExecOptions opt;
  opt.depth_limit = 10;
  Explored e = h.explore("Calls", "fact", "(I)I", opt);
  ASSERT_EQ(e.parts.size(), 12u);
  ASSERT_EQ(countCut(e), 1u);
  Term n = h.var(e, "n");
  int five = 0;
  for (const RawPartition& p : e.parts) {
    if (p.depth_limited) {
      EXPECT_TRUE(h.equivalent(h.pc(p), tm.ge(n, lit(12))));
    } else if (h.equivalent(h.pc(p), tm.eq(n, lit(5)))) {
      EXPECT_TRUE(h.returnsAt(p, {{n, lit(5)}}, lit(120)));
      ++five;
    }
  }
  EXPECT_EQ(five, 1);
}

// The partition set is a function of the paths: exploring twice, or with a different
// (irrelevant) solver timeout, yields the same path conditions in the same order.
TEST_P(Depth, PartitionSetIsReproducible) {
  ExecOptions a;
  a.depth_limit = 6;
  ExecOptions b = a;
  b.solver_timeout_ms = 5000;
  Explored e1 = h.explore("Calls", "twoLoops", "(II)I", a);
  Explored e2 = h.explore("Calls", "twoLoops", "(II)I", b);
  ASSERT_EQ(e1.parts.size(), e2.parts.size());
  for (std::size_t i = 0; i < e1.parts.size(); ++i) {
    EXPECT_EQ(h.pc(e1.parts[i]), h.pc(e2.parts[i]));
    EXPECT_EQ(e1.parts[i].depth_limited, e2.parts[i].depth_limited);
  }
}

// A loop whose exit is the nullness of an unmodelled call's result: the call's model forks on
// it (null or an unknown group) on every iteration, and the loop's own test of it is no fork
// any more. That fork spends the budget like a branch of the loop, so the loop ends at the
// limit; once it did not, and one path went round the loop until the run's deadline
// (ThreadUtils.getAllThreads in commons-lang3: TIMEOUT, no partition in 10 s).
TEST_P(Depth, AnUnmodelledCallsNullnessInALoopSpendsTheBudget) {
  for (int limit : {2, 6}) {
    SCOPED_TRACE(limit);
    ExecOptions opt;
    opt.depth_limit = limit;
    opt.deadline = Clock::now() + std::chrono::seconds(20);
    Explored e = h.explore("Calls", "root", "(Ljava/lang/ThreadGroup;)Ljava/lang/ThreadGroup;", opt);
    EXPECT_FALSE(e.stats.timed_out);
    EXPECT_GE(countCut(e), 1u);
    // Each path takes at most `limit` counted forks (the null tests of the input and of the
    // calls' results), and the calls that throw end theirs: a few partitions per iteration.
    EXPECT_LE(e.parts.size(), static_cast<std::size_t>(4 * (limit + 2))) << e.parts.size();
    EXPECT_GE(e.parts.size(), static_cast<std::size_t>(limit + 1)) << e.parts.size();
  }
}

// The concrete mode (an interpreter replay of a witness) on that loop: its branches depend on
// the unknown results, so the run is not concrete. It says so at the first such branch; it
// once followed one direction round the loop until its deadline, allocating a group per turn
// (4 GB in 9 s on ThreadUtils.getSystemThreadGroup).
TEST_P(Depth, AConcreteRunStopsAtItsFirstUndecidedBranch) {
  const auto& m = h.method("Calls", "parents", "()I");
  ExecOptions opt;
  opt.deadline = Clock::now() + std::chrono::seconds(20);
  const auto start = Clock::now();
  pasda::symexec::ConcreteRun run = pasda::symexec::runConcrete(h.program(), tm, m, {}, opt);
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_FALSE(run.completed);
  EXPECT_NE(run.error.find("not concrete"), std::string::npos) << run.error;
  EXPECT_LT(took, 5.0) << run.error;
  // A concrete path still completes: Listing 1 on a literal.
  pasda::symexec::ConcreteRun listing = pasda::symexec::runConcrete(h.program(), tm, h.method("Calls", "count", "(I)I"),
                                                                    {tm.intLit(4)}, ExecOptions{});
  EXPECT_TRUE(listing.completed) << listing.error;
}

INSTANTIATE_TEST_SUITE_P(Models, Depth, ::testing::Values(Arith::Math, Arith::Java), modelName);

class Deadline : public BothModels {};

// An unbounded loop with nonlinear 64-bit conditions: exploration (and any Z3 call in flight)
// must stop within about a second of the deadline, keeping the partitions finished so far.
TEST_P(Deadline, ExpensiveExplorationStopsAtTheDeadline) {
  Harness h(GetParam());
  ExecOptions opt;
  opt.depth_limit = 1 << 20;
  opt.solver_timeout_ms = 60000;  // only the deadline can stop a slow query
  auto start = Clock::now();
  opt.deadline = start + std::chrono::seconds(1);
  Explored e = h.explore("Calls", "heavy", "(JJJ)J", opt);
  double took = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_TRUE(e.stats.timed_out);
  EXPECT_LT(took, 2.0) << "exploration overran the 1 s deadline";
}

TEST_P(Deadline, CheapUnboundedExplorationKeepsItsPartitions) {
  Harness h(GetParam());
  ExecOptions opt;
  opt.depth_limit = 1 << 20;
  auto start = Clock::now();
  opt.deadline = start + std::chrono::seconds(1);
  // Depth-first on an unbounded loop would finish nothing; 16 independent decisions give
  // 65536 short paths, more than a second's worth.
  Explored e = h.explore("Calls", "wide", "(IIIIIIIIIIIIIIII)I", opt);
  double took = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_TRUE(e.stats.timed_out);
  EXPECT_LT(took, 2.0);
  EXPECT_GT(e.parts.size(), 5u) << "partitions finished before the deadline were lost";
  EXPECT_EQ(e.stats.partitions, e.parts.size());
}

// The benchmark's Ell/ellpi: its nonlinear real/float queries are where Z3 is slowest to stop.
// Long: when the deadline is not honoured this test runs as long as the solver does.
TEST_P(Deadline, BenchmarkEllpiHonoursTheDeadlineLong) {
  const std::string bench = PASDA_BENCHMARK_CLASSES;
  if (!std::filesystem::exists(bench + "/demo")) GTEST_SKIP() << "benchmark classes not compiled";
  Harness h(GetParam(), bench);
  ExecOptions opt;
  auto start = Clock::now();
  opt.deadline = start + std::chrono::seconds(1);
  Explored e = h.explore("demo/benchmarks/Ell/ellpi/Eq/oldV", "snippet", "(DDD)D", opt);
  double took = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_TRUE(e.stats.timed_out);
  EXPECT_LT(took, 2.0) << "exploration overran the 1 s deadline (" << e.stats.solver_checks << " checks, "
                       << e.stats.solver_seconds << " s in the solver)";
}

INSTANTIATE_TEST_SUITE_P(Models, Deadline, ::testing::Values(Arith::Math, Arith::Java), modelName);

}  // namespace
}  // namespace symtest
