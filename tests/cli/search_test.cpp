// Searches beyond the solver (issue 13): a MAYBE_NEQ partition whose model does not replay to
// a difference is searched like an undecided one (tests/fixtures/search); a partition cut by
// the depth limit is searched by running the concrete product past the limit
// (tests/fixtures/induction's lateDiff, with deepening and induction off).
#include "cli/support.hpp"

namespace cli_test {
namespace {

class Search : public ::testing::TestWithParam<std::string> {};

/// The run is NEQ, established by a concrete witness (search or replay), whose JVM replay differs.
void expectConcreteNeq(const JsonRun& j) {
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
  const std::string by = j.json["decided_by"].string;
  EXPECT_TRUE(by == "search" || by == "replay") << by << "\n" << j.run.out;
  bool jvmDiffers = false;
  for (const Json& p : j.json["partitions"].array) {
    if (p["result"].string != "NEQ") continue;
    for (const Json& r : p["replays"].array) jvmDiffers = jvmDiffers || (r["engine"].string == "jvm" && r["differs"].boolean);
  }
  EXPECT_TRUE(jvmDiffers) << "no NEQ partition's witness differs in a real JVM\n" << j.run.out;
}

TEST_P(Search, AMaybeNeqWhoseModelDoesNotReplayIsSearched) {
  REQUIRE_JAVA();
  const std::string dir = scratch("search-band-" + GetParam()).string();
  JsonRun j = runJson({"--arith", GetParam(), "--timeout", "20", "--emit-tests", dir,
                       fixtureClass("search", "old", "search", "Band"), fixtureClass("search", "new", "search", "Band")});
  expectConcreteNeq(j);
  // The found witness is a JUnit test too.
  const std::string src = slurp(dir + "/search/Band_band_RegressionTest.java");
  EXPECT_NE(src.find("band("), std::string::npos) << src;
}

TEST_P(Search, ADifferenceBeyondTheDepthLimitIsFoundByTheConcreteProduct) {
  REQUIRE_JAVA();
  // Equal for 25 iterations, then not: the depth limit cuts every path before the difference.
  const std::string o = fixtureClass("induction", "old", "induction", "Loops");
  const std::string n = fixtureClass("induction", "new", "induction", "Loops");
  JsonRun j = runJson({"--method", "lateDiff", "--arith", GetParam(), "--timeout", "20", "--deepen", "off",
                       "--induction", "off", o, n});
  expectConcreteNeq(j);
  EXPECT_EQ(j.json["decided_by"].string, "search") << j.run.out;
  // Without it the partitions stay cut.
  JsonRun off = runJson({"--method", "lateDiff", "--arith", GetParam(), "--timeout", "20", "--deepen", "off",
                         "--induction", "off", "--deep-search", "off", o, n});
  ASSERT_TRUE(off.ok) << off.run.out << off.run.err;
  EXPECT_EQ(off.json["result"].string, "MAYBE_EQ") << off.run.out;
}

INSTANTIATE_TEST_SUITE_P(Cli, Search, ::testing::Values("math", "java"));

}  // namespace
}  // namespace cli_test
