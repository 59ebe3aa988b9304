// --deepen through the command line: the option, the text line and the JSON fields that report
// the depth limit used and the rounds (docs/depth-limit.md, "Deepening").
#include "cli/support.hpp"

namespace cli_test {
namespace {

std::string boundedOld() { return fixtureClass("deepen/bounded", "old", "deepen.bounded", "Loop"); }
std::string boundedNew() { return fixtureClass("deepen/bounded", "new", "deepen.bounded", "Loop"); }

TEST(Deepen, OnByDefaultReportsTheLimitUsedAndTheRounds) {
  CliRun r = runCli({"--timeout", "60", "--replay", "interp", boundedOld(), boundedNew()});
  EXPECT_EQ(resultLine(r), "EQ") << r.out << r.err;
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("depth limit 40 (deepening: 3 rounds from 10)"), std::string::npos) << r.out;
  JsonRun j = runJson({"--timeout", "60", "--replay", "interp", boundedOld(), boundedNew()});
  ASSERT_TRUE(j.ok);
  EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
  EXPECT_EQ(j.json["depth_limit_used"].number, 40);
  EXPECT_EQ(j.json["deepening_rounds"].number, 3);
  EXPECT_TRUE(j.json["settings"]["deepen"].boolean);
  EXPECT_EQ(j.json["settings"]["depth_limit"].number, 10);
}

TEST(Deepen, OffIsTheSingleRoundOfTheGivenLimit) {
  JsonRun j = runJson({"--deepen", "off", "--timeout", "60", "--replay", "interp", boundedOld(), boundedNew()});
  ASSERT_TRUE(j.ok);
  EXPECT_EQ(j.json["result"].string, "MAYBE_EQ") << j.run.out;
  EXPECT_EQ(j.run.code, 3);
  EXPECT_EQ(j.json["depth_limit_used"].number, 10);
  EXPECT_EQ(j.json["deepening_rounds"].number, 1);
  EXPECT_FALSE(j.json["settings"]["deepen"].boolean);
  CliRun r = runCli({"--deepen", "off", "--timeout", "60", "--replay", "interp", boundedOld(), boundedNew()});
  EXPECT_NE(r.out.find("depth limit 10 (deepening off)"), std::string::npos) << r.out;
}

TEST(Deepen, TheOptionIsCheckedAndDocumented) {
  CliRun bad = runCli({"--deepen", "yes", boundedOld(), boundedNew()});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--deepen: must be on or off, not 'yes'"), std::string::npos) << bad.err;
  CliRun help = runCli({"--help"});
  EXPECT_NE(help.out.find("--deepen"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace cli_test
