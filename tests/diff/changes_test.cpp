// diff::changedLines (issue 14): the unaligned code of each version, per gap and source line,
// on the explanation fixtures (tests/fixtures/explain/<case>/{old,new}).
#include <gtest/gtest.h>

#include <string>

#include "pasda/diff/diff.hpp"
#include "pasda/jvm/loader.hpp"

namespace {

using pasda::Version;
using pasda::diff::ChangedLine;
using Kind = ChangedLine::Kind;

std::vector<ChangedLine> changes(const std::string& c, const std::string& cls) {
  const std::string base = std::string(PASDA_FIXTURE_CLASSES) + "/explain/" + c;
  auto o = pasda::jvm::loadClassFile(base + "/old/explain/" + c + "/" + cls + ".class");
  auto n = pasda::jvm::loadClassFile(base + "/new/explain/" + c + "/" + cls + ".class");
  return pasda::diff::changedLines(o, n, "f:(I)I");
}

TEST(ChangedLines, AChangedConstantIsOneChangedLineWithItsOldCounterpart) {
  auto cs = changes("constant", "C");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].kind, Kind::Changed);
  EXPECT_EQ(cs[0].side, Version::kNew);
  EXPECT_EQ(cs[0].line, 6);
  EXPECT_EQ(cs[0].other_lines, std::vector<int>{6});
  EXPECT_NE(cs[0].code.find("bipush 10"), std::string::npos) << cs[0].code;
  EXPECT_NE(cs[0].other_code.find("iconst_5"), std::string::npos) << cs[0].other_code;
  EXPECT_EQ(cs[0].method, "f:(I)I");
}

TEST(ChangedLines, TwoChangesAreTwoLines) {
  auto cs = changes("twochanges", "T");
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_EQ(cs[0].line, 5);
  EXPECT_EQ(cs[1].line, 9);
  for (const auto& c : cs) EXPECT_EQ(c.kind, Kind::Changed);
}

TEST(ChangedLines, AnInsertedGuardIsInsertedCodeOfTheNewVersion) {
  auto cs = changes("guard", "G");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].kind, Kind::Inserted);
  EXPECT_EQ(cs[0].side, Version::kNew);
  EXPECT_EQ(cs[0].line, 5);
  EXPECT_TRUE(cs[0].other_lines.empty());
}

TEST(ChangedLines, ADeletedStatementIsOldCodeBetweenTwoNewLines) {
  auto cs = changes("deleted", "D");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].kind, Kind::Deleted);
  EXPECT_EQ(cs[0].side, Version::kOld);
  EXPECT_EQ(cs[0].line, 6);
  EXPECT_EQ(cs[0].near_lines, (std::vector<int>{5, 6}));  // int y = x * 2; | return y - 1;
}

TEST(ChangedLines, OnlyTheChangedLineOfALoop) {
  auto cs = changes("loop", "L");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].line, 7);
  EXPECT_EQ(cs[0].kind, Kind::Changed);
}

TEST(ChangedLines, AMissingMethodIsAnError) {
  const std::string base = std::string(PASDA_FIXTURE_CLASSES) + "/explain/constant";
  auto o = pasda::jvm::loadClassFile(base + "/old/explain/constant/C.class");
  EXPECT_THROW(pasda::diff::changedLines(o, o, "g:(I)I"), std::invalid_argument);
  EXPECT_TRUE(pasda::diff::changedLines(o, o, "f:(I)I").empty());  // identical code: nothing changed
}

}  // namespace
