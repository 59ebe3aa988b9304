// Elements of reference-array inputs (tests/fixtures/realcode/ref_array): unknown objects, null
// or not, not all null — a change seen only with a non-null element is never EQ, and identical
// code over them is never NEQ.
#include "cli/support.hpp"

namespace cli_test {
namespace {

JsonRun names(const std::string& method, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"--method", method, "--stop-at-neq", "no", "--timeout", "30", "--arith", "java"};
  a.insert(a.end(), extra.begin(), extra.end());
  a.push_back(fixtureClass("realcode/ref_array", "old", "realcode.refarray", "Names"));
  a.push_back(fixtureClass("realcode/ref_array", "new", "realcode.refarray", "Names"));
  return runJson(a);
}

TEST(ReferenceArrayInputs, ADifferenceOnlyANonNullElementShowsIsNotEq) {
  JsonRun j = names("single");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  const std::string r = j.json["result"].string;
  EXPECT_TRUE(r == "NEQ" || r == "MAYBE_NEQ") << r << "\n" << j.run.out;
}

TEST(ReferenceArrayInputs, EqualElementsAreADifferenceTheJvmConfirms) {
  REQUIRE_JAVA();
  JsonRun j = names("same");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
}

TEST(ReferenceArrayInputs, IdenticalCodeOverThemIsEq) {
  JsonRun j = names("present", {"--shortcut", "off"});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
}

}  // namespace
}  // namespace cli_test
