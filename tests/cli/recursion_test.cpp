// The recursion rule (issue 13, RVT; tests/fixtures/recursion; docs/depth-limit.md,
// "Recursion"): recursive methods whose recursive calls, one shared function in both versions,
// give equal results and are made with the same arguments are EQ at any depth; a difference,
// or recursion in one version only, is never proved away.
#include <algorithm>

#include "cli/support.hpp"

namespace cli_test {
namespace {

class Recursion : public ::testing::TestWithParam<std::string> {
 protected:
  JsonRun run(const std::string& method, std::vector<std::string> extra = {}) {
    std::vector<std::string> a = {"--method", method, "--arith", GetParam()};
    if (std::find(extra.begin(), extra.end(), "--timeout") == extra.end()) a.insert(a.end(), {"--timeout", "10"});
    a.insert(a.end(), extra.begin(), extra.end());
    a.push_back(fixtureClass("recursion", "old", "recursion", "Rec"));
    a.push_back(fixtureClass("recursion", "new", "recursion", "Rec"));
    return runJson(a);
  }
  void expectProved(const std::string& method) {
    JsonRun j = run(method);
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
    EXPECT_EQ(j.json["decided_by"].string, "induction") << j.run.out;
    EXPECT_EQ(j.json["induction_note"].string, "proved: rec_" + method + ": the recursive calls of " + method +
                                                   " in both versions")
        << j.run.out;
    // Without the rule the recursion is unrolled to the depth limit only.
    JsonRun off = run(method, {"--induction", "off", "--deepen", "off", "--timeout", "5"});
    ASSERT_TRUE(off.ok) << off.run.out << off.run.err;
    EXPECT_NE(off.json["result"].string, "EQ") << off.run.out;
  }
};

TEST_P(Recursion, ReorderedRecursiveCallsAreEqAtAnyDepth) { expectProved("fib"); }

TEST_P(Recursion, ARecursionByAConstantDivisionIsEq) { expectProved("digits"); }

TEST_P(Recursion, ARecursionOverTwoArgumentsIsEq) { expectProved("power"); }

TEST_P(Recursion, ADifferentRecursiveCallIsNeq) {
  JsonRun j = run("fibBad");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
  EXPECT_EQ(j.json["induction_note"].string.rfind("recursion rule not proved", 0), 0u) << j.run.out;
}

TEST_P(Recursion, EqualValuesButRecursionInOneVersionOnlyIsNeverEq) {
  // zeroed is 0 in both wherever both finish; the old version recurses n deep (a stack overflow
  // for large n), the new one does not: the calls differ, so the rule proves nothing.
  JsonRun j = run("zeroed", {"--timeout", "4"});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_NE(j.json["result"].string, "EQ") << j.run.out;
  EXPECT_NE(j.json["decided_by"].string, "induction") << j.run.out;
  EXPECT_EQ(j.json["induction_note"].string.rfind("recursion rule not proved", 0), 0u) << j.run.out;
}

TEST_P(Recursion, AnEffectKeepsTheRuleOffAndTheNoteSaysWhy) {
  JsonRun j = run("counted", {"--timeout", "4"});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_NE(j.json["result"].string, "EQ") << j.run.out;
  EXPECT_NE(j.json["induction_note"].string.find("recursion rule not tried: old version: read of static field calls"),
            std::string::npos)
      << j.run.out;
}

INSTANTIATE_TEST_SUITE_P(Cli, Recursion, ::testing::Values("math", "java"));

}  // namespace
}  // namespace cli_test
