// The recursion rule's precondition (MatchResult::shares_recursion, issue 13): a recursive
// method that only computes a value from primitive arguments in both versions qualifies; one
// with an effect, or one that does not call itself, does not (tests/fixtures/recursion).
#include <gtest/gtest.h>

#include <string>

#include "pasda/diff/diff.hpp"
#include "pasda/jvm/loader.hpp"

namespace {

pasda::diff::MatchResult matchRec(const std::string& method) {
  const std::string base = std::string(PASDA_FIXTURE_CLASSES) + "/recursion/";
  const pasda::jvm::ClassFile oldCls = pasda::jvm::loadClassFile(base + "old/recursion/Rec.class");
  const pasda::jvm::ClassFile newCls = pasda::jvm::loadClassFile(base + "new/recursion/Rec.class");
  return pasda::diff::match(oldCls, newCls, method);
}

TEST(RecursionRule, APureRecursiveMethodSharesItsRecursion) {
  for (const char* m : {"fib:(I)I", "digits:(J)I", "power:(JI)J", "fibBad:(I)I"}) {
    pasda::diff::MatchResult r = matchRec(m);
    EXPECT_TRUE(r.shares_recursion) << m << ": " << r.recursion_note;
    EXPECT_EQ(r.recursion_note, "") << m;
  }
}

TEST(RecursionRule, RecursionInOneVersionOnlyStillQualifies) {
  // The call check at the comparison then decides (the other version makes no calls).
  EXPECT_TRUE(matchRec("zeroed:(I)I").shares_recursion);
}

TEST(RecursionRule, AnEffectKeepsTheRuleOffAndSaysWhy) {
  pasda::diff::MatchResult r = matchRec("counted:(I)I");
  EXPECT_FALSE(r.shares_recursion);
  EXPECT_NE(r.recursion_note.find("static field calls"), std::string::npos) << r.recursion_note;
}

TEST(RecursionRule, AMethodThatDoesNotCallItselfHasNoRuleAndNoNote) {
  pasda::diff::MatchResult r = matchRec("<init>:()V");
  EXPECT_FALSE(r.shares_recursion);
  EXPECT_EQ(r.recursion_note, "");
}

}  // namespace
