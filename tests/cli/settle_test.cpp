// The settle rule (--settle, docs/release-diff.md "The settle rule"): once a partition rules an
// EQ verdict out, the exploration goes on for a NEQ at most the given seconds and at most
// --settle-partitions partitions, and ends; off (and auto, for one method) explore to the limit. The fixture's first partition is MAYBE_NEQ (an
// unmodelled call) and its loops over two input arrays make far more paths than the limits here.
#include "cli/support.hpp"

namespace cli_test {
namespace {

std::string lateOld() { return fixtureClass("settle/late", "old", "settle.late", "Count"); }
std::string lateNew() { return fixtureClass("settle/late", "new", "settle.late", "Count"); }

bool warns(const Json& run, const std::string& text) {
  const Json* w = run.find("warnings");
  if (!w || w->type != Json::Type::Array) return false;
  for (const Json& x : w->array)
    if (x.string.find(text) != std::string::npos) return true;
  return false;
}

TEST(Settle, AMethodThatCannotBeEqEndsItsExplorationSoonAfter) {
  JsonRun j = runJson({"--settle", "0.3", "--settle-partitions", "0", "--timeout", "120", "--replay", "interp", lateOld(),
                       lateNew()});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "MAYBE_NEQ") << j.run.out;
  EXPECT_EQ(j.run.code, 3);
  // Ended by the rule, not by the limit: not timed out, and it says why.
  EXPECT_FALSE(j.json["timed_out"].boolean) << j.run.out;
  EXPECT_TRUE(warns(j.json, "the exploration settled: it ended 0.3 s after partition ")) << j.run.out;
  EXPECT_TRUE(warns(j.json, " (MAYBE_NEQ), as the method cannot be EQ any more")) << j.run.out;
  CliRun text = runCli({"--settle", "0.3", "--timeout", "120", "--replay", "interp", lateOld(), lateNew()});
  EXPECT_EQ(resultLine(text), "MAYBE_NEQ") << text.out;
  EXPECT_NE(text.out.find("the exploration settled"), std::string::npos) << text.out;
}

// The partition count ends the grace when it comes first: exactly that many partitions follow
// the one that ruled EQ out.
TEST(Settle, APartitionCountEndsTheGraceWhenItComesFirst) {
  for (int count : {1, 5}) {
    JsonRun j = runJson({"--settle", "100", "--settle-partitions", std::to_string(count), "--timeout", "120",
                         "--replay", "interp", "--stop-at-neq", "no", lateOld(), lateNew()});
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "MAYBE_NEQ") << j.run.out;
    EXPECT_FALSE(j.json["timed_out"].boolean) << j.run.out;
    std::string prefix = "the exploration settled: it ended " + std::to_string(count) + " partitions after partition ";
    int settledAt = -1;
    for (const Json& w : j.json["warnings"].array)
      if (w.string.rfind(prefix, 0) == 0) settledAt = std::atoi(w.string.c_str() + prefix.size());
    ASSERT_GT(settledAt, 0) << j.run.out;
    const Json& parts = j.json["partitions"];
    ASSERT_EQ(parts.type, Json::Type::Array) << j.run.out;
    EXPECT_EQ(static_cast<int>(parts.array.size()), settledAt + count) << j.run.out;
  }
}

TEST(Settle, OffAndAutoForOneMethodExploreToTheLimit) {
  for (const char* value : {"off", "auto"}) {
    JsonRun j = runJson({"--settle", value, "--timeout", "3", "--replay", "interp", lateOld(), lateNew()});
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "MAYBE_NEQ") << value << j.run.out;
    EXPECT_TRUE(j.json["timed_out"].boolean) << value << j.run.out;
    EXPECT_FALSE(warns(j.json, "settled")) << value << j.run.out;
  }
}

TEST(Settle, IsOneSecondOr12PartitionsInAReleaseDiff) {
  const std::string dir = std::string(PASDA_FIXTURE_CLASSES) + "/settle/late/";
  CliRun r = runCli({dir + "old", dir + "new", "--jobs", "1", "--method-timeout", "120", "--format", "json"});
  Json j;
  try {
    j = JsonParser(r.out).parse();
  } catch (const std::exception& e) {
    FAIL() << e.what() << "\n" << r.out << r.err;
  }
  const Json* methods = j.find("methods");
  ASSERT_TRUE(methods && methods->type == Json::Type::Array) << r.out;
  const Json* count = nullptr;
  for (const Json& x : methods->array)
    if (x["method"].string == "count") count = &x;
  ASSERT_NE(count, nullptr) << r.out;
  const Json& m = *count;
  EXPECT_EQ(m["category"].string, "changed");
  EXPECT_EQ(m["result"].string, "MAYBE_NEQ") << r.out;
  // (the fixture makes partitions faster than 12 a second)
  EXPECT_TRUE(warns(m["run"], "the exploration settled: it ended 12 partitions after partition ")) << r.out;
  EXPECT_EQ(r.code, 3);
  // The text report gives it as the undecided method's reason.
  CliRun text = runCli({dir + "old", dir + "new", "--jobs", "1", "--method-timeout", "120"});
  EXPECT_NE(text.out.find("MAYBE_NEQ partitions; settled: it ended 12 partitions after partition "), std::string::npos)
      << text.out;
  // --settle-partitions 0: the second alone.
  CliRun seconds = runCli({dir + "old", dir + "new", "--jobs", "1", "--method-timeout", "120", "--settle-partitions", "0"});
  EXPECT_NE(seconds.out.find("MAYBE_NEQ partitions; settled: it ended 1 s after partition "), std::string::npos)
      << seconds.out;
}

TEST(Settle, TheOptionIsCheckedAndDocumented) {
  for (const char* bad : {"abc", "-1", "0", "1s", ""}) {
    CliRun r = runCli({"--settle", bad, lateOld(), lateNew()});
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("--settle: must be a positive number of seconds, off or auto, not '" + std::string(bad) + "'"),
              std::string::npos)
        << r.err;
  }
  for (const char* bad : {"abc", "-1", "1.5", ""}) {
    CliRun r = runCli({"--settle-partitions", bad, lateOld(), lateNew()});
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("--settle-partitions: "), std::string::npos) << r.err;
  }
  CliRun help = runCli({"--help"});
  EXPECT_NE(help.out.find("--settle"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--settle-partitions"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("1 in a release diff"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace cli_test
