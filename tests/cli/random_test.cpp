// Random numbers and the clock in real code (issue 11; tests/fixtures/realcode/random;
// docs/interpreter.md, "Unknown library calls"): the versions' k-th draws and clock readings are
// coupled, so code that draws the same numbers (reads the clock) in the same order is EQ; two
// draws or readings of one version are never the same value, so a method that subtracts two
// draws (or two clock readings) is never EQ to one returning 0 — the engine once said EQ to both.
#include "cli/support.hpp"

namespace cli_test {
namespace {

struct Case {
  const char* method;
  bool eq;  // EQ expected; otherwise anything but EQ and NEQ
};

class RandomDraws : public ::testing::TestWithParam<std::tuple<Case, std::string>> {};

TEST_P(RandomDraws, Verdict) {
  const auto& [c, arith] = GetParam();
  JsonRun j = runJson({"--method", c.method, "--arith", arith, "--timeout", "10",
                       fixtureClass("realcode/random", "old", "realcode.random", "Draws"),
                       fixtureClass("realcode/random", "new", "realcode.random", "Draws")});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  if (c.eq) {
    EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
  } else {
    EXPECT_NE(j.json["result"].string, "EQ") << j.run.out;
    EXPECT_NE(j.json["result"].string, "NEQ") << j.run.out;  // random outputs: no witness replays
  }
}

const Case kCases[] = {
    {"pick", true},           // a static generator, a refactored bound
    {"die", true},            // ThreadLocalRandom.current().nextInt(1, 7) through a local
    {"coin", true},           // Math.random() compared the other way round
    {"twoGenerators", false}, // two unseeded generators: two seeds
    {"twoDraws", false},      // Math.random() - Math.random()
    {"twoDice", false},       // ThreadLocalRandom twice
    {"ticks", false},         // System.nanoTime() twice
    {"since", true},          // currentTimeMillis() once in both, through a local in one
    {"pair", false},          // the same draws in the other order
};

INSTANTIATE_TEST_SUITE_P(Cli, RandomDraws,
                         ::testing::Combine(::testing::ValuesIn(kCases), ::testing::Values("math", "java")),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).method) + "_" + std::get<1>(info.param);
                         });

}  // namespace
}  // namespace cli_test
