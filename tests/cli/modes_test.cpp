// Issue 5 through the command line: an equivalence that needs abstraction (an unchanged loop
// with a symbolic bound followed by changed but equivalent code) is proven by --mode pasda and
// not by --mode prv; --show-blocks lists the matched regions; every mode runs on the pair.
#include "cli/support.hpp"

namespace cli_test {
namespace {

std::string loopOld() { return fixtureClass("modes/loopsum", "old", "modes.loopsum", "Loop"); }
std::string loopNew() { return fixtureClass("modes/loopsum", "new", "modes.loopsum", "Loop"); }

class LoopSum : public ::testing::TestWithParam<std::string> {};

TEST_P(LoopSum, PasdaProvesEquivalenceThroughTheAbstractedLoop) {
  // (--induction off: with it, the loops are coupled and proved before any iteration; this is
  // about PASDA's own abstraction.)
  JsonRun j = runJson({"--mode", "pasda", "--arith", GetParam(), "--timeout", "30", "--induction", "off", loopOld(),
                       loopNew()});
  ASSERT_TRUE(j.ok);
  EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
  EXPECT_EQ(j.run.code, 0);
  // Iteration 1 (no UIFs) cannot finish the unbounded loop; the proof comes from a later
  // iteration in which the loop is a UIF shared by both versions.
  const Json& its = j.json["iterations"];
  ASSERT_EQ(its.type, Json::Type::Array);
  ASSERT_GE(its.array.size(), 2u) << j.run.out;
  EXPECT_NE(its[0]["result"].string, "EQ") << "the loop was proven without abstraction?";
  EXPECT_GE(j.json["reported_iteration"].number, 2);
  EXPECT_TRUE(j.json["has_uif"].boolean);
  bool uifSeen = false;
  for (const Json& p : j.json["partitions"].array) {
    EXPECT_EQ(p["result"].string, "EQ") << p["path_condition"].string;
    uifSeen = uifSeen || p["uif_old"].boolean || p["uif_new"].boolean;
  }
  EXPECT_TRUE(uifSeen) << "no partition of the reported iteration uses the loop's UIF";
}

TEST_P(LoopSum, PrvDoesNotProveIt) {
  JsonRun j = runJson({"--mode", "prv", "--arith", GetParam(), "--timeout", "30", "--deepen", "off", loopOld(),
                       loopNew()});
  ASSERT_TRUE(j.ok);
  const std::string r = j.json["result"].string;
  EXPECT_NE(r, "EQ") << "prv has no abstraction: the unbounded loop cannot be proven";
  EXPECT_NE(r, "NEQ") << "false NEQ";
  EXPECT_NE(r, "ERROR") << j.json["errors"].string;
  // PRV is PASDA's first iteration alone, without the best-effort MAYBE_* classes.
  EXPECT_TRUE(r == "UNKNOWN" || r == "DEPTH_LIMITED") << r;
  EXPECT_EQ(j.run.code, 3);
  EXPECT_EQ(j.json["iterations"].array.size(), 1u);
  EXPECT_FALSE(j.json["has_uif"].boolean);
}

TEST_P(LoopSum, NoModeGivesAFalseProofOrError) {
  for (const char* mode : {"pasda", "prv", "ardiff", "dse"}) {
    SCOPED_TRACE(mode);
    CliRun r = runCli({"-q", "--mode", mode, "--arith", GetParam(), "--timeout", "30", loopOld(), loopNew()});
    EXPECT_NE(r.code, 2) << r.out << r.err;
    const std::string res = resultLine(r);
    EXPECT_NE(res, "NEQ");
    EXPECT_NE(res, "ERROR");
    EXPECT_NE(res, "(none)") << r.out << r.err;
  }
}

// The unchanged loop sits in a helper that changed (s * 2 became s + s): the matcher compares
// changed helpers too, so the loop is a region of the helper and pasda proves EQ through it.
TEST_P(LoopSum, RegionsInsideAChangedHelperAreAbstracted) {
  std::string o = fixtureClass("modes/helperloop", "old", "modes.helperloop", "Loop");
  std::string n = fixtureClass("modes/helperloop", "new", "modes.helperloop", "Loop");
  CliRun blocks = runCli({o, n, "--method", "entry", "--show-blocks"});
  ASSERT_EQ(blocks.code, 0) << blocks.out << blocks.err;
  EXPECT_NE(blocks.out.find("in weighted:(II)I"), std::string::npos) << blocks.out;
  JsonRun j = runJson({"--mode", "pasda", "--arith", GetParam(), "--timeout", "30", "--method", "entry", o, n});
  ASSERT_TRUE(j.ok);
  EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
  EXPECT_GE(j.json["reported_iteration"].number, 2);
  JsonRun prv = runJson(
      {"--mode", "prv", "--arith", GetParam(), "--timeout", "30", "--deepen", "off", "--method", "entry", o, n});
  ASSERT_TRUE(prv.ok);
  EXPECT_NE(prv.json["result"].string, "EQ");
  EXPECT_NE(prv.json["result"].string, "NEQ");
}

// A difference that only exists beyond the depth limit (n > 20) and, in the abstracted
// iterations, on a path conditioned on the loop's UIF (MAYBE_REACHABLE): the solver cannot
// prove it, a concrete replay can, confirmed in the math model on the unabstracted path.
TEST_P(LoopSum, ConcreteReplayDecidesAPathConditionedOnAUif) {
  std::string o = fixtureClass("modes/deeploop", "old", "modes.deeploop", "Loop");
  std::string n = fixtureClass("modes/deeploop", "new", "modes.deeploop", "Loop");
  // (--deep-search off: the search past the depth limit finds it in the first iteration.)
  JsonRun j = runJson({"--mode", "pasda", "--arith", GetParam(), "--timeout", "30", "--deep-search", "off", o, n});
  ASSERT_TRUE(j.ok);
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
  EXPECT_GE(j.json["reported_iteration"].number, 2);
  bool concrete = false;
  for (const Json& p : j.json["partitions"].array) {
    if (p["result"].string != "NEQ") continue;
    const Json* byField = p.find("decided_by");
    const std::string by = byField ? byField->string : "";
    if ((by == "replay" || by == "search") && p["uif_pc"].boolean) concrete = true;
  }
  EXPECT_TRUE(concrete) << "no NEQ partition with a UIF in its path condition decided by a concrete replay\n"
                        << j.run.out;
  JsonRun prv = runJson({"--mode", "prv", "--arith", GetParam(), "--timeout", "30", "--deepen", "off", o, n});
  ASSERT_TRUE(prv.ok);
  EXPECT_NE(prv.json["result"].string, "NEQ");
  EXPECT_NE(prv.json["result"].string, "EQ");
  // With deepening, prv reaches the difference itself: n = 21 and k = 0 at depth limit 40.
  JsonRun deep = runJson({"--mode", "prv", "--arith", GetParam(), "--timeout", "30", o, n});
  ASSERT_TRUE(deep.ok);
  EXPECT_EQ(deep.json["result"].string, "NEQ") << deep.run.out;
  EXPECT_GT(deep.json["depth_limit_used"].number, 20);
}

INSTANTIATE_TEST_SUITE_P(Cli, LoopSum, ::testing::Values("math", "java"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// ---------------------------------------------------------------------------------------------
// --show-blocks: the matched regions of each version, then exit 0 without analysing.

TEST(ShowBlocks, ListsTheUnchangedLoopWithPcRangesLinesInputsAndOutputs) {
  CliRun r = runCli({loopOld(), loopNew(), "--show-blocks"});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("Result:"), std::string::npos) << "--show-blocks must not run the analysis";
  EXPECT_NE(r.out.find("scaled"), std::string::npos) << r.out;
  // One region at least, listed for both versions with a pc range and source lines.
  std::size_t region = r.out.find("region");
  ASSERT_NE(region, std::string::npos) << r.out;
  std::size_t oldAt = r.out.find("old", region), newAt = r.out.find("new", region);
  ASSERT_NE(oldAt, std::string::npos) << r.out;
  ASSERT_NE(newAt, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pc", region), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lines", region), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("inputs", region), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("outputs", region), std::string::npos) << r.out;
  // The unchanged loop (source lines 5-8, identical in both files) is inside a region of each
  // version: its loop line 6 is listed for old and new alike.
  std::vector<std::string> regionLines;
  std::stringstream ss(r.out);
  for (std::string l; std::getline(ss, l);)
    if (l.find("pc ") != std::string::npos && l.find("lines") != std::string::npos) regionLines.push_back(l);
  ASSERT_GE(regionLines.size(), 2u) << r.out;
  auto coversLine6 = [](const std::string& l) {
    std::string lines = l.substr(l.find("lines") + 5);
    // "6", "5-8", "5, 6-7": a range or single number containing 6.
    for (std::size_t i = 0; i < lines.size();) {
      while (i < lines.size() && !std::isdigit(static_cast<unsigned char>(lines[i]))) ++i;
      if (i >= lines.size()) break;
      std::size_t j = i;
      while (j < lines.size() && std::isdigit(static_cast<unsigned char>(lines[j]))) ++j;
      int a = std::stoi(lines.substr(i, j - i)), b = a;
      if (j < lines.size() && lines[j] == '-' && j + 1 < lines.size() && std::isdigit(static_cast<unsigned char>(lines[j + 1]))) {
        std::size_t k = j + 1;
        while (k < lines.size() && std::isdigit(static_cast<unsigned char>(lines[k]))) ++k;
        b = std::stoi(lines.substr(j + 1, k - j - 1));
        j = k;
      }
      if (a <= 6 && 6 <= b) return true;
      i = j;
    }
    return false;
  };
  bool oldCovers = false, newCovers = false;
  for (const std::string& l : regionLines) {
    if (l.find("old") != std::string::npos) oldCovers = oldCovers || coversLine6(l);
    if (l.find("new") != std::string::npos) newCovers = newCovers || coversLine6(l);
  }
  EXPECT_TRUE(oldCovers) << r.out;
  EXPECT_TRUE(newCovers) << r.out;
  // The loop's result `s` is an output of the region (by its local name, -g is on).
  std::size_t outputs = r.out.find("outputs", region);
  std::string outLine = r.out.substr(outputs, r.out.find('\n', outputs) - outputs);
  EXPECT_NE(outLine.find('s'), std::string::npos) << outLine;
}

TEST(ShowBlocks, IdenticalMethodsAreOneRegionAndChangedOnesAreNot) {
  // The changed `return` is never abstracted: in the loop pair the region must end before the
  // return line (9) of either version.
  CliRun r = runCli({loopOld(), loopNew(), "--show-blocks"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::stringstream ss(r.out);
  for (std::string l; std::getline(ss, l);) {
    if (l.find("pc ") == std::string::npos || l.find("lines") == std::string::npos) continue;
    std::string lines = l.substr(l.find("lines") + 5);
    EXPECT_EQ(lines.find('9'), std::string::npos) << "the changed return line is in a region: " << l;
  }
}

TEST(ShowBlocks, BadInputIsATypedError) {
  CliRun r = runCli({loopOld(), "/nonexistent/Loop.class", "--show-blocks"});
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
  CliRun m = runCli({loopOld(), loopNew(), "--show-blocks", "--method", "noSuchMethod"});
  EXPECT_EQ(m.code, 2) << m.out << m.err;
  EXPECT_FALSE(m.err.empty());
}

}  // namespace
}  // namespace cli_test
