// Induction on a benchmark pair under Java's arithmetic (needs ../shared/ardiff-benchmark:
// skipped without it on a developer's machine, a failure under CI=true).
#include "cli/support.hpp"

namespace cli_test {
namespace {

TEST(InductionBenchmark, RelationsTrueAsTermsHoldAtTheEntriesWhereTheSolverCannotTell) {
  // Bess/bessj/Eq: the second loop pair's entries follow a floating-point path (the first
  // loops' summaries, Math.getExponent's bits) whose implication queries the solver cannot
  // decide under Java. Relations that are true as terms (IEXP == 2048 on both sides, equal
  // variables holding one term) hold there all the same; before they were dropped with the
  // rest, the loops were "not coupled" and the pair ended MAYBE_EQ at the deadline.
  const std::string dir = std::string(PASDA_BENCHMARK_CLASSES) + "/demo/benchmarks/Bess/bessj/Eq/";
  if (!fs::exists(dir + "oldV.class") || !fs::exists(dir + "newV.class")) {
    if (onCi()) FAIL() << "benchmark classes missing in " << dir << " (CI=true)";
    GTEST_SKIP() << "benchmark classes missing in " << dir;
  }
  JsonRun j = runJson({"--method", "snippet", "--arith", "java", "--timeout", "20", dir + "oldV.class", dir + "newV.class"});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
  EXPECT_EQ(j.json["decided_by"].string, "induction") << j.run.out;
  const std::string note = j.json["induction_note"].string;
  EXPECT_NE(note.find("IEXP(old) == 2048"), std::string::npos) << note;
  EXPECT_EQ(note.find("not coupled"), std::string::npos) << note;
}

}  // namespace
}  // namespace cli_test
