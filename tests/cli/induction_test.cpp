// Induction (issue 13; tests/fixtures/induction; docs/depth-limit.md, "Coupled loops"): loops
// of the two versions coupled by an invariant proved inductive over their bodies make a method
// EQ for every trip count; a relation that holds at the entries but not after an iteration, a
// difference after many iterations or an exception in one version only is never proved.
#include <algorithm>

#include "cli/support.hpp"

namespace cli_test {
namespace {

class Induction : public ::testing::TestWithParam<std::string> {
 protected:
  JsonRun run(const std::string& method, std::vector<std::string> extra = {}) {
    std::vector<std::string> a = {"--method", method, "--arith", GetParam()};
    if (std::find(extra.begin(), extra.end(), "--timeout") == extra.end()) a.insert(a.end(), {"--timeout", "20"});
    a.insert(a.end(), extra.begin(), extra.end());
    a.push_back(fixtureClass("induction", "old", "induction", "Loops"));
    a.push_back(fixtureClass("induction", "new", "induction", "Loops"));
    return runJson(a);
  }
  void expectProved(const std::string& method, const std::string& relation) {
    JsonRun j = run(method);
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
    EXPECT_EQ(j.json["decided_by"].string, "induction") << j.run.out;
    EXPECT_NE(j.json["induction_note"].string.find(relation), std::string::npos) << j.run.out;
    // Without induction the loops are unrolled: the paper's iterations cannot finish them.
    JsonRun off = run(method, {"--induction", "off", "--deepen", "off"});
    ASSERT_TRUE(off.ok) << off.run.out << off.run.err;
    EXPECT_NE(off.json["result"].string, "EQ") << off.run.out;
    EXPECT_TRUE(off.json["induction_note"].type == Json::Type::Null) << off.run.out;
  }
  /// NEQ, with an induction note saying the attempt failed and containing `why`.
  void expectNeqAndNotProved(const std::string& method, const std::string& why) {
    JsonRun j = run(method);
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
    const std::string note = j.json["induction_note"].string;
    EXPECT_EQ(note.rfind("not proved", 0), 0u) << note;
    EXPECT_NE(note.find(why), std::string::npos) << note;
  }
  void expectNeverProved(const std::string& method) {
    JsonRun j = run(method);
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_NE(j.json["result"].string, "EQ") << j.run.out;
    EXPECT_NE(j.json["decided_by"].string, "induction") << j.run.out;
  }
};

TEST_P(Induction, ALockStepLoopWithAnOffsetIsEqForEveryTripCount) {
  expectProved("offset", "c(old) - c(new) == -1");
}

TEST_P(Induction, AReturnInsideTheLoopsReturnsEqualValuesAtTheSameIteration) { expectProved("early", "i(old) == i(new)"); }

TEST_P(Induction, AnExceptionInsideTheLoopsIsThrownAtTheSameIteration) { expectProved("divides", "s(old) == s(new)"); }

TEST_P(Induction, AnAffineRelationFoundByKarrsAnalysisCouplesScaledCounters) {
  // k += 2 against m += 1: no equality or offset relates k and m, k(old) == 2 * m(new) does.
  expectProved("scaled", "k(old) - m(new) * 2 == 0");
}

TEST_P(Induction, AnIndexScaledByTwoIsEqOnlyWhereTwiceTheBoundCannotOverflow) {
  // i < n against j < 2 * n with j += 2: j(new) == 2 * i(old) keeps them in lock step over
  // unbounded integers; under Java 2 * n wraps around for |n| > 2^30 and the loops differ.
  JsonRun j = run("strided");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  if (GetParam() == "math") {
    EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
    EXPECT_EQ(j.json["decided_by"].string, "induction") << j.run.out;
    EXPECT_NE(j.json["induction_note"].string.find("i(old) * 2"), std::string::npos) << j.run.out;
  } else {
    EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
    const std::string note = j.json["induction_note"].string;
    EXPECT_NE(note.find("do not run in lock step"), std::string::npos) << note;
  }
}

TEST_P(Induction, AScaledRelationThatBreaksAfterManyIterationsIsNeverEq) {
  // m += 1 for 25 iterations, then m += 2: k(old) == 2 * m(new) holds only up to there.
  expectNeverProved("scaledLate");
}

TEST_P(Induction, ABoundOfTheCounterKeepsLessThanAndNotEqualInLockStep) {
  // i < n against i != n after `if (n < 0) return 0`: i(new) <= n(new) holds at the entries
  // (by the path condition) and after every iteration.
  expectProved("bounded", "i(new) <= n(new)");
}

TEST_P(Induction, AFlagAgainstACounterIsCoupledByADisjunctionFromSpacer) {
  // `if (i >= 5) s += a` against a flag set at i == 5: s(old) == s(new) is inductive only with
  // "the flag is set exactly when i > 5", which Spacer finds for the Horn clauses of the bodies.
  JsonRun j = run("flagged");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
  EXPECT_EQ(j.json["decided_by"].string, "induction") << j.run.out;
  const std::string note = j.json["induction_note"].string;
  EXPECT_NE(note.find("candidate conjuncts from Spacer"), std::string::npos) << note;
  EXPECT_NE(note.find("on(new)"), std::string::npos) << "the invariant does not relate the flag: " << note;
  EXPECT_NE(note.find(" || "), std::string::npos) << "no disjunction in the invariant: " << note;
  JsonRun off = run("flagged", {"--induction", "off", "--deepen", "off"});
  ASSERT_TRUE(off.ok) << off.run.out << off.run.err;
  EXPECT_NE(off.json["result"].string, "EQ") << off.run.out;
}

TEST_P(Induction, AFlagSetOneIterationLateIsNeverCoupled) {
  // The same with the flag set at i == 6: the sums differ from n = 7 on (a != 0).
  expectNeqAndNotProved("flaggedLate", "Horn clauses: no invariant");
}

TEST_P(Induction, AnUnrolledLoopIsCoupledTwoOldIterationsPerNewOne) {
  // The new loop does two iterations' work with the bound checked between the halves: never in
  // lock step (i + 1 against i + 2), but two old iterations against one new keep i and s equal,
  // under Java too (no sum can wrap: i < n before each increment).
  expectProved("unrolled", "at 2 old iterations per new one: invariant");
  JsonRun j = run("unrolled");
  const std::string note = j.json["induction_note"].string;
  EXPECT_NE(note.find("s(old) == s(new)"), std::string::npos) << note;
}

TEST_P(Induction, AnUnrolledLoopWithAnOffByOneBoundIsNeverEq) {
  // `++i > n` instead of `++i >= n`: n = 1 gives x against 2 * x.
  expectNeqAndNotProved("unrolledWrong", "not coupled at 2 old iterations per new one");
}

TEST_P(Induction, ALoopRunningTwiceAsOftenIsCoupledOnlyOverUnboundedIntegers) {
  // j < n adding 2 * x against i < 2 * n adding x: one old iteration per two new ones, with
  // i(new) == 2 * j(old). Under Java 2 * n wraps around (n = -2^31 + 1: 2 * n == 2).
  JsonRun j = run("halved");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  const std::string note = j.json["induction_note"].string;
  if (GetParam() == "math") {
    EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
    EXPECT_EQ(j.json["decided_by"].string, "induction") << j.run.out;
    EXPECT_NE(note.find("at 1 old iteration per 2 new ones: invariant"), std::string::npos) << note;
  } else {
    EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
    EXPECT_EQ(note.rfind("not proved", 0), 0u) << note;
  }
}

TEST_P(Induction, LessThanAgainstNotEqualWithoutTheGuardIsNeverEq) {
  // For n < 0 the old loop does not run and the new one runs until i wraps around to n (Java)
  // or forever (unbounded integers): no bound holds at the entry, the loops are not coupled.
  expectNeverProved("unbounded");
}

TEST_P(Induction, ARelationThatHoldsAtTheEntriesButIsNotInductiveIsRejected) {
  // x(old) == x(new) == 0 at the entries; after one iteration 1 vs 2.
  JsonRun j = run("drift");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
  const std::string note = j.json["induction_note"].string;
  EXPECT_EQ(note.rfind("not proved", 0), 0u) << note;
  EXPECT_EQ(note.find("x(old) == x(new)"), std::string::npos) << "x's equality kept as inductive: " << note;
}

TEST_P(Induction, ADifferenceAfterTheDepthLimitIsNeverEq) {
  // Equal for 25 iterations, then +2 against +1: the per-iteration paths differ under any
  // relation of c, so no invariant holds; deepening reaches the 26th iteration.
  expectNeverProved("lateDiff");
}

TEST_P(Induction, AnExceptionInOneVersionOnlyIsNeverEq) {
  // n == 1, d == 0: the old version divides by zero, the new one returns 100.
  expectNeverProved("throwsLate");
}

TEST_P(Induction, ARecursiveFunctionAgainstItsLoopFormIsNeverEq) {
  // Equal wherever both finish, but the recursion overflows the stack for large n: no
  // mechanism may call it EQ, nor NEQ (no input differs within reach).
  JsonRun j = run("sumTo", {"--timeout", "6"});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_NE(j.json["result"].string, "EQ") << j.run.out;
  EXPECT_NE(j.json["result"].string, "NEQ") << j.run.out;
  EXPECT_NE(j.json["result"].string, "ERROR") << j.run.out;
}

TEST_P(Induction, ADifferenceDeepInTheRecursionIsFoundNotProvedAway) {
  // Old and new differ from n = 31 on, 31 nested calls deep.
  JsonRun j = run("sumLate");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
}

INSTANTIATE_TEST_SUITE_P(Cli, Induction, ::testing::Values("math", "java"));

TEST(InductionOption, IsCheckedAndDocumented) {
  CliRun bad = runCli({"--induction", "yes", fixtureClass("induction", "old", "induction", "Loops"),
                       fixtureClass("induction", "new", "induction", "Loops")});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--induction: must be on or off, not 'yes'"), std::string::npos) << bad.err;
  CliRun help = runCli({"--help"});
  EXPECT_NE(help.out.find("--induction"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--split-time"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace cli_test
